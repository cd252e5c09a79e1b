//! A report as a document: a title block and a sequence of blocks (headings, the
//! executive summary, paragraphs, figures, tables, code, charts, links). Every report
//! (a scenario's sizing, compare and layouts; an AVS plan; an estate) is built as a
//! [`Doc`] for its edition, and one writer per language turns any document into HTML,
//! Markdown or PDF, so every report has the same layout, fonts and escaping.

pub mod csv;
pub mod html;
pub mod json;
pub mod md;
pub mod pdf;
pub mod xlsx;

use super::charts::Chart;
use crate::format;

/// A whole document.
#[derive(Debug, Clone)]
pub struct Doc {
    /// What kind of document: "Sizing report", "AVS plan", "Estate report".
    pub kind: &'static str,
    pub title: String,
    pub subtitle: String,
    /// Who it is for and by whom: (label, value), e.g. ("Customer", "Contoso").
    pub meta: Vec<(&'static str, String)>,
    /// The line under the title: the date and what the prices are.
    pub dateline: String,
    pub blocks: Vec<Block>,
    /// The footer of every page.
    pub footer: String,
}

/// One block of a document.
#[derive(Debug, Clone)]
pub enum Block {
    /// A section heading (kept with what follows it).
    Heading(String),
    /// A heading inside a section.
    Subheading(String),
    /// The executive summary: the conclusions, one paragraph each.
    Summary(Vec<String>),
    Para(String),
    /// A small muted paragraph (a basis, a footnote).
    Note(String),
    /// A verdict line: met (✔) or not (✘).
    Verdict {
        met: bool,
        text: String,
    },
    /// One sentence in a box: what binds.
    Callout(String),
    /// Headline figures as boxes.
    Figures(Vec<Kpi>),
    Bullets(Vec<Bullet>),
    Table(Table),
    /// Preformatted text (a job file, a command line) copied as it is.
    Code {
        title: String,
        lang: &'static str,
        text: String,
    },
    /// A chart with its caption and data table.
    Chart(Box<Chart>),
    /// A numbered list of public documents.
    Links(Vec<(String, String)>),
}

/// A headline figure: its label, the value as shown and the unit beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct Kpi {
    /// A stable id for pages and tests ("throughput").
    pub key: &'static str,
    pub label: String,
    pub value: String,
    pub unit: String,
    /// The likely range in words beside the value ("likely 3,100-3,900"), when the
    /// figure has one.
    pub range: Option<String>,
}

/// How a bullet is tagged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Info,
    Warn,
}

/// A list item, optionally tagged ("WARN", "INFO").
#[derive(Debug, Clone, PartialEq)]
pub struct Bullet {
    pub tag: Option<(String, Tone)>,
    pub text: String,
}

impl Bullet {
    pub fn plain(text: impl Into<String>) -> Bullet {
        Bullet {
            tag: None,
            text: text.into(),
        }
    }
}

/// A table column: its title, share of the width, and whether it holds figures
/// (right-aligned).
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub title: String,
    pub width: f32,
    pub numeric: bool,
}

/// A column of text.
pub fn text_col(title: &str, width: f32) -> Column {
    Column {
        title: title.to_owned(),
        width,
        numeric: false,
    }
}

/// A column of figures.
pub fn num_col(title: &str, width: f32) -> Column {
    Column {
        title: title.to_owned(),
        width,
        numeric: true,
    }
}

/// A cell: its text as every format shows it, and for spreadsheets the number behind it
/// with the Excel format that shows the same text.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub text: String,
    pub number: Option<(f64, String)>,
}

impl Cell {
    pub fn text(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            number: None,
        }
    }

    /// A figure with `decimals` decimals, thousands separated; `unit` only for the
    /// spreadsheet's format (the column title names it).
    pub fn num(v: f64, decimals: usize) -> Cell {
        Cell::figure(v, format::num(v, decimals), format::xlsx_unit("", decimals))
    }

    /// A rate or count exact to the unit.
    pub fn exact(v: f64) -> Cell {
        let decimals = if v.abs() < 10.0 { 2 } else { 0 };
        Cell::figure(v, format::exact(v), format::xlsx_unit("", decimals))
    }

    /// An amount of money, or "no list price".
    pub fn money(v: Option<f64>, currency: &str) -> Cell {
        match v.filter(|v| v.is_finite()) {
            Some(v) => Cell::figure(v, format::money(v, currency), format::xlsx_money(currency)),
            None => Cell::text(format::NOT_PRICED),
        }
    }

    /// A percentage.
    pub fn pct(v: f64, decimals: usize) -> Cell {
        Cell::figure(
            v,
            format::pct(v, decimals),
            format::xlsx_unit("%", decimals),
        )
    }

    fn figure(v: f64, text: String, excel: String) -> Cell {
        Cell {
            text,
            number: v.is_finite().then_some((v, excel)),
        }
    }
}

impl From<String> for Cell {
    fn from(text: String) -> Cell {
        Cell::text(text)
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Cell {
        Cell::text(text)
    }
}

/// How a row stands out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mark {
    #[default]
    None,
    /// The binding limit, the scenario itself.
    Key,
    /// The cheapest or best choice.
    Best,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub cells: Vec<Cell>,
    pub mark: Mark,
}

impl Row {
    pub fn new(cells: Vec<Cell>) -> Row {
        Row {
            cells,
            mark: Mark::None,
        }
    }

    pub fn marked(cells: Vec<Cell>, mark: Mark) -> Row {
        Row { cells, mark }
    }
}

/// A table: a name (the spreadsheet's sheet, the caption), columns and rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub name: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
}

impl Doc {
    /// Every table of the document, in order.
    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.blocks.iter().filter_map(|b| match b {
            Block::Table(t) => Some(t),
            _ => None,
        })
    }

    /// Every chart of the document, in order.
    pub fn charts(&self) -> impl Iterator<Item = &Chart> {
        self.blocks.iter().filter_map(|b| match b {
            Block::Chart(c) => Some(c.as_ref()),
            _ => None,
        })
    }
}
