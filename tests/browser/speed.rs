//! What a user feels in the planner: the load of a saved ANF scenario's page (navigation
//! start to the load event, median of 5) and keystroke to new figures (the page's own
//! `data-recalc-ms`, over 15 edits of the throughput target).
//!
//! Against the server of the test (a debug build) the bounds are loose guards against a
//! regression; `benches/planner_browser.sh` runs the same journey against the release
//! server (`VOLPLAN_BENCH_BASE`) and holds it to the product's bounds: p90 keystroke at
//! most 50 ms, page load at most 120 ms.

use super::{Res, input, js, save_scenario, wait_for};
use fantoccini::Client;

/// The figures of one run, in milliseconds.
pub struct Speed {
    pub page_ms: Vec<f64>,
    pub keystroke_ms: Vec<f64>,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

async fn measure(c: &Client, base: &str) -> Res<Speed> {
    let scenario = serde_json::json!({
        "name": "ANF 4 x 25 TiB Premium with targets",
        "workload": { "io_size_kib": 64, "read_pct": 70, "access": "random",
                      "threads": 8, "queue_depth": 16, "capacity_tib": 100,
                      "target_mibps": 3000, "target_iops": 40000, "target_latency_ms": 2 },
        "storage": { "service": "anf", "level": "premium",
                     "volumes": [ { "count": 4, "quota_tib": 25 } ] },
        "clients": { "count": 8, "vm_size": "Standard_E32s_v5", "protocol": "nfsv3", "nconnect": 4 }
    });
    let id = save_scenario(base, &scenario).await?;
    let url = format!("{base}/scenarios/{id}");
    let mut page_ms = Vec::new();
    for _ in 0..6 {
        c.goto(&url).await?;
        wait_for(
            c,
            "document.readyState === 'complete' && !!document.getElementById('kpi-mibps')",
            "the planner page",
        )
        .await?;
        let ms = js(
            c,
            "performance.getEntriesByType('navigation')[0].loadEventEnd - performance.getEntriesByType('navigation')[0].startTime",
        )
        .await?;
        page_ms.push(ms.as_f64().unwrap_or(f64::NAN));
    }
    page_ms.remove(0); // the first load warms the browser's cache of scripts and styles
    let field = c.find(input("workload.target_mibps")).await?;
    let mut keystroke_ms = Vec::new();
    for i in 0..15 {
        let count = js(
            c,
            "document.getElementById('results').getAttribute('data-recalcs')",
        )
        .await?;
        let value = 2000 + 250 * i;
        field.clear().await?;
        field.send_keys(&value.to_string()).await?;
        wait_for(
            c,
            &format!(
                "document.getElementById('results').getAttribute('data-recalcs') !== {count} \
                 && document.querySelector('[name=\"workload.target_mibps\"]').value === '{value}' \
                 && !document.getElementById('results').classList.contains('stale')"
            ),
            "the figures after an edit",
        )
        .await?;
        let ms = js(
            c,
            "Number(document.getElementById('results').getAttribute('data-recalc-ms'))",
        )
        .await?;
        keystroke_ms.push(ms.as_f64().unwrap_or(f64::NAN));
    }
    Ok(Speed {
        page_ms,
        keystroke_ms,
    })
}

/// Measures, prints the figures and holds them to `page_limit` and `keystroke_limit`.
pub async fn speed_journey(c: &Client, base: &str, page_limit: f64, keystroke_limit: f64) -> Res {
    let Speed {
        mut page_ms,
        mut keystroke_ms,
    } = measure(c, base).await?;
    page_ms.sort_by(f64::total_cmp);
    keystroke_ms.sort_by(f64::total_cmp);
    let page = percentile(&page_ms, 0.5);
    let (median, p90) = (
        percentile(&keystroke_ms, 0.5),
        percentile(&keystroke_ms, 0.9),
    );
    eprintln!(
        "planner of a saved ANF scenario with targets at {base}: page load median {page:.0} ms \
         (of {page_ms:?}); keystroke to figures over 15 edits: median {median:.0} ms, p90 {p90:.0} ms, \
         max {:.0} ms",
        keystroke_ms[keystroke_ms.len() - 1]
    );
    if page > page_limit {
        return Err(format!(
            "the planner page loads in {page:.0} ms (median), over {page_limit} ms"
        )
        .into());
    }
    if p90 > keystroke_limit {
        return Err(
            format!("keystroke to figures p90 {p90:.0} ms, over {keystroke_limit} ms").into(),
        );
    }
    Ok(())
}
