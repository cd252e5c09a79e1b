//! The estate report as one self-contained HTML page (the chart inline).

use super::Table;
use crate::estate::EstatePlan;
use crate::report::model::ReportError;

/// Escapes text for HTML content and attributes.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' => {}
            c => out.push(c),
        }
    }
    out
}

/// The tables as HTML sections (what the estate page shows too).
pub fn sections(tables: &[Table]) -> String {
    let mut out = String::new();
    for t in tables {
        out.push_str(&format!(
            "<section class=\"estate-table\"><h2>{}</h2>\n",
            esc(t.title)
        ));
        if t.rows.is_empty() {
            out.push_str("<p>None.</p></section>\n");
            continue;
        }
        out.push_str("<div class=\"table-scroll\"><table><thead><tr>");
        for h in &t.headers {
            out.push_str(&format!("<th scope=\"col\">{}</th>", esc(h)));
        }
        out.push_str("</tr></thead><tbody>\n");
        for r in &t.rows {
            out.push_str("<tr>");
            for c in r {
                out.push_str(&format!("<td>{}</td>", esc(c)));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody></table></div></section>\n");
    }
    out
}

/// The whole page.
pub fn render(p: &EstatePlan, tables: &[Table]) -> Result<String, ReportError> {
    let chart = super::chart::svg(p).map_err(|e| ReportError::Chart("estate-timeline", e))?;
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title} · Estate report</title>\
         <style>body{{font-family:sans-serif;margin:2em;max-width:1200px}}table{{border-collapse:collapse;font-size:.9em}}\
         td,th{{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}}svg{{max-width:100%;height:auto}}</style>\
         </head><body><h1>{title}</h1>\n<figure>{chart}<figcaption>Monthly cost by month; dots mark the resize schedule.</figcaption></figure>\n{body}</body></html>\n",
        title = esc(&p.name),
        body = sections(tables),
    ))
}
