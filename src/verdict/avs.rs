//! vSAN only against hosts with ANF datastores: which is cheaper at each purchase term
//! (pay as you go, 1 and 3 years reserved), by how much a month and over the term,
//! where another term changes the answer, and the break-even (what the ANF datastores
//! may cost for the two to cost the same). The figures are the plan's TCO table's, so
//! the headline and the table always agree.

use super::mechanism;
use crate::avs::hosts::{self, Expansion, HostCount};
use crate::avs::licence::Licensing;
use crate::avs::tco::{Drivers, ExistingCost, Tco};
use crate::avs::{AvsPlan, PurchaseTerm};
use crate::engine::scenario::Service;
use crate::format::{money, share as pct};
use serde::Serialize;
use std::fmt;

/// Which option is cheaper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Cheaper {
    VsanOnly,
    WithAnf,
    /// Within a cent a month.
    Neither,
}

impl Cheaper {
    /// "vSAN only", "ANF datastores", "neither".
    pub fn display(self) -> &'static str {
        match self {
            Cheaper::VsanOnly => "vSAN only",
            Cheaper::WithAnf => "ANF datastores",
            Cheaper::Neither => "neither",
        }
    }
}

/// The comparison at one purchase term.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct TermVerdict {
    pub term: PurchaseTerm,
    pub cheaper: Cheaper,
    pub vsan_only_monthly: f64,
    pub with_anf_monthly: f64,
    /// |vSAN only - with ANF| a month.
    pub monthly_difference: f64,
    /// Years the total covers (the reservation's length; 3 at pay as you go).
    pub years: u32,
    /// The monthly difference over `years`.
    pub total_difference: f64,
    pub statement: String,
}

/// What the ANF datastores may cost for both options to cost the same at a term.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct BreakEven {
    pub term: PurchaseTerm,
    /// The datastores' monthly cost in the plan.
    pub anf_monthly: f64,
    /// Their monthly cost at which both options cost the same; null when no price
    /// closes the gap (the hosts with ANF alone cost more than vSAN only).
    pub anf_monthly_at_break_even: Option<f64>,
    pub statement: String,
}

/// The verdict on an AVS plan (contract: the AVS plan's `verdict`).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct AvsVerdict {
    /// The term the headline follows.
    pub term: PurchaseTerm,
    /// Every term, pay as you go first.
    pub terms: Vec<TermVerdict>,
    pub break_even: Option<BreakEven>,
    /// The chosen term's monthly difference split into hosts, VCF licences and storage
    /// (None without a host price).
    pub split: Option<SavingSplit>,
    /// The headline: the chosen term's comparison.
    pub statement: String,
    /// Every statement in reading order.
    pub statements: Vec<String>,
}

/// What ANF datastores save against vSAN only per month at one term, by part: the
/// three add up to the difference of the options' monthly totals (negative = costs
/// more).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct SavingSplit {
    pub term: PurchaseTerm,
    pub hosts: f64,
    /// VCF licences (and add-ons) of the cores that the hosts saved carry.
    pub licences: f64,
    pub cores: i64,
    /// vSAN only pays no storage beyond its hosts: minus the ANF datastores' cost.
    pub storage: f64,
    pub statement: String,
}

/// An AVS plan with its verdict (the answer of `POST /api/v1/avs/plan`).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct JudgedPlan {
    #[serde(flatten)]
    pub plan: AvsPlan,
    pub verdict: AvsVerdict,
}

/// `plan` with its verdict at `term`.
pub fn judge(plan: AvsPlan, term: PurchaseTerm) -> JudgedPlan {
    let verdict = verdict(&plan, term);
    JudgedPlan { plan, verdict }
}

