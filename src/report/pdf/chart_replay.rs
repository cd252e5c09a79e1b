//! Replays a recorded chart ([`crate::report::pdf_chart`]) on a PDF page, in chart
//! pixels (the caller's transform scales and places it), with chart text set in the
//! report's embedded DejaVu Sans.

use super::{Face, Fonts};
use crate::report::pdf_chart::{Align, ChartOp, Paint, Recorded};
use krilla::color::rgb;
use krilla::geom::{Path, PathBuilder, Point, Rect, Transform};
use krilla::num::NormalizedF32;
use krilla::paint::{Fill, Stroke};
use krilla::surface::Surface;

/// Draws every op of `chart` in order. A run of opaque strokes of one colour and width
/// (grid lines, dashes: plotters draws a dashed line as one stroke per dash) becomes one
/// path of many parts, which looks the same and writes one stroke instead of hundreds.
pub(super) fn draw(s: &mut Surface<'_>, fonts: &Fonts, chart: &Recorded) {
    let mut ops = chart.ops.iter().peekable();
    while let Some(op) = ops.next() {
        match op {
            ChartOp::Stroke {
                points,
                width,
                paint,
            } => {
                let same = |next: &&ChartOp| {
                    paint.opacity >= 1.0
                        && matches!(next, ChartOp::Stroke { width: w, paint: p, .. }
                            if w == width && p == paint)
                };
                if !ops.peek().is_some_and(same) {
                    stroke(s, polyline(points, false), *width, *paint);
                    continue;
                }
                let mut pb = PathBuilder::new();
                add_polyline(&mut pb, points);
                while let Some(ChartOp::Stroke { points, .. }) = ops.next_if(same) {
                    add_polyline(&mut pb, points);
                }
                stroke(s, pb.finish(), *width, *paint);
            }
            ChartOp::Fill { points, paint } => fill(s, polyline(points, true), *paint),
            ChartOp::Rect {
                x0,
                y0,
                x1,
                y1,
                fill: filled,
                paint,
            } => {
                let rect = Rect::from_ltrb(x0.min(*x1), y0.min(*y1), x0.max(*x1), y0.max(*y1));
                let path = rect.and_then(|r| {
                    let mut pb = PathBuilder::new();
                    pb.push_rect(r);
                    pb.finish()
                });
                if *filled {
                    fill(s, path, *paint);
                } else {
                    stroke(s, path, 1.0, *paint);
                }
            }
            ChartOp::Circle {
                cx,
                cy,
                r,
                fill: filled,
                width,
                paint,
            } => {
                let path = circle(*cx, *cy, *r);
                if *filled {
                    fill(s, path, *paint);
                } else {
                    stroke(s, path, *width, *paint);
                }
            }
            ChartOp::Text {
                text,
                x,
                y,
                size,
                bold,
                align,
                dy_em,
                rotate,
                paint,
            } => {
                let face = Face::of(*bold);
                let width = fonts.width_in(face, text, *size);
                let dx = match align {
                    Align::Start => 0.0,
                    Align::Middle => -width / 2.0,
                    Align::End => -width,
                };
                let rotated = *rotate != 0.0;
                if rotated {
                    s.push_transform(&Transform::from_rotate_at(*rotate, *x, *y));
                }
                s.set_stroke(None);
                s.set_fill(Some(fill_of(*paint)));
                let font = if *bold { &fonts.bold } else { &fonts.regular };
                s.draw_glyphs(
                    Point::from_xy(x + dx, y + dy_em * size),
                    &fonts.glyphs(face, text),
                    font.clone(),
                    text,
                    *size,
                    false,
                );
                if rotated {
                    s.pop();
                }
            }
        }
    }
}

/// Adds an open polyline as a new part of `pb`.
fn add_polyline(pb: &mut PathBuilder, points: &[(f32, f32)]) {
    if let Some((first, rest)) = points.split_first() {
        pb.move_to(first.0, first.1);
        for p in rest {
            pb.line_to(p.0, p.1);
        }
    }
}

fn polyline(points: &[(f32, f32)], closed: bool) -> Option<Path> {
    let (first, rest) = points.split_first()?;
    let mut pb = PathBuilder::new();
    pb.move_to(first.0, first.1);
    for p in rest {
        pb.line_to(p.0, p.1);
    }
    if closed {
        pb.close();
    }
    pb.finish()
}

/// A circle as four cubic Béziers (the usual 0.5523 control distance).
fn circle(cx: f32, cy: f32, r: f32) -> Option<Path> {
    let k = 0.552_284_8 * r;
    let mut pb = PathBuilder::new();
    pb.move_to(cx + r, cy);
    pb.cubic_to(cx + r, cy + k, cx + k, cy + r, cx, cy + r);
    pb.cubic_to(cx - k, cy + r, cx - r, cy + k, cx - r, cy);
    pb.cubic_to(cx - r, cy - k, cx - k, cy - r, cx, cy - r);
    pb.cubic_to(cx + k, cy - r, cx + r, cy - k, cx + r, cy);
    pb.close();
    pb.finish()
}

fn opacity(p: Paint) -> NormalizedF32 {
    NormalizedF32::new(p.opacity).unwrap_or(NormalizedF32::ONE)
}

fn fill_of(p: Paint) -> Fill {
    Fill {
        paint: rgb::Color::new(p.rgb.0, p.rgb.1, p.rgb.2).into(),
        opacity: opacity(p),
        ..Fill::default()
    }
}

fn fill(s: &mut Surface<'_>, path: Option<Path>, p: Paint) {
    if let Some(path) = path {
        s.set_stroke(None);
        s.set_fill(Some(fill_of(p)));
        s.draw_path(&path);
    }
}

fn stroke(s: &mut Surface<'_>, path: Option<Path>, width: f32, p: Paint) {
    if let Some(path) = path {
        s.set_fill(None);
        s.set_stroke(Some(Stroke {
            paint: rgb::Color::new(p.rgb.0, p.rgb.1, p.rgb.2).into(),
            width,
            opacity: opacity(p),
            ..Stroke::default()
        }));
        s.draw_path(&path);
        s.set_stroke(None);
    }
}
