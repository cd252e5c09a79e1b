//! Benchmark result import: parsers on the fixtures, measured vs predicted, scenarios from
//! results, test plans, and the API and CLI around them.

use proptest::prelude::*;
use serde_json::json;
use volplan::engine::limits::Scope;
use volplan::engine::scenario::Access;
use volplan::engine::{Evaluation, Limit, Scenario, evaluate};
use volplan::measure::{self, Format, GapClass, Measurement, Tool};
use volplan::verdict::measured::{self, Comparison};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/import/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn one(name: &str) -> (Measurement, Vec<String>) {
    let r = measure::parse(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(r.measurements.len(), 1, "{name}: {:?}", r.measurements);
    (r.measurements[0].clone(), r.warnings)
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-9)
}

#[test]
fn fio3_group_reporting_matches_the_documented_example() {
    let (m, w) = one("fio-3.36-group-reporting.json");
    assert_eq!(m.tool, Tool::Fio);
    assert!(close(m.iops, 26_666.67, 1e-4), "{}", m.iops);
    assert!(close(m.mibps, 104.17, 1e-3), "{}", m.mibps);
    assert!(close(m.read_pct, 75.0, 1e-9));
    assert!(close(m.io_size_kib, 4.0, 1e-9));
    assert_eq!(
        (m.threads, m.queue_depth, m.outstanding, m.clients),
        (4, 32, 128, 1)
    );
    assert_eq!(m.access, Some(Access::Random));
    assert!(close(m.runtime_s, 60.0, 1e-9));
    let mean = m.latency_mean_ms.unwrap();
    assert!(close(mean, 4.806, 1e-3), "{mean}");
    // Little's law holds in the example: outstanding / IOPS = latency.
    assert!(close(
        f64::from(m.outstanding) / m.iops * 1000.0,
        mean,
        0.01
    ));
    let p50 = m.latency_p50_ms.unwrap();
    let p99 = m.latency_p99_ms.unwrap();
    assert!(p50 > 4.29 && p50 < 5.02, "{p50}");
    assert!(p99 > 10.5 && p99 < 12.92, "{p99}");
    assert!(w.is_empty(), "{w:?}");
}

#[test]
fn fio3_single_job_with_numjobs_missing() {
    let (m, _) = one("fio-3.36-single-job.json");
    assert!(close(m.iops, 20_800.0, 1e-6));
    assert!(close(m.mibps, 1300.0, 1e-3), "{}", m.mibps);
    assert_eq!(m.read_pct, 100.0);
    assert_eq!(m.io_size_kib, 64.0);
    assert_eq!((m.threads, m.queue_depth, m.outstanding), (1, 16, 16));
    assert_eq!(m.access, Some(Access::Sequential));
    // lat_ns has percentiles here (lat_percentiles=1): they win over clat_ns.
    let p50 = m.latency_p50_ms.unwrap();
    assert!(close(p50, 0.757, 0.01), "{p50}");
}

#[test]
fn fio_error_lines_before_the_json_become_warnings() {
    let (m, w) = one("fio-3.28-error-line-before-json.json");
    assert!(close(m.iops, 4050.0, 1e-6));
    assert_eq!(m.read_pct, 0.0);
    assert_eq!(m.io_size_kib, 8.0);
    assert!(w.iter().any(|x| x.contains("pid=48211")), "{w:?}");
    assert!(w.iter().any(|x| x.contains("error 5")), "{w:?}");
}

#[test]
fn fio2_units_are_kib_and_microseconds() {
    let (m, w) = one("fio-2.2.10-units.json");
    assert!(w.iter().any(|x| x.contains("2.x")), "{w:?}");
    assert!(close(m.iops, 20_200.0, 1e-3), "{}", m.iops);
    assert!(close(m.io_size_kib, 8.0, 1e-9), "{}", m.io_size_kib);
    assert!(close(m.mibps, 20_200.0 * 8.0 / 1024.0, 1e-3), "{}", m.mibps);
    assert_eq!((m.threads, m.queue_depth, m.outstanding), (2, 16, 32));
    let mean = m.latency_mean_ms.unwrap();
    assert!(mean > 1.5 && mean < 1.7, "{mean}");
    let p99 = m.latency_p99_ms.unwrap();
    assert!(p99 > 3.9 && p99 < 4.0, "{p99}");
}

#[test]
fn fio_client_stats_add_hosts_and_skip_the_all_clients_sum() {
    let (m, _) = one("fio-3.35-client-stats.json");
    assert_eq!(m.clients, 2);
    assert_eq!((m.threads, m.queue_depth, m.outstanding), (4, 16, 128));
    let ios = 1_800_000.0 + 600_000.0 + 1_740_000.0 + 580_000.0;
    assert!(close(m.iops, ios / 60.0, 1e-6), "{}", m.iops);
    assert!(close(m.read_pct, 75.0, 1e-3));
}

#[test]
fn fio_several_files_are_several_clients() {
    let a = fixture("fio-3.36-several-files-vm1.json");
    let b = fixture("fio-3.36-several-files-vm2.json");
    let one_file = measure::parse(&a).unwrap().measurements[0].clone();
    let r = measure::parse_many(&[&a, &b]).unwrap();
    assert_eq!(r.format, Format::FioJson);
    let m = &r.measurements[0];
    assert_eq!(m.clients, 2);
    assert_eq!((m.threads, m.queue_depth, m.outstanding), (2, 8, 32));
    assert_eq!(m.io_size_kib, 256.0);
    assert!(m.iops > 1.9 * one_file.iops && m.iops < 2.0 * one_file.iops);
    assert_eq!(m.access, Some(Access::Sequential));
}

#[test]
fn real_fio_output() {
    let (m, _) = one("fio-3.33-real-randrw-numjobs2.json");
    assert_eq!((m.threads, m.queue_depth, m.outstanding), (2, 4, 8));
    assert!((m.read_pct - 70.0).abs() < 5.0, "{}", m.read_pct);
    assert!(close(m.io_size_kib, 4.0, 1e-9));
    assert!(m.iops > 0.0 && m.latency_mean_ms.is_some() && m.latency_p99_ms.is_some());
}

