//! Scenario -> Evaluation: the one entry point of the engine.

use super::advice;
use super::avs;
use super::client;
use super::cost;
use super::distribution::Distribution;
use super::evaluation::{Cost, Evaluation, Flows, Limit, Targets};
use super::limits::{LimitSet, MinTotal, RawLimit};
use super::plan::Plan;
use super::scenario::{FieldError, Scenario};
use super::service;
use super::solve;
use super::units::mibps_to_iops;

/// The numbers of one evaluation, without text: what advice and sizing reuse.
#[derive(Debug, Clone, Copy)]
pub struct Core<'s> {
    /// Every limit, in the caller's set (filled by [`core`]).
    pub limits: &'s LimitSet,
    /// Achievable MiB/s (reads + writes).
    pub total: f64,
    pub binding: &'s RawLimit,
    /// Outstanding IOs in flight across all clients after slot limits.
    pub outstanding: f64,
    /// The first `storage_count` limits are the storage service's; the rest client-side.
    pub storage_count: usize,
    /// The smallest client-side limit as a total (everything the storage service does
    /// not set); sizing reuses it for every level.
    pub client_total: f64,
    /// How the load spreads over the volumes (independent of level and quota).
    pub dist: Distribution,
}

impl Core<'_> {
    /// Achievable IOPS.
    pub fn iops(&self, p: &Plan) -> f64 {
        mibps_to_iops(self.total, p.io_kib)
    }

    /// The smallest limit other than those `skip` rejects, as a total at the plan's mix.
    pub fn next_total(&self, p: &Plan, skip: impl Fn(&RawLimit) -> bool) -> f64 {
        self.limits
            .iter()
            .filter(|l| l.applies_at(p.r) && !skip(l))
            .map(|l| l.total_at(p.r))
            .fold(f64::INFINITY, f64::min)
    }
}

/// Computes every limit of a resolved plan into `set` (which must be empty) and finds
/// the binding one; allocates nothing. The set is the caller's so that it is never
/// copied.
pub fn core<'s>(p: &Plan, set: &'s mut LimitSet) -> Core<'s> {
    debug_assert!(set.is_empty(), "core needs an empty limit set");
    let dist = Distribution::of(p);
    service::limits(p, &dist, set);
    let storage_count = set.len();
    let outstanding = match &p.avs {
        Some(a) => {
            avs::limits(p, a, &dist, set);
            avs::outstanding(p, a)
        }
        None => {
            client::limits(p, set);
            client::outstanding_per_client(p) * f64::from(p.clients)
        }
    };
    let set: &'s LimitSet = set;
    let b = set
        .binding(p.r, storage_count)
        .expect("every plan has storage limits");
    Core {
        limits: set,
        total: b.total,
        binding: b.limit,
        outstanding,
        storage_count,
        client_total: b.after_split,
        dist,
    }
}

/// The smallest storage-side limit of a plan (its service's limits only), with the
/// load spread `dist` (which depends on the volume count and AVS placement only).
pub fn storage_total(p: &Plan, dist: &Distribution) -> f64 {
    let mut min = MinTotal::new(p.r);
    service::limits(p, dist, &mut min);
    min.total
}

/// Whether `total` MiB/s at the plan's IO size meets its targets, and the headroom.
pub fn targets(p: &Plan, total: f64) -> Targets {
    let iops = mibps_to_iops(total, p.io_kib);
    let mibps_headroom_pct = p.target_mibps.map(|t| (total / t - 1.0) * 100.0);
    let iops_headroom_pct = p.target_iops.map(|t| (iops / t - 1.0) * 100.0);
    let ok = |h: Option<f64>| h.is_none_or(|h| h >= -1e-9);
    Targets {
        met: ok(mibps_headroom_pct) && ok(iops_headroom_pct),
        mibps_headroom_pct,
        iops_headroom_pct,
    }
}

/// Evaluates a scenario; a value out of range gives the field and what to fix.
pub fn evaluate(scenario: &Scenario) -> Result<Evaluation, FieldError> {
    let plan = Plan::resolve(scenario)?;
    Ok(evaluate_plan(&plan))
}

/// Evaluates a resolved plan.
pub fn evaluate_plan(p: &Plan) -> Evaluation {
    let mut set = LimitSet::default();
    let c = core(p, &mut set);
    let total = c.total;
    let iops = mibps_to_iops(total, p.io_kib);
    // Two factors instead of two divisions per limit; the binding limit's headroom is
    // still exactly 0.
    let iops_per_mibps = mibps_to_iops(1.0, p.io_kib);
    let pct_of_total = 100.0 / total;
    let mut limits = Vec::with_capacity(c.limits.len());
    for l in c.limits.iter().filter(|l| l.applies_at(p.r)) {
        limits.push(Limit {
            id: l.id,
            label: l.label,
            scope: l.scope,
            applies: l.applies,
            mibps: l.mibps,
            iops: l.mibps * iops_per_mibps,
            source: l.source,
            assumption: l.assumption,
            headroom_pct: (l.total_at(p.r) - total) * pct_of_total,
        });
    }
    let price = cost::price(p);
    let latency_ms = client::unloaded_latency_ms(p).max(c.outstanding / iops * 1000.0);
    let targets = targets(p, total);
    Evaluation {
        throughput_mibps: total,
        read_mibps: total * p.r,
        write_mibps: total * (1.0 - p.r),
        iops,
        binding: c.binding.id,
        advice: advice::rules::advise(p, &c, &price, &targets),
        limits,
        targets,
        flows: Flows {
            connections: client::connections(p),
            per_client: client::connections_per_client(p),
            outstanding: c.outstanding,
        },
        cost: Cost {
            monthly_usd: price.monthly_usd,
            billed_tib: price.billed_tib,
            currency: "USD",
            hours_per_month: price.hours_per_month,
            price_date: price.price_date,
            usd_per_mibps: price.monthly_usd.map(|m| m / total),
            assumption: price.assumption,
        },
        sizing: solve::sizing(p, &c),
        latency_ms,
    }
}
