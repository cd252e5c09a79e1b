//! Google Cloud NetApp Volumes: per-level rates, volume caps, Flex pool performance,
//! and the volume's back end (ANF's mechanism scaled to the documented cap, large
//! sequential writes at the share of it Google's one published write figure gives: no
//! GCNV document gives an IOPS ceiling for the Standard, Premium and Extreme levels).

use super::demand;
use crate::engine::catalog::{self, GcnvLevel};
use crate::engine::distribution::Distribution;
use crate::engine::limits::{Applies, Queue, RawLimit, Scope, Sink};
use crate::engine::plan::Plan;
use crate::engine::scenario::{Level, VolumeKind};
use crate::engine::trace::{Formula, Label};
use crate::engine::units::iops_to_mibps;

/// The catalog entry of a GCNV level.
pub fn level(l: Level) -> &'static GcnvLevel {
    let levels = &catalog::catalog().services.gcnv.levels;
    match l {
        Level::Standard => &levels.standard,
        Level::Premium => &levels.premium,
        Level::Flex => &levels.flex,
        _ => &levels.extreme,
    }
}

/// Volume throughput: GiB x KiBps per GiB / 1024 = TiB x MiB/s per TiB
/// ("1,500 GiB x 64 KiBps/GiB / 1024 = 93.75 MiBps").
pub fn volume_mibps(l: Level, quota_tib: f64) -> f64 {
    quota_tib * level(l).mibps_per_tib
}

/// Flex pool throughput and IOPS: provisioned, or the Flex File default
/// (16 KiBps per GiB of pool, at least the 64 MiB/s included).
pub fn flex_pool(p: &Plan) -> (f64, f64) {
    let f = &catalog::catalog().services.gcnv.flex;
    let mibps = p
        .assigned_total()
        .unwrap_or((f.file_mibps_per_tib * p.pool_tib).max(f.default_mibps))
        .min(f.max_mibps);
    let provisioned_iops = p.volumes.iter().filter_map(|g| g.iops).sum::<f64>();
    let iops = if provisioned_iops > 0.0 {
        provisioned_iops
    } else {
        f.default_iops + f.iops_per_mibps * (mibps - f.default_mibps).max(0.0)
    }
    .min(f.max_iops);
    (mibps, iops)
}

/// Adds the GCNV limits.
pub fn limits(p: &Plan, dist: &Distribution, set: &mut impl Sink) {
    let g = &catalog::catalog().services.gcnv;
    let count = dist.effective_count();
    if p.level == Level::Flex {
        let (mibps, iops) = flex_pool(p);
        set.push(RawLimit {
            id: "pool",
            label: Label {
                name: "Flex pool throughput",
                formula: Formula::Mibps {
                    value: mibps,
                    what: "shared by the pool's volumes",
                },
            },
            scope: Scope::Pool,
            applies: Applies::Both,
            mibps,
            source: g.flex.source.get(),
            assumption: p.assigned_total().is_none(),
            queue: Queue::Limiter,
        });
        set.push(RawLimit {
            id: "service_iops",
            label: Label {
                name: "Flex pool IOPS",
                formula: Formula::Iops {
                    value: iops,
                    what: "1,024 included + 16 per MiB/s above 64",
                },
            },
            scope: Scope::Pool,
            applies: Applies::Both,
            mibps: iops_to_mibps(iops, p.io_kib),
            source: g.flex.source.get(),
            assumption: false,
            queue: Queue::Limiter,
        });
    } else {
        let (total, grp) = dist.bound(p, |grp| volume_mibps(p.level, grp.quota_tib));
        set.push(RawLimit {
            id: "volume_qos",
            label: Label {
                name: "Volume throughput",
                formula: Formula::QuotaRate {
                    count,
                    quota_tib: grp.quota_tib,
                    rate: level(p.level).mibps_per_tib,
                },
            },
            scope: Scope::Volume,
            applies: Applies::Both,
            mibps: total,
            source: g.source.get(),
            assumption: false,
            queue: Queue::Limiter,
        });
    }
    let cap = if p.kind == VolumeKind::Large {
        g.large_max_mibps
    } else {
        g.regular_max_mibps
    };
    set.push(RawLimit {
        id: "volume_max",
        label: Label {
            name: "Volume ceiling",
            formula: Formula::Times {
                n: u64::from(count),
                each: cap,
                what: "per volume",
            },
        },
        scope: Scope::Volume,
        applies: Applies::Both,
        mibps: cap * dist.spread(),
        source: g.cap_source.get(),
        assumption: false,
        queue: Queue::Storage,
    });
    demand::push(
        p,
        dist,
        &demand::gcnv(p.params, p.kind, cap, g.seq_write_share),
        set,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn premium_worked_example() {
        // 1,500 GiB Premium = 93.75 MiB/s.
        assert_eq!(volume_mibps(Level::Premium, 1500.0 / 1024.0), 93.75);
        // 4 TiB Extreme = 512 MiB/s (expected-performance page).
        assert_eq!(volume_mibps(Level::Extreme, 4.0), 512.0);
    }
}
