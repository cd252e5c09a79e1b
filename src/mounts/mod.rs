//! Mount-plan linter: checks Linux NFS fstab lines and `mount` commands against
//! the published client rules (nconnect inheritance, Kerberos, rsize/wsize,
//! caching, timeouts, distribution support) and writes a recommended fstab.
//!
//! Pure: text in, [`MountAdvice`] out. Every finding names the rule it comes from.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Most non-empty lines a request may hold (keeps answers bounded).
pub const MAX_LINES: usize = 1000;
/// Longest distribution and release, in characters.
pub const MAX_DISTRO_CHARS: usize = 64;

/// Largest nconnect the Linux kernel accepts (`NFS_MAX_CONNECTIONS`).
pub const NCONNECT_MAX: u32 = 16;

/// The largest rsize/wsize ANF recommends, in bytes.
pub const RWSIZE_MAX: u64 = 262_144;

/// The NFS-over-TCP retransmission timeout to use, in deciseconds.
pub const TIMEO_TCP: u64 = 600;

const SRC_PARSE: &str = "fstab(5) and mount(8) syntax";
const SRC_INHERIT: &str = "ANF Linux mount options: the first mount to a storage endpoint sets nconnect for every later mount to it";
const SRC_KRB5: &str =
    "ANF Linux mount options: nconnect is not recommended with sec=krb5, krb5i or krb5p";
const SRC_MAX: &str = "Linux fs/nfs: NFS_MAX_CONNECTIONS = 16";
const SRC_DISTRO: &str = "ANF Linux mount options: minimum releases for nconnect";
const SRC_NCONNECT: &str = "ANF Linux mount options: nconnect=4 is best in most environments; nconnect=8 cut a SAS GRID run by 30%";
const SRC_RWSIZE: &str = "ANF Linux mount options: rsize/wsize no more than 262,144 bytes";
const SRC_CACHE: &str = "ANF Linux mount options: nocto and actimeo";
const SRC_HARD: &str = "nfs(5) and ANF's SAP HANA fstab example: hard, timeo=600";
const SRC_TCP: &str = "GCNV Linux NFS mount options: always add tcp for NFSv3";
const SRC_VERS: &str = "nfs(5): without vers the client negotiates the version";
const SRC_NETDEV: &str = "ANF's SAP HANA fstab example: _netdev";
const SRC_SLOTS: &str = "ANF concurrency and session slots";
const SRC_READ_AHEAD: &str = "ANF NFS read-ahead";

// ---------------------------------------------------------------------------
// Request
// ---------------------------------------------------------------------------

/// The advisor's input: the mount plan as text, in mount order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MountRequest {
    /// fstab lines and/or `mount` commands, one per line.
    pub text: String,
    /// Client distribution and release, e.g. `rhel 8.2`, `sles 15 sp1`, `ubuntu 18.04`.
    #[serde(default)]
    pub distro: Option<String>,
    /// What the mounts serve; selects the caching and nconnect suggestions.
    #[serde(default)]
    pub workload: Option<Workload>,
}

/// The kind of work the mounts serve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Workload {
    Eda,
    WebSmall,
    WebLarge,
    Database,
    SasGrid,
    SharedRw,
}

impl Workload {
    /// Every workload, in the order forms list them.
    pub const ALL: [Workload; 6] = [
        Workload::Eda,
        Workload::WebSmall,
        Workload::WebLarge,
        Workload::Database,
        Workload::SasGrid,
        Workload::SharedRw,
    ];

    /// The JSON name.
    pub fn key(self) -> &'static str {
        match self {
            Workload::Eda => "eda",
            Workload::WebSmall => "web_small",
            Workload::WebLarge => "web_large",
            Workload::Database => "database",
            Workload::SasGrid => "sas_grid",
            Workload::SharedRw => "shared_rw",
        }
    }

    /// Parses the JSON name.
    pub fn from_key(key: &str) -> Option<Workload> {
        Workload::ALL.into_iter().find(|w| w.key() == key)
    }

    /// A name for people.
    pub fn label(self) -> &'static str {
        match self {
            Workload::Eda => "EDA tools and libraries",
            Workload::WebSmall => "small web hosting",
            Workload::WebLarge => "large web content",
            Workload::Database => "database",
            Workload::SasGrid => "SAS GRID",
            Workload::SharedRw => "data shared read-write by several clients",
        }
    }

    /// The attribute-cache timeout the mount-options page suggests, in seconds.
    pub fn suggested_actimeo(self) -> Option<u64> {
        match self {
            Workload::Eda => Some(600),
            Workload::WebSmall => Some(10),
            Workload::WebLarge => Some(60),
            _ => None,
        }
    }

    /// Whether close-to-open consistency can be dropped: one owner, or read-mostly
    /// data updated elsewhere.
    pub fn suggests_nocto(self) -> bool {
        matches!(self, Workload::Eda | Workload::WebLarge)
    }

    /// nconnect for new mounts: 8 for throughput-heavy work, else 4.
    pub fn nconnect(self) -> u32 {
        if self == Workload::SasGrid { 8 } else { 4 }
    }
}

