//! One statement per target (capacity, throughput, IOPS, latency): met or missed, by
//! how much, and what decides it; and the headline latency with the concurrency that
//! produces it.
//!
//! Each statement is built from clauses in a fixed order (the figure, the comparison
//! with the target, what decides it), so a clause about the prediction's range ("met
//! at the low end of the range") slots in after the comparison without touching the
//! rest.

use super::mechanism::binding_limit;
use super::words::plural;
use super::{TargetKind, TargetVerdict};
use crate::engine::evaluation::{Confidence, Evaluation};
use crate::engine::range::Basis;
use crate::engine::same::{headroom_reaches, reaches, within};
use crate::engine::scenario::{Assurance, Scenario};
use crate::engine::source::Source;
use crate::engine::units::mibps_to_iops;
use crate::format::{capacity as tib, exact, mibps, millis as ms, num, share as pct, signed_pct};
use serde::Serialize;
use std::fmt;

/// Whether a scenario sets a rate or latency target.
pub fn has_targets(s: &Scenario) -> bool {
    let w = &s.workload;
    w.target_mibps.is_some() || w.target_iops.is_some() || w.target_latency_ms.is_some()
}

/// Every target of the scenario, capacity first.
pub fn targets(s: &Scenario, e: &Evaluation) -> Vec<TargetVerdict> {
    let w = &s.workload;
    let mut out = vec![capacity(s, e)];
    let binding = binding_limit(e);
    let bound = binding.map_or_else(|| e.binding.to_owned(), |l| l.label.name.to_owned());
    if let (Some(t), Some(h)) = (w.target_mibps, e.targets.mibps_headroom_pct) {
        out.push(rate(
            TargetKind::Throughput,
            (e.throughput_mibps, e.throughput_mibps_range[0]),
            t,
            h,
            "MiB/s",
            (e.binding, &bound),
            w.confidence,
        ));
    }
    if let (Some(t), Some(h)) = (w.target_iops, e.targets.iops_headroom_pct) {
        out.push(rate(
            TargetKind::Iops,
            (e.iops, e.iops_range[0]),
            t,
            h,
            "IOPS",
            (e.binding, &bound),
            w.confidence,
        ));
    }
    if let Some(t) = w.target_latency_ms {
        out.push(latency(s, e, t, &bound));
    }
    out
}

fn capacity(s: &Scenario, e: &Evaluation) -> TargetVerdict {
    let need = s.workload.capacity_tib;
    let have = s.storage.total_quota_tib();
    let met = e.targets.capacity_met;
    let statement = if met {
        let spare = e.targets.capacity_headroom_pct;
        if spare > 0.5 {
            format!(
                "Capacity: {} provisioned for the {} needed ({} spare).",
                tib(have),
                tib(need),
                signed_pct(spare)
            )
        } else {
            format!(
                "Capacity: {} provisioned holds the {} needed.",
                tib(have),
                tib(need)
            )
        }
    } else {
        format!(
            "Capacity: {} provisioned for {} needed: {} short.",
            tib(have),
            tib(need),
            tib(need - have)
        )
    };
    TargetVerdict {
        target: TargetKind::Capacity,
        met,
        margin_pct: e.targets.capacity_headroom_pct,
        decided_by: "capacity".to_owned(),
        statement,
    }
}

/// What sets a likely range's width, in words.
impl fmt::Display for Basis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Basis::Documented => {
                "a documented rate binds (QoS, a pool or share budget, a volume maximum or VM egress): the width is how far published runs at such a rate fell from it"
            }
            Basis::Storage => {
                "the storage back end binds: the width is the error of the published runs it bound, each predicted by a fit without its source"
            }
            Basis::Connection => {
                "the connections bind: the width is the error of the published runs they bound, each predicted by a fit without its source"
            }
            Basis::Client => {
                "the client's read/write path binds: the width is the error of the published runs it bound, each predicted by a fit without its source"
            }
            Basis::Concurrency => {
                "too few IOs in flight for the round trip: the width is the error of the published runs the round trip set, each predicted by a fit without its source"
            }
            Basis::Avs => {
                "the AVS datastore path binds: the width is the error of the published AVS runs, each predicted by a fit without its source"
            }
            Basis::Cool => {
                "the cool tier binds: the width is the error of the published cool-access runs, each predicted by a fit without its source"
            }
            Basis::Security => {
                "Kerberos or SMB processing binds: the width is the error of the published security runs, each predicted by a fit without its source"
            }
        })
    }
}

