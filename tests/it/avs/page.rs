//! The AVS page through HTTP with the example inventory: the region is asked for, the
//! host list marks the SKUs the region has no price for, a region without the chosen
//! SKU's price still shows the plan with the cost marked missing (a 200, as the API
//! answers it), every wrong choice gets its message beside it in one round, and the
//! page prints the verdict's words, labels and currency rather than ids.

use crate::helpers::{TestApp, field_message as message, spawn_app};
use serde_json::{Value, json};

/// Uploads the example inventory (the vInfo CSV of an RVTools export); its page.
async fn upload(app: &TestApp) -> String {
    let csv = super::vinfo_csv();
    let res = app
        .post_multipart(
            "/avs",
            &[("file", Some("RVTools_tabvInfo.csv"), csv.as_str())],
        )
        .await;
    assert_eq!(res.status(), 303);
    res.headers()["location"].to_str().unwrap().to_owned()
}

/// The text between `start` (included in the search, not the result) and the next
/// `end`.
fn between<'h>(html: &'h str, start: &str, end: &str) -> &'h str {
    html.split_once(start)
        .and_then(|(_, rest)| rest.split_once(end))
        .map(|(inner, _)| inner)
        .unwrap_or_else(|| panic!("no {start} ... {end} in the page"))
}

/// The `<option>` of host `sku`: its attributes and its text.
fn host_option<'h>(html: &'h str, sku: &str) -> (&'h str, &'h str) {
    let list = between(html, "<select id=\"f-host_sku\"", "</select>");
    let option = between(list, &format!("<option value=\"{sku}\""), "</option>");
    option.split_once('>').expect("an option has a text")
}

/// Text as the page escapes it.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&#34;")
        .replace('\'', "&#39;")
}

