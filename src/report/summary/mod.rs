//! Every conclusion a report states, composed in one place: the executive summary (the
//! recommendation, the achievable rate, the targets, what binds, the comparison and the
//! layouts asked for), the target and binding sentences, the cost in words, latency in
//! words, chart captions, and the AVS plan's and the estate's summaries. Pages, charts
//! and every report format read their sentences from here and compose none of their
//! own, so a verdict computed elsewhere can replace these in one place.

pub mod avs;
mod charts;
pub mod cost;
pub mod estate;
pub mod latency;

pub use charts::{
    ceilings_caption, compare_caption, io_size_caption, latency_caption, layouts_caption,
    scaling_caption,
};

use crate::engine::evaluation::Limit;
use crate::engine::scenario::Service;
use crate::engine::sweep::{self, LayoutRow};
use crate::engine::{Evaluation, Scenario};
use crate::report::Edition;
use crate::report::format::{exact, money_or, num, sig, tib};

/// Limits within this share of each other tie (percent).
pub const TIE_PCT: f64 = 0.05;

/// Service and level as the vendor writes them, e.g. "Azure NetApp Files Ultra".
pub fn storage_name(service: Service, level: crate::engine::scenario::Level) -> String {
    format!("{} {}", service.display(), level.display(service))
}

/// How much higher `next` sits than `binding` at the scenario's mix, in percent.
pub fn above(binding: &Limit, next: &Limit) -> f64 {
    ((1.0 + next.headroom_pct / 100.0) / (1.0 + binding.headroom_pct / 100.0) - 1.0) * 100.0
}

/// The limits binding first, then by headroom: what binds, then what binds next.
pub fn ordered_limits(e: &Evaluation) -> Vec<&Limit> {
    let mut rows: Vec<&Limit> = e.limits.iter().collect();
    rows.sort_by(|a, b| {
        (b.id == e.binding)
            .cmp(&(a.id == e.binding))
            .then(a.headroom_pct.total_cmp(&b.headroom_pct))
    });
    rows
}

/// The binding limit and the next one, in the order [`ordered_limits`] gives.
fn binding_and_next(e: &Evaluation) -> (Option<&Limit>, Option<&Limit>) {
    let rows = ordered_limits(e);
    let b = rows.iter().find(|l| l.id == e.binding).copied();
    let next = rows.iter().find(|l| l.id != e.binding).copied();
    (b, next)
}

/// The volumes as laid out: "4 x 20 TiB volumes".
pub fn layout(s: &Scenario) -> String {
    let groups: Vec<String> = s
        .storage
        .volumes
        .iter()
        .map(|g| format!("{} x {} TiB", g.count, tib(g.quota_tib)))
        .collect();
    format!("{} {}", groups.join(" + "), noun(s))
}

/// What the scenario's volumes are called: datastores (AVS), shares (Azure Files) or volumes.
pub fn noun(s: &Scenario) -> &'static str {
    if s.clients.avs.is_some() {
        "datastores"
    } else if s.storage.service == Service::AzureFiles {
        "shares"
    } else {
        "volumes"
    }
}

/// Whether the scenario meets its targets, in a sentence; `None` without targets.
pub fn targets(s: &Scenario, e: &Evaluation) -> Option<(bool, String)> {
    let w = &s.workload;
    let part = |target: f64, unit: &str, headroom: Option<f64>| match headroom {
        Some(h) if h >= 0.0 => format!("{} {unit} with {}% headroom", num(target, 2), num(h, 1)),
        Some(h) => format!("{} {unit}, {}% short", num(target, 2), num(-h, 1)),
        None => format!("{} {unit}", num(target, 2)),
    };
    let mut parts = Vec::new();
    if let Some(t) = w.target_mibps {
        parts.push(part(t, "MiB/s", e.targets.mibps_headroom_pct));
    }
    if let Some(t) = w.target_iops {
        parts.push(part(t, "IOPS", e.targets.iops_headroom_pct));
    }
    if let Some((_, verdict)) = latency::target_verdict(s, e) {
        parts.push(verdict);
    }
    if parts.is_empty() {
        return None;
    }
    let verdict = if e.targets.met {
        "Targets met"
    } else {
        "Targets missed"
    };
    Some((e.targets.met, format!("{verdict}: {}.", parts.join("; "))))
}

