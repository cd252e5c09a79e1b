//! Sweeps and comparisons: one scenario evaluated over a range of one input
//! (IO size, connections, datastore layout, service level for part of a
//! month), and several evaluations set side by side.
//!
//! Pure functions over [`evaluate`]: the charts, pages and reports draw what
//! these return, so every figure on a chart comes from the same model as the
//! planner's headline.

use super::evaluate::{evaluate, evaluate_in};
use super::evaluation::Evaluation;
use super::pricing::PriceBook;
use super::scenario::{FieldError, Level, Scenario, VolumeGroup};
use super::trace::Formula;

/// IO sizes of the IO-size sweep, in KiB (4 KiB to 1 MiB in powers of two).
pub const IO_SIZES_KIB: [f64; 9] = [4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0];

/// Below this IO size the scaling chart shows IOPS, from it MiB/s: small IOs
/// are judged by their rate, large ones by their bandwidth.
pub const IOPS_BELOW_KIB: f64 = 32.0;

/// Average days per month, used to prorate a level change over part of a month.
pub const DAYS_PER_MONTH: f64 = 30.4;

/// A layout within this share of the best throughput counts as "as good".
pub const NEAR_BEST: f64 = 0.05;

/// One IO size of the IO-size sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct IoSizePoint {
    pub io_size_kib: f64,
    pub throughput_mibps: f64,
    pub iops: f64,
    /// Id of the binding limit at this IO size.
    pub binding: &'static str,
}

/// One ceiling followed across the sweep; `None` where it does not apply.
#[derive(Debug, Clone, PartialEq)]
pub struct Ceiling {
    pub id: &'static str,
    pub name: &'static str,
    pub mibps: Vec<Option<f64>>,
}

/// The IO-size sweep: achievable figures and every ceiling per IO size.
#[derive(Debug, Clone, PartialEq)]
pub struct IoSizeSweep {
    pub points: Vec<IoSizePoint>,
    pub ceilings: Vec<Ceiling>,
    /// The scenario's own IO size (always one of the points).
    pub scenario_io_kib: f64,
}

/// The sizes swept for a scenario: [`IO_SIZES_KIB`] plus its own IO size.
pub fn io_sizes_for(scenario: &Scenario) -> Vec<f64> {
    let own = scenario.workload.io_size_kib;
    let mut sizes = IO_SIZES_KIB.to_vec();
    if !sizes.iter().any(|s| (s - own).abs() < 1e-9) {
        sizes.push(own);
        sizes.sort_by(f64::total_cmp);
    }
    sizes
}

