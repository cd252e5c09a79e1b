//! From the chosen pools to what an architect configures: each pool's size, QoS type
//! and throughput split, each workload's volumes in its pool, every workload evaluated
//! there by the engine, and a sentence per pool saying why.

use super::Excluded;
use super::demand::{Demand, Unit, max_mibps, slot};
use super::pool::{self, PoolType, Priced, Rates, TYPES, rate};
use super::search::Solution;
use crate::engine::cost::AVS_HOSTS;
use crate::engine::evaluate::evaluate_without_sizing;
use crate::engine::pricing::PriceBook;
use crate::engine::same::reaches;
use crate::engine::scenario::{Level, Qos, Scenario, Service, Term, VolumeGroup, VolumeKind};
use crate::engine::trace::Num;
use serde::Serialize;

/// One capacity pool of the plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PoolPlan {
    pub id: usize,
    pub level: Level,
    pub qos: Qos,
    pub size_tib: f64,
    /// Quota of the volumes in it.
    pub used_tib: f64,
    /// Manual: the budget; Flexible: the throughput provisioned; auto: the sum of the
    /// volumes' limits (MiB/s).
    pub mibps: f64,
    pub monthly: f64,
    /// Indexes of the workloads in it.
    pub workloads: Vec<usize>,
    pub explanation: String,
}

/// Where one workload goes and how it does there.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assignment {
    pub workload: usize,
    pub name: String,
    pub service: Service,
    pub level: Level,
    pub qos: Qos,
    pub volume_kind: VolumeKind,
    /// The pool (ANF); null outside pools or when no pool type holds the workload.
    pub pool: Option<usize>,
    /// Volumes as configured: quota, and the assigned throughput under manual QoS.
    pub volumes: Vec<VolumeGroup>,
    /// Achievable MiB/s from the engine's evaluation in this configuration.
    pub throughput_mibps: Option<f64>,
    /// For an ANF workload without a throughput or IOPS target: what its scenario
    /// achieves as entered (MiB/s), which `throughput_mibps` keeps (the same within 1 %
    /// counts as kept).
    pub entered_mibps: Option<f64>,
    pub binding: Option<&'static str>,
    pub targets_met: bool,
    /// Monthly cost of a workload outside the pools (Azure Files, GCNV, AVS hosts).
    pub monthly_outside_pools: Option<f64>,
    /// Why the workload is not pooled or misses its targets.
    pub note: Option<String>,
}

/// Pools and assignments of a solution; workloads outside ANF get placeholder rows
/// that [`outside_pools`] fills.
pub fn allocate(
    workloads: &[Scenario],
    demands: &[Demand],
    units: &[Unit],
    active: &[usize],
    s: &Solution,
    rates: &Rates,
    prices: &PriceBook,
) -> (Vec<PoolPlan>, Vec<Assignment>) {
    let mut rows: Vec<Option<Assignment>> = vec![None; workloads.len()];
    let mut pools = Vec::with_capacity(s.pools.len());
    for (p, &(ty, priced)) in s.pools.iter().enumerate() {
        let members: Vec<usize> = (0..active.len()).filter(|&a| s.pool_of[a] == p).collect();
        let k = slot(ty);
        let assigned = split(ty, priced, members.iter().map(|&a| &units[active[a]]));
        let mut parts = Vec::new();
        for (&a, &per_volume) in members.iter().zip(&assigned) {
            let d = &demands[active[a]];
            let u = &units[active[a]];
            let scenario = placed(
                &workloads[d.workload],
                d,
                u,
                ty,
                per_volume,
                priced.size_tib,
            );
            rows[d.workload] = Some(evaluated(
                d.workload,
                &scenario,
                Some(p),
                prices,
                d.entered_mibps,
            ));
            parts.push((workloads[d.workload].name.as_str(), u, per_volume));
        }
        let used = members
            .iter()
            .map(|&a| units[active[a]].sums.quota_tib[k])
            .sum();
        let sums = members.iter().fold(pool::Sums::EMPTY, |acc, &a| {
            acc.plus(&units[active[a]].sums)
        });
        pools.push(PoolPlan {
            id: p,
            level: ty.level(),
            qos: ty.qos(),
            size_tib: priced.size_tib,
            used_tib: used,
            mibps: priced.mibps,
            monthly: priced.monthly,
            workloads: members
                .iter()
                .map(|&a| demands[active[a]].workload)
                .collect(),
            explanation: explain(ty, priced, &parts, &sums, rates),
        });
    }
    for d in demands {
        if rows[d.workload].is_none() {
            let why = d
                .need
                .iter()
                .filter_map(|n| n.as_ref().err().cloned())
                .collect::<Vec<_>>()
                .join("; ");
            let why = if why.is_empty() {
                "no allowed ANF level and pool holds this workload".to_owned()
            } else {
                why
            };
            let mut row = evaluated(d.workload, &workloads[d.workload], None, prices, None);
            row.note = Some(why);
            row.targets_met = false;
            rows[d.workload] = Some(row);
        }
    }
    let assignments = rows
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.unwrap_or_else(|| evaluated(i, &workloads[i], None, prices, None)))
        .collect();
    (pools, assignments)
}

