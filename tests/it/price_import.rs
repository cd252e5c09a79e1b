//! Retail Prices API pages into the price book in force: through the API, the command
//! line and the Prices page, the rows and CSV in force, prices entered by hand, and the
//! parser against arbitrary input.

use crate::helpers::{
    TestApp, assert_error_body, fixture_text, sample_scenario, spawn_app, spawn_app_in,
};
use proptest::prelude::*;
use serde_json::{Value, json};
use volplan::engine::pricing;
use volplan::prices::retail;

/// The sample's items at the book's prices.
fn page() -> Value {
    serde_json::from_str(&fixture_text("prices/retail-page.json")).unwrap()
}

/// The same page with eastus Ultra and westeurope Flexible capacity raised.
fn changed_page() -> Value {
    serde_json::from_str(&fixture_text("prices/retail-page-changed.json")).unwrap()
}

/// One ANF volume of 4 TiB at `level` in `region`, without AVS.
fn volume(level: &str, region: &str) -> Value {
    let mut s = sample_scenario();
    s["clients"]["avs"] = Value::Null;
    s["storage"]["level"] = json!(level);
    if level == "flexible" {
        s["storage"]["qos"] = json!("manual");
    }
    s["storage"]["volumes"] = json!([{"count": 1, "quota_tib": 4,
        "throughput_mibps": if level == "flexible" { json!(256) } else { Value::Null }}]);
    s["workload"]["capacity_tib"] = json!(4);
    s["region"] = json!(region);
    s
}

/// The Evaluation of `s`.
async fn evaluated(app: &TestApp, s: &Value) -> Value {
    let res = app.post_json("/api/v1/evaluate", s).await;
    assert_eq!(res.status(), 200);
    res.json().await.unwrap()
}

/// The first cost line of `s` (the pool capacity).
async fn capacity_line(app: &TestApp, s: &Value) -> Value {
    evaluated(app, s).await["cost"]["lines"][0].clone()
}

