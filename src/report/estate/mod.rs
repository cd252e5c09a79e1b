//! The estate report: summary, pools, allocation, per-workload fit, the timeline (table
//! and chart), cost by year and the resize schedule, in every report format (HTML,
//! Markdown, PDF, CSV, XLSX, JSON). Every format renders the same [`Table`]s.

pub mod chart;
pub mod html;
pub mod pdf;
pub mod xlsx;

pub use super::model::Format;
use super::model::ReportError;
use crate::engine::scenario::{Qos, Service};
use crate::engine::trace::Num;
use crate::estate::{EstatePlan, Method};

/// One table of the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub title: &'static str,
    pub headers: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
}

/// The report in `format`.
pub fn render(p: &EstatePlan, format: Format) -> Result<Vec<u8>, ReportError> {
    let tables = tables(p);
    Ok(match format {
        Format::Html => html::render(p, &tables)?.into_bytes(),
        Format::Md => md(p, &tables).into_bytes(),
        Format::Pdf => pdf::render(p, &tables)?,
        Format::Csv => csv(&tables)?,
        Format::Xlsx => xlsx::render(&tables)?,
        Format::Json => {
            serde_json::to_vec_pretty(p).map_err(|e| ReportError::Json(e.to_string()))?
        }
    })
}

/// "$1,234.56".
pub fn usd(v: f64) -> String {
    format!("${}", Num(v, 2))
}

fn num(v: f64) -> String {
    Num(v, 1).to_string()
}

fn qos(q: Qos) -> &'static str {
    match q {
        Qos::Auto => "auto",
        Qos::Manual => "manual",
    }
}

/// Every table of the report, in order.
pub fn tables(p: &EstatePlan) -> Vec<Table> {
    let mut summary = vec![
        vec!["Region".to_owned(), p.region.clone()],
        vec!["Workloads".to_owned(), p.assignments.len().to_string()],
        vec!["Pools".to_owned(), p.pools.len().to_string()],
        vec!["First month".to_owned(), usd(p.monthly)],
        vec![
            format!("Total over {} months", p.timeline.len()),
            usd(p.total),
        ],
        vec![
            "Pool search".to_owned(),
            match p.method {
                Method::Exact => "exact (every grouping covered)".to_owned(),
                Method::Heuristic => format!(
                    "heuristic, at most {:.1} % above the lower bound {}",
                    p.gap_pct,
                    usd(p.lower_bound)
                ),
            },
        ],
    ];
    for b in &p.baselines {
        summary.push(vec![
            format!("Against {}", b.description),
            match (b.monthly, b.saving_pct) {
                (Some(m), Some(s)) => format!("{} a month; the plan saves {s:.1} %", usd(m)),
                _ => "cannot hold every workload".to_owned(),
            },
        ]);
    }
    let pools = p
        .pools
        .iter()
        .map(|x| {
            vec![
                x.id.to_string(),
                x.level.display(Service::Anf).to_owned(),
                qos(x.qos).to_owned(),
                num(x.size_tib),
                num(x.used_tib),
                num(x.mibps),
                usd(x.monthly),
                x.explanation.clone(),
            ]
        })
        .collect();
    let allocation = p
        .assignments
        .iter()
        .map(|a| {
            let volumes = a
                .volumes
                .iter()
                .map(|g| match g.throughput_mibps {
                    Some(t) => format!("{} x {} TiB @ {} MiB/s", g.count, num(g.quota_tib), num(t)),
                    None => format!("{} x {} TiB", g.count, num(g.quota_tib)),
                })
                .collect::<Vec<_>>()
                .join("; ");
            vec![
                a.name.clone(),
                format!("{} {}", a.service.display(), a.level.display(a.service)),
                a.pool.map_or_else(|| "-".to_owned(), |p| p.to_string()),
                volumes,
                a.throughput_mibps.map_or_else(|| "-".to_owned(), num),
                a.binding.unwrap_or("-").to_owned(),
                if a.targets_met { "yes" } else { "no" }.to_owned(),
                a.note.clone().unwrap_or_default(),
            ]
        })
        .collect();
    let fit = p
        .fit
        .iter()
        .flat_map(|f| {
            f.options.iter().map(move |o| {
                vec![
                    f.name.clone(),
                    o.label(),
                    if o.best {
                        "best".to_owned()
                    } else if o.meets {
                        "meets".to_owned()
                    } else {
                        "no".to_owned()
                    },
                    o.monthly.map_or_else(|| "-".to_owned(), usd),
                    num(o.quota_tib),
                    o.binding_label.clone().unwrap_or_default(),
                    o.why_not.clone().unwrap_or_default(),
                ]
            })
        })
        .collect();
    let timeline = p
        .timeline
        .iter()
        .map(|m| {
            vec![
                m.month.to_string(),
                num(m.capacity_tib),
                num(m.mibps),
                num(m.pool_tib),
                m.pools.to_string(),
                usd(m.monthly),
                if m.what_if { "what-if" } else { "" }.to_owned(),
            ]
        })
        .collect();
    let years = p
        .cost_by_year
        .iter()
        .enumerate()
        .map(|(i, c)| vec![format!("Year {}", i + 1), usd(*c)])
        .collect();
    let events = p
        .events
        .iter()
        .map(|e| {
            vec![
                e.month.to_string(),
                format!("{:?}", e.kind),
                e.message.clone(),
            ]
        })
        .collect();
    vec![
        Table {
            title: "Summary",
            headers: vec!["Item", "Value"],
            rows: summary,
        },
        Table {
            title: "Pools",
            headers: vec![
                "Pool", "Level", "QoS", "Size TiB", "Used TiB", "MiB/s", "Monthly", "Why",
            ],
            rows: pools,
        },
        Table {
            title: "Allocation",
            headers: vec![
                "Workload",
                "Service",
                "Pool",
                "Volumes",
                "Achievable MiB/s",
                "Binding",
                "Targets met",
                "Note",
            ],
            rows: allocation,
        },
        Table {
            title: "Where each workload fits best",
            headers: vec![
                "Workload",
                "Option",
                "Fit",
                "Monthly",
                "Quota TiB",
                "Binding",
                "Why not",
            ],
            rows: fit,
        },
        Table {
            title: "Timeline",
            headers: vec![
                "Month",
                "Capacity TiB",
                "Throughput MiB/s",
                "Pool TiB",
                "Pools",
                "Monthly",
                "",
            ],
            rows: timeline,
        },
        Table {
            title: "Cost by year",
            headers: vec!["Year", "Cost"],
            rows: years,
        },
        Table {
            title: "Resize schedule",
            headers: vec!["Month", "Event", "What"],
            rows: events,
        },
    ]
}

