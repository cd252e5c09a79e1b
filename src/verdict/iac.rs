//! Code read back: what each pool it deploys reaches, its likely range and cost, the
//! throughput a manual-QoS pool leaves unassigned, the pools' cost together, the whole
//! set against a cost ceiling, and its cost against the code before a change.

use crate::engine::evaluation::Evaluation;
use crate::engine::plan::Plan;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{Level, Qos, Scenario, Service};
use crate::engine::service::anf;
use crate::format;

/// One sentence per pool, then the unassigned throughput of manual pools, then the
/// total against `max_monthly` when given (else, with several pools, their total).
pub fn statements(
    entries: &[(&Scenario, &Evaluation)],
    max_monthly: Option<f64>,
    book: &PriceBook,
) -> Vec<String> {
    let mut out = Vec::new();
    for (s, e) in entries {
        out.push(format!(
            "{}: reaches {} MiB/s, likely {} MiB/s, at {}.",
            s.name,
            format::sig(e.throughput_mibps),
            format::range(e.throughput_mibps_range),
            format::monthly(e.cost.monthly, e.cost.currency),
        ));
        if let Some(line) = unassigned(s, book) {
            out.push(line);
        }
    }
    let currency = entries.first().map_or("USD", |(_, e)| e.cost.currency);
    if let (None, Some(total), true) = (max_monthly, monthly(entries), entries.len() > 1) {
        out.push(format!(
            "The code's {} pools cost {} together.",
            entries.len(),
            format::monthly(Some(total), currency)
        ));
    }
    if let (Some(max), Some(total)) = (max_monthly, monthly(entries)) {
        out.push(if total > max {
            format!(
                "The code costs {}, over the ceiling of {}.",
                format::monthly(Some(total), currency),
                format::monthly(Some(max), currency)
            )
        } else {
            format!(
                "The code costs {}, within the ceiling of {}.",
                format::monthly(Some(total), currency),
                format::monthly(Some(max), currency)
            )
        });
    }
    out
}

/// The code's monthly cost against the baseline's (the code before the change): both
/// costs and the increase, and against `max_increase_pct` when given.
pub fn growth(
    now: Option<f64>,
    before: Option<f64>,
    max_increase_pct: Option<f64>,
    currency: &str,
) -> String {
    let (Some(now), Some(before)) = (now, before) else {
        return "The code's cost cannot be compared with the baseline's: a pool of one has no list price.".to_owned();
    };
    let change = format!(
        "The code costs {} against {} before the change: {} ({})",
        format::monthly(Some(now), currency),
        format::monthly(Some(before), currency),
        format::signed_money(now - before, currency),
        format::signed_pct(increase_pct(now, before)),
    );
    match max_increase_pct {
        Some(max) if increase_pct(now, before) > max => {
            format!(
                "{change}, over the allowed increase of {}.",
                format::pct(max, 1)
            )
        }
        Some(max) => format!(
            "{change}, within the allowed increase of {}.",
            format::pct(max, 1)
        ),
        None => format!("{change}."),
    }
}

/// How much `now` is above `before`, %: unlimited from nothing to something.
pub fn increase_pct(now: f64, before: f64) -> f64 {
    if before > 0.0 {
        (now - before) / before * 100.0
    } else if now > 0.0 {
        f64::INFINITY
    } else {
        0.0
    }
}

/// The monthly cost of every pool together; `None` when one has no price.
pub fn monthly(entries: &[(&Scenario, &Evaluation)]) -> Option<f64> {
    entries.iter().map(|(_, e)| e.cost.monthly).sum()
}

/// A manual-QoS pool whose volumes are assigned less than its budget: the volume
/// given the least and what the pool could give.
fn unassigned(s: &Scenario, book: &PriceBook) -> Option<String> {
    let st = &s.storage;
    if st.service != Service::Anf || st.qos != Qos::Manual || st.level == Level::Flexible {
        return None;
    }
    let plan = Plan::resolve_in(s, book).ok()?;
    let budget = anf::pool_budget_mibps(st.level, plan.pool_tib);
    let assigned: f64 = plan
        .volumes
        .iter()
        .map(|g| f64::from(g.count) * anf::volume_qos_mibps(&plan, g))
        .sum();
    let least = plan
        .volumes
        .iter()
        .map(|g| anf::volume_qos_mibps(&plan, g))
        .fold(f64::INFINITY, f64::min);
    (budget - assigned > budget * 0.01).then(|| {
        format!(
            "{}: the volumes are assigned {} of the pool's {} MiB/s, {} MiB/s unassigned; the least-served volume gets {} MiB/s and could be given {} MiB/s.",
            s.name,
            format::sig(assigned),
            format::sig(budget),
            format::sig(budget - assigned),
            format::sig(least),
            format::sig(least + budget - assigned),
        )
    })
}
