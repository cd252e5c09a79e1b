//! Team mode over HTTP: 401 and login redirects, roles, sessions, tokens, the login
//! rate limit and the trusted proxy header, against a real SQLite file.

use crate::helpers::{FORM_TOKEN, TestApp, sample_scenario, spawn_app, spawn_app_with};
use reqwest::StatusCode;
use reqwest::header::{AUTHORIZATION, COOKIE, LOCATION, RETRY_AFTER, SET_COOKIE, WWW_AUTHENTICATE};
use serde_json::Value;
use volplan::store::{sessions, tokens, users};
use volplan::web::auth::secret::{digest, hash_password, new_api_token};

/// Adds user `name` with `password` and `role` straight into the app's database.
pub(crate) async fn add_user(app: &TestApp, name: &str, password: &str, role: &str) {
    let hash = hash_password(password).unwrap();
    users::save_user(&app.db, name, Some(&hash), Some(role))
        .await
        .unwrap();
}

/// A new API token of `user`.
pub(crate) async fn add_token(app: &TestApp, name: &str, user: &str) -> String {
    let token = new_api_token().unwrap();
    let done = tokens::create_token(&app.db, name, user, &digest(&token))
        .await
        .unwrap();
    assert_eq!(done, tokens::Created::Created);
    token
}

/// POSTs the login form as the page would; the answer.
async fn post_login(app: &TestApp, user: &str, password: &str, next: &str) -> reqwest::Response {
    app.post_pairs(
        "/login",
        &[("user", user), ("password", password), ("next", next)],
    )
    .await
}

/// Logs in and returns the session cookie's value.
async fn login(app: &TestApp, user: &str, password: &str) -> String {
    let res = post_login(app, user, password, "/").await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "login of {user}");
    session_cookie(&res).expect("a session cookie")
}

/// The value of the `volplan_session` cookie a response sets.
fn session_cookie(res: &reqwest::Response) -> Option<String> {
    res.headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|c| c.strip_prefix("volplan_session="))
        .map(|c| c.split(';').next().unwrap_or("").to_owned())
}

/// GET `path` with the session cookie.
async fn get_as(app: &TestApp, session: &str, path: &str) -> reqwest::Response {
    app.client
        .get(app.url(path))
        .header(COOKIE, format!("volplan_session={session}"))
        .send()
        .await
        .unwrap()
}

/// GET `path` with a bearer token.
pub(crate) async fn get_with_token(app: &TestApp, token: &str, path: &str) -> reqwest::Response {
    app.client
        .get(app.url(path))
        .header(AUTHORIZATION, format!("Bearer {token}"))
        .send()
        .await
        .unwrap()
}

/// POST `body` as JSON to `path` with a bearer token.
pub(crate) async fn post_with_token(
    app: &TestApp,
    token: &str,
    path: &str,
    body: &Value,
) -> reqwest::Response {
    app.client
        .post(app.url(path))
        .header(AUTHORIZATION, format!("Bearer {token}"))
        .json(body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn without_credentials_the_api_says_401_and_pages_redirect_to_login() {
    let app = spawn_app().await;
    add_user(&app, "alice", "alice-password", "admin").await;
    let res = app.get("/api/v1/scenarios").await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    assert!(
        res.headers()[WWW_AUTHENTICATE]
            .to_str()
            .unwrap()
            .starts_with("Bearer")
    );
    let body: Value = res.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("Bearer"), "{body}");
    assert!(body["field"].is_null());
    let res = app.post_json("/api/v1/evaluate", &sample_scenario()).await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    let res = app.get("/scenarios/new?service=anf").await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        res.headers()[LOCATION],
        "/login?next=%2Fscenarios%2Fnew%3Fservice%3Danf"
    );
    for open in [
        "/healthz",
        "/readyz",
        "/metrics",
        "/login",
        "/static/css/app.css",
    ] {
        assert_eq!(app.get(open).await.status(), StatusCode::OK, "{open}");
    }
    let page = app.get_text("/login?next=/compare").await;
    assert!(page.contains("name=\"password\"") && page.contains("value=\"/compare\""));
    let page = app.get_text("/login?next=https://evil.example/").await;
    assert!(page.contains("name=\"next\" value=\"/\""), "{page}");
}

