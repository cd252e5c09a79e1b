//! Estates have owners and visibility as scenarios do, and a private scenario's inputs
//! never reach another user through an estate: its page, list, revisions, comparison,
//! reports and log events (SQLite, or PostgreSQL when configured).

use crate::ownership::{ALICE, BOB, CAROL, Team, team};
use reqwest::Method;

/// What would leak: the private scenario's name.
const SECRET: &str = "Alice secret landscape";

/// Every route that reads estate `id`.
fn estate_routes(id: i64) -> Vec<String> {
    let mut routes = vec![
        format!("/estates/{id}"),
        format!("/estates/{id}?rev=1"),
        format!("/estates/{id}/compare?a=1&b=1"),
    ];
    for ext in ["html", "md", "pdf", "csv", "xlsx", "json"] {
        routes.push(format!("/estates/{id}/report.{ext}"));
    }
    routes
}

/// Creates an estate as `who` from `pairs` and returns its id.
async fn new_estate(t: &Team, who: &str, pairs: &[(&str, &str)]) -> i64 {
    let res = t.post_form(who, "/estates", pairs).await;
    assert_eq!(res.status(), 303, "{}", res.text().await.unwrap());
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    location.rsplit('/').next().unwrap().parse().unwrap()
}

/// Asserts that `who` cannot read estate `id` by any route, nor find it anywhere.
async fn hidden_from(t: &Team, who: &str, id: i64) {
    for path in estate_routes(id) {
        let res = t.get(who, &path).await;
        assert_eq!(res.status(), 404, "GET {path} as {who}");
        let body = res.text().await.unwrap();
        assert!(!body.contains(SECRET), "GET {path} as {who} leaks");
    }
    for path in [
        format!("/estates/{id}"),
        format!("/estates/{id}/visibility"),
    ] {
        let res = t
            .post_form(who, &path, &[("years", "2"), ("visibility", "shared")])
            .await;
        assert_eq!(res.status(), 404, "POST {path} as {who}");
    }
    let list = t.get(who, "/estates").await.text().await.unwrap();
    assert!(
        !list.contains(&format!("/estates/{id}\"")),
        "listed for {who}"
    );
    assert!(!list.contains(SECRET));
    let events = t.events(who).await;
    assert!(
        !events
            .iter()
            .any(|e| e["kind"] == "estate" && e["object_id"] == id),
        "{who} sees the estate's events: {events:?}"
    );
}

#[tokio::test]
async fn a_private_scenario_in_an_estate_reaches_no_other_user() {
    let t = team().await;
    let secret = t.create(ALICE, SECRET, "private").await.to_string();
    let shared = t
        .create(ALICE, "Alice shared plan", "shared")
        .await
        .to_string();

    // Alice's estate with her private scenario is private, whatever she chose.
    let id = new_estate(
        &t,
        ALICE,
        &[
            ("name", "Landscape"),
            ("scenario", &secret),
            ("visibility", "shared"),
        ],
    )
    .await;
    for who in [ALICE, CAROL] {
        let page = t
            .get(who, &format!("/estates/{id}"))
            .await
            .text()
            .await
            .unwrap();
        assert!(page.contains(SECRET), "{who} sees the estate");
        assert!(page.contains("Private: only its owner and admins see it"));
        for path in estate_routes(id) {
            assert_eq!(t.get(who, &path).await.status(), 200, "{path} as {who}");
        }
    }
    hidden_from(&t, BOB, id).await;
    // It stays private: its owner cannot share it.
    let res = t
        .post_form(
            ALICE,
            &format!("/estates/{id}/visibility"),
            &[("visibility", "shared")],
        )
        .await;
    assert_eq!(res.status(), 422);
    hidden_from(&t, BOB, id).await;

    // A shared estate becomes private when its owner adds her private scenario.
    let later = new_estate(&t, ALICE, &[("name", "Later"), ("scenario", &shared)]).await;
    let page = t.get(BOB, &format!("/estates/{later}")).await;
    assert_eq!(page.status(), 200, "shared by default");
    let res = t
        .post_form(
            ALICE,
            &format!("/estates/{later}"),
            &[("scenario", &secret)],
        )
        .await;
    assert_eq!(res.status(), 303);
    hidden_from(&t, BOB, later).await;

    // Nobody puts it in an estate of someone else's: not Alice in Bob's, not an admin.
    let bobs = new_estate(&t, BOB, &[("name", "Bob's"), ("template", "sap-hana")]).await;
    for who in [ALICE, CAROL] {
        let res = t
            .post_form(who, &format!("/estates/{bobs}"), &[("scenario", &secret)])
            .await;
        assert_eq!(res.status(), 422, "{who} adds it to bob's estate");
        assert!(res.text().await.unwrap().contains("is private"));
    }
    let page = t
        .get(BOB, &format!("/estates/{bobs}"))
        .await
        .text()
        .await
        .unwrap();
    assert!(!page.contains(SECRET));
    // Bob cannot see it to add it.
    let res = t
        .post_form(BOB, &format!("/estates/{bobs}"), &[("scenario", &secret)])
        .await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("no saved scenario"));
}

