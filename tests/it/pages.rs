//! HTML pages: rendering, escaping, the planner without JavaScript, share links,
//! import, delete, revisions and static assets.

use crate::helpers::{TestApp, named, sample_scenario, spawn_app};
use reqwest::{StatusCode, header};
use serde_json::{Value, json};

const XSS: &str = "<script>alert(1)</script>";
/// How askama escapes [`XSS`] (numeric character references).
const XSS_ESCAPED: &str = "&#60;script&#62;alert(1)&#60;/script&#62;";

/// Percent-encodes one form value.
fn enc(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn urlencoded(pairs: &[(String, String)]) -> Vec<u8> {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
        .into_bytes()
}

/// The planner's inputs for a Scenario JSON, named by JSON path as the page names them;
/// unticked checkboxes and `avs: null` are left out, as a browser does.
pub(crate) fn form_pairs(scenario: &Value) -> Vec<(String, String)> {
    fn walk(prefix: &str, v: &Value, out: &mut Vec<(String, String)>) {
        match v {
            Value::Object(map) => {
                for (k, v) in map {
                    let p = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    if p == "clients.avs" || p == "storage.cool_access" {
                        if v.is_object() {
                            out.push((p.clone(), "on".into()));
                            walk(&p, v, out);
                        }
                        continue;
                    }
                    walk(&p, v, out);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(&format!("{prefix}[{i}]"), item, out);
                }
            }
            Value::Null => out.push((prefix.to_owned(), String::new())),
            Value::Bool(true) => out.push((prefix.to_owned(), "on".into())),
            Value::Bool(false) => {}
            Value::Number(n) => out.push((prefix.to_owned(), n.to_string())),
            Value::String(s) => out.push((prefix.to_owned(), s.clone())),
        }
    }
    let mut out = Vec::new();
    walk("", scenario, &mut out);
    out
}

pub(crate) fn set(pairs: &mut [(String, String)], name: &str, value: &str) {
    let slot = pairs
        .iter_mut()
        .find(|(k, _)| k == name)
        .unwrap_or_else(|| panic!("no input {name}"));
    slot.1 = value.to_owned();
}

pub(crate) async fn post_form(
    app: &TestApp,
    path: &str,
    pairs: &[(String, String)],
) -> reqwest::Response {
    // The token of the test's cookie replaces any the page rendered.
    let mut pairs: Vec<(String, String)> =
        pairs.iter().filter(|(k, _)| k != "csrf").cloned().collect();
    pairs.push(("csrf".into(), crate::helpers::FORM_TOKEN.into()));
    app.send_form(
        path,
        "application/x-www-form-urlencoded",
        urlencoded(&pairs),
    )
    .await
}

/// The scenario id of a Save's redirect, `/scenarios/{id}?saved=1`.
pub(crate) fn saved_id(location: &str) -> i64 {
    location
        .trim_start_matches("/scenarios/")
        .split('?')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// Where the message box of input `field` starts in `html`, and its text.
fn field_error<'a>(html: &'a str, field: &str) -> (usize, &'a str) {
    let error = format!("<span class=\"error\" id=\"e-{field}\">");
    let at = html
        .find(&error)
        .unwrap_or_else(|| panic!("{field}: no message box beside the field"));
    let text = &html[at + error.len()..];
    (
        at,
        &text[..text.find("</span>").expect("the message box ends")],
    )
}

async fn page(app: &TestApp, path: &str) -> (StatusCode, String) {
    let res = app.get(path).await;
    let status = res.status();
    (status, res.text().await.expect("body"))
}

fn share_param(scenario: &Value) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(scenario.to_string())
}

/// The CSP forbids inline script and style: none may appear in a page.
fn assert_no_inline_code(path: &str, html: &str) {
    for (i, _) in html.match_indices("<script") {
        let tag_end = html[i..].find('>').map(|e| i + e).unwrap_or(html.len());
        assert!(
            html[i..tag_end].contains(" src="),
            "{path}: inline <script> at byte {i}"
        );
    }
    assert!(!html.contains("<style"), "{path}: inline <style>");
    assert!(!html.contains(" style="), "{path}: style attribute");
    let lower = html.to_ascii_lowercase();
    for attr in [
        " onclick=",
        " onload=",
        " onchange=",
        " oninput=",
        " onsubmit=",
        "javascript:",
    ] {
        assert!(!lower.contains(attr), "{path}: {attr}");
    }
}

#[tokio::test]
async fn pages_render_with_layout_and_no_inline_code() {
    let app = spawn_app().await;
    let id = app.create(&sample_scenario()).await;
    let share = format!("/plan?s={}", share_param(&sample_scenario()));
    for path in [
        "/".to_owned(),
        "/?q=AVS".to_owned(),
        "/scenarios/new".to_owned(),
        "/scenarios/new?template=sap-hana".to_owned(),
        format!("/scenarios/{id}"),
        format!("/scenarios/{id}/delete"),
        share,
    ] {
        let (status, html) = page(&app, &path).await;
        assert_eq!(status, 200, "{path}");
        assert!(html.starts_with("<!DOCTYPE html>"), "{path}");
        for nav in [
            "href=\"/compare\"",
            "href=\"/layouts\"",
            "href=\"/advisor\"",
        ] {
            assert!(html.contains(nav), "{path}: nav link {nav}");
        }
        assert_no_inline_code(&path, &html);
    }
}

#[tokio::test]
async fn every_planner_input_has_a_label_and_numbers_have_units() {
    let app = spawn_app().await;
    let (_, html) = page(&app, "/scenarios/new?template=avs-datastores").await;
    let mut inputs = 0;
    for (i, _) in html
        .match_indices("<input id=\"f-")
        .chain(html.match_indices("<select id=\"f-"))
    {
        let rest = &html[i..];
        let id_start = rest.find("id=\"").unwrap() + 4;
        let id = &rest[id_start..id_start + rest[id_start..].find('"').unwrap()];
        assert!(
            html.contains(&format!("<label for=\"{id}\"")),
            "input {id} has a label"
        );
        let tag = &rest[..rest.find('>').unwrap()];
        if tag.contains("inputmode=\"decimal\"") {
            let after = &rest[rest.find('>').unwrap()..];
            let unit = after.find("<span class=\"unit\">");
            let next = after.find("<div class=\"field");
            assert!(
                unit.is_some() && (next.is_none() || unit < next),
                "number {id} has a unit beside it"
            );
        }
        inputs += 1;
    }
    assert!(inputs >= 30, "only {inputs} inputs found");
}

