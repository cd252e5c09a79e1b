//! The scaling sweep: the achievable figure against the number of flows (nconnect,
//! SMB channels or AVS datastores), with the published series that match beside it.

use super::layouts::{large_where_needed, total_quota_tib, with_layout};
use crate::engine::evaluate::evaluate_in;
use crate::engine::field_error::FieldErrors;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{FieldError, Level, Scenario, VolumeGroup};
use crate::engine::source::Source;

/// Below this IO size the scaling chart shows IOPS, from it MiB/s: small IOs
/// are judged by their rate, large ones by their bandwidth.
pub const IOPS_BELOW_KIB: f64 = 32.0;

/// What the scaling chart varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// NFS `nconnect`, 1..16 connections per client and volume.
    Nconnect,
    /// SMB multichannel channels, 1..4 per client and share.
    SmbChannels,
    /// AVS datastores, 1..32, the total capacity split evenly.
    Datastores,
}

impl Axis {
    /// The axis that applies to a scenario: AVS datastores, else SMB channels, else nconnect.
    pub fn of(scenario: &Scenario) -> Axis {
        if scenario.clients.avs.is_some() {
            Axis::Datastores
        } else if scenario.clients.protocol.is_nfs() {
            Axis::Nconnect
        } else {
            Axis::SmbChannels
        }
    }

    /// The steps swept.
    pub fn steps(self) -> std::ops::RangeInclusive<u32> {
        match self {
            Axis::Nconnect => 1..=16,
            Axis::SmbChannels => 1..=4,
            Axis::Datastores => 1..=32,
        }
    }

    /// The axis title, with its unit.
    pub fn title(self) -> &'static str {
        match self {
            Axis::Nconnect => "nconnect (NFS connections per client and volume)",
            Axis::SmbChannels => "SMB multichannel channels per client",
            Axis::Datastores => "NFS datastores (count, same total capacity)",
        }
    }

    /// A short name for tables.
    pub fn short(self) -> &'static str {
        match self {
            Axis::Nconnect => "nconnect",
            Axis::SmbChannels => "SMB channels",
            Axis::Datastores => "Datastores",
        }
    }

    /// The scenario's own value on this axis.
    pub fn current(self, scenario: &Scenario) -> u32 {
        match self {
            Axis::Nconnect => scenario.clients.nconnect,
            Axis::SmbChannels if scenario.clients.smb_multichannel => scenario.clients.smb_channels,
            Axis::SmbChannels => 1,
            Axis::Datastores => scenario.storage.volumes.iter().map(|v| v.count).sum(),
        }
    }

    /// The scenario with this axis set to `n`.
    pub fn apply(self, scenario: &Scenario, n: u32) -> Scenario {
        let mut s = scenario.clone();
        match self {
            Axis::Nconnect => s.clients.nconnect = n,
            Axis::SmbChannels => {
                s.clients.smb_multichannel = true;
                s.clients.smb_channels = n;
            }
            Axis::Datastores => {
                s = with_layout(scenario, n, total_quota_tib(scenario));
                large_where_needed(&mut s);
            }
        }
        s
    }
}

/// The figure a chart or comparison judges a scenario by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    Mibps,
    Iops,
}

impl Metric {
    /// IOPS for small IOs, MiB/s for large ones.
    pub fn for_io_size(kib: f64) -> Metric {
        if kib < IOPS_BELOW_KIB {
            Metric::Iops
        } else {
            Metric::Mibps
        }
    }

    /// The unit as shown on axes.
    pub fn unit(self) -> &'static str {
        match self {
            Metric::Mibps => "MiB/s",
            Metric::Iops => "IOPS",
        }
    }
}

/// The measured setups the published series come from (`calibration.json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setup {
    /// One AV36 host, 4 VMs with 4 VMDKs each spread over n datastores of 20 TiB Ultra,
    /// 8 KiB random, averaged over read shares (C9).
    AvsHost,
    /// One AV36 host, one VM with n VMDKs, each on its own 20 TiB Ultra datastore,
    /// 8 KiB random, averaged over read shares (C10).
    AvsVm,
    /// One E104id_v5 on a 101 TiB Ultra large volume, NFSv3, 32 threads x 32 deep,
    /// 256 KiB sequential read (C4).
    ScaleUpSeqRead,
    /// The same VM and volume, 8 KiB random read (C6).
    ScaleUpRandRead,
}

/// Read shares averaged for the "over all mixes" measurements.
pub const MIXES: [f64; 5] = [0.0, 25.0, 50.0, 75.0, 100.0];

