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

use super::trace::Label;

/// A ceiling as the model produces it, before conversion for display.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RawLimit {
    pub id: &'static str,
    pub label: Label,
    pub scope: Scope,
    pub applies: Applies,
    /// MiB/s of the IO it applies to, at the scenario's IO size and mix.
    pub mibps: f64,
    pub source: &'static str,
    pub assumption: bool,
}

impl RawLimit {
    /// The total (reads + writes) this limit allows at read fraction `r`.
    pub fn total_at(&self, r: f64) -> f64 {
        match self.applies {
            Applies::Both => self.mibps,
            Applies::Read if r > 0.0 => self.mibps / r,
            Applies::Write if r < 1.0 => self.mibps / (1.0 - r),
            _ => f64::INFINITY,
        }
    }

    /// True when the limit caps some of the workload's IO.
    pub fn applies_at(&self, r: f64) -> bool {
        match self.applies {
            Applies::Both => true,
            Applies::Read => r > 0.0,
            Applies::Write => r < 1.0,
        }
    }
}

/// Receives limits as the model produces them.
pub trait Sink {
    /// Takes one limit; a non-finite or non-positive value means "no limit".
    fn push(&mut self, l: RawLimit);
}

/// A sink that keeps only the smallest total at read fraction `r` (for sweeps).
#[derive(Debug, Clone, Copy)]
pub struct MinTotal {
    pub r: f64,
    pub total: f64,
}

impl MinTotal {
    /// An empty minimum at read fraction `r`.
    pub fn new(r: f64) -> Self {
        Self {
            r,
            total: f64::INFINITY,
        }
    }
}

impl Sink for MinTotal {
    fn push(&mut self, l: RawLimit) {
        if l.mibps.is_finite() && l.mibps > 0.0 && l.applies_at(self.r) {
            self.total = self.total.min(l.total_at(self.r));
        }
    }
}

/// Most limits one scenario can produce (11 for ANF on AVS, 10 for Azure Files).
pub const MAX_LIMITS: usize = 12;

const EMPTY: RawLimit = RawLimit {
    id: "",
    label: Label {
        name: "",
        formula: super::trace::Formula::None,
    },
    scope: Scope::Workload,
    applies: Applies::Both,
    mibps: f64::INFINITY,
    source: "",
    assumption: false,
};

/// A fixed-capacity set of limits: the hot path allocates nothing.
#[derive(Debug, Clone, Copy)]
pub struct LimitSet {
    items: [RawLimit; MAX_LIMITS],
    len: usize,
}

impl Default for LimitSet {
    fn default() -> Self {
        Self {
            items: [EMPTY; MAX_LIMITS],
            len: 0,
        }
    }
}

impl Sink for LimitSet {
    fn push(&mut self, l: RawLimit) {
        debug_assert!(self.len < MAX_LIMITS, "raise MAX_LIMITS");
        if l.mibps.is_finite() && l.mibps > 0.0 && self.len < MAX_LIMITS {
            self.items[self.len] = l;
            self.len += 1;
        }
    }
}

impl LimitSet {
    /// The limits in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = &RawLimit> {
        self.items[..self.len].iter()
    }

    /// Number of limits.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The mix rule (architecture.md, "The engine model" 6): total = the smallest of
    /// shared caps, read caps / r and write caps / (1 - r). Returns the total and the
    /// binding limit.
    pub fn binding(&self, r: f64) -> Option<(f64, &RawLimit)> {
        self.iter()
            .filter(|l| l.applies_at(r))
            .map(|l| (l.total_at(r), l))
            .min_by(|a, b| a.0.total_cmp(&b.0))
    }
}
