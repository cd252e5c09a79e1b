//! The verdict through HTTP: the API's `verdict` object on the cases that used to be
//! concluded wrongly, and the planner page printing the same statements, with the
//! recommendation applied in one click and saved.

use crate::helpers::{TestApp, assert_error_body, sample_scenario, spawn_app};
use crate::pages::{form_pairs, post_form, saved_id, set};
use serde_json::{Value, json};

/// The sample with `workload`, `storage` and `clients` fields replaced.
fn with(workload: Value, storage: Value, clients: Value) -> Value {
    let mut s = sample_scenario();
    for (part, fields) in [
        ("workload", workload),
        ("storage", storage),
        ("clients", clients),
    ] {
        for (k, v) in fields.as_object().unwrap() {
            s[part][k] = v.clone();
        }
    }
    s
}

/// 500 TiB needed on one 10 TiB Premium volume.
fn short_of_capacity() -> Value {
    with(
        json!({"capacity_tib": 500}),
        json!({"level": "premium", "volumes": [{"count": 1, "quota_tib": 10, "throughput_mibps": null}]}),
        json!({}),
    )
}

/// 4 hosts x 4 VMs x 4 VMDKs spread over 20 x 4 TiB Ultra datastores.
fn twenty_by_four() -> Value {
    with(
        json!({"read_pct": 70, "access": "random"}),
        json!({"volumes": [{"count": 20, "quota_tib": 4, "throughput_mibps": null}]}),
        json!({"count": 4, "avs": {"hosts": 4, "host_sku": "AV36", "vms_per_host": 4,
                                   "vmdks_per_vm": 4, "placement": "spread"}}),
    )
}

/// 50 TiB on one volume without AVS, 3,300 MiB/s, optionally at most 2 ms per IO.
fn fifty_tib(level: &str, latency_ms: Option<f64>) -> Value {
    with(
        json!({"capacity_tib": 50, "threads": 16, "queue_depth": 16,
               "target_mibps": 3300, "target_latency_ms": latency_ms}),
        json!({"level": level, "volumes": [{"count": 1, "quota_tib": 50, "throughput_mibps": null}]}),
        json!({"count": 4, "nconnect": 4, "avs": null}),
    )
}

async fn judged(app: &TestApp, s: &Value) -> Value {
    let res = app.post_json("/api/v1/evaluate", s).await;
    assert_eq!(res.status(), 200, "{s}");
    res.json().await.unwrap()
}

