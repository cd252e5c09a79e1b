//! Every page at a phone's width (390 px) and a desktop's (1400 px): nothing scrolls
//! sideways. Leaving the planner with edits asks first. The phone screenshots of docs/.

use super::{Res, input, js, save_scenario, save_volume, wait_for};
use fantoccini::{Client, Locator};
use std::path::Path;

/// The elements that stick out past the viewport's right edge, as `tag.class#id` (the
/// first few), so a failure names what to fix.
pub const OVERFLOW: &str = "(() => { const cw = document.documentElement.clientWidth; const clipped = e => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) { if (getComputedStyle(p).overflowX !== 'visible') return true; } return false; }; return [...document.querySelectorAll('body *')].filter(e => { const r = e.getBoundingClientRect(); return r.right > cw + 0.5 && (!clipped(e) || getComputedStyle(e).position === 'absolute'); }).slice(0, 8).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (typeof e.className === 'string' && e.className ? '.' + e.className.trim().replace(/ +/g, '.') : '') + ' ' + Math.round(e.getBoundingClientRect().right) + (e.parentElement ? ' in ' + e.parentElement.tagName.toLowerCase() + '.' + e.parentElement.className : '')).join(', '); })()";

/// True when the page does not scroll sideways.
pub const FITS: &str =
    "document.documentElement.scrollWidth <= document.documentElement.clientWidth";

/// A synthetic `beforeunload`: true when the page asks before it is left.
const ASKS: &str = "(() => { const e = new Event('beforeunload', { cancelable: true }); window.dispatchEvent(e); return e.defaultPrevented; })()";

/// Interactive elements smaller than 24 x 24 px (WCAG 2.2, 2.5.8), as `tag name WxH`;
/// a link inside running text (a sentence, a caption, a label) is exempt, as the
/// criterion's inline exception says, and so is a screen-reader-only control.
pub const SMALL_TARGETS: &str = "(() => [...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')].filter(e => { const r = e.getBoundingClientRect(); if (r.width <= 1 || r.height <= 1) return false; if (getComputedStyle(e).visibility === 'hidden') return false; if (e.tagName === 'A' && e.closest('p, li, caption, figcaption, label, h1, h2, h3, dd, .meta, .note, .menu-note, footer, pre')) return false; return r.width < 23.5 || r.height < 23.5; }).slice(0, 8).map(e => { const r = e.getBoundingClientRect(); return e.tagName.toLowerCase() + ' ' + (e.name || e.id || e.textContent.trim().slice(0, 24)) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height); }).join(', '))()";

/// The pages and what each must show before it is measured.
fn pages(a: i64, b: i64, protected: i64) -> Vec<(&'static str, String, &'static str)> {
    let planner = "#kpi-mibps";
    vec![
        ("home", "/".to_owned(), "main"),
        (
            "planner (ANF)",
            "/scenarios/new?template=anf-large-volume".to_owned(),
            planner,
        ),
        (
            "planner (Azure Files)",
            "/scenarios/new?template=azure-files-smb-multichannel".to_owned(),
            planner,
        ),
        (
            "planner (GCNV)",
            "/scenarios/new?template=gcnv-nconnect-16".to_owned(),
            planner,
        ),
        (
            "planner (AVS)",
            "/scenarios/new?template=avs-datastores".to_owned(),
            planner,
        ),
        ("layouts", "/layouts".to_owned(), "#layouts-table"),
        (
            "compare",
            format!("/compare?id={a}&id={b}"),
            "#compare-table",
        ),
        ("what-if", "/whatif".to_owned(), "main"),
        ("advisor", "/advisor".to_owned(), "main"),
        ("estates", "/estates".to_owned(), "#new-estate"),
        ("AVS", "/avs".to_owned(), "#avs-upload"),
        ("live estate", "/live".to_owned(), "#live-upload"),
        ("check code", "/iac".to_owned(), "#iac-check"),
        ("prices", "/prices".to_owned(), "main"),
        ("measurements", format!("/scenarios/{a}"), "#m-drop"),
        (
            "planner (backup, replication)",
            format!("/scenarios/{protected}"),
            "table.cost-lines",
        ),
        (
            "sizing report (HTML, compared, layouts)",
            format!("/scenarios/{a}/report.html?compare={b}&layouts=1,2,4"),
            "#kpi-throughput_mibps",
        ),
    ]
}

/// Screenshots for docs/ at phone width: (file, page).
const SHOTS: [(&str, &str); 3] = [
    ("planner-phone.png", "planner (AVS)"),
    ("layouts-phone.png", "layouts"),
    ("compare-phone.png", "compare"),
];

