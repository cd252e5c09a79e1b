//! An AVS plan's conclusions in words: the executive summary (the layout, the hosts and
//! what drives them, the cheaper option on each purchase term and the break-even), the
//! host drivers, and the charts' captions.

use crate::avs::AvsPlan;
use crate::avs::hosts::HostCount;
use crate::avs::tco::{OptionCost, Rates, Tco};
use crate::format::{count, money, num, pct, tib};
use crate::report::summary::cost::region_name;
use crate::verdict::avs::AvsVerdict;

/// Picks a purchase term's figure of a [`Rates`].
pub type Pick = fn(&Rates) -> f64;

/// The purchase terms, as a reader names them, with the rate each picks.
pub const TERMS: [(&str, Pick); 3] = [
    ("pay as you go", |r| r.payg),
    ("1-year reserved", |r| r.reserved_1y),
    ("3-year reserved", |r| r.reserved_3y),
];

/// One purchase term of the comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Term {
    pub name: &'static str,
    pub vsan_only: f64,
    pub with_anf: f64,
    /// Hosts' cost a month that ANF datastores save on this term.
    pub host_saving: f64,
    /// ANF datastores' storage a month on this term.
    pub anf_storage: f64,
}

impl Term {
    /// The cheaper option's name.
    pub fn cheaper(&self) -> &'static str {
        if self.with_anf < self.vsan_only {
            "ANF datastores"
        } else {
            "vSAN only"
        }
    }
}

/// Both options on every purchase term.
pub fn terms(t: &Tco) -> Vec<Term> {
    let total = |o: &OptionCost, f: Pick| f(&o.hosts_monthly) + f(&o.anf_monthly);
    TERMS
        .iter()
        .map(|&(name, f)| Term {
            name,
            vsan_only: total(&t.vsan_only, f),
            with_anf: total(&t.with_anf, f),
            host_saving: f(&t.vsan_only.hosts_monthly) - f(&t.with_anf.hosts_monthly),
            anf_storage: f(&t.with_anf.anf_monthly),
        })
        .collect()
}

/// What drives a host count, in words: "6 hosts, driven by memory (5 hosts at 576 GiB
/// each)".
pub fn drivers(h: &HostCount) -> String {
    let d = h.drivers;
    let what = match h.binding {
        "storage" => format!(
            "storage ({} hosts at {} TiB usable vSAN each)",
            d.storage.unwrap_or(0),
            num(h.vsan_usable_tib_per_host, 2)
        ),
        "memory" => format!(
            "memory ({} hosts at {} GiB each)",
            d.memory,
            num(h.memory_gib_per_host, 1)
        ),
        "cpu" => format!("CPU ({} hosts)", d.cpu),
        _ => "the 3-host minimum per cluster".to_owned(),
    };
    format!("{} hosts, driven by {what}", h.hosts)
}

/// The break-even: the storage cost a month at which ANF datastores stop paying off
/// (the hosts' cost they save), and the capacity at the plan's price per TiB.
pub fn break_even(t: &Tco, term: &Term) -> String {
    let per_tib = if t.with_anf.anf_tib > 0.0 {
        term.anf_storage / t.with_anf.anf_tib
    } else {
        0.0
    };
    let saved_hosts = i64::from(t.vsan_only.hosts.hosts) - i64::from(t.with_anf.hosts.hosts);
    if term.host_saving <= 0.0 {
        return format!(
            "ANF datastores save no hosts here ({} hosts either way), so they add their storage cost of {} a month on {}.",
            t.with_anf.hosts.hosts,
            money(term.anf_storage, "USD"),
            term.name
        );
    }
    let mut text = format!(
        "Break-even: ANF datastores pay off while their storage costs less than the {} host{} they save, {} a month on {}; they cost {}",
        count(saved_hosts.max(0) as u64),
        if saved_hosts == 1 { "" } else { "s" },
        money(term.host_saving, "USD"),
        term.name,
        money(term.anf_storage, "USD")
    );
    if per_tib > 0.0 {
        text.push_str(&format!(
            ", so they stay cheaper up to about {} TiB at this level ({} TiB planned)",
            num(term.host_saving / per_tib, 0),
            tib(t.with_anf.anf_tib)
        ));
    }
    text.push('.');
    text
}

/// The plan's executive summary: what is planned, the verdict's statements, the hosts.
pub fn sentences(p: &AvsPlan, verdict: &AvsVerdict, origin: &str, vms: usize) -> Vec<String> {
    let t = &p.tco;
    let quota: f64 = p.datastores.iter().map(|d| d.quota_tib).sum();
    let mut out = vec![format!(
        "Recommendation: {} {} datastore{} of Azure NetApp Files {} ({} TiB in all) for the {} {} of {origin}, on {} {} hosts in {}; {}.",
        count(p.datastores.len() as u64),
        p.level.display(crate::engine::scenario::Service::Anf),
        if p.datastores.len() == 1 { "" } else { "s" },
        p.level.display(crate::engine::scenario::Service::Anf),
        tib(quota),
        count(vms as u64),
        if p.unit == crate::avs::PlaceUnit::Disk {
            "VM disks"
        } else {
            "VMs"
        },
        t.with_anf.hosts.hosts,
        p.host_sku,
        region_name(&p.region),
        if p.met {
            "every cluster meets its targets"
        } else {
            "a cluster misses its targets"
        }
    )];
    // The cost comparison is the verdict's, in the term the user chose.
    out.extend(verdict.statements.iter().cloned());
    out.push(format!(
        "Hosts: vSAN only needs {}; with ANF datastores, {}.",
        drivers(&t.vsan_only.hosts),
        drivers(&t.with_anf.hosts)
    ));
    out
}

/// The fill chart's caption.
pub fn fill_caption(p: &AvsPlan) -> String {
    let fullest = p
        .datastores
        .iter()
        .map(|d| d.fill_pct)
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let busiest = p
        .datastores
        .iter()
        .filter(|d| d.qos_mibps > 0.0)
        .map(|d| d.demand_mibps / d.qos_mibps * 100.0)
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    format!(
        "{} datastore{}: the fullest holds {} of its quota, the busiest uses {} of its QoS throughput.",
        count(p.datastores.len() as u64),
        if p.datastores.len() == 1 { "" } else { "s" },
        pct(fullest, 0),
        pct(busiest, 0)
    )
}

/// The TCO chart's caption.
pub fn tco_caption(t: &Tco) -> String {
    let cheaper: Vec<String> = terms(t)
        .iter()
        .map(|x| format!("{} on {}", x.cheaper(), x.name))
        .collect();
    format!(
        "Hosts and storage a month for both options on each purchase term; cheaper: {}.",
        cheaper.join(", ")
    )
}
