//! A document as a workbook: a Summary sheet (title block, the executive summary, the
//! figures and the sentences, the charts as images), then one sheet per table with
//! every figure stored as a number whose number format shows the same text as the
//! other formats, and a sheet of the code blocks.

use super::{Book, Sheet, Style, write};
use crate::report::ReportError;
use crate::report::doc::{Block, Doc, Table};

/// Chart images on the Summary sheet: drawn at the chart's size, shown at this scale.
const CHART_SCALE: f64 = 0.6;

fn summary_sheet(d: &Doc) -> Result<Sheet, ReportError> {
    let mut ws = Sheet::new("Summary");
    ws.width(0, 30.0);
    ws.width(1, 40.0);
    ws.text(0, 0, &d.title, Style::Title);
    ws.text(1, 0, &d.subtitle, Style::Plain);
    ws.text(2, 0, &d.dateline, Style::Plain);
    let mut row = 4;
    for (label, value) in &d.meta {
        ws.text(row, 0, *label, Style::Bold);
        ws.text(row, 1, value, Style::Wrap);
        row += 1;
    }
    row += 1;
    let sentence = |ws: &mut Sheet, row: &mut u32, text: &str| {
        ws.sentence(*row, (0, 1), text, 70);
        *row += 1;
    };
    for b in &d.blocks {
        match b {
            Block::Heading(t) => {
                row += 1;
                ws.text(row, 0, t, Style::Bold);
                row += 1;
            }
            Block::Summary(ps) => {
                for p in ps {
                    sentence(&mut ws, &mut row, p);
                }
            }
            Block::Para(t)
            | Block::Note(t)
            | Block::Callout(t)
            | Block::Verdict { text: t, .. } => sentence(&mut ws, &mut row, t),
            Block::Figures(ks) => {
                for k in ks {
                    ws.text(row, 0, &k.label, Style::Plain);
                    let value = format!("{} {}", k.value, k.unit);
                    ws.text(row, 1, value.trim(), Style::Plain);
                    if let Some(range) = &k.range {
                        ws.text(row, 2, range, Style::Plain);
                    }
                    row += 1;
                }
            }
            Block::Bullets(items) => {
                for i in items {
                    sentence(&mut ws, &mut row, &i.text);
                }
            }
            _ => {}
        }
    }
    // Charts to the right, one under the other.
    let mut top = 0;
    for c in d.charts() {
        let (w, h) = c.size();
        let png = c
            .png((w, h))
            .map_err(|e| ReportError::Xlsx(e.to_string()))?;
        ws.text(top, 3, c.title(), Style::Bold);
        ws.image(top + 1, 3, png, CHART_SCALE, &c.alt());
        top += ((f64::from(h) * CHART_SCALE) / 20.0).ceil() as u32 + 3;
    }
    Ok(ws)
}

fn table_sheet(t: &Table) -> Sheet {
    let columns: Vec<(&str, f64)> = t
        .columns
        .iter()
        .map(|c| {
            (
                c.title.as_str(),
                f64::from((c.width * 10.0).clamp(10.0, 60.0)),
            )
        })
        .collect();
    let mut ws = Sheet::table(&t.name, &columns);
    for (r, row) in t.rows.iter().enumerate() {
        let r = r as u32 + 1;
        for (c, cell) in row.cells.iter().enumerate() {
            let c = c as u16;
            match &cell.number {
                Some((v, excel)) => ws.number(r, c, *v, excel),
                None => ws.text(r, c, crate::report::escape::csv(&cell.text), Style::Plain),
            }
        }
    }
    ws
}

fn code_sheet(d: &Doc) -> Sheet {
    let mut ws = Sheet::new("Code");
    ws.width(0, 140.0);
    let mut row = 0;
    for b in &d.blocks {
        if let Block::Code { title, text, .. } = b {
            ws.text(row, 0, title, Style::Header);
            row += 1;
            for line in text.lines() {
                if !line.is_empty() {
                    ws.text(row, 0, line, Style::Mono);
                }
                row += 1;
            }
            row += 1;
        }
    }
    ws
}

/// The document as a workbook.
pub fn book(d: &Doc) -> Result<Book, ReportError> {
    let mut sheets = vec![summary_sheet(d)?];
    sheets.extend(d.tables().map(table_sheet));
    if d.blocks.iter().any(|b| matches!(b, Block::Code { .. })) {
        sheets.push(code_sheet(d));
    }
    Ok(Book {
        title: format!("{} · {}", d.title, d.kind),
        sheets,
    })
}

/// Writes the document's workbook.
pub fn render(d: &Doc) -> Result<Vec<u8>, ReportError> {
    write(&book(d)?)
}
