//! Renders that never end (a drawing call that loops) cost their own requests and their
//! permits, never the server: with every permit held by a stuck render, `/healthz`
//! answers at once, pages show without their charts, downloads get a 503 that says
//! why, and shutdown completes with the renders still running. The server binary stops
//! on SIGTERM in time with renders running and queued, each of them answered.

use crate::helpers::{database_url_in, sample_scenario};
use serde_json::Value;
use std::time::{Duration, Instant};
use volplan::web::render_pool::Turn;
use volplan::web::{AppState, ServerSettings};

/// Saves the sample scenario on the server at `addr`; its id.
async fn save_sample(client: &reqwest::Client, addr: &str) -> i64 {
    let res = client
        .post(format!("http://{addr}/api/v1/scenarios"))
        .json(&sample_scenario())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    res.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
}

#[tokio::test]
async fn with_every_render_stuck_the_server_answers_and_stops() {
    let dir = tempfile::tempdir().unwrap();
    let db = volplan::store::connect(&database_url_in(dir.path()).await)
        .await
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut settings = ServerSettings::for_addr(addr);
    settings.render_permits = 2;
    settings.render_wait = Duration::from_millis(300);
    settings.render_timeout = Duration::from_millis(300);
    let prices = volplan::store::prices::book_in_force(&db).await.unwrap();
    let state = AppState::new(db.clone(), &settings, prices);
    let renders = state.renders.clone();

    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(volplan::web::serve_state(
        listener,
        state,
        settings,
        async {
            let _ = stopped.await;
        },
    ));
    let client = reqwest::Client::new();
    let url = |path: &str| format!("http://{addr}{path}");
    let timed = |path: String| {
        let client = client.clone();
        async move {
            let started = Instant::now();
            let res = client.get(path).send().await.unwrap();
            let status = res.status().as_u16();
            (status, res.text().await.unwrap(), started.elapsed())
        }
    };

    let id = save_sample(&client, &addr.to_string()).await;

    let planner = url(&format!("/scenarios/{id}"));
    let (status, html, _) = timed(planner.clone()).await;
    assert_eq!(status, 200);
    assert!(html.contains("id=\"chart-ceilings\""), "{html}");

    // Two renders that run until released, as a drawing call stuck in a loop would.
    let mut releases = Vec::new();
    for _ in 0..2 {
        let (release, held) = std::sync::mpsc::channel::<()>();
        releases.push(release);
        let renders = renders.clone();
        tokio::spawn(async move {
            let gave_up = renders
                .run("stuck report", Turn::Answer, move || held.recv())
                .await;
            assert!(gave_up.is_err(), "the stuck render is given up on");
        });
    }
    while renders.in_use() < 2 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    let (status, _, took) = timed(url("/healthz")).await;
    assert_eq!(status, 200);
    assert!(took < Duration::from_millis(100), "healthz took {took:?}");

    // The planner shows its figures without the charts.
    let (status, html, took) = timed(planner).await;
    assert_eq!(status, 200);
    assert!(html.contains("id=\"results\""), "{html}");
    assert!(!html.contains("id=\"chart-ceilings\""));
    assert!(took < Duration::from_secs(3), "planner took {took:?}");

    // Downloads get a 503 saying the server is busy.
    for path in [
        format!("/scenarios/{id}/report.pdf"),
        format!("/scenarios/{id}/report.html"),
        format!("/scenarios/{id}/charts/ceilings.svg"),
    ] {
        let (status, body, took) = timed(url(&path)).await;
        assert_eq!(status, 503, "{path}: {body}");
        assert!(body.contains("busy"), "{path}: {body}");
        assert!(took < Duration::from_secs(3), "{path} took {took:?}");
    }

    // Shutdown with a render queued and the stuck ones running completes at once.
    let queued = tokio::spawn(timed(url(&format!("/scenarios/{id}/report.xlsx"))));
    tokio::time::sleep(Duration::from_millis(50)).await;
    let started = Instant::now();
    stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(5), server)
        .await
        .expect("the server stops within 5 s")
        .unwrap()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(queued.await.unwrap().0, 503);
    assert_eq!(renders.in_use(), 2, "the stuck renders still run");

    drop(releases);
    tokio::time::timeout(Duration::from_secs(5), async {
        while renders.in_use() > 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("released renders give back their permits");
}

/// The server binary stops on SIGTERM within its documented time (requests in flight
/// finish within 30 s) while renders are running and queued: each of them is answered,
/// a report or a 503, never a dropped connection.
#[tokio::test]
async fn sigterm_with_renders_in_flight_stops_the_server_in_time() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, addr) =
        crate::helpers::serve_binary(dir.path(), &["--render-concurrency", "1"]).await;
    let client = reqwest::Client::new();
    let id = save_sample(&client, &addr).await;

    // Reports and large images, one drawn at a time, the others queued behind it.
    let renders: Vec<_> = (0..4)
        .flat_map(|_| {
            [
                format!("/scenarios/{id}/report.pdf"),
                format!("/scenarios/{id}/charts/latency.png?w=3000&h=3000"),
            ]
        })
        .map(|path| {
            let client = client.clone();
            let url = format!("http://{addr}{path}");
            tokio::spawn(async move {
                let res = client
                    .get(&url)
                    .send()
                    .await
                    .map_err(|e| format!("{path}: {e}"))?;
                let status = res.status().as_u16();
                res.bytes().await.map_err(|e| format!("{path}: {e}"))?;
                Ok::<_, String>(status)
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let in_flight = renders.iter().filter(|r| !r.is_finished()).count();
    assert!(in_flight > 0, "renders still running at SIGTERM");

    let started = Instant::now();
    let term = std::process::Command::new("kill")
        .args(["-TERM", &server.id().unwrap().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let status = tokio::time::timeout(Duration::from_secs(40), server.wait())
        .await
        .expect("the server stops within 40 s")
        .unwrap();
    let took = started.elapsed();
    eprintln!("SIGTERM with {in_flight} of 8 renders in flight: stopped in {took:?}");
    assert!(status.success(), "{status}");
    assert!(took < Duration::from_secs(31), "stopped in {took:?}");
    for r in renders {
        let status = r
            .await
            .unwrap()
            .expect("every render in flight is answered");
        assert!(matches!(status, 200 | 503), "{status}");
    }
}
