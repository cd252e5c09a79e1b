//! Estates: many workloads planned together (contract: `POST /api/v1/estate/optimize`).
//!
//! The ANF workloads are grouped into capacity pools at the least monthly cost
//! (`search`, priced by `pool`, from what each workload asks of a pool, `demand`);
//! each pool's throughput is split over its volumes and every workload is evaluated
//! in its pool by the engine (`allocate`). Each workload is also sized alone on every
//! service and level (`fit`), and the estate is followed month by month over 1 to 5
//! years of growth with its resize schedule (`growth`). A workload is only placed on a
//! service its clients reach (`reach`).

mod allocate;
pub mod demand;
pub mod fit;
pub mod growth;
pub mod pool;
pub mod reach;
mod request;
pub mod search;

pub use allocate::{Assignment, PoolPlan};
pub use fit::{Fit, FitOption};
pub use growth::{Event, EventKind, Month};
pub use request::{
    DEFAULT_MAX_POOLS, DEFAULT_MIGRATION_THRESHOLD_USD_MONTH, DEFAULT_MIN_DWELL_MONTHS,
    DEFAULT_RESIZE_EVERY_MONTHS, EstatePricing, EstateRequest, MAX_WORKLOADS, WhatIf,
    WorkloadGrowth,
};

use crate::engine::field_error::FieldErrors;
use crate::engine::plan::Plan;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::Service;
use demand::Demand;
use pool::Rates;
use serde::Serialize;

/// How the pools were chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Every partition of the workloads into pools was covered.
    Exact,
    /// Merge-and-move search, with a lower bound on the optimum.
    Heuristic,
}

/// A simpler plan the optimum is compared with.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Baseline {
    pub name: &'static str,
    pub description: &'static str,
    /// Monthly cost of the estate's ANF pools under this plan; null when it cannot hold
    /// every workload.
    pub monthly: Option<f64>,
    /// What the optimum saves against it, %.
    pub saving_pct: Option<f64>,
}

/// A workload (or its AVS hosts) the headline totals leave out, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Excluded {
    pub workload: usize,
    pub name: String,
    /// `no_list_price` (its service and level), `no_host_price` (its AVS hosts; the
    /// datastores are counted), `no_pool` (no allowed ANF level and pool holds it) or
    /// `unreachable` (its clients cannot reach its service).
    pub reason: &'static str,
    /// What is left out, in words: "4 AV36 hosts have no list price in West Europe
    /// (westeurope)".
    pub detail: String,
}

/// The planned estate (contract: the answer of `POST /api/v1/estate/optimize`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EstatePlan {
    pub name: String,
    pub region: String,
    pub currency: &'static str,
    pub pools: Vec<PoolPlan>,
    pub assignments: Vec<Assignment>,
    pub timeline: Vec<Month>,
    /// Cost of the first month: the pools plus the workloads outside them.
    pub monthly: f64,
    /// Cost over the whole timeline.
    pub total: f64,
    /// Cost of each year of the timeline.
    pub cost_by_year: Vec<f64>,
    pub method: Method,
    /// No grouping of these ANF workloads into pools costs less per month.
    pub lower_bound: f64,
    /// How far above the lower bound the pools can be at most, %.
    pub gap_pct: f64,
    pub baselines: Vec<Baseline>,
    /// Each workload alone on every service and level.
    pub fit: Vec<Fit>,
    /// The resize schedule and the what-if months.
    pub events: Vec<Event>,
    /// The account's capacity-pool limit the plan respects (more pools only when the
    /// workloads cannot share them).
    pub max_pools: u32,
    /// Workloads the totals leave out (no list price, or no pool holds them).
    pub excluded: Vec<Excluded>,
}

