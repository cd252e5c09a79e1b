//! DiskSpd XML (`diskspd ... -Rxml`).
//!
//! The XML has no totals: IOPS and MiB/s are the sums of `ReadCount`/`WriteCount` and
//! `ReadBytes`/`WriteBytes` over every `Thread/Target`, divided by `TestTimeSeconds`.
//! Latency (only with `-L`) is always in ms. The IO pattern comes from the profile's
//! `<Random>` (random) or `<StrideSize>` (sequential); `<RandomAccess>` is only a caching
//! hint (`-fr`). IOs in flight are `RequestCount` for every thread-target pair. Each
//! result `<TimeSpan>` is one measurement; an interrupted one holds only `<Error>`.

use super::text::number;
use super::{Format, ImportError, Measurement, ParsedResult, Tool};
use crate::engine::scenario::Access;
use quick_xml::Reader;
use quick_xml::events::Event;

/// Deepest element nesting accepted (DiskSpd writes about 8 levels).
const MAX_DEPTH: usize = 64;
/// Most elements kept (time series under `<Iops>` are skipped and not counted).
const MAX_NODES: usize = 1_000_000;

/// Parses one DiskSpd XML result.
pub fn parse(text: &str) -> Result<ParsedResult, ImportError> {
    let root = read_tree(text).map_err(invalid)?;
    if root.name != "Results" {
        return Err(invalid(format!(
            "the root element is <{}>, not <Results>; import the XML that diskspd -Rxml writes",
            root.name
        )));
    }
    let mut warnings = Vec::new();
    let profiles: Vec<Vec<ProfileTarget>> = root
        .child("Profile")
        .and_then(|p| p.child("TimeSpans"))
        .map(|ts| ts.children("TimeSpan").map(profile_targets).collect())
        .unwrap_or_default();
    if profiles.is_empty() {
        warnings.push(
            "no <Profile> section: queue depth and IO pattern assume the DiskSpd defaults (-o2, sequential)"
                .to_owned(),
        );
    }
    let spans: Vec<&Node> = root.children("TimeSpan").collect();
    if spans.is_empty() {
        return Err(invalid(
            "the file has no result <TimeSpan>: DiskSpd did not finish the test".to_owned(),
        ));
    }
    let mut measurements = Vec::new();
    for (i, span) in spans.iter().enumerate() {
        let name = if spans.len() > 1 {
            format!("time span {}", i + 1)
        } else {
            "the test".to_owned()
        };
        if let Some(err) = span.child("Error") {
            warnings.push(format!("{name}: {}", err.text.trim()));
            continue;
        }
        let targets = profiles.get(i).map(Vec::as_slice).unwrap_or(&[]);
        match measure(span, targets, &name, &mut warnings) {
            Ok(m) => measurements.push(m),
            Err(problem) => warnings.push(format!("{name}: {problem}; skipped")),
        }
    }
    if measurements.is_empty() {
        let first = warnings
            .iter()
            .find(|w| !w.starts_with("no <Profile>"))
            .cloned()
            .unwrap_or_else(|| "no time span has results".to_owned());
        return Err(invalid(first));
    }
    Ok(ParsedResult {
        format: Format::DiskspdXml,
        measurements,
        warnings,
    })
}

fn invalid(problem: String) -> ImportError {
    ImportError::Invalid {
        format: Format::DiskspdXml,
        problem,
    }
}

/// The input parameters of one target (`-b -r -o -t -w`).
#[derive(Debug, Clone)]
struct ProfileTarget {
    path: String,
    request_count: Option<f64>,
    access: Access,
    random_ratio: Option<f64>,
    random_access_hint: bool,
}

fn profile_targets(span: &Node) -> Vec<ProfileTarget> {
    let Some(targets) = span.child("Targets") else {
        return Vec::new();
    };
    targets
        .children("Target")
        .map(|t| {
            let random = t.child("Random").is_some();
            ProfileTarget {
                path: t.text_of("Path").unwrap_or_default(),
                request_count: t.number_of("RequestCount"),
                access: if random {
                    Access::Random
                } else {
                    Access::Sequential
                },
                random_ratio: t.number_of("RandomRatio"),
                random_access_hint: t
                    .text_of("RandomAccess")
                    .is_some_and(|v| v.eq_ignore_ascii_case("true")),
            }
        })
        .collect()
}

