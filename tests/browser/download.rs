//! The Download menu after Apply: the form holds an applied recommendation that is not
//! saved, so the menu warns that the saved reports are of the last saved revision and
//! offers the report of the form as it is (through the share link's inputs); that
//! report carries the applied values, the saved one does not. Both editions are listed.

use super::verdict::click;
use super::{Res, js, value_of, wait_for};
use fantoccini::{Client, Locator};
use serde_json::Value;

/// Fetches `href` in the page (same origin, the browser's session) and answers its text.
async fn fetch_text(c: &Client, href: &str) -> Res<String> {
    let text = c
        .execute_async(
            "const done = arguments[arguments.length - 1]; \
             fetch(arguments[0]).then(r => r.ok ? r.text() : 'HTTP ' + r.status) \
             .then(done, e => done('failed: ' + e));",
            vec![Value::String(href.to_owned())],
        )
        .await?;
    Ok(text.as_str().unwrap_or("").to_owned())
}

pub async fn unsaved_download_journey(c: &Client, base: &str) -> Res {
    let scenario: Value = serde_json::from_str(include_str!("../fixtures/report/contract.json"))?;
    let res = reqwest::Client::new()
        .post(format!("{base}/api/v1/scenarios"))
        .json(&scenario)
        .send()
        .await?;
    let id = res.json::<Value>().await?["id"]
        .as_i64()
        .ok_or("a saved scenario")?;
    c.goto(&format!("{base}/scenarios/{id}")).await?;
    c.wait().for_element(Locator::Css("#verdict")).await?;
    let saved_level = value_of(c, "storage.level").await?;

    // Saved and untouched: no warning; both editions of the saved report are offered.
    click(c, ".plan-actions details.menu:not(.history) > summary").await?;
    let hidden = js(c, "document.getElementById('unsaved-reports').hidden").await?;
    assert_eq!(hidden, Value::Bool(true), "no warning before any edit");
    for href in [
        format!("/scenarios/{id}/report.pdf"),
        format!("/scenarios/{id}/report.pdf?edition=engineer"),
        format!("/scenarios/{id}/report.json?edition=engineer"),
    ] {
        c.find(Locator::Css(&format!("a[href=\"{href}\"]")))
            .await
            .map_err(|_| format!("the menu offers {href}"))?;
    }
    click(c, ".plan-actions details.menu:not(.history) > summary").await?;

    // Apply: the form holds the recommendation, unsaved.
    click(c, "#apply-recommendation").await?;
    wait_for(
        c,
        "location.pathname === '/scenarios/evaluate' && !!document.getElementById('verdict') \
         && document.getElementById('plan-status').classList.contains('dirty')",
        "the recommendation applied, not saved",
    )
    .await?;
    let level = value_of(c, "storage.level").await?;
    let per_volume = value_of(c, "storage.volumes[0].throughput_mibps").await?;
    assert_ne!(level, saved_level, "Apply changed the level");

    // The Download menu warns, and its unsaved report holds the applied values.
    click(c, ".plan-actions details.menu:not(.history) > summary").await?;
    let warning = c.find(Locator::Id("unsaved-warning")).await?;
    assert!(warning.is_displayed().await?, "the warning shows");
    let text = warning.text().await?;
    assert!(text.contains("unsaved changes"), "{text}");
    let href = c
        .find(Locator::Css(
            "#unsaved-reports a[data-report=\"md\"]:not([data-edition])",
        ))
        .await?
        .attr("href")
        .await?
        .ok_or("the unsaved report's link")?;
    assert!(href.starts_with("/plan/report.md?s="), "{href}");
    let unsaved = fetch_text(c, &href).await?;
    let level_name = js(
        c,
        "document.querySelector('select[name=\"storage.level\"]').selectedOptions[0].textContent",
    )
    .await?;
    // The report's subtitle names the service and level: "Azure NetApp Files Flexible, ...".
    let subtitle = format!(
        "Azure NetApp Files {},",
        level_name.as_str().unwrap_or("").trim()
    );
    assert!(
        unsaved.contains(&subtitle),
        "the unsaved report is of {subtitle}: {}",
        &unsaved[..unsaved.len().min(600)]
    );
    let assigned = volplan::format::num(per_volume.parse::<f64>()?, 2);
    assert!(
        unsaved.contains(&assigned),
        "the unsaved report has the applied {assigned} MiB/s per volume"
    );
    let saved = fetch_text(c, &format!("/scenarios/{id}/report.md")).await?;
    assert!(
        !saved.contains(&subtitle) && saved.contains("Azure NetApp Files Ultra,"),
        "the saved report is of the saved revision"
    );
    // The PDF of the unsaved inputs downloads too, in both editions.
    for css in [
        "#unsaved-reports a[data-report=\"pdf\"]:not([data-edition])",
        "#unsaved-reports a[data-report=\"pdf\"][data-edition=\"engineer\"]",
    ] {
        let href = c
            .find(Locator::Css(css))
            .await?
            .attr("href")
            .await?
            .ok_or("a PDF link")?;
        let head = fetch_text(c, &href).await?;
        assert!(
            head.starts_with("%PDF"),
            "{css}: {}",
            &head[..head.len().min(80)]
        );
    }
    Ok(())
}
