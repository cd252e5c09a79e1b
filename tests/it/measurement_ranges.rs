//! Benchmark figures outside any physical range (an overflow in the file, a forged
//! `1e308`) are refused with a 422 naming the field, never stored and never answered
//! as null; runs stored before the check, which cannot be read or drawn, are left out
//! of every answer (never a 500) and removed by the migration.

use crate::helpers::{TestApp, fixture_text, sample_scenario, spawn_app};
use reqwest::Method;
use serde_json::{Value, json};

/// A fixture with its first `from` replaced by `to`.
fn forged(name: &str, from: &str, to: &str) -> Vec<u8> {
    let text = fixture_text(&format!("import/{name}"));
    assert!(text.contains(from), "{name} holds {from}");
    text.replacen(from, to, 1).into_bytes()
}

async fn post(app: &TestApp, path: &str, body: Vec<u8>) -> reqwest::Response {
    app.send_raw(Method::POST, path, Some("application/octet-stream"), body)
        .await
}

#[tokio::test]
async fn forged_figures_are_refused_naming_the_field() {
    let app = spawn_app().await;
    let id = app.create(&sample_scenario()).await;
    let cases = [
        (
            forged(
                "fio-3.36-single-job.json",
                "\"iops\" : 20800.0",
                "\"iops\" : 1e308",
            ),
            "measurements[0].iops",
            &[][..],
        ),
        (
            forged(
                "fio-3.36-single-job.json",
                "\"iops\" : 20800.0",
                "\"iops\" : -1e308",
            ),
            "measurements[0].iops",
            &[][..],
        ),
        (
            forged(
                "elbencho-3.0-seq-and-rwmix.csv",
                ",978,952,978,952,",
                ",978,NaN,978,952,",
            ),
            "measurements[0].iops",
            &[],
        ),
        (
            forged(
                "diskspd-2.1-two-targets-four-threads.xml",
                "<ReadBytes>3013017600</ReadBytes>",
                "<ReadBytes>-1e308</ReadBytes>",
            ),
            "measurements[0].mibps",
            &["measurements[0].read_mibps"],
        ),
        (
            forged(
                "fio-3.36-single-job.json",
                "\"bw_bytes\" : 1363148800",
                "\"bw_bytes\" : 1e308",
            ),
            "measurements[0].mibps",
            &[],
        ),
        (
            forged(
                "elbencho-3.0-seq-and-rwmix.csv",
                ",978,952,978,952,",
                ",978,1e308,978,952,",
            ),
            "measurements[0].iops",
            &[],
        ),
        (
            forged(
                "diskspd-2.1-two-targets-four-threads.xml",
                "<TestTimeSeconds>60.00</TestTimeSeconds>",
                "<TestTimeSeconds>5e-324</TestTimeSeconds>",
            ),
            "measurements[0].iops",
            // A test time of almost nothing overflows every rate of the run.
            &["measurements[0].mibps", "measurements[0].read_mibps"],
        ),
    ];
    for (body, field, also) in cases {
        for path in [
            "/api/v1/measurements/parse".to_owned(),
            format!("/api/v1/scenarios/{id}/measurements"),
            "/api/v1/measurements/scenario".to_owned(),
        ] {
            let res = post(&app, &path, body.clone()).await;
            assert_eq!(res.status(), 422, "{path} {field}");
            let err: Value = res.json().await.unwrap();
            assert_eq!(err["field"], json!(field), "{path}: {err}");
            let message = err["error"].as_str().unwrap();
            assert!(message.contains("outside 0 to"), "{message}");
            assert!(
                !message.contains("0000000000"),
                "no long numbers: {message}"
            );
            assert!(message.len() < 1200, "{message}");
            // Every figure out of range is listed.
            let fields: Vec<&str> = err["errors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["field"].as_str().unwrap())
                .collect();
            assert_eq!(fields[0], field, "{path}: {err}");
            assert!(also.iter().all(|f| fields.contains(f)), "{fields:?}");
        }
    }
    let list: Value = app
        .get_json(&format!("/api/v1/scenarios/{id}/measurements"))
        .await;
    assert_eq!(list, json!([]), "nothing was stored");
}

/// Stores `body` as a run of scenario `id` directly, as an older server did.
async fn store_raw(app: &TestApp, id: i64, body: &Value) -> i64 {
    let (mid,): (i64,) = sqlx::query_as(
        "INSERT INTO measurements (scenario_id, revision, format, label, body)
         VALUES ($1, 1, 'fio_json', 'forged', $2) RETURNING id",
    )
    .bind(id)
    .bind(body.to_string())
    .fetch_one(&app.db)
    .await
    .unwrap();
    mid
}

/// A scenario with one real run and two stored before the check: one whose IOPS
/// overflowed to null and one at 1e308. Returns the scenario, the real run's body and
/// the two forged runs' ids.
async fn with_forged_runs(app: &TestApp) -> (i64, Value, [i64; 2]) {
    let id = app.create(&sample_scenario()).await;
    let real = fixture_text("import/fio-3.36-single-job.json").into_bytes();
    let res = post(app, &format!("/api/v1/scenarios/{id}/measurements"), real).await;
    assert_eq!(res.status(), 201);
    let added: Value = res.json().await.unwrap();
    let body = added["measurements"][0]["measurement"].clone();
    let mut null = body.clone();
    null["iops"] = Value::Null;
    let mut huge = body.clone();
    huge["iops"] = json!(1e308);
    huge["latency_mean_ms"] = json!(1e308);
    let forged = [
        store_raw(app, id, &null).await,
        store_raw(app, id, &huge).await,
    ];
    (id, body, forged)
}

#[tokio::test]
async fn runs_that_cannot_be_read_are_left_out_never_a_500() {
    let app = spawn_app().await;
    let (id, body, forged) = with_forged_runs(&app).await;
    let list: Value = app
        .get_json(&format!("/api/v1/scenarios/{id}/measurements"))
        .await;
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["measurement"], body);
    for path in [
        format!("/scenarios/{id}"),
        format!("/scenarios/{id}/charts/latency.svg"),
        format!("/scenarios/{id}/charts/ceilings.svg"),
        format!("/scenarios/{id}/charts/io-size.png"),
        format!("/scenarios/{id}/report.md"),
        format!("/api/v1/scenarios/{id}/measurements/{}/scenario", forged[0]),
    ] {
        let res = app.get(&path).await;
        let status = res.status().as_u16();
        assert!(status == 200 || status == 404, "{path}: {status}");
    }
    for mid in forged {
        let res = app
            .send_raw(
                Method::DELETE,
                &format!("/api/v1/scenarios/{id}/measurements/{mid}"),
                None,
                Vec::new(),
            )
            .await;
        assert_eq!(res.status(), 204, "an unreadable run can be deleted");
    }
}

