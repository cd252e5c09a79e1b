//! A limit: one throughput or IOPS ceiling with its provenance, and the read/write mix rule.

use serde::{Serialize, Serializer};
use std::fmt;

/// Which part of the system a limit belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    Volume,
    Pool,
    Share,
    File,
    Client,
    Connection,
    Host,
    Vm,
    Datastore,
    Workload,
}

/// Which IO a limit caps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Applies {
    Both,
    Read,
    Write,
}

impl Scope {
    /// The JSON name.
    pub fn key(self) -> &'static str {
        match self {
            Scope::Volume => "volume",
            Scope::Pool => "pool",
            Scope::Share => "share",
            Scope::File => "file",
            Scope::Client => "client",
            Scope::Connection => "connection",
            Scope::Host => "host",
            Scope::Vm => "vm",
            Scope::Datastore => "datastore",
            Scope::Workload => "workload",
        }
    }
}

impl Applies {
    /// The JSON name.
    pub fn key(self) -> &'static str {
        match self {
            Applies::Both => "both",
            Applies::Read => "read",
            Applies::Write => "write",
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl fmt::Display for Applies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// Serialises any `Display` value as a JSON string without an intermediate `String`.
pub(crate) fn as_display<T: fmt::Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}
