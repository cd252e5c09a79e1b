//! A limit: one throughput or IOPS ceiling with its provenance, and the read/write mix rule.

use serde::{Serialize, Serializer};
use std::fmt;

/// Which part of the system a limit belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
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

use super::source::Source;
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
    /// What the value rests on: the document, or the fit (with only lower bounds from
    /// published tests); its kind is the limit's.
    pub source: Source,
    /// True when the value rests on an assumption for this plan (an unconfirmed figure,
    /// another service's or host's parameters).
    pub assumption: bool,
    /// How the resource queues in the performance model.
    pub queue: Queue,
}

/// How a limit takes part in the queueing model (see `model::network`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Queue {
    /// A storage-side ceiling: the load spreads over the back-end servers of the
    /// volumes that carry it (`storage_servers` per volume).
    Storage,
    /// A provisioned rate (QoS, a share's or pool's budget): a shaper that passes IOs
    /// at once below its rate and queues them at it, like one server.
    Limiter,
    /// `n` parallel single servers that each hold an IO for its whole service time,
    /// which also counts when idle (TCP connections, NICs).
    Servers(f64),
    /// `n` parallel servers that add no time when idle (vCPUs, hosts, guest VMs).
    Parallel(f64),
    /// `n` workers that take IOs from one shared queue (the cool tier's retrievals):
    /// an IO waits only when all `n` are busy. Modelled with Seidmann's approximation
    /// of a multi-server centre (Seidmann, Schweitzer and Shalev-Oren, "Computerized
    /// closed queueing network models of flexible manufacturing systems", 1987): a delay
    /// of the service time `S (n - 1) / n` and one server of `S / n`.
    Pool(f64),
    /// A bound on the whole loop rather than a resource (Little's law).
    Bound,
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

/// The limits of one scenario, in the order the model produces them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LimitSet {
    items: Vec<RawLimit>,
}

impl Sink for LimitSet {
    fn push(&mut self, l: RawLimit) {
        if l.mibps.is_finite() && l.mibps > 0.0 {
            self.items.push(l);
        }
    }
}

impl LimitSet {
    /// The limits in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = &RawLimit> {
        self.items.iter()
    }

    /// Adds the limits of `other` after these.
    pub fn append(&mut self, other: &LimitSet) {
        for &l in other.iter() {
            self.push(l);
        }
    }

    /// Number of limits.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The mix rule (architecture.md, "The engine model" 6): total = the smallest of
    /// shared caps, read caps / r and write caps / (1 - r). Returns the total, the
    /// binding limit, and the smallest total among the limits from index `split` on
    /// (the client side, which sizing reuses across levels).
    pub fn binding(&self, r: f64, split: usize) -> Option<Binding<'_>> {
        let mut total = f64::INFINITY;
        let mut at = None;
        let mut after_split = f64::INFINITY;
        for (i, l) in self.items.iter().enumerate() {
            // A limit that does not apply at this mix totals infinity.
            let t = l.total_at(r);
            if i >= split && t < after_split {
                after_split = t;
            }
            // Every pushed limit is finite and positive: the first smallest binds.
            if t < total {
                total = t;
                at = Some(i);
            }
        }
        at.map(|i| Binding {
            total,
            limit: &self.items[i],
            after_split,
        })
    }
}

/// What [`LimitSet::binding`] finds.
#[derive(Debug, Clone, Copy)]
pub struct Binding<'a> {
    /// The achievable total (MiB/s, reads + writes).
    pub total: f64,
    /// The limit that sets it.
    pub limit: &'a RawLimit,
    /// The smallest total among the limits from the split index on.
    pub after_split: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::trace::Formula;

    fn limit(mibps: f64) -> RawLimit {
        RawLimit {
            id: "volume_qos",
            label: Label {
                name: "test",
                formula: Formula::None,
            },
            scope: Scope::Volume,
            applies: Applies::Both,
            mibps,
            source: crate::engine::source::Source::undocumented(
                "test",
                crate::engine::source::SourceKind::Fitted,
            ),
            assumption: false,
            queue: Queue::Limiter,
        }
    }

    #[test]
    fn a_set_keeps_every_limit_and_only_real_ones() {
        let mut set = LimitSet::default();
        for i in 1..=100 {
            set.push(limit(f64::from(i)));
        }
        set.push(limit(0.0));
        set.push(limit(f64::INFINITY));
        set.push(limit(f64::NAN));
        assert_eq!(set.len(), 100);
        let b = set.binding(0.5, 0).unwrap();
        assert_eq!(b.limit.mibps, 1.0, "the smallest of all hundred binds");
    }
}
