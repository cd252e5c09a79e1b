//! AVS from the inventory: RVTools workbooks written here (rust_xlsxwriter) in the 4.x
//! MiB, 3.x MB and prefixed-CSV dialects, read by the import, planned over the API and
//! the command line.

use crate::helpers::{assert_error_body, spawn_app};
use rust_xlsxwriter::Workbook;
use serde_json::{Value, json};
use volplan::inventory::{self, Flag, Options, Reason};

mod azure_migrate;
mod cli;
mod figures;
pub(crate) mod outputs;
mod page;
mod saved;
mod series;

/// The header dialect of a generated export.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Dialect {
    /// RVTools 4.x: `Provisioned MiB`.
    Mib,
    /// RVTools 3.x: `Provisioned MB`.
    Mb,
    /// CSV export headers in a workbook: `vInfoProvisioned`.
    Prefixed,
}

/// A VM row: name, power state, template, SRM placeholder, vCPUs, memory MiB,
/// provisioned MiB, in use MiB, datastore.
type Row = (
    &'static str,
    &'static str,
    bool,
    bool,
    u32,
    f64,
    f64,
    f64,
    &'static str,
);

/// Eight VMs: four kept (one suspended, one with an RDM, one with a shared disk) and one
/// each of vCLS, template, SRM placeholder and powered off.
const VMS: [Row; 8] = [
    (
        "web01",
        "poweredOn",
        false,
        false,
        4,
        16384.0,
        102400.0,
        51200.0,
        "ds-a",
    ),
    (
        "db01",
        "poweredOn",
        false,
        false,
        8,
        65536.0,
        409600.0,
        307200.0,
        "ds-a",
    ),
    (
        "sql-node1",
        "poweredOn",
        false,
        false,
        8,
        32768.0,
        204800.0,
        153600.0,
        "ds-b",
    ),
    (
        "app-susp",
        "suspended",
        false,
        false,
        2,
        8192.0,
        51200.0,
        20480.0,
        "ds-b",
    ),
    (
        "vCLS-4c1f",
        "poweredOn",
        false,
        false,
        1,
        128.0,
        2048.0,
        600.0,
        "ds-a",
    ),
    (
        "tmpl-win2022",
        "poweredOff",
        true,
        false,
        2,
        4096.0,
        61440.0,
        10240.0,
        "ds-a",
    ),
    (
        "srm-ph-01",
        "poweredOff",
        false,
        true,
        2,
        4096.0,
        40960.0,
        0.0,
        "ds-b",
    ),
    (
        "old-erp",
        "poweredOff",
        false,
        false,
        4,
        16384.0,
        307200.0,
        204800.0,
        "ds-b",
    ),
];

/// Disks: VM, label, capacity MiB, raw, sharing mode.
const DISKS: [(&str, &str, f64, bool, &str); 6] = [
    ("web01", "Hard disk 1", 51200.0, false, "sharingNone"),
    ("web01", "Hard disk 2", 51200.0, false, "sharingNone"),
    ("db01", "Hard disk 1", 102400.0, false, "sharingNone"),
    ("db01", "Hard disk 2", 307200.0, true, "sharingNone"),
    ("sql-node1", "Hard disk 1", 102400.0, false, "sharingNone"),
    (
        "sql-node1",
        "Hard disk 2",
        102400.0,
        false,
        "sharingMultiWriter",
    ),
];

fn unit(d: Dialect) -> &'static str {
    if d == Dialect::Mb { "MB" } else { "MiB" }
}

/// A header in the dialect: `base unit` (`Provisioned MiB`) or the CSV export's
/// `sheetBase` (`vInfoProvisioned`).
fn h(d: Dialect, sheet: &str, base: &str, capacity: bool) -> String {
    match (d, capacity) {
        (Dialect::Prefixed, _) => format!("{sheet}{}", base.replace([' ', '#'], "")),
        (_, true) => format!("{base} {}", unit(d)),
        (_, false) => base.to_owned(),
    }
}

