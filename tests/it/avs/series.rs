//! Performance as a series (several rows per VM) takes the chosen percentile of each
//! VM's samples; a Live Optics workbook's `VM Performance` sheet is read by its own
//! column names; the comfort factor raises every VM's figures; both are stated in the
//! plan's assumptions.

use crate::helpers::{TestApp, spawn_app};
use rust_xlsxwriter::Workbook;
use serde_json::{Value, json};

/// 20 samples for `a` (100 to 2,000 IOPS, 1 to 20 MB/s), one for `b`.
fn series_csv() -> String {
    let mut csv = String::from("VM,Timestamp,IOPS,MB/s\n");
    for i in 1..=20 {
        csv.push_str(&format!("a,2026-01-01T{i:02}:00,{},{i}\n", i * 100));
    }
    csv + "b,2026-01-01T00:00,70,3\n"
}

async fn inventory(app: &TestApp) -> Value {
    let csv = "VM,CPUs,Memory,In Use MiB\na,4,16384,102400\nb,2,8192,51200\n";
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/avs/inventory",
            Some("text/csv"),
            csv.as_bytes().to_vec(),
        )
        .await;
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
async fn a_series_takes_the_percentile_and_the_comfort_factor_raises_the_targets() {
    let app = spawn_app().await;
    let inv = inventory(&app).await;
    let merge = |p: Option<u32>| {
        let mut body = json!({"inventory": inv, "csv": series_csv()});
        if let Some(p) = p {
            body["percentile"] = json!(p);
        }
        body
    };
    // The 95th percentile by default: rank ceil(0.95 x 20) = 19, 1,900 IOPS and 19 MB/s.
    let res = app.post_json("/api/v1/avs/performance", &merge(None)).await;
    assert_eq!(res.status(), 200);
    let p95: Value = res.json().await.unwrap();
    assert_eq!(p95["vms"][0]["iops"], 1900.0);
    assert_eq!(
        (
            p95["summary"]["percentile"].as_u64(),
            p95["summary"]["series_vms"].as_u64()
        ),
        (Some(95), Some(1))
    );
    // The median: rank 10, 1,000 IOPS and 10 MB/s (9.5367 MiB/s); b keeps its one row.
    let res = app
        .post_json("/api/v1/avs/performance", &merge(Some(50)))
        .await;
    let p50: Value = res.json().await.unwrap();
    assert_eq!(
        (
            p50["vms"][0]["iops"].as_f64(),
            p50["vms"][1]["iops"].as_f64()
        ),
        (Some(1000.0), Some(70.0))
    );
    let res = app
        .post_json("/api/v1/avs/performance", &merge(Some(0)))
        .await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["field"], "percentile", "{body}");

    // Planned with a comfort factor of 1.3: every VM's figures x 1.3, so the target is
    // (1,000 + 70) x 1.3 = 1,391 IOPS and (10 + 3) MB/s x 1.3 = 16.9 MB/s = 16.117 MiB/s,
    // 17 whole MiB/s.
    let plan = |cf: f64| json!({"inventory": p50, "region": "eastus", "level": "premium", "datastores": 1, "comfort_factor": cf});
    let res = app.post_json("/api/v1/avs/plan", &plan(1.3)).await;
    assert_eq!(res.status(), 200);
    let planned: Value = res.json().await.unwrap();
    assert_eq!(planned["targets"]["iops"], 1391.0);
    assert_eq!(planned["targets"]["mibps"], 17.0);
    let pct = assumption(&planned, "Percentile of each VM's performance samples");
    assert_eq!(
        (pct["value"].as_f64(), pct["source"].as_str()),
        (Some(50.0), Some("user"))
    );
    let cf = assumption(&planned, "Comfort factor");
    assert_eq!(
        (cf["value"].as_f64(), cf["source"].as_str()),
        (Some(1.3), Some("user"))
    );
    // Without it the targets are the figures as measured: 1,070 IOPS, 13 MB/s = 12.4
    // MiB/s, 13 whole.
    let res = app.post_json("/api/v1/avs/plan", &plan(1.0)).await;
    let plain: Value = res.json().await.unwrap();
    assert_eq!(
        (
            plain["targets"]["iops"].as_f64(),
            plain["targets"]["mibps"].as_f64()
        ),
        (Some(1070.0), Some(13.0))
    );
    assert_eq!(assumption(&plain, "Comfort factor")["source"], "default");
    let res = app.post_json("/api/v1/avs/plan", &plan(0.5)).await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["field"], "comfort_factor", "{body}");
    app.stop().await;
}

/// A Live Optics workbook with the column names its export writes: `VMs` (`VM Name`,
/// `Power State`, `Virtual CPU`, `Provisioned Memory (MiB)`, `Virtual Disk Size (MiB)`,
/// `Virtual Disk Used (MiB)`) and `VM Performance` (`VM Name`, `Peak IOPS`, `Average
/// IOPS`): the peak is each VM's figure.
#[tokio::test]
async fn a_live_optics_workbook_gives_each_vm_its_peak_iops() {
    let app = spawn_app().await;
    let mut book = Workbook::new();
    let h = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    super::sheet(
        &mut book,
        "VMs",
        &h(&[
            "VM Name",
            "Power State",
            "Template",
            "Virtual CPU",
            "Provisioned Memory (MiB)",
            "Virtual Disk Size (MiB)",
            "Virtual Disk Used (MiB)",
            "Cluster",
        ]),
        &[
            vec![
                json!("db01"),
                json!("poweredOn"),
                json!("FALSE"),
                json!(8),
                json!(32768),
                json!(204800),
                json!(153600),
                json!("prod"),
            ],
            vec![
                json!("web01"),
                json!("poweredOn"),
                json!("FALSE"),
                json!(2),
                json!(4096),
                json!(51200),
                json!(20480),
                json!("prod"),
            ],
        ],
    );
    super::sheet(
        &mut book,
        "VM Performance",
        &h(&[
            "VM Name",
            "MOB ID",
            "Peak vCPU %",
            "Peak IOPS",
            "Average IOPS",
            "VM IO Classification",
        ]),
        &[
            vec![
                json!("db01"),
                json!("vm-101"),
                json!(80),
                json!(5200),
                json!(1300),
                json!("Heavy"),
            ],
            vec![
                json!("web01"),
                json!("vm-102"),
                json!(20),
                json!(340),
                json!(60),
                json!("Light"),
            ],
        ],
    );
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/avs/inventory",
            Some("application/octet-stream"),
            book.save_to_buffer().unwrap(),
        )
        .await;
    assert_eq!(res.status(), 200);
    let inv: Value = res.json().await.unwrap();
    assert_eq!(inv["summary"]["source"], "live_optics");
    let vms = inv["vms"].as_array().unwrap();
    assert_eq!(
        (vms[0]["vm"].as_str(), vms[0]["iops"].as_f64()),
        (Some("db01"), Some(5200.0))
    );
    assert_eq!(vms[1]["iops"], 340.0);
    assert_eq!(
        (vms[0]["vcpus"].as_u64(), vms[0]["memory_mib"].as_f64()),
        (Some(8), Some(32768.0))
    );
    assert_eq!(inv["summary"]["with_performance"], 2);
    assert!(
        inv["summary"]["percentile"].is_null(),
        "one row per VM: no series"
    );
    app.stop().await;
}
