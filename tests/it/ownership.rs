//! Ownership, visibility and the activity log with signed-in users: the app served as
//! in production, its authentication layer trusting a proxy header from loopback that
//! names the user, on the test database (SQLite, or PostgreSQL when configured).

use crate::accounts::add_user;
use crate::helpers::{FORM_TOKEN, TestApp, named, spawn_app, spawn_app_with};
use reqwest::{Method, RequestBuilder, StatusCode};
use serde_json::{Value, json};

/// The header in which the trusted "proxy" (the test) names the user.
const USER_HEADER: &str = "x-test-user";

/// A team-mode server with the accounts of [`ALICE`], [`BOB`] and [`CAROL`].
pub struct Team {
    pub base: String,
    client: reqwest::Client,
    db: volplan::store::Db,
    _app: TestApp,
}

pub async fn team() -> Team {
    let app = spawn_app_with(tempfile::tempdir().unwrap(), |s| {
        s.auth.proxy_header = Some(USER_HEADER.parse().unwrap());
        s.auth.proxy_from = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    for (name, role) in [(ALICE, "editor"), (BOB, "editor"), (CAROL, "admin")] {
        add_user(&app, name, "a-long-password", role).await;
    }
    Team {
        base: app.base.clone(),
        client: app.client.clone(),
        db: app.db.clone(),
        _app: app,
    }
}

/// An editor.
pub const ALICE: &str = "alice";
/// Another editor.
pub const BOB: &str = "bob";
/// An admin.
pub const CAROL: &str = "carol";

impl Team {
    pub fn req(&self, who: &str, method: Method, path: &str) -> RequestBuilder {
        self.client
            .request(method, format!("{}{path}", self.base))
            .header(USER_HEADER, who)
    }

    pub async fn get(&self, who: &str, path: &str) -> reqwest::Response {
        self.req(who, Method::GET, path).send().await.unwrap()
    }

    pub async fn json(&self, who: &str, path: &str) -> Value {
        let res = self.get(who, path).await;
        assert_eq!(res.status(), 200, "GET {path} as {who}");
        res.json().await.unwrap()
    }

    async fn send_json(&self, who: &str, method: Method, path: &str, body: &Value) -> StatusCode {
        self.req(who, method, path)
            .json(body)
            .send()
            .await
            .unwrap()
            .status()
    }

    /// Saves `name` as `who` and returns its id.
    pub async fn create(&self, who: &str, name: &str, visibility: &str) -> i64 {
        let res = self
            .req(
                who,
                Method::POST,
                &format!("/api/v1/scenarios?visibility={visibility}"),
            )
            .json(&named(name))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 201);
        res.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
    }

    /// Posts a form as the site's own page would (with the form token).
    pub async fn post_form(
        &self,
        who: &str,
        path: &str,
        pairs: &[(&str, &str)],
    ) -> reqwest::Response {
        let body = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(pairs)
            .append_pair("csrf", FORM_TOKEN)
            .finish();
        self.req(who, Method::POST, path)
            .header("content-type", "application/x-www-form-urlencoded")
            .header("cookie", format!("volplan_csrf={FORM_TOKEN}"))
            .body(body)
            .send()
            .await
            .unwrap()
    }

    /// The activity feed as `who` sees it.
    pub async fn events(&self, who: &str) -> Vec<Value> {
        self.json(who, "/api/v1/activity?limit=500").await["events"]
            .as_array()
            .unwrap()
            .clone()
    }
}

/// `(user, action, object id, revision)` of each event, newest first.
fn summary(events: &[Value]) -> Vec<(Value, String, Value, Value)> {
    events
        .iter()
        .map(|e| {
            (
                e["user"].clone(),
                e["action"].as_str().unwrap().to_owned(),
                e["object_id"].clone(),
                e["revision"].clone(),
            )
        })
        .collect()
}

#[tokio::test]
async fn revisions_record_who_saved_them_and_the_planner_shows_it() {
    let t = team().await;
    let id = t.create(ALICE, "Authored", "shared").await;
    let path = format!("/api/v1/scenarios/{id}");
    assert_eq!(
        t.send_json(BOB, Method::PUT, &path, &named("Authored 2"))
            .await,
        200
    );
    let restore = format!("{path}/revisions/1/restore");
    let res = t.req(ALICE, Method::POST, &restore).send().await.unwrap();
    assert_eq!(res.status(), 200);

    let revisions = t.json(BOB, &format!("{path}/revisions")).await;
    let authors: Vec<(i64, &str)> = revisions
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["number"].as_i64().unwrap(), r["author"].as_str().unwrap()))
        .collect();
    assert_eq!(authors, [(3, "alice"), (2, "bob"), (1, "alice")]);

    let page = t
        .get(ALICE, &format!("/scenarios/{id}"))
        .await
        .text()
        .await
        .unwrap();
    assert!(page.contains("<th scope=\"col\">By</th>"), "{page}");
    let by: Vec<&str> = page
        .split("<td class=\"by\">")
        .skip(1)
        .map(|rest| rest.split('<').next().unwrap())
        .collect();
    assert_eq!(by, ["you", "bob", "you"]);
    assert!(page.contains("owner you"), "the planner names the owner");
}

