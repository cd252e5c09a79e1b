//! The live estate over HTTP against the real database: the Resource Graph fixture
//! imports into an estate, 30 days of 5-minute metrics into each volume's demand,
//! headroom and right-sizing, and a saved plan against the metrics names the volumes
//! above and below plan and keeps a volume measured at its ceiling for calibration.

mod fixture;

use crate::helpers::{TestApp, assert_error_body, spawn_app};
use fixture::{GRAPH, collector_csv, rest_json};
use serde_json::{Value, json};

async fn post_raw(app: &TestApp, path: &str, ct: &str, body: String) -> reqwest::Response {
    app.client
        .post(app.url(path))
        .header("content-type", ct)
        .body(body)
        .send()
        .await
        .expect("request")
}

async fn refused(res: reqwest::Response, status: u16, field: Option<&str>) {
    assert_eq!(res.status(), status);
    let body: Value = res.json().await.expect("JSON error body");
    assert_error_body(&body, field);
}

/// The Resource Graph fixture as the portal's CSV download.
fn graph_csv() -> String {
    let v: Value = serde_json::from_str(GRAPH).unwrap();
    let cols = [
        "type",
        "name",
        "location",
        "serviceLevel",
        "qosType",
        "size",
        "usageThreshold",
        "throughputMibps",
    ];
    let mut out = cols.join(",") + "\n";
    for row in v["data"].as_array().unwrap() {
        let cells: Vec<String> = cols
            .iter()
            .map(|c| match &row[*c] {
                Value::Null => String::new(),
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect();
        out.push_str(&(cells.join(",") + "\n"));
    }
    out
}

/// The estate of the Resource Graph fixture, as the inventory import answers it.
async fn inventory_estate(app: &TestApp) -> volplan::estate::EstateRequest {
    let res = post_raw(
        app,
        "/api/v1/live/inventory",
        "application/json",
        GRAPH.to_owned(),
    )
    .await;
    assert_eq!(res.status(), 200);
    res.json().await.unwrap()
}

/// Saves `estate` shared, as the single user; its id.
async fn save_estate(app: &TestApp, estate: &volplan::estate::EstateRequest) -> i64 {
    volplan::store::estates::create_estate(
        &app.db,
        estate,
        volplan::store::access::Actor::SINGLE_USER,
        volplan::store::access::Visibility::Shared,
        false,
    )
    .await
    .unwrap()
}

fn volume<'a>(answer: &'a Value, name: &str) -> &'a Value {
    answer["volumes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == name)
        .unwrap_or_else(|| panic!("no volume {name}"))
}

#[tokio::test]
async fn the_resource_graph_fixture_and_thirty_days_of_metrics_import_into_an_estate() {
    let app = spawn_app().await;
    let res = post_raw(
        &app,
        "/api/v1/live/inventory",
        "application/json",
        GRAPH.to_owned(),
    )
    .await;
    assert_eq!(res.status(), 200);
    let estate: Value = res.json().await.unwrap();
    let workloads = estate["workloads"].as_array().unwrap();
    assert_eq!(workloads.len(), 9);
    assert_eq!(estate["region"], "eastus");
    let pools: std::collections::BTreeSet<&str> = workloads
        .iter()
        .map(|w| w["meta"]["project"].as_str().unwrap())
        .collect();
    assert_eq!(pools.len(), 3);
    let db1 = workloads.iter().find(|w| w["name"] == "db1").unwrap();
    assert_eq!(db1["storage"]["level"], "ultra");
    assert_eq!(db1["storage"]["qos"], "manual");
    assert_eq!(db1["storage"]["volumes"][0]["throughput_mibps"], 600.0);
    assert_eq!(db1["storage"]["volumes"][0]["quota_tib"], 4.0);
    // The estate is a valid estate request: the optimizer plans it.
    let res = app.post_json("/api/v1/estate/optimize", &estate).await;
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());

    // Thirty days at 5 minutes: 8,640 intervals x 9 volumes x 7 metrics.
    let csv = collector_csv(30, &[]);
    assert!(csv.len() < 64 << 20);
    // The inventory's estate, saved, describes the volumes.
    let request: volplan::estate::EstateRequest = serde_json::from_value(estate.clone()).unwrap();
    let id = save_estate(&app, &request).await;
    let res = post_raw(
        &app,
        &format!("/api/v1/live/metrics?estate={id}"),
        "text/csv",
        csv,
    )
    .await;
    assert_eq!(res.status(), 200);
    let answer: Value = res.json().await.unwrap();
    assert_eq!(answer["volumes"].as_array().unwrap().len(), 9);
    assert_eq!(answer["interval_s"], 300.0);
    let app2 = volume(&answer, "app2");
    // app2 asks 140 MiB/s on working days and is clipped at its 128 MiB/s QoS.
    assert_eq!(app2["demand_mibps"]["max"], 128.0);
    assert_eq!(app2["metrics"]["ReadThroughput"]["unit"], "MiB/s");
    assert!((app2["qos_mibps"].as_f64().unwrap() - 128.0).abs() < 1e-6);
    assert!(app2["headroom_pct"].as_f64().unwrap().abs() < 1e-6);
    // Day by day: 30 days, each of 288 samples; app2 at its QoS on working days only
    // (2 November 2026 is a Monday, 7 November a Saturday).
    let days = &app2["demand_over_time"];
    assert_eq!(days["step"], "day");
    assert_eq!(days["unread"], 0);
    assert_eq!(days["periods"].as_array().unwrap().len(), 30);
    assert_eq!(days["periods"][1]["start"], "2026-11-02T00:00:00Z");
    assert_eq!(days["periods"][1]["samples"], 288);
    assert_eq!(days["periods"][1]["max"], 128.0);
    assert!(days["periods"][6]["max"].as_f64().unwrap() < 30.0, "{days}");
    let db2 = volume(&answer, "db2");
    assert!(db2["headroom_pct"].as_f64().unwrap() > 75.0, "{db2}");
    assert!(db2["saving_monthly"].as_f64().unwrap() > 0.0);
    assert!(db2["recommendation"]["statement"].is_string());
    assert_eq!(
        answer["verdict"]["statements"][1],
        "4 volumes run within 10% of the QoS throughput at P95, or above it: app2, backup, db1, dblog."
    );
    // Every volume has its two statements, and the headline adds up their savings.
    let saved: f64 = answer["volumes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            assert_eq!(v["statements"].as_array().unwrap().len(), 2, "{v}");
            v["saving_monthly"].as_f64().unwrap()
        })
        .sum();
    let headline = answer["verdict"]["statements"][2].as_str().unwrap();
    let money = volplan::format::money(saved, "USD");
    assert!(
        headline.starts_with(&format!(
            "Right-sizing the measured volumes saves {money}/month"
        )),
        "{headline}"
    );
    // Planned together: every volume in one pool of the plan, each assigned what it was
    // sized for, the pools never dearer than each volume sized alone, and the verdict's
    // last statement the plan's headline.
    let replan = &answer["replan"];
    let mut pooled: Vec<&str> = replan["pools"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["volumes"].as_array().unwrap())
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    pooled.sort_unstable();
    assert_eq!(
        pooled,
        [
            "app1", "app2", "archive", "backup", "db1", "db2", "dblog", "home", "scratch"
        ],
        "{replan}"
    );
    assert!(
        replan["left_out"].as_array().unwrap().is_empty(),
        "{replan}"
    );
    let monthly = replan["monthly"].as_f64().unwrap();
    let pools: f64 = replan["pools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["monthly"].as_f64().unwrap())
        .sum();
    assert!((monthly - pools).abs() < 0.01, "{replan}");
    assert!(
        monthly <= replan["alone_monthly"].as_f64().unwrap() + 0.01,
        "{replan}"
    );
    assert_eq!(
        answer["verdict"]["statements"].as_array().unwrap().last(),
        Some(&replan["statements"][0])
    );
    // The plan's request is an estate the optimizer plans to the same cost.
    let res = app
        .post_json("/api/v1/estate/optimize", &replan["request"])
        .await;
    assert_eq!(res.status(), 200);
    let again: Value = res.json().await.unwrap();
    assert!((again["monthly"].as_f64().unwrap() - monthly).abs() < 0.01);
}