impl Setup {
    /// The scenario of this setup at step `n`, at read share `read_pct`.
    pub fn scenario(self, n: u32, read_pct: f64) -> Scenario {
        use crate::engine::scenario::{
            Access, Avs, Clients, Files, Placement, Protocol, Qos, Service, Storage, VolumeKind,
            Workload,
        };
        let (avs, vm_size, nconnect, volumes, kind, io, access) = match self {
            Setup::AvsHost | Setup::AvsVm => {
                let (vms, vmdks) = if self == Setup::AvsHost {
                    (4, 4)
                } else {
                    (1, n)
                };
                let avs = Avs {
                    hosts: 1,
                    host_sku: "AV36".to_owned(),
                    vms_per_host: vms,
                    vmdks_per_vm: vmdks,
                    placement: Placement::Spread,
                    nconnect: 1,
                    cluster_hosts: None,
                    vcf: None,
                };
                (
                    Some(avs),
                    None,
                    1,
                    (n, 20.0),
                    VolumeKind::Regular,
                    8.0,
                    Access::Random,
                )
            }
            Setup::ScaleUpSeqRead | Setup::ScaleUpRandRead => {
                let (io, access) = if self == Setup::ScaleUpSeqRead {
                    (256.0, Access::Sequential)
                } else {
                    (8.0, Access::Random)
                };
                let vm = Some("Standard_E104id_v5".to_owned());
                (None, vm, n, (1, 101.0), VolumeKind::Large, io, access)
            }
        };
        let threads = if avs.is_some() { 4 } else { 32 };
        Scenario {
            id: None,
            name: "Published setup".to_owned(),
            workload: Workload {
                io_size_kib: io,
                read_pct,
                access,
                threads,
                queue_depth: 32,
                files: Files::Many,
                metadata_heavy: false,
                cached_read_pct: 0.0,
                capacity_tib: f64::from(volumes.0) * volumes.1,
                target_mibps: None,
                target_iops: None,
                target_latency_ms: None,
                duration_s: None,
                confidence: Default::default(),
            },
            storage: Storage {
                service: Service::Anf,
                level: Level::Ultra,
                qos: Qos::Auto,
                volume_kind: kind,
                fixed_count: false,
                volumes: vec![VolumeGroup {
                    count: volumes.0,
                    quota_tib: volumes.1,
                    throughput_mibps: None,
                    iops: None,
                }],
                pool_tib: None,
                cool_access: None,
            },
            clients: Clients {
                count: 1,
                vm_size,
                egress_mibps: None,
                ingress_mibps: None,
                protocol: Protocol::Nfsv3,
                nconnect,
                smb_multichannel: false,
                smb_channels: 4,
                avs,
                nfs_client: Default::default(),
                sec: Default::default(),
                smb_security: Default::default(),
            },
            region: None,
            pricing: None,
            data_protection: None,
            meta: None,
        }
    }

    /// True when the measurement is an average over [`MIXES`].
    pub fn mixes(self) -> bool {
        matches!(self, Setup::AvsHost | Setup::AvsVm)
    }
}

/// A published measurement series to set beside the model's curve.
#[derive(Debug, Clone, PartialEq)]
pub struct Published {
    /// What was measured, for the legend.
    pub label: &'static str,
    /// The document that published it (the calibration point in the note).
    pub source: Source,
    pub axis: Axis,
    pub metric: Metric,
    /// (step, measured figure).
    pub points: &'static [(u32, f64)],
    /// The measured setup, evaluated by the model for a like-for-like curve.
    pub setup: Setup,
}

/// The published scaling series (see `domain.md` sections 2 and 5).
pub const PUBLISHED: &[Published] = &[
    Published {
        label: "Published: 1 AVS host, 1/2/4 datastores, 8 KiB",
        source: Source::documented("LEARN-ANF/performance-benchmarks-azure-vmware-solution")
            .section("one host, several datastores: ~76,000 IOPS, +76 %, +163 %, averaged over read/write mixes")
            .note("domain.md section 5; calibration C9"),
        axis: Axis::Datastores,
        metric: Metric::Iops,
        points: &[(1, 76_000.0), (2, 133_760.0), (4, 199_880.0)],
        setup: Setup::AvsHost,
    },
    Published {
        label: "Published: 1 AVS VM, 1/2 VMDKs on own datastores, 8 KiB",
        source: Source::documented("LEARN-ANF/performance-benchmarks-azure-vmware-solution")
            .section("one VM, VMDKs each on its own datastore: ~73,040 / ~128,420 IOPS, averaged over mixes")
            .note("domain.md section 5; calibration C10"),
        axis: Axis::Datastores,
        metric: Metric::Iops,
        points: &[(1, 73_040.0), (2, 128_420.0)],
        setup: Setup::AvsVm,
    },
    Published {
        label: "Published: one E104id_v5, 256 KiB sequential read",
        source: Source::documented("LEARN-ANF/performance-large-volumes-linux")
            .section("scale-up on a 101 TiB Ultra large volume: ~10,000 MiB/s with nconnect, about 10x without")
            .note("domain.md section 2; calibration C4"),
        axis: Axis::Nconnect,
        metric: Metric::Mibps,
        points: &[(1, 1_000.0), (8, 10_000.0)],
        setup: Setup::ScaleUpSeqRead,
    },
    Published {
        label: "Published: one E104id_v5, 8 KiB random read",
        source: Source::documented("LEARN-ANF/performance-large-volumes-linux")
            .section("scale-up on a 101 TiB Ultra large volume: ~426,000 IOPS with nconnect, about 7x without")
            .note("domain.md section 2; calibration C6"),
        axis: Axis::Nconnect,
        metric: Metric::Iops,
        points: &[(1, 61_000.0), (8, 426_000.0)],
        setup: Setup::ScaleUpRandRead,
    },
];

