//! The one presentation path: how an evaluation, an AVS plan or an estate looks on a
//! page, on paper and in files.
//!
//! - [`escape`]: one escaper per output language (figures are written by
//!   [`crate::format`], the one formatter).
//! - [`summary`]: the report's words around the verdict's statements: chart captions,
//!   latency and cost in words, the AVS plan's and the estate's summaries.
//! - [`charts`]: every chart, one plotters draw per chart for SVG, PNG and PDF.
//! - [`doc`]: a report as a document, and one writer per language for it (HTML,
//!   Markdown, the PDF layouter); the one workbook writer ([`doc::xlsx`], sheets as
//!   data) and the one CSV writer ([`doc::csv`]), which every report's files go through.
//! - [`model`] (a scenario's report as data), [`scenario`], [`avs`] and [`estate`]:
//!   each report built as a document for its [`Edition`], plus its data formats (CSV
//!   rows and workbook sheets built as data, JSON).
//!
//! Rendering dispatches from here; the report models know no writer.

pub mod avs;
pub mod charts;
pub mod doc;
pub mod escape;
pub mod estate;
#[cfg(test)]
pub(crate) mod fixture;
pub mod model;
pub mod scenario;
pub mod sources;
pub mod summary;

pub use doc::html::CSP;
pub use model::Report;

use std::fmt;

/// Who a report is for. The customer edition (the default) has no file paths, commit
/// hashes, internal ids or series names, its prices in plain words and its sources as
/// an appendix of public documents; the engineer edition carries everything, with the
/// model trace, the fitted parameters and the price book's id and source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Edition {
    #[default]
    Customer,
    Engineer,
}

impl Edition {
    /// Parses `customer` or `engineer` (any case).
    pub fn parse(text: &str) -> Result<Edition, String> {
        match text.to_ascii_lowercase().as_str() {
            "" | "customer" => Ok(Edition::Customer),
            "engineer" => Ok(Edition::Engineer),
            other => Err(format!(
                "edition must be customer or engineer, not `{}`",
                other.chars().take(40).collect::<String>()
            )),
        }
    }

    /// The name used in URLs.
    pub fn key(self) -> &'static str {
        match self {
            Edition::Customer => "customer",
            Edition::Engineer => "engineer",
        }
    }

    /// A limit's or a figure's source as this edition shows it: the public citation
    /// for a customer, with the working note for an engineer.
    pub fn source(self, s: &crate::engine::source::Source) -> String {
        sources::cite(s, self)
    }
}

/// Paper size of the PDF.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paper {
    #[default]
    A4,
    Letter,
}

impl Paper {
    /// Parses `a4` or `letter` (any case).
    pub fn parse(text: &str) -> Result<Paper, String> {
        match text.to_ascii_lowercase().as_str() {
            "a4" => Ok(Paper::A4),
            "letter" => Ok(Paper::Letter),
            other => Err(format!("paper must be a4 or letter, not `{other}`")),
        }
    }

    /// Width and height in PDF points.
    pub fn size_pt(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.28, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }
}

/// An output format of a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Html,
    Md,
    Pdf,
    Csv,
    Xlsx,
    Json,
}

impl Format {
    /// Every format, in the order menus list them.
    pub const ALL: [Format; 6] = [
        Format::Html,
        Format::Pdf,
        Format::Xlsx,
        Format::Csv,
        Format::Md,
        Format::Json,
    ];

    /// Parses a file extension (`html`, `md`, `pdf`, `csv`, `xlsx`, `json`).
    pub fn from_ext(ext: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.ext() == ext)
    }

    /// The file extension.
    pub fn ext(self) -> &'static str {
        match self {
            Format::Html => "html",
            Format::Md => "md",
            Format::Pdf => "pdf",
            Format::Csv => "csv",
            Format::Xlsx => "xlsx",
            Format::Json => "json",
        }
    }

    /// The HTTP content type.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Html => "text/html; charset=utf-8",
            Format::Md => "text/markdown; charset=utf-8",
            Format::Pdf => "application/pdf",
            Format::Csv => "text/csv; charset=utf-8",
            Format::Xlsx => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            Format::Json => "application/json",
        }
    }

    /// A name for menus ("PDF report", "Excel workbook").
    pub fn label(self) -> &'static str {
        match self {
            Format::Html => "HTML report",
            Format::Md => "Markdown",
            Format::Pdf => "PDF report",
            Format::Csv => "CSV",
            Format::Xlsx => "Excel workbook",
            Format::Json => "JSON",
        }
    }

    /// Whether the render takes tens of megabytes (admitted one at a time).
    pub fn heavy(self) -> bool {
        matches!(self, Format::Pdf | Format::Xlsx)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.ext())
    }
}

/// Why a report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("chart {0}: {1}")]
    Chart(&'static str, String),
    #[error("PDF: {0}")]
    Pdf(String),
    #[error("XLSX: {0}")]
    Xlsx(String),
    #[error("CSV: {0}")]
    Csv(String),
    #[error("JSON: {0}")]
    Json(String),
    #[error("HTML: {0}")]
    Html(String),
}

/// Options that only some formats or readers use.
#[derive(Debug, Clone, Copy, Default)]
pub struct RenderOptions {
    pub paper: Paper,
    pub edition: Edition,
}

/// Writes a document (HTML, Markdown, PDF, XLSX) in `format`; CSV and JSON are the
/// report's data and come from its own writers (the customer edition's JSON is the
/// document's, [`doc::json`]).
pub fn render_doc(d: &doc::Doc, format: Format, paper: Paper) -> Result<Vec<u8>, ReportError> {
    match format {
        Format::Html => doc::html::render(d).map(String::into_bytes),
        Format::Md => doc::md::render(d).map(String::into_bytes),
        Format::Pdf => doc::pdf::render(d, paper),
        Format::Xlsx => doc::xlsx::render(d),
        Format::Csv | Format::Json => Err(ReportError::Html(format!(
            "{format} is written from the report's data"
        ))),
    }
}

/// Writes a scenario's report in one format.
pub fn render(
    report: &Report,
    format: Format,
    opts: RenderOptions,
) -> Result<Vec<u8>, ReportError> {
    match format {
        Format::Csv => scenario::csv::render(report, opts.edition),
        Format::Json if opts.edition == Edition::Customer => {
            doc::json::render(&scenario::document(report, opts.edition))
        }
        Format::Json => scenario::json::render(report),
        Format::Xlsx => scenario::xlsx::render(report, opts.edition),
        _ => render_doc(
            &scenario::document(report, opts.edition),
            format,
            opts.paper,
        ),
    }
}
