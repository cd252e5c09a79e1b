//! The ceilings chart: every limit of the scenario as a bar in MiB/s at its IO size,
//! the binding one marked, with the achievable figure, the targets and measured runs as
//! vertical lines.

use super::axis::{Linear, Span};
use super::legend::{LegendItem, draw_key_row, key_row_height};
use super::style::{
    DrawResult, FONT, OI_BLACK, OI_BLUE, OI_GREEN, OI_PURPLE, OI_VERMILLION, caption_style, mesh,
};
use super::{Chart, ChartTable, Kind, mix_text, name};
use crate::engine::{Evaluation, Scenario};
use crate::format::{num, pct};
use crate::measure::MeasuredPoint;
use crate::report::summary;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::FontStyle;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Limits above this multiple of the achievable figure (or the target) are drawn off
/// scale, so the ones that matter stay readable.
const OFF_SCALE: f64 = 5.0;

/// Characters per line of a limit's name beside its bar.
const LABEL_LINE: usize = 30;

#[derive(Debug, Clone)]
pub(super) struct Bar {
    name: String,
    label: String,
    applies: &'static str,
    mibps: f64,
    iops: f64,
    headroom_pct: f64,
    source: String,
    assumption: bool,
    binding: bool,
}

#[derive(Debug, Clone)]
pub(super) struct Data {
    bars: Vec<Bar>,
    achievable_mibps: f64,
    /// (label, MiB/s) of the targets.
    targets: Vec<(String, f64)>,
    io_kib: f64,
}

/// A name in lines of about `n` characters, broken at spaces (a word longer than a line
/// stands alone): never shortened.
fn wrap_chars(s: &str, n: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in s.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= n => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    if lines.is_empty() {
        lines.push(String::new());
    }
    lines
}

/// A bar's name as drawn, with what it applies to when the name does not say.
fn bar_lines(b: &Bar) -> Vec<String> {
    let lower = b.name.to_lowercase();
    let r = match b.applies {
        "read" if !lower.contains("read") => " (reads)",
        "write" if !lower.contains("write") => " (writes)",
        _ => "",
    };
    wrap_chars(&format!("{}{r}", b.name), LABEL_LINE)
}

/// Pixels a bar's row needs for its name.
fn row_px(b: &Bar) -> u32 {
    (16 * bar_lines(b).len() as u32 + 12).max(40)
}

pub(super) fn chart(s: &Scenario, e: &Evaluation) -> Chart {
    let binding_idx = e
        .limits
        .iter()
        .enumerate()
        .filter(|(_, l)| l.id == e.binding)
        .min_by(|a, b| a.1.mibps.total_cmp(&b.1.mibps))
        .map(|(i, _)| i);
    let mut bars: Vec<Bar> = e
        .limits
        .iter()
        .enumerate()
        .filter(|(_, l)| l.mibps.is_finite() && l.mibps >= 0.0)
        .map(|(i, l)| Bar {
            name: l.label.name.to_owned(),
            label: l.label.to_string(),
            applies: l.applies.key(),
            mibps: l.mibps,
            iops: l.iops,
            headroom_pct: l.headroom_pct,
            source: l.source.to_string(),
            assumption: l.assumption,
            binding: Some(i) == binding_idx,
        })
        .collect();
    bars.sort_by(|a, b| b.binding.cmp(&a.binding).then(a.mibps.total_cmp(&b.mibps)));
    let io = s.workload.io_size_kib;
    let mut targets = Vec::new();
    if let Some(t) = s.workload.target_mibps {
        targets.push((format!("target {} MiB/s", num(t, 0)), t));
    }
    if let Some(t) = s.workload.target_iops {
        targets.push((format!("target {} IOPS", num(t, 0)), t * io / 1024.0));
    }
    let h = (150 + bars.iter().map(row_px).sum::<u32>()).clamp(240, 4000);
    Chart {
        title: format!("Ceilings of {} ({})", name(s), mix_text(s)),
        summary: summary::ceilings_caption(e),
        size: (780, h),
        measured: Vec::new(),
        kind: Kind::Ceilings(Data {
            bars,
            achievable_mibps: e.throughput_mibps,
            targets,
            io_kib: io,
        }),
    }
}

pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &Data,
    measured: &[MeasuredPoint],
) -> DrawResult<DB> {
    let n = d.bars.len().max(1);
    let names: Vec<Vec<String>> = d.bars.iter().map(bar_lines).collect();
    let label_w = names
        .iter()
        .flat_map(|l| l.iter().map(|s| s.chars().count()))
        .max()
        .unwrap_or(8) as u32
        * 7
        + 18;
    // Limits far above the achievable figure and the targets run off the scale
    // (drawn broken, value in the label) so the ones that matter stay readable.
    let base = super::axis::Linear::tight(
        d.targets
            .iter()
            .map(|t| t.1)
            .chain(measured.iter().map(|m| m.mibps))
            .chain([d.achievable_mibps]),
        1.0,
        2,
    )
    .hi;
    let cap = base * OFF_SCALE;
    let ticks_wanted = ((root.dim_in_pixel().0 / 90) as usize).clamp(5, 9);
    let x = Linear::from_zero(
        d.bars
            .iter()
            .map(|b| b.mibps)
            .filter(|v| *v <= cap)
            .chain([base]),
        1.05,
        ticks_wanted,
    );
    let body = root.titled("Ceilings: every limit in MiB/s", caption_style())?;
    let mut items = vec![
        LegendItem::swatch("binding limit", OI_VERMILLION),
        LegendItem::swatch("other limits", OI_BLUE),
        LegendItem::line(
            format!("achievable {} MiB/s", num(d.achievable_mibps, 0)),
            OI_BLACK,
            true,
        ),
    ];
    items.extend(
        d.targets
            .iter()
            .map(|(l, _)| LegendItem::dotted(l.clone(), OI_GREEN)),
    );
    if !measured.is_empty() {
        items.push(LegendItem::dotted("measured runs", OI_PURPLE));
    }
    let (key, body) = body.split_vertically(key_row_height(&body, &items)?);
    draw_key_row(&key, &items)?;
    let y = Linear::slots(n);
    let mut chart = ChartBuilder::on(&body)
        .margin(12)
        .margin_right(36)
        .x_label_area_size(48)
        .y_label_area_size(label_w.clamp(110, 280))
        .build_cartesian_2d(x.range(), y.range())?;
    mesh(&mut chart, 13)
        .disable_y_mesh()
        .x_labels(x.labels)
        .y_labels(n.min(50))
        .x_label_formatter(&|v| crate::format::tick(*v))
        .y_label_formatter(&|_| String::new())
        .x_desc(format!(
            "Ceiling (MiB/s at {} KiB IO size)",
            num(d.io_kib, 1)
        ))
        .y_desc("Limit")
        .draw()?;

    // Row names beside the axis, top row first, on as many lines as they need.
    let name_style =
        TextStyle::from((FONT, 13).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
    for (i, lines) in names.iter().enumerate() {
        let row = (n - 1 - i) as f64;
        let top = -(lines.len() as i32 - 1) * 8;
        for (k, line) in lines.iter().enumerate() {
            chart.plotting_area().draw(
                &(EmptyElement::at((0.0, row))
                    + Text::new(line.clone(), (-8, top + k as i32 * 16), name_style.clone())),
            )?;
        }
    }
    let area = chart.plotting_area();
    let (px, _) = area.get_pixel_range();
    let width_px = f64::from((px.end - px.start).max(1));
    let px_per_unit = width_px / x.hi;
    // Value labels are drawn last, each on a box of its background, so the achievable,
    // target and measured lines stop short of them instead of running through.
    let mut labels = Vec::with_capacity(d.bars.len());
    for (i, b) in d.bars.iter().enumerate() {
        let row = (n - 1 - i) as f64;
        let colour = if b.binding { OI_VERMILLION } else { OI_BLUE };
        let off_scale = b.mibps > x.hi;
        let end = x.at(b.mibps);
        area.draw(&Rectangle::new(
            [(0.0, row - 0.32), (end, row + 0.32)],
            colour.filled(),
        ))?;
        if off_scale {
            // A white double slash near the end marks the broken bar.
            for dx in [18.0, 26.0] {
                let x0 = x.at(x.hi - dx / px_per_unit);
                area.draw(&PathElement::new(
                    vec![(x0, row - 0.4), (x.at(x0 + 6.0 / px_per_unit), row + 0.4)],
                    WHITE.stroke_width(3),
                ))?;
            }
        }
        let mut text = format!("{} MiB/s, {} IOPS", num(b.mibps, 0), num(b.iops, 0));
        if b.binding {
            text.push_str(", binding");
        }
        if off_scale {
            text.push_str(" (off scale)");
        }
        if b.assumption {
            text.push_str(" (assumption)");
        }
        let weight = if b.binding {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        };
        let font = (FONT, 13).into_font().style(weight);
        let (tw, _) = area.estimate_text_size(&text, &TextStyle::from(font.clone()))?;
        let bar_px = end * px_per_unit;
        let outside = bar_px + 6.0 + f64::from(tw) < width_px;
        let text_w = (f64::from(tw) + 6.0) / px_per_unit;
        let (at, colour, anchor, back, span) = if outside {
            let at = end + 5.0 / px_per_unit;
            (
                at,
                OI_BLACK,
                HPos::Left,
                WHITE,
                (at - 3.0 / px_per_unit, at + text_w),
            )
        } else {
            let pad = if off_scale { 34.0 } else { 5.0 };
            let at = end - pad / px_per_unit;
            (
                at,
                WHITE,
                HPos::Right,
                colour,
                (at - text_w, at + 3.0 / px_per_unit),
            )
        };
        let style = font.color(&colour).pos(Pos::new(anchor, VPos::Center));
        labels.push((text, (x.at(at), row), style, back, span));
    }
    let (bottom, top) = (y.lo, y.hi);
    let vertical = |v: f64, dash: u32, gap: u32, colour: RGBColor, width: u32| {
        DashedPathElement::new(
            vec![(x.at(v), bottom), (x.at(v), top)],
            dash,
            gap,
            colour.stroke_width(width),
        )
    };
    area.draw(&vertical(d.achievable_mibps, 6, 4, OI_BLACK, 2))?;
    for (_, v) in &d.targets {
        area.draw(&vertical(*v, 2, 3, OI_GREEN, 3))?;
    }
    for m in measured.iter().filter(|m| x.shows(m.mibps)) {
        area.draw(&vertical(m.mibps, 2, 3, OI_PURPLE, 3))?;
    }
    for (text, at, style, back, (x0, x1)) in labels {
        area.draw(&Rectangle::new(
            [(x.at(x0), at.1 - 0.3), (x.at(x1), at.1 + 0.3)],
            back.filled(),
        ))?;
        area.draw(&Text::new(text, at, style))?;
    }
    Ok(())
}

pub(super) fn table(title: &str, d: &Data) -> ChartTable {
    let rows = d
        .bars
        .iter()
        .map(|b| {
            let mut name = b.label.clone();
            if b.binding {
                name.push_str(" (binding)");
            }
            if b.assumption {
                name.push_str(" (assumption)");
            }
            vec![
                name,
                b.applies.to_owned(),
                num(b.mibps, 1),
                num(b.iops, 0),
                pct(b.headroom_pct, 0),
                b.source.clone(),
            ]
        })
        .collect();
    let mut notes = vec![format!("Achievable: {} MiB/s.", num(d.achievable_mibps, 1))];
    notes.extend(
        d.targets
            .iter()
            .map(|(l, v)| format!("{l}: {} MiB/s at this IO size.", num(*v, 1))),
    );
    ChartTable {
        caption: title.to_owned(),
        headers: ["Limit", "Applies to", "MiB/s", "IOPS", "Headroom", "Source"]
            .map(str::to_owned)
            .to_vec(),
        rows,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::wrap_chars;

    #[test]
    fn names_wrap_onto_lines_without_losing_words() {
        let name = "Regular volume ceiling at this IO size for the whole capacity pool";
        let lines = wrap_chars(name, 30);
        assert!(lines.len() >= 2 && lines.iter().all(|l| l.chars().count() <= 30));
        assert_eq!(lines.join(" "), name);
        assert_eq!(wrap_chars("short", 30), ["short"]);
    }
}
