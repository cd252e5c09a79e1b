//! Prices by region over HTTP: the regions list, regional rates, reservations,
//! discounts and AVS hosts, line by line.

use crate::helpers::{assert_error_body, sample_scenario, spawn_app};
use serde_json::{Value, json};

/// One ANF volume of `tib` at `level` on one VM, in `region`.
fn anf(level: &str, tib: f64, region: &str) -> Value {
    let mut s = sample_scenario();
    s["clients"]["avs"] = Value::Null;
    s["storage"]["level"] = json!(level);
    if level == "flexible" {
        s["storage"]["qos"] = json!("manual");
    }
    s["storage"]["volumes"] = json!([{"count": 1, "quota_tib": tib, "throughput_mibps": if level == "flexible" { json!(640) } else { Value::Null }}]);
    s["workload"]["capacity_tib"] = json!(tib);
    s["region"] = json!(region);
    s
}

async fn cost(app: &crate::helpers::TestApp, s: &Value) -> Value {
    let res = app.post_json("/api/v1/evaluate", s).await;
    assert_eq!(res.status(), 200, "{s}");
    let e: Value = res.json().await.unwrap();
    e["cost"].clone()
}

fn line<'a>(cost: &'a Value, item: &str) -> &'a Value {
    cost["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["item"].as_str().unwrap().starts_with(item))
        .unwrap_or_else(|| panic!("no {item} line in {cost}"))
}

fn close(a: &Value, b: f64) -> bool {
    (a.as_f64().unwrap() - b).abs() <= 1e-6 * b.abs().max(1.0)
}

#[tokio::test]
async fn regions_list_the_price_book() {
    let app = spawn_app().await;
    let list: Value = app.get("/api/v1/regions").await.json().await.unwrap();
    let list = list.as_array().unwrap();
    assert!(list.len() >= 50, "{}", list.len());
    let east = list.iter().find(|r| r["region"] == "eastus").unwrap();
    assert_eq!(east["service"], json!("anf"));
    assert_eq!(east["features"]["flexible"], json!(true));
}

#[tokio::test]
async fn the_pool_is_billed_in_whole_tib() {
    let app = spawn_app().await;
    // Three 1.5 TiB Premium volumes need 4.5 TiB: the pool is 5 TiB (1 TiB steps),
    // billed at East US's 0.29419 per GiB-month (NOTES.md).
    let mut s = anf("premium", 1.5, "eastus");
    s["storage"]["volumes"][0]["count"] = json!(3);
    s["workload"]["capacity_tib"] = json!(4.5);
    let c = cost(&app, &s).await;
    let pool = line(&c, "Premium pool capacity");
    assert!(
        close(&pool["quantity"], 5120.0) && close(&pool["monthly"], 5120.0 * 0.29419),
        "{c}"
    );
    assert!(close(&c["billed_tib"], 5.0), "{c}");
}

#[tokio::test]
async fn flexible_costs_by_region_line_by_line() {
    let app = spawn_app().await;
    // NOTES.md: Flexible East US 0.11023 per GiB + 2.24986 per MiB/s above 128;
    // West Europe 0.15768 + 3.21711. 4 TiB pool at 640 MiB/s.
    for (region, gib, mibps) in [
        ("eastus", 0.11023, 2.24986),
        ("westeurope", 0.15768, 3.21711),
    ] {
        let c = cost(&app, &anf("flexible", 4.0, region)).await;
        assert_eq!(c["region"], json!(region));
        let capacity = line(&c, "Flexible pool capacity");
        assert!(
            close(&capacity["quantity"], 4096.0) && close(&capacity["unit_price"], gib),
            "{c}"
        );
        let throughput = line(&c, "Flexible throughput");
        assert!(
            close(&throughput["quantity"], 512.0) && close(&throughput["unit_price"], mibps),
            "{c}"
        );
        assert!(close(&c["monthly"], 4096.0 * gib + 512.0 * mibps), "{c}");
        assert_eq!(c["price_book"]["date"], json!("2026-01-29"));
    }
}

#[tokio::test]
async fn reservation_band_discount_and_avs_hosts() {
    let app = spawn_app().await;
    // Premium 3-year reservation at 100 TiB or more: 30 % off the capacity.
    let mut s = anf("premium", 100.0, "eastus");
    s["pricing"] = json!({"currency": "USD", "discount_pct": 0, "reservation": "3y"});
    let c = cost(&app, &s).await;
    assert!(
        close(
            &line(&c, "Premium pool capacity")["unit_price"],
            0.29419 * 0.7
        ),
        "{c}"
    );
    // A 10 % discount on top applies to every line.
    s["pricing"]["discount_pct"] = json!(10);
    let d = cost(&app, &s).await;
    assert!(
        close(&d["monthly"], c["monthly"].as_f64().unwrap() * 0.9),
        "{d}"
    );
    // AVS: the cluster's hosts at the region's host-hour price (Central US AV36: 9.44).
    let mut avs = sample_scenario();
    avs["region"] = json!("centralus");
    let c = cost(&app, &avs).await;
    let hosts = line(&c, "AVS hosts");
    assert!(
        close(&hosts["quantity"], 4.0) && close(&hosts["monthly"], 4.0 * 9.44 * 730.0),
        "{c}"
    );
}

