//! A database that stops answering is a 503 with `Retry-After`, never a 500: on the
//! pool the app's shutdown path closes (SQLite or PostgreSQL), and on a PostgreSQL
//! server that goes away while writes are sent and comes back.

use crate::helpers::{named, spawn_app, spawn_app_on, test_postgres};
use reqwest::header::RETRY_AFTER;
use serde_json::Value;
use std::net::SocketAddr;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// Asserts a 503 with `Retry-After` and, for the API, the error body.
async fn unavailable(res: reqwest::Response, what: &str) {
    assert_eq!(res.status(), 503, "{what}");
    let wait = res
        .headers()
        .get(RETRY_AFTER)
        .map(|v| v.to_str().unwrap().to_owned());
    assert_eq!(wait.as_deref(), Some("5"), "{what}: Retry-After");
    let json = res
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .is_some_and(|v| v.to_str().unwrap().starts_with("application/json"));
    let text = res.text().await.unwrap();
    if json {
        let body: Value = serde_json::from_str(&text).unwrap();
        let error = body["error"].as_str().unwrap();
        assert!(
            error.contains("database does not answer"),
            "{what}: {error}"
        );
        assert!(body["field"].is_null(), "{what}");
    } else {
        assert!(
            text.contains("The database does not answer"),
            "{what}: {text}"
        );
    }
}

#[tokio::test]
async fn a_closed_pool_answers_503_with_retry_after() {
    let app = spawn_app().await;
    let id = app.create(&named("Kept")).await;
    // The pool the server uses, closed as the shutdown path closes it.
    app.db.close().await;
    let res = app.post_json("/api/v1/scenarios", &named("New")).await;
    unavailable(res, "POST /api/v1/scenarios").await;
    let res = app
        .put_json(&format!("/api/v1/scenarios/{id}"), &named("Changed"))
        .await;
    unavailable(res, "PUT /api/v1/scenarios/{id}").await;
    unavailable(app.get(&format!("/api/v1/scenarios/{id}")).await, "GET").await;
    let page = app
        .client
        .get(app.url(&format!("/scenarios/{id}")))
        .header(reqwest::header::ACCEPT, "text/html")
        .send()
        .await
        .unwrap();
    unavailable(page, "GET /scenarios/{id}").await;
}

/// A TCP relay to the PostgreSQL server that can be cut (every connection closed,
/// new ones refused, as when the server stops) and started again on the same port.
struct Relay {
    addr: SocketAddr,
    target: SocketAddr,
    stop: Option<watch::Sender<bool>>,
}

impl Relay {
    async fn start(addr: SocketAddr, target: SocketAddr) -> Relay {
        let listener = TcpListener::bind(addr).await.expect("bind the relay");
        let addr = listener.local_addr().unwrap();
        let (stop, mut stopped) = watch::channel(false);
        tokio::spawn(async move {
            loop {
                let client = tokio::select! {
                    accepted = listener.accept() => match accepted {
                        Ok((c, _)) => c,
                        Err(_) => continue,
                    },
                    _ = stopped.changed() => return,
                };
                let mut cut = stopped.clone();
                tokio::spawn(async move {
                    let mut client = client;
                    let Ok(mut server) = TcpStream::connect(target).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        _ = cut.changed() => {}
                    }
                });
            }
        });
        Relay {
            addr,
            target,
            stop: Some(stop),
        }
    }

    /// Closes every relayed connection and the listener: connections are refused.
    async fn cut(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(true);
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn postgresql_going_away_during_writes_is_503_and_coming_back_serves_again() {
    if test_postgres().is_none() {
        eprintln!("skipped: needs VOLPLAN_TEST_POSTGRES");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let direct = crate::helpers::database_url_in(dir.path()).await;
    let mut url = reqwest::Url::parse(&direct).unwrap();
    let target: SocketAddr = format!("{}:{}", url.host_str().unwrap(), url.port().unwrap_or(5432))
        .parse()
        .expect("the test server is named by an IP address and port");
    let mut relay = Relay::start("127.0.0.1:0".parse().unwrap(), target).await;
    url.set_port(Some(relay.addr.port())).unwrap();
    let app = spawn_app_on(url.to_string()).await;
    let id = app.create(&named("Before")).await;

    // Writes in flight as the server goes: every one is a 503 (or saved before it went).
    let writes: Vec<_> = (0..8)
        .map(|i| {
            let client = app.client.clone();
            let url = app.url("/api/v1/scenarios");
            tokio::spawn(async move {
                client
                    .post(url)
                    .json(&named(&format!("During {i}")))
                    .send()
                    .await
                    .unwrap()
            })
        })
        .collect();
    relay.cut().await;
    for w in writes {
        let res = w.await.unwrap();
        if res.status() != 201 {
            unavailable(res, "a write in flight").await;
        }
    }
    // Writes and reads while it is away.
    unavailable(
        app.put_json(&format!("/api/v1/scenarios/{id}"), &named("Away"))
            .await,
        "PUT while away",
    )
    .await;
    unavailable(
        app.post_json("/api/v1/scenarios", &named("Away")).await,
        "POST",
    )
    .await;
    unavailable(app.get(&format!("/api/v1/scenarios/{id}")).await, "GET").await;
    let page = app
        .client
        .get(app.url("/"))
        .header(reqwest::header::ACCEPT, "text/html")
        .send()
        .await
        .unwrap();
    unavailable(page, "the home page").await;

    // Back on the same address: the same server serves again, without a restart.
    let relay = Relay::start(relay.addr, relay.target).await;
    let res = app
        .put_json(&format!("/api/v1/scenarios/{id}"), &named("After"))
        .await;
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    let back: Value = app.get_json(&format!("/api/v1/scenarios/{id}")).await;
    assert_eq!(back["name"], "After", "{back}");
    drop(relay);
}