fn write_row(ws: &mut rust_xlsxwriter::Worksheet, r: u32, cells: &[Value]) {
    for (c, v) in cells.iter().enumerate() {
        let c = c as u16;
        match v {
            Value::String(s) => ws.write_string(r, c, s).map(|_| ()),
            Value::Bool(b) => ws.write_boolean(r, c, *b).map(|_| ()),
            Value::Number(n) => ws.write_number(r, c, n.as_f64().unwrap()).map(|_| ()),
            _ => Ok(()),
        }
        .expect("cell");
    }
}

pub(crate) fn sheet(book: &mut Workbook, name: &str, headers: &[String], rows: &[Vec<Value>]) {
    let ws = book.add_worksheet();
    ws.set_name(name).expect("sheet name");
    let head: Vec<Value> = headers.iter().map(|s| json!(s)).collect();
    write_row(ws, 0, &head);
    for (i, r) in rows.iter().enumerate() {
        write_row(ws, i as u32 + 1, r);
    }
}

/// The vInfo headers and rows in dialect `d`.
fn vinfo(d: Dialect) -> (Vec<String>, Vec<Vec<Value>>) {
    let p = |b: &str| h(d, "vInfo", b, false);
    let headers = vec![
        if d == Dialect::Prefixed {
            "vInfoVMName".to_owned()
        } else {
            "VM".to_owned()
        },
        p("Powerstate"),
        p("Template"),
        p("SRM Placeholder"),
        p("CPUs"),
        p("Memory"),
        h(d, "vInfo", "Provisioned", true),
        h(d, "vInfo", "In Use", true),
        p("Path"),
        p("Cluster"),
        p("Host"),
    ];
    let rows = VMS
        .iter()
        .map(|v| {
            vec![
                json!(v.0),
                json!(v.1),
                json!(v.2),
                json!(v.3),
                json!(v.4),
                json!(v.5),
                json!(v.6),
                json!(v.7),
                json!(format!("[{}] {}/{}.vmx", v.8, v.0, v.0)),
                json!("Cluster-Prod"),
                json!("esx01.contoso.local"),
            ]
        })
        .collect();
    (headers, rows)
}

/// An RVTools workbook in dialect `d` with the six sheets that matter.
pub(crate) fn rvtools(d: Dialect) -> Vec<u8> {
    let mut book = Workbook::new();
    let (headers, rows) = vinfo(d);
    sheet(&mut book, "vInfo", &headers, &rows);
    let p = |s: &str, b: &str| h(d, s, b, false);
    let vm = |s: &str| {
        if d == Dialect::Prefixed {
            format!("{s}VMName")
        } else {
            "VM".to_owned()
        }
    };
    sheet(
        &mut book,
        "vDisk",
        &[
            vm("vDisk"),
            p("vDisk", "Disk"),
            h(d, "vDisk", "Capacity", true),
            p("vDisk", "Raw"),
            p("vDisk", "Disk Mode"),
            p("vDisk", "Sharing mode"),
            p("vDisk", "Disk Path"),
        ],
        &DISKS
            .iter()
            .map(|x| {
                vec![
                    json!(x.0),
                    json!(x.1),
                    json!(x.2),
                    json!(x.3),
                    json!("persistent"),
                    json!(x.4),
                    json!(format!("[ds-a] {}/{}.vmdk", x.0, x.0)),
                ]
            })
            .collect::<Vec<_>>(),
    );
    sheet(
        &mut book,
        "vPartition",
        &[
            vm("vPartition"),
            p("vPartition", "Disk"),
            h(d, "vPartition", "Capacity", true),
            h(d, "vPartition", "Consumed", true),
            h(d, "vPartition", "Free", true),
        ],
        &[
            vec![
                json!("web01"),
                json!("C:\\"),
                json!(51200),
                json!(20000),
                json!(31200),
            ],
            vec![
                json!("web01"),
                json!("D:\\"),
                json!(51200),
                json!(10000),
                json!(41200),
            ],
        ],
    );
    sheet(
        &mut book,
        "vHost",
        &[
            p("vHost", "Host"),
            p("vHost", "Cluster"),
            p("vHost", "# Cores"),
            p("vHost", "# Memory"),
        ],
        &[
            vec![
                json!("esx01"),
                json!("Cluster-Prod"),
                json!(16),
                json!(524288),
            ],
            vec![
                json!("esx02"),
                json!("Cluster-Prod"),
                json!(16),
                json!(524288),
            ],
        ],
    );
    sheet(
        &mut book,
        "vDatastore",
        &[
            p("vDatastore", "Name"),
            p("vDatastore", "Type"),
            h(d, "vDatastore", "Capacity", true),
            h(d, "vDatastore", "In Use", true),
        ],
        &[
            vec![json!("ds-a"), json!("VMFS"), json!(4194304), json!(1048576)],
            vec![json!("ds-b"), json!("VMFS"), json!(4194304), json!(1048576)],
        ],
    );
    let version = if d == Dialect::Mb { "3.11.9" } else { "4.6.1" };
    sheet(
        &mut book,
        "vMetaData",
        &[
            p("vMetaData", "RVTools version"),
            p("vMetaData", "xlsx creation datetime"),
        ],
        &[vec![json!(version), json!("2026-11-30 10:00")]],
    );
    book.save_to_buffer().expect("workbook")
}

