//! How a sizing row assigns a provisioned rate over its volumes: on ANF (manual QoS,
//! Flexible) in proportion to the load each volume carries, in whole MiB/s within what
//! a volume may be assigned; elsewhere the same to every volume (the load spreads
//! evenly there).

use crate::engine::distribution::Tiers;
use crate::engine::evaluation::Busiest;
use crate::engine::plan::{assignable_mibps, quota_range};
use crate::engine::scenario::{Level, Service, VolumeKind};
use crate::engine::units::GIB_PER_TIB;

/// The assignment of one row.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Assign {
    n: u32,
    tiers: Tiers,
    /// The least and the most a volume may be assigned, when assigned per volume by load.
    bounds: Option<(f64, f64)>,
    /// Manual QoS at a level whose pool gives this many MiB/s per TiB: the volumes'
    /// quotas add up to at least the pool the assigned throughput needs.
    per_tib: Option<f64>,
    /// The largest quota a volume may have, TiB.
    max_quota: f64,
}

impl Assign {
    /// The assignment of `n` volumes of `service` and `kind` at `level`, loaded as
    /// `tiers`; `per_tib` for manual QoS at a level whose pool gives that rate per TiB.
    pub(crate) fn of(
        service: Service,
        kind: VolumeKind,
        level: Level,
        n: u32,
        tiers: Tiers,
        per_tib: Option<f64>,
    ) -> Self {
        let by_load = service == Service::Anf && (level == Level::Flexible || per_tib.is_some());
        let bounds = by_load.then(|| {
            let (lo, hi, _) = assignable_mibps(level, kind);
            (lo, hi)
        });
        Self {
            n,
            tiers,
            bounds,
            per_tib,
            max_quota: quota_range(service, level, kind).1,
        }
    }

    /// Each volume's quota for `quota` and `mibps` per volume on average: under manual
    /// QoS at least its share of the pool the assigned total needs (whole GiB), never
    /// above the largest volume.
    pub(crate) fn quota(&self, quota: f64, mibps: Option<f64>) -> f64 {
        match (self.per_tib, self.total(mibps).0) {
            (Some(rate), Some(total)) => {
                let pool = total / rate / f64::from(self.n);
                quota
                    .max((pool * GIB_PER_TIB - 1e-6).ceil() / GIB_PER_TIB)
                    .min(self.max_quota)
            }
            _ => quota,
        }
    }

    /// The MiB/s each volume is assigned for `mibps` per volume on average: the busiest
    /// volumes (how many, and each one's rate) and the others' rate.
    pub(crate) fn rates(&self, mibps: Option<f64>) -> ((u32, Option<f64>), Option<f64>) {
        let (Some(m), Some((lo, hi))) = (mibps, self.bounds) else {
            return ((0, None), mibps);
        };
        let total = m * f64::from(self.n);
        let each = |share: f64| (total * share - 1e-6).ceil().clamp(lo, hi);
        let t = self.tiers;
        if t.busy == 0 {
            ((0, None), Some(each(t.rest_share)))
        } else {
            ((t.busy, Some(each(t.busy_share))), Some(each(t.rest_share)))
        }
    }

    /// The next average rate below `mibps` per volume at which a volume's whole MiB/s
    /// drops by one (the busiest or the others), when assigned per volume by load; `None`
    /// when every volume is at the least it may be assigned or the rate is not assigned
    /// per volume.
    pub(crate) fn step_down(&self, mibps: f64) -> Option<f64> {
        let (lo, _) = self.bounds?;
        let nf = f64::from(self.n);
        let total = mibps * nf;
        let lower = |share: f64| {
            let each = (total * share - 1e-6).ceil();
            (share > 0.0 && each - 1.0 >= lo).then(|| (each - 1.0) / share / nf)
        };
        let t = self.tiers;
        let busy = (t.busy > 0).then(|| lower(t.busy_share)).flatten();
        busy.into_iter().chain(lower(t.rest_share)).reduce(f64::max)
    }

    /// The total assigned and the busiest volumes, for `mibps` per volume on average.
    pub(crate) fn total(&self, mibps: Option<f64>) -> (Option<f64>, Option<Busiest>) {
        let ((busy, busy_mibps), rest) = self.rates(mibps);
        let busiest = busy_mibps.map(|b| Busiest {
            count: busy,
            throughput_mibps: b,
        });
        let total = rest.map(|r| {
            r * f64::from(self.n - busy)
                + busiest.map_or(0.0, |b| b.throughput_mibps * f64::from(b.count))
        });
        (total, busiest)
    }
}