#[tokio::test]
async fn estate_revisions_record_their_author_and_the_log_has_them() {
    let t = team().await;
    let res = t
        .post_form(
            ALICE,
            "/estates",
            &[
                ("name", "Landscape"),
                ("years", "3"),
                ("template", "sap-hana"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let res = t.post_form(BOB, &location, &[("years", "2")]).await;
    assert_eq!(res.status(), 303);
    let id: i64 = location.rsplit('/').next().unwrap().parse().unwrap();
    let everyone = volplan::store::Actor::SINGLE_USER;
    let revisions = volplan::store::estates::list_estate_revisions(&t.db, id, everyone)
        .await
        .unwrap();
    let authors: Vec<Option<&str>> = revisions.iter().map(|r| r.author.as_deref()).collect();
    assert_eq!(authors, [Some("bob"), Some("alice")]);
    let page = t.get(ALICE, &location).await.text().await.unwrap();
    assert!(page.contains("by bob") && page.contains("by alice"));
    let events = t.events(CAROL).await;
    assert_eq!(
        summary(&events),
        [
            (json!("bob"), "changed".to_owned(), json!(id), json!(2)),
            (json!("alice"), "created".to_owned(), json!(id), json!(1)),
        ]
    );
    assert!(events.iter().all(|e| e["kind"] == "estate"));
}

/// Every route that reads a saved scenario by id, as (method, path).
fn read_routes(id: i64, other: i64) -> Vec<(Method, String)> {
    let get = |p: String| (Method::GET, p);
    vec![
        get(format!("/api/v1/scenarios/{id}")),
        get(format!("/api/v1/scenarios/{id}/revisions")),
        get(format!("/api/v1/scenarios/{id}/revisions/1")),
        get(format!("/api/v1/scenarios/{id}/visibility")),
        get(format!("/api/v1/scenarios/{id}/measurements")),
        get(format!("/api/v1/scenarios/{id}/testplan")),
        (Method::POST, format!("/api/v1/scenarios/{id}/reprice")),
        get(format!("/scenarios/{id}")),
        get(format!("/scenarios/{id}?rev=1")),
        get(format!("/scenarios/{id}/scenario.json")),
        get(format!("/scenarios/{id}/delete")),
        get(format!("/scenarios/{id}/report.html")),
        get(format!("/scenarios/{id}/report.md")),
        get(format!("/scenarios/{id}/report.json")),
        get(format!("/scenarios/{id}/report.csv")),
        get(format!("/scenarios/{other}/report.json?compare={id}")),
        get(format!("/scenarios/{id}/charts/ceilings.svg")),
        get(format!("/scenarios/{id}/charts/latency.svg")),
        get(format!("/layouts?base={id}")),
        get(format!("/whatif?base={id}")),
    ]
}

#[tokio::test]
async fn a_private_scenario_does_not_exist_for_other_users() {
    let t = team().await;
    let private = t.create(ALICE, "Alice secret plan", "private").await;
    let shared = t.create(ALICE, "Alice shared plan", "shared").await;
    // A measurement on the private scenario, so its routes have something to leak.
    let fio = std::fs::read(format!(
        "{}/tests/fixtures/import/fio-3.36-single-job.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let upload = format!("/api/v1/scenarios/{private}/measurements");
    let res = t
        .req(ALICE, Method::POST, &upload)
        .header("content-type", "application/octet-stream")
        .body(fio.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);

    for (method, path) in read_routes(private, shared) {
        for who in [ALICE, CAROL] {
            let res = t.req(who, method.clone(), &path).send().await.unwrap();
            assert!(
                res.status().is_success(),
                "{method} {path} as {who}: {}",
                res.status()
            );
        }
        let res = t.req(BOB, method.clone(), &path).send().await.unwrap();
        assert_eq!(res.status(), 404, "{method} {path} as bob");
        let body = res.text().await.unwrap();
        assert!(
            !body.contains("secret plan"),
            "{path} leaks the name: {body}"
        );
    }

    // Writes answer 404 too, and change nothing.
    let path = format!("/api/v1/scenarios/{private}");
    assert_eq!(
        t.send_json(BOB, Method::PUT, &path, &named("taken")).await,
        404
    );
    let res = t.req(BOB, Method::DELETE, &path).send().await.unwrap();
    assert_eq!(res.status(), 404);
    let restore = format!("{path}/revisions/1/restore");
    let res = t.req(BOB, Method::POST, &restore).send().await.unwrap();
    assert_eq!(res.status(), 404);
    let res = t
        .req(BOB, Method::POST, &upload)
        .header("content-type", "application/octet-stream")
        .body(fio)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    let res = t
        .post_form(BOB, &format!("/scenarios/{private}/delete"), &[])
        .await;
    assert_eq!(res.status(), 404);
    let res = t
        .post_form(
            BOB,
            &format!("/scenarios/{private}/revisions/1/restore"),
            &[],
        )
        .await;
    assert_eq!(res.status(), 404);
    let stored = volplan::store::get_scenario(&t.db, private).await.unwrap();
    assert_eq!(
        (stored.revision, stored.scenario.name.as_str()),
        (1, "Alice secret plan")
    );

    // Lists and searches leave it out, the count with them.
    for q in ["", "?q=secret", "?q=Alice"] {
        let res = t.get(BOB, &format!("/api/v1/scenarios{q}")).await;
        let total = res.headers()["x-total-count"].to_str().unwrap().to_owned();
        let list: Value = res.json().await.unwrap();
        let ids: Vec<i64> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_i64().unwrap())
            .collect();
        assert!(!ids.contains(&private), "{q}: {ids:?}");
        assert_eq!(total, ids.len().to_string(), "{q}");
        let res = t.get(ALICE, &format!("/api/v1/scenarios{q}")).await;
        let list: Value = res.json().await.unwrap();
        assert!(
            list.as_array().unwrap().iter().any(|s| s["id"] == private),
            "{q}"
        );
    }
    let alice_list = t.json(ALICE, "/api/v1/scenarios").await;
    let mine = alice_list
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == private)
        .unwrap();
    assert_eq!(
        (&mine["owner"], &mine["visibility"]),
        (&json!("alice"), &json!("private"))
    );
    let admin_list = t.json(CAROL, "/api/v1/scenarios").await;
    assert_eq!(admin_list.as_array().unwrap().len(), 2);
    for page in [
        "/",
        "/?q=secret",
        "/compare",
        "/estates",
        "/layouts",
        "/whatif",
    ] {
        let html = t.get(BOB, page).await.text().await.unwrap();
        assert!(
            html.contains("Alice shared plan") || page.contains('q'),
            "{page}"
        );
        assert!(
            !html.contains("secret plan"),
            "{page} lists the private scenario"
        );
        let html = t.get(ALICE, page).await.text().await.unwrap();
        assert!(
            html.contains("Alice secret plan"),
            "{page} hides it from its owner"
        );
    }
    let html = t
        .get(BOB, &format!("/compare?id={private}&id={shared}"))
        .await
        .text()
        .await
        .unwrap();
    assert!(!html.contains("secret plan"));
    // A form naming the private scenario (its measured runs, its history) shows nothing of it.
    let res = t
        .post_form(
            BOB,
            "/scenarios/evaluate",
            &[("scenario_id", &private.to_string())],
        )
        .await;
    assert_eq!(res.status(), 404);

    // The activity feed: its events for alice and the admin, none for bob.
    let about = |events: &[Value]| {
        events
            .iter()
            .filter(|e| e["scenario_id"] == private)
            .count()
    };
    // Created, and the measurement imported.
    assert_eq!(about(&t.events(ALICE).await), 2);
    assert_eq!(about(&t.events(CAROL).await), 2);
    assert_eq!(about(&t.events(BOB).await), 0);
    assert_eq!(
        t.events(BOB).await.len(),
        1,
        "bob sees the shared scenario's event"
    );
    let html = t.get(BOB, "/activity").await.text().await.unwrap();
    assert!(html.contains("Alice shared plan") && !html.contains("secret plan"));

    // Deleted, its events stay private.
    let res = t.req(ALICE, Method::DELETE, &path).send().await.unwrap();
    assert_eq!(res.status(), 204);
    assert_eq!(about(&t.events(BOB).await), 0);
    assert_eq!(about(&t.events(ALICE).await), 3);
}

#[tokio::test]
async fn only_the_owner_or_an_admin_changes_who_sees_a_scenario() {
    let t = team().await;
    let id = t.create(ALICE, "Plan", "shared").await;
    let path = format!("/api/v1/scenarios/{id}/visibility");
    let private = json!({"visibility": "private"});
    let shared = json!({"visibility": "shared"});
    assert_eq!(t.send_json(BOB, Method::PUT, &path, &private).await, 403);
    assert_eq!(
        t.json(BOB, &path).await,
        json!({"owner": "alice", "visibility": "shared"})
    );
    assert_eq!(
        t.send_json(ALICE, Method::PUT, &path, &json!({"visibility": "hidden"}))
            .await,
        422
    );
    assert_eq!(
        t.send_json(
            ALICE,
            Method::PUT,
            &path,
            &json!({"visibility": "private", "x": 1})
        )
        .await,
        422
    );
    assert_eq!(t.send_json(ALICE, Method::PUT, &path, &private).await, 200);
    assert_eq!(
        t.get(BOB, &format!("/api/v1/scenarios/{id}"))
            .await
            .status(),
        404
    );
    assert_eq!(t.send_json(BOB, Method::PUT, &path, &shared).await, 404);
    assert_eq!(t.send_json(CAROL, Method::PUT, &path, &shared).await, 200);
    assert_eq!(
        t.get(BOB, &format!("/api/v1/scenarios/{id}"))
            .await
            .status(),
        200
    );

    // The planner's control: the owner may, another editor is refused.
    let form = format!("/scenarios/{id}/visibility");
    let res = t.post_form(BOB, &form, &[("visibility", "private")]).await;
    assert_eq!(res.status(), 403);
    let res = t
        .post_form(ALICE, &form, &[("visibility", "private")])
        .await;
    assert_eq!(res.status(), 303);
    assert_eq!(t.json(ALICE, &path).await["visibility"], "private");
    let page = t
        .get(ALICE, &format!("/scenarios/{id}"))
        .await
        .text()
        .await
        .unwrap();
    assert!(page.contains("Private: only its owner and admins see it"));
    assert!(page.contains("Set visibility"));

    let events = t.events(CAROL).await;
    let changes: Vec<(Value, Value)> = events
        .iter()
        .filter(|e| e["action"] == "visibility")
        .map(|e| (e["user"].clone(), e["summary"].clone()))
        .collect();
    assert_eq!(
        changes,
        [
            (json!("alice"), json!("Plan: private")),
            (json!("carol"), json!("Plan: shared")),
            (json!("alice"), json!("Plan: private")),
        ]
    );
}

#[tokio::test]
async fn the_log_has_one_event_per_change_and_none_for_a_failed_one() {
    let t = team().await;
    let id = t.create(ALICE, "Logged", "shared").await;
    let path = format!("/api/v1/scenarios/{id}");
    assert_eq!(
        t.send_json(BOB, Method::PUT, &path, &named("Logged 2"))
            .await,
        200
    );
    let mut bad = named("Logged 3");
    bad["workload"]["io_size_kib"] = json!(0);
    assert_eq!(t.send_json(BOB, Method::PUT, &path, &bad).await, 422);
    assert_eq!(
        t.send_json(BOB, Method::PUT, "/api/v1/scenarios/999", &named("x"))
            .await,
        404
    );
    let res = t
        .req(ALICE, Method::POST, &format!("{path}/revisions/1/restore"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let res = t
        .req(ALICE, Method::POST, &format!("{path}/revisions/9/restore"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    let res = t.req(BOB, Method::DELETE, &path).send().await.unwrap();
    assert_eq!(res.status(), 204);

    let events = t.events(BOB).await;
    assert_eq!(
        summary(&events),
        [
            (json!("bob"), "deleted".to_owned(), json!(id), Value::Null),
            (json!("alice"), "restored".to_owned(), json!(id), json!(3)),
            (json!("bob"), "changed".to_owned(), json!(id), json!(2)),
            (json!("alice"), "created".to_owned(), json!(id), json!(1)),
        ]
    );
    assert_eq!(events[0]["summary"], "Logged");
    assert_eq!(events[1]["summary"], "Logged (revision 1)");
    assert!(events.iter().all(|e| e["kind"] == "scenario"));

    // Paged newest first with `before`.
    let first = t.json(BOB, "/api/v1/activity?limit=3").await;
    assert_eq!(first["events"].as_array().unwrap().len(), 3);
    let before = first["next_before"].as_i64().expect("an older page");
    assert_eq!(before, events[2]["id"].as_i64().unwrap());
    let rest = t
        .json(BOB, &format!("/api/v1/activity?limit=3&before={before}"))
        .await;
    assert_eq!(rest["events"].as_array().unwrap().len(), 1);
    assert_eq!(rest["events"][0]["action"], "created");
    assert!(rest["next_before"].is_null());
    for (q, status) in [
        ("limit=0", 422),
        ("limit=501", 422),
        ("before=0", 422),
        ("limit=x", 400),
    ] {
        let res = t.get(BOB, &format!("/api/v1/activity?{q}")).await;
        assert_eq!(res.status(), status, "{q}");
    }
    let html = t.get(BOB, "/activity?limit=2").await.text().await.unwrap();
    assert!(html.contains("deleted") && html.contains("restored"));
    assert!(
        html.contains("/activity?before="),
        "a link to the older page"
    );

    // An incomplete planner form saves and records nothing.
    let res = t
        .post_form(
            ALICE,
            "/scenarios",
            &[("name", "From the form"), ("visibility", "private")],
        )
        .await;
    assert_eq!(res.status(), 422, "an incomplete form saves nothing");
    assert_eq!(t.events(CAROL).await.len(), 4);
}

#[tokio::test]
async fn single_user_mode_attributes_nothing_and_shows_everything() {
    let app = spawn_app().await;
    let id = app.create(&named("Solo")).await;
    let res = app
        .put_json(&format!("/api/v1/scenarios/{id}"), &named("Solo 2"))
        .await;
    assert_eq!(res.status(), 200);
    let revisions = app
        .get_json(&format!("/api/v1/scenarios/{id}/revisions"))
        .await;
    assert!(
        revisions
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["author"].is_null())
    );
    let list = app.get_json("/api/v1/scenarios").await;
    assert_eq!(list[0]["owner"], Value::Null);
    assert_eq!(list[0]["visibility"], "shared");
    let log = app.get_json("/api/v1/activity").await;
    let actions: Vec<&str> = log["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            assert!(e["user"].is_null());
            e["action"].as_str().unwrap()
        })
        .collect();
    assert_eq!(actions, ["changed", "created"]);
    let page = app.get_text(&format!("/scenarios/{id}")).await;
    assert!(
        !page.contains("<th scope=\"col\">By</th>"),
        "no authors column"
    );
    // Private in single-user mode: still there for the one user.
    let res = app
        .put_json(
            &format!("/api/v1/scenarios/{id}/visibility"),
            &json!({"visibility": "private"}),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        app.get(&format!("/api/v1/scenarios/{id}")).await.status(),
        200
    );
    let html = app.get_text("/activity").await;
    assert!(html.contains("changed who sees") && html.contains("Solo 2: private"));
}

#[tokio::test]
async fn measurements_and_prices_are_logged_and_follow_the_scenario_visibility() {
    let t = team().await;
    let id = t.create(ALICE, "Measured", "private").await;
    let fio = std::fs::read(format!(
        "{}/tests/fixtures/import/fio-3.36-single-job.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let res = t
        .req(
            ALICE,
            Method::POST,
            &format!("/api/v1/scenarios/{id}/measurements"),
        )
        .header("content-type", "application/octet-stream")
        .body(fio)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let body: Value = res.json().await.unwrap();
    let mid = body["measurements"][0]["id"].as_i64().unwrap();
    let path = format!("/api/v1/scenarios/{id}/measurements/{mid}");
    let res = t.req(ALICE, Method::DELETE, &path).send().await.unwrap();
    assert_eq!(res.status(), 204);
    let res = t.req(ALICE, Method::DELETE, &path).send().await.unwrap();
    assert_eq!(res.status(), 404, "a second delete records nothing");

    let page = crate::helpers::fixture_text("prices/retail-page-changed.json");
    let res = t
        .req(CAROL, Method::POST, "/api/v1/prices/import")
        .header("content-type", "application/json")
        .body(page)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);

    let events = t.events(ALICE).await;
    let kinds: Vec<(&str, &str, &str)> = events
        .iter()
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap();
            (s("user"), s("action"), s("kind"))
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("carol", "imported", "prices"),
            ("alice", "deleted", "measurement"),
            ("alice", "imported", "measurement"),
            ("alice", "created", "scenario"),
        ]
    );
    assert_eq!(events[1]["object_id"], mid);
    assert_eq!(events[2]["scenario_id"], id);
    // Bob sees the price import, nothing of the private scenario's measurements.
    let bobs = t.events(BOB).await;
    assert_eq!(bobs.len(), 1);
    assert_eq!(bobs[0]["kind"], "prices");
}

#[tokio::test]
async fn an_event_is_written_in_the_transaction_of_its_change() {
    use volplan::store::{self, Actor, Visibility, activity::Action};
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("tx.db").display());
    let db = store::connect(&url).await.unwrap();
    let alice = Actor {
        user: Some("alice"),
        sees_all: false,
    };
    let s: volplan::engine::Scenario = serde_json::from_value(named("Atomic")).unwrap();
    let id = store::create_scenario_by(&db, &s, alice, Visibility::Shared, Action::Created)
        .await
        .unwrap();
    let count = || async {
        let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM activity")
            .fetch_one(&db)
            .await
            .unwrap();
        n
    };
    // The change fails after its scenario row was updated: no event, no new revision.
    sqlx::query(
        "CREATE TRIGGER no_revisions BEFORE INSERT ON scenario_revisions
         BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    )
    .execute(&db)
    .await
    .unwrap();
    assert!(store::update_scenario_by(&db, id, &s, alice).await.is_err());
    assert_eq!(count().await, 1);
    sqlx::query("DROP TRIGGER no_revisions")
        .execute(&db)
        .await
        .unwrap();
    // The event cannot be written: the change does not happen either.
    sqlx::query(
        "CREATE TRIGGER no_events BEFORE INSERT ON activity
         BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    )
    .execute(&db)
    .await
    .unwrap();
    assert!(store::update_scenario_by(&db, id, &s, alice).await.is_err());
    assert!(store::delete_scenario_by(&db, id, alice).await.is_err());
    assert_eq!(store::get_scenario(&db, id).await.unwrap().revision, 1);
    assert_eq!(store::list_revisions(&db, id).await.unwrap().len(), 1);
    assert_eq!(count().await, 1);
}

#[tokio::test]
async fn the_planner_offers_a_visibility_only_in_team_mode() {
    let t = team().await;
    let page = t.get(ALICE, "/scenarios/new").await.text().await.unwrap();
    assert!(
        page.contains("Who sees it when saved"),
        "team mode offers it"
    );
    let single = spawn_app().await;
    let page = single.get_text("/scenarios/new").await;
    assert!(
        !page.contains("Who sees it") && !page.contains("f-visibility"),
        "one user alone has no one to share with"
    );
    let id = single.create(&named("Alone")).await;
    let page = single.get_text(&format!("/scenarios/{id}")).await;
    assert!(!page.contains("plan-owner"), "nor on a saved scenario");
}