/// AVS: how many datastores carry load, and why ("4 of 20 datastores carry load: 4
/// VMs with 1 VMDK each."), from the evaluation's flows and its advice.
pub fn datastores_sentence(e: &Evaluation) -> Option<String> {
    let (total, loaded) = (e.flows.datastores?, e.flows.loaded_datastores?);
    if loaded >= total {
        return Some(if total == 1 {
            "The one datastore carries the load.".to_owned()
        } else {
            format!("All {total} datastores carry load.")
        });
    }
    let idle = e.advice.iter().find(|a| a.code == "avs_idle_datastores")?;
    let text = idle.message.to_string();
    let first = text
        .split_inclusive(". ")
        .next()
        .unwrap_or(&text)
        .trim_end();
    Some(first.to_owned())
}

/// The binding limit in one sentence: which limit, its value, how close the workload
/// runs to it, why it binds, and how far the next one sits above it.
pub fn binding(s: &Scenario, e: &Evaluation) -> String {
    let (Some(b), next) = binding_and_next(e) else {
        return format!(
            "Bound by {}: {} MiB/s.",
            e.binding,
            exact(e.throughput_mibps)
        );
    };
    let w = &s.workload;
    let mut sentence = format!(
        "Bound by {} = {} MiB/s ({} IOPS at {} KiB)",
        b.label,
        exact(b.mibps),
        exact(b.iops),
        num(w.io_size_kib, 2)
    );
    let load = latency::binding_load(b, e.latency_ms);
    if !load.is_empty() {
        sentence.push_str(&format!("; the workload {load}"));
    }
    sentence.push_str(". ");
    let why = match b.applies.key() {
        "read" if w.read_pct < 100.0 => format!(
            "It caps reads, which are {}% of the IO, so it holds the total to {} MiB/s",
            num(w.read_pct, 1),
            sig(e.throughput_mibps)
        ),
        "write" if w.read_pct > 0.0 => format!(
            "It caps writes, which are {}% of the IO, so it holds the total to {} MiB/s",
            num(100.0 - w.read_pct, 1),
            sig(e.throughput_mibps)
        ),
        _ => format!(
            "It is the lowest of the {} ceilings at {}% reads",
            e.limits.len(),
            num(w.read_pct, 1)
        ),
    };
    sentence.push_str(&why);
    match next {
        Some(n) if above(b, n) < TIE_PCT => sentence.push_str(&format!(
            "; {} is just as low, so both must rise to gain anything.",
            n.label
        )),
        Some(n) => sentence.push_str(&format!(
            "; the next, {}, allows {}% more.",
            n.label,
            num(above(b, n), 1)
        )),
        None => sentence.push('.'),
    }
    if let Some(d) = datastores_sentence(e) {
        sentence.push(' ');
        sentence.push_str(&d);
    }
    sentence
}

/// The label of the limit that binds an evaluation.
pub fn binding_label(e: &Evaluation) -> String {
    e.limits
        .iter()
        .find(|l| l.id == e.binding)
        .map(|l| l.label.name.to_owned())
        .unwrap_or_else(|| e.binding.to_owned())
}

/// The executive summary's sentences, in reading order.
pub fn sentences(s: &Scenario, e: &Evaluation) -> Vec<String> {
    let currency = e.cost.currency;
    let here = storage_name(s.storage.service, s.storage.level);
    let cost = |v: Option<f64>| match v {
        Some(_) => format!("{} a month", money_or(v, currency)),
        None => "no list price".to_owned(),
    };
    let mut out = Vec::new();
    let own = e.cost.monthly;
    let cheaper = e
        .sizing
        .iter()
        .find(|z| z.cheapest && z.meets && !cost::is_current(s, z))
        .filter(|z| match (cost::sizing_cost(s, e, z), own) {
            (Some(a), Some(b)) => a < b - 0.005,
            _ => false,
        });
    let met = targets(s, e).is_none_or(|t| t.0);
    match cheaper {
        Some(z) => out.push(format!(
            "Recommendation: {} at {} TiB, {}, the cheapest level that meets the targets; as entered, {here} with {} costs {}.",
            storage_name(z.service, z.level),
            tib(z.quota_tib),
            cost(cost::sizing_cost(s, e, z)),
            layout(s),
            cost(own)
        )),
        None if met => out.push(format!(
            "Recommendation: {here} with {}, {}.",
            layout(s),
            cost(own)
        )),
        None => out.push(format!(
            "As entered, {here} with {} ({}) does not meet the targets; no level of the sizing table meets them at this layout.",
            layout(s),
            cost(own)
        )),
    }
    out.push(format!(
        "It achieves {} MiB/s ({} IOPS at {} KiB).",
        sig(e.throughput_mibps),
        sig(e.iops),
        num(s.workload.io_size_kib, 2)
    ));
    if let Some((_, t)) = targets(s, e) {
        out.push(t);
    }
    let what = match binding_and_next(e) {
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
            num(above(b, n), 1)
        ),
        _ => format!(
            "What binds: {} at {} MiB/s.",
            binding_label(e),
            exact(e.throughput_mibps)
        ),
    };
    out.push(what);
    out
}

