//! The workload's targets: the rate it must reach and whether a rate and a latency
//! meet them.

use super::evaluation::Targets;
use super::plan::Plan;
use super::same::{least_reaching, reaches, within};
use super::units::mibps_to_iops;

/// The larger of the IOPS target and the MiB/s target in IOPS, if any.
pub fn target_iops(p: &Plan) -> Option<f64> {
    let m = p.target_mibps.map(|t| mibps_to_iops(t, p.io_kib));
    match (m, p.target_iops) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// The smallest achievable IOPS that [`targets`] counts as meeting the plan's rate
/// targets (the same as the target, [`reaches`]); 0 without a rate target.
pub fn rate_needed_iops(p: &Plan) -> f64 {
    let mibps = p
        .target_mibps
        .map_or(0.0, |t| mibps_to_iops(least_reaching(t), p.io_kib));
    mibps.max(p.target_iops.map_or(0.0, least_reaching))
}

/// Whether `total` MiB/s at the plan's IO size, with `latency_ms` per IO at the target
/// rate (at the achievable load when only a latency target is set; `None` when the rate
/// is out of reach), and the volumes' quota meet the plan's targets, and the headroom.
/// A rate meets its target when it gives the same or more, a latency when it takes the
/// same or less ([`super::same`]).
pub fn targets(p: &Plan, total: f64, latency_ms: Option<f64>) -> Targets {
    let iops = mibps_to_iops(total, p.io_kib);
    let mibps_headroom_pct = p.target_mibps.map(|t| (total / t - 1.0) * 100.0);
    let iops_headroom_pct = p.target_iops.map(|t| (iops / t - 1.0) * 100.0);
    let rate_ok = p.target_mibps.is_none_or(|t| reaches(total, t))
        && p.target_iops.is_none_or(|t| reaches(iops, t));
    let latency_met = p
        .target_latency_ms
        .map(|t| latency_ms.is_some_and(|l| within(l, t)));
    // Capacity: the volumes hold what the workload stores (quotas are set in GiB, so a
    // relative tolerance absorbs float noise only).
    let capacity_headroom_pct = (p.total_quota_tib / p.capacity_tib - 1.0) * 100.0;
    let capacity_met = p.total_quota_tib >= p.capacity_tib * (1.0 - 1e-9);
    let met = capacity_met && rate_ok && latency_met != Some(false);
    Targets {
        met,
        capacity_met,
        capacity_headroom_pct,
        mibps_headroom_pct,
        iops_headroom_pct,
        latency_met,
        // The caller that knows the likely range judges its worst end.
        met_at_low_end: met,
        latency_high_ms: None,
    }
}

/// The latency a latency target is judged by: at the target rate, or at the
/// achievable load when no rate target is set.
pub fn judged_latency(p: &Plan, latency_ms: f64, at_target_ms: Option<f64>) -> Option<f64> {
    if target_iops(p).is_some() {
        at_target_ms
    } else {
        Some(latency_ms)
    }
}