/// What the likely ranges are and what sets their width: "Likely ranges are 80 %
/// intervals: <basis>. Widened for what rests on an assumption: <assumptions>.
/// Widened because the inputs lie outside what the published series cover: <inputs>."
/// Each assumption is a limit's source as `source` writes it for the reader (public
/// titles for a customer).
pub fn ranges(c: &Confidence, source: impl Fn(&Source) -> String) -> String {
    let mut s = format!("Likely ranges are 80 % intervals: {}.", c.basis);
    if !c.assumptions.is_empty() {
        s.push_str(" Widened for what rests on an assumption: ");
        let named: Vec<String> = c.assumptions.iter().map(source).collect();
        s.push_str(&named.join("; "));
        s.push('.');
    }
    if !c.outside_envelope.is_empty() {
        s.push_str(" Widened because the inputs lie outside what the published series cover: ");
        s.push_str(&c.outside_envelope.join("; "));
        s.push('.');
    }
    s
}

/// A rate target: `got` is the central figure and the likely range's low end; with
/// `p90` confidence a target counts as met only when the low end meets it.
fn rate(
    kind: TargetKind,
    (central, low): (f64, f64),
    target: f64,
    headroom: f64,
    unit: &str,
    (binding, bound): (&str, &str),
    confidence: Assurance,
) -> TargetVerdict {
    let got = central;
    let central_met = headroom_reaches(headroom);
    let low_met = reaches(low, target);
    let met = central_met && (low_met || confidence == Assurance::Central);
    let what = match kind {
        TargetKind::Iops => "IOPS",
        _ => "Throughput",
    };
    // The range clause: whether the low end of the likely range meets the target too.
    let low_end = if low_met {
        format!(
            "met at the low end of the likely range too ({} {unit})",
            exact(low)
        )
    } else {
        format!(
            "met at the central estimate only: the likely range's low end, {} {unit}, falls short",
            exact(low)
        )
    };
    let statement = if central_met {
        let judged = if met {
            String::new()
        } else {
            " (sized for 90 % confidence, so it counts as missed)".to_owned()
        };
        format!(
            "{what}: {} {unit} achievable for the {} {unit} target ({}), {low_end}{judged}; {bound} sets the ceiling.",
            exact(got),
            num(target, 0),
            signed_pct(headroom)
        )
    } else {
        format!(
            "{what}: {} {unit} achievable, {} short of the {} {unit} target: {bound} caps it.",
            exact(got),
            pct(headroom),
            num(target, 0)
        )
    };
    TargetVerdict {
        target: kind,
        met,
        margin_pct: headroom,
        decided_by: binding.to_owned(),
        statement,
    }
}

/// The target rate as the scenario states it: "4,000 MiB/s" or "100,000 IOPS".
fn target_rate(s: &Scenario) -> Option<String> {
    let w = &s.workload;
    let from_mibps = w.target_mibps.map(|t| mibps_to_iops(t, w.io_size_kib));
    match (from_mibps, w.target_iops) {
        (Some(a), Some(b)) if b > a => Some(format!("{} IOPS", num(b, 0))),
        (Some(_), _) => w.target_mibps.map(mibps),
        (None, Some(b)) => Some(format!("{} IOPS", num(b, 0))),
        (None, None) => None,
    }
}

