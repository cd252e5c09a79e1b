//! Every workbook as data and its one writer: a report builds a [`Book`] (sheets of
//! cells, each cell text in a [`Style`] or a number with its Excel number format,
//! merged sentences, row heights, column widths, chart images), and [`write`] turns any
//! book into the XLSX file. The document's workbook ([`document`]), the scenario's and
//! the AVS plan's all go through it, so they share the styles, the sheet names Excel
//! accepts and the cell limits.

pub mod document;

pub use document::render;

use crate::report::ReportError;
use rust_xlsxwriter::{
    DocProperties, Format, FormatAlign, FormatBorder, Image, Workbook, Worksheet, XlsxError,
};
use std::collections::HashSet;

/// Most characters a cell holds (Excel's limit); longer text is cut.
pub const CELL_MAX_CHARS: usize = 32_767;

/// Rows a sheet holds (Excel's limit), the header included.
pub const SHEET_MAX_ROWS: usize = 1_048_576;

/// Row height in points for `text` wrapped at about `chars_per_line` characters.
pub fn line_height(text: &str, chars_per_line: usize) -> f64 {
    let lines = text.chars().count().div_ceil(chars_per_line).max(1);
    15.0 * lines as f64
}

/// How a text cell looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Plain,
    /// The sheet's title: large, bold, in the accent colour.
    Title,
    Subtitle,
    Muted,
    /// A column header: bold on a grey band with a rule under it.
    Header,
    Bold,
    /// Wrapped, aligned to the top.
    Wrap,
    /// A row that stands out (the binding limit, the cheapest level).
    Highlight,
    HighlightWrap,
    /// Code, one line a row.
    Mono,
}

impl Style {
    /// The format, `None` for plain text.
    fn format(self) -> Option<Format> {
        let accent = 0x0B5CAD;
        let highlight = || Format::new().set_bold().set_background_color(0xE3EEFA);
        let wrap = || Format::new().set_text_wrap().set_align(FormatAlign::Top);
        Some(match self {
            Style::Plain => return None,
            Style::Title => Format::new()
                .set_bold()
                .set_font_size(16)
                .set_font_color(accent),
            Style::Subtitle => Format::new().set_font_size(12),
            Style::Muted => Format::new().set_font_color(0x57606A),
            Style::Header => Format::new()
                .set_bold()
                .set_background_color(0xF3F5F7)
                .set_border_bottom(FormatBorder::Thin)
                .set_align(FormatAlign::Left),
            Style::Bold => Format::new().set_bold(),
            Style::Wrap => wrap(),
            Style::Highlight => highlight(),
            Style::HighlightWrap => highlight().set_text_wrap().set_align(FormatAlign::Top),
            Style::Mono => Format::new().set_font_name("Consolas"),
        })
    }
}

/// One thing put on a sheet, in the order the sheet is written.
#[derive(Debug, Clone, PartialEq)]
enum Put {
    Text(u32, u16, String, Style),
    /// A number with its Excel number format (`None`: General).
    Number(u32, u16, f64, Option<String>),
    /// Text over columns `.1..=.2` of one row.
    Merged(u32, u16, u16, String, Style),
    Height(u32, f64),
    Width(u16, f64),
    Freeze(u32),
    Image {
        row: u32,
        col: u16,
        png: Vec<u8>,
        scale: f64,
        alt: String,
    },
}

/// A worksheet as data.
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    pub name: String,
    puts: Vec<Put>,
}

impl Sheet {
    pub fn new(name: impl Into<String>) -> Sheet {
        Sheet {
            name: name.into(),
            puts: Vec::new(),
        }
    }

    /// A sheet that is one table: the header row (title, column width) frozen at the top.
    pub fn table(name: impl Into<String>, columns: &[(&str, f64)]) -> Sheet {
        let mut s = Sheet::new(name);
        for (c, (title, width)) in columns.iter().enumerate() {
            s.text(0, c as u16, *title, Style::Header);
            s.width(c as u16, *width);
        }
        s.puts.push(Put::Freeze(1));
        s
    }

    pub fn text(&mut self, row: u32, col: u16, text: impl Into<String>, style: Style) {
        self.puts.push(Put::Text(row, col, text.into(), style));
    }

    /// A number shown in the Excel number format `format`.
    pub fn number(&mut self, row: u32, col: u16, v: f64, format: impl Into<String>) {
        self.puts
            .push(Put::Number(row, col, v, Some(format.into())));
    }

    /// A number in Excel's General format.
    pub fn general(&mut self, row: u32, col: u16, v: f64) {
        self.puts.push(Put::Number(row, col, v, None));
    }

