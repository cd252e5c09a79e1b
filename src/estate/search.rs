//! Choosing the pools: which workloads share a pool, and each pool's level and QoS type,
//! at the least monthly cost.
//!
//! A pool's cost depends only on the sums of its members ([`pool::price`]), so the
//! problem is a set partition with a priced block. Up to [`EXACT_MAX`] workloads it is
//! solved exactly by dynamic programming over subsets (every partition is covered:
//! the block holding the lowest remaining workload, then the best of the rest). Above
//! that a heuristic runs: start from one pool per workload (or from a given grouping),
//! merge the pair of pools that saves most while any saves, then move single workloads
//! to the pool (or a new pool) where they cost least until no move saves. Its result
//! comes with a lower bound: every pool costs at least the price of its capacity and, on
//! manual levels, of the capacity its throughput needs, so for any weight w in [0, 1]
//! the sum over workloads of the cheapest `price x (w x quota + (1 - w) x throughput /
//! rate)` (Flexible: capacity plus throughput above 128 MiB/s) bounds every estate from
//! below; the best w of a grid gives the bound, and the gap to it is reported.

use super::pool::{self, PoolType, Priced, Rates, Sums, TYPES, level_index};
use crate::engine::catalog;

/// Largest estate (ANF workloads) solved exactly.
pub const EXACT_MAX: usize = 10;

/// The pools of an estate and who is in which.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The pool of each workload (index into `pools`).
    pub pool_of: Vec<usize>,
    pub pools: Vec<(PoolType, Priced)>,
    pub monthly: f64,
    /// True when the search was exhaustive.
    pub exact: bool,
    /// No estate of these workloads costs less than this per month.
    pub lower_bound: f64,
}

/// The cheapest pools for `units` (each must fit some pool alone) in at most
/// `max_pools` pools (the NetApp account's capacity-pool limit): exact up to
/// [`EXACT_MAX`] workloads, else the heuristic from `start` (a grouping to improve) or
/// from scratch. When the workloads cannot share pools enough to fit the limit, the
/// answer has more pools than it and says so by its length.
pub fn solve(units: &[Sums], r: &Rates, start: Option<&[usize]>, max_pools: usize) -> Solution {
    if units.len() <= EXACT_MAX {
        exact(units, r, max_pools)
    } else {
        heuristic(units, r, start, max_pools)
    }
}

/// The cost of the cheapest single pool of sums `s`, infinite when none holds it.
fn block(s: &Sums, r: &Rates) -> f64 {
    pool::cheapest(s, r).map_or(f64::INFINITY, |(_, p)| p.monthly)
}

/// Dynamic programming over subsets: exact. Without a binding pool limit one layer
/// (any number of blocks); with one, a layer per pool allowed (the best partition of
/// each subset into at most k blocks).
pub fn exact(units: &[Sums], r: &Rates, max_pools: usize) -> Solution {
    let n = units.len();
    let full = (1usize << n) - 1;
    let mut sums = vec![Sums::EMPTY; full + 1];
    let mut cost = vec![f64::INFINITY; full + 1];
    for m in 1..=full {
        let low = m.trailing_zeros() as usize;
        sums[m] = sums[m & (m - 1)].plus(&units[low]);
        cost[m] = block(&sums[m], r);
    }
    let limited = max_pools.max(1) < n;
    let layers = if limited { max_pools.max(1) } else { 1 };
    // best[k][m]: the cheapest partition of m into at most k + 1 blocks (any number when
    // not limited); choice[k][m]: its block holding m's lowest member.
    let mut best = vec![vec![f64::INFINITY; full + 1]; layers];
    let mut choice = vec![vec![0usize; full + 1]; layers];
    for k in 0..layers {
        best[k][0] = 0.0;
        for m in 1..=full {
            let low = m & m.wrapping_neg();
            let rest = m ^ low;
            choice[k][m] = low;
            let mut sub = rest;
            loop {
                let b = sub | low;
                let before = match (limited, k) {
                    (_, _) if m ^ b == 0 => 0.0,
                    (true, 0) => f64::INFINITY,
                    (true, _) => best[k - 1][m ^ b],
                    (false, _) => best[k][m ^ b],
                };
                let c = cost[b] + before;
                if c < best[k][m] - 1e-9 {
                    best[k][m] = c;
                    choice[k][m] = b;
                }
                if sub == 0 {
                    break;
                }
                sub = (sub - 1) & rest;
            }
        }
    }
    let mut blocks = Vec::new();
    let mut m = full;
    let mut k = layers - 1;
    // No partition within the limit: the best without it (more pools than allowed).
    if !best[k][full].is_finite() && limited {
        return exact(units, r, n);
    }
    while m != 0 {
        let b = choice[k][m];
        blocks.push(b);
        m ^= b;
        if limited {
            k = k.saturating_sub(1);
        }
    }
    let mut pool_of = vec![0; n];
    for (i, &b) in blocks.iter().enumerate() {
        for (u, p) in pool_of.iter_mut().enumerate() {
            if b >> u & 1 == 1 {
                *p = i;
            }
        }
    }
    let mut s = assemble(units, r, pool_of);
    s.exact = true;
    s.lower_bound = s.monthly;
    s
}

