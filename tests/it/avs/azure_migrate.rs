//! Azure Migrate's import CSV (the template's columns, per-disk read and write IOPS and
//! MB/s) gives per-VM IOPS and MiB/s, and the plan's datastore check is of those
//! figures, not of the defaults; the assumptions table says which figure came from
//! where, on the page and in every report format.

use super::outputs::{upload, xlsx_text};
use crate::helpers::{TestApp, spawn_app};
use serde_json::{Value, json};

const FIXTURE: &[u8] = include_bytes!("../../fixtures/avs/azure-migrate-import.csv");

/// MiB/s in `mbps` decimal MB/s.
fn mib(mbps: f64) -> f64 {
    mbps * 1e6 / 1_048_576.0
}

async fn plan(app: &TestApp, inventory: &Value) -> Value {
    let body = json!({"inventory": inventory, "host_sku": "AV36P", "region": "eastus",
                      "level": "premium", "datastores": 1});
    let res = app.post_json("/api/v1/avs/plan", &body).await;
    assert_eq!(res.status(), 200);
    res.json().await.unwrap()
}

fn assumption<'p>(plan: &'p Value, starts: &str) -> &'p Value {
    plan["assumptions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"].as_str().unwrap().starts_with(starts))
        .unwrap_or_else(|| panic!("{starts}: {}", plan["assumptions"]))
}

