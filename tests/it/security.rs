//! Cross-site requests, the form token, the Host check, slow clients and early body
//! checks, against the real server.

use crate::helpers::{FORM_TOKEN, TestApp, named, spawn_app};
use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, COOKIE, HOST, ORIGIN};
use serde_json::Value;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const FORM: &str = "application/x-www-form-urlencoded";

fn token_body() -> Vec<u8> {
    format!("csrf={FORM_TOKEN}").into_bytes()
}

async fn exists(app: &TestApp, id: i64) -> bool {
    app.get(&format!("/api/v1/scenarios/{id}")).await.status() == StatusCode::OK
}

/// The delete form, posted with the token and the given extra headers.
async fn post_delete(app: &TestApp, id: i64, headers: &[(&str, String)]) -> reqwest::Response {
    let mut req = app
        .client
        .post(app.url(&format!("/scenarios/{id}/delete")))
        .header(CONTENT_TYPE, FORM)
        .header(COOKIE, format!("volplan_csrf={FORM_TOKEN}"))
        .body(token_body());
    for (k, v) in headers {
        req = req.header(*k, v);
    }
    req.send().await.expect("POST")
}

#[tokio::test]
async fn cross_site_form_posts_are_refused_and_change_nothing() {
    let app = spawn_app().await;
    let id = app.create(&named("Keep me")).await;
    for headers in [
        vec![("sec-fetch-site", "cross-site".to_owned())],
        vec![("sec-fetch-site", "same-site".to_owned())],
        vec![("origin", "http://evil.example".to_owned())],
        vec![("origin", "null".to_owned())],
    ] {
        let res = post_delete(&app, id, &headers).await;
        assert_eq!(res.status(), StatusCode::FORBIDDEN, "{headers:?}");
        let html = res.text().await.unwrap();
        assert!(html.contains("cross-site request refused"), "{html}");
        assert!(exists(&app, id).await, "{headers:?} deleted the scenario");
    }
    // Every other form route is guarded the same way.
    for path in [
        "/scenarios",
        "/scenarios/copy",
        "/import",
        &format!("/scenarios/{id}"),
        &format!("/scenarios/{id}/revisions/1/restore"),
    ] {
        let res = app
            .client
            .post(app.url(path))
            .header(CONTENT_TYPE, FORM)
            .header("sec-fetch-site", "cross-site")
            .header(COOKIE, format!("volplan_csrf={FORM_TOKEN}"))
            .body(token_body())
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::FORBIDDEN, "{path}");
    }
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM scenario_revisions")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(n, 1, "nothing was saved or restored");

    // The same form from the server's own page works.
    let own = app.base.trim_start_matches("http://").to_owned();
    let res = post_delete(
        &app,
        id,
        &[
            ("sec-fetch-site", "same-origin".to_owned()),
            ("origin", format!("http://{own}")),
        ],
    )
    .await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert!(!exists(&app, id).await);
}