#[tokio::test]
async fn home_lists_scenarios_templates_and_searches() {
    let app = spawn_app().await;
    let ultra = app.create(&named("Datastores Ultra")).await;
    app.create(&named("Something else")).await;
    let (status, html) = page(&app, "/").await;
    assert_eq!(status, 200);
    assert!(html.contains(&format!("href=\"/scenarios/{ultra}\"")));
    assert!(html.contains("Azure NetApp Files Ultra"), "vendor names");
    for name in [
        "AVS 4 x 20 TiB vs 20 x 4 TiB datastores",
        "SAP HANA on ANF",
        "Oracle on ANF (dNFS)",
        "Azure Files SMB multichannel on D32s_v3",
        "GCNV with nconnect 16",
        "ANF large volume scale-out",
    ] {
        assert!(html.contains(name), "template {name} listed");
    }
    let (_, found) = page(&app, "/?q=Datastores").await;
    assert!(found.contains("Datastores Ultra"));
    assert!(!found.contains("Something else"));
}

#[tokio::test]
async fn every_template_opens_prefilled() {
    let app = spawn_app().await;
    for (key, name) in [
        ("avs-datastores", "AVS 4 x 20 TiB vs 20 x 4 TiB datastores"),
        ("sap-hana", "SAP HANA on ANF"),
        ("oracle-dnfs", "Oracle on ANF (dNFS)"),
        (
            "azure-files-smb-multichannel",
            "Azure Files SMB multichannel on D32s_v3",
        ),
        ("gcnv-nconnect-16", "GCNV with nconnect 16"),
        ("anf-large-volume", "ANF large volume scale-out"),
    ] {
        let (status, html) = page(&app, &format!("/scenarios/new?template={key}")).await;
        assert_eq!(status, 200, "{key}");
        assert!(
            html.contains(&format!("name=\"name\" value=\"{name}\"")),
            "{key}: name prefilled"
        );
        assert!(html.contains("id=\"results\""), "{key}");
        assert!(html.contains("id=\"charts\""), "{key}: chart slot");
    }
    let (status, html) = page(&app, "/scenarios/new?template=nope").await;
    assert_eq!(status, 404);
    assert!(html.contains("no template"));
}

#[tokio::test]
async fn names_are_escaped_on_every_page() {
    let app = spawn_app().await;
    let id = app.create(&named(XSS)).await;
    // A second revision, so the history and the revision view show the name too.
    let res = app
        .put_json(&format!("/api/v1/scenarios/{id}"), &named(XSS))
        .await;
    assert_eq!(res.status(), 200);
    let share = format!("/plan?s={}", share_param(&named(XSS)));
    let mut bodies = Vec::new();
    for path in [
        "/".to_owned(),
        format!("/?q={}", enc(XSS)),
        format!("/?deleted={}", enc(XSS)),
        format!("/scenarios/{id}"),
        format!("/scenarios/{id}?rev=1"),
        format!("/scenarios/{id}/delete"),
        share,
    ] {
        let (status, html) = page(&app, &path).await;
        assert_eq!(status, 200, "{path}");
        bodies.push((path, html));
    }
    // Pages rendered from a POST: the no-JS planner, live results, a failed import.
    let mut pairs = form_pairs(&named(XSS));
    set(&mut pairs, "workload.io_size_kib", XSS);
    let res = post_form(&app, "/scenarios/evaluate", &pairs).await;
    assert_eq!(res.status(), 422);
    bodies.push(("POST /scenarios/evaluate".into(), res.text().await.unwrap()));
    let res = post_form(&app, "/scenarios/results", &pairs).await;
    let live: Value = res.json().await.unwrap();
    bodies.push((
        "POST /scenarios/results".into(),
        live["html"].as_str().unwrap().to_owned(),
    ));
    let res = import(&app, None, Some(XSS)).await;
    assert_eq!(res.status(), 422);
    bodies.push(("POST /import".into(), res.text().await.unwrap()));

    for (path, html) in &bodies {
        assert!(!html.contains(XSS), "{path}: the name is not escaped");
        assert!(
            html.contains(XSS_ESCAPED),
            "{path}: the name is shown as text"
        );
        assert_no_inline_code(path, html);
    }
}

#[tokio::test]
async fn planner_without_javascript_shows_results_and_field_errors() {
    let app = spawn_app().await;
    let pairs = form_pairs(&sample_scenario());
    let res = post_form(&app, "/scenarios/evaluate", &pairs).await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("id=\"kpi-mibps\""), "headline figures");
    assert!(html.contains("Bound by"));
    assert!(html.contains("class=\"binding\""), "binding row marked");

    let mut bad = pairs.clone();
    set(&mut bad, "workload.io_size_kib", "");
    set(&mut bad, "workload.read_pct", "140");
    set(&mut bad, "clients.nconnect", "lots");
    let res = post_form(&app, "/scenarios/evaluate", &bad).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("id=\"f-workload.io_size_kib\" name=\"workload.io_size_kib\" type=\"text\" inputmode=\"decimal\" autocomplete=\"off\" spellcheck=\"false\" value=\"\" aria-invalid=\"true\""),
        "empty field marked invalid"
    );
    assert!(
        html.contains("<span class=\"error\" id=\"e-workload.io_size_kib\">enter a number</span>")
    );
    assert!(html.contains("value=\"lots\""), "what was typed is kept");
    assert!(html.contains("enter a whole number, not &#34;lots&#34;"));

    // Validation after parsing: the engine's range message lands on the field.
    let mut out_of_range = pairs.clone();
    set(&mut out_of_range, "workload.read_pct", "140");
    let res = post_form(&app, "/scenarios/evaluate", &out_of_range).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("id=\"e-workload.read_pct\">must be a number from 0 to 100"));

    // "Add volume group" without JavaScript adds an empty row.
    let mut add = pairs.clone();
    add.push(("action".into(), "add_group".into()));
    let html = post_form(&app, "/scenarios/evaluate", &add)
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("name=\"storage.volumes[1].quota_tib\""));
}