/// The comparison at `term`.
fn term_verdict(t: &Tco, term: PurchaseTerm) -> TermVerdict {
    let c = |v: f64| money(v, t.currency);
    let vsan = t.vsan_only.monthly.at(term);
    let anf = t.with_anf.monthly.at(term);
    let diff = (vsan - anf).abs();
    let years = term.years();
    let total = diff * 12.0 * f64::from(years);
    let cheaper = if diff <= 0.01 {
        Cheaper::Neither
    } else if anf < vsan {
        Cheaper::WithAnf
    } else {
        Cheaper::VsanOnly
    };
    let over = format!(
        "{} over {years} year{}",
        c(total),
        if years == 1 { "" } else { "s" }
    );
    let statement = match cheaper {
        Cheaper::WithAnf => format!(
            "At {}: ANF datastores save {}/month against vSAN only ({} less: {} against {}), {over}.",
            term.display(),
            c(diff),
            pct(diff / vsan * 100.0),
            c(anf),
            c(vsan)
        ),
        Cheaper::VsanOnly => format!(
            "At {}: vSAN only is cheaper by {}/month ({} against {} with ANF datastores), {over}.",
            term.display(),
            c(diff),
            c(vsan),
            c(anf)
        ),
        Cheaper::Neither => format!(
            "At {}: both options cost {}/month.",
            term.display(),
            c(vsan)
        ),
    };
    TermVerdict {
        term,
        cheaper,
        vsan_only_monthly: vsan,
        with_anf_monthly: anf,
        monthly_difference: diff,
        years,
        total_difference: total,
        statement,
    }
}

/// The saving at `term` split into hosts, VCF licences and storage, in words.
fn split(t: &Tco, term: PurchaseTerm) -> SavingSplit {
    let c = |v: f64| money(v, t.currency);
    let s = &t.saving;
    let (hosts, licences, storage) = (
        s.hosts_monthly.at(term),
        s.licence_monthly.at(term),
        s.storage_monthly.at(term),
    );
    let signed = |v: f64| {
        if v < 0.0 { format!("-{}", c(-v)) } else { c(v) }
    };
    let licence_words = match t.licence.licensing {
        Licensing::Portable => format!(
            "VCF licences {} ({} cores fewer to license)",
            signed(licences),
            s.cores
        ),
        Licensing::Included => "VCF licences nothing (included in the host price)".to_owned(),
    };
    let statement = format!(
        "At {}, per month with ANF datastores: hosts save {} ({} fewer), {licence_words}, and the datastores cost {}; in all {}.",
        term.display(),
        signed(hosts),
        s.hosts,
        c(-storage),
        signed(hosts + licences + storage)
    );
    SavingSplit {
        term,
        hosts,
        licences,
        cores: s.cores,
        storage,
        statement,
    }
}

fn break_even(t: &Tco, term: PurchaseTerm) -> BreakEven {
    let c = |v: f64| money(v, t.currency);
    let vsan = t.vsan_only.monthly.at(term);
    let hosts = t.with_anf.hosts_monthly.at(term) + t.with_anf.licence_monthly.at(term);
    let now = t.with_anf.anf_monthly.at(term);
    let even = vsan - hosts;
    let statement = if even <= 0.0 {
        format!(
            "No break-even at {}: the {} with ANF datastores (with their VMware licences) alone cost {}/month, at least as much as vSAN only ({}).",
            term.display(),
            bought(&t.with_anf.hosts),
            c(hosts),
            c(vsan)
        )
    } else if now <= even {
        format!(
            "Break-even at {}: the ANF datastores could cost up to {}/month before vSAN only is cheaper ({}/month now, {} below it).",
            term.display(),
            c(even),
            c(now),
            pct(if even > 0.0 {
                (even - now) / even * 100.0
            } else {
                0.0
            })
        )
    } else {
        format!(
            "Break-even at {}: the ANF datastores would have to cost {}/month ({} less than the {}/month now) for both options to cost the same.",
            term.display(),
            c(even),
            pct((now - even) / now * 100.0),
            c(now)
        )
    };
    BreakEven {
        term,
        anf_monthly: now,
        anf_monthly_at_break_even: (even > 0.0).then_some(even),
        statement,
    }
}

/// What the page says when the region has no price for the hosts: "there is no AV36
/// portable VCF host price in East US. The hosts are planned; ...".
pub fn hosts_unpriced(plan: &AvsPlan) -> String {
    let t = &plan.tco;
    format!(
        "there is no {} {} host price in {}. The hosts are planned; the costs below are the ANF datastores' alone.",
        plan.host_sku,
        t.licence.licensing.display(),
        t.region_name
    )
}

/// "4 hosts", or "2 added hosts" when a private cloud is expanded.
fn bought(h: &HostCount) -> String {
    hosts_of(h, "")
}

/// "4 AV36P hosts", or "2 added AV36P hosts" when a private cloud is expanded.
fn hosts_of(h: &HostCount, sku: &str) -> String {
    let sku = if sku.is_empty() {
        String::new()
    } else {
        format!("{sku} ")
    };
    format!(
        "{}{} {sku}host{}",
        h.bought,
        if h.expansion.is_some() { " added" } else { "" },
        if h.bought == 1 { "" } else { "s" }
    )
}

