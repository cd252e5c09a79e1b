//! Reading fstab lines and mount commands, and the options the rules use.

use super::{Finding, Severity};

/// A line that is a mount, before the rules run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Parsed {
    pub(super) form: &'static str,
    /// The source as written (`server:/export`).
    pub(super) spec: String,
    pub(super) host: String,
    pub(super) export: String,
    pub(super) path: String,
    /// `nfs4` when the type or command says so.
    pub(super) nfs4_type: bool,
    /// Options in order, later ones overriding earlier ones.
    pub(super) opts: Vec<(String, Option<String>)>,
}

/// Splits a line into words: whitespace separates, quotes group, `\` escapes,
/// and a word starting with `#` starts a comment.
fn split_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            } else {
                word.push(c);
            }
        } else if c.is_whitespace() {
            if in_word {
                words.push(std::mem::take(&mut word));
                in_word = false;
            }
        } else if c == '#' && !in_word {
            break;
        } else {
            in_word = true;
            match c {
                '\'' | '"' => quote = Some(c),
                '\\' => {
                    if let Some(next) = chars.next() {
                        word.push(next);
                    }
                }
                _ => word.push(c),
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

fn push_opts(opts: &mut Vec<(String, Option<String>)>, list: &str) {
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match item.split_once('=') {
            Some((k, v)) => opts.push((k.trim().to_ascii_lowercase(), Some(v.trim().to_owned()))),
            None => opts.push((item.to_ascii_lowercase(), None)),
        }
    }
}

/// Splits `server:/export` (or `[v6addr]:/export`) into host and export.
fn split_spec(spec: &str) -> Option<(String, String)> {
    let (host, export) = if let Some(rest) = spec.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        (host, after.strip_prefix(':')?)
    } else {
        spec.split_once(':')?
    };
    if host.is_empty() || export.is_empty() || host.contains('/') {
        return None;
    }
    Some((host.to_ascii_lowercase(), export.to_owned()))
}

const EXPECTED: &str = "expected an fstab line (`server:/export /path nfs options 0 0`) or a mount command (`mount -t nfs -o options server:/export /path`)";

/// Why a line is not a mount the advisor checks.
#[derive(Debug)]
pub(super) struct LineError {
    pub message: String,
    /// A mount of another file system (a root `xfs`, a CIFS share): skipped, no error.
    pub not_nfs: bool,
}

impl LineError {
    fn not_nfs(fstype: &str) -> LineError {
        LineError {
            message: format!(
                "type “{fstype}” is not NFS; the advisor checks NFS mounts (type nfs or nfs4)"
            ),
            not_nfs: true,
        }
    }
}

impl From<String> for LineError {
    fn from(message: String) -> LineError {
        LineError {
            message,
            not_nfs: false,
        }
    }
}

fn is_mount_command(word: &str) -> bool {
    let base = word.rsplit('/').next().unwrap_or(word);
    matches!(base, "mount" | "mount.nfs" | "mount.nfs4")
}

/// Parses one non-empty, non-comment line; the error says why it is not a mount.
pub(super) fn parse_line(line: &str) -> Result<Parsed, LineError> {
    let mut words = split_words(line);
    if words.first().is_some_and(|w| w == "$") {
        words.remove(0);
    }
    if words.first().is_some_and(|w| w == "sudo" || w == "doas") {
        match words.iter().position(|w| is_mount_command(w)) {
            Some(i) => {
                words.drain(..i);
            }
            None => {
                return Err(LineError::from(format!(
                    "`{}` runs no mount command; {EXPECTED}",
                    words[0]
                )));
            }
        }
    }
    match words.first() {
        None => Err(LineError::from(format!("nothing to read; {EXPECTED}"))),
        Some(w) if is_mount_command(w) => parse_command(&words),
        Some(_) => parse_fstab(&words),
    }
}

