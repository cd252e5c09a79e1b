//! Chart speed: each SVG chart of the contract's example scenario, sweeps included
//! (target: at most 2 ms median each), plus the compare and layouts charts.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use volplan::engine::{self, Evaluation, Scenario, sweep};
use volplan::report::charts::{self, Chart, ChartName};

fn example() -> Scenario {
    serde_json::from_str(include_str!("contract_example.json")).expect("example parses")
}

fn bench(c: &mut Criterion) {
    charts::init_fonts();
    let s = example();
    let e = engine::evaluate(&s).expect("example evaluates");
    for name in ChartName::ALL {
        charts::svg(name, &s, &e, volplan::engine::pricing::book()).expect("chart renders");
        c.bench_function(&format!("svg {name}"), |b| {
            b.iter(|| {
                charts::svg(
                    name,
                    black_box(&s),
                    black_box(&e),
                    volplan::engine::pricing::book(),
                )
            })
        });
    }
    let mut premium = s.clone();
    premium.storage.level = engine::scenario::Level::Premium;
    let evals: Vec<Evaluation> = [&s, &premium]
        .iter()
        .map(|x| engine::evaluate(x).expect("evaluates"))
        .collect();
    let names = vec!["Ultra".to_owned(), "Premium".to_owned()];
    c.bench_function("svg compare (2 scenarios)", |b| {
        b.iter(|| {
            let rows = sweep::compare(&evals.iter().collect::<Vec<_>>());
            Chart::compare(black_box(&names), &rows).svg()
        })
    });
    let counts = [1, 2, 4, 8, 16, 20, 32, 64];
    c.bench_function("svg layouts (8 counts, sweep included)", |b| {
        b.iter(|| {
            let layouts = sweep::layouts(
                black_box(&s),
                80.0,
                &counts,
                volplan::engine::pricing::book(),
            )
            .expect("layouts");
            let rows = sweep::layout_rows(&layouts);
            Chart::layouts(&rows, sweep::suggest_layout(&rows)).svg()
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
