//! The layouts chart: the same capacity over different datastore (volume) counts,
//! throughput and per-datastore QoS on the left axis, connections per host on the right.

use super::axis::{Linear, Log, Span};
use super::legend::{LegendItem, draw_key_row, key_row_height};
use super::style::{DrawResult, FONT, OI_BLACK, OI_BLUE, OI_GREEN, OI_ORANGE, caption_style, mesh};
use super::{Chart, ChartTable, Kind};
use crate::engine::sweep::LayoutRow;
use crate::format::{NOT_PRICED, money, num, tick};
use crate::report::summary;
use plotters::coord::Shift;
use plotters::prelude::*;

#[derive(Debug, Clone)]
pub(super) struct Data {
    rows: Vec<LayoutRow>,
    suggested: Option<usize>,
}

pub(super) fn chart(rows: &[LayoutRow], suggested: Option<usize>) -> Chart {
    Chart {
        title: "Datastore layouts: same capacity, different counts".to_owned(),
        summary: summary::layouts_caption(rows, suggested),
        size: (780, 440),
        measured: Vec::new(),
        kind: Kind::Layouts(Data {
            rows: rows.to_vec(),
            suggested,
        }),
    }
}

pub(super) fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, d: &Data) -> DrawResult<DB> {
    let counts: Vec<f64> = d.rows.iter().map(|r| f64::from(r.count)).collect();
    let (cmin, cmax) = counts.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), c| {
        (lo.min(*c), hi.max(*c))
    });
    let x = if cmin.is_finite() {
        Log::span(cmin / 1.3, cmax.max(cmin * 2.0) * 1.3)
    } else {
        Log::span(1.0 / 1.3, 2.0 * 1.3)
    };
    let keys: Vec<f64> = counts.iter().copied().filter(|c| x.shows(*c)).collect();
    let y = Linear::from_zero(
        d.rows
            .iter()
            .flat_map(|r| [Some(r.throughput_mibps), r.qos_per_volume_mibps])
            .flatten(),
        1.1,
        7,
    );
    let conn = Linear::from_zero(
        d.rows
            .iter()
            .map(|r| r.connections_per_client as f64)
            .chain([4.0]),
        1.1,
        6,
    );
    let body = root.titled(
        "Datastore count against throughput and connections",
        caption_style(),
    )?;
    let mut items = vec![
        LegendItem::line("Achievable MiB/s", OI_BLUE, false),
        LegendItem::line("QoS per datastore (MiB/s)", OI_ORANGE, true),
        LegendItem::line("Connections per host (right axis)", OI_GREEN, false),
    ];
    if let Some(r) = d.suggested.and_then(|i| d.rows.get(i)) {
        items.push(LegendItem::dotted(
            format!("Suggested: {} datastores", r.count),
            OI_BLACK,
        ));
    }
    let (key, body) = body.split_vertically(key_row_height(&body, &items)?);
    draw_key_row(&key, &items)?;
    let mut chart = ChartBuilder::on(&body)
        .margin(12)
        .x_label_area_size(48)
        .y_label_area_size(78)
        .right_y_label_area_size(70)
        .build_cartesian_2d(
            x.range().log_scale().with_key_points(keys.clone()),
            y.range(),
        )?
        .set_secondary_coord(x.range().log_scale().with_key_points(keys), conn.range());
    mesh(&mut chart, 12)
        .y_labels(y.labels)
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick(*v))
        .x_desc("Datastores (count, same total capacity; log scale)")
        .y_desc("MiB/s")
        .draw()?;
    chart
        .configure_secondary_axes()
        .y_labels(conn.labels)
        .y_label_formatter(&|v| tick(*v))
        .y_desc("Connections per host (count)")
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 14))
        .draw()?;
    let thr: Vec<(f64, f64)> = d
        .rows
        .iter()
        .map(|r| (x.at(f64::from(r.count)), y.at(r.throughput_mibps)))
        .collect();
    chart.draw_series(LineSeries::new(thr.clone(), OI_BLUE.stroke_width(3)))?;
    chart.draw_series(thr.iter().map(|p| Circle::new(*p, 4, OI_BLUE.filled())))?;
    let qos: Vec<(f64, f64)> = d
        .rows
        .iter()
        .filter_map(|r| {
            r.qos_per_volume_mibps
                .map(|q| (x.at(f64::from(r.count)), y.at(q)))
        })
        .collect();
    if !qos.is_empty() {
        chart.draw_series(DashedLineSeries::new(
            qos.clone(),
            7,
            4,
            OI_ORANGE.stroke_width(3),
        ))?;
        chart.draw_series(
            qos.iter()
                .map(|p| TriangleMarker::new(*p, 5, OI_ORANGE.filled())),
        )?;
    }
    let links: Vec<(f64, f64)> = d
        .rows
        .iter()
        .map(|r| {
            (
                x.at(f64::from(r.count)),
                conn.at(r.connections_per_client as f64),
            )
        })
        .collect();
    chart.draw_secondary_series(LineSeries::new(links.clone(), OI_GREEN.stroke_width(2)))?;
    chart.draw_secondary_series(links.iter().map(|p| {
        Rectangle::new(
            [(x.at(p.0 / 1.03), p.1), (x.at(p.0 * 1.03), p.1)],
            OI_GREEN.stroke_width(6),
        )
    }))?;
    if let Some(r) = d.suggested.and_then(|i| d.rows.get(i)) {
        let at = x.at(f64::from(r.count));
        chart.draw_series(DashedLineSeries::new(
            vec![(at, y.lo), (at, y.hi)],
            2,
            3,
            OI_BLACK.stroke_width(3),
        ))?;
    }
    Ok(())
}

pub(super) fn table(title: &str, d: &Data) -> ChartTable {
    let rows = d
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            vec![
                if Some(i) == d.suggested {
                    format!("{} (suggested)", r.count)
                } else {
                    r.count.to_string()
                },
                num(r.quota_tib, 3),
                num(r.throughput_mibps, 1),
                num(r.iops, 0),
                r.qos_per_volume_mibps
                    .map_or_else(|| "n/a".to_owned(), |q| num(q, 1)),
                num(r.connections_per_client as f64, 0),
                r.monthly
                    .map_or_else(|| NOT_PRICED.to_owned(), |c| money(c, r.currency)),
            ]
        })
        .collect();
    ChartTable {
        caption: title.to_owned(),
        headers: [
            "Datastores",
            "TiB each",
            "MiB/s",
            "IOPS",
            "QoS per datastore (MiB/s)",
            "Connections per host",
            "Monthly cost",
        ]
        .map(str::to_owned)
        .to_vec(),
        rows,
        notes: vec![summary::LAYOUTS_COST_NOTE.to_owned()],
    }
}