#[test]
fn diskspd_totals_come_from_threads_and_targets() {
    let (m, w) = one("diskspd-2.1-two-targets-four-threads.xml");
    assert_eq!(m.tool, Tool::Diskspd);
    assert!(close(m.iops, 2_093_900.0 / 60.0, 1e-9), "{}", m.iops);
    assert!(close(
        m.mibps,
        2_093_900.0 * 8192.0 / 60.0 / 1_048_576.0,
        1e-9
    ));
    assert!(close(m.read_pct, 70.0, 1e-3));
    assert_eq!(m.io_size_kib, 8.0);
    assert_eq!(
        (m.threads, m.queue_depth, m.outstanding, m.clients),
        (4, 8, 32, 1)
    );
    assert_eq!(m.latency_mean_ms, Some(0.917));
    assert_eq!(m.latency_p50_ms, Some(0.846));
    assert!(close(m.latency_p99_ms.unwrap(), 2.2, 0.01));
    assert_eq!(m.access, Some(Access::Random));
    assert!(m.label.contains("io1.dat"), "{}", m.label);
    assert!(w.is_empty(), "{w:?}");
}

#[test]
fn diskspd_utf16_as_written_by_powershell() {
    let text = String::from_utf8(fixture("diskspd-2.1-two-targets-four-threads.xml")).unwrap();
    let mut bytes = vec![0xFF, 0xFE];
    for u in text.encode_utf16() {
        bytes.extend_from_slice(&u.to_le_bytes());
    }
    let r = measure::parse(&bytes).unwrap();
    assert_eq!(r.format, Format::DiskspdXml);
    assert_eq!(r.measurements[0].outstanding, 32);
}

