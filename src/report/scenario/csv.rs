//! The report as CSV: one table with stable columns. Summary rows come first, then one
//! row per limit, then the per-level sizing, the comparison and the layouts when present,
//! then the latency curve (one row per load).
//!
//! Columns (documented in the README; never renamed):
//! `section,key,label,value,unit,mibps,iops,headroom_pct,binding,assumption,scope,applies,source`.

use crate::report::doc::csv::{number, text, write};
use crate::report::model::Report;
use crate::report::{Edition, ReportError};
use crate::verdict::headline;

/// The header row, in order.
pub const COLUMNS: [&str; 13] = [
    "section",
    "key",
    "label",
    "value",
    "unit",
    "mibps",
    "iops",
    "headroom_pct",
    "binding",
    "assumption",
    "scope",
    "applies",
    "source",
];

/// A figure to 3 decimals.
fn n(v: f64) -> String {
    number(v, 3)
}

fn b(v: bool) -> String {
    v.to_string()
}

#[derive(Default)]
struct Row {
    section: &'static str,
    key: String,
    label: String,
    value: String,
    unit: String,
    mibps: String,
    iops: String,
    headroom_pct: String,
    binding: String,
    assumption: String,
    scope: String,
    applies: String,
    source: String,
}

impl Row {
    fn fields(&self) -> [&str; 13] {
        [
            self.section,
            &self.key,
            &self.label,
            &self.value,
            &self.unit,
            &self.mibps,
            &self.iops,
            &self.headroom_pct,
            &self.binding,
            &self.assumption,
            &self.scope,
            &self.applies,
            &self.source,
        ]
    }
}

fn rows(r: &Report, edition: Edition) -> Vec<Row> {
    let mut out = Vec::new();
    let summary = |key: &str, label: &str, value: String, unit: &str| Row {
        section: "summary",
        key: key.to_owned(),
        label: label.to_owned(),
        value,
        unit: unit.to_owned(),
        ..Row::default()
    };
    out.push(summary("scenario", "Scenario", text(&r.title), ""));
    out.push(summary("storage", "Storage", text(&r.subtitle), ""));
    out.push(summary("generated", "Generated", r.date.clone(), ""));
    if let Some(m) = &r.meta {
        for (key, label, value) in [
            ("customer", "Customer", &m.customer),
            ("project", "Project", &m.project),
            ("author", "Prepared by", &m.author),
            ("notes", "Notes", &m.notes),
        ] {
            if !value.is_empty() {
                out.push(summary(key, label, text(value), ""));
            }
        }
    }
    for (i, p) in r.summary().iter().enumerate() {
        out.push(summary(
            &format!("summary_{}", i + 1),
            "Executive summary",
            text(p),
            "",
        ));
    }
    out.push(summary(
        "catalog_version",
        "Catalog",
        r.catalog_version.to_owned(),
        "",
    ));
    out.push(summary(
        "price_date",
        "Prices as of",
        r.price_date.to_owned(),
        "",
    ));
    let c = &r.evaluation.cost;
    out.push(summary("region", "Region priced", text(&c.region), ""));
    out.push(summary("currency", "Currency", c.currency.to_owned(), ""));
    out.push(summary(
        "prices",
        "Prices",
        text(&crate::report::summary::cost::price_basis(
            &r.evaluation,
            Edition::Customer,
        )),
        "",
    ));
    if edition == Edition::Engineer {
        out.push(summary(
            "price_book",
            "Price book",
            text(&c.price_book.id),
            "",
        ));
        out.push(summary(
            "price_source",
            "Price source",
            text(&c.price_book.source),
            "",
        ));
    }
    if let Some(saved) = &r.saved_cost {
        let sentence = crate::report::summary::cost::saved_sentence(
            &r.evaluation,
            edition,
            saved.revision,
            &saved.saved_at,
            saved.cost.as_ref(),
        );
        out.push(summary("saved_cost", "Saved cost", text(&sentence), ""));
    }
    for f in &r.headline {
        out.push(summary(
            f.key,
            &f.label,
            f.value.map(n).unwrap_or_default(),
            f.unit,
        ));
        if let Some([lo, hi]) = f.range_values {
            let label = format!("{}, {}", f.label, headline::likely_words("range"));
            for (end, v) in [("low", lo), ("high", hi)] {
                out.push(summary(
                    &format!("{}_range_{end}", f.key),
                    &format!("{label} ({end})"),
                    n(v),
                    f.unit,
                ));
            }
        }
    }
    out.push(summary(
        "range_basis",
        "Likely ranges",
        text(&r.range_basis(edition)),
        "",
    ));
    out.push(Row {
        binding: r.binding.id.to_owned(),
        ..summary("binding", "Bound by", text(&r.binding.label), "")
    });
    out.push(summary(
        "targets_met",
        "Targets met",
        b(r.verdict.met()),
        "",
    ));
    if let Some(at) = r.evaluation.latency_at_target_ms {
        out.push(summary(
            "latency_at_target_ms",
            "Latency per IO at the target rate",
            n(at),
            "ms",
        ));
    }
    if let Some(met) = r.evaluation.targets.latency_met {
        out.push(summary("latency_met", "Latency target met", b(met), ""));
    }
    for l in &r.limits {
        out.push(Row {
            section: "limit",
            key: l.id.to_owned(),
            label: l.label.clone(),
            value: n(l.mibps),
            unit: "MiB/s".to_owned(),
            mibps: n(l.mibps),
            iops: n(l.iops),
            headroom_pct: n(l.headroom_pct),
            binding: b(l.binding),
            assumption: b(l.assumption),
            scope: l.scope.to_owned(),
            applies: l.applies.to_owned(),
            source: text(&l.source_in(edition)),
        });
    }
    for z in &r.sizing {
        out.push(Row {
            section: "sizing",
            key: z.level.to_owned(),
            label: z.name.clone(),
            value: z.monthly.map(n).unwrap_or_default(),
            unit: format!("{}/month", c.currency),
            mibps: z.throughput_mibps.map(n).unwrap_or_default(),
            binding: b(z.cheapest),
            assumption: b(r.evaluation.cost.assumption),
            scope: if z.current { "this_scenario" } else { "" }.to_owned(),
            source: format!(
                "quota {} TiB, pool {} TiB, meets targets: {}",
                n(z.quota_tib),
                n(z.pool_tib),
                z.meets
            ),
            ..Row::default()
        });
    }
    for (i, c) in r.comparison.iter().flat_map(|c| &c.rows).enumerate() {
        out.push(Row {
            section: "comparison",
            key: c
                .id
                .map(|id| id.to_string())
                .unwrap_or_else(|| (i + 1).to_string()),
            label: text(&c.name),
            value: c.monthly.map(n).unwrap_or_default(),
            unit: format!("{}/month", c.currency),
            mibps: n(c.throughput_mibps),
            iops: n(c.iops),
            binding: c.binding.to_owned(),
            source: c.storage.clone(),
            ..Row::default()
        });
    }
    for l in r.layouts.iter().flat_map(|l| &l.rows) {
        out.push(Row {
            section: "layout",
            key: l.count.to_string(),
            label: format!("{} x {} TiB", l.count, n(l.quota_tib)),
            value: l.monthly.map(n).unwrap_or_default(),
            unit: format!("{}/month", c.currency),
            mibps: n(l.throughput_mibps),
            iops: n(l.iops),
            binding: l.binding.to_owned(),
            source: format!("{} connections", l.connections),
            ..Row::default()
        });
    }
    for p in r.evaluation.latency_curve.points() {
        out.push(Row {
            section: "latency",
            key: n(p.load_pct),
            label: format!(
                "Latency per IO at {}% of the achievable load",
                n(p.load_pct)
            ),
            value: n(p.latency_ms),
            unit: "ms".to_owned(),
            mibps: n(p.mibps),
            iops: n(p.iops),
            ..Row::default()
        });
    }
    out
}

