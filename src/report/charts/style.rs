//! The charts' look: the embedded font, the Okabe-Ito palette (safe for colour-blind
//! readers), the caption, the series styles of the io-size chart, and text wrapped to a
//! width in pixels (labels are wrapped, never cut).

use plotters::chart::{ChartContext, MeshStyle};
use plotters::coord::Shift;
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontStyle, register_font};
use std::sync::Once;

pub const FONT: &str = "sans-serif";

pub const OI_BLACK: RGBColor = RGBColor(0x00, 0x00, 0x00);
pub const OI_ORANGE: RGBColor = RGBColor(0xE6, 0x9F, 0x00);
pub const OI_SKY: RGBColor = RGBColor(0x56, 0xB4, 0xE9);
pub const OI_GREEN: RGBColor = RGBColor(0x00, 0x9E, 0x73);
pub const OI_YELLOW: RGBColor = RGBColor(0xF0, 0xE4, 0x42);
pub const OI_BLUE: RGBColor = RGBColor(0x00, 0x72, 0xB2);
pub const OI_VERMILLION: RGBColor = RGBColor(0xD5, 0x5E, 0x00);
pub const OI_PURPLE: RGBColor = RGBColor(0xCC, 0x79, 0xA7);
/// [`OI_BLUE`] at [`BAND_ALPHA`] on white: the likely-range band as its legend swatch.
pub const OI_BLUE_BAND: RGBColor = RGBColor(0xD9, 0xEA, 0xF3);
/// Opacity of a likely-range band over the grid.
pub const BAND_ALPHA: f64 = 0.15;
pub const GRID: RGBColor = RGBColor(0xDD, 0xDD, 0xDD);

/// Series colours in the order they are used (yellow last: weakest on white).
pub const SERIES: [RGBColor; 7] = [
    OI_BLUE,
    OI_ORANGE,
    OI_GREEN,
    OI_PURPLE,
    OI_SKY,
    OI_VERMILLION,
    OI_YELLOW,
];

static FONTS: Once = Once::new();

/// Registers the embedded DejaVu Sans faces with plotters (cheap after the first call),
/// so charts measure text the same on every machine and need no system font.
pub fn init_fonts() {
    FONTS.call_once(|| {
        // The bytes are a valid TTF compiled into the binary; failure is impossible at run time.
        let _ = register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

/// The chart's caption across its top.
pub fn caption_style() -> TextStyle<'static> {
    (FONT, 18)
        .into_font()
        .style(FontStyle::Bold)
        .color(&OI_BLACK)
}

pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// A chart's grid and axes in the house style: no light lines, grey bold lines, tick
/// labels at `size` and axis titles a size larger, in the embedded font. The caller sets
/// the ticks, formatters and titles and draws it.
pub fn mesh<'a, 'b, DB, XT, YT, X, Y>(
    chart: &'b mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    size: u32,
) -> MeshStyle<'a, 'b, X, Y, DB>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = XT> + ValueFormatter<XT>,
    Y: Ranged<ValueType = YT> + ValueFormatter<YT>,
{
    let mut m = chart.configure_mesh();
    m.light_line_style(WHITE)
        .bold_line_style(GRID)
        .label_style((FONT, size))
        .axis_desc_style((FONT, size + 1));
    m
}

/// `text` broken at spaces into lines at most `max` pixels wide in `style`; a word wider
/// than a line stands on its own line (nothing is cut).
pub fn wrap_px<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
    max: u32,
) -> Result<Vec<String>, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let joined = if line.is_empty() {
            word.to_owned()
        } else {
            format!("{line} {word}")
        };
        if line.is_empty() || area.estimate_text_size(&joined, style)?.0 <= max {
            line = joined;
        } else {
            lines.push(std::mem::replace(&mut line, word.to_owned()));
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    Ok(lines)
}

/// The look of the i-th ceiling of the io-size chart: colour and dash pattern together
/// differ for the first 21 series (7 colours x 3 patterns), and each has a marker as
/// well, so similar colours (orange, vermillion, yellow) never also share a pattern.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeriesStyle {
    pub colour: RGBColor,
    pub dash: u32,
    pub gap: u32,
    marker: usize,
}

impl SeriesStyle {
    /// Long dashes, short dashes, dots.
    const PATTERNS: [(u32, u32); 3] = [(10, 4), (4, 3), (2, 3)];
    /// The first pattern of each colour of [`SERIES`]: orange, vermillion and yellow
    /// each get their own, and vermillion is not dotted like the scenario's line (for
    /// its first two series).
    const FIRST_PATTERN: [usize; 7] = [0, 1, 2, 2, 1, 0, 2];

    pub fn of(i: usize) -> Self {
        let n = SERIES.len();
        let pattern = (Self::FIRST_PATTERN[i % n] + i / n) % Self::PATTERNS.len();
        let (dash, gap) = Self::PATTERNS[pattern];
        SeriesStyle {
            colour: SERIES[i % n],
            dash,
            gap,
            marker: (i / n + i) % 4,
        }
    }

