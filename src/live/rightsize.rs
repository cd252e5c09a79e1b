//! One volume's demand against what it has: its QoS throughput and the model's
//! ceiling, and the provisioning it needs, sized by the engine's reverse sizing.
//!
//! The volume is sized for its P95 throughput plus [`MARGIN_PCT`] and for the largest
//! capacity it consumed plus the same margin, at the IO size and read share measured
//! over the period; the sizing table covers every ANF level and QoS split
//! ([`crate::engine::solve`]) and its cheapest row that meets is the plan.

use super::demand::Demand;
use crate::engine::evaluate::evaluate_in;
use crate::engine::field_error::FieldErrors;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::Scenario;
use crate::verdict::{self, Recommendation};

/// Margin over the measured P95 throughput and consumed capacity that the plan keeps, %.
/// A stated planning assumption (no vendor document sets a figure): the verdict names it
/// ("P95 plus 20%") wherever it sizes with it, and docs/live.md says so.
pub const MARGIN_PCT: f64 = 20.0;

/// Least throughput a plan is sized for, MiB/s (an idle volume still has a quota).
const MIN_TARGET_MIBPS: f64 = 1.0;

/// Headroom of one volume and its right-sizing.
#[derive(Debug, Clone)]
pub struct Assessment {
    /// The volume as it exists, with the measured mix.
    pub scenario: Scenario,
    /// P95 read + write MiB/s.
    pub p95_mibps: f64,
    pub max_mibps: f64,
    /// The volume's QoS throughput, MiB/s (the `volume_qos` limit).
    pub qos_mibps: Option<f64>,
    /// What the model says the volume gives at the measured mix, MiB/s.
    pub ceiling_mibps: f64,
    /// How far P95 is below the QoS throughput, % of it (negative: above).
    pub headroom_pct: Option<f64>,
    /// How far P95 is below the model's ceiling, % of it.
    pub ceiling_headroom_pct: f64,
    /// The capacity the plan keeps, TiB.
    pub needed_tib: f64,
    /// The throughput the plan is sized for, MiB/s.
    pub needed_mibps: f64,
    /// What the volume costs a month today.
    pub monthly: Option<f64>,
    pub currency: &'static str,
    /// The cheapest provisioning that meets the need; None when no level does.
    pub recommendation: Option<Recommendation>,
    /// Why no level meets, when none does.
    pub none_meets: Option<String>,
    /// Today's monthly cost less the plan's (negative: the plan costs more).
    pub saving: Option<f64>,
}

/// Sets `demand` against `existing` (the volume as it exists) and sizes it again;
/// None when the metrics carry no throughput.
pub fn assess(
    existing: &Scenario,
    demand: &Demand,
    prices: &PriceBook,
) -> Result<Option<Assessment>, FieldErrors> {
    let Some(spread) = demand.mibps else {
        return Ok(None);
    };
    let mut scenario = existing.clone();
    super::with_measured_mix(&mut scenario, demand);
    let now = evaluate_in(&scenario, prices)?;
    let qos_mibps = now
        .limits
        .iter()
        .find(|l| l.id == "volume_qos")
        .map(|l| l.mibps);
    let headroom = |cap: f64| (cap > 0.0).then(|| (cap - spread.p95) / cap * 100.0);
    let quota: f64 = scenario
        .storage
        .volumes
        .iter()
        .map(|g| g.quota_tib * f64::from(g.count))
        .sum();
    let grow = 1.0 + MARGIN_PCT / 100.0;
    let needed_tib = demand
        .consumed_max_pct
        .map_or(scenario.workload.capacity_tib, |p| quota * p / 100.0 * grow)
        .max(0.001);
    let needed_mibps = (spread.p95 * grow).max(MIN_TARGET_MIBPS);
    let mut sized = scenario.clone();
    sized.workload.capacity_tib = needed_tib;
    sized.workload.target_mibps = Some(needed_mibps);
    sized.workload.target_iops = None;
    let ev = evaluate_in(&sized, prices)?;
    let table = verdict::sizing::sized(&sized, &ev, prices);
    let monthly = now.cost.monthly;
    let saving = match (&table.recommendation, monthly) {
        (Some(r), Some(m)) => r.monthly.map(|p| m - p),
        _ => None,
    };
    Ok(Some(Assessment {
        p95_mibps: spread.p95,
        max_mibps: spread.max,
        qos_mibps,
        ceiling_mibps: now.throughput_mibps,
        headroom_pct: qos_mibps.and_then(headroom),
        ceiling_headroom_pct: headroom(now.throughput_mibps).unwrap_or(0.0),
        needed_tib,
        needed_mibps,
        monthly,
        currency: now.cost.currency,
        recommendation: table.recommendation,
        none_meets: table.none_meets,
        saving,
        scenario,
    }))
}
