//! A document as an Excel workbook: a Summary sheet (title block, the executive summary,
//! the figures and the sentences, the charts as images), then one sheet per table with
//! every figure stored as a number whose number format shows the same text as the
//! other formats, and a sheet of the code blocks.

use super::{Block, Doc};
use crate::report::ReportError;
use rust_xlsxwriter::{
    DocProperties, Format, FormatAlign, FormatBorder, Image, Workbook, Worksheet, XlsxError,
};
use std::collections::HashSet;

/// Chart images on the Summary sheet: drawn at the chart's size, shown at this scale.
const CHART_SCALE: f64 = 0.6;

/// Row height in points for `text` wrapped at about `chars_per_line` characters.
pub fn line_height(text: &str, chars_per_line: usize) -> f64 {
    let lines = text.chars().count().div_ceil(chars_per_line).max(1);
    15.0 * lines as f64
}

/// A sheet name Excel accepts: at most 31 characters, none of `[]:*?/\`, unique.
fn sheet_name(name: &str, taken: &mut HashSet<String>) -> String {
    let clean: String = name
        .chars()
        .filter(|c| !matches!(c, '[' | ']' | ':' | '*' | '?' | '/' | '\\'))
        .take(28)
        .collect();
    let base = if clean.trim().is_empty() {
        "Sheet".to_owned()
    } else {
        clean.trim().to_owned()
    };
    let mut candidate = base.clone();
    let mut n = 2;
    while !taken.insert(candidate.to_lowercase()) {
        candidate = format!("{base} {n}");
        n += 1;
    }
    candidate
}

fn header_format() -> Format {
    Format::new()
        .set_bold()
        .set_background_color(0xF3F5F7)
        .set_border_bottom(FormatBorder::Thin)
        .set_align(FormatAlign::Left)
}

