//! `volplan users` and `volplan tokens` run as the built binary, against the database a
//! server uses, and `serve` on a non-loopback address once a user exists.

use crate::helpers::{database_url_in, spawn_app};
use reqwest::StatusCode;
use reqwest::header::AUTHORIZATION;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `volplan ARGS --database-url URL` with `stdin` as its standard input.
fn volplan(args: &[&str], url: &str, stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_volplan"))
        .args(args)
        .args(["--database-url", url])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that refuses its arguments exits without reading its input.
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[tokio::test]
async fn users_add_reads_the_password_from_stdin_and_tokens_act_as_their_user() {
    let app = spawn_app().await;
    let url = app.db_url.clone();
    let out = volplan(
        &["users", "add", "alice", "--role", "admin"],
        &url,
        "alice-password\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("added alice as admin"));
    let out = volplan(&["users", "add", "bob"], &url, "short\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("at least 8"),
        "{}",
        text(&out.stderr)
    );
    let out = volplan(&["users", "add", "bob"], &url, "");
    assert_eq!(out.status.code(), Some(2), "a new user needs a password");
    let out = volplan(&["users", "add", "bad name"], &url, "long-enough\n");
    assert_eq!(out.status.code(), Some(2));

    let out = volplan(&["users", "list"], &url, "");
    let list = text(&out.stdout);
    assert!(list.starts_with("alice\tadmin\t0 token(s)"), "{list}");

    let out = volplan(&["tokens", "create", "ci", "--user", "alice"], &url, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let token = text(&out.stdout).trim().to_owned();
    assert!(
        token.starts_with("volplan_") && token.len() == 72,
        "{token}"
    );
    let out = volplan(&["tokens", "create", "ci", "--user", "alice"], &url, "");
    assert_eq!(out.status.code(), Some(2), "names are unique");
    let out = volplan(&["tokens", "create", "x", "--user", "nobody"], &url, "");
    assert_eq!(out.status.code(), Some(2));
    let listed = text(&volplan(&["tokens", "list"], &url, "").stdout);
    assert!(
        listed.starts_with("ci\talice\tadmin") && !listed.contains(&token),
        "{listed}"
    );

    let call = |token: &str| {
        app.client
            .get(app.url("/api/v1/scenarios"))
            .header(AUTHORIZATION, format!("Bearer {token}"))
            .send()
    };
    assert_eq!(call(&token).await.unwrap().status(), StatusCode::OK);
    assert_eq!(
        app.get("/api/v1/scenarios").await.status(),
        StatusCode::UNAUTHORIZED
    );

    // A new password revokes the user's tokens.
    let out = volplan(&["users", "add", "alice"], &url, "alice-password-2\n");
    assert!(
        text(&out.stderr).contains("0 session(s) ended and 1 API token(s) revoked"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        call(&token).await.unwrap().status(),
        StatusCode::UNAUTHORIZED
    );
    let out = volplan(&["tokens", "create", "ci", "--user", "alice"], &url, "");
    let token = text(&out.stdout).trim().to_owned();
    assert_eq!(call(&token).await.unwrap().status(), StatusCode::OK);
    let out = volplan(&["tokens", "revoke", "ci"], &url, "");
    assert!(out.status.success());
    assert_eq!(
        call(&token).await.unwrap().status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        volplan(&["tokens", "revoke", "ci"], &url, "").status.code(),
        Some(2)
    );

    let out = volplan(&["users", "remove", "alice"], &url, "");
    assert!(out.status.success());
    assert_eq!(
        volplan(&["users", "remove", "alice"], &url, "")
            .status
            .code(),
        Some(2)
    );
}

#[tokio::test]
async fn with_a_user_a_public_bind_starts_without_the_flag() {
    use tokio::io::AsyncBufReadExt;
    let dir = tempfile::tempdir().unwrap();
    let url = database_url_in(dir.path()).await;
    let out = volplan(
        &["users", "add", "admin", "--role", "admin"],
        &url,
        "admin-password\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_volplan"))
        .args(["serve", "--bind", "0.0.0.0:0", "--database-url", &url])
        .env_remove("VOLPLAN_ALLOW_UNAUTHENTICATED")
        .env("RUST_LOG", "info,sqlx=warn")
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let mut first = Vec::new();
    while first.len() < 2 {
        match tokio::time::timeout(std::time::Duration::from_secs(20), lines.next_line()).await {
            Ok(Ok(Some(l))) => first.push(l),
            _ => break,
        }
    }
    let _ = child.kill().await;
    assert!(
        first[0].contains("listening on http://0.0.0.0:"),
        "{first:?}"
    );
    assert!(first[1].contains("team mode: 1 user(s)"), "{first:?}");
}
