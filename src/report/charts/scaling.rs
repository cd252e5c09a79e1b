//! The scaling chart: the achievable figure against the number of flows (nconnect, SMB
//! channels or AVS datastores), the scenario's own step marked, and a published
//! measurement beside the model only where it was measured on the same setup.

use super::axis::{Linear, Span};
use super::legend::{LegendItem, draw_key_row, key_row_height};
use super::style::{
    DrawResult, OI_BLACK, OI_BLUE, OI_GREEN, OI_ORANGE, OI_PURPLE, OI_VERMILLION, caption_style,
    mesh,
};
use super::{Chart, ChartTable, Kind, mix_text, name};
use crate::engine::Scenario;
use crate::engine::sweep::{Axis, Metric, Published, ScalingSweep};
use crate::format::{num, tick};
use crate::measure::MeasuredPoint;
use crate::report::summary;
use plotters::coord::Shift;
use plotters::prelude::*;

pub(super) type Data = ScalingSweep;

/// A VM size without the `Standard_` prefix, lower case.
fn vm(s: &Scenario) -> Option<String> {
    s.clients.vm_size.as_deref().map(|v| {
        v.trim_start_matches("Standard_")
            .trim_start_matches("standard_")
            .to_ascii_lowercase()
    })
}

/// Whether the published series was measured on a setup like the scenario's (same
/// clients, VM size, volume type and AVS shape), so that it compares like with like;
/// an unrelated published test is never set beside the design.
fn same_setup(s: &Scenario, p: &Published) -> bool {
    let setup = p.setup.scenario(1, s.workload.read_pct);
    let avs_shape = |x: &Scenario| x.clients.avs.as_ref().map(|a| (a.hosts, a.vms_per_host));
    // AVS hosts are the clients: their VM size field means nothing there.
    let clients = match (&s.clients.avs, &setup.clients.avs) {
        (Some(_), Some(_)) => avs_shape(s) == avs_shape(&setup),
        (None, None) => s.clients.count == setup.clients.count && vm(s) == vm(&setup),
        _ => false,
    };
    clients
        && s.storage.volume_kind == setup.storage.volume_kind
        && s.storage.level == setup.storage.level
}

/// What the chart counts along its axis, for its title.
fn axis_noun(a: Axis) -> &'static str {
    match a {
        Axis::Nconnect => "connections (nconnect)",
        Axis::SmbChannels => "SMB channels",
        Axis::Datastores => "datastores",
    }
}

pub(super) fn chart(s: &Scenario, mut sw: ScalingSweep) -> Chart {
    sw.published.retain(|c| same_setup(s, c.series));
    Chart {
        title: format!(
            "Scaling with {}: {} ({})",
            sw.axis.short(),
            name(s),
            mix_text(s)
        ),
        summary: summary::scaling_caption(&sw),
        size: (780, 440),
        measured: Vec::new(),
        kind: Kind::Scaling(sw),
    }
}

pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &ScalingSweep,
    measured: &[MeasuredPoint],
) -> DrawResult<DB> {
    let metric = d.metric;
    let max_n = d.points.last().map_or(1, |p| p.n).clamp(2, 4096);
    let value = |m: &MeasuredPoint| match metric {
        Metric::Mibps => m.mibps,
        Metric::Iops => m.iops,
    };
    let shown: Vec<(f64, f64)> = measured
        .iter()
        .filter(|m| (1..=max_n).contains(&m.flows))
        .map(|m| (f64::from(m.flows), value(m)))
        .filter(|(_, v)| !v.is_nan())
        .collect();
    let y = Linear::from_zero(
        d.points
            .iter()
            .map(|p| p.value(metric))
            .chain(d.published.iter().flat_map(|c| {
                c.series
                    .points
                    .iter()
                    .map(|p| p.1)
                    .chain(c.model.iter().map(|p| p.1))
            }))
            .chain(shown.iter().map(|p| p.1)),
        1.05,
        7,
    );
    let caption = format!(
        "Achievable {} against the number of {}",
        metric.unit(),
        axis_noun(d.axis)
    );
    let root = root.titled(&caption, caption_style())?;
    // The key sits above the plot, never over its points.
    let marker_colours = [OI_VERMILLION, OI_GREEN, OI_PURPLE, OI_ORANGE];
    let mut items = vec![LegendItem::line("Model, this scenario", OI_BLUE, false)];
    for (i, c) in d.published.iter().enumerate() {
        let colour = marker_colours[i % marker_colours.len()];
        items.push(LegendItem::line(
            "Model at the published setup",
            colour,
            true,
        ));
        items.push(if i % 2 == 0 {
            LegendItem::triangle(c.series.label, colour)
        } else {
            LegendItem::cross(c.series.label, colour)
        });
    }
    if (1..=max_n).contains(&d.current) {
        items.push(LegendItem::line(
            format!("Scenario: {} = {}", d.axis.short(), d.current),
            OI_BLACK,
            true,
        ));
    }
    if !shown.is_empty() {
        items.push(LegendItem::cross(
            "Measured runs (this scenario)",
            OI_PURPLE,
        ));
    }
    let (key, plot) = root.split_vertically(key_row_height(&root, &items)?);
    draw_key_row(&key, &items)?;
    let x = Linear {
        lo: 0.5,
        hi: f64::from(max_n) + 0.5,
        labels: (max_n as usize).min(16),
    };
    let mut chart = ChartBuilder::on(&plot)
        .margin(12)
        .margin_right(30)
        .x_label_area_size(48)
        .y_label_area_size(84)
        .build_cartesian_2d(x.range(), y.range())?;
    mesh(&mut chart, 13)
        .x_labels(x.labels)
        .y_labels(y.labels)
        .x_label_formatter(&|v| {
            if v.fract().abs() < 1e-9 {
                tick(*v)
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|v| tick(*v))
        .x_desc(d.axis.title())
        .y_desc(format!("Achievable ({})", metric.unit()))
        .draw()?;
    let at = |(n, v): (f64, f64)| (x.at(n), y.at(v));
    let model: Vec<(f64, f64)> = d
        .points
        .iter()
        .map(|p| at((f64::from(p.n), p.value(metric))))
        .collect();
    chart.draw_series(LineSeries::new(model.clone(), OI_BLUE.stroke_width(3)))?;
    chart.draw_series(model.iter().map(|p| Circle::new(*p, 4, OI_BLUE.filled())))?;
    for (i, c) in d.published.iter().enumerate() {
        let colour = marker_colours[i % marker_colours.len()];
        // The model at the measured setup, so markers and curve compare like for like.
        let at_setup: Vec<(f64, f64)> = c
            .model
            .iter()
            .map(|(n, v)| at((f64::from(*n), *v)))
            .collect();
        chart.draw_series(DashedLineSeries::new(
            at_setup,
            6,
            4,
            colour.stroke_width(2),
        ))?;
        let pts: Vec<(f64, f64)> = c
            .series
            .points
            .iter()
            .map(|(n, v)| at((f64::from(*n), *v)))
            .collect();
        if i % 2 == 0 {
            chart.draw_series(
                pts.iter()
                    .map(|p| TriangleMarker::new(*p, 7, colour.filled())),
            )?;
        } else {
            chart.draw_series(
                pts.iter()
                    .map(|p| Cross::new(*p, 6, colour.stroke_width(3))),
            )?;
        }
    }
    if (1..=max_n).contains(&d.current) {
        let cur = f64::from(d.current);
        chart.draw_series(DashedLineSeries::new(
            vec![(cur, y.lo), (cur, y.hi)],
            5,
            4,
            OI_BLACK.stroke_width(1),
        ))?;
    }
    chart.draw_series(
        shown
            .iter()
            .map(|p| Cross::new(at(*p), 6, OI_PURPLE.stroke_width(3))),
    )?;
    Ok(())
}

pub(super) fn table(title: &str, d: &ScalingSweep) -> ChartTable {
    let unit = d.metric.unit();
    let mut headers = vec![
        d.axis.short().to_owned(),
        "Achievable MiB/s".to_owned(),
        "Achievable IOPS".to_owned(),
        "Connections".to_owned(),
    ];
    for c in &d.published {
        headers.push(format!("{} ({unit})", c.series.label));
        headers.push(format!("Model at that setup ({unit})"));
    }
    let rows = d
        .points
        .iter()
        .map(|p| {
            let mut row = vec![
                if p.n == d.current {
                    format!("{} (scenario)", p.n)
                } else {
                    p.n.to_string()
                },
                num(p.throughput_mibps, 1),
                num(p.iops, 0),
                num(p.connections as f64, 0),
            ];
            let at = |pts: &[(u32, f64)]| {
                pts.iter()
                    .find(|(n, _)| *n == p.n)
                    .map_or_else(String::new, |(_, v)| num(*v, 0))
            };
            for c in &d.published {
                row.push(at(c.series.points));
                row.push(at(&c.model));
            }
            row
        })
        .collect();
    ChartTable {
        caption: title.to_owned(),
        headers,
        rows,
        notes: d
            .published
            .iter()
            .map(|c| format!("{}: {}.", c.series.label, c.series.source))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::same_setup;
    use crate::engine::sweep::PUBLISHED;

    #[test]
    fn a_published_test_is_shown_only_beside_its_own_setup() {
        for p in PUBLISHED {
            let setup = p.setup.scenario(2, 100.0);
            assert!(same_setup(&setup, p), "{}", p.label);
        }
        // Four E32s_v5 clients on a regular volume: not the one-E104id_v5 scale-up test.
        let (mut s, _) = crate::report::fixture::example();
        s.clients.avs = None;
        s.clients.count = 4;
        s.clients.vm_size = Some("Standard_E32s_v5".into());
        assert!(PUBLISHED.iter().all(|p| !same_setup(&s, p)));
    }
}
