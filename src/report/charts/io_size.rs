//! The io-size chart: achievable throughput and every ceiling (upper panel) and IOPS
//! (lower panel) against the IO size, both on log scales, the scenario's IO size marked.

use super::axis::{Log, Span};
use super::legend::{LegendItem, Sample, draw_legend};
use super::style::{
    DrawResult, FONT, OI_BLACK, OI_BLUE, OI_PURPLE, OI_VERMILLION, SeriesStyle, caption_style, mesh,
};
use super::{Chart, ChartTable, Kind, name};
use crate::engine::Scenario;
use crate::engine::sweep::{self, IoSizeSweep};
use crate::format::{num, tick};
use crate::measure::MeasuredPoint;
use crate::report::summary;
use plotters::coord::Shift;
use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

pub(super) fn chart(s: &Scenario, sw: IoSizeSweep) -> Chart {
    Chart {
        title: format!("Throughput and IOPS against IO size: {}", name(s)),
        summary: summary::io_size_caption(&sw),
        size: (860, 640),
        measured: Vec::new(),
        kind: Kind::IoSize(sw),
    }
}

/// The coordinates of a panel: log-scale IO size across, a log-scale figure up.
type LogLog = Cartesian2d<WithKeyPoints<LogCoord<f64>>, WithKeyPoints<LogCoord<f64>>>;

/// One panel with its grid and axis titles drawn: IO size (KiB) at the key points `xs`
/// across `x`, and `y` up with `y_desc` as its title.
fn panel<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    xs: &[f64],
    x: &Log,
    y: &Log,
    y_desc: &str,
) -> Result<ChartContext<'a, DB, LogLog>, DrawingAreaErrorKind<DB::ErrorType>> {
    let keys: Vec<f64> = xs.iter().copied().filter(|v| x.shows(*v)).collect();
    let mut chart = ChartBuilder::on(area)
        .margin(8)
        .margin_right(20)
        .x_label_area_size(40)
        .y_label_area_size(78)
        .build_cartesian_2d(
            x.range().log_scale().with_key_points(keys),
            y.range().log_scale().with_key_points(y.ticks.clone()),
        )?;
    mesh(&mut chart, 12)
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick(*v))
        .x_desc("IO size (KiB, log scale)")
        .y_desc(y_desc)
        .draw()?;
    Ok(chart)
}

/// Ceilings that draw the same line (within 0.1 % at every IO size) as one series,
/// named together, so that none hides behind another.
fn coinciding(ceilings: &[sweep::Ceiling]) -> Vec<(Vec<&'static str>, &[Option<f64>])> {
    let same = |a: &[Option<f64>], b: &[Option<f64>]| {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| match (x, y) {
                (Some(x), Some(y)) => (x - y).abs() <= 0.001 * x.abs().max(y.abs()),
                (None, None) => true,
                _ => false,
            })
    };
    let mut out: Vec<(Vec<&'static str>, &[Option<f64>])> = Vec::new();
    for c in ceilings {
        match out.iter_mut().find(|(_, m)| same(m, &c.mibps)) {
            Some((names, _)) => names.push(c.name),
            None => out.push((vec![c.name], &c.mibps)),
        }
    }
    out
}

pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &IoSizeSweep,
    measured: &[MeasuredPoint],
) -> DrawResult<DB> {
    let root = root.titled("Throughput and IOPS against IO size", caption_style())?;
    let (plots, legend) = root.split_horizontally(root.dim_in_pixel().0 as i32 - 280);
    let (top, bottom) = plots.split_vertically(plots.dim_in_pixel().1 as i32 * 56 / 100);
    let xs: Vec<f64> = d.points.iter().map(|p| p.io_size_kib).collect();
    let x = Log::span(
        xs.first().copied().unwrap_or(4.0) * 0.85,
        xs.last().copied().unwrap_or(1024.0) * 1.15,
    );
    let shown: Vec<&MeasuredPoint> = measured.iter().filter(|m| x.shows(m.io_size_kib)).collect();

    // Upper panel: MiB/s, achievable and every ceiling.
    let y = Log::of(
        d.points
            .iter()
            .map(|p| p.throughput_mibps)
            .chain(
                d.ceilings
                    .iter()
                    .flat_map(|c| c.mibps.iter().flatten().copied()),
            )
            .chain(shown.iter().map(|m| m.mibps)),
    );
    let mut chart = panel(&top, &xs, &x, &y, "Throughput (MiB/s, log scale)")?;
    let mut legend_items = vec![LegendItem::line("Achievable MiB/s", OI_BLACK, false)];
    for (i, (names, mibps)) in coinciding(&d.ceilings).into_iter().enumerate() {
        let style = SeriesStyle::of(i);
        let pts: Vec<(f64, f64)> = xs
            .iter()
            .zip(mibps)
            .filter_map(|(px, v)| {
                v.filter(|v| v.is_finite() && *v > 0.0)
                    .map(|v| (x.at(*px), y.at(v)))
            })
            .collect();
        chart.draw_series(DashedLineSeries::new(
            pts.clone(),
            style.dash,
            style.gap,
            style.colour.stroke_width(2),
        ))?;
        style.draw_markers(chart.plotting_area(), &pts)?;
        legend_items.push(LegendItem::new(
            names.join(" = "),
            style.colour,
            Sample::Series(i),
        ));
    }
    let achieved: Vec<(f64, f64)> = d
        .points
        .iter()
        .map(|p| (x.at(p.io_size_kib), y.at(p.throughput_mibps)))
        .collect();
    chart.draw_series(LineSeries::new(achieved.clone(), OI_BLACK.stroke_width(3)))?;
    chart.draw_series(
        achieved
            .iter()
            .map(|p| Circle::new(*p, 4, OI_BLACK.filled())),
    )?;
    let own = x.at(d.scenario_io_kib);
    // The scenario's own IO size, dotted across a panel.
    let scenario_line = |axis: &Log| {
        DashedLineSeries::new(
            vec![(own, axis.lo), (own, axis.hi)],
            2,
            3,
            OI_VERMILLION.stroke_width(3),
        )
    };
    chart.draw_series(scenario_line(&y))?;
    chart.draw_series(std::iter::once(Text::new(
        format!("scenario: {} KiB", num(d.scenario_io_kib, 1)),
        (x.at(own * 1.04), y.at(y.hi * 0.95)),
        (FONT, 12)
            .into_font()
            .color(&OI_VERMILLION)
            .pos(Pos::new(HPos::Left, VPos::Top)),
    )))?;
    chart.draw_series(shown.iter().map(|m| {
        Cross::new(
            (x.at(m.io_size_kib), y.at(m.mibps)),
            6,
            OI_PURPLE.stroke_width(3),
        )
    }))?;

    // Lower panel: IOPS.
    let y = Log::of(
        d.points
            .iter()
            .map(|p| p.iops)
            .chain(shown.iter().map(|m| m.iops)),
    );
    let mut chart = panel(&bottom, &xs, &x, &y, "IOPS (log scale)")?;
    let iops: Vec<(f64, f64)> = d
        .points
        .iter()
        .map(|p| (x.at(p.io_size_kib), y.at(p.iops)))
        .collect();
    chart.draw_series(
        shown
            .iter()
            .filter(|m| y.shows(m.iops))
            .map(|m| Cross::new((x.at(m.io_size_kib), m.iops), 6, OI_PURPLE.stroke_width(3))),
    )?;
    chart.draw_series(LineSeries::new(iops.clone(), OI_BLUE.stroke_width(3)))?;
    chart.draw_series(
        iops.iter()
            .map(|p| TriangleMarker::new(*p, 5, OI_BLUE.filled())),
    )?;
    chart.draw_series(scenario_line(&y))?;
    legend_items.push(LegendItem::line(
        "Achievable IOPS (lower panel)",
        OI_BLUE,
        false,
    ));
    legend_items.push(LegendItem::dotted("Scenario's IO size", OI_VERMILLION));
    if !shown.is_empty() {
        legend_items.push(LegendItem::cross("Measured runs", OI_PURPLE));
    }
    draw_legend(&legend, &legend_items)
}

/// The name of the limit with id `id` (its id when the sweep has no such ceiling).
fn binding_name(d: &IoSizeSweep, id: &'static str) -> &'static str {
    d.ceilings
        .iter()
        .find(|c| c.id == id)
        .map_or(id, |c| c.name)
}

pub(super) fn table(title: &str, d: &IoSizeSweep) -> ChartTable {
    let mut headers: Vec<String> = [
        "IO size (KiB)",
        "Achievable MiB/s",
        "Achievable IOPS",
        "Binding",
    ]
    .map(str::to_owned)
    .to_vec();
    headers.extend(d.ceilings.iter().map(|c| format!("{} (MiB/s)", c.name)));
    let rows = d
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut row = vec![
                if p.io_size_kib == d.scenario_io_kib {
                    format!("{} (scenario)", num(p.io_size_kib, 1))
                } else {
                    num(p.io_size_kib, 1)
                },
                num(p.throughput_mibps, 1),
                num(p.iops, 0),
                binding_name(d, p.binding).to_owned(),
            ];
            row.extend(d.ceilings.iter().map(|c| {
                c.mibps
                    .get(i)
                    .copied()
                    .flatten()
                    .map_or_else(|| "n/a".to_owned(), |v| num(v, 1))
            }));
            row
        })
        .collect();
    ChartTable {
        caption: title.to_owned(),
        headers,
        rows,
        notes: vec!["Each ceiling is converted to MiB/s at the IO size of its row.".to_owned()],
    }
}
