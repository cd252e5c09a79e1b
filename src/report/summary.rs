//! The executive summary: the recommendation (level, layout, cost), whether the targets
//! are met, and what binds, in a few sentences a reader can act on.

use super::model::{
    Binding, LimitRow, SizingRow, TargetLine, exact, money, sig, storage_name, tib,
};
use crate::engine::trace::Num;
use crate::engine::{Evaluation, Scenario};

/// Limits within this share of each other tie (percent).
pub const TIE_PCT: f64 = 0.05;

/// How much higher `next` sits than `binding` at the scenario's mix, in percent.
pub fn above(binding: &LimitRow, next: &LimitRow) -> f64 {
    ((1.0 + next.headroom_pct / 100.0) / (1.0 + binding.headroom_pct / 100.0) - 1.0) * 100.0
}

/// The volumes as laid out: "4 x 20 TiB volumes".
pub fn layout(s: &Scenario) -> String {
    let groups: Vec<String> = s
        .storage
        .volumes
        .iter()
        .map(|g| format!("{} x {} TiB", g.count, tib(g.quota_tib)))
        .collect();
    let noun = if s.clients.avs.is_some() {
        "datastores"
    } else if s.storage.service == crate::engine::scenario::Service::AzureFiles {
        "shares"
    } else {
        "volumes"
    };
    format!("{} {noun}", groups.join(" + "))
}

/// The summary's sentences, in reading order.
pub fn sentences(
    s: &Scenario,
    e: &Evaluation,
    sizing: &[SizingRow],
    limits: &[LimitRow],
    binding: &Binding,
    targets: Option<&TargetLine>,
) -> Vec<String> {
    let currency = e.cost.currency;
    let here = storage_name(s.storage.service, s.storage.level);
    let cost = |v: Option<f64>| match v {
        Some(_) => format!("{} {currency} a month", money(v)),
        None => "no list price".to_owned(),
    };
    let mut out = Vec::new();
    let cheaper = sizing
        .iter()
        .find(|z| z.cheapest && z.meets && !z.current)
        .filter(|z| match (z.monthly_usd, e.cost.monthly_usd) {
            (Some(a), Some(b)) => a < b - 0.005,
            _ => false,
        });
    let met = targets.is_none_or(|t| t.met);
    match cheaper {
        Some(z) => out.push(format!(
            "Recommendation: {} at {} TiB, {}, the cheapest level that meets the targets; as entered, {here} with {} costs {}.",
            z.name,
            tib(z.quota_tib),
            cost(z.monthly_usd),
            layout(s),
            cost(e.cost.monthly_usd)
        )),
        None if met => out.push(format!(
            "Recommendation: {here} with {}, {}.",
            layout(s),
            cost(e.cost.monthly_usd)
        )),
        None => out.push(format!(
            "As entered, {here} with {} ({}) does not meet the targets; no level of the sizing table meets them at this layout.",
            layout(s),
            cost(e.cost.monthly_usd)
        )),
    }
    out.push(format!(
        "It achieves {} MiB/s ({} IOPS at {} KiB).",
        sig(e.throughput_mibps),
        sig(e.iops),
        Num(s.workload.io_size_kib, 2)
    ));
    if let Some(t) = targets {
        out.push(t.text.clone());
    }
    let b = limits.iter().find(|l| l.binding);
    let next = limits.iter().find(|l| !l.binding);
    let what = match (b, next) {
        (Some(b), Some(n)) if above(b, n) < TIE_PCT => format!(
            "What binds: {} and {} tie at {} MiB/s; both must rise to gain anything.",
            b.label,
            n.label,
            exact(b.mibps)
        ),
        (Some(b), Some(n)) => format!(
            "What binds: {} at {} MiB/s; the next limit, {}, allows {}% more.",
            b.label,
            exact(b.mibps),
            n.label,
            Num(above(b, n), 1)
        ),
        _ => format!(
            "What binds: {} at {} MiB/s.",
            binding.label,
            exact(binding.mibps)
        ),
    };
    out.push(what);
    out
}
