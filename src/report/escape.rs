//! One escaper per output language: HTML and XML/SVG (askama's, the one the templates
//! use), Markdown, and CSV cells. Every writer of text a user typed (scenario, VM and
//! file names, notes) goes through the escaper of its language.

use askama::filters::{Html, escape};

/// Text for HTML or XML (SVG) content and attributes: askama's HTML escaper (`&`, `<`,
/// `>`, `"`, `'`), with the control characters XML forbids removed.
pub fn html(text: &str) -> String {
    let clean = plain(text);
    match escape(clean.as_str(), Html) {
        Ok(safe) => safe.to_string(),
        Err(never) => match never {},
    }
}

/// Text with control characters (other than line breaks and tabs) removed: what a chart
/// may draw and an XML document may hold.
pub fn plain(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
        .collect()
}

/// Text for Markdown: punctuation that would start markup is backslash-escaped, line
/// breaks become spaces, so a name cannot inject links, HTML, images or table cells.
pub fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' | '!' | '~' => {
                out.push('\\');
                out.push(ch);
            }
            '&' => out.push_str("&amp;"),
            '\r' | '\n' | '\t' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A Markdown code fence longer than any run of backticks in `text`, so the text
/// cannot close it.
pub fn md_fence(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for ch in text.chars() {
        run = if ch == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat((longest + 1).max(3))
}

/// A CSV (or spreadsheet) cell of free text: a leading `=`, `+`, `-`, `@`, tab or
/// carriage return would start a formula in a spreadsheet, so it is quoted away.
pub fn csv(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_escapes_markup_and_drops_control_characters() {
        assert_eq!(
            html("<b a=\"1\">&'</b>"),
            "&#60;b a=&#34;1&#34;&#62;&#38;&#39;&#60;/b&#62;"
        );
        assert_eq!(html("a\u{0}b\u{1b}c\nd"), "abc\nd");
    }

    #[test]
    fn markdown_cannot_inject_links_images_html_or_cells() {
        assert_eq!(md("<b>|x|</b>"), "\\<b\\>\\|x\\|\\</b\\>");
        assert_eq!(md("a\nb"), "a b");
        // Brackets escaped: no link, so the scheme is plain text.
        assert_eq!(md("[x](javascript:1)"), "\\[x\\](javascript:1)");
        let img = md("<img src=x onerror=alert(1)>");
        assert!(img.starts_with("\\<img") && img.ends_with("\\>"), "{img}");
        assert!(!md("![a](b)").contains("!["));
        assert_eq!(md_fence("a ``` b ```` c"), "`````");
        assert_eq!(md_fence("plain"), "```");
    }

    #[test]
    fn csv_cells_cannot_start_a_formula() {
        assert_eq!(csv("=1+1"), "'=1+1");
        assert_eq!(csv("-2"), "'-2");
        assert_eq!(csv("ok"), "ok");
    }
}
