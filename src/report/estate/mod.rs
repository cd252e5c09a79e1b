//! The estate report: an executive summary, the cost over time (chart and cost by year),
//! the pools, the allocation, where each workload fits best, the timeline and the
//! resize schedule, as a document laid out like the sizing report (HTML, Markdown,
//! PDF, XLSX with one sheet per table), plus CSV (every table, its title first) and
//! JSON (the plan).

use crate::engine::scenario::{Qos, Service};
use crate::estate::EstatePlan;
use crate::format::{count, date_words, yes_no};
use crate::report::charts::Chart;
use crate::report::doc::{Block, Bullet, Cell, Doc, Mark, Row, Table, num_col, text_col};
use crate::report::summary::cost::region_name;
use crate::report::summary::estate::{event_name, facts, method};
use crate::report::summary::storage_name;
use crate::report::{Edition, Format, RenderOptions, ReportError, render_doc};

/// The report in `format`, its conclusions the verdict's `statements`; `date` is the
/// report's date (YYYY-MM-DD).
pub fn render(
    p: &EstatePlan,
    statements: &[String],
    format: Format,
    opts: RenderOptions,
    date: &str,
) -> Result<Vec<u8>, ReportError> {
    let d = document(p, statements, opts.edition, date);
    match format {
        Format::Csv => crate::report::doc::csv::render(&d),
        Format::Json if opts.edition == Edition::Customer => crate::report::doc::json::render(&d),
        Format::Json => serde_json::to_vec_pretty(p).map_err(|e| ReportError::Json(e.to_string())),
        _ => render_doc(&d, format, opts.paper),
    }
}

fn qos(q: Qos) -> &'static str {
    match q {
        Qos::Auto => "auto",
        Qos::Manual => "manual",
    }
}

/// A limit's name from the fit of workload `w`, which labels every option's binding.
fn limit_name(p: &EstatePlan, w: usize, id: &str) -> String {
    p.fit
        .iter()
        .filter(|f| f.workload == w)
        .flat_map(|f| &f.options)
        .find(|o| o.binding == Some(id))
        .and_then(|o| o.binding_label.clone())
        .unwrap_or_else(|| id.replace('_', " "))
}

