//! The JSON API over real HTTP: CRUD, revisions, every contract error, headers, OpenAPI,
//! concurrency and restarts.

use crate::helpers::{
    assert_error_body, json_contains, named, sample_scenario, spawn_app, spawn_app_in,
};
use reqwest::Method;
use serde_json::{Value, json};
use std::collections::HashSet;

#[tokio::test]
async fn healthz_answers_ok() {
    let app = spawn_app().await;
    let res = app.get("/healthz").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.text().await.unwrap(), "ok");
}

#[tokio::test]
async fn scenario_crud_round_trip() {
    let app = spawn_app().await;
    let sample = sample_scenario();

    let res = app.post_json("/api/v1/scenarios", &sample).await;
    assert_eq!(res.status(), 201);
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let created: Value = res.json().await.unwrap();
    let id = created["id"].as_i64().expect("id is a number");
    assert_eq!(location, format!("/api/v1/scenarios/{id}"));
    assert_eq!(created["revision"], 1);

    let res = app.get(&location).await;
    assert_eq!(res.status(), 200);
    let got: Value = res.json().await.unwrap();
    assert_eq!(got["id"], id);
    assert!(json_contains(&got, &sample), "stored {got} keeps {sample}");

    let mut changed = named("renamed");
    changed["workload"]["threads"] = json!(32);
    let res = app.put_json(&location, &changed).await;
    assert_eq!(res.status(), 200);
    let saved: Value = res.json().await.unwrap();
    assert_eq!(saved, json!({"id": id, "revision": 2}));
    let got = get_json(&app, &location).await;
    assert_eq!(got["name"], "renamed");
    assert_eq!(got["workload"]["threads"], 32);

    let list = get_json(&app, "/api/v1/scenarios").await;
    let list = list.as_array().expect("list is an array");
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["id"], id);
    assert_eq!(list[0]["name"], "renamed");
    assert_eq!(list[0]["service"], "anf");
    assert_eq!(list[0]["level"], "ultra");
    assert_eq!(list[0]["revision"], 2);
    let updated = list[0]["updated_at"].as_str().expect("updated_at");
    assert!(
        updated.len() == 20 && updated.ends_with('Z') && updated.as_bytes()[10] == b'T',
        "ISO-8601 UTC: {updated}"
    );

    let res = app.client.delete(app.url(&location)).send().await.unwrap();
    assert_eq!(res.status(), 204);
    assert!(res.bytes().await.unwrap().is_empty());

    for res in [
        app.get(&location).await,
        app.client.delete(app.url(&location)).send().await.unwrap(),
        app.put_json(&location, &changed).await,
        app.get(&format!("{location}/revisions")).await,
    ] {
        assert_eq!(res.status(), 404);
        let body: Value = res.json().await.unwrap();
        assert_eq!(
            body,
            json!({"error": format!("no scenario with id {id}"), "field": null})
        );
    }
    let list = get_json(&app, "/api/v1/scenarios").await;
    assert_eq!(list, json!([]));
}

#[tokio::test]
async fn list_is_newest_first_and_searchable() {
    let app = spawn_app().await;
    let a = app.create(&named("HANA prod")).await;
    let b = app.create(&named("EDA build farm")).await;
    let c = app.create(&named("100%_literal")).await;
    let ids = |v: &Value| -> Vec<i64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_i64().unwrap())
            .collect()
    };
    let list = get_json(&app, "/api/v1/scenarios").await;
    assert_eq!(ids(&list), vec![c, b, a]);

    // Saving moves a scenario to the top.
    assert_eq!(
        app.put_json(&format!("/api/v1/scenarios/{a}"), &named("HANA prod"))
            .await
            .status(),
        200
    );
    let list = get_json(&app, "/api/v1/scenarios").await;
    assert_eq!(ids(&list), vec![a, c, b]);

    let found = get_json(&app, "/api/v1/scenarios?q=hana").await;
    assert_eq!(ids(&found), vec![a]);
    let found = get_json(&app, "/api/v1/scenarios?q=0%25_").await;
    assert_eq!(ids(&found), vec![c], "% and _ match literally");
    let found = get_json(&app, "/api/v1/scenarios?q=nothing-like-this").await;
    assert_eq!(found, json!([]));
}

