//! What each ANF workload of an estate asks of a pool, level by level: the quota of its
//! volumes and the throughput each volume must be assigned so that the whole model
//! (every limit, the queueing latency) meets the workload's targets.
//!
//! The per-volume throughput is found with the engine's own evaluation: the workload is
//! put on manual QoS at each level and the assigned throughput raised by the shortfall
//! until its targets are met (a few evaluations), or until the largest assignment a
//! volume takes shows that the level cannot meet them. A workload without a throughput
//! or IOPS target asks for what its scenario achieves as entered (the engine's figure,
//! the same goal single-scenario sizing uses), never less. Growth scales the quotas and
//! the throughput; a volume that outgrows a regular volume becomes a large volume.

use super::pool::{LEVELS, PoolType, Sums, level_index, level_name, rate, steps};
use crate::engine::catalog;
use crate::engine::limits::LimitSet;
use crate::engine::model_step::core;
use crate::engine::plan::{Plan, quota_range};
use crate::engine::scenario::{Level, Qos, Service, VolumeKind};
use crate::engine::targets::{judged_latency, target_iops, targets};
use crate::engine::units::iops_to_mibps;

/// Most evaluations one level's search spends.
const SEARCH_STEPS: usize = 40;

/// One ANF workload's demand at month 0.
#[derive(Debug, Clone, PartialEq)]
pub struct Demand {
    /// Index of the workload in the estate.
    pub workload: usize,
    /// Its volume groups: count and quota (TiB).
    pub groups: Vec<(u32, f64)>,
    /// The volume kind the scenario asks for.
    pub kind: VolumeKind,
    /// Throughput each volume must be assigned, per level (Standard, Premium, Ultra,
    /// Flexible), or why the level cannot meet the workload.
    pub need: [Result<f64, String>; 4],
    /// Without a throughput or IOPS target: what the scenario achieves as entered,
    /// MiB/s, which the plan keeps.
    pub entered_mibps: Option<f64>,
}

/// A demand at one point of the timeline: its pool sums and the kind on each level.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    pub sums: Sums,
    /// Volume kind on each level.
    pub kind: [VolumeKind; 4],
    /// Per-volume throughput on each level, MiB/s.
    pub per_volume: [f64; 4],
    /// Quota factor applied to the month-0 groups.
    pub capacity_factor: f64,
}

impl Demand {
    /// The demand of the workload planned by `base` (an ANF plan).
    pub fn of(workload: usize, base: &Plan) -> Demand {
        let groups = base
            .volumes
            .iter()
            .map(|g| (g.count, g.quota_tib))
            .collect();
        let entered_mibps = entered_mibps(base);
        // What it achieves as entered becomes its target: each level starts from it,
        // and a figure the same as it within 1 % keeps it.
        let mut goal = *base;
        goal.target_mibps = goal
            .target_mibps
            .or(entered_mibps.map(crate::engine::same::least_reaching));
        let start = entered_mibps.map_or(0.0, |t| t / f64::from(base.n_volumes.max(1)));
        let narrow = entered_mibps.is_none();
        let need = LEVELS.map(|l| per_volume_need(&goal, start, l, narrow));
        Demand {
            workload,
            groups,
            kind: base.kind,
            need,
            entered_mibps,
        }
    }

    /// Number of volumes.
    pub fn volumes(&self) -> u32 {
        self.groups.iter().map(|g| g.0).sum()
    }

