//! A document as JSON: the customer edition of every report's JSON format, with the
//! same content as its PDF (the title block, then each section's blocks as written:
//! sentences, figures, tables with the numbers behind their cells, code, the data
//! behind each chart, the sources). Its shape is [`DocJson`], published in the OpenAPI
//! document as `CustomerReport`.

use super::{Block, Doc, Mark, Tone};
use crate::report::ReportError;
use serde::Serialize;
use utoipa::ToSchema;

/// A report as the reader of its customer edition sees it.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CustomerReport)]
pub struct DocJson {
    /// Always `customer`.
    pub edition: &'static str,
    /// What kind of document: "Sizing report", "AVS plan", "Estate report".
    pub kind: String,
    pub title: String,
    pub subtitle: String,
    /// Who it is for and by whom, in the title block's order.
    pub meta: Vec<MetaJson>,
    /// The line under the title: the date and what the prices are.
    pub dateline: String,
    /// The sections in reading order; the first may have no heading.
    pub sections: Vec<SectionJson>,
}

/// One line of the title block: "Customer", "Contoso".
#[derive(Debug, Serialize, ToSchema)]
pub struct MetaJson {
    pub label: String,
    pub value: String,
}

/// A section: its heading and what it holds.
#[derive(Debug, Serialize, ToSchema)]
pub struct SectionJson {
    pub heading: Option<String>,
    pub blocks: Vec<BlockJson>,
}

/// One block of a section, tagged by `type`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BlockJson {
    /// A heading inside a section.
    Subheading {
        text: String,
    },
    /// The executive summary: the conclusions, one paragraph each.
    Summary {
        paragraphs: Vec<String>,
    },
    Paragraph {
        text: String,
    },
    /// A small note (a basis, a footnote).
    Note {
        text: String,
    },
    /// A target met or missed.
    Verdict {
        met: bool,
        text: String,
    },
    /// What binds, in one sentence.
    Callout {
        text: String,
    },
    /// Headline figures as written, each with its likely range where it has one.
    Figures {
        figures: Vec<FigureJson>,
    },
    Bullets {
        items: Vec<BulletJson>,
    },
    Table(TableJson),
    /// Text to copy as it is: a job file, a command line.
    Code {
        title: String,
        text: String,
    },
    /// A chart's title, what it shows and the data it is drawn from.
    Chart(ChartJson),
    /// Public documents, numbered in order.
    Links {
        links: Vec<LinkJson>,
    },
}

/// A headline figure as written: "Throughput", "8,635", "MiB/s", "likely 7,552-9,874".
#[derive(Debug, Serialize, ToSchema)]
pub struct FigureJson {
    pub key: String,
    pub label: String,
    pub value: String,
    pub unit: String,
    pub range: Option<String>,
}

/// A list item, tagged `warn` or `info` when it is advice.
#[derive(Debug, Serialize, ToSchema)]
pub struct BulletJson {
    pub tag: Option<String>,
    /// True for a warning.
    pub warn: bool,
    pub text: String,
}

/// A table: its name, column titles and rows of cells.
#[derive(Debug, Serialize, ToSchema)]
pub struct TableJson {
    pub name: String,
    pub columns: Vec<String>,
    pub rows: Vec<RowJson>,
}

/// A row; `mark` is `key` for the binding limit or this scenario, `best` for the
/// cheapest or best choice.
#[derive(Debug, Serialize, ToSchema)]
pub struct RowJson {
    pub mark: Option<&'static str>,
    pub cells: Vec<CellJson>,
}

/// A cell as written, and the number behind it when it is a figure.
#[derive(Debug, Serialize, ToSchema)]
pub struct CellJson {
    pub text: String,
    pub number: Option<f64>,
}

/// A chart's title, summary and data table.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChartJson {
    pub title: String,
    pub summary: String,
    pub caption: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Sources and assumptions behind the figures.
    pub notes: Vec<String>,
}

/// A public document: its title and address.
#[derive(Debug, Serialize, ToSchema)]
pub struct LinkJson {
    pub title: String,
    pub url: String,
}

