//! Engine speed: `evaluate` on the contract's example scenario, and a layouts sweep.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use volplan::engine::{self, Scenario, sweep};

/// The allocator the `volplan` binary runs with (`src/main.rs`), so that the figures
/// are those of the server and the CLI.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn example() -> Scenario {
    serde_json::from_str(include_str!("contract_example.json")).expect("example parses")
}

/// The AVS starter template as 20 x 4 TiB Flexible datastores: 64 VMDKs over 20
/// datastores load 4 of them more than the rest, so sizing assigns throughput unevenly.
fn avs_flexible() -> Scenario {
    let mut s: Scenario = serde_json::from_str(include_str!(
        "../src/web/scenario_templates/avs-datastores.json"
    ))
    .expect("template parses");
    s.storage.level = volplan::engine::scenario::Level::Flexible;
    s.storage.qos = volplan::engine::scenario::Qos::Manual;
    s.storage.volumes[0].count = 20;
    s.storage.volumes[0].quota_tib = 4.0;
    s.storage.volumes[0].throughput_mibps = Some(513.0);
    s
}

fn bench(c: &mut Criterion) {
    let avs = avs_flexible();
    engine::evaluate(&avs).expect("AVS Flexible evaluates");
    c.bench_function("evaluate AVS 20 x 4 TiB Flexible", |b| {
        b.iter(|| engine::evaluate(black_box(&avs)))
    });
    let book = volplan::engine::pricing::book();
    c.bench_function("evaluate and verdict AVS 20 x 4 TiB Flexible", |b| {
        b.iter(|| {
            let e = engine::evaluate(black_box(&avs)).expect("evaluates");
            volplan::verdict::evaluation(&avs, &e, book)
        })
    });
    let s = example();
    engine::evaluate(&s).expect("example evaluates");
    c.bench_function("evaluate contract example", |b| {
        b.iter(|| engine::evaluate(black_box(&s)))
    });
    let ev = engine::evaluate(&s).expect("example evaluates");
    // As `POST /api/v1/evaluate` writes it.
    c.bench_function("evaluation to JSON (with the latency curve)", |b| {
        b.iter(|| serde_json::to_vec(black_box(&ev)))
    });
    let counts = [1, 2, 4, 8, 16, 20, 32, 64];
    c.bench_function("layouts sweep 8 counts", |b| {
        b.iter(|| {
            sweep::layouts(
                black_box(&s),
                80.0,
                &counts,
                volplan::engine::pricing::book(),
            )
        })
    });
    let many: Vec<u32> = (11..=266).collect();
    c.bench_function("layouts sweep 256 counts", |b| {
        b.iter(|| {
            sweep::layouts(
                black_box(&s),
                1064.0,
                &many,
                volplan::engine::pricing::book(),
            )
        })
    });
}

criterion_group! {
    name = benches;
    // The engine draws nothing: skip criterion's plots (they need a registered font).
    config = Criterion::default().without_plots();
    targets = bench
}
criterion_main!(benches);
