//! Snapshots and re-pricing: each saved revision keeps the price book and the cost lines
//! it was saved with; re-pricing sets today's cost beside them and changes nothing.

use crate::helpers::{
    TestApp, assert_error_body, fixture_text, sample_scenario, spawn_app, spawn_app_in,
};
use serde_json::{Value, json};

/// An Ultra volume of 4 TiB in East US.
fn ultra() -> Value {
    let mut s = sample_scenario();
    s["name"] = json!("Ultra in East US");
    s["clients"]["avs"] = Value::Null;
    s["storage"]["volumes"] = json!([{"count": 1, "quota_tib": 4, "throughput_mibps": null}]);
    s["workload"]["capacity_tib"] = json!(4);
    s["region"] = json!("eastus");
    s
}

async fn reprice(app: &TestApp, id: i64) -> Value {
    let res = app
        .client
        .post(app.url(&format!("/api/v1/scenarios/{id}/reprice")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    res.json().await.unwrap()
}

/// The stored columns of revision `n` of scenario `id`, as the database holds them.
async fn stored_columns(
    app: &TestApp,
    id: i64,
    n: i64,
) -> (Option<String>, Option<String>, Option<String>, String) {
    sqlx::query_as(
        "SELECT price_book_id, price_date, cost, body FROM scenario_revisions WHERE scenario_id = $1 AND number = $2",
    )
    .bind(id)
    .bind(n)
    .fetch_one(&app.db)
    .await
    .unwrap()
}

fn close(a: &Value, b: f64) -> bool {
    (a.as_f64().unwrap() - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[tokio::test]
async fn save_import_reprice_shows_the_changed_line_and_keeps_the_revision() {
    let app = spawn_app().await;
    let id = app.create(&ultra()).await;
    let (book, date, cost, body) = stored_columns(&app, id, 1).await;
    assert_eq!(book.as_deref(), Some("anf-retail-2026-01-29"));
    assert_eq!(date.as_deref(), Some("2026-01-29"));
    let snapshot: Value = serde_json::from_str(cost.as_deref().unwrap()).unwrap();
    assert_eq!(snapshot["region"], json!("eastus"));
    assert!(
        close(&snapshot["lines"][0]["unit_price"], 0.39274),
        "{snapshot}"
    );

    // Right after the save, today's book gives the same cost.
    let r = reprice(&app, id).await;
    assert_eq!((&r["id"], &r["revision"]), (&json!(id), &json!(1)));
    assert_eq!(r["lines"][0]["change"], json!("unchanged"), "{r}");
    assert!(close(&r["difference"], 0.0), "{r}");

    let page: Value =
        serde_json::from_str(&fixture_text("prices/retail-page-changed.json")).unwrap();
    let res = app.post_json("/api/v1/prices/import", &page).await;
    assert_eq!(res.status(), 200);

    let r = reprice(&app, id).await;
    let line = &r["lines"][0];
    assert_eq!(line["item"], json!("Ultra pool capacity"));
    assert_eq!(line["change"], json!("changed"), "{r}");
    assert!(close(&line["stored"]["unit_price"], 0.39274), "{line}");
    assert!(close(&line["today"]["unit_price"], 0.438), "{line}");
    let gib = 4096.0;
    assert!(
        close(&line["difference"], (0.438 - 0.39274) * gib),
        "{line}"
    );
    assert!(close(&r["difference"], (0.438 - 0.39274) * gib), "{r}");
    assert!(r["difference_pct"].as_f64().unwrap() > 11.0, "{r}");
    assert_eq!(
        r["stored"]["price_book"]["id"],
        json!("anf-retail-2026-01-29")
    );
    assert!(
        r["today"]["price_book"]["id"]
            .as_str()
            .unwrap()
            .starts_with("anf-retail-2026-01-29+db")
    );

    // Re-pricing wrote nothing: the revision, its snapshot and the history are as saved.
    assert_eq!(stored_columns(&app, id, 1).await, (book, date, cost, body));
    let revisions: Value = app
        .get_json(&format!("/api/v1/scenarios/{id}/revisions"))
        .await;
    assert_eq!(revisions.as_array().unwrap().len(), 1);

    // A new save is priced with the book in force then.
    let res = app
        .put_json(&format!("/api/v1/scenarios/{id}"), &ultra())
        .await;
    assert_eq!(res.status(), 200);
    let (book2, _, cost2, _) = stored_columns(&app, id, 2).await;
    assert!(book2.unwrap().contains("+db"));
    let snapshot2: Value = serde_json::from_str(&cost2.unwrap()).unwrap();
    assert!(
        close(&snapshot2["lines"][0]["unit_price"], 0.438),
        "{snapshot2}"
    );
    // Revision 1 can still be re-priced on its own.
    let res = app
        .client
        .post(app.url(&format!("/api/v1/scenarios/{id}/reprice?revision=1")))
        .send()
        .await
        .unwrap();
    let r: Value = res.json().await.unwrap();
    assert_eq!(
        (&r["revision"], &r["lines"][0]["change"]),
        (&json!(1), &json!("changed"))
    );
}

#[tokio::test]
async fn revisions_saved_before_snapshots_are_repriced_as_not_stored() {
    let app = spawn_app().await;
    let id = app.create(&ultra()).await;
    sqlx::query(
        "UPDATE scenario_revisions SET price_book_id = NULL, price_date = NULL, cost = NULL",
    )
    .execute(&app.db)
    .await
    .unwrap();
    let r = reprice(&app, id).await;
    assert!(r["stored"].is_null(), "{r}");
    assert!(r["difference"].is_null());
    assert_eq!(r["lines"][0]["change"], json!("not_stored"));
    assert!(close(&r["today"]["lines"][0]["unit_price"], 0.39274));

    // Errors: no such scenario or revision, a query that is not one.
    let post = |path: String| app.client.post(app.url(&path)).send();
    let res = post("/api/v1/scenarios/999/reprice".into()).await.unwrap();
    assert_eq!(res.status(), 404);
    assert_error_body(&res.json().await.unwrap(), None);
    let res = post(format!("/api/v1/scenarios/{id}/reprice?revision=7"))
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    let res = post(format!("/api/v1/scenarios/{id}/reprice?revision=x"))
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
}

#[tokio::test]
async fn a_database_from_before_the_snapshots_migrates_and_reprices() {
    if crate::helpers::sqlite_only("this upgrade test's database file") {
        return;
    }
    // The database as the previous release left it: every migration but this one's,
    // with one saved scenario.
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("migrations");
    std::fs::create_dir(&old).unwrap();
    let all = format!("{}/migrations", env!("CARGO_MANIFEST_DIR"));
    for e in std::fs::read_dir(&all).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if path.is_file() && !name.contains("price_snapshots") {
            std::fs::copy(&path, old.join(&name)).unwrap();
        }
    }
    let url = format!(
        "sqlite:{}?mode=rwc",
        dir.path().join("volplan.db").display()
    );
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    sqlx::migrate::Migrator::new(old.as_path())
        .await
        .unwrap()
        .run(&pool)
        .await
        .unwrap();
    let body = ultra().to_string();
    sqlx::query(
        "INSERT INTO scenarios (name, service, level, revision, body, touched) VALUES ('Old', 'anf', 'ultra', 1, $1, 1)",
    )
    .bind(&body)
    .execute(&pool)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO scenario_revisions (scenario_id, number, name, body) VALUES (1, 1, 'Old', $1)",
    )
    .bind(&body)
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;

    let app = spawn_app_in(dir).await;
    let r = reprice(&app, 1).await;
    assert!(r["stored"].is_null(), "{r}");
    assert_eq!(r["lines"][0]["change"], json!("not_stored"));
    let html = app.get_text("/scenarios/1/report.md").await;
    assert!(html.contains("before costs were kept"), "{html}");
    // The next save keeps its cost.
    let res = app.put_json("/api/v1/scenarios/1", &ultra()).await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        reprice(&app, 1).await["lines"][0]["change"],
        json!("unchanged")
    );
}

#[tokio::test]
async fn the_planner_button_shows_the_comparison() {
    let app = spawn_app().await;
    let id = app.create(&ultra()).await;
    let html = app.get_text(&format!("/scenarios/{id}")).await;
    assert!(
        html.contains(&format!(
            "id=\"reprice-button\" formaction=\"/scenarios/{id}/reprice\""
        )),
        "{html}"
    );
    assert!(html.contains("<section id=\"reprice\""));
    // Without the page's script: a page of its own.
    let res = app
        .post_pairs(&format!("/scenarios/{id}/reprice"), &[])
        .await;
    assert_eq!(res.status(), 200);
    let page = res.text().await.unwrap();
    assert!(
        page.contains("Re-priced: revision 1") && page.contains("Ultra pool capacity"),
        "{page}"
    );
    assert!(page.contains("anf-retail-2026-01-29 (as of 2026-01-29)"));
    // With it: the fragment for the panel.
    let res = app
        .client
        .post(app.url(&format!("/scenarios/{id}/reprice")))
        .header("content-type", "application/x-www-form-urlencoded")
        .header(
            "cookie",
            format!("volplan_csrf={}", crate::helpers::FORM_TOKEN),
        )
        .header("accept", "application/json")
        .body(format!("csrf={}", crate::helpers::FORM_TOKEN))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    let fragment = body["html"].as_str().unwrap();
    assert!(
        fragment.contains("reprice-title") && !fragment.contains("<html"),
        "{fragment}"
    );
    // Without the form token nothing is answered.
    let res = app
        .send_form(
            &format!("/scenarios/{id}/reprice"),
            "application/x-www-form-urlencoded",
            Vec::new(),
        )
        .await;
    assert_eq!(res.status(), 403);
}

#[tokio::test]
async fn reports_print_the_prices_and_the_saved_cost() {
    let app = spawn_app().await;
    let id = app.create(&ultra()).await;
    // The customer's report says the prices in plain words; the engineer's names the book.
    let md = app.get_text(&format!("/scenarios/{id}/report.md")).await;
    for needle in [
        "Azure list prices for East US as of 29 January 2026",
        "$",
        "Revision 1 was saved",
        "the same today",
    ] {
        assert!(md.contains(needle), "{needle} in {md}");
    }
    for internal in ["anf-retail-2026-01-29", "pricing-data.json", "commit"] {
        assert!(!md.contains(internal), "{internal} in {md}");
    }
    let md = app
        .get_text(&format!("/scenarios/{id}/report.md?edition=engineer"))
        .await;
    for needle in [
        "price book anf-retail-2026-01-29",
        "Azure Retail Prices API snapshot",
    ] {
        assert!(md.contains(needle), "{needle} in {md}");
    }
    let csv = app.get_text(&format!("/scenarios/{id}/report.csv")).await;
    for key in [
        "summary,region,",
        "summary,currency,",
        "summary,prices,",
        "summary,saved_cost,",
    ] {
        assert!(csv.contains(key), "{key} in {csv}");
    }
    assert!(!csv.contains("summary,price_book,"));
    let csv = app
        .get_text(&format!("/scenarios/{id}/report.csv?edition=engineer"))
        .await;
    for key in ["summary,price_book,", "summary,price_source,"] {
        assert!(csv.contains(key), "{key} in {csv}");
    }
    let json: Value = app
        .get_json(&format!("/scenarios/{id}/report.json?edition=engineer"))
        .await;
    assert_eq!(json["saved_cost"]["revision"], json!(1));
    assert_eq!(json["saved_cost"]["cost"]["region"], json!("eastus"));
}