fn block(b: &Block) -> BlockJson {
    let text = |t: &String| t.clone();
    match b {
        Block::Heading(t) | Block::Subheading(t) => BlockJson::Subheading { text: text(t) },
        Block::Summary(p) => BlockJson::Summary {
            paragraphs: p.clone(),
        },
        Block::Para(t) => BlockJson::Paragraph { text: text(t) },
        Block::Note(t) => BlockJson::Note { text: text(t) },
        Block::Verdict { met, text: t } => BlockJson::Verdict {
            met: *met,
            text: text(t),
        },
        Block::Callout(t) => BlockJson::Callout { text: text(t) },
        Block::Figures(ks) => BlockJson::Figures {
            figures: ks
                .iter()
                .map(|k| FigureJson {
                    key: k.key.to_owned(),
                    label: k.label.clone(),
                    value: k.value.clone(),
                    unit: k.unit.clone(),
                    range: k.range.clone(),
                })
                .collect(),
        },
        Block::Bullets(items) => BlockJson::Bullets {
            items: items
                .iter()
                .map(|i| BulletJson {
                    tag: i.tag.as_ref().map(|(t, _)| t.clone()),
                    warn: matches!(i.tag, Some((_, Tone::Warn))),
                    text: i.text.clone(),
                })
                .collect(),
        },
        Block::Table(t) => BlockJson::Table(TableJson {
            name: t.name.clone(),
            columns: t.columns.iter().map(|c| c.title.clone()).collect(),
            rows: t
                .rows
                .iter()
                .map(|r| RowJson {
                    mark: match r.mark {
                        Mark::None => None,
                        Mark::Key => Some("key"),
                        Mark::Best => Some("best"),
                    },
                    cells: r
                        .cells
                        .iter()
                        .map(|c| CellJson {
                            text: c.text.clone(),
                            number: c.number.as_ref().map(|(v, _)| *v),
                        })
                        .collect(),
                })
                .collect(),
        }),
        Block::Code { title, text: t, .. } => BlockJson::Code {
            title: title.clone(),
            text: text(t),
        },
        Block::Chart(c) => {
            let table = c.table();
            BlockJson::Chart(ChartJson {
                title: c.title().to_owned(),
                summary: c.summary().to_owned(),
                caption: table.caption,
                headers: table.headers,
                rows: table.rows,
                notes: table.notes,
            })
        }
        Block::Links(l) => BlockJson::Links {
            links: l
                .iter()
                .map(|(title, url)| LinkJson {
                    title: title.clone(),
                    url: url.clone(),
                })
                .collect(),
        },
    }
}

/// The document as [`DocJson`].
pub fn of(d: &Doc) -> DocJson {
    let mut sections: Vec<SectionJson> = Vec::new();
    for b in &d.blocks {
        if let Block::Heading(h) = b {
            sections.push(SectionJson {
                heading: Some(h.clone()),
                blocks: Vec::new(),
            });
            continue;
        }
        if sections.is_empty() {
            sections.push(SectionJson {
                heading: None,
                blocks: Vec::new(),
            });
        }
        if let Some(last) = sections.last_mut() {
            last.blocks.push(block(b));
        }
    }
    DocJson {
        edition: "customer",
        kind: d.kind.to_owned(),
        title: d.title.clone(),
        subtitle: d.subtitle.clone(),
        meta: d
            .meta
            .iter()
            .map(|(label, value)| MetaJson {
                label: (*label).to_owned(),
                value: value.clone(),
            })
            .collect(),
        dateline: d.dateline.clone(),
        sections,
    }
}

/// Writes the document as pretty-printed JSON (UTF-8, a newline at the end).
pub fn render(d: &Doc) -> Result<Vec<u8>, ReportError> {
    let mut out =
        serde_json::to_vec_pretty(&of(d)).map_err(|e| ReportError::Json(e.to_string()))?;
    out.push(b'\n');
    Ok(out)
}
