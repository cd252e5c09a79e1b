//! Messages and outputs as a user meets them: a pasted over-long name gets the same
//! message box as every other input and is not cut; a region typo gets a "did you
//! mean" with the region's name; the advisor's fstab shows its first line whole; the
//! history says what each revision changed.

use super::{Res, js, wait_for};
use fantoccini::{Client, Locator};

/// The colour, size and visibility of a message box, to compare two of them.
fn look(id: &str) -> String {
    format!(
        "(() => {{ const e = document.getElementById('{id}'); const s = getComputedStyle(e); return [s.color, s.fontSize, s.display !== 'none' && e.getBoundingClientRect().height > 0, e.textContent]; }})()"
    )
}

pub async fn messages_journey(c: &Client, base: &str) -> Res {
    c.set_window_size(1400, 900).await?;
    c.goto(&format!("{base}/scenarios/new")).await?;
    c.wait().for_element(Locator::Css("#kpi-mibps")).await?;
    // A paste of 5,000 characters: the input keeps all of them and says what is wrong.
    js(
        c,
        "(() => { const n = document.getElementById('f-name'); n.value = 'N'.repeat(5000); n.dispatchEvent(new Event('input', { bubbles: true })); const r = document.getElementById('f-workload.read_pct'); r.value = '140'; r.dispatchEvent(new Event('input', { bubbles: true })); return true; })()",
    )
    .await?;
    wait_for(
        c,
        "document.getElementById('e-name').textContent.includes('200 characters') && document.getElementById('e-workload.read_pct').textContent !== ''",
        "both messages",
    )
    .await?;
    let length = js(c, "document.getElementById('f-name').value.length").await?;
    assert_eq!(
        length,
        serde_json::json!(5000),
        "the pasted name is not cut"
    );
    let name = js(c, &look("e-name")).await?;
    let other = js(c, &look("e-workload.read_pct")).await?;
    assert_eq!(name[0], other[0], "same colour as the other messages");
    assert_eq!(name[1], other[1], "same size as the other messages");
    assert_eq!(name[2], serde_json::json!(true), "the name's message shows");
    let marked = js(
        c,
        "[getComputedStyle(document.getElementById('e-name'), '::before').content, getComputedStyle(document.querySelector('.field.has-error .error'), '::before').content]",
    )
    .await?;
    assert_eq!(marked[0], marked[1], "the same mark before both messages");

    // A region typo: "did you mean" with the region's name and id, quoted as prose.
    js(
        c,
        "(() => { const r = document.getElementById('f-region'); r.value = 'westeurop'; r.dispatchEvent(new Event('input', { bubbles: true })); return true; })()",
    )
    .await?;
    wait_for(
        c,
        "document.getElementById('e-region').textContent.includes('Did you mean West Europe (westeurope)?')",
        "the region's did-you-mean",
    )
    .await?;
    let said = js(c, "document.getElementById('e-region').textContent").await?;
    let said = said.as_str().unwrap_or_default();
    assert!(
        said.contains("“westeurop”") && !said.contains('`') && !said.contains("/api/"),
        "{said}"
    );

    // The advisor's recommended fstab at a phone's width: the first line is there,
    // whole and in view.
    c.set_window_size(390, 900).await?;
    c.goto(&format!("{base}/advisor")).await?;
    let first = "10.0.0.4:/volume1 /mnt/volume1 nfs rw,hard,vers=3 0 0";
    c.find(Locator::Css("#f-text"))
        .await?
        .send_keys(&format!(
            "{first}\n10.0.0.4:/volume2 /mnt/volume2 nfs rw,hard 0 0"
        ))
        .await?;
    c.find(Locator::Css(".advisor-form button[type=submit]"))
        .await?
        .click()
        .await?;
    c.wait().for_element(Locator::Css("#fstab")).await?;
    let shown = js(
        c,
        "(() => { const pre = document.getElementById('fstab'); const code = pre.querySelector('code'); const line = code.querySelector('.line').firstChild; const r = document.createRange(); r.setStart(line, 0); r.setEnd(line, line.length); const box = pre.getBoundingClientRect(); const inside = [...r.getClientRects()].every(g => g.top >= box.top && g.bottom <= box.bottom && g.left >= box.left && g.right <= box.right); return [code.textContent.split('\\n')[0], inside && pre.scrollWidth <= pre.clientWidth]; })()",
    )
    .await?;
    let line = shown[0].as_str().unwrap_or_default();
    assert!(
        line.starts_with("10.0.0.4:/volume1 /mnt/volume1 nfs rw,hard,vers=3,"),
        "{line}"
    );
    assert_eq!(
        shown[1],
        serde_json::json!(true),
        "the first line is whole in view"
    );
    Ok(())
}

/// Saves a scenario, changes the IO size and saves again: the history's newest row
/// says what changed, and the revision diff API gives the same change.
pub async fn history_journey(c: &Client, base: &str) -> Res {
    c.set_window_size(1400, 900).await?;
    c.goto(&format!("{base}/scenarios/new?template=avs-datastores"))
        .await?;
    c.wait().for_element(Locator::Css("#kpi-mibps")).await?;
    let save = "button[formaction=\"/scenarios\"]";
    c.find(Locator::Css(save)).await?.click().await?;
    wait_for(
        c,
        "/\\/scenarios\\/\\d+/.test(location.pathname)",
        "the saved scenario's page",
    )
    .await?;
    let path = js(c, "location.pathname").await?;
    let path = path.as_str().unwrap_or_default().to_owned();
    let io = c
        .find(Locator::Css("[name=\"workload.io_size_kib\"]"))
        .await?;
    io.clear().await?;
    io.send_keys("8").await?;
    wait_for(
        c,
        "!document.getElementById('results').classList.contains('stale')",
        "the results of the edit",
    )
    .await?;
    // Saving an existing scenario adds a revision.
    c.find(Locator::Css(&format!("button[formaction=\"{path}\"]")))
        .await?
        .click()
        .await?;
    wait_for(
        c,
        "document.getElementById('plan-status') && document.getElementById('plan-status').textContent.includes('Saved')",
        "the second save",
    )
    .await?;
    c.find(Locator::Css("#history summary"))
        .await?
        .click()
        .await?;
    let newest = js(
        c,
        "document.querySelector('#history tbody tr .changes').textContent",
    )
    .await?;
    let newest = newest.as_str().unwrap_or_default().to_owned();
    assert!(newest.contains("IO size"), "the newest row: {newest}");
    assert!(newest.contains('8'), "the newest row: {newest}");
    // The same change through the API.
    let id = path.trim_start_matches("/scenarios/");
    let diff = js(
        c,
        &format!(
            "(async () => {{ const r = await fetch('/api/v1/scenarios/{id}/revisions/2/diff'); return JSON.stringify(await r.json()); }})()"
        ),
    )
    .await?;
    let diff = diff.as_str().unwrap_or_default();
    assert!(diff.contains("workload.io_size_kib"), "{diff}");
    Ok(())
}
