//! `GET /whatif`: a service level raised for part of a month (the fiscal-year-end
//! case): performance and cost against staying at the base level, the month's cost
//! prorated as `days / 30.4` at the new level.

use super::layouts::{
    Opt, base_options, base_scenario, field_error, level_options, page_status, parse_level,
    tool_errors,
};
use super::{PageError, render};
use crate::engine::scenario::Level;
use crate::engine::sweep::{self, DAYS_PER_MONTH, WhatIf};
use crate::engine::{FieldError, Scenario};
use crate::format::Num;
use crate::report::charts::Chart;
use crate::verdict::mechanism::binding_name;
use crate::web::auth::CurrentUser;
use crate::web::charts::ChartBlock;
use crate::web::render_pool::Turn;
use crate::web::state::AppState;
use askama::Template;
use axum::extract::{Query, State};
use axum::response::Response;
use serde::Deserialize;

/// Days at the higher level when none are given.
pub const DEFAULT_DAYS: f64 = 10.0;

/// The form's values, as typed.
#[derive(Debug, Default, Deserialize)]
pub struct WhatIfQuery {
    base: Option<String>,
    /// The level for the rest of the month (default: the scenario's own).
    from: Option<String>,
    level: Option<String>,
    days: Option<String>,
}

/// The next level up that a volume can be raised to without moving data
/// (Flexible and Flex are other billing models, not steps up).
fn next_level(s: &Scenario) -> Level {
    let steps: Vec<Level> = Level::of(s.storage.service)
        .iter()
        .copied()
        .filter(|l| !matches!(l, Level::Flexible | Level::Flex))
        .collect();
    steps
        .iter()
        .position(|l| *l == s.storage.level)
        .and_then(|i| steps.get(i + 1))
        .copied()
        .unwrap_or(s.storage.level)
}

struct Line {
    label: &'static str,
    base: String,
    changed: String,
    delta: String,
}

struct Outcome {
    base_level: String,
    new_level: String,
    lines: Vec<Line>,
    month: String,
    extra: String,
    summary: String,
    chart: Option<ChartBlock>,
}

#[derive(Template)]
#[template(path = "pages/whatif.html")]
struct WhatIfPage {
    bases: Vec<Opt>,
    from_levels: Vec<Opt>,
    levels: Vec<Opt>,
    days: String,
    errors: Vec<FieldError>,
    result: Option<Outcome>,
}

impl WhatIfPage {
    fn error(&self, field: &str) -> Option<&str> {
        field_error(&self.errors, field)
    }
}

use crate::format::{signed, signed_money};

fn pct(new: f64, old: f64) -> String {
    if old > 0.0 {
        let p = (new / old - 1.0) * 100.0;
        format!(" ({}{}%)", if p > 0.0 { "+" } else { "" }, Num(p, 1))
    } else {
        String::new()
    }
}

fn money_delta(new: Option<f64>, old: Option<f64>, currency: &str) -> String {
    match (new, old) {
        (Some(n), Some(o)) => format!("{}{}", signed_money(n - o, currency), pct(n, o)),
        _ => "n/a".to_owned(),
    }
}

fn outcome(s: &Scenario, w: &WhatIf) -> Outcome {
    let service = s.storage.service;
    let base_level = s.storage.level.display(service).to_owned();
    let new_level = w.level.display(service).to_owned();
    let (b, c) = (&w.base, &w.changed);
    let currency = b.cost.currency;
    let money = |v: Option<f64>| crate::format::money_or(v, currency);
    let lines = vec![
        Line {
            label: "Throughput (MiB/s)",
            base: Num(b.throughput_mibps, 0).to_string(),
            changed: Num(c.throughput_mibps, 0).to_string(),
            delta: format!(
                "{}{}",
                signed(c.throughput_mibps - b.throughput_mibps, 0),
                pct(c.throughput_mibps, b.throughput_mibps)
            ),
        },
        Line {
            label: "IOPS",
            base: Num(b.iops, 0).to_string(),
            changed: Num(c.iops, 0).to_string(),
            delta: format!("{}{}", signed(c.iops - b.iops, 0), pct(c.iops, b.iops)),
        },
        Line {
            label: "Bound by",
            base: binding_name(b),
            changed: binding_name(c),
            delta: String::new(),
        },
        Line {
            label: "Monthly cost, whole month at this level",
            base: money(b.cost.monthly),
            changed: money(c.cost.monthly),
            delta: money_delta(c.cost.monthly, b.cost.monthly, currency),
        },
    ];
    let days = Num(w.days, 1);
    let month = money(w.month);
    let extra = match w.extra {
        Some(x) => format!(
            "{}{}",
            if x >= 0.0 { "+" } else { "-" },
            money(Some(x.abs()))
        ),
        None => "n/a".to_owned(),
    };
    let summary = format!(
        "{new_level} for {days} of {} days gives {} MiB/s instead of {} MiB/s; the month costs {month} instead of {} ({extra}). {} changes service levels without disruption, and billing follows the level for the time it is set.",
        Num(DAYS_PER_MONTH, 1),
        Num(c.throughput_mibps, 0),
        Num(b.throughput_mibps, 0),
        money(b.cost.monthly),
        service.display()
    );
    let names = vec![base_level.clone(), format!("{new_level} ({days} days)")];
    // The second bar is the month with the busy days at the new level, as its label says.
    let mut busy = c.clone();
    busy.cost.monthly = w.month;
    let rows = sweep::compare(&[b, &busy]);
    let chart = match ChartBlock::new("chart-whatif", &Chart::compare(&names, &rows), Vec::new()) {
        Ok(block) => Some(block),
        Err(e) => {
            tracing::error!(error = %e, "what-if chart failed");
            None
        }
    };
    Outcome {
        base_level,
        new_level,
        lines,
        month,
        extra,
        summary,
        chart,
    }
}

