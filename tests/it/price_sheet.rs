//! The user's own prices: a CSV price sheet for what no public list covers (GCNV
//! Premium in europe-west1) and a Retail Prices API page in EUR, each pricing the
//! scenario and its report in its own currency.

use crate::helpers::{TestApp, fixture_text, sample_scenario, spawn_app};
use serde_json::{Value, json};

const HEADER: &str = "service,level,region,meter,unit,price,currency,valid_as_of,source\n";

async fn post_sheet(app: &TestApp, csv: &str) -> reqwest::Response {
    app.send_raw(
        reqwest::Method::POST,
        "/api/v1/prices/sheet",
        Some("text/csv"),
        csv.as_bytes().to_vec(),
    )
    .await
}

/// One 4 TiB GCNV Premium volume in europe-west1.
fn gcnv_premium() -> Value {
    let mut s = sample_scenario();
    s["clients"]["avs"] = Value::Null;
    s["storage"] = json!({"service": "gcnv", "level": "premium",
        "volumes": [{"count": 1, "quota_tib": 4}]});
    s["workload"]["capacity_tib"] = json!(4);
    s["region"] = json!("europe-west1");
    s
}

async fn evaluated(app: &TestApp, s: &Value) -> Value {
    let res = app.post_json("/api/v1/evaluate", s).await;
    assert_eq!(res.status(), 200);
    res.json().await.unwrap()
}

#[tokio::test]
async fn a_gcnv_price_sheet_prices_the_scenario_and_its_report() {
    let app = spawn_app().await;
    let s = gcnv_premium();
    assert!(evaluated(&app, &s).await["cost"]["monthly"].is_null());

    // Every bad row is named at once, and nothing is stored.
    let res = post_sheet(
        &app,
        &format!(
            "{HEADER}gcnv,premium,europe-west1,capacity,TB-month,1,USD,2026-06-01,q\n\
             gcnv,premium,europe-west1,capacity,GiB-month,x,USD,2026-06-01,q\n"
        ),
    )
    .await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    let fields: Vec<&str> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["rows[1].unit", "rows[2].price"], "{body}");
    assert!(evaluated(&app, &s).await["cost"]["monthly"].is_null());

    let res = post_sheet(
        &app,
        &format!(
            "{HEADER}gcnv,premium,europe-west1,capacity,GiB-month,0.3,USD,2026-06-01,quote 117\n"
        ),
    )
    .await;
    assert_eq!(res.status(), 200);
    let done: Value = res.json().await.unwrap();
    assert_eq!(
        (&done["added"], &done["stored"]),
        (&json!(1), &json!(true)),
        "{done}"
    );
    let e = evaluated(&app, &s).await;
    let monthly = e["cost"]["monthly"].as_f64().expect("priced now");
    assert!((monthly - 0.3 * 4096.0).abs() < 1e-6, "{}", e["cost"]);

    let id = app.create(&s).await;
    let md = app.get_text(&format!("/scenarios/{id}/report.md")).await;
    assert!(
        md.contains("1,228.8"),
        "the sheet's price in the report:\n{md}"
    );
}

#[tokio::test]
async fn a_retail_page_in_euros_prices_in_euros_everywhere() {
    let app = spawn_app().await;
    let mut page: Value = serde_json::from_str(&fixture_text("prices/retail-page.json")).unwrap();
    page["BillingCurrency"] = json!("EUR");
    for item in page["Items"].as_array_mut().unwrap() {
        item["currencyCode"] = json!("EUR");
    }
    let res = app.post_json("/api/v1/prices/import", &page).await;
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());

    let mut s = sample_scenario();
    s["clients"]["avs"] = Value::Null;
    s["storage"]["level"] = json!("ultra");
    s["storage"]["volumes"] = json!([{"count": 1, "quota_tib": 4}]);
    s["workload"]["capacity_tib"] = json!(4);
    s["region"] = json!("eastus");
    s["pricing"] = json!({"currency": "EUR"});
    let e = evaluated(&app, &s).await;
    assert_eq!(e["cost"]["currency"], "EUR", "{}", e["cost"]);
    assert!(e["cost"]["monthly"].as_f64().unwrap() > 0.0);

    let res = app.post_json("/api/v1/scenarios", &s).await;
    let body: Value = res.json().await.unwrap();
    let id = body["id"].as_i64().unwrap_or_else(|| panic!("{body}"));
    let md = app.get_text(&format!("/scenarios/{id}/report.md")).await;
    assert!(md.contains("€1,608.66"), "{md}");
    // The charts' data URIs are base64, not text.
    let md: String = md
        .split("(data:image/")
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                part
            } else {
                part.split_once(')').map_or("", |p| p.1)
            }
        })
        .collect();
    let dollar_amount = md
        .match_indices('$')
        .any(|(i, _)| md[i + 1..].starts_with(|c: char| c.is_ascii_digit()));
    assert!(
        !md.contains("USD") && !dollar_amount,
        "no dollar figure in a EUR report:\n{md}"
    );
}

