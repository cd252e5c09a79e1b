//! The report as an Excel workbook: sheets Summary, Limits, Latency, Sizing, Inputs, Advice
//! and Test plan (plus Comparison and Layouts when asked for), numbers stored as numbers with
//! unit formats, and the charts as PNG images on the Summary sheet; built as a
//! [`Book`] for the one workbook writer.

use crate::format::{self, NOT_PRICED, yes_no as yes};
use crate::report::doc::xlsx::{Book, CELL_MAX_CHARS, Sheet, Style, line_height, write};
use crate::report::model::{Report, TestPlan};
use crate::report::{Edition, ReportError};
use crate::verdict::headline;

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

fn num(unit: &str, decimals: usize) -> String {
    format::xlsx_unit(unit, decimals)
}

fn summary(r: &Report, edition: Edition, pngs: Vec<(String, Vec<u8>)>) -> Sheet {
    let mut ws = Sheet::new("Summary");
    ws.width(0, 26.0);
    ws.width(1, 36.0);
    ws.width(2, 24.0);
    ws.text(0, 0, &r.title, Style::Title);
    ws.text(1, 0, &r.subtitle, Style::Subtitle);
    ws.text(
        2,
        0,
        format!(
            "{} · {}",
            format::date_words(&r.date),
            crate::report::summary::cost::price_basis(&r.evaluation, edition)
        ),
        Style::Muted,
    );
    ws.text(4, 0, "Figure", Style::Header);
    ws.text(4, 1, "Value", Style::Header);
    ws.text(4, 2, "Likely range", Style::Header);
    let mut row = 5;
    for f in &r.headline {
        ws.text(row, 0, &f.label, Style::Plain);
        if let Some(range) = &f.range {
            ws.text(row, 2, headline::likely_words(range), Style::Plain);
        }
        match f.value.filter(|v| v.is_finite()) {
            Some(v) => ws.number(row, 1, v, f.excel_format()),
            None => ws.text(row, 1, NOT_PRICED, Style::Plain),
        };
        row += 1;
    }
    ws.sentence(row, (0, 2), &r.range_basis(edition), 84);
    row += 2;
    ws.text(row, 0, "Bound by", Style::Bold);
    ws.text(row, 1, &r.binding.label, Style::HighlightWrap);
    ws.height(row, line_height(&r.binding.label, 34));
    row += 1;
    if edition == Edition::Engineer {
        ws.text(row, 0, "Binding limit id", Style::Plain);
        ws.text(row, 1, r.binding.id, Style::Plain);
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
                ws.text(row, 0, label, Style::Bold);
                ws.text(row, 1, value, Style::Wrap);
                ws.height(row, line_height(value, 34));
                row += 1;
            }
        }
    }
    // The summary holds the verdict's statements (targets, what binds); the cost follows.
    let mut sentences = r.summary();
    sentences.push(r.cost_paragraph(edition));
    for text in &sentences {
        ws.sentence(row, (0, 1), text, 60);
        row += 1;
    }

    // Charts to the right of the figures, one under the other.
    let rows_per_chart = ((f64::from(CHART_PX.1) * CHART_SCALE) / 20.0).ceil() as u32 + 3;
    for (i, (title, png)) in pngs.into_iter().enumerate() {
        let top = i as u32 * rows_per_chart;
        ws.text(top, 3, &title, Style::Bold);
        ws.image(top + 1, 3, png, CHART_SCALE, &title);
    }
    ws
}

fn limits(r: &Report, edition: Edition) -> Sheet {
    let id_title = if edition == Edition::Engineer {
        "Id"
    } else {
        ""
    };
    let mut ws = Sheet::table(
        "Limits",
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
    );
    for (i, l) in r.limits.iter().enumerate() {
        let row = i as u32 + 1;
        let style = if l.binding {
            Style::Highlight
        } else {
            Style::Plain
        };
        ws.text(row, 0, &l.label, style);
        if edition == Edition::Engineer {
            ws.text(row, 1, l.id, Style::Plain);
        }
        ws.text(row, 2, l.scope, Style::Plain);
        ws.text(row, 3, l.applies, Style::Plain);
        ws.number(row, 4, l.mibps, num("MiB/s", 1));
        ws.number(row, 5, l.iops, num("IOPS", 0));
        ws.number(row, 6, l.headroom_pct, num("%", 1));
        ws.text(row, 7, yes(l.binding), Style::Plain);
        ws.text(row, 8, yes(l.assumption), Style::Plain);
        ws.text(row, 9, l.source_in(edition), Style::Plain);
    }
    ws
}

/// The model's latency curve, one row per load, with the latency section's sentence under it.
fn latency(r: &Report) -> Sheet {
    let mut ws = Sheet::table(
        "Latency",
        &[
            ("Load", 12.0),
            ("IOPS", 16.0),
            ("MiB/s", 16.0),
            ("Latency per IO", 16.0),
        ],
    );
    let mut row = 1;
    for p in r.evaluation.latency_curve.points() {
        ws.number(row, 0, p.load_pct, num("%", 0));
        ws.number(row, 1, p.iops, num("IOPS", 0));
        ws.number(row, 2, p.mibps, num("MiB/s", 1));
        ws.number(row, 3, p.latency_ms, num("ms", 3));
        row += 1;
    }
    ws.sentence(row + 1, (0, 3), &r.latency, 70);
    ws
}