/// The vInfo sheet as the CSV of an RVTools CSV export.
fn vinfo_csv() -> String {
    let (headers, rows) = vinfo(Dialect::Prefixed);
    let mut out = headers.join(",") + "\n";
    for r in rows {
        let cells: Vec<String> = r
            .iter()
            .map(|v| match v {
                Value::String(s) => format!("\"{s}\""),
                Value::Bool(b) => if *b { "True" } else { "False" }.to_owned(),
                other => other.to_string(),
            })
            .collect();
        out += &(cells.join(",") + "\n");
    }
    out
}

fn mib_sum(pick: impl Fn(&Row) -> f64) -> f64 {
    VMS.iter()
        .filter(|v| ["web01", "db01", "sql-node1", "app-susp"].contains(&v.0))
        .map(pick)
        .sum()
}

/// What every dialect must give for the generated VMs.
fn assert_counts(inv: &inventory::Inventory, with_disks: bool) {
    let s = &inv.summary;
    let names: Vec<&str> = inv.vms.iter().map(|v| v.vm.as_str()).collect();
    assert_eq!(names, ["web01", "db01", "sql-node1", "app-susp"]);
    assert_eq!((s.rows, s.included, s.excluded), (8, 4, 4));
    for (reason, vm) in [
        (Reason::Vcls, "vCLS-4c1f"),
        (Reason::Template, "tmpl-win2022"),
        (Reason::SrmPlaceholder, "srm-ph-01"),
        (Reason::PoweredOff, "old-erp"),
    ] {
        assert!(
            inv.excluded
                .iter()
                .any(|e| e.vm == vm && e.reason == reason),
            "{vm} {reason:?}"
        );
        assert_eq!(s.excluded_by_reason[reason.key()], 1);
    }
    assert_eq!(s.suspended, 1);
    assert_eq!(s.vcpus, 22);
    assert!((s.memory_gib - mib_sum(|v| v.5) / 1024.0).abs() < 1e-9);
    assert!((s.in_use_tib - mib_sum(|v| v.7) / 1048576.0).abs() < 1e-12);
    assert!((s.provisioned_tib - mib_sum(|v| v.6) / 1048576.0).abs() < 1e-12);
    assert_eq!(inv.vms[0].datastore.as_deref(), Some("ds-a"));
    if with_disks {
        assert_eq!(
            (s.disks, s.rdm_disks, s.shared_disks, s.flagged_vms),
            (6, 1, 1, 2)
        );
        assert_eq!(inv.vms[1].flags, [Flag::Rdm]);
        assert_eq!(inv.vms[2].flags, [Flag::SharedDisk]);
        assert!(inv.vms[0].flags.is_empty());
        assert_eq!(inv.vms[0].guest_used_mib, Some(30000.0));
        assert_eq!((s.hosts, s.host_cores, s.datastores), (2, 32, 2));
    }
}