fn close(a: &Value, b: f64) -> bool {
    (a.as_f64().unwrap() - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[tokio::test]
async fn an_api_import_changes_the_cost_in_that_region_only() {
    let app = spawn_app().await;
    let ultra = volume("ultra", "eastus");
    let before = capacity_line(&app, &ultra).await;
    assert!(close(&before["unit_price"], 0.39274), "{before}");

    // A dry run says what would change and stores nothing.
    let res = app
        .post_json("/api/v1/prices/import?dry_run=true", &changed_page())
        .await;
    assert_eq!(res.status(), 200);
    let dry: Value = res.json().await.unwrap();
    assert_eq!(dry["stored"], json!(false));
    assert_eq!(dry["changed"], json!(2), "{dry}");
    assert!(close(
        &capacity_line(&app, &ultra).await["unit_price"],
        0.39274
    ));

    let res = app
        .post_json("/api/v1/prices/import", &changed_page())
        .await;
    assert_eq!(res.status(), 200);
    let done: Value = res.json().await.unwrap();
    assert_eq!(
        (
            &done["added"],
            &done["changed"],
            &done["unchanged"],
            &done["ignored"]
        ),
        (&json!(0), &json!(2), &json!(9), &json!(2)),
        "{done}"
    );
    assert_eq!(done["stored"], json!(true));
    assert!(
        done["price_book"]["id"].as_str().unwrap().contains("+db"),
        "{done}"
    );
    let row = done["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["region"] == "eastus" && r["item"] == "ultra")
        .unwrap();
    assert!(
        close(&row["old"], 0.39274) && close(&row["new"], 0.438),
        "{row}"
    );
    assert_eq!(row["change"], json!("changed"));

    // Ultra in East US costs 0.0006 x 730 now; West US and Premium are as before.
    let after = capacity_line(&app, &ultra).await;
    assert!(close(&after["unit_price"], 0.438), "{after}");
    let west = capacity_line(&app, &volume("ultra", "westus")).await;
    assert!(!close(&west["unit_price"], 0.438), "{west}");
    let premium = capacity_line(&app, &volume("premium", "eastus")).await;
    assert!(close(&premium["unit_price"], 0.29419), "{premium}");
    let flex = capacity_line(&app, &volume("flexible", "westeurope")).await;
    assert!(close(&flex["unit_price"], 0.1825), "{flex}");

    // The rows in force say where the new price comes from; the CSV has it too.
    let rows: Value = app
        .get_json("/api/v1/prices?service=anf&region=eastus")
        .await;
    let ultra_row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["item"] == "ultra")
        .unwrap();
    assert_eq!(ultra_row["stored"], json!(true));
    assert!(close(&ultra_row["price"], 0.438));
    let source = ultra_row["source"].as_str().unwrap();
    assert!(
        source.contains("Ultra Capacity") && source.contains("404d55e7"),
        "{source}"
    );
    let csv = app.get("/api/v1/prices.csv?region=eastus").await;
    assert_eq!(csv.status(), 200);
    assert!(
        csv.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let text = csv.text().await.unwrap();
    assert!(text.starts_with(
        "service,region,region_name,item,label,unit,price,currency,as_of,source,stored,provisional"
    ));
    assert!(
        text.contains("anf,eastus,East US,ultra,Ultra capacity,GiB-month,0.438,USD"),
        "{text}"
    );

    // The same page again changes nothing.
    let again: Value = app
        .post_json("/api/v1/prices/import", &changed_page())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        (&again["changed"], &again["unchanged"]),
        (&json!(0), &json!(11))
    );
    assert_eq!(again["stored"], json!(false));
}

#[tokio::test]
async fn an_item_at_a_price_no_row_can_hold_is_counted_as_refused_and_never_stored() {
    let app = spawn_app().await;
    let mut page = changed_page();
    // East US Ultra at 1e308 per GiB-hour (infinite a month), and a replication meter
    // at 2,000,000 per GiB.
    page["Items"][2]["retailPrice"] = json!(1e308);
    page["Items"][7]["retailPrice"] = json!(2e6);
    let res = app.post_json("/api/v1/prices/import", &page).await;
    assert_eq!(res.status(), 200);
    let done: Value = res.json().await.unwrap();
    assert_eq!(done["refused"], json!(2), "{done}");
    let refused = done["refused_items"].as_array().unwrap();
    assert_eq!(refused[0]["index"], json!(2), "{done}");
    assert_eq!(refused[0]["meter"], json!("Ultra Capacity"));
    let reason = refused[0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("1e308") && reason.contains("a price is 0 to"),
        "{reason}"
    );
    assert_eq!(refused[1]["index"], json!(7), "{done}");
    // Every item is counted once: rows from items, ignored and refused.
    assert_eq!(
        (&done["changed"], &done["unchanged"], &done["ignored"]),
        (&json!(1), &json!(8), &json!(2)),
        "{done}"
    );
    // The refused prices were not stored: East US Ultra is the book's.
    assert!(close(
        &capacity_line(&app, &volume("ultra", "eastus")).await["unit_price"],
        0.39274
    ));
    let rows: Value = app
        .get_json("/api/v1/prices?service=anf&region=eastus")
        .await;
    assert!(
        rows.as_array()
            .unwrap()
            .iter()
            .filter(|r| r["item"] == "ultra" || r["item"] == "crr_10min")
            .all(|r| r["stored"] == json!(false)),
        "{rows}"
    );
}

#[tokio::test]
async fn a_malformed_item_is_refused_with_422_naming_it() {
    let app = spawn_app().await;
    let mut bad = changed_page();
    bad["Items"][3]["retailPrice"] = json!("0.1");
    let res = app.post_json("/api/v1/prices/import", &bad).await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert_error_body(&body, Some("Items[3].retailPrice"));
    assert!(body["error"].as_str().unwrap().contains("number"), "{body}");
    // Nothing of that page was stored.
    let rows: Value = app.get_json("/api/v1/prices?region=eastus").await;
    assert!(
        rows.as_array()
            .unwrap()
            .iter()
            .all(|r| r["stored"] == json!(false))
    );

    // A merged array of items names the index alone.
    let mut items = changed_page()["Items"].clone();
    items[1].as_object_mut().unwrap().remove("meterName");
    let res = app.post_json("/api/v1/prices/import", &items).await;
    assert_eq!(res.status(), 422);
    assert_error_body(&res.json().await.unwrap(), Some("[1].meterName"));

    for (doc, field) in [
        (json!({"items": []}), None),
        (json!(42), None),
        (json!({"Items": "x"}), Some("Items")),
    ] {
        let res = app.post_json("/api/v1/prices/import", &doc).await;
        assert_eq!(res.status(), 422, "{doc}");
        assert_error_body(&res.json().await.unwrap(), field);
    }
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/prices/import",
            Some("application/json"),
            b"{\"Items\": [".to_vec(),
        )
        .await;
    assert_eq!(res.status(), 400);
    let res = app.get("/api/v1/prices?service=ebs").await;
    assert_eq!(res.status(), 422);
    assert_error_body(&res.json().await.unwrap(), Some("service"));
}

/// Runs `volplan prices import` on `file` against the database in `dir`.
async fn cli_import(dir: &std::path::Path, file: &std::path::Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_volplan"))
        .args(["prices", "import"])
        .arg(file)
        .arg("--database-url")
        .arg(crate::helpers::database_url_in(dir).await)
        .env_remove("DATABASE_URL")
        .output()
        .expect("volplan runs")
}

#[tokio::test]
async fn a_cli_import_prices_the_next_server_on_that_database() {
    let dir = tempfile::tempdir().unwrap();
    let page_file = dir.path().join("page.json");
    std::fs::write(&page_file, changed_page().to_string()).unwrap();
    let out = cli_import(dir.path(), &page_file).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (&answer["changed"], &answer["stored"]),
        (&json!(2), &json!(true))
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("stored 0 new and 2 changed"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let app = spawn_app_in(dir).await;
    let line = capacity_line(&app, &volume("ultra", "eastus")).await;
    assert!(close(&line["unit_price"], 0.438), "{line}");
    let dir = app.stop().await;

    // A malformed page is refused with the file, item and field; exit 2.
    let mut bad = changed_page();
    bad["Items"][2]["effectiveStartDate"] = json!("soon");
    std::fs::write(&page_file, bad.to_string()).unwrap();
    let out = cli_import(dir.path(), &page_file).await;
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("page.json: Items[2].effectiveStartDate"),
        "{err}"
    );
}

#[tokio::test]
async fn the_prices_page_imports_after_showing_the_diff() {
    let app = spawn_app().await;
    let res = app.get("/prices").await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("href=\"/prices\" aria-current=\"page\""),
        "nav link"
    );
    assert!(html.contains("Ultra capacity") && html.contains("0.39274"));
    assert!(html.contains("/api/v1/prices.csv"));
    // Typing a price and leaving the page asks first (guard.js on the entry form).
    assert!(
        html.contains("action=\"/prices/enter\" class=\"import\" data-unsaved-guard"),
        "the entry form has the unsaved-edit guard"
    );

    let res = app
        .post_multipart(
            "/prices/preview",
            &[(
                "file",
                Some("anf-2026-06.json"),
                &changed_page().to_string(),
            )],
        )
        .await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("Check the import of anf-2026-06.json"),
        "{html}"
    );
    assert!(html.contains("<b>2</b> changed"), "{html}");
    assert!(html.contains("0.39274") && html.contains("<b>0.438</b>"));
    // Nothing is stored before the rows are accepted.
    let line = capacity_line(&app, &volume("ultra", "eastus")).await;
    assert!(close(&line["unit_price"], 0.39274));

    // Accept only the East US row (the boxes post the rows back).
    let tokens: Vec<String> = html
        .split("name=\"row\" value=\"")
        .skip(1)
        .map(|rest| crate::helpers::unescape_attr(&rest[..rest.find('"').unwrap()]))
        .collect();
    assert_eq!(tokens.len(), 2, "{tokens:?}");
    let east = tokens.iter().find(|t| t.contains("eastus")).unwrap();
    let res = app
        .post_pairs(
            "/prices/accept",
            &[("origin", "anf-2026-06.json"), ("row", east)],
        )
        .await;
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/prices?stored=1");
    let line = capacity_line(&app, &volume("ultra", "eastus")).await;
    assert!(close(&line["unit_price"], 0.438), "{line}");
    let flex = capacity_line(&app, &volume("flexible", "westeurope")).await;
    assert!(close(&flex["unit_price"], 0.15768), "{flex}");
    let html = app.get_text("/prices?region=eastus&stored=1").await;
    assert!(html.contains("Stored 1 price(s)"), "{html}");
    assert!(html.contains("imported from anf-2026-06.json"), "{html}");

    // A file that is not a page is refused, naming the item; a form without the token too.
    let mut bad = changed_page();
    bad["Items"][0]["armRegionName"] = json!(7);
    let res = app
        .post_multipart(
            "/prices/preview",
            &[("file", Some("bad.json"), &bad.to_string())],
        )
        .await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("Items[0].armRegionName"));
    let res = app
        .send_form(
            "/prices/accept",
            "application/x-www-form-urlencoded",
            format!("row={}", "x").into_bytes(),
        )
        .await;
    assert_eq!(res.status(), 403);
}