fn sizing(r: &Report) -> Sheet {
    let currency = r.evaluation.cost.currency;
    let mut ws = Sheet::table(
        "Sizing",
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
    );
    for (i, z) in r.sizing.iter().enumerate() {
        let row = i as u32 + 1;
        let style = if z.cheapest {
            Style::Highlight
        } else {
            Style::Plain
        };
        ws.text(row, 0, &z.name, style);
        ws.number(row, 1, z.quota_tib, num("TiB", 3));
        ws.number(row, 2, z.pool_tib, num("TiB", 3));
        match z.throughput_mibps {
            Some(t) => ws.number(row, 3, t, num("MiB/s", 1)),
            None => ws.text(row, 3, "-", Style::Plain),
        };
        ws.money(row, 4, z.monthly, currency);
        ws.text(row, 5, yes(z.meets), Style::Plain);
        ws.text(row, 6, yes(z.cheapest), Style::Plain);
        ws.text(row, 7, yes(z.current), Style::Plain);
    }
    ws
}

fn inputs(r: &Report) -> Sheet {
    let mut ws = Sheet::table(
        "Inputs",
        &[
            ("Section", 12.0),
            ("Input", 26.0),
            ("Value", 36.0),
            ("Unit", 10.0),
        ],
    );
    for (i, input) in r.inputs.iter().enumerate() {
        let row = i as u32 + 1;
        ws.text(row, 0, input.section, Style::Plain);
        ws.text(row, 1, &input.label, Style::Plain);
        match input.number {
            Some(v) => ws.number(row, 2, v, num("", if v.fract() == 0.0 { 0 } else { 3 })),
            None => ws.text(row, 2, &input.value, Style::Plain),
        };
        ws.text(row, 3, input.unit, Style::Plain);
    }
    ws
}

fn advice(r: &Report, edition: Edition) -> Sheet {
    let code_title = if edition == Edition::Engineer {
        "Code"
    } else {
        ""
    };
    let mut ws = Sheet::table(
        "Advice",
        &[("Severity", 12.0), (code_title, 22.0), ("Message", 100.0)],
    );
    let mut row = 1;
    for a in &r.advice {
        ws.text(row, 0, a.severity, Style::Plain);
        if edition == Edition::Engineer {
            ws.text(row, 1, a.code, Style::Plain);
        }
        ws.text(row, 2, &a.message, Style::Wrap);
        row += 1;
    }
    for a in &crate::report::summary::assumptions(&r.evaluation, edition) {
        ws.text(row, 0, "assumption", Style::Plain);
        ws.text(row, 1, "", Style::Plain);
        ws.text(row, 2, a, Style::Wrap);
        row += 1;
    }
    ws
}

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

/// The verification test plan, one text line per row in column A.
fn test_plan(r: &Report, edition: Edition) -> Sheet {
    let mut ws = Sheet::new("Test plan");
    ws.width(0, 140.0);
    ws.text(0, 0, TestPlan::TITLE, Style::Title);
    let note = r.test_plan.note(edition);
    ws.text(1, 0, note, Style::Wrap);
    ws.height(1, line_height(note, 150));
    let mut row = 3;
    for part in r.test_plan.parts(edition) {
        ws.text(row, 0, part.title, Style::Header);
        row += 1;
        let text = part.text;
        for line in text.lines() {
            let chunks = cell_chunks(line);
            if chunks.len() > 1 {
                ws.text(row, 0, LONG_LINE_NOTE, Style::Wrap);
                row += 1;
            }
            for chunk in chunks {
                if !chunk.is_empty() {
                    ws.text(row, 0, chunk, Style::Mono);
                }
                row += 1;
            }
        }
        row += 1;
    }
    ws
}

fn comparison(r: &Report) -> Option<Sheet> {
    let c = r.comparison.as_ref()?;
    let mut ws = Sheet::table(
        "Comparison",
        &[
            ("Scenario", 32.0),
            ("Storage", 34.0),
            ("Throughput", 16.0),
            ("IOPS", 16.0),
            ("Bound by", 48.0),
            ("Monthly cost", 18.0),
            ("Targets met", 12.0),
        ],
    );
    for (i, c) in c.rows.iter().enumerate() {
        let row = i as u32 + 1;
        ws.text(row, 0, &c.name, Style::Plain);
        ws.text(row, 1, &c.storage, Style::Plain);
        ws.number(row, 2, c.throughput_mibps, num("MiB/s", 1));
        ws.number(row, 3, c.iops, num("IOPS", 0));
        ws.text(row, 4, &c.binding_label, Style::Plain);
        ws.money(row, 5, c.monthly, c.currency);
        ws.text(row, 6, yes(c.met), Style::Plain);
    }
    Some(ws)
}

fn layouts(r: &Report) -> Option<Sheet> {
    let l = r.layouts.as_ref()?;
    let currency = r.evaluation.cost.currency;
    let mut ws = Sheet::table(
        "Layouts",
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
    );
    for (i, l) in l.rows.iter().enumerate() {
        let row = i as u32 + 1;
        ws.general(row, 0, f64::from(l.count));
        ws.number(row, 1, l.quota_tib, num("TiB", 3));
        ws.number(row, 2, l.throughput_mibps, num("MiB/s", 1));
        ws.number(row, 3, l.iops, num("IOPS", 0));
        ws.general(row, 4, l.connections as f64);
        ws.text(row, 5, &l.binding_label, Style::Plain);
        ws.money(row, 6, l.monthly, currency);
        ws.text(row, 7, yes(l.met), Style::Plain);
    }
    Some(ws)
}

/// The workbook with the given chart images (title, PNG bytes).
fn book(r: &Report, edition: Edition, pngs: Vec<(String, Vec<u8>)>) -> Book {
    let mut sheets = vec![
        summary(r, edition, pngs),
        limits(r, edition),
        latency(r),
        sizing(r),
        inputs(r),
        advice(r, edition),
        test_plan(r, edition),
    ];
    sheets.extend(comparison(r));
    sheets.extend(layouts(r));
    Book {
        title: format!("{} · Sizing report", r.title),
        sheets,
    }
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
    write(&book(r, edition, pngs))
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
