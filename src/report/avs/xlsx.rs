//! The AVS plan as an Excel workbook: `Summary` (the inventory and the plan's headline),
//! `Hosts and TCO` (each option's host count by driver, cores and cost), `Datastores`,
//! `Assumptions` (the per-VM figures assumed, with their source) and `Placement` (one
//! row per VM or disk; past Excel's 1,048,576 rows a sheet continues in
//! `Placement 2`, `Placement 3`, ...); built as a [`Book`] for the one workbook writer.

use super::{PlanDoc, options, placement_rows, unit_name};
use crate::report::ReportError;
use crate::report::doc::xlsx::{Book, SHEET_MAX_ROWS, Sheet, Style, write};

/// The number formats of the plan's figures.
const TIB: &str = "#,##0.00";
const PCT: &str = "0.0";
const INT: &str = "#,##0";

fn summary(doc: &PlanDoc) -> Sheet {
    let (s, p) = (&doc.inventory.summary, doc.plan);
    let mut ws = Sheet::new("Summary");
    ws.width(0, 34.0);
    ws.width(1, 60.0);
    ws.text(0, 0, format!("AVS plan: {}", doc.origin), Style::Title);
    let excluded = s
        .excluded_by_reason
        .iter()
        .map(|(k, v)| format!("{v} {k}"))
        .collect::<Vec<_>>()
        .join(", ");
    let text_rows: [(&str, String); 8] = [
        ("Source", s.source.clone()),
        ("Capacity columns", s.dialect.clone()),
        ("Capacity unit read", s.capacity_unit.clone()),
        (
            "RVTools version",
            s.rvtools_version.clone().unwrap_or_default(),
        ),
        ("Left out", excluded),
        ("Host SKU", p.host_sku.clone()),
        ("Region", format!("{} ({})", p.tco.region_name, p.region)),
        (
            "Level and placement",
            format!("{} datastores, {} placed", p.level.key(), unit_name(p)),
        ),
    ];
    let mut row = 2;
    for (label, value) in text_rows {
        ws.text(row, 0, label, Style::Header);
        ws.text(row, 1, value, Style::Plain);
        row += 1;
    }
    let numbers: [(&str, f64, &str); 13] = [
        ("VM rows read", f64::from(s.rows), INT),
        ("VMs kept", f64::from(s.included), INT),
        ("VMs left out", f64::from(s.excluded), INT),
        ("vCPUs", s.vcpus as f64, INT),
        ("Memory GiB", s.memory_gib, INT),
        ("In use TiB", s.in_use_tib, TIB),
        ("Provisioned TiB", s.provisioned_tib, TIB),
        ("Disks", f64::from(s.disks), INT),
        ("RDM disks", f64::from(s.rdm_disks), INT),
        ("Shared disks", f64::from(s.shared_disks), INT),
        ("Datastores", p.datastores.len() as f64, INT),
        (
            "Hosts with ANF datastores",
            f64::from(p.tco.with_anf.hosts.hosts),
            INT,
        ),
        (
            "Hosts with vSAN only",
            f64::from(p.tco.vsan_only.hosts.hosts),
            INT,
        ),
    ];
    for (label, v, f) in numbers {
        ws.text(row, 0, label, Style::Header);
        ws.number(row, 1, v, f);
        row += 1;
    }
    ws.text(row, 0, "Targets", Style::Header);
    ws.text(row, 1, if p.met { "met" } else { "not met" }, Style::Plain);
    ws.text(row + 1, 0, "Names anonymised", Style::Header);
    let anonymised = if s.anonymised { "yes" } else { "no" };
    ws.text(row + 1, 1, anonymised, Style::Plain);
    row += 3;
    let notes = doc
        .verdict
        .statements
        .iter()
        .chain(&s.warnings)
        .chain(&p.warnings);
    for w in notes {
        ws.text(row, 1, w, Style::Wrap);
        row += 1;
    }
    ws
}