/// A request field that cannot be used, and what to fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// JSON field name.
    pub field: &'static str,
    pub message: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for InputError {}

impl MountRequest {
    /// Checks what serde cannot: a non-empty, bounded text and a known distribution.
    pub fn validate(&self) -> Result<(), InputError> {
        let lines = self.text.lines().filter(|l| !l.trim().is_empty()).count();
        if lines == 0 {
            return Err(InputError {
                field: "text",
                message: "paste at least one fstab line or mount command".into(),
            });
        }
        if lines > MAX_LINES {
            return Err(InputError {
                field: "text",
                message: format!("{lines} lines; at most {MAX_LINES} are checked at once"),
            });
        }
        if let Some(d) = &self.distro
            && d.chars().nth(MAX_DISTRO_CHARS).is_some()
        {
            return Err(InputError {
                field: "distro",
                message: format!("at most {MAX_DISTRO_CHARS} characters, e.g. `rhel 8.3`"),
            });
        }
        if let Some(d) = &self.distro
            && !d.trim().is_empty()
        {
            Distro::parse(d).map_err(|message| InputError {
                field: "distro",
                message,
            })?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Answer
// ---------------------------------------------------------------------------

/// The advisor's answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MountAdvice {
    /// Every mount, in mount order.
    pub mounts: Vec<Mount>,
    /// Problems and suggestions: line-specific ones in line order, then global ones.
    pub findings: Vec<Finding>,
    /// The recommended fstab for the same mounts.
    pub fstab: String,
    /// Client kernel settings that go with the recommended fstab.
    pub kernel: Vec<Setting>,
}

/// One mount of the plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mount {
    /// 1-based line in the request text.
    pub line: usize,
    /// Storage endpoint: the host or IP before the colon, lower-cased.
    pub endpoint: String,
    pub export: String,
    pub path: String,
    /// `nfsv3`, `nfsv4.1` (also `nfsv4.0`, `nfsv4.2`), `nfsv4` (minor version
    /// negotiated) or `nfs` (version negotiated).
    pub protocol: String,
    /// nconnect as written on this line.
    pub requested_nconnect: Option<u32>,
    /// Connections this mount really uses; 0 when the kernel rejects the mount.
    pub effective_nconnect: u32,
    /// `fstab` or `mount`.
    pub form: &'static str,
    /// Security flavour (`sys` when not given).
    pub sec: String,
    /// The options as written, in order.
    pub options: Vec<String>,
}

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The line is not a mount, or the mount fails.
    Error,
    /// The plan works but against a rule.
    Warn,
    /// A change that would help.
    Info,
}

impl Severity {
    /// The JSON name.
    pub fn key(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warn => "warn",
            Severity::Info => "info",
        }
    }
}

/// One problem or suggestion.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// Stable code, e.g. `nconnect_ignored`.
    pub code: &'static str,
    pub severity: Severity,
    /// The line it is about; `None` for the whole plan.
    pub line: Option<usize>,
    /// What is wrong and what to do, ending with the rule it follows.
    pub message: String,
    /// The rule or document behind it.
    pub source: &'static str,
}

impl Finding {
    fn new(
        code: &'static str,
        severity: Severity,
        line: Option<usize>,
        text: String,
        source: &'static str,
    ) -> Self {
        Finding {
            code,
            severity,
            line,
            message: format!("{text} ({source})"),
            source,
        }
    }
}

/// One client kernel setting: a file to write and how to apply it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Setting {
    /// Short title.
    pub name: &'static str,
    /// The file to create.
    pub path: &'static str,
    /// Its content.
    pub content: String,
    /// How it takes effect.
    pub apply: &'static str,
    /// Why, with the source.
    pub reason: String,
}

mod distro;
mod fstab;
mod parse;
mod rules;
mod settings;
#[cfg(test)]
mod tests;

pub use distro::{Distro, Family, Support};
pub use rules::advise;
pub use settings::{kernel_settings, mount_lines, plan_text};
