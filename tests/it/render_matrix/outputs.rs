//! Reading back each output as its consumers would: SVG through a strict XML parser,
//! PNG decoded, XLSX opened by calamine with every XML part well-formed, PDF loaded by
//! lopdf with each page's content stream parsed, HTML, Markdown, CSV and JSON read.
//!
//! Each check answers `Err(sentence)` instead of panicking, so one run lists every
//! output that fails.

use std::io::{Cursor, Read};
use volplan::report::Format;

/// Parses a strict XML document (well-formed, only characters XML allows).
fn xml(text: &str) -> Result<roxmltree::Document<'_>, String> {
    roxmltree::Document::parse(text).map_err(|e| format!("not well-formed XML: {e}"))
}

/// Text of the first element named `tag`, if any.
fn element_text(doc: &roxmltree::Document<'_>, tag: &str) -> Option<String> {
    doc.descendants()
        .find(|n| n.has_tag_name(tag))
        .map(|n| n.descendants().filter_map(|d| d.text()).collect())
}

/// A chart as SVG: an `<svg>` root whose `<title>` names the scenario.
pub fn svg(bytes: &[u8], name: &str) -> Result<(), String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("SVG is not UTF-8: {e}"))?;
    let doc = xml(text)?;
    let root = doc.root_element();
    if !root.has_tag_name("svg") {
        return Err(format!("root element is <{}>", root.tag_name().name()));
    }
    let title = element_text(&doc, "title").ok_or("no <title>")?;
    if !title.contains(name) {
        return Err(format!("the <title> {title:?} does not hold the name"));
    }
    Ok(())
}

/// A chart as PNG: the image decodes whole.
pub fn png(bytes: &[u8]) -> Result<(), String> {
    let mut reader = png::Decoder::new(Cursor::new(bytes))
        .read_info()
        .map_err(|e| format!("PNG header: {e}"))?;
    let size = reader.output_buffer_size().ok_or("PNG too large")?;
    let mut pixels = vec![0; size];
    let info = reader
        .next_frame(&mut pixels)
        .map_err(|e| format!("PNG data: {e}"))?;
    if info.width < 200 || info.height < 150 {
        return Err(format!("PNG of {} x {}", info.width, info.height));
    }
    Ok(())
}

/// The report as PDF: it loads, has pages, each page's content stream parses, and the
/// document title holds the name.
fn pdf(bytes: &[u8], name: &str) -> Result<(), String> {
    let doc = lopdf::Document::load_mem(bytes).map_err(|e| format!("PDF does not load: {e}"))?;
    let pages = doc.get_pages();
    if pages.is_empty() {
        return Err("the PDF has no page".to_owned());
    }
    for (number, id) in pages {
        let content = doc
            .get_page_content_with_limit(id, 64 << 20)
            .map_err(|e| format!("page {number}: {e}"))?;
        if content.is_empty() {
            return Err(format!("page {number} has no content"));
        }
        lopdf::content::Content::decode(&content)
            .map_err(|e| format!("page {number} content: {e}"))?;
    }
    let title = doc
        .trailer
        .get(b"Info")
        .and_then(lopdf::Object::as_reference)
        .and_then(|id| doc.get_dictionary(id))
        .and_then(|info| info.get(b"Title"))
        .and_then(lopdf::decode_text_string)
        .map_err(|e| format!("PDF title: {e}"))?;
    if !title.contains(name) {
        return Err(format!("the PDF title {title:?} does not hold the name"));
    }
    Ok(())
}

/// The report as XLSX: every XML part of the package is well-formed, calamine reads
/// every sheet, and the summary starts with the name.
fn xlsx(bytes: &[u8], name: &str) -> Result<(), String> {
    let mut zip =
        zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| format!("XLSX package: {e}"))?;
    for i in 0..zip.len() {
        let mut part = zip.by_index(i).map_err(|e| format!("XLSX part {i}: {e}"))?;
        let part_name = part
            .name()
            .map_err(|e| format!("XLSX part {i}: {e}"))?
            .into_owned();
        if part_name.ends_with(".xml") || part_name.ends_with(".rels") {
            let mut text = String::new();
            part.read_to_string(&mut text)
                .map_err(|e| format!("{part_name}: {e}"))?;
            xml(&text).map_err(|e| format!("{part_name}: {e}"))?;
        }
    }
    use calamine::Reader;
    let mut book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(Cursor::new(bytes))
        .map_err(|e| format!("calamine cannot open the XLSX: {e}"))?;
    let sheets = book.sheet_names();
    if sheets.is_empty() {
        return Err("the XLSX has no sheet".to_owned());
    }
    for sheet in &sheets {
        let range = book
            .worksheet_range(sheet)
            .map_err(|e| format!("sheet {sheet}: {e}"))?;
        if sheet == "Summary" {
            let a1 = range.get_value((0, 0)).map(ToString::to_string);
            if a1.as_deref() != Some(name) {
                return Err(format!("Summary!A1 is {a1:?}, not the name"));
            }
        }
    }
    Ok(())
}

/// The HTML report: a whole document with the name escaped as askama escapes it.
fn html(bytes: &[u8], name: &str) -> Result<(), String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("HTML is not UTF-8: {e}"))?;
    if !text.starts_with("<!DOCTYPE html>") || !text.trim_end().ends_with("</html>") {
        return Err("not a whole HTML document".to_owned());
    }
    let escaped = escape_html(name);
    if !text.contains(&format!("<h1>{escaped}</h1>")) {
        return Err(format!("no <h1> with the escaped name {escaped:?}"));
    }
    Ok(())
}

/// The name as the report's templates escape text.
fn escape_html(text: &str) -> String {
    match askama::filters::escape(text, askama::filters::Html) {
        Ok(safe) => safe.to_string(),
        Err(never) => match never {},
    }
}

