//! The report as an Excel workbook: sheets Summary, Limits, Latency, Sizing, Inputs, Advice
//! and Test plan (plus Comparison and Layouts when asked for), numbers stored as numbers with
//! unit formats, and the charts as PNG images on the Summary sheet.

use crate::format::{self, NOT_PRICED};
use crate::report::doc::xlsx::line_height;
use crate::report::model::{Report, TestPlan};
use crate::report::{Edition, ReportError};
use crate::verdict::headline;
use rust_xlsxwriter::{
    DocProperties, Format, FormatAlign, FormatBorder, Image, Workbook, Worksheet, XlsxError,
};

/// The sheets every workbook has, in order.
pub const SHEETS: [&str; 7] = [
    "Summary",
    "Limits",
    "Latency",
    "Sizing",
    "Inputs",
    "Advice",
    "Test plan",
];

/// Size the chart images are drawn at, in pixels; shown at 60 % on the sheet.
const CHART_PX: (u32, u32) = (780, 440);
const CHART_SCALE: f64 = 0.6;

struct Styles {
    title: Format,
    subtitle: Format,
    muted: Format,
    header: Format,
    bold: Format,
    wrap: Format,
    highlight: Format,
    highlight_wrap: Format,
}

impl Styles {
    fn new() -> Styles {
        let accent = 0x0B5CAD;
        Styles {
            title: Format::new()
                .set_bold()
                .set_font_size(16)
                .set_font_color(accent),
            subtitle: Format::new().set_font_size(12),
            muted: Format::new().set_font_color(0x57606A),
            header: Format::new()
                .set_bold()
                .set_background_color(0xF3F5F7)
                .set_border_bottom(FormatBorder::Thin)
                .set_align(FormatAlign::Left),
            bold: Format::new().set_bold(),
            wrap: Format::new().set_text_wrap().set_align(FormatAlign::Top),
            highlight: Format::new().set_bold().set_background_color(0xE3EEFA),
            highlight_wrap: Format::new()
                .set_bold()
                .set_background_color(0xE3EEFA)
                .set_text_wrap()
                .set_align(FormatAlign::Top),
        }
    }
}

fn num(unit: &str, decimals: usize) -> Format {
    Format::new().set_num_format(format::xlsx_unit(unit, decimals))
}

fn header(ws: &mut Worksheet, st: &Styles, titles: &[(&str, f64)]) -> Result<(), XlsxError> {
    for (c, (title, width)) in titles.iter().enumerate() {
        let c = c as u16;
        ws.write_string_with_format(0, c, *title, &st.header)?;
        ws.set_column_width(c, *width)?;
    }
    ws.set_freeze_panes(1, 0)?;
    Ok(())
}

/// An amount as a number in the money format of its currency, or [`NOT_PRICED`].
fn money_cell(
    ws: &mut Worksheet,
    row: u32,
    col: u16,
    v: Option<f64>,
    currency: &str,
) -> Result<(), XlsxError> {
    match v.filter(|v| v.is_finite()) {
        Some(x) => ws.write_number_with_format(
            row,
            col,
            x,
            &Format::new().set_num_format(format::xlsx_money(currency)),
        )?,
        None => ws.write_string(row, col, NOT_PRICED)?,
    };
    Ok(())
}

use format::yes_no as yes;