#[tokio::test]
async fn live_results_answer_html_and_messages() {
    let app = spawn_app().await;
    let pairs = form_pairs(&sample_scenario());
    let res = post_form(&app, "/scenarios/results", &pairs).await;
    assert_eq!(res.status(), 200);
    let live: Value = res.json().await.unwrap();
    assert_eq!(live["ok"], true);
    assert!(live["html"].as_str().unwrap().contains("kpi-mibps"));
    assert!(live["share_url"].as_str().unwrap().starts_with("/plan?s="));
    assert_eq!(live["errors"], json!({}));

    let mut bad = pairs.clone();
    set(&mut bad, "storage.volumes[0].quota_tib", "1,5");
    let live: Value = post_form(&app, "/scenarios/results", &bad)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(live["ok"], false);
    assert!(
        live["errors"]["storage.volumes[0].quota_tib"]
            .as_str()
            .unwrap()
            .contains("point for decimals")
    );
    assert!(live["html"].as_str().unwrap().contains("needs fixing"));

    // Scenario JSON in: the results fragment alone.
    let res = app
        .post_json("/scenarios/results", &sample_scenario())
        .await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(
        html.trim_start()
            .starts_with("<div class=\"results-inner\"")
    );
}

#[tokio::test]
async fn region_warnings_sit_beside_their_inputs() {
    let app = spawn_app().await;
    // Breakthrough mode in South India (no large volumes there), replicating to a region
    // that is not its pair.
    let mut s = sample_scenario();
    s["clients"]["avs"] = Value::Null;
    s["storage"]["volume_kind"] = json!("breakthrough");
    s["region"] = json!("southindia");
    let mut pairs = form_pairs(&s);
    // The form carries the data protection settings as JSON in one hidden input.
    pairs.push((
        "data_protection".into(),
        json!({"replication": "daily", "replication_region": "westeurope"}).to_string(),
    ));
    let live: Value = post_form(&app, "/scenarios/results", &pairs)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(live["ok"], true, "{live}");
    let kind = live["warnings"]["storage.volume_kind"].as_str().unwrap();
    assert!(kind.contains("not offered in South India"), "{kind}");
    // The replication pair has no input of its own: it shows beside the region.
    let region = live["warnings"]["region"].as_str().unwrap();
    assert!(region.starts_with("Cross-region replication from South India to West Europe"));
    // The advice list has them too.
    assert!(
        live["html"]
            .as_str()
            .unwrap()
            .contains("not offered in South India")
    );
    // Without JavaScript the page renders the same warning in the field's slot.
    let html = post_form(&app, "/scenarios/evaluate", &pairs)
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains(
        "w-storage.volume_kind\">Breakthrough mode volumes are not offered in South India"
    ));
    assert!(html.contains(
        "aria-describedby=\"e-storage.volume_kind h-storage.volume_kind w-storage.volume_kind\""
    ));
    // A region that offers it: no warnings.
    s["region"] = json!("westeurope");
    let live: Value = post_form(&app, "/scenarios/results", &form_pairs(&s))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(live["warnings"], json!({}));
}

#[tokio::test]
async fn the_region_field_offers_the_price_books_regions_and_names_an_unknown_one() {
    let app = spawn_app().await;
    let (status, html) = page(&app, "/scenarios/new").await;
    assert_eq!(status, 200);
    assert!(html.contains("name=\"region\" type=\"text\""));
    assert!(
        html.contains(" list=\"regions\""),
        "the input uses the list"
    );
    let list = &html[html
        .find("<datalist id=\"regions\">")
        .expect("a region list")..];
    let list = &list[..list.find("</datalist>").unwrap()];
    // One option per region of GET /api/v1/regions, with its display name.
    let regions: Value = app.get("/api/v1/regions").await.json().await.unwrap();
    let regions = regions.as_array().unwrap();
    assert_eq!(list.matches("<option ").count(), regions.len());
    for r in regions {
        let option = format!(
            "<option value=\"{}\">{}</option>",
            r["region"].as_str().unwrap(),
            r["name"].as_str().unwrap()
        );
        assert!(list.contains(&option), "{option}");
    }
    assert!(list.contains("<option value=\"westeurope\">West Europe</option>"));
    // Free typing stays: a region outside the list gets its message beside the field.
    let mut pairs = form_pairs(&sample_scenario());
    pairs.retain(|(k, _)| k != "region");
    pairs.push(("region".into(), "mars".into()));
    let res = post_form(&app, "/scenarios/evaluate", &pairs).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    let (_, message) = field_error(&html, "region");
    assert!(message.contains("mars"), "{message}");
    assert!(html.contains("value=\"mars\""), "what was typed is kept");
}

#[tokio::test]
async fn share_links_open_prefilled_and_bad_ones_get_400() {
    let app = spawn_app().await;
    let mut s = sample_scenario();
    s["name"] = json!("Shared plan");
    let (status, html) = page(&app, &format!("/plan?s={}", share_param(&s))).await;
    assert_eq!(status, 200);
    assert!(html.contains("value=\"Shared plan\""));
    assert!(html.contains("share link"));
    assert!(
        !html.contains("name=\"scenario_id\""),
        "not tied to a saved scenario"
    );
    // Nothing was saved.
    let list: Value = app.get("/api/v1/scenarios").await.json().await.unwrap();
    assert_eq!(list, json!([]));

    for (path, expect) in [
        ("/plan".to_owned(), "no scenario"),
        ("/plan?s=%%%%".to_owned(), "damaged"),
        ("/plan?s=not*base64".to_owned(), "damaged"),
        (
            format!("/plan?s={}", share_param(&json!({"name": 1}))),
            "not hold a valid scenario",
        ),
    ] {
        let (status, html) = page(&app, &path).await;
        assert_eq!(status, 400, "{path}");
        assert!(html.contains(expect), "{path}: {expect}");
    }
}

