//! Charts drawn straight into the PDF: a plotters backend that records what a chart
//! draws (lines, paths, fills, rectangles, circles, text with its anchor and rotation)
//! in chart pixels, for the PDF writer to replay on its page in the report's embedded
//! fonts. Nothing is written as SVG and parsed again, and chart text stays text (it can
//! be selected, searched and extracted).
//!
//! Shapes, widths, opacity and text placement follow what plotters' SVG backend writes
//! (`plotters-svg`: font size `size / 1.24`, `dy` of 0.76 em at the top and ±0.5 ex at
//! the centre and bottom, rotation about the anchor), so the PDF shows the chart the
//! pages show.

use plotters::prelude::DrawingBackend;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontStyle,
    FontTransform,
};
use std::convert::Infallible;

/// An sRGB colour with its opacity (0 to 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paint {
    pub rgb: (u8, u8, u8),
    pub opacity: f32,
}

impl From<BackendColor> for Paint {
    fn from(c: BackendColor) -> Self {
        Paint {
            rgb: c.rgb,
            opacity: c.alpha.clamp(0.0, 1.0) as f32,
        }
    }
}

/// How a piece of chart text is placed on its anchor point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Align {
    Start,
    Middle,
    End,
}

/// One thing a chart draws, in chart pixels (y down).
#[derive(Debug, Clone, PartialEq)]
pub enum ChartOp {
    /// An open polyline (a line is two points).
    Stroke {
        points: Vec<(f32, f32)>,
        width: f32,
        paint: Paint,
    },
    /// A filled polygon.
    Fill {
        points: Vec<(f32, f32)>,
        paint: Paint,
    },
    /// A rectangle, filled or outlined (1 px).
    Rect {
        x0: f32,
        y0: f32,
        x1: f32,
        y1: f32,
        fill: bool,
        paint: Paint,
    },
    /// A circle, filled or outlined.
    Circle {
        cx: f32,
        cy: f32,
        r: f32,
        fill: bool,
        width: f32,
        paint: Paint,
    },
    /// Text at `(x, y)`: `dx` and `dy` are its offsets from the anchor in the text's own
    /// (rotated) frame as fractions of its size (`dx` of its width), `rotate` degrees
    /// clockwise about the anchor.
    Text {
        text: String,
        x: f32,
        y: f32,
        size: f32,
        bold: bool,
        align: Align,
        dy_em: f32,
        rotate: f32,
        paint: Paint,
    },
}

/// A chart as drawn: its size in pixels and what it draws, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recorded {
    pub size: (u32, u32),
    pub ops: Vec<ChartOp>,
}

/// The plotters backend that fills a [`Recorded`].
pub struct Recorder<'a> {
    out: &'a mut Recorded,
}

impl<'a> Recorder<'a> {
    /// A backend of `size` pixels drawing into `out` (emptied first).
    pub fn new(out: &'a mut Recorded, size: (u32, u32)) -> Self {
        out.size = size;
        out.ops.clear();
        Recorder { out }
    }

    fn push(&mut self, op: ChartOp) {
        self.out.ops.push(op);
    }
}

fn pt((x, y): BackendCoord) -> (f32, f32) {
    (x as f32, y as f32)
}

type Drawn = Result<(), DrawingErrorKind<Infallible>>;

