use super::*;
use crate::engine::evaluate;
use crate::engine::scenario::Scenario;

/// One ANF volume holding 4 TiB that must deliver 1,000 MiB/s at 64 KiB, from
/// clients that never bind.
fn needs_1000() -> Scenario {
    serde_json::from_str(
        r#"{"name": "1,000 MiB/s on 4 TiB",
            "workload": {"io_size_kib": 64, "read_pct": 100, "access": "sequential",
                "threads": 16, "queue_depth": 32, "files": "many", "metadata_heavy": false,
                "capacity_tib": 4, "target_mibps": 1000, "target_iops": null},
            "storage": {"service": "anf", "level": "premium", "qos": "auto",
                "volume_kind": "regular", "pool_tib": null,
                "volumes": [{"count": 1, "quota_tib": 4, "throughput_mibps": null}]},
            "clients": {"count": 8, "vm_size": null, "egress_mibps": 100000,
                "ingress_mibps": 100000, "protocol": "nfsv3", "nconnect": 8,
                "smb_multichannel": false, "smb_channels": 4, "avs": null}}"#,
    )
    .expect("the test scenario parses")
}

#[test]
fn every_service_fits_the_sizing_table() {
    for s in [Service::Anf, Service::AzureFiles, Service::Gcnv] {
        assert!(Level::of(s).len() <= MAX_LEVELS, "{s:?}");
    }
}

#[test]
fn each_anf_level_gets_the_quota_its_rate_needs() {
    let ev = evaluate(&needs_1000()).unwrap();
    let row = |l: Level| *ev.sizing.iter().find(|r| r.level == l).unwrap();
    // The ceilings alone ask 1,000 MiB/s / (16, 64, 128 MiB/s per TiB) = 62.5, 15.625
    // and 7.8125 TiB; near its ceiling the rate bends below it, so each row is about
    // that large (990 MiB/s gives the same as 1,000), and 2 % less would miss. Pools in
    // whole TiB.
    for (level, ceiling_only) in [
        (Level::Standard, 62.5),
        (Level::Premium, 15.625),
        (Level::Ultra, 7.8125),
    ] {
        let r = row(level);
        assert!(
            r.quota_tib >= ceiling_only * 0.99 && r.quota_tib <= ceiling_only * 1.05,
            "{level:?}: {}",
            r.quota_tib
        );
        assert_eq!(r.pool_tib, r.quota_tib.ceil());
        let mut less = needs_1000();
        less.storage.level = level;
        less.storage.volumes[0].quota_tib = r.quota_tib * 0.98;
        assert!(!evaluate(&less).unwrap().targets.met, "{level:?}");
    }
    // Flexible keeps the capacity and buys the throughput (about 1,000: 990 gives the
    // same).
    let flex = row(Level::Flexible);
    assert_eq!(flex.quota_tib, 4.0);
    let bought = flex.throughput_mibps.unwrap();
    assert!((990.0..1_050.0).contains(&bought), "{bought}");
    assert!(flex.pool_tib >= 4.0);
    for r in &ev.sizing {
        assert!(r.meets, "{:?}", r.level);
        assert_eq!(r.basis, SizingBasis::Targets);
    }
    // The cheapest is marked once, and is the lowest price among those that meet.
    let marked: Vec<_> = ev.sizing.iter().filter(|r| r.cheapest).collect();
    assert_eq!(marked.len(), 1);
    let lowest = ev
        .sizing
        .iter()
        .filter(|r| r.meets)
        .filter_map(|r| r.monthly)
        .fold(f64::INFINITY, f64::min);
    assert_eq!(marked[0].monthly, Some(lowest));
}

#[test]
fn a_target_beyond_one_volume_takes_more_volumes_unless_the_count_is_fixed() {
    let mut s = needs_1000();
    // One regular volume tops out at 4,500 MiB/s whatever its level and quota.
    s.workload.target_mibps = Some(6_000.0);
    s.storage.fixed_count = true;
    let ev = evaluate(&s).unwrap();
    // Kept at one volume, only a large volume (up to 12,800 MiB/s) can.
    for r in &ev.sizing {
        assert_eq!(r.volume_count, 1, "{r:?}");
        assert!(
            !r.meets || r.volume_kind == VolumeKind::Large,
            "{:?} meets as a regular volume",
            r.level
        );
    }
    // Free, the count holds the load on regular volumes, each within its maximum.
    s.storage.fixed_count = false;
    let ev = evaluate(&s).unwrap();
    let cheapest = ev
        .sizing
        .iter()
        .find(|r| r.cheapest)
        .expect("a level meets");
    for r in ev
        .sizing
        .iter()
        .filter(|r| r.meets && r.volume_kind == VolumeKind::Regular)
    {
        assert!(r.volume_count >= 2, "{r:?}");
        // Validation refuses nothing of it, and applied it meets.
        let applied = r.applied_to(&s);
        assert!(evaluate(&applied).expect("validates").targets.met, "{r:?}");
    }
    assert!(cheapest.volume_count >= 2 || cheapest.volume_kind == VolumeKind::Large);
}

#[test]
fn a_latency_target_is_met_by_the_row_that_claims_it() {
    // "100,000 IOPS at 1 ms or less" at 8 KiB: the ceiling alone would stop at the
    // quota that just reaches 100,000 IOPS, where latency knees; the table buys
    // enough headroom to bring the latency under 1 ms.
    let mut s = needs_1000();
    s.workload.io_size_kib = 8.0;
    s.workload.access = crate::engine::scenario::Access::Random;
    s.workload.target_mibps = None;
    s.workload.target_iops = Some(100_000.0);
    s.workload.target_latency_ms = Some(1.0);
    let ev = evaluate(&s).unwrap();
    let mut any = false;
    for r in ev
        .sizing
        .iter()
        .filter(|r| r.meets && r.level != Level::Flexible)
    {
        any = true;
        let mut sized = s.clone();
        sized.storage.level = r.level;
        sized.storage.volumes[0].quota_tib = r.quota_tib;
        let e = evaluate(&sized).unwrap();
        assert!(e.targets.met, "{:?}", r.level);
        assert_eq!(e.targets.latency_met, Some(true));
        assert!(e.latency_at_target_ms.unwrap() <= 1.0);
    }
    assert!(any, "some level meets 100,000 IOPS at 1 ms");
    // A latency below the round trip meets nowhere.
    s.workload.target_latency_ms = Some(0.05);
    let ev = evaluate(&s).unwrap();
    assert!(ev.sizing.iter().all(|r| !r.meets));
    assert_eq!(ev.targets.latency_met, Some(false));
    assert!(ev.advice.iter().any(|a| a.code == "target_unreachable"));
}

#[test]
fn without_targets_the_table_sizes_for_the_current_figure() {
    let mut s = needs_1000();
    s.workload.target_mibps = None;
    let ev = evaluate(&s).unwrap();
    let own = ev
        .sizing
        .iter()
        .find(|r| r.level == Level::Premium)
        .unwrap();
    assert_eq!(own.basis, SizingBasis::Current);
    assert!(own.meets);
    // Premium at 4 TiB is capped at 256 MiB/s and achieves just under it; Ultra
    // needs 2 TiB for that, but the capacity keeps it at 4 TiB.
    assert!(ev.throughput_mibps <= 256.0 && ev.throughput_mibps > 250.0);
    let ultra = ev.sizing.iter().find(|r| r.level == Level::Ultra).unwrap();
    assert_eq!(ultra.quota_tib, 4.0);
}