fn measure(
    span: &Node,
    targets: &[ProfileTarget],
    name: &str,
    warnings: &mut Vec<String>,
) -> Result<Measurement, String> {
    let secs = span
        .number_of("TestTimeSeconds")
        .filter(|s| *s > 0.0)
        .ok_or("no positive <TestTimeSeconds>")?;
    let mut read_ios = 0.0;
    let mut write_ios = 0.0;
    let mut read_bytes = 0.0;
    let mut write_bytes = 0.0;
    let mut outstanding = 0.0;
    let mut lat_num = 0.0;
    let mut lat_den = 0.0;
    let mut lat_missing = false;
    let mut unmatched = false;
    let threads: Vec<&Node> = span.children("Thread").collect();
    for thread in &threads {
        for t in thread.children("Target") {
            let rc = t.number_of("ReadCount").unwrap_or(0.0);
            let wc = t.number_of("WriteCount").unwrap_or(0.0);
            read_ios += rc;
            write_ios += wc;
            read_bytes += t.number_of("ReadBytes").unwrap_or(0.0);
            write_bytes += t.number_of("WriteBytes").unwrap_or(0.0);
            let path = t.text_of("Path").unwrap_or_default();
            let profile = targets
                .iter()
                .find(|p| p.path == path)
                .or(if targets.len() == 1 {
                    targets.first()
                } else {
                    None
                });
            if profile.is_none() && !targets.is_empty() {
                unmatched = true;
            }
            outstanding += profile
                .and_then(|p| p.request_count)
                .unwrap_or(2.0)
                .max(1.0);
            for (count, key) in [
                (rc, "AverageReadLatencyMilliseconds"),
                (wc, "AverageWriteLatencyMilliseconds"),
            ] {
                if count > 0.0 {
                    match t.number_of(key) {
                        Some(ms) => {
                            lat_num += ms * count;
                            lat_den += count;
                        }
                        None => lat_missing = true,
                    }
                }
            }
        }
    }
    if unmatched {
        warnings.push(format!(
            "{name}: some result targets are not in the profile; their queue depth is assumed to be 2 (the DiskSpd default)"
        ));
    }
    let ios = read_ios + write_ios;
    if ios <= 0.0 {
        return Err("no thread did any reads or writes".to_owned());
    }
    let latency = span.child("Latency");
    let latency_mean_ms = latency
        .and_then(|l| l.number_of("AverageTotalMilliseconds"))
        .or_else(|| (!lat_missing && lat_den > 0.0).then(|| lat_num / lat_den));
    let pct = |p: f64| -> Option<f64> {
        latency?
            .children("Bucket")
            .find(|b| {
                b.number_of("Percentile")
                    .is_some_and(|x| (x - p).abs() < 1e-9)
            })?
            .number_of("TotalMilliseconds")
    };
    if latency_mean_ms.is_none() {
        warnings.push(format!(
            "{name}: no latency in the file (DiskSpd measures it only with -L)"
        ));
    }
    let access = access_of(targets, name, warnings);
    let thread_count = (threads.len() as u32).max(1);
    let outstanding = outstanding.round().clamp(1.0, f64::from(u32::MAX)) as u32;
    let label = label_of(targets, name);
    Ok(Measurement {
        tool: Tool::Diskspd,
        label,
        iops: ios / secs,
        mibps: (read_bytes + write_bytes) / secs / 1_048_576.0,
        read_pct: 100.0 * read_ios / ios,
        io_size_kib: (read_bytes + write_bytes) / ios / 1024.0,
        threads: thread_count,
        queue_depth: (f64::from(outstanding) / f64::from(thread_count))
            .round()
            .max(1.0) as u32,
        outstanding,
        clients: 1,
        latency_mean_ms,
        latency_p50_ms: pct(50.0),
        latency_p99_ms: pct(99.0),
        read_iops: read_ios / secs,
        write_iops: write_ios / secs,
        read_mibps: read_bytes / secs / 1_048_576.0,
        write_mibps: write_bytes / secs / 1_048_576.0,
        access,
        runtime_s: secs,
    })
}

fn access_of(targets: &[ProfileTarget], name: &str, warnings: &mut Vec<String>) -> Option<Access> {
    if targets.is_empty() {
        return Some(Access::Sequential);
    }
    let mut kinds = Vec::new();
    for t in targets {
        let kind = match t.random_ratio {
            Some(r) => {
                warnings.push(format!(
                    "{name}: target {} mixes random and sequential IO ({r}% random)",
                    t.path
                ));
                if r >= 50.0 {
                    Access::Random
                } else {
                    Access::Sequential
                }
            }
            None => t.access,
        };
        if t.random_access_hint && t.access == Access::Sequential && t.random_ratio.is_none() {
            warnings.push(format!(
                "{name}: target {} sets the RandomAccess caching hint (-fr) but its IO is sequential (no -r)",
                t.path
            ));
        }
        kinds.push(kind);
    }
    let first = kinds[0];
    kinds.iter().all(|k| *k == first).then_some(first)
}

