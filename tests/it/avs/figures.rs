//! Inventory figures out of range (`1e308` MiB, `NaN`, `inf`, negatives) are refused
//! with a 422 naming each figure's sheet and column, row, VM and range, every one at
//! once, in an RVTools workbook, a Live Optics workbook, a CSV inventory and the JSON
//! bodies that carry an inventory; nothing is stored and no message prints a long
//! number.

use super::sheet;
use crate::helpers::{TestApp, spawn_app};
use rust_xlsxwriter::Workbook;
use serde_json::{Value, json};

/// The VM rows of every file: one good, then `1e308` MiB in use, `NaN` and `inf`
/// written as text, and `-1` vCPUs.
fn rows() -> Vec<Vec<Value>> {
    vec![
        vec![json!("good"), json!(4), json!(1024), json!(512)],
        vec![json!("huge"), json!(4), json!(1024), json!(1e308)],
        vec![json!("nan"), json!(4), json!("NaN"), json!(512)],
        vec![json!("inf"), json!(4), json!(1024), json!("inf")],
        vec![json!("negative"), json!(-1), json!(1024), json!(512)],
    ]
}

/// The errors every file gives: (field, row, VM, what the message quotes).
fn expected(sheet: &str, first_row: u32) -> Vec<(String, String)> {
    let row = |n: u32| format!("{sheet} row {}", first_row + n);
    let f = |c: &str| format!("{sheet}.{c}");
    vec![
        (
            f("In Use MiB"),
            format!(
                "{}, VM `huge`: `In Use MiB` is 1e308, outside 0 to 10,000,000,000 MiB",
                row(1)
            ),
        ),
        (
            f("Provisioned MiB"),
            format!(
                "{}, VM `nan`: `Provisioned MiB` is not a number, outside 0 to",
                row(2)
            ),
        ),
        (
            f("In Use MiB"),
            format!(
                "{}, VM `inf`: `In Use MiB` is infinite, outside 0 to",
                row(3)
            ),
        ),
        (
            f("CPUs"),
            format!(
                "{}, VM `negative`: `CPUs` is -1, outside 0 to 4,096 vCPUs",
                row(4)
            ),
        ),
    ]
}

fn headers() -> Vec<String> {
    ["VM", "CPUs", "Provisioned MiB", "In Use MiB"]
        .map(String::from)
        .to_vec()
}

fn workbook(sheet_name: &str) -> Vec<u8> {
    let mut book = Workbook::new();
    sheet(&mut book, sheet_name, &headers(), &rows());
    book.save_to_buffer().unwrap()
}

fn csv() -> String {
    let mut out = headers().join(",") + "\n";
    for r in rows() {
        let cells: Vec<String> = r
            .iter()
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
            .collect();
        out += &(cells.join(",") + "\n");
    }
    out
}

/// Asserts a 422 listing exactly `want`, in order, and no long number anywhere.
async fn refused(res: reqwest::Response, want: &[(String, String)], what: &str) {
    assert_eq!(res.status(), 422, "{what}");
    let body: Value = res.json().await.unwrap();
    let errors = body["errors"].as_array().unwrap();
    assert_eq!(errors.len(), want.len(), "{what}: {body}");
    for (e, (field, message)) in errors.iter().zip(want) {
        assert_eq!(e["field"], json!(field), "{what}: {body}");
        let m = e["message"].as_str().unwrap();
        assert!(
            m.starts_with(message.as_str()),
            "{what}: {m}\nwanted: {message}"
        );
    }
    assert_eq!(body["field"], errors[0]["field"]);
    assert!(
        !body.to_string().contains("0000000000000"),
        "{what}: a long number: {body}"
    );
}

async fn import(app: &TestApp, bytes: Vec<u8>) -> reqwest::Response {
    app.send_raw(
        reqwest::Method::POST,
        "/api/v1/avs/inventory",
        Some("application/octet-stream"),
        bytes,
    )
    .await
}