fn parse_fstab(words: &[String]) -> Result<Parsed, LineError> {
    // An fstab entry has 3 to 6 fields and an absolute mount point (or `none`).
    let mount_point = words.get(1).map(String::as_str);
    let fstab_like = (3..=6).contains(&words.len())
        && mount_point.is_some_and(|m| m.starts_with('/') || m == "none");
    if !fstab_like {
        return Err(LineError::from(format!(
            "`{}` is not a mount command and the line is not an fstab entry; {EXPECTED}",
            words[0]
        )));
    }
    let fstype = words[2].to_ascii_lowercase();
    if fstype != "nfs" && fstype != "nfs4" {
        return Err(LineError::not_nfs(&words[2]));
    }
    let (host, export) = split_spec(&words[0]).ok_or_else(|| {
        format!(
            "`{}` is not an NFS export; write it as server:/export",
            words[0]
        )
    })?;
    let mut opts = Vec::new();
    if let Some(list) = words.get(3) {
        push_opts(&mut opts, list);
    }
    Ok(Parsed {
        form: "fstab",
        spec: words[0].clone(),
        host,
        export,
        path: words[1].clone(),
        nfs4_type: fstype == "nfs4",
        opts,
    })
}

fn parse_command(words: &[String]) -> Result<Parsed, LineError> {
    let base = words[0].rsplit('/').next().unwrap_or(&words[0]);
    let mut fstype: Option<String> = match base {
        "mount.nfs" => Some("nfs".into()),
        "mount.nfs4" => Some("nfs4".into()),
        _ => None,
    };
    let mut opts = Vec::new();
    let mut positional = Vec::new();
    let mut args = words[1..].iter();
    let missing = |flag: &str| format!("`{flag}` needs a value");
    while let Some(arg) = args.next() {
        let a = arg.as_str();
        match a {
            "-t" | "--types" => {
                fstype = Some(args.next().ok_or_else(|| missing(a))?.to_ascii_lowercase())
            }
            "-o" | "--options" => push_opts(&mut opts, args.next().ok_or_else(|| missing(a))?),
            "-r" | "--read-only" => opts.push(("ro".into(), None)),
            "-w" | "--rw" | "--read-write" => opts.push(("rw".into(), None)),
            "-v" | "--verbose" | "-f" | "--fake" | "-n" | "--no-mtab" | "-s" | "-i"
            | "--internal-only" | "-V" => {}
            "-a" | "--all" => {
                return Err(LineError::from(
                    "mount -a mounts every fstab entry; paste the fstab lines instead".to_owned(),
                ));
            }
            _ if a.starts_with("--types=") => {
                fstype = Some(a["--types=".len()..].to_ascii_lowercase())
            }
            _ if a.starts_with("--options=") => push_opts(&mut opts, &a["--options=".len()..]),
            _ if a.starts_with("-t") && a.len() > 2 => fstype = Some(a[2..].to_ascii_lowercase()),
            _ if a.starts_with("-o") && a.len() > 2 => push_opts(&mut opts, &a[2..]),
            _ if a.starts_with('-') && a.len() > 1 => {
                return Err(LineError::from(format!(
                    "unknown mount flag `{a}`; use -t TYPE and -o OPTIONS"
                )));
            }
            _ => positional.push(arg.clone()),
        }
    }
    if let Some(t) = &fstype
        && t != "nfs"
        && t != "nfs4"
    {
        return Err(LineError::not_nfs(t));
    }
    let [spec, path] = positional.as_slice() else {
        return Err(LineError::from(format!(
            "the mount command needs the export and the mount point, found {} argument(s); {EXPECTED}",
            positional.len()
        )));
    };
    let (host, export) = split_spec(spec)
        .ok_or_else(|| format!("`{spec}` is not an NFS export; write it as server:/export"))?;
    Ok(Parsed {
        form: "mount",
        spec: spec.clone(),
        host,
        export,
        path: path.clone(),
        nfs4_type: fstype.as_deref() == Some("nfs4"),
        opts,
    })
}

/// Connections share an NFS client when they go to the same address with the
/// same NFS version (Linux `nfs_match_client`); this is that key.
pub(super) type GroupKey = (String, Version);

/// The NFS version a mount asks for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Version {
    V3,
    /// NFSv4 with the minor version, if stated.
    V4(Option<u32>),
    /// Some other stated version, e.g. `2`.
    Other(String),
    /// Not stated: negotiated.
    Negotiated,
}

