//! Code read back: what each pool it deploys reaches, its likely range and cost, the
//! throughput a manual-QoS pool leaves unassigned, and the whole set against a cost
//! ceiling.

use crate::engine::evaluation::Evaluation;
use crate::engine::plan::Plan;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{Level, Qos, Scenario, Service};
use crate::engine::service::anf;
use crate::format;

/// One sentence per pool, then the unassigned throughput of manual pools, then the
/// total against `max_monthly` when given.
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
    if let (Some(max), Some(total)) = (max_monthly, monthly(entries)) {
        let currency = entries.first().map_or("USD", |(_, e)| e.cost.currency);
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
            "{}: the volumes are assigned {} of the pool's {} MiB/s; the least served gets {} MiB/s of the {} MiB/s left it could be given.",
            s.name,
            format::sig(assigned),
            format::sig(budget),
            format::sig(least),
            format::sig(least + budget - assigned),
        )
    })
}