/// `GET /whatif`.
pub async fn page(
    State(st): State<AppState>,
    user: CurrentUser,
    Query(q): Query<WhatIfQuery>,
) -> Result<Response, PageError> {
    let (mut s, selected) = base_scenario(&st, &user, q.base.as_deref()).await?;
    let mut errors = Vec::new();
    match q.from.as_deref().filter(|t| !t.trim().is_empty()) {
        Some(raw) => match parse_level(&s, raw) {
            Ok(l) => s.storage.set_level(l),
            Err(e) => errors.push(FieldError::new("from", e.message)),
        },
        // The fiscal-year-end example: Premium all month, Ultra for the busy days.
        None if selected == "example" => s.storage.level = Level::Premium,
        None => {}
    }
    let level = match q.level.as_deref().filter(|t| !t.trim().is_empty()) {
        Some(raw) => parse_level(&s, raw).unwrap_or_else(|e| {
            errors.push(e);
            next_level(&s)
        }),
        None => next_level(&s),
    };
    let days_text = q
        .days
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map_or_else(|| Num(DEFAULT_DAYS, 1).to_string(), str::to_owned);
    let days = days_text.parse::<f64>().unwrap_or_else(|_| {
        errors.push(FieldError::new(
            "days",
            format!("`{days_text}` is not a number of days; give e.g. 10"),
        ));
        DEFAULT_DAYS
    });
    let mut result = None;
    if errors.is_empty() {
        let scenario = s.clone();
        let prices = st.book();
        let work = st
            .renders
            .run("what-if page", Turn::Answer, move || {
                sweep::what_if(&scenario, level, days, &prices).map(|w| outcome(&scenario, &w))
            })
            .await?;
        match work {
            Ok(o) => result = Some(o),
            Err(e) => errors.extend(tool_errors(e, &["days", "level"])),
        }
    }
    super::layouts::in_prose(&mut errors);
    let status = page_status(&errors);
    let page = WhatIfPage {
        bases: base_options(&st, &user, &selected).await?,
        from_levels: level_options(&s, s.storage.level),
        levels: level_options(&s, level),
        days: days_text,
        errors,
        result,
    };
    render(status, &page)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::pages::layouts::EXAMPLE;
    use crate::web::scenario_templates;

    #[test]
    fn next_level_steps_up_and_stops_at_the_top() {
        let mut s = scenario_templates::find(EXAMPLE).unwrap().scenario();
        s.storage.level = Level::Premium;
        assert_eq!(next_level(&s), Level::Ultra);
        s.storage.level = Level::Ultra;
        assert_eq!(next_level(&s), Level::Ultra);
    }

    #[test]
    fn the_chart_prices_the_busy_days_not_the_whole_month() {
        let mut s = scenario_templates::find(EXAMPLE).unwrap().scenario();
        s.storage.level = Level::Premium;
        let w = sweep::what_if(&s, Level::Ultra, 10.0, crate::engine::pricing::book()).unwrap();
        let (month, whole) = (w.month.unwrap(), w.changed.cost.monthly_usd.unwrap());
        assert!(whole > month * 1.05, "the example's Ultra month costs more");
        let chart = outcome(&s, &w).chart.expect("chart");
        let cost = chart
            .table
            .rows
            .iter()
            .find(|r| r[0].starts_with("Monthly cost"))
            .expect("cost row");
        assert_eq!(chart.table.headers[2], "Ultra (10 days)");
        let shown: f64 = cost[2]
            .split(' ')
            .next()
            .unwrap()
            .replace(',', "")
            .parse()
            .unwrap();
        assert!((shown - month).abs() <= 0.5, "{} against {month}", cost[2]);
    }

    #[test]
    fn deltas_have_signs() {
        assert_eq!(signed(-1500.0, 0), "-1,500");
        assert_eq!(
            money_delta(Some(150.0), Some(100.0), "USD"),
            "+$50.00 (+50%)"
        );
        assert_eq!(money_delta(None, Some(1.0), "EUR"), "n/a");
    }
}