impl DrawingBackend for Recorder<'_> {
    type ErrorType = Infallible;

    fn get_size(&self) -> (u32, u32) {
        self.out.size
    }

    fn ensure_prepared(&mut self) -> Drawn {
        Ok(())
    }

    fn present(&mut self) -> Drawn {
        Ok(())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn {
        if color.alpha > 0.0 {
            let (x, y) = pt(point);
            self.push(ChartOp::Rect {
                x0: x,
                y0: y,
                x1: x + 1.0,
                y1: y + 1.0,
                fill: true,
                paint: color.into(),
            });
        }
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn {
        self.draw_path([from, to], style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn {
        if style.color().alpha > 0.0 {
            let ((x0, y0), (x1, y1)) = (pt(upper_left), pt(bottom_right));
            self.push(ChartOp::Rect {
                x0,
                y0,
                x1,
                y1,
                fill,
                paint: style.color().into(),
            });
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn {
        if style.color().alpha > 0.0 {
            let points: Vec<(f32, f32)> = path.into_iter().map(pt).collect();
            if points.len() >= 2 {
                self.push(ChartOp::Stroke {
                    points,
                    width: style.stroke_width() as f32,
                    paint: style.color().into(),
                });
            }
        }
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn {
        if style.color().alpha > 0.0 {
            let (cx, cy) = pt(center);
            self.push(ChartOp::Circle {
                cx,
                cy,
                r: radius as f32,
                fill,
                width: style.stroke_width() as f32,
                paint: style.color().into(),
            });
        }
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn {
        if style.color().alpha > 0.0 {
            let points: Vec<(f32, f32)> = vert.into_iter().map(pt).collect();
            if points.len() >= 3 {
                self.push(ChartOp::Fill {
                    points,
                    paint: style.color().into(),
                });
            }
        }
        Ok(())
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Drawn {
        if style.color().alpha <= 0.0 || text.is_empty() {
            return Ok(());
        }
        let anchor = style.anchor();
        let align = match anchor.h_pos {
            HPos::Left => Align::Start,
            HPos::Center => Align::Middle,
            HPos::Right => Align::End,
        };
        // plotters-svg's dy, with an ex of half an em (as SVG renderers take it).
        let dy_em = match anchor.v_pos {
            VPos::Top => 0.76,
            VPos::Center => 0.25,
            VPos::Bottom => -0.25,
        };
        let rotate = match style.transform() {
            FontTransform::Rotate90 => 90.0,
            FontTransform::Rotate180 => 180.0,
            FontTransform::Rotate270 => 270.0,
            _ => 0.0,
        };
        let (x, y) = pt(pos);
        self.push(ChartOp::Text {
            text: text.to_owned(),
            x,
            y,
            size: (style.size() / 1.24) as f32,
            bold: matches!(style.style(), FontStyle::Bold),
            align,
            dy_em,
            rotate,
            paint: style.color().into(),
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Align, ChartOp, Paint, Recorded, Recorder};
    use plotters::prelude::*;
    use plotters::style::text_anchor::{self, HPos, VPos};

    #[test]
    fn records_what_a_chart_draws() {
        crate::report::charts::init_fonts();
        let mut rec = Recorded::default();
        {
            let root = Recorder::new(&mut rec, (300, 200)).into_drawing_area();
            root.fill(&WHITE).unwrap();
            root.draw(&PathElement::new(
                vec![(10, 10), (50, 40)],
                RED.stroke_width(3),
            ))
            .unwrap();
            root.draw(&Circle::new((100, 100), 4, BLUE.filled()))
                .unwrap();
            root.draw_text(
                "MiB/s",
                &TextStyle::from(("sans-serif", 12.4).into_font())
                    .pos(text_anchor::Pos::new(HPos::Right, VPos::Center))
                    .transform(FontTransform::Rotate270),
                (20, 30),
            )
            .unwrap();
        }
        assert_eq!(rec.size, (300, 200));
        assert!(matches!(rec.ops[0], ChartOp::Rect { fill: true, .. }));
        assert!(rec.ops.contains(&ChartOp::Stroke {
            points: vec![(10.0, 10.0), (50.0, 40.0)],
            width: 3.0,
            paint: Paint {
                rgb: (255, 0, 0),
                opacity: 1.0
            },
        }));
        assert!(
            rec.ops
                .iter()
                .any(|o| matches!(o, ChartOp::Circle { fill: true, r, .. } if *r == 4.0))
        );
        let text = rec.ops.iter().find_map(|o| match o {
            ChartOp::Text {
                text,
                size,
                align,
                rotate,
                dy_em,
                ..
            } => Some((text.as_str(), *size, *align, *rotate, *dy_em)),
            _ => None,
        });
        assert_eq!(text, Some(("MiB/s", 10.0, Align::End, 270.0, 0.25)));
    }
}