#[test]
fn rvtools_4_mib_workbook_includes_and_excludes_as_specified() {
    let inv = inventory::parse(&rvtools(Dialect::Mib), Options::default()).unwrap();
    assert_counts(&inv, true);
    assert_eq!(inv.summary.dialect, "MiB");
    assert_eq!(inv.summary.capacity_unit, "MiB (RVTools 4.x headers)");
    assert_eq!(inv.vms[0].in_use_mib, 51200.0);
    assert_eq!(inv.vms[0].disks[0].capacity_mib, 51200.0);
    assert_eq!(inv.summary.source, "rvtools");
    assert_eq!(inv.summary.rvtools_version.as_deref(), Some("4.6.1"));
    assert_eq!(inv.summary.vcpu_per_core, Some(0.69));
}

#[test]
fn rvtools_3_mb_workbook_reads_the_same_figures() {
    let mb = inventory::parse(&rvtools(Dialect::Mb), Options::default()).unwrap();
    assert_counts(&mb, true);
    assert_eq!(mb.summary.dialect, "MB");
    assert_eq!(mb.summary.rvtools_version.as_deref(), Some("3.11.9"));
    // vSphere's MB are binary: `In Use MB` 51200 is 51200 MiB (50 GiB), not 48,828 MiB.
    assert_eq!(mb.vms[0].in_use_mib, 51200.0);
    assert_eq!(mb.vms[0].provisioned_mib, 102400.0);
    assert_eq!(mb.vms[0].disks[0].capacity_mib, 51200.0);
    assert!(
        mb.summary.capacity_unit.starts_with("MB read as MiB"),
        "{}",
        mb.summary.capacity_unit
    );
    assert!(mb.summary.warnings.iter().all(|w| !w.contains("vMetaData")));
    let mib = inventory::parse(&rvtools(Dialect::Mib), Options::default()).unwrap();
    assert_eq!(mb.vms, mib.vms);
}

#[test]
fn gib_headers_convert_and_a_version_that_disagrees_with_the_headers_is_noted() {
    let csv = "VM,Provisioned GiB,In Use GiB\nweb01,100,50\n";
    let inv = inventory::parse(csv.as_bytes(), Options::default()).unwrap();
    assert_eq!(inv.vms[0].in_use_mib, 51200.0);
    assert_eq!(inv.vms[0].provisioned_mib, 102400.0);
    assert!(inv.summary.capacity_unit.starts_with("GiB"));

    // MiB headers in a workbook whose vMetaData says 3.x: read by the headers, noted.
    let mut book = Workbook::new();
    let (headers, rows) = vinfo(Dialect::Mib);
    sheet(&mut book, "vInfo", &headers, &rows);
    sheet(
        &mut book,
        "vMetaData",
        &["RVTools version".to_owned()],
        &[vec![json!("3.11.9")]],
    );
    let inv = inventory::parse(&book.save_to_buffer().unwrap(), Options::default()).unwrap();
    assert_eq!(inv.vms[0].in_use_mib, 51200.0);
    assert!(
        inv.summary
            .warnings
            .iter()
            .any(|w| w.contains("RVTools 3.11.9") && w.contains("MiB")),
        "{:?}",
        inv.summary.warnings
    );
}

#[test]
fn prefixed_headers_read_in_a_workbook_and_in_the_vinfo_csv() {
    let book = inventory::parse(&rvtools(Dialect::Prefixed), Options::default()).unwrap();
    assert_counts(&book, true);
    assert_eq!(book.summary.dialect, "prefixed");
    assert!(book.summary.capacity_unit.contains("CSV export"));
    assert_eq!(book.vms[0].in_use_mib, 51200.0);
    let csv = inventory::parse(vinfo_csv().as_bytes(), Options::default()).unwrap();
    assert_counts(&csv, false);
    assert_eq!(csv.summary.source, "rvtools");
    assert_eq!(csv.summary.dialect, "prefixed");
}