fn summary(
    wb: &mut Workbook,
    st: &Styles,
    r: &Report,
    edition: Edition,
    pngs: &[(String, Vec<u8>)],
) -> Result<(), XlsxError> {
    let ws = wb.add_worksheet();
    ws.set_name("Summary")?;
    ws.set_column_width(0, 26)?;
    ws.set_column_width(1, 36)?;
    ws.set_column_width(2, 24)?;
    ws.write_string_with_format(0, 0, &r.title, &st.title)?;
    ws.write_string_with_format(1, 0, &r.subtitle, &st.subtitle)?;
    ws.write_string_with_format(
        2,
        0,
        format!(
            "{} · {}",
            format::date_words(&r.date),
            crate::report::summary::cost::price_basis(&r.evaluation, edition)
        ),
        &st.muted,
    )?;
    ws.write_string_with_format(4, 0, "Figure", &st.header)?;
    ws.write_string_with_format(4, 1, "Value", &st.header)?;
    ws.write_string_with_format(4, 2, "Likely range", &st.header)?;
    let mut row = 5;
    for f in &r.headline {
        ws.write_string(row, 0, &f.label)?;
        if let Some(range) = &f.range {
            ws.write_string(row, 2, headline::likely_words(range))?;
        }
        match f.value.filter(|v| v.is_finite()) {
            Some(v) => ws.write_number_with_format(
                row,
                1,
                v,
                &Format::new().set_num_format(f.excel_format()),
            )?,
            None => ws.write_string(row, 1, NOT_PRICED)?,
        };
        row += 1;
    }
    let basis = r.range_basis(edition);
    ws.merge_range(row, 0, row, 2, &basis, &st.wrap)?;
    ws.set_row_height(row, line_height(&basis, 84))?;
    row += 2;
    ws.write_string_with_format(row, 0, "Bound by", &st.bold)?;
    ws.write_string_with_format(row, 1, &r.binding.label, &st.highlight_wrap)?;
    ws.set_row_height(row, line_height(&r.binding.label, 34))?;
    row += 1;
    if edition == Edition::Engineer {
        ws.write_string(row, 0, "Binding limit id")?;
        ws.write_string(row, 1, r.binding.id)?;
        row += 1;
    }
    if let Some(m) = &r.meta {
        for (label, value) in [
            ("Customer", &m.customer),
            ("Project", &m.project),
            ("Prepared by", &m.author),
            ("Notes", &m.notes),
        ] {
            if !value.is_empty() {
                ws.write_string_with_format(row, 0, label, &st.bold)?;
                ws.write_string_with_format(row, 1, value, &st.wrap)?;
                ws.set_row_height(row, line_height(value, 34))?;
                row += 1;
            }
        }
    }
    // Sentences span both columns, wrapped, with the row as tall as the text.
    let cost = r.cost_paragraph(edition);
    let summary = r.summary();
    // The summary holds the verdict's statements (targets, what binds); the cost follows.
    let mut sentences: Vec<&str> = summary.iter().map(String::as_str).collect();
    sentences.push(&cost);
    for text in sentences {
        ws.merge_range(row, 0, row, 1, text, &st.wrap)?;
        ws.set_row_height(row, line_height(text, 60))?;
        row += 1;
    }

    // Charts to the right of the figures, one under the other.
    let rows_per_chart = ((f64::from(CHART_PX.1) * CHART_SCALE) / 20.0).ceil() as u32 + 3;
    for (i, (title, png)) in pngs.iter().enumerate() {
        let top = i as u32 * rows_per_chart;
        ws.write_string_with_format(top, 3, title, &st.bold)?;
        let image = Image::new_from_buffer(png)?
            .set_scale_width(CHART_SCALE)
            .set_scale_height(CHART_SCALE)
            .set_alt_text(title.as_str());
        ws.insert_image(top + 1, 3, &image)?;
    }
    Ok(())
}

fn limits(wb: &mut Workbook, st: &Styles, r: &Report, edition: Edition) -> Result<(), XlsxError> {
    let ws = wb.add_worksheet();
    ws.set_name("Limits")?;
    let id_title = if edition == Edition::Engineer {
        "Id"
    } else {
        ""
    };
    header(
        ws,
        st,
        &[
            ("Limit", 48.0),
            (id_title, 16.0),
            ("Scope", 11.0),
            ("Applies to", 10.0),
            ("MiB/s", 16.0),
            ("IOPS", 16.0),
            ("Headroom", 11.0),
            ("Binding", 9.0),
            ("Assumption", 11.0),
            ("Source", 48.0),
        ],
    )?;
    let mibps = num("MiB/s", 1);
    let iops = num("IOPS", 0);
    let pct = num("%", 1);
    for (i, l) in r.limits.iter().enumerate() {
        let row = i as u32 + 1;
        if l.binding {
            ws.write_string_with_format(row, 0, &l.label, &st.highlight)?;
        } else {
            ws.write_string(row, 0, &l.label)?;
        }
        if edition == Edition::Engineer {
            ws.write_string(row, 1, l.id)?;
        }
        ws.write_string(row, 2, l.scope)?;
        ws.write_string(row, 3, l.applies)?;
        ws.write_number_with_format(row, 4, l.mibps, &mibps)?;
        ws.write_number_with_format(row, 5, l.iops, &iops)?;
        ws.write_number_with_format(row, 6, l.headroom_pct, &pct)?;
        ws.write_string(row, 7, yes(l.binding))?;
        ws.write_string(row, 8, yes(l.assumption))?;
        ws.write_string(row, 9, l.source_in(edition))?;
    }
    Ok(())
}

