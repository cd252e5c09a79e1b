//! Operations: readiness, Prometheus metrics and the online backup.

use crate::helpers::{named, sample_scenario, spawn_app, sqlite_only};
use reqwest::StatusCode;
use std::process::Command;

#[tokio::test]
async fn readyz_follows_the_database() {
    let app = spawn_app().await;
    let res = app.get("/readyz").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(
        res.headers()[reqwest::header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["status"], "ready");
    assert_eq!(body["database"], "ok");

    // The test's pool is the server's: closing it takes the database away.
    app.db.close().await;
    let res = app.get("/readyz").await;
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: serde_json::Value = res.json().await.unwrap();
    let error = body["error"].as_str().unwrap();
    assert!(error.contains("database does not answer"), "{error}");
    // Liveness does not depend on the database.
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);
}

/// The value of the series `series` (name with labels) in `text`.
fn value(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

/// Every line is a `# HELP`/`# TYPE` comment or `name{labels} value`.
fn assert_text_format(text: &str) {
    let mut typed = std::collections::HashSet::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').expect(line);
            assert!(["counter", "gauge", "histogram"].contains(&kind), "{line}");
            typed.insert(name.to_owned());
            continue;
        }
        if line.starts_with("# HELP ") {
            continue;
        }
        let (series, number) = line.rsplit_once(' ').expect(line);
        assert!(number.parse::<f64>().is_ok(), "{line}");
        let name = series.split('{').next().unwrap();
        assert!(
            name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
            "{line}"
        );
        let base = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|s| name.strip_suffix(s).filter(|b| typed.contains(*b)))
            .unwrap_or(name);
        assert!(typed.contains(base), "{line}: no # TYPE before it");
        let labels = &series[name.len()..];
        if !labels.is_empty() {
            let inner = labels.strip_prefix('{').and_then(|l| l.strip_suffix('}'));
            for pair in inner.expect(line).split("\",") {
                let (key, v) = pair.split_once("=\"").expect(line);
                assert!(
                    key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                    "{line}"
                );
                assert!(!v.trim_end_matches('"').contains('"'), "{line}");
            }
        }
    }
}

#[tokio::test]
async fn metrics_count_requests_by_route_template() {
    let app = spawn_app().await;
    let id = app.create(&sample_scenario()).await;
    assert_eq!(
        app.get(&format!("/api/v1/scenarios/{id}")).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        app.get("/api/v1/scenarios/999999").await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.post_json("/api/v1/evaluate", &sample_scenario())
            .await
            .status(),
        StatusCode::OK
    );
    let pair = serde_json::json!({ "scenarios": [sample_scenario(), named("second")] });
    assert_eq!(
        app.post_json("/api/v1/compare", &pair).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        app.get("/no/such/page").await.status(),
        StatusCode::NOT_FOUND
    );

    let res = app.get("/metrics").await;
    assert_eq!(res.status(), StatusCode::OK);
    let ct = res.headers()[reqwest::header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(ct.starts_with("text/plain; version=0.0.4"), "{ct}");
    let text = res.text().await.unwrap();
    assert_text_format(&text);

    let route = r#"method="GET",route="/api/v1/scenarios/{id}""#;
    assert_eq!(
        value(
            &text,
            &format!("volplan_http_requests_total{{{route},status=\"200\"}}")
        ),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        value(
            &text,
            &format!("volplan_http_requests_total{{{route},status=\"404\"}}")
        ),
        Some(1.0)
    );
    assert!(
        !text.contains("/api/v1/scenarios/999999"),
        "raw URL in {text}"
    );
    assert!(!text.contains("/no/such/page"), "raw URL in {text}");
    assert_eq!(
        value(
            &text,
            r#"volplan_http_requests_total{method="GET",route="unmatched",status="404"}"#
        ),
        Some(1.0)
    );
    assert_eq!(
        value(
            &text,
            r#"volplan_http_requests_total{method="POST",route="/api/v1/scenarios",status="201"}"#
        ),
        Some(1.0)
    );
    // One evaluation, then two compared.
    assert_eq!(value(&text, "volplan_evaluations_total"), Some(3.0));
    assert_eq!(value(&text, "volplan_renders_in_flight"), Some(0.0));
    assert!(value(&text, "volplan_render_permits").unwrap() >= 1.0);
    let count = value(
        &text,
        &format!("volplan_http_request_duration_seconds_count{{{route}}}"),
    );
    let inf = value(
        &text,
        &format!("volplan_http_request_duration_seconds_bucket{{{route},le=\"+Inf\"}}"),
    );
    assert_eq!(count, Some(2.0));
    assert_eq!(inf, count);

    // The counters move: the scrape itself is counted by the next one.
    app.get(&format!("/api/v1/scenarios/{id}")).await;
    let text = app.get_text("/metrics").await;
    assert_eq!(
        value(
            &text,
            &format!("volplan_http_requests_total{{{route},status=\"200\"}}")
        ),
        Some(2.0)
    );
    assert_eq!(
        value(
            &text,
            r#"volplan_http_requests_total{method="GET",route="/metrics",status="200"}"#
        ),
        Some(1.0)
    );
}

fn backup(db_url: &str, path: &std::path::Path, force: bool) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_volplan"));
    cmd.arg("backup")
        .arg(path)
        .args(["--database-url", db_url])
        .env_remove("DATABASE_URL");
    if force {
        cmd.arg("--force");
    }
    cmd.output().expect("volplan runs")
}

