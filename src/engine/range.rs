//! The likely range of a prediction: an 80 % interval around the central figure, as
//! wide as the model has been wrong where the same kind of resource set the rate.
//!
//! `volplan calibrate` withholds each published series in turn, fits the rest and
//! predicts it; the errors of the withheld points, grouped by the class of resource
//! that binds them (documented rates, the storage back end, connections, the client
//! path, the round trip, AVS, the cool tier, Kerberos or SMB processing), give each
//! class the log error that 80 % of its points stay within (`model.json`, `ranges`).
//! A prediction takes its binding resource's width, widened for every assumed or
//! lower-bound ceiling close enough to bind (each may be off by the stated assumption
//! width), and never reaches past the smallest documented ceiling. Nothing is solved
//! again: the width is a lookup and the range two multiplications.

use super::catalog::{self, Width};
use super::limits::{CeilingKind, LimitSet, RawLimit};
use super::plan::Plan;
use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

/// The class of resource that sets a prediction's rate, the key of its width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// A documented rate: QoS, a pool or share budget, a volume maximum, VM egress.
    Documented,
    /// The storage back end (time per op and per KiB, metadata operation rates).
    Storage,
    /// Connections and SMB channels (request and byte times, signing).
    Connection,
    /// The client's read/write path.
    Client,
    /// Too few IOs in flight for the round trip (Little's law).
    Concurrency,
    /// AVS flows, hosts, guest VMs and the cluster's path.
    Avs,
    /// The ANF cool tier.
    Cool,
    /// Kerberos or SMB encryption processing.
    Security,
}

impl Basis {
    /// Every class, in the order of `model.json`.
    pub const ALL: [Basis; 8] = [
        Basis::Documented,
        Basis::Storage,
        Basis::Connection,
        Basis::Client,
        Basis::Concurrency,
        Basis::Avs,
        Basis::Cool,
        Basis::Security,
    ];

    /// The class's key in `model.json`.
    pub fn key(self) -> &'static str {
        match self {
            Basis::Documented => "documented",
            Basis::Storage => "storage",
            Basis::Connection => "connection",
            Basis::Client => "client",
            Basis::Concurrency => "concurrency",
            Basis::Avs => "avs",
            Basis::Cool => "cool",
            Basis::Security => "security",
        }
    }

    /// The class of limit `l` on plan `p`'s path.
    pub fn of(p: &Plan, l: &RawLimit) -> Basis {
        if l.kind == CeilingKind::Documented {
            return Basis::Documented;
        }
        if p.avs.is_some() {
            return Basis::Avs;
        }
        match l.id {
            "connection" | "connection_bytes" | "smb_signing" => Basis::Connection,
            "client_path" => Basis::Client,
            "concurrency" => Basis::Concurrency,
            "cool_tier" | "cool_tier_transfer" => Basis::Cool,
            "security" => Basis::Security,
            _ => Basis::Storage,
        }
    }

    /// What sets the width, in words.
    pub fn sentence(self) -> &'static str {
        match self {
            Basis::Documented => {
                "a documented rate binds (QoS, a pool or share budget, a volume maximum or VM egress): the width is how far published runs at such a rate fell from it"
            }
            Basis::Storage => {
                "the storage back end binds: the width is the leave-one-series-out error of the published runs it bound"
            }
            Basis::Connection => {
                "the connections bind: the width is the leave-one-series-out error of the published runs they bound"
            }
            Basis::Client => {
                "the client's read/write path binds: the width is the leave-one-series-out error of the published runs it bound"
            }
            Basis::Concurrency => {
                "too few IOs in flight for the round trip: the width is the leave-one-series-out error of the published runs the round trip set"
            }
            Basis::Avs => {
                "the AVS datastore path binds: the width is the leave-one-series-out error of the published AVS runs"
            }
            Basis::Cool => {
                "the cool tier binds: the width is the leave-one-series-out error of the published cool-access runs"
            }
            Basis::Security => {
                "Kerberos or SMB processing binds: the width is the leave-one-series-out error of the published security runs"
            }
        }
    }
}

/// Most assumptions one range names (one per limit on the path at most).
pub const MAX_ASSUMPTIONS: usize = 8;

