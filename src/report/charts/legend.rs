//! Legends: a sample of each series in its colour and style beside its full name.
//! Names wrap onto further lines; none is shortened.

use super::style::{DrawResult, FONT, SeriesStyle, wrap_px};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::FontStyle;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// How a legend entry's sample is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sample {
    Solid,
    Dashed,
    Dotted,
    Swatch,
    Cross,
    Dot,
    Triangle,
    /// The i-th ceiling's [`SeriesStyle`].
    Series(usize),
    /// The i-th [`SeriesStyle`]'s colour and marker on a solid line.
    Marked(usize),
}

/// One legend entry.
pub struct LegendItem {
    pub name: String,
    pub colour: RGBColor,
    pub sample: Sample,
}

/// Width of the sample and the gap before the name, px.
const SAMPLE_W: i32 = 32;
/// Line height of legend text, px.
const LINE_H: i32 = 16;

impl LegendItem {
    pub fn new(name: impl Into<String>, colour: RGBColor, sample: Sample) -> Self {
        LegendItem {
            name: name.into(),
            colour,
            sample,
        }
    }
    pub fn line(name: impl Into<String>, colour: RGBColor, dashed: bool) -> Self {
        let sample = if dashed {
            Sample::Dashed
        } else {
            Sample::Solid
        };
        LegendItem::new(name, colour, sample)
    }
    pub fn dotted(name: impl Into<String>, colour: RGBColor) -> Self {
        LegendItem::new(name, colour, Sample::Dotted)
    }
    pub fn cross(name: impl Into<String>, colour: RGBColor) -> Self {
        LegendItem::new(name, colour, Sample::Cross)
    }
    pub fn swatch(name: impl Into<String>, colour: RGBColor) -> Self {
        LegendItem::new(name, colour, Sample::Swatch)
    }
    pub fn dot(name: impl Into<String>, colour: RGBColor) -> Self {
        LegendItem::new(name, colour, Sample::Dot)
    }
    pub fn triangle(name: impl Into<String>, colour: RGBColor) -> Self {
        LegendItem::new(name, colour, Sample::Triangle)
    }

    /// Draws the sample with its left middle at (x, y).
    fn draw_sample<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        x: i32,
        y: i32,
    ) -> DrawResult<DB> {
        let c = self.colour;
        match self.sample {
            Sample::Solid => area.draw(&PathElement::new(
                vec![(x, y), (x + 26, y)],
                c.stroke_width(3),
            )),
            Sample::Dashed => area.draw(&DashedPathElement::new(
                vec![(x, y), (x + 26, y)],
                6,
                3,
                c.stroke_width(2),
            )),
            Sample::Dotted => area.draw(&DashedPathElement::new(
                vec![(x, y), (x + 26, y)],
                2,
                3,
                c.stroke_width(3),
            )),
            Sample::Swatch => area.draw(&Rectangle::new(
                [(x + 6, y - 6), (x + 20, y + 6)],
                c.filled(),
            )),
            Sample::Cross => area.draw(&Cross::new((x + 13, y), 6, c.stroke_width(3))),
            Sample::Dot => area.draw(&Circle::new((x + 13, y), 6, c.filled())),
            Sample::Triangle => area.draw(&TriangleMarker::new((x + 13, y), 6, c.filled())),
            Sample::Series(i) => SeriesStyle::of(i).draw_sample(area, (x, y), false),
            Sample::Marked(i) => SeriesStyle::of(i).draw_sample(area, (x, y), true),
        }
    }
}

fn text_style() -> TextStyle<'static> {
    TextStyle::from((FONT, 12).into_font()).pos(Pos::new(HPos::Left, VPos::Center))
}

/// The width a name may take in `px` pixels: a sixth spare, as a browser sets the SVG's
/// text in its own sans-serif, which may run wider than the embedded font measures.
fn room(px: i32) -> u32 {
    (px * 5 / 6).max(40) as u32
}

/// Where each entry goes: (entry, x, y of its first line, its lines).
type Placed = Vec<(usize, i32, i32, Vec<String>)>;

/// Lays the entries out in rows across `area` from `top`: an entry goes on the current
/// row if its one-line name fits there, else it starts a new row, wrapping its name to
/// the row's width when even that is too narrow.
fn place_rows<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[LegendItem],
    top: i32,
) -> Result<(Placed, i32), DrawingAreaErrorKind<DB::ErrorType>> {
    let w = area.dim_in_pixel().0 as i32;
    let style = text_style();
    let (left, right) = (16, w - 8);
    let (mut x, mut y, mut row_h) = (left, top, LINE_H);
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let (tw, _) = area.estimate_text_size(&item.name, &style)?;
        let one_line = x + SAMPLE_W + tw as i32 <= right;
        if !one_line && x > left {
            y += row_h + 4;
            x = left;
            row_h = LINE_H;
        }
        let lines = wrap_px(area, &item.name, &style, room(right - x - SAMPLE_W))?;
        let widest = lines
            .iter()
            .map(|l| area.estimate_text_size(l, &style).map(|s| s.0 as i32))
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .max()
            .unwrap_or(0);
        row_h = row_h.max(LINE_H * lines.len() as i32);
        out.push((i, x, y, lines));
        x += SAMPLE_W + widest + 18;
    }
    Ok((out, y + row_h - top))
}

/// The height a key row of `items` needs across the width of `area`.
pub fn key_row_height<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[LegendItem],
) -> Result<i32, DrawingAreaErrorKind<DB::ErrorType>> {
    Ok(place_rows(area, items, 12)?.1 + 14)
}

/// A legend as rows across the top of a chart (use [`key_row_height`] for its area).
pub fn draw_key_row<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[LegendItem],
) -> DrawResult<DB> {
    let (placed, _) = place_rows(area, items, 12)?;
    for (i, x, y, lines) in placed {
        draw_entry(area, &items[i], x, y, &lines)?;
    }
    Ok(())
}

/// A legend in its own area, one entry under the other below a "Legend" heading, each
/// name wrapped to the area's width.
pub fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[LegendItem],
) -> DrawResult<DB> {
    let heading = TextStyle::from((FONT, 13).into_font().style(FontStyle::Bold));
    area.draw(&Text::new("Legend", (8, 12), heading))?;
    let width = area.dim_in_pixel().0 as i32;
    let style = text_style();
    let mut y = 40;
    for item in items {
        let lines = wrap_px(area, &item.name, &style, room(width - 8 - SAMPLE_W))?;
        draw_entry(area, item, 8, y, &lines)?;
        y += LINE_H * lines.len() as i32 + 6;
    }
    Ok(())
}

fn draw_entry<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    item: &LegendItem,
    x: i32,
    y: i32,
    lines: &[String],
) -> DrawResult<DB> {
    item.draw_sample(area, x, y)?;
    for (k, line) in lines.iter().enumerate() {
        area.draw(&Text::new(
            line.clone(),
            (x + SAMPLE_W, y + k as i32 * LINE_H),
            text_style(),
        ))?;
    }
    Ok(())
}