    /// The demand with quotas times `fc` and throughput times `ft`, on the pool types
    /// of `allowed`.
    pub fn at(&self, fc: f64, ft: f64, allowed: u8) -> Unit {
        let n = self.volumes();
        let mut s = Sums::EMPTY;
        s.volumes = n;
        let mut types = allowed;
        let mut kind = [self.kind; 4];
        let mut per_volume = [0.0; 4];
        for (i, &l) in LEVELS.iter().enumerate() {
            let Ok(need) = &self.need[i] else {
                types &= !PoolType::of_level(l);
                continue;
            };
            let t = need * ft;
            let k = self.kind_at(l, fc, t);
            let (lo, hi, _) = quota_range(Service::Anf, l, k);
            let quota: Vec<(u32, f64)> = self
                .groups
                .iter()
                .map(|&(c, q)| (c, (q * fc).max(lo)))
                .collect();
            if t > max_mibps(l, k) + 1e-9 || quota.iter().any(|g| g.1 > hi + 1e-9) {
                types &= !PoolType::of_level(l);
            }
            kind[i] = k;
            per_volume[i] = t;
            s.quota_tib[i] = quota.iter().map(|&(c, q)| f64::from(c) * q).sum();
            s.mibps[i] = f64::from(n) * t;
            if i < 3 {
                s.auto_tib[i] = quota
                    .iter()
                    .map(|&(c, q)| f64::from(c) * q.max(t / rate(l)))
                    .sum();
            }
        }
        s.types = types;
        Unit {
            sums: s,
            kind,
            per_volume,
            capacity_factor: fc,
        }
    }

    /// The volume kind on level `l` with quotas times `fc` and `t` MiB/s per volume:
    /// the scenario's, or a large volume once a regular one cannot hold it.
    fn kind_at(&self, l: Level, fc: f64, t: f64) -> VolumeKind {
        if self.kind != VolumeKind::Regular {
            return self.kind;
        }
        let (_, hi, _) = quota_range(Service::Anf, l, VolumeKind::Regular);
        let too_big = self.groups.iter().any(|&(_, q)| q * fc > hi + 1e-9);
        if too_big || t > max_mibps(l, VolumeKind::Regular) + 1e-9 {
            VolumeKind::Large
        } else {
            VolumeKind::Regular
        }
    }
}

/// Most throughput one volume of `kind` takes on level `l` (manual QoS, Flexible).
pub fn max_mibps(l: Level, kind: VolumeKind) -> f64 {
    let c = &catalog::catalog().services.anf;
    match kind {
        VolumeKind::Regular => catalog::anf_level(l)
            .regular_max_mibps
            .min(c.manual_qos.max_mibps),
        VolumeKind::Large => catalog::anf_level(l).large_max_mibps,
        VolumeKind::Breakthrough => c.breakthrough.max_mibps,
    }
}

/// What `base` achieves as entered when it has no throughput or IOPS target (the
/// engine's evaluation), MiB/s; `None` with a rate target.
fn entered_mibps(base: &Plan) -> Option<f64> {
    if base.target_mibps.is_some() || base.target_iops.is_some() {
        return None;
    }
    let total = core(base, &mut LimitSet::default()).total;
    (total.is_finite() && total > 0.0).then_some(total)
}

