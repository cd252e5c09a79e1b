//! Sources as a reader can look them up: the catalog cites public pages in a shorthand
//! (`LEARN-ANF/<page>`, `GCNV/<path>`) and adds working notes (section numbers of the
//! design notes, measurement and calibration ids). Reports print the page titles and
//! list each page once with its address.

/// A public document a report cites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    pub title: String,
    pub url: String,
}

/// Shorthand prefixes and the address each stands for.
const SITES: [(&str, &str); 6] = [
    (
        "LEARN-ANF",
        "https://learn.microsoft.com/azure/azure-netapp-files/",
    ),
    (
        "LEARN-FILES",
        "https://learn.microsoft.com/azure/storage/files/",
    ),
    (
        "LEARN-AVS",
        "https://learn.microsoft.com/azure/azure-vmware/",
    ),
    (
        "LEARN-VM",
        "https://learn.microsoft.com/azure/virtual-machines/",
    ),
    ("GCNV", "https://docs.cloud.google.com/netapp/volumes/docs/"),
    (
        "LEARN",
        "https://learn.microsoft.com/azure/azure-netapp-files/",
    ),
];

/// Phrases of the working notes that stand for a public page.
const ALIASES: [(&str, &str); 6] = [
    (
        "domain.md section 5",
        "LEARN-ANF/performance-benchmarks-azure-vmware-solution",
    ),
    (
        "domain.md section 2",
        "LEARN-ANF/performance-large-volumes-linux",
    ),
    (
        "LEARN-ANF large-volume benchmarks",
        "LEARN-ANF/performance-large-volumes-linux",
    ),
    (
        "ANF performance calculator tables = LEARN-ANF Linux benchmarks",
        "LEARN-ANF/performance-benchmarks-linux",
    ),
    (
        "ANF performance calculator tables",
        "LEARN-ANF/performance-benchmarks-linux",
    ),
    (
        "LEARN-ANF performance-oracle-multiple-volumes",
        "LEARN-ANF/performance-oracle-multiple-volumes",
    ),
];

/// Titles of the pages cited most, as the publishers write them.
const TITLES: [(&str, &str); 24] = [
    (
        "azure-netapp-files-service-levels",
        "Service levels for Azure NetApp Files",
    ),
    (
        "azure-netapp-files-cost-model",
        "Cost model for Azure NetApp Files",
    ),
    (
        "azure-netapp-files-resource-limits",
        "Resource limits for Azure NetApp Files",
    ),
    (
        "large-volumes",
        "Understand large volumes in Azure NetApp Files",
    ),
    (
        "large-volumes-requirements-considerations",
        "Requirements and considerations for large volumes",
    ),
    (
        "performance-impact-kerberos",
        "Performance impact of Kerberos on Azure NetApp Files NFSv4.1 volumes",
    ),
    (
        "azure-netapp-files-smb-performance",
        "SMB performance best practices for Azure NetApp Files",
    ),
    (
        "performance-considerations-cool-access",
        "Performance considerations for Azure NetApp Files storage with cool access",
    ),
    (
        "performance-linux-concurrency-session-slots",
        "Linux concurrency best practices for Azure NetApp Files",
    ),
    (
        "performance-azure-vmware-solution-datastore",
        "Azure VMware Solution datastore performance considerations for Azure NetApp Files",
    ),
    (
        "performance-benchmarks-azure-vmware-solution",
        "Azure NetApp Files datastore performance benchmarks for Azure VMware Solution",
    ),
    (
        "performance-large-volumes-linux",
        "Azure NetApp Files large volume performance benchmarks for Linux",
    ),
    (
        "performance-benchmarks-linux",
        "Azure NetApp Files performance benchmarks for Linux",
    ),
    (
        "performance-oracle-multiple-volumes",
        "Oracle database performance on Azure NetApp Files multiple volumes",
    ),
    (
        "solutions-benefits-azure-netapp-files-electronic-design-automation",
        "Benefits of using Azure NetApp Files for electronic design automation",
    ),
    (
        "solutions-benefits-azure-netapp-files-oracle-database",
        "Benefits of using Azure NetApp Files with Oracle Database",
    ),
    (
        "performance-large-volume-breakthrough-mode-linux",
        "Azure NetApp Files large volume breakthrough mode performance benchmarks for Linux",
    ),
    ("understanding-billing", "Understand Azure Files billing"),
    (
        "storage-files-scale-targets",
        "Azure Files scalability and performance targets",
    ),
    (
        "smb-performance",
        "Improve SMB Azure file share performance",
    ),
    (
        "understand-performance",
        "Understand Azure Files performance",
    ),
    (
        "attach-azure-netapp-files-to-azure-vmware-solution-hosts",
        "Attach Azure NetApp Files datastores to Azure VMware Solution hosts",
    ),
    (
        "performance-linux-mount-options",
        "Linux NFS mount options best practices for Azure NetApp Files",
    ),
    (
        "discover/service-levels",
        "Google Cloud NetApp Volumes: Service levels",
    ),
];