fn statements(v: &Value) -> Vec<&str> {
    v["verdict"]["statements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn the_api_judges_each_target_and_names_what_decides_it() {
    let app = spawn_app().await;
    // A capacity shortfall is the first target, missed, with advice.
    let e = judged(&app, &short_of_capacity()).await;
    let capacity = &e["verdict"]["targets"][0];
    assert_eq!(capacity["target"], "capacity");
    assert_eq!(capacity["met"], false);
    assert_eq!(
        capacity["statement"],
        "Capacity: 10 TiB provisioned for 500 TiB needed: 490 TiB short."
    );
    assert_eq!(e["targets"]["met"], false);
    assert!(
        e["advice"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["code"] == "capacity_short"),
        "{}",
        e["advice"]
    );

    // No capacity, and Flexible with auto QoS, are refused naming the field.
    let mut zero = sample_scenario();
    zero["workload"]["capacity_tib"] = json!(0);
    let res = app.post_json("/api/v1/evaluate", &zero).await;
    assert_eq!(res.status(), 422);
    assert_error_body(&res.json().await.unwrap(), Some("workload.capacity_tib"));
    let flexible = fifty_tib("flexible", None);
    assert_eq!(flexible["storage"]["qos"], "auto");
    let res = app.post_json("/api/v1/evaluate", &flexible).await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert_error_body(&body, Some("storage.qos"));
    assert!(
        body["error"].as_str().unwrap().contains("manual QoS only"),
        "{body}"
    );

    // 50 TiB at 3,300 MiB/s and 2 ms on Ultra: the rate is reached, the latency is not,
    // and the verdict says so rather than blaming the rate.
    let e = judged(&app, &fifty_tib("ultra", Some(2.0))).await;
    let targets = e["verdict"]["targets"].as_array().unwrap();
    let of = |kind: &str| targets.iter().find(|t| t["target"] == kind).unwrap();
    assert_eq!(of("throughput")["met"], true, "{}", of("throughput"));
    assert_eq!(of("latency")["met"], false);
    assert_eq!(of("latency")["decided_by"], "latency");
    assert!(
        of("latency")["statement"]
            .as_str()
            .unwrap()
            .contains("above the 2 ms target"),
        "{}",
        of("latency")
    );
    assert!(
        statements(&e)
            .iter()
            .all(|s| !s.contains("No level meets 3,300 MiB/s")),
        "{:?}",
        statements(&e)
    );

    // 20 x 4 TiB: the busiest datastore's share of the VMDKs caps the cluster.
    let e = judged(&app, &twenty_by_four()).await;
    let binding = e["verdict"]["binding"].as_str().unwrap();
    assert!(
        binding.contains("busiest of 20 datastores, which holds 4 of 64 VMDKs"),
        "{binding}"
    );
    assert!(statements(&e).contains(&binding));

    // A saved scenario answers with the same verdict.
    let id = app.create(&twenty_by_four()).await;
    let saved = app
        .get_json(&format!("/api/v1/scenarios/{id}/evaluation"))
        .await;
    assert_eq!(saved["verdict"]["statements"], e["verdict"]["statements"]);
    app.stop().await;
}

/// The `<li>` texts of the page's verdict targets with their class.
fn target_lines(html: &str) -> Vec<(bool, String)> {
    let list = html
        .split("id=\"verdict-targets\">")
        .nth(1)
        .and_then(|t| t.split("</ul>").next())
        .expect("the verdict's targets");
    list.split("<li class=\"")
        .skip(1)
        .map(|li| {
            let met = li.starts_with("met\"");
            let text = li.split("</span>").last().unwrap();
            let text = text.split("</li>").next().unwrap().trim().to_owned();
            (met, text)
        })
        .collect()
}

#[tokio::test]
async fn the_planner_prints_the_verdicts_statements_and_applies_the_recommendation() {
    let app = spawn_app().await;
    // The page's targets are the API's statements, the capacity shortfall first and red.
    let s = short_of_capacity();
    let api = judged(&app, &s).await;
    let html = post_form(&app, "/scenarios/evaluate", &form_pairs(&s))
        .await
        .text()
        .await
        .unwrap();
    let lines = target_lines(&html);
    let want: Vec<(bool, String)> = api["verdict"]["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["met"].as_bool().unwrap(),
                t["statement"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(lines, want);
    assert!(!lines[0].0, "the capacity shortfall is red");
    assert!(html.contains("data-target=\"capacity\""));

    // 20 x 4 TiB: the page's "bound by" line is the verdict's, naming the imbalance.
    let html = post_form(&app, "/scenarios/evaluate", &form_pairs(&twenty_by_four()))
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("which holds 4 of 64 VMDKs"), "{html}");

    // 50 TiB at 3,300 MiB/s on Premium misses; the recommendation comes with Apply.
    let s = fifty_tib("premium", None);
    let api = judged(&app, &s).await;
    let r = &api["verdict"]["recommendation"];
    assert_eq!(r["current"], false, "{r}");
    let mut pairs = form_pairs(&s);
    let html = post_form(&app, "/scenarios/evaluate", &pairs)
        .await
        .text()
        .await
        .unwrap();
    assert!(
        html.contains(r["statement"].as_str().unwrap()),
        "{}",
        r["statement"]
    );
    assert!(html.contains("id=\"apply-recommendation\""));
    pairs.push(("action".into(), "apply_recommendation".into()));
    let res = post_form(&app, "/scenarios/evaluate", &pairs).await;
    assert_eq!(res.status(), 200);
    let applied = res.text().await.unwrap();
    assert!(applied.contains("Applied the recommendation: not saved yet."));
    // Applied, the form is the recommendation: every target met, nothing left to apply.
    assert!(target_lines(&applied).iter().all(|(met, _)| *met));
    assert!(!applied.contains("id=\"apply-recommendation\""));

    // Saved as applied, the stored scenario is the recommendation.
    let mut saved = s.clone();
    saved["storage"]["level"] = r["level"].clone();
    saved["storage"]["qos"] = r["qos"].clone();
    saved["storage"]["volumes"] = r["volumes"].clone();
    let mut pairs = form_pairs(&saved);
    set(&mut pairs, "name", "Applied");
    let res = post_form(&app, "/scenarios", &pairs).await;
    assert_eq!(res.status(), 303);
    let id = saved_id(res.headers()["location"].to_str().unwrap());
    let stored = app
        .get_json(&format!("/api/v1/scenarios/{id}/evaluation"))
        .await;
    assert_eq!(stored["targets"]["met"], true);
    assert_eq!(stored["verdict"]["recommendation"]["current"], true);
    app.stop().await;
}