/// Per-volume throughput of each member: its need, plus a share of what the pool
/// provides beyond the needs (manual budget, Flexible's included 128), in proportion
/// to the need and within what a volume takes. Auto QoS: the quota's limit.
fn split<'a>(ty: PoolType, p: Priced, members: impl Iterator<Item = &'a Unit> + Clone) -> Vec<f64> {
    let k = slot(ty);
    let need: f64 = members.clone().map(|u| u.sums.mibps[k]).sum();
    let spare = if matches!(ty, PoolType::Auto(_)) {
        0.0
    } else {
        (p.mibps - need).max(0.0)
    };
    members
        .map(|u| {
            let t = u.per_volume[k];
            let share = if need > 0.0 {
                spare * u.sums.mibps[k] / need
            } else {
                0.0
            };
            let n = f64::from(u.sums.volumes.max(1));
            // Whole MiB/s, never below the need.
            (t + (share / n).floor()).min(max_mibps(ty.level(), u.kind[k]).max(t))
        })
        .collect()
}

/// The workload's scenario in its pool.
fn placed(
    w: &Scenario,
    d: &Demand,
    u: &Unit,
    ty: PoolType,
    per_volume: f64,
    pool_tib: f64,
) -> Scenario {
    let k = slot(ty);
    let (lo, _, _) = crate::engine::plan::quota_range(Service::Anf, ty.level(), u.kind[k]);
    let mut s = w.clone();
    s.storage.level = ty.level();
    s.storage.qos = ty.qos();
    s.storage.volume_kind = u.kind[k];
    s.storage.pool_tib = Some(pool_tib);
    s.storage.volumes = d
        .groups
        .iter()
        .map(|&(count, q)| {
            let q = (q * u.capacity_factor).max(lo);
            let (quota_tib, throughput_mibps) = match ty {
                PoolType::Auto(l) => (q.max(per_volume / rate(l)), None),
                _ => (q, Some(per_volume)),
            };
            VolumeGroup {
                count,
                quota_tib,
                throughput_mibps,
                iops: None,
            }
        })
        .collect();
    s
}

/// The assignment row of `s` evaluated by the engine; `entered` is what a workload
/// without a rate target achieves as entered, which the row must keep.
pub fn evaluated(
    workload: usize,
    s: &Scenario,
    pool: Option<usize>,
    prices: &PriceBook,
    entered: Option<f64>,
) -> Assignment {
    let e = evaluate_without_sizing(s, prices);
    let (throughput, binding, mut met, err) = match &e {
        Ok(e) => (
            Some(e.throughput_mibps),
            Some(e.binding),
            e.targets.met,
            None,
        ),
        Err(f) => (None, None, false, Some(f.to_string())),
    };
    let mut note = err;
    if let (Some(own), Some(t)) = (entered, throughput)
        && !reaches(t, own)
    {
        met = false;
        note = Some(format!(
            "reaches {} MiB/s here, below the {} MiB/s its scenario achieves as entered",
            fmt(t),
            fmt(own)
        ));
    }
    Assignment {
        workload,
        name: s.name.clone(),
        service: s.storage.service,
        level: s.storage.level,
        qos: s.storage.qos,
        volume_kind: s.storage.volume_kind,
        pool,
        volumes: s.storage.volumes.clone(),
        throughput_mibps: throughput,
        entered_mibps: entered,
        binding,
        targets_met: met && note.is_none(),
        monthly_outside_pools: None,
        note,
    }
}

