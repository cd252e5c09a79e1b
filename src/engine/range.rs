//! The likely range of a prediction: an 80 % interval around the central figure, as
//! wide as the model has been wrong where the same kind of resource set the rate.
//!
//! `volplan calibrate` withholds each published source document (all its series) in
//! turn, fits the rest and predicts it; the errors of the withheld points, grouped by the class of resource
//! that binds them (documented rates, the storage back end, connections, the client
//! path, the round trip, AVS, the cool tier, Kerberos or SMB processing), give each
//! class the log error that 80 % of its points stay within (`model.json`, `ranges`).
//! A prediction takes its binding resource's width, widened for every assumed or
//! lower-bound ceiling close enough to bind (each may be off by the stated assumption
//! width), widened again for each input no published series covers (a service, a
//! client VM size, an IO size or a number of IOs in flight outside the fitted
//! envelope), and never reaches past the smallest documented ceiling. Nothing is solved
//! again: the width is a lookup and the range two multiplications.

use super::catalog::{self, Envelope, Width};
use super::limits::{LimitSet, RawLimit, as_display};
use super::plan::Plan;
use super::source::{Source, SourceKind};
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
        if l.source.kind == SourceKind::Documented {
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
}

/// Most assumptions one range names (one per limit on the path at most).
pub const MAX_ASSUMPTIONS: usize = 8;

/// Why a range reaches above the baseline of a share with burst credits.
const BURST: Source = Source::documented("LEARN-FILES/understanding-billing")
    .section("the load's duration is not given: the range reaches what the shares give on burst credits (an hour at the burst limit from a full bucket) above the sustained baseline")
    .kind(SourceKind::Assumption);

/// Most inputs outside the fitted envelope one range names (one per dimension).
pub const MAX_OUTSIDE: usize = 4;

/// The inputs of plan `p` that no series of envelope `e` covers, in words: its
/// service, its client VM size, its IO size, its IOs in flight per client.
pub fn outside(e: &Envelope, p: &Plan) -> ArrayVec<&'static str, MAX_OUTSIDE> {
    let mut out = ArrayVec::new();
    // No envelope recorded (a model.json written before it): nothing to judge by.
    if e.services.is_empty() {
        return out;
    }
    if !e.services.iter().any(|s| s == p.service.key()) {
        out.push("no published series measures this service");
    }
    if p.avs.is_none()
        && let Some(vm) = p.vm
        && !e.vm_sizes.contains(&vm.name)
    {
        out.push("no published series uses this client VM size");
    }
    let within = |[lo, hi]: [f64; 2], v: f64| v >= lo * 0.999 && v <= hi * 1.001;
    if !within(e.io_kib, p.io_kib) {
        out.push("the IO size lies outside the published series' sizes");
    }
    if !within(e.in_flight, in_flight(p)) {
        out.push("the IOs in flight per client lie outside the published series' range");
    }
    out
}

/// IOs in flight per client (threads x queue depth), as the envelope counts them.
pub fn in_flight(p: &Plan) -> f64 {
    f64::from(p.threads) * f64::from(p.queue_depth)
}

/// What sets a range's width (contract: `confidence`).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Confidence {
    /// What sets the width, worded by the verdict (`verdict::targets`).
    #[serde(serialize_with = "as_display")]
    #[schema(value_type = String)]
    pub basis: Basis,
    /// The class of resource whose published errors set the width.
    #[schema(value_type = String)]
    pub class: Basis,
    /// The ceilings near the rate whose values rest on an assumption or only on lower
    /// bounds, each by its source; each widens the range.
    #[schema(value_type = Vec<String>)]
    #[serde(serialize_with = "super::source::citations")]
    pub assumptions: ArrayVec<Source, MAX_ASSUMPTIONS>,
    /// The inputs no published series covers; each widens the range by the assumption
    /// width.
    #[schema(value_type = Vec<String>)]
    pub outside_envelope: ArrayVec<&'static str, MAX_OUTSIDE>,
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
    pub assumptions: ArrayVec<Source, MAX_ASSUMPTIONS>,
    /// The inputs outside the committed envelope.
    pub outside: ArrayVec<&'static str, MAX_OUTSIDE>,
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
            if l.source.kind == SourceKind::Documented {
                documented = documented.min(t);
            }
            let assumed = l.assumption || l.source.kind == SourceKind::LowerBound;
            if assumed && t <= reach && !assumptions.contains(&l.source) {
                let _ = assumptions.try_push(l.source);
            }
        }
        Self {
            class: Basis::of(p, binding),
            assumptions,
            outside: outside(&catalog::catalog().model.ranges.envelope, p),
            documented_mibps: documented,
        }
    }

    /// The log half-width of a range of class width `class_log_width` with these
    /// assumptions and inputs outside the envelope (and `extra` more), each off by the
    /// assumption width.
    pub fn log_width(&self, class_log_width: f64, extra: usize) -> f64 {
        let a = catalog::catalog().model.ranges.assumption_log_width;
        let n = (self.assumptions.len() + self.outside.len() + extra) as f64;
        (class_log_width * class_log_width + n * a * a).sqrt()
    }
}

/// The likely ranges around `total` MiB/s and `latency_ms` on plan `p` whose limits
/// are `limits`, the binding one `binding`; `delay_assumed` when the round trip rests
/// on an assumption; `burst_mibps`, what the plan reaches on burst credits when the
/// load's duration is not given (the range then reaches up to it).
pub fn likely(
    p: &Plan,
    limits: &LimitSet,
    binding: &RawLimit,
    total: f64,
    latency_ms: f64,
    delay_assumed: bool,
    burst_mibps: Option<f64>,
) -> Likely {
    let ranges = &catalog::catalog().model.ranges;
    let g = Grounds::of(p, limits, binding, total);
    let class = g.class;
    let w = ranges.width(class.key());
    let documented = g.documented_mibps;
    let log_w = g.log_width(w.log_width, 0);
    let low = total * (-log_w).exp();
    let high = (total * log_w.exp()).min(documented).max(total);
    let high = burst_mibps.map_or(high, |b| high.max(b));
    let lat_w = g.log_width(ranges.latency.log_width, usize::from(delay_assumed));
    Likely {
        mibps: [low, high],
        latency_ms: [latency_ms * (-lat_w).exp(), latency_ms * lat_w.exp()],
        latency_log_width: lat_w,
        confidence: Confidence {
            basis: class,
            class,
            assumptions: {
                // Named, not widened for: the burst reaches past the width on its own.
                let mut a = g.assumptions;
                if burst_mibps.is_some_and(|b| b > total) {
                    let _ = a.try_push(BURST);
                }
                a
            },
            outside_envelope: g.outside,
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
