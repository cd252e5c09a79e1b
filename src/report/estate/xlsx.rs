//! The estate report as an Excel workbook: one sheet per table, figures as numbers.

use super::Table;
use crate::report::model::ReportError;
use rust_xlsxwriter::{Format, Workbook, XlsxError};

/// A cell as a number when it is one ("1,234.5", "$12.00"), else `None`.
fn number(cell: &str) -> Option<f64> {
    let plain: String = cell
        .trim_start_matches('$')
        .chars()
        .filter(|&c| c != ',')
        .collect();
    plain.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Writes the workbook.
pub fn render(tables: &[Table]) -> Result<Vec<u8>, ReportError> {
    let err = |e: XlsxError| ReportError::Xlsx(e.to_string());
    let mut wb = Workbook::new();
    let bold = Format::new().set_bold();
    let money = Format::new().set_num_format("$#,##0.00");
    for t in tables {
        let ws = wb.add_worksheet();
        ws.set_name(t.title).map_err(err)?;
        for (c, h) in t.headers.iter().enumerate() {
            ws.write_string_with_format(0, c as u16, *h, &bold)
                .map_err(err)?;
            ws.set_column_width(c as u16, 18).map_err(err)?;
        }
        for (r, row) in t.rows.iter().enumerate() {
            let r = r as u32 + 1;
            for (c, cell) in row.iter().enumerate() {
                let c = c as u16;
                match number(cell) {
                    Some(v) if cell.starts_with('$') => {
                        ws.write_number_with_format(r, c, v, &money).map_err(err)?
                    }
                    Some(v) => ws.write_number(r, c, v).map_err(err)?,
                    None => ws.write_string(r, c, cell.as_str()).map_err(err)?,
                };
            }
        }
    }
    wb.save_to_buffer().map_err(err)
}