#[tokio::test]
async fn the_migration_removes_the_runs_stored_before_the_check() {
    let app = spawn_app().await;
    let (id, _, _) = with_forged_runs(&app).await;
    // Run the migration again, as on the first start of this version.
    sqlx::query("DELETE FROM _sqlx_migrations WHERE version = 20261230000000")
        .execute(&app.db)
        .await
        .unwrap();
    let db = volplan::store::connect(&app.db_url).await.unwrap();
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM measurements WHERE scenario_id = $1")
        .bind(id)
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(n, 1, "only the real run is left");
    db.close().await;
}

#[tokio::test]
async fn a_run_at_the_largest_accepted_figures_renders_every_chart_and_report() {
    use volplan::measure::plausible;
    let app = spawn_app().await;
    let (id, body, _) = with_forged_runs(&app).await;
    let mut largest = body.clone();
    for (field, max) in [
        ("iops", plausible::MAX_IOPS),
        ("read_iops", plausible::MAX_IOPS),
        ("mibps", plausible::MAX_MIBPS),
        ("read_mibps", plausible::MAX_MIBPS),
        ("io_size_kib", plausible::MAX_IO_SIZE_KIB),
        ("runtime_s", plausible::MAX_RUNTIME_S),
        ("latency_mean_ms", plausible::MAX_LATENCY_MS),
        ("latency_p99_ms", plausible::MAX_LATENCY_MS),
    ] {
        largest[field] = json!(max);
    }
    store_raw(&app, id, &largest).await;
    let mut paths = vec![format!("/scenarios/{id}")];
    for chart in ["ceilings", "io-size", "scaling", "latency"] {
        for ext in ["svg", "png"] {
            paths.push(format!("/scenarios/{id}/charts/{chart}.{ext}"));
        }
    }
    for ext in ["html", "md", "pdf", "csv", "xlsx", "json"] {
        paths.push(format!("/scenarios/{id}/report.{ext}"));
    }
    for path in paths {
        let started = std::time::Instant::now();
        let res = app.get(&path).await;
        assert_eq!(res.status(), 200, "{path}");
        assert!(started.elapsed().as_secs() < 10, "{path}");
    }
}
