//! What every answer carries: 405 for a method no route serves (on every path, admin
//! paths and unknown ones included, whoever asks), `Cache-Control: private, no-store`
//! on everything but the static assets, error messages that quote at most the start of
//! the input, and free-text fields refused past their `maxLength`.

use crate::helpers::{TestApp, sample_scenario, spawn_app};
use crate::ownership::{ALICE, team};
use reqwest::Method;
use serde_json::{Value, json};

const PATHS: [&str; 8] = [
    "/",
    "/healthz",
    "/api/v1/scenarios",
    "/api/v1/tokens",
    "/prices/enter",
    "/api/v1/prices/import",
    "/no/such/page",
    "/api/v1/no-such-endpoint",
];

fn unknown_methods() -> Vec<Method> {
    vec![
        Method::TRACE,
        Method::OPTIONS,
        Method::PATCH,
        Method::CONNECT,
        Method::from_bytes(b"PROPFIND").unwrap(),
    ]
}

#[tokio::test]
async fn a_method_no_route_serves_is_405_on_every_path_for_everyone() {
    let t = team().await;
    for path in PATHS {
        for method in unknown_methods() {
            for who in [Some(ALICE), None] {
                let mut req = t.req(ALICE, method.clone(), path);
                if who.is_none() {
                    req =
                        reqwest::Client::new().request(method.clone(), format!("{}{path}", t.base));
                }
                let res = req.send().await.unwrap();
                assert_eq!(res.status(), 405, "{method} {path} as {who:?}");
                let allow = res.headers()["allow"].to_str().unwrap().to_owned();
                assert!(allow.contains("GET") || allow.contains("POST"), "{allow}");
                assert!(!allow.contains(method.as_str()), "{allow}");
            }
        }
    }
    // A known path answers with its own methods.
    let res = t
        .req(ALICE, Method::TRACE, "/api/v1/tokens")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["allow"], "GET,HEAD,POST");
    let body: Value = res.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("Allow"), "{body}");
}

#[tokio::test]
async fn answers_are_not_stored_by_caches_but_static_assets_are() {
    let app = spawn_app().await;
    let id = app.create(&sample_scenario()).await;
    for path in [
        "/".to_owned(),
        "/healthz".to_owned(),
        "/api/v1/scenarios".to_owned(),
        format!("/api/v1/scenarios/{id}"),
        format!("/scenarios/{id}"),
        format!("/scenarios/{id}/report.pdf"),
        format!("/scenarios/{id}/report.html"),
        format!("/scenarios/{id}/charts/ceilings.svg"),
        "/api/v1/scenarios/999999".to_owned(),
    ] {
        let res = app.get(&path).await;
        assert_eq!(
            res.headers()["cache-control"],
            "private, no-store",
            "{path}: {}",
            res.status()
        );
    }
    let css = app.get("/static/css/app.css").await;
    assert!(
        css.headers()["cache-control"]
            .to_str()
            .unwrap()
            .starts_with("public")
    );
}

/// POSTs `body` to `path` and returns the 422's error body.
async fn refused(app: &TestApp, path: &str, body: &Value) -> Value {
    let res = app.post_json(path, body).await;
    assert_eq!(res.status(), 422, "{path}");
    let text = res.text().await.unwrap();
    assert!(text.len() < 2000, "{path}: a {} byte error", text.len());
    serde_json::from_str(&text).unwrap()
}

#[tokio::test]
async fn errors_quote_only_the_start_of_what_was_sent() {
    let app = spawn_app().await;
    let huge = "Q".repeat(900_000);
    let mut s = sample_scenario();
    s["clients"]["vm_size"] = json!(huge);
    s["clients"]["avs"] = Value::Null;
    let err = refused(&app, "/api/v1/evaluate", &s).await;
    assert_eq!(err["field"], "clients.vm_size");
    // An unknown enum value: serde quotes it, the answer keeps its start.
    let mut s = sample_scenario();
    s["storage"]["service"] = json!(huge);
    let err = refused(&app, "/api/v1/scenarios", &s).await;
    assert!(err["error"].as_str().unwrap().contains("QQQQ…"), "{err}");
    // An unknown field whose name is the input.
    let mut s = sample_scenario();
    s["workload"][&huge] = json!(1);
    let err = refused(&app, "/api/v1/evaluate", &s).await;
    assert!(
        err["error"].as_str().unwrap().contains("unknown field"),
        "{err}"
    );
    // A page's error too.
    let res = app.get(&format!("/scenarios/{}", "9".repeat(10_000))).await;
    assert_eq!(res.status(), 404);
    assert!(res.text().await.unwrap().len() < 8_000);
}

#[tokio::test]
async fn free_text_past_its_max_length_is_refused() {
    let app = spawn_app().await;
    let long = |n: usize| "a".repeat(n);
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "/api/v1/evaluate",
            {
                let mut s = sample_scenario();
                s["region"] = json!(long(41));
                s
            },
            "region",
        ),
        (
            "/api/v1/evaluate",
            {
                let mut s = sample_scenario();
                s["pricing"] = json!({"currency": "USDX"});
                s
            },
            "pricing.currency",
        ),
        (
            "/api/v1/estate/optimize",
            json!({"workloads": [sample_scenario()], "gcp_region": long(41)}),
            "gcp_region",
        ),
        (
            "/api/v1/avs/plan",
            json!({"inventory": {"vms": [{"vm": "a", "in_use_mib": 1024}],
                                 "summary": {"warnings": [long(1001)]}},
                   "region": "westus2"}),
            "inventory.summary.warnings[0]",
        ),
        (
            "/api/v1/avs/plan",
            json!({"inventory": {"vms": [{"vm": long(201), "in_use_mib": 1024}]},
                   "region": "westus2"}),
            "inventory.vms[0].vm",
        ),
        (
            "/api/v1/avs/performance",
            json!({"inventory": {"vms": [{"vm": "a", "in_use_mib": 1024, "cluster": long(201)}]},
                   "csv": "VM,IOPS\na,10\n"}),
            "inventory.vms[0].cluster",
        ),
        (
            "/api/v1/advise/mounts",
            json!({"text": "srv:/vol /mnt nfs rw 0 0", "distro": long(65)}),
            "distro",
        ),
    ];
    for (path, body, field) in cases {
        let err = refused(&app, path, &body).await;
        assert_eq!(err["field"], field, "{path}: {err}");
    }
    for (path, field) in [
        (format!("/api/v1/scenarios?q={}", long(201)), "q"),
        (format!("/api/v1/prices?region={}", long(41)), "region"),
        (
            format!("/api/v1/prices?service={}", "%20".repeat(17)),
            "service",
        ),
    ] {
        let res = app.get(&path).await;
        assert_eq!(res.status(), 422, "{path}");
        let err: Value = res.json().await.unwrap();
        assert_eq!(err["field"], field);
    }
    let id = app.create(&sample_scenario()).await;
    let res = app
        .get(&format!("/scenarios/{id}/report.html?download={}", long(9)))
        .await;
    assert_eq!(res.status(), 422);
}
