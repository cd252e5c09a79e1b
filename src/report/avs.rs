//! The AVS plan as text lines (Markdown) and as a PDF of those lines: the inventory
//! summary, host counts by driver, the TCO, the datastores, each cluster's evaluation and
//! the VM-to-datastore placement.

use super::model::ReportError;
use crate::engine::avs_plan::AvsPlan;
use crate::inventory::Summary;
use krilla::Document;
use krilla::geom::Point;
use krilla::page::PageSettings;
use krilla::text::{Font, TextDirection};

/// Placement rows the PDF lists before it refers to the API for the rest.
const MAX_PLACEMENT: usize = 5000;

fn usd(v: f64) -> String {
    let whole = v.round() as i64;
    let digits = whole.abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    format!("{}{out} USD", if whole < 0 { "-" } else { "" })
}

/// The plan as Markdown lines.
pub fn markdown(origin: &str, s: &Summary, p: &AvsPlan) -> Vec<String> {
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
            "Plan: {} {} datastores ({}), {} hosts {} in {} ({}); targets {}.",
            p.datastores.len(),
            p.level.key(),
            if p.unit == crate::engine::avs_plan::PlaceUnit::Disk { "disks placed" } else { "VMs placed" },
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
    for (name, o) in [
        ("vSAN only", &t.vsan_only),
        ("with ANF datastores", &t.with_anf),
    ] {
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
            "- ... {} more: the full placement is in the answer of POST /api/v1/avs/plan",
            p.placement.len() - MAX_PLACEMENT
        ));
    }
    l
}

/// Characters per PDF line at 8 pt on A4.
const WRAP: usize = 120;

/// The plan as an A4 PDF of its Markdown lines.
pub fn pdf(origin: &str, s: &Summary, p: &AvsPlan) -> Result<Vec<u8>, ReportError> {
    let font = Font::new(dejavu::sans::regular().into(), 0)
        .ok_or_else(|| ReportError::Pdf("the embedded DejaVu font cannot be read".to_owned()))?;
    let bold = Font::new(dejavu::sans::bold().into(), 0)
        .ok_or_else(|| ReportError::Pdf("the embedded DejaVu font cannot be read".to_owned()))?;
    let mut lines: Vec<(bool, String)> = Vec::new();
    for l in markdown(origin, s, p) {
        let head = l.starts_with('#');
        let text = l.trim_start_matches('#').trim().to_owned();
        let chars: Vec<char> = text.chars().collect();
        if chars.is_empty() {
            lines.push((false, String::new()));
        }
        for chunk in chars.chunks(WRAP) {
            lines.push((head, chunk.iter().collect()));
        }
    }
    let (w, h) = (595.0, 842.0);
    let settings = PageSettings::from_wh(w, h)
        .ok_or_else(|| ReportError::Pdf("invalid page size".to_owned()))?;
    let per_page = 70;
    let mut doc = Document::new();
    for page_lines in lines.chunks(per_page) {
        let mut page = doc.start_page_with(settings.clone());
        let mut surface = page.surface();
        for (i, (head, text)) in page_lines.iter().enumerate() {
            if text.is_empty() {
                continue;
            }
            let (f, size) = if *head { (&bold, 11.0) } else { (&font, 8.0) };
            surface.draw_text(
                Point::from_xy(40.0, 50.0 + i as f32 * 10.8),
                f.clone(),
                size,
                text,
                false,
                TextDirection::Auto,
            );
        }
        surface.finish();
        page.finish();
    }
    doc.finish().map_err(|e| ReportError::Pdf(format!("{e:?}")))
}