async fn names(path: &std::path::Path) -> Vec<String> {
    let pool = volplan::store::connect(&format!("sqlite:{}", path.display()))
        .await
        .expect("the copy opens");
    let mut names: Vec<String> =
        volplan::store::list_scenarios_for(&pool, None, volplan::store::Actor::SINGLE_USER)
            .await
            .unwrap()
            .into_iter()
            .map(|s| s.name)
            .collect();
    pool.close().await;
    names.sort();
    names
}

#[tokio::test]
async fn backup_copies_a_live_database_and_keeps_existing_files() {
    if sqlite_only("the online backup of a database file") {
        return;
    }
    let app = spawn_app().await;
    app.create(&named("first")).await;
    app.create(&named("second")).await;
    let out_dir = tempfile::tempdir().unwrap();
    let copy = out_dir.path().join("copy.db");
    let url = format!("sqlite:{}", app.db_path.display());

    // While the server runs.
    let out = backup(&url, &copy, false);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(names(&copy).await, ["first", "second"]);

    app.create(&named("third")).await;
    let out = backup(&url, &copy, false);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--force"), "{stderr}");
    assert_eq!(names(&copy).await, ["first", "second"], "left untouched");

    let out = backup(&url, &copy, true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(names(&copy).await, ["first", "second", "third"]);
    let leftovers: Vec<_> = std::fs::read_dir(out_dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().contains(".partial-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // The database itself and a database that does not exist are refused.
    let out = backup(&url, &app.db_path, true);
    assert_eq!(out.status.code(), Some(2));
    let missing = out_dir.path().join("missing.db");
    let out = backup(
        &format!("sqlite:{}", missing.display()),
        &out_dir.path().join("x.db"),
        false,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(!missing.exists(), "no database is created by a backup");
}

#[tokio::test]
async fn probes_and_metrics_are_documented_as_served() {
    let app = spawn_app().await;
    let doc = app.get_json("/api/openapi.json").await;
    let ready = &doc["paths"]["/readyz"]["get"]["responses"];
    assert!(
        ready["200"]["content"]["application/json"].is_object(),
        "{ready}"
    );
    assert!(
        ready["503"]["content"]["application/json"].is_object(),
        "{ready}"
    );
    let metrics = &doc["paths"]["/metrics"]["get"]["responses"]["200"]["content"];
    let served = app.get("/metrics").await.headers()[reqwest::header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        metrics[served.as_str()].is_object(),
        "{served} not in {metrics}"
    );
}

#[test]
fn backup_of_a_postgres_database_points_to_pg_dump() {
    let dir = tempfile::tempdir().unwrap();
    let out = backup(
        "postgres://volplan:secret@127.0.0.1:1/volplan",
        &dir.path().join("copy.db"),
        false,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("pg_dump") && !err.contains("secret"), "{err}");
    assert!(!dir.path().join("copy.db").exists());
}
