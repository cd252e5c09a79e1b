//! Reverse sizing (targets -> smallest quota per level, cheapest level) and the layouts
//! sweep (N volumes of total / N TiB).

use super::catalog;
use super::distribution::Distribution;
use super::evaluate::{Core, core, evaluate, storage_total};
use super::evaluation::{Evaluation, Sizing, SizingBasis};
use super::limits::LimitSet;
use super::plan::{Plan, quota_range};
use super::scenario::{FieldError, Level, Scenario, Service, VolumeGroup, VolumeKind};
use super::service::{anf, azure_files, gcnv};
use super::units::{GIB_PER_TIB, iops_to_mibps};
use serde::Serialize;

/// Most levels a service has.
const LEVELS: usize = 4;

/// For each level of the plan's service: the smallest quota (same number of volumes)
/// and pool that meet capacity, throughput and IOPS, its cost, and the cheapest that
/// meets all. Without targets, the goal is the throughput the scenario achieves now
/// (`current_mibps`), so the table answers "what else would give me this?".
///
/// Client-side limits do not depend on the level or quota, so they are taken from the
/// scenario's own evaluation `c` (Azure Files recomputes them where SSD and HDD differ).
pub fn sizing(p: &Plan, c: &Core) -> Vec<Sizing> {
    let goal = if p.target_mibps.is_none() && p.target_iops.is_none() {
        Goal {
            mibps: Some(c.total),
            iops: None,
            basis: SizingBasis::Current,
        }
    } else {
        Goal {
            mibps: p.target_mibps,
            iops: p.target_iops,
            basis: SizingBasis::Targets,
        }
    };
    let client_total = c.client_total;
    // One working copy of the plan, re-pointed at each level in turn.
    let mut work = *p;
    work.target_mibps = goal.mibps;
    work.target_iops = goal.iops;
    let levels = Level::of(p.service);
    let mut rows = Vec::with_capacity(LEVELS);
    for &level in levels {
        rows.push(size_level(
            p,
            &goal,
            level,
            client_total,
            &c.dist,
            &mut work,
        ));
    }
    let cheapest = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r.meets)
        .filter_map(|(i, r)| r.monthly_usd.map(|m| (i, m)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i);
    if let Some(i) = cheapest {
        rows[i].cheapest = true;
    }
    rows
}

/// What a sizing row must reach: the scenario's targets, or what it achieves now.
struct Goal {
    mibps: Option<f64>,
    iops: Option<f64>,
    basis: SizingBasis,
}

impl Goal {
    /// The throughput the goal implies at IO size `io_kib` (MiB/s), taking the larger
    /// of the MiB/s and the IOPS goal.
    fn needed_mibps(&self, io_kib: f64) -> f64 {
        let t = self.mibps.unwrap_or(0.0);
        let i = self.iops.map_or(0.0, |i| iops_to_mibps(i, io_kib));
        t.max(i)
    }
}