/// Evaluates the scenario at each IO size from 4 KiB to 1 MiB (and its own).
pub fn io_size(scenario: &Scenario) -> Result<IoSizeSweep, FieldError> {
    let sizes = io_sizes_for(scenario);
    let mut points = Vec::with_capacity(sizes.len());
    let mut ceilings: Vec<Ceiling> = Vec::new();
    let mut s = scenario.clone();
    for (i, &kib) in sizes.iter().enumerate() {
        s.workload.io_size_kib = kib;
        let e = evaluate(&s)?;
        points.push(IoSizePoint {
            io_size_kib: kib,
            throughput_mibps: e.throughput_mibps,
            iops: e.iops,
            binding: e.binding,
        });
        for l in &e.limits {
            let name = l.label.name;
            let pos = match ceilings.iter().position(|c| c.id == l.id && c.name == name) {
                Some(p) => p,
                None => {
                    ceilings.push(Ceiling {
                        id: l.id,
                        name,
                        mibps: vec![None; sizes.len()],
                    });
                    ceilings.len() - 1
                }
            };
            // Several limits of one id and name (e.g. two volume groups): the tightest shows.
            let slot = &mut ceilings[pos].mibps[i];
            *slot = Some(slot.map_or(l.mibps, |v: f64| v.min(l.mibps)));
        }
    }
    Ok(IoSizeSweep {
        points,
        ceilings,
        scenario_io_kib: scenario.workload.io_size_kib,
    })
}

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
        use super::scenario::{
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
                capacity_tib: f64::from(volumes.0) * volumes.1,
                target_mibps: None,
                target_iops: None,
                target_latency_ms: None,
            },
            storage: Storage {
                service: Service::Anf,
                level: Level::Ultra,
                qos: Qos::Auto,
                volume_kind: kind,
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
    /// The document section and calibration point it comes from.
    pub source: &'static str,
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
        source: "domain.md section 5 (one host, several datastores: ~76,000 IOPS, +76%, +163%, averaged over read/write mixes); calibration C9",
        axis: Axis::Datastores,
        metric: Metric::Iops,
        points: &[(1, 76_000.0), (2, 133_760.0), (4, 199_880.0)],
        setup: Setup::AvsHost,
    },
    Published {
        label: "Published: 1 AVS VM, 1/2 VMDKs on own datastores, 8 KiB",
        source: "domain.md section 5 (one VM, VMDKs each on its own datastore: ~73,040 / ~128,420 IOPS, averaged over mixes); calibration C10",
        axis: Axis::Datastores,
        metric: Metric::Iops,
        points: &[(1, 73_040.0), (2, 128_420.0)],
        setup: Setup::AvsVm,
    },
    Published {
        label: "Published: one E104id_v5, 256 KiB sequential read",
        source: "domain.md section 2 (scale-up on a 101 TiB Ultra large volume: ~10,000 MiB/s with nconnect, about 10x without); calibration C4",
        axis: Axis::Nconnect,
        metric: Metric::Mibps,
        points: &[(1, 1_000.0), (8, 10_000.0)],
        setup: Setup::ScaleUpSeqRead,
    },
    Published {
        label: "Published: one E104id_v5, 8 KiB random read",
        source: "domain.md section 2 (scale-up on a 101 TiB Ultra large volume: ~426,000 IOPS with nconnect, about 7x without); calibration C6",
        axis: Axis::Nconnect,
        metric: Metric::Iops,
        points: &[(1, 61_000.0), (8, 426_000.0)],
        setup: Setup::ScaleUpRandRead,
    },
];

