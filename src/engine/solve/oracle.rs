//! The exhaustive oracle of reverse sizing: every level, QoS, volume count, volume
//! kind, quota step and per-volume throughput step of a grid, each point evaluated with
//! the engine and validated as a scenario of its own; the cheapest point that does the
//! job is what sizing's cheapest row must match to within 1 %.
//!
//! Counts: the scenario's own, and (unless `storage.fixed_count`) every count of
//! [`COUNTS`] whose volumes hold the capacity within the kind's largest quota, up to the
//! AVS datastore limit and one datastore per VMDK (or VM) placed. Kinds: regular and large volumes where the service sells both (not for AVS
//! datastores), as sizing; breakthrough mode only where entered.
//!
//! The grid walks each level's provisioning from small to large, so the first point
//! that meets is the cheapest of its line; along a line the search halves the steps
//! (meeting only grows with what is bought). Lines: the quota of every volume (auto
//! QoS); on ANF the assigned throughput over the busiest and the other volumes in
//! every split of 5 % steps (Flexible, and manual QoS under an uneven AVS load); the
//! provisioned rate of GCNV Flex and Azure Files' provisioned v2 levels.

use super::*;
use crate::engine::evaluate::{evaluate, evaluate_without_sizing};
use crate::engine::pricing::book;
use crate::engine::same::reaches;
use crate::engine::scenario::{Qos, Scenario, VolumeGroup};
use proptest::prelude::*;

/// Ratio between neighbouring points of a line.
const STEP: f64 = 1.005;

/// Splits of an assigned total between the busiest volumes and the others.
const SPLITS: usize = 20;

/// The volume counts of the grid (besides the scenario's own).
const COUNTS: [u32; 11] = [1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32];

/// What the job is: the scenario's targets, or the throughput it gives now.
struct Job<'s> {
    scenario: &'s Scenario,
    gives: Option<f64>,
}

impl Job<'_> {
    /// The monthly cost of `candidate` when it validates and does the job.
    fn cost(&self, candidate: &Scenario) -> Option<f64> {
        let ev = evaluate_without_sizing(candidate, book()).ok()?;
        let ok = ev.targets.met && self.gives.is_none_or(|g| reaches(ev.throughput_mibps, g));
        ok.then_some(ev.cost.monthly?)
    }

    /// The scenario at `level` with `groups` of `kind`, in the smallest pool.
    fn with(&self, level: Level, qos: Qos, kind: VolumeKind, groups: Vec<VolumeGroup>) -> Scenario {
        let mut s = self.scenario.clone();
        s.storage.set_level(level);
        s.storage.qos = qos;
        s.storage.volume_kind = kind;
        s.storage.pool_tib = None;
        s.storage.volumes = groups;
        s
    }
}

/// The points of a line from `lo` to `hi`, `STEP` apart.
fn line(lo: f64, hi: f64) -> Vec<f64> {
    let mut v = vec![lo];
    while *v.last().unwrap() < hi {
        v.push((v.last().unwrap() * STEP).min(hi));
    }
    v
}

/// The cheapest cost along `points` (sorted by what they buy), taking the first point
/// for which `cost` is `Some`: halving, as meeting only grows along a line.
fn first(points: &[f64], cost: impl Fn(f64) -> Option<f64>) -> Option<f64> {
    let (mut lo, mut hi) = (0usize, points.len());
    let mut best = None;
    while lo < hi {
        let mid = (lo + hi) / 2;
        match cost(points[mid]) {
            Some(c) => {
                best = Some(c);
                hi = mid;
            }
            None => lo = mid + 1,
        }
    }
    best
}

fn group(count: u32, quota_tib: f64, mibps: Option<f64>, iops: Option<f64>) -> VolumeGroup {
    VolumeGroup {
        count,
        quota_tib: (quota_tib * GIB_PER_TIB - 1e-6).ceil() / GIB_PER_TIB,
        throughput_mibps: mibps.map(|m| m.ceil()),
        iops: iops.map(|i| i.ceil()),
    }
}

/// The cheapest provisioning of `level` that does `job` on the grid, over every count and
/// kind.
fn oracle_level(job: &Job, level: Level) -> Option<f64> {
    let s = job.scenario;
    let st = &s.storage;
    let mut kinds = vec![st.volume_kind];
    let both = match st.service {
        Service::Anf => s.clients.avs.is_none(),
        Service::Gcnv => level != Level::Flex,
        Service::AzureFiles => false,
    };
    if both || st.service == Service::Anf {
        kinds.push(VolumeKind::Regular);
    }
    if both {
        kinds.push(VolumeKind::Large);
    }
    kinds.sort_by_key(|k| k.key());
    kinds.dedup();
    let own = st.volume_count();
    let mut counts = vec![own];
    if !st.fixed_count {
        let most = match s.clients.avs {
            Some(_) => {
                let units = Plan::resolve(s).map_or(0, |p| Distribution::units(&p));
                MAX_DATASTORES_PER_CLUSTER.min(u32::try_from(units).unwrap_or(u32::MAX).max(1))
            }
            None => u32::MAX,
        };
        counts.extend(COUNTS.iter().filter(|&&n| n != own && n <= most));
    }
    let mut best: Option<f64> = None;
    for &kind in &kinds {
        for &n in &counts {
            if let Some(c) = oracle_layout(job, level, n, kind) {
                best = Some(best.map_or(c, |b| b.min(c)));
            }
        }
    }
    best
}