#[test]
fn diskspd_random_access_hint_is_not_random_io() {
    let text = String::from_utf8(fixture("diskspd-2.1-two-targets-four-threads.xml")).unwrap();
    let seq = text
        .replace("<Random>8192</Random>", "<StrideSize>8192</StrideSize>")
        .replace(
            "<RandomAccess>false</RandomAccess>",
            "<RandomAccess>true</RandomAccess>",
        );
    let r = measure::parse(seq.as_bytes()).unwrap();
    assert_eq!(r.measurements[0].access, Some(Access::Sequential));
    assert!(
        r.warnings.iter().any(|w| w.contains("hint")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn diskspd_without_latency() {
    let text = String::from_utf8(fixture("diskspd-2.1-two-targets-four-threads.xml")).unwrap();
    let start = text.find("    <Latency ").unwrap();
    let end = text.find("</Latency>").unwrap() + "</Latency>".len();
    let mut no_l = text.clone();
    no_l.replace_range(start..end, "");
    let r = measure::parse(no_l.as_bytes()).unwrap();
    let m = &r.measurements[0];
    // The per-target averages still give a mean; percentiles need -L's histogram.
    assert!(close(m.latency_mean_ms.unwrap(), 0.917, 0.01));
    assert_eq!(m.latency_p50_ms, None);
}

#[test]
fn elbencho_rows_and_rwmix() {
    let r = measure::parse(&fixture("elbencho-3.0-seq-and-rwmix.csv")).unwrap();
    assert_eq!(r.format, Format::ElbenchoCsv);
    assert_eq!(r.measurements.len(), 3, "{:?}", r.measurements);
    assert!(
        r.warnings.iter().any(|w| w.contains("MKDIRS")),
        "{:?}",
        r.warnings
    );
    let w = &r.measurements[0];
    assert_eq!(
        (w.iops, w.mibps, w.read_pct, w.io_size_kib),
        (952.0, 952.0, 0.0, 1024.0)
    );
    assert_eq!(
        (w.threads, w.queue_depth, w.clients, w.outstanding),
        (16, 4, 2, 128)
    );
    assert_eq!(w.latency_mean_ms, Some(134.454));
    assert_eq!(w.access, Some(Access::Sequential));
    let rd = &r.measurements[1];
    assert_eq!((rd.read_pct, rd.iops), (100.0, 1750.0));
    let mix = &r.measurements[2];
    assert_eq!(mix.iops, 51_200.0);
    assert!(close(mix.read_pct, 70.0, 1e-9));
    assert!(close(mix.mibps, 200.0, 1e-9), "{}", mix.mibps);
    assert!(close(mix.latency_mean_ms.unwrap(), 2.501, 1e-3));
    assert_eq!(mix.access, Some(Access::Random));
    assert_eq!(mix.latency_p99_ms, None);
}

#[test]
fn every_fixture_parses_and_is_internally_consistent() {
    for name in [
        "fio-3.36-group-reporting.json",
        "fio-3.36-single-job.json",
        "fio-3.28-error-line-before-json.json",
        "fio-2.2.10-units.json",
        "fio-3.35-client-stats.json",
        "fio-3.36-several-files-vm1.json",
        "fio-3.33-real-randrw-numjobs2.json",
        "diskspd-2.1-two-targets-four-threads.xml",
        "elbencho-3.0-seq-and-rwmix.csv",
    ] {
        for m in measure::parse(&fixture(name)).unwrap().measurements {
            assert!(close(m.iops, m.read_iops + m.write_iops, 1e-9), "{name}");
            assert!(close(m.mibps, m.read_mibps + m.write_mibps, 1e-9), "{name}");
            assert!(
                close(m.mibps, m.iops * m.io_size_kib / 1024.0, 0.01),
                "{name}"
            );
            assert!(m.outstanding >= m.clients, "{name}");
            assert_eq!(
                m.outstanding,
                m.threads * m.queue_depth * m.clients,
                "{name}"
            );
            // JSON round trip (stored measurements are read back).
            let json = serde_json::to_string(&m).unwrap();
            let back: Measurement = serde_json::from_str(&json).unwrap();
            assert!(
                close(back.mibps, m.mibps, 1e-12) && back.outstanding == m.outstanding,
                "{name}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn no_panic_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = measure::parse(&bytes);
    }

    #[test]
    fn no_panic_on_damaged_fixtures(
        which in 0usize..4,
        cut in 0usize..20_000,
        flips in proptest::collection::vec((0usize..20_000, any::<u8>()), 0..8),
    ) {
        let name = [
            "fio-3.36-group-reporting.json",
            "fio-2.2.10-units.json",
            "diskspd-2.1-two-targets-four-threads.xml",
            "elbencho-3.0-seq-and-rwmix.csv",
        ][which];
        let mut bytes = fixture(name);
        for (pos, b) in flips {
            let len = bytes.len();
            bytes[pos % len] = b;
        }
        bytes.truncate(cut.min(bytes.len()));
        let _ = measure::parse(&bytes);
    }
}

/// One 4 TiB ANF Premium volume read by one E32s_v5 over NFSv3 with nconnect 4.
fn premium_volume() -> Scenario {
    serde_json::from_value(json!({
        "name": "ANF Premium 4 TiB",
        "workload": { "io_size_kib": 64, "read_pct": 100, "access": "sequential",
                      "threads": 8, "queue_depth": 16, "capacity_tib": 4 },
        "storage": { "service": "anf", "level": "premium",
                     "volumes": [ { "count": 1, "quota_tib": 4 } ] },
        "clients": { "count": 1, "vm_size": "Standard_E32s_v5", "protocol": "nfsv3", "nconnect": 4 }
    }))
    .expect("scenario JSON")
}

/// A measurement with Little's law built in: latency = outstanding / IOPS.
fn measured(
    io_kib: f64,
    read_pct: f64,
    iops: f64,
    threads: u32,
    qd: u32,
    clients: u32,
) -> Measurement {
    let outstanding = threads * qd * clients;
    Measurement {
        tool: Tool::Fio,
        label: "test".to_owned(),
        iops,
        mibps: iops * io_kib / 1024.0,
        read_pct,
        io_size_kib: io_kib,
        threads,
        queue_depth: qd,
        outstanding,
        clients,
        latency_mean_ms: Some(f64::from(outstanding) / iops * 1000.0),
        latency_p50_ms: None,
        latency_p99_ms: None,
        read_iops: iops * read_pct / 100.0,
        write_iops: iops * (1.0 - read_pct / 100.0),
        read_mibps: iops * read_pct / 100.0 * io_kib / 1024.0,
        write_mibps: iops * (1.0 - read_pct / 100.0) * io_kib / 1024.0,
        access: Some(Access::Sequential),
        runtime_s: 120.0,
    }
}

/// The engine's prediction for the measurement's variant of `base`.
fn prediction(base: &Scenario, m: &Measurement) -> Evaluation {
    evaluate(&measure::against_predicted::variant(base, m)).expect("the variant evaluates")
}

/// The prediction for a 64 KiB probe run of one client with `read_pct` reads and
/// `threads` x `qd` IOs in flight.
fn probe_prediction(base: &Scenario, read_pct: f64, threads: u32, qd: u32) -> Evaluation {
    prediction(base, &measured(64.0, read_pct, 1000.0, threads, qd, 1))
}

/// The binding limit of `p`, which must apply at `scope`.
fn binding_at(p: &Evaluation, scope: Scope) -> &Limit {
    let binding = p.limits.iter().find(|l| l.id == p.binding).unwrap();
    assert_eq!(binding.scope, scope, "{}", p.binding);
    binding
}

/// The comparison of run `m` with `base`, which must fall in `class`.
fn compare_as(base: &Scenario, m: &Measurement, class: GapClass) -> Comparison {
    let c = measured::compare(base, m, volplan::engine::pricing::book()).unwrap();
    assert_eq!(c.run.class, class, "{}", c.sentence);
    c
}

#[test]
fn a_run_at_the_prediction_is_at_a_ceiling() {
    let base = premium_volume();
    let p = probe_prediction(&base, 100.0, 8, 16);
    assert_ne!(
        p.binding, "concurrency",
        "the test needs a ceiling that is not concurrency"
    );
    let m = measured(64.0, 100.0, p.iops, 8, 16, 1);
    let c = measured::compare(&base, &m, volplan::engine::pricing::book()).unwrap();
    assert!((c.run.ratio - 1.0).abs() < 1e-9, "{}", c.run.ratio);
    assert!(
        matches!(
            c.run.class,
            GapClass::AtStorageCeiling | GapClass::AtClientCeiling | GapClass::ConnectionBound
        ),
        "{:?}: {}",
        c.run.class,
        c.sentence
    );
    assert!(
        c.sentence.starts_with("At the ") || c.sentence.starts_with("Connection-bound"),
        "{}",
        c.sentence
    );
    assert!(c.sentence.contains("ceiling") || c.run.class == GapClass::ConnectionBound);
    assert_eq!(c.run.limit.as_ref().map(|l| l.id), Some(p.binding));
}

#[test]
fn a_storage_bound_run_names_the_storage_ceiling() {
    let base = premium_volume();
    let p = probe_prediction(&base, 100.0, 8, 16);
    let binding = binding_at(&p, Scope::Volume);
    let m = measured(64.0, 100.0, p.iops * 0.95, 8, 16, 1);
    let c = compare_as(&base, &m, GapClass::AtStorageCeiling);
    assert!(
        c.sentence.starts_with("At the storage ceiling"),
        "{}",
        c.sentence
    );
    assert!(
        c.sentence.contains(&binding.label.to_string()),
        "{}",
        c.sentence
    );
}

#[test]
fn half_as_fast_with_few_ios_in_flight_is_concurrency_bound() {
    let base = premium_volume();
    // One thread, queue depth 2: two IOs in flight.
    let p = probe_prediction(&base, 100.0, 1, 2);
    let m = measured(64.0, 100.0, p.iops / 2.0, 1, 2, 1);
    let c = compare_as(&base, &m, GapClass::ConcurrencyBound);
    // Little's law: at the measured latency the prediction needs twice the IOs in flight.
    let needed = c.run.needed_outstanding.unwrap();
    assert_eq!(needed, 4, "{}", c.sentence);
    assert!(
        c.sentence.contains("about 4 outstanding IOs"),
        "{}",
        c.sentence
    );
    assert!(c.sentence.contains("Little's law"), "{}", c.sentence);
}

#[test]
fn far_below_with_the_queue_not_kept_full_is_unexplained() {
    let base = premium_volume();
    let p = probe_prediction(&base, 100.0, 8, 16);
    let mut m = measured(64.0, 100.0, p.iops * 0.3, 8, 16, 1);
    // Latency far too low for 128 IOs in flight: the tool did not keep its queue full.
    m.latency_mean_ms = Some(0.5);
    let c = compare_as(&base, &m, GapClass::Unexplained);
    assert!(
        c.checks.iter().any(|x| x.contains("IOs in flight")),
        "{:?}",
        c.checks
    );
    assert!(
        c.checks.iter().any(|x| x.contains("nconnect=4")),
        "{:?}",
        c.checks
    );
    assert!(c.sentence.contains("70% below"), "{}", c.sentence);
}

#[test]
fn faster_than_every_ceiling_is_above_the_prediction() {
    let base = premium_volume();
    let p = probe_prediction(&base, 100.0, 8, 16);
    // 1.6 x, and right at each higher (non-binding) ceiling: the smallest ceiling was
    // exceeded either way, so no ceiling explains the run.
    let higher = p
        .limits
        .iter()
        .map(|l| 1.0 + l.headroom_pct / 100.0)
        .filter(|f| *f > 1.2);
    for factor in std::iter::once(1.6).chain(higher) {
        let m = measured(64.0, 100.0, p.iops * factor, 8, 16, 1);
        let c = measured::compare(&base, &m, volplan::engine::pricing::book()).unwrap();
        assert_eq!(
            c.run.class,
            GapClass::AbovePrediction,
            "x{factor}: {}",
            c.sentence
        );
        assert!(c.sentence.contains("direct=1"), "{}", c.sentence);
        assert!(c.run.limit.is_none());
    }
}

#[test]
fn a_client_bound_write_names_the_client_ceiling() {
    let mut base = premium_volume();
    base.storage.volumes[0].quota_tib = 100.0;
    base.clients.vm_size = None;
    base.clients.egress_mibps = Some(200.0);
    base.clients.ingress_mibps = Some(200.0);
    let p = probe_prediction(&base, 0.0, 8, 16);
    binding_at(&p, Scope::Client);
    let m = measured(64.0, 0.0, p.iops * 0.97, 8, 16, 1);
    let c = compare_as(&base, &m, GapClass::AtClientCeiling);
    assert!(
        c.sentence.starts_with("At the client ceiling"),
        "{}",
        c.sentence
    );
}

#[test]
fn the_variant_uses_the_measured_io_size_mix_and_concurrency() {
    let base = premium_volume();
    let (m, _) = one("fio-3.35-client-stats.json");
    let v = measure::against_predicted::variant(&base, &m);
    assert_eq!(v.workload.io_size_kib, 8.0);
    assert!((v.workload.read_pct - 75.0).abs() < 0.01);
    assert_eq!(v.workload.access, Access::Random);
    assert_eq!(
        (v.workload.threads, v.workload.queue_depth, v.clients.count),
        (4, 16, 2)
    );
    assert_eq!(v.storage, base.storage);
}

#[test]
fn on_avs_the_ios_in_flight_spread_over_the_vms() {
    let base: Scenario = serde_json::from_value(crate::helpers::sample_scenario()).unwrap();
    let (m, _) = one("fio-3.35-client-stats.json");
    assert_eq!(m.outstanding, 128);
    let v = measure::against_predicted::variant(&base, &m);
    // 4 AVS hosts x 1 VM keep their count; 128 IOs in flight are 32 per VM.
    assert_eq!(v.clients, base.clients);
    assert_eq!((v.workload.threads, v.workload.queue_depth), (4, 8));
    measured::compare(&base, &m, volplan::engine::pricing::book())
        .expect("the AVS variant evaluates");
}

#[test]
fn a_new_scenario_from_a_result() {
    let (m, _) = one("fio-3.36-group-reporting.json");
    let s = measure::scenario_from(&m, None);
    volplan::engine::check(&s, volplan::engine::pricing::book()).unwrap();
    let w = &s.workload;
    assert_eq!(
        (w.io_size_kib, w.read_pct, w.access),
        (4.0, 75.0, Access::Random)
    );
    assert_eq!((w.threads, w.queue_depth, s.clients.count), (4, 32, 1));
    assert_eq!(w.target_iops, Some(26_667.0));
    assert!(s.name.contains("randrw-4k"), "{}", s.name);
    evaluate(&s).expect("a scenario from a result evaluates");

    let base = premium_volume();
    let (d, _) = one("diskspd-2.1-two-targets-four-threads.xml");
    let s = measure::scenario_from(&d, Some(&base));
    assert_eq!(s.storage, base.storage);
    assert_eq!((s.workload.threads, s.workload.queue_depth), (4, 8));
    assert!(
        s.name.starts_with("ANF Premium 4 TiB: measured DiskSpd"),
        "{}",
        s.name
    );
    let fresh = measure::scenario_from(&d, None);
    assert_eq!(
        fresh.clients.protocol,
        volplan::engine::scenario::Protocol::Smb3
    );
}

/// Without fio the live runs are skipped, unless `VOLPLAN_REQUIRE_FIO` is set (then fail).
fn fio_missing() {
    assert!(
        std::env::var_os("VOLPLAN_REQUIRE_FIO").is_none(),
        "VOLPLAN_REQUIRE_FIO is set but fio is not installed (apt-get install -y fio)"
    );
    eprintln!("fio is not installed: skipping the live run (.ci/run installs it)");
}

#[test]
fn a_real_fio_run_parses_when_fio_is_installed() {
    let Ok(out) = std::process::Command::new("fio").arg("--version").output() else {
        fio_missing();
        return;
    };
    assert!(out.status.success());
    let dir = tempfile::tempdir().unwrap();
    let job = format!(
        "[global]\ndirectory={}\nsize=16m\nbs=4k\nrw=randrw\nrwmixread=70\nioengine=libaio\niodepth=4\ntime_based=1\nruntime=2\nrandrepeat=0\n\n[live]\nnumjobs=2\n",
        dir.path().display()
    );
    let r = measure::parse(&run_fio(&dir.path().join("live.fio"), &job)).unwrap();
    assert_eq!(r.format, Format::FioJson);
    let m = &r.measurements[0];
    // numjobs sits in the job section, iodepth in [global]: both must be found.
    assert_eq!(
        (m.threads, m.queue_depth, m.outstanding, m.clients),
        (2, 4, 8, 1)
    );
    assert!((m.read_pct - 70.0).abs() < 5.0, "{}", m.read_pct);
    assert_eq!(m.io_size_kib, 4.0);
    assert_eq!(m.access, Some(Access::Random));
    assert!(m.iops > 0.0 && m.runtime_s >= 1.5);
    assert!(m.latency_mean_ms.is_some() && m.latency_p99_ms.is_some());
}

/// Writes `job` to `path`, runs fio on it with JSON output and returns stdout.
fn run_fio(path: &std::path::Path, job: &str) -> Vec<u8> {
    std::fs::write(path, job).unwrap();
    let out = std::process::Command::new("fio")
        .arg("--output-format=json")
        .arg(path)
        .output()
        .expect("fio runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn the_generated_fio_plan_runs_and_imports_back() {
    if std::process::Command::new("fio")
        .arg("--version")
        .output()
        .is_err()
    {
        fio_missing();
        return;
    }
    let mut s = premium_volume();
    s.workload.io_size_kib = 4.0;
    s.workload.read_pct = 70.0;
    s.workload.access = Access::Random;
    s.workload.threads = 2;
    s.workload.queue_depth = 4;
    let dir = tempfile::tempdir().unwrap();
    let job = volplan::measure::testplan::fio_job(&s)
        .replace("/mnt/volplan1", &dir.path().display().to_string())
        .replace("runtime=120", "runtime=2")
        .replace("ramp_time=15", "ramp_time=0")
        .replace("size=64g", "size=16m")
        .replace("size=1g", "size=16m")
        .replace("direct=1", "direct=0");
    assert!(job.contains("size=16m"), "{job}");
    let m = measure::parse(&run_fio(&dir.path().join("plan.fio"), &job))
        .unwrap()
        .measurements
        .remove(0);
    assert_eq!((m.threads, m.queue_depth, m.outstanding), (2, 4, 8));
    assert_eq!(m.io_size_kib, 4.0);
    assert_eq!(m.access, Some(Access::Random));
    assert!((m.read_pct - 70.0).abs() < 5.0);
    let c = measured::compare(&s, &m, volplan::engine::pricing::book()).unwrap();
    assert!(!c.sentence.is_empty() && c.run.predicted_mibps > 0.0);
}

#[test]
fn files_of_different_tests_are_not_added_up() {
    let a = fixture("fio-3.36-several-files-vm1.json");
    let b = fixture("fio-3.28-error-line-before-json.json");
    let e = measure::parse_many(&[&a, &b]).unwrap_err().to_string();
    assert!(
        e.contains("seqwrite-256k") && e.contains("randwrite-8k"),
        "{e}"
    );
    let c = fixture("diskspd-2.1-two-targets-four-threads.xml");
    let e = measure::parse_many(&[&a, &c]).unwrap_err().to_string();
    assert!(e.contains("DiskSpd"), "{e}");
}

#[test]
fn a_toml_file_is_named_by_its_first_line() {
    let e = measure::parse(b"[package]\nname = \"x\"\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("`[package]`"), "{e}");
}

mod api {
    use super::fixture;
    use crate::helpers::{TestApp, sample_scenario, spawn_app};

    use reqwest::Method;
    use serde_json::{Value, json};

    /// POSTs the fixture file `name` to `path` with content type `ctype`
    /// (`application/octet-stream` when `None`, as a script sends a file).
    async fn post_fixture(
        app: &TestApp,
        path: &str,
        ctype: Option<&str>,
        name: &str,
    ) -> reqwest::Response {
        let ctype = ctype.or(Some("application/octet-stream"));
        app.send_raw(Method::POST, path, ctype, fixture(name)).await
    }

    #[tokio::test]
    async fn parse_answers_normalised_measurements() {
        let app = spawn_app().await;
        let res = post_fixture(
            &app,
            "/api/v1/measurements/parse",
            Some("application/json"),
            "fio-3.36-group-reporting.json",
        )
        .await;
        assert_eq!(res.status(), 200);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["format"], "fio_json");
        assert_eq!(body["measurements"][0]["outstanding"], 128);
        assert_eq!(body["measurements"][0]["access"], "random");
        assert!(body["warnings"].as_array().unwrap().is_empty());

        // Any content type: DiskSpd XML sent as text/xml, elbencho CSV without one.
        let res = post_fixture(
            &app,
            "/api/v1/measurements/parse",
            Some("text/xml"),
            "diskspd-2.1-two-targets-four-threads.xml",
        )
        .await;
        assert_eq!(res.status(), 200);
        let res = post_fixture(
            &app,
            "/api/v1/measurements/parse",
            None,
            "elbencho-3.0-seq-and-rwmix.csv",
        )
        .await;
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["measurements"].as_array().unwrap().len(), 3);
    }

    /// POSTs the fixture files `names` to scenario `id` together, as the per-client
    /// files of one test (`{"files": [...]}`).
    async fn post_files(app: &TestApp, id: i64, names: &[&str]) -> reqwest::Response {
        let files: Vec<String> = names
            .iter()
            .map(|n| String::from_utf8(fixture(n)).unwrap())
            .collect();
        app.send_raw(
            Method::POST,
            &format!("/api/v1/scenarios/{id}/measurements"),
            Some("application/json"),
            serde_json::to_vec(&json!({ "files": files })).unwrap(),
        )
        .await
    }

    #[tokio::test]
    async fn the_per_client_files_of_one_test_are_stored_as_one_run() {
        let app = spawn_app().await;
        let id = app.create(&sample_scenario()).await;
        let res = post_files(
            &app,
            id,
            &[
                "fio-3.36-several-files-vm1.json",
                "fio-3.36-several-files-vm2.json",
            ],
        )
        .await;
        assert_eq!(res.status(), 201);
        let body: Value = res.json().await.unwrap();
        let one = volplan::measure::parse(&fixture("fio-3.36-several-files-vm1.json")).unwrap();
        let runs = body["measurements"].as_array().unwrap();
        assert_eq!(
            runs.len(),
            one.measurements.len(),
            "one run per test: {body}"
        );
        let m = &runs[0]["measurement"];
        assert_eq!(m["clients"], 2, "{m}");
        assert!(m["iops"].as_f64().unwrap() > 1.9 * one.measurements[0].iops);
        assert!(runs[0]["comparison"]["predicted_mibps"].as_f64().unwrap() > 0.0);

        // Files of different tests are refused together.
        let res = post_files(
            &app,
            id,
            &[
                "fio-3.36-several-files-vm1.json",
                "fio-3.28-error-line-before-json.json",
            ],
        )
        .await;
        assert_eq!(res.status(), 422);
    }

    #[tokio::test]
    async fn a_file_that_is_not_a_result_is_422_with_the_formats() {
        let app = spawn_app().await;
        for bytes in [
            b"hello\n".to_vec(),
            Vec::new(),
            vec![0xFF, 0x00, 0xFE, 0x12, 0x80],
        ] {
            let res = app
                .send_raw(
                    Method::POST,
                    "/api/v1/measurements/parse",
                    Some("application/octet-stream"),
                    bytes,
                )
                .await;
            assert_eq!(res.status(), 422);
            let body: Value = res.json().await.unwrap();
            let msg = body["error"].as_str().unwrap();
            assert!(
                msg.contains("fio JSON")
                    && msg.contains("DiskSpd XML")
                    && msg.contains("elbencho CSV"),
                "{msg}"
            );
            assert_eq!(body["field"], Value::Null);
        }
        let res = app
            .send_raw(
                Method::POST,
                "/api/v1/measurements/parse",
                None,
                vec![b'{'; 2 * 1024 * 1024],
            )
            .await;
        assert_eq!(res.status(), 413);
        let body: Value = res.json().await.unwrap();
        assert!(body["error"].as_str().unwrap().contains("1 MiB"));
    }

    #[tokio::test]
    async fn the_planner_chart_draws_the_stored_runs() {
        let app = spawn_app().await;
        let id = app.create(&sample_scenario()).await;
        async fn page(app: &TestApp, id: i64) -> String {
            let res = app.get(&format!("/scenarios/{id}")).await;
            res.text().await.unwrap()
        }
        assert!(!page(&app, id).await.contains("measured run"));
        let res = post_fixture(
            &app,
            &format!("/api/v1/scenarios/{id}/measurements"),
            Some("application/json"),
            "fio-3.36-single-job.json",
        )
        .await;
        assert_eq!(res.status(), 201);
        // The saved page and the live results (Scenario JSON with its id) both show it.
        assert!(page(&app, id).await.contains("1 measured run is shown"));
        let mut with_id = sample_scenario();
        with_id["id"] = json!(id);
        let res = app
            .send_raw(
                Method::POST,
                "/scenarios/results",
                Some("application/json"),
                serde_json::to_vec(&with_id).unwrap(),
            )
            .await;
        assert_eq!(res.status(), 200);
        assert!(
            res.text()
                .await
                .unwrap()
                .contains("1 measured run is shown")
        );
    }

    #[tokio::test]
    async fn measurements_attach_to_a_scenario_with_its_revision() {
        let app = spawn_app().await;
        let id = app.create(&sample_scenario()).await;
        let path = format!("/api/v1/scenarios/{id}/measurements");
        let res = post_fixture(
            &app,
            &path,
            Some("application/json"),
            "fio-3.36-single-job.json",
        )
        .await;
        assert_eq!(res.status(), 201);
        let body: Value = res.json().await.unwrap();
        let first = &body["measurements"][0];
        assert_eq!(first["revision"], 1);
        assert_eq!(first["measurement"]["io_size_kib"], 64.0);
        let c = &first["comparison"];
        assert!(c["predicted_mibps"].as_f64().unwrap() > 0.0, "{body}");
        assert!(!c["sentence"].as_str().unwrap().is_empty());
        assert!(c["class"].is_string());

        // A new revision of the scenario: old runs keep theirs, new runs get the new one.
        let mut edited = sample_scenario();
        edited["name"] = json!("edited");
        assert_eq!(
            app.put_json(&format!("/api/v1/scenarios/{id}"), &edited)
                .await
                .status(),
            200
        );
        let res = post_fixture(&app, &path, None, "fio-3.36-group-reporting.json").await;
        assert_eq!(res.status(), 201);
        let list: Value = app.get(&path).await.json().await.unwrap();
        let list = list.as_array().unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(
            (list[0]["revision"].as_i64(), list[1]["revision"].as_i64()),
            (Some(1), Some(2))
        );
        assert!(list.iter().all(|m| m["comparison"]["sentence"].is_string()));

        // Delete one run.
        let mid = list[0]["id"].as_i64().unwrap();
        let del = format!("{path}/{mid}");
        let res = app.send_raw(Method::DELETE, &del, None, Vec::new()).await;
        assert_eq!(res.status(), 204);
        let res = app.send_raw(Method::DELETE, &del, None, Vec::new()).await;
        assert_eq!(res.status(), 404);
        let list: Value = app.get(&path).await.json().await.unwrap();
        assert_eq!(list.as_array().unwrap().len(), 1);

        // Deleting the scenario deletes its runs.
        let res = app
            .send_raw(
                Method::DELETE,
                &format!("/api/v1/scenarios/{id}"),
                None,
                Vec::new(),
            )
            .await;
        assert_eq!(res.status(), 204);
        let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM measurements")
            .fetch_one(&app.db)
            .await
            .unwrap();
        assert_eq!(n, 0);
    }

    #[tokio::test]
    async fn unknown_scenarios_are_404_and_bad_files_store_nothing() {
        let app = spawn_app().await;
        for path in [
            "/api/v1/scenarios/999/measurements",
            "/api/v1/scenarios/abc/measurements",
        ] {
            assert_eq!(app.get(path).await.status(), 404);
            let res = post_fixture(&app, path, None, "fio-3.36-single-job.json").await;
            assert_eq!(res.status(), 404);
        }
        let id = app.create(&sample_scenario()).await;
        let path = format!("/api/v1/scenarios/{id}/measurements");
        let res = app
            .send_raw(
                Method::POST,
                &path,
                Some("application/octet-stream"),
                b"not a result".to_vec(),
            )
            .await;
        assert_eq!(res.status(), 422);
        // What an HTML form can send is refused before the file is read.
        for ct in [
            None,
            Some("text/plain"),
            Some("text/plain; charset=utf-8"),
            Some("application/x-www-form-urlencoded"),
            Some("multipart/form-data; boundary=x"),
        ] {
            let res = app
                .send_raw(Method::POST, &path, ct, fixture("fio-3.36-single-job.json"))
                .await;
            assert_eq!(res.status(), 415, "{ct:?}");
            let body: Value = res.json().await.unwrap();
            assert!(
                body["error"]
                    .as_str()
                    .unwrap()
                    .contains("application/octet-stream"),
                "{body}"
            );
        }
        let list: Value = app.get(&path).await.json().await.unwrap();
        assert!(list.as_array().unwrap().is_empty());
    }

    #[tokio::test]
    async fn testplan_downloads() {
        let app = spawn_app().await;
        let id = app.create(&sample_scenario()).await;
        let res = app
            .get(&format!("/api/v1/scenarios/{id}/testplan?tool=fio"))
            .await;
        assert_eq!(res.status(), 200);
        let ct = res.headers()["content-type"].to_str().unwrap().to_owned();
        assert!(ct.starts_with("text/plain"), "{ct}");
        let cd = res.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(cd.contains("volplan-test.fio"), "{cd}");
        let text = res.text().await.unwrap();
        for line in [
            "bs=64k",
            "rw=read",
            "iodepth=16",
            "numjobs=8",
            "direct=1",
            "--output-format=json",
        ] {
            assert!(text.contains(line), "{line} missing:\n{text}");
        }
        let res = app.get(&format!("/api/v1/scenarios/{id}/testplan")).await;
        assert_eq!(res.status(), 200, "fio is the default");
        let text = app
            .get(&format!("/api/v1/scenarios/{id}/testplan?tool=diskspd"))
            .await
            .text()
            .await
            .unwrap();
        assert!(
            text.contains("diskspd -c") && text.contains("-Rxml"),
            "{text}"
        );
        let res = app
            .get(&format!("/api/v1/scenarios/{id}/testplan?tool=iometer"))
            .await;
        assert_eq!(res.status(), 422);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["field"], "tool");
        assert_eq!(
            app.get("/api/v1/scenarios/999/testplan").await.status(),
            404
        );
    }

    #[tokio::test]
    async fn a_new_scenario_from_a_result() {
        let app = spawn_app().await;
        let res = post_fixture(
            &app,
            "/api/v1/measurements/scenario",
            None,
            "fio-3.36-group-reporting.json",
        )
        .await;
        assert_eq!(res.status(), 200);
        let s: Value = res.json().await.unwrap();
        assert_eq!(s["workload"]["io_size_kib"], 4.0);
        assert_eq!(s["workload"]["queue_depth"], 32);
        // It is a valid scenario: it saves.
        app.create(&s).await;

        let base = app.create(&sample_scenario()).await;
        let res = post_fixture(
            &app,
            &format!("/api/v1/measurements/scenario?base={base}"),
            None,
            "elbencho-3.0-seq-and-rwmix.csv",
        )
        .await;
        let s: Value = res.json().await.unwrap();
        assert!(
            crate::helpers::json_contains(&s["storage"], &sample_scenario()["storage"]),
            "{s}"
        );
        let res = post_fixture(
            &app,
            "/api/v1/measurements/scenario?run=9",
            None,
            "elbencho-3.0-seq-and-rwmix.csv",
        )
        .await;
        assert_eq!(res.status(), 422);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["field"], "run");
    }

    #[tokio::test]
    async fn a_new_scenario_from_a_stored_run() {
        let app = spawn_app().await;
        let id = app.create(&sample_scenario()).await;
        let path = format!("/api/v1/scenarios/{id}/measurements");
        let res = post_fixture(&app, &path, None, "fio-3.35-client-stats.json").await;
        let body: Value = res.json().await.unwrap();
        let mid = body["measurements"][0]["id"].as_i64().unwrap();
        let res = app.get(&format!("{path}/{mid}/scenario")).await;
        assert_eq!(res.status(), 200);
        let s: Value = res.json().await.unwrap();
        assert_eq!(s["workload"]["io_size_kib"], 8.0);
        // The base is AVS with 4 VMs: the run's 128 IOs in flight are 4 x 8 per VM.
        assert_eq!(s["workload"]["threads"], 4);
        assert_eq!(s["workload"]["queue_depth"], 8);
        assert_eq!(s["clients"]["avs"]["hosts"], 4);
        assert_eq!(s["storage"]["level"], "ultra");
        assert_eq!(s.get("id"), None);
        assert_eq!(
            app.get(&format!("{path}/99999/scenario")).await.status(),
            404
        );
        assert_eq!(app.get(&format!("{path}/x/scenario")).await.status(), 404);
    }

    #[tokio::test]
    async fn the_planner_offers_the_test_plan_and_the_drop_zone() {
        let app = spawn_app().await;
        let id = app.create(&sample_scenario()).await;
        let html = app
            .get(&format!("/scenarios/{id}"))
            .await
            .text()
            .await
            .unwrap();
        assert!(html.contains("id=\"m-drop\""), "drop zone missing");
        assert!(html.contains(&format!("/api/v1/scenarios/{id}/testplan?tool=fio")));
        assert!(html.contains(&format!("/api/v1/scenarios/{id}/testplan?tool=diskspd")));
        assert!(html.contains("/static/js/measurements"), "script missing");
        let html = app.get("/scenarios/new").await.text().await.unwrap();
        assert!(html.contains("Save the scenario to download its test plan"));
        assert!(!html.contains("id=\"m-drop\""));
    }

    #[tokio::test]
    async fn stored_runs_become_chart_points() {
        let app = spawn_app().await;
        let id = app.create(&sample_scenario()).await;
        let path = format!("/api/v1/scenarios/{id}/measurements");
        post_fixture(&app, &path, None, "elbencho-3.0-seq-and-rwmix.csv").await;
        let points = volplan::web::charts::MeasuredRuns::of(&app.db, id)
            .await
            .unwrap()
            .points;
        assert_eq!(points.len(), 3);
        // The sample is AVS with 4 datastores: the scaling chart's x is 4.
        assert!(points.iter().all(|p| p.flows == 4), "{points:?}");
        assert_eq!((points[0].io_size_kib, points[0].mibps), (1024.0, 952.0));
        let none = volplan::web::charts::MeasuredRuns::of(&app.db, 999)
            .await
            .unwrap();
        assert!(none.points.is_empty() && none.latency.is_empty());
    }

    #[tokio::test]
    async fn the_openapi_document_lists_the_measurement_routes() {
        let app = spawn_app().await;
        let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
        for p in [
            "/api/v1/measurements/parse",
            "/api/v1/measurements/scenario",
            "/api/v1/scenarios/{id}/measurements",
            "/api/v1/scenarios/{id}/measurements/{mid}",
            "/api/v1/scenarios/{id}/measurements/{mid}/scenario",
            "/api/v1/scenarios/{id}/testplan",
        ] {
            assert!(doc["paths"][p].is_object(), "{p} missing");
        }
    }
}

mod cli {
    use super::fixture;
    use std::process::Command;

    fn volplan() -> Command {
        Command::new(env!("CARGO_BIN_EXE_volplan"))
    }

    #[test]
    fn import_prints_measured_against_predicted() {
        let dir = tempfile::tempdir().unwrap();
        let scenario = dir.path().join("scenario.json");
        std::fs::write(&scenario, crate::helpers::sample_scenario().to_string()).unwrap();
        let result = dir.path().join("result.json");
        std::fs::write(&result, fixture("fio-3.36-single-job.json")).unwrap();
        let out = volplan()
            .arg("import")
            .arg(&result)
            .arg("--scenario")
            .arg(&scenario)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("seqread-64k") && text.contains("predicted"),
            "{text}"
        );
        assert!(text.contains("16 IOs in flight"), "{text}");

        let out = volplan()
            .arg("import")
            .arg(&result)
            .arg("--json")
            .output()
            .unwrap();
        assert!(out.status.success());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["runs"][0]["measurement"]["outstanding"], 16);
        assert_eq!(v["runs"][0]["comparison"], serde_json::Value::Null);
    }

    #[test]
    fn import_of_a_non_result_exits_2() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("notes.txt");
        std::fs::write(&bad, "just notes\n").unwrap();
        let out = volplan().arg("import").arg(&bad).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains("fio JSON") && err.contains("`just notes`"),
            "{err}"
        );
        let out = volplan()
            .arg("import")
            .arg(dir.path().join("missing.json"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
    }

    #[test]
    fn warnings_go_to_stderr() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("err.json");
        std::fs::write(&f, fixture("fio-3.28-error-line-before-json.json")).unwrap();
        let out = volplan().arg("import").arg(&f).output().unwrap();
        assert!(out.status.success());
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("warning: fio wrote before the JSON"), "{err}");
    }
}

