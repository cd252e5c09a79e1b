//! Property tests of the engine's invariants over generated scenarios.

use super::catalog;
use super::evaluate;
use super::scenario::*;
use proptest::prelude::*;

#[allow(clippy::too_many_arguments)] // one argument per generated dimension
fn scenario(
    service: Service,
    level: Level,
    quota_tib: f64,
    count: u32,
    io: f64,
    read_pct: f64,
    threads: u32,
    qd: u32,
    clients: u32,
    vm: &str,
    protocol: Protocol,
    nconnect: u32,
) -> Scenario {
    Scenario {
        id: None,
        name: "property".into(),
        workload: Workload {
            io_size_kib: io,
            read_pct,
            access: Access::Random,
            threads,
            queue_depth: qd,
            files: Files::Many,
            metadata_heavy: false,
            cached_read_pct: 0.0,
            capacity_tib: quota_tib * f64::from(count),
            target_mibps: None,
            target_iops: None,
            target_latency_ms: None,
            duration_s: None,
            confidence: Default::default(),
        },
        storage: Storage {
            service,
            level,
            qos: if level == Level::Flexible {
                Qos::Manual
            } else {
                Qos::Auto
            },
            volume_kind: VolumeKind::Regular,
            fixed_count: false,
            volumes: vec![VolumeGroup {
                count,
                quota_tib,
                throughput_mibps: None,
                iops: None,
            }],
            pool_tib: None,
            cool_access: None,
        },
        clients: Clients {
            count: clients,
            vm_size: Some(vm.into()),
            egress_mibps: None,
            ingress_mibps: None,
            protocol,
            nconnect,
            smb_multichannel: protocol == Protocol::Smb3,
            smb_channels: 4,
            avs: None,
            nfs_client: NfsClient::Kernel,
            sec: Sec::Sys,
            smb_security: SmbSecurity::None,
        },
        region: None,
        pricing: None,
        data_protection: None,
        meta: None,
    }
}

/// The throughput of `s` with each of `values` applied by `set`.
fn throughputs<T: Copy>(
    s: &Scenario,
    values: impl IntoIterator<Item = T>,
    set: impl Fn(&mut Scenario, T),
) -> Vec<f64> {
    values
        .into_iter()
        .map(|x| {
            let mut v = s.clone();
            set(&mut v, x);
            evaluate(&v).unwrap().throughput_mibps
        })
        .collect()
}

/// Whether each value is at most the one before it (to rounding).
fn non_increasing(t: &[f64]) -> bool {
    t.windows(2).all(|w| w[1] <= w[0] * (1.0 + 1e-9))
}

/// An ANF NFS scenario from the generated one (the platform features are ANF's).
fn anf_nfs(mut s: Scenario, nfs4: bool) -> Scenario {
    if s.storage.service != Service::Anf {
        s.storage.service = Service::Anf;
        s.storage.level = Level::Ultra;
    }
    s.clients.protocol = if nfs4 {
        Protocol::Nfsv41
    } else {
        Protocol::Nfsv3
    };
    s.clients.smb_multichannel = false;
    s
}

/// The scenario with a throughput target, and its evaluation. The sizing properties
/// leave Azure Files out: its rows may also provision IOPS, which a row does not carry.
fn targeted(mut s: Scenario, target: f64) -> (Scenario, super::Evaluation) {
    s.workload.target_mibps = Some(target);
    let ev = evaluate(&s).unwrap();
    (s, ev)
}

fn arb_service_level() -> impl Strategy<Value = (Service, Level)> {
    prop_oneof![
        Just((Service::Anf, Level::Standard)),
        Just((Service::Anf, Level::Premium)),
        Just((Service::Anf, Level::Ultra)),
        Just((Service::Gcnv, Level::Standard)),
        Just((Service::Gcnv, Level::Premium)),
        Just((Service::Gcnv, Level::Extreme)),
        Just((Service::AzureFiles, Level::SsdV1)),
        Just((Service::AzureFiles, Level::SsdV2)),
    ]
}

fn arb_vm() -> impl Strategy<Value = String> {
    let names: Vec<String> = catalog::vm_sizes()
        .iter()
        .filter(|v| v.cloud == "azure")
        .map(|v| v.name.clone())
        .collect();
    proptest::sample::select(names)
}

