//! Azure Files: provisioned v1 and v2 formulas, pay-as-you-go limits, per-file and
//! metadata ceilings (LEARN-FILES/understanding-billing, storage-files-scale-targets).

use crate::engine::catalog::{self, FilesV2};
use crate::engine::distribution::Distribution;
use crate::engine::limits::{Applies, Queue, RawLimit, Scope, Sink};
use crate::engine::plan::{Group, Plan};
use crate::engine::scenario::{Files, Level, Protocol};
use crate::engine::trace::{Formula, Label};
use crate::engine::units::{GIB_PER_TIB, iops_to_mibps};

/// SSD v1 baseline IOPS: `MIN(3000 + 1 * ProvisionedStorageGiB, 102400)`.
pub fn v1_iops(gib: f64) -> f64 {
    (3000.0 + gib.ceil()).min(102_400.0)
}

/// SSD v1 burst IOPS: `MIN(MAX(3 * ProvisionedStorageGiB, 10000), 102400)`.
pub fn v1_burst_iops(gib: f64) -> f64 {
    (3.0 * gib.ceil()).clamp(10_000.0, 102_400.0)
}

/// SSD v1 burst credits: `(BurstLimit - BaselineIOPS) * 3600`.
pub fn v1_burst_credits(gib: f64) -> f64 {
    (v1_burst_iops(gib) - v1_iops(gib)) * BURST_SECONDS
}

/// The burst time frame of the credit formulas, s: a full bucket holds an hour at the
/// burst limit (understanding-billing, v1 and v2: `(BurstLimit - baseline) * 3600`;
/// the API's `burstTimeframeSeconds`).
pub const BURST_SECONDS: f64 = 3600.0;

/// One share's burst limit and full credit bucket (IOs) over baseline `iops`, where
/// its level bursts (SSD v1 by capacity, provisioned v2 by provisioned IOPS; pay-as-you-go
/// does not) and the limit lies above the baseline.
pub fn burst(level: Level, gib: f64, iops: f64) -> Option<(f64, f64)> {
    let limit = match level {
        Level::SsdV1 => v1_burst_iops(gib),
        Level::SsdV2 | Level::HddV2 => v2_burst_iops(level, iops),
        _ => return None,
    };
    (limit > iops).then_some((limit, (limit - iops) * BURST_SECONDS))
}

/// The IOPS a share holds over a load of `duration_s` seconds from a full bucket (a new
/// share starts with one; credits refill at the unused part of the baseline between
/// loads): the credits spread over the load on top of the baseline, at most the burst
/// limit; a sustained load (`None`) gets the baseline.
pub fn iops_over(iops: f64, burst: Option<(f64, f64)>, duration_s: Option<f64>) -> f64 {
    match (burst, duration_s) {
        (Some((limit, credits)), Some(d)) if d > 0.0 => (iops + credits / d).min(limit),
        _ => iops,
    }
}

/// One share's IOPS over plan `p`'s load (burst credits spent over its duration).
fn share_iops(p: &Plan, g: Group) -> f64 {
    let iops = share_limits(p.level, g).1;
    let gib = g.quota_tib * GIB_PER_TIB;
    iops_over(iops, burst(p.level, gib, iops), p.duration_s)
}

/// Whether plan `p`'s shares would run faster on burst credits than at their baseline
/// (a level that bursts, a share whose burst limit lies above its baseline).
pub fn bursts(p: &Plan) -> bool {
    p.service == crate::engine::scenario::Service::AzureFiles
        && (0..p.volumes.groups()).any(|i| {
            let g = p.volumes.group(i);
            let iops = share_limits(p.level, g).1;
            burst(p.level, g.quota_tib * GIB_PER_TIB, iops).is_some()
        })
}

/// SSD v1 throughput: `100 + CEILING(0.04 * GiB) + CEILING(0.06 * GiB)` MiB/s.
pub fn v1_mibps(gib: f64) -> f64 {
    let gib = gib.ceil();
    100.0 + (0.04 * gib).ceil() + (0.06 * gib).ceil()
}

/// Provisioned v2 recommended IOPS: SSD `MIN(MAX(3000 + CEILING(GiB), 3000), 102400)`,
/// HDD `MIN(MAX(1000 + CEILING(0.2 * GiB), 500), 50000)`.
pub fn v2_iops(level: Level, gib: f64) -> f64 {
    match level {
        Level::HddV2 => (1000.0 + (0.2 * gib).ceil()).clamp(500.0, 50_000.0),
        _ => (3000.0 + gib.ceil()).clamp(3000.0, 102_400.0),
    }
}