#[tokio::test]
async fn save_update_copy_history_and_restore_through_the_form() {
    let app = spawn_app().await;
    let mut pairs = form_pairs(&named("Form plan"));
    let res = post_form(&app, "/scenarios", &pairs).await;
    assert_eq!(res.status(), 303);
    let loc = res.headers()[header::LOCATION].to_str().unwrap().to_owned();
    let id = saved_id(&loc);
    let (_, html) = page(&app, &loc).await;
    assert!(html.contains("Saved as revision 1."));

    pairs.push(("scenario_id".into(), id.to_string()));
    set(&mut pairs, "workload.io_size_kib", "256");
    let res = post_form(&app, &format!("/scenarios/{id}"), &pairs).await;
    assert_eq!(res.status(), 303);
    assert_eq!(
        res.headers()[header::LOCATION],
        format!("/scenarios/{id}?saved=2").as_str()
    );
    let saved: Value = app
        .get(&format!("/api/v1/scenarios/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(saved["workload"]["io_size_kib"].as_f64(), Some(256.0));

    // An invalid save keeps the inputs and saves nothing.
    let mut bad = pairs.clone();
    set(&mut bad, "workload.capacity_tib", "");
    let res = post_form(&app, &format!("/scenarios/{id}"), &bad).await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("Not saved"));

    // History lists both revisions; restoring 1 adds revision 3.
    let (_, html) = page(&app, &format!("/scenarios/{id}")).await;
    assert!(html.contains("History (2)"));
    assert!(html.contains(&format!(
        "formaction=\"/scenarios/{id}/revisions/1/restore\""
    )));
    let res = app
        .send_form(
            &format!("/scenarios/{id}/revisions/1/restore"),
            "application/x-www-form-urlencoded",
            format!("csrf={}", crate::helpers::FORM_TOKEN).into_bytes(),
        )
        .await;
    assert_eq!(res.status(), 303);
    let restored: Value = app
        .get(&format!("/api/v1/scenarios/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(restored["workload"]["io_size_kib"].as_f64(), Some(64.0));
    let (_, html) = page(&app, &format!("/scenarios/{id}?restored=1")).await;
    assert!(html.contains("History (3)"));
    let (status, _) = page(&app, &format!("/scenarios/{id}?rev=2")).await;
    assert_eq!(status, 200);
    let (status, _) = page(&app, &format!("/scenarios/{id}?rev=99")).await;
    assert_eq!(status, 404);

    // Save as copy makes a second scenario.
    let res = post_form(&app, "/scenarios/copy", &pairs).await;
    assert_eq!(res.status(), 303);
    let list: Value = app.get("/api/v1/scenarios").await.json().await.unwrap();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"Form plan (copy)"), "{names:?}");

    // A name typed just before Save as copy is the copy's name, as typed.
    set(&mut pairs, "name", "Form plan for Frankfurt");
    let res = post_form(&app, "/scenarios/copy", &pairs).await;
    assert_eq!(res.status(), 303);
    let copy = saved_id(res.headers()[header::LOCATION].to_str().unwrap());
    let copied: Value = app
        .get(&format!("/api/v1/scenarios/{copy}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(copied["name"], "Form plan for Frankfurt");
    let source: Value = app
        .get(&format!("/api/v1/scenarios/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(source["name"], "Form plan", "the source keeps its name");

    // Unknown ids and paths are 404 pages.
    assert_eq!(page(&app, "/scenarios/999999").await.0, 404);
    assert_eq!(page(&app, "/scenarios/abc").await.0, 404);
    let (status, html) = page(&app, "/no/such/page").await;
    assert_eq!(status, 404);
    assert!(html.contains("There is no page at /no/such/page."));
}

#[tokio::test]
async fn download_json_round_trips() {
    let app = spawn_app().await;
    let id = app.create(&named("Download me")).await;
    let res = app.get(&format!("/scenarios/{id}/scenario.json")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.headers()[header::CONTENT_DISPOSITION],
        "attachment; filename=\"download-me.json\""
    );
    let body: Value = res.json().await.unwrap();
    assert!(body.get("id").is_none());
    assert!(crate::helpers::json_contains(&body, &named("Download me")));

    let res = post_form(
        &app,
        "/scenarios/scenario.json",
        &form_pairs(&named("From form")),
    )
    .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["name"], "From form");
}

/// POSTs the import form as multipart: a file and/or pasted text.
async fn import(app: &TestApp, file: Option<&str>, pasted: Option<&str>) -> reqwest::Response {
    let mut parts = Vec::new();
    if let Some(f) = file {
        parts.push(("file", Some("s.json"), f));
    }
    parts.push(("json", None, pasted.unwrap_or("")));
    app.post_multipart("/import", &parts).await
}

#[tokio::test]
async fn import_saves_good_files_and_keeps_bad_ones() {
    let app = spawn_app().await;
    let res = import(&app, Some(&named("Imported").to_string()), None).await;
    assert_eq!(res.status(), 303);
    assert!(
        res.headers()[header::LOCATION]
            .to_str()
            .unwrap()
            .ends_with("?imported=1")
    );

    let res = import(&app, None, Some(&named("Pasted").to_string())).await;
    assert_eq!(res.status(), 303);

    let broken = "{\"name\": \"half";
    let res = import(&app, Some(broken), None).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("This is not Scenario JSON"));
    assert!(html.contains("{&#34;name&#34;: &#34;half"), "text kept");

    let mut wrong = named("Wrong");
    wrong["workload"]["read_pct"] = json!(400);
    let res = import(&app, None, Some(&wrong.to_string())).await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("workload.read_pct"));

    let res = import(&app, None, None).await;
    assert_eq!(res.status(), 400);

    let list: Value = app.get("/api/v1/scenarios").await.json().await.unwrap();
    assert_eq!(
        list.as_array().unwrap().len(),
        2,
        "only the good ones saved"
    );
}

#[tokio::test]
async fn delete_asks_first_then_removes() {
    let app = spawn_app().await;
    let id = app.create(&named("Doomed")).await;
    let (status, html) = page(&app, &format!("/scenarios/{id}/delete")).await;
    assert_eq!(status, 200);
    assert!(html.contains(&format!("action=\"/scenarios/{id}/delete\"")));
    let res = app
        .send_form(
            &format!("/scenarios/{id}/delete"),
            "application/x-www-form-urlencoded",
            format!("csrf={}", crate::helpers::FORM_TOKEN).into_bytes(),
        )
        .await;
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()[header::LOCATION], "/?deleted=Doomed");
    let (_, home) = page(&app, "/?deleted=Doomed").await;
    assert!(home.contains("Deleted “Doomed”."));
    assert_eq!(page(&app, &format!("/scenarios/{id}")).await.0, 404);
    let res = app
        .send_form(
            &format!("/scenarios/{id}/delete"),
            "application/x-www-form-urlencoded",
            format!("csrf={}", crate::helpers::FORM_TOKEN).into_bytes(),
        )
        .await;
    assert_eq!(res.status(), 404);
}

#[tokio::test]
async fn static_assets_have_types_and_cache_headers() {
    let app = spawn_app().await;
    let (_, html) = page(&app, "/").await;
    let start = html
        .find("/static/css/app.css?v=")
        .expect("hashed stylesheet link");
    let end = html[start..].find('"').unwrap() + start;
    let css_url = &html[start..end];

    let res = app.get(css_url).await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.headers()[header::CONTENT_TYPE],
        "text/css; charset=utf-8"
    );
    assert_eq!(
        res.headers()[header::CACHE_CONTROL],
        "public, max-age=31536000, immutable"
    );
    let etag = res.headers()[header::ETAG].clone();
    let res = app
        .client
        .get(app.url(css_url))
        .header(header::IF_NONE_MATCH, etag)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 304);

    let res = app.get("/static/js/planner.js").await;
    assert_eq!(
        res.headers()[header::CONTENT_TYPE],
        "text/javascript; charset=utf-8"
    );
    assert_eq!(res.headers()[header::CACHE_CONTROL], "public, no-cache");

    let res = app.get("/static/fonts/DejaVuSans.ttf").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()[header::CONTENT_TYPE], "font/ttf");
    assert!(res.bytes().await.unwrap().len() > 100_000);

    assert_eq!(app.get("/static/nope.css").await.status(), 404);
}

