//! Calibration to the user's own measurements over HTTP: `POST
//! /api/v1/scenarios/{id}/calibrate` refits the parameters that govern a saved
//! scenario to its imported runs, stores them, and the planner evaluates with them.

use crate::helpers::{assert_error_body, spawn_app};
use serde_json::{Value, json};

/// One E32s_v5 on a regular Ultra volume over NFSv3, nconnect 1.
fn scenario() -> Value {
    json!({
        "name": "calibrated",
        "workload": {
            "io_size_kib": 64, "read_pct": 100, "access": "sequential", "threads": 4,
            "queue_depth": 16, "files": "many", "metadata_heavy": false, "capacity_tib": 10
        },
        "storage": {
            "service": "anf", "level": "ultra", "qos": "auto", "volume_kind": "regular",
            "volumes": [ { "count": 1, "quota_tib": 10 } ]
        },
        "clients": {
            "count": 1, "vm_size": "Standard_E32s_v5", "protocol": "nfsv3", "nconnect": 1
        }
    })
}

fn within(range: &Value, x: f64) -> bool {
    range[0].as_f64().unwrap() <= x && x <= range[1].as_f64().unwrap()
}

#[tokio::test]
async fn a_saved_scenario_refits_to_its_runs_and_the_planner_shows_what_moved() {
    let app = spawn_app().await;
    let id = app.create(&scenario()).await;

    // Nothing measured yet: a 422 that says what to do.
    let res = app
        .post_json(&format!("/api/v1/scenarios/{id}/calibrate"), &json!({}))
        .await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert_error_body(&body, Some("measurements"));
    assert!(body["error"].as_str().unwrap().contains("import"), "{body}");

    let res = app.import_run(id, "fio-3.36-single-job.json").await;
    assert_eq!(res.status(), 201);

    let published = app
        .post_json("/api/v1/evaluate", &scenario())
        .await
        .json::<Value>()
        .await
        .unwrap();
    let res = app
        .post_json(&format!("/api/v1/scenarios/{id}/calibrate"), &json!({}))
        .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    let params = body["parameters"].as_array().unwrap();
    assert!(!params.is_empty(), "{body}");
    for p in params {
        assert!(p["name"].is_string() && p["before"].is_number() && p["after"].is_number());
    }
    let moved =
        |p: &Value| (p["after"].as_f64().unwrap() / p["before"].as_f64().unwrap() - 1.0).abs();
    assert!(
        moved(&params[0]) > 0.0,
        "one fio run moves a governing parameter: {body}"
    );
    // The largest move is listed first.
    assert!(params.windows(2).all(|w| moved(&w[0]) >= moved(&w[1])));
    let ev = &body["evaluation"];
    assert_eq!(ev["calibration"]["measurements"], 1);
    let mibps = ev["throughput_mibps"].as_f64().unwrap();
    assert!(within(&ev["throughput_mibps_range"], mibps), "{ev}");
    assert_ne!(
        mibps,
        published["throughput_mibps"].as_f64().unwrap(),
        "the refitted parameters change the prediction"
    );
    // The published fit is untouched.
    assert!(published["calibration"].is_null());
    let again = app
        .post_json("/api/v1/evaluate", &scenario())
        .await
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(again["throughput_mibps"], published["throughput_mibps"]);

    // The planner evaluates the saved scenario with its calibration and says so.
    let html = app.get_text(&format!("/scenarios/{id}")).await;
    assert!(
        html.contains("Calibrated to 1 measured run"),
        "planner lists the calibration"
    );
    assert!(html.contains("(likely "), "planner shows the likely range");

    // The API's evaluation of the saved scenario and its report give the calibrated
    // figures too, and the verdict names what moved, word for word in both.
    let saved = app
        .get_json(&format!("/api/v1/scenarios/{id}/evaluation"))
        .await;
    assert_eq!(saved["throughput_mibps"], ev["throughput_mibps"]);
    let statement = saved["verdict"]["statements"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .find(|s| s.starts_with("Calibrated to 1 measured run"))
        .expect("the verdict says the scenario is calibrated")
        .to_owned();
    let md = app.get_text(&format!("/scenarios/{id}/report.md")).await;
    assert!(
        md.replace('\\', "").contains(&statement),
        "the report says what moved: {statement}"
    );
}

#[tokio::test]
async fn calibrating_a_missing_scenario_is_a_404() {
    let app = spawn_app().await;
    let res = app
        .post_json("/api/v1/scenarios/987654/calibrate", &json!({}))
        .await;
    assert_eq!(res.status(), 404);
    assert_error_body(&res.json().await.unwrap(), None);
}

#[tokio::test]
async fn a_scenario_in_euros_compares_its_runs_and_calibrates_as_one_in_dollars() {
    let app = spawn_app().await;
    let sheet = "service,level,region,meter,unit,price,currency,valid_as_of,source\n\
                 anf,ultra,eastus,capacity,GiB-month,0.363,EUR,2026-06-01,negotiated rates\n";
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/prices/sheet",
            Some("text/csv"),
            sheet.as_bytes().to_vec(),
        )
        .await;
    assert_eq!(res.status(), 200);
    let mut s = scenario();
    s["pricing"] = json!({ "currency": "EUR" });
    let id = app.create(&s).await;

    // The run is measured against the prediction, priced from the book in force.
    let res = app.import_run(id, "fio-3.36-single-job.json").await;
    assert_eq!(res.status(), 201);
    let body: Value = res.json().await.unwrap();
    let run = &body["measurements"][0];
    assert!(
        run["comparison"].is_object(),
        "the run is compared: {}",
        run["comparison_error"]
    );

    let res = app
        .post_json(&format!("/api/v1/scenarios/{id}/calibrate"), &json!({}))
        .await;
    let status = res.status();
    let body: Value = res.json().await.unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(!body["parameters"].as_array().unwrap().is_empty(), "{body}");
    assert_eq!(body["evaluation"]["cost"]["currency"], "EUR");
    // Its charts draw with the calibration and the euro prices.
    for chart in ["ceilings", "io-size", "scaling", "latency"] {
        let res = app
            .get(&format!("/scenarios/{id}/charts/{chart}.svg"))
            .await;
        assert_eq!(res.status(), 200, "{chart}");
    }
}
