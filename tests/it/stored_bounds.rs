//! What the store keeps per scenario, estate and owner is capped; past a cap a save is
//! refused naming it and nothing stored is lost; pages and the measurements API read a
//! bounded number of rows whatever is stored.

use crate::helpers::{TestApp, fixture_text, named, sample_scenario, spawn_app};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use volplan::store::bounds::{MAX_REVISIONS, MAX_RUNS_PER_SCENARIO};
use volplan::store::{self, Actor, Visibility};

/// A fio JSON result of `n` runs (copies of one real job, each named and in its own
/// group), under 1 MiB.
fn fio_file(n: usize, tag: &str) -> Vec<u8> {
    let mut doc: Value =
        serde_json::from_str(&fixture_text("import/fio-3.36-single-job.json")).unwrap();
    let job = doc["jobs"][0].clone();
    doc["jobs"] = (0..n)
        .map(|i| {
            let mut j = job.clone();
            j["jobname"] = format!("{tag}-{i}").into();
            j["groupid"] = i.into();
            j
        })
        .collect();
    let bytes = serde_json::to_vec(&doc).unwrap();
    assert!(bytes.len() < 1 << 20, "{} bytes", bytes.len());
    bytes
}

/// The peak and current resident memory of process `pid`, in MiB.
fn memory_mib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
            .map(|kib| kib / 1024)
            .expect(name)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

/// Runs per generated file: 8 of them fill a scenario.
const PER_FILE: usize = 250;

#[tokio::test]
async fn a_runs_flood_stops_at_the_cap_and_the_planner_page_stays_small() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, addr) = crate::helpers::serve_binary(dir.path(), &[]).await;
    let pid = child.id().unwrap();
    let client = reqwest::Client::new();
    let base = format!("http://{addr}");
    let created: Value = client
        .post(format!("{base}/api/v1/scenarios"))
        .json(&sample_scenario())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_i64().unwrap();
    let upload = |body: Vec<u8>| {
        client
            .post(format!("{base}/api/v1/scenarios/{id}/measurements"))
            .header("content-type", "application/octet-stream")
            .body(body)
            .send()
    };
    let files = MAX_RUNS_PER_SCENARIO as usize / PER_FILE;
    for f in 0..files {
        let res = upload(fio_file(PER_FILE, &format!("f{f}"))).await.unwrap();
        assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["measurements"].as_array().unwrap().len(), PER_FILE);
    }
    let (peak_filled, _) = memory_mib(pid);

    // Full: one more file is refused naming the cap, and nothing is added.
    let res = upload(fio_file(1, "over")).await.unwrap();
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    let message = body["error"].as_str().unwrap();
    assert!(
        message.contains(&format!("at most {MAX_RUNS_PER_SCENARIO} runs"))
            && message.contains("delete some runs first"),
        "{message}"
    );
    let res = client
        .get(format!("{base}/api/v1/scenarios/{id}/measurements?limit=1"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.headers()["x-total-count"],
        MAX_RUNS_PER_SCENARIO.to_string().as_str()
    );

    // Three views of the full scenario's planner at once: each within a second, the
    // server well under 200 MiB.
    let view = || async {
        let started = Instant::now();
        let res = client
            .get(format!("{base}/scenarios/{id}"))
            .header("accept", "text/html")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        let html = res.text().await.unwrap();
        (started.elapsed(), html)
    };
    let (a, b, c) = tokio::join!(view(), view(), view());
    let (peak, rss) = memory_mib(pid);
    for (took, html) in [&a, &b, &c] {
        eprintln!("planner page: {} bytes in {took:?}", html.len());
        if let Ok(p) = std::env::var("DUMP_PAGE") {
            std::fs::write(p, html).unwrap();
        }
        assert!(*took < Duration::from_secs(1), "{took:?}");
        assert!(html.len() < 1 << 20, "{} bytes", html.len());
        // The charts draw the newest runs only.
        assert!(html.contains("f7-249"), "the newest run is drawn");
        assert!(!html.contains("f0-0<"), "the oldest run is not");
    }
    eprintln!(
        "peak RSS {peak_filled} MiB after filling, {peak} MiB after the views (now {rss} MiB)"
    );
    assert!(peak < 200, "peak RSS {peak} MiB");
    let _ = child.kill().await;
}

