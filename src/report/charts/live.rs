//! The live estate's demand chart: each measured volume's P50, P95 and largest read +
//! write MiB/s over the period, side by side, with its QoS throughput marked.

use super::axis::{Linear, Span};
use super::legend::{LegendItem, draw_key_row, key_row_height};
use super::style::{DrawResult, GroupLabels, OI_BLACK, SERIES, caption_style, mesh};
use super::{Chart, ChartTable, Kind};
use crate::format::{exact, tick};
use crate::live::estate::LiveAnswer;
use crate::report::escape;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

/// Most volumes one chart draws (the table lists them all).
const MAX_BARS: usize = 40;

#[derive(Debug, Clone)]
pub(super) struct Data {
    /// Name, P50, P95, max and QoS throughput of each volume.
    rows: Vec<(String, [f64; 3], Option<f64>)>,
}

pub(super) fn chart(answer: &LiveAnswer) -> Chart {
    let rows: Vec<(String, [f64; 3], Option<f64>)> = answer
        .volumes
        .iter()
        .filter_map(|v| {
            let d = v.demand_mibps?;
            Some((
                escape::plain(&v.name).replace(['\n', '\t'], " "),
                [d.p50, d.p95, d.max],
                v.qos_mibps,
            ))
        })
        .collect();
    let summary = format!(
        "Read plus write MiB/s of {} measured volume{} at P50, P95 and at most, each beside its QoS throughput where it is known.",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" }
    );
    Chart {
        title: "Demand per volume (MiB/s)".to_owned(),
        summary,
        size: (780, 460),
        measured: Vec::new(),
        kind: Kind::LiveDemand(Data { rows }),
    }
}

const SERIES_NAMES: [&str; 3] = ["P50", "P95", "Max"];

pub(super) fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, d: &Data) -> DrawResult<DB> {
    let rows: Vec<&(String, [f64; 3], Option<f64>)> = d.rows.iter().take(MAX_BARS).collect();
    let groups = rows.len().max(1);
    let y = Linear::from_zero(
        rows.iter()
            .flat_map(|(_, v, q)| v.iter().copied().chain(q.iter().copied()))
            .chain([1.0]),
        1.1,
        7,
    );
    let root = root.titled("Demand per volume: P50, P95 and max MiB/s", caption_style())?;
    let mut items: Vec<LegendItem> = SERIES_NAMES
        .iter()
        .enumerate()
        .map(|(j, n)| LegendItem::swatch(*n, SERIES[j]))
        .collect();
    items.push(LegendItem::line("QoS throughput", OI_BLACK, true));
    let (key, plot) = root.split_vertically(key_row_height(&root, &items)?);
    draw_key_row(&key, &items)?;
    let names: Vec<&str> = rows.iter().map(|(n, _, _)| n.as_str()).collect();
    let labels = GroupLabels::of(&plot, &names, 3)?;
    let x = Linear::slots(groups);
    let mut chart = ChartBuilder::on(&plot)
        .margin(12)
        .margin_right(24)
        .x_label_area_size(labels.area_height())
        .y_label_area_size(70)
        .build_cartesian_2d(x.range(), y.range())?;
    mesh(&mut chart, 11)
        .disable_x_mesh()
        .x_labels(groups.min(50))
        .y_labels(y.labels)
        .x_label_formatter(&|_| String::new())
        .y_label_formatter(&|v| tick(*v))
        .x_desc("Volume")
        .y_desc("Read + write MiB/s")
        .draw()?;
    labels.draw(&chart, y.lo)?;
    let w = 0.8 / 3.0;
    for j in 0..3 {
        let bars: Vec<Rectangle<(f64, f64)>> = rows
            .iter()
            .enumerate()
            .map(|(g, (_, v, _))| {
                let x0 = g as f64 - 0.4 + j as f64 * w;
                Rectangle::new([(x0, 0.0), (x0 + w * 0.92, y.at(v[j]))], SERIES[j].filled())
            })
            .collect();
        chart.draw_series(bars)?;
    }
    chart.draw_series(rows.iter().enumerate().filter_map(|(g, (_, _, q))| {
        let q = y.at((*q)?);
        Some(DashedPathElement::new(
            vec![(g as f64 - 0.45, q), (g as f64 + 0.45, q)],
            5,
            4,
            OI_BLACK.stroke_width(2),
        ))
    }))?;
    Ok(())
}

pub(super) fn table(title: &str, d: &Data) -> ChartTable {
    ChartTable {
        caption: title.to_owned(),
        headers: [
            "Volume",
            "P50 (MiB/s)",
            "P95 (MiB/s)",
            "Max (MiB/s)",
            "QoS throughput (MiB/s)",
        ]
        .map(str::to_owned)
        .to_vec(),
        rows: d
            .rows
            .iter()
            .map(|(n, v, q)| {
                let mut row = vec![n.clone()];
                row.extend(v.iter().map(|x| exact(*x)));
                row.push(q.map_or_else(|| "not known".to_owned(), exact));
                row
            })
            .collect(),
        notes: vec!["Percentiles over every interval of the export.".to_owned()],
    }
}
