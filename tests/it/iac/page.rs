//! The Check code page: the answer of `POST /api/v1/iac/evaluate` word for word, the
//! estate line of several pools, and errors beside their field with the code kept.

use super::template;
use crate::helpers::{field_message, spawn_app};
use crate::texts::unescape_html;
use serde_json::{Value, json};

/// The Terraform a starter template exports as, after `edit`.
pub fn terraform(key: &str, edit: impl FnOnce(&mut Value)) -> String {
    let mut s = template(key);
    edit(&mut s);
    let s: volplan::engine::Scenario = serde_json::from_value(s).unwrap();
    let book = volplan::engine::pricing::book();
    let layout = volplan::iac::layout::of_scenario(&s, "a test", book).unwrap();
    volplan::iac::export(&layout, volplan::iac::Format::Terraform).unwrap()
}

fn manual_sap() -> String {
    terraform("sap-hana", |s| {
        s["storage"]["qos"] = json!("manual");
        s["storage"]["volumes"][0]["throughput_mibps"] = json!(300);
    })
}

/// What the API answers for `code`, with `query`.
async fn api(app: &crate::helpers::TestApp, code: &str, query: &str) -> Value {
    let res = app
        .send_raw(
            reqwest::Method::POST,
            &format!("/api/v1/iac/evaluate{query}"),
            Some("application/octet-stream"),
            code.as_bytes().to_vec(),
        )
        .await;
    assert_eq!(res.status(), 200);
    res.json().await.unwrap()
}

fn texts(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_owned())
        .collect()
}

/// The text box's content as the browser reads it (one leading newline dropped).
fn kept(html: &str) -> String {
    let inner = html
        .split_once("id=\"f-text\"")
        .and_then(|(_, r)| r.split_once('>'))
        .and_then(|(_, r)| r.split_once("</textarea>"))
        .map(|(t, _)| t)
        .expect("the text box");
    unescape_html(inner.strip_prefix('\n').unwrap_or(inner))
}

#[tokio::test]
async fn the_check_code_page_answers_what_the_api_answers() {
    let app = spawn_app().await;
    let form = app.get_text("/iac").await;
    assert!(form.contains("id=\"iac-check\""), "{form}");
    assert!(form.contains("href=\"/iac\" aria-current=\"page\""));
    assert!(
        app.get_text("/live").await.contains("href=\"/iac\""),
        "in the navigation of every page"
    );

    let tf = manual_sap();
    let answer = api(&app, &tf, "?max_monthly=100").await;
    let res = app
        .post_multipart(
            "/iac",
            &[
                ("csrf", None, crate::helpers::FORM_TOKEN),
                ("code", Some("main.tf"), &tf),
                ("text", None, ""),
                ("max_monthly", None, "100"),
            ],
        )
        .await;
    assert_eq!(res.status(), 200);
    let raw = res.text().await.unwrap();
    let html = unescape_html(&raw);
    let statements = texts(&answer["statements"]);
    assert!(
        statements.iter().any(|s| s.contains("over the ceiling")),
        "{statements:?}"
    );
    assert!(statements.iter().any(|s| s.contains("of the pool's")));
    for s in statements
        .iter()
        .chain(&texts(&answer["evaluations"][0]["verdict"]["statements"]))
    {
        assert!(html.contains(&format!("<li>{s}</li>")), "{s} on the page");
    }
    let name = answer["scenarios"][0]["name"].as_str().unwrap();
    let row = html
        .split_once(&format!("<th scope=\"row\">{name}</th>"))
        .and_then(|(_, r)| r.split_once("</tr>"))
        .map(|(r, _)| r.to_owned())
        .expect("the pool's row");
    let e = &answer["evaluations"][0];
    let reach = volplan::format::mibps(e["throughput_mibps"].as_f64().unwrap());
    assert!(row.contains(&reach), "{row}");
    assert!(row.contains("/month"), "{row}");
    // The file's code comes back in the text box, the budget in its field.
    assert_eq!(kept(&raw), tf);
    assert!(raw.contains("value=\"100\""));
}

