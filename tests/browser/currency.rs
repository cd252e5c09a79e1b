//! The planner's currency control: with a price sheet export in euros stored, a
//! dollar scenario in West Europe switched to EUR shows its figures in euros with the
//! sheet's date in the price note; Save keeps EUR, and the reopened page still offers
//! it chosen.

use super::verdict::click;
use super::{Res, choose, js, save_volume, value_of, wait_for};
use fantoccini::Client;

pub async fn currency_journey(c: &Client, base: &str) -> Res {
    let sheet = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/prices/pricesheet-ea-eur.csv"),
    )?;
    let res = reqwest::Client::new()
        .post(format!("{base}/api/v1/prices/sheet"))
        .header("content-type", "text/csv")
        .body(sheet)
        .send()
        .await?;
    if !res.status().is_success() {
        return Err(format!("the sheet was refused: {}", res.text().await?).into());
    }
    let id = save_volume(base, "Euro plan", "premium", Some("westeurope")).await?;
    c.goto(&format!("{base}/scenarios/{id}")).await?;
    wait_for(c, "!!document.getElementById('kpi-mibps')", "the results").await?;
    assert_eq!(value_of(c, "pricing.currency").await?, "USD");
    let options = js(
        c,
        "[...document.querySelector('[name=\"pricing.currency\"]').options].map(o => o.value).join(',')",
    )
    .await?;
    assert_eq!(options, "USD,EUR", "the book's currencies are offered");
    choose(c, "pricing.currency", "EUR").await?;
    wait_for(
        c,
        "document.querySelector('#results').textContent.includes('as of 1 November 2026') \
         && document.querySelector('#results').textContent.includes('€') \
         && !document.querySelector('#results').textContent.includes('Indicative list prices')",
        "the euro figures with the sheet's date",
    )
    .await?;
    click(c, "button.primary[formaction]").await?;
    wait_for(
        c,
        "document.body.textContent.includes('Saved as revision 2')",
        "the save",
    )
    .await?;
    assert_eq!(value_of(c, "pricing.currency").await?, "EUR");
    let saved: serde_json::Value = reqwest::get(format!("{base}/api/v1/scenarios/{id}"))
        .await?
        .json()
        .await?;
    assert_eq!(saved["pricing"]["currency"], "EUR", "{saved}");
    Ok(())
}
