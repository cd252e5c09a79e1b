//! Azure NetApp Files: QoS (auto, manual, Flexible), volume ceilings, service IOPS.

use crate::engine::catalog::{self};
use crate::engine::distribution::Distribution;
use crate::engine::limits::{Applies, Queue, RawLimit, Scope, Sink};
use crate::engine::plan::{Group, Plan};
use crate::engine::scaling::mix;
use crate::engine::scenario::{Level, Qos, VolumeKind};
use crate::engine::trace::{Formula, Label};
use crate::engine::units::iops_to_mibps;

/// Auto QoS: a volume's throughput limit = quota (TiB) x the level's MiB/s per TiB
/// (LEARN-ANF service levels: "128 MiB/s (2 TiB * 64 MiB/s)").
pub fn auto_qos_mibps(l: Level, quota_tib: f64) -> f64 {
    quota_tib * catalog::anf_level(l).mibps_per_tib
}

/// Manual QoS pool budget: pool TiB x level rate; Flexible: 5 x 128 MiB/s x pool TiB,
/// at least 128 MiB/s.
pub fn pool_budget_mibps(l: Level, pool_tib: f64) -> f64 {
    let flex = &catalog::catalog().services.anf.flexible;
    if l == Level::Flexible {
        (flex.pool_max_mibps_per_tib * pool_tib).max(flex.pool_min_mibps)
    } else {
        pool_tib * catalog::anf_level(l).mibps_per_tib
    }
}

/// The throughput limit of one volume of group `g`.
pub fn volume_qos_mibps(p: &Plan, g: Group) -> f64 {
    let flex = &catalog::catalog().services.anf.flexible;
    match (p.level, p.qos) {
        (Level::Flexible, _) => g
            .mibps
            .unwrap_or(flex.pool_min_mibps * g.quota_tib / p.total_quota_tib.max(1e-9)),
        (l, Qos::Manual) => g.mibps.unwrap_or_else(|| auto_qos_mibps(l, g.quota_tib)),
        (l, Qos::Auto) => auto_qos_mibps(l, g.quota_tib),
    }
}

/// Regular-volume throughput ceiling at read fraction `r`: the 64 KiB sequential table
/// of the ANF calculator (10 % steps, interpolated), capped by the level's maximum.
pub fn regular_ceiling_mibps(l: Level, r: f64) -> f64 {
    let table = &catalog::catalog().services.anf.regular_mix_64k_mibps;
    let x = (r * 10.0).clamp(0.0, 10.0);
    // The lower table row: floor(x), at most 9 so that row i + 1 exists.
    let i = x.floor().min(9.0);
    let lo = table[i as usize];
    let hi = table[i as usize + 1];
    let t = lo + (hi - lo) * (x - i);
    t.min(catalog::anf_level(l).regular_max_mibps)
}

/// Large-volume throughput ceiling at read fraction `r`: the level maximum for reads,
/// the measured sequential-write ceiling for writes, mixed by time per op.
pub fn large_ceiling_mibps(l: Level, r: f64) -> f64 {
    let max = catalog::anf_level(l).large_max_mibps;
    let write = catalog::catalog()
        .services
        .anf
        .large_measured
        .seq_write_mibps
        .min(max);
    mix(r, max, write)
}

/// Breakthrough-mode throughput ceiling at read fraction `r`: the documented 50 GiB/s
/// for reads, the measured sequential-write ceiling for writes, mixed by time per op.
pub fn breakthrough_ceiling_mibps(r: f64) -> f64 {
    let b = &catalog::catalog().services.anf.breakthrough;
    mix(r, b.max_mibps, b.seq_write_mibps.min(b.max_mibps))
}

/// Service IOPS ceiling per volume at read fraction `r`.
pub fn volume_iops(kind: VolumeKind, r: f64) -> f64 {
    let anf = &catalog::catalog().services.anf;
    match kind {
        VolumeKind::Regular => mix(
            r,
            anf.regular_random_iops.read,
            anf.regular_random_iops.write,
        ),
        VolumeKind::Large => mix(
            r,
            anf.large_measured.random_read_iops,
            anf.large_measured.random_write_iops,
        ),
        VolumeKind::Breakthrough => mix(
            r,
            anf.breakthrough.random_read_iops,
            anf.breakthrough.random_write_iops,
        ),
    }
}