#[tokio::test]
async fn login_with_the_right_password_starts_a_session_and_a_wrong_one_fails() {
    let app = spawn_app().await;
    add_user(&app, "alice", "alice-password", "editor").await;
    let res = post_login(&app, "alice", "not-her-password", "/compare").await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    assert!(session_cookie(&res).is_none());
    assert!(
        res.text()
            .await
            .unwrap()
            .contains("Wrong user name or password")
    );
    let res = post_login(&app, "nobody", "alice-password", "/compare").await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);

    let res = post_login(&app, "alice", "alice-password", "/compare").await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(res.headers()[LOCATION], "/compare");
    let set = res
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .find(|c| c.starts_with("volplan_session="))
        .unwrap();
    for attr in [
        "HttpOnly",
        "SameSite=Lax",
        "Path=/",
        "Secure",
        "Max-Age=43200",
    ] {
        assert!(set.contains(attr), "{attr} in {set}");
    }
    let session = session_cookie(&res).unwrap();
    assert_eq!(session.len(), 64, "256 random bits in hex");
    let stored: Option<(String,)> = sqlx::query_as("SELECT token_hash FROM sessions")
        .fetch_optional(&app.db)
        .await
        .unwrap();
    assert_eq!(
        stored.unwrap().0,
        digest(&session),
        "only the hash is stored"
    );

    let home = get_as(&app, &session, "/").await;
    assert_eq!(home.status(), StatusCode::OK);
    let html = home.text().await.unwrap();
    assert!(html.contains("alice") && html.contains("action=\"/logout\""));
    let res = app
        .client
        .post(app.url("/api/v1/scenarios"))
        .header(COOKIE, format!("volplan_session={session}"))
        .json(&sample_scenario())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED, "an editor saves");
}

#[tokio::test]
async fn a_viewer_reads_and_computes_but_its_writes_get_403() {
    let app = spawn_app().await;
    add_user(&app, "vera", "vera-password", "viewer").await;
    add_user(&app, "ed", "ed-password", "editor").await;
    let viewer = add_token(&app, "vera-script", "vera").await;
    let editor = add_token(&app, "ed-script", "ed").await;
    let res = post_with_token(&app, &editor, "/api/v1/scenarios", &sample_scenario()).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let id = res.json::<Value>().await.unwrap()["id"].as_i64().unwrap();

    let res = post_with_token(&app, &viewer, "/api/v1/scenarios", &sample_scenario()).await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let body: Value = res.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("viewer"), "{body}");
    let res = app
        .client
        .delete(app.url(&format!("/api/v1/scenarios/{id}")))
        .header(AUTHORIZATION, format!("Bearer {viewer}"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        get_with_token(&app, &viewer, &format!("/api/v1/scenarios/{id}"))
            .await
            .status(),
        StatusCode::OK,
        "still there, and readable"
    );
    let res = post_with_token(&app, &viewer, "/api/v1/evaluate", &sample_scenario()).await;
    assert_eq!(res.status(), StatusCode::OK, "evaluating saves nothing");
    let res = get_with_token(&app, &viewer, &format!("/scenarios/{id}/report.md")).await;
    assert_eq!(res.status(), StatusCode::OK, "a viewer exports");
    let res = post_with_token(
        &app,
        &editor,
        "/api/v1/prices/import",
        &serde_json::json!({"Items": []}),
    )
    .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN, "prices are an admin's");
}

