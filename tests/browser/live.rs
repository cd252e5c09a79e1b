//! The live page as a user meets it: choose the Resource Graph result and a week of
//! metrics, read the estate; the verdict, the demand chart and each volume's row show,
//! and the page is drawn into the documentation (`docs/live.png`, its demand over time
//! `docs/live-over-time.png`). Then the same
//! metrics against a saved scenario: a missing choice is said beside its field with
//! the files kept, the comparison shows and keeps the run at the ceiling, the page fits
//! a phone, and it is drawn into `docs/actuals.png`.

use super::widths::{FITS, OVERFLOW, SMALL_TARGETS};
use super::{Res, free_port, js, save_scenario, wait_for};
use fantoccini::{Client, Locator};
use std::path::Path;

/// Shared with the integration tests, which use all of it.
#[allow(dead_code)]
#[path = "../it/live/fixture.rs"]
mod fixture;

/// Chooses the Resource Graph result and the metrics in the page's file inputs.
async fn choose_files(c: &Client, graph: &Path, metrics: &Path) -> Res {
    for (input, file) in [("#f-inventory", graph), ("#f-metrics", metrics)] {
        c.find(Locator::Css(input))
            .await?
            .send_keys(&file.display().to_string())
            .await?;
    }
    Ok(())
}

pub async fn live_journey(c: &Client, base: &str) -> Res {
    let dir = std::env::temp_dir();
    let graph = dir.join(format!("volplan-graph-{}.json", free_port()));
    let metrics = dir.join(format!("volplan-metrics-{}.csv", free_port()));
    std::fs::write(&graph, fixture::GRAPH)?;
    std::fs::write(&metrics, fixture::collector_csv(7, &[]))?;
    c.set_window_size(1280, 1800).await?;
    c.goto(&format!("{base}/live")).await?;
    choose_files(c, &graph, &metrics).await?;
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
    assert_eq!(charts, serde_json::json!(10));
    let over_time = js(
        c,
        "document.querySelectorAll('#live-over-time details.over-time').length",
    )
    .await?;
    assert_eq!(over_time, serde_json::json!(9));
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    js(
        c,
        "(document.getElementById('live-over-time').scrollIntoView(), true)",
    )
    .await?;
    std::fs::write(docs.join("live-over-time.png"), c.screenshot().await?)?;
    js(c, "(window.scrollTo(0, 0), true)").await?;
    std::fs::write(docs.join("live.png"), c.screenshot().await?)?;
    Ok(())
}

/// The planned app2: a Premium volume of 2 TiB meant for 100 MiB/s.
fn planned_app2() -> serde_json::Value {
    serde_json::json!({
        "name": "app2", "region": "eastus",
        "workload": { "io_size_kib": 64, "read_pct": 70, "access": "sequential", "threads": 8,
                      "queue_depth": 16, "files": "many", "capacity_tib": 1.4, "target_mibps": 100 },
        "storage": { "service": "anf", "level": "premium", "qos": "auto",
                     "volumes": [ { "count": 1, "quota_tib": 2 } ] },
        "clients": { "count": 4, "vm_size": "Standard_E32s_v5", "protocol": "nfsv3", "nconnect": 1 }
    })
}

pub async fn actuals_journey(c: &Client, base: &str) -> Res {
    let id = save_scenario(base, &planned_app2()).await?;
    let dir = std::env::temp_dir();
    let graph = dir.join(format!("volplan-graph-{}.json", free_port()));
    let metrics = dir.join(format!("volplan-actuals-{}.csv", free_port()));
    std::fs::write(&graph, fixture::GRAPH)?;
    std::fs::write(
        &metrics,
        fixture::collector_csv(7, &["app2", "db2", "scratch"]),
    )?;
    c.set_window_size(1280, 1000).await?;
    c.goto(&format!("{base}/live")).await?;
    choose_files(c, &graph, &metrics).await?;
    // No plan chosen: said beside the list, the file still chosen.
    c.find(Locator::Css("#live-compare")).await?.click().await?;
    let said = wait_for(
        c,
        "document.getElementById('e-plan').textContent.length > 0",
        "the error beside the plan",
    )
    .await;
    if said.is_err() {
        let _ = std::fs::remove_file(&graph);
        let _ = std::fs::remove_file(&metrics);
    }
    said?;
    let focused = js(c, "document.activeElement.id").await?;
    assert_eq!(
        focused,
        serde_json::json!("f-plan"),
        "focus on the field in error"
    );
    let kept = js(
        c,
        "document.getElementById('f-metrics').files.length + document.getElementById('f-inventory').files.length",
    )
    .await?;
    assert_eq!(kept, serde_json::json!(2), "a chosen file was lost");
    // Chosen with the keyboard: the list takes focus and the arrow keys.
    js(
        c,
        &format!("(document.getElementById('f-plan').value = 'scenario-{id}', true)"),
    )
    .await?;
    let focused = js(
        c,
        "(document.getElementById('f-plan').focus(), document.activeElement.id)",
    )
    .await?;
    assert_eq!(focused, serde_json::json!("f-plan"));
    // Enter in the revision field compares, as the button does.
    c.find(Locator::Css("#f-revision"))
        .await?
        .send_keys("\u{E007}")
        .await?;
    let shown = wait_for(
        c,
        "!!document.getElementById('actuals-verdict')",
        "the comparison",
    )
    .await;
    let _ = std::fs::remove_file(&graph);
    let _ = std::fs::remove_file(&metrics);
    shown?;
    let verdict = js(c, "document.getElementById('actuals-verdict').textContent").await?;
    let verdict = verdict.as_str().unwrap_or_default().to_owned();
    assert!(verdict.contains("Above plan: app2."), "{verdict}");
    assert!(
        verdict.contains("1 run at the plan's ceiling kept with the scenario"),
        "{verdict}"
    );
    let focused = js(c, "document.activeElement.id").await?;
    assert_eq!(
        focused,
        serde_json::json!("h-actuals"),
        "focus on the answer"
    );
    let errors = js(c, "document.getElementById('e-plan').textContent").await?;
    assert_eq!(errors, serde_json::json!(""));
    js(
        c,
        "(document.getElementById('live-plan').scrollIntoView(), true)",
    )
    .await?;
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    std::fs::write(docs.join("actuals.png"), c.screenshot().await?)?;
    c.set_window_size(390, 900).await?;
    let fits = js(c, FITS).await?;
    assert_eq!(
        fits,
        serde_json::json!(true),
        "sticks out at 390 px: {}",
        js(c, OVERFLOW).await?
    );
    let small = js(c, SMALL_TARGETS).await?;
    assert_eq!(
        small,
        serde_json::json!(""),
        "targets under 24 px at 390 px"
    );
    Ok(())
}
