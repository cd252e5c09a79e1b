//! A document as Markdown for a wiki: headings, pipe tables, fenced code, and each
//! chart embedded as a PNG data URI (a wiki page needs no link back to the server).
//! Every text a user typed goes through [`escape::md`].

use super::{Block, Doc, Tone};
use crate::report::ReportError;
use crate::report::escape;
use base64::Engine;
use std::fmt::Write;

/// Writes the document as Markdown.
pub fn render(d: &Doc) -> Result<String, ReportError> {
    let mut o = String::new();
    write_doc(&mut o, d).map_err(|e| ReportError::Chart("chart", e))?;
    Ok(o)
}

/// Pixels the embedded chart images are drawn at (the chart's own width, 1.25x).
const CHART_SCALE: f64 = 1.25;

fn write_doc(o: &mut String, d: &Doc) -> Result<(), String> {
    // Writing to a String cannot fail.
    let _ = writeln!(o, "# {}\n", escape::md(&d.title));
    if !d.subtitle.is_empty() {
        let _ = writeln!(o, "{}\n", escape::md(&d.subtitle));
    }
    for (label, value) in &d.meta {
        let _ = writeln!(o, "- {label}: {}", escape::md(value));
    }
    if !d.meta.is_empty() {
        o.push('\n');
    }
    if !d.dateline.is_empty() {
        let _ = writeln!(o, "{}\n", escape::md(&d.dateline));
    }
    for b in &d.blocks {
        match b {
            Block::Heading(t) => {
                let _ = writeln!(o, "## {}\n", escape::md(t));
            }
            Block::Subheading(t) => {
                let _ = writeln!(o, "### {}\n", escape::md(t));
            }
            Block::Summary(ps) => {
                for p in ps {
                    let _ = writeln!(o, "{}\n", escape::md(p));
                }
            }
            Block::Para(t) => {
                let _ = writeln!(o, "{}\n", escape::md(t));
            }
            Block::Note(t) => {
                let _ = writeln!(o, "*{}*\n", escape::md(t));
            }
            Block::Verdict { met, text } => {
                let mark = if *met { "✔" } else { "✘" };
                let _ = writeln!(o, "**{mark} {}**\n", escape::md(text));
            }
            Block::Callout(t) => {
                let _ = writeln!(o, "> {}\n", escape::md(t));
            }
            Block::Figures(ks) => {
                let _ = writeln!(
                    o,
                    "| Figure | Value | Unit | Likely range |\n|---|---:|---|---|"
                );
                for k in ks {
                    let _ = writeln!(
                        o,
                        "| {} | {} | {} | {} |",
                        escape::md(&k.label),
                        escape::md(&k.value),
                        escape::md(&k.unit),
                        escape::md(k.range.as_deref().unwrap_or(""))
                    );
                }
                o.push('\n');
            }
            Block::Bullets(items) => {
                for i in items {
                    match &i.tag {
                        Some((tag, tone)) => {
                            let tag = match tone {
                                Tone::Warn => tag.to_uppercase(),
                                Tone::Info => tag.to_lowercase(),
                            };
                            let _ =
                                writeln!(o, "- **{}** {}", escape::md(&tag), escape::md(&i.text));
                        }
                        None => {
                            let _ = writeln!(o, "- {}", escape::md(&i.text));
                        }
                    }
                }
                o.push('\n');
            }
            Block::Table(t) => {
                let head: Vec<String> = t.columns.iter().map(|c| escape::md(&c.title)).collect();
                let rule: Vec<&str> = t
                    .columns
                    .iter()
                    .map(|c| if c.numeric { "---:" } else { "---" })
                    .collect();
                let _ = writeln!(o, "| {} |\n|{}|", head.join(" | "), rule.join("|"));
                for r in &t.rows {
                    let cells: Vec<String> = r.cells.iter().map(|c| escape::md(&c.text)).collect();
                    let _ = writeln!(o, "| {} |", cells.join(" | "));
                }
                o.push('\n');
            }
            Block::Code { title, lang, text } => {
                if !title.is_empty() {
                    let _ = writeln!(o, "### {}\n", escape::md(title));
                }
                let fence = escape::md_fence(text);
                let _ = writeln!(o, "{fence}{lang}\n{}\n{fence}\n", text.trim_end());
            }
            Block::Chart(c) => {
                let (w, h) = c.size();
                let size = (
                    ((f64::from(w) * CHART_SCALE) as u32).min(4000),
                    ((f64::from(h) * CHART_SCALE) as u32).min(4000),
                );
                let png = c.png(size).map_err(|e| e.to_string())?;
                let data = base64::engine::general_purpose::STANDARD.encode(png);
                let _ = writeln!(
                    o,
                    "![{}](data:image/png;base64,{data})\n\n*{}*\n",
                    escape::md(c.title()),
                    escape::md(c.summary())
                );
                // The data behind the chart, for readers who cannot see it.
                let t = c.table();
                let head: Vec<String> = t.headers.iter().map(|h| escape::md(h)).collect();
                let _ = writeln!(
                    o,
                    "| {} |\n|{}|",
                    head.join(" | "),
                    vec!["---"; head.len()].join("|")
                );
                for row in &t.rows {
                    let cells: Vec<String> = row.iter().map(|c| escape::md(c)).collect();
                    let _ = writeln!(o, "| {} |", cells.join(" | "));
                }
                o.push('\n');
                for n in &t.notes {
                    let _ = writeln!(o, "*{}*\n", escape::md(n));
                }
            }
            Block::Links(ls) => {
                for (i, (title, url)) in ls.iter().enumerate() {
                    let _ = writeln!(o, "{}. {}: <{url}>", i + 1, escape::md(title));
                }
                o.push('\n');
            }
        }
    }
    if !d.footer.is_empty() {
        let _ = writeln!(o, "---\n\n*{}*", escape::md(&d.footer));
    }
    Ok(())
}