#[tokio::test]
async fn the_form_has_a_latency_target_and_avs_connections() {
    let app = spawn_app().await;
    let (_, html) = page(&app, "/scenarios/new?template=avs-datastores").await;
    assert!(html.contains("<label for=\"f-workload.target_latency_ms\">Target latency</label>"));
    let field = &html[html.find("id=\"f-workload.target_latency_ms\"").unwrap()..];
    assert!(
        field[..field.find("</div>").unwrap()].contains("<span class=\"unit\">ms</span>"),
        "the latency target shows its unit"
    );
    assert!(
        html.contains("<label for=\"f-clients.avs.nconnect\">Connections per datastore</label>")
    );
    assert!(html.contains(
        "aria-describedby=\"e-clients.avs.nconnect h-clients.avs.nconnect w-clients.avs.nconnect\""
    ));
    assert!(html.contains(
        "id=\"h-clients.avs.nconnect\">1 as in the published AVS tests; 4 where hosts mount datastores with nconnect</span>"
    ));
    assert!(html.contains("<option value=\"1\" selected>1</option>"));

    // Both round-trip through the form without JavaScript.
    let mut pairs = form_pairs(&sample_scenario());
    set(&mut pairs, "workload.target_mibps", "8000");
    pairs.push(("workload.target_latency_ms".into(), "5".into()));
    pairs.push(("clients.avs.nconnect".into(), "4".into()));
    let res = post_form(&app, "/scenarios/evaluate", &pairs).await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("value=\"5\""));
    assert!(html.contains("<option value=\"4\" selected>4</option>"));

    // Wrong values get their message at the field, and what was typed is kept.
    for (name, value, message) in [
        ("workload.target_latency_ms", "soon", "enter a number"),
        ("workload.target_latency_ms", "0", "must be"),
        ("clients.avs.nconnect", "2", "1 connection, or 4"),
    ] {
        let mut bad = pairs.clone();
        set(&mut bad, name, value);
        let res = post_form(&app, "/scenarios/evaluate", &bad).await;
        assert_eq!(res.status(), 422, "{name} = {value}");
        let html = res.text().await.unwrap();
        let (_, text) = field_error(&html, name);
        assert!(text.contains(message), "{name} = {value}: {text}");
    }
}

#[tokio::test]
async fn results_show_latency_at_the_load_and_the_target() {
    let app = spawn_app().await;
    let mut pairs = form_pairs(&sample_scenario());
    set(&mut pairs, "workload.target_mibps", "8000");
    pairs.push(("workload.target_latency_ms".into(), "5".into()));
    let html = post_form(&app, "/scenarios/evaluate", &pairs)
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("id=\"kpi-latency\""));
    // With a rate target the headline is the latency at that rate, and the note says
    // what the achievable load is and the concurrency behind it.
    assert!(html.contains("ms per IO at the target rate"));
    let note = html
        .split("id=\"latency-note\">")
        .nth(1)
        .and_then(|t| t.split("</p>").next())
        .expect("the latency note");
    assert!(
        note.contains("at the target rate (8,000 MiB/s)") && note.contains("in flight ("),
        "{note}"
    );
    assert!(
        html.contains("at 8,000 MiB/s meets the 5 ms target, met at the "),
        "in the targets summary, with whether the range's high end meets it too"
    );
    assert!(
        html.contains("; runs at "),
        "how close the workload runs to the binding limit"
    );
    assert!(html.contains("id=\"chart-latency\""));

    // Without a target: no target latency, still the latency at the load and the chart.
    let pairs = form_pairs(&sample_scenario());
    let html = post_form(&app, "/scenarios/evaluate", &pairs)
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("ms per IO at this load"));
    assert!(!html.contains("at the target rate"));
    assert!(html.contains("id=\"chart-latency\""));
}

/// The value of attribute `name` in one HTML tag (unescaped for the few entities askama writes).
fn attr(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    let end = tag[at..].find('"')? + at;
    Some(crate::helpers::unescape_attr(&tag[at..end]))
}

