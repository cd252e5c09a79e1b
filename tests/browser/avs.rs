//! The AVS page as a new user meets it on a phone: upload an inventory, the page asks
//! for the region; choosing one marks the host list at once; the plan shows with its
//! verdict (a region without the host's price: the hosts planned, the cost marked
//! missing); a wrong value is marked beside its field and stays as typed. At 390 px
//! nothing scrolls sideways and every target is at least 24 x 24 px.

use super::widths::{FITS, OVERFLOW, SMALL_TARGETS};
use super::{Res, free_port, js, wait_for};
use fantoccini::{Client, Locator};
use std::path::Path;

/// The text of element `id` ("" when there is none).
fn text_of(id: &str) -> String {
    format!("(document.getElementById('{id}') || {{ textContent: '' }}).textContent")
}

/// The text and disabled state of host option `sku`, "text|disabled".
fn host(sku: &str) -> String {
    format!(
        "(o => o.textContent + '|' + o.disabled)(document.querySelector('#f-host_sku option[value=\"{sku}\"]'))"
    )
}

/// Chooses `value` in select `name` as a user does: the value, then its change event.
async fn choose(c: &Client, name: &str, value: &str) -> Res {
    js(
        c,
        &format!(
            "(s => {{ s.value = '{value}'; s.dispatchEvent(new Event('change', {{ bubbles: true }})); return true; }})(document.getElementById('f-{name}'))"
        ),
    )
    .await?;
    Ok(())
}

/// The page fits 390 px and its targets are big enough; else the culprits.
async fn fits_a_phone(c: &Client, what: &str) -> Res {
    if wait_for(c, FITS, "no sideways scrolling").await.is_err() {
        let culprits = js(c, OVERFLOW).await?;
        return Err(format!("{what} scrolls sideways at 390 px: {culprits}").into());
    }
    let small = js(c, SMALL_TARGETS).await?;
    assert_eq!(small, serde_json::json!(""), "{what}: small targets");
    Ok(())
}

/// Uploads the inventory `csv` with the page's form (the AVS page is open) and waits
/// for its summary.
pub async fn upload(c: &Client, csv: &str) -> Res {
    let file = std::env::temp_dir().join(format!("volplan-inventory-{}.csv", free_port()));
    std::fs::write(&file, csv)?;
    c.find(Locator::Css("#f-file"))
        .await?
        .send_keys(&file.display().to_string())
        .await?;
    c.find(Locator::Css("#avs-import")).await?.click().await?;
    let shown = wait_for(
        c,
        "!!document.getElementById('avs-summary')",
        "the inventory summary",
    )
    .await;
    let _ = std::fs::remove_file(&file);
    shown.map(|_| ())
}

pub async fn avs_form_journey(c: &Client, base: &str) -> Res {
    let mut text = String::from("VM,Powerstate,Template,CPUs,Memory,Provisioned MiB,In Use MiB\n");
    for i in 0..24u32 {
        text += &format!("app-{i:02},poweredOn,False,8,32768,600000,400000\n");
    }
    c.set_window_size(390, 900).await?;
    c.goto(&format!("{base}/avs")).await?;
    fits_a_phone(c, "the upload form").await?;
    upload(c, &text).await?;

    // The page asks for the region and plans nothing before it has one.
    assert_eq!(
        js(c, "document.getElementById('f-region').value").await?,
        ""
    );
    assert_eq!(js(c, "!!document.getElementById('avs-tco')").await?, false);
    assert_eq!(
        js(c, &host("AV48")).await?,
        "AV48: 48 cores, 1,024 GB|false"
    );
    fits_a_phone(c, "the inventory and its options").await?;

    // Portable VCF (the default) offers AV36P first; AV36 has no VCF BYOL price
    // anywhere. With VMware licences included and AV36 chosen:
    assert_eq!(
        js(c, "document.getElementById('f-host_sku').value").await?,
        "AV36P"
    );
    choose(c, "vcf", "included").await?;
    choose(c, "host_sku", "AV36").await?;

    // Choosing West Europe marks the hosts it has no price for, at once.
    choose(c, "region", "westeurope").await?;
    wait_for(
        c,
        &format!("{} === 'AV48 — no price in West Europe|true'", host("AV48")),
        "the host list marked for West Europe",
    )
    .await?;
    assert_eq!(
        js(c, &host("AV36")).await?,
        "AV36 — no price in West Europe|false",
        "the chosen host stays choosable"
    );
    assert_eq!(
        js(c, &host("AV64")).await?,
        "AV64: 64 cores, 1,024 GB|false"
    );

    // Plan: the hosts are planned, the cost is marked missing, the verdict says so.
    c.find(Locator::Css("#avs-plan")).await?.click().await?;
    wait_for(
        c,
        &format!(
            "{}.includes(' datastores on 3 AV36 hosts')",
            text_of("avs-headline")
        ),
        "the plan in West Europe",
    )
    .await?;
    let saving = js(c, &text_of("avs-saving")).await?;
    assert!(
        saving.as_str().unwrap_or("").starts_with("No host cost: "),
        "{saving}"
    );
    assert_eq!(
        js(c, "!!document.getElementById('avs-cost-missing')").await?,
        true
    );
    assert_eq!(
        js(c, &host("AV48")).await?,
        "AV48 — no price in West Europe|true",
        "the page marks the list as the script did"
    );
    fits_a_phone(c, "a plan without a host price").await?;

    // A priced host: the cost verdict at the term bought.
    choose(c, "host_sku", "AV64").await?;
    c.find(Locator::Css("#avs-plan")).await?.click().await?;
    wait_for(
        c,
        &format!(
            "{}.startsWith('At 3-year reserved: ')",
            text_of("avs-saving")
        ),
        "the cost verdict for AV64",
    )
    .await?;
    assert_eq!(
        js(c, "!!document.getElementById('avs-cost-missing')").await?,
        false
    );
    let headline = js(c, &text_of("avs-headline")).await?;
    assert!(
        headline
            .as_str()
            .unwrap_or("")
            .contains(" AV64 hosts with ANF"),
        "{headline}"
    );
    fits_a_phone(c, "the plan").await?;
    // The form and the verdict as docs/avs.md shows them.
    js(
        c,
        "(document.getElementById('avs-options').scrollIntoView(), true)",
    )
    .await?;
    let png = c.screenshot().await?;
    std::fs::write(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/avs-phone.png"),
        png,
    )?;

    // A wrong value: its message beside it, what was typed kept, no plan.
    let growth = c.find(Locator::Css("#f-growth_pct")).await?;
    growth.clear().await?;
    growth.send_keys("twenty").await?;
    c.find(Locator::Css("#avs-plan")).await?.click().await?;
    wait_for(
        c,
        &format!("{}.includes('enter a number')", text_of("e-growth_pct")),
        "the growth's message",
    )
    .await?;
    assert_eq!(
        js(
            c,
            "document.getElementById('f-growth_pct').getAttribute('aria-invalid')"
        )
        .await?,
        "true"
    );
    assert_eq!(
        js(c, "document.getElementById('f-growth_pct').value").await?,
        "twenty"
    );
    assert_eq!(js(c, "!!document.getElementById('avs-tco')").await?, false);
    fits_a_phone(c, "the form with a message").await?;
    c.set_window_size(1440, 1000).await?;
    Ok(())
}