/// Posts the Prices page's entry form.
async fn enter(
    app: &TestApp,
    item: &str,
    region: &str,
    price: &str,
    note: &str,
) -> reqwest::Response {
    let fields = [
        ("item", item),
        ("region", region),
        ("price", price),
        ("note", note),
    ];
    app.post_pairs("/prices/enter", &fields).await
}

#[tokio::test]
async fn a_price_entered_by_hand_prices_a_level_without_one() {
    let app = spawn_app().await;
    let mut gcnv = sample_scenario();
    gcnv["clients"]["avs"] = Value::Null;
    gcnv["storage"] = json!({"service": "gcnv", "level": "premium",
        "volumes": [{"count": 1, "quota_tib": 4}]});
    gcnv["region"] = json!("europe-west1");
    let e = evaluated(&app, &gcnv).await;
    assert!(e["cost"]["monthly"].is_null(), "{}", e["cost"]);

    let res = enter(
        &app,
        "gcnv/premium",
        "europe-west1",
        "0.25",
        "negotiated rate, contract 42",
    )
    .await;
    assert_eq!(res.status(), 303);
    let e = evaluated(&app, &gcnv).await;
    assert!(
        close(&e["cost"]["lines"][0]["unit_price"], 0.25),
        "{}",
        e["cost"]
    );
    assert!(close(&e["cost"]["monthly"], 0.25 * 4096.0), "{}", e["cost"]);
    let rows: Value = app
        .get_json("/api/v1/prices?service=gcnv&region=europe-west1")
        .await;
    assert!(
        rows[0]["source"]
            .as_str()
            .unwrap()
            .ends_with("negotiated rate, contract 42"),
        "{rows}"
    );
    // The cheapest star can now go to the priced level.
    assert!(
        e["sizing"]
            .as_array()
            .unwrap()
            .iter()
            .any(|z| z["monthly_usd"].is_number())
    );

    // A price that is not one is refused where it was typed, and nothing is stored.
    let res = enter(&app, "anf/ultra", "mars", "0.3", "").await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("not an Azure NetApp Files region"), "{html}");
}

