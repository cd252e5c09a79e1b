//! An estate's words around its verdict: the timeline and how the pools were found,
//! the timeline's caption and the resize schedule's events in plain words. What the
//! plan costs, saves and leaves out is the verdict's ([`crate::verdict::estate`]).

use crate::estate::{EstatePlan, EventKind, Method};
use crate::format::{count, money, num};

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

/// What the executive summary adds to the verdict's statements: facts, not
/// conclusions: how the pools and the cost move over the timeline, and how the pools
/// were found.
pub fn facts(p: &EstatePlan) -> Vec<String> {
    let mut out = Vec::new();
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
