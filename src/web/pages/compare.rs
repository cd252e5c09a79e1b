//! `GET /compare`: 2 to 6 saved or shared scenarios side by side.
//!
//! Scenarios come as `?id=3&id=7` (saved) and `?s=<share>` or pasted share links
//! (`links`, one per line). A row per metric, deltas against the first, the best
//! in each row marked, and a grouped bar chart; the arithmetic is
//! [`crate::engine::sweep::compare`].

use super::compare_inputs::{self, InputRowView, vendor_name};
use super::table_file::{Table, TableFile, TableFormat};
use super::{PageError, render};
use crate::engine::pricing::PriceBook;
use crate::engine::sweep::{self, Better, MetricRow};
use crate::engine::{self, Evaluation, Scenario};
use crate::format::{self, Num, exact, signed};
use crate::report::charts::Chart;
use crate::store;
use crate::verdict;
use crate::web::access;
use crate::web::auth::CurrentUser;
use crate::web::charts::ChartBlock;
use crate::web::render_pool::Turn;
use crate::web::state::AppState;
use askama::Template;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

/// Fewest and most scenarios on the page.
pub const MIN: usize = 2;
pub const MAX: usize = 6;

/// Splits a query string into decoded (key, value) pairs; repeated keys are kept.
pub(super) fn query_pairs(raw: Option<&str>) -> Vec<(String, String)> {
    raw.unwrap_or("")
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// Percent-decoding with `+` as space; invalid escapes are kept as they are.
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `s` value of a pasted share link (or the bare value itself).
pub(super) fn share_value(line: &str) -> Option<&str> {
    let line = line.trim();
    if line.is_empty() {
        return None;
    }
    match line.find("s=") {
        Some(i) if i == 0 || matches!(line.as_bytes()[i - 1], b'?' | b'&') => {
            let rest = &line[i + 2..];
            Some(rest.split(['&', '#', ' ']).next().unwrap_or(rest))
        }
        _ => Some(line),
    }
}

/// One saved scenario offered as a checkbox.
struct Choice {
    id: i64,
    name: String,
    detail: String,
    checked: bool,
}

/// One cell: the value, its delta against the first, whether it is the best.
struct Cell {
    value: String,
    delta: String,
    best: bool,
}

struct RowView {
    label: &'static str,
    unit: &'static str,
    better: &'static str,
    cells: Vec<Cell>,
}

struct Compared {
    names: Vec<String>,
    /// The inputs side by side, the ones that differ marked.
    inputs: Vec<InputRowView>,
    /// The baseline choices: (1-based position in the query, name, chosen).
    baselines: Vec<(usize, String, bool)>,
    /// Where each scenario came from: "saved #3" or "shared link".
    origins: Vec<String>,
    rows: Vec<RowView>,
    chart: Option<ChartBlock>,
    /// Report links when every scenario is saved: the first one's report URL without
    /// the extension, and the `?compare=` query naming the others.
    report: Option<(String, String)>,
    /// The verdict's statements: which is better and why, and what decides it.
    verdict: Vec<String>,
}

#[derive(Template)]
#[template(path = "pages/compare.html")]
struct ComparePage {
    saved: Vec<Choice>,
    /// The chosen saved ids, in the query's order (kept by the baseline form).
    ids: Vec<i64>,
    links: String,
    /// The server's own address, for the example link.
    own_base: String,
    problem: Option<String>,
    result: Option<Compared>,
    /// The page's query (`?id=...`), for the downloads of what it shows.
    query: String,
}

/// Formats a metric's value the way its row shows it: money in its currency, latency
/// in milliseconds.
fn format_value(key: &str, v: f64, currency: &str) -> String {
    match key {
        k if sweep::MONEY_ROWS.contains(&k) => format::money(v, currency),
        "latency" => format::ms(v),
        _ => exact(v),
    }
}

/// The rows of a comparison, each column's cost, the chart and the verdict's statements
/// (with what decides it).
type Comparison = (
    Vec<MetricRow>,
    Vec<ColumnCost>,
    Option<ChartBlock>,
    Vec<String>,
);

/// The money each column's cost states, in its own currency.
struct ColumnCost {
    monthly: Option<f64>,
    per_mibps: Option<f64>,
    currency: &'static str,
}

fn format_delta(key: &str, abs: f64, pct: Option<f64>, currency: &str) -> String {
    let sign: String = signed(abs, 0).chars().take(1).collect();
    let magnitude = format_value(key, abs.abs(), currency);
    match pct {
        Some(p) => {
            let psign = if p > 0.0 { "+" } else { "" };
            format!("{sign}{magnitude} ({psign}{}%)", Num(p, 1))
        }
        None => format!("{sign}{magnitude}"),
    }
}

/// The table rows of a comparison, formatted; `costs` has each column's cost (money
/// rows in different currencies carry no values: each cell states its own).
fn rows_view(rows: &[MetricRow], costs: &[ColumnCost]) -> Vec<RowView> {
    rows.iter()
        .map(|r| {
            let n = r.values.len().max(r.text.len());
            let money = sweep::MONEY_ROWS.contains(&r.key);
            let cells = (0..n)
                .map(|j| {
                    let cost = costs.get(j);
                    let currency = cost.map_or("USD", |c| c.currency);
                    let value = match (r.values.get(j).copied().flatten(), r.text.get(j)) {
                        (Some(v), _) => format_value(r.key, v, currency),
                        (None, _) if money => {
                            let amount = cost.and_then(|c| {
                                if r.key == "monthly_usd" {
                                    c.monthly
                                } else {
                                    c.per_mibps
                                }
                            });
                            format::money_or(amount, currency)
                        }
                        (None, Some(t)) => t.clone(),
                        (None, None) => "n/a".to_owned(),
                    };
                    let delta = match r.deltas.get(j).copied().flatten() {
                        Some((abs, pct)) if j > 0 => format_delta(r.key, abs, pct, currency),
                        _ => String::new(),
                    };
                    Cell {
                        value,
                        delta,
                        best: r.best.get(j).copied().unwrap_or(false),
                    }
                })
                .collect();
            RowView {
                label: r.label,
                unit: r.unit,
                better: match r.better {
                    Better::Higher => "higher is better",
                    Better::Lower => "lower is better",
                    Better::Neither => "",
                },
                cells,
            }
        })
        .collect()
}

/// Names made distinct so the legend and the columns can be told apart.
fn distinct_names(scenarios: &[Scenario]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in scenarios {
        let base = s.name.trim();
        let base = if base.is_empty() {
            "Untitled scenario"
        } else {
            base
        };
        let mut name = base.to_owned();
        let mut k = 2;
        while out.contains(&name) {
            name = format!("{base} ({k})");
            k += 1;
        }
        out.push(name);
    }
    out
}

/// Evaluates the scenarios and builds the comparison; the error names the scenario.
fn compare_all(
    scenarios: &[Scenario],
    names: &[String],
    prices: &PriceBook,
) -> Result<Comparison, String> {
    let evals: Vec<Evaluation> = scenarios
        .iter()
        .zip(names)
        .map(|(s, n)| {
            engine::evaluate_in(s, prices).map_err(|e| format!("“{n}” cannot be evaluated: {e}"))
        })
        .collect::<Result<_, _>>()?;
    let quoted: Vec<String> = names.iter().map(|n| format!("“{n}”")).collect();
    let entries: Vec<verdict::compare::Entry> = scenarios
        .iter()
        .zip(&evals)
        .zip(&quoted)
        .map(|((scenario, evaluation), name)| verdict::compare::Entry {
            name,
            scenario,
            evaluation,
        })
        .collect();
    let together = verdict::compare::compare(&entries, prices);
    let statements = together
        .statements
        .into_iter()
        .chain(together.sensitivity.into_iter().map(|s| s.statement))
        .collect();
    let refs: Vec<&Evaluation> = evals.iter().collect();
    let rows = sweep::compare(&refs);
    let costs = evals
        .iter()
        .map(|e| ColumnCost {
            monthly: e.cost.monthly,
            per_mibps: e.cost.per_mibps,
            currency: e.cost.currency,
        })
        .collect();
    let chart = Chart::compare(names, &rows);
    let block = match ChartBlock::new("chart-compare", &chart, Vec::new()) {
        Ok(b) => Some(b),
        Err(e) => {
            tracing::error!(error = %e, "compare chart failed");
            None
        }
    };
    Ok((rows, costs, block, statements))
}

/// `GET /compare`.
pub async fn page(
    State(st): State<AppState>,
    user: CurrentUser,
    RawQuery(raw): RawQuery,
) -> Result<Response, PageError> {
    let (status, page) = build(&st, &user, raw.as_deref()).await?;
    render(status, &page)
}

/// `GET /compare.csv`: the inputs and results the page shows, as CSV.
pub async fn csv(
    State(st): State<AppState>,
    user: CurrentUser,
    RawQuery(raw): RawQuery,
) -> Result<Response, PageError> {
    download(&st, &user, raw.as_deref(), TableFormat::Csv).await
}

/// `GET /compare.md`: the inputs and results the page shows, as Markdown.
pub async fn markdown(
    State(st): State<AppState>,
    user: CurrentUser,
    RawQuery(raw): RawQuery,
) -> Result<Response, PageError> {
    download(&st, &user, raw.as_deref(), TableFormat::Markdown).await
}

async fn download(
    st: &AppState,
    user: &CurrentUser,
    raw: Option<&str>,
    format: TableFormat,
) -> Result<Response, PageError> {
    let (_, page) = build(st, user, raw).await?;
    let Some(r) = page.result else {
        return Err(PageError::Status {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: page
                .problem
                .unwrap_or_else(|| "Choose 2 or more scenarios to compare.".to_owned()),
        });
    };
    let headers = |first: &str| {
        std::iter::once(first.to_owned())
            .chain(r.names.iter().cloned())
            .collect::<Vec<_>>()
    };
    let inputs = Table {
        caption: "Inputs (the first column is the baseline)".to_owned(),
        headers: headers("Input"),
        rows: r
            .inputs
            .iter()
            .map(|row| {
                std::iter::once(format!("{}: {}", row.section, row.label))
                    .chain(row.values.iter().map(|(v, _)| v.clone()))
                    .collect()
            })
            .collect(),
    };
    let results = Table {
        caption: "Results, with the change against the baseline".to_owned(),
        headers: headers("Metric"),
        rows: r
            .rows
            .iter()
            .map(|row| {
                let label = if row.unit.is_empty() {
                    row.label.to_owned()
                } else {
                    format!("{} ({})", row.label, row.unit)
                };
                std::iter::once(label)
                    .chain(row.cells.iter().map(|c| {
                        let mut t = c.value.clone();
                        if !c.delta.is_empty() {
                            t.push_str(&format!(" ({})", c.delta));
                        }
                        if c.best {
                            t.push_str(" (best)");
                        }
                        t
                    }))
                    .collect()
            })
            .collect(),
    };
    let file = TableFile {
        title: format!("Scenarios compared: {}", r.names.join(", ")),
        text: Vec::new(),
        tables: vec![inputs, results],
    };
    file.response(format, "compare")
}

/// The page for a query: the saved scenarios to choose from and the comparison.
async fn build(
    st: &AppState,
    user: &CurrentUser,
    raw: Option<&str>,
) -> Result<(StatusCode, ComparePage), PageError> {
    let pairs = query_pairs(raw);
    let ids: Vec<i64> = pairs
        .iter()
        .filter(|(k, _)| k == "id")
        .filter_map(|(_, v)| v.trim().parse::<i64>().ok())
        .collect();
    let links_text: String = pairs
        .iter()
        .filter(|(k, _)| k == "links")
        .map(|(_, v)| v.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let shared: Vec<String> = pairs
        .iter()
        .filter(|(k, _)| k == "s")
        .map(|(_, v)| v.clone())
        .chain(
            links_text
                .lines()
                .filter_map(share_value)
                .map(str::to_owned),
        )
        .collect();

    let summaries = store::list_scenarios_for(&st.db, None, access::actor(user)).await?;
    let saved: Vec<Choice> = summaries
        .iter()
        .map(|s| Choice {
            id: s.id,
            name: s.name.clone(),
            detail: vendor_name(&s.service, &s.level),
            checked: ids.contains(&s.id),
        })
        .collect();

    let mut problems: Vec<String> = Vec::new();
    let mut scenarios: Vec<Scenario> = Vec::new();
    let mut origins: Vec<String> = Vec::new();
    for id in &ids {
        match access::stored_scenario(&st.db, user, *id).await {
            Ok(stored) => {
                scenarios.push(stored.scenario);
                origins.push(format!("saved #{id}"));
            }
            Err(store::StoreError::NotFound) => {
                problems.push(format!("There is no saved scenario #{id}."))
            }
            Err(e) => return Err(e.into()),
        }
    }
    for (i, s) in shared.iter().enumerate() {
        match crate::web::share::decode(Some(s)) {
            Ok(sc) => {
                scenarios.push(sc);
                origins.push("shared link".to_owned());
            }
            Err(e) => problems.push(format!("Shared link {}: {e}", i + 1)),
        }
    }

    // The baseline (1-based, in query order) goes first: deltas are against it.
    let baseline = pairs
        .iter()
        .find(|(k, _)| k == "baseline")
        .and_then(|(_, v)| v.trim().parse::<usize>().ok())
        .filter(|b| (1..=scenarios.len()).contains(b))
        .map_or(0, |b| b - 1);
    let mut order: Vec<usize> = (0..scenarios.len()).collect();
    if baseline > 0 {
        order.remove(baseline);
        order.insert(0, baseline);
        let first = scenarios.remove(baseline);
        scenarios.insert(0, first);
        let first = origins.remove(baseline);
        origins.insert(0, first);
    }
    let report_ids: Vec<i64> = if baseline < ids.len() {
        let mut v = ids.clone();
        let first = v.remove(baseline);
        v.insert(0, first);
        v
    } else {
        ids.clone()
    };

    let asked = !pairs.is_empty();
    let mut result = None;
    if problems.is_empty() && asked {
        if scenarios.len() < MIN || scenarios.len() > MAX {
            problems.push(format!(
                "Choose {MIN} to {MAX} scenarios to compare; {} chosen.",
                scenarios.len()
            ));
        } else {
            let names = distinct_names(&scenarios);
            let inputs = compare_inputs::rows(&scenarios);
            let baselines = order
                .iter()
                .zip(&names)
                .enumerate()
                .map(|(j, (pos, name))| (pos + 1, name.clone(), j == 0))
                .collect();
            let work_names = names.clone();
            let prices = st.book();
            let outcome = st
                .renders
                .run("compare page", Turn::Answer, move || {
                    compare_all(&scenarios, &work_names, &prices)
                })
                .await?;
            match outcome {
                Ok((rows, costs, chart, verdict)) => {
                    let report = (shared.is_empty() && !report_ids.is_empty()).then(|| {
                        let others: Vec<String> =
                            report_ids[1..].iter().map(i64::to_string).collect();
                        (
                            format!("/scenarios/{}/report", report_ids[0]),
                            format!("?compare={}", others.join(",")),
                        )
                    });
                    result = Some(Compared {
                        names,
                        inputs,
                        baselines,
                        origins,
                        rows: rows_view(&rows, &costs),
                        chart,
                        report,
                        verdict,
                    })
                }
                Err(m) => problems.push(m),
            }
        }
    }
    let status = if problems.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    let page = ComparePage {
        saved,
        ids,
        links: links_text,
        own_base: st.own_base.clone(),
        problem: (!problems.is_empty()).then(|| problems.join(" ")),
        result,
        query: raw.map(|r| format!("?{r}")).unwrap_or_default(),
    };
    Ok((status, page))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_keeps_repeated_keys_and_decodes() {
        let p = query_pairs(Some("id=1&id=3&links=a%20b%0Ac&x=%zz+1"));
        assert_eq!(p[0], ("id".into(), "1".into()));
        assert_eq!(p[1], ("id".into(), "3".into()));
        assert_eq!(p[2], ("links".into(), "a b\nc".into()));
        assert_eq!(p[3], ("x".into(), "%zz 1".into()));
    }

    #[test]
    fn share_values_come_from_links_or_bare_values() {
        assert_eq!(share_value("http://h/plan?s=abc_-1&x=2"), Some("abc_-1"));
        assert_eq!(share_value("/plan?s=QQ"), Some("QQ"));
        assert_eq!(share_value("QQ"), Some("QQ"));
        assert_eq!(share_value("   "), None);
    }

    #[test]
    fn deltas_read_naturally() {
        assert_eq!(
            format_delta("throughput", 1234.0, Some(12.34), "USD"),
            "+1,234 (+12.3%)"
        );
        assert_eq!(
            format_delta("monthly_usd", -10.0, Some(-5.0), "USD"),
            "-$10.00 (-5%)"
        );
        assert_eq!(format_delta("iops", 0.0, Some(0.0), "USD"), "±0 (0%)");
    }
}