#[tokio::test]
async fn revisions_list_and_restore_as_new_revision() {
    let app = spawn_app().await;
    let id = app.create(&named("first")).await;
    let path = format!("/api/v1/scenarios/{id}");
    for name in ["second", "third"] {
        assert_eq!(app.put_json(&path, &named(name)).await.status(), 200);
    }

    let revs = get_json(&app, &format!("{path}/revisions")).await;
    let revs = revs.as_array().unwrap();
    let numbers: Vec<i64> = revs.iter().map(|r| r["number"].as_i64().unwrap()).collect();
    let names: Vec<&str> = revs.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(numbers, vec![3, 2, 1]);
    assert_eq!(names, vec!["third", "second", "first"]);
    assert!(
        revs.iter()
            .all(|r| r["created_at"].as_str().is_some_and(|t| t.ends_with('Z')))
    );

    let old = get_json(&app, &format!("{path}/revisions/1")).await;
    assert_eq!(old["name"], "first");
    assert_eq!(old["id"], id);

    let res = app
        .client
        .post(app.url(&format!("{path}/revisions/1/restore")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"id": id, "revision": 4})
    );
    let now = get_json(&app, &path).await;
    assert_eq!(now["name"], "first");
    let revs = get_json(&app, &format!("{path}/revisions")).await;
    let names: Vec<&str> = revs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        vec!["first", "third", "second", "first"],
        "nothing overwritten"
    );

    let res = app
        .client
        .post(app.url(&format!("{path}/revisions/99/restore")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    let body: Value = res.json().await.unwrap();
    assert_eq!(
        body,
        json!({"error": format!("scenario {id} has no revision 99"), "field": null})
    );
    let res = app.get(&format!("{path}/revisions/99")).await;
    assert_eq!(res.status(), 404);
    let res = app
        .client
        .post(app.url("/api/v1/scenarios/424242/revisions/1/restore"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        json!({"error": "no scenario with id 424242", "field": null})
    );
}

#[tokio::test]
async fn a_revision_diff_names_what_changed() {
    let app = spawn_app().await;
    let id = app.create(&named("first")).await;
    let path = format!("/api/v1/scenarios/{id}");
    let mut second = named("second");
    second["storage"]["level"] = json!("premium");
    assert_eq!(app.put_json(&path, &second).await.status(), 200);

    let diff = get_json(&app, &format!("{path}/revisions/2/diff")).await;
    assert_eq!(
        (&diff["from"], &diff["to"]),
        (&json!(1), &json!(2)),
        "{diff}"
    );
    assert_eq!(
        diff["changes"],
        json!([
            {"field": "name", "before": "first", "after": "second"},
            {"field": "storage.level", "before": "ultra", "after": "premium"},
        ])
    );
    // Against another base, and the first revision, which has nothing before it.
    let back = get_json(&app, &format!("{path}/revisions/1/diff?base=2")).await;
    assert_eq!(back["changes"][1]["after"], "ultra", "{back}");
    let first = get_json(&app, &format!("{path}/revisions/1/diff")).await;
    assert_eq!(first, json!({"from": null, "to": 1, "changes": []}));
    for missing in ["revisions/9/diff", "revisions/2/diff?base=9"] {
        let res = app.get(&format!("{path}/{missing}")).await;
        assert_eq!(res.status(), 404, "{missing}");
    }
    assert_eq!(
        app.get(&format!("{path}/revisions/2/diff?base=x"))
            .await
            .status(),
        400
    );

    // The planner's history says what each revision changed.
    let html = app.get_text(&format!("/scenarios/{id}")).await;
    assert!(html.contains("Service level: ultra → premium"), "{html}");
    assert!(html.contains("first save"));
}

/// GETs `path` and reads the answer as JSON.
async fn get_json(app: &crate::helpers::TestApp, path: &str) -> Value {
    app.get(path).await.json().await.unwrap()
}

/// Posts `body` to `path` and checks status and the error body.
async fn expect_error(
    app: &crate::helpers::TestApp,
    path: &str,
    body: &Value,
    status: u16,
    field: Option<&str>,
) {
    let res = app.post_json(path, body).await;
    assert_eq!(res.status(), status, "{path} {body}");
    let got: Value = res.json().await.unwrap();
    assert_error_body(&got, field);
}

#[tokio::test]
async fn malformed_json_is_400() {
    let app = spawn_app().await;
    for (path, raw) in [
        ("/api/v1/evaluate", &b"{\"name\": "[..]),
        ("/api/v1/evaluate", b""),
        ("/api/v1/compare", b"{\"scenarios\": [}"),
        ("/api/v1/layouts", b"{\"scenario\": NaN}"),
        ("/api/v1/scenarios", b"{} trailing"),
        ("/api/v1/scenarios", b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["),
    ] {
        let res = app.send_raw(Method::POST, path, Some("application/json"), raw.to_vec()).await;
        assert_eq!(res.status(), 400, "{path} {}", String::from_utf8_lossy(raw));
        assert_error_body(&res.json().await.unwrap(), None);
    }
    let res = app
        .send_raw(
            Method::POST,
            "/api/v1/evaluate",
            Some("application/json"),
            Vec::new(),
        )
        .await;
    let body: Value = res.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("empty"), "{body}");
}

#[tokio::test]
async fn wrong_content_type_is_415() {
    let app = spawn_app().await;
    let body = serde_json::to_vec(&sample_scenario()).unwrap();
    for ct in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
    ] {
        for path in ["/api/v1/evaluate", "/api/v1/scenarios"] {
            let res = app.send_raw(Method::POST, path, ct, body.clone()).await;
            assert_eq!(res.status(), 415, "{path} {ct:?}");
            assert_error_body(&res.json().await.unwrap(), None);
        }
    }
    let res = app
        .send_raw(
            Method::POST,
            "/api/v1/scenarios",
            Some("application/json; charset=utf-8"),
            body,
        )
        .await;
    assert_eq!(res.status(), 201, "charset parameter is accepted");
}

#[tokio::test]
async fn body_over_one_mib_is_413() {
    let app = spawn_app().await;
    let mut big = sample_scenario();
    big["name"] = json!("x".repeat(2 << 20));
    let id = app.create(&sample_scenario()).await;
    for path in [
        "/api/v1/evaluate".to_owned(),
        "/api/v1/scenarios".to_owned(),
    ] {
        let res = app.post_json(&path, &big).await;
        assert_eq!(res.status(), 413, "{path}");
        assert_error_body(&res.json().await.unwrap(), None);
    }
    let res = app.put_json(&format!("/api/v1/scenarios/{id}"), &big).await;
    assert_eq!(res.status(), 413);
    // Just under the limit is read (and then judged on its content).
    let mut near = sample_scenario();
    near["name"] = json!("x".repeat((1 << 20) - 2000));
    let res = app.post_json("/api/v1/scenarios", &near).await;
    assert_eq!(res.status(), 422);
    assert_error_body(&res.json().await.unwrap(), Some("name"));
}

#[tokio::test]
async fn invalid_values_are_422_with_field() {
    let app = spawn_app().await;
    let mut wrong_type = sample_scenario();
    wrong_type["workload"]["io_size_kib"] = json!("big");
    let mut unknown = sample_scenario();
    unknown["workload"]["typo"] = json!(1);
    let mut out_of_range = sample_scenario();
    out_of_range["workload"]["io_size_kib"] = json!(0.1);
    let mut wrong_level = sample_scenario();
    wrong_level["storage"]["level"] = json!("ssd_v2");
    let mut bad_volume = sample_scenario();
    bad_volume["storage"]["volumes"][0]["count"] = json!(-4);
    let mut top_unknown = sample_scenario();
    top_unknown["colour"] = json!("blue");
    let cases = [
        (&wrong_type, "workload.io_size_kib"),
        (&unknown, "workload.typo"),
        (&out_of_range, "workload.io_size_kib"),
        (&wrong_level, "storage.level"),
        (&bad_volume, "storage.volumes[0].count"),
        (&top_unknown, "colour"),
    ];
    for (body, field) in cases {
        expect_error(&app, "/api/v1/evaluate", body, 422, Some(field)).await;
        expect_error(&app, "/api/v1/scenarios", body, 422, Some(field)).await;
    }
    // Nothing invalid was saved.
    let list = get_json(&app, "/api/v1/scenarios").await;
    assert_eq!(list, json!([]));

    let id = app.create(&sample_scenario()).await;
    let path = format!("/api/v1/scenarios/{id}");
    let res = app.put_json(&path, &out_of_range).await;
    assert_eq!(res.status(), 422);
    assert_error_body(&res.json().await.unwrap(), Some("workload.io_size_kib"));
    let mut other_id = sample_scenario();
    other_id["id"] = json!(id + 1);
    let res = app.put_json(&path, &other_id).await;
    assert_eq!(res.status(), 422);
    assert_error_body(&res.json().await.unwrap(), Some("id"));
    let mut same_id = sample_scenario();
    same_id["id"] = json!(id);
    assert_eq!(app.put_json(&path, &same_id).await.status(), 200);
    let revs = get_json(&app, &format!("{path}/revisions")).await;
    assert_eq!(
        revs.as_array().unwrap().len(),
        2,
        "the rejected saves added no revision"
    );
}

#[tokio::test]
async fn compare_and_layouts_validate_their_envelopes() {
    let app = spawn_app().await;
    let s = sample_scenario();
    let mut bad = sample_scenario();
    bad["workload"]["io_size_kib"] = json!(0);
    let seventeen: Vec<Value> = (0..17).map(|_| s.clone()).collect();

    let layouts = |scenario: &Value, total: Value, counts: Value| json!({"scenario": scenario, "total_tib": total, "counts": counts});
    let many: Vec<u32> = (1..=257).collect();
    for (body, field) in [
        (json!({"scenarios": []}), Some("scenarios")),
        (json!({"scenarios": seventeen}), Some("scenarios")),
        (
            json!({"scenarios": [s, bad]}),
            Some("scenarios[1].workload.io_size_kib"),
        ),
        (json!({"scenarios": [s], "extra": 1}), Some("extra")),
        (
            json!({"scenarios": [{"name": 5}]}),
            Some("scenarios[0].name"),
        ),
        (json!({}), None),
    ] {
        expect_error(&app, "/api/v1/compare", &body, 422, field).await;
    }
    for (body, field) in [
        (layouts(&s, json!(80), json!([])), Some("counts")),
        (layouts(&s, json!(80), json!(many)), Some("counts")),
        (layouts(&s, json!(80), json!([1, 0])), Some("counts[1]")),
        (layouts(&s, json!(80), json!([2000])), Some("counts[0]")),
        (layouts(&s, json!(80), json!([-1])), Some("counts[0]")),
        (layouts(&s, json!(-5), json!([1])), Some("total_tib")),
        (layouts(&s, json!(0), json!([1])), Some("total_tib")),
        (
            layouts(&bad, json!(80), json!([1])),
            Some("scenario.workload.io_size_kib"),
        ),
    ] {
        expect_error(&app, "/api/v1/layouts", &body, 422, field).await;
    }
}

#[tokio::test]
async fn unknown_ids_and_routes_are_404_json() {
    let app = spawn_app().await;
    for path in [
        "/api/v1/scenarios/7",
        "/api/v1/scenarios/abc",
        "/api/v1/nothing",
        "/api/v2/scenarios",
        "/api",
    ] {
        let res = app.get(path).await;
        assert_eq!(res.status(), 404, "{path}");
        assert_error_body(&res.json().await.unwrap(), None);
    }
    let body = get_json(&app, "/api/v1/scenarios/7").await;
    assert_eq!(
        body,
        json!({"error": "no scenario with id 7", "field": null})
    );
    let body = get_json(&app, "/api/v1/scenarios/abc").await;
    assert_eq!(
        body,
        json!({"error": "no scenario with id abc", "field": null})
    );

    // A run the scenario does not have is named as the URL spells it.
    let id = app.create(&sample_scenario()).await;
    for (method, path, error) in [
        (
            Method::DELETE,
            format!("/api/v1/scenarios/{id}/measurements/abc"),
            format!("scenario {id} has no measurement abc"),
        ),
        (
            Method::DELETE,
            format!("/api/v1/scenarios/{id}/measurements/99"),
            format!("scenario {id} has no measurement 99"),
        ),
        (
            Method::GET,
            format!("/api/v1/scenarios/{id}/measurements/007/scenario"),
            format!("scenario {id} has no measurement 007"),
        ),
        (
            Method::DELETE,
            "/api/v1/scenarios/abc/measurements/1".to_owned(),
            "no scenario with id abc".to_owned(),
        ),
        (
            Method::GET,
            "/api/v1/scenarios/abc/revisions/1".to_owned(),
            "no scenario with id abc".to_owned(),
        ),
        (
            Method::GET,
            format!("/api/v1/scenarios/{id}/revisions/x"),
            format!("scenario {id} has no revision x"),
        ),
    ] {
        let res = app.send_raw(method.clone(), &path, None, Vec::new()).await;
        assert_eq!(res.status(), 404, "{method} {path}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(
            body,
            json!({"error": error, "field": null}),
            "{method} {path}"
        );
    }

    let res = app
        .send_raw(
            Method::PATCH,
            "/api/v1/scenarios/7",
            Some("application/json"),
            b"{}".to_vec(),
        )
        .await;
    assert_eq!(res.status(), 405);
    assert!(res.headers().contains_key("allow"));
    assert_error_body(&res.json().await.unwrap(), None);
}

#[tokio::test]
async fn evaluate_compare_and_layouts_answer_with_evaluations() {
    let app = spawn_app().await;
    let s = sample_scenario();
    let res = app.post_json("/api/v1/evaluate", &s).await;
    assert_eq!(
        res.status(),
        200,
        "{}",
        res.text().await.unwrap_or_default()
    );
    let ev: Value = app
        .post_json("/api/v1/evaluate", &s)
        .await
        .json()
        .await
        .unwrap();
    for key in [
        "throughput_mibps",
        "read_mibps",
        "write_mibps",
        "iops",
        "binding",
        "limits",
        "targets",
        "flows",
        "cost",
        "advice",
    ] {
        assert!(ev.get(key).is_some(), "evaluation has {key}: {ev}");
    }
    let total = ev["throughput_mibps"].as_f64().unwrap();
    let parts = ev["read_mibps"].as_f64().unwrap() + ev["write_mibps"].as_f64().unwrap();
    assert!(
        (total - parts).abs() <= 1e-6 * total.max(1.0),
        "read + write = total in {ev}"
    );

    let mut other = named("other");
    other["workload"]["read_pct"] = json!(0);
    let res = app
        .post_json("/api/v1/compare", &json!({"scenarios": [s, other]}))
        .await;
    assert_eq!(res.status(), 200);
    let cmp: Value = res.json().await.unwrap();
    let results = cmp["results"].as_array().expect("results");
    assert_eq!(results.len(), 2);
    assert_eq!(
        results[0], ev,
        "compare gives the same evaluation as evaluate"
    );
    assert!(
        results[1]["read_mibps"].as_f64().unwrap().abs() < 1e-9,
        "write-only second scenario"
    );

    let res = app
        .post_json(
            "/api/v1/layouts",
            &json!({"scenario": s, "total_tib": 80, "counts": [1, 2, 4, 8]}),
        )
        .await;
    assert_eq!(res.status(), 200);
    let lay: Value = res.json().await.unwrap();
    let items = lay["layouts"].as_array().expect("layouts");
    assert_eq!(items.len(), 4);
    for (item, count) in items.iter().zip([1u32, 2, 4, 8]) {
        assert_eq!(item["count"], count);
        assert!((item["quota_tib"].as_f64().unwrap() - 80.0 / f64::from(count)).abs() < 1e-9);
        assert!(item["evaluation"]["throughput_mibps"].is_number());
    }
}

#[tokio::test]
async fn security_headers_on_pages_and_api() {
    let app = spawn_app().await;
    for path in [
        "/",
        "/healthz",
        "/api/v1/scenarios",
        "/api/v1/scenarios/999",
    ] {
        let res = app.get(path).await;
        let h = res.headers();
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert_eq!(h["referrer-policy"], "same-origin", "{path}");
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(
            csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"),
            "{path}: {csp}"
        );
    }
}

#[tokio::test]
async fn openapi_lists_every_api_route() {
    let app = spawn_app().await;
    let res = app.get("/api/openapi.json").await;
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
    let doc: Value = res.json().await.unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let paths = doc["paths"].as_object().expect("paths");
    for (path, method) in [
        ("/healthz", "get"),
        ("/api/v1/evaluate", "post"),
        ("/api/v1/compare", "post"),
        ("/api/v1/layouts", "post"),
        ("/api/v1/scenarios", "get"),
        ("/api/v1/scenarios", "post"),
        ("/api/v1/scenarios/{id}", "get"),
        ("/api/v1/scenarios/{id}", "put"),
        ("/api/v1/scenarios/{id}", "delete"),
        ("/api/v1/scenarios/{id}/revisions", "get"),
        ("/api/v1/scenarios/{id}/revisions/{n}/restore", "post"),
    ] {
        assert!(
            paths.get(path).and_then(|p| p.get(method)).is_some(),
            "{method} {path} in the OpenAPI document"
        );
    }
    assert!(doc["components"]["schemas"]["ErrorBody"].is_object());

    // The documented request examples are accepted as they are.
    for (path, status) in [
        ("/api/v1/evaluate", 200),
        ("/api/v1/compare", 200),
        ("/api/v1/layouts", 200),
        ("/api/v1/scenarios", 201),
    ] {
        let example =
            &doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]["example"];
        assert!(example.is_object(), "{path} has a request example");
        let res = app.post_json(path, example).await;
        assert_eq!(
            res.status(),
            status,
            "{path} example: {}",
            res.text().await.unwrap_or_default()
        );
    }
}

#[tokio::test]
async fn concurrent_writers_lose_nothing() {
    const WRITERS: usize = 16;
    const SAVES: usize = 100;
    let app = std::sync::Arc::new(spawn_app().await);
    let mut tasks = tokio::task::JoinSet::new();
    for w in 0..WRITERS {
        let app = app.clone();
        tasks.spawn(async move {
            let id = app.create(&named(&format!("writer {w} save 0"))).await;
            let path = format!("/api/v1/scenarios/{id}");
            for n in 1..SAVES {
                let res = app
                    .put_json(&path, &named(&format!("writer {w} save {n}")))
                    .await;
                let status = res.status();
                let body = res.text().await.unwrap();
                assert_eq!(status, 200, "writer {w} save {n}: {body}");
            }
            (w, id)
        });
    }
    let mut ids = Vec::new();
    while let Some(done) = tasks.join_next().await {
        ids.push(done.expect("writer finished without panicking"));
    }
    let list = get_json(&app, "/api/v1/scenarios").await;
    assert_eq!(list.as_array().unwrap().len(), WRITERS);
    for (w, id) in ids {
        let path = format!("/api/v1/scenarios/{id}");
        let got = get_json(&app, &path).await;
        assert_eq!(got["name"], format!("writer {w} save {}", SAVES - 1));
        let revs = get_json(&app, &format!("{path}/revisions")).await;
        let numbers: Vec<i64> = revs
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["number"].as_i64().unwrap())
            .collect();
        let expected: Vec<i64> = (1..=SAVES as i64).rev().collect();
        assert_eq!(numbers, expected, "writer {w}: every save is a revision");
        let names: HashSet<&str> = revs
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names.len(),
            SAVES,
            "writer {w}: every save kept its content"
        );
    }
}