impl Published {
    /// The model at the published setup, at each step up to the last published one
    /// (averaged over read shares where the measurement is), priced from `prices`.
    pub fn model(&self, prices: &PriceBook) -> Result<Vec<(u32, f64)>, FieldErrors> {
        let last = self.points.iter().map(|p| p.0).max().unwrap_or(1);
        let mixes: &[f64] = if self.setup.mixes() { &MIXES } else { &[100.0] };
        (1..=last)
            .map(|n| {
                let mut sum = 0.0;
                for &r in mixes {
                    let e = evaluate_in(&self.setup.scenario(n, r), prices)?;
                    sum += match self.metric {
                        Metric::Mibps => e.throughput_mibps,
                        Metric::Iops => e.iops,
                    };
                }
                Ok((n, sum / mixes.len() as f64))
            })
            .collect()
    }
}

/// One step of the scaling sweep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScalingPoint {
    pub n: u32,
    pub throughput_mibps: f64,
    pub iops: f64,
    pub connections: u64,
}

impl ScalingPoint {
    /// The figure in the given metric.
    pub fn value(&self, metric: Metric) -> f64 {
        match metric {
            Metric::Mibps => self.throughput_mibps,
            Metric::Iops => self.iops,
        }
    }
}

/// A published series with the model's figures at the same setup.
#[derive(Debug, Clone, PartialEq)]
pub struct PublishedCurve {
    pub series: &'static Published,
    /// (step, model figure at the published setup).
    pub model: Vec<(u32, f64)>,
}

/// The scaling sweep: achievable figure against the number of flows.
#[derive(Debug, Clone, PartialEq)]
pub struct ScalingSweep {
    pub axis: Axis,
    pub metric: Metric,
    /// The scenario's own step.
    pub current: u32,
    pub points: Vec<ScalingPoint>,
    /// Steps left out because that layout cannot exist (a datastore outside the
    /// volume size range), with the reason of the first one.
    pub skipped: Vec<u32>,
    pub skipped_reason: Option<String>,
    /// Published series that match the scenario (service, clients, metric).
    pub published: Vec<PublishedCurve>,
}

/// The published series shown for a scenario: Azure NetApp Files only (the
/// measurements are of ANF), AVS series only with AVS clients, and only in
/// the metric the chart shows.
pub fn published_for(scenario: &Scenario, axis: Axis, metric: Metric) -> Vec<&'static Published> {
    use crate::engine::scenario::Service;
    if scenario.storage.service != Service::Anf {
        return Vec::new();
    }
    PUBLISHED
        .iter()
        .filter(|p| p.axis == axis && p.metric == metric)
        .collect()
}

/// Evaluates the scenario at each step of the axis that applies to it, and
/// the model at the setups of the published series that match, priced from `prices`
/// (the book in force) as the scenario itself is.
pub fn scaling(scenario: &Scenario, prices: &PriceBook) -> Result<ScalingSweep, FieldErrors> {
    let axis = Axis::of(scenario);
    let metric = Metric::for_io_size(scenario.workload.io_size_kib);
    let mut points = Vec::new();
    let mut skipped = Vec::new();
    let mut skipped_reason = None;
    for n in axis.steps() {
        let e = match evaluate_in(&axis.apply(scenario, n), prices) {
            Ok(e) => e,
            // A layout that cannot exist (datastores too large or too small for a
            // volume) is left out, never the whole sweep.
            Err(err) if axis == Axis::Datastores => {
                skipped.push(n);
                skipped_reason.get_or_insert(err.first().message.clone());
                continue;
            }
            Err(err) => return Err(err),
        };
        points.push(ScalingPoint {
            n,
            throughput_mibps: e.throughput_mibps,
            iops: e.iops,
            connections: e.flows.connections,
        });
    }
    if points.is_empty() {
        return Err(FieldError::new(
            "storage.volumes",
            skipped_reason.unwrap_or_else(|| "no step of the sweep is a valid layout".into()),
        )
        .into());
    }
    let published = published_for(scenario, axis, metric)
        .into_iter()
        .map(|series| {
            Ok(PublishedCurve {
                series,
                model: series.model(prices)?,
            })
        })
        .collect::<Result<_, FieldErrors>>()?;
    Ok(ScalingSweep {
        axis,
        metric,
        current: axis.current(scenario),
        points,
        skipped,
        skipped_reason,
        published,
    })
}