/// Plans an estate priced from `prices`' list in the request's currency; a bad value gives the field and what to fix.
pub fn optimize(req: &EstateRequest, prices: &PriceBook) -> Result<EstatePlan, FieldErrors> {
    let prices = prices.for_currency(req.currency(), "pricing.currency")?;
    let region = req.validate(prices)?;
    let rates = Rates::of(prices, &region, req.discount_pct, req.reservation)
        .expect("the region is checked against the price book");
    let workloads = req.placed_workloads(&region);
    let reach: Vec<bool> = workloads
        .iter()
        .map(|w| reach::Clients::of(w).reach(w.storage.service))
        .collect();
    let mut demands = Vec::new();
    for (i, w) in workloads.iter().enumerate() {
        let plan = Plan::resolve_in(w, prices).map_err(|e| e.within(&format!("workloads[{i}]")))?;
        if w.storage.service == Service::Anf && reach[i] {
            demands.push(Demand::of(i, &plan));
        }
    }
    let allowed = vec![req.allowed(); demands.len()];
    // The first pools are sized for the end of the first resize period; a workload that
    // outgrows every pool by then starts at today's size (the timeline reports it).
    let first = req.horizon(0);
    let units: Vec<demand::Unit> = demands
        .iter()
        .zip(&allowed)
        .map(|(d, &a)| {
            let base = workloads[d.workload].storage.total_quota_tib();
            let (fc, ft) = req.factors(d.workload, first, base);
            let u = d.at(fc, ft, a);
            if pool::cheapest(&u.sums, &rates).is_some() {
                u
            } else {
                d.at(1.0, 1.0, a)
            }
        })
        .collect();
    // Workloads no pool type can hold are reported, not pooled.
    let active: Vec<usize> = (0..units.len())
        .filter(|&i| pool::cheapest(&units[i].sums, &rates).is_some())
        .collect();
    let sums: Vec<pool::Sums> = active.iter().map(|&i| units[i].sums).collect();
    let max_pools = req.max_pools as usize;
    let solution = search::solve(&sums, &rates, None, max_pools);
    let (pools, mut assignments) = allocate::allocate(
        &workloads, &demands, &units, &active, &solution, &rates, prices,
    );
    let (fixed, mut excluded) =
        allocate::outside_pools(&workloads, &reach, prices, &mut assignments);
    excluded.extend(
        demands
            .iter()
            .enumerate()
            .filter(|(i, _)| !active.contains(i))
            .map(|(_, d)| Excluded {
                workload: d.workload,
                name: workloads[d.workload].name.clone(),
                reason: "no_pool",
                detail: "no allowed ANF level and pool holds it".to_owned(),
            }),
    );
    excluded.sort_by_key(|x| x.workload);
    let baselines = baselines(&sums, &rates, solution.monthly);
    let names: Vec<String> = workloads.iter().map(|w| w.name.clone()).collect();
    let capacity: Vec<f64> = workloads
        .iter()
        .map(|w| w.storage.total_quota_tib())
        .collect();
    // What the timeline's capacity columns count: the workloads in the pools, and those
    // outside them that the totals count.
    let pooled: Vec<usize> = active.iter().map(|&i| demands[i].workload).collect();
    let left_out = |w: usize| {
        excluded
            .iter()
            .any(|x| x.workload == w && x.reason != "no_host_price")
    };
    let data: Vec<f64> = workloads
        .iter()
        .enumerate()
        .map(|(w, s)| {
            let planned =
                pooled.contains(&w) || (s.storage.service != Service::Anf && !left_out(w));
            if planned {
                s.workload.capacity_tib
            } else {
                0.0
            }
        })
        .collect();
    let outside_quota: Vec<f64> = workloads
        .iter()
        .enumerate()
        .map(|(w, s)| {
            if s.storage.service != Service::Anf && !left_out(w) {
                capacity[w]
            } else {
                0.0
            }
        })
        .collect();
    let (timeline, events) = growth::timeline(
        req,
        &growth::Estate {
            names: &names,
            capacity: &capacity,
            data: &data,
            outside_quota: &outside_quota,
            demands: &demands,
            allowed: &allowed,
            active: &active,
            fixed: &fixed,
            rates: &rates,
            start: &solution,
        },
    );
    let total = timeline.iter().map(|m| m.monthly).sum();
    let cost_by_year = timeline
        .chunks(12)
        .map(|y| y.iter().map(|m| m.monthly).sum())
        .collect();
    let fit = fit::fit_all(&workloads, req, prices);
    let monthly = timeline.first().map_or(solution.monthly, |m| m.monthly);
    let gap_pct = if solution.monthly > 0.0 {
        ((solution.monthly - solution.lower_bound) / solution.monthly * 100.0).max(0.0)
    } else {
        0.0
    };
    Ok(EstatePlan {
        name: req.display_name(),
        region,
        currency: prices.currency,
        pools,
        assignments,
        timeline,
        monthly,
        total,
        cost_by_year,
        method: if solution.exact {
            Method::Exact
        } else {
            Method::Heuristic
        },
        lower_bound: solution.lower_bound,
        gap_pct,
        baselines,
        fit,
        events,
        max_pools: req.max_pools,
        excluded,
    })
}

/// The optimum against one auto pool per level and one Flexible pool.
fn baselines(units: &[pool::Sums], rates: &Rates, optimum: f64) -> Vec<Baseline> {
    let saving = |m: Option<f64>| {
        m.filter(|&m| m > 0.0)
            .map(|m| ((m - optimum) / m * 100.0).max(0.0))
    };
    let per_level = search::pool_per_level(units, rates);
    let flexible = search::one_flexible(units, rates);
    vec![
        Baseline {
            name: "pool_per_level",
            description: "each workload at its cheapest auto QoS level alone, one auto QoS pool per level",
            monthly: per_level,
            saving_pct: saving(per_level),
        },
        Baseline {
            name: "flexible",
            description: "every workload in one Flexible pool",
            monthly: flexible,
            saving_pct: saving(flexible),
        },
    ]
}

#[cfg(test)]
mod tests;
