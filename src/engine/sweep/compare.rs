//! Several evaluations side by side: a row per metric, deltas against the first.

use crate::engine::evaluation::Evaluation;

/// Which way a metric improves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    Higher,
    Lower,
    /// Not better or worse, only different (e.g. connections).
    Neither,
}

/// One row of a comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricRow {
    pub key: &'static str,
    pub label: &'static str,
    pub unit: &'static str,
    pub better: Better,
    /// One value per scenario; `None` for text rows.
    pub values: Vec<Option<f64>>,
    /// One text per scenario for text rows (the binding limit), else empty.
    pub text: Vec<String>,
    /// Against the first scenario: (absolute, percent); percent is `None` when the first is 0.
    pub deltas: Vec<Option<(f64, Option<f64>)>>,
    /// True for the best value(s) in the row; all false when all are equal.
    pub best: Vec<bool>,
}

/// The keys of the rows that hold amounts of money (in each evaluation's
/// `cost.currency`).
pub const MONEY_ROWS: [&str; 2] = ["monthly_usd", "usd_per_mibps"];

/// Sets evaluations side by side: a row per metric, deltas against the first,
/// the best in each row marked. Amounts in different currencies are never set against
/// each other: when the costs' currencies differ, the money rows carry no values,
/// deltas or best (their text cells are empty, for the caller to fill per column).
pub fn compare(evals: &[&Evaluation]) -> Vec<MetricRow> {
    let numeric = |key, label, unit, better, f: &dyn Fn(&Evaluation) -> Option<f64>| {
        let values: Vec<Option<f64>> = evals.iter().map(|e| f(e)).collect();
        numeric_row(key, label, unit, better, values)
    };
    let mut rows = vec![
        numeric("throughput", "Throughput", "MiB/s", Better::Higher, &|e| {
            Some(e.throughput_mibps)
        }),
        numeric("iops", "IOPS", "IOPS", Better::Higher, &|e| Some(e.iops)),
        numeric("latency", "Latency per IO", "ms", Better::Lower, &|e| {
            Some(e.latency_ms)
        }),
    ];
    let binding: Vec<String> = evals
        .iter()
        .map(|e| {
            e.limits
                .iter()
                .find(|l| l.id == e.binding)
                .map_or_else(|| e.binding.to_owned(), |l| l.label.name.to_owned())
        })
        .collect();
    rows.push(MetricRow {
        key: "binding",
        label: "Binding limit",
        unit: "",
        better: Better::Neither,
        values: vec![None; evals.len()],
        text: binding,
        deltas: vec![None; evals.len()],
        best: vec![false; evals.len()],
    });
    rows.push(numeric(
        "connections",
        "Connections",
        "TCP connections",
        Better::Neither,
        &|e| Some(e.flows.connections as f64),
    ));
    let currency = evals.first().map_or("USD", |e| e.cost.currency);
    let mixed = evals.iter().any(|e| e.cost.currency != currency);
    rows.push(numeric(
        "monthly_usd",
        "Monthly cost",
        if mixed { "" } else { currency },
        Better::Lower,
        &|e| e.cost.monthly,
    ));
    rows.push(numeric(
        "usd_per_mibps",
        "Cost per MiB/s per month",
        if mixed { "" } else { currency },
        Better::Lower,
        &|e| e.cost.per_mibps,
    ));
    if mixed {
        for r in rows.iter_mut().filter(|r| MONEY_ROWS.contains(&r.key)) {
            r.values = vec![None; evals.len()];
            r.text = vec![String::new(); evals.len()];
            r.deltas = vec![None; evals.len()];
            r.best = vec![false; evals.len()];
            r.better = Better::Neither;
        }
    }
    rows
}

pub(super) fn numeric_row(
    key: &'static str,
    label: &'static str,
    unit: &'static str,
    better: Better,
    values: Vec<Option<f64>>,
) -> MetricRow {
    let first = values.first().copied().flatten();
    let deltas = values
        .iter()
        .map(|v| match (v, first) {
            (Some(v), Some(f)) if v.is_finite() && f.is_finite() => {
                let pct = (f != 0.0).then(|| (v / f - 1.0) * 100.0);
                Some((v - f, pct))
            }
            _ => None,
        })
        .collect();
    let finite: Vec<f64> = values
        .iter()
        .flatten()
        .copied()
        .filter(|v| v.is_finite())
        .collect();
    let best_value = match better {
        Better::Higher => finite.iter().copied().reduce(f64::max),
        Better::Lower => finite.iter().copied().reduce(f64::min),
        Better::Neither => None,
    };
    let all_equal = finite.windows(2).all(|w| w[0] == w[1]) && finite.len() == values.len();
    let best = values
        .iter()
        .map(|v| match (v, best_value) {
            (Some(v), Some(b)) => !all_equal && *v == b,
            _ => false,
        })
        .collect();
    MetricRow {
        key,
        label,
        unit,
        better,
        values,
        text: Vec::new(),
        deltas,
        best,
    }
}