/// The Markdown report: its heading is the escaped name.
fn md(bytes: &[u8], name: &str) -> Result<(), String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("Markdown is not UTF-8: {e}"))?;
    let heading = format!("# {}\n", volplan::report::escape::md(name));
    if !text.starts_with(&heading) {
        return Err(format!("does not start with {heading:?}"));
    }
    Ok(())
}

/// The CSV: every record parses with the header's column count.
fn csv(bytes: &[u8]) -> Result<(), String> {
    let mut reader = ::csv::Reader::from_reader(bytes);
    let columns = reader
        .headers()
        .map_err(|e| format!("CSV header: {e}"))?
        .len();
    let mut rows = 0;
    for record in reader.records() {
        let record = record.map_err(|e| format!("CSV record: {e}"))?;
        if record.len() != columns {
            return Err(format!("a CSV record of {} fields", record.len()));
        }
        rows += 1;
    }
    if rows == 0 {
        return Err("the CSV has no records".to_owned());
    }
    Ok(())
}

/// The JSON report: it parses and carries the scenario under its name.
fn json(bytes: &[u8], name: &str) -> Result<(), String> {
    let v: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| format!("JSON does not parse: {e}"))?;
    // The customer edition is the document; the engineer edition the data.
    let got = match v["edition"].as_str() {
        Some("customer") => &v["title"],
        _ => &v["scenario"]["name"],
    };
    if got != name {
        return Err(format!("the scenario's name is {got}"));
    }
    Ok(())
}

/// Checks a report of `format` for a scenario named `name`.
pub fn report(format: Format, bytes: &[u8], name: &str) -> Result<(), String> {
    if bytes.is_empty() {
        return Err("empty body".to_owned());
    }
    match format {
        Format::Html => html(bytes, name),
        Format::Md => md(bytes, name),
        Format::Pdf => pdf(bytes, name),
        Format::Csv => csv(bytes),
        Format::Xlsx => xlsx(bytes, name),
        Format::Json => json(bytes, name),
    }
}

/// The symbol the formatter writes before an amount in `currency` (`$`, `€`).
fn symbol(currency: &str) -> String {
    volplan::format::money(1.0, currency).replace("1.00", "")
}

/// Text has amounts written in `currency` (where `priced`) and none in `other`.
fn amounts(text: &str, currency: &str, other: &str, priced: bool) -> Result<(), String> {
    let written = |code: &str| {
        let sym = symbol(code);
        text.match_indices(sym.as_str())
            .any(|(i, _)| text[i + sym.len()..].starts_with(|c: char| c.is_ascii_digit()))
    };
    if priced && !written(currency) {
        return Err(format!("no amount in {currency}"));
    }
    if written(other) {
        return Err(format!("an amount in {other} in a {currency} report"));
    }
    Ok(())
}

/// The money of a report of `format` is in `currency` alone: amounts in it where the
/// case is `priced`, and none in the other of dollars and euros. (The PDF's text is
/// the HTML's, laid out glyph by glyph.)
pub fn money(format: Format, bytes: &[u8], currency: &str, priced: bool) -> Result<(), String> {
    let other = if currency == "EUR" { "USD" } else { "EUR" };
    let text = || String::from_utf8_lossy(bytes).into_owned();
    match format {
        Format::Html | Format::Md => amounts(&text(), currency, other, priced),
        Format::Csv => {
            let t = text();
            if priced && !t.contains(&format!("{currency}/month")) {
                return Err(format!("no {currency}/month figure"));
            }
            if t.contains(&format!("{other}/month")) {
                return Err(format!("a {other}/month figure"));
            }
            Ok(())
        }
        Format::Json => {
            let v: serde_json::Value =
                serde_json::from_slice(bytes).map_err(|e| format!("JSON: {e}"))?;
            if v["edition"] == "customer" {
                return amounts(&text(), currency, other, priced);
            }
            let got = &v["evaluation"]["cost"]["currency"];
            if got != currency {
                return Err(format!("evaluation.cost.currency is {got}"));
            }
            Ok(())
        }
        Format::Xlsx => xlsx_money(bytes, currency, other, priced),
        Format::Pdf => Ok(()),
    }
}

/// The workbook's money cells are in the number format of `currency` (where `priced`)
/// and none in `other`'s, and no text cell holds an amount in `other`.
fn xlsx_money(bytes: &[u8], currency: &str, other: &str, priced: bool) -> Result<(), String> {
    let mut zip =
        zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| format!("XLSX package: {e}"))?;
    let mut styles = String::new();
    zip.by_name("xl/styles.xml")
        .map_err(|e| format!("xl/styles.xml: {e}"))?
        .read_to_string(&mut styles)
        .map_err(|e| format!("xl/styles.xml: {e}"))?;
    let number_format = |code: &str| volplan::format::xlsx_money(code).replace('"', "&quot;");
    if priced && !styles.contains(&number_format(currency)) {
        return Err(format!("no money cell in {currency}"));
    }
    if styles.contains(&number_format(other)) {
        return Err(format!("a money cell in {other}"));
    }
    use calamine::Reader;
    let mut book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(Cursor::new(bytes))
        .map_err(|e| format!("calamine cannot open the XLSX: {e}"))?;
    for sheet in book.sheet_names() {
        let range = book
            .worksheet_range(&sheet)
            .map_err(|e| format!("sheet {sheet}: {e}"))?;
        for cell in range.used_cells() {
            if let calamine::Data::String(s) = cell.2 {
                amounts(s, currency, other, false).map_err(|e| format!("{sheet}: {e}"))?;
            }
        }
    }
    Ok(())
}
