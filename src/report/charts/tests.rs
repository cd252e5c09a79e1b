//! Every chart draws, quickly and to a readable document, whatever the data: stored
//! measurements, sweeps, plans and estates at the extremes of f64.

use super::*;
use crate::engine::sweep::{Better, LayoutRow, MetricRow};
use crate::report::fixture;
use proptest::prelude::*;
use std::sync::mpsc;
use std::time::Duration;

/// Longest a draw of any chart may take (debug build, a busy 2-core machine): far above
/// the few milliseconds one takes, far below a hang.
const DRAW_LIMIT: Duration = Duration::from_secs(20);

/// Draws the chart as SVG and PNG on another thread; fails if either takes longer than
/// [`DRAW_LIMIT`] (plotters looping on an axis) or produces nothing.
fn draws_in_time(chart: Chart) -> Result<(), String> {
    let (tx, rx) = mpsc::channel();
    let what = chart.title().to_owned();
    std::thread::spawn(move || {
        let svg = chart.svg();
        let png = chart.png(chart.size());
        let _ = tx.send((svg, png));
    });
    match rx.recv_timeout(DRAW_LIMIT) {
        Ok((Ok(svg), Ok(png))) => {
            if !svg.contains("<desc>") || svg.len() < 500 {
                return Err(format!("{what}: an empty SVG"));
            }
            roxmltree::Document::parse(&svg)
                .map_err(|e| format!("{what}: SVG does not parse: {e}"))?;
            if !png.starts_with(b"\x89PNG") {
                return Err(format!("{what}: no PNG"));
            }
            Ok(())
        }
        Ok((svg, png)) => Err(format!("{what}: {:?} {:?}", svg.err(), png.err())),
        Err(_) => Err(format!("{what}: still drawing after {DRAW_LIMIT:?}")),
    }
}

/// A double at the extremes of f64, or an ordinary one.
fn extreme() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(1e308),
        Just(f64::MAX),
        Just(5e-324),
        Just(f64::MIN_POSITIVE),
        Just(0.0),
        Just(-1.0),
        Just(-1e308),
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        1.0f64..1e6,
    ]
}

fn measured(v: &[f64]) -> Vec<MeasuredPoint> {
    v.chunks(3)
        .map(|c| MeasuredPoint {
            label: "run <b>&".to_owned(),
            io_size_kib: *c.get(2).unwrap_or(&64.0),
            read_pct: 100.0,
            mibps: c[0],
            iops: *c.get(1).unwrap_or(&c[0]),
            flows: 1,
            outstanding: 16,
        })
        .collect()
}

fn latency_runs(v: &[f64], io: f64) -> Vec<LatencyRun> {
    v.chunks(2)
        .map(|c| LatencyRun {
            label: "run".to_owned(),
            io_size_kib: io,
            iops: c[0],
            mibps: c[0],
            latency_ms: *c.get(1).unwrap_or(&c[0]),
        })
        .collect()
}

/// A measured volume whose demand per day is `v` in threes (P50, P95, max).
fn measured_volume(v: &[f64]) -> crate::live::estate::VolumeAnswer {
    use crate::live::over_time::{OverTime, Period, Step};
    crate::live::estate::VolumeAnswer {
        name: "vol <b>&".to_owned(),
        level: None,
        qos: None,
        quota_tib: None,
        metrics: Default::default(),
        demand_mibps: None,
        demand_iops: None,
        demand_over_time: Some(OverTime {
            step: Step::Day,
            per: 1,
            periods: v
                .chunks(3)
                .enumerate()
                .map(|(i, c)| Period {
                    start: format!("2026-11-{:02}T00:00:00Z", i + 1),
                    p50: c[0],
                    p95: *c.get(1).unwrap_or(&c[0]),
                    max: *c.get(2).unwrap_or(&c[0]),
                    samples: 288,
                })
                .collect(),
            unread: 2,
        }),
        qos_mibps: v.first().copied(),
        ceiling_mibps: None,
        headroom_pct: None,
        ceiling_headroom_pct: None,
        recommendation: None,
        monthly: None,
        saving_monthly: None,
        statements: Vec::new(),
    }
}