/// Markdown: a heading and a pipe table per table.
pub fn md(p: &EstatePlan, tables: &[Table]) -> String {
    use super::md::escape;
    let mut out = format!("# {}\n\n", escape(&p.name));
    for t in tables {
        out.push_str(&format!("## {}\n\n", t.title));
        if t.rows.is_empty() {
            out.push_str("None.\n\n");
            continue;
        }
        out.push_str(&format!("| {} |\n", t.headers.join(" | ")));
        out.push_str(&format!("|{}\n", "---|".repeat(t.headers.len())));
        for r in &t.rows {
            let cells: Vec<String> = r.iter().map(|c| escape(c)).collect();
            out.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
        out.push('\n');
    }
    out
}

/// CSV: each table as a block of rows, its first column the table's title.
pub fn csv(tables: &[Table]) -> Result<Vec<u8>, ReportError> {
    let mut w = ::csv::WriterBuilder::new()
        .flexible(true)
        .from_writer(Vec::new());
    let err = |e: ::csv::Error| ReportError::Csv(e.to_string());
    for t in tables {
        let mut head = vec!["table"];
        head.extend(t.headers.iter().copied());
        w.write_record(&head).map_err(err)?;
        for r in &t.rows {
            let mut row = vec![t.title.to_owned()];
            // A leading =, +, - or @ would be a formula in a spreadsheet.
            row.extend(r.iter().map(|c| {
                if c.starts_with(['=', '+', '-', '@']) {
                    format!("'{c}")
                } else {
                    c.clone()
                }
            }));
            w.write_record(&row).map_err(err)?;
        }
    }
    w.into_inner().map_err(|e| ReportError::Csv(e.to_string()))
}

#[cfg(test)]
mod tests;
