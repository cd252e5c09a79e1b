//! The AVS plan as an Excel workbook: `Summary` (the inventory and the plan's headline),
//! `Hosts and TCO` (each option's host count by driver, cores and cost), `Datastores`,
//! `Assumptions` (the per-VM figures assumed, with their source) and `Placement` (one
//! row per VM or disk; past Excel's 1,048,576 rows a sheet continues in
//! `Placement 2`, `Placement 3`, ...). Text is cut to Excel's 32,767 characters a cell.

use super::{PlanDoc, options, placement_rows, unit_name};
use crate::report::ReportError;
use rust_xlsxwriter::{DocProperties, Format, FormatBorder, Workbook, Worksheet, XlsxError};

/// Most characters a cell holds (Excel's limit).
const CELL_MAX_CHARS: usize = 32_767;
/// Rows a sheet holds (Excel's limit), the header included.
const SHEET_MAX_ROWS: usize = 1_048_576;

/// `s` cut to what a cell holds.
fn clip(s: &str) -> &str {
    match s.char_indices().nth(CELL_MAX_CHARS) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

struct Styles {
    header: Format,
    title: Format,
    wrap: Format,
    tib: Format,
    pct: Format,
    int: Format,
    /// Money in the plan's currency.
    money: Format,
}

impl Styles {
    fn new(currency: &str) -> Styles {
        Styles {
            header: Format::new()
                .set_bold()
                .set_background_color(0xF3F5F7)
                .set_border_bottom(FormatBorder::Thin),
            title: Format::new()
                .set_bold()
                .set_font_size(16)
                .set_font_color(0x0B5CAD),
            wrap: Format::new().set_text_wrap(),
            tib: Format::new().set_num_format("#,##0.00"),
            pct: Format::new().set_num_format("0.0"),
            int: Format::new().set_num_format("#,##0"),
            money: Format::new().set_num_format(crate::format::xlsx_money(currency)),
        }
    }
}

fn header(ws: &mut Worksheet, st: &Styles, titles: &[(&str, f64)]) -> Result<(), XlsxError> {
    for (c, (title, width)) in titles.iter().enumerate() {
        ws.write_string_with_format(0, c as u16, *title, &st.header)?;
        ws.set_column_width(c as u16, *width)?;
    }
    ws.set_freeze_panes(1, 0)?;
    Ok(())
}

fn summary(wb: &mut Workbook, st: &Styles, doc: &PlanDoc) -> Result<(), XlsxError> {
    let (s, p) = (&doc.inventory.summary, doc.plan);
    let ws = wb.add_worksheet();
    ws.set_name("Summary")?;
    ws.set_column_width(0, 34)?;
    ws.set_column_width(1, 60)?;
    ws.write_string_with_format(0, 0, clip(&format!("AVS plan: {}", doc.origin)), &st.title)?;
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
    for (label, value) in &text_rows {
        ws.write_string_with_format(row, 0, *label, &st.header)?;
        ws.write_string(row, 1, clip(value))?;
        row += 1;
    }
    let numbers: [(&str, f64, &Format); 13] = [
        ("VM rows read", f64::from(s.rows), &st.int),
        ("VMs kept", f64::from(s.included), &st.int),
        ("VMs left out", f64::from(s.excluded), &st.int),
        ("vCPUs", s.vcpus as f64, &st.int),
        ("Memory GiB", s.memory_gib, &st.int),
        ("In use TiB", s.in_use_tib, &st.tib),
        ("Provisioned TiB", s.provisioned_tib, &st.tib),
        ("Disks", f64::from(s.disks), &st.int),
        ("RDM disks", f64::from(s.rdm_disks), &st.int),
        ("Shared disks", f64::from(s.shared_disks), &st.int),
        ("Datastores", p.datastores.len() as f64, &st.int),
        (
            "Hosts with ANF datastores",
            f64::from(p.tco.with_anf.hosts.hosts),
            &st.int,
        ),
        (
            "Hosts with vSAN only",
            f64::from(p.tco.vsan_only.hosts.hosts),
            &st.int,
        ),
    ];
    for (label, v, f) in numbers {
        ws.write_string_with_format(row, 0, label, &st.header)?;
        ws.write_number_with_format(row, 1, v, f)?;
        row += 1;
    }
    ws.write_string_with_format(row, 0, "Targets", &st.header)?;
    ws.write_string(row, 1, if p.met { "met" } else { "not met" })?;
    ws.write_string_with_format(row + 1, 0, "Names anonymised", &st.header)?;
    ws.write_string(row + 1, 1, if s.anonymised { "yes" } else { "no" })?;
    row += 3;
    let notes = doc
        .verdict
        .statements
        .iter()
        .chain(&s.warnings)
        .chain(&p.warnings);
    for w in notes {
        ws.write_string_with_format(row, 1, clip(w), &st.wrap)?;
        row += 1;
    }
    Ok(())
}

fn hosts_tco(wb: &mut Workbook, st: &Styles, doc: &PlanDoc) -> Result<(), XlsxError> {
    let ws = wb.add_worksheet();
    ws.set_name("Hosts and TCO")?;
    header(
        ws,
        st,
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
    )?;
    for (r, (name, o)) in options(doc.plan).into_iter().enumerate() {
        let r = r as u32 + 1;
        let h = &o.hosts;
        ws.write_string(r, 0, name)?;
        for (c, v) in [
            (1, Some(h.hosts)),
            (2, Some(h.clusters)),
            (3, Some(h.drivers.cpu)),
            (4, Some(h.drivers.memory)),
            (5, h.drivers.storage),
        ] {
            match v {
                Some(v) => ws.write_number_with_format(r, c, f64::from(v), &st.int)?,
                None => ws.write_string(r, c, "-")?,
            };
        }
        ws.write_string(r, 6, h.binding)?;
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
            ws.write_number_with_format(r, 7 + c as u16, v, &st.money)?;
        }
        ws.write_number_with_format(r, 15, f64::from(o.cores), &st.int)?;
        ws.write_number_with_format(r, 16, o.licence_monthly.payg, &st.money)?;
    }
    let t = &doc.plan.tco;
    ws.write_string_with_format(
        4,
        0,
        clip(&format!(
            "AVS host prices as of {}, ANF as of {}; {}. VMware licences: {}.",
            t.host_price_date, t.anf_price_date, t.note, t.licence.basis
        )),
        &st.wrap,
    )?;
    Ok(())
}

