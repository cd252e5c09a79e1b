//! What a tool page shows, as a file: its tables as CSV (spreadsheet formulas
//! neutralised) or Markdown (escaped), for the compare and layouts downloads.

use super::PageError;
use crate::report::doc::{self, Block, Doc, Row, text_col};
use crate::report::escape;
use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The two formats of a page download.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    Csv,
    Markdown,
}

impl TableFormat {
    /// `csv` or `md`, the file's extension.
    pub fn ext(self) -> &'static str {
        match self {
            TableFormat::Csv => "csv",
            TableFormat::Markdown => "md",
        }
    }

    fn content_type(self) -> &'static str {
        match self {
            TableFormat::Csv => "text/csv; charset=utf-8",
            TableFormat::Markdown => "text/markdown; charset=utf-8",
        }
    }
}

/// One table: a caption, its column headers and rows of cells.
pub struct Table {
    pub caption: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// A page as a file: a title, sentences (the verdict) and tables.
pub struct TableFile {
    pub title: String,
    pub text: Vec<String>,
    pub tables: Vec<Table>,
}

impl TableFile {
    /// The tables as CSV, one after the other with their caption as a first row and an
    /// empty row between them.
    pub fn csv(&self) -> Result<Vec<u8>, PageError> {
        let err = |e: csv::Error| PageError::Internal(format!("CSV download: {e}"));
        let mut w = csv::WriterBuilder::new()
            .flexible(true)
            .from_writer(Vec::new());
        for (i, t) in self.tables.iter().enumerate() {
            if i > 0 {
                w.write_record([""]).map_err(err)?;
            }
            w.write_record([escape::csv(&t.caption)]).map_err(err)?;
            w.write_record(t.headers.iter().map(|h| escape::csv(h)))
                .map_err(err)?;
            for row in &t.rows {
                w.write_record(row.iter().map(|c| escape::csv(c)))
                    .map_err(err)?;
            }
        }
        w.into_inner()
            .map_err(|e| PageError::Internal(format!("CSV download: {e}")))
    }

    /// The title, the sentences and the tables as a report document.
    fn document(&self) -> Doc {
        let mut blocks: Vec<Block> = self.text.iter().cloned().map(Block::Para).collect();
        for t in &self.tables {
            blocks.push(Block::Heading(t.caption.clone()));
            blocks.push(Block::Table(doc::Table {
                name: t.caption.clone(),
                columns: t.headers.iter().map(|h| text_col(h, 1.0)).collect(),
                rows: t
                    .rows
                    .iter()
                    .map(|r| Row::new(r.iter().map(|c| c.clone().into()).collect()))
                    .collect(),
            }));
        }
        Doc {
            kind: "Tables",
            title: self.title.clone(),
            subtitle: String::new(),
            meta: Vec::new(),
            dateline: String::new(),
            blocks,
            footer: String::new(),
        }
    }

    /// The title, the sentences and the tables as Markdown (the reports' writer).
    pub fn markdown(&self) -> Result<String, PageError> {
        doc::md::render(&self.document()).map_err(|e| PageError::Internal(e.to_string()))
    }

    /// The file as an attachment named `stem.ext`.
    pub fn response(&self, format: TableFormat, stem: &str) -> Result<Response, PageError> {
        let body = match format {
            TableFormat::Csv => self.csv()?,
            TableFormat::Markdown => self.markdown()?.into_bytes(),
        };
        Ok((
            [
                (header::CONTENT_TYPE, format.content_type().to_owned()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{stem}.{}\"", format.ext()),
                ),
            ],
            body,
        )
            .into_response())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file() -> TableFile {
        TableFile {
            title: "Layouts | *x*".into(),
            text: vec!["4 datastores suffice.".into()],
            tables: vec![Table {
                caption: "Rows".into(),
                headers: vec!["Count".into(), "Why".into()],
                rows: vec![vec!["4".into(), "=cmd|x".into()]],
            }],
        }
    }

    #[test]
    fn csv_neutralises_formulas_and_md_escapes_cells() {
        let csv = String::from_utf8(file().csv().unwrap()).unwrap();
        assert_eq!(
            csv.lines().collect::<Vec<_>>(),
            ["Rows", "Count,Why", "4,'=cmd|x"]
        );
        let md = file().markdown().unwrap();
        assert!(md.starts_with("# Layouts \\| \\*x\\*\n"), "{md}");
        assert!(
            md.contains("| Count | Why |\n|---|---|\n| 4 | =cmd\\|x |\n"),
            "{md}"
        );
    }
}