/// The cheapest provisioning of `level` as `n` volumes of `kind` that does `job` on the
/// grid.
fn oracle_layout(job: &Job, level: Level, n: u32, kind: VolumeKind) -> Option<f64> {
    let s = job.scenario;
    let nf = f64::from(n);
    let (lo, hi, _) = quota_range(s.storage.service, level, kind);
    let capacity = s.workload.capacity_tib;
    if capacity / nf > hi + 1e-9 {
        return None;
    }
    let share = (capacity / nf).max(lo);
    let mut layout = s.clone();
    layout.storage.volume_kind = kind;
    layout.storage.volumes = vec![group(n, share, None, None)];
    let p = Plan::resolve(&layout).ok()?;
    let tiers = Distribution::of(&p).tiers();
    let anf = s.storage.service == Service::Anf;
    // Assigned throughput split over the busiest volumes and the others.
    let split = |total: f64, quota: f64, qos: Qos| -> Vec<Option<f64>> {
        let (_, most, _) = crate::engine::plan::assignable_mibps(level, kind);
        let busy = tiers.busy;
        if busy == 0 {
            let each = (total / nf).clamp(1.0, most);
            return vec![job.cost(&job.with(
                level,
                qos,
                kind,
                vec![group(n, quota, Some(each), None)],
            ))];
        }
        (0..=SPLITS)
            .map(|i| {
                let a = i as f64 / SPLITS as f64;
                let b = (a * total / f64::from(busy)).clamp(1.0, most);
                let r = ((1.0 - a) * total / f64::from(n - busy)).clamp(1.0, most);
                job.cost(&job.with(
                    level,
                    qos,
                    kind,
                    vec![
                        group(busy, quota, Some(b), None),
                        group(n - busy, quota, Some(r), None),
                    ],
                ))
            })
            .collect()
    };
    let cheapest = |v: Vec<Option<f64>>| v.into_iter().flatten().reduce(f64::min);
    match (s.storage.service, level) {
        (Service::Anf, Level::Flexible) => {
            let most = crate::engine::plan::assignable_mibps(level, kind).1;
            first(&line(1.0, most * nf), |t| {
                cheapest(split(t, share, Qos::Manual))
            })
        }
        (Service::Gcnv, Level::Flex) | (Service::AzureFiles, Level::SsdV2 | Level::HddV2) => {
            // A provisioned rate per volume (and IOPS scaled with it when a target asks).
            let iops0 = s.workload.target_iops.map(|t| t / nf);
            let mibps0 = job.gives.or(s.workload.target_mibps).map(|t| t / nf);
            let by = |f: f64| {
                job.cost(&job.with(
                    level,
                    s.storage.qos,
                    kind,
                    vec![group(n, share, mibps0.map(|m| m * f), iops0.map(|i| i * f))],
                ))
            };
            if mibps0.is_none() && iops0.is_none() {
                return by(1.0);
            }
            first(&line(0.25, 64.0), by)
        }
        _ => {
            let auto = first(&line(share, hi), |q| {
                job.cost(&job.with(level, Qos::Auto, kind, vec![group(n, q, None, None)]))
            });
            // Manual QoS pays off only where the load is uneven: the pool's budget split.
            let manual = (anf && tiers.busy > 0).then(|| {
                let rate = catalog::anf_level(level).mibps_per_tib;
                first(&line(share * nf, hi * nf), |pool| {
                    cheapest(split(pool * rate, pool / nf, Qos::Manual))
                })
            });
            [auto, manual.flatten()]
                .into_iter()
                .flatten()
                .reduce(f64::min)
        }
    }
}

/// The cheapest provisioning on the grid over every level of the scenario's service.
fn oracle(job: &Job) -> Option<f64> {
    Level::of(job.scenario.storage.service)
        .iter()
        .filter_map(|&l| oracle_level(job, l))
        .reduce(f64::min)
}