/// What a browser sends when the planner form in `html` is submitted as rendered:
/// every named text input, ticked checkboxes, and each select's selected option.
fn submitted_form(html: &str) -> Vec<(String, String)> {
    let form = &html[html.find("<form id=\"planner\"").expect("the planner form")..];
    let form = &form[..form.find("</form>").expect("the form ends")];
    let mut out = Vec::new();
    let mut rest = form;
    while let Some(i) = rest.find('<') {
        rest = &rest[i..];
        let tag = &rest[..rest.find('>').map_or(rest.len(), |e| e + 1)];
        if tag.starts_with("<input ") {
            if let Some(name) = attr(tag, "name") {
                let kind = attr(tag, "type").unwrap_or_default();
                if kind == "checkbox" {
                    if tag.contains(" checked") {
                        out.push((name, attr(tag, "value").unwrap_or_else(|| "on".into())));
                    }
                } else if kind != "file" {
                    out.push((name, attr(tag, "value").unwrap_or_default()));
                }
            }
        } else if tag.starts_with("<select ") {
            let end = rest.find("</select>").expect("the select ends");
            let body = &rest[..end];
            let options: Vec<&str> = body
                .match_indices("<option ")
                .map(|(j, _)| &body[j..j + body[j..].find('>').unwrap() + 1])
                .collect();
            let chosen = options
                .iter()
                .find(|o| o.contains(" selected"))
                .or(options.first())
                .and_then(|o| attr(o, "value"))
                .unwrap_or_default();
            out.push((attr(tag, "name").expect("select name"), chosen));
            rest = &rest[end..];
            continue;
        }
        rest = &rest[1..];
    }
    out
}

/// The newest revision of a saved scenario, from the API.
async fn stored(app: &TestApp, id: i64) -> Value {
    let res = app.get(&format!("/api/v1/scenarios/{id}")).await;
    res.json().await.expect("Scenario JSON")
}

fn platform_scenario() -> Value {
    json!({
        "name": "Platform round trip",
        "workload": { "io_size_kib": 8, "read_pct": 70, "access": "random", "threads": 16,
                      "queue_depth": 8, "capacity_tib": 60 },
        "storage": { "service": "anf", "level": "ultra", "volume_kind": "breakthrough",
                     "cool_access": { "cool_data_pct": 60, "cool_read_pct": 5 },
                     "volumes": [ { "count": 2, "quota_tib": 30 } ] },
        "clients": { "count": 1, "vm_size": "Standard_E104ids_v5", "protocol": "nfsv4.1",
                     "nfs_client": "dnfs", "sec": "krb5" },
        "region": "westeurope",
        "pricing": { "currency": "USD", "discount_pct": 12.5, "reservation": "1y" },
        "data_protection": { "snapshot_reserve_pct": 20, "daily_change_pct": 2,
                             "backup": { "daily": 7, "weekly": 4, "monthly": 0 },
                             "replication": "hourly", "replication_region": "northeurope" }
    })
}

/// "$1,234.56", as the results write an amount.
fn dollars(v: f64) -> String {
    let s = format!("{v:.2}");
    let (int, frac) = s.split_once('.').unwrap();
    let mut grouped = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("${grouped}.{frac}")
}

#[tokio::test]
async fn the_planner_lists_the_cost_lines_with_backup_and_replication() {
    let app = spawn_app().await;
    let scenario = platform_scenario();
    let ev: Value = app
        .post_json("/api/v1/evaluate", &scenario)
        .await
        .json()
        .await
        .unwrap();
    let lines = ev["cost"]["lines"].as_array().unwrap();
    let id = app.create(&scenario).await;
    let (status, html) = page(&app, &format!("/scenarios/{id}")).await;
    assert_eq!(status, 200);
    let table = &html[html
        .find("<table class=\"cost-lines\">")
        .expect("a cost table")..];
    let table = &table[..table.find("</table>").unwrap()];
    assert_eq!(table.matches("<tr").count(), lines.len() + 1, "{table}");
    for item in [
        "Backup, full copy (stored)",
        "Backup, retained daily changes",
        "Cross-region replication, initial transfer (one-time)",
        "Cross-region replication, daily changes",
        "Replica pool capacity (destination region)",
    ] {
        let l = lines.iter().find(|l| l["item"] == json!(item)).unwrap();
        let row = &table[table
            .find(item)
            .unwrap_or_else(|| panic!("{item} in {table}"))..];
        let row = &row[..row.find("</tr>").unwrap()];
        let amount = dollars(l["monthly"].as_f64().unwrap());
        let once = if l["one_time"] == json!(true) {
            " once"
        } else {
            ""
        };
        assert!(
            row.contains(&format!("data-label=\"Monthly\">{amount}{once}</td>")),
            "{item}: {row}"
        );
    }
    // The first month adds the one-time lines to the monthly cost.
    let first = ev["cost"]["monthly"].as_f64().unwrap() + ev["cost"]["one_time"].as_f64().unwrap();
    assert!(
        table.contains(&format!(
            "the first month, with the one-time lines, {}",
            dollars(first)
        )),
        "{table}"
    );
}