fn summary_sheet(ws: &mut Worksheet, d: &Doc) -> Result<(), XlsxError> {
    let wrap = Format::new().set_text_wrap().set_align(FormatAlign::Top);
    let bold = Format::new().set_bold();
    let title = Format::new()
        .set_bold()
        .set_font_size(16)
        .set_font_color(0x0B5CAD);
    ws.set_column_width(0, 30)?;
    ws.set_column_width(1, 40)?;
    ws.write_string_with_format(0, 0, &d.title, &title)?;
    ws.write_string(1, 0, &d.subtitle)?;
    ws.write_string(2, 0, &d.dateline)?;
    let mut row = 4;
    for (label, value) in &d.meta {
        ws.write_string_with_format(row, 0, *label, &bold)?;
        ws.write_string_with_format(row, 1, value, &wrap)?;
        row += 1;
    }
    row += 1;
    let sentence = |ws: &mut Worksheet, row: &mut u32, text: &str| -> Result<(), XlsxError> {
        ws.merge_range(*row, 0, *row, 1, text, &wrap)?;
        ws.set_row_height(*row, line_height(text, 70))?;
        *row += 1;
        Ok(())
    };
    for b in &d.blocks {
        match b {
            Block::Heading(t) => {
                row += 1;
                ws.write_string_with_format(row, 0, t, &bold)?;
                row += 1;
            }
            Block::Summary(ps) => {
                for p in ps {
                    sentence(ws, &mut row, p)?;
                }
            }
            Block::Para(t)
            | Block::Note(t)
            | Block::Callout(t)
            | Block::Verdict { text: t, .. } => {
                sentence(ws, &mut row, t)?;
            }
            Block::Figures(ks) => {
                for k in ks {
                    ws.write_string(row, 0, &k.label)?;
                    ws.write_string(row, 1, format!("{} {}", k.value, k.unit).trim())?;
                    if let Some(range) = &k.range {
                        ws.write_string(row, 2, range)?;
                    }
                    row += 1;
                }
            }
            Block::Bullets(items) => {
                for i in items {
                    sentence(ws, &mut row, &i.text)?;
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
            .map_err(|e| XlsxError::ParameterError(e.to_string()))?;
        ws.write_string_with_format(top, 3, c.title(), &bold)?;
        let image = Image::new_from_buffer(&png)?
            .set_scale_width(CHART_SCALE)
            .set_scale_height(CHART_SCALE)
            .set_alt_text(c.alt());
        ws.insert_image(top + 1, 3, &image)?;
        top += ((f64::from(h) * CHART_SCALE) / 20.0).ceil() as u32 + 3;
    }
    Ok(())
}

fn table_sheet(ws: &mut Worksheet, t: &super::Table) -> Result<(), XlsxError> {
    let head = header_format();
    for (c, col) in t.columns.iter().enumerate() {
        let c = c as u16;
        ws.write_string_with_format(0, c, &col.title, &head)?;
        ws.set_column_width(c, f64::from((col.width * 10.0).clamp(10.0, 60.0)))?;
    }
    ws.set_freeze_panes(1, 0)?;
    let mut formats: Vec<(String, Format)> = Vec::new();
    for (r, row) in t.rows.iter().enumerate() {
        let r = r as u32 + 1;
        for (c, cell) in row.cells.iter().enumerate() {
            let c = c as u16;
            match &cell.number {
                Some((v, excel)) => {
                    let f = match formats.iter().find(|(k, _)| k == excel) {
                        Some((_, f)) => f.clone(),
                        None => {
                            let f = Format::new().set_num_format(excel);
                            formats.push((excel.clone(), f.clone()));
                            f
                        }
                    };
                    ws.write_number_with_format(r, c, *v, &f)?;
                }
                None => {
                    ws.write_string(r, c, crate::report::escape::csv(&cell.text))?;
                }
            }
        }
    }
    Ok(())
}

fn code_sheet(ws: &mut Worksheet, d: &Doc) -> Result<(), XlsxError> {
    let mono = Format::new().set_font_name("Consolas");
    let head = header_format();
    ws.set_column_width(0, 140)?;
    let mut row = 0;
    for b in &d.blocks {
        if let Block::Code { title, text, .. } = b {
            ws.write_string_with_format(row, 0, title, &head)?;
            row += 1;
            for line in text.lines() {
                if !line.is_empty() {
                    ws.write_string_with_format(row, 0, line, &mono)?;
                }
                row += 1;
            }
            row += 1;
        }
    }
    Ok(())
}

/// Writes the workbook.
pub fn render(d: &Doc) -> Result<Vec<u8>, ReportError> {
    let err = |e: XlsxError| ReportError::Xlsx(e.to_string());
    let mut wb = Workbook::new();
    wb.set_properties(
        &DocProperties::new()
            .set_title(format!("{} · {}", d.title, d.kind))
            .set_author("volplan"),
    );
    let mut taken = HashSet::new();
    let ws = wb.add_worksheet();
    ws.set_name(sheet_name("Summary", &mut taken))
        .map_err(err)?;
    summary_sheet(ws, d).map_err(err)?;
    for t in d.tables() {
        let ws = wb.add_worksheet();
        ws.set_name(sheet_name(&t.name, &mut taken)).map_err(err)?;
        table_sheet(ws, t).map_err(err)?;
    }
    if d.blocks.iter().any(|b| matches!(b, Block::Code { .. })) {
        let ws = wb.add_worksheet();
        ws.set_name(sheet_name("Code", &mut taken)).map_err(err)?;
        code_sheet(ws, d).map_err(err)?;
    }
    wb.save_to_buffer().map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheet_names_are_valid_and_unique() {
        let mut taken = HashSet::new();
        assert_eq!(sheet_name("Pools", &mut taken), "Pools");
        assert_eq!(sheet_name("Pools", &mut taken), "Pools 2");
        assert_eq!(sheet_name("a/b:c", &mut taken), "abc");
        assert!(sheet_name(&"x".repeat(60), &mut taken).chars().count() <= 31);
    }
}