/// The errors of a refused sheet: (field, message) each.
async fn refused(app: &TestApp, csv: &str) -> Vec<(String, String)> {
    let res = post_sheet(app, csv).await;
    let status = res.status();
    let body: Value = res.json().await.unwrap();
    assert_eq!(status, 422, "{body}");
    body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["field"].as_str().unwrap().to_owned(),
                e["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_sheet_is_refused_whole_for_each_thing_to_fix_and_names_it() {
    let app = spawn_app().await;
    let line = |price: &str, currency: &str, date: &str, source: &str| {
        format!("anf,premium,westeurope,capacity,GiB-month,{price},{currency},{date},{source}\n")
    };
    let ok = line("0.25", "EUR", "2026-06-01", "EA");
    let cases = [
        (
            "one row at two prices",
            format!(
                "{HEADER}{ok}anf,ultra,westeurope,capacity,GiB-month,0.4,EUR,2026-06-01,EA\n{}",
                line("0.27", "EUR", "2026-06-01", "EA")
            ),
            "rows[3].price",
            "rows 1 and 3",
        ),
        (
            "a column named twice",
            "service,level,region,meter,unit,price,currency,valid_as_of,source,currency\n\
             anf,premium,westeurope,capacity,GiB-month,0.25,EUR,2026-06-01,EA,USD\n"
                .to_owned(),
            "header",
            "`currency` is named twice (columns 7 and 10)",
        ),
        (
            "three capital letters that are no currency",
            format!("{HEADER}{}", line("0.25", "QQQ", "2026-06-01", "EA")),
            "rows[1].currency",
            "not an ISO 4217 currency code",
        ),
        (
            "the year 1",
            format!("{HEADER}{}", line("0.25", "EUR", "0001-01-01", "EA")),
            "rows[1].valid_as_of",
            "outside the dates a price can be valid as of, 2015-01-01 to",
        ),
        (
            "the year 9999",
            format!("{HEADER}{}", line("0.25", "EUR", "9999-12-31", "EA")),
            "rows[1].valid_as_of",
            "outside the dates a price can be valid as of, 2015-01-01 to",
        ),
        (
            "a quote left open",
            format!(
                "{HEADER}{}{ok}",
                line("0.3", "USD", "2026-06-01", "\"EA sheet")
            ),
            "rows[1].source",
            "a quote opened in `source` is not closed on this line",
        ),
    ];
    for (what, csv, field, says) in cases {
        let errors = refused(&app, &csv).await;
        assert_eq!(errors[0].0, field, "{what}: {errors:?}");
        assert!(errors[0].1.contains(says), "{what}: {errors:?}");
    }
    // Nothing of any of them was stored.
    let rows: Value = app
        .get_json("/api/v1/prices?service=anf&region=westeurope")
        .await;
    let stored = rows
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["stored"] == json!(true))
        .count();
    assert_eq!(stored, 0, "{rows}");

    // The same price twice is one price.
    let res = post_sheet(&app, &format!("{HEADER}{ok}{ok}")).await;
    assert_eq!(res.status(), 200);
    let done: Value = res.json().await.unwrap();
    assert_eq!(done["added"], json!(1), "{done}");
}
