//! The layout rules, checked on the laid-out pages.

use super::fonts::{Face, fonts};
use super::layout::{Layout, MARGIN_BOTTOM, MARGIN_X, Op};
use super::{page_fill, render};
use crate::report::doc::{Block, Cell, Doc, Row, Table, num_col, text_col};
use crate::report::model::Report;
use crate::report::{Edition, Paper, fixture};

fn doc(blocks: Vec<Block>) -> Doc {
    Doc {
        kind: "Test",
        title: "A document".into(),
        subtitle: String::new(),
        meta: Vec::new(),
        dateline: "Today.".into(),
        blocks,
        footer: "Footer".into(),
    }
}

fn laid_out(d: &Doc) -> Layout<'static> {
    let mut l = Layout::new(fonts().unwrap(), Paper::A4, &[]);
    l.document(d);
    l
}

/// Every text op: (page, x, y, size, face, text).
fn texts<'a>(l: &'a Layout) -> Vec<(usize, f32, f32, f32, Face, &'a str)> {
    l.pages
        .iter()
        .enumerate()
        .flat_map(|(p, ops)| ops.iter().map(move |op| (p, op)))
        .filter_map(|(p, op)| match op {
            Op::Text {
                x,
                y,
                size,
                face,
                text,
                ..
            } => Some((p, *x, *y, *size, *face, text.as_str())),
            _ => None,
        })
        .collect()
}

#[test]
fn long_tables_break_with_repeated_headers() {
    let table = Table {
        name: "Limits".into(),
        columns: vec![text_col("Limit", 3.0), num_col("Headroom", 1.0)],
        rows: (0..150)
            .map(|i| {
                Row::new(vec![
                    format!("limit {i}").into(),
                    Cell::pct(f64::from(i), 1),
                ])
            })
            .collect(),
    };
    let l = laid_out(&doc(vec![
        Block::Heading("Limits".into()),
        Block::Table(table),
    ]));
    assert!(l.pages.len() >= 3);
    let ops = texts(&l);
    let headers: std::collections::HashSet<usize> = ops
        .iter()
        .filter(|t| t.5 == "Headroom" && t.4 == Face::Bold)
        .map(|t| t.0)
        .collect();
    assert_eq!(headers.len(), l.pages.len(), "the header on every page");
    let (_, h) = Paper::A4.size_pt();
    assert!(ops.iter().all(|t| t.2 <= h - MARGIN_BOTTOM + 1.0));
    let rows = ops.iter().filter(|t| t.5.starts_with("limit ")).count();
    assert_eq!(rows, 150, "no row lost");
}

#[test]
fn code_never_wraps_a_line_and_stays_inside_the_page() {
    let (w, _) = Paper::A4.size_pt();
    let long_option = format!("directory={}", "/mnt/volplan1:".repeat(11));
    let long_comment = format!("# {}", "mount the volume then run the job ".repeat(8));
    let text = format!("[global]\n{long_option}\n{long_comment}\nrw=read\n");
    let d = doc(vec![Block::Code {
        title: "fio job".into(),
        lang: "ini",
        text: text.clone(),
    }]);
    let l = laid_out(&d);
    let fonts = fonts().unwrap();
    let code: Vec<_> = texts(&l)
        .into_iter()
        .filter(|t| t.4 == Face::Mono)
        .collect();
    for t in &code {
        assert!(
            t.1 + fonts.width(Face::Mono, t.5, t.3) <= w - MARGIN_X + 0.01,
            "{}",
            t.5
        );
    }
    let lines: Vec<&str> = code.iter().map(|t| t.5).collect();
    assert!(
        lines.contains(&long_option.as_str()),
        "an option line is whole: {lines:?}"
    );
    // The comment continues as comments: every drawn line that is not an option is one.
    assert!(lines.iter().filter(|l| l.starts_with('#')).count() >= 2);
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with('#') || l.contains('=') || l.starts_with('['))
    );
    let joined: String = lines
        .iter()
        .filter(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim())
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(
        joined,
        long_comment.trim_start_matches('#').trim(),
        "no word lost"
    );
}

