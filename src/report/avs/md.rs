//! The AVS plan as Markdown lines (the PDF sets the same lines): the inventory summary,
//! host counts by driver, the TCO, the datastores, each cluster's evaluation and the
//! VM-to-datastore placement.

use super::{MAX_PLACEMENT, PlanDoc, options, unit_name, usd};
use crate::report::md::escape;

/// The plan as Markdown lines, every name from the upload (the file name, VM, disk and
/// datastore names, warnings) escaped as the scenario report escapes its text, so an
/// upload cannot inject links, HTML or table cells.
pub fn markdown(doc: &PlanDoc) -> Vec<String> {
    lines(doc, escape)
}

/// The plan's lines with each name written by `name`: [`escape`] for Markdown, as it is
/// for the PDF, which draws the lines as plain text.
pub(super) fn lines(doc: &PlanDoc, name: fn(&str) -> String) -> Vec<String> {
    let (s, p) = (&doc.inventory.summary, doc.plan);
    let origin = name(doc.origin);
    let t = &p.tco;
    let mut l = vec![
        format!("# AVS plan: {origin}"),
        String::new(),
        format!(
            "Inventory: {} VMs kept of {} rows, {} left out ({}); {:.1} TiB in use, {:.1} TiB provisioned, {} vCPUs, {:.0} GiB memory; {} RDM and {} shared disks.",
            s.included,
            s.rows,
            s.excluded,
            s.excluded_by_reason
                .iter()
                .map(|(k, v)| format!("{v} {}", name(k)))
                .collect::<Vec<_>>()
                .join(", "),
            s.in_use_tib,
            s.provisioned_tib,
            s.vcpus,
            s.memory_gib,
            s.rdm_disks,
            s.shared_disks
        ),
        format!(
            "Plan: {} {} datastores ({} placed), {} hosts {} in {} ({}); targets {}.",
            p.datastores.len(),
            p.level.key(),
            unit_name(p),
            t.with_anf.hosts.hosts,
            name(&p.host_sku),
            name(&t.region_name),
            name(&p.region),
            if p.met { "met" } else { "NOT met" }
        ),
        String::new(),
        "## Hosts and TCO".to_owned(),
        String::new(),
        "| option | hosts | CPU | memory | storage | binding | monthly PAYG | 1 y | 3 y | 5 y (reserved) |".to_owned(),
        "|---|---|---|---|---|---|---|---|---|---|".to_owned(),
    ];
    for (name, o) in options(p) {
        let h = &o.hosts;
        l.push(format!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            h.hosts,
            h.drivers.cpu,
            h.drivers.memory,
            h.drivers.storage.map_or("-".to_owned(), |s| s.to_string()),
            h.binding,
            usd(o.monthly.payg),
            usd(o.totals[0].reserved),
            usd(o.totals[1].reserved),
            usd(o.totals[2].reserved)
        ));
    }
    l.push(String::new());
    l.push(format!(
        "Saving: {} a month at pay as you go ({:.1} %), {} over 5 years reserved. {}.",
        usd(t.saving.monthly_payg),
        t.saving.pct_payg,
        usd(t.saving.totals[2].reserved),
        t.saving.drivers
    ));
    l.push(format!(
        "Prices: AVS hosts as of {}, ANF as of {}; {}.",
        t.host_price_date, t.anf_price_date, t.note
    ));
    l.push(String::new());
    l.push("## Datastores".to_owned());
    l.push(String::new());
    l.push(
        "| datastore | cluster | quota TiB | used TiB | fill % | VMs | MiB/s | QoS MiB/s |"
            .to_owned(),
    );
    l.push("|---|---|---|---|---|---|---|---|".to_owned());
    for d in &p.datastores {
        l.push(format!(
            "| {} | {} | {:.2} | {:.2} | {:.0} | {} | {:.0} | {:.0} |",
            name(&d.name),
            d.cluster,
            d.quota_tib,
            d.used_tib,
            d.fill_pct,
            d.vms,
            d.demand_mibps,
            d.qos_mibps
        ));
    }
    l.push(String::new());
    l.push("## Clusters as evaluated".to_owned());
    l.push(String::new());
    for c in &p.clusters {
        l.push(format!(
            "- cluster {}: {} hosts, {} datastores, {} VMs; {:.0} MiB/s achievable, binding {}, headroom {}; targets {}",
            c.cluster,
            c.hosts,
            c.datastores,
            c.vms,
            c.throughput_mibps,
            c.binding,
            c.mibps_headroom_pct.map_or("-".to_owned(), |h| format!("{h:.0} %")),
            if c.met { "met" } else { "not met" }
        ));
    }
    for w in s.warnings.iter().chain(&p.warnings) {
        l.push(format!("- note: {}", name(w)));
    }
    l.push(String::new());
    l.push("## Placement".to_owned());
    l.push(String::new());
    for x in p.placement.iter().take(MAX_PLACEMENT) {
        let (vm, datastore) = (name(&x.vm), name(&x.datastore));
        match &x.disk {
            Some(d) => l.push(format!("- {vm} ({}) -> {datastore}", name(d))),
            None => l.push(format!("- {vm} -> {datastore}")),
        }
    }
    if p.placement.len() > MAX_PLACEMENT {
        l.push(format!(
            "- ... {} more: the full placement is in the plan's CSV, XLSX and JSON files",
            p.placement.len() - MAX_PLACEMENT
        ));
    }
    l
}