/// Working notes that mean nothing to a reader: dropped from source text.
const INTERNAL: [&str; 7] = [
    "service-limits",
    "domain.md",
    "measurements ",
    "calibration ",
    "tests/",
    "calibration.json",
    "Azure/azure-netapp-files",
];

/// How the catalog names its fitted series, and how a reader says it.
const PHRASES: [(&str, &str); 7] = [
    (
        "fitted jointly to the published ANF series",
        "fitted to the published Azure NetApp Files benchmarks",
    ),
    (
        "fitted jointly to the ANF nconnect series",
        "fitted to the published Azure NetApp Files nconnect benchmarks",
    ),
    (
        "fitted jointly to the single-client series",
        "fitted to the published single-client benchmarks",
    ),
    ("fitted jointly to", "fitted to"),
    (
        "with the other series",
        "with the other published benchmarks",
    ),
    (
        "fitted to its hot/cool series",
        "fitted to its published hot and cool measurements",
    ),
    (
        "AVS host-spec include",
        "Azure VMware Solution host specifications",
    ),
];

fn is_internal(part: &str) -> bool {
    let p = part.trim();
    INTERNAL.iter().any(|m| p.starts_with(m))
}

/// A short id such as `I3` or `E3-E4` that follows a dropped measurement id.
fn is_code(part: &str) -> bool {
    let p = part.trim();
    !p.is_empty()
        && p.len() <= 8
        && p.starts_with(|c: char| c.is_ascii_uppercase())
        && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && p.chars().any(|c| c.is_ascii_digit())
}

/// Drops internal parts from a list separated by `sep`; ids right after one go too.
fn drop_internal(text: &str, sep: &str) -> String {
    let mut kept = Vec::new();
    let mut after_internal = false;
    for part in text.split(sep) {
        if is_internal(part) || (after_internal && is_code(part)) {
            after_internal = true;
            continue;
        }
        after_internal = false;
        kept.push(part);
    }
    kept.join(sep)
}

/// Removes the internal notes inside parentheses (an empty pair goes entirely) and the
/// `;`-separated clauses that are internal notes.
fn strip_internal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        let Some(close) = rest[open..].find(')').map(|c| open + c) else {
            break;
        };
        out.push_str(&rest[..open]);
        let inner = drop_internal(&drop_internal(&rest[open + 1..close], ", "), "; ");
        if inner.trim().is_empty() {
            let trimmed = out.trim_end().len();
            out.truncate(trimmed);
        } else {
            out.push('(');
            out.push_str(&inner);
            out.push(')');
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    drop_internal(&out, "; ").trim().to_owned()
}

/// The page a shorthand reference names: (prefix, page), at the start of `text`.
fn reference(text: &str) -> Option<(&'static str, &str)> {
    let (prefix, _) = SITES
        .iter()
        .find(|(p, _)| text.starts_with(p) && text[p.len()..].starts_with('/'))?;
    let page_start = prefix.len() + 1;
    let end = text[page_start..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '/' || c == '_'))
        .map_or(text.len(), |e| page_start + e);
    let page = text[page_start..end].trim_end_matches('/');
    (!page.is_empty()).then_some((prefix, page))
}

/// The address of `page` on the site of `prefix`.
fn url(prefix: &str, page: &str) -> String {
    let base = SITES
        .iter()
        .find(|(p, _)| *p == prefix)
        .map_or("", |(_, b)| *b);
    format!("{base}{page}")
}

/// The page's title: the publisher's where known, else built from its name.
fn title(prefix: &str, page: &str) -> String {
    if let Some((_, t)) = TITLES.iter().find(|(p, _)| *p == page) {
        return (*t).to_owned();
    }
    let last = page.rsplit('/').next().unwrap_or(page);
    if prefix == "LEARN-VM" {
        return vm_series_title(last);
    }
    let words: Vec<String> = last.split('-').map(word).collect();
    let mut t = words.join(" ");
    if let Some(first) = t.get(..1) {
        t = first.to_uppercase() + &t[1..];
    }
    match prefix {
        "GCNV" => format!("Google Cloud NetApp Volumes: {t}"),
        "LEARN-FILES" => format!("Azure Files: {t}"),
        _ => t,
    }
}