impl Published {
    /// The model at the published setup, at each step up to the last published one
    /// (averaged over read shares where the measurement is).
    pub fn model(&self) -> Result<Vec<(u32, f64)>, FieldError> {
        let last = self.points.iter().map(|p| p.0).max().unwrap_or(1);
        let mixes: &[f64] = if self.setup.mixes() { &MIXES } else { &[100.0] };
        (1..=last)
            .map(|n| {
                let mut sum = 0.0;
                for &r in mixes {
                    let e = evaluate(&self.setup.scenario(n, r))?;
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
    use super::scenario::Service;
    if scenario.storage.service != Service::Anf {
        return Vec::new();
    }
    PUBLISHED
        .iter()
        .filter(|p| p.axis == axis && p.metric == metric)
        .collect()
}

/// Evaluates the scenario at each step of the axis that applies to it, and
/// the model at the setups of the published series that match.
pub fn scaling(scenario: &Scenario) -> Result<ScalingSweep, FieldError> {
    let axis = Axis::of(scenario);
    let metric = Metric::for_io_size(scenario.workload.io_size_kib);
    let mut points = Vec::new();
    let mut skipped = Vec::new();
    let mut skipped_reason = None;
    for n in axis.steps() {
        let e = match evaluate(&axis.apply(scenario, n)) {
            Ok(e) => e,
            // A layout that cannot exist (datastores too large or too small for a
            // volume) is left out, never the whole sweep.
            Err(err) if axis == Axis::Datastores => {
                skipped.push(n);
                skipped_reason.get_or_insert(err.message);
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
        ));
    }
    let published = published_for(scenario, axis, metric)
        .into_iter()
        .map(|series| {
            Ok(PublishedCurve {
                series,
                model: series.model()?,
            })
        })
        .collect::<Result<_, FieldError>>()?;
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

/// An ANF layout whose datastores outgrow a regular volume uses large volumes (as an
/// architect would), when they are large enough to be one.
fn large_where_needed(s: &mut Scenario) {
    use super::plan::quota_range;
    use super::scenario::{Service, VolumeKind};
    let st = &mut s.storage;
    let Some(q) = st.volumes.first().map(|v| v.quota_tib) else {
        return;
    };
    if st.service == Service::Anf && st.volume_kind == VolumeKind::Regular {
        let (_, regular_max, _) = quota_range(st.service, st.level, VolumeKind::Regular);
        let (large_min, _, _) = quota_range(st.service, st.level, VolumeKind::Large);
        if q > regular_max && q >= large_min {
            st.volume_kind = VolumeKind::Large;
        }
    }
}

/// Total provisioned quota of the scenario's volumes, in TiB.
pub fn total_quota_tib(scenario: &Scenario) -> f64 {
    scenario
        .storage
        .volumes
        .iter()
        .map(|v| f64::from(v.count) * v.quota_tib)
        .sum()
}

/// The scenario with its volumes replaced by `count` x `total_tib / count`.
/// An assigned throughput (manual QoS, Flexible) is split the same way.
pub fn with_layout(scenario: &Scenario, count: u32, total_tib: f64) -> Scenario {
    let mut s = scenario.clone();
    let assigned: Option<f64> = {
        let groups = &scenario.storage.volumes;
        if groups.iter().all(|g| g.throughput_mibps.is_some()) {
            Some(
                groups
                    .iter()
                    .map(|g| f64::from(g.count) * g.throughput_mibps.unwrap_or(0.0))
                    .sum(),
            )
        } else {
            None
        }
    };
    let n = f64::from(count.max(1));
    s.storage.volumes = vec![VolumeGroup {
        count,
        quota_tib: total_tib / n,
        throughput_mibps: assigned.map(|t| t / n),
        iops: None,
    }];
    s
}

/// Layouts come from the engine's solver: the scenario with its volumes replaced by
/// `count` x `total_tib / count` for each count.
pub use super::solve::{Layout, layouts};

/// One layout as the explorer shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutRow {
    pub count: u32,
    pub quota_tib: f64,
    pub throughput_mibps: f64,
    pub iops: f64,
    /// The QoS ceiling of one volume (datastore): quota x level rate; `None` without one.
    pub qos_per_volume_mibps: Option<f64>,
    /// Connections one client (AVS host or VM) opens.
    pub connections_per_client: u64,
    pub connections: u64,
    /// `None` when the catalog has no list price for the level.
    pub monthly_usd: Option<f64>,
    pub binding: &'static str,
}

/// The explorer's rows: per-volume QoS is the `volume_qos` ceiling divided by the count.
pub fn layout_rows(layouts: &[Layout]) -> Vec<LayoutRow> {
    layouts
        .iter()
        .map(|l| {
            let e = &l.evaluation;
            // The formula holds one volume's quota x rate; the limit's value may
            // count only the volumes the workload reaches.
            let qos =
                e.limits
                    .iter()
                    .find(|x| x.id == "volume_qos")
                    .map(|x| match x.label.formula {
                        Formula::QuotaRate {
                            quota_tib, rate, ..
                        } => quota_tib * rate,
                        _ => x.mibps / f64::from(l.count.max(1)),
                    });
            LayoutRow {
                count: l.count,
                quota_tib: l.quota_tib,
                throughput_mibps: e.throughput_mibps,
                iops: e.iops,
                qos_per_volume_mibps: qos,
                connections_per_client: e.flows.per_client,
                connections: e.flows.connections,
                monthly_usd: e.cost.monthly_usd,
                binding: e.binding,
            }
        })
        .collect()
}

/// Index of the smallest count whose throughput is within [`NEAR_BEST`] of the best.
pub fn suggest_layout(rows: &[LayoutRow]) -> Option<usize> {
    let best = rows
        .iter()
        .map(|r| r.throughput_mibps)
        .fold(f64::NAN, f64::max);
    if !best.is_finite() {
        return None;
    }
    rows.iter()
        .enumerate()
        .filter(|(_, r)| r.throughput_mibps >= best * (1.0 - NEAR_BEST))
        .min_by_key(|(_, r)| r.count)
        .map(|(i, _)| i)
}

/// Which way a metric improves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    Higher,
    Lower,
    /// Not better or worse, only different (e.g. connections).
    Neither,
}

/// One row of a comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricRow {
    pub key: &'static str,
    pub label: &'static str,
    pub unit: &'static str,
    pub better: Better,
    /// One value per scenario; `None` for text rows.
    pub values: Vec<Option<f64>>,
    /// One text per scenario for text rows (the binding limit), else empty.
    pub text: Vec<String>,
    /// Against the first scenario: (absolute, percent); percent is `None` when the first is 0.
    pub deltas: Vec<Option<(f64, Option<f64>)>>,
    /// True for the best value(s) in the row; all false when all are equal.
    pub best: Vec<bool>,
}

/// Sets evaluations side by side: a row per metric, deltas against the first,
/// the best in each row marked.
pub fn compare(evals: &[&Evaluation]) -> Vec<MetricRow> {
    let numeric = |key, label, unit, better, f: &dyn Fn(&Evaluation) -> Option<f64>| {
        let values: Vec<Option<f64>> = evals.iter().map(|e| f(e)).collect();
        numeric_row(key, label, unit, better, values)
    };
    let mut rows = vec![
        numeric("throughput", "Throughput", "MiB/s", Better::Higher, &|e| {
            Some(e.throughput_mibps)
        }),
        numeric("iops", "IOPS", "IOPS", Better::Higher, &|e| Some(e.iops)),
    ];
    let binding: Vec<String> = evals
        .iter()
        .map(|e| {
            e.limits
                .iter()
                .find(|l| l.id == e.binding)
                .map_or_else(|| e.binding.to_owned(), |l| l.label.name.to_owned())
        })
        .collect();
    rows.push(MetricRow {
        key: "binding",
        label: "Binding limit",
        unit: "",
        better: Better::Neither,
        values: vec![None; evals.len()],
        text: binding,
        deltas: vec![None; evals.len()],
        best: vec![false; evals.len()],
    });
    rows.push(numeric(
        "connections",
        "Connections",
        "TCP connections",
        Better::Neither,
        &|e| Some(e.flows.connections as f64),
    ));
    rows.push(numeric(
        "monthly_usd",
        "Monthly cost",
        "USD",
        Better::Lower,
        &|e| e.cost.monthly_usd,
    ));
    rows.push(numeric(
        "usd_per_mibps",
        "Cost per MiB/s",
        "USD per MiB/s per month",
        Better::Lower,
        &|e| {
            e.cost
                .monthly_usd
                .filter(|_| e.throughput_mibps > 0.0)
                .map(|m| m / e.throughput_mibps)
        },
    ));
    rows
}

fn numeric_row(
    key: &'static str,
    label: &'static str,
    unit: &'static str,
    better: Better,
    values: Vec<Option<f64>>,
) -> MetricRow {
    let first = values.first().copied().flatten();
    let deltas = values
        .iter()
        .map(|v| match (v, first) {
            (Some(v), Some(f)) if v.is_finite() && f.is_finite() => {
                let pct = (f != 0.0).then(|| (v / f - 1.0) * 100.0);
                Some((v - f, pct))
            }
            _ => None,
        })
        .collect();
    let finite: Vec<f64> = values
        .iter()
        .flatten()
        .copied()
        .filter(|v| v.is_finite())
        .collect();
    let best_value = match better {
        Better::Higher => finite.iter().copied().reduce(f64::max),
        Better::Lower => finite.iter().copied().reduce(f64::min),
        Better::Neither => None,
    };
    let all_equal = finite.windows(2).all(|w| w[0] == w[1]) && finite.len() == values.len();
    let best = values
        .iter()
        .map(|v| match (v, best_value) {
            (Some(v), Some(b)) => !all_equal && *v == b,
            _ => false,
        })
        .collect();
    MetricRow {
        key,
        label,
        unit,
        better,
        values,
        text: Vec::new(),
        deltas,
        best,
    }
}

/// A service level raised (or lowered) for part of a month.
#[derive(Debug, Clone)]
pub struct WhatIf {
    pub level: Level,
    pub days: f64,
    pub base: Evaluation,
    pub changed: Evaluation,
    /// Cost of the month: the base level for the other days, the new one for `days`;
    /// `None` when either level has no list price.
    pub month_usd: Option<f64>,
    /// Extra cost of the month against staying at the base level.
    pub extra_usd: Option<f64>,
}

/// Evaluates the scenario at `level` and prorates the month: `days / 30.4`
/// of the month at the new level's price, the rest at the base level's, priced from
/// `prices`.
pub fn what_if(
    scenario: &Scenario,
    level: Level,
    days: f64,
    prices: &PriceBook,
) -> Result<WhatIf, FieldError> {
    if !(days.is_finite() && days > 0.0 && days <= DAYS_PER_MONTH) {
        return Err(FieldError::new(
            "days",
            format!(
                "must be a number of days above 0 and at most {DAYS_PER_MONTH} (an average month), not {days}"
            ),
        ));
    }
    let base = evaluate_in(scenario, prices)?;
    let mut s = scenario.clone();
    s.storage.level = level;
    let changed = evaluate_in(&s, prices).map_err(|e| {
        if e.field == "storage.level" {
            FieldError::new("level", e.message)
        } else {
            e
        }
    })?;
    let share = days / DAYS_PER_MONTH;
    let (month_usd, extra_usd) = match (base.cost.monthly_usd, changed.cost.monthly_usd) {
        (Some(b), Some(c)) => {
            let m = b * (1.0 - share) + c * share;
            (Some(m), Some(m - b))
        }
        _ => (None, None),
    };
    Ok(WhatIf {
        level,
        days,
        extra_usd,
        month_usd,
        base,
        changed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario() -> Scenario {
        serde_json::from_str(
            r#"{"name":"t","workload":{"io_size_kib":48,"read_pct":100,"capacity_tib":80},
            "storage":{"service":"anf","level":"ultra","volumes":[{"count":4,"quota_tib":20}]},
            "clients":{"protocol":"nfsv3","avs":{"hosts":4}}}"#,
        )
        .expect("scenario")
    }

    #[test]
    fn io_sizes_include_the_scenarios_own() {
        let sizes = io_sizes_for(&scenario());
        assert_eq!(sizes.len(), 10);
        assert!(sizes.windows(2).all(|w| w[0] < w[1]));
        assert!(sizes.contains(&48.0));
    }

    #[test]
    fn layout_splits_capacity_evenly() {
        let s = with_layout(&scenario(), 20, 80.0);
        assert_eq!(s.storage.volumes.len(), 1);
        assert_eq!(s.storage.volumes[0].count, 20);
        assert!((s.storage.volumes[0].quota_tib - 4.0).abs() < 1e-12);
        assert!((total_quota_tib(&s) - 80.0).abs() < 1e-9);
    }

    #[test]
    fn axis_follows_the_clients() {
        let mut s = scenario();
        assert_eq!(Axis::of(&s), Axis::Datastores);
        assert_eq!(Axis::Datastores.current(&s), 4);
        s.clients.avs = None;
        assert_eq!(Axis::of(&s), Axis::Nconnect);
        s.clients.protocol = crate::engine::scenario::Protocol::Smb3;
        assert_eq!(Axis::of(&s), Axis::SmbChannels);
        assert_eq!(Axis::SmbChannels.current(&s), 1);
        let m = Axis::SmbChannels.apply(&s, 3);
        assert!(m.clients.smb_multichannel);
        assert_eq!(m.clients.smb_channels, 3);
    }

    #[test]
    fn published_series_only_where_the_scenario_matches() {
        let s = scenario();
        let avs = published_for(&s, Axis::Datastores, Metric::Iops);
        assert_eq!(avs.len(), 2);
        assert!(published_for(&s, Axis::Datastores, Metric::Mibps).is_empty());
        let mut vm = s.clone();
        vm.clients.avs = None;
        assert_eq!(published_for(&vm, Axis::Nconnect, Metric::Mibps).len(), 1);
        vm.storage.service = crate::engine::scenario::Service::Gcnv;
        assert!(published_for(&vm, Axis::Nconnect, Metric::Mibps).is_empty());
        // +76% and +163% over one datastore, as published.
        let p = PUBLISHED[0].points;
        assert!((p[1].1 / p[0].1 - 1.76).abs() < 1e-9);
        assert!((p[2].1 / p[0].1 - 2.63).abs() < 1e-9);
    }

    #[test]
    fn published_setups_are_valid_scenarios() {
        for p in PUBLISHED {
            for &(n, _) in p.points {
                let s = p.setup.scenario(n, 50.0);
                s.validate().expect("valid setup");
                assert_eq!(Axis::of(&s), p.axis);
                assert_eq!(p.axis.current(&s), n);
            }
        }
    }

    #[test]
    fn layouts_reject_bad_input() {
        let s = scenario();
        let book = crate::engine::pricing::book();
        assert_eq!(layouts(&s, 0.0, &[1], book).unwrap_err().field, "total_tib");
        // Any scenario's own total quota is a total to lay out (1,024 x 2,048 TiB).
        use crate::engine::scenario::MAX_TOTAL_TIB;
        let at_most = layouts(&s, MAX_TOTAL_TIB, &[1024], book).err();
        assert_ne!(at_most.map(|e| e.field).as_deref(), Some("total_tib"));
        assert_eq!(
            layouts(&s, MAX_TOTAL_TIB * 1.01, &[1024], book)
                .unwrap_err()
                .field,
            "total_tib"
        );
        assert_eq!(layouts(&s, 80.0, &[], book).unwrap_err().field, "counts");
        assert!(
            layouts(&s, 80.0, &[0], crate::engine::pricing::book())
                .unwrap_err()
                .field
                .starts_with("counts")
        );
        assert!(
            layouts(&s, 80.0, &[2000], crate::engine::pricing::book())
                .unwrap_err()
                .field
                .starts_with("counts")
        );
    }

    #[test]
    fn what_if_rejects_days_beyond_a_month() {
        let s = scenario();
        assert_eq!(
            what_if(&s, Level::Ultra, 0.0, crate::engine::pricing::book())
                .unwrap_err()
                .field,
            "days"
        );
        assert_eq!(
            what_if(&s, Level::Ultra, 31.0, crate::engine::pricing::book())
                .unwrap_err()
                .field,
            "days"
        );
    }

    fn row(count: u32, mibps: f64) -> LayoutRow {
        LayoutRow {
            count,
            quota_tib: 80.0 / f64::from(count),
            throughput_mibps: mibps,
            iops: mibps * 16.0,
            qos_per_volume_mibps: Some(10240.0 / f64::from(count)),
            connections_per_client: u64::from(count),
            connections: u64::from(count) * 4,
            monthly_usd: Some(1000.0),
            binding: "volume_qos",
        }
    }

    #[test]
    fn suggestion_is_the_smallest_count_near_the_best() {
        let rows = vec![
            row(1, 2000.0),
            row(2, 4000.0),
            row(4, 9800.0),
            row(8, 10240.0),
            row(16, 10240.0),
        ];
        assert_eq!(suggest_layout(&rows), Some(2));
        assert_eq!(suggest_layout(&[]), None);
    }

    #[test]
    fn numeric_rows_have_deltas_against_the_first_and_mark_the_best() {
        let r = numeric_row(
            "t",
            "T",
            "MiB/s",
            Better::Higher,
            vec![Some(100.0), Some(150.0), Some(50.0)],
        );
        assert_eq!(r.deltas[0], Some((0.0, Some(0.0))));
        assert_eq!(r.deltas[1], Some((50.0, Some(50.0))));
        assert_eq!(r.deltas[2], Some((-50.0, Some(-50.0))));
        assert_eq!(r.best, vec![false, true, false]);
        let c = numeric_row("c", "C", "USD", Better::Lower, vec![Some(0.0), Some(10.0)]);
        assert_eq!(c.deltas[1], Some((10.0, None)));
        assert_eq!(c.best, vec![true, false]);
        let same = numeric_row("s", "S", "USD", Better::Lower, vec![Some(5.0), Some(5.0)]);
        assert_eq!(same.best, vec![false, false]);
        let n = numeric_row("n", "N", "", Better::Neither, vec![Some(1.0), Some(2.0)]);
        assert_eq!(n.best, vec![false, false]);
    }
}
