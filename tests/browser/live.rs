//! The live page as a user meets it: choose the Resource Graph result and a week of
//! metrics, read the estate; the verdict, the demand chart and each volume's row show,
//! and the page is drawn into the documentation (`docs/live.png`).

use super::{Res, free_port, js, wait_for};
use fantoccini::{Client, Locator};
use std::path::Path;

/// Shared with the integration tests, which use all of it.
#[allow(dead_code)]
#[path = "../it/live/fixture.rs"]
mod fixture;

pub async fn live_journey(c: &Client, base: &str) -> Res {
    let dir = std::env::temp_dir();
    let graph = dir.join(format!("volplan-graph-{}.json", free_port()));
    let metrics = dir.join(format!("volplan-metrics-{}.csv", free_port()));
    std::fs::write(&graph, fixture::GRAPH)?;
    std::fs::write(&metrics, fixture::collector_csv(7, &[]))?;
    c.set_window_size(1280, 1800).await?;
    c.goto(&format!("{base}/live")).await?;
    c.find(Locator::Css("#f-inventory"))
        .await?
        .send_keys(&graph.display().to_string())
        .await?;
    c.find(Locator::Css("#f-metrics"))
        .await?
        .send_keys(&metrics.display().to_string())
        .await?;
    c.find(Locator::Css("#live-upload button[type=submit]"))
        .await?
        .click()
        .await?;
    let shown = wait_for(
        c,
        "!!document.getElementById('live-verdict')",
        "the verdict",
    )
    .await;
    let _ = std::fs::remove_file(&graph);
    let _ = std::fs::remove_file(&metrics);
    shown?;
    let verdict = js(c, "document.getElementById('live-verdict').textContent").await?;
    assert!(
        verdict
            .as_str()
            .unwrap_or_default()
            .contains("9 volumes measured."),
        "{verdict}"
    );
    let rows = js(
        c,
        "document.querySelectorAll('#live-volumes tbody tr').length",
    )
    .await?;
    assert_eq!(rows, serde_json::json!(9));
    let charts = js(c, "document.querySelectorAll('svg.chart').length").await?;
    assert_eq!(charts, serde_json::json!(1));
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    std::fs::write(docs.join("live.png"), c.screenshot().await?)?;
    Ok(())
}