#[tokio::test]
async fn several_pools_get_the_estate_line_and_a_row_each() {
    let app = spawn_app().await;
    let tf = [
        manual_sap(),
        terraform("oracle-dnfs", |s| {
            s["name"] = json!("Oracle");
        }),
    ];
    // Two files in one: the second's variables repeat the first's.
    let both = format!(
        "{}\n{}",
        tf[0],
        tf[1].replace("variable \"", "variable \"b_")
    );
    let answer = api(&app, &both, "").await;
    let pools = answer["scenarios"].as_array().unwrap().len();
    assert_eq!(pools, 2, "{answer}");
    let res = app
        .post_multipart("/iac", &[("text", None, &both), ("max_monthly", None, "")])
        .await;
    assert_eq!(res.status(), 200);
    let html = unescape_html(&res.text().await.unwrap());
    let together = texts(&answer["statements"])
        .into_iter()
        .find(|s| s.contains("pools cost"))
        .expect("the estate line");
    assert!(together.contains("2 pools"), "{together}");
    assert!(html.contains(&together));
    let table = html.split_once("id=\"iac-pools\"").unwrap().1;
    let table = table.split_once("</table>").unwrap().0;
    assert_eq!(table.matches("<th scope=\"row\">").count(), 2);
}

#[tokio::test]
async fn an_error_is_named_beside_its_field_and_the_code_is_kept() {
    let app = spawn_app().await;
    let broken = "resource \"azurerm_netapp_pool\" \"p\" {\n  service_level = \"Premium\"\n  size_in_tb = \n}\n";
    let res = app
        .post_multipart("/iac", &[("text", None, broken), ("max_monthly", None, "")])
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    let message = field_message(&html, "code");
    assert!(message.starts_with("Not read:"), "{message}");
    assert!(message.contains("line 3, column 16"), "{message}");
    assert!(html.contains("aria-invalid=\"true\""));
    assert!(!html.contains("id=\"iac-verdict\""));
    assert_eq!(kept(&html), broken);

    let tf = manual_sap();
    let res = app
        .post_multipart(
            "/iac",
            &[("text", None, &tf), ("max_monthly", None, "lots")],
        )
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(field_message(&html, "max").contains("monthly cost above 0"));
    assert_eq!(field_message(&html, "code"), "");
    assert_eq!(kept(&html), tf);
    assert!(html.contains("value=\"lots\""));

    let res = app
        .post_multipart("/iac", &[("text", None, "  "), ("max_monthly", None, "")])
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(field_message(&html, "code").contains("Choose a file or paste the code"));

    // Code without NetApp pools: what to send.
    let res = app
        .post_multipart(
            "/iac",
            &[("text", None, "resource \"aws_s3_bucket\" \"b\" {}")],
        )
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(field_message(&html, "code").contains("no NetApp pool found"));

    // Over the 8 MiB of code: refused before it is read.
    let huge = "#".repeat(9 << 20);
    let res = app.post_multipart("/iac", &[("text", None, &huge)]).await;
    assert_eq!(res.status(), 413);
    assert!(res.text().await.unwrap().contains("8 MiB"));
}

#[tokio::test]
async fn the_api_compares_the_cost_with_the_baseline_s() {
    let app = spawn_app().await;
    let tf = manual_sap();
    let monthly = api(&app, &tf, "").await["monthly"].as_f64().unwrap();
    let before = (monthly / 1.5 * 100.0).round() / 100.0;
    let answer = api(
        &app,
        &tf,
        &format!("?baseline_monthly={before}&max_increase_pct=10"),
    )
    .await;
    let growth = &answer["growth"];
    assert_eq!(growth["over"], true, "{growth}");
    assert_eq!(growth["baseline_monthly"].as_f64(), Some(before));
    let pct = growth["increase_pct"].as_f64().unwrap();
    assert!((pct - 50.0).abs() < 0.1, "{pct}");
    let last = texts(&answer["statements"]).pop().unwrap();
    assert_eq!(last, growth["statement"].as_str().unwrap());
    assert!(
        last.ends_with("over the allowed increase of 10%."),
        "{last}"
    );
    let answer = api(&app, &tf, &format!("?baseline_monthly={before}")).await;
    assert_eq!(answer["growth"]["over"], false);
    assert!(api(&app, &tf, "").await["growth"].is_null());
    for (query, field) in [
        ("?max_increase_pct=10", "max_increase_pct"),
        ("?baseline_monthly=-1", "baseline_monthly"),
        (
            "?baseline_monthly=100&max_increase_pct=-3",
            "max_increase_pct",
        ),
    ] {
        let res = app
            .send_raw(
                reqwest::Method::POST,
                &format!("/api/v1/iac/evaluate{query}"),
                Some("application/octet-stream"),
                tf.clone().into_bytes(),
            )
            .await;
        assert_eq!(res.status(), 422, "{query}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["field"], field, "{query}: {body}");
    }
}
