//! Uploads are parsed in a pool of their own: 20 dense workbooks sent at once from one
//! address (a few hundred kilobytes each, millions of cells in one place) are refused by the cell cap
//! or, past a client's share, with a 429 that says to retry, while another client's
//! PDF report arrives within 2 s and no upload ever holds a render slot.

use crate::helpers::{database_url_in, sample_scenario};
use crate::upload_bounds::{NS, VINFO, Writer, workbook};
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use volplan::web::{AppState, ServerSettings};

/// Cells in the dense workbook: more than the cap, all at `B2` after the VM table.
const DENSE_CELLS: usize = 5_500_000;

/// A `vInfo` sheet whose table is followed by [`DENSE_CELLS`] copies of one cell.
fn dense_workbook() -> Vec<u8> {
    let write: Writer = Box::new(|w| {
        write!(
            w,
            r#"<worksheet xmlns="{NS}"><sheetData>{VINFO}<row r="3">"#
        )
        .unwrap();
        let block = r#"<c r="B3"><v>1</v></c>"#.repeat(10_000);
        for _ in 0..DENSE_CELLS / 10_000 {
            w.write_all(block.as_bytes()).unwrap();
        }
        w.write_all(b"</row></sheetData></worksheet>").unwrap();
    });
    workbook(false, vec![("xl/worksheets/sheet1.xml", write)])
}

#[tokio::test]
async fn dense_uploads_never_hold_render_slots() {
    let dense = dense_workbook();
    assert!(dense.len() < 1 << 20, "{} bytes", dense.len());
    eprintln!(
        "dense workbook: {} KB, {DENSE_CELLS} cells",
        dense.len() >> 10
    );

    let dir = tempfile::tempdir().unwrap();
    let db = volplan::store::connect(&database_url_in(dir.path()).await)
        .await
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut settings = ServerSettings::for_addr(addr);
    // One upload read at a time (a debug build takes about 20 s to read 4 million cells
    // alone), so that the test leaves the other cores to the rest of the suite.
    settings.upload_permits = 1;
    // A debug build reads a few times slower than a release build.
    settings.render_timeout = Duration::from_secs(60);
    let prices = volplan::store::prices::book_in_force(&db).await.unwrap();
    let state = AppState::new(db, &settings, prices);
    let (renders, uploads) = (state.renders.clone(), state.uploads.clone());
    tokio::spawn(volplan::web::serve_state(
        listener,
        state,
        settings,
        std::future::pending(),
    ));
    let client = reqwest::Client::new();
    let res = client
        .post(format!("http://{addr}/api/v1/scenarios"))
        .json(&sample_scenario())
        .send()
        .await
        .unwrap();
    let id = res.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let pdf = || {
        let client = client.clone();
        async move {
            let started = Instant::now();
            let res = client
                .get(format!("http://{addr}/scenarios/{id}/report.pdf"))
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 200);
            let bytes = res.bytes().await.unwrap();
            assert!(bytes.starts_with(b"%PDF"));
            started.elapsed()
        }
    };
    eprintln!("PDF alone: {:?}", pdf().await);

    // The most renders running at once while the uploads run: the PDF's own only.
    let most_renders = Arc::new(AtomicUsize::new(0));
    let sampler = {
        let most = most_renders.clone();
        tokio::spawn(async move {
            loop {
                most.fetch_max(renders.in_use(), Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        })
    };
    // 20 uploads from one address: the first is read (in the upload pool, filling it),
    // those sent meanwhile are over the client's share.
    let sent: Vec<_> = (0..20)
        .map(|i| {
            let source: std::net::IpAddr = "127.0.0.2".parse().unwrap();
            let body = dense.clone();
            tokio::spawn(async move {
                let started = Instant::now();
                let res = reqwest::Client::builder()
                    .local_address(source)
                    .build()
                    .unwrap()
                    .post(format!("http://{addr}/api/v1/avs/inventory"))
                    .header("content-type", "application/octet-stream")
                    .body(body)
                    .send()
                    .await
                    .unwrap();
                let status = res.status().as_u16();
                let retry = res.headers().contains_key("retry-after");
                let body: Value = res.json().await.unwrap();
                eprintln!(
                    "upload {i} from {source}: {status} in {:?}",
                    started.elapsed()
                );
                (
                    status,
                    retry,
                    body["error"].as_str().unwrap_or("").to_owned(),
                )
            })
        })
        .collect();
    // The PDF is asked for once the upload pool is full.
    let started = Instant::now();
    while uploads.in_use() < uploads.permits() && started.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(
        uploads.in_use(),
        uploads.permits(),
        "the uploads are being read"
    );
    let took = pdf().await;
    eprintln!("PDF during 20 dense uploads: {took:?}");
    assert!(took < Duration::from_secs(2), "the PDF took {took:?}");

    let (mut capped, mut over_share) = (0, 0);
    for upload in sent {
        let (status, retry, message) = upload.await.unwrap();
        match status {
            422 => {
                assert!(message.contains("4,000,000 cells"), "{message}");
                capped += 1;
            }
            429 => {
                assert!(retry && message.contains("try again"), "{message}");
                over_share += 1;
            }
            other => panic!("an upload got {other}: {message}"),
        }
    }
    sampler.abort();
    eprintln!("{capped} refused by the cell cap, {over_share} over their share");
    assert!(capped >= 1, "{capped} read to the cap");
    assert_eq!(
        most_renders.load(Ordering::Relaxed),
        1,
        "only the PDF held a render slot"
    );
}