/// What the existing hosts of an expanded private cloud cost, and why the options
/// leave them out.
fn existing(t: &Tco, e: &ExistingCost, term: PurchaseTerm) -> String {
    let c = |v: f64| money(v, t.currency);
    let what = format!(
        "The existing {} {} hosts ({})",
        e.hosts,
        e.host_sku,
        e.licensing.display()
    );
    let cost = match e.hosts_monthly {
        Some(h) => {
            let licence = e.licence_monthly.at(term);
            format!(
                " cost {}/month at {}{}",
                c(h.at(term) + licence),
                term.display(),
                if licence > 0.0 {
                    format!(
                        " ({} of it VCF on {} cores)",
                        c(licence),
                        crate::format::count(u64::from(e.cores))
                    )
                } else {
                    String::new()
                }
            )
        }
        None => format!(
            " have no {} {} host price in {} and cost the same",
            e.host_sku,
            e.licensing.display(),
            t.region_name
        ),
    };
    format!(
        "{what}{cost} whichever option is chosen, so both options count only the hosts added, their licences and the datastores."
    )
}

/// What drives a host count, in words: "4 hosts, driven by memory (4 hosts at 460.8 GiB
/// each), N+1: 1 spare host (1 per cluster)".
pub fn driver(h: &HostCount) -> String {
    let d = h.drivers;
    let detail = match h.binding {
        "storage" => format!(
            " ({} hosts at {} usable vSAN each)",
            d.storage.unwrap_or(0),
            crate::format::capacity(h.vsan_usable_tib_per_host)
        ),
        "memory" => format!(
            " ({} hosts at {} GiB each)",
            d.memory,
            crate::format::num(h.memory_gib_per_host, 1)
        ),
        "cpu" => format!(" ({} hosts)", d.cpu),
        _ => " per cluster".to_owned(),
    };
    let rules = host_rules(h);
    let rules = if rules.is_empty() {
        String::new()
    } else {
        format!(", {rules}")
    };
    format!(
        "{} hosts, driven by {}{detail}{rules}",
        h.hosts,
        h.driver_name()
    )
}

/// Microsoft's rules that drive a host count ([`hosts::RULES_SOURCE`]): an expansion,
/// the management reservation (when it adds hosts), the spares, the clusters and the
/// sites.
pub fn host_rules(h: &HostCount) -> String {
    let mut out = Vec::new();
    if let Some(e) = &h.expansion {
        out.push(expansion_rule(e, h.bought));
    }
    if h.management_hosts > 0 {
        out.push(format!(
            "cluster 1 reserves {} GHz of CPU and {} GB of memory for the management appliances (+{} host{})",
            crate::format::num(hosts::MANAGEMENT_CPU_GHZ, 0),
            crate::format::num(hosts::MANAGEMENT_MEMORY_GB, 2),
            h.management_hosts,
            if h.management_hosts == 1 { "" } else { "s" }
        ));
    }
    if h.stretched {
        out.push(format!(
            "a stretched cluster holds the whole workload on each of its 2 sites, at least 3 hosts and a spare on each (N+2): {} hosts per site",
            h.hosts / hosts::STRETCHED_SITES
        ));
    } else if h.spares > 0 {
        let new_clusters = h.expansion.map_or(h.clusters, |e| e.new_clusters);
        out.push(format!(
            "N+1: {} spare host{} ({} per {}cluster)",
            h.spares,
            if h.spares == 1 { "" } else { "s" },
            h.spares / new_clusters.max(1),
            if h.expansion.is_some() { "new " } else { "" }
        ));
    }
    if h.clusters > 1 && h.expansion.is_none() {
        out.push(format!(
            "at most {} hosts per cluster: {} clusters",
            hosts::MAX_CLUSTER,
            h.clusters
        ));
    }
    out.join("; ")
}