#[tokio::test]
async fn an_azure_migrate_import_gives_per_vm_figures_and_its_own_datastore_check() {
    let app = spawn_app().await;
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/avs/inventory",
            Some("application/octet-stream"),
            FIXTURE.to_vec(),
        )
        .await;
    assert_eq!(res.status(), 200);
    let inv: Value = res.json().await.unwrap();
    assert_eq!(inv["summary"]["source"], "azure_migrate");
    assert_eq!(inv["summary"]["included"], 3, "vCLS left out: {inv}");
    let vms = inv["vms"].as_array().unwrap();
    // sql01: disks 1 and 2, read + write: 1,200 + 300 + 4,000 + 1,000 = 6,500 IOPS;
    // 40 + 10 + 200 + 60 = 310 MB/s = 295.64 MiB/s; 200 + 1,000 GB of disks.
    assert_eq!(vms[0]["iops"], 6500.0);
    assert!((vms[0]["mibps"].as_f64().unwrap() - mib(310.0)).abs() < 1e-9);
    assert_eq!(vms[0]["disks"].as_array().unwrap().len(), 2);
    assert_eq!(vms[0]["provisioned_mib"], 1200.0 * 1024.0);
    assert_eq!(vms[0]["in_use_mib"], 900.0 * 1024.0);
    assert_eq!(
        (vms[0]["vcpus"].as_u64(), vms[0]["memory_mib"].as_f64()),
        (Some(8), Some(65536.0))
    );
    // web01: 150 + 50 IOPS, 5 + 2 MB/s.
    assert_eq!(vms[1]["iops"], 200.0);
    assert!((vms[1]["mibps"].as_f64().unwrap() - mib(7.0)).abs() < 1e-9);
    // app01 has no per-disk figures: the totals columns, 100 + 20 IOPS, 3 + 1 MB/s.
    assert_eq!(vms[2]["iops"], 120.0);
    assert!((vms[2]["mibps"].as_f64().unwrap() - mib(4.0)).abs() < 1e-9);

    let measured = plan(&app, &inv).await;
    // Targets: 6,820 IOPS and 306.13 MiB/s (whole MiB/s up: 307); IO size 307 x 1,024
    // / 6,820 = 46.1 -> 46 KiB, from the inventory.
    assert_eq!(measured["targets"]["iops"], 6820.0);
    assert_eq!(measured["targets"]["mibps"], 307.0);
    assert_eq!(measured["targets"]["io_size_kib"], 46.0);
    assert_eq!(assumption(&measured, "IO size")["source"], "inventory");
    let iops = assumption(&measured, "IOPS per VM, mean");
    assert_eq!(iops["source"], "inventory");
    assert!((iops["value"].as_f64().unwrap() - 6820.0 / 3.0).abs() < 1e-9);
    assert_eq!(assumption(&measured, "Read share")["source"], "default");
    // The TCO of the fixture with portable VCF (the default) on AV36P in East US, by hand:
    // 14 vCPUs x 600 MHz / 4 = 2,100 MHz of 65,520 (36 x 2,600 x 70 %) plus the 46 GHz
    // management reservation of 93,600 MHz: 0.52 host; 88 GiB of 614.4 plus 171.88 GB
    // of 768: 0.37 host; 1,010 GiB on vSAN of 10.18 TiB a host: 1. So 1 + a spare, and the
    // 3-host minimum in both options. Hosts at the VCF BYOL rate: 3 x 8.20 x 730 =
    // 17,958.00 a month; VCF on 3 x 36 = 108 cores x 350 / 12 = 3,150.00. The options
    // differ by the datastores alone.
    let t = &measured["tco"];
    let f = |v: &Value| v.as_f64().unwrap();
    for o in ["vsan_only", "with_anf"] {
        assert_eq!(t[o]["hosts"]["hosts"], 3, "{o}");
        assert_eq!(t[o]["hosts"]["binding"], "minimum", "{o}");
        assert!(
            (f(&t[o]["hosts_monthly"]["payg"]) - 17_958.0).abs() < 1e-6,
            "{o}"
        );
        assert_eq!(t[o]["cores"], 108, "{o}");
        assert!(
            (f(&t[o]["licence_monthly"]["payg"]) - 3_150.0).abs() < 1e-6,
            "{o}"
        );
    }
    assert_eq!(f(&t["saving"]["hosts_monthly"]["payg"]), 0.0);
    assert_eq!(f(&t["saving"]["licence_monthly"]["payg"]), 0.0);
    assert!(
        (f(&t["saving"]["storage_monthly"]["payg"]) + f(&t["with_anf"]["anf_monthly"]["payg"]))
            .abs()
            < 1e-9
    );
    assert_eq!(assumption(&measured, "IOs in flight")["value"], 8.0);

    // The same servers without their figures: the plan falls back on the defaults,
    // says so, and its datastore check differs.
    let mut bare = inv.clone();
    for v in bare["vms"].as_array_mut().unwrap() {
        v.as_object_mut().unwrap().remove("iops");
        v.as_object_mut().unwrap().remove("mibps");
    }
    let defaults = plan(&app, &bare).await;
    assert_eq!(defaults["targets"]["mibps"], 0.0);
    assert_eq!(defaults["targets"]["io_size_kib"], 64.0);
    assert_eq!(assumption(&defaults, "IO size")["source"], "default");
    let gap = assumption(&defaults, "MiB/s per VM without figures (3 VMs)");
    assert_eq!(
        (gap["value"].as_f64(), gap["source"].as_str()),
        (Some(0.0), Some("default"))
    );
    let demand = |p: &Value| p["datastores"][0]["demand_mibps"].as_f64().unwrap();
    assert!(
        (demand(&measured) - 306.13).abs() < 0.01,
        "{}",
        demand(&measured)
    );
    assert_eq!(demand(&defaults), 0.0);
    assert_ne!(
        measured["evaluation"]["throughput_mibps"], defaults["evaluation"]["throughput_mibps"],
        "the engine checks the datastore at the inventory's IO size"
    );

    // The page and every report list the assumptions with their sources.
    let path = upload(&app, "azure-migrate.csv", FIXTURE, false).await;
    let q = "region=eastus&host_sku=AV36P&default_iops_per_vm=50&comfort_factor=1.3";
    let page = app.get_text(&format!("{path}?{q}")).await;
    let table = page
        .split("<table id=\"avs-assumptions\">")
        .nth(1)
        .and_then(|t| t.split("</table>").next())
        .expect("the assumptions table");
    assert!(
        table.contains("IO size") && table.contains("inventory"),
        "{table}"
    );
    assert!(
        table.contains("Comfort factor") && table.contains("1.3 x"),
        "{table}"
    );
    for f in ["md", "html", "xlsx", "pdf"] {
        let res = app.get(&format!("{path}/plan.{f}?{q}")).await;
        assert_eq!(res.status(), 200, "{f}");
        let bytes = res.bytes().await.unwrap();
        let text = match f {
            "xlsx" => {
                let (sheets, text) = xlsx_text(&bytes);
                assert!(sheets.iter().any(|s| s == "Assumptions"), "{sheets:?}");
                text
            }
            // The PDF sets the Markdown's document; its text is glyph ids. It loads.
            "pdf" => {
                let doc = lopdf::Document::load_mem(&bytes).expect("PDF");
                assert!(!doc.get_pages().is_empty());
                continue;
            }
            _ => String::from_utf8(bytes.to_vec()).unwrap(),
        };
        assert!(f == "xlsx" || text.contains("Assumptions per VM"), "{f}");
        assert!(text.contains("IOs in flight per VM"), "{f}");
        assert!(text.contains("Comfort factor"), "{f}");
        assert!(
            text.contains("IOPS per VM, mean of the 3 VMs with figures"),
            "{f}"
        );
        assert!(text.contains("inventory"), "{f}");
    }
    app.stop().await;
}