#[test]
fn powershell_continues_with_a_backtick() {
    let cmd = format!(
        "diskspd -c1G -t4 {}",
        "\\\\anf.example\\share\\file.dat ".repeat(20)
    );
    let l = laid_out(&doc(vec![Block::Code {
        title: String::new(),
        lang: "powershell",
        text: cmd.trim_end().to_owned(),
    }]));
    let lines: Vec<&str> = texts(&l)
        .into_iter()
        .filter(|t| t.4 == Face::Mono)
        .map(|t| t.5)
        .collect();
    assert!(lines.len() > 1);
    assert!(
        lines[..lines.len() - 1].iter().all(|l| l.ends_with(" `")),
        "{lines:?}"
    );
    let joined: Vec<&str> = lines
        .iter()
        .flat_map(|l| l.trim_end_matches('`').split_whitespace())
        .collect();
    assert_eq!(joined.join(" "), cmd.trim_end());
}

/// A shell command too long for the page continues with a `\\`, so that the lines, copied
/// and run, are the command: joined as the shell joins them, they read as it was.
#[test]
fn a_shell_command_continues_with_a_backslash() {
    let cmd = format!(
        "sudo mount -t nfs -o rw,hard,vers=3,nconnect=16,rsize=262144,wsize=262144 {} /mnt/bench",
        "10.0.0.4:/a-very-long-export-path-".repeat(6) + "x"
    );
    let text = format!("# Mount\n{cmd}\n");
    let l = laid_out(&doc(vec![Block::Code {
        title: String::new(),
        lang: "text",
        text,
    }]));
    let lines: Vec<&str> = texts(&l)
        .into_iter()
        .filter(|t| t.4 == Face::Mono)
        .map(|t| t.5)
        .filter(|l| !l.starts_with('#'))
        .collect();
    assert!(lines.len() > 1, "{lines:?}");
    assert!(
        lines[..lines.len() - 1].iter().all(|l| l.ends_with('\\')),
        "{lines:?}"
    );
    assert!(lines.iter().all(|l| !l.contains('↪')), "{lines:?}");
    // The shell drops each backslash with its newline.
    let joined = lines.join("\n").replace("\\\n", "");
    let words = |t: &str| t.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(words(&joined), words(&cmd));
}

/// No page of the example reports is less than half full, but the last.
#[test]
fn example_reports_fill_every_page_but_the_last() {
    let (s, e) = fixture::example();
    let r = Report::build(&s, &e, crate::engine::pricing::book(), "2026-01-02");
    let (inv, plan) = fixture::avs_plan(12);
    let verdict = crate::verdict::avs::verdict(&plan, Default::default());
    let avs = crate::report::avs::PlanDoc {
        origin: "inventory.csv",
        inventory: &inv,
        basis: Default::default(),
        plan: &plan,
        date: "2026-01-02",
        verdict: &verdict,
    };
    let estate = fixture::estate_plan();
    for (name, d) in [
        (
            "scenario",
            crate::report::scenario::document(&r, Edition::Customer),
        ),
        (
            "scenario engineer",
            crate::report::scenario::document(&r, Edition::Engineer),
        ),
        ("avs", crate::report::avs::document(&avs, Edition::Customer)),
        (
            "estate",
            crate::report::estate::document(&estate, &[], Edition::Customer, "2026-01-02"),
        ),
    ] {
        let fill = page_fill(&d, Paper::A4).unwrap();
        let (last, rest) = fill.split_last().unwrap();
        assert!(*last > 0.0, "{name}: an empty last page");
        for (i, f) in rest.iter().enumerate() {
            assert!(
                *f >= 0.5,
                "{name}: page {} is {:.0}% full: {fill:?}",
                i + 1,
                f * 100.0
            );
        }
    }
}

#[test]
fn writes_a_pdf_on_letter_with_bookmarks() {
    let (s, e) = fixture::example();
    let d = crate::report::scenario::document(
        &Report::build(&s, &e, crate::engine::pricing::book(), "2026-01-02"),
        Edition::Customer,
    );
    let pdf = render(&d, Paper::Letter).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    let text = String::from_utf8_lossy(&pdf);
    assert!(text.contains("612"), "Letter width in the media box");
    assert!(text.contains("/Outlines"), "section bookmarks");
}