#[tokio::test]
async fn forms_need_the_session_token() {
    let app = spawn_app().await;
    let id = app.create(&named("Keep me")).await;
    let url = app.url(&format!("/scenarios/{id}/delete"));
    // No cookie, no field, a field that is not the cookie's.
    let cases: [(Option<&str>, &str); 3] = [
        (None, ""),
        (Some(FORM_TOKEN), ""),
        (Some(FORM_TOKEN), "csrf=ffffffffffffffffffffffffffffffff"),
    ];
    for (cookie, body) in cases {
        let mut req = app.client.post(&url).header(CONTENT_TYPE, FORM);
        if let Some(c) = cookie {
            req = req.header(COOKIE, format!("volplan_csrf={c}"));
        }
        let res = req.body(body.to_owned()).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::FORBIDDEN, "{cookie:?} {body}");
        assert!(res.text().await.unwrap().contains("Reload the page"));
    }
    assert!(exists(&app, id).await);

    // A page sets the cookie and puts the same token in each form.
    let res = app.get(&format!("/scenarios/{id}/delete")).await;
    let cookie = res.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(cookie.contains("SameSite=Strict") && cookie.contains("HttpOnly"));
    let token = cookie
        .trim_start_matches("volplan_csrf=")
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let html = res.text().await.unwrap();
    assert!(
        html.contains(&format!("name=\"csrf\" value=\"{token}\"")),
        "{html}"
    );
    let res = app
        .client
        .post(&url)
        .header(CONTENT_TYPE, FORM)
        .header(COOKIE, format!("volplan_csrf={token}"))
        .body(format!("csrf={token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::SEE_OTHER);
    assert!(!exists(&app, id).await);
}

#[tokio::test]
async fn cross_site_api_writes_are_refused_and_change_nothing() {
    let app = spawn_app().await;
    let id = app.create(&named("Keep me")).await;
    let path = app.url(&format!("/api/v1/scenarios/{id}"));
    for (k, v) in [
        ("sec-fetch-site", "cross-site"),
        ("origin", "http://evil.example"),
    ] {
        let res = app.client.delete(&path).header(k, v).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::FORBIDDEN, "{k}: {v}");
        let body: Value = res.json().await.unwrap();
        crate::helpers::assert_error_body(&body, None);
        assert!(exists(&app, id).await);
        let res = app
            .client
            .put(&path)
            .header(k, v)
            .json(&named("Changed"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::FORBIDDEN);
        let res = app
            .client
            .post(app.url(&format!("/api/v1/scenarios/{id}/revisions/1/restore")))
            .header(k, v)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::FORBIDDEN);
    }
    // What a cross-site form could send to the API is refused even without the headers.
    let res = app
        .client
        .post(app.url(&format!("/api/v1/scenarios/{id}/revisions/1/restore")))
        .header(CONTENT_TYPE, "text/plain")
        .body("x")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let body: Value = app
        .get(&format!("/api/v1/scenarios/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["name"], "Keep me");
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM scenario_revisions")
        .fetch_one(&app.db)
        .await
        .unwrap();
    assert_eq!(n, 1);

    // Same-origin (a fetch from volplan's own page) and plain clients work.
    let own = app.base.clone();
    let res = app
        .client
        .delete(&path)
        .header("sec-fetch-site", "same-origin")
        .header(ORIGIN, own)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    assert!(!exists(&app, id).await);
}

#[tokio::test]
async fn a_foreign_host_gets_421() {
    let app = spawn_app().await;
    let port = app.base.rsplit(':').next().unwrap().to_owned();
    let id = app.create(&named("Keep me")).await;
    for host in [
        format!("attacker.example:{port}"),
        "attacker.example".to_owned(),
        format!("localhost:{}", port.parse::<u16>().unwrap() ^ 1),
    ] {
        let res = app
            .client
            .get(app.url("/api/v1/scenarios"))
            .header(HOST, &host)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::MISDIRECTED_REQUEST, "{host}");
        let body: Value = res.json().await.unwrap();
        assert!(
            body["error"].as_str().unwrap().contains("--allowed-hosts"),
            "{body}"
        );
        let res = app
            .client
            .get(app.url("/"))
            .header(HOST, &host)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::MISDIRECTED_REQUEST);
        let res = app
            .client
            .delete(app.url(&format!("/api/v1/scenarios/{id}")))
            .header(HOST, &host)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::MISDIRECTED_REQUEST);
    }
    assert!(exists(&app, id).await);
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}")] {
        let res = app
            .client
            .get(app.url("/healthz"))
            .header(HOST, &host)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{host}");
    }
}

/// Sends `head` (a whole request head) on a new connection; the answer's status line
/// and body.
async fn raw_request(app: &TestApp, head: &str) -> (String, String) {
    let addr = app.base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let status = answer.lines().next().unwrap_or_default().to_owned();
    let body = answer
        .split("\r\n\r\n")
        .nth(1)
        .unwrap_or_default()
        .to_owned();
    (status, body)
}

#[tokio::test]
async fn two_host_headers_get_400() {
    let app = spawn_app().await;
    let addr = app.base.trim_start_matches("http://").to_owned();
    let id = app.create(&named("Keep me")).await;
    for (path, method) in [
        ("/api/v1/scenarios".to_owned(), "GET"),
        (format!("/api/v1/scenarios/{id}"), "DELETE"),
        ("/".to_owned(), "GET"),
    ] {
        // Ours first or the other first: neither is trusted.
        for hosts in [
            [addr.as_str(), "attacker.example"],
            ["attacker.example", addr.as_str()],
            [addr.as_str(), addr.as_str()],
        ] {
            let head = format!(
                "{method} {path} HTTP/1.1\r\nHost: {}\r\nHost: {}\r\nConnection: close\r\n\r\n",
                hosts[0], hosts[1]
            );
            let (status, body) = raw_request(&app, &head).await;
            assert!(
                status.starts_with("HTTP/1.1 400"),
                "{method} {path} {hosts:?}: {status}"
            );
            assert!(body.contains("more than one Host header"), "{body}");
        }
    }
    assert!(exists(&app, id).await);
    let one = format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    assert!(raw_request(&app, &one).await.0.starts_with("HTTP/1.1 200"));
}