fn datastores(wb: &mut Workbook, st: &Styles, doc: &PlanDoc) -> Result<(), XlsxError> {
    let ws = wb.add_worksheet();
    ws.set_name("Datastores")?;
    header(
        ws,
        st,
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
    )?;
    for (r, d) in doc.plan.datastores.iter().enumerate() {
        let r = r as u32 + 1;
        ws.write_string(r, 0, clip(&d.name))?;
        ws.write_number_with_format(r, 1, f64::from(d.cluster), &st.int)?;
        ws.write_number_with_format(r, 2, d.quota_tib, &st.tib)?;
        ws.write_number_with_format(r, 3, d.used_tib, &st.tib)?;
        ws.write_number_with_format(r, 4, d.with_growth_tib, &st.tib)?;
        ws.write_number_with_format(r, 5, d.fill_pct, &st.pct)?;
        ws.write_number_with_format(r, 6, f64::from(d.vms), &st.int)?;
        ws.write_number_with_format(r, 7, d.demand_mibps, &st.int)?;
        ws.write_number_with_format(r, 8, d.demand_iops, &st.int)?;
        ws.write_number_with_format(r, 9, d.qos_mibps, &st.int)?;
    }
    Ok(())
}

/// The per-VM figures the plan assumed, with their source.
fn assumptions(wb: &mut Workbook, st: &Styles, doc: &PlanDoc) -> Result<(), XlsxError> {
    let ws = wb.add_worksheet();
    ws.set_name("Assumptions")?;
    header(
        ws,
        st,
        &[
            ("Figure", 44.0),
            ("Value", 10.0),
            ("Unit", 8.0),
            ("Source", 10.0),
        ],
    )?;
    for (r, a) in doc.plan.assumptions.iter().enumerate() {
        let r = r as u32 + 1;
        ws.write_string(r, 0, clip(&a.name))?;
        ws.write_number(r, 1, a.value)?;
        ws.write_string(r, 2, a.unit)?;
        ws.write_string(r, 3, a.source.display())?;
    }
    Ok(())
}