/// What sets a range's width (contract: `confidence`).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Confidence {
    /// What sets the width, in words.
    pub basis: &'static str,
    /// The class of resource whose published errors set the width.
    #[schema(value_type = String)]
    pub class: Basis,
    /// The ceilings near the rate whose values rest on an assumption or only on lower
    /// bounds, each by its source; each widens the range.
    #[schema(value_type = Vec<String>)]
    pub assumptions: ArrayVec<&'static str, MAX_ASSUMPTIONS>,
    /// Half the range's width, percent of the central figure (before a documented
    /// ceiling cuts the upper end).
    pub width_pct: f64,
    /// Withheld published points of this class behind the width.
    pub points: u32,
}

/// The likely ranges of one evaluation.
#[derive(Debug, Clone)]
pub struct Likely {
    /// MiB/s, `[low, high]`.
    pub mibps: [f64; 2],
    /// Mean latency per IO at the achievable load, ms, `[low, high]`.
    pub latency_ms: [f64; 2],
    /// The latency range's log half-width, for the latency curve's band.
    pub latency_log_width: f64,
    pub confidence: Confidence,
}

/// The width of class `b` from the committed ranges.
pub fn width(b: Basis) -> Width {
    catalog::catalog().model.ranges.width(b.key())
}

/// What a prediction's range rests on: the binding class, the assumed or lower-bound
/// ceilings near the rate, and the smallest documented ceiling.
#[derive(Debug, Clone)]
pub struct Grounds {
    pub class: Basis,
    /// The sources of the assumed ceilings close enough to bind.
    pub assumptions: ArrayVec<&'static str, MAX_ASSUMPTIONS>,
    /// The smallest documented ceiling's total at the plan's mix, MiB/s.
    pub documented_mibps: f64,
}

impl Grounds {
    /// The grounds of `total` MiB/s on plan `p` whose limits are `limits`, the binding
    /// one `binding`. An assumed ceiling counts when being off by the assumption's
    /// width would let it bind.
    pub fn of(p: &Plan, limits: &LimitSet, binding: &RawLimit, total: f64) -> Self {
        let a = catalog::catalog().model.ranges.assumption_log_width;
        let reach = total * a.exp();
        let mut assumptions = ArrayVec::new();
        let mut documented = f64::INFINITY;
        for l in limits.iter().filter(|l| l.applies_at(p.r)) {
            let t = l.total_at(p.r);
            if l.kind == CeilingKind::Documented {
                documented = documented.min(t);
            }
            let assumed = l.assumption || l.kind == CeilingKind::LowerBound;
            if assumed && t <= reach && !assumptions.contains(&l.source) {
                let _ = assumptions.try_push(l.source);
            }
        }
        Self {
            class: Basis::of(p, binding),
            assumptions,
            documented_mibps: documented,
        }
    }

    /// The log half-width of a range of class width `class_log_width` with these
    /// assumptions (and `extra` more), each off by the assumption width.
    pub fn log_width(&self, class_log_width: f64, extra: usize) -> f64 {
        let a = catalog::catalog().model.ranges.assumption_log_width;
        let n = (self.assumptions.len() + extra) as f64;
        (class_log_width * class_log_width + n * a * a).sqrt()
    }
}

/// The likely ranges around `total` MiB/s and `latency_ms` on plan `p` whose limits
/// are `limits`, the binding one `binding`; `delay_assumed` when the round trip rests
/// on an assumption.
pub fn likely(
    p: &Plan,
    limits: &LimitSet,
    binding: &RawLimit,
    total: f64,
    latency_ms: f64,
    delay_assumed: bool,
) -> Likely {
    let ranges = &catalog::catalog().model.ranges;
    let g = Grounds::of(p, limits, binding, total);
    let class = g.class;
    let w = ranges.width(class.key());
    let documented = g.documented_mibps;
    let log_w = g.log_width(w.log_width, 0);
    let low = total * (-log_w).exp();
    let high = (total * log_w.exp()).min(documented).max(total);
    let lat_w = g.log_width(ranges.latency.log_width, usize::from(delay_assumed));
    Likely {
        mibps: [low, high],
        latency_ms: [latency_ms * (-lat_w).exp(), latency_ms * lat_w.exp()],
        latency_log_width: lat_w,
        confidence: Confidence {
            basis: class.sentence(),
            class,
            assumptions: g.assumptions,
            width_pct: (log_w.exp() - 1.0) * 100.0,
            points: w.points,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_has_a_committed_width() {
        for b in Basis::ALL {
            let w = width(b);
            assert!(w.log_width > 0.0 && w.log_width < 2.0, "{b:?}: {w:?}");
        }
        let r = &catalog::catalog().model.ranges;
        assert!(r.latency.log_width > 0.0 && r.assumption_log_width > 0.0);
    }
}
