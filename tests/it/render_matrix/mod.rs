//! The render matrix: every scenario the API accepts renders every report format (in
//! both editions) and every chart (SVG and PNG) over HTTP, in dollars and in euros from
//! prices imported as a user imports them, and each output parses as its readers would
//! read it with its money in the scenario's currency; names the API refuses are
//! refused everywhere a scenario comes in.

mod cases;
mod currency_kept;
mod outputs;

use crate::helpers::{TestApp, assert_error_body, sample_scenario, spawn_app};
use cases::Case;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use volplan::report::Format;
use volplan::report::charts::ChartName;

/// GETs `path` and returns its body, or why it is not a 200 of `content_type`.
async fn fetch(app: &TestApp, path: &str, content_type: &str) -> Result<Vec<u8>, String> {
    let res = app.get(path).await;
    let status = res.status();
    let got = res
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let body = res.bytes().await.map_err(|e| format!("body: {e}"))?;
    if status != 200 {
        return Err(format!("answered {status}: {}", gist(&body)));
    }
    if !got.starts_with(content_type) {
        return Err(format!("content type {got}, not {content_type}"));
    }
    Ok(body.to_vec())
}

/// The text of an error body without its markup, shortened for a failure message.
fn gist(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let mut plain = String::new();
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => plain.push(c),
            _ => {}
        }
    }
    let words: Vec<&str> = plain.split_whitespace().collect();
    words.join(" ").chars().take(600).collect()
}

/// Runs `check` on `body` off the async workers (the server shares them).
async fn check_off_thread(
    body: Vec<u8>,
    check: impl FnOnce(&[u8]) -> Result<(), String> + Send + 'static,
) -> Result<(), String> {
    tokio::task::spawn_blocking(move || check(&body))
        .await
        .map_err(|e| format!("check panicked: {e}"))?
}

/// Saves the case, then fetches and reads back every report and chart; the failures.
async fn render_case(app: &TestApp, case: &Case) -> Vec<String> {
    let res = app.post_json("/api/v1/scenarios", &case.scenario).await;
    let status = res.status();
    let body: Value = res.json().await.unwrap_or(Value::Null);
    let Some(id) = body["id"].as_i64().filter(|_| status == 201) else {
        return vec![format!("{}: saving answered {status} {body}", case.label)];
    };
    let mut failures = Vec::new();
    // Each report in each edition, plain and with a comparison (the scenario beside
    // itself) and a layouts section at the scenario's own volume count, which always
    // exists.
    let options = format!("&compare={id}&layouts={}", case.volume_count());
    for format in Format::ALL {
        for edition in ["customer", "engineer"] {
            for more in ["", options.as_str()] {
                let path = format!(
                    "/scenarios/{id}/report.{}?edition={edition}{more}",
                    format.ext()
                );
                let (name, currency, priced) = (case.name().to_owned(), case.currency, case.priced);
                let checked = match fetch(app, &path, format.content_type()).await {
                    Ok(bytes) => {
                        check_off_thread(bytes, move |b| {
                            outputs::report(format, b, &name)?;
                            outputs::money(format, b, currency, priced)
                        })
                        .await
                    }
                    Err(e) => Err(e),
                };
                if let Err(e) = checked {
                    failures.push(format!("{}: {path}: {e}", case.label));
                }
            }
        }
    }
    for chart in ChartName::ALL {
        for (ext, content_type) in [("svg", "image/svg+xml"), ("png", "image/png")] {
            let path = format!("/scenarios/{id}/charts/{}.{ext}", chart.key());
            let name = case.name().to_owned();
            let checked = match fetch(app, &path, content_type).await {
                Ok(bytes) if ext == "svg" => {
                    check_off_thread(bytes, move |b| outputs::svg(b, &name)).await
                }
                Ok(bytes) => check_off_thread(bytes, outputs::png).await,
                Err(e) => Err(e),
            };
            if let Err(e) = checked {
                failures.push(format!("{}: {path}: {e}", case.label));
            }
        }
    }
    failures
}

/// Renders every case over HTTP on `app`, two at a time (one per core, within the
/// server's render permits), and returns the failures and the slowest cases.
async fn render_all(app: TestApp, cases: Vec<Case>) -> (Vec<String>, Vec<(String, Duration)>) {
    let app = Arc::new(app);
    let queue = Arc::new(Mutex::new(cases));
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..2 {
        let (app, queue) = (app.clone(), queue.clone());
        workers.spawn(async move {
            let mut failures = Vec::new();
            let mut times = Vec::new();
            loop {
                let next = queue.lock().expect("queue").pop();
                let Some(case) = next else { break };
                let start = Instant::now();
                failures.extend(render_case(&app, &case).await);
                times.push((case.label, start.elapsed()));
            }
            (failures, times)
        });
    }
    let mut failures = Vec::new();
    let mut times = Vec::new();
    while let Some(done) = workers.join_next().await {
        let (f, t) = done.expect("a render worker");
        failures.extend(f);
        times.extend(t);
    }
    times.sort_by_key(|t| std::cmp::Reverse(t.1));
    (failures, times)
}

/// Formats times as "label 1.2 s, ..." for the log.
fn times_text(times: &[(String, Duration)]) -> String {
    times
        .iter()
        .map(|(label, d)| format!("{label} {:.1} s", d.as_secs_f64()))
        .collect::<Vec<_>>()
        .join(", ")
}