/// Provisioned v2 recommended throughput: SSD `MIN(MAX(100 + CEILING(0.1 * GiB), 100), 10340)`,
/// HDD `MIN(MAX(60 + CEILING(0.02 * GiB), 60), 5120)` MiB/s.
pub fn v2_mibps(level: Level, gib: f64) -> f64 {
    match level {
        Level::HddV2 => (60.0 + (0.02 * gib).ceil()).clamp(60.0, 5120.0),
        _ => (100.0 + (0.1 * gib).ceil()).clamp(100.0, 10_340.0),
    }
}

/// Provisioned v2 burst IOPS: SSD `MIN(MAX(3 * IOPS, 10000), 102400)`, HDD `MIN(MAX(3 * IOPS, 5000), 50000)`.
pub fn v2_burst_iops(level: Level, iops: f64) -> f64 {
    match level {
        Level::HddV2 => (3.0 * iops).clamp(5000.0, 50_000.0),
        _ => (3.0 * iops).clamp(10_000.0, 102_400.0),
    }
}

fn v2(level: Level) -> &'static FilesV2 {
    let f = &catalog::catalog().services.azure_files;
    if level == Level::HddV2 {
        &f.hdd_v2
    } else {
        &f.ssd_v2
    }
}

/// True for SSD (premium) levels.
pub fn is_ssd(level: Level) -> bool {
    matches!(level, Level::SsdV1 | Level::SsdV2)
}

/// Throughput (MiB/s) and IOPS of one share of group `g`, provisioned or by formula.
pub fn share_limits(level: Level, g: Group) -> (f64, f64) {
    let gib = g.quota_tib * GIB_PER_TIB;
    let payg = &catalog::catalog().services.azure_files.hdd_payg;
    match level {
        Level::SsdV1 => (v1_mibps(gib), v1_iops(gib)),
        Level::SsdV2 | Level::HddV2 => {
            let c = v2(level);
            (
                g.mibps
                    .unwrap_or_else(|| v2_mibps(level, gib))
                    .clamp(c.min_mibps, c.max_mibps),
                g.iops
                    .unwrap_or_else(|| v2_iops(level, gib))
                    .clamp(c.min_iops, c.max_iops),
            )
        }
        _ => (payg.account_egress_mibps, payg.share_iops),
    }
}