/// The comparison asked for, in one sentence for page 1: which scenario reaches the
/// most, which costs the least, and which meet their targets.
pub fn comparison(rows: &[(&Scenario, &Evaluation)]) -> Option<String> {
    let (first, rest) = rows.split_first()?;
    if rest.is_empty() {
        return None;
    }
    let name = |s: &Scenario| format!("“{}”", s.name);
    let fastest = rows
        .iter()
        .max_by(|a, b| a.1.throughput_mibps.total_cmp(&b.1.throughput_mibps))?;
    // Costs in another currency than the first scenario's are never set against it.
    let cheapest = rows
        .iter()
        .filter(|r| r.1.cost.currency == first.1.cost.currency)
        .filter_map(|r| r.1.cost.monthly.map(|m| (r, m)))
        .min_by(|a, b| a.1.total_cmp(&b.1));
    let met: Vec<String> = rows
        .iter()
        .filter(|r| r.1.targets.met)
        .map(|r| name(r.0))
        .collect();
    let mut text = format!(
        "Compared with {} other scenario{}: {} reaches the most, {} MiB/s",
        rest.len(),
        if rest.len() == 1 { "" } else { "s" },
        name(fastest.0),
        sig(fastest.1.throughput_mibps)
    );
    if let Some((r, m)) = cheapest {
        text.push_str(&format!(
            "; {} costs the least, {} a month",
            name(r.0),
            money_or(Some(m), r.1.cost.currency)
        ));
    }
    text.push_str(&match met.len() {
        0 => "; none meets its targets".to_owned(),
        n if n == rows.len() => "; all meet their targets".to_owned(),
        _ => format!("; {} meet their targets", met.join(", ")),
    });
    text.push_str(&format!(
        ". This scenario, {}, reaches {} MiB/s.",
        name(first.0),
        sig(first.1.throughput_mibps)
    ));
    Some(text)
}

/// The volume layouts asked for, in one sentence for page 1: the count that reaches
/// within 5 % of the best throughput with the fewest volumes.
pub fn layouts(s: &Scenario, rows: &[LayoutRow]) -> Option<String> {
    let first = rows.first()?;
    let best = rows
        .iter()
        .max_by(|a, b| a.throughput_mibps.total_cmp(&b.throughput_mibps))?;
    let pick = sweep::suggest_layout(rows)
        .and_then(|i| rows.get(i))
        .unwrap_or(best);
    let counts: Vec<String> = rows.iter().map(|r| r.count.to_string()).collect();
    // "1 datastore reaches", "4 datastores reach".
    let many = |n: u32| {
        let plural = noun(s);
        if n == 1 {
            format!("1 {} reaches", plural.trim_end_matches('s'))
        } else {
            format!("{n} {plural} reach")
        }
    };
    Some(format!(
        "Split over {} {}: {} {} TiB each, {} MiB/s, within 5% of the best ({} MiB/s with {}); {} {} MiB/s.",
        counts.join(", "),
        noun(s),
        many(pick.count),
        tib(pick.quota_tib),
        sig(pick.throughput_mibps),
        sig(best.throughput_mibps),
        best.count,
        many(first.count),
        sig(first.throughput_mibps)
    ))
}