#[tokio::test]
async fn tokens_work_until_revoked_or_their_user_is_removed() {
    let app = spawn_app().await;
    add_user(&app, "ci", "ci-password-1", "editor").await;
    let token = add_token(&app, "nightly", "ci").await;
    assert_eq!(
        get_with_token(&app, &token, "/api/v1/scenarios")
            .await
            .status(),
        StatusCode::OK
    );
    let wrong = get_with_token(&app, &format!("{token}0"), "/api/v1/scenarios").await;
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    tokens::revoke_token(&app.db, "nightly").await.unwrap();
    let res = get_with_token(&app, &token, "/api/v1/scenarios").await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "revoked at once");

    let token = add_token(&app, "second", "ci").await;
    assert_eq!(
        get_with_token(&app, &token, "/api/v1/scenarios")
            .await
            .status(),
        StatusCode::OK
    );
    add_user(&app, "keeper", "keeper-password", "admin").await;
    users::remove_user(&app.db, "ci").await.unwrap();
    assert_eq!(
        get_with_token(&app, &token, "/api/v1/scenarios")
            .await
            .status(),
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn a_password_change_ends_the_sessions_and_tokens_and_logout_ends_one() {
    let app = spawn_app().await;
    add_user(&app, "alice", "first-password", "editor").await;
    add_user(&app, "bob", "bobs-password", "editor").await;
    let before = login(&app, "alice", "first-password").await;
    let other = login(&app, "alice", "first-password").await;
    let token = add_token(&app, "alice-ci", "alice").await;
    let bobs = add_token(&app, "bob-ci", "bob").await;
    assert_eq!(get_as(&app, &before, "/").await.status(), StatusCode::OK);
    let hash = hash_password("second-password").unwrap();
    let saved = users::save_user(&app.db, "alice", Some(&hash), None)
        .await
        .unwrap();
    assert_eq!((saved.sessions_ended, saved.tokens_revoked), (2, 1));
    let res = get_with_token(&app, &token, "/api/v1/scenarios").await;
    assert_eq!(
        res.status(),
        StatusCode::UNAUTHORIZED,
        "her token is revoked"
    );
    let res = get_with_token(&app, &bobs, "/api/v1/scenarios").await;
    assert_eq!(res.status(), StatusCode::OK, "another user's token is not");
    // A role change alone keeps the tokens.
    let token = add_token(&app, "alice-ci", "alice").await;
    users::save_user(&app.db, "alice", None, Some("viewer"))
        .await
        .unwrap();
    let res = get_with_token(&app, &token, "/api/v1/scenarios").await;
    assert_eq!(res.status(), StatusCode::OK);
    for stale in [&before, &other] {
        let res = get_as(&app, stale, "/").await;
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
        assert_eq!(res.headers()[LOCATION], "/login");
    }
    assert_eq!(
        post_login(&app, "alice", "first-password", "/")
            .await
            .status(),
        StatusCode::UNAUTHORIZED
    );
    let session = login(&app, "alice", "second-password").await;
    assert_eq!(get_as(&app, &session, "/").await.status(), StatusCode::OK);

    let body = format!("csrf={FORM_TOKEN}");
    let res = app
        .client
        .post(app.url("/logout"))
        .header(
            reqwest::header::CONTENT_TYPE,
            "application/x-www-form-urlencoded",
        )
        .header(
            COOKIE,
            format!("volplan_csrf={FORM_TOKEN}; volplan_session={session}"),
        )
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(res.headers()[LOCATION], "/login");
    assert_eq!(
        session_cookie(&res).as_deref(),
        Some(""),
        "the cookie is cleared"
    );
    let res = get_as(&app, &session, "/api/v1/scenarios").await;
    assert_eq!(
        res.status(),
        StatusCode::UNAUTHORIZED,
        "the session is gone server-side"
    );
    assert!(
        sessions::session_holder(&app.db, &digest(&session))
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn logins_are_rate_limited_per_user_name() {
    let app = spawn_app().await;
    add_user(&app, "alice", "alice-password", "editor").await;
    add_user(&app, "bob", "bob-password-1", "editor").await;
    for i in 0..5 {
        let res = post_login(&app, "alice", &format!("guess-{i}"), "/").await;
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "guess {i}");
    }
    let res = post_login(&app, "alice", "alice-password", "/").await;
    assert_eq!(
        res.status(),
        StatusCode::TOO_MANY_REQUESTS,
        "even the right password waits"
    );
    let wait: u64 = res.headers()[RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(wait, 1);
    assert!(session_cookie(&res).is_none());
    assert_eq!(
        post_login(&app, "bob", "bob-password-1", "/")
            .await
            .status(),
        StatusCode::SEE_OTHER,
        "another name from the same address still logs in"
    );
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let res = post_login(&app, "alice", "guess-again", "/").await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    let res = post_login(&app, "alice", "alice-password", "/").await;
    assert_eq!(
        res.status(),
        StatusCode::TOO_MANY_REQUESTS,
        "the lock doubled to 2 s"
    );
    let wait: u64 = res.headers()[RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(wait, 2);
}

#[tokio::test]
async fn with_no_users_everything_is_open_on_loopback() {
    let app = spawn_app().await;
    assert_eq!(app.get("/api/v1/scenarios").await.status(), StatusCode::OK);
    let id = app.create(&sample_scenario()).await;
    let html = app.get_text(&format!("/scenarios/{id}")).await;
    assert!(!html.contains("action=\"/logout\""), "no one is signed in");
    let res = app.get("/login?next=/compare").await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert_eq!(res.headers()[LOCATION], "/compare");
}

/// An app whose proxy header `X-Remote-User` is believed from `from`.
async fn proxied_app(from: &str, default_role: Option<volplan::web::auth::Role>) -> TestApp {
    let from: std::net::IpAddr = from.parse().unwrap();
    spawn_app_with(tempfile::tempdir().unwrap(), move |s| {
        s.auth.proxy_header = Some("x-remote-user".parse().unwrap());
        s.auth.proxy_from = vec![from];
        s.auth.proxy_default_role = default_role;
    })
    .await
}

async fn get_as_proxy_user(app: &TestApp, user: &str, path: &str) -> reqwest::Response {
    app.client
        .get(app.url(path))
        .header("x-remote-user", user)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn the_proxy_header_is_honoured_only_from_a_trusted_peer() {
    let trusted = proxied_app("127.0.0.1", None).await;
    add_user(&trusted, "alice", "alice-password", "viewer").await;
    let res = get_as_proxy_user(&trusted, "alice", "/").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.text().await.unwrap().contains("alice"));
    let res = get_as_proxy_user(&trusted, "mallory", "/api/v1/scenarios").await;
    assert_eq!(
        res.status(),
        StatusCode::FORBIDDEN,
        "no account, no default role"
    );
    assert_eq!(
        trusted.get("/api/v1/scenarios").await.status(),
        StatusCode::UNAUTHORIZED,
        "the header turns authentication on by itself"
    );

    let untrusted = proxied_app("192.0.2.10", None).await;
    add_user(&untrusted, "alice", "alice-password", "admin").await;
    let res = get_as_proxy_user(&untrusted, "alice", "/api/v1/scenarios").await;
    assert_eq!(
        res.status(),
        StatusCode::UNAUTHORIZED,
        "a header from a stranger is ignored"
    );

    let defaulted = proxied_app("127.0.0.1", Some(volplan::web::auth::Role::Viewer)).await;
    let res = get_as_proxy_user(&defaulted, "newcomer@example.com", "/api/v1/scenarios").await;
    assert_eq!(res.status(), StatusCode::OK);
    let res = defaulted
        .client
        .post(defaulted.url("/api/v1/scenarios"))
        .header("x-remote-user", "newcomer@example.com")
        .json(&sample_scenario())
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.status(),
        StatusCode::FORBIDDEN,
        "the default role is viewer"
    );
}