pub async fn widths_journey(c: &Client, base: &str) -> Res {
    let a = save_volume(base, "Width check Ultra", "ultra", None).await?;
    let b = save_volume(base, "Width check Premium", "premium", None).await?;
    let protected = save_protected(base).await?;
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    std::fs::create_dir_all(&docs)?;
    let mut small = Vec::new();
    for width in [390u32, 1400] {
        c.set_window_size(width, 900).await?;
        for (name, path, ready) in pages(a, b, protected) {
            c.goto(&format!("{base}{path}")).await?;
            c.wait().for_element(Locator::Css(ready)).await?;
            wait_for(c, "document.readyState === 'complete'", "the page loads").await?;
            if width == 390 && name == "planner (ANF)" {
                // Editing at the top: the answer sits at the bottom of the screen; once
                // the results come into view it steps aside.
                js(c, "(window.scrollTo(0, 0), true)").await?;
                wait_for(
                    c,
                    "(() => { const p = document.getElementById('phone-summary'); if (!p || p.hidden) return false; const r = p.getBoundingClientRect(); return /MiB\\/s/.test(p.textContent) && /a month/.test(p.textContent) && Math.abs(r.bottom - window.innerHeight) < 2; })()",
                    "the phone summary at the bottom of the screen",
                )
                .await?;
                js(
                    c,
                    "(document.getElementById('results').scrollIntoView(), true)",
                )
                .await?;
                wait_for(
                    c,
                    "document.getElementById('phone-summary').hidden",
                    "the phone summary to step aside for the results",
                )
                .await?;
            }
            if width == 390 && !name.starts_with("sizing report") {
                let found = js(c, SMALL_TARGETS).await?;
                if found != serde_json::json!("") {
                    small.push(format!("{name}: {found}"));
                }
            }
            if wait_for(c, FITS, "no sideways scrolling").await.is_err() {
                let culprits = js(c, OVERFLOW).await?;
                // The elements whose removal ends the sideways scroll, innermost last.
                let hiding = js(c, "(() => { const d = document.documentElement; const out = []; for (const e of document.querySelectorAll('main *')) { const old = e.style.display; e.style.display = 'none'; if (d.scrollWidth <= d.clientWidth) out.push(e.tagName.toLowerCase() + '.' + (typeof e.className === 'string' ? e.className : '') + '#' + e.id); e.style.display = old; } return out.slice(-5).join(' | '); })()").await?;
                let sizes = js(
                    c,
                    "[document.documentElement.scrollWidth, document.documentElement.clientWidth]",
                )
                .await?;
                return Err(format!(
                    "{name} scrolls sideways at {width} px (scrollWidth, clientWidth = {sizes}); past the edge: {culprits}; fits without: {hiding}"
                )
                .into());
            }
            if name == "planner (backup, replication)" {
                // Phone: each cost line is a block of labelled figures; desktop: a table.
                let display = js(
                    c,
                    "getComputedStyle(document.querySelector('table.cost-lines td.n')).display",
                )
                .await?;
                let want = if width == 390 { "flex" } else { "table-cell" };
                assert_eq!(
                    display,
                    serde_json::json!(want),
                    "cost line figures at {width} px"
                );
            }
            if width == 390
                && let Some((file, _)) = SHOTS.iter().find(|(_, page)| *page == name)
            {
                std::fs::write(docs.join(file), c.screenshot().await?)?;
            }
        }
    }

    assert!(
        small.is_empty(),
        "tap targets under 24 x 24 px at 390 px:\n{}",
        small.join("\n")
    );

    // Leaving the planner: no question without edits, a question with them; saving is
    // not leaving.
    c.set_window_size(1400, 1000).await?;
    c.goto(&format!("{base}/scenarios/{a}")).await?;
    c.wait().for_element(Locator::Css("#kpi-mibps")).await?;
    assert_eq!(js(c, ASKS).await?, false, "no edits, no question");
    c.find(input("workload.read_pct"))
        .await?
        .send_keys("0")
        .await?;
    wait_for(c, ASKS, "the unsaved-changes question").await?;

    // The estate form asks too, once something is typed into it.
    c.goto(&format!("{base}/estates")).await?;
    c.wait().for_element(Locator::Css("#new-estate")).await?;
    assert_eq!(js(c, ASKS).await?, false, "an untouched estate form");
    c.find(Locator::Css("#f-name"))
        .await?
        .send_keys("Estate draft")
        .await?;
    wait_for(c, ASKS, "the estate form's unsaved-changes question").await?;
    Ok(())
}

/// A saved ANF scenario with backup and cross-region replication: its cost has the
/// most lines.
async fn save_protected(base: &str) -> Res<i64> {
    let scenario = serde_json::json!({
        "name": "Width check protected", "region": "westeurope",
        "workload": { "io_size_kib": 64, "read_pct": 70, "capacity_tib": 40 },
        "storage": { "service": "anf", "level": "flexible", "qos": "manual",
                     "cool_access": { "cool_data_pct": 50, "cool_read_pct": 5 },
                     "volumes": [ { "count": 1, "quota_tib": 50, "throughput_mibps": 1024 } ] },
        "clients": { "count": 1, "vm_size": "Standard_E32s_v5", "protocol": "nfsv3", "nconnect": 4 },
        "data_protection": { "snapshot_reserve_pct": 20, "daily_change_pct": 2,
                             "backup": { "daily": 7, "weekly": 4, "monthly": 12 },
                             "replication": "10min", "replication_region": "northeurope" }
    });
    save_scenario(base, &scenario).await
}