/// Where the figures come from: published limits, and which ones are fitted to
/// published measurements rather than stated by a document.
pub fn provenance(e: &Evaluation) -> String {
    let fitted: Vec<&str> = e
        .limits
        .iter()
        .filter(|l| {
            let s = l.source.to_ascii_lowercase();
            s.contains("fitted") || s.contains("measured") || s.contains("calibration")
        })
        .map(|l| l.label.name)
        .collect();
    if fitted.is_empty() {
        "Every limit is a published figure or a formula from a published document; none is flagged as unconfirmed.".to_owned()
    } else {
        format!(
            "Limits are published figures or formulas from published documents, except {}, fitted to published benchmark measurements: a model of the measured behaviour, not a documented limit.",
            fitted.join(", ")
        )
    }
}

/// The assumptions behind the figures: the engine's own notes first, then every
/// assumption-flagged limit and the price snapshot that no note already names.
pub fn assumptions(e: &Evaluation, edition: Edition) -> Vec<String> {
    let mut out: Vec<String> = e
        .advice
        .iter()
        .filter(|a| a.severity == crate::engine::advice::Severity::Assumption)
        .map(|a| a.message.to_string())
        .collect();
    let covered = |out: &[String], what: &str| out.iter().any(|m| m.contains(what));
    for l in e.limits.iter().filter(|l| l.assumption) {
        if !covered(&out, l.label.name) {
            out.push(format!(
                "{}: rests on an UNCONFIRMED or fitted catalog value ({}).",
                l.label,
                edition.source(l.source)
            ));
        }
    }
    if e.cost.assumption && !covered(&out, "price") {
        out.push(format!(
            "Prices ({}, {} hours per month) include UNCONFIRMED or derived list prices.",
            cost::price_basis(e, edition),
            num(e.cost.hours_per_month, 1)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixture;

    #[test]
    fn the_binding_sentence_says_how_many_datastores_carry_load() {
        let mut s: Scenario = serde_json::from_str(
            r#"{"workload": {"io_size_kib": 8, "read_pct": 70, "access": "random", "threads": 4,
                "queue_depth": 16, "capacity_tib": 80},
                "storage": {"service": "anf", "level": "ultra", "volumes": [{"count": 20, "quota_tib": 4}]},
                "clients": {"protocol": "nfsv3",
                "avs": {"hosts": 4, "vms_per_host": 1, "vmdks_per_vm": 1, "placement": "spread"}}}"#,
        )
        .unwrap();
        let e = crate::engine::evaluate(&s).unwrap();
        assert_eq!(
            datastores_sentence(&e).unwrap(),
            "4 of 20 datastores carry load: 4 VMs with 1 VMDK each."
        );
        s.clients.avs.as_mut().unwrap().vmdks_per_vm = 5;
        let e = crate::engine::evaluate(&s).unwrap();
        assert_eq!(
            datastores_sentence(&e).unwrap(),
            "All 20 datastores carry load."
        );
        s.clients.avs = None;
        s.clients.vm_size = Some("Standard_D8s_v5".into());
        assert!(datastores_sentence(&crate::engine::evaluate(&s).unwrap()).is_none());
    }

    #[test]
    fn the_summary_recommends_states_the_rate_and_what_binds() {
        let (s, e) = fixture::example();
        let text = sentences(&s, &e).join(" ");
        assert!(text.starts_with("Recommendation:") || text.starts_with("As entered"));
        assert!(text.contains(&format!("It achieves {} MiB/s", sig(e.throughput_mibps))));
        assert!(text.contains("What binds:"));
        assert!(text.contains('$'), "money with its currency: {text}");
    }

    #[test]
    fn a_comparison_is_summed_up_in_one_sentence() {
        let (s, e) = fixture::example();
        let mut t = s.clone();
        t.name = "Two".into();
        t.storage.level = crate::engine::scenario::Level::Premium;
        let f = crate::engine::evaluate(&t).unwrap();
        let text = comparison(&[(&s, &e), (&t, &f)]).unwrap();
        assert!(
            text.starts_with("Compared with 1 other scenario:"),
            "{text}"
        );
        assert!(text.contains("reaches the most") && text.contains("costs the least"));
        assert!(comparison(&[(&s, &e)]).is_none());
    }
}
