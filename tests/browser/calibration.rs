//! Calibration to one's own runs, as a user meets it: import a fio result into a saved
//! scenario, refit the model to it, change nconnect and see the prediction and its
//! likely range move from the refitted parameters, and find what moved in the report;
//! drop the per-client result files of one test at once and see one combined run.

use super::{Res, import_fio, js, save_scenario, wait_for};
use fantoccini::{Client, Locator};
use std::path::Path;

/// The headline throughput and its likely range as the page shows them.
async fn headline(c: &Client) -> Res<(String, String)> {
    let v = js(
        c,
        "[document.getElementById('kpi-mibps').textContent, document.getElementById('kpi-mibps-range').textContent]",
    )
    .await?;
    Ok((
        v[0].as_str().unwrap_or_default().to_owned(),
        v[1].as_str().unwrap_or_default().to_owned(),
    ))
}

pub async fn calibration_journey(c: &Client, base: &str) -> Res {
    let scenario = serde_json::json!({
        "name": "Calibrated plan",
        "workload": { "io_size_kib": 64, "read_pct": 100, "access": "sequential",
                      "threads": 8, "queue_depth": 16, "capacity_tib": 50 },
        "storage": { "service": "anf", "level": "ultra",
                     "volumes": [ { "count": 1, "quota_tib": 50 } ] },
        "clients": { "count": 1, "vm_size": "Standard_E32s_v5", "protocol": "nfsv3", "nconnect": 1 }
    });
    let id = save_scenario(base, &scenario).await?;
    import_fio(c, base, id).await?;
    wait_for(
        c,
        "!document.getElementById('m-calibrate').hidden",
        "the refit button once a run is imported",
    )
    .await?;
    let (before, _) = headline(c).await?;
    c.find(Locator::Id("m-calibrate")).await?.click().await?;
    wait_for(
        c,
        "document.getElementById('m-status').textContent.includes('Calibrated to 1 measured run') && !!document.getElementById('calibration-note') && !document.getElementById('results').classList.contains('stale')",
        "the refit and the results recalculated with it",
    )
    .await?;
    let (calibrated, calibrated_range) = headline(c).await?;
    assert_ne!(before, calibrated, "the refit moves the prediction");

    // nconnect 8: the prediction and its range move, from the refitted parameters.
    js(
        c,
        "(() => { const n = document.querySelector('[name=\"clients.nconnect\"]'); n.value = '8'; n.dispatchEvent(new Event('input', { bubbles: true })); return true; })()",
    )
    .await?;
    wait_for(
        c,
        &format!(
            "document.getElementById('kpi-mibps-range').textContent !== {} && !document.getElementById('results').classList.contains('stale')",
            serde_json::json!(calibrated_range)
        ),
        "the range after nconnect 8",
    )
    .await?;
    let (eight, eight_range) = headline(c).await?;
    assert_ne!(eight, calibrated, "nconnect 8 moves the prediction");
    assert_ne!(eight_range, calibrated_range, "and its likely range");
    assert!(
        js(c, "!!document.getElementById('calibration-note')").await? == serde_json::json!(true),
        "still evaluated with the calibration"
    );

    // The saved scenario's report says what moved, as the page's verdict does.
    let md = js(
        c,
        &format!(
            "(async () => {{ const r = await fetch('/scenarios/{id}/report.md'); return await r.text(); }})()"
        ),
    )
    .await?;
    let md = md.as_str().unwrap_or_default();
    assert!(md.contains("Calibrated to 1 measured run"), "{md}");
    Ok(())
}

/// The generated test plan writes one result file per client: choosing them together
/// stores one run on both clients, measured against predicted.
pub async fn per_client_files_journey(c: &Client, base: &str) -> Res {
    let scenario = serde_json::json!({
        "name": "Two clients",
        "workload": { "io_size_kib": 256, "read_pct": 0, "access": "sequential",
                      "threads": 2, "queue_depth": 8, "capacity_tib": 50 },
        "storage": { "service": "anf", "level": "ultra",
                     "volumes": [ { "count": 1, "quota_tib": 50 } ] },
        "clients": { "count": 2, "vm_size": "Standard_E32s_v5", "protocol": "nfsv3", "nconnect": 1 }
    });
    let id = save_scenario(base, &scenario).await?;
    c.goto(&format!("{base}/scenarios/{id}")).await?;
    wait_for(c, "!!document.getElementById('m-drop')", "the drop zone").await?;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import");
    let files = [
        "fio-3.36-several-files-vm1.json",
        "fio-3.36-several-files-vm2.json",
    ]
    .map(|f| dir.join(f).display().to_string())
    .join("\n");
    c.find(Locator::Css("#m-file"))
        .await?
        .send_keys(&files)
        .await?;
    wait_for(
        c,
        "document.getElementById('m-status').textContent.includes('run(s) added') && document.querySelectorAll('#m-table tbody tr').length > 0",
        "the combined run in the table",
    )
    .await?;
    let status = js(c, "document.getElementById('m-status').textContent").await?;
    let status = status.as_str().unwrap_or_default().to_owned();
    assert!(
        status.contains("vm1.json, ") && status.contains("vm2.json: 1 run(s) added"),
        "one run from both files: {status}"
    );
    let rows = js(c, "document.querySelectorAll('#m-table tbody tr').length").await?;
    assert_eq!(rows, serde_json::json!(1), "one combined run");
    let points = js(
        c,
        "document.querySelectorAll('#m-chart .measured-point').length",
    )
    .await?;
    assert_eq!(
        points,
        serde_json::json!(1),
        "measured against predicted on the chart"
    );
    let runs = js(
        c,
        &format!("(async () => {{ const r = await fetch('/api/v1/scenarios/{id}/measurements'); return await r.json(); }})()"),
    )
    .await?;
    assert_eq!(runs[0]["measurement"]["clients"], 2, "{runs}");
    assert!(
        runs[0]["comparison"]["predicted_mibps"]
            .as_f64()
            .unwrap_or(0.0)
            > 0.0
    );
    Ok(())
}