#[tokio::test]
async fn an_admin_puts_a_private_scenario_only_into_an_estate_of_its_owner() {
    let t = team().await;
    let secret = t.create(ALICE, SECRET, "private").await.to_string();
    // Not into a new estate of the admin's own, nor into one she already owns.
    let res = t
        .post_form(
            CAROL,
            "/estates",
            &[("name", "Carol's new"), ("scenario", &secret)],
        )
        .await;
    assert_eq!(res.status(), 422, "admin's new estate");
    let page = res.text().await.unwrap();
    assert!(page.contains("is private"), "{page}");
    assert!(page.contains("only estates of its owner (alice)"), "{page}");
    let carols = new_estate(&t, CAROL, &[("name", "Carol's"), ("template", "sap-hana")]).await;
    let res = t
        .post_form(
            CAROL,
            &format!("/estates/{carols}"),
            &[("scenario", &secret)],
        )
        .await;
    assert_eq!(res.status(), 422, "admin's own estate");
    assert!(res.text().await.unwrap().contains("is private"));
    // Nothing was saved: the admin's estate is still shared and without it.
    let page = t
        .get(BOB, &format!("/estates/{carols}"))
        .await
        .text()
        .await
        .unwrap();
    assert!(!page.contains(SECRET));
    assert!(
        !t.get(BOB, "/estates")
            .await
            .text()
            .await
            .unwrap()
            .contains(SECRET)
    );
    // Into an estate of its owner's it goes, whoever adds it; the estate turns private.
    let alices = new_estate(&t, ALICE, &[("name", "Alice's"), ("template", "sap-hana")]).await;
    let res = t
        .post_form(
            CAROL,
            &format!("/estates/{alices}"),
            &[("scenario", &secret)],
        )
        .await;
    assert_eq!(res.status(), 303, "admin adds it to its owner's estate");
    hidden_from(&t, BOB, alices).await;
}

#[tokio::test]
async fn only_the_owner_or_an_admin_changes_who_sees_an_estate() {
    let t = team().await;
    let id = new_estate(
        &t,
        BOB,
        &[
            ("name", "Bob's private"),
            ("template", "sap-hana"),
            ("visibility", "private"),
        ],
    )
    .await;
    let path = format!("/estates/{id}");
    assert_eq!(t.get(ALICE, &path).await.status(), 404);
    assert_eq!(t.get(CAROL, &path).await.status(), 200);
    let page = t.get(BOB, &path).await.text().await.unwrap();
    assert!(page.contains("owner you"), "{page}");

    let visibility = format!("/estates/{id}/visibility");
    let res = t
        .post_form(BOB, &visibility, &[("visibility", "shared")])
        .await;
    assert_eq!(res.status(), 303);
    assert_eq!(t.get(ALICE, &path).await.status(), 200);
    // Alice (an editor who does not own it) may see it but not change who sees it.
    let res = t
        .post_form(ALICE, &visibility, &[("visibility", "private")])
        .await;
    assert_eq!(res.status(), 403);
    // An admin may.
    let res = t
        .post_form(CAROL, &visibility, &[("visibility", "private")])
        .await;
    assert_eq!(res.status(), 303);
    assert_eq!(t.get(ALICE, &path).await.status(), 404);
    let events = t.events(BOB).await;
    let changes: Vec<&str> = events
        .iter()
        .filter(|e| e["kind"] == "estate" && e["action"] == "visibility")
        .map(|e| e["summary"].as_str().unwrap())
        .collect();
    assert_eq!(changes, ["Bob's private: private", "Bob's private: shared"]);
    let res = t.req(BOB, Method::GET, "/estates").send().await.unwrap();
    let list = res.text().await.unwrap();
    assert!(
        list.contains("<span class=\"tag\">private</span>"),
        "{list}"
    );
}

#[tokio::test]
async fn estates_saved_before_owners_belong_to_their_first_author() {
    let (dir, db) = crate::helpers::fresh_database().await;
    // The schema as it was: estates without owners, one saved in single-user mode and
    // edited later by alice, one saved by bob, one never attributed.
    for sql in [
        "ALTER TABLE estates DROP COLUMN owner",
        "ALTER TABLE estates DROP COLUMN visibility",
        "ALTER TABLE estates DROP COLUMN holds_private",
        "DELETE FROM _sqlx_migrations WHERE version = 20261230000001",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&db)
            .await
            .unwrap();
    }
    for (id, authors) in [
        (1, vec![None, Some("alice")]),
        (2, vec![Some("bob")]),
        (3, vec![None]),
    ] {
        sqlx::query(
            "INSERT INTO estates (id, name, workloads, revision, body, touched)
             VALUES ($1, 'e', 0, $2, '{}', $1)",
        )
        .bind(id)
        .bind(authors.len() as i64)
        .execute(&db)
        .await
        .unwrap();
        for (n, author) in authors.iter().enumerate() {
            sqlx::query(
                "INSERT INTO estate_revisions (estate_id, number, name, body, author)
                 VALUES ($1, $2, 'e', '{}', $3)",
            )
            .bind(id)
            .bind(n as i64 + 1)
            .bind(*author)
            .execute(&db)
            .await
            .unwrap();
        }
    }
    for id in [1, 3] {
        sqlx::query(
            "INSERT INTO activity (at, action, object_kind, object_id, summary)
             VALUES ('2026-12-01T00:00:00Z', 'created', 'estate', $1, 'e')",
        )
        .bind(id)
        .execute(&db)
        .await
        .unwrap();
    }
    db.close().await;
    let url = crate::helpers::database_url_in(dir.path()).await;
    let db = volplan::store::connect(&url).await.unwrap();
    let rows: Vec<(i64, Option<String>, String)> =
        sqlx::query_as("SELECT id, owner, visibility FROM estates ORDER BY id")
            .fetch_all(&db)
            .await
            .unwrap();
    assert_eq!(
        rows,
        [
            (1, Some("alice".to_owned()), "private".to_owned()),
            (2, Some("bob".to_owned()), "private".to_owned()),
            (3, None, "shared".to_owned()),
        ]
    );
    // The private estate's events are private with it.
    let events: Vec<(i64, Option<String>, i64)> = sqlx::query_as(
        "SELECT object_id, owner, private FROM activity WHERE object_kind = 'estate' ORDER BY object_id",
    )
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(events, [(1, Some("alice".to_owned()), 1), (3, None, 0)]);
    db.close().await;
}