/// `n` runs stored with scenario `id` (copies of a real fio run), straight into the store.
async fn store_runs(app: &TestApp, id: i64, n: usize) {
    let parsed = volplan::measure::parse(&fio_file(1, "r")).unwrap();
    let runs: Vec<_> = (0..n)
        .map(|i| {
            let mut m = parsed.measurements[0].clone();
            m.label = format!("run {i:03}");
            m
        })
        .collect();
    store::measurements::add_measurements(
        &app.db,
        id,
        parsed.format,
        &runs,
        &[],
        Actor::SINGLE_USER,
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn the_measurements_api_answers_one_page_at_a_time() {
    let app = spawn_app().await;
    let id = app.create(&sample_scenario()).await;
    store_runs(&app, id, 120).await;
    let path = format!("/api/v1/scenarios/{id}/measurements");

    let res = app.get(&path).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["x-total-count"], "120");
    assert_eq!(
        res.headers()["link"],
        format!("<{path}?limit=50&offset=50>; rel=\"next\"").as_str()
    );
    let first: Vec<Value> = res.json().await.unwrap();
    assert_eq!(first.len(), 50);
    assert_eq!(first[0]["measurement"]["label"], "run 000", "oldest first");
    assert!(first[0]["comparison"].is_object(), "{}", first[0]);

    let res = app.get(&format!("{path}?limit=50&offset=100")).await;
    assert_eq!(
        res.headers()["link"],
        format!("<{path}?limit=50&offset=50>; rel=\"prev\"").as_str()
    );
    let last: Vec<Value> = res.json().await.unwrap();
    assert_eq!(last.len(), 20);
    assert_eq!(last[19]["measurement"]["label"], "run 119");

    // The largest page is bounded in size whatever the scenario keeps.
    let res = app.get(&format!("{path}?limit=200")).await;
    let text = res.text().await.unwrap();
    let page: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(page.len(), 120);
    eprintln!("a page of 120 runs: {} bytes", text.len());
    assert!(text.len() < 120 * 16 * 1024, "{} bytes", text.len());

    for (q, field) in [("limit=0", "limit"), ("limit=201", "limit")] {
        let res = app.get(&format!("{path}?{q}")).await;
        assert_eq!(res.status(), 422, "{q}");
        crate::helpers::assert_error_body(&res.json().await.unwrap(), Some(field));
    }
    assert_eq!(app.get(&format!("{path}?offset=-1")).await.status(), 400);
    assert_eq!(app.get(&format!("{path}?page=2")).await.status(), 400);
    let res = app.get(&format!("{path}?offset=5000")).await;
    assert_eq!(res.headers()["x-total-count"], "120");
    assert_eq!(res.json::<Vec<Value>>().await.unwrap().len(), 0);
}

/// Fills the history of `table` (`scenario_revisions` or `estate_revisions`, keyed by
/// `key`) of object `id` to the cap with copies of revision 1.
async fn fill_history(app: &TestApp, table: &str, key: &str, id: i64) {
    let columns = if table == "scenario_revisions" {
        "name, body, price_book_id, price_date, cost, author"
    } else {
        "name, body, author"
    };
    let mut tx = app.db.begin().await.unwrap();
    for n in 2..=MAX_REVISIONS {
        let sql = format!(
            "INSERT INTO {table} ({key}, number, {columns}) \
             SELECT {key}, $2, {columns} FROM {table} WHERE {key} = $1 AND number = 1"
        );
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id)
            .bind(n)
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    let object = table.trim_end_matches("_revisions").to_owned() + "s";
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE {object} SET revision = $2 WHERE id = $1"
    )))
    .bind(id)
    .bind(MAX_REVISIONS)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