async fn assert_all_render(cases: Vec<Case>) {
    assert_all_render_on(spawn_app().await, cases).await;
}

async fn assert_all_render_on(app: TestApp, cases: Vec<Case>) {
    let count = cases.len();
    let (failures, times) = render_all(app, cases).await;
    eprintln!(
        "{count} scenarios rendered; slowest: {}",
        times_text(&times[..times.len().min(5)])
    );
    assert!(
        failures.is_empty(),
        "{} of {} outputs failed:\n{}",
        failures.len(),
        count * (4 * Format::ALL.len() + 2 * ChartName::ALL.len()),
        failures.join("\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_template_and_boundary_scenario_renders_every_report_and_chart() {
    let mut cases = cases::templates();
    cases.extend(cases::boundaries());
    assert_all_render(cases).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_template_in_euros_renders_every_report_and_chart_with_its_money_in_euros() {
    let app = spawn_app().await;
    // The euro prices come in as a user brings them: a price sheet through the API.
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/prices/sheet",
            Some("text/csv"),
            cases::EUR_SHEET.as_bytes().to_vec(),
        )
        .await;
    let status = res.status();
    assert_eq!(status, 200, "{}", res.text().await.unwrap_or_default());
    let cases = cases::templates().into_iter().map(Case::in_euros).collect();
    assert_all_render_on(app, cases).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_class_of_name_the_api_accepts_renders_every_report_and_chart() {
    assert_all_render(cases::names()).await;
}

#[tokio::test]
async fn names_the_api_refuses_are_refused_at_save_at_evaluate_and_in_charts() {
    let app = spawn_app().await;
    for (class, name) in cases::refused_names() {
        let mut s = sample_scenario();
        s["name"] = json!(name);
        for path in [
            "/api/v1/scenarios",
            "/api/v1/evaluate",
            "/charts/ceilings.svg",
        ] {
            let res = app.post_json(path, &s).await;
            assert_eq!(res.status(), 422, "{class} at {path}");
            let err: Value = res.json().await.expect("error body");
            assert_error_body(&err, Some("name"));
        }
    }
    // A lone surrogate is not text at all: the JSON does not parse.
    let body = serde_json::to_string(&sample_scenario())
        .expect("JSON")
        .replacen("AVS 4 x 20", "\\ud800", 1);
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/scenarios",
            Some("application/json"),
            body.into_bytes(),
        )
        .await;
    assert_eq!(res.status(), 400, "a lone surrogate");
    let list: Value = app
        .get("/api/v1/scenarios")
        .await
        .json()
        .await
        .expect("list");
    assert_eq!(list, json!([]), "nothing was stored");

    // A blank name is refused where a scenario is stored (created or saved again), and
    // nothing is stored; a computation needs no name.
    let id = app.create(&sample_scenario()).await;
    for blank in ["", "   ", "\u{3000}"] {
        let mut s = sample_scenario();
        s["name"] = json!(blank);
        for (method, path) in [
            (reqwest::Method::POST, "/api/v1/scenarios".to_owned()),
            (reqwest::Method::PUT, format!("/api/v1/scenarios/{id}")),
        ] {
            let res = app
                .send_raw(
                    method.clone(),
                    &path,
                    Some("application/json"),
                    serde_json::to_vec(&s).expect("JSON"),
                )
                .await;
            assert_eq!(res.status(), 422, "{blank:?} at {method} {path}");
            let err: Value = res.json().await.expect("error body");
            assert_error_body(&err, Some("name"));
            let message = err["message"].as_str().unwrap_or_default();
            assert!(
                !message.contains('`') && !message.contains("null"),
                "{message}"
            );
        }
        let res = app.post_json("/api/v1/evaluate", &s).await;
        assert_eq!(res.status(), 200, "{blank:?} evaluates");
    }
    let stored: Value = app.get_json(&format!("/api/v1/scenarios/{id}")).await;
    assert_eq!(
        stored["name"],
        sample_scenario()["name"],
        "the saved name is kept"
    );
    let after = app.get_json("/api/v1/scenarios").await;
    assert_eq!(
        after.as_array().map(Vec::len),
        Some(1),
        "only the named scenario was stored: {after}"
    );
}

#[tokio::test]
async fn one_past_each_boundary_is_refused() {
    let app = spawn_app().await;
    let mut volumes = sample_scenario();
    volumes["storage"]["volumes"] =
        json!([{ "count": 1000, "quota_tib": 1 }, { "count": 25, "quota_tib": 1 }]);
    let mut hosts = sample_scenario();
    hosts["clients"]["avs"]["hosts"] = json!(17);
    let mut quota = sample_scenario();
    quota["storage"]["volumes"] = json!([{ "count": 1, "quota_tib": 2048.5 }]);
    for (what, s, field) in [
        ("1,025 volumes", volumes, "storage.volumes"),
        ("17 AVS hosts", hosts, "clients.avs.hosts"),
        (
            "a 2,048.5 TiB volume",
            quota,
            "storage.volumes[0].quota_tib",
        ),
    ] {
        let res = app.post_json("/api/v1/scenarios", &s).await;
        assert_eq!(res.status(), 422, "{what}");
        let err: Value = res.json().await.expect("error body");
        assert_error_body(&err, Some(field));
    }
}
