//! The estate report as PDF (A4 landscape): the timeline chart, then each table with
//! its header, long cells wrapped within their column, pages broken between rows.

use super::Table;
use crate::estate::EstatePlan;
use crate::report::model::ReportError;
use krilla::Document;
use krilla::color::rgb;
use krilla::geom::{Point, Size, Transform};
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::paint::Fill;
use krilla::surface::Surface;
use krilla::text::{Font, TextDirection};
use krilla_svg::{SurfaceExt, SvgSettings};

const W: f32 = 842.0;
const H: f32 = 595.0;
const MARGIN: f32 = 36.0;
const SIZE: f32 = 7.5;
const LINE: f32 = 10.0;

/// What goes on a page: text at a point, or the chart.
enum Op {
    Text {
        x: f32,
        y: f32,
        bold: bool,
        size: f32,
        text: String,
    },
    Chart {
        y: f32,
        scale: f32,
    },
}

/// Splits `text` into lines of at most `chars` characters, at spaces where it can.
fn wrap(text: &str, chars: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut word = word.to_owned();
        while word.chars().count() > chars {
            let head: String = word.chars().take(chars).collect();
            word = word.chars().skip(chars).collect();
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            lines.push(head);
        }
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > chars {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Lays the report out on pages.
fn lay_out(p: &EstatePlan, tables: &[Table], chart_h: f32) -> Vec<Vec<Op>> {
    let mut pages = vec![Vec::new()];
    let mut y = MARGIN + 16.0;
    pages[0].push(Op::Text {
        x: MARGIN,
        y,
        bold: true,
        size: 16.0,
        text: format!("{} · Estate report", p.name),
    });
    y += 12.0;
    pages[0].push(Op::Chart { y, scale: 0.8 });
    y += chart_h * 0.8 + 16.0;
    let usable = W - 2.0 * MARGIN;
    for t in tables {
        let cols = t.headers.len().max(1);
        // Wide text columns (explanations, reasons) get more room.
        let weights: Vec<f32> = (0..cols)
            .map(|c| {
                let longest = t
                    .rows
                    .iter()
                    .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
                    .max()
                    .unwrap_or(0)
                    .max(t.headers[c].len());
                (longest as f32).clamp(6.0, 60.0)
            })
            .collect();
        let total: f32 = weights.iter().sum();
        let widths: Vec<f32> = weights.iter().map(|w| usable * w / total).collect();
        let new_page = |pages: &mut Vec<Vec<Op>>, y: &mut f32| {
            pages.push(Vec::new());
            *y = MARGIN + 10.0;
        };
        if y + 4.0 * LINE > H - MARGIN {
            new_page(&mut pages, &mut y);
        }
        pages.last_mut().unwrap_or(&mut Vec::new()).push(Op::Text {
            x: MARGIN,
            y,
            bold: true,
            size: 11.0,
            text: t.title.to_owned(),
        });
        y += LINE + 4.0;
        let mut rows: Vec<(bool, &[String])> = Vec::new();
        let head: Vec<String> = t.headers.iter().map(|h| (*h).to_owned()).collect();
        rows.push((true, &head));
        rows.extend(t.rows.iter().map(|r| (false, r.as_slice())));
        for (bold, row) in rows {
            let cells: Vec<Vec<String>> = row
                .iter()
                .zip(&widths)
                .map(|(c, w)| wrap(c, ((w / (SIZE * 0.55)) as usize).max(4)))
                .collect();
            let height = cells.iter().map(Vec::len).max().unwrap_or(1) as f32 * LINE;
            if y + height > H - MARGIN {
                new_page(&mut pages, &mut y);
            }
            let page = pages.last_mut().expect("a page exists");
            let mut x = MARGIN;
            for (lines, w) in cells.iter().zip(&widths) {
                for (i, l) in lines.iter().enumerate() {
                    page.push(Op::Text {
                        x,
                        y: y + i as f32 * LINE,
                        bold,
                        size: SIZE,
                        text: l.clone(),
                    });
                }
                x += w;
            }
            y += height + 2.0;
        }
        y += LINE;
    }
    pages
}

/// Writes the PDF.
pub fn render(p: &EstatePlan, tables: &[Table]) -> Result<Vec<u8>, ReportError> {
    let regular = Font::new(dejavu::sans::regular().into(), 0)
        .ok_or_else(|| ReportError::Pdf("the embedded font cannot be read".to_owned()))?;
    let bold = Font::new(dejavu::sans::bold().into(), 0)
        .ok_or_else(|| ReportError::Pdf("the embedded font cannot be read".to_owned()))?;
    let svg = super::chart::svg(p).map_err(|e| ReportError::Chart("estate-timeline", e))?;
    let opts = usvg::Options {
        fontdb: crate::report::pdf::svg_fontdb(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(&svg, &opts)
        .map_err(|e| ReportError::Chart("estate-timeline", e.to_string()))?;
    let pages = lay_out(p, tables, tree.size().height());
    let mut doc = Document::new();
    doc.set_metadata(
        Metadata::new()
            .title(format!("{} · Estate report", p.name))
            .creator("volplan".to_owned()),
    );
    let settings = PageSettings::from_wh(W, H)
        .ok_or_else(|| ReportError::Pdf("invalid page size".to_owned()))?;
    for ops in &pages {
        let mut page = doc.start_page_with(settings.clone());
        let mut s: Surface<'_> = page.surface();
        s.set_fill(Some(Fill {
            paint: rgb::Color::new(20, 20, 20).into(),
            ..Fill::default()
        }));
        for op in ops {
            match op {
                Op::Text {
                    x,
                    y,
                    bold: b,
                    size,
                    text,
                } => s.draw_text(
                    Point::from_xy(*x, *y),
                    if *b { bold.clone() } else { regular.clone() },
                    *size,
                    text,
                    false,
                    TextDirection::Auto,
                ),
                Op::Chart { y, scale } => {
                    let sz = tree.size();
                    if let Some(size) = Size::from_wh(sz.width(), sz.height()) {
                        s.push_transform(&Transform::from_row(
                            *scale, 0.0, 0.0, *scale, MARGIN, *y,
                        ));
                        s.draw_svg(&tree, size, SvgSettings::default());
                        s.pop();
                    }
                }
            }
        }
        s.finish();
        page.finish();
    }
    doc.finish().map_err(|e| ReportError::Pdf(format!("{e:?}")))
}