/// One row of the table: `p` is the scenario's plan, `plan` the working copy to size.
fn size_level(
    p: &Plan,
    goal: &Goal,
    level: Level,
    client_total: f64,
    dist: &Distribution,
    plan: &mut Plan,
) -> Sizing {
    let n = p.n_volumes.max(1);
    let nf = f64::from(n);
    let need = goal.needed_mibps(p.io_kib);
    let capacity = if p.capacity_tib > 0.0 {
        p.capacity_tib
    } else {
        p.total_quota_tib
    };
    let (lo, hi, _) = quota_range(p.service, level, p.kind);
    let mut mibps = None;
    let mut iops = None;
    let per_volume = match (p.service, level) {
        (Service::Anf, Level::Flexible) => {
            let flex = &catalog::catalog().services.anf.flexible;
            mibps = Some(need.max(flex.pool_min_mibps) / nf);
            capacity / nf
        }
        (Service::Anf, l) => (capacity / nf).max(need / nf / anf::level(l).mibps_per_tib),
        (Service::AzureFiles, Level::SsdV1) => {
            let gib_cap = capacity * GIB_PER_TIB / nf;
            let thr = goal.mibps.map_or(0.0, |t| t / nf);
            let io = goal.iops.map_or(0.0, |t| t / nf);
            let mut gib = gib_cap
                // Inverse of 100 + CEILING(0.04 x GiB) + CEILING(0.06 x GiB) and
                // 3000 + GiB (SSD v1), refined upwards below for the ceilings.
                .max((thr - 100.0) / 0.1)
                .max(io - 3000.0)
                .max(0.0)
                .ceil();
            while gib < hi * GIB_PER_TIB
                && (azure_files::v1_mibps(gib) < thr || azure_files::v1_iops(gib) < io)
            {
                gib += 1.0;
            }
            gib / GIB_PER_TIB
        }
        (Service::AzureFiles, Level::SsdV2 | Level::HddV2) => {
            mibps = goal.mibps.map(|t| t / nf);
            iops = goal.iops.map(|t| t / nf);
            capacity / nf
        }
        (Service::AzureFiles, _) => capacity / nf,
        (Service::Gcnv, Level::Flex) => {
            mibps = (need > 0.0).then(|| need / nf);
            capacity / nf
        }
        (Service::Gcnv, l) => (capacity / nf).max(need / nf / gcnv::level(l).mibps_per_tib),
    };
    let mut quota = per_volume.max(lo);
    if p.service == Service::Anf && p.kind == VolumeKind::Regular {
        // Quotas are set in GiB.
        quota = (quota * GIB_PER_TIB).ceil() / GIB_PER_TIB;
    }
    let fits = quota <= hi + 1e-9;
    let quota = quota.min(hi);
    plan.set_uniform(level, n, quota, mibps, iops);
    let plan = &*plan;
    let client = if p.service == Service::AzureFiles
        && azure_files::is_ssd(level) != azure_files::is_ssd(p.level)
    {
        core(plan, &mut LimitSet::default()).client_total
    } else {
        client_total
    };
    let total = storage_total(plan, dist).min(client);
    let met = super::evaluate::targets(plan, total).met;
    let price = super::cost::price(plan);
    Sizing {
        service: p.service,
        level,
        quota_tib: quota * nf,
        pool_tib: plan.pool_tib,
        throughput_mibps: mibps.map(|m| m * nf),
        monthly_usd: price.monthly_usd,
        meets: fits && met,
        cheapest: false,
        basis: goal.basis,
    }
}

/// One layout of the sweep.
#[derive(Debug, Clone, Serialize)]
pub struct Layout {
    pub count: u32,
    pub quota_tib: f64,
    pub evaluation: Evaluation,
}

/// Evaluates the scenario with its volumes replaced by `count` x `total_tib / count`
/// for each count (contract: POST /api/v1/layouts).
pub fn layouts(s: &Scenario, total_tib: f64, counts: &[u32]) -> Result<Vec<Layout>, FieldError> {
    if !(total_tib.is_finite() && total_tib > 0.0 && total_tib <= 1_000_000.0) {
        return Err(FieldError::new(
            "total_tib",
            "must be a capacity above 0 and at most 1,000,000 TiB",
        ));
    }
    if counts.is_empty() || counts.len() > 256 {
        return Err(FieldError::new(
            "counts",
            "give 1 to 256 volume counts, e.g. [1, 2, 4, 8]",
        ));
    }
    let mut out = Vec::with_capacity(counts.len());
    let mut variant = s.clone();
    for (i, &count) in counts.iter().enumerate() {
        if !(1..=1024).contains(&count) {
            return Err(FieldError::new(
                format!("counts[{i}]"),
                format!("must be a whole number from 1 to 1024, not {count}"),
            ));
        }
        let quota_tib = total_tib / f64::from(count);
        let template = s.storage.volumes.first();
        variant.storage.volumes = vec![VolumeGroup {
            count,
            quota_tib,
            throughput_mibps: template.and_then(|v| v.throughput_mibps),
            iops: template.and_then(|v| v.iops),
        }];
        variant.storage.pool_tib = None;
        let evaluation = evaluate(&variant).map_err(|e| {
            FieldError::new(
                format!("counts[{i}]"),
                format!("{count} volumes of {quota_tib:.4} TiB: {}", e.message),
            )
        })?;
        out.push(Layout {
            count,
            quota_tib,
            evaluation,
        });
    }
    Ok(out)
}