/// The model's latency curve, one row per load, with the latency section's sentence under it.
fn latency(wb: &mut Workbook, st: &Styles, r: &Report) -> Result<(), XlsxError> {
    let ws = wb.add_worksheet();
    ws.set_name("Latency")?;
    header(
        ws,
        st,
        &[
            ("Load", 12.0),
            ("IOPS", 16.0),
            ("MiB/s", 16.0),
            ("Latency per IO", 16.0),
        ],
    )?;
    let (pct, iops, mibps, ms) = (num("%", 0), num("IOPS", 0), num("MiB/s", 1), num("ms", 3));
    let mut row = 1;
    for p in r.evaluation.latency_curve.points() {
        ws.write_number_with_format(row, 0, p.load_pct, &pct)?;
        ws.write_number_with_format(row, 1, p.iops, &iops)?;
        ws.write_number_with_format(row, 2, p.mibps, &mibps)?;
        ws.write_number_with_format(row, 3, p.latency_ms, &ms)?;
        row += 1;
    }
    row += 1;
    ws.merge_range(row, 0, row, 3, &r.latency, &st.wrap)?;
    ws.set_row_height(row, line_height(&r.latency, 70))?;
    Ok(())
}

fn sizing(wb: &mut Workbook, st: &Styles, r: &Report) -> Result<(), XlsxError> {
    let currency = r.evaluation.cost.currency;
    let ws = wb.add_worksheet();
    ws.set_name("Sizing")?;
    header(
        ws,
        st,
        &[
            ("Level", 40.0),
            ("Quota", 14.0),
            ("Pool", 14.0),
            ("Throughput", 16.0),
            ("Monthly cost", 18.0),
            ("Meets targets", 13.0),
            ("Cheapest", 10.0),
            ("This scenario", 13.0),
        ],
    )?;
    let tib = num("TiB", 3);
    let mibps = num("MiB/s", 1);
    for (i, z) in r.sizing.iter().enumerate() {
        let row = i as u32 + 1;
        if z.cheapest {
            ws.write_string_with_format(row, 0, &z.name, &st.highlight)?;
        } else {
            ws.write_string(row, 0, &z.name)?;
        }
        ws.write_number_with_format(row, 1, z.quota_tib, &tib)?;
        ws.write_number_with_format(row, 2, z.pool_tib, &tib)?;
        match z.throughput_mibps {
            Some(t) => ws.write_number_with_format(row, 3, t, &mibps)?,
            None => ws.write_string(row, 3, "-")?,
        };
        money_cell(ws, row, 4, z.monthly, currency)?;
        ws.write_string(row, 5, yes(z.meets))?;
        ws.write_string(row, 6, yes(z.cheapest))?;
        ws.write_string(row, 7, yes(z.current))?;
    }
    Ok(())
}

fn inputs(wb: &mut Workbook, st: &Styles, r: &Report) -> Result<(), XlsxError> {
    let ws = wb.add_worksheet();
    ws.set_name("Inputs")?;
    header(
        ws,
        st,
        &[
            ("Section", 12.0),
            ("Input", 26.0),
            ("Value", 36.0),
            ("Unit", 10.0),
        ],
    )?;
    for (i, input) in r.inputs.iter().enumerate() {
        let row = i as u32 + 1;
        ws.write_string(row, 0, input.section)?;
        ws.write_string(row, 1, &input.label)?;
        match input.number {
            Some(v) => ws.write_number_with_format(
                row,
                2,
                v,
                &num("", if v.fract() == 0.0 { 0 } else { 3 }),
            )?,
            None => ws.write_string(row, 2, &input.value)?,
        };
        ws.write_string(row, 3, input.unit)?;
    }
    Ok(())
}

