//! The estate month by month: quotas and throughput grow, the pools are resized in
//! planned steps (every `resize_every_months`, sized for the end of the period, 1 TiB
//! steps), a volume that outgrows a regular volume becomes a large volume, and the
//! pools are re-planned from the current ones when another level or grouping saves more
//! than the migration threshold and no workload would move again within its minimum
//! dwell; a move the estate would reverse later is made only when it pays for both
//! moves. One-month what-ifs (a workload on another level for a month) are priced on
//! the same months.

use super::demand::{Demand, Unit, slot};
use super::pool::{self, PoolType, Rates, Sums};
use super::request::EstateRequest;
use super::search::{self, Solution};
use crate::engine::scenario::VolumeKind;
use serde::Serialize;

/// What the timeline needs of the optimised estate.
pub struct Estate<'a> {
    pub demands: &'a [Demand],
    pub allowed: &'a [u8],
    /// Demands in the pools (indexes into `demands`).
    pub active: &'a [usize],
    /// Per workload: monthly cost outside the pools that grows with capacity, and that
    /// does not.
    pub fixed: &'a [(f64, f64)],
    pub rates: &'a Rates,
    pub start: &'a Solution,
    /// Workload names, by workload index.
    pub names: &'a [String],
    /// Month-0 quota of every workload, TiB (what its growth factors scale).
    pub capacity: &'a [f64],
    /// Month-0 capacity each planned workload holds (its `workload.capacity_tib`; 0 for
    /// a workload the plan leaves out), TiB.
    pub data: &'a [f64],
    /// Month-0 quota of each workload outside the pools that the plan counts, TiB.
    pub outside_quota: &'a [f64],
}

/// One month of the timeline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Month {
    /// From 0 (now).
    pub month: u32,
    /// Capacity the planned workloads hold this month (each one's capacity, grown), TiB.
    pub demand_tib: f64,
    /// Quota provisioned for them: the pooled volumes (sized for the end of the resize
    /// period, at least each level's smallest volume) and the workloads outside the
    /// pools, TiB.
    pub provisioned_tib: f64,
    /// Throughput the pooled volumes need, MiB/s.
    pub mibps: f64,
    /// Size of all pools, TiB.
    pub pool_tib: f64,
    pub pools: usize,
    /// Cost of this month: pools and the workloads outside them.
    pub monthly: f64,
    /// True when a what-if changes this month.
    pub what_if: bool,
}

/// What happens in the resize schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    PoolGrows,
    LargeVolume,
    LevelChange,
    Unmet,
    WhatIf,
}

/// One entry of the resize schedule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Event {
    pub month: u32,
    pub kind: EventKind,
    pub workload: Option<usize>,
    pub message: String,
}

/// The pools of `current` (grouping and types kept) repriced for `sums`; `None` when
/// a pool no longer holds its members at its type.
fn keep(current: &Solution, sums: &[Sums], rates: &Rates) -> Option<Solution> {
    let mut members = vec![Sums::EMPTY; current.pools.len()];
    for (u, &p) in current.pool_of.iter().enumerate() {
        members[p] = members[p].plus(&sums[u]);
    }
    let pools = current
        .pools
        .iter()
        .zip(&members)
        .map(|(&(t, _), s)| pool::price(t, s, rates).map(|p| (t, p)))
        .collect::<Option<Vec<_>>>()?;
    let monthly = pools.iter().map(|p| p.1.monthly).sum();
    Some(Solution {
        pool_of: current.pool_of.clone(),
        pools,
        monthly,
        exact: current.exact,
        lower_bound: current.lower_bound,
    })
}

/// Each resize period's demands (by active workload), sized for the end of the period;
/// a workload that outgrows every pool is held at its last size and reported once.
fn periods(req: &EstateRequest, e: &Estate, events: &mut Vec<Event>) -> Vec<Vec<Unit>> {
    let months = req.years * 12;
    let every = req.resize_every_months.max(1);
    let mut unmet = vec![false; e.active.len()];
    let mut out: Vec<Vec<Unit>> = Vec::new();
    for m in (0..months).step_by(every as usize) {
        let h = req.horizon(m);
        let units = e
            .active
            .iter()
            .enumerate()
            .map(|(a, &i)| {
                let w = e.demands[i].workload;
                let (fc, ft) = req.factors(w, h, e.capacity[w]);
                let u = e.demands[i].at(fc, ft, e.allowed[i]);
                if pool::cheapest(&u.sums, e.rates).is_some() {
                    return u;
                }
                if !unmet[a] {
                    unmet[a] = true;
                    events.push(Event {
                        month: m,
                        kind: EventKind::Unmet,
                        workload: Some(w),
                        message: format!(
                            "Month {m}: {} outgrows every allowed level and pool; it is held at its last size",
                            e.names[w]
                        ),
                    });
                }
                out.last()
                    .map(|p| p[a].clone())
                    .unwrap_or_else(|| e.demands[i].at(1.0, 1.0, e.allowed[i]))
            })
            .collect();
        out.push(units);
    }
    out
}