/// Any JSON value, a few levels deep, with the Retail Prices API's keys in the mix.
fn any_json() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        Just("Items".to_owned()),
        Just("retailPrice".to_owned()),
        Just("meterName".to_owned()),
        Just("armRegionName".to_owned()),
        Just("effectiveStartDate".to_owned()),
        Just("unitOfMeasure".to_owned()),
        "[a-zA-Z]{1,8}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        any::<i64>().prop_map(|i| json!(i)),
        ".{0,24}".prop_map(Value::String),
        Just(json!("2025-09-01T00:00:00Z")),
        Just(json!("Azure NetApp Files")),
    ];
    leaf.prop_recursive(4, 64, 8, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            proptest::collection::btree_map(key.clone(), inner, 0..8)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A parse that failed names the whole document or an item's path, in a sentence.
fn clean(e: &retail::RetailError) -> bool {
    !e.message.is_empty()
        && !e.message.contains(" at line ")
        && e.field
            .as_deref()
            .is_none_or(|f| f.starts_with("Items") || f.starts_with('['))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn arbitrary_json_is_read_or_refused_cleanly(doc in any_json()) {
        match retail::parse(&doc) {
            Ok(items) => {
                let plan = retail::plan(&items, pricing::book());
                prop_assert_eq!(plan.items, items.len());
                prop_assert!(plan.rows.iter().all(|r| r.new.is_finite() && r.new >= 0.0));
            }
            Err(e) => prop_assert!(clean(&e), "{:?}", e),
        }
    }

    #[test]
    fn damaged_pages_never_panic(
        cut in 0usize..10_000,
        flips in proptest::collection::vec((0usize..10_000, any::<u8>()), 0..8),
    ) {
        let mut bytes = fixture_text("prices/retail-page-changed.json").into_bytes();
        for (pos, b) in flips {
            let len = bytes.len();
            bytes[pos % len] = b;
        }
        bytes.truncate(cut.min(bytes.len()));
        if let Err(e) = retail::parse_bytes(&bytes) {
            prop_assert!(clean(&e), "{:?}", e);
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = retail::parse_bytes(&bytes);
    }

    #[test]
    fn any_item_field_value_is_read_or_named(field in 0usize..8, value in any_json()) {
        let fields = ["currencyCode", "retailPrice", "armRegionName", "meterName",
                      "effectiveStartDate", "unitOfMeasure", "tierMinimumUnits", "isPrimaryMeterRegion"];
        let mut page = page();
        page["Items"][4][fields[field]] = value;
        match retail::parse(&page) {
            Ok(items) => prop_assert_eq!(items.len(), 13),
            Err(e) => prop_assert_eq!(e.field, Some(format!("Items[4].{}", fields[field]))),
        }
    }
}

#[test]
fn the_unaltered_sample_matches_the_compiled_book() {
    let items = retail::parse(&page()).unwrap();
    let plan = retail::plan(&items, pricing::book());
    assert_eq!(
        (
            plan.items,
            plan.added,
            plan.changed,
            plan.unchanged,
            plan.ignored
        ),
        (13, 0, 0, 11, 2),
        "{plan:?}"
    );
}

#[test]
fn the_price_docs_counts_are_the_books() {
    use volplan::prices::rows::PricedService::{self, Anf, Avs, AzureFiles, Gcnv};
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/prices.md"))
        .expect("docs/prices.md");
    let book = pricing::book();
    let rows = book.rows();
    let of = |s: PricedService, item: Option<&str>| {
        rows.iter()
            .filter(|r| r.service == s && item.is_none_or(|i| r.item == i))
            .collect::<Vec<_>>()
    };
    let regions = |s: PricedService| {
        let mut r: Vec<&str> = of(s, None).iter().map(|r| r.region.as_str()).collect();
        r.dedup();
        r.len()
    };
    let mut needles = vec![
        format!("**{} prices**", of(Anf, None).len()),
        format!("**{} regions**", regions(Anf)),
        format!("in all {} regions", of(Anf, Some("standard")).len()),
        format!("in {}", of(Anf, Some("flexible_capacity")).len()),
        format!("**{} host prices**", of(Avs, None).len()),
        format!("**{} regions**", regions(Avs)),
        format!("**{} discount bands**", book.anf_reservations.len()),
        format!("book's {} regions only", regions(Anf)),
        format!(
            "**{} prices** in **{} regions**",
            of(AzureFiles, None).len(),
            regions(AzureFiles)
        ),
        format!(
            "**{} prices** in **{} regions**",
            of(Gcnv, None).len(),
            regions(Gcnv)
        ),
        format!(
            "Extreme capacity in {} regions",
            of(Gcnv, Some("extreme")).len()
        ),
    ];
    for (sku, label) in [
        ("AV36", "AV36 in"),
        ("AV36P", "AV36P in"),
        ("AV52", "AV52 in"),
        ("AV64", "AV64 in"),
    ] {
        needles.push(format!("{label} {}", of(Avs, Some(sku)).len()));
    }
    for n in needles {
        assert!(doc.contains(&n), "docs/prices.md says `{n}`");
    }
}
