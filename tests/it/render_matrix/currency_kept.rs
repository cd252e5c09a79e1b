//! A scenario's currency through the planner form: prices from a Cost Management price
//! sheet export in euros, EUR chosen on the form, saved, a note edited on the page and
//! saved again: every report format's money stays in euros and the price note carries
//! the sheet's date; a dollar scenario elsewhere keeps the public list's date.

use super::{fetch, outputs};
use crate::helpers::{TestApp, fixture_text, sample_scenario, spawn_app};
use crate::pages::{form_pairs, post_form, saved_id, set};
use serde_json::{Value, json};
use volplan::report::Format;

/// The decoded text of an attribute or element body.
fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The value of attribute `name` in a tag's text.
fn attr(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    let end = tag[at..].find('"')?;
    Some(unescape(&tag[at..at + end]))
}

/// What the planner form of `html` submits, as a browser does: its inputs (ticked
/// checkboxes only), each select's chosen option (the first without one) and its
/// text areas.
fn page_form(html: &str) -> Vec<(String, String)> {
    let start = html.find("<form id=\"planner\"").expect("the planner form");
    let form = &html[start..start + html[start..].find("</form>").expect("form ends")];
    let mut out = Vec::new();
    let mut rest = form;
    while let Some(i) = rest.find('<') {
        rest = &rest[i..];
        let end = rest.find('>').expect("tag ends");
        let tag = &rest[..=end];
        if let Some(name) = attr(tag, "name") {
            if tag.starts_with("<input") {
                let kind = attr(tag, "type").unwrap_or_default();
                if kind != "checkbox" || tag.contains(" checked") {
                    out.push((name, attr(tag, "value").unwrap_or_default()));
                }
            } else if tag.starts_with("<select") {
                let body = &rest[..rest.find("</select>").expect("select ends")];
                let options: Vec<&str> = body.split("<option").skip(1).collect();
                let chosen = options
                    .iter()
                    .find(|o| o[..o.find('>').unwrap()].contains(" selected"))
                    .or(options.first());
                let value = chosen.and_then(|o| attr(o, "value")).unwrap_or_default();
                out.push((name, value));
            } else if tag.starts_with("<textarea") {
                let body = &rest[end + 1..];
                let text = &body[..body.find("</textarea>").expect("textarea ends")];
                out.push((name, unescape(text)));
            }
        }
        rest = &rest[end + 1..];
    }
    out
}

/// One 4 TiB ANF Premium volume in `region`, no AVS.
fn premium_in(region: &str) -> Value {
    let mut s = sample_scenario();
    s["name"] = json!(format!("Premium in {region}"));
    s["clients"]["avs"] = Value::Null;
    s["storage"]["level"] = json!("premium");
    s["storage"]["volumes"] = json!([{"count": 1, "quota_tib": 4, "throughput_mibps": null}]);
    s["workload"]["capacity_tib"] = json!(4);
    s["region"] = json!(region);
    s
}

async fn scenario(app: &TestApp, id: i64) -> Value {
    app.get(&format!("/api/v1/scenarios/{id}"))
        .await
        .json()
        .await
        .unwrap()
}

async fn evaluation(app: &TestApp, id: i64) -> Value {
    let res = app
        .post_json("/api/v1/evaluate", &scenario(app, id).await)
        .await;
    assert_eq!(res.status(), 200);
    res.json().await.unwrap()
}