#[tokio::test]
async fn the_region_is_asked_for_and_a_region_without_the_hosts_price_still_plans() {
    let app = spawn_app().await;
    let path = upload(&app).await;

    // The first visit asks for the region and plans nothing in one it was not given.
    let first = app.get(&path).await;
    assert_eq!(first.status(), 200);
    let first = first.text().await.unwrap();
    assert!(
        first.contains("<option value=\"\" selected>Choose a region</option>"),
        "{first}"
    );
    assert!(
        !first.contains("id=\"avs-tco\""),
        "no plan without a region"
    );
    assert_eq!(message(&first, "region"), "");
    // Every host is offered while no region is chosen.
    assert!(!between(&first, "<select id=\"f-host_sku\"", "</select>").contains(" disabled"));

    // A download or a save needs the region too: a 422 naming it.
    let res = app.get(&format!("{path}/plan.json")).await;
    assert_eq!(res.status(), 422);
    assert!(
        res.text()
            .await
            .unwrap()
            .contains("Region: choose the region")
    );

    // West Europe has no AV36 price: the plan is shown, its cost marked missing.
    let q = "region=westeurope&host_sku=AV36&level=ultra&vcf=included";
    let res = app.get(&format!("{path}?{q}")).await;
    assert_eq!(res.status(), 200, "a missing host price is no error");
    let page = res.text().await.unwrap();
    assert!(page.contains("id=\"avs-tco\""), "the plan is shown");
    assert!(page.contains("id=\"avs-cost-missing\""), "{page}");
    assert!(
        between(&page, "<table id=\"avs-tco\">", "</table>").contains("no host price"),
        "the vSAN-only cost is missing, not $0"
    );
    assert!(page.contains("<option value=\"westeurope\" data-name=\"West Europe\" selected>"));
    // The chosen SKU stays choosable, marked; the other unpriced ones are disabled and
    // marked; the priced ones are offered as they are.
    let (attrs, text) = host_option(&page, "AV36");
    assert_eq!(text, "AV36 — no price in West Europe");
    assert!(
        !attrs.contains("disabled") && attrs.contains("selected"),
        "{attrs}"
    );
    let (attrs, text) = host_option(&page, "AV48");
    assert_eq!(text, "AV48 — no price in West Europe");
    assert!(attrs.contains(" disabled"), "{attrs}");
    for sku in ["AV36P", "AV52", "AV64"] {
        let (attrs, text) = host_option(&page, sku);
        assert!(text.starts_with(&format!("{sku}: ")), "{sku}: {text}");
        assert!(
            !attrs.contains("disabled"),
            "{sku} is priced in West Europe"
        );
    }

    // The page says what the API says for the same inventory and choices.
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/avs/inventory",
            Some("text/csv"),
            super::vinfo_csv().into_bytes(),
        )
        .await;
    let inv: Value = res.json().await.unwrap();
    let api: Value = app
        .post_json(
            "/api/v1/avs/plan",
            &json!({"inventory": inv, "region": "westeurope", "host_sku": "AV36", "level": "ultra",
                    "vcf": {"licensing": "included"}}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(api["tco"]["hosts_priced"], false);
    let statement = api["verdict"]["statement"].as_str().unwrap();
    assert!(statement.starts_with("No host cost: "), "{statement}");
    assert_eq!(
        between(&page, "<p id=\"avs-saving\"><b>", "</b>"),
        escaped(statement)
    );
    let saved = app
        .get_json(&format!("{path}/plan.json?{q}&edition=engineer"))
        .await;
    assert_eq!(saved["tco"], api["tco"]);

    // A region that prices it: no mark, the costs in the prices' currency.
    let page = app
        .get_text(&format!(
            "{path}?region=westus2&host_sku=AV36&level=ultra&vcf=included"
        ))
        .await;
    assert!(!page.contains("id=\"avs-cost-missing\""));
    assert!(host_option(&page, "AV36").1.starts_with("AV36: "));
    assert_eq!(host_option(&page, "AV48").1, "AV48 — no price in West US 2");
    let currency = api["tco"]["currency"].as_str().unwrap();
    assert!(
        page.contains(&format!(
            "<caption>Hosts by what drives them, and cost in {currency}</caption>"
        )),
        "{page}"
    );
    // Portable VCF (the default) prices the hosts at the VCF BYOL rates: AV36P in East
    // US has one, AV36 none; the licensing control and the licence line are shown.
    let page = app
        .get_text(&format!("{path}?region=eastus&host_sku=AV36P&level=ultra"))
        .await;
    assert!(!page.contains("id=\"avs-cost-missing\""), "{page}");
    assert_eq!(host_option(&page, "AV36").1, "AV36 — no price in East US");
    assert!(page.contains("name=\"vcf\""), "the licensing control");
    assert!(page.contains("name=\"vcf_price\"") && page.contains("name=\"vcf_until\""));
    assert!(
        page.contains("VMware licences: portable VCF at an assumed public list figure"),
        "{page}"
    );
    // A wrong licensing input gets its message beside it, keeping what was typed.
    let res = app
        .get(&format!(
            "{path}?region=eastus&vcf=included&vcf_until=2027-02-30&vcf_price=-5"
        ))
        .await;
    assert_eq!(res.status(), 422);
    let page = res.text().await.unwrap();
    assert!(
        message(&page, "vcf_until").starts_with("must be a date written YYYY-MM-DD"),
        "{page}"
    );
    assert!(
        message(&page, "vcf_price")
            .starts_with("must be a number from 0 to 100000 per core per year"),
        "{page}"
    );
    assert!(page.contains("value=\"2027-02-30\""));
    // Every money figure of the headline, on every term, is a cell of the TCO table.
    for term in ["payg", "1y", "3y"] {
        let page = app
            .get_text(&format!(
                "{path}?region=eastus&host_sku=AV36P&level=ultra&term={term}"
            ))
            .await;
        let headline = between(&page, "<p id=\"avs-saving\"><b>", "</b>");
        let table = between(&page, "<table id=\"avs-tco\">", "</table>");
        let figures: Vec<&str> = headline
            .split([' ', '(', ')'])
            .map(|w| {
                w.trim_end_matches([',', '.', ';'])
                    .trim_end_matches("/month")
            })
            .filter(|w| w.starts_with('$'))
            .collect();
        assert_eq!(figures.len(), 4, "{term}: {headline}");
        for f in figures {
            assert!(
                table.contains(&format!(">{f}<")) || table.contains(&format!(">-{f}<")),
                "{term}: {f} of {headline:?} is not in the table {table}"
            );
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn every_wrong_choice_is_marked_beside_it_at_once_and_keeps_what_was_typed() {
    let app = spawn_app().await;
    let path = upload(&app).await;
    let res = app
        .get(&format!(
            "{path}?region=westus2&host_sku=AV366&datastores=0&growth_pct=abc&free_space_pct=95&nconnect=3"
        ))
        .await;
    assert_eq!(res.status(), 422);
    let page = res.text().await.unwrap();
    assert!(
        !page.contains("id=\"avs-tco\""),
        "no plan from wrong choices"
    );
    for (name, says) in [
        ("host_sku", "is not an AVS host SKU"),
        ("datastores", "whole number from 1 to 4096, not 0"),
        ("growth_pct", "enter a number, not &#34;abc&#34;"),
        ("free_space_pct", "from 0 to 90, not 95"),
        ("nconnect", "must be 1 or 4, not 3"),
    ] {
        assert!(
            message(&page, name).contains(says),
            "{name}: {}",
            message(&page, name)
        );
        assert!(
            page.contains(&format!("id=\"f-{name}\" name=\"{name}\"")),
            "{name} is a labelled field"
        );
        assert!(
            page.contains(&format!("<label for=\"f-{name}\">")),
            "{name}"
        );
    }
    assert!(message(&page, "host_sku").contains("Did you mean AV36"));
    assert_eq!(message(&page, "region"), "", "the region is fine");
    // What was typed stays, the wrong inputs are marked for assistive technology.
    assert!(page.contains("name=\"growth_pct\" type=\"text\" inputmode=\"decimal\" autocomplete=\"off\" spellcheck=\"false\" value=\"abc\" aria-invalid=\"true\""));
    assert!(page.contains("<option value=\"AV366\" selected>AV366</option>"));
    // Units and hints beside the fields.
    assert!(page.contains("<span class=\"unit\">%</span>"));
    assert!(page.contains("id=\"h-free_space_pct\""));

    // The form sent without a region: the region's message, beside it.
    let res = app.get(&format!("{path}?level=ultra")).await;
    assert_eq!(res.status(), 422);
    let page = res.text().await.unwrap();
    assert!(
        message(&page, "region").starts_with("choose the region the hosts run in"),
        "{page}"
    );
    app.stop().await;
}

#[tokio::test]
async fn the_page_prints_the_verdict_labels_and_level_names_not_ids() {
    let app = spawn_app().await;
    let path = upload(&app).await;
    let q = "region=westus2&level=ultra&term=3y";
    let page = app.get_text(&format!("{path}?{q}")).await;
    let plan = app
        .get_json(&format!("{path}/plan.json?{q}&edition=engineer"))
        .await;
    let statements = plan["verdict"]["statements"].as_array().unwrap();
    let headline = between(&page, "<p id=\"avs-headline\">", "</p>");
    assert_eq!(headline, escaped(statements[0].as_str().unwrap()));
    assert!(headline.contains(" Ultra datastores on "), "{headline}");
    // Every statement of the verdict is on the page, once.
    for s in statements {
        let s = escaped(s.as_str().unwrap());
        assert_eq!(page.matches(&s).count(), 1, "{s}");
    }
    assert!(page.contains("<h2 id=\"h-ds\">Ultra datastores</h2>"));
    // Limits by their labels: no limit id, no level key, no composed "targets met".
    for c in plan["clusters"].as_array().unwrap() {
        let id = c["binding"].as_str().unwrap();
        assert!(id.contains('_'), "an id: {id}");
        assert!(!page.contains(id), "{id} on the page");
    }
    assert!(page.contains("bound by Volume QoS"), "{page}");
    assert!(!page.contains("targets met") && !page.contains(">ultra<"));
    app.stop().await;
}

/// The page expands an existing private cloud: its hosts, SKU and licensing are inputs,
/// the TCO table shows the hosts after the expansion with those added, the verdict's
/// sentence on the existing hosts is printed as the API says it, and a wrong count is
/// marked beside its input.
#[tokio::test]
async fn the_page_expands_an_existing_private_cloud() {
    let app = spawn_app().await;
    let path = upload(&app).await;
    let q = "region=eastus&host_sku=AV36P&existing_hosts=4&existing_vcf=included";
    let page = app.get_text(&format!("{path}?{q}")).await;
    let plan = app
        .get_json(&format!("{path}/plan.json?{q}&edition=engineer"))
        .await;
    let hosts = &plan["tco"]["with_anf"]["hosts"];
    assert_eq!(hosts["expansion"]["existing"], 4);
    let bought = hosts["bought"].as_u64().unwrap();
    assert!(bought >= 1);
    let total = hosts["hosts"].as_u64().unwrap();
    assert_eq!(total, 4 + bought);
    assert!(
        page.contains(&format!("{total} ({bought} added)")),
        "the TCO table's hosts"
    );
    let said = plan["verdict"]["statements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .find(|s| s.starts_with("The existing 4 AV36P hosts (VCF included) cost "))
        .expect("the existing hosts' sentence");
    assert!(page.contains(&escaped(said)));
    assert!(page.contains("<label for=\"f-existing_hosts\">Existing hosts</label>"));
    // The reports say the same: the hosts with those added, and the sentence.
    let md = app.get_text(&format!("{path}/plan.md?{q}")).await;
    assert!(md.contains(&format!("{total} ({bought} added)")), "{md}");
    assert!(md.contains(said), "{md}");
    let res = app
        .get(&format!(
            "{path}?region=eastus&existing_hosts=2&existing_sku=AV99"
        ))
        .await;
    assert_eq!(res.status(), 422);
    let page = res.text().await.unwrap();
    assert!(
        message(&page, "existing_hosts").contains("from 3 to 192"),
        "{}",
        message(&page, "existing_hosts")
    );
    assert!(message(&page, "existing_sku").contains("is not an AVS host SKU"));
    app.stop().await;
}
