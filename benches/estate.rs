//! Estate planning speed: 100 workloads optimised (pools, QoS split, evaluation of
//! every workload in its pool), with and without the fit and a 3-year timeline.

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use std::hint::black_box;
use volplan::engine::pricing;
use volplan::estate::{self, EstateRequest};

/// 100 workloads of four kinds (database data and log, file shares, EDA), with
/// throughput targets, growing 25 % a year.
fn estate(years: u32) -> EstateRequest {
    let workloads: Vec<_> = (0..100)
        .map(|i| {
            let f = f64::from(i);
            let (io, read, quota, target) = match i % 4 {
                0 => (1024, 50, 2.0 + f % 7.0, 400.0 + (f * 13.0) % 600.0),
                1 => (256, 0, 0.5 + f % 3.0, 250.0 + (f * 7.0) % 200.0),
                2 => (64, 80, 5.0 + (f * 3.0) % 40.0, 50.0 + (f * 11.0) % 150.0),
                _ => (8, 70, 1.0 + f % 5.0, 800.0 + (f * 17.0) % 1500.0),
            };
            json!({
                "name": format!("workload {i}"),
                "workload": {"io_size_kib": io, "read_pct": read, "access": "sequential",
                             "threads": 16, "queue_depth": 16, "capacity_tib": quota,
                             "target_mibps": target, "target_iops": null},
                "storage": {"service": "anf", "level": "premium", "qos": "auto",
                            "volumes": [{"count": 1 + i % 2, "quota_tib": quota}]},
                "clients": {"count": 4, "vm_size": "Standard_E32s_v5",
                            "protocol": "nfsv4.1", "nconnect": 4}
            })
        })
        .collect();
    serde_json::from_value(json!({
        "workloads": workloads, "region": "eastus", "years": years,
        "growth_pct_per_year": 25
    }))
    .expect("the bench estate parses")
}

fn bench(c: &mut Criterion) {
    let one = estate(1);
    let three = estate(3);
    let p = estate::optimize(&one, pricing::book()).expect("the bench estate plans");
    assert!(p.assignments.iter().all(|a| a.targets_met));
    let mut g = c.benchmark_group("estate");
    g.sample_size(10);
    g.bench_function("optimise 100 workloads, 1-year timeline", |b| {
        b.iter(|| estate::optimize(black_box(&one), pricing::book()))
    });
    g.bench_function("optimise 100 workloads, 3-year timeline", |b| {
        b.iter(|| estate::optimize(black_box(&three), pricing::book()))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    // Criterion's plots need a registered font: skip them.
    config = Criterion::default().without_plots();
    targets = bench
}
criterion_main!(benches);
