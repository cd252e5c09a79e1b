//! Estates over real HTTP: the optimize endpoint, the pages (create from templates,
//! edit as a new revision, compare revisions) and every report format.

use crate::helpers::{field_message as message, sample_scenario, spawn_app};
use serde_json::{Value, json};

#[tokio::test]
async fn optimize_answers_the_contract_shape_and_names_bad_fields() {
    let app = spawn_app().await;
    let body = json!({
        "workloads": [sample_scenario(), sample_scenario()],
        "region": "westeurope", "years": 2, "growth_pct_per_year": 20
    });
    let res = app.post_json("/api/v1/estate/optimize", &body).await;
    assert_eq!(res.status(), 200);
    let p: Value = res.json().await.unwrap();
    for key in ["pools", "assignments", "timeline", "monthly", "total"] {
        assert!(p.get(key).is_some(), "{key} in {p}");
    }
    assert_eq!(p["timeline"].as_array().unwrap().len(), 24);
    assert_eq!(p["assignments"].as_array().unwrap().len(), 2);
    let total: f64 = p["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["monthly"].as_f64().unwrap())
        .sum();
    assert!((total - p["total"].as_f64().unwrap()).abs() < 1e-6);

    let res = app
        .post_json(
            "/api/v1/estate/optimize",
            &json!({"workloads": [sample_scenario()], "years": 9}),
        )
        .await;
    assert_eq!(res.status(), 422);
    let e: Value = res.json().await.unwrap();
    assert_eq!(e["field"], "years");
    let res = app
        .post_json(
            "/api/v1/estate/optimize",
            &json!({"workloads": [sample_scenario()], "typo": 1}),
        )
        .await;
    assert_eq!(res.status(), 422);
}

#[tokio::test]
async fn an_estate_from_three_templates_is_saved_edited_compared_and_reported() {
    let app = spawn_app().await;
    let res = app
        .post_pairs(
            "/estates",
            &[
                ("name", "Landscape"),
                ("region", "eastus"),
                ("years", "3"),
                ("growth_pct_per_year", "25"),
                ("template", "sap-hana"),
                ("template", "oracle-dnfs"),
                ("template", "avs-datastores"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303, "{}", res.text().await.unwrap());
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let page = app.get_text(&location).await;
    assert!(page.contains("Landscape") && page.contains("Timeline"));
    assert!(page.contains("SAP HANA on ANF") && page.contains("Oracle on ANF"));
    assert!(page.contains("<svg"));

    // Edit: remove one workload, a new revision.
    let res = app
        .post_pairs(&location, &[("remove", "2"), ("years", "2")])
        .await;
    assert_eq!(res.status(), 303);
    let page = app.get_text(&location).await;
    assert!(page.contains("Revision 2"));
    assert!(page.contains("compare with 1"));
    let cmp = app.get_text(&format!("{location}/compare?a=1&b=2")).await;
    assert!(cmp.contains("Revision 1") && cmp.contains("Workloads"));

    for (ext, ct) in [
        ("html", "text/html"),
        ("md", "text/markdown"),
        ("pdf", "application/pdf"),
        ("csv", "text/csv"),
        ("xlsx", "application/vnd.openxmlformats"),
        ("json", "application/json"),
    ] {
        let res = app.get(&format!("{location}/report.{ext}?rev=1")).await;
        assert_eq!(res.status(), 200, "{ext}");
        let got = res.headers()["content-type"].to_str().unwrap().to_owned();
        assert!(got.starts_with(ct), "{ext}: {got}");
        assert!(!res.bytes().await.unwrap().is_empty());
    }
    assert_eq!(
        app.get(&format!("{location}/report.doc")).await.status(),
        404
    );
    assert_eq!(app.get("/estates/999").await.status(), 404);

    // A bad form is refused with the reason, nothing saved.
    let res = app
        .post_pairs("/estates", &[("years", "9"), ("template", "sap-hana")])
        .await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("Nothing was saved"));
    let list = app.get_text("/estates").await;
    assert_eq!(list.matches("href=\"/estates/").count(), 1);
}

#[tokio::test]
async fn a_reservation_chosen_on_the_page_prices_the_pools_in_their_bands() {
    let app = spawn_app().await;
    // The SAP HANA template's pools stay under 100 TiB: a 3-year reservation buys the
    // 100 TiB band only where that costs less, so the first month never rises.
    let create = |reservation: &'static str| {
        let app = &app;
        async move {
            let res = app
                .post_pairs(
                    "/estates",
                    &[
                        ("name", "Reserved"),
                        ("region", "eastus"),
                        ("years", "1"),
                        ("reservation", reservation),
                        ("template", "sap-hana"),
                    ],
                )
                .await;
            assert_eq!(res.status(), 303, "{}", res.text().await.unwrap());
            let location = res.headers()["location"].to_str().unwrap().to_owned();
            let page = app.get_text(&location).await;
            let json: Value = app
                .get(&format!("{location}/report.json?edition=engineer"))
                .await
                .json()
                .await
                .unwrap();
            (page, json)
        }
    };
    let (page, reserved) = create("3y").await;
    assert!(
        page.contains("<option value=\"3y\" selected>3 years</option>"),
        "the form shows the saved choice"
    );
    let (_, list) = create("none").await;
    let month = |v: &Value| v["monthly"].as_f64().unwrap();
    assert!(month(&reserved) <= month(&list) + 1e-6);

    // Over the API: 90 TiB of Premium reserved for 3 years is bought as 100 TiB at 70 %.
    let mut archive = sample_scenario();
    archive["clients"]["avs"] = Value::Null;
    archive["storage"]["level"] = json!("premium");
    archive["storage"]["volumes"] = json!([{"count": 1, "quota_tib": 90}]);
    archive["workload"]["capacity_tib"] = json!(90);
    archive["workload"]["target_mibps"] = Value::Null;
    archive["workload"]["target_iops"] = Value::Null;
    let body = json!({"workloads": [archive], "region": "eastus", "years": 1,
                      "levels": ["premium"], "reservation": "3y"});
    let res = app.post_json("/api/v1/estate/optimize", &body).await;
    assert_eq!(res.status(), 200);
    let p: Value = res.json().await.unwrap();
    assert_eq!(p["pools"][0]["size_tib"], json!(100.0), "{p}");
    assert!(
        p["pools"][0]["explanation"]
            .as_str()
            .unwrap()
            .contains("Reserved for 3 years: 30 % off"),
        "{p}"
    );

    let res = app
        .post_pairs(
            "/estates",
            &[("reservation", "2y"), ("template", "sap-hana")],
        )
        .await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("not none, 1y or 3y"));
}

