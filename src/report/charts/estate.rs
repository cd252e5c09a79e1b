//! The estate timeline: monthly cost over the months of the plan, each event of the
//! resize schedule marked by its kind.

use super::axis::{Linear, Span};
use super::legend::{LegendItem, draw_key_row, key_row_height};
use super::style::{DrawResult, OI_BLUE, SERIES, caption_style, mesh};
use super::{Chart, ChartTable, Kind};
use crate::estate::{EstatePlan, EventKind};
use crate::format::{money, money_tick, num, tick};
use crate::report::escape;
use crate::report::summary::estate::{event_name, timeline_caption};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Every kind of event, in legend order.
const KINDS: [EventKind; 5] = [
    EventKind::PoolGrows,
    EventKind::LargeVolume,
    EventKind::LevelChange,
    EventKind::Unmet,
    EventKind::WhatIf,
];

#[derive(Debug, Clone)]
pub(super) struct Data {
    /// (month, cost that month).
    months: Vec<(u32, f64)>,
    /// (month, kind, what happens).
    events: Vec<(u32, EventKind, String)>,
    currency: &'static str,
}

pub(super) fn chart(p: &EstatePlan) -> Chart {
    Chart {
        title: format!(
            "Monthly cost over the timeline: {}",
            escape::plain(&p.name).replace(['\n', '\t'], " ")
        ),
        summary: timeline_caption(p),
        size: (860, 400),
        measured: Vec::new(),
        kind: Kind::Timeline(Data {
            months: p.timeline.iter().map(|m| (m.month, m.monthly)).collect(),
            events: p
                .events
                .iter()
                .map(|e| (e.month, e.kind, escape::plain(&e.message)))
                .collect(),
            currency: p.currency,
        }),
    }
}

/// The colour of an event kind's marker.
fn colour(kind: EventKind) -> RGBColor {
    let i = KINDS.iter().position(|k| *k == kind).unwrap_or(0);
    SERIES[(i + 1) % SERIES.len()]
}

pub(super) fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, d: &Data) -> DrawResult<DB> {
    let last = d.months.iter().map(|m| m.0).max().unwrap_or(1).max(1);
    let x = Linear::from_zero([f64::from(last)], 1.0, 9);
    let y = Linear::from_zero(d.months.iter().map(|m| m.1), 1.15, 6);
    let body = root.titled("Monthly cost over the timeline", caption_style())?;
    let mut items = vec![LegendItem::line("Cost a month", OI_BLUE, false)];
    for k in KINDS {
        if d.events.iter().any(|e| e.1 == k) {
            items.push(LegendItem::dot(event_name(k), colour(k)));
        }
    }
    let (key, body) = body.split_vertically(key_row_height(&body, &items)?);
    draw_key_row(&key, &items)?;
    let currency = d.currency;
    let mut chart = ChartBuilder::on(&body)
        .margin(12)
        .margin_right(24)
        .x_label_area_size(44)
        .y_label_area_size(84)
        .build_cartesian_2d(x.range(), y.range())?;
    mesh(&mut chart, 12)
        .x_labels(x.labels)
        .y_labels(y.labels)
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| money_tick(*v, currency))
        .x_desc("Month from now")
        .y_desc(format!("Cost a month ({currency})"))
        .draw()?;
    let at = |(m, v): (u32, f64)| (x.at(f64::from(m)), y.at(v));
    chart.draw_series(LineSeries::new(
        d.months.iter().map(|m| at(*m)),
        OI_BLUE.stroke_width(2),
    ))?;
    for (month, kind, _) in &d.events {
        let cost = d.months.iter().find(|m| m.0 == *month).map_or(0.0, |m| m.1);
        chart.draw_series(std::iter::once(Circle::new(
            at((*month, cost)),
            5,
            colour(*kind).filled(),
        )))?;
    }
    Ok(())
}

pub(super) fn table(title: &str, d: &Data) -> ChartTable {
    ChartTable {
        caption: title.to_owned(),
        headers: ["Month", "Cost a month", "Events"]
            .map(str::to_owned)
            .to_vec(),
        rows: d
            .months
            .iter()
            .map(|(m, v)| {
                let events: Vec<&str> = d
                    .events
                    .iter()
                    .filter(|e| e.0 == *m)
                    .map(|e| event_name(e.1))
                    .collect();
                vec![
                    num(f64::from(*m), 0),
                    money(*v, d.currency),
                    events.join("; "),
                ]
            })
            .collect(),
        notes: Vec::new(),
    }
}