fn hosts_tco(doc: &PlanDoc) -> Sheet {
    let currency = doc.plan.tco.currency;
    let mut ws = Sheet::table(
        "Hosts and TCO",
        &[
            ("Option", 22.0),
            ("Hosts", 8.0),
            ("Clusters", 9.0),
            ("CPU hosts", 10.0),
            ("Memory hosts", 12.0),
            ("Storage hosts", 12.0),
            ("Binding", 12.0),
            ("Hosts monthly PAYG", 18.0),
            ("ANF monthly PAYG", 18.0),
            ("Monthly PAYG", 14.0),
            ("Monthly 1 y reserved", 18.0),
            ("Monthly 3 y reserved", 18.0),
            ("1 year reserved", 15.0),
            ("3 years reserved", 15.0),
            ("5 years reserved", 15.0),
            ("Cores", 8.0),
            ("VCF monthly", 14.0),
        ],
    );
    for (r, (name, o)) in options(doc.plan).into_iter().enumerate() {
        let r = r as u32 + 1;
        let h = &o.hosts;
        ws.text(r, 0, name, Style::Plain);
        for (c, v) in [
            (1, Some(h.hosts)),
            (2, Some(h.clusters)),
            (3, Some(h.drivers.cpu)),
            (4, Some(h.drivers.memory)),
            (5, h.drivers.storage),
        ] {
            match v {
                Some(v) => ws.number(r, c, f64::from(v), INT),
                None => ws.text(r, c, "-", Style::Plain),
            };
        }
        ws.text(r, 6, h.binding, Style::Plain);
        let money = [
            o.hosts_monthly.payg,
            o.anf_monthly.payg,
            o.monthly.payg,
            o.monthly.reserved_1y,
            o.monthly.reserved_3y,
        ]
        .into_iter()
        .chain(o.totals.iter().map(|t| t.reserved));
        for (c, v) in money.enumerate() {
            ws.money(r, 7 + c as u16, Some(v), currency);
        }
        ws.number(r, 15, f64::from(o.cores), INT);
        ws.money(r, 16, Some(o.licence_monthly.payg), currency);
    }
    let t = &doc.plan.tco;
    let note = format!(
        "AVS host prices as of {}, ANF as of {}; {}. VMware licences: {}.",
        t.host_price_date, t.anf_price_date, t.note, t.licence.basis
    );
    ws.text(4, 0, note, Style::Wrap);
    ws
}

fn datastores(doc: &PlanDoc) -> Sheet {
    let mut ws = Sheet::table(
        "Datastores",
        &[
            ("Datastore", 14.0),
            ("Cluster", 8.0),
            ("Quota TiB", 11.0),
            ("Used TiB", 11.0),
            ("With growth TiB", 15.0),
            ("Fill %", 8.0),
            ("VMs", 8.0),
            ("MiB/s", 10.0),
            ("IOPS", 10.0),
            ("QoS MiB/s", 11.0),
        ],
    );
    for (r, d) in doc.plan.datastores.iter().enumerate() {
        let r = r as u32 + 1;
        ws.text(r, 0, &d.name, Style::Plain);
        ws.number(r, 1, f64::from(d.cluster), INT);
        ws.number(r, 2, d.quota_tib, TIB);
        ws.number(r, 3, d.used_tib, TIB);
        ws.number(r, 4, d.with_growth_tib, TIB);
        ws.number(r, 5, d.fill_pct, PCT);
        ws.number(r, 6, f64::from(d.vms), INT);
        ws.number(r, 7, d.demand_mibps, INT);
        ws.number(r, 8, d.demand_iops, INT);
        ws.number(r, 9, d.qos_mibps, INT);
    }
    ws
}

/// The per-VM figures the plan assumed, with their source.
fn assumptions(doc: &PlanDoc) -> Sheet {
    let mut ws = Sheet::table(
        "Assumptions",
        &[
            ("Figure", 44.0),
            ("Value", 10.0),
            ("Unit", 8.0),
            ("Source", 10.0),
        ],
    );
    for (r, a) in doc.plan.assumptions.iter().enumerate() {
        let r = r as u32 + 1;
        ws.text(r, 0, &a.name, Style::Plain);
        ws.general(r, 1, a.value);
        ws.text(r, 2, a.unit, Style::Plain);
        ws.text(r, 3, a.source.display(), Style::Plain);
    }
    ws
}