/// Monthly cost of each workload outside the ANF pools at month 0 (Azure Files and
/// GCNV workloads as given; AVS hosts), filled into its assignment row; the first of
/// each pair scales with the workload's capacity, the second does not. Also what the
/// totals leave out: a workload whose clients cannot reach its service (`reach` is
/// false), a workload without a list price, AVS hosts without one.
pub fn outside_pools(
    workloads: &[Scenario],
    reach: &[bool],
    prices: &PriceBook,
    rows: &mut [Assignment],
) -> (Vec<(f64, f64)>, Vec<Excluded>) {
    let mut excluded = Vec::new();
    let mut leave_out = |w: usize, reason: &'static str, detail: String| {
        excluded.push(Excluded {
            workload: w,
            name: workloads[w].name.clone(),
            reason,
            detail,
        });
    };
    let fixed = workloads
        .iter()
        .zip(rows.iter_mut())
        .enumerate()
        .map(|(i, (w, row))| {
            if !reach[i] {
                let why = super::reach::unreachable(w, w.storage.service).unwrap_or_default();
                add_note(
                    row,
                    format!("{why}: not planned, not counted in the estate's cost"),
                );
                row.targets_met = false;
                row.pool = None;
                leave_out(i, "unreachable", why);
                return (0.0, 0.0);
            }
            let Ok(e) = evaluate_without_sizing(w, prices) else {
                return (0.0, 0.0);
            };
            let region = crate::engine::pricing::region_label(&e.cost.region);
            let host_lines = e.cost.lines.iter().filter(|l| l.item == AVS_HOSTS);
            let hosts: f64 = host_lines.clone().filter_map(|l| l.monthly).sum();
            if let Some(l) = host_lines.clone().find(|l| l.monthly.is_none()) {
                let sku = w.clients.avs.as_ref().map_or("", |a| a.host_sku.as_str());
                let detail = format!(
                    "{} {sku} hosts have no list price in {region}",
                    fmt(l.quantity)
                );
                add_note(row, format!("{detail}: not counted in the estate's cost"));
                leave_out(i, "no_host_price", detail);
            }
            let storage = match (w.storage.service, e.cost.monthly_usd) {
                (Service::Anf, _) => 0.0,
                (_, Some(m)) => m - hosts,
                (service, None) => {
                    let detail = format!(
                        "{} {} has no list price in {region}",
                        service.display(),
                        w.storage.level.display(service),
                    );
                    add_note(row, format!("{detail}: not counted in the estate's cost"));
                    leave_out(i, "no_list_price", detail);
                    0.0
                }
            };
            if storage + hosts > 0.0 {
                row.monthly_outside_pools = Some(storage + hosts);
            }
            (storage, hosts)
        })
        .collect();
    (fixed, excluded)
}

/// Adds `text` to the row's note.
fn add_note(row: &mut Assignment, text: String) {
    row.note = Some(match row.note.take() {
        Some(n) => format!("{n}; {text}"),
        None => text,
    });
}

/// "Premium manual pool of 14 TiB: log and data share 896 MiB/s, data gets 704 ..."
fn explain(
    ty: PoolType,
    p: Priced,
    parts: &[(&str, &Unit, f64)],
    sums: &pool::Sums,
    rates: &Rates,
) -> String {
    let k = slot(ty);
    let names = join(parts.iter().map(|x| x.0.to_owned()).collect());
    let each = parts
        .iter()
        .map(|(n, u, t)| {
            let v = u.sums.volumes;
            if v > 1 {
                format!("{n} gets {} ({v} x {})", fmt(t * f64::from(v)), fmt(*t))
            } else {
                format!("{n} gets {}", fmt(*t))
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    let mut text = match ty {
        PoolType::Manual(_) => format!(
            "{} pool of {} TiB: {names} share {} MiB/s, {each}.",
            ty.display(),
            fmt(p.size_tib),
            fmt(p.mibps)
        ),
        PoolType::Flexible => format!(
            "Flexible pool of {} TiB provisioned at {} MiB/s (128 included): {each}.",
            fmt(p.size_tib),
            fmt(p.mibps)
        ),
        PoolType::Auto(l) => format!(
            "{} pool of {} TiB: each volume's limit is its quota x {} MiB/s per TiB; {}.",
            ty.display(),
            fmt(p.size_tib),
            fmt(rate(l)),
            parts
                .iter()
                .map(|(n, u, _)| format!(
                    "{n} {} TiB for {} MiB/s",
                    fmt(u.sums.auto_tib[k]),
                    fmt(u.sums.auto_tib[k] * rate(l))
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    if let PoolType::Auto(l) | PoolType::Manual(l) = ty
        && let Some(b) = pool::band(pool::level_index(l), p.size_tib, rates)
    {
        text.push_str(&format!(
            " Reserved for {}: {} % off as a pool of {} TiB or more.",
            if rates.term == Term::ThreeYears {
                "3 years"
            } else {
                "1 year"
            },
            fmt((1.0 - b.keep) * 100.0),
            fmt(b.min_tib)
        ));
    }
    let next = TYPES
        .iter()
        .filter(|&&t| t != ty)
        .filter_map(|&t| pool::price(t, sums, rates).map(|q| (t, q)))
        .min_by(|a, b| a.1.monthly.total_cmp(&b.1.monthly));
    match next {
        Some((t, q)) => text.push_str(&format!(
            " Next best for the same volumes: {} at {} TiB, ${}/month more.",
            t.display(),
            fmt(q.size_tib),
            fmt((q.monthly - p.monthly).max(0.0))
        )),
        None => text.push_str(" No other level and QoS type holds these volumes."),
    }
    text
}

/// "a", "a and b", "a, b and c".
fn join(mut names: Vec<String>) -> String {
    match names.len() {
        0 => String::new(),
        1 => names.remove(0),
        _ => {
            let last = names.pop().unwrap_or_default();
            format!("{} and {last}", names.join(", "))
        }
    }
}

/// A figure with at most one decimal, thousands separated.
fn fmt(v: f64) -> String {
    Num(v, 1).to_string()
}