/// What a move from `kept` to `best` at period `p` saves before the estate would move
/// back, when it would: from the first period at least `min_dwell_months` later where
/// keeping the old grouping costs less than keeping the new one by more than the
/// migration threshold. `None` when the move holds to the end of the timeline (or one
/// of the two groupings stops holding its workloads first).
fn round_trip(
    req: &EstateRequest,
    e: &Estate,
    sums: &[Vec<Sums>],
    p: usize,
    kept: &Solution,
    best: &Solution,
) -> Option<f64> {
    let every = req.resize_every_months.max(1);
    let months = req.years * 12;
    let start = p as u32 * every;
    let mut saved = 0.0;
    for (q, s) in sums.iter().enumerate().skip(p) {
        let m = q as u32 * every;
        let old = keep(kept, s, e.rates)?.monthly;
        let new = keep(best, s, e.rates)?.monthly;
        if q > p
            && m - start >= req.min_dwell_months
            && old < new - req.migration_threshold_usd_month
        {
            return Some(saved);
        }
        saved += (old - new) * f64::from(every.min(months - m));
    }
    None
}

/// The timeline and its events.
///
/// Pools are resized at the start of each resize period (`resize_every_months`), each
/// time for the demand at the end of the period, so they grow in planned steps with
/// headroom. At those points the pools are also re-planned, but only when the new plan
/// saves more than `migration_threshold_usd_month` a month and no workload it moves has
/// moved within the last `min_dwell_months` (a plan that no longer holds its workloads
/// is re-planned regardless). A move the estate would reverse within the timeline is
/// made only when what it saves until then pays for both moves, each costing the
/// threshold for the minimum dwell ([`move_cost`]).
pub fn timeline(req: &EstateRequest, e: &Estate) -> (Vec<Month>, Vec<Event>) {
    let months = req.years * 12;
    let every = req.resize_every_months.max(1);
    let threshold = req.migration_threshold_usd_month.max(0.01);
    let max_pools = req.max_pools as usize;
    let mut current = e.start.clone();
    let mut last: Vec<Option<Unit>> = vec![None; e.active.len()];
    let mut moved_at: Vec<Option<u32>> = vec![None; e.active.len()];
    let mut out = Vec::with_capacity(months as usize);
    let mut events = Vec::new();
    let periods = periods(req, e, &mut events);
    let period_sums: Vec<Vec<Sums>> = periods
        .iter()
        .map(|us| us.iter().map(|u| u.sums).collect())
        .collect();
    for m in 0..months {
        let period = (m / every) as usize;
        let period_start = m % every == 0;
        let units = &periods[period];
        let sums = &period_sums[period];
        if m > 0 && period_start {
            let kept = keep(&current, sums, e.rates);
            let best = search::solve(sums, e.rates, Some(&current.pool_of), max_pools);
            let moves: Vec<usize> = (0..e.active.len())
                .filter(|&a| current.pools[current.pool_of[a]].0 != best.pools[best.pool_of[a]].0)
                .collect();
            let settled = moves
                .iter()
                .all(|&a| moved_at[a].is_none_or(|t| m - t >= req.min_dwell_months));
            let replan = match &kept {
                None => true,
                Some(k) => {
                    settled
                        && best.monthly < k.monthly - threshold
                        && round_trip(req, e, &period_sums, period, &current, &best)
                            .is_none_or(|saved| saved > 2.0 * move_cost(req))
                }
            };
            if replan {
                for &a in &moves {
                    let i = e.active[a];
                    let was = current.pools[current.pool_of[a]].0;
                    let now = best.pools[best.pool_of[a]].0;
                    let why = match &kept {
                        Some(k) => format!(
                            "the pools cost ${:.0}/month less than keeping the plan",
                            k.monthly - best.monthly
                        ),
                        None => "its pool type no longer holds it".to_owned(),
                    };
                    moved_at[a] = Some(m);
                    events.push(Event {
                        month: m,
                        kind: EventKind::LevelChange,
                        workload: Some(e.demands[i].workload),
                        message: format!(
                            "Month {m}: {} moves from {} to {}; {why}",
                            e.names[e.demands[i].workload],
                            was.display(),
                            now.display()
                        ),
                    });
                }
                current = best;
            } else if let Some(k) = kept {
                for (p, (&(t, old), &(_, new))) in current.pools.iter().zip(&k.pools).enumerate() {
                    if new.size_tib > old.size_tib {
                        events.push(Event {
                            month: m,
                            kind: EventKind::PoolGrows,
                            workload: None,
                            message: format!(
                                "Month {m}: the {} pool of {} grows from {} to {} TiB, sized for month {}",
                                t.display(),
                                members(&k, p, e),
                                old.size_tib,
                                new.size_tib,
                                req.horizon(m)
                            ),
                        });
                    }
                }
                current = k;
            }
        }
        if period_start {
            for (a, u) in units.iter().enumerate() {
                let k = slot(current.pools[current.pool_of[a]].0);
                let was = last[a].as_ref().map(|l| l.kind[k]);
                if was == Some(VolumeKind::Regular) && u.kind[k] == VolumeKind::Large {
                    let w = e.demands[e.active[a]].workload;
                    events.push(Event {
                        month: m,
                        kind: EventKind::LargeVolume,
                        workload: Some(w),
                        message: format!(
                            "Month {m}: {}'s volumes become large volumes (over a regular volume's size or throughput)",
                            e.names[w]
                        ),
                    });
                }
                last[a] = Some(u.clone());
            }
        }
        let grown = |w: usize| req.factors(w, m, e.capacity[w]).0;
        let outside: f64 = e
            .fixed
            .iter()
            .enumerate()
            .map(|(w, &(grows, flat))| grows * grown(w) + flat)
            .sum();
        let mut monthly = current.monthly + outside;
        let mut what_if = false;
        for w in req.what_if.iter().filter(|w| w.month == m) {
            let Some(a) = e
                .active
                .iter()
                .position(|&i| e.demands[i].workload == w.workload)
            else {
                continue;
            };
            let mut moved = sums.clone();
            moved[a].types &= PoolType::of_level(w.level);
            let name = &e.names[w.workload];
            let level = pool::level_name(w.level);
            if pool::cheapest(&moved[a], e.rates).is_none() {
                events.push(Event {
                    month: m,
                    kind: EventKind::WhatIf,
                    workload: Some(w.workload),
                    message: format!("Month {m}: {name} cannot run on {level}"),
                });
                continue;
            }
            let s = search::solve(&moved, e.rates, Some(&current.pool_of), max_pools);
            let delta = s.monthly - current.monthly;
            events.push(Event {
                month: m,
                kind: EventKind::WhatIf,
                workload: Some(w.workload),
                message: format!(
                    "Month {m}: {name} on {level} for one month: the pools cost ${:.0} {} that month",
                    delta.abs(),
                    if delta >= 0.0 { "more" } else { "less" }
                ),
            });
            monthly += delta;
            what_if = true;
        }
        let pooled_quota: f64 = units
            .iter()
            .enumerate()
            .map(|(a, u)| u.sums.quota_tib[slot(current.pools[current.pool_of[a]].0)])
            .sum();
        out.push(Month {
            month: m,
            demand_tib: e.data.iter().enumerate().map(|(w, d)| d * grown(w)).sum(),
            provisioned_tib: pooled_quota
                + e.outside_quota
                    .iter()
                    .enumerate()
                    .map(|(w, q)| q * grown(w))
                    .sum::<f64>(),
            mibps: units
                .iter()
                .enumerate()
                .map(|(a, u)| u.sums.mibps[slot(current.pools[current.pool_of[a]].0)])
                .sum(),
            pool_tib: current.pools.iter().map(|p| p.1.size_tib).sum(),
            pools: current.pools.len(),
            monthly,
            what_if,
        });
    }
    events.sort_by_key(|e| e.month);
    (out, events)
}

/// What one move costs for the look-ahead: the migration threshold over the minimum
/// dwell (a move that saves the threshold every month of its dwell pays for itself).
pub fn move_cost(req: &EstateRequest) -> f64 {
    req.migration_threshold_usd_month * f64::from(req.min_dwell_months)
}

/// The names of pool `p`'s members, joined.
fn members(s: &Solution, p: usize, e: &Estate) -> String {
    s.pool_of
        .iter()
        .enumerate()
        .filter(|&(_, &q)| q == p)
        .map(|(a, _)| e.names[e.demands[e.active[a]].workload].as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
