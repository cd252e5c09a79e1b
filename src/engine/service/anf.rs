//! Azure NetApp Files: QoS (auto, manual, Flexible), volume ceilings, service IOPS.

use super::demand;
use crate::engine::catalog::{self};
use crate::engine::distribution::Distribution;
use crate::engine::limits::{Applies, Queue, RawLimit, Scope, Sink};
use crate::engine::plan::{Group, Plan};
use crate::engine::scenario::{Level, Qos, VolumeKind};
use crate::engine::source::{Source, SourceKind};
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

/// The documented throughput maximum of one volume of `kind` at level `l`, with its
/// source: the level's regular or large volume maximum, or the most a
/// breakthrough-mode volume may be assigned.
pub fn volume_cap(l: Level, kind: VolumeKind) -> (f64, Source) {
    let lv = catalog::anf_level(l);
    match kind {
        VolumeKind::Regular => (lv.regular_max_mibps, lv.cap_source.get()),
        VolumeKind::Large => (lv.large_max_mibps, lv.cap_source.get()),
        VolumeKind::Breakthrough => {
            let b = &catalog::catalog().services.anf.breakthrough;
            (b.max_mibps, b.source.get())
        }
    }
}

/// Adds the ANF storage limits.
pub fn limits(p: &Plan, dist: &Distribution, set: &mut impl Sink) {
    let anf = &catalog::catalog().services.anf;
    let lv = catalog::anf_level(p.level);
    let (qos_total, g) = dist.bound(p, |g| volume_qos_mibps(p, g));
    let count = dist.effective_count();
    let assigned = matches!(
        (p.level, p.qos, g.mibps),
        (Level::Flexible, _, _) | (_, Qos::Manual, Some(_))
    );
    let formula = match (busiest(p, dist), assigned) {
        (Some(b), assigned) => b(
            volume_qos_mibps(p, g),
            if assigned { 0.0 } else { g.quota_tib },
            if assigned { 0.0 } else { lv.mibps_per_tib },
        ),
        (None, true) => Formula::Times {
            n: u64::from(count),
            each: volume_qos_mibps(p, g),
            what: "assigned per volume",
        },
        (None, false) => Formula::QuotaRate {
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
        source: lv.source.get(),
        assumption: false,
        queue: Queue::Limiter,
    });

    let (cap, source) = volume_cap(p.level, p.kind);
    set.push(RawLimit {
        id: "volume_max",
        label: Label {
            name: match p.kind {
                VolumeKind::Regular => "Regular volume maximum",
                VolumeKind::Large => "Large volume maximum",
                VolumeKind::Breakthrough => "Breakthrough-mode volume maximum",
            },
            formula: match busiest(p, dist) {
                Some(b) => b(cap, 0.0, 0.0),
                None => Formula::Times {
                    n: u64::from(count),
                    each: cap,
                    what: "per volume",
                },
            },
        },
        scope: Scope::Volume,
        applies: Applies::Both,
        mibps: cap * dist.spread(),
        source,
        assumption: false,
        queue: Queue::Storage,
    });

    // A metadata-heavy mix (stat, access, lookup, create: EDA, software builds) is
    // bound by the volume's operation rate; data IO by its back end's time per op and
    // per KiB.
    if p.metadata_heavy {
        // NFSv4.1's state operations take their share of the same operation rate.
        let state = crate::engine::client::state_cost(p);
        let ops = match p.kind {
            VolumeKind::Regular => p.params.anf_meta_ops_regular,
            VolumeKind::Large => p.params.anf_meta_ops_large,
            VolumeKind::Breakthrough => p.params.anf_meta_ops_breakthrough,
        } / state;
        set.push(RawLimit {
            id: "service_iops",
            label: Label {
                name: "Metadata-heavy operation ceiling",
                formula: Formula::Iops {
                    value: ops * f64::from(count),
                    what: if state > 1.0 {
                        "ops/s for a metadata-heavy mix on this volume type, less NFSv4.1's state operations"
                    } else {
                        "ops/s for a metadata-heavy mix on this volume type"
                    },
                },
            },
            scope: Scope::Volume,
            applies: Applies::Both,
            mibps: iops_to_mibps(ops, p.io_kib) * dist.spread(),
            source: META_SOURCE,
            assumption: state > 1.0,
            queue: Queue::Storage,
        });
    } else {
        demand::push(p, dist, &demand::anf(p.params, p.kind), set);
    }

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
            source: lv.source.get(),
            assumption: false,
            queue: Queue::Limiter,
        });
    }
}

/// AVS datastores loaded unequally by the VMDK placement (64 VMDKs over 20 datastores):
/// the formula of a per-datastore ceiling on the busiest one, from its value, quota and
/// rate. `None` when every loaded datastore carries the same share.
fn busiest(p: &Plan, dist: &Distribution) -> Option<impl Fn(f64, f64, f64) -> Formula> {
    let a = p.avs?;
    let (on_busiest, units) = dist.unequal()?;
    let unit = match a.placement {
        crate::engine::scenario::Placement::Dedicated => "VMs",
        _ => "VMDKs",
    };
    let of = p.n_volumes;
    Some(move |each, quota_tib, rate| Formula::Busiest {
        each,
        quota_tib,
        rate,
        of,
        on_busiest,
        units,
        unit,
    })
}

/// Where the metadata-heavy operation ceilings come from.
const META_SOURCE: Source = Source::documented(
    "LEARN-ANF/solutions-benefits-azure-netapp-files-electronic-design-automation",
)
.section("SPECstorage Solution 2020 eda_blended, one and six regular and large volumes")
.kind(SourceKind::Fitted);

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
    fn volume_caps_are_documented() {
        assert_eq!(volume_cap(Level::Ultra, VolumeKind::Regular).0, 4500.0);
        assert_eq!(volume_cap(Level::Standard, VolumeKind::Regular).0, 1600.0);
        assert_eq!(volume_cap(Level::Premium, VolumeKind::Large).0, 12800.0);
        let (b, source) = volume_cap(Level::Flexible, VolumeKind::Breakthrough);
        assert_eq!((b, source.kind), (900_000.0, SourceKind::Documented));
    }
}