#[tokio::test]
async fn the_rest_answer_and_the_csv_give_the_same_demand() {
    let app = spawn_app().await;
    let only = ["app1", "db1"];
    let csv = post_raw(
        &app,
        "/api/v1/live/metrics",
        "text/csv",
        collector_csv(2, &only),
    )
    .await;
    assert_eq!(csv.status(), 200);
    let csv: Value = csv.json().await.unwrap();
    let rest = post_raw(
        &app,
        "/api/v1/live/metrics",
        "application/json",
        rest_json(2, &only).to_string(),
    )
    .await;
    assert_eq!(rest.status(), 200);
    let rest: Value = rest.json().await.unwrap();
    for name in only {
        assert_eq!(
            volume(&csv, name)["demand_mibps"],
            volume(&rest, name)["demand_mibps"]
        );
        assert_eq!(
            volume(&csv, name)["metrics"],
            volume(&rest, name)["metrics"]
        );
    }
    // Sent with the inventory's estate, it is known and sized.
    let graph = post_raw(&app, "/api/v1/live/inventory", "text/csv", graph_csv()).await;
    assert_eq!(graph.status(), 200);
    let estate: Value = graph.json().await.unwrap();
    let body = json!({"estate": estate, "metrics": rest_json(2, &only)}).to_string();
    let with = post_raw(&app, "/api/v1/live/metrics", "application/json", body).await;
    assert_eq!(with.status(), 200);
    let with: Value = with.json().await.unwrap();
    assert_eq!(volume(&with, "db1")["recommendation"]["level"], "flexible");
    assert_eq!(
        volume(&with, "db1")["demand_mibps"],
        volume(&csv, "db1")["demand_mibps"]
    );
    // Without an estate, the manual-QoS volume's throughput is unknown: not right-sized,
    // and the verdict says so.
    assert!(volume(&rest, "db1")["recommendation"].is_null());
    let said = rest["verdict"]["statements"].to_string();
    assert!(said.contains("Not right-sized"), "{said}");
}

