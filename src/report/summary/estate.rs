//! An estate's conclusions in words: the executive summary (cost, pools, what the plan
//! saves, where it is heading), the timeline's caption and the resize schedule's events
//! in plain words.

use crate::estate::{EstatePlan, EventKind, Method};
use crate::format::{count, money, num};
use crate::report::summary::cost::region_name;

/// An event of the resize schedule as a reader names it.
pub fn event_name(kind: EventKind) -> &'static str {
    match kind {
        EventKind::PoolGrows => "Pool grows",
        EventKind::LargeVolume => "Moves to a large volume",
        EventKind::LevelChange => "Service level changes",
        EventKind::Unmet => "Targets no longer met",
        EventKind::WhatIf => "What-if change",
    }
}

/// How the pools were found, in words.
pub fn method(p: &EstatePlan) -> String {
    match p.method {
        Method::Exact => "exact: every grouping of the workloads into pools was covered".to_owned(),
        Method::Heuristic => format!(
            "a heuristic search, at most {}% above the lower bound of {} a month",
            num(p.gap_pct, 1),
            money(p.lower_bound, p.currency)
        ),
    }
}

/// The executive summary's sentences.
pub fn sentences(p: &EstatePlan) -> Vec<String> {
    let months = p.timeline.len();
    let mut out = vec![format!(
        "{} workload{} in {}: {} pool{} for the Azure NetApp Files workloads; the first month costs {}, and {} over {} months.",
        count(p.assignments.len() as u64),
        if p.assignments.len() == 1 { "" } else { "s" },
        region_name(&p.region),
        count(p.pools.len() as u64),
        if p.pools.len() == 1 { "" } else { "s" },
        money(p.monthly, p.currency),
        money(p.total, p.currency),
        count(months as u64)
    )];
    let savings: Vec<String> = p
        .baselines
        .iter()
        .filter_map(|b| match (b.monthly, b.saving_pct) {
            (Some(m), Some(s)) => Some(format!(
                "{}% against {} ({} a month)",
                num(s, 1),
                b.description,
                money(m, p.currency)
            )),
            _ => None,
        })
        .collect();
    if !savings.is_empty() {
        out.push(format!("The plan saves {}.", savings.join("; ")));
    }
    let unmet = p.assignments.iter().filter(|a| !a.targets_met).count();
    out.push(if unmet == 0 {
        "Every workload meets its targets as placed.".to_owned()
    } else {
        format!(
            "{} workload{} miss{} {} targets as placed: see the allocation table.",
            count(unmet as u64),
            if unmet == 1 { "" } else { "s" },
            if unmet == 1 { "es" } else { "" },
            if unmet == 1 { "its" } else { "their" }
        )
    });
    if let (Some(first), Some(last)) = (p.timeline.first(), p.timeline.last()) {
        let events = p.events.len();
        out.push(format!(
            "Over the timeline the pools grow from {} TiB to {} TiB and the cost from {} to {} a month; the resize schedule has {} event{}.",
            num(first.pool_tib, 1),
            num(last.pool_tib, 1),
            money(first.monthly, p.currency),
            money(last.monthly, p.currency),
            count(events as u64),
            if events == 1 { "" } else { "s" }
        ));
    }
    out.push(format!("Pools were found by {}.", method(p)));
    out
}

/// The timeline chart's caption.
pub fn timeline_caption(p: &EstatePlan) -> String {
    match (p.timeline.first(), p.timeline.last()) {
        (Some(first), Some(last)) => format!(
            "The cost a month goes from {} in month {} to {} in month {}; dots mark the {} event{} of the resize schedule.",
            money(first.monthly, p.currency),
            first.month,
            money(last.monthly, p.currency),
            last.month,
            count(p.events.len() as u64),
            if p.events.len() == 1 { "" } else { "s" }
        ),
        _ => "The timeline has no months.".to_owned(),
    }
}