/// A generated case: a scenario and the targets it sets.
fn case(
    service: usize,
    count: u32,
    quota: f64,
    avs: Option<(u32, u32, u32, bool)>,
    flexible_mibps: Option<f64>,
    threads: u32,
) -> Scenario {
    let (service, level) = [
        ("anf", "ultra"),
        ("anf", "premium"),
        ("anf", "standard"),
        ("anf", "flexible"),
        ("gcnv", "premium"),
        ("gcnv", "flex"),
        ("azure_files", "ssd_v1"),
        ("azure_files", "ssd_v2"),
    ][service];
    let avs = avs.filter(|_| service == "anf");
    let flexible = level == "flexible";
    let json = serde_json::json!({
        "name": "oracle",
        "workload": {"io_size_kib": 64, "read_pct": 70, "access": "random",
            "threads": threads, "queue_depth": 16, "files": "many", "metadata_heavy": false,
            "capacity_tib": quota * f64::from(count), "target_mibps": null, "target_iops": null},
        "storage": {"service": service, "level": level,
            "qos": if flexible { "manual" } else { "auto" },
            "volume_kind": "regular", "pool_tib": null,
            "volumes": [{"count": count, "quota_tib": quota,
                "throughput_mibps": if flexible { flexible_mibps.or(Some(256.0)) } else { None }}]},
        "clients": match avs {
            Some((hosts, vms, vmdks, spread)) => serde_json::json!({
                "count": hosts, "vm_size": null, "egress_mibps": null, "ingress_mibps": null,
                "protocol": "nfsv3", "nconnect": 1, "smb_multichannel": false, "smb_channels": 4,
                "avs": {"hosts": hosts, "host_sku": "AV36", "vms_per_host": vms,
                    "vmdks_per_vm": vmdks,
                    "placement": if spread { "spread" } else { "dedicated" }}}),
            None => serde_json::json!({
                "count": 4, "vm_size": "Standard_E32s_v5", "egress_mibps": null,
                "ingress_mibps": null,
                "protocol": if service == "azure_files" { "smb3" } else { "nfsv3" },
                "nconnect": 4, "smb_multichannel": service == "azure_files",
                "smb_channels": 4, "avs": null}),
        }
    });
    serde_json::from_value(json).expect("a generated case parses")
}

proptest! {
    // The same cases on every run (a fixed seed), so that a run in CI checks what a run
    // here checked; `PROPTEST_RNG_SEED` with another seed draws others.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(300),
        rng_seed: proptest::test_runner::RngSeed::Fixed(
            std::env::var("PROPTEST_RNG_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(20_261_206),
        ),
        ..ProptestConfig::default()
    })]

    #[test]
    fn sizing_is_never_more_than_one_percent_dearer_than_the_grid(
        service in 0usize..8,
        count in 1u32..12,
        quota in 1.0f64..30.0,
        avs in proptest::option::of((3u32..9, 1u32..6, 1u32..5, any::<bool>())),
        flexible_mibps in proptest::option::of(prop_oneof![2.0f64..64.0, 50.0f64..1_500.0]),
        threads in 1u32..16,
        target in 0usize..3,
        by in 0.6f64..1.6,
        fixed_count in any::<bool>(),
    ) {
        let mut s = case(service, count, quota, avs, flexible_mibps, threads);
        s.storage.fixed_count = fixed_count;
        prop_assume!(evaluate(&s).is_ok());
        let now = evaluate(&s).unwrap();
        match target {
            1 => s.workload.target_mibps = Some(now.throughput_mibps * by),
            2 => s.workload.target_latency_ms = Some(now.latency_ms * by.max(1.0)),
            _ => {}
        }
        let ev = evaluate(&s).unwrap();
        let gives = (s.workload.target_mibps.is_none()).then_some(ev.throughput_mibps);
        let job = Job { scenario: &s, gives };
        let sized = ev.sizing.iter().find(|r| r.cheapest).map(|row| {
            let applied = row.applied_to(&s);
            (row.level, job.cost(&applied), applied)
        });
        // Whatever sizing proposes validates and does the job it claims.
        if let Some((level, cost, applied)) = &sized {
            prop_assert!(cost.is_some(), "{level:?} does not do the job: {:?}", applied.storage);
        }
        let best = oracle(&job);
        if let Some(best) = best {
            let got = sized.as_ref().and_then(|(_, c, _)| *c);
            prop_assert!(got.is_some(), "the grid finds {best} but sizing nothing: {:?}", s.storage);
            let got = got.unwrap();
            let levels: Vec<_> = Level::of(s.storage.service)
                .iter()
                .map(|&l| (l, oracle_level(&job, l)))
                .collect();
            let rows: Vec<_> = ev.sizing.iter().map(|r| (r.level, r.meets, r.monthly, r.quota_tib, r.throughput_mibps)).collect();
            prop_assert!(got <= best * 1.01 + 0.01,
                "sizing {got} against the grid's {best} {levels:?}, rows {rows:?}: {:?} -> {:?}", s.storage,
                sized.as_ref().map(|(_, _, a)| &a.storage));
        }
    }
}

/// A shrunk failure: six Azure Files SSD v1 shares asked for 1.4 times their rate. Each
/// share's base rate makes more shares cheaper up to ten or twelve, between the
/// doublings 8 and 16 (which no longer meets); sizing looks between them.
#[test]
fn a_count_between_two_doublings_is_found() {
    let mut s = case(6, 6, 11.393966106817462, None, None, 5);
    let now = evaluate(&s).unwrap();
    s.workload.target_mibps = Some(now.throughput_mibps * 1.4049729339448764);
    let ev = evaluate(&s).unwrap();
    let job = Job {
        scenario: &s,
        gives: None,
    };
    let row = ev.sizing.iter().find(|r| r.cheapest).unwrap();
    let got = job.cost(&row.applied_to(&s)).expect("does what it claims");
    let best = oracle(&job).unwrap();
    assert!(
        got <= best * 1.01,
        "{got} against the grid's {best}: {row:?}"
    );
    assert!(row.volume_count > 8 && row.volume_count < 16, "{row:?}");
}
