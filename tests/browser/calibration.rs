//! Calibration to one's own runs, as a user meets it: import a fio result into a saved
//! scenario, refit the model to it, change nconnect and see the prediction and its
//! likely range move from the refitted parameters, and find what moved in the report.

use super::{Res, import_fio, js, save_scenario, wait_for};
use fantoccini::{Client, Locator};

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
        "document.getElementById('m-status').textContent.includes('Refitted to 1 run') && !!document.getElementById('calibration-note') && !document.getElementById('results').classList.contains('stale')",
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