/// The estate as a document for `edition`: the verdict's `statements` first, then the
/// facts behind them; `date` is the report's date.
pub fn document(p: &EstatePlan, statements: &[String], edition: Edition, date: &str) -> Doc {
    let cur = p.currency;
    let money = |v: f64| Cell::money(Some(v), cur);
    let mut b = vec![
        Block::Heading("Executive summary".into()),
        Block::Summary(statements.iter().cloned().chain(facts(p)).collect()),
        Block::Heading("Cost over time".into()),
        Block::Chart(Box::new(Chart::estate_timeline(p))),
        Block::Table(Table {
            name: "Cost by year".into(),
            columns: vec![text_col("Year", 1.0), num_col("Cost", 1.0)],
            rows: p
                .cost_by_year
                .iter()
                .enumerate()
                .map(|(i, c)| Row::new(vec![format!("Year {}", i + 1).into(), money(*c)]))
                .collect(),
        }),
    ];
    let baselines: Vec<Row> = p
        .baselines
        .iter()
        .map(|x| {
            Row::new(vec![
                x.description.into(),
                Cell::money(x.monthly, cur),
                x.saving_pct
                    .map_or_else(|| "cannot hold every workload".into(), |s| Cell::pct(s, 1)),
            ])
        })
        .collect();
    if !baselines.is_empty() {
        b.push(Block::Table(Table {
            name: "Against simpler plans".into(),
            columns: vec![
                text_col("Plan", 3.0),
                num_col("Cost a month", 1.2),
                num_col("The plan saves", 1.2),
            ],
            rows: baselines,
        }));
    }

    b.push(Block::Heading("Pools".into()));
    b.push(Block::Table(Table {
        name: "Pools".into(),
        columns: vec![
            num_col("Pool", 0.6),
            text_col("Level", 0.9),
            text_col("QoS", 0.7),
            num_col("Size TiB", 0.9),
            num_col("Used TiB", 0.9),
            num_col("MiB/s", 0.9),
            num_col("A month", 1.1),
            text_col("Why", 3.0),
        ],
        rows: p
            .pools
            .iter()
            .map(|x| {
                Row::new(vec![
                    Cell::num(x.id as f64, 0),
                    x.level.display(Service::Anf).into(),
                    qos(x.qos).into(),
                    Cell::num(x.size_tib, 1),
                    Cell::num(x.used_tib, 1),
                    Cell::num(x.mibps, 1),
                    money(x.monthly),
                    x.explanation.clone().into(),
                ])
            })
            .collect(),
    }));
    b.push(Block::Note(format!("Pools were found by {}.", method(p))));

    b.push(Block::Heading("Allocation".into()));
    b.push(Block::Table(Table {
        name: "Allocation".into(),
        columns: vec![
            text_col("Workload", 1.4),
            text_col("Service", 1.6),
            num_col("Pool", 0.7),
            text_col("Volumes", 1.6),
            num_col("Achievable MiB/s", 1.1),
            text_col("Bound by", 1.6),
            text_col("Targets met", 0.9),
            text_col("Note", 1.8),
        ],
        rows: p
            .assignments
            .iter()
            .map(|a| {
                let volumes = a
                    .volumes
                    .iter()
                    .map(|g| match g.throughput_mibps {
                        Some(t) => format!(
                            "{} x {} TiB at {} MiB/s",
                            g.count,
                            crate::format::num(g.quota_tib, 1),
                            crate::format::num(t, 1)
                        ),
                        None => format!("{} x {} TiB", g.count, crate::format::num(g.quota_tib, 1)),
                    })
                    .collect::<Vec<_>>()
                    .join("; ");
                Row::marked(
                    vec![
                        a.name.clone().into(),
                        storage_name(a.service, a.level).into(),
                        a.pool
                            .map_or_else(|| "-".into(), |x| Cell::num(x as f64, 0)),
                        volumes.into(),
                        a.throughput_mibps
                            .map_or_else(|| "-".into(), |t| Cell::num(t, 1)),
                        a.binding
                            .map_or_else(|| "-".to_owned(), |id| limit_name(p, a.workload, id))
                            .into(),
                        yes_no(a.targets_met).into(),
                        a.note.clone().unwrap_or_default().into(),
                    ],
                    if a.targets_met { Mark::None } else { Mark::Key },
                )
            })
            .collect(),
    }));

    fit(p, edition, &mut b);

    b.push(Block::Heading("Timeline".into()));
    b.push(Block::Table(Table {
        name: "Timeline".into(),
        columns: vec![
            num_col("Month", 0.7),
            num_col("Demand TiB", 1.0),
            num_col("Provisioned TiB", 1.1),
            num_col("Throughput MiB/s", 1.2),
            num_col("Pool TiB", 1.0),
            num_col("Pools", 0.7),
            num_col("A month", 1.2),
            text_col("What-if", 0.8),
        ],
        rows: p
            .timeline
            .iter()
            .map(|m| {
                Row::new(vec![
                    Cell::num(f64::from(m.month), 0),
                    Cell::num(m.demand_tib, 1),
                    Cell::num(m.provisioned_tib, 1),
                    Cell::num(m.mibps, 1),
                    Cell::num(m.pool_tib, 1),
                    Cell::num(m.pools as f64, 0),
                    money(m.monthly),
                    if m.what_if { "what-if" } else { "" }.into(),
                ])
            })
            .collect(),
    }));

    b.push(Block::Heading("Resize schedule".into()));
    if p.events.is_empty() {
        b.push(Block::Note(
            "Nothing needs resizing over the timeline.".into(),
        ));
    } else {
        b.push(Block::Table(Table {
            name: "Resize schedule".into(),
            columns: vec![
                num_col("Month", 0.7),
                text_col("Event", 1.6),
                text_col("What happens", 4.0),
            ],
            rows: p
                .events
                .iter()
                .map(|e| {
                    Row::new(vec![
                        Cell::num(f64::from(e.month), 0),
                        event_name(e.kind).into(),
                        e.message.clone().into(),
                    ])
                })
                .collect(),
        }));
    }

    Doc {
        kind: "Estate report",
        title: p.name.clone(),
        subtitle: format!(
            "{} workload{} in {}",
            count(p.assignments.len() as u64),
            if p.assignments.len() == 1 { "" } else { "s" },
            region_name(&p.region)
        ),
        meta: vec![("Date", date_words(date))],
        dateline: format!(
            "List prices for {}, {} months from now.",
            region_name(&p.region),
            count(p.timeline.len() as u64)
        ),
        blocks: b,
        footer: match edition {
            Edition::Customer => format!("Estate report · {} · {}", p.name, date_words(date)),
            Edition::Engineer => format!("volplan estate report · {} · {date}", p.name),
        },
    }
}