fn advice(wb: &mut Workbook, st: &Styles, r: &Report, edition: Edition) -> Result<(), XlsxError> {
    let ws = wb.add_worksheet();
    ws.set_name("Advice")?;
    let code_title = if edition == Edition::Engineer {
        "Code"
    } else {
        ""
    };
    header(
        ws,
        st,
        &[("Severity", 12.0), (code_title, 22.0), ("Message", 100.0)],
    )?;
    let mut row = 1;
    for a in &r.advice {
        ws.write_string(row, 0, a.severity)?;
        if edition == Edition::Engineer {
            ws.write_string(row, 1, a.code)?;
        }
        ws.write_string_with_format(row, 2, &a.message, &st.wrap)?;
        row += 1;
    }
    for a in &crate::report::summary::assumptions(&r.evaluation, edition) {
        ws.write_string(row, 0, "assumption")?;
        ws.write_string(row, 1, "")?;
        ws.write_string_with_format(row, 2, a, &st.wrap)?;
        row += 1;
    }
    Ok(())
}

/// The verification test plan, one text line per row in column A.
/// Most characters a spreadsheet cell holds (Excel's limit).
const CELL_MAX_CHARS: usize = 32_767;

/// Said before a line that had to be split over several cells.
const LONG_LINE_NOTE: &str = "The next line is longer than a cell holds: it continues over the following rows; join them with spaces into one line.";

/// `line` in pieces that each fit a cell, split at a space where one is near the end.
fn cell_chunks(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while rest.chars().count() > CELL_MAX_CHARS {
        // The byte index of the last character that still fits.
        let cut = rest
            .char_indices()
            .nth(CELL_MAX_CHARS)
            .map_or(rest.len(), |(i, _)| i);
        let at = rest[..cut]
            .rfind(' ')
            .filter(|&i| i > cut / 2)
            .unwrap_or(cut);
        out.push(&rest[..at]);
        rest = rest[at..].trim_start_matches(' ');
    }
    out.push(rest);
    out
}

fn test_plan(
    wb: &mut Workbook,
    st: &Styles,
    r: &Report,
    edition: Edition,
) -> Result<(), XlsxError> {
    let ws = wb.add_worksheet();
    ws.set_name("Test plan")?;
    ws.set_column_width(0, 140)?;
    ws.write_string_with_format(0, 0, TestPlan::TITLE, &st.title)?;
    let note = r.test_plan.note(edition);
    ws.write_string_with_format(1, 0, note, &st.wrap)?;
    ws.set_row_height(1, line_height(note, 150))?;
    let mono = Format::new().set_font_name("Consolas");
    let mut row = 3;
    for part in r.test_plan.parts(edition) {
        ws.write_string_with_format(row, 0, part.title, &st.header)?;
        row += 1;
        let text = part.text;
        for line in text.lines() {
            let chunks = cell_chunks(line);
            if chunks.len() > 1 {
                ws.write_string_with_format(row, 0, LONG_LINE_NOTE, &st.wrap)?;
                row += 1;
            }
            for chunk in chunks {
                if !chunk.is_empty() {
                    ws.write_string_with_format(row, 0, chunk, &mono)?;
                }
                row += 1;
            }
        }
        row += 1;
    }
    Ok(())
}

fn comparison(wb: &mut Workbook, st: &Styles, r: &Report) -> Result<(), XlsxError> {
    let Some(c) = &r.comparison else {
        return Ok(());
    };
    let rows = &c.rows;
    let ws = wb.add_worksheet();
    ws.set_name("Comparison")?;
    header(
        ws,
        st,
        &[
            ("Scenario", 32.0),
            ("Storage", 34.0),
            ("Throughput", 16.0),
            ("IOPS", 16.0),
            ("Bound by", 48.0),
            ("Monthly cost", 18.0),
            ("Targets met", 12.0),
        ],
    )?;
    for (i, c) in rows.iter().enumerate() {
        let row = i as u32 + 1;
        ws.write_string(row, 0, &c.name)?;
        ws.write_string(row, 1, &c.storage)?;
        ws.write_number_with_format(row, 2, c.throughput_mibps, &num("MiB/s", 1))?;
        ws.write_number_with_format(row, 3, c.iops, &num("IOPS", 0))?;
        ws.write_string(row, 4, &c.binding_label)?;
        money_cell(ws, row, 5, c.monthly, c.currency)?;
        ws.write_string(row, 6, yes(c.met))?;
    }
    Ok(())
}

