//! One measured volume's demand over the period: per day (or hour) the P50, P95 and
//! largest of its read + write MiB/s as three solid lines told apart by colour and
//! marker (a dash pattern would write each dash as an SVG element of its own), its QoS
//! throughput as a dashed line.

use super::axis::{Linear, Span};
use super::legend::{LegendItem, Sample, draw_key_row, key_row_height};
use super::style::{DrawResult, OI_BLACK, SeriesStyle, caption_style, mesh};
use super::{Chart, ChartTable, Kind};
use crate::format::{exact, mibps, period_tick, tick};
use crate::live::estate::VolumeAnswer;
use crate::live::over_time::Step;
use crate::report::escape;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

#[derive(Debug, Clone)]
pub(super) struct Data {
    name: String,
    step: Step,
    per: u32,
    /// Each period's start (RFC 3339) with its P50, P95 and max, and its sample count.
    periods: Vec<(String, [f64; 3], usize)>,
    qos: Option<f64>,
    unread: usize,
}

const SERIES_NAMES: [&str; 3] = ["P50", "P95", "Max"];

/// The chart of `v`'s demand over time; None when its times could not be read.
pub(super) fn chart(v: &VolumeAnswer) -> Option<Chart> {
    let o = v.demand_over_time.as_ref()?;
    let name = escape::plain(&v.name).replace(['\n', '\t'], " ");
    let unit = match o.step {
        Step::Day => "day",
        Step::Hour => "hour",
    };
    let (per, periods) = match o.per {
        1 => (unit.to_owned(), format!("{} {unit}s", o.periods.len())),
        n => (
            format!("{n} {unit}s"),
            format!("{} periods of {n} {unit}s", o.periods.len()),
        ),
    };
    let qos = v
        .qos_mibps
        .map(|q| format!(", beside its QoS throughput of {}", mibps(q)))
        .unwrap_or_default();
    Some(Chart {
        title: format!("Demand of {name} over time (MiB/s)"),
        summary: format!(
            "Read plus write MiB/s of {name} per {per} (UTC) over {periods} at P50, P95 and at most{qos}."
        ),
        size: (780, 380),
        measured: Vec::new(),
        kind: Kind::LiveOverTime(Data {
            name: name.clone(),
            step: o.step,
            per: o.per,
            periods: o
                .periods
                .iter()
                .map(|p| (p.start.clone(), [p.p50, p.p95, p.max], p.samples))
                .collect(),
            qos: v.qos_mibps,
            unread: o.unread,
        }),
    })
}

pub(super) fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, d: &Data) -> DrawResult<DB> {
    let n = d.periods.len();
    let x = Linear::slots(n);
    let y = Linear::from_zero(
        d.periods
            .iter()
            .flat_map(|(_, v, _)| v.iter().copied())
            .chain(d.qos)
            .chain([1.0]),
        1.1,
        6,
    );
    let root = root.titled(
        &format!("Demand of {} over time: P50, P95 and max MiB/s", d.name),
        caption_style(),
    )?;
    let mut items: Vec<LegendItem> = SERIES_NAMES
        .iter()
        .enumerate()
        .map(|(j, name)| LegendItem::new(*name, SeriesStyle::of(j).colour, Sample::Marked(j)))
        .collect();
    if d.qos.is_some() {
        items.push(LegendItem::line("QoS throughput", OI_BLACK, true));
    }
    let (key, plot) = root.split_vertically(key_row_height(&root, &items)?);
    draw_key_row(&key, &items)?;
    let hourly = d.step == Step::Hour;
    let label = |v: &f64| {
        let i = v.round();
        if (v - i).abs() > 1e-6 || i < 0.0 {
            return String::new();
        }
        d.periods
            .get(i as usize)
            .map_or_else(String::new, |(at, _, _)| period_tick(at, hourly))
    };
    let mut chart = ChartBuilder::on(&plot)
        .margin(12)
        .margin_right(24)
        .x_label_area_size(44)
        .y_label_area_size(70)
        .build_cartesian_2d(x.range(), y.range())?;
    mesh(&mut chart, 11)
        .disable_x_mesh()
        .x_labels(n.clamp(1, if hourly { 6 } else { 8 }))
        .y_labels(y.labels)
        .x_label_formatter(&label)
        .y_label_formatter(&|v| tick(*v))
        .x_desc(axis_title(d))
        .y_desc("Read + write MiB/s")
        .draw()?;
    // Max first, P50 last: where P95 and max meet, P95's markers stay in sight.
    for j in (0..3).rev() {
        let style = SeriesStyle::of(j);
        let pts: Vec<(f64, f64)> = d
            .periods
            .iter()
            .enumerate()
            .map(|(i, (_, v, _))| (i as f64, y.at(v[j])))
            .collect();
        chart.draw_series(std::iter::once(PathElement::new(
            pts.clone(),
            style.colour.stroke_width(2),
        )))?;
        style.draw_markers(chart.plotting_area(), &pts)?;
    }
    if let Some(q) = d.qos {
        let q = y.at(q);
        chart.draw_series(std::iter::once(DashedPathElement::new(
            vec![(x.lo, q), (x.hi, q)],
            6,
            4,
            OI_BLACK.stroke_width(2),
        )))?;
    }
    Ok(())
}

/// The time axis's title, also the table's first header.
fn axis_title(d: &Data) -> String {
    match (d.step, d.per) {
        (Step::Day, 1) => "Day (UTC)".to_owned(),
        (Step::Hour, 1) => "Hour (UTC)".to_owned(),
        (Step::Day, n) => format!("Start of each {n}-day period (UTC)"),
        (Step::Hour, n) => format!("Start of each {n}-hour period (UTC)"),
    }
}

pub(super) fn table(title: &str, d: &Data) -> ChartTable {
    let first = axis_title(d);
    let mut notes = vec![match d.qos {
        Some(q) => format!(
            "Percentiles of the samples in each period. QoS throughput {} MiB/s.",
            exact(q)
        ),
        None => "Percentiles of the samples in each period. QoS throughput not known.".to_owned(),
    }];
    if d.unread > 0 {
        notes.push(format!(
            "{} samples whose time could not be read are left out.",
            d.unread
        ));
    }
    ChartTable {
        caption: title.to_owned(),
        headers: [
            first.as_str(),
            "P50 (MiB/s)",
            "P95 (MiB/s)",
            "Max (MiB/s)",
            "Samples",
        ]
        .map(str::to_owned)
        .to_vec(),
        rows: d
            .periods
            .iter()
            .map(|(at, v, n)| {
                let mut row = vec![at.get(..16).unwrap_or(at).replacen('T', " ", 1)];
                row.extend(v.iter().map(|x| exact(*x)));
                row.push(n.to_string());
                row
            })
            .collect(),
        notes,
    }
}
