//! Every CSV file and its one writer: a report gives its rows of fields (its header row
//! first), [`write`] writes them as UTF-8, comma-separated. Free text goes through
//! [`text`] (nothing a spreadsheet would run as a formula) and figures through
//! [`number`] (no separators, so spreadsheets parse them). [`render`] writes a
//! document's tables.

use super::Doc;
use crate::report::{ReportError, escape};

/// A figure without separators, rounded to at most `decimals` decimals; empty when it
/// is not finite.
pub fn number(v: f64, decimals: i32) -> String {
    if v.is_finite() {
        let scale = 10f64.powi(decimals);
        format!("{}", (v * scale).round() / scale)
    } else {
        String::new()
    }
}

/// A field of free text, quoted away from starting a formula.
pub fn text(s: &str) -> String {
    escape::csv(s)
}

/// Writes `rows` (the header row first); with `flexible` the rows may differ in length.
pub fn write<R, F>(
    rows: impl IntoIterator<Item = R>,
    flexible: bool,
) -> Result<Vec<u8>, ReportError>
where
    R: IntoIterator<Item = F>,
    F: AsRef<[u8]>,
{
    let err = |e: ::csv::Error| ReportError::Csv(e.to_string());
    let mut w = ::csv::WriterBuilder::new()
        .flexible(flexible)
        .from_writer(Vec::new());
    for row in rows {
        w.write_record(row).map_err(err)?;
    }
    w.into_inner().map_err(|e| ReportError::Csv(e.to_string()))
}

/// A document's tables, one after the other: each table's header row (`table` and the
/// column titles), then its rows, each led by the table's name.
pub fn render(d: &Doc) -> Result<Vec<u8>, ReportError> {
    let mut rows: Vec<Vec<String>> = Vec::new();
    for t in d.tables() {
        let mut head = vec!["table".to_owned()];
        head.extend(t.columns.iter().map(|c| c.title.clone()));
        rows.push(head);
        for r in &t.rows {
            let mut row = vec![text(&t.name)];
            row.extend(r.cells.iter().map(|c| match c.number {
                Some((v, _)) => number(v, 4),
                None => text(&c.text),
            }));
            rows.push(row);
        }
    }
    write(rows, true)
}