#[tokio::test]
async fn bad_exports_get_a_4xx_that_names_what_to_fix() {
    let app = spawn_app().await;
    let res = post_raw(
        &app,
        "/api/v1/live/metrics",
        "text/csv",
        "Time,Volume\n1,2\n".to_owned(),
    )
    .await;
    refused(res, 422, Some("Timestamp")).await;
    let res = post_raw(
        &app,
        "/api/v1/live/inventory",
        "application/json",
        "{\"data\": []}".to_owned(),
    )
    .await;
    refused(res, 422, Some("data")).await;
    let res = post_raw(&app, "/api/v1/live/inventory", "image/png", "x".to_owned()).await;
    assert_eq!(res.status(), 415);
    let res = post_raw(
        &app,
        "/api/v1/live/metrics?estate=999",
        "text/csv",
        collector_csv(1, &["app1"]),
    )
    .await;
    assert_eq!(res.status(), 404);
    let res = post_raw(
        &app,
        "/api/v1/live/actuals",
        "text/csv",
        collector_csv(1, &["app1"]),
    )
    .await;
    refused(res, 422, Some("scenario")).await;
    // Over 64 MiB: refused before it is read.
    let res = post_raw(
        &app,
        "/api/v1/live/metrics",
        "text/csv",
        "x".repeat((64 << 20) + 1),
    )
    .await;
    assert_eq!(res.status(), 413);
}

/// The planned app2: a Premium volume of 2 TiB meant for 100 MiB/s.
fn planned_app2() -> Value {
    json!({
        "name": "app2",
        "region": "eastus",
        "workload": {
            "io_size_kib": 64, "read_pct": 70, "access": "sequential", "threads": 8,
            "queue_depth": 16, "files": "many", "metadata_heavy": false, "capacity_tib": 1.4,
            "target_mibps": 100
        },
        "storage": {
            "service": "anf", "level": "premium", "qos": "auto", "volume_kind": "regular",
            "volumes": [ { "count": 1, "quota_tib": 2 } ]
        },
        "clients": { "count": 4, "vm_size": "Standard_E32s_v5", "protocol": "nfsv3", "nconnect": 1 }
    })
}

#[tokio::test]
async fn a_saved_scenario_against_its_volume_at_the_ceiling_becomes_a_calibration_run() {
    let app = spawn_app().await;
    let id = app.create(&planned_app2()).await;
    let metrics = collector_csv(7, &["app2", "scratch"]);
    let res = post_raw(
        &app,
        &format!("/api/v1/live/actuals?scenario={id}"),
        "text/csv",
        metrics,
    )
    .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    let w = &body["workloads"][0];
    assert_eq!(w["volumes"], json!(["app2"]));
    assert_eq!(w["position"], "above");
    assert_eq!(body["unmatched"], json!(["scratch"]));
    assert_eq!(body["verdict"]["statements"][0], "Above plan: app2.");
    assert_eq!(body["measurements"].as_array().unwrap().len(), 1);
    // Five working days of ten hours at the 128 MiB/s QoS throughput.
    assert_eq!(w["ceiling_intervals"], 600);
    assert_eq!(w["ceiling_mibps"], 128.0);
    // The run is with the scenario's measurements, and the calibration reads it.
    let runs: Value = app
        .get_json(&format!("/api/v1/scenarios/{id}/measurements"))
        .await;
    assert!(
        runs.to_string()
            .contains("app2 at the ceiling, 600 intervals"),
        "{runs}"
    );
    assert!(runs.to_string().contains("at_storage_ceiling"), "{runs}");
    let res = app
        .post_json(&format!("/api/v1/scenarios/{id}/calibrate"), &json!({}))
        .await;
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
}