/// The throughput one volume of `base` must be assigned on level `l` to meet the
/// workload's targets (a workload without a rate target has what it achieves as
/// entered as its target), trying `start` MiB/s a volume first; or why no assignment
/// does. With `narrow` (a workload with targets of its own), the least whole MiB/s
/// that meets them; without, the first assignment that keeps what it achieves.
fn per_volume_need(base: &Plan, start: f64, l: Level, narrow: bool) -> Result<f64, String> {
    let c = &catalog::catalog().services.anf;
    let n = base.n_volumes.max(1);
    let nf = f64::from(n);
    let min = c.manual_qos.min_mibps;
    let assigned = base.assigned_total().map(|t| t / nf);
    if base.target_mibps.is_none() && base.target_iops.is_none() && base.target_latency_ms.is_none()
    {
        return Ok(assigned.unwrap_or(min).max(min));
    }
    let goal = target_iops(base).map_or(0.0, |i| iops_to_mibps(i, base.io_kib));
    let mut kind = base.kind;
    let quota = base.total_quota_tib / nf;
    let mut t = (goal / nf).max(start).max(assigned.unwrap_or(min)).max(min);
    let mut work = *base;
    work.qos = Qos::Manual;
    // Whether `t` MiB/s a volume of `kind` meets the targets, with what it reaches.
    let mut meets = |t: f64, kind: VolumeKind| {
        work.kind = kind;
        let (lo, _, _) = quota_range(Service::Anf, l, kind);
        work.set_uniform(l, n, quota.max(lo), Some(t), None);
        if l != Level::Flexible {
            work.pool_tib = work.pool_tib.max(steps(nf * t / rate(l)));
        }
        let mut set = LimitSet::default();
        let c = core(&work, &mut set);
        let latency = work
            .target_latency_ms
            .and_then(|_| judged_latency(&work, c.latency_ms(), c.latency_at_target_ms(&work)));
        (
            targets(&work, c.total, latency).met,
            c.total,
            c.binding.label,
        )
    };
    for _ in 0..SEARCH_STEPS {
        if kind == VolumeKind::Regular && t > max_mibps(l, kind) {
            kind = VolumeKind::Large;
        }
        let max = max_mibps(l, kind);
        t = t.min(max);
        let (met, total, binding) = meets(t, kind);
        if met {
            return Ok(if narrow {
                least_whole(t, min, max, |x| meets(x, kind).0)
            } else {
                t
            });
        }
        if t >= max {
            return Err(format!(
                "{} cannot meet the targets: at the most a volume is assigned ({} MiB/s) the workload reaches {:.0} MiB/s, held by {}",
                level_name(l),
                max,
                total,
                binding
            ));
        }
        let short = if total > 0.0 && goal > 0.0 {
            goal / total
        } else {
            0.0
        };
        t *= if short > 1.0 { short * 1.002 } else { 1.25 };
    }
    Err(format!(
        "{} cannot meet the latency target at any throughput a volume is assigned",
        level_name(l)
    ))
}

/// The least whole MiB/s from `min` to `max` that `meets`, given that `t` meets: a
/// volume is assigned whole MiB/s (as sizing assigns them and as the providers take a
/// Flexible pool's throughput), and a rate the same as the target within the one rule
/// ([`crate::engine::same`]) meets it, so the search starts that far below `t`.
fn least_whole(t: f64, min: f64, max: f64, mut meets: impl FnMut(f64) -> bool) -> f64 {
    let top = t.ceil().min(max);
    if !meets(top) {
        return t;
    }
    let floor = crate::engine::same::least_reaching(t)
        .floor()
        .max(min.ceil());
    let (mut lo, mut hi) = (floor.min(top), top);
    while lo < hi {
        let mid = ((lo + hi) / 2.0).floor();
        if meets(mid) {
            hi = mid;
        } else {
            lo = mid + 1.0;
        }
    }
    hi
}

/// The level index of a pool type (for the per-level arrays of a [`Unit`]).
pub fn slot(t: PoolType) -> usize {
    level_index(t.level())
}

#[cfg(test)]
mod tests {
    use super::least_whole;

    /// The bisection against every whole MiB/s it may return: for a need met from a
    /// threshold on, the least whole value at or above the threshold within the rule's
    /// reach below `t`, or `t` itself when no whole value up to the maximum meets.
    #[test]
    fn the_least_whole_assignment_is_the_exhaustive_least() {
        for threshold in (1..4000).map(|i| f64::from(i) * 0.37) {
            for t in [
                threshold,
                threshold * 1.004,
                threshold * 1.02,
                threshold + 3.0,
            ] {
                for max in [t.ceil(), t.ceil() + 50.0, t.floor().max(1.0)] {
                    let meets = |x: f64| x >= threshold;
                    let floor = crate::engine::same::least_reaching(t).floor().max(1.0);
                    let top = t.ceil().min(max);
                    let exhaustive = (floor as u64..=top as u64)
                        .map(|v| v as f64)
                        .find(|v| meets(*v))
                        .unwrap_or(t);
                    let got = least_whole(t, 1.0, max, meets);
                    assert_eq!(got, exhaustive, "threshold {threshold}, t {t}, max {max}");
                }
            }
        }
    }
}