#[tokio::test]
async fn concurrent_saves_of_one_scenario_get_distinct_revisions() {
    const WRITERS: usize = 16;
    const SAVES: usize = 25;
    let app = std::sync::Arc::new(spawn_app().await);
    let id = app.create(&named("shared")).await;
    let mut tasks = tokio::task::JoinSet::new();
    for w in 0..WRITERS {
        let app = app.clone();
        tasks.spawn(async move {
            let path = format!("/api/v1/scenarios/{id}");
            let mut got = Vec::new();
            for n in 0..SAVES {
                let res = app.put_json(&path, &named(&format!("w{w} n{n}"))).await;
                assert_eq!(res.status(), 200);
                let saved: Value = res.json().await.unwrap();
                got.push(saved["revision"].as_i64().unwrap());
            }
            got
        });
    }
    let mut all = Vec::new();
    while let Some(done) = tasks.join_next().await {
        all.extend(done.expect("writer finished"));
    }
    all.sort_unstable();
    let expected: Vec<i64> = (2..=(WRITERS * SAVES) as i64 + 1).collect();
    assert_eq!(all, expected, "every save got its own revision number");
    let revs = get_json(&app, &format!("/api/v1/scenarios/{id}/revisions")).await;
    assert_eq!(revs.as_array().unwrap().len(), WRITERS * SAVES + 1);
}

