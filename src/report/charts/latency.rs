//! The latency chart: the model's latency per IO as load rises to the achievable rate,
//! the knee and the scenario's targets marked, measured runs beside the curve.

use super::axis::{Linear, Span};
use super::legend::{LegendItem, draw_key_row, key_row_height};
use super::style::{
    BAND_ALPHA, DrawResult, FONT, OI_BLACK, OI_BLUE, OI_BLUE_BAND, OI_GREEN, OI_PURPLE,
    OI_VERMILLION, caption_style, mesh,
};
use super::{Chart, ChartTable, Kind, mix_text, name};
use crate::engine::model::curve::CurvePoint;
use crate::engine::units::iops_to_mibps;
use crate::engine::{Evaluation, Scenario};
use crate::format::{ms, num, tick};
use crate::measure::Measurement;
use crate::report::escape;
use crate::report::summary::{self, latency};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The line is drawn through this many loads, evenly from 0 to 100 %.
const LINE_STEPS: u32 = 25;

#[derive(Debug, Clone)]
pub(super) struct Data {
    /// The model's curve, load rising to the achievable rate (the last point): the
    /// markers and the data table.
    curve: Vec<CurvePoint>,
    /// (IOPS, ms) of the same curve at [`LINE_STEPS`] loads, for a smooth line.
    line: Vec<(f64, f64)>,
    pub(super) io_kib: f64,
    /// (label, IOPS) of the rate targets.
    target_rates: Vec<(String, f64)>,
    target_latency_ms: Option<f64>,
    /// (IOPS, ms): the latency at the target rate, when it is in reach.
    at_target: Option<(f64, f64)>,
    /// Measured runs with a latency, at the scenario's IO size (drawn) or not (listed).
    pub(super) runs: Vec<LatencyRun>,
}

/// A measured run as the latency chart places it: its load and the mean latency the
/// benchmark tool reported.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyRun {
    pub label: String,
    pub io_size_kib: f64,
    pub iops: f64,
    pub mibps: f64,
    pub latency_ms: f64,
}

impl LatencyRun {
    /// The run's point; `None` when the tool reported no latency.
    pub fn of(m: &Measurement) -> Option<LatencyRun> {
        let latency_ms = m.latency_mean_ms.filter(|l| l.is_finite() && *l > 0.0)?;
        (m.iops.is_finite() && m.iops > 0.0).then(|| LatencyRun {
            label: escape::plain(&m.label),
            io_size_kib: m.io_size_kib,
            iops: m.iops,
            mibps: m.mibps,
            latency_ms,
        })
    }

    /// True when the run used the IO size the curve is drawn for (within 1%), so its
    /// IOPS and latency compare with the curve.
    pub(super) fn comparable(&self, io_kib: f64) -> bool {
        (self.io_size_kib / io_kib - 1.0).abs() <= 0.01
    }
}

pub(super) fn chart(s: &Scenario, e: &Evaluation) -> Chart {
    let curve: Vec<CurvePoint> = e
        .latency_curve
        .points()
        .filter(|p| p.iops.is_finite() && p.latency_ms.is_finite())
        .collect();
    // Never falling as load rises, like the curve's own points.
    let mut last = 0.0_f64;
    let line = (1..=LINE_STEPS)
        .map(|i| {
            let pct = 100.0 * f64::from(i) / f64::from(LINE_STEPS);
            last = e.latency_curve.latency_ms_at(pct).max(last);
            (e.iops * pct / 100.0, last)
        })
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .collect();
    let io = s.workload.io_size_kib;
    let mut target_rates = Vec::new();
    if let Some(t) = s.workload.target_mibps {
        target_rates.push((format!("target {} MiB/s", num(t, 0)), t * 1024.0 / io));
    }
    if let Some(t) = s.workload.target_iops {
        target_rates.push((format!("target {} IOPS", num(t, 0)), t));
    }
    Chart {
        title: format!("Latency against load: {} ({})", name(s), mix_text(s)),
        summary: summary::latency_caption(s, e, &curve),
        size: (780, 460),
        measured: Vec::new(),
        kind: Kind::Latency(Data {
            curve,
            line,
            io_kib: io,
            target_rates,
            target_latency_ms: s.workload.target_latency_ms,
            at_target: latency::target_iops(s).zip(e.latency_at_target_ms),
            runs: Vec::new(),
        }),
    }
}