#[tokio::test]
async fn a_euro_price_sheet_export_and_the_planners_currency_survive_every_save() {
    let app = spawn_app().await;
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/prices/sheet",
            Some("text/csv"),
            fixture_text("prices/pricesheet-ea-eur.csv").into_bytes(),
        )
        .await;
    let body: Value = res.json().await.unwrap();
    assert!(body["added"].as_u64() >= Some(3), "{body}");

    // Saved from the planner form with EUR chosen.
    let mut pairs = form_pairs(&premium_in("westeurope"));
    pairs.push(("pricing.currency".into(), "EUR".into()));
    let res = post_form(&app, "/scenarios", &pairs).await;
    assert_eq!(res.status(), 303);
    let id = saved_id(res.headers()["location"].to_str().unwrap());
    assert_eq!(scenario(&app, id).await["pricing"]["currency"], "EUR");

    // The page offers the currency as chosen; a note edited there, saved again.
    let html = app
        .get(&format!("/scenarios/{id}"))
        .await
        .text()
        .await
        .unwrap();
    let mut pairs = page_form(&html);
    assert!(
        pairs.contains(&("pricing.currency".into(), "EUR".into())),
        "{pairs:?}"
    );
    set(&mut pairs, "meta.notes", "Checked with the customer.");
    let res = post_form(&app, &format!("/scenarios/{id}"), &pairs).await;
    assert_eq!(res.status(), 303);
    let saved = scenario(&app, id).await;
    assert_eq!(saved["meta"]["notes"], "Checked with the customer.");
    assert_eq!(saved["pricing"]["currency"], "EUR", "{saved}");

    let e = evaluation(&app, id).await;
    let cost = &e["cost"];
    assert_eq!(cost["currency"], "EUR");
    assert_eq!(cost["price_date"], "2026-11-01", "{cost}");
    let list = &cost["price_lists"][0];
    assert_eq!(
        (
            &list["region"],
            &list["currency"],
            &list["as_of"],
            &list["stored"]
        ),
        (
            &json!("westeurope"),
            &json!("EUR"),
            &json!("2026-11-01"),
            &json!(true)
        )
    );
    // 4 TiB of Premium at the sheet's 0.000336 EUR per GiB-hour, 730 hours.
    let monthly = cost["monthly"].as_f64().unwrap();
    assert!((monthly - 4096.0 * 0.24528).abs() < 0.01, "{monthly}");

    for format in Format::ALL {
        for edition in ["customer", "engineer"] {
            let path = format!("/scenarios/{id}/report.{}?edition={edition}", format.ext());
            let bytes = fetch(&app, &path, format.content_type()).await.unwrap();
            outputs::money(format, &bytes, "EUR", true).unwrap_or_else(|m| panic!("{path}: {m}"));
            if matches!(format, Format::Html | Format::Md) {
                let text = String::from_utf8_lossy(&bytes);
                assert!(text.contains("1 November 2026"), "{path}");
                assert!(!text.contains("Indicative list prices"), "{path}");
            }
        }
    }

    // A line whose row has no euro price says so and is left unpriced, never converted.
    let mut replicated = premium_in("westeurope");
    replicated["pricing"] = json!({"currency": "EUR"});
    replicated["data_protection"] = json!({"snapshot_reserve_pct": 0, "daily_change_pct": 1,
        "replication": "hourly", "replication_region": "northeurope"});
    let res = app.post_json("/api/v1/evaluate", &replicated).await;
    let e: Value = res.json().await.unwrap();
    let cost = &e["cost"];
    assert!(cost["monthly"].is_null(), "{cost}");
    let lists = cost["price_lists"].as_array().unwrap();
    let west = lists.iter().find(|l| l["region"] == "westeurope").unwrap();
    assert_eq!(
        (west["rows"].as_u64(), west["missing"].as_u64()),
        (Some(1), Some(1))
    );
    let north = lists.iter().find(|l| l["region"] == "northeurope").unwrap();
    assert_eq!(north["rows"], 0, "{north}");
    let res = app.post_json("/api/v1/scenarios", &replicated).await;
    let id: i64 = res.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let md = app
        .get(&format!("/scenarios/{id}/report.md"))
        .await
        .text()
        .await
        .unwrap();
    assert!(md.contains("at no EUR price"), "{md}");
    assert!(md.contains("missing in EUR"), "{md}");

    // A dollar scenario in East US keeps the public list's own date and source.
    let res = app
        .post_json("/api/v1/evaluate", &premium_in("eastus"))
        .await;
    let e: Value = res.json().await.unwrap();
    let compiled = &*volplan::engine::pricing::book().date;
    assert_eq!(e["cost"]["currency"], "USD");
    assert_eq!(e["cost"]["price_date"], compiled, "{}", e["cost"]);
    assert_eq!(e["cost"]["price_lists"][0]["as_of"], compiled);
    assert_eq!(e["cost"]["price_lists"][0]["stored"], false);
    // Its saved report's price note says so too, beside the euro sheet stored above.
    let res = app
        .post_json("/api/v1/scenarios", &premium_in("eastus"))
        .await;
    let id: i64 = res.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    for ext in ["md", "html"] {
        let text = app
            .get(&format!("/scenarios/{id}/report.{ext}"))
            .await
            .text()
            .await
            .unwrap();
        assert!(
            text.contains("for East US as of 29 January 2026"),
            "report.{ext}: the East US list's own date"
        );
        assert!(
            !text.contains("1 November 2026"),
            "report.{ext}: not the sheet's date"
        );
        assert!(!text.contains("EUR"), "report.{ext}: dollars only");
    }
}

#[tokio::test]
async fn an_estate_is_priced_in_its_own_currency_and_only_from_its_list() {
    let app = spawn_app().await;
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/prices/sheet",
            Some("text/csv"),
            fixture_text("prices/pricesheet-ea-eur.csv").into_bytes(),
        )
        .await;
    assert_eq!(res.status(), 200);
    let body = |currency: &str| {
        json!({
            "workloads": [premium_in("westeurope"), premium_in("westeurope")],
            "region": "westeurope", "years": 1, "levels": ["premium"],
            "pricing": {"currency": currency}
        })
    };
    let res = app.post_json("/api/v1/estate/optimize", &body("EUR")).await;
    let p: Value = res.json().await.unwrap();
    assert_eq!(p["currency"], "EUR", "{p}");
    // Two 4 TiB workloads in one Premium pool at the sheet's price.
    let monthly = p["monthly"].as_f64().unwrap();
    assert!((monthly - 8.0 * 1024.0 * 0.24528).abs() < 0.01, "{monthly}");

    for (currency, says) in [("JPY", "no JPY prices"), ("XYZ", "not an ISO 4217")] {
        let res = app
            .post_json("/api/v1/estate/optimize", &body(currency))
            .await;
        assert_eq!(res.status(), 422);
        let e: Value = res.json().await.unwrap();
        assert_eq!(e["field"], "pricing.currency", "{e}");
        assert!(e["error"].as_str().unwrap().contains(says), "{e}");
    }
}