#[tokio::test]
async fn unknown_regions_and_currencies_are_422() {
    let app = spawn_app().await;
    let mut mars = anf("ultra", 4.0, "mars");
    let res = app.post_json("/api/v1/evaluate", &mars).await;
    assert_eq!(res.status(), 422);
    assert_error_body(&res.json().await.unwrap(), Some("region"));
    mars["region"] = json!("eastus");
    mars["pricing"] = json!({"currency": "EUR"});
    let res = app.post_json("/api/v1/scenarios", &mars).await;
    assert_eq!(res.status(), 422);
    assert_error_body(&res.json().await.unwrap(), Some("pricing.currency"));
}

#[tokio::test]
async fn cool_data_read_back_is_a_cost_line_at_the_regions_retrieval_rate() {
    let app = spawn_app().await;
    // 10 TiB Standard with cool access, 80 % of the data cool: 8 TiB in the cool tier.
    let mut s = anf("standard", 10.0, "eastus");
    s["storage"]["cool_access"] = json!({"cool_data_pct": 80, "cool_read_pct": 5});
    let res = app.post_json("/api/v1/evaluate", &s).await;
    let e: Value = res.json().await.unwrap();
    let lines = e["cost"]["lines"].as_array().unwrap();
    assert!(
        !lines.iter().any(|l| l["item"] == "Cool tier retrieval"),
        "no retrieval line without a monthly share: {lines:?}"
    );
    let advice = e["advice"].as_array().unwrap();
    let tip = advice
        .iter()
        .find(|a| a["code"] == "cool_retrieval")
        .unwrap();
    assert!(
        tip["message"]
            .as_str()
            .unwrap()
            .contains("costs 0.02 USD per GiB"),
        "{tip}"
    );

    // 10 % of it read back each month: 819.2 GiB at East US's 0.02 USD per GiB (NOTES.md).
    s["storage"]["cool_access"]["retrieved_pct_per_month"] = json!(10);
    let res = app.post_json("/api/v1/evaluate", &s).await;
    let e: Value = res.json().await.unwrap();
    let c = &e["cost"];
    let retrieval = line(c, "Cool tier retrieval");
    assert!(
        close(&retrieval["quantity"], 819.2) && close(&retrieval["monthly"], 819.2 * 0.02),
        "{c}"
    );
    assert!(
        close(&line(c, "Cool tier capacity")["quantity"], 8192.0),
        "{c}"
    );
    assert!(
        !e["advice"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["code"] == "cool_retrieval"),
        "the cost says it now"
    );

    s["storage"]["cool_access"]["retrieved_pct_per_month"] = json!(1001);
    let res = app.post_json("/api/v1/evaluate", &s).await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["field"], "storage.cool_access.retrieved_pct_per_month");
}

#[tokio::test]
async fn snapshot_reserve_backup_and_replication_lines() {
    let app = spawn_app().await;
    let mut s = anf("premium", 10.0, "eastus");
    s["data_protection"] = json!({
        "snapshot_reserve_pct": 20, "daily_change_pct": 1,
        "backup": {"daily": 7, "weekly": 4, "monthly": 3},
        "replication": "hourly", "replication_region": "westus"
    });
    let c = cost(&app, &s).await;
    let snap = line(&c, "Snapshot reserve");
    assert!(
        close(&snap["quantity"], 2048.0) && close(&snap["unit_price"], 0.29419),
        "{c}"
    );
    // As the ANF calculator: backup 0.05 $/GiB-month, the full copy (stored, so every
    // month) and one day of 1 % changes per backup kept (7 + 4 + 3 = 14); hourly
    // replication 0.12 $/GiB, 10,240 × 0.65 GiB once and 31 days of changes × 0.65
    // a month.
    let full = line(&c, "Backup, full copy");
    assert!(
        full["one_time"] == json!(false) && close(&full["monthly"], 10240.0 * 0.05),
        "{c}"
    );
    let kept = line(&c, "Backup, retained daily changes");
    assert!(
        close(&kept["quantity"], 10240.0 * 0.01 * 14.0) && close(&kept["unit_price"], 0.05),
        "{c}"
    );
    let initial = line(&c, "Cross-region replication, initial transfer");
    assert!(
        initial["one_time"] == json!(true) && close(&initial["monthly"], 798.72),
        "{c}"
    );
    let changes = line(&c, "Cross-region replication, daily changes");
    assert!(
        close(&changes["quantity"], 2063.36) && close(&changes["unit_price"], 0.12),
        "{c}"
    );
    // The monthly sum leaves the one-time lines out; `one_time` adds them up.
    let sum = |once: bool| -> f64 {
        c["lines"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["one_time"] == json!(once))
            .map(|l| l["monthly"].as_f64().unwrap())
            .sum()
    };
    assert!(close(&c["monthly"], sum(false)), "{c}");
    assert!(close(&c["one_time"], 798.72), "{c}");

    s["data_protection"]["replication_region"] = Value::Null;
    let res = app.post_json("/api/v1/evaluate", &s).await;
    assert_eq!(res.status(), 422);
    assert_error_body(
        &res.json().await.unwrap(),
        Some("data_protection.replication_region"),
    );
    s["storage"]["service"] = json!("gcnv");
    let res = app.post_json("/api/v1/evaluate", &s).await;
    assert_eq!(res.status(), 422);
    assert_error_body(&res.json().await.unwrap(), Some("data_protection"));
}