    /// Draws the marker (circle, triangle, square or cross) at each of `pts`.
    pub fn draw_markers<DB, CT>(
        &self,
        area: &DrawingArea<DB, CT>,
        pts: &[(f64, f64)],
    ) -> DrawResult<DB>
    where
        DB: DrawingBackend,
        CT: plotters::coord::CoordTranslate<From = (f64, f64)>,
    {
        let c = self.colour;
        for &p in pts {
            match self.marker {
                0 => area.draw(&Circle::new(p, 3, c.filled()))?,
                1 => area.draw(&TriangleMarker::new(p, 4, c.filled()))?,
                2 => area.draw(
                    &(EmptyElement::at(p) + Rectangle::new([(-3, -3), (3, 3)], c.filled())),
                )?,
                _ => area.draw(&Cross::new(p, 4, c.stroke_width(2)))?,
            }
        }
        Ok(())
    }

    /// The legend sample: the pattern (a solid line when `solid`) with the marker in
    /// its middle.
    pub fn draw_sample<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        (x, y): (i32, i32),
        solid: bool,
    ) -> DrawResult<DB> {
        let c = self.colour;
        if solid {
            area.draw(&PathElement::new(
                vec![(x, y), (x + 26, y)],
                c.stroke_width(2),
            ))?;
        } else {
            area.draw(&DashedPathElement::new(
                vec![(x, y), (x + 26, y)],
                self.dash,
                self.gap,
                c.stroke_width(2),
            ))?;
        }
        let m = (x + 13, y);
        match self.marker {
            0 => area.draw(&Circle::new(m, 3, c.filled())),
            1 => area.draw(&TriangleMarker::new(m, 4, c.filled())),
            2 => area.draw(&Rectangle::new(
                [(m.0 - 3, y - 3), (m.0 + 3, y + 3)],
                c.filled(),
            )),
            _ => area.draw(&Cross::new(m, 4, c.stroke_width(2))),
        }
    }
}

/// The names of a grouped bar chart's groups under its x axis, each wrapped to the
/// width of its group on at most `max_lines` lines.
pub struct GroupLabels {
    lines: Vec<Vec<String>>,
}

impl GroupLabels {
    fn style() -> TextStyle<'static> {
        TextStyle::from((FONT, 11).into_font()).pos(Pos::new(HPos::Center, VPos::Top))
    }

    /// The labels of `names`, one group each, wrapped for the chart drawn on `plot`.
    pub fn of<DB: DrawingBackend, S: AsRef<str>>(
        plot: &DrawingArea<DB, Shift>,
        names: &[S],
        max_lines: usize,
    ) -> Result<GroupLabels, DrawingAreaErrorKind<DB::ErrorType>> {
        let groups = names.len().max(1);
        let group_px = ((plot.dim_in_pixel().0 as i32 - 110) / groups as i32).max(30) as u32;
        let style = Self::style();
        let lines = names
            .iter()
            .map(|n| {
                wrap_px(plot, n.as_ref(), &style, group_px.saturating_sub(6)).map(|mut l| {
                    l.truncate(max_lines);
                    l
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(GroupLabels { lines })
    }

    /// The height of the x label area that holds them, pixels.
    pub fn area_height(&self) -> u32 {
        30 + 13 * self.lines.iter().map(Vec::len).max().unwrap_or(1) as u32
    }

    /// Draws each group's label under its slot (group `g` at x = `g`), from `y_lo` down.
    pub fn draw<DB: DrawingBackend>(
        &self,
        chart: &ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
        y_lo: f64,
    ) -> DrawResult<DB> {
        let style = Self::style();
        for (g, lines) in self.lines.iter().enumerate() {
            for (k, line) in lines.iter().enumerate() {
                chart.plotting_area().draw(
                    &(EmptyElement::at((g as f64, y_lo))
                        + Text::new(line.clone(), (0, 6 + 13 * k as i32), style.clone())),
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_size_series_differ_in_colour_and_pattern() {
        let styles: Vec<SeriesStyle> = (0..21).map(SeriesStyle::of).collect();
        for (i, a) in styles.iter().enumerate() {
            for b in &styles[i + 1..] {
                assert!(
                    a.colour != b.colour || (a.dash, a.gap) != (b.dash, b.gap),
                    "{a:?} and {b:?}"
                );
            }
        }
        // Orange, vermillion and yellow look alike: each has its own pattern, and no
        // vermillion series of the first 14 is dotted like the scenario's IO size.
        let warm: Vec<(u32, u32)> = styles[..7]
            .iter()
            .filter(|s| [OI_ORANGE, OI_VERMILLION, OI_YELLOW].contains(&s.colour))
            .map(|s| (s.dash, s.gap))
            .collect();
        assert_eq!(warm.len(), 3);
        assert!(warm[0] != warm[1] && warm[1] != warm[2] && warm[0] != warm[2]);
        assert!(
            styles[..14]
                .iter()
                .all(|s| s.colour != OI_VERMILLION || (s.dash, s.gap) != (2, 3))
        );
    }
}