/// Adds the Azure Files share, file and metadata limits.
pub fn limits(p: &Plan, dist: &Distribution, set: &mut impl Sink) {
    let f = &catalog::catalog().services.azure_files;
    let count = dist.effective_count();
    let source = match p.level {
        Level::SsdV1 => f.ssd_v1.source.get(),
        Level::SsdV2 | Level::HddV2 => v2(p.level).source.get(),
        _ => f.hdd_payg.source.get(),
    };
    let (mibps, g) = dist.bound(p, |g| share_limits(p.level, g).0);
    let what = match p.level {
        Level::SsdV1 => "per share: 100 + CEILING(0.04 x GiB) + CEILING(0.06 x GiB)",
        Level::SsdV2 | Level::HddV2 if g.mibps.is_some() => "provisioned per share",
        Level::SsdV2 | Level::HddV2 => "per share, recommended for its size",
        _ => "storage account egress (reads)",
    };
    let per = share_limits(p.level, g);
    set.push(RawLimit {
        id: "share",
        label: Label {
            name: "Share throughput",
            formula: Formula::Times {
                n: u64::from(count),
                each: per.0,
                what,
            },
        },
        scope: Scope::Share,
        applies: if p.level == Level::HddPayg {
            Applies::Read
        } else {
            Applies::Both
        },
        mibps,
        source,
        assumption: false,
        queue: Queue::Limiter,
    });
    if p.level == Level::HddPayg {
        set.push(RawLimit {
            id: "share_write",
            label: Label {
                name: "Storage account ingress (writes)",
                formula: Formula::Mibps {
                    value: f.hdd_payg.account_ingress_mibps,
                    what: "default account ingress",
                },
            },
            scope: Scope::Share,
            applies: Applies::Write,
            mibps: f.hdd_payg.account_ingress_mibps,
            source,
            assumption: false,
            queue: Queue::Limiter,
        });
    }
    let (iops_total, g) = dist.bound(p, |g| share_iops(p, g));
    let bursting = iops_total > dist.bound(p, |g| share_limits(p.level, g).1).0;
    let what = match p.level {
        _ if bursting => {
            "per share: baseline plus burst credits spread over the load, at most the burst limit"
        }
        Level::SsdV1 => "per share: MIN(3000 + GiB, 102400) baseline",
        Level::SsdV2 | Level::HddV2 if g.iops.is_some() => "provisioned per share",
        Level::SsdV2 | Level::HddV2 => "per share, recommended for its size",
        _ => "per share (pay-as-you-go)",
    };
    set.push(RawLimit {
        id: "service_iops",
        label: Label {
            name: "Share IOPS",
            formula: Formula::Iops {
                value: iops_total,
                what,
            },
        },
        scope: Scope::Share,
        applies: Applies::Both,
        mibps: iops_to_mibps(iops_total, p.io_kib),
        source,
        assumption: false,
        queue: Queue::Limiter,
    });
    if p.files == Files::One {
        let (fm, fi) = if is_ssd(p.level) {
            (f.per_file.ssd_mibps, f.per_file.ssd_iops)
        } else {
            (f.per_file.hdd_mibps, f.per_file.hdd_iops)
        };
        set.push(RawLimit {
            id: "file",
            label: Label {
                name: "Single-file throughput",
                formula: Formula::Mibps {
                    value: fm,
                    what: "per file",
                },
            },
            scope: Scope::File,
            applies: Applies::Both,
            mibps: fm,
            source: f.per_file.source.get(),
            assumption: false,
            queue: Queue::Limiter,
        });
        set.push(RawLimit {
            id: "file_iops",
            label: Label {
                name: "Single-file IOPS",
                formula: Formula::Iops {
                    value: fi,
                    what: "per file",
                },
            },
            scope: Scope::File,
            applies: Applies::Both,
            mibps: iops_to_mibps(fi, p.io_kib),
            source: f.per_file.source.get(),
            assumption: false,
            queue: Queue::Limiter,
        });
    }
    if p.metadata_heavy {
        let m = &f.metadata_iops;
        let (per_share, what) = if !is_ssd(p.level) {
            (m.hdd, "per HDD share")
        } else if p.protocol == Protocol::Smb3 {
            (m.smb_uncached, "per SSD SMB share without metadata caching")
        } else {
            (m.smb_cached_or_nfs, "per SSD NFS share")
        };
        let total = per_share * dist.spread();
        set.push(RawLimit {
            id: "metadata",
            label: Label {
                name: "Metadata IOPS",
                formula: Formula::Iops { value: total, what },
            },
            scope: Scope::Share,
            applies: Applies::Both,
            mibps: iops_to_mibps(total, p.io_kib),
            source: m.source.get(),
            assumption: false,
            queue: Queue::Storage,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All eight rows of the SSD v1 worked table (understanding-billing). The page's
    /// burst and credit columns for 33,792 and 51,200 GiB follow the older 100,000 IOPS
    /// cap (credits 227,548,800 = (100,000 - 36,792) x 3,600); the current formula with
    /// the 102,400 cap gives the values asserted here.
    #[test]
    fn v1_table() {
        let rows = [
            (100.0, 3100.0, 10_000.0, 24_840_000.0, 110.0),
            (500.0, 3500.0, 10_000.0, 23_400_000.0, 150.0),
            (1024.0, 4024.0, 10_000.0, 21_513_600.0, 203.0),
            (5120.0, 8120.0, 15_360.0, 26_064_000.0, 613.0),
            (10_240.0, 13_240.0, 30_720.0, 62_928_000.0, 1125.0),
            (33_792.0, 36_792.0, 101_376.0, 232_502_400.0, 3480.0),
            (51_200.0, 54_200.0, 102_400.0, 173_520_000.0, 5220.0),
            (102_400.0, 102_400.0, 102_400.0, 0.0, 10_340.0),
        ];
        for (gib, base, burst, credits, mibps) in rows {
            assert_eq!(v1_iops(gib), base, "baseline at {gib}");
            assert_eq!(v1_burst_iops(gib), burst, "burst at {gib}");
            assert_eq!(v1_burst_credits(gib), credits, "credits at {gib}");
            assert_eq!(v1_mibps(gib), mibps, "throughput at {gib}");
        }
    }

    #[test]
    fn v2_recommendations() {
        assert_eq!(v2_iops(Level::SsdV2, 32.0), 3032.0);
        assert_eq!(v2_iops(Level::SsdV2, 262_144.0), 102_400.0);
        assert_eq!(v2_mibps(Level::SsdV2, 1024.0), 203.0);
        assert_eq!(v2_mibps(Level::SsdV2, 262_144.0), 10_340.0);
        assert_eq!(v2_iops(Level::HddV2, 1024.0), 1205.0);
        assert_eq!(v2_iops(Level::HddV2, 262_144.0), 50_000.0);
        assert_eq!(v2_mibps(Level::HddV2, 1024.0), 81.0);
        assert_eq!(v2_mibps(Level::HddV2, 32.0), 61.0);
        // Burst table rows of the page.
        assert_eq!(v2_burst_iops(Level::SsdV2, 3000.0), 10_000.0);
        assert_eq!(v2_burst_iops(Level::SsdV2, 50_000.0), 102_400.0);
        assert_eq!(v2_burst_iops(Level::HddV2, 500.0), 5000.0);
        assert_eq!(v2_burst_iops(Level::HddV2, 25_000.0), 50_000.0);
    }
}
