//! The comparison chart: each metric of several scenarios as a percentage of the first,
//! one group of bars per metric.

use super::axis::{Linear, Span};
use super::legend::{LegendItem, draw_key_row, key_row_height};
use super::style::{DrawResult, GroupLabels, OI_BLACK, SERIES, caption_style, mesh};
use super::{Chart, ChartTable, Kind};
use crate::engine::sweep::{Better, MetricRow};
use crate::format::{exact, num, tick};
use crate::report::escape;
use crate::report::summary;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

#[derive(Debug, Clone)]
pub(super) struct Data {
    names: Vec<String>,
    rows: Vec<MetricRow>,
}

pub(super) fn chart(names: &[String], rows: &[MetricRow]) -> Chart {
    Chart {
        title: "Scenarios compared (percent of the first)".to_owned(),
        summary: summary::compare_caption(names, rows),
        size: (780, 460),
        measured: Vec::new(),
        kind: Kind::Compare(Data {
            names: names
                .iter()
                .map(|n| escape::plain(n).replace(['\n', '\t'], " "))
                .collect(),
            rows: rows.to_vec(),
        }),
    }
}

pub(super) fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, d: &Data) -> DrawResult<DB> {
    let rows: Vec<&MetricRow> = d.rows.iter().filter(|r| r.text.is_empty()).collect();
    let groups = rows.len().max(1);
    let n = d.names.len().max(1);
    let pct = |r: &MetricRow, j: usize| -> Option<f64> {
        let first = r.values.first().copied().flatten()?;
        let v = r.values.get(j).copied().flatten()?;
        (first > 0.0 && v.is_finite() && first.is_finite()).then(|| v / first * 100.0)
    };
    let y = Linear::from_zero(
        rows.iter()
            .flat_map(|r| (0..n).filter_map(|j| pct(r, j)))
            .chain([100.0]),
        1.1,
        7,
    );
    // The arrow says which way is better; the table says it in words.
    let labels: Vec<String> = rows
        .iter()
        .map(|r| {
            let arrow = match r.better {
                Better::Higher => " \u{2191}",
                Better::Lower => " \u{2193}",
                Better::Neither => "",
            };
            format!("{}{arrow}", r.label)
        })
        .collect();
    let root = root.titled("Each metric as % of the first scenario", caption_style())?;
    // The key sits above the bars, never over them.
    let items: Vec<LegendItem> = d
        .names
        .iter()
        .enumerate()
        .map(|(j, name)| LegendItem::swatch(name.clone(), SERIES[j % SERIES.len()]))
        .collect();
    let (key, plot) = root.split_vertically(key_row_height(&root, &items)?);
    draw_key_row(&key, &items)?;
    // Group names under the axis, as wide as a group.
    let labels = GroupLabels::of(&plot, &labels, usize::MAX)?;
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
        .y_label_formatter(&|v| format!("{}%", tick(*v)))
        .x_desc("Metric")
        .y_desc("Percent of the first scenario (%)")
        .draw()?;
    labels.draw(&chart, y.lo)?;
    let w = 0.8 / n as f64;
    for j in 0..n {
        let colour = SERIES[j % SERIES.len()];
        let bars: Vec<Rectangle<(f64, f64)>> = rows
            .iter()
            .enumerate()
            .filter_map(|(g, r)| {
                let v = y.at(pct(r, j)?);
                let x0 = g as f64 - 0.4 + j as f64 * w;
                Some(Rectangle::new(
                    [(x0, 0.0), (x0 + w * 0.92, v)],
                    colour.filled(),
                ))
            })
            .collect();
        chart.draw_series(bars)?;
    }
    chart.draw_series(std::iter::once(DashedPathElement::new(
        vec![(x.lo, 100.0), (x.hi, 100.0)],
        5,
        4,
        OI_BLACK.stroke_width(1),
    )))?;
    Ok(())
}

pub(super) fn table(title: &str, d: &Data) -> ChartTable {
    let mut headers = vec!["Metric".to_owned()];
    headers.extend(d.names.iter().cloned());
    let rows = d
        .rows
        .iter()
        .map(|r| {
            let mut row = vec![if r.unit.is_empty() {
                r.label.to_owned()
            } else {
                format!("{} ({})", r.label, r.unit)
            }];
            for j in 0..d.names.len() {
                let mut cell = match (r.values.get(j).copied().flatten(), r.text.get(j)) {
                    (Some(v), _) => {
                        let mut c = exact(v);
                        if let Some(Some((_, Some(p)))) = r.deltas.get(j)
                            && j > 0
                        {
                            c.push_str(&format!(
                                " ({}{}%)",
                                if *p >= 0.0 { "+" } else { "" },
                                num(*p, 1)
                            ));
                        }
                        c
                    }
                    (None, Some(t)) => t.clone(),
                    (None, None) => String::new(),
                };
                if r.best.get(j).copied().unwrap_or(false) {
                    cell.push_str(" (best)");
                }
                row.push(cell);
            }
            row
        })
        .collect();
    ChartTable {
        caption: title.to_owned(),
        headers,
        rows,
        notes: vec!["Percentages are against the first scenario.".to_owned()],
    }
}