#[tokio::test]
async fn platform_fields_are_rendered_and_round_trip_through_the_form() {
    let app = spawn_app().await;
    let mut avs = sample_scenario();
    avs["name"] = json!("AVS cluster of 12");
    avs["clients"]["avs"]["cluster_hosts"] = json!(12);
    let mut smb = sample_scenario();
    smb["name"] = json!("Encrypted SMB");
    smb["clients"]["avs"] = Value::Null;
    smb["clients"]["protocol"] = json!("smb3");
    smb["clients"]["smb_security"] = json!("encryption");
    for scenario in [platform_scenario(), avs, smb] {
        let name = scenario["name"].as_str().unwrap().to_owned();
        let id = app.create(&scenario).await;
        let (status, html) = page(&app, &format!("/scenarios/{id}")).await;
        assert_eq!(status, 200, "{name}");
        let before = stored(&app, id).await;
        // Save the form exactly as rendered: a new revision with the same scenario.
        let mut sent = submitted_form(&html);
        sent.push(("scenario_id".into(), id.to_string()));
        let res = post_form(&app, &format!("/scenarios/{id}"), &sent).await;
        assert_eq!(res.status(), 303, "{name}: {}", res.text().await.unwrap());
        let after = stored(&app, id).await;
        for part in [
            "workload",
            "storage",
            "clients",
            "region",
            "pricing",
            "data_protection",
        ] {
            assert_eq!(after[part], before[part], "{name}: {part}");
        }
    }

    // What the page shows for the first one.
    let id = app.create(&platform_scenario()).await;
    let (_, html) = page(&app, &format!("/scenarios/{id}")).await;
    for expect in [
        "<option value=\"breakthrough\" data-show=\"anf\" data-fallback=\"large\" selected>Large, breakthrough mode</option>",
        "<label for=\"f-storage.cool_access.cool_data_pct\">Data on the cool tier</label>",
        "<label for=\"f-clients.nfs_client\">NFS client</label>",
        "<option value=\"dnfs\" selected>Oracle Direct NFS (dNFS)</option>",
        "<label for=\"f-clients.sec\">NFS security</label>",
        "<option value=\"krb5\" selected>krb5 (authentication)</option>",
        "<label for=\"f-clients.smb_security\">SMB security</label>",
        "<label for=\"f-clients.avs.cluster_hosts\">Hosts in the cluster</label>",
        "<option value=\"nfsv3\" data-show=\"nfsv3-option\" data-fallback=\"nfsv4.1\">NFSv3</option>",
    ] {
        assert!(html.contains(expect), "page shows {expect}");
    }
    assert!(html.contains(
        "id=\"f-storage.cool_access\" name=\"storage.cool_access\" type=\"checkbox\" value=\"on\" checked"
    ));
    assert!(html.contains("name=\"storage.cool_access.cool_read_pct\" type=\"text\" inputmode=\"decimal\" autocomplete=\"off\" spellcheck=\"false\" value=\"5\""));
    for (field, show) in [
        ("clients.nfs_client", "nfs-client"),
        ("clients.sec", "nfs-sec"),
        ("clients.smb_security", "smb-sec"),
        ("storage.cool_access", "cool-option"),
        ("clients.avs", "avs-option"),
    ] {
        let at = html.find(&format!("id=\"f-{field}\"")).unwrap();
        let div = html[..at].rfind("<div class=\"field").unwrap();
        assert!(
            html[div..at].contains(&format!("data-show=\"{show}\"")),
            "{field} is shown by rule {show}"
        );
    }
}

#[tokio::test]
async fn service_rules_answer_422_next_to_the_field_without_javascript() {
    let app = spawn_app().await;
    let mut files = sample_scenario();
    files["storage"] = json!({ "service": "azure_files", "level": "ssd_v1",
                               "volumes": [{ "count": 1, "quota_tib": 10 }] });
    files["clients"]["avs"] = Value::Null;
    let mut gcnv_avs = sample_scenario();
    gcnv_avs["storage"]["service"] = json!("gcnv");
    gcnv_avs["storage"]["level"] = json!("premium");
    let mut big_cluster = sample_scenario();
    big_cluster["clients"]["avs"]["cluster_hosts"] = json!(17);
    let mut v3_krb = sample_scenario();
    v3_krb["clients"]["avs"] = Value::Null;
    v3_krb["clients"]["sec"] = json!("krb5p");
    let mut nfs_signing = sample_scenario();
    nfs_signing["clients"]["avs"] = Value::Null;
    nfs_signing["clients"]["smb_security"] = json!("signing");
    let mut gcnv_cool = gcnv_avs.clone();
    gcnv_cool["clients"]["avs"] = Value::Null;
    gcnv_cool["storage"]["cool_access"] = json!({ "cool_data_pct": 50, "cool_read_pct": 5 });
    let mut dnfs_avs = sample_scenario();
    dnfs_avs["clients"]["nfs_client"] = json!("dnfs");
    for (scenario, field, message) in [
        (files, "clients.protocol", "NFSv4.1 only"),
        (gcnv_avs, "clients.avs", "Azure NetApp Files feature"),
        (
            big_cluster,
            "clients.avs.cluster_hosts",
            "3 to 16 hosts, not 17",
        ),
        (v3_krb, "clients.sec", "NFSv4.1 volumes only"),
        (nfs_signing, "clients.smb_security", "apply to SMB shares"),
        (
            gcnv_cool,
            "storage.cool_access",
            "Azure NetApp Files feature",
        ),
        (dnfs_avs, "clients.nfs_client", "Direct NFS"),
    ] {
        let pairs = form_pairs(&scenario);
        let res = post_form(&app, "/scenarios/evaluate", &pairs).await;
        assert_eq!(res.status(), 422, "{field}");
        let html = res.text().await.unwrap();
        let (at, text) = field_error(&html, field);
        assert!(text.contains(message), "{field}: {text}");
        assert!(
            html.contains(&format!("id=\"f-{field}\" name=\"{field}\"")),
            "{field}: the input is on the page"
        );
        // The message sits in the field's own box, marked invalid.
        let input = html.find(&format!("id=\"f-{field}\"")).unwrap();
        let div = html[..input].rfind("<div class=\"field").unwrap();
        assert!(
            html[div..input].contains("has-error"),
            "{field}: box marked"
        );
        assert!(at > input, "{field}: the message follows its input");
        // Saving is refused the same way.
        let res = post_form(&app, "/scenarios", &pairs).await;
        assert_eq!(res.status(), 422, "{field}: not saved");
    }
}

#[tokio::test]
async fn every_page_links_to_what_if_in_the_navigation() {
    let app = spawn_app().await;
    for path in [
        "/",
        "/scenarios/new",
        "/compare",
        "/layouts",
        "/advisor",
        "/whatif",
        "/prices",
        "/iac",
    ] {
        let (status, html) = page(&app, path).await;
        assert_eq!(status, 200, "{path}");
        let nav = html
            .split("<nav aria-label=\"Main\">")
            .nth(1)
            .and_then(|n| n.split("</nav>").next())
            .unwrap_or_else(|| panic!("{path}: main navigation"));
        assert!(
            nav.contains("href=\"/whatif\""),
            "{path}: What-if in the navigation"
        );
    }
}

