//! A document as PDF, drawn with krilla: embedded DejaVu fonts, charts as vectors (each
//! chart's SVG through usvg and krilla-svg, its text kept as text), A4 or Letter, tables
//! that break across pages with their header repeated, a bookmark per section and
//! "Page N of M" in every footer. The layout rules are in [`layout`].

mod fonts;
mod layout;

use super::Doc;
use crate::report::{Paper, ReportError};
use fonts::{Face, Fonts, fonts};
use krilla::Document;
use krilla::color::rgb;
use krilla::destination::XyzDestination;
use krilla::geom::{PathBuilder, Point, Rect, Size, Transform};
use krilla::metadata::Metadata;
use krilla::outline::{Outline, OutlineNode};
use krilla::page::PageSettings;
use krilla::paint::{Fill, Stroke};
use krilla::surface::Surface;
use krilla_svg::{SurfaceExt, SvgSettings};
use layout::{Layout, MARGIN_BOTTOM, MARGIN_X, MUTED, Op, RULE, Rgb};

fn fill(color: Rgb) -> Fill {
    Fill {
        paint: rgb::Color::new(color.0, color.1, color.2).into(),
        ..Fill::default()
    }
}

fn draw_op(s: &mut Surface<'_>, fonts: &Fonts, charts: &[usvg::Tree], op: &Op) {
    match op {
        Op::Text {
            x,
            y,
            size,
            face,
            color,
            text,
        } => {
            s.set_stroke(None);
            s.set_fill(Some(fill(*color)));
            s.draw_glyphs(
                Point::from_xy(*x, *y),
                &fonts.glyphs(*face, text),
                fonts.font(*face).clone(),
                text,
                *size,
                false,
            );
        }
        Op::Rect { x, y, w, h, color } => {
            if let Some(rect) = Rect::from_xywh(*x, *y, *w, *h) {
                let mut pb = PathBuilder::new();
                pb.push_rect(rect);
                if let Some(path) = pb.finish() {
                    s.set_stroke(None);
                    s.set_fill(Some(fill(*color)));
                    s.draw_path(&path);
                }
            }
        }
        Op::Line {
            x1,
            y1,
            x2,
            y2,
            width,
            color,
        } => {
            let mut pb = PathBuilder::new();
            pb.move_to(*x1, *y1);
            pb.line_to(*x2, *y2);
            if let Some(path) = pb.finish() {
                s.set_fill(None);
                s.set_stroke(Some(Stroke {
                    paint: rgb::Color::new(color.0, color.1, color.2).into(),
                    width: *width,
                    ..Stroke::default()
                }));
                s.draw_path(&path);
                s.set_stroke(None);
            }
        }
        Op::Chart { index, x, y, w, h } => {
            if let (Some(tree), Some(size)) = (charts.get(*index), Size::from_wh(*w, *h)) {
                s.push_transform(&Transform::from_translate(*x, *y));
                s.draw_svg(tree, size, SvgSettings::default());
                s.pop();
            }
        }
    }
}

/// Shortens `text` with an ellipsis until it fits in `max` points (the footer only).
fn fit(fonts: &Fonts, text: &str, size: f32, max: f32) -> String {
    if fonts.width(Face::Regular, text, size) <= max {
        return text.to_owned();
    }
    let mut out: String = text.to_owned();
    while !out.is_empty() && fonts.width(Face::Regular, &format!("{out}…"), size) > max {
        out.pop();
    }
    format!("{out}…")
}

/// The document's charts as usvg trees, in order.
fn chart_trees(d: &Doc) -> Result<Vec<usvg::Tree>, ReportError> {
    let opts = usvg::Options {
        fontdb: fonts::svg_fontdb(),
        ..usvg::Options::default()
    };
    d.charts()
        .map(|c| {
            let err = |e: String| ReportError::Chart("chart", e);
            let svg = c.svg().map_err(|e| err(e.to_string()))?;
            usvg::Tree::from_str(&svg, &opts).map_err(|e| err(e.to_string()))
        })
        .collect()
}

/// The pages of a document as laid out, with each page's filled height as a share of
/// its content area (for tests of the layout rules).
pub fn page_fill(d: &Doc, paper: Paper) -> Result<Vec<f32>, ReportError> {
    let trees = chart_trees(d)?;
    let sizes: Vec<(f32, f32)> = trees
        .iter()
        .map(|t| (t.size().width(), t.size().height()))
        .collect();
    let mut l = Layout::new(fonts()?, paper, &sizes);
    l.document(d);
    let usable = l.usable();
    Ok(l.filled.iter().map(|f| f / usable).collect())
}

/// Writes the document as PDF.
pub fn render(d: &Doc, paper: Paper) -> Result<Vec<u8>, ReportError> {
    let fonts = fonts()?;
    let trees = chart_trees(d)?;
    let sizes: Vec<(f32, f32)> = trees
        .iter()
        .map(|t| (t.size().width(), t.size().height()))
        .collect();
    let mut layout = Layout::new(fonts, paper, &sizes);
    layout.document(d);

    let mut doc = Document::new();
    doc.set_metadata(
        Metadata::new()
            .title(format!("{} · {}", d.title, d.kind))
            .creator("volplan".to_owned())
            .language("en".to_owned()),
    );
    let mut outline = Outline::new();
    for (title, page, y) in &layout.outline {
        outline.push_child(OutlineNode::new(
            title.clone(),
            XyzDestination::new(*page, Point::from_xy(0.0, *y)),
        ));
    }
    doc.set_outline(outline);
    let total = layout.pages.len();
    let (w, h) = paper.size_pt();
    let settings = PageSettings::from_wh(w, h)
        .ok_or_else(|| ReportError::Pdf("invalid page size".to_owned()))?;
    for (i, ops) in layout.pages.iter().enumerate() {
        let mut page = doc.start_page_with(settings.clone());
        let mut s = page.surface();
        for op in ops {
            draw_op(&mut s, fonts, &trees, op);
        }
        let footer_y = h - MARGIN_BOTTOM + 24.0;
        draw_op(
            &mut s,
            fonts,
            &trees,
            &Op::Line {
                x1: MARGIN_X,
                y1: footer_y - 11.0,
                x2: w - MARGIN_X,
                y2: footer_y - 11.0,
                width: 0.5,
                color: RULE,
            },
        );
        let page_no = format!("Page {} of {total}", i + 1);
        let pw = fonts.width(Face::Regular, &page_no, 7.5);
        let left = fit(fonts, &d.footer, 7.5, w - 2.0 * MARGIN_X - pw - 20.0);
        for (x, text) in [(MARGIN_X, left), (w - MARGIN_X - pw, page_no)] {
            draw_op(
                &mut s,
                fonts,
                &trees,
                &Op::Text {
                    x,
                    y: footer_y,
                    size: 7.5,
                    face: Face::Regular,
                    color: MUTED,
                    text,
                },
            );
        }
        s.finish();
        page.finish();
    }
    doc.finish().map_err(|e| ReportError::Pdf(format!("{e:?}")))
}

#[cfg(test)]
mod tests;