impl Version {
    pub(super) fn protocol(&self) -> String {
        match self {
            Version::V3 => "nfsv3".into(),
            Version::V4(Some(m)) => format!("nfsv4.{m}"),
            Version::V4(None) => "nfsv4".into(),
            Version::Other(v) => format!("nfsv{v}"),
            Version::Negotiated => "nfs".into(),
        }
    }

    pub(super) fn is_v4(&self) -> bool {
        matches!(self, Version::V4(_))
    }
}

/// The options that the rules read, with values already checked.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Opts {
    pub(super) version: Version,
    pub(super) sec: String,
    pub(super) nconnect: Option<u32>,
    pub(super) rsize: Option<u64>,
    pub(super) wsize: Option<u64>,
    pub(super) timeo: Option<u64>,
    pub(super) actimeo: Option<u64>,
    /// Last of hard / soft / softerr.
    pub(super) recovery: Option<String>,
    pub(super) proto: Option<String>,
    pub(super) nocto: bool,
    pub(super) noac: bool,
    pub(super) netdev: bool,
    pub(super) ro: bool,
}

fn last<'a>(
    opts: &'a [(String, Option<String>)],
    keys: &[&str],
) -> Option<&'a (String, Option<String>)> {
    opts.iter().rev().find(|(k, _)| keys.contains(&k.as_str()))
}

/// Reads the options of one mount; bad values become `option_invalid` findings.
pub(super) fn read_opts(p: &Parsed, line: usize, findings: &mut Vec<Finding>) -> Opts {
    let o = &p.opts;
    let mut num = |key: &str| -> Option<u64> {
        let (k, v) = last(o, &[key])?;
        match v.as_deref().map(str::parse::<u64>) {
            Some(Ok(n)) => Some(n),
            _ => {
                findings.push(Finding::new(
                    "option_invalid",
                    Severity::Error,
                    Some(line),
                    format!(
                        "`{k}{}` needs a whole number; mount rejects this line",
                        v.as_deref().map(|v| format!("={v}")).unwrap_or_default()
                    ),
                    "nfs(5)",
                ));
                None
            }
        }
    };
    let nconnect = num("nconnect").map(|n| u32::try_from(n).unwrap_or(u32::MAX));
    let rsize = num("rsize");
    let wsize = num("wsize");
    let timeo = num("timeo");
    let actimeo = num("actimeo");
    let minor = num("minorversion").map(|n| u32::try_from(n).unwrap_or(u32::MAX));
    let version = match last(o, &["vers", "nfsvers"]) {
        Some((_, Some(v))) => match v.as_str() {
            "3" => Version::V3,
            "4" => Version::V4(minor),
            v if v.starts_with("4.") && v[2..].parse::<u32>().is_ok() => {
                Version::V4(v[2..].parse().ok())
            }
            v if !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '.') => {
                Version::Other(v.to_owned())
            }
            v => {
                findings.push(Finding::new(
                    "option_invalid",
                    Severity::Error,
                    Some(line),
                    format!("`vers={v}` is not an NFS version; use vers=3 or vers=4.1"),
                    "nfs(5)",
                ));
                Version::Negotiated
            }
        },
        _ if p.nfs4_type || minor.is_some() => Version::V4(minor),
        _ => Version::Negotiated,
    };
    let flag = |on: &str, off: &str| last(o, &[on, off]).is_some_and(|(k, _)| k == on);
    let proto = match last(o, &["proto", "tcp", "udp", "rdma"]) {
        Some((k, Some(v))) if k == "proto" => Some(v.to_ascii_lowercase()),
        Some((k, None)) if k != "proto" => Some(k.clone()),
        _ => None,
    };
    Opts {
        version,
        sec: match last(o, &["sec"]) {
            Some((_, Some(v))) => v.to_ascii_lowercase(),
            _ => "sys".into(),
        },
        nconnect,
        rsize,
        wsize,
        timeo,
        actimeo,
        recovery: last(o, &["hard", "soft", "softerr"]).map(|(k, _)| k.clone()),
        proto,
        nocto: flag("nocto", "cto"),
        noac: flag("noac", "ac"),
        netdev: last(o, &["_netdev"]).is_some(),
        ro: flag("ro", "rw"),
    }
}

pub(super) fn is_krb5(sec: &str) -> bool {
    sec.split(':').any(|s| s.starts_with("krb5"))
}