    /// An amount in `currency`'s money format, or [`crate::format::NOT_PRICED`].
    pub fn money(&mut self, row: u32, col: u16, v: Option<f64>, currency: &str) {
        match v.filter(|v| v.is_finite()) {
            Some(v) => self.number(row, col, v, crate::format::xlsx_money(currency)),
            None => self.text(row, col, crate::format::NOT_PRICED, Style::Plain),
        }
    }

    /// A sentence over columns `first..=last` of `row`, wrapped, the row as tall as the
    /// text at about `chars_per_line` characters a line.
    pub fn sentence(&mut self, row: u32, cols: (u16, u16), text: &str, chars_per_line: usize) {
        self.puts.push(Put::Merged(
            row,
            cols.0,
            cols.1,
            text.to_owned(),
            Style::Wrap,
        ));
        self.height(row, line_height(text, chars_per_line));
    }

    pub fn height(&mut self, row: u32, points: f64) {
        self.puts.push(Put::Height(row, points));
    }

    pub fn width(&mut self, col: u16, width: f64) {
        self.puts.push(Put::Width(col, width));
    }

    /// A PNG image with its top left corner in the cell, shown at `scale`.
    pub fn image(&mut self, row: u32, col: u16, png: Vec<u8>, scale: f64, alt: &str) {
        self.puts.push(Put::Image {
            row,
            col,
            png,
            scale,
            alt: alt.to_owned(),
        });
    }
}

/// A workbook as data: its title (the file's properties) and its sheets in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Book {
    pub title: String,
    pub sheets: Vec<Sheet>,
}

/// `s` cut to what a cell holds.
pub fn clip(s: &str) -> &str {
    match s.char_indices().nth(CELL_MAX_CHARS) {
        Some((i, _)) => &s[..i],
        None => s,
    }
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

fn write_sheet(ws: &mut Worksheet, sheet: &Sheet) -> Result<(), XlsxError> {
    // Number formats made once per sheet.
    let mut numbers: Vec<(&str, Format)> = Vec::new();
    for put in &sheet.puts {
        match put {
            Put::Text(r, c, text, style) => match style.format() {
                Some(f) => ws.write_string_with_format(*r, *c, clip(text), &f)?,
                None => ws.write_string(*r, *c, clip(text))?,
            },
            Put::Number(r, c, v, None) => ws.write_number(*r, *c, *v)?,
            Put::Number(r, c, v, Some(excel)) => {
                let f = match numbers.iter().find(|(k, _)| k == excel) {
                    Some((_, f)) => f.clone(),
                    None => {
                        let f = Format::new().set_num_format(excel);
                        numbers.push((excel, f.clone()));
                        f
                    }
                };
                ws.write_number_with_format(*r, *c, *v, &f)?
            }
            Put::Merged(r, first, last, text, style) => {
                let f = style.format().unwrap_or_default();
                ws.merge_range(*r, *first, *r, *last, clip(text), &f)?
            }
            Put::Height(r, points) => ws.set_row_height(*r, *points)?,
            Put::Width(c, width) => ws.set_column_width(*c, *width)?,
            Put::Freeze(rows) => ws.set_freeze_panes(*rows, 0)?,
            Put::Image {
                row,
                col,
                png,
                scale,
                alt,
            } => {
                let image = Image::new_from_buffer(png)?
                    .set_scale_width(*scale)
                    .set_scale_height(*scale)
                    .set_alt_text(alt.as_str());
                ws.insert_image(*row, *col, &image)?
            }
        };
    }
    Ok(())
}

/// Writes the workbook.
pub fn write(book: &Book) -> Result<Vec<u8>, ReportError> {
    let err = |e: XlsxError| ReportError::Xlsx(e.to_string());
    let mut wb = Workbook::new();
    wb.set_properties(
        &DocProperties::new()
            .set_title(clip(&book.title))
            .set_author("volplan"),
    );
    let mut taken = HashSet::new();
    for sheet in &book.sheets {
        let ws = wb.add_worksheet();
        ws.set_name(sheet_name(&sheet.name, &mut taken))
            .map_err(err)?;
        write_sheet(ws, sheet).map_err(err)?;
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

    #[test]
    fn text_is_cut_to_what_a_cell_holds() {
        let long = "é".repeat(CELL_MAX_CHARS + 10);
        assert_eq!(clip(&long).chars().count(), CELL_MAX_CHARS);
        assert_eq!(clip("short"), "short");
        let mut s = Sheet::new("Long");
        s.text(0, 0, long, Style::Plain);
        let book = Book {
            title: "t".into(),
            sheets: vec![s],
        };
        assert!(write(&book).is_ok());
    }
}