pub(super) fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, d: &Data) -> DrawResult<DB> {
    let drawn: Vec<&LatencyRun> = d.runs.iter().filter(|r| r.comparable(d.io_kib)).collect();
    // The load axis ends just past the furthest point, not on a round number, so the
    // curve fills the width; plotters picks round tick values inside it.
    let x_ticks = ((root.dim_in_pixel().0 / 100) as usize).clamp(5, 8);
    let x = Linear::tight(
        d.curve
            .iter()
            .map(|p| p.iops)
            .chain(d.target_rates.iter().map(|t| t.1))
            .chain(drawn.iter().map(|r| r.iops)),
        1.06,
        x_ticks,
    );
    // Latency on a linear scale from 0, where the knee reads as the bend from flat to
    // steep; the labels and the data table give the small values.
    let y = Linear::from_zero(
        d.curve
            .iter()
            .map(|p| p.latency_ms_high)
            .chain(d.target_latency_ms)
            .chain(d.at_target.map(|a| a.1))
            .chain(drawn.iter().map(|r| r.latency_ms)),
        1.12,
        6,
    );
    let at = |(px, py): (f64, f64)| (x.at(px), y.at(py));
    let achievable = d.curve.last();

    let body = root.titled("Latency per IO against load", caption_style())?;
    let mut items = vec![
        LegendItem::line("model: latency at each load", OI_BLUE, false),
        LegendItem::swatch("likely range (80 %)", OI_BLUE_BAND),
    ];
    if let Some(p) = achievable {
        items.push(LegendItem::dot(
            format!("achievable: {} ms", ms(p.latency_ms)),
            OI_VERMILLION,
        ));
    }
    items.extend(
        d.target_rates
            .iter()
            .map(|(l, _)| LegendItem::dotted(l.clone(), OI_GREEN)),
    );
    if let Some(t) = d.target_latency_ms {
        items.push(LegendItem::line(
            format!("target {} ms", ms(t)),
            OI_GREEN,
            true,
        ));
    }
    if !drawn.is_empty() {
        items.push(LegendItem::cross("measured runs", OI_PURPLE));
    }
    let (key, body) = body.split_vertically(key_row_height(&body, &items)?);
    draw_key_row(&key, &items)?;

    let mibps = x.scaled(iops_to_mibps(1.0, d.io_kib));
    let mut chart = ChartBuilder::on(&body)
        .margin(12)
        .margin_right(30)
        .x_label_area_size(44)
        .top_x_label_area_size(44)
        .y_label_area_size(70)
        .build_cartesian_2d(x.range(), y.range())?
        .set_secondary_coord(mibps.range(), y.range());
    mesh(&mut chart, 12)
        .x_labels(x.labels)
        .y_labels(y.labels)
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick(*v))
        .x_desc(format!("Load (IOPS at {} KiB)", num(d.io_kib, 1)))
        .y_desc("Latency per IO (ms)")
        .draw()?;
    chart
        .configure_secondary_axes()
        .x_labels(mibps.labels)
        .x_label_formatter(&|v| tick(*v))
        .x_desc("Load (MiB/s)")
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 14))
        .draw()?;

    // Labels sit a fixed share of the axes away from their point, above and to the left
    // of points on the curve (where a rising or flat curve leaves room).
    let (dx, dy) = (x.hi * 0.012, y.hi * 0.025);
    let label = |text: String, p: (f64, f64), colour: RGBColor, pos: Pos| {
        Text::new(text, at(p), (FONT, 12).into_font().color(&colour).pos(pos))
    };
    for (_, rate) in &d.target_rates {
        chart.draw_series(DashedLineSeries::new(
            vec![at((*rate, y.lo)), at((*rate, y.hi))],
            2,
            3,
            OI_GREEN.stroke_width(3),
        ))?;
    }
    if let Some(t) = d.target_latency_ms {
        chart.draw_series(DashedLineSeries::new(
            vec![at((x.lo, t)), at((x.hi, t))],
            7,
            4,
            OI_GREEN.stroke_width(2),
        ))?;
    }
    // The likely range (80 % interval) at each load, under the line.
    let band: Vec<(f64, f64)> = d
        .curve
        .iter()
        .map(|p| at((p.iops, p.latency_ms_low)))
        .chain(
            d.curve
                .iter()
                .rev()
                .map(|p| at((p.iops, p.latency_ms_high))),
        )
        .collect();
    chart.draw_series(std::iter::once(Polygon::new(
        band,
        OI_BLUE.mix(BAND_ALPHA).filled(),
    )))?;
    chart.draw_series(LineSeries::new(
        d.line.iter().map(|p| at(*p)),
        OI_BLUE.stroke_width(3),
    ))?;
    chart.draw_series(
        d.curve
            .iter()
            .map(|p| Circle::new(at((p.iops, p.latency_ms)), 3, OI_BLUE.filled())),
    )?;
    if let Some(k) = latency::knee(&d.curve).filter(|k| k.load_pct < 100.0) {
        let p = (k.iops, k.latency_ms);
        chart.draw_series(std::iter::once(Circle::new(
            at(p),
            7,
            OI_BLACK.stroke_width(2),
        )))?;
        chart.draw_series(std::iter::once(label(
            format!("latency doubled ({}% load)", num(k.load_pct, 0)),
            (p.0 + dx, p.1 - dy),
            OI_BLACK,
            Pos::new(HPos::Left, VPos::Top),
        )))?;
    }
    if let Some(p) = d.at_target {
        chart.draw_series(std::iter::once(TriangleMarker::new(
            at(p),
            7,
            OI_GREEN.filled(),
        )))?;
        chart.draw_series(std::iter::once(label(
            format!("{} ms at the target", ms(p.1)),
            (p.0 - dx, p.1 + dy),
            OI_BLACK,
            Pos::new(HPos::Right, VPos::Bottom),
        )))?;
    }
    chart.draw_series(
        drawn
            .iter()
            .map(|r| Cross::new(at((r.iops, r.latency_ms)), 6, OI_PURPLE.stroke_width(3))),
    )?;
    if let Some(c) = achievable {
        let p = (c.iops, c.latency_ms);
        chart.draw_series(std::iter::once(Circle::new(
            at(p),
            6,
            OI_VERMILLION.filled(),
        )))?;
        chart.draw_series(std::iter::once(label(
            format!(
                "achievable: {} IOPS, {} ms",
                num(c.iops, 0),
                ms(c.latency_ms)
            ),
            (p.0 - dx, p.1 + dy),
            OI_VERMILLION,
            Pos::new(HPos::Right, VPos::Bottom),
        )))?;
    }
    Ok(())
}