/// Writes the CSV report (UTF-8, comma-separated, header row first).
pub fn render(r: &Report, edition: Edition) -> Result<Vec<u8>, ReportError> {
    let rows = rows(r, edition);
    write(
        std::iter::once(COLUMNS).chain(rows.iter().map(Row::fields)),
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixture;

    #[test]
    fn summary_then_one_row_per_limit() {
        let (mut s, e) = fixture::example();
        s.name = "=HYPERLINK(\"x\")".to_owned();
        let r = Report::build(&s, &e, crate::engine::pricing::book(), "2026-01-02");
        let bytes = render(&r, Edition::Customer).unwrap();
        let mut rd = csv::Reader::from_reader(bytes.as_slice());
        assert_eq!(rd.headers().unwrap().iter().collect::<Vec<_>>(), COLUMNS);
        let recs: Vec<csv::StringRecord> = rd.records().map(Result::unwrap).collect();
        assert_eq!(&recs[0][0], "summary");
        assert!(recs[0][3].starts_with('\''), "formula neutralised");
        let limits: Vec<_> = recs.iter().filter(|r| &r[0] == "limit").collect();
        assert_eq!(limits.len(), e.limits.len());
        assert_eq!(&limits[0][1], e.binding);
        assert_eq!(&limits[0][8], "true");
        let curve: Vec<_> = recs.iter().filter(|r| &r[0] == "latency").collect();
        assert_eq!(curve.len(), e.latency_curve.points().count());
        assert_eq!(
            (&curve.last().unwrap()[1], &curve.last().unwrap()[4]),
            ("100", "ms")
        );
        let tp = recs.iter().find(|r| &r[1] == "throughput_mibps").unwrap();
        let value: f64 = tp[3].parse().unwrap();
        assert!((value - e.throughput_mibps).abs() < 0.001);
    }
}