fn layouts(wb: &mut Workbook, st: &Styles, r: &Report) -> Result<(), XlsxError> {
    let Some(l) = &r.layouts else {
        return Ok(());
    };
    let (rows, currency) = (&l.rows, r.evaluation.cost.currency);
    let ws = wb.add_worksheet();
    ws.set_name("Layouts")?;
    header(
        ws,
        st,
        &[
            ("Volumes", 10.0),
            ("Quota each", 14.0),
            ("Throughput", 16.0),
            ("IOPS", 16.0),
            ("Connections", 12.0),
            ("Bound by", 48.0),
            ("Monthly cost", 18.0),
            ("Targets met", 12.0),
        ],
    )?;
    for (i, l) in rows.iter().enumerate() {
        let row = i as u32 + 1;
        ws.write_number(row, 0, l.count)?;
        ws.write_number_with_format(row, 1, l.quota_tib, &num("TiB", 3))?;
        ws.write_number_with_format(row, 2, l.throughput_mibps, &num("MiB/s", 1))?;
        ws.write_number_with_format(row, 3, l.iops, &num("IOPS", 0))?;
        ws.write_number(row, 4, l.connections as f64)?;
        ws.write_string(row, 5, &l.binding_label)?;
        money_cell(ws, row, 6, l.monthly, currency)?;
        ws.write_string(row, 7, yes(l.met))?;
    }
    Ok(())
}

/// Writes the workbook with the given chart images (title, PNG bytes).
fn render_with(
    r: &Report,
    edition: Edition,
    pngs: &[(String, Vec<u8>)],
) -> Result<Vec<u8>, ReportError> {
    let err = |e: XlsxError| ReportError::Xlsx(e.to_string());
    let st = Styles::new();
    let mut wb = Workbook::new();
    wb.set_properties(
        &DocProperties::new()
            .set_title(format!("{} · Sizing report", r.title))
            .set_author("volplan"),
    );
    summary(&mut wb, &st, r, edition, pngs).map_err(err)?;
    limits(&mut wb, &st, r, edition).map_err(err)?;
    latency(&mut wb, &st, r).map_err(err)?;
    sizing(&mut wb, &st, r).map_err(err)?;
    inputs(&mut wb, &st, r).map_err(err)?;
    advice(&mut wb, &st, r, edition).map_err(err)?;
    test_plan(&mut wb, &st, r, edition).map_err(err)?;
    comparison(&mut wb, &st, r).map_err(err)?;
    layouts(&mut wb, &st, r).map_err(err)?;
    wb.save_to_buffer().map_err(err)
}

/// Writes the workbook with the report's charts as images.
pub fn render(r: &Report, edition: Edition) -> Result<Vec<u8>, ReportError> {
    let pngs = r
        .charts
        .iter()
        .map(|(name, chart)| {
            let png = chart
                .png(CHART_PX)
                .map_err(|e| ReportError::Chart(name.key(), e.to_string()))?;
            Ok((chart.title().to_owned(), png))
        })
        .collect::<Result<Vec<_>, ReportError>>()?;
    render_with(r, edition, &pngs)
}

#[cfg(test)]
mod cell_tests {
    use super::{CELL_MAX_CHARS, cell_chunks};

    #[test]
    fn long_lines_split_at_spaces_into_cells_that_fit() {
        let line = "-t1 ".repeat(20_000);
        let chunks = cell_chunks(line.trim_end());
        assert!(chunks.len() >= 3);
        assert!(chunks.iter().all(|c| c.chars().count() <= CELL_MAX_CHARS));
        assert_eq!(chunks.join(" "), line.trim_end());
        assert_eq!(cell_chunks("short"), vec!["short"]);
    }
}