pub(super) fn table(title: &str, d: &Data) -> ChartTable {
    let knee = latency::knee(&d.curve).map(|k| k.load_pct);
    let rows = d
        .curve
        .iter()
        .map(|p| {
            let mut load = num(p.load_pct, 0);
            if p.load_pct >= 100.0 {
                load.push_str(" (achievable)");
            } else if Some(p.load_pct) == knee {
                load.push_str(" (latency doubled)");
            }
            vec![load, num(p.iops, 0), num(p.mibps, 1), num(p.latency_ms, 3)]
        })
        .collect();
    let mut notes: Vec<String> = d
        .target_rates
        .iter()
        .map(|(l, iops)| format!("{l}: {} IOPS at this IO size.", num(*iops, 0)))
        .collect();
    notes.extend(summary::latency_target_notes(
        d.at_target.map(|(_, t)| t),
        !d.target_rates.is_empty(),
        d.target_latency_ms,
    ));
    notes.extend(d.runs.iter().map(|r| {
        let mut note = format!(
            "Measured “{}”: {} IOPS, {} MiB/s at {} KiB, latency {} ms per IO",
            r.label,
            num(r.iops, 0),
            num(r.mibps, 1),
            num(r.io_size_kib, 1),
            num(r.latency_ms, 3)
        );
        if !r.comparable(d.io_kib) {
            note.push_str(&format!(
                " (not drawn: the curve is for {} KiB)",
                num(d.io_kib, 1)
            ));
        }
        note.push('.');
        note
    }));
    ChartTable {
        caption: title.to_owned(),
        headers: ["Load (% of achievable)", "IOPS", "MiB/s", "Latency (ms)"]
            .map(str::to_owned)
            .to_vec(),
        rows,
        notes,
    }
}