async fn stored(app: &TestApp) -> i64 {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM avs_inventories")
        .fetch_one(&app.db)
        .await
        .unwrap();
    n
}

#[tokio::test]
async fn rvtools_live_optics_and_csv_figures_out_of_range_are_refused_every_one() {
    let app = spawn_app().await;
    // The header is row 1 of a sheet, line 1 of a file: the VMs start at 2.
    let cases = [
        ("RVTools", workbook("vInfo"), expected("vInfo", 2)),
        ("Live Optics", workbook("VMs"), expected("VMs", 2)),
        ("CSV", csv().into_bytes(), expected("vInfo", 2)),
    ];
    for (what, bytes, want) in cases {
        refused(import(&app, bytes).await, &want, what).await;
    }
    // The page refuses the file beside its input and stores nothing.
    let res = app
        .post_multipart("/avs", &[("file", Some("vms.csv"), csv().as_str())])
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("VM “huge”"), "{html}");
    assert!(html.contains("is 1e308, outside 0 to 10,000,000,000 MiB"));
    assert_eq!(stored(&app).await, 0, "nothing stored");
    // The good VM alone imports.
    let good: String = csv().lines().take(2).map(|l| format!("{l}\n")).collect();
    assert_eq!(import(&app, good.into_bytes()).await.status(), 200);
}

#[tokio::test]
async fn a_performance_file_out_of_range_is_refused_naming_row_and_vm() {
    let app = spawn_app().await;
    let res = import(&app, b"VM,In Use MiB\nweb01,1024\nweb02,2048\n".to_vec()).await;
    let inventory: Value = res.json().await.unwrap();
    let body =
        json!({"inventory": inventory, "csv": "VM,IOPS,MiB/s\nweb01,-1e308,1\nweb02,5,NaN\n"});
    let res = app.post_json("/api/v1/avs/performance", &body).await;
    let want = [
        (
            "performance.IOPS".to_owned(),
            "performance row 2, VM `web01`: `IOPS` is -1e308, outside 0 to 10,000,000 IOPS"
                .to_owned(),
        ),
        (
            "performance.MiB/s".to_owned(),
            "performance row 3, VM `web02`: `MiB/s` is not a number, outside 0 to 1,000,000 MiB/s"
                .to_owned(),
        ),
    ];
    refused(res, &want, "performance CSV").await;
}

#[tokio::test]
async fn inventory_bodies_out_of_range_are_refused_every_one() {
    let app = spawn_app().await;
    let res = import(&app, b"VM,In Use MiB\nweb01,1024\nweb02,2048\n".to_vec()).await;
    let mut inventory: Value = res.json().await.unwrap();
    inventory["vms"][0]["in_use_mib"] = json!(1e308);
    inventory["vms"][1]["memory_mib"] = json!(-1);
    inventory["vms"][1]["iops"] = json!(-1e308);
    inventory["summary"]["in_use_tib"] = json!(1e308);
    let want = [
        (
            "inventory.vms[0].in_use_mib",
            "VM `web01`: in_use_mib is 1e308, outside 0 to 10,000,000,000 MiB",
        ),
        (
            "inventory.vms[1].memory_mib",
            "VM `web02`: memory_mib is -1, outside 0 to 67,108,864 MiB",
        ),
        (
            "inventory.vms[1].iops",
            "VM `web02`: iops is -1e308, outside 0 to 10,000,000 IOPS",
        ),
        (
            "inventory.summary.in_use_tib",
            "the summary's in_use_tib is 1e308, outside 0 to",
        ),
    ]
    .map(|(f, m)| (f.to_owned(), m.to_owned()));
    let plan = json!({"inventory": inventory, "host_sku": "AV36", "region": "westus2"});
    refused(
        app.post_json("/api/v1/avs/plan", &plan).await,
        &want,
        "plan",
    )
    .await;
    let perf = json!({"inventory": inventory, "csv": "VM,IOPS\nweb01,5\n"});
    refused(
        app.post_json("/api/v1/avs/performance", &perf).await,
        &want,
        "performance body",
    )
    .await;
}