/// A latency target, judged like a rate: met at the central estimate, and at the likely
/// range's high end too or at the central estimate only; with `p90` confidence it counts
/// as met only when the high end meets it.
fn latency(s: &Scenario, e: &Evaluation, target: f64, bound: &str) -> TargetVerdict {
    let central_met = e.targets.latency_met.unwrap_or(false);
    let high = e.targets.latency_high_ms;
    let high_met = high.is_some_and(|h| within(h, target));
    let met = central_met && (high_met || s.workload.confidence == Assurance::Central);
    // The range clause: whether the high end of the likely range meets the target too.
    let high_end = match high {
        Some(h) if high_met => format!(", met at the likely range's high end too ({})", ms(h)),
        Some(h) => {
            let judged = if met {
                ""
            } else {
                " (sized for 90 % confidence, so it counts as missed)"
            };
            format!(
                ", met at the central estimate only: the likely range's high end, {}, is above it{judged}",
                ms(h)
            )
        }
        None => String::new(),
    };
    let rate = target_rate(s);
    let (judged, at) = match (&rate, e.latency_at_target_ms) {
        (Some(r), Some(l)) => (Some(l), format!("at {r}")),
        (Some(r), None) => (None, format!("at {r}")),
        (None, _) => (
            Some(e.latency_ms),
            format!("at the achievable {}", mibps(e.throughput_mibps)),
        ),
    };
    let (statement, margin) = match judged {
        None => (
            format!(
                "Latency: the {} ms target cannot be met {at}: that rate is out of reach ({} achievable).",
                num(target, 2),
                mibps(e.throughput_mibps)
            ),
            f64::NEG_INFINITY,
        ),
        Some(l) if central_met => (
            format!(
                "Latency: {} per IO {at} meets the {} target{high_end}.",
                ms(l),
                ms(target)
            ),
            (target / l - 1.0) * 100.0,
        ),
        Some(l) => (
            format!(
                "Latency: {} per IO {at}, above the {} target: the IOs queue at {bound}, which the workload runs close to; provision headroom above the rate.",
                ms(l),
                ms(target)
            ),
            (target / l - 1.0) * 100.0,
        ),
    };
    TargetVerdict {
        target: TargetKind::Latency,
        met,
        margin_pct: if margin.is_finite() { margin } else { -100.0 },
        decided_by: "latency".to_owned(),
        statement,
    }
}

/// The headline latency: at the target rate when the scenario has one, else at the
/// achievable load, with the IOs in flight that produce the achievable-load figure.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct LatencyVerdict {
    /// The headline figure, ms per IO.
    pub ms: f64,
    /// True when the figure is at the target rate, false at the achievable load.
    pub at_target: bool,
    /// Latency at the achievable load, ms per IO.
    pub achievable_ms: f64,
    /// IOs in flight at the achievable load (after slot limits).
    pub outstanding: f64,
    pub statement: String,
}

/// The headline latency of an evaluation.
pub fn headline_latency(s: &Scenario, e: &Evaluation) -> LatencyVerdict {
    let w = &s.workload;
    let (clients, who) = match &s.clients.avs {
        Some(a) => (
            u64::from(a.hosts) * u64::from(a.vms_per_host),
            ("VM", "VMs"),
        ),
        None => (u64::from(s.clients.count), ("client", "clients")),
    };
    let asked = u64::from(w.threads) * u64::from(w.queue_depth) * clients;
    let mut load = format!(
        "{} in flight ({} x {} queue depth x {})",
        plural(e.flows.outstanding.round() as u64, "IO", "IOs"),
        plural(u64::from(w.threads), "thread", "threads"),
        w.queue_depth,
        plural(clients, who.0, who.1)
    );
    if (asked as f64) > e.flows.outstanding * (1.0 + 1e-9) {
        load = format!(
            "{} in flight: {} asked ({} x {} queue depth x {}), held to that by the NFS slot limits",
            num(e.flows.outstanding, 0),
            num(asked as f64, 0),
            plural(u64::from(w.threads), "thread", "threads"),
            w.queue_depth,
            plural(clients, who.0, who.1)
        );
    }
    match (target_rate(s), e.latency_at_target_ms) {
        (Some(r), Some(l)) => LatencyVerdict {
            ms: l,
            at_target: true,
            achievable_ms: e.latency_ms,
            outstanding: e.flows.outstanding,
            statement: format!(
                "Latency: {} per IO at the target rate ({r}); {} at the achievable {}, with {load}.",
                ms(l),
                ms(e.latency_ms),
                mibps(e.throughput_mibps)
            ),
        },
        _ => LatencyVerdict {
            ms: e.latency_ms,
            at_target: false,
            achievable_ms: e.latency_ms,
            outstanding: e.flows.outstanding,
            statement: format!(
                "Latency: {} per IO at the achievable {}, with {load}; less load queues less (see the latency curve).",
                ms(e.latency_ms),
                mibps(e.throughput_mibps)
            ),
        },
    }
}