#[test]
fn powered_off_vms_are_kept_by_choice() {
    let opts = Options {
        include_powered_off: true,
        ..Options::default()
    };
    let inv = inventory::parse(&rvtools(Dialect::Mib), opts).unwrap();
    assert_eq!(inv.summary.included, 5);
    assert_eq!(inv.summary.powered_off_included, 1);
    assert!(inv.vms.iter().any(|v| v.vm == "old-erp"));
    // Templates and SRM placeholders stay out even when they are powered off.
    assert_eq!(inv.summary.excluded, 3);
}

#[test]
fn a_workbook_without_vinfo_names_the_sheet() {
    let mut book = Workbook::new();
    sheet(
        &mut book,
        "Budget",
        &["Item".to_owned()],
        &[vec![json!("x")]],
    );
    let e = inventory::parse(&book.save_to_buffer().unwrap(), Options::default()).unwrap_err();
    assert_eq!(e.field().as_deref(), Some("vInfo"));
    assert!(e.message.contains("Budget"), "{}", e.message);
}

#[tokio::test]
async fn api_imports_plans_and_agrees_with_the_command_line() {
    let app = spawn_app().await;
    let bytes = rvtools(Dialect::Mib);
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/avs/inventory",
            Some("application/octet-stream"),
            bytes.clone(),
        )
        .await;
    assert_eq!(res.status(), 200);
    let inv: Value = res.json().await.unwrap();
    assert_eq!(inv["summary"]["included"], 4);
    assert_eq!(inv["excluded"].as_array().unwrap().len(), 4);

    let body = json!({"inventory": inv, "host_sku": "AV36", "region": "westus2",
                      "level": null, "datastores": null, "growth_pct": 20,
                      "vcf": {"licensing": "included"}});
    let res = app.post_json("/api/v1/avs/plan", &body).await;
    assert_eq!(res.status(), 200);
    let plan: Value = res.json().await.unwrap();
    let placement = plan["placement"].as_array().unwrap();
    assert_eq!(placement.len(), 4);
    assert!(plan["evaluation"]["binding"].is_string());
    assert!(
        plan["tco"]["vsan_only"]["monthly"]["payg"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    assert!(
        plan["tco"]["with_anf"]["anf_monthly"]["payg"]
            .as_f64()
            .unwrap()
            > 0.0
    );

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rvtools.xlsx");
    std::fs::write(&file, &bytes).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_volplan"))
        .args([
            "avs",
            "plan",
            file.to_str().unwrap(),
            "--host-sku",
            "AV36",
            "--region",
            "westus2",
            "--growth-pct",
            "20",
            "--vcf",
            "included",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(cli["placement"], plan["placement"]);
    assert_eq!(cli["datastores"], plan["datastores"]);
    assert_eq!(cli["tco"], plan["tco"]);
    assert_eq!(
        cli["evaluation"]["throughput_mibps"],
        plan["evaluation"]["throughput_mibps"]
    );
    app.stop().await;
}

#[tokio::test]
async fn api_refuses_what_is_not_an_inventory() {
    let app = spawn_app().await;
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/avs/inventory",
            Some("text/csv"),
            b"colour,size\nred,1\n".to_vec(),
        )
        .await;
    assert_eq!(res.status(), 422);
    assert_error_body(&res.json().await.unwrap(), Some("vInfo.VM"));
    let res = app
        .post_json(
            "/api/v1/avs/plan",
            &json!({"inventory": {"vms": []}, "region": "westus2"}),
        )
        .await;
    assert_eq!(res.status(), 422);
    assert_error_body(&res.json().await.unwrap(), Some("inventory.vms"));
    let one = json!({"vms": [{"vm": "a", "in_use_mib": 1024}]});
    let res = app
        .post_json(
            "/api/v1/avs/plan",
            &json!({"inventory": one, "region": "atlantis", "host_sku": "AV36"}),
        )
        .await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert_error_body(&body, Some("region"));
    assert!(
        body["error"].as_str().unwrap().contains("region list")
            && !body["error"].as_str().unwrap().contains("/api/"),
        "{body}"
    );
    // A region without a price for the host still plans the hosts; the verdict says
    // the host cost is missing and calls no option cheaper.
    let res = app
        .post_json(
            "/api/v1/avs/plan",
            &json!({"inventory": one, "region": "eastus", "host_sku": "AV36"}),
        )
        .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["tco"]["hosts_priced"], false);
    assert!(body["tco"]["vsan_only"]["hosts"]["hosts"].as_u64().unwrap() >= 3);
    let headline = body["verdict"]["statement"].as_str().unwrap();
    assert!(
        headline.starts_with("No host cost: there is no AV36 portable VCF host price in "),
        "{headline}"
    );
    assert_eq!(body["verdict"]["terms"], json!([]));
    app.stop().await;
}

#[tokio::test]
async fn the_page_imports_plans_at_another_level_saves_and_downloads_the_pdf() {
    let app = spawn_app().await;
    let csv = vinfo_csv();
    let res = app
        .post_multipart(
            "/avs",
            &[
                ("file", Some("RVTools_tabvInfo.csv"), csv.as_str()),
                ("anonymise", None, "1"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let path = res.headers()["location"].to_str().unwrap().to_owned();
    assert!(path.starts_with("/avs/"), "{path}");
    let html = app.get_text(&path).await;
    assert!(html.contains("id=\"avs-summary\""), "{html}");
    // Anonymised: the file's names appear nowhere on the page and its plan.
    let html = app.get_text(&format!("{path}?region=westus2")).await;
    for secret in ["web01", "Cluster-Prod", "ds-a]"] {
        assert!(!html.contains(secret), "{secret} leaked");
    }
    assert!(html.contains("vm-00001"));

    let ultra = app
        .get_text(&format!("{path}?region=westus2&level=ultra&growth_pct=10"))
        .await;
    assert!(ultra.contains(" Ultra datastores on "), "{ultra}");
    assert!(ultra.contains("id=\"avs-tco\""));
    assert!(
        ultra.contains("role=\"img\" class=\"chart\""),
        "the charts inline"
    );
    let standard = app
        .get_text(&format!("{path}?region=westus2&level=standard"))
        .await;
    assert!(standard.contains(" Standard datastores on "), "{standard}");
    let found = app
        .get_text(&format!("{path}?region=westus2&q=vm-00002"))
        .await;
    assert!(found.contains("1 matching"), "{found}");

    // No AV36 price in East US: the page still plans and says the host cost is missing.
    let unpriced = app
        .get_text(&format!("{path}?region=eastus&host_sku=AV36"))
        .await;
    assert!(unpriced.contains("<b>No host cost: "), "{unpriced}");
    let bad = app.get(&format!("{path}?region=atlantis")).await;
    assert_eq!(bad.status(), 422);
    let bad = bad.text().await.unwrap();
    assert!(
        bad.contains("region list") && !bad.contains("/api/v1/regions"),
        "{bad}"
    );

    // The cost headline follows the term bought (3-year reserved unless chosen) and is
    // the verdict's statement, as the JSON download carries it.
    for (term, words) in [
        ("", "At 3-year reserved: "),
        ("payg", "At pay as you go: "),
        ("1y", "At 1-year reserved: "),
    ] {
        let q = format!("region=westus2&level=ultra&term={term}&vcf=included");
        let page = app.get_text(&format!("{path}?{q}")).await;
        let headline = page
            .split("<p id=\"avs-saving\"><b>")
            .nth(1)
            .and_then(|t| t.split("</b>").next())
            .expect("the cost headline");
        assert!(headline.starts_with(words), "{headline}");
        let plan: Value = app
            .get(&format!("{path}/plan.json?{q}&edition=engineer"))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(plan["verdict"]["statement"].as_str(), Some(headline));
        assert!(!page.contains("Saving "), "no headline of its own");
    }

    let pdf = app
        .get(&format!("{path}/plan.pdf?region=westus2&level=ultra"))
        .await;
    assert_eq!(pdf.status(), 200);
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    let bytes = pdf.bytes().await.unwrap();
    assert!(bytes.starts_with(b"%PDF"));
    let doc = lopdf::Document::load_mem(&bytes).expect("the PDF loads");
    assert!(!doc.get_pages().is_empty());

    let md = app
        .get_text(&format!("{path}/plan.md?region=westus2&level=ultra"))
        .await;
    assert!(
        md.contains("## Datastore layout") && md.contains("| vm-00001 | all | ds-"),
        "{md}"
    );

    let saved = app
        .post_pairs(&format!("{path}/save?region=westus2&level=ultra"), &[])
        .await;
    assert_eq!(saved.status(), 303);
    let to = saved.headers()["location"].to_str().unwrap();
    assert!(to.starts_with("/scenarios/"), "{to}");
    let list = app.get_json("/api/v1/scenarios").await;
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert!(
        names
            .iter()
            .any(|n| n.starts_with("AVS cluster 1: ") && n.contains("ultra")),
        "{names:?}"
    );

    let refused = app
        .post_multipart(
            "/avs",
            &[("file", Some("budget.csv"), "colour,size\nred,1\n")],
        )
        .await;
    assert_eq!(refused.status(), 422);
    assert!(refused.text().await.unwrap().contains("“VM”"));
    app.stop().await;
}

#[tokio::test]
async fn a_plan_is_priced_in_its_currency_from_that_list_alone() {
    let app = spawn_app().await;
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/prices/sheet",
            Some("text/csv"),
            crate::helpers::fixture_text("prices/pricesheet-mca-eur.csv").into_bytes(),
        )
        .await;
    assert_eq!(res.status(), 200);
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/avs/inventory",
            Some("application/octet-stream"),
            rvtools(Dialect::Mib),
        )
        .await;
    let inv: Value = res.json().await.unwrap();
    let body = |currency: &str| {
        json!({"inventory": inv, "host_sku": "AV36P", "region": "westeurope",
               "level": "premium", "currency": currency,
               "vcf": {"licensing": "portable", "price_per_core_year": 320.0}})
    };
    // The VCF list figure is in dollars: portable licensing in euros needs a euro price.
    let mut no_price = body("EUR");
    no_price["vcf"] = json!({"licensing": "portable"});
    let res = app.post_json("/api/v1/avs/plan", &no_price).await;
    assert_eq!(res.status(), 422);
    let e: Value = res.json().await.unwrap();
    assert!(
        e.to_string().contains("vcf.price_per_core_year") && e.to_string().contains("in EUR"),
        "{e}"
    );
    let res = app.post_json("/api/v1/avs/plan", &body("EUR")).await;
    let status = res.status();
    let plan: Value = res.json().await.unwrap();
    assert_eq!(status, 200, "{plan}");
    assert_eq!(plan["tco"]["currency"], "EUR");
    // The hosts at the sheet's EUR 10.05 an hour, never a converted dollar price.
    let hosts = plan["tco"]["vsan_only"]["monthly"]["payg"]
        .as_f64()
        .unwrap();
    let per_host = 10.05 * 730.0;
    assert!(
        (hosts / per_host - (hosts / per_host).round()).abs() < 1e-6,
        "{hosts}"
    );

    let res = app.post_json("/api/v1/avs/plan", &body("JPY")).await;
    assert_eq!(res.status(), 422);
    let e: Value = res.json().await.unwrap();
    assert_eq!(e["field"], "currency", "{e}");
}
