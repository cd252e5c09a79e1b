//! A document as one self-contained HTML file: inline CSS and SVG charts, a print
//! stylesheet, no script, every text escaped by askama. Tables and code scroll inside
//! their box, so the page itself fits a 390 px phone without scrolling sideways.

use super::{Block, Doc, Mark, Tone};
use crate::report::ReportError;
use crate::report::charts::{ChartError, ChartTable};
use askama::Template;

/// The `Content-Security-Policy` to serve a report with: it needs its inline style and
/// inline SVG, and nothing else (no script, no fetches); no page may frame it, as none
/// may frame the app's own pages.
pub const CSP: &str =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'";

/// A table row as the template writes it: its class and (text, numeric) cells.
struct RowView {
    class: Option<&'static str>,
    cells: Vec<(String, bool)>,
}

struct TableView<'a> {
    id: String,
    columns: &'a [super::Column],
    rows: Vec<RowView>,
}

struct ChartView {
    title: String,
    summary: String,
    svg: String,
    table: ChartTable,
}

/// A block as the template writes it (headings open sections).
enum Item<'a> {
    Subheading(&'a str),
    Summary(&'a [String]),
    Para(&'a str),
    Note(&'a str),
    Verdict(bool, &'a str),
    Callout(&'a str),
    Figures(&'a [super::Kpi]),
    Bullets(Vec<BulletView<'a>>),
    Table(TableView<'a>),
    Code(&'a str, &'a str),
    Chart(ChartView),
    Links(&'a [(String, String)]),
}

struct BulletView<'a> {
    tag: Option<(&'a str, bool)>,
    text: &'a str,
}

/// A heading and the blocks under it.
struct Section<'a> {
    heading: Option<(&'a str, String)>,
    items: Vec<Item<'a>>,
}

#[derive(Template)]
#[template(path = "report/doc.html")]
struct Page<'a> {
    d: &'a Doc,
    sections: Vec<Section<'a>>,
}

/// The document's sections without the page around them, for a page that shows a
/// report's body.
#[derive(Template)]
#[template(path = "report/doc_sections.html")]
struct Fragment<'a> {
    sections: Vec<Section<'a>>,
}

/// An anchor id from a heading: lower-case letters and digits joined by dashes.
fn anchor(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_owned()
}

/// The blocks grouped into sections, one per heading.
fn sections(d: &Doc) -> Result<Vec<Section<'_>>, ReportError> {
    let mut out = vec![Section {
        heading: None,
        items: Vec::new(),
    }];
    for b in &d.blocks {
        if let Block::Heading(t) = b {
            out.push(Section {
                heading: Some((t, anchor(t))),
                items: Vec::new(),
            });
            continue;
        }
        let item = item(b).map_err(|e| ReportError::Chart("chart", e.to_string()))?;
        if let Some(last) = out.last_mut() {
            last.items.push(item);
        }
    }
    out.retain(|s| s.heading.is_some() || !s.items.is_empty());
    Ok(out)
}

fn item(b: &Block) -> Result<Item<'_>, ChartError> {
    Ok(match b {
        Block::Heading(t) => Item::Subheading(t),
        Block::Subheading(t) => Item::Subheading(t),
        Block::Summary(p) => Item::Summary(p),
        Block::Para(t) => Item::Para(t),
        Block::Note(t) => Item::Note(t),
        Block::Verdict { met, text } => Item::Verdict(*met, text),
        Block::Callout(t) => Item::Callout(t),
        Block::Figures(k) => Item::Figures(k),
        Block::Bullets(items) => Item::Bullets(
            items
                .iter()
                .map(|i| BulletView {
                    tag: i
                        .tag
                        .as_ref()
                        .map(|(t, tone)| (t.as_str(), *tone == Tone::Warn)),
                    text: &i.text,
                })
                .collect(),
        ),
        Block::Table(t) => Item::Table(TableView {
            id: format!("{}-table", anchor(&t.name)),
            columns: &t.columns,
            rows: t
                .rows
                .iter()
                .map(|r| RowView {
                    class: match r.mark {
                        Mark::None => None,
                        Mark::Key => Some("key"),
                        Mark::Best => Some("best"),
                    },
                    cells: r
                        .cells
                        .iter()
                        .zip(&t.columns)
                        .map(|(c, col)| (c.text.clone(), col.numeric))
                        .collect(),
                })
                .collect(),
        }),
        Block::Code { title, text, .. } => Item::Code(title, text),
        Block::Chart(c) => Item::Chart(ChartView {
            title: c.title().to_owned(),
            summary: c.summary().to_owned(),
            svg: c.svg_inline()?,
            table: c.table(),
        }),
        Block::Links(l) => Item::Links(l),
    })
}

/// Writes the document as HTML.
pub fn render(d: &Doc) -> Result<String, ReportError> {
    Page {
        d,
        sections: sections(d)?,
    }
    .render()
    .map_err(|e| ReportError::Html(e.to_string()))
}

/// The document's sections as an HTML fragment, for a page that shows them.
pub fn fragment(d: &Doc) -> Result<String, ReportError> {
    Fragment {
        sections: sections(d)?,
    }
    .render()
    .map_err(|e| ReportError::Html(e.to_string()))
}