/// The name of placement sheet `k` (0-based): `Placement`, `Placement 2`, ...
fn placement_sheet(k: usize) -> String {
    if k == 0 {
        "Placement".to_owned()
    } else {
        format!("Placement {}", k + 1)
    }
}

/// The placement, `per_sheet` rows a sheet.
fn placement(doc: &PlanDoc, per_sheet: usize) -> Vec<Sheet> {
    let rows = placement_rows(doc);
    let chunks: Vec<_> = if rows.is_empty() {
        vec![&rows[..]]
    } else {
        rows.chunks(per_sheet).collect()
    };
    let mut sheets = Vec::new();
    for (k, chunk) in chunks.into_iter().enumerate() {
        let mut ws = Sheet::table(
            placement_sheet(k),
            &[
                ("VM", 28.0),
                ("Disk", 14.0),
                ("Datastore", 12.0),
                ("Cluster", 8.0),
                ("TiB", 10.0),
                ("MiB/s", 10.0),
                ("IOPS", 10.0),
                ("Flags", 18.0),
            ],
        );
        for (r, p) in chunk.iter().enumerate() {
            let r = r as u32 + 1;
            ws.text(r, 0, p.vm, Style::Plain);
            ws.text(r, 1, p.disk.unwrap_or("all"), Style::Plain);
            ws.text(r, 2, p.datastore, Style::Plain);
            if let Some(c) = p.cluster {
                ws.number(r, 3, f64::from(c), INT);
            }
            ws.number(r, 4, p.tib, TIB);
            if let Some(m) = p.mibps {
                ws.number(r, 5, m, PCT);
            }
            if let Some(m) = p.iops {
                ws.number(r, 6, m, INT);
            }
            if !p.flags.is_empty() {
                ws.text(r, 7, p.flags.join(", "), Style::Plain);
            }
        }
        sheets.push(ws);
    }
    sheets
}

/// The workbook, the placement `per_sheet` rows a sheet.
fn book(doc: &PlanDoc, per_sheet: usize) -> Book {
    let mut sheets = vec![
        summary(doc),
        hosts_tco(doc),
        datastores(doc),
        assumptions(doc),
    ];
    sheets.extend(placement(doc, per_sheet.max(1)));
    Book {
        title: format!("AVS plan: {}", doc.origin),
        sheets,
    }
}

/// Writes the workbook.
pub fn render(doc: &PlanDoc) -> Result<Vec<u8>, ReportError> {
    write(&book(doc, SHEET_MAX_ROWS - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_placement_continues_on_further_sheets() {
        // Four VMs of two disks each: eight rows, three a sheet.
        let (inv, plan) = crate::report::fixture::avs_plan(4);
        assert_eq!(plan.placement.len(), 8);
        let verdict = crate::verdict::avs::verdict(&plan, Default::default());
        let doc = PlanDoc {
            origin: "x.csv",
            inventory: &inv,
            basis: Default::default(),
            plan: &plan,
            date: "2026-01-02",
            verdict: &verdict,
        };
        let bytes = write(&book(&doc, 3)).unwrap();
        let mut book: calamine::Xlsx<_> =
            calamine::open_workbook_from_rs(std::io::Cursor::new(bytes)).unwrap();
        use calamine::Reader;
        let names = book.sheet_names();
        assert_eq!(
            names,
            [
                "Summary",
                "Hosts and TCO",
                "Datastores",
                "Assumptions",
                "Placement",
                "Placement 2",
                "Placement 3"
            ]
        );
        let rows: usize = ["Placement", "Placement 2", "Placement 3"]
            .iter()
            .map(|s| book.worksheet_range(s).unwrap().rows().count() - 1)
            .sum();
        assert_eq!(rows, 8);
    }
}