fn label_of(targets: &[ProfileTarget], name: &str) -> String {
    match targets {
        [] => name.to_owned(),
        [one] => one.path.clone(),
        [first, rest @ ..] => format!("{} + {} more targets", first.path, rest.len()),
    }
}

/// A minimal element tree: name, text and children.
#[derive(Debug, Default)]
struct Node {
    name: String,
    text: String,
    children: Vec<Node>,
}

impl Node {
    fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    fn children<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    fn text_of(&self, name: &str) -> Option<String> {
        self.child(name).map(|c| c.text.trim().to_owned())
    }

    fn number_of(&self, name: &str) -> Option<f64> {
        number(&self.child(name)?.text)
    }
}

/// Reads the XML into a tree; skips the time series under `<Iops>` and `<CpuUtilization>`.
fn read_tree(text: &str) -> Result<Node, String> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().trim_text(true);
    let mut stack: Vec<Node> = Vec::new();
    let mut skip_depth = 0usize;
    let mut nodes = 0usize;
    let mut root: Option<Node> = None;
    loop {
        let event = reader.read_event().map_err(|e| {
            format!(
                "the XML is broken near byte {}: {e}",
                reader.buffer_position()
            )
        })?;
        match event {
            Event::Start(e) => {
                if skip_depth > 0 {
                    skip_depth += 1;
                    continue;
                }
                let name = e.local_name().as_ref().to_owned();
                if stack.len() >= MAX_DEPTH {
                    return Err(format!("the XML nests deeper than {MAX_DEPTH} levels"));
                }
                if root.is_some() {
                    return Err("the XML has content after its root element".to_owned());
                }
                if name == "Iops" || name == "CpuUtilization" {
                    skip_depth = 1;
                    continue;
                }
                nodes += 1;
                if nodes > MAX_NODES {
                    return Err(format!("the XML has more than {MAX_NODES} elements"));
                }
                stack.push(Node {
                    name,
                    ..Node::default()
                });
            }
            Event::Empty(e) => {
                if skip_depth > 0 {
                    continue;
                }
                let node = Node {
                    name: e.local_name().as_ref().to_owned(),
                    ..Node::default()
                };
                nodes += 1;
                if nodes > MAX_NODES {
                    return Err(format!("the XML has more than {MAX_NODES} elements"));
                }
                match stack.last_mut() {
                    Some(parent) => parent.children.push(node),
                    None if root.is_none() => root = Some(node),
                    None => return Err("the XML has content after its root element".to_owned()),
                }
            }
            Event::End(_) => {
                if skip_depth > 0 {
                    skip_depth -= 1;
                    continue;
                }
                let node = stack
                    .pop()
                    .ok_or("the XML closes an element it never opened")?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(node),
                    None => root = Some(node),
                }
            }
            Event::Text(t) => {
                if skip_depth == 0
                    && let Some(top) = stack.last_mut()
                {
                    top.text.push_str(&t.xml10_content());
                }
            }
            Event::CData(t) => {
                if skip_depth == 0
                    && let Some(top) = stack.last_mut()
                {
                    top.text.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(r) => {
                if skip_depth == 0
                    && let Some(top) = stack.last_mut()
                {
                    let name = r.xml10_content();
                    if let Ok(Some(c)) = r.resolve_char_ref() {
                        top.text.push(c);
                    } else if let Some(s) = quick_xml::escape::resolve_predefined_entity(&name) {
                        top.text.push_str(s);
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some(open) = stack.last() {
        return Err(format!(
            "the XML ends inside <{}>: the file is cut off",
            open.name
        ));
    }
    root.ok_or_else(|| "the XML has no root element".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_reads_text_and_entities() {
        let root = read_tree("<Results><Path>\\\\srv\\a&amp;b</Path><X/></Results>").unwrap();
        assert_eq!(root.text_of("Path").unwrap(), "\\\\srv\\a&b");
        assert!(root.child("X").is_some());
    }

    #[test]
    fn truncated_xml_is_named() {
        let e = read_tree("<Results><TimeSpan>").unwrap_err();
        assert!(e.contains("cut off"), "{e}");
    }

    #[test]
    fn deep_nesting_is_refused() {
        let text = "<a>".repeat(100);
        assert!(read_tree(&text).unwrap_err().contains("deeper"));
    }

    #[test]
    fn wrong_root() {
        let e = parse("<html><body/></html>").unwrap_err().to_string();
        assert!(e.contains("<html>") && e.contains("-Rxml"), "{e}");
    }

    #[test]
    fn interrupted_run() {
        let xml = "<Results><TimeSpan><Error>The test was interrupted before the measurements began. No results are displayed.</Error></TimeSpan></Results>";
        let e = parse(xml).unwrap_err().to_string();
        assert!(e.contains("interrupted"), "{e}");
    }
}
