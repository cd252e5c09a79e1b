//! A scenario's sizing report (with the comparison and the volume layouts when asked
//! for) as a document for its edition, and its data formats: CSV, XLSX and JSON.
//!
//! The order keeps each chart with its section and puts the reference tables (limits,
//! inputs), the test plan and the sources last, so that page 1 holds who it is for, the
//! executive summary and the figures, and no chart ends the document alone.

pub mod csv;
pub mod json;
mod trace;
pub mod xlsx;

use crate::format::{date_words, yes_no};
use crate::report::charts::{Chart, ChartName};
use crate::report::doc::{
    Block, Bullet, Cell, Doc, Kpi, Mark, Row, Table, Tone, num_col, text_col,
};
use crate::report::model::{Report, TestPlan};
use crate::report::{Edition, summary};
use crate::verdict::headline;

/// The report as a document for `edition`.
pub fn document(r: &Report, edition: Edition) -> Doc {
    let mut b: Vec<Block> = Vec::new();
    let chart = |name: ChartName| r.chart(name).cloned();

    b.push(Block::Heading("Executive summary".into()));
    b.push(Block::Summary(r.summary()));
    if let Some(m) = r.meta.as_ref().filter(|m| !m.notes.is_empty()) {
        b.push(Block::Subheading("Notes".into()));
        b.extend(m.notes.lines().map(|l| Block::Para(l.to_owned())));
    }

    b.push(Block::Heading("Results".into()));
    b.push(Block::Figures(
        r.headline
            .iter()
            .map(|f| Kpi {
                key: f.key,
                label: f.label.to_owned(),
                value: f.text(),
                unit: f.unit.to_owned(),
                range: f.range.as_deref().map(headline::likely_words),
            })
            .collect(),
    ));
    b.push(Block::Note(r.range_basis(edition)));
    b.extend(r.targets.iter().map(|t| Block::Verdict {
        met: t.met,
        text: t.text.clone(),
    }));

    b.push(Block::Heading("Bound by".into()));
    b.push(Block::Callout(r.binding.sentence.clone()));
    b.extend(chart(ChartName::Ceilings).map(|c| Block::Chart(Box::new(c))));

    b.push(Block::Heading("Latency".into()));
    b.push(Block::Para(r.latency.clone()));
    b.extend(chart(ChartName::Latency).map(|c| Block::Chart(Box::new(c))));

    b.push(Block::Heading("Cost and sizing".into()));
    b.push(Block::Para(r.cost_paragraph(edition)));
    if !r.sizing.is_empty() {
        b.push(Block::Note(r.sizing_basis.to_owned()));
        b.push(Block::Table(sizing_table(r)));
    }

    comparison(r, &mut b);
    layouts(r, &mut b);

    b.push(Block::Heading("Throughput by IO size".into()));
    b.extend(chart(ChartName::IoSize).map(|c| Block::Chart(Box::new(c))));
    b.push(Block::Heading("Scaling".into()));
    b.extend(chart(ChartName::Scaling).map(|c| Block::Chart(Box::new(c))));

    b.push(Block::Heading("Limits".into()));
    b.push(Block::Table(limits_table(r, edition)));

    b.push(Block::Heading("Advice".into()));
    if r.advice.is_empty() {
        b.push(Block::Note("No advice for this scenario.".into()));
    } else {
        b.push(Block::Bullets(
            r.advice
                .iter()
                .map(|a| Bullet {
                    tag: Some((
                        a.severity.to_owned(),
                        if a.severity == "warn" {
                            Tone::Warn
                        } else {
                            Tone::Info
                        },
                    )),
                    text: match edition {
                        Edition::Customer => a.message.clone(),
                        Edition::Engineer => format!("{} ({})", a.message, a.code),
                    },
                })
                .collect(),
        ));
    }

    b.push(Block::Heading("Assumptions".into()));
    b.push(Block::Note(summary::provenance(&r.evaluation)));
    let assumptions = summary::assumptions(&r.evaluation, edition);
    if !assumptions.is_empty() {
        b.push(Block::Bullets(
            assumptions.into_iter().map(Bullet::plain).collect(),
        ));
    }

    b.push(Block::Heading("Inputs".into()));
    b.push(Block::Table(Table {
        name: "Inputs".into(),
        columns: vec![
            text_col("Section", 1.0),
            text_col("Input", 2.0),
            text_col("Value", 3.0),
        ],
        rows: r
            .inputs
            .iter()
            .map(|i| {
                let value = if i.unit.is_empty() {
                    i.value.clone()
                } else {
                    format!("{} {}", i.value, i.unit)
                };
                Row::new(vec![i.section.into(), i.label.clone().into(), value.into()])
            })
            .collect(),
    }));

    b.push(Block::Heading(TestPlan::TITLE.into()));
    b.push(Block::Para(r.test_plan.note(edition).into()));
    for part in r.test_plan.parts(edition) {
        b.push(Block::Code {
            title: part.title.to_owned(),
            lang: part.lang,
            text: part.text.to_owned(),
        });
    }

    if !r.sources.is_empty() {
        b.push(Block::Heading("Sources".into()));
        b.push(Block::Links(
            r.sources
                .iter()
                .map(|d| (d.title.clone(), d.url.clone()))
                .collect(),
        ));
    }
    if edition == Edition::Engineer {
        trace::append(r, &mut b);
    }

    let mut meta: Vec<(&'static str, String)> = Vec::new();
    if let Some(m) = &r.meta {
        for (label, value) in [
            ("Customer", &m.customer),
            ("Project", &m.project),
            ("Prepared by", &m.author),
        ] {
            if !value.is_empty() {
                meta.push((label, value.clone()));
            }
        }
    }
    meta.push(("Date", date_words(&r.date)));
    let basis = summary::cost::price_basis(&r.evaluation, edition);
    let (dateline, footer) = match edition {
        Edition::Customer => (
            format!("{basis}."),
            format!("Sizing report · {} · {}", r.title, date_words(&r.date)),
        ),
        Edition::Engineer => (
            format!(
                "Generated {} · catalog {} · {basis}.",
                r.date, r.catalog_version
            ),
            format!("volplan sizing report · {} · {}", r.title, r.date),
        ),
    };
    Doc {
        kind: "Sizing report",
        title: r.title.clone(),
        subtitle: r.subtitle.clone(),
        meta,
        dateline,
        blocks: b,
        footer,
    }
}

fn sizing_table(r: &Report) -> Table {
    let currency = r.evaluation.cost.currency;
    Table {
        name: "Sizing".into(),
        columns: vec![
            text_col("Level", 3.4),
            num_col("Quota TiB", 1.1),
            num_col("Pool TiB", 1.1),
            num_col("Throughput MiB/s", 1.5),
            num_col("Monthly cost", 1.5),
            text_col("Meets targets", 1.1),
        ],
        rows: r
            .sizing
            .iter()
            .map(|z| {
                let mut name = z.name.clone();
                if z.cheapest {
                    name = format!("★ {name} (cheapest)");
                }
                if z.current {
                    name.push_str(" (this scenario)");
                }
                Row::marked(
                    vec![
                        name.into(),
                        Cell::num(z.quota_tib, 2),
                        Cell::num(z.pool_tib, 2),
                        z.throughput_mibps.map_or_else(|| "-".into(), Cell::exact),
                        Cell::money(z.monthly, currency),
                        yes_no(z.meets).into(),
                    ],
                    if z.cheapest { Mark::Best } else { Mark::None },
                )
            })
            .collect(),
    }
}

fn limits_table(r: &Report, edition: Edition) -> Table {
    let mut columns = vec![
        text_col("Limit", 3.2),
        text_col("Applies", 0.9),
        num_col("MiB/s", 1.1),
        num_col("IOPS", 1.1),
        num_col("Headroom", 1.1),
        text_col("Source", 2.8),
    ];
    if edition == Edition::Engineer {
        columns.insert(1, text_col("Id", 1.3));
    }
    Table {
        name: "Limits".into(),
        columns,
        rows: r
            .limits
            .iter()
            .map(|l| {
                let mut label = l.label.clone();
                if l.binding {
                    label = format!("◆ {label} (binding)");
                }
                if l.assumption {
                    label.push_str(" [assumption]");
                }
                let mut cells = vec![
                    label.into(),
                    l.applies.into(),
                    Cell::exact(l.mibps),
                    Cell::exact(l.iops),
                    Cell::pct(l.headroom_pct, 1),
                    l.source_in(edition).into(),
                ];
                if edition == Edition::Engineer {
                    cells.insert(1, l.id.into());
                }
                Row::marked(cells, if l.binding { Mark::Key } else { Mark::None })
            })
            .collect(),
    }
}

fn comparison(r: &Report, b: &mut Vec<Block>) {
    let Some(c) = &r.comparison else {
        return;
    };
    b.push(Block::Heading("Comparison".into()));
    b.push(Block::Table(Table {
        name: "Comparison".into(),
        columns: vec![
            text_col("Scenario", 2.0),
            text_col("Storage", 2.0),
            num_col("MiB/s", 1.1),
            num_col("IOPS", 1.1),
            num_col("Latency ms", 1.0),
            text_col("Bound by", 2.2),
            num_col("Monthly cost", 1.4),
            text_col("Targets met", 0.8),
        ],
        rows: c
            .rows
            .iter()
            .enumerate()
            .map(|(i, x)| {
                Row::marked(
                    vec![
                        x.name.clone().into(),
                        x.storage.clone().into(),
                        Cell::exact(x.throughput_mibps),
                        Cell::exact(x.iops),
                        Cell::num(x.latency_ms, 3),
                        x.binding_label.clone().into(),
                        Cell::money(x.monthly, x.currency),
                        yes_no(x.met).into(),
                    ],
                    if i == 0 { Mark::Key } else { Mark::None },
                )
            })
            .collect(),
    }));
    let mut evals = vec![&r.evaluation];
    evals.extend(c.others.iter().map(|(_, e)| e));
    let names: Vec<String> = c.rows.iter().map(|x| x.name.clone()).collect();
    let rows = crate::engine::sweep::compare(&evals);
    b.push(Block::Chart(Box::new(Chart::compare(&names, &rows))));
}

fn layouts(r: &Report, b: &mut Vec<Block>) {
    let Some(l) = &r.layouts else {
        return;
    };
    let currency = r.evaluation.cost.currency;
    b.push(Block::Heading("Volume layouts".into()));
    b.push(Block::Table(Table {
        name: "Layouts".into(),
        columns: vec![
            num_col("Volumes", 0.9),
            num_col("TiB each", 1.0),
            num_col("MiB/s", 1.1),
            num_col("IOPS", 1.1),
            num_col("Connections", 1.0),
            text_col("Why", 3.2),
            num_col("Monthly cost", 1.4),
            text_col("Targets met", 0.8),
        ],
        rows: l
            .rows
            .iter()
            .map(|x| {
                Row::new(vec![
                    Cell::num(f64::from(x.count), 0),
                    Cell::num(x.quota_tib, 2),
                    Cell::exact(x.throughput_mibps),
                    Cell::exact(x.iops),
                    Cell::num(x.connections as f64, 0),
                    x.why.clone().into(),
                    Cell::money(x.monthly, currency),
                    yes_no(x.met).into(),
                ])
            })
            .collect(),
    }));
    let suggested = crate::engine::sweep::suggest_layout(&l.sweep);
    b.push(Block::Chart(Box::new(Chart::layouts(&l.sweep, suggested))));
}