#[test]
fn a_volume_over_time_is_drawn_per_day_with_its_qos_and_every_day_in_its_table() {
    let chart = Chart::live_over_time(&measured_volume(&[
        10.0, 20.0, 30.0, 12.0, 22.0, 32.0, 5.0, 6.0, 7.0,
    ]))
    .expect("a chart");
    assert_eq!(chart.title(), "Demand of vol <b>& over time (MiB/s)");
    assert!(
        chart.summary().ends_with(
            "per day (UTC) over 3 days at P50, P95 and at most, beside its QoS throughput of 10 MiB/s."
        ),
        "{}",
        chart.summary()
    );
    let svg = chart.svg().unwrap();
    for label in ["Day (UTC)", "Read + write MiB/s", "1 Nov", "QoS throughput"] {
        assert!(svg.contains(label), "{label}");
    }
    let t = chart.table();
    assert_eq!(t.headers[0], "Day (UTC)");
    assert_eq!(t.rows.len(), 3);
    assert_eq!(t.rows[1], ["2026-11-02 00:00", "12", "22", "32", "288"]);
    assert!(
        t.notes[1].starts_with("2 samples whose time"),
        "{:?}",
        t.notes
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every chart of the product, fed values at the extremes of f64 where it takes
    /// data from outside the model (stored measurements, plans, estates), draws in
    /// time and produces a document.
    #[test]
    fn every_chart_draws_any_data_in_time(v in proptest::collection::vec(extreme(), 6..12)) {
        let (s, e) = fixture::example();
        let io = s.workload.io_size_kib;
        let mut charts: Vec<Chart> = ChartName::ALL
            .iter()
            .map(|n| Chart::of(*n, &s, &e, crate::engine::pricing::book()).expect("the example charts"))
            .map(|c| c.with_measured(&measured(&v)).with_measured_latency(&latency_runs(&v, io)))
            .collect();
        let rows: Vec<MetricRow> = v
            .chunks(2)
            .map(|c| MetricRow {
                key: "throughput",
                label: "Throughput",
                unit: "MiB/s",
                better: Better::Higher,
                values: c.iter().map(|x| Some(*x)).collect(),
                text: Vec::new(),
                deltas: Vec::new(),
                best: vec![false; c.len()],
            })
            .collect();
        charts.push(Chart::compare(&["a".to_owned(), "b".to_owned()], &rows));
        let layouts: Vec<LayoutRow> = v
            .iter()
            .enumerate()
            .map(|(i, x)| LayoutRow {
                count: 1 << i.min(10),
                quota_tib: *x,
                throughput_mibps: *x,
                iops: *x,
                qos_per_volume_mibps: Some(*x),
                connections_per_client: x.abs().min(1e9) as u64,
                connections: 1,
                monthly_usd: Some(*x),
                monthly: Some(*x),
                currency: "USD",
                binding: "volume_qos",
            })
            .collect();
        charts.push(Chart::layouts(&layouts, Some(0)));
        let (_, mut plan) = fixture::avs_plan(3);
        for (d, x) in plan.datastores.iter_mut().zip(v.iter().cycle()) {
            d.fill_pct = *x;
            d.demand_mibps = *x;
            d.qos_mibps = v[1];
        }
        plan.tco.vsan_only.hosts_monthly.payg = v[0];
        plan.tco.with_anf.anf_monthly.reserved_3y = v[1];
        charts.push(Chart::avs_fill(&plan));
        charts.push(Chart::avs_tco(&plan.tco));
        let mut estate = fixture::estate_plan();
        for (m, x) in estate.timeline.iter_mut().zip(v.iter().cycle()) {
            m.monthly = *x;
        }
        charts.push(Chart::estate_timeline(&estate));
        let volume = measured_volume(&v);
        charts.push(Chart::live_over_time(&volume).expect("a chart"));
        charts.push(Chart::live_demand(&crate::live::estate::LiveAnswer {
            volumes: vec![volume],
            verdict: crate::verdict::SetVerdict { best: None, statements: Vec::new(), sensitivity: Vec::new() },
            currency: "USD",
            interval_s: 300.0,
            warnings: Vec::new(),
            replan: None,
        }));
        for c in charts {
            prop_assert!(draws_in_time(c).is_ok(), "{:?}", v);
        }
    }
}

/// A benchmark result of 1e308 IOPS once froze plotters' tick computation for good.
#[test]
fn a_run_of_1e308_iops_draws_the_latency_chart() {
    let (s, e) = fixture::example();
    let runs = latency_runs(&[1e308, 1.0], s.workload.io_size_kib);
    let chart = Chart::of(ChartName::Latency, &s, &e, crate::engine::pricing::book())
        .unwrap()
        .with_measured_latency(&runs);
    draws_in_time(chart).unwrap();
}

#[test]
fn names_parse_and_print() {
    for n in ChartName::ALL {
        assert_eq!(n.key().parse::<ChartName>().unwrap(), n);
    }
    let err = "pie".parse::<ChartName>().unwrap_err();
    assert!(
        err.to_string()
            .contains("ceilings, io-size, scaling and latency")
    );
}

#[test]
fn svg_has_role_title_and_description_escaped() {
    let svg = "<svg width=\"10\" height=\"10\">\n<rect/>\n</svg>";
    let out = accessible(svg, "a <b> & c", "d");
    assert!(out.starts_with("<svg width=\"10\" height=\"10\" role=\"img\" class=\"chart\">\n<title>a &#60;b&#62; &#38; c</title>"));
    assert!(out.contains("<desc>d</desc>\n<rect/>"));
    let (mut s, e) = fixture::example();
    s.name = "<script>x</script> & \"q\"".into();
    for n in ChartName::ALL {
        let svg = Chart::of(n, &s, &e, crate::engine::pricing::book())
            .unwrap()
            .svg()
            .unwrap();
        assert!(!svg.contains("<script>"), "{n}");
        roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{n}: {e}"));
    }
}

#[test]
fn axes_read_as_figures_and_legends_are_whole() {
    let (s, e) = fixture::example();
    for n in ChartName::ALL {
        let svg = Chart::of(n, &s, &e, crate::engine::pricing::book())
            .unwrap()
            .svg()
            .unwrap();
        assert!(!svg.contains('\u{2026}'), "{n}: nothing is cut short");
        assert!(
            !svg.contains(".0<") && !svg.contains(".0\n<"),
            "{n}: no 60000.0 ticks"
        );
    }
    let estate = Chart::estate_timeline(&fixture::estate_plan())
        .svg()
        .unwrap();
    assert!(!estate.contains("PoolGrows") && !estate.contains(".0\n</text>"));
}