#[test]
fn fio_job_groups_are_separate_runs() {
    // Two groups (e.g. `stonewall`): one run each, in group order.
    let mut v: serde_json::Value =
        serde_json::from_slice(&fixture("fio-3.36-group-reporting.json")).unwrap();
    let mut second = v["jobs"][0].clone();
    second["groupid"] = json!(1);
    second["jobname"] = json!("second");
    v["jobs"].as_array_mut().unwrap().push(second);
    let r = measure::parse(v.to_string().as_bytes()).unwrap();
    let labels: Vec<&str> = r.measurements.iter().map(|m| m.label.as_str()).collect();
    assert_eq!(labels, ["randrw-4k", "second"]);
    assert!(r.measurements.iter().all(|m| m.outstanding == 128));
}

#[test]
fn diskspd_time_spans_are_separate_runs_and_errors_are_skipped() {
    let text = String::from_utf8(fixture("diskspd-2.1-two-targets-four-threads.xml")).unwrap();
    let start = text.find("\n  <TimeSpan>").unwrap() + 1;
    let end = text.rfind("</Results>").unwrap();
    let span = &text[start..end];
    let interrupted = "  <TimeSpan>\r\n    <Error>The test was interrupted before the measurements began. No results are displayed.</Error>\r\n  </TimeSpan>\r\n";
    let doubled = format!("{}{span}{interrupted}{span}</Results>\r\n", &text[..start]);
    let r = measure::parse(doubled.as_bytes()).unwrap();
    assert_eq!(r.measurements.len(), 2);
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("time span 2") && w.contains("interrupted")),
        "{:?}",
        r.warnings
    );
}