#[tokio::test]
async fn restart_keeps_data() {
    let app = spawn_app().await;
    let id = app.create(&named("survives")).await;
    let file = app.db_path.clone();
    assert_eq!(
        app.put_json(&format!("/api/v1/scenarios/{id}"), &named("survives v2"))
            .await
            .status(),
        200
    );
    let dir = app.stop().await;

    let app = spawn_app_in(dir).await;
    assert_eq!(app.db_path, file, "same database file");
    let got = get_json(&app, &format!("/api/v1/scenarios/{id}")).await;
    assert_eq!(got["name"], "survives v2");
    let revs = get_json(&app, &format!("/api/v1/scenarios/{id}/revisions")).await;
    assert_eq!(revs.as_array().unwrap().len(), 2);
    // New ids continue after the old ones.
    let next = app.create(&named("after restart")).await;
    assert!(next > id);
}

#[tokio::test]
async fn serve_command_logs_its_address_and_stops_on_sigterm() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("nested/folder/volplan.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_volplan"))
        .args(["serve", "--bind", "127.0.0.1:0", "--database-url"])
        .arg(format!("sqlite:{}", db.display()))
        .env_remove("RUST_LOG")
        .current_dir(dir.path())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("start volplan serve");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    let addr = first
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("first log line names the address: {first}"))
        .to_owned();
    assert!(addr.starts_with("127.0.0.1:"), "{first}");

    let client = reqwest::Client::new();
    let mut ok = false;
    for _ in 0..100 {
        if let Ok(res) = client.get(format!("http://{addr}/healthz")).send().await {
            ok = res.status() == 200;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(ok, "healthz answers");
    assert!(db.exists(), "database created with its parent folders");

    let kill = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    assert!(status.success(), "graceful exit on SIGTERM: {status}");
    let rest: Vec<String> = stderr.lines().map_while(Result::ok).collect();
    assert!(rest.iter().any(|l| l.contains("shutting down")), "{rest:?}");
}

#[tokio::test]
async fn saving_checks_what_evaluating_checks() {
    let app = spawn_app().await;
    // An unknown VM size or a name with a control character is refused at save, with
    // the field, and nothing is stored; evaluate refuses the same scenarios.
    let mut unknown_vm = sample_scenario();
    unknown_vm["clients"]["vm_size"] = json!("../../etc/passwd");
    unknown_vm["clients"]["avs"] = Value::Null;
    let mut nul_name = sample_scenario();
    nul_name["name"] = json!("bad\u{0}name");
    for (body, field) in [(&unknown_vm, "clients.vm_size"), (&nul_name, "name")] {
        for path in ["/api/v1/scenarios", "/api/v1/evaluate"] {
            let res = app.post_json(path, body).await;
            assert_eq!(res.status(), 422, "{path} {field}");
            let err: Value = res.json().await.unwrap();
            assert_error_body(&err, Some(field));
        }
    }
    let list: Value = app.get("/api/v1/scenarios").await.json().await.unwrap();
    assert_eq!(list, json!([]), "nothing was stored");
}

/// Five wrong fields, each found by a different check (a range, a whole number, a
/// service rule, the catalog, the price book): one 422 lists all five, at evaluate and
/// at save, and nothing is saved.
#[tokio::test]
async fn five_wrong_fields_come_in_one_422() {
    let app = spawn_app().await;
    let mut s = sample_scenario();
    s["workload"]["read_pct"] = json!(140);
    s["workload"]["threads"] = json!(0);
    s["clients"]["nconnect"] = json!(99);
    s["clients"]["vm_size"] = json!("Standard_E32s_v9");
    s["region"] = json!("westeurop");
    let want = [
        "workload.read_pct",
        "workload.threads",
        "clients.nconnect",
        "clients.vm_size",
        "region",
    ];
    for path in ["/api/v1/evaluate", "/api/v1/scenarios"] {
        let res = app.post_json(path, &s).await;
        assert_eq!(res.status(), 422, "{path}");
        let body: Value = res.json().await.unwrap();
        assert_error_body(&body, Some("workload.read_pct"));
        let fields: Vec<&str> = body["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["field"].as_str().unwrap())
            .collect();
        assert_eq!(fields, want, "{path}: {body}");
        let region = &body["errors"][4]["message"];
        assert!(
            region
                .as_str()
                .unwrap()
                .contains("Did you mean West Europe (westeurope)?"),
            "{region}"
        );
    }
    assert_eq!(get_json(&app, "/api/v1/scenarios").await, json!([]));
}