/// Pools priced from a grouping (each group must fit one pool).
fn assemble(units: &[Sums], r: &Rates, pool_of: Vec<usize>) -> Solution {
    let k = pool_of.iter().max().map_or(0, |m| m + 1);
    let mut sums = vec![Sums::EMPTY; k];
    for (u, &p) in pool_of.iter().enumerate() {
        sums[p] = sums[p].plus(&units[u]);
    }
    let pools: Vec<(PoolType, Priced)> = sums
        .iter()
        .map(|s| pool::cheapest(s, r).expect("every group of a solution fits one pool"))
        .collect();
    let monthly = pools.iter().map(|p| p.1.monthly).sum();
    Solution {
        pool_of,
        pools,
        monthly,
        exact: false,
        lower_bound: lower_bound(units, r),
    }
}

/// Merge, then move: see the module documentation; then, while there are more than
/// `max_pools` pools, the merge that costs least.
pub fn heuristic(units: &[Sums], r: &Rates, start: Option<&[usize]>, max_pools: usize) -> Solution {
    let n = units.len();
    // Groups as member lists with their sums and cost.
    let mut groups: Vec<(Vec<usize>, Sums, f64)> = Vec::new();
    let push_single = |groups: &mut Vec<(Vec<usize>, Sums, f64)>, u: usize| {
        groups.push((vec![u], units[u], block(&units[u], r)));
    };
    match start {
        Some(start) => {
            let k = start.iter().max().map_or(0, |m| m + 1);
            let mut members = vec![Vec::new(); k];
            for (u, &p) in start.iter().enumerate() {
                members[p].push(u);
            }
            for m in members.into_iter().filter(|m| !m.is_empty()) {
                let s = m.iter().fold(Sums::EMPTY, |s, &u| s.plus(&units[u]));
                let c = block(&s, r);
                if c.is_finite() {
                    groups.push((m, s, c));
                } else {
                    for u in m {
                        push_single(&mut groups, u);
                    }
                }
            }
        }
        None => (0..n).for_each(|u| push_single(&mut groups, u)),
    }
    // Merge the pair that saves most, while one saves.
    loop {
        let mut best: Option<(usize, usize, Sums, f64, f64)> = None;
        for i in 0..groups.len() {
            for j in i + 1..groups.len() {
                let s = groups[i].1.plus(&groups[j].1);
                let c = block(&s, r);
                let saving = groups[i].2 + groups[j].2 - c;
                if saving > 1e-9 && best.as_ref().is_none_or(|b| saving > b.4) {
                    best = Some((i, j, s, c, saving));
                }
            }
        }
        let Some((i, j, s, c, _)) = best else { break };
        let (mj, _, _) = groups.swap_remove(j);
        groups[i].0.extend(mj);
        groups[i].1 = s;
        groups[i].2 = c;
    }
    // Within the pool limit: the merges that cost least, while a merge fits a pool.
    while groups.len() > max_pools.max(1) {
        let mut best: Option<(usize, usize, Sums, f64, f64)> = None;
        for i in 0..groups.len() {
            for j in i + 1..groups.len() {
                let s = groups[i].1.plus(&groups[j].1);
                let c = block(&s, r);
                let extra = c - groups[i].2 - groups[j].2;
                if c.is_finite() && best.as_ref().is_none_or(|b| extra < b.4) {
                    best = Some((i, j, s, c, extra));
                }
            }
        }
        let Some((i, j, s, c, _)) = best else { break };
        let (mj, _, _) = groups.swap_remove(j);
        groups[i].0.extend(mj);
        groups[i].1 = s;
        groups[i].2 = c;
    }
    // Move single workloads while a move saves.
    let mut group_of = vec![0; n];
    for (g, (m, _, _)) in groups.iter().enumerate() {
        for &u in m {
            group_of[u] = g;
        }
    }
    for _ in 0..n.max(8) {
        let mut moved = false;
        for u in 0..n {
            let g = group_of[u];
            let rest: Vec<usize> = groups[g].0.iter().copied().filter(|&v| v != u).collect();
            let rest_sums = rest.iter().fold(Sums::EMPTY, |s, &v| s.plus(&units[v]));
            let rest_cost = if rest.is_empty() {
                0.0
            } else {
                block(&rest_sums, r)
            };
            let gain = groups[g].2 - rest_cost;
            // The best place for u: a new pool (within the limit), or another group.
            let open = groups.iter().filter(|g| !g.0.is_empty()).count();
            let alone = if open < max_pools.max(1) || groups[g].0.len() == 1 {
                block(&units[u], r)
            } else {
                f64::INFINITY
            };
            let mut target = (None, alone);
            for (h, (_, s, c)) in groups.iter().enumerate() {
                if h != g && !groups[h].0.is_empty() {
                    let add = block(&s.plus(&units[u]), r) - c;
                    if add < target.1 {
                        target = (Some(h), add);
                    }
                }
            }
            if target.1 < gain - 1e-6 && rest_cost.is_finite() {
                groups[g] = (rest, rest_sums, rest_cost);
                let h = match target.0 {
                    Some(h) => {
                        groups[h].0.push(u);
                        groups[h].1 = groups[h].1.plus(&units[u]);
                        groups[h].2 = block(&groups[h].1, r);
                        h
                    }
                    None => {
                        groups.push((vec![u], units[u], block(&units[u], r)));
                        groups.len() - 1
                    }
                };
                group_of[u] = h;
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    // Number the non-empty groups.
    let mut index = vec![usize::MAX; groups.len()];
    let mut next = 0;
    let pool_of = group_of
        .iter()
        .map(|&g| {
            if index[g] == usize::MAX {
                index[g] = next;
                next += 1;
            }
            index[g]
        })
        .collect();
    assemble(units, r, pool_of)
}

/// The lower bound of the module documentation.
pub fn lower_bound(units: &[Sums], r: &Rates) -> f64 {
    let flex = &catalog::catalog().services.anf.flexible;
    (0..=20)
        .map(|k| {
            let w = f64::from(k) / 20.0;
            units
                .iter()
                .map(|u| {
                    TYPES
                        .iter()
                        .filter(|t| u.types & t.bit() != 0)
                        .filter_map(|&t| match t {
                            PoolType::Auto(l) => {
                                let i = level_index(l);
                                Some(r.tib[i] * pool::best_keep(i, r) * u.auto_tib[i])
                            }
                            PoolType::Manual(l) => {
                                let i = level_index(l);
                                let tp = u.mibps[i] / pool::rate(l);
                                Some(
                                    r.tib[i]
                                        * pool::best_keep(i, r)
                                        * (w * u.quota_tib[i] + (1.0 - w) * tp),
                                )
                            }
                            PoolType::Flexible => Some(
                                r.flex_tib? * u.quota_tib[3]
                                    + r.flex_mibps? * (u.mibps[3] - flex.pool_min_mibps).max(0.0),
                            ),
                        })
                        .fold(f64::INFINITY, f64::min)
                })
                .sum::<f64>()
        })
        .fold(0.0, f64::max)
}

/// The auto-QoS pool of one level that holds every workload whose cheapest pool alone
/// is auto on that level (others at their cheapest type alone, one pool per type): the
/// usual first plan, which the optimiser is compared against.
pub fn pool_per_level(units: &[Sums], r: &Rates) -> Option<f64> {
    let mut sums = [Sums::EMPTY; 7];
    let mut used = [false; 7];
    for u in units {
        let t = TYPES
            .iter()
            .filter(|t| matches!(t, PoolType::Auto(_)))
            .filter_map(|&t| pool::price(t, u, r).map(|p| (t, p.monthly)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|x| x.0)
            .or_else(|| pool::cheapest(u, r).map(|x| x.0))?;
        sums[t.index()] = sums[t.index()].plus(u);
        used[t.index()] = true;
    }
    (0..7)
        .filter(|&i| used[i])
        .map(|i| pool::price(TYPES[i], &sums[i], r).map(|p| p.monthly))
        .sum()
}

/// One Flexible pool holding every workload, if one can.
pub fn one_flexible(units: &[Sums], r: &Rates) -> Option<f64> {
    let s = units.iter().fold(Sums::EMPTY, |s, u| s.plus(u));
    pool::price(PoolType::Flexible, &s, r).map(|p| p.monthly)
}

#[cfg(test)]
mod tests;