/// "dv5-dsv5-series" to "Dv5 and Dsv5-series sizes".
fn vm_series_title(page: &str) -> String {
    let cap =
        |s: &str| s.get(..1).map_or(String::new(), |f| f.to_uppercase()) + s.get(1..).unwrap_or("");
    let stem = page.trim_end_matches("-series");
    let names: Vec<String> = stem.split('-').map(cap).collect();
    format!("Azure VM sizes: {}-series", names.join(" and "))
}

fn word(w: &str) -> String {
    match w {
        "azure" => "Azure".to_owned(),
        "netapp" => "NetApp".to_owned(),
        "nfs" => "NFS".to_owned(),
        "smb" => "SMB".to_owned(),
        "vmware" => "VMware".to_owned(),
        "linux" => "Linux".to_owned(),
        "files" => "Files".to_owned(),
        _ => w.to_owned(),
    }
}

/// `text` with the working notes dropped and every shorthand reference replaced by the
/// page's title.
pub fn public(text: &str) -> String {
    let mut s = text.to_owned();
    for (alias, target) in ALIASES {
        if s.contains(alias) {
            s = s.replace(alias, target);
        }
    }
    let mut s = strip_internal(&s);
    for (phrase, plain) in PHRASES {
        if s.contains(phrase) {
            s = s.replace(phrase, plain);
        }
    }
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if let Some((prefix, page)) = reference(&s[i..]) {
            out.push_str(&title(prefix, page));
            i += prefix.len() + 1 + page.len();
            continue;
        }
        let ch = s[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// Every page the texts cite, once each, in order of first mention.
pub fn documents<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vec<Document> {
    let mut docs: Vec<Document> = Vec::new();
    for text in texts {
        let mut s = text.to_owned();
        for (alias, target) in ALIASES {
            if s.contains(alias) {
                s = s.replace(alias, target);
            }
        }
        let mut i = 0;
        while i < s.len() {
            if let Some((prefix, page)) = reference(&s[i..]) {
                let doc = Document {
                    title: title(prefix, page),
                    url: url(prefix, page),
                };
                if !docs.contains(&doc) {
                    docs.push(doc);
                }
                i += prefix.len() + 1 + page.len();
                continue;
            }
            i += s[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    docs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_notes_go_and_titles_replace_shorthand() {
        let s = public("LEARN-VM/dv5-dsv5-series (service-limits 5.2)");
        assert_eq!(s, "Azure VM sizes: Dv5 and Dsv5-series");
        let s = public(
            "LEARN-ANF/performance-impact-kerberos (02/18/2021): krb5 against sec=sys (measurements I1, I3)",
        );
        assert_eq!(
            s,
            "Performance impact of Kerberos on Azure NetApp Files NFSv4.1 volumes (02/18/2021): krb5 against sec=sys"
        );
        let s = public(
            "LEARN-ANF large-volume benchmarks, 101 TiB Ultra, NFSv3 (domain.md 2, measured)",
        );
        assert_eq!(
            s,
            "Azure NetApp Files large volume performance benchmarks for Linux, 101 TiB Ultra, NFSv3 (measured)"
        );
    }

    #[test]
    fn fitted_series_read_as_published_benchmarks() {
        let s = public(
            "delay: fitted jointly to the published ANF series (tests/fixtures/series.json)",
        );
        assert_eq!(
            s,
            "delay: fitted to the published Azure NetApp Files benchmarks"
        );
        let s = public(
            "Azure Retail Prices (East US, valid 2026-01-29): Capacity 0.000082 USD (Azure/azure-netapp-files docs/calc/beta/pricing-data.json); cool data",
        );
        assert!(!s.contains(".json") && !s.contains("Azure/"), "{s}");
    }

    #[test]
    fn clauses_of_working_notes_are_dropped() {
        let s = public(
            "domain.md section 5 (one host, several datastores: ~76,000 IOPS); calibration C9",
        );
        assert!(
            !s.contains("domain.md") && !s.contains("calibration"),
            "{s}"
        );
        assert!(s.starts_with("Azure NetApp Files datastore performance benchmarks"));
    }

    #[test]
    fn documents_are_listed_once_with_their_address() {
        let docs = documents([
            "LEARN-ANF/azure-netapp-files-service-levels (01/29/2026)",
            "LEARN-ANF/azure-netapp-files-service-levels: min 128 MiB/s",
            "GCNV/discover/service-levels",
        ]);
        assert_eq!(docs.len(), 2);
        assert_eq!(
            docs[0].url,
            "https://learn.microsoft.com/azure/azure-netapp-files/azure-netapp-files-service-levels"
        );
        assert_eq!(docs[0].title, "Service levels for Azure NetApp Files");
        assert_eq!(
            docs[1].url,
            "https://docs.cloud.google.com/netapp/volumes/docs/discover/service-levels"
        );
    }
}