/// The name of placement sheet `k` (0-based): `Placement`, `Placement 2`, ...
fn placement_sheet(k: usize) -> String {
    if k == 0 {
        "Placement".to_owned()
    } else {
        format!("Placement {}", k + 1)
    }
}

fn placement(
    wb: &mut Workbook,
    st: &Styles,
    doc: &PlanDoc,
    per_sheet: usize,
) -> Result<(), XlsxError> {
    let rows = placement_rows(doc);
    let chunks: Vec<_> = if rows.is_empty() {
        vec![&rows[..]]
    } else {
        rows.chunks(per_sheet).collect()
    };
    for (k, chunk) in chunks.into_iter().enumerate() {
        let ws = wb.add_worksheet();
        ws.set_name(placement_sheet(k))?;
        header(
            ws,
            st,
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
        )?;
        for (r, p) in chunk.iter().enumerate() {
            let r = r as u32 + 1;
            ws.write_string(r, 0, clip(p.vm))?;
            ws.write_string(r, 1, clip(p.disk.unwrap_or("all")))?;
            ws.write_string(r, 2, clip(p.datastore))?;
            if let Some(c) = p.cluster {
                ws.write_number_with_format(r, 3, f64::from(c), &st.int)?;
            }
            ws.write_number_with_format(r, 4, p.tib, &st.tib)?;
            if let Some(m) = p.mibps {
                ws.write_number_with_format(r, 5, m, &st.pct)?;
            }
            if let Some(m) = p.iops {
                ws.write_number_with_format(r, 6, m, &st.int)?;
            }
            if !p.flags.is_empty() {
                ws.write_string(r, 7, p.flags.join(", "))?;
            }
        }
    }
    Ok(())
}

/// Writes the workbook, the placement `per_sheet` rows a sheet.
fn render_rows(doc: &PlanDoc, per_sheet: usize) -> Result<Vec<u8>, ReportError> {
    let err = |e: XlsxError| ReportError::Xlsx(e.to_string());
    let st = Styles::new(doc.plan.tco.currency);
    let mut wb = Workbook::new();
    wb.set_properties(
        &DocProperties::new()
            .set_title(clip(&format!("AVS plan: {}", doc.origin)))
            .set_author("volplan"),
    );
    summary(&mut wb, &st, doc).map_err(err)?;
    hosts_tco(&mut wb, &st, doc).map_err(err)?;
    datastores(&mut wb, &st, doc).map_err(err)?;
    assumptions(&mut wb, &st, doc).map_err(err)?;
    placement(&mut wb, &st, doc, per_sheet.max(1)).map_err(err)?;
    wb.save_to_buffer().map_err(err)
}

/// Writes the workbook.
pub fn render(doc: &PlanDoc) -> Result<Vec<u8>, ReportError> {
    render_rows(doc, SHEET_MAX_ROWS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_cut_to_what_a_cell_holds() {
        let long = "é".repeat(CELL_MAX_CHARS + 10);
        assert_eq!(clip(&long).chars().count(), CELL_MAX_CHARS);
        assert_eq!(clip("short"), "short");
    }

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
        let bytes = render_rows(&doc, 3).unwrap();
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