#[tokio::test]
async fn a_save_past_the_revisions_cap_is_refused_and_loses_nothing() {
    let app = spawn_app().await;
    let id = app.create(&named("Kept")).await;
    fill_history(&app, "scenario_revisions", "scenario_id", id).await;

    let res = app
        .put_json(&format!("/api/v1/scenarios/{id}"), &named("Changed"))
        .await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    let message = body["error"].as_str().unwrap();
    assert!(
        message.contains(&format!("already has {MAX_REVISIONS} revisions"))
            && message.contains("save it as a copy"),
        "{message}"
    );
    let res = app
        .post_json(
            &format!("/api/v1/scenarios/{id}/revisions/1/restore"),
            &json!({}),
        )
        .await;
    assert_eq!(res.status(), 422);

    // Nothing changed: the newest revision, the history, the name.
    let kept = app.get_json(&format!("/api/v1/scenarios/{id}")).await;
    assert_eq!(kept["name"], "Kept");
    let history = app
        .get_json(&format!("/api/v1/scenarios/{id}/revisions"))
        .await;
    assert_eq!(history.as_array().unwrap().len(), MAX_REVISIONS as usize);
    // The planner's save keeps the typed inputs on the page, with what to do.
    let pairs = crate::pages::form_pairs(&named("Typed"));
    let res = crate::pages::post_form(&app, &format!("/scenarios/{id}"), &pairs).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("save it as a copy"),
        "{}",
        &html[..html.len().min(2000)]
    );
    assert!(html.contains("value=\"Typed\""), "the typed name stays");
    assert_eq!(
        app.get_json(&format!("/api/v1/scenarios/{id}")).await["name"],
        "Kept"
    );
    // The planner page still opens with the full history.
    let started = Instant::now();
    let res = app.get(&format!("/scenarios/{id}")).await;
    assert_eq!(res.status(), 200);
    eprintln!(
        "planner page with a full history in {:?}",
        started.elapsed()
    );
}

/// A saved estate of `n` copies of the SAP HANA starter workload.
async fn estate_of(app: &TestApp, n: usize) -> i64 {
    let w = volplan::web::scenario_templates::find("sap-hana")
        .unwrap()
        .scenario();
    let req = volplan::estate::EstateRequest::new(vec![w; n]);
    store::estates::create_estate(&app.db, &req, Actor::SINGLE_USER, Visibility::Shared, false)
        .await
        .unwrap()
}

#[tokio::test]
async fn an_estate_past_its_caps_is_refused_and_loses_nothing() {
    let app = spawn_app().await;
    let max = volplan::estate::MAX_WORKLOADS;
    let full = estate_of(&app, max).await;
    let res = app
        .post_pairs(&format!("/estates/{full}"), &[("template", "sap-hana")])
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains(&format!("one estate holds at most {max}")),
        "{}",
        &html[..html.len().min(2000)]
    );
    let kept = store::estates::get_estate(&app.db, full, Actor::SINGLE_USER)
        .await
        .unwrap();
    assert_eq!((kept.revision, kept.request.workloads.len()), (1, max));

    let small = estate_of(&app, 1).await;
    fill_history(&app, "estate_revisions", "estate_id", small).await;
    let res = app
        .post_pairs(&format!("/estates/{small}"), &[("years", "2")])
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains(&format!("already has {MAX_REVISIONS} revisions")),
        "{}",
        &html[..html.len().min(2000)]
    );
    let kept = store::estates::get_estate(&app.db, small, Actor::SINGLE_USER)
        .await
        .unwrap();
    assert_eq!(kept.revision, MAX_REVISIONS);
    assert_ne!(kept.request.years, 2);
}

#[tokio::test]
async fn an_owner_past_the_runs_cap_is_refused_naming_it() {
    use volplan::store::bounds::MAX_RUNS_PER_OWNER;
    let app = spawn_app().await;
    let first = app.create(&sample_scenario()).await;
    store_runs(&app, first, 1).await;
    // Fill other scenarios (each to its own cap) until the owner's runs reach theirs.
    let per = MAX_RUNS_PER_SCENARIO;
    let mut held = 1;
    while held < MAX_RUNS_PER_OWNER {
        let id = app.create(&sample_scenario()).await;
        let n = per.min(MAX_RUNS_PER_OWNER - held);
        sqlx::query(
            "WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < $2)
             INSERT INTO measurements (scenario_id, revision, format, label, body, warnings)
             SELECT $1, m.revision, m.format, m.label, m.body, m.warnings
             FROM measurements m, n WHERE m.scenario_id = $3",
        )
        .bind(id)
        .bind(n)
        .bind(first)
        .execute(&app.db)
        .await
        .unwrap();
        held += n;
    }
    let spare = app.create(&sample_scenario()).await;
    let res = app.import_run(spare, "fio-3.36-single-job.json").await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    let message = body["error"].as_str().unwrap();
    assert!(
        message.contains(&format!(
            "one owner keeps at most {MAX_RUNS_PER_OWNER} runs"
        )),
        "{message}"
    );
    let res = app
        .get(&format!("/api/v1/scenarios/{spare}/measurements"))
        .await;
    assert_eq!(res.headers()["x-total-count"], "0", "nothing stored");
}
