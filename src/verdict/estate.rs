//! An estate plan's conclusions: how many pools within the account's limit, what the
//! headline totals cover and what they leave out, how often the estate is re-planned
//! and resized, and what the pools save against the simpler plans.

use super::SetVerdict;
use super::words::plural;
use crate::estate::{EstatePlan, EstateRequest, EventKind};
use crate::format::{money, share as pct};
use serde::Serialize;

/// An estate plan with its verdict (the answer of `POST /api/v1/estate/optimize`).
#[derive(Debug, Clone, Serialize)]
pub struct JudgedEstate {
    #[serde(flatten)]
    pub plan: EstatePlan,
    pub verdict: SetVerdict,
}

/// `plan` (planned from `req`) with its verdict.
pub fn judge(plan: EstatePlan, req: &EstateRequest) -> JudgedEstate {
    let verdict = verdict(&plan, req);
    JudgedEstate { plan, verdict }
}

/// "a, b and c".
fn join(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// ", excluding ..." for what the totals leave out, each named; empty when nothing.
fn excluding(plan: &EstatePlan) -> String {
    let names = |reason: &str| -> Vec<&str> {
        plan.excluded
            .iter()
            .filter(|x| x.reason == reason)
            .map(|x| x.name.as_str())
            .collect()
    };
    let mut left_out = Vec::new();
    for (reason, one, many) in [
        (
            "no_list_price",
            "workload with no list price",
            "workloads with no list price",
        ),
        (
            "unreachable",
            "workload its clients cannot reach",
            "workloads their clients cannot reach",
        ),
        (
            "no_pool",
            "workload no allowed pool holds",
            "workloads no allowed pool holds",
        ),
    ] {
        let names = names(reason);
        if !names.is_empty() {
            left_out.push(format!(
                "{} ({})",
                plural(names.len() as u64, one, many),
                join(&names)
            ));
        }
    }
    for x in plan.excluded.iter().filter(|x| x.reason == "no_host_price") {
        left_out.push(format!("the AVS hosts of {} ({})", x.name, x.detail));
    }
    if left_out.is_empty() {
        String::new()
    } else {
        format!(
            ", excluding {}",
            join(&left_out.iter().map(String::as_str).collect::<Vec<_>>())
        )
    }
}

/// Whether every workload meets its targets as placed, and that those without targets
/// keep what their scenarios achieve as entered.
fn targets(plan: &EstatePlan) -> String {
    let unmet = plan.assignments.iter().filter(|a| !a.targets_met).count();
    if unmet > 0 {
        return format!(
            "{} targets as placed: see the allocation table.",
            plural(unmet as u64, "workload misses its", "workloads miss their")
        );
    }
    let kept: Vec<&str> = plan
        .assignments
        .iter()
        .filter(|a| a.entered_mibps.is_some())
        .map(|a| a.name.as_str())
        .collect();
    match kept.len() {
        0 => "Every workload meets its targets as placed.".to_owned(),
        1 => format!(
            "Every workload meets its targets as placed; {}, without targets, keeps at least what its scenario achieves as entered.",
            kept[0]
        ),
        _ => format!(
            "Every workload meets its targets as placed; {}, without targets, keep at least what their scenarios achieve as entered.",
            join(&kept)
        ),
    }
}

/// The verdict on `plan`, planned from `req`.
pub fn verdict(plan: &EstatePlan, req: &EstateRequest) -> SetVerdict {
    let c = |v: f64| money(v, plan.currency);
    let pooled: usize = plan.pools.iter().map(|p| p.workloads.len()).sum();
    let mut statements = Vec::new();
    let pools = plan.pools.len();
    statements.push(if pools as u32 > plan.max_pools {
        format!(
            "{} for {}: more than the account's limit of {}, because the workloads cannot share fewer; ask for a higher capacity-pool limit or split the estate over accounts.",
            plural(pools as u64, "capacity pool", "capacity pools"),
            plural(pooled as u64, "ANF workload", "ANF workloads"),
            plan.max_pools
        )
    } else {
        format!(
            "{} for {}, within the account's limit of {}.",
            plural(pools as u64, "capacity pool", "capacity pools"),
            plural(pooled as u64, "ANF workload", "ANF workloads"),
            plan.max_pools
        )
    });
    let excluding = excluding(plan);
    statements.push(format!(
        "Cost: {}/month now and {} over {} year{}{excluding}.",
        c(plan.monthly),
        c(plan.total),
        req.years,
        if req.years == 1 { "" } else { "s" }
    ));
    let moves = plan
        .events
        .iter()
        .filter(|e| e.kind == EventKind::LevelChange)
        .count();
    let replans: std::collections::BTreeSet<u32> = plan
        .events
        .iter()
        .filter(|e| e.kind == EventKind::LevelChange)
        .map(|e| e.month)
        .collect();
    let threshold = c(req.migration_threshold_usd_month);
    statements.push(if replans.is_empty() {
        format!(
            "No re-plan: no other level or grouping saves more than {threshold}/month over the timeline."
        )
    } else {
        format!(
            "Re-planned {} ({} in all), each time to save more than {threshold}/month (or because a pool no longer holds its workloads), and no workload moves again within {} of its last move.",
            plural(replans.len() as u64, "time", "times"),
            plural(moves as u64, "move", "moves"),
            plural(u64::from(req.min_dwell_months), "month", "months")
        )
    });
    statements.push(targets(plan));
    let resizes = plan
        .events
        .iter()
        .filter(|e| e.kind == EventKind::PoolGrows)
        .count();
    statements.push(format!(
        "Pools are resized every {}, each time for the demand at the end of the period ({} over the timeline).",
        plural(u64::from(req.resize_every_months), "month", "months"),
        plural(resizes as u64, "resize", "resizes")
    ));
    for b in &plan.baselines {
        if let (Some(m), Some(save)) = (b.monthly, b.saving_pct) {
            statements.push(if save > 0.05 {
                format!(
                    "Against {} ({}/month), the pools save {}.",
                    b.description,
                    c(m),
                    pct(save)
                )
            } else {
                format!(
                    "{} ({}/month) costs the same as the pools.",
                    super::words::capitalised(b.description),
                    c(m)
                )
            });
        }
    }
    SetVerdict {
        best: None,
        statements,
        sensitivity: Vec::new(),
    }
}