prop_compose! {
    /// A scenario of any service and level with sizes, mixes and clients in range.
    pub(crate) fn arb_scenario()(
        (service, level) in arb_service_level(),
        quota in 0.1f64..90.0,
        count in 1u32..8,
        io in prop_oneof![Just(4.0), Just(8.0), Just(64.0), Just(256.0), 0.5f64..2048.0],
        read in 0.0f64..=100.0,
        threads in 1u32..64,
        qd in 1u32..64,
        clients in 1u32..32,
        vm in arb_vm(),
        nfs4 in any::<bool>(),
        nconnect in 1u32..=16,
    ) -> Scenario {
        let protocol = match (service, nfs4) {
            (Service::AzureFiles, _) => Protocol::Smb3,
            (_, true) => Protocol::Nfsv41,
            _ => Protocol::Nfsv3,
        };
        scenario(service, level, quota, count, io, read, threads, qd, clients, &vm, protocol, nconnect)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn throughput_is_io_size_times_iops_and_read_plus_write(s in arb_scenario()) {
        let ev = evaluate(&s).unwrap();
        let io = s.workload.io_size_kib;
        prop_assert!((ev.throughput_mibps - ev.iops * io / 1024.0).abs() <= 1e-9 * ev.throughput_mibps.max(1.0));
        prop_assert!((ev.read_mibps + ev.write_mibps - ev.throughput_mibps).abs() <= 1e-9 * ev.throughput_mibps.max(1.0));
        prop_assert!(ev.throughput_mibps > 0.0 && ev.throughput_mibps.is_finite());
    }

    #[test]
    fn the_binding_limit_is_the_smallest_and_no_ceiling_is_exceeded(s in arb_scenario()) {
        let ev = evaluate(&s).unwrap();
        let binding = ev.limits.iter().find(|l| l.id == ev.binding).unwrap();
        prop_assert!(binding.headroom_pct >= -1e-6, "the rate exceeds its binding ceiling");
        for l in &ev.limits {
            prop_assert!(l.headroom_pct >= binding.headroom_pct - 1e-6, "{} is below the binding limit", l.id);
        }
    }

    #[test]
    fn more_quota_never_lowers_the_figure(s in arb_scenario(), grow in 1.0f64..4.0) {
        let before = evaluate(&s).unwrap().throughput_mibps;
        let mut bigger = s.clone();
        bigger.storage.volumes[0].quota_tib = (s.storage.volumes[0].quota_tib * grow).min(100.0);
        let after = evaluate(&bigger).unwrap().throughput_mibps;
        prop_assert!(after >= before * (1.0 - 1e-9), "{before} -> {after}");
    }

    #[test]
    fn a_higher_level_never_lowers_the_figure(s in arb_scenario()) {
        let order = match s.storage.service {
            Service::Anf => [Level::Standard, Level::Premium, Level::Ultra],
            Service::Gcnv => [Level::Standard, Level::Premium, Level::Extreme],
            Service::AzureFiles => return Ok(()),
        };
        let mut last = 0.0;
        for level in order {
            let mut v = s.clone();
            v.storage.set_level(level);
            let t = evaluate(&v).unwrap().throughput_mibps;
            prop_assert!(t >= last * (1.0 - 1e-9), "{level:?}: {last} -> {t}");
            last = t;
        }
    }

    #[test]
    fn more_nconnect_never_lowers_the_figure(s in arb_scenario()) {
        let mut last = 0.0;
        for n in 1..=16 {
            let mut v = s.clone();
            v.clients.nconnect = n;
            let t = evaluate(&v).unwrap().throughput_mibps;
            prop_assert!(t >= last * (1.0 - 1e-9), "nconnect {n}: {last} -> {t}");
            last = t;
        }
    }

    #[test]
    fn a_bigger_vm_never_lowers_the_figure(s in arb_scenario(), other in arb_vm()) {
        let a = catalog::vm_size(s.clients.vm_size.as_deref().unwrap()).unwrap();
        let b = catalog::vm_size(&other).unwrap();
        let bigger = b.egress_mbps >= a.egress_mbps
            && b.vcpu >= a.vcpu
            && b.nic_gbps.unwrap_or(f64::INFINITY) >= a.nic_gbps.unwrap_or(f64::INFINITY);
        prop_assume!(bigger);
        let before = evaluate(&s).unwrap().throughput_mibps;
        let mut v = s.clone();
        v.clients.vm_size = Some(other);
        let after = evaluate(&v).unwrap().throughput_mibps;
        prop_assert!(after >= before * (1.0 - 1e-9), "{before} -> {after}");
    }

    #[test]
    fn a_sizing_row_that_meets_does_meet_when_evaluated(
        s in arb_scenario(),
        target in 10.0f64..6_000.0,
    ) {
        prop_assume!(s.storage.service != Service::AzureFiles);
        let (s, ev) = targeted(s, target);
        for row in ev.sizing.iter().filter(|r| r.meets) {
            prop_assert!(row.quota_tib >= s.workload.capacity_tib * (1.0 - 1e-9));
            let got = evaluate(&row.applied_to(&s)).unwrap().throughput_mibps;
            prop_assert!(super::same::reaches(got, target), "{:?}: {got} < {target}", row.level);
        }
    }

    #[test]
    fn a_level_that_could_meet_is_sized_to_meet(
        s in arb_scenario(),
        target in 10.0f64..6_000.0,
    ) {
        // The largest regular volume of a throughput-per-TiB level is the most it can do;
        // if that meets the target, the table must have found a quota that does.
        prop_assume!(s.storage.service != Service::AzureFiles);
        let (s, ev) = targeted(s, target);
        for row in ev.sizing.iter().filter(|r| !r.meets && !matches!(r.level, Level::Flexible | Level::Flex)) {
            let mut largest = s.clone();
            largest.storage.set_level(row.level);
            largest.storage.volumes[0].quota_tib = 100.0;
            largest.workload.capacity_tib = largest.workload.capacity_tib.max(100.0 * f64::from(s.storage.volumes[0].count));
            let best = evaluate(&largest).unwrap().throughput_mibps;
            prop_assert!(!super::same::reaches(best, target), "{:?} reaches {best} at 100 TiB but was not sized for {target}", row.level);
        }
    }

    #[test]
    fn without_targets_the_own_level_meets_what_it_achieves(s in arb_scenario()) {
        prop_assume!(s.storage.service != Service::AzureFiles);
        let ev = evaluate(&s).unwrap();
        let own = ev.sizing.iter().find(|r| r.level == s.storage.level).unwrap();
        prop_assert_eq!(own.basis, crate::engine::SizingBasis::Current);
        prop_assert!(own.meets, "{:?}", own);
    }
}

/// The queueing model's own invariants, on the network of random scenarios.
mod queueing {
    use super::*;
    use crate::engine::limits::LimitSet;
    use crate::engine::model_step::core;
    use crate::engine::plan::Plan;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn latency_never_falls_as_load_rises(s in arb_scenario()) {
            let ev = evaluate(&s).unwrap();
            let points: Vec<_> = ev.latency_curve.points().collect();
            prop_assert!(points.len() >= 10);
            prop_assert_eq!(points.last().unwrap().load_pct, 100.0);
            for w in points.windows(2) {
                prop_assert!(w[1].load_pct > w[0].load_pct);
                prop_assert!(w[1].latency_ms >= w[0].latency_ms, "{:?}", w);
            }
            prop_assert!((points.last().unwrap().latency_ms - ev.latency_ms).abs() <= 1e-9 * ev.latency_ms);
        }

        #[test]
        fn more_outstanding_ios_never_lower_throughput(s in arb_scenario(), extra in 1u32..8) {
            let before = evaluate(&s).unwrap().throughput_mibps;
            let mut more = s.clone();
            more.workload.queue_depth = (s.workload.queue_depth * extra).min(1024);
            let after = evaluate(&more).unwrap().throughput_mibps;
            prop_assert!(after >= before * (1.0 - 1e-9), "{before} -> {after}");
        }

        #[test]
        fn the_limits_of_the_model_hold(s in arb_scenario()) {
            // Many outstanding IOs reach the smallest ceiling; one is Little's law.
            let plan = Plan::resolve(&s).unwrap();
            let mut set = LimitSet::default();
            let c = core(&plan, &mut set);
            let net = c.network;
            let many = net.solve(1e6).iops;
            let smallest = net.min_capacity();
            prop_assert!(many <= smallest * (1.0 + 1e-12) && many >= 0.98 * smallest, "{many} vs {smallest}");
            // One IO at a time: 1 / unloaded latency, unless a ceiling is lower still.
            let one = net.solve(1.0).iops;
            let little = (1.0 / net.unloaded_s()).min(smallest);
            prop_assert!((one / little - 1.0).abs() <= 0.05, "{one} vs {little}");
        }


        #[test]
        fn the_likely_range_contains_the_central_figure(s in arb_scenario()) {
            let ev = evaluate(&s).unwrap();
            let within = |[lo, hi]: [f64; 2], x: f64| lo <= x * (1.0 + 1e-9) && x <= hi * (1.0 + 1e-9) && lo > 0.0;
            prop_assert!(within(ev.throughput_mibps_range, ev.throughput_mibps), "{:?} vs {}", ev.throughput_mibps_range, ev.throughput_mibps);
            prop_assert!(within(ev.iops_range, ev.iops), "{:?} vs {}", ev.iops_range, ev.iops);
            prop_assert!(within(ev.latency_ms_range, ev.latency_ms), "{:?} vs {}", ev.latency_ms_range, ev.latency_ms);
        }

        #[test]
        fn the_latency_band_never_inverts_along_the_curve(s in arb_scenario()) {
            let ev = evaluate(&s).unwrap();
            let points: Vec<_> = ev.latency_curve.points().collect();
            for p in &points {
                prop_assert!(p.latency_ms_low <= p.latency_ms && p.latency_ms <= p.latency_ms_high, "{:?}", p);
            }
            for w in points.windows(2) {
                prop_assert!(w[1].latency_ms_low >= w[0].latency_ms_low && w[1].latency_ms_high >= w[0].latency_ms_high, "{:?}", w);
            }
        }

        #[test]
        fn the_likely_range_never_exceeds_the_smallest_documented_ceiling(s in arb_scenario()) {
            let ev = evaluate(&s).unwrap();
            // With the load's duration unknown the range reaches the burst rate: the
            // ceilings that bound it are those of a load short enough to burst.
            let mut short = s.clone();
            short.workload.duration_s = Some(1.0);
            let short = evaluate(&short).unwrap();
            let documented = short
                .limits
                .iter()
                .filter(|l| l.source.kind == crate::engine::source::SourceKind::Documented)
                .map(|l| short.throughput_mibps * (1.0 + l.headroom_pct / 100.0))
                .fold(f64::INFINITY, f64::min);
            prop_assert!(ev.throughput_mibps_range[1] <= documented * (1.0 + 1e-9), "{:?} above {documented}", ev.throughput_mibps_range);
        }

        #[test]
        fn the_azure_files_range_at_unknown_duration_contains_baseline_and_burst(
            s in arb_scenario(),
            level in prop_oneof![Just(Level::SsdV1), Just(Level::SsdV2), Just(Level::HddV2)],
        ) {
            let mut s = s;
            s.storage.service = Service::AzureFiles;
            s.storage.level = level;
            s.clients.protocol = Protocol::Smb3;
            s.clients.smb_multichannel = true;
            let ev = evaluate(&s).unwrap();
            let at = |d: f64| {
                let mut v = s.clone();
                v.workload.duration_s = Some(d);
                evaluate(&v).unwrap().throughput_mibps
            };
            let (burst, baseline) = (at(1.0), at(1e9));
            let [lo, hi] = ev.throughput_mibps_range;
            prop_assert!(burst >= baseline * (1.0 - 1e-9), "burst {burst} below baseline {baseline}");
            for x in [baseline, burst] {
                prop_assert!(lo <= x * (1.0 + 1e-9) && x <= hi * (1.0 + 1e-9), "{x} outside [{lo}, {hi}]");
            }
        }

        #[test]
        fn a_shorter_load_never_gets_less(s in arb_scenario(), d in 1.0f64..1e6) {
            let t = throughputs(&s, [d, 2.0 * d, 10.0 * d], |v, x| v.workload.duration_s = Some(x));
            prop_assert!(non_increasing(&t), "{t:?}");
        }

        #[test]
        fn stronger_kerberos_never_raises_throughput(s in arb_scenario(), meta in any::<bool>()) {
            let mut s = anf_nfs(s, true);
            s.workload.metadata_heavy = meta;
            let t = throughputs(&s, [Sec::Sys, Sec::Krb5, Sec::Krb5i, Sec::Krb5p], |v, sec| v.clients.sec = sec);
            prop_assert!(non_increasing(&t), "sys, krb5, krb5i, krb5p: {t:?}");
        }

        #[test]
        fn more_cool_reads_never_raise_throughput(s in arb_scenario(), seq in any::<bool>()) {
            let mut s = anf_nfs(s, false);
            if seq {
                s.workload.access = Access::Sequential;
            }
            let t = throughputs(&s, [0.0, 10.0, 25.0, 50.0, 75.0, 100.0], |v, pct| {
                v.storage.cool_access = Some(CoolAccess { cool_data_pct: pct, cool_read_pct: pct, retrieved_pct_per_month: None });
            });
            prop_assert!(non_increasing(&t), "cool reads 0 to 100 %: {t:?}");
        }

        #[test]
        fn more_reads_from_the_storage_cache_never_lower_throughput(s in arb_scenario()) {
            let t = throughputs(&s, [0.0, 25.0, 50.0, 100.0], |v, pct| v.workload.cached_read_pct = pct);
            prop_assert!(t.windows(2).all(|w| w[1] >= w[0] * (1.0 - 1e-9)), "cached reads 0 to 100 %: {t:?}");
        }

        #[test]
        fn applying_the_cheapest_row_keeps_it_the_cheapest(s in arb_scenario(), above in 0.8f64..1.5) {
            let mut s = s;
            s.workload.target_mibps = Some(evaluate(&s).unwrap().throughput_mibps * above);
            let ev = evaluate(&s).unwrap();
            if let Some(row) = ev.sizing.iter().find(|r| r.cheapest) {
                let applied = row.applied_to(&s);
                let again = evaluate(&applied).unwrap();
                let next = again.sizing.iter().find(|r| r.cheapest);
                prop_assert!(next.is_some(), "{:?} no longer meets", row.level);
                let next = next.unwrap();
                prop_assert_eq!(next.level, row.level);
                prop_assert_eq!(next.monthly, again.cost.monthly, "applied {:?}, next {:?}", applied.storage.volumes, next);
            }
        }

        #[test]
        fn dnfs_never_gives_less_than_one_kernel_connection(s in arb_scenario(), nfs4 in any::<bool>()) {
            let mut kernel = anf_nfs(s, nfs4);
            kernel.clients.nconnect = 1;
            let mut dnfs = kernel.clone();
            dnfs.clients.nfs_client = NfsClient::Dnfs;
            let k = evaluate(&kernel).unwrap().throughput_mibps;
            let d = evaluate(&dnfs).unwrap().throughput_mibps;
            prop_assert!(d >= k * (1.0 - 1e-9), "kernel {k} -> dnfs {d}");
        }

        #[test]
        fn nfsv41_never_beats_nfsv3_on_a_metadata_heavy_workload(s in arb_scenario(), gcnv in any::<bool>()) {
            let mut s = s;
            s.workload.metadata_heavy = true;
            let (mut v3, mut v41) = (anf_nfs(s.clone(), false), anf_nfs(s, true));
            if gcnv {
                for x in [&mut v3, &mut v41] {
                    x.storage.service = Service::Gcnv;
                    x.storage.level = Level::Premium;
                }
            }
            let (a, b) = (evaluate(&v3).unwrap(), evaluate(&v41).unwrap());
            prop_assert!(b.throughput_mibps <= a.throughput_mibps * (1.0 + 1e-9), "NFSv3 {} < NFSv4.1 {}", a.throughput_mibps, b.throughput_mibps);
            let (d3, d41) = (round_trip(&v3), round_trip(&v41));
            prop_assert!(d41 >= d3, "round trip NFSv3 {d3} > NFSv4.1 {d41}");
        }

        #[test]
        fn a_smaller_vm_never_has_a_shorter_round_trip(s in arb_scenario(), other in arb_vm()) {
            let a = catalog::vm_size(s.clients.vm_size.as_deref().unwrap()).unwrap();
            let b = catalog::vm_size(&other).unwrap();
            prop_assume!(b.egress_mbps < a.egress_mbps);
            let mut small = s.clone();
            small.clients.vm_size = Some(other);
            let (big, small) = (round_trip(&s), round_trip(&small));
            prop_assert!(small >= big, "smaller VM {small} s < {big} s");
        }
    }
}

/// The round trip without queueing of scenario `s`, s.
fn round_trip(s: &Scenario) -> f64 {
    let plan = super::plan::Plan::resolve(s).unwrap();
    super::client::delay(&plan).0
}
