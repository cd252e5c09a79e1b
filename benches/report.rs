//! Report speed: the report model with its verdict (the neighbours the verdict
//! evaluates included), the whole PDF of the contract's example scenario (model, four charts
//! drawn as SVG and placed as vectors, laid out and written with embedded font
//! subsets; its size is printed), and the other formats.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use volplan::engine::{self, Scenario};
use volplan::report::Report;
use volplan::report::{Format, RenderOptions};

fn example() -> Scenario {
    serde_json::from_str(include_str!("../tests/fixtures/report/contract.json"))
        .expect("example parses")
}

fn bench(c: &mut Criterion) {
    let s = example();
    let e = engine::evaluate(&s).expect("example evaluates");
    let report = Report::build(&s, &e, volplan::engine::pricing::book(), "2026-01-15");
    let pdf = volplan::report::render(&report, Format::Pdf, RenderOptions::default())
        .expect("PDF renders");
    eprintln!("report pdf contract example: {} bytes", pdf.len());

    c.bench_function("report model with its verdict contract example", |b| {
        b.iter(|| {
            Report::build(
                black_box(&s),
                black_box(&e),
                volplan::engine::pricing::book(),
                "2026-01-15",
            )
        })
    });
    c.bench_function("report pdf contract example", |b| {
        b.iter(|| {
            let r = Report::build(
                black_box(&s),
                black_box(&e),
                volplan::engine::pricing::book(),
                "2026-01-15",
            );
            volplan::report::render(&r, Format::Pdf, RenderOptions::default())
        })
    });
    c.bench_function("report chart svgs contract example", |b| {
        b.iter(|| {
            black_box(&report)
                .charts
                .iter()
                .map(|(_, chart)| chart.svg())
                .collect::<Result<Vec<_>, _>>()
        })
    });
    for format in [
        Format::Html,
        Format::Xlsx,
        Format::Md,
        Format::Csv,
        Format::Json,
    ] {
        c.bench_function(&format!("report {format} contract example"), |b| {
            b.iter(|| volplan::report::render(black_box(&report), format, RenderOptions::default()))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