/// The `<li>` texts of list `id` in `html`.
fn list_items(html: &str, id: &str) -> Vec<String> {
    html.split(&format!("<ul id=\"{id}\">"))
        .nth(1)
        .and_then(|t| t.split("</ul>").next())
        .unwrap_or_else(|| panic!("no list {id}"))
        .split("<li>")
        .skip(1)
        .map(|li| li.trim_end_matches("</li>").replace("&#39;", "'"))
        .collect()
}

#[tokio::test]
async fn the_estate_page_prints_the_verdict_the_api_gives() {
    let app = spawn_app().await;
    let mut ids = Vec::new();
    let mut workloads = Vec::new();
    for (name, level) in [("Files A", "premium"), ("Files B", "ultra")] {
        let mut s = crate::helpers::named(name);
        s["storage"]["level"] = json!(level);
        s["clients"]["avs"] = Value::Null;
        ids.push(app.create(&s).await.to_string());
        workloads.push(s);
    }
    let mut pairs = vec![
        ("name", "Pair"),
        ("region", "eastus"),
        ("years", "1"),
        ("growth_pct_per_year", "0"),
    ];
    pairs.extend(ids.iter().map(|id| ("scenario", id.as_str())));
    let res = app.post_pairs("/estates", &pairs).await;
    assert_eq!(res.status(), 303, "{}", res.text().await.unwrap());
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let page = app.get_text(&location).await;
    let api: Value = app
        .post_json(
            "/api/v1/estate/optimize",
            &json!({"name": "Pair", "workloads": workloads, "region": "eastus", "years": 1}),
        )
        .await
        .json()
        .await
        .unwrap();
    let statements: Vec<String> = api["verdict"]["statements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect();
    assert!(!statements.is_empty());
    assert_eq!(list_items(&page, "estate-verdict"), statements);
    app.stop().await;
}

#[tokio::test]
async fn every_wrong_estate_input_is_marked_beside_it_at_once_and_keeps_what_was_typed() {
    let app = spawn_app().await;
    let res = app
        .post_pairs(
            "/estates",
            &[
                ("name", "Typed"),
                ("region", "mars"),
                ("years", "9"),
                ("growth_pct_per_year", "abc"),
                ("reservation", "none"),
                ("template", "sap-hana"),
                ("template", "nope"),
            ],
        )
        .await;
    assert_eq!(res.status(), 422);
    let page = res.text().await.unwrap();
    for (name, says) in [
        ("region", "“mars” is not an Azure NetApp Files region"),
        ("years", "the timeline runs 1 to 5 years; got 9"),
        ("growth_pct_per_year", "enter a number, not &#34;abc&#34;"),
        ("template", "there is no template “nope”"),
    ] {
        assert!(
            message(&page, name).contains(says),
            "{name}: {}",
            message(&page, name)
        );
        // A page quotes as prose does, names no API path and prints no null.
        for never in ["`", "/api/", "null"] {
            assert!(!message(&page, name).contains(never), "{name}: {never}");
        }
    }
    assert_eq!(message(&page, "name"), "");
    for (name, typed) in [
        ("region", "mars"),
        ("years", "9"),
        ("growth_pct_per_year", "abc"),
    ] {
        assert!(
            page.contains(&format!("id=\"f-{name}\" name=\"{name}\""))
                && page.contains(&format!("value=\"{typed}\"")),
            "{name} keeps {typed}"
        );
        assert!(
            page.contains(&format!("<label for=\"f-{name}\">")),
            "{name} is labelled"
        );
    }
    assert!(
        page.contains("<input type=\"checkbox\" name=\"template\" value=\"sap-hana\" checked>")
    );
    assert!(page.contains("Nothing was saved"));
    assert!(
        !app.get_text("/estates").await.contains("href=\"/estates/"),
        "nothing saved"
    );

    // The edit form: the wrong value beside its input, the saved plan still shown.
    let res = app
        .post_pairs(
            "/estates",
            &[("name", "Kept"), ("years", "2"), ("template", "sap-hana")],
        )
        .await;
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let res = app
        .post_pairs(&location, &[("years", "0"), ("growth_pct_per_year", "-5")])
        .await;
    assert_eq!(res.status(), 422);
    let page = res.text().await.unwrap();
    assert!(message(&page, "years").contains("1 to 5 years; got 0"));
    assert!(message(&page, "growth_pct_per_year").contains("from 0 to 1000 %, not -5"));
    assert!(
        page.contains("value=\"Kept\""),
        "a setting not sent keeps the saved one"
    );
    assert!(
        page.contains("id=\"estate-plan\""),
        "the saved revision's plan"
    );
    assert!(!app.get_text(&location).await.contains("Revision 2"));

    // The API reports every wrong field at once too.
    let res = app
        .post_json(
            "/api/v1/estate/optimize",
            &json!({"workloads": [sample_scenario()], "years": 9, "region": "mars"}),
        )
        .await;
    assert_eq!(res.status(), 422);
    let e: Value = res.json().await.unwrap();
    let fields: Vec<&str> = e["errors"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|x| x["field"].as_str())
        .collect();
    assert_eq!(fields, ["region", "years"]);
    app.stop().await;
}

/// The estate form reads a region as the planner does: by its name ("West Europe"), and
/// a near miss gets the planner's suggestion.
#[tokio::test]
async fn the_estate_form_takes_a_region_by_name_and_suggests_the_near_ones() {
    let app = spawn_app().await;
    let res = app
        .post_pairs(
            "/estates",
            &[
                ("name", "Near"),
                ("region", "westeurop"),
                ("years", "1"),
                ("template", "sap-hana"),
            ],
        )
        .await;
    assert_eq!(res.status(), 422);
    let page = res.text().await.unwrap();
    assert!(
        message(&page, "region").contains("Did you mean West Europe (westeurope)?"),
        "{}",
        message(&page, "region")
    );
    let res = app
        .post_pairs(
            "/estates",
            &[
                ("name", "By name"),
                ("region", "West Europe"),
                ("years", "1"),
                ("template", "sap-hana"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303, "{}", res.text().await.unwrap());
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let page = app.get_text(&location).await;
    assert!(
        page.contains("value=\"westeurope\""),
        "the form shows the region's key"
    );

    // The planner reads it through the same function.
    let mut pairs = crate::pages::form_pairs(&sample_scenario());
    pairs.retain(|(k, _)| k != "region");
    pairs.push(("region".into(), "west europe".into()));
    let res = crate::pages::post_form(&app, "/scenarios/evaluate", &pairs).await;
    assert_eq!(res.status(), 200);
    assert!(res.text().await.unwrap().contains("West Europe"));
    app.stop().await;
}

/// The estate of the AVS cluster, a large volume without targets, SAP HANA on M-series
/// VMs and GCNV on n2 machines in West Europe (AV36P hosts priced there; no GCNV
/// Extreme list price in the region it maps to), over five years:
/// created on the page, read back as the API answers it.
#[tokio::test]
async fn an_estate_across_clouds_keeps_every_workload_prices_what_it_can_and_names_the_rest() {
    let app = spawn_app().await;
    let keys = [
        "avs-datastores",
        "anf-large-volume",
        "sap-hana",
        "gcnv-nconnect-16",
    ];
    let mut pairs = vec![
        ("name", "Across clouds"),
        ("region", "westeurope"),
        ("years", "5"),
        ("growth_pct_per_year", "25"),
    ];
    pairs.extend(keys.iter().map(|k| ("template", *k)));
    let res = app.post_pairs("/estates", &pairs).await;
    assert_eq!(res.status(), 303, "{}", res.text().await.unwrap());
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let page = app.get_text(&location).await;
    let workloads: Vec<Value> = keys
        .iter()
        .map(|k| {
            serde_json::to_value(
                volplan::web::scenario_templates::find(k)
                    .unwrap()
                    .scenario(),
            )
            .unwrap()
        })
        .collect();
    let body = json!({"name": "Across clouds", "workloads": workloads, "region": "westeurope",
                      "years": 5, "growth_pct_per_year": 25});
    let p: Value = app
        .post_json("/api/v1/estate/optimize", &body)
        .await
        .json()
        .await
        .unwrap();
    let f = |v: &Value| v.as_f64().unwrap();

    // Every workload at or above what its scenario gives as entered (the same within
    // 1 % counts), or its targets met.
    for (i, w) in workloads.iter().enumerate() {
        let a = &p["assignments"][i];
        assert_eq!(a["targets_met"], true, "{a}");
        if w["workload"]["target_mibps"].is_null() && w["workload"]["target_iops"].is_null() {
            let mut own = w.clone();
            own["region"] = json!(if i == 3 {
                Value::Null
            } else {
                json!("westeurope")
            });
            let e: Value = app
                .post_json("/api/v1/evaluate", &own)
                .await
                .json()
                .await
                .unwrap();
            let entered = f(&e["throughput_mibps"]);
            assert!(
                f(&a["throughput_mibps"]) >= entered * 0.99,
                "{a} vs {entered}"
            );
        }
    }
    assert!(f(&p["assignments"][0]["throughput_mibps"]) > 10_000.0);
    assert!(f(&p["assignments"][1]["throughput_mibps"]) > 12_000.0);

    // No Google service for an Azure client, nor the reverse.
    let services = |i: usize| -> Vec<String> {
        p["fit"][i]["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["service"].as_str().unwrap().to_owned())
            .collect()
    };
    for i in 0..3 {
        assert!(services(i).iter().all(|s| s != "gcnv"), "{:?}", services(i));
    }
    assert!(services(3).iter().all(|s| s == "gcnv"), "{:?}", services(3));
    assert_eq!(
        services(0),
        ["anf"; 4],
        "AVS hosts reach ANF datastores only"
    );

    // What has no price is excluded and named in the cost sentence, which the page
    // prints word for word; the AVS cluster's hosts are priced.
    let excluded = p["excluded"].as_array().unwrap();
    assert!(excluded.iter().all(|x| x["workload"] != 0), "{excluded:?}");
    for x in excluded {
        let w = &workloads[x["workload"].as_u64().unwrap() as usize];
        let e: Value = app
            .post_json("/api/v1/evaluate", w)
            .await
            .json()
            .await
            .unwrap();
        assert!(
            e["cost"]["monthly"].is_null(),
            "{x} has a price: {}",
            e["cost"]
        );
    }
    let statements: Vec<String> = p["verdict"]["statements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect();
    let cost = statements.iter().find(|s| s.starts_with("Cost:")).unwrap();
    for x in excluded {
        assert!(cost.contains(x["name"].as_str().unwrap()), "{cost}");
    }
    assert_eq!(list_items(&page, "estate-verdict"), statements);

    // No workload moves A -> B -> A over the five years.
    let mut path: std::collections::HashMap<u64, Vec<String>> = Default::default();
    for e in p["events"].as_array().unwrap() {
        if e["kind"] == "level_change" {
            let m = e["message"].as_str().unwrap();
            let from = m
                .split(" from ")
                .nth(1)
                .unwrap()
                .split(" to ")
                .next()
                .unwrap();
            let to = m.split(" to ").nth(1).unwrap().split(';').next().unwrap();
            let w = path.entry(e["workload"].as_u64().unwrap()).or_default();
            if w.is_empty() {
                w.push(from.to_owned());
            }
            w.push(to.to_owned());
        }
    }
    for (w, types) in &path {
        for (i, t) in types.iter().enumerate() {
            let later = types.get(i + 2..).unwrap_or_default();
            assert!(!later.contains(t), "workload {w}: {types:?}");
        }
    }

    // Totals equal the sum of their lines.
    let pools: f64 = p["pools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| f(&x["monthly"]))
        .sum();
    let outside: f64 = p["assignments"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a["monthly_outside_pools"].as_f64())
        .sum();
    assert!((f(&p["monthly"]) - pools - outside).abs() < 1e-6);
    let timeline = p["timeline"].as_array().unwrap();
    assert_eq!(timeline.len(), 60);
    let months: f64 = timeline.iter().map(|m| f(&m["monthly"])).sum();
    assert!((f(&p["total"]) - months).abs() < 1e-6);
    let years: f64 = p["cost_by_year"].as_array().unwrap().iter().map(f).sum();
    assert!((f(&p["total"]) - years).abs() < 1e-6);
    // Demand and provisioned side by side; demand never falls under growth.
    for m in timeline.windows(2) {
        assert!(f(&m[1]["demand_tib"]) >= f(&m[0]["demand_tib"]) - 1e-9);
        assert!(m[0]["provisioned_tib"].is_number());
    }
    let csv = app.get_text(&format!("{location}/report.csv")).await;
    assert!(csv.contains("Demand TiB") && csv.contains("Provisioned TiB"));
    assert!(page.contains("Demand TiB") && page.contains("Provisioned TiB"));
    app.stop().await;
}

#[tokio::test]
async fn the_re_plan_threshold_and_minimum_dwell_are_set_on_the_page() {
    let app = spawn_app().await;
    let res = app
        .post_pairs(
            "/estates",
            &[
                ("region", "eastus"),
                ("years", "1"),
                ("migration_threshold_usd_month", "250"),
                ("min_dwell_months", "12"),
                ("template", "sap-hana"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303, "{}", res.text().await.unwrap());
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let page = app.get_text(&location).await;
    assert!(page.contains("name=\"min_dwell_months\" type=\"text\" inputmode=\"decimal\" autocomplete=\"off\" spellcheck=\"false\" value=\"12\""));
    let statements = list_items(&page, "estate-verdict");
    assert!(
        statements.iter().any(|s| s.contains("$250.00/month")),
        "{statements:?}"
    );
    // A dwell out of range is marked beside its input, nothing saved.
    let res = app
        .post_pairs(
            "/estates",
            &[("min_dwell_months", "61"), ("template", "sap-hana")],
        )
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        message(&html, "min_dwell_months").contains("0 to 60"),
        "{html}"
    );
}