/// The expansion rule in words, `added` hosts bought.
fn expansion_rule(e: &Expansion, added: u32) -> String {
    let mut s = format!(
        "expanding a private cloud of {} {} hosts in {} cluster{}: cluster 1 already holds the management reservation, and the existing clusters their spares; {added} host{} added",
        e.existing,
        e.existing_sku,
        e.existing_clusters,
        if e.existing_clusters == 1 { "" } else { "s" },
        if added == 1 { "" } else { "s" },
    );
    if e.joined > 0 {
        s.push_str(&format!(
            ", {} of them in the existing clusters' free places (up to {} hosts per cluster)",
            e.joined,
            hosts::MAX_CLUSTER
        ));
    }
    if e.new_clusters > 0 {
        s.push_str(&format!(
            ", {} new cluster{} of at least {} hosts{}",
            e.new_clusters,
            if e.new_clusters == 1 { "" } else { "s" },
            hosts::MIN_CLUSTER,
            if e.same_sku {
                ""
            } else {
                " (a cluster holds one host type)"
            }
        ));
    }
    s
}

impl fmt::Display for Drivers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "vSAN only: {}; with ANF datastores: {}, plus {} of {} datastores at {} a month (host rules: {})",
            driver(&self.vsan_only),
            driver(&self.with_anf),
            crate::format::capacity(self.anf_tib),
            self.anf_level.display(Service::Anf),
            money(self.anf_monthly_payg, self.currency),
            hosts::RULES_SOURCE
        )
    }
}

/// The verdict on `plan`, its headline at `term`.
pub fn verdict(plan: &AvsPlan, term: PurchaseTerm) -> AvsVerdict {
    let t = &plan.tco;
    let mut statements = vec![format!(
        "{} {} datastores on {} with ANF, against {} with vSAN only; {}.",
        plan.datastores.len(),
        plan.level.display(crate::engine::scenario::Service::Anf),
        hosts_of(&t.with_anf.hosts, &plan.host_sku),
        bought(&t.vsan_only.hosts),
        if plan.met {
            "every cluster meets its throughput targets"
        } else {
            "the busiest cluster misses its throughput targets"
        }
    )];
    if let Some(e) = &t.existing {
        statements.push(existing(t, e, term));
    }
    statements.push(format!(
        "Busiest cluster: {}.",
        mechanism::cause(&plan.evaluation)
    ));
    if !t.hosts_priced {
        let statement = format!(
            "No host cost: there is no {} {} host price in {}. The hosts are planned ({} with vSAN only, {} with ANF datastores); the costs cover the ANF datastores only ({}/month), so no option is called cheaper.",
            plan.host_sku,
            t.licence.licensing.display(),
            t.region_name,
            bought(&t.vsan_only.hosts),
            bought(&t.with_anf.hosts),
            money(t.with_anf.anf_monthly.at(term), t.currency)
        );
        statements.push(statement.clone());
        return AvsVerdict {
            term,
            terms: Vec::new(),
            break_even: None,
            split: None,
            statement,
            statements,
        };
    }
    let terms: Vec<TermVerdict> = PurchaseTerm::ALL
        .iter()
        .map(|&k| term_verdict(t, k))
        .collect();
    let chosen = terms
        .iter()
        .find(|v| v.term == term)
        .expect("every term is judged");
    let statement = chosen.statement.clone();
    statements.push(statement.clone());
    let others: Vec<&TermVerdict> = terms
        .iter()
        .filter(|v| v.term != term && v.cheaper != chosen.cheaper)
        .collect();
    statements.push(if others.is_empty() {
        match chosen.cheaper {
            Cheaper::WithAnf => "ANF datastores are cheaper at every term.".to_owned(),
            Cheaper::VsanOnly => "vSAN only is cheaper at every term.".to_owned(),
            Cheaper::Neither => "The options cost the same at every term.".to_owned(),
        }
    } else {
        let names: Vec<&str> = others.iter().map(|v| v.term.display()).collect();
        let who = match others[0].cheaper {
            Cheaper::WithAnf => "ANF datastores are cheaper",
            Cheaper::VsanOnly => "vSAN only is cheaper",
            Cheaper::Neither => "the options cost the same",
        };
        format!(
            "The answer changes with the term: {who} only at {} ({}).",
            names.join(" and "),
            others
                .iter()
                .map(|v| v.statement.trim_end_matches('.').to_owned())
                .collect::<Vec<_>>()
                .join("; ")
        )
    });
    let sp = split(t, term);
    statements.push(sp.statement.clone());
    let be = break_even(t, term);
    statements.push(be.statement.clone());
    statements.push(format!("{}.", t.saving.drivers));
    AvsVerdict {
        term,
        terms,
        break_even: Some(be),
        split: Some(sp),
        statement,
        statements,
    }
}
