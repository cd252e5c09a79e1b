//! The text a reader sees in each output: a PDF through `pdftotext` (poppler-utils,
//! installed by `.ci/run`), a workbook's cells, an HTML page without its markup, and
//! Markdown without its escapes and image data.

use std::process::Command;

/// Text of a PDF through `pdftotext`, lines as drawn (`-layout`) or not.
fn pdftotext(pdf: &[u8], layout: bool) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("report.pdf");
    std::fs::write(&path, pdf).expect("write PDF");
    let mut cmd = Command::new("pdftotext");
    if layout {
        cmd.arg("-layout");
    }
    let out = cmd
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext runs: install poppler-utils (apt-get install -y poppler-utils)");
    assert!(
        out.status.success(),
        "pdftotext failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Text of a PDF with all whitespace collapsed, so wrapped lines read as one.
pub fn pdf_text(pdf: &[u8]) -> String {
    collapse(&pdftotext(pdf, false))
}

/// Text of a PDF with its lines as drawn (`pdftotext -layout`).
pub fn pdf_layout(pdf: &[u8]) -> String {
    pdftotext(pdf, true)
}

/// `text` with every run of whitespace one space.
pub fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every cell of a workbook, one a line.
pub fn xlsx_cells(bytes: &[u8]) -> String {
    use calamine::{Reader, Xlsx};
    let mut book: Xlsx<_> = Xlsx::new(std::io::Cursor::new(bytes.to_vec())).expect("workbook");
    let mut cells = Vec::new();
    for (_, range) in book.worksheets() {
        cells.extend(range.cells().map(|(_, _, c)| c.to_string()));
    }
    cells.join("\n")
}

/// The visible text of an HTML document: tags, styles and SVG markup left out.
pub fn html_text(html: &str) -> String {
    let body = html.split("</style>").last().unwrap_or(html);
    let mut out = String::with_capacity(body.len());
    let mut in_tag = false;
    for c in body.chars() {
        match c {
            '<' => {
                in_tag = true;
                out.push(' ');
            }
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    unescape_html(&out)
}

/// The character references an HTML writer uses, undone.
pub fn unescape_html(text: &str) -> String {
    [
        ("&#39;", "'"),
        ("&#x27;", "'"),
        ("&quot;", "\""),
        ("&#34;", "\""),
        ("&#x22;", "\""),
        ("&lt;", "<"),
        ("&#60;", "<"),
        ("&gt;", ">"),
        ("&#62;", ">"),
        ("&amp;", "&"),
        ("&#38;", "&"),
    ]
    .iter()
    .fold(text.to_owned(), |t, (from, to)| t.replace(from, to))
}

/// Markdown as it reads: its escapes undone, its embedded images' data left out.
pub fn md_text(md: &str) -> String {
    md.replace('\\', "")
        .split("data:image/png;base64,")
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                part
            } else {
                part.split_once(')').map_or("", |(_, rest)| rest)
            }
        })
        .collect()
}