/// Five wrong inputs, found by different checks (a format error, a range, a whole
/// number, the catalog, the price book): one post marks all five.
#[tokio::test]
async fn five_wrong_inputs_are_marked_in_one_post() {
    let app = spawn_app().await;
    let mut pairs = form_pairs(&sample_scenario());
    set(&mut pairs, "workload.io_size_kib", "big");
    set(&mut pairs, "workload.read_pct", "140");
    set(&mut pairs, "clients.nconnect", "99");
    set(&mut pairs, "clients.vm_size", "Standard_E32s_v9");
    pairs.retain(|(k, _)| k != "region");
    pairs.push(("region".into(), "westeurop".into()));
    let res = post_form(&app, "/scenarios/evaluate", &pairs).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    for (field, says) in [
        ("workload.io_size_kib", "number"),
        ("workload.read_pct", "from 0 to 100"),
        ("clients.nconnect", "from 1 to 16"),
        ("clients.vm_size", "Standard_E32s_v9"),
        ("region", "Did you mean West Europe (westeurope)?"),
    ] {
        let (_, message) = field_error(&html, field);
        assert!(message.contains(says), "{field}: {message}");
        // Quoted as prose quotes, with no API path: the page speaks to a person.
        assert!(
            !message.contains('`') && !message.contains("/api/"),
            "{field}: {message}"
        );
    }
}

#[tokio::test]
async fn form_errors_come_in_one_round_and_speak_of_the_inputs() {
    let app = spawn_app().await;
    let pairs = form_pairs(&sample_scenario());

    // A format error and range errors on other inputs: all of them at once.
    let mut bad = pairs.clone();
    set(&mut bad, "clients.nconnect", "lots");
    set(&mut bad, "workload.read_pct", "140");
    set(&mut bad, "storage.volumes[0].quota_tib", "-5");
    let res = post_form(&app, "/scenarios/evaluate", &bad).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        field_error(&html, "clients.nconnect")
            .1
            .contains("whole number")
    );
    assert!(
        field_error(&html, "workload.read_pct")
            .1
            .contains("from 0 to 100")
    );
    assert!(
        !field_error(&html, "storage.volumes[0].quota_tib")
            .1
            .is_empty()
    );

    // A pasted 5,000-character name: the same message box as every input, nothing cut.
    let mut long = pairs.clone();
    let name = "N".repeat(5000);
    set(&mut long, "name", &name);
    let res = post_form(&app, "/scenarios/evaluate", &long).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(
        field_error(&html, "name")
            .1
            .contains("at most 200 characters")
    );
    assert!(
        html.contains(&format!("value=\"{name}\"")),
        "the name is kept whole"
    );
    assert!(
        !html.contains("maxlength=\"200\""),
        "typing is not cut silently"
    );

    // An unknown VM size: the input by its label, how to choose, no API field names.
    let mut vm: Vec<(String, String)> = pairs
        .iter()
        .filter(|(k, _)| k != "clients.avs")
        .cloned()
        .collect();
    set(&mut vm, "clients.vm_size", "Standard_Nope");
    let res = post_form(&app, "/scenarios/evaluate", &vm).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    let (_, message) = field_error(&html, "clients.vm_size");
    assert!(
        message.contains("Standard_Nope") && message.contains("VM size"),
        "{message}"
    );
    assert!(
        message.contains("choose one from the VM size list"),
        "{message}"
    );
    assert!(
        !message.contains("egress_mibps") && !message.contains("clients."),
        "{message}"
    );
}

#[tokio::test]
async fn a_figure_reads_the_same_in_the_sentence_and_the_table() {
    let app = spawn_app().await;
    let mut s = sample_scenario();
    // A quota that makes the binding limit a fraction: 4 x 20.003 TiB x 128 MiB/s.
    s["storage"]["volumes"][0]["quota_tib"] = json!(20.003);
    let id = app.create(&s).await;
    let (_, html) = page(&app, &format!("/scenarios/{id}")).await;
    let sentence = html
        .split("<p class=\"bound-by\">")
        .nth(1)
        .and_then(|p| p.split("</p>").next())
        .expect("the bound-by sentence");
    let row = html
        .split("<tr class=\"binding\">")
        .nth(1)
        .and_then(|r| r.split("</tr>").next())
        .expect("the binding row");
    let mibps = row
        .split("<td class=\"n\">")
        .nth(1)
        .and_then(|c| c.split("</td>").next())
        .expect("its MiB/s cell");
    assert!(!mibps.contains('.'), "exact to the unit: {mibps}");
    assert!(
        sentence.contains(&format!("= {mibps} MiB/s")),
        "{sentence} against {mibps}"
    );
}

/// History names every change in words and expands the ones past the first three.
#[tokio::test]
async fn history_expands_the_rest_of_a_revisions_changes_in_words() {
    let app = spawn_app().await;
    let mut s = named("History plan");
    let id = app.create(&s).await;
    s["workload"]["threads"] = json!(32);
    s["workload"]["read_pct"] = json!(50);
    s["workload"]["queue_depth"] = json!(8);
    s["pricing"] = json!({"currency": "USD", "discount_pct": 12, "reservation": "none"});
    s["region"] = json!("westeurope");
    let res = app.put_json(&format!("/api/v1/scenarios/{id}"), &s).await;
    assert_eq!(res.status(), 200);
    let (_, html) = page(&app, &format!("/scenarios/{id}")).await;
    let row = html
        .split("<td class=\"changes\">")
        .nth(1)
        .and_then(|r| r.split("</td>").next())
        .expect("a history row with changes");
    assert!(
        row.contains("<details class=\"more-changes\"><summary>"),
        "{row}"
    );
    let shown = row.split("<details").next().unwrap();
    let more: Vec<&str> = row
        .split("<li>")
        .skip(1)
        .map(|l| l.split("</li>").next().unwrap())
        .collect();
    assert_eq!(shown.matches(" → ").count(), 3, "{row}");
    assert!(
        row.contains(&format!("<summary>{} more</summary>", more.len())),
        "{row}"
    );
    // Three pricing fields, the region and three workload inputs.
    assert_eq!(more.len() + 3, 7, "{row}");
    for line in shown.split("; ").chain(more.iter().copied()) {
        let field = line.split(": ").next().unwrap();
        assert!(
            !field.contains('.') && !field.contains('_'),
            "named in words: {line}"
        );
    }
    assert!(row.contains("Discount: "), "{row}");
}