#[tokio::test]
async fn a_saved_estate_against_the_metrics_names_the_volumes_above_and_below_plan() {
    let app = spawn_app().await;
    let mut estate = inventory_estate(&app).await;
    for w in &mut estate.workloads {
        w.workload.target_mibps = Some(match w.name.as_str() {
            "app2" => 100.0,
            "db1" => 400.0,
            _ => 300.0,
        });
    }
    let id = save_estate(&app, &estate).await;
    let metrics = collector_csv(7, &["app2", "db1", "db2"]);
    let res = post_raw(
        &app,
        &format!("/api/v1/live/actuals?estate={id}"),
        "text/csv",
        metrics,
    )
    .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["verdict"]["statements"][0], "Above plan: app2, db1.");
    assert_eq!(body["verdict"]["statements"][1], "Below plan: db2.");
    // Estates keep no measurements: the runs are named, not stored.
    assert!(body["measurements"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn the_live_page_charts_the_demand_of_every_volume() {
    let app = spawn_app().await;
    let form = app.get_text("/live").await;
    assert!(form.contains("id=\"live-upload\""), "{form}");
    let metrics = collector_csv(3, &[]);
    let res = app
        .post_multipart(
            "/live",
            &[
                // First, as the page's form sends it: the token guard reads no further.
                ("csrf", None, crate::helpers::FORM_TOKEN),
                ("inventory", Some("resource-graph.json"), GRAPH),
                ("metrics", Some("metrics.csv"), metrics.as_str()),
            ],
        )
        .await;
    let status = res.status();
    let html = res.text().await.unwrap();
    assert_eq!(status, 200, "{html}");
    assert!(html.contains("id=\"chart-live-demand\""));
    // Three days: each volume's demand over time, day by day, with its QoS line.
    assert!(html.contains("id=\"chart-over-time-8\""), "{html}");
    assert!(html.contains("Demand of db1 over time (MiB/s)"));
    assert!(
        html.contains(
            "over 3 days at P50, P95 and at most, beside its QoS throughput of 600 MiB/s."
        )
    );
    assert!(html.contains("<svg"));
    assert!(html.contains("Demand per volume (MiB/s)"));
    assert!(html.contains("9 volumes measured."), "{html}");
    for name in ["app1", "db1", "scratch"] {
        assert!(
            html.contains(&format!("<th scope=\"row\">{name}</th>")),
            "{name}"
        );
    }
    // Without the metrics file: the form again, saying what to choose.
    let res = app
        .post_multipart(
            "/live",
            &[("inventory", Some("resource-graph.json"), GRAPH)],
        )
        .await;
    assert_eq!(res.status(), 400);
    assert!(
        res.text()
            .await
            .unwrap()
            .contains("Choose the metrics export")
    );
}

/// The hidden estate request of the page's "Save as an estate" form.
fn pooled_request(html: &str) -> String {
    let form = &html[html.find("id=\"pooled-save\"").expect("the save form")..];
    let key = "name=\"request\" value=\"";
    let at = form.find(key).unwrap() + key.len();
    let end = form[at..].find('"').unwrap() + at;
    crate::helpers::unescape_attr(&form[at..end])
}

#[tokio::test]
async fn the_live_page_plans_the_volumes_together_and_saves_them_as_an_estate() {
    let app = spawn_app().await;
    let metrics = collector_csv(3, &[]);
    let res = app
        .post_multipart(
            "/live",
            &[
                ("csrf", None, crate::helpers::FORM_TOKEN),
                ("inventory", Some("resource-graph.json"), GRAPH),
                ("metrics", Some("metrics.csv"), metrics.as_str()),
            ],
        )
        .await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("<h2 id=\"h-pooled\">Planned together</h2>"),
        "{html}"
    );
    assert!(
        html.contains("Planned together, the right-sized volumes fit"),
        "{html}"
    );
    let request = pooled_request(&html);
    let sent: Value = serde_json::from_str(&request).unwrap();
    assert_eq!(sent["workloads"].as_array().unwrap().len(), 9);
    // Saved, it is an estate whose plan costs what the page said.
    let res = app
        .post_pairs("/live/estate", &[("request", &request)])
        .await;
    assert_eq!(res.status(), 303, "{}", res.text().await.unwrap());
    let to = res.headers()["location"].to_str().unwrap().to_owned();
    let id: i64 = to.strip_prefix("/estates/").unwrap().parse().unwrap();
    let page = app.get_text(&to).await;
    assert!(page.contains("Right-sized from the metrics"), "{page}");
    let by = volplan::store::access::Actor::SINGLE_USER;
    let stored = volplan::store::estates::get_estate(&app.db, id, by)
        .await
        .unwrap();
    let stored = serde_json::to_value(&stored.request).unwrap();
    assert_eq!(stored, sent);
    let planned = app.post_json("/api/v1/estate/optimize", &stored).await;
    assert_eq!(planned.status(), 200);
    let planned: Value = planned.json().await.unwrap();
    let monthly = volplan::format::money(planned["monthly"].as_f64().unwrap(), "USD");
    assert!(
        html.contains(&format!("at {monthly}/month")),
        "{monthly}: {html}"
    );
    // What the page sent back is read as any estate request: a changed one that is not
    // an estate, or an empty one, is refused and nothing is stored.
    for bad in ["{\"workloads\": 3}", "{\"workloads\": []}", "not json"] {
        let res = app.post_pairs("/live/estate", &[("request", bad)]).await;
        assert_eq!(res.status(), 422, "{bad}");
    }
    let list = volplan::store::estates::list_estates(&app.db, by)
        .await
        .unwrap();
    assert_eq!(list.len(), 1);
}

#[tokio::test]
async fn the_live_page_compares_the_metrics_with_a_saved_scenario_and_keeps_the_ceiling_run() {
    let app = spawn_app().await;
    let id = app.create(&planned_app2()).await;
    let form = app.get_text("/live").await;
    let option = format!("<option value=\"scenario-{id}\">app2 (revision 1)</option>");
    assert!(form.contains(&option), "{form}");
    let metrics = collector_csv(7, &["app2", "scratch"]);
    let plan = format!("scenario-{id}");
    let send = |plan: &str, revision: &str, metrics: &str| {
        let (plan, revision, metrics) = (plan.to_owned(), revision.to_owned(), metrics.to_owned());
        let app = &app;
        async move {
            let parts = [
                ("csrf", None, crate::helpers::FORM_TOKEN),
                ("metrics", Some("metrics.csv"), metrics.as_str()),
                ("plan", None, plan.as_str()),
                ("revision", None, revision.as_str()),
            ];
            let res = app.post_multipart("/live/actuals", &parts).await;
            (res.status().as_u16(), res.text().await.unwrap())
        }
    };
    // Every error beside its field at once, the choices kept.
    let (status, html) = send("", "two", "").await;
    assert_eq!(status, 422);
    assert!(
        html.contains("Choose the saved scenario or estate"),
        "{html}"
    );
    assert!(html.contains("Enter a revision number"), "{html}");
    assert!(html.contains("Choose the metrics export"), "{html}");
    assert!(html.contains("value=\"two\""), "{html}");
    let (status, html) = send(&plan, "9", &metrics).await;
    assert_eq!(status, 404);
    assert!(
        html.contains(&format!("Scenario {id} has no revision 9.")),
        "{html}"
    );
    assert!(
        html.contains(&format!("value=\"{plan}\" selected")),
        "{html}"
    );
    assert!(html.contains("value=\"9\""));
    let (status, html) = send("scenario-999", "", &metrics).await;
    assert_eq!(status, 404);
    assert!(html.contains("id=\"e-plan\">No scenario"), "{html}");
    // A plan not found and a file not read: both said, each beside its field.
    let (status, html) = send("scenario-999", "", "Time,Volume\n1,2\n").await;
    assert_eq!(status, 404);
    assert!(html.contains("id=\"e-plan\">No scenario"), "{html}");
    assert!(
        html.contains("id=\"e-metrics\">Not read: Timestamp"),
        "{html}"
    );
    // The comparison: the verdict, the workload's row and the run kept.
    let (status, html) = send(&plan, "", &metrics).await;
    assert_eq!(status, 200, "{html}");
    assert!(html.contains("<li>Above plan: app2.</li>"), "{html}");
    assert!(html.contains("<td>above</td>"), "{html}");
    assert!(
        html.contains("1 run at the plan&#x27;s ceiling kept with the scenario")
            || html.contains("1 run at the plan&#39;s ceiling kept with the scenario"),
        "{html}"
    );
    assert!(html.contains(&format!("href=\"/scenarios/{id}\"")));
    let runs: Value = app
        .get_json(&format!("/api/v1/scenarios/{id}/measurements"))
        .await;
    assert!(
        runs.to_string()
            .contains("app2 at the ceiling, 600 intervals")
    );
    // The estate's own answer beside it, with each volume's demand over time by day.
    assert!(html.contains("2 volumes measured."), "{html}");
    assert!(html.contains("id=\"chart-over-time-0\""));
    assert!(html.contains("Demand of app2 over time (MiB/s)"));
    assert!(html.contains("<th scope=\"col\">Day (UTC)</th>"));
    // Revision 1 once a second exists: compared as it was, the run named, not kept.
    let mut second = planned_app2();
    second["workload"]["target_mibps"] = json!(120);
    let res = app
        .put_json(&format!("/api/v1/scenarios/{id}"), &second)
        .await;
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    let (status, html) = send(&plan, "1", &metrics).await;
    assert_eq!(status, 200, "{html}");
    assert!(
        html.contains("Plan against actuals: app2 (revision 1)"),
        "{html}"
    );
    assert!(html.contains("against the 100 MiB/s target"), "{html}");
    assert!(
        html.contains("only the newest revision of a scenario keeps"),
        "{html}"
    );
    assert!(!html.contains("id=\"actuals-scenario\""));
    // An estate of the inventory, app2 planned at 100 MiB/s: the run is named, not kept.
    let mut estate = inventory_estate(&app).await;
    estate.name = Some("Contoso today".to_owned());
    for w in &mut estate.workloads {
        w.workload.target_mibps = Some(100.0);
    }
    let estate_id = save_estate(&app, &estate).await;
    let (status, html) = send(&format!("estate-{estate_id}"), "", &metrics).await;
    assert_eq!(status, 200, "{html}");
    assert!(
        html.contains("Plan against actuals: Contoso today (revision 1)"),
        "{html}"
    );
    assert!(html.contains("<li>Above plan: app2.</li>"), "{html}");
    assert!(html.contains("<li>Below plan: scratch.</li>"), "{html}");
    assert!(
        html.contains("a measured run for calibration, not kept."),
        "{html}"
    );
    assert!(
        html.contains("save the workload as a scenario to keep them"),
        "{html}"
    );
    assert!(!html.contains("id=\"actuals-scenario\""));
}

#[tokio::test]
async fn a_viewer_reads_the_estate_on_the_page_but_may_not_keep_runs_with_a_plan() {
    use crate::accounts::{add_token, add_user};
    let app = spawn_app().await;
    add_user(&app, "vera", "vera-password", "viewer").await;
    let viewer = add_token(&app, "vera-script", "vera").await;
    let as_viewer =
        |req: reqwest::RequestBuilder| req.header("authorization", format!("Bearer {viewer}"));
    let form = as_viewer(app.client.get(app.url("/live")))
        .send()
        .await
        .unwrap();
    assert_eq!(form.status(), 200);
    let form = form.text().await.unwrap();
    assert!(form.contains("id=\"live-upload\""));
    assert!(
        !form.contains("id=\"live-plan\""),
        "no plan choice for a viewer"
    );
    let boundary = "volplanTestBoundary7d1";
    let metrics = collector_csv(1, &["app2"]);
    let body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{token}\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"metrics\"; filename=\"m.csv\"\r\n\r\n{metrics}\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"plan\"\r\n\r\nscenario-1\r\n--{boundary}--\r\n",
        token = crate::helpers::FORM_TOKEN
    );
    let post = |path: &str| {
        as_viewer(app.client.post(app.url(path)))
            .header(
                "content-type",
                format!("multipart/form-data; boundary={boundary}"),
            )
            .header(
                "cookie",
                format!("volplan_csrf={}", crate::helpers::FORM_TOKEN),
            )
            .body(body.clone())
            .send()
    };
    // Reading the estate computes; comparing keeps runs: an editor's, as in the API.
    assert_eq!(post("/live").await.unwrap().status(), 200);
    assert_eq!(post("/live/actuals").await.unwrap().status(), 403);
}