#[tokio::test]
async fn a_client_dripping_headers_is_disconnected_within_the_header_timeout() {
    let app = spawn_app().await;
    let addr = app.base.trim_start_matches("http://").to_owned();
    let mut stream = TcpStream::connect(&addr).await.unwrap();
    let started = Instant::now();
    stream
        .write_all(format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n").as_bytes())
        .await
        .unwrap();
    let mut buf = [0u8; 256];
    let closed_after = loop {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "still connected after 20 s"
        );
        // One header line a second: never a complete request.
        let _ = stream.write_all(b"X-Drip: a\r\n").await;
        match tokio::time::timeout(Duration::from_secs(1), stream.read(&mut buf)).await {
            Ok(Ok(_)) | Ok(Err(_)) => break started.elapsed(),
            Err(_) => {}
        }
    };
    assert!(
        closed_after >= Duration::from_secs(9) && closed_after <= Duration::from_secs(13),
        "closed after {closed_after:?}; the header timeout is 10 s"
    );
    // The server still answers others.
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);
}

/// Sends a request head declaring `length` body bytes, sends no body, and returns the
/// answer's status line and how long it took.
async fn declare_body(app: &TestApp, path: &str, ctype: &str, length: u64) -> (String, Duration) {
    let addr = app.base.trim_start_matches("http://").to_owned();
    let mut stream = TcpStream::connect(&addr).await.unwrap();
    let started = Instant::now();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: {ctype}\r\nContent-Length: {length}\r\nCookie: volplan_csrf={FORM_TOKEN}\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf))
            .await
            .expect("an answer within 5 s")
            .unwrap_or(0);
        if n == 0 {
            break;
        }
        answer.extend_from_slice(&buf[..n]);
        if answer.windows(4).any(|w| w == b"\r\n\r\n") && answer.len() > 200 {
            break;
        }
    }
    let text = String::from_utf8_lossy(&answer).into_owned();
    (text, started.elapsed())
}

#[tokio::test]
async fn a_declared_body_over_the_limit_is_413_at_once() {
    let app = spawn_app().await;
    let big = 10 * 1024 * 1024;
    let (answer, took) = declare_body(&app, "/api/v1/scenarios", "application/json", big).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("application/json"), "{answer}");
    assert!(took < Duration::from_secs(2), "{took:?}");
    let (answer, took) =
        declare_body(&app, "/import", "multipart/form-data; boundary=x", big).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.contains("text/html"),
        "the form gets the HTML page: {answer}"
    );
    assert!(took < Duration::from_secs(2), "{took:?}");
}

#[tokio::test]
async fn a_charset_other_than_utf8_is_415() {
    let app = spawn_app().await;
    let body = serde_json::to_vec(&named("x")).unwrap();
    for ct in [
        "application/json; charset=utf-16",
        "application/json; charset=\"ISO-8859-1\"",
    ] {
        let res = app
            .send_raw(
                reqwest::Method::POST,
                "/api/v1/evaluate",
                Some(ct),
                body.clone(),
            )
            .await;
        assert_eq!(res.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE, "{ct}");
        let body: Value = res.json().await.unwrap();
        assert!(body["error"].as_str().unwrap().contains("UTF-8"), "{body}");
    }
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/evaluate",
            Some("application/json; charset=UTF-8"),
            body,
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
}

#[tokio::test]
async fn chart_sizes_beyond_the_cap_are_refused() {
    let app = spawn_app().await;
    let id = app.create(&named("Chart")).await;
    for q in ["w=4001", "h=5000", "w=100", "w=99999999999"] {
        let res = app
            .get(&format!("/scenarios/{id}/charts/ceilings.png?{q}"))
            .await;
        assert!(res.status().is_client_error(), "{q}: {}", res.status());
    }
    let res = app
        .get(&format!("/scenarios/{id}/charts/ceilings.png?w=400&h=300"))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
}

#[test]
fn a_non_loopback_bind_needs_the_flag() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_volplan"))
        .args([
            "serve",
            "--bind",
            "0.0.0.0:0",
            "--database-url",
            "sqlite::memory:",
        ])
        .env_remove("VOLPLAN_ALLOW_UNAUTHENTICATED")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--allow-unauthenticated"), "{err}");
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_volplan"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--allow-unauthenticated") && help.contains("--allowed-hosts"));
}

#[tokio::test]
async fn an_unauthenticated_public_bind_warns_first() {
    use tokio::io::AsyncBufReadExt;
    let dir = tempfile::tempdir().unwrap();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_volplan"))
        .args(["serve", "--bind", "0.0.0.0:0", "--database-url"])
        .arg(format!("sqlite:{}", dir.path().join("v.db").display()))
        .env("VOLPLAN_ALLOW_UNAUTHENTICATED", "true")
        .env("RUST_LOG", "info")
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let mut first = Vec::new();
    while first.len() < 2 {
        match tokio::time::timeout(Duration::from_secs(20), lines.next_line()).await {
            Ok(Ok(Some(l))) => first.push(l),
            _ => break,
        }
    }
    let _ = child.kill().await;
    assert!(
        first[0].contains("listening on http://0.0.0.0:"),
        "{first:?}"
    );
    assert!(first[1].contains("without authentication"), "{first:?}");
}
