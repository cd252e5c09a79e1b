//! The AVS plan as Markdown lines (the PDF sets the same lines): the inventory summary,
//! host counts by driver, the TCO, the datastores, each cluster's evaluation and the
//! VM-to-datastore placement.

use super::{MAX_PLACEMENT, PlanDoc, options, unit_name, usd};

/// The plan as Markdown lines.
pub fn markdown(doc: &PlanDoc) -> Vec<String> {
    let (origin, s, p) = (doc.origin, &doc.inventory.summary, doc.plan);
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
                .map(|(k, v)| format!("{v} {k}"))
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
            p.host_sku,
            t.region_name,
            p.region,
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
    l.extend(doc.verdict.statements.iter().map(|s| format!("- {s}")));
    l.push(String::new());
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
            d.name,
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
        l.push(format!("- note: {w}"));
    }
    l.push(String::new());
    l.push("## Placement".to_owned());
    l.push(String::new());
    for x in p.placement.iter().take(MAX_PLACEMENT) {
        match &x.disk {
            Some(d) => l.push(format!("- {} ({d}) -> {}", x.vm, x.datastore)),
            None => l.push(format!("- {} -> {}", x.vm, x.datastore)),
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