/// Where each workload fits best: every priced option, and for a customer the
/// options without a list price that do not meet the workload collapsed into a note.
fn fit(p: &EstatePlan, edition: Edition, b: &mut Vec<Block>) {
    let mut hidden = 0;
    let mut rows = Vec::new();
    for f in &p.fit {
        for o in &f.options {
            if edition == Edition::Customer && o.monthly.is_none() && !o.meets {
                hidden += 1;
                continue;
            }
            rows.push(Row::marked(
                vec![
                    f.name.clone().into(),
                    storage_name(o.service, o.level).into(),
                    if o.best {
                        "best"
                    } else if o.meets {
                        "meets"
                    } else {
                        "no"
                    }
                    .into(),
                    Cell::money(o.monthly, p.currency),
                    Cell::num(o.quota_tib, 1),
                    o.binding_label.clone().unwrap_or_default().into(),
                    o.why_not.clone().unwrap_or_default().into(),
                ],
                if o.best { Mark::Best } else { Mark::None },
            ));
        }
    }
    b.push(Block::Heading("Where each workload fits best".into()));
    b.push(Block::Table(Table {
        name: "Fit".into(),
        columns: vec![
            text_col("Workload", 1.3),
            text_col("Option", 1.8),
            text_col("Fit", 0.8),
            num_col("A month", 1.1),
            num_col("Quota TiB", 1.0),
            text_col("Bound by", 1.6),
            text_col("Why not", 2.0),
        ],
        rows,
    }));
    if hidden > 0 {
        b.push(Block::Bullets(vec![Bullet::plain(format!(
            "{} option{} without a list price in this region and that would not meet the workload {} left out.",
            count(hidden),
            if hidden == 1 { "" } else { "s" },
            if hidden == 1 { "is" } else { "are" }
        ))]));
    }
}

/// The report's sections as the estate page shows them (its tables and words, the
/// chart left out, the verdict's statements too: the page lists them above) as an HTML
/// fragment; the page draws the chart on its own ([`page_chart`]) in the render pool.
pub fn page_sections(p: &EstatePlan, date: &str) -> Result<String, ReportError> {
    let mut d = document(p, &[], Edition::Customer, date);
    d.blocks.retain(|b| !matches!(b, Block::Chart(_)));
    crate::report::doc::html::fragment(&d)
}

/// The estate page's timeline chart as inline SVG.
pub fn page_chart(p: &EstatePlan) -> Result<String, ReportError> {
    Chart::estate_timeline(p)
        .svg_inline()
        .map_err(|e| ReportError::Chart("estate-timeline", e.to_string()))
}

#[cfg(test)]
mod tests;
