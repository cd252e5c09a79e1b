//! The scenario list one page at a time: the home page and `GET /api/v1/scenarios`.

use crate::helpers::{named, spawn_app};
use serde_json::Value;

async fn fill(app: &crate::helpers::TestApp, n: usize) {
    for i in 0..n {
        let s: volplan::engine::Scenario =
            serde_json::from_value(named(&format!("Scenario {i:03}"))).unwrap();
        volplan::store::create_scenario_by(
            &app.db,
            &s,
            volplan::store::Actor::SINGLE_USER,
            volplan::store::Visibility::Shared,
            volplan::store::activity::Action::Created,
        )
        .await
        .unwrap();
    }
}

#[tokio::test]
async fn the_api_list_comes_in_pages_with_a_total() {
    let app = spawn_app().await;
    fill(&app, 120).await;
    let res = app.get("/api/v1/scenarios").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["x-total-count"], "120");
    let link = res.headers()["link"].to_str().unwrap().to_owned();
    assert_eq!(link, "</api/v1/scenarios?limit=50&offset=50>; rel=\"next\"");
    let page: Vec<Value> = res.json().await.unwrap();
    assert_eq!(page.len(), 50);
    assert_eq!(page[0]["name"], "Scenario 119", "newest first");
    for key in ["id", "name", "updated_at"] {
        assert!(page[0].get(key).is_some(), "{key}");
    }

    let res = app.get("/api/v1/scenarios?limit=50&offset=100").await;
    let link = res.headers()["link"].to_str().unwrap().to_owned();
    assert_eq!(link, "</api/v1/scenarios?limit=50&offset=50>; rel=\"prev\"");
    let page: Vec<Value> = res.json().await.unwrap();
    assert_eq!(page.len(), 20);
    assert_eq!(page[19]["name"], "Scenario 000");

    let res = app.get("/api/v1/scenarios?limit=10&offset=5000").await;
    assert_eq!(res.headers()["x-total-count"], "120");
    assert_eq!(res.json::<Vec<Value>>().await.unwrap().len(), 0);

    let res = app.get("/api/v1/scenarios?limit=500&q=Scenario%2001").await;
    assert_eq!(res.headers()["x-total-count"], "10");
    assert!(res.headers().get("link").is_none());

    for (q, field) in [("limit=0", "limit"), ("limit=501", "limit")] {
        let res = app.get(&format!("/api/v1/scenarios?{q}")).await;
        assert_eq!(res.status(), 422, "{q}");
        crate::helpers::assert_error_body(&res.json().await.unwrap(), Some(field));
    }
    let res = app.get("/api/v1/scenarios?offset=-1").await;
    assert_eq!(res.status(), 400);
}

#[tokio::test]
async fn the_home_page_shows_one_page_with_links() {
    let app = spawn_app().await;
    fill(&app, 60).await;
    let html = app.get("/").await.text().await.unwrap();
    assert!(html.contains("1–50 of 60"), "range shown");
    assert!(html.contains("href=\"/?offset=50\" rel=\"next\""));
    assert_eq!(html.matches("class=\"binding-cell\"").count(), 50);
    assert!(html.contains("Scenario 059") && !html.contains("Scenario 009"));
    let html = app.get("/?offset=50").await.text().await.unwrap();
    assert!(html.contains("51–60 of 60"));
    assert!(html.contains("href=\"/?offset=0\" rel=\"prev\""));
    assert_eq!(html.matches("class=\"binding-cell\"").count(), 10);
    let html = app
        .get("/?limit=5&q=Scenario%2005")
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("1–5 of 10"), "{html}");
    assert!(
        html.contains("href=\"/?offset=5&#38;limit=5&#38;q=Scenario%2005\""),
        "{}",
        &html[html.find("pager").unwrap()..][..400]
    );
    assert_eq!(app.get("/?limit=0").await.status(), 400);
    assert_eq!(app.get("/?offset=x").await.status(), 400);
}

#[tokio::test]
async fn the_binding_limit_is_stored_at_save_and_filled_in_for_older_rows() {
    let app = spawn_app().await;
    let id = app.create(&named("Bound")).await;
    let (stored,): (Option<String>,) =
        sqlx::query_as("SELECT binding FROM scenarios WHERE id = $1")
            .bind(id)
            .fetch_one(&app.db)
            .await
            .unwrap();
    let label = stored.expect("written at save");
    assert!(!label.is_empty());
    // A row from before the column: the list computes it once and keeps it.
    sqlx::query("UPDATE scenarios SET binding = NULL")
        .execute(&app.db)
        .await
        .unwrap();
    let html = app.get("/").await.text().await.unwrap();
    assert!(html.contains(&label), "{label}");
    let (again,): (Option<String>,) = sqlx::query_as("SELECT binding FROM scenarios WHERE id = $1")
        .bind(id)
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(again.as_deref(), Some(label.as_str()));
    // A new revision stores its own.
    let mut changed = named("Bound");
    changed["storage"]["level"] = "standard".into();
    assert_eq!(
        app.put_json(&format!("/api/v1/scenarios/{id}"), &changed)
            .await
            .status(),
        200
    );
    let (after,): (Option<String>,) = sqlx::query_as("SELECT binding FROM scenarios WHERE id = $1")
        .bind(id)
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(
        after.unwrap(),
        volplan::store::binding_label(
            &serde_json::from_value(changed).unwrap(),
            volplan::engine::pricing::book(),
        )
    );
}
