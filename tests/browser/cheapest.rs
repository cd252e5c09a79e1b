//! The cheapest answer assigns by load: the AVS template as 20 x 4 TiB Flexible
//! datastores with 513 MiB/s each (what an even assignment needs, the 4 busiest
//! carrying 4 of the 64 VMDKs) gets a recommendation that assigns more to the busiest
//! and costs less; Apply fills in both volume groups, Save keeps them, and the saved
//! scenario's report prints the page's recommendation.

use super::verdict::{click, form_scenario, judge_form, provisioning, texts};
use super::{Res, js, value_of, wait_for};
use fantoccini::{Client, Locator};

/// Types `text` into the input `name`.
async fn type_into(c: &Client, name: &str, text: &str) -> Res {
    let field = c.find(Locator::Css(&format!("[name=\"{name}\"]"))).await?;
    field.clear().await?;
    field.send_keys(text).await?;
    Ok(())
}

pub async fn cheapest_journey(c: &Client, base: &str) -> Res {
    c.goto(&format!("{base}/scenarios/new?template=avs-datastores"))
        .await?;
    c.wait().for_element(Locator::Css("#verdict")).await?;
    c.find(Locator::Css("select[name=\"storage.level\"]"))
        .await?
        .select_by_value("flexible")
        .await?;
    type_into(c, "storage.volumes[0].count", "20").await?;
    type_into(c, "storage.volumes[0].quota_tib", "4").await?;
    type_into(c, "storage.volumes[0].throughput_mibps", "513").await?;
    wait_for(
        c,
        "!document.getElementById('results').classList.contains('stale') \
         && (document.querySelector('#recommendation .recommendation-text') || {}).textContent \
              .includes(' + ')",
        "the uneven recommendation",
    )
    .await?;
    let (even, judged) = judge_form(c, base).await?;
    assert_eq!(even["storage"]["level"], "flexible");
    assert_eq!(even["storage"]["volumes"][0]["throughput_mibps"], 513.0);
    let rec = judged["verdict"]["recommendation"].clone();
    let groups = rec["volumes"].as_array().cloned().unwrap_or_default();
    assert_eq!(groups.len(), 2, "{rec}");
    assert_eq!(groups[0]["count"], 4, "the 4 busiest first: {rec}");
    assert!(
        groups[0]["throughput_mibps"].as_f64() > groups[1]["throughput_mibps"].as_f64(),
        "{rec}"
    );
    let even_cost = judged["cost"]["monthly"].as_f64().unwrap_or(0.0);
    assert!(
        rec["monthly"].as_f64().unwrap_or(f64::INFINITY) < even_cost,
        "cheaper than the even assignment: {rec}"
    );
    assert_eq!(
        texts(c, "#recommendation .recommendation-text").await?,
        [rec["statement"].as_str().unwrap_or("").to_owned()]
    );

    // Apply: both groups in the form, unsaved.
    click(c, "#apply-recommendation").await?;
    wait_for(
        c,
        "location.pathname === '/scenarios/evaluate' && !!document.getElementById('verdict') \
         && document.getElementById('plan-status').classList.contains('dirty')",
        "the recommendation applied, not saved",
    )
    .await?;
    let applied = form_scenario(c).await?;
    assert_eq!(provisioning(&applied["storage"]), provisioning(&rec));
    let busiest = value_of(c, "storage.volumes[0].throughput_mibps").await?;
    let others = value_of(c, "storage.volumes[1].throughput_mibps").await?;
    assert_ne!(busiest, others);

    // Save, reload: kept, and the report prints the page's recommendation.
    click(c, "button.primary[formaction=\"/scenarios\"]").await?;
    wait_for(
        c,
        "/\\/scenarios\\/\\d+/.test(location.pathname)",
        "the saved scenario",
    )
    .await?;
    let id: i64 = js(c, "location.pathname.split('/').pop()")
        .await?
        .as_str()
        .unwrap_or("")
        .parse()?;
    c.refresh().await?;
    c.wait().for_element(Locator::Css("#verdict")).await?;
    assert_eq!(
        value_of(c, "storage.volumes[0].throughput_mibps").await?,
        busiest
    );
    assert_eq!(
        value_of(c, "storage.volumes[1].throughput_mibps").await?,
        others
    );
    let line = texts(c, "#recommendation .recommendation-text").await?;
    assert_eq!(line.len(), 1, "a recommendation line: {line:?}");
    assert!(line[0].contains(" + "), "{}", line[0]);
    let report = js(
        c,
        &format!(
            "(async () => {{ const r = await fetch('/scenarios/{id}/report.md'); return await r.text(); }})()"
        ),
    )
    .await?;
    let report = report.as_str().unwrap_or("");
    assert!(report.contains(&line[0]), "the report prints “{}”", line[0]);
    Ok(())
}