/// Adds the ANF storage limits.
pub fn limits(p: &Plan, dist: &Distribution, set: &mut impl Sink) {
    let anf = &catalog::catalog().services.anf;
    let lv = catalog::anf_level(p.level);
    let (qos_total, g) = dist.bound(p, |g| volume_qos_mibps(p, g));
    let count = dist.effective_count();
    let formula = match (p.level, p.qos, g.mibps) {
        (Level::Flexible, _, _) | (_, Qos::Manual, Some(_)) => Formula::Times {
            n: u64::from(count),
            each: volume_qos_mibps(p, g),
            what: "assigned per volume",
        },
        _ => Formula::QuotaRate {
            count,
            quota_tib: g.quota_tib,
            rate: lv.mibps_per_tib,
        },
    };
    set.push(RawLimit {
        id: "volume_qos",
        label: Label {
            name: "Volume QoS",
            formula,
        },
        scope: Scope::Volume,
        applies: Applies::Both,
        mibps: qos_total,
        source: lv.source.as_str(),
        assumption: false,
        queue: Queue::Limiter,
    });

    let (ceiling, source, name) = match p.kind {
        VolumeKind::Regular => {
            let c = regular_ceiling_mibps(p.level, p.r);
            let src = if c >= lv.regular_max_mibps {
                lv.cap_source.as_str()
            } else {
                anf.regular_mix_source.as_str()
            };
            (c, src, "Regular volume ceiling at this read share")
        }
        VolumeKind::Large => (
            large_ceiling_mibps(p.level, p.r),
            anf.large_measured.source.as_str(),
            "Large volume ceiling at this read share",
        ),
        VolumeKind::Breakthrough => (
            breakthrough_ceiling_mibps(p.r),
            anf.breakthrough.source.as_str(),
            "Breakthrough-mode volume ceiling at this read share",
        ),
    };
    set.push(RawLimit {
        id: "volume_max",
        label: Label {
            name,
            formula: Formula::Times {
                n: u64::from(count),
                each: ceiling,
                what: "per volume",
            },
        },
        scope: Scope::Volume,
        applies: Applies::Both,
        mibps: ceiling * dist.spread(),
        source,
        assumption: false,
        queue: Queue::Storage,
    });

    // A metadata-heavy mix (stat, access, lookup, create: EDA, software builds) is
    // bound by the volume's operation rate, not by the data-IOPS ceiling measured with
    // 8 KiB fio runs.
    let (iops, src, name, what) = match (p.metadata_heavy, p.kind) {
        (false, VolumeKind::Regular) => (
            volume_iops(p.kind, p.r),
            anf.regular_random_iops.source.as_str(),
            "Service IOPS ceiling",
            "measured for this volume type at this read share",
        ),
        (false, VolumeKind::Large) => (
            volume_iops(p.kind, p.r),
            anf.large_measured.source.as_str(),
            "Service IOPS ceiling",
            "measured for this volume type at this read share",
        ),
        (false, VolumeKind::Breakthrough) => (
            volume_iops(p.kind, p.r),
            anf.breakthrough.source.as_str(),
            "Service IOPS ceiling",
            "measured for this volume type at this read share",
        ),
        (true, kind) => (
            match kind {
                VolumeKind::Regular => p.params.anf_meta_ops_regular,
                VolumeKind::Large => p.params.anf_meta_ops_large,
                VolumeKind::Breakthrough => p.params.anf_meta_ops_breakthrough,
            },
            META_SOURCE,
            "Metadata-heavy operation ceiling",
            "ops/s for a metadata-heavy mix on this volume type",
        ),
    };
    set.push(RawLimit {
        id: "service_iops",
        label: Label {
            name,
            formula: Formula::Iops {
                value: iops * count as f64,
                what,
            },
        },
        scope: Scope::Volume,
        applies: Applies::Both,
        mibps: iops_to_mibps(iops, p.io_kib) * dist.spread(),
        source: src,
        assumption: false,
        queue: Queue::Storage,
    });

    if p.qos == Qos::Manual || p.level == Level::Flexible {
        let budget = pool_budget_mibps(p.level, p.pool_tib);
        let flex = &anf.flexible;
        set.push(RawLimit {
            id: "pool",
            label: Label {
                name: "Capacity pool throughput budget",
                formula: if p.level == Level::Flexible {
                    Formula::QuotaRate {
                        count: 1,
                        quota_tib: p.pool_tib,
                        rate: flex.pool_max_mibps_per_tib,
                    }
                } else {
                    Formula::QuotaRate {
                        count: 1,
                        quota_tib: p.pool_tib,
                        rate: lv.mibps_per_tib,
                    }
                },
            },
            scope: Scope::Pool,
            applies: Applies::Both,
            mibps: budget,
            source: lv.source.as_str(),
            assumption: false,
            queue: Queue::Limiter,
        });
    }
}

/// Where the metadata-heavy operation ceilings come from.
const META_SOURCE: &str = "fitted to SPECstorage Solution 2020 eda_blended on ANF (one and six regular and large volumes; LEARN-ANF/solutions-benefits-azure-netapp-files-electronic-design-automation)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_worked_numbers() {
        // 2 TiB Premium = 128 MiB/s; 100 GiB Premium = 6.25 MiB/s.
        assert_eq!(auto_qos_mibps(Level::Premium, 2.0), 128.0);
        assert_eq!(auto_qos_mibps(Level::Premium, 0.09765625), 6.25);
        // 10 TiB Ultra manual pool = 1,280 MiB/s.
        assert_eq!(pool_budget_mibps(Level::Ultra, 10.0), 1280.0);
        // Flexible: 128 minimum, 5 x 128 x TiB maximum.
        assert_eq!(pool_budget_mibps(Level::Flexible, 0.1), 128.0);
        assert_eq!(pool_budget_mibps(Level::Flexible, 1.0), 640.0);
        assert_eq!(pool_budget_mibps(Level::Flexible, 1024.0), 655_360.0);
    }

    #[test]
    fn regular_ceiling_follows_the_mix_table() {
        assert_eq!(regular_ceiling_mibps(Level::Ultra, 1.0), 4500.0);
        assert_eq!(regular_ceiling_mibps(Level::Ultra, 0.0), 1733.0);
        assert_eq!(regular_ceiling_mibps(Level::Ultra, 0.5), 2658.0);
        assert!((regular_ceiling_mibps(Level::Ultra, 0.25) - 2098.0).abs() < 1e-9);
        assert_eq!(regular_ceiling_mibps(Level::Standard, 1.0), 1600.0);
    }
}
