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

/// The single-job fio fixture with its read rate set to `mibps` (IOPS, bandwidth and
/// the mean latency of its 16 IOs in flight follow).
fn fio_at(mibps: f64) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/import/fio-3.36-single-job.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let read = &mut doc["jobs"][0]["read"];
    let bytes = mibps * 1_048_576.0;
    let iops = bytes / 65_536.0;
    read["bw_bytes"] = json!(bytes.round());
    read["bw"] = json!((bytes / 1024.0).round());
    read["iops"] = json!(iops);
    let lat_ns = 16.0 / iops * 1e9;
    for key in ["lat_ns", "clat_ns"] {
        if read[key].is_object() {
            read[key]["mean"] = json!(lat_ns);
        }
    }
    serde_json::to_vec(&doc).unwrap()
}

#[tokio::test]
async fn a_run_below_the_prediction_is_named_and_the_table_predicts_with_the_refit() {
    let app = spawn_app().await;
    // What the published fit predicts for the fixture's run on this scenario.
    let probe = app.create(&scenario()).await;
    let res = app.import_run(probe, "fio-3.36-single-job.json").await;
    let body: Value = res.json().await.unwrap();
    let published = body["measurements"][0]["comparison"]["predicted_mibps"]
        .as_f64()
        .expect("the run is compared");

    // A run at 85 % of that prediction.
    let id = app.create(&scenario()).await;
    let res = app
        .send_raw(
            reqwest::Method::POST,
            &format!("/api/v1/scenarios/{id}/measurements"),
            Some("application/octet-stream"),
            fio_at(0.85 * published),
        )
        .await;
    assert_eq!(res.status(), 201);
    let body: Value = res.json().await.unwrap();
    let before = body["measurements"][0]["comparison"]["predicted_mibps"]
        .as_f64()
        .unwrap();
    assert!((before / published - 1.0).abs() < 1e-9);

    let res = app
        .post_json(&format!("/api/v1/scenarios/{id}/calibrate"), &json!({}))
        .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    let statement = body["statement"].as_str().unwrap();
    assert!(
        statement.contains("your run is 15% below the published fit"),
        "the sentence names the gap: {statement}"
    );
    assert!(!statement.contains("agree"), "{statement}");
    let first = &body["parameters"][0];
    assert!(
        statement.contains(first["about"].as_str().unwrap()),
        "the sentence names the parameter that moved most: {statement}"
    );
    assert!(statement.contains("the refitted model"), "{statement}");

    // The measured-vs-predicted table predicts with the refitted model at once.
    let runs = app
        .get_json(&format!("/api/v1/scenarios/{id}/measurements"))
        .await;
    let after = runs[0]["comparison"]["predicted_mibps"].as_f64().unwrap();
    let measured = runs[0]["measurement"]["mibps"].as_f64().unwrap();
    assert!(
        (after / measured - 1.0).abs() < (before / measured - 1.0).abs(),
        "the table's prediction moves towards the run: {before} -> {after}, measured {measured}"
    );
    // The saved scenario's verdict says it in the same words.
    let saved = app
        .get_json(&format!("/api/v1/scenarios/{id}/evaluation"))
        .await;
    let said = saved["verdict"]["statements"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .any(|s| s == statement);
    assert!(said, "the verdict repeats the statement: {saved}");
}

#[tokio::test]
async fn a_load_duration_is_validated_and_a_short_load_bursts() {
    let app = spawn_app().await;
    let share = |duration: Value| {
        json!({
            "name": "burst",
            "workload": { "io_size_kib": 8, "read_pct": 70, "access": "random", "threads": 8,
                          "queue_depth": 16, "capacity_tib": 10, "duration_s": duration },
            "storage": { "service": "azure_files", "level": "ssd_v1",
                         "volumes": [ { "count": 1, "quota_tib": 10 } ] },
            "clients": { "count": 2, "vm_size": "Standard_D16s_v5", "protocol": "smb3",
                         "smb_multichannel": true }
        })
    };
    for bad in [json!(0), json!(-5), json!(2e9)] {
        let res = app.post_json("/api/v1/evaluate", &share(bad.clone())).await;
        assert_eq!(res.status(), 422, "{bad}");
        let body: Value = res.json().await.unwrap();
        assert_error_body(&body, Some("workload.duration_s"));
    }
    let sustained = app.post_json("/api/v1/evaluate", &share(Value::Null)).await;
    assert_eq!(sustained.status(), 200);
    let sustained: Value = sustained.json().await.unwrap();
    let short: Value = app
        .post_json("/api/v1/evaluate", &share(json!(600)))
        .await
        .json()
        .await
        .unwrap();
    let (base, burst) = (
        sustained["throughput_mibps"].as_f64().unwrap(),
        short["throughput_mibps"].as_f64().unwrap(),
    );
    // 10 TiB SSD v1: 13,240 baseline, 30,720 burst IOPS at 8 KiB.
    assert!(
        burst > 2.0 * base,
        "ten minutes run on credits: {base} -> {burst}"
    );
    assert!(within(&sustained["throughput_mibps_range"], base));
    assert!(within(&sustained["throughput_mibps_range"], burst * 0.999));
    let said = sustained["confidence"]["assumptions"].to_string();
    assert!(said.contains("burst"), "{said}");
}
