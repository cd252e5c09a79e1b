//! The layouts and compare pages explain themselves: the inputs that decide a layout
//! can be changed and each row says why; compare shows the inputs, the ones that differ
//! marked, against a baseline the user picks.

use crate::helpers::{sample_scenario, spawn_app};
use serde_json::json;

/// The text of the "Why" cell of the layouts row with `count` volumes (before its link).
fn why(html: &str, count: u32) -> String {
    let row = html
        .split(&format!("<tr data-count=\"{count}\""))
        .nth(1)
        .unwrap_or_else(|| panic!("a row of {count}"));
    row.split("<td class=\"why\">")
        .nth(1)
        .and_then(|c| c.split("<a class=\"use-layout\"").next())
        .unwrap_or_default()
        .trim()
        .to_owned()
}

#[tokio::test]
async fn layouts_take_the_inputs_that_decide_them_and_say_why() {
    let app = spawn_app().await;
    let html = app.get_text("/layouts?counts=4,20").await;
    for name in [
        "vms_per_host",
        "vmdks_per_vm",
        "placement",
        "io_size_kib",
        "read_pct",
    ] {
        assert!(html.contains(&format!("name=\"{name}\"")), "{name} control");
    }
    let wide = why(&html, 20);
    assert!(
        wide.contains("busiest of 20 datastores holds 4 of 64 VMDKs")
            && wide.contains("caps it at"),
        "{wide}"
    );

    // One VM per host with one VMDK, dedicated: only 4 of the 20 datastores work.
    let html = app
        .get_text("/layouts?counts=4,20&vms_per_host=1&vmdks_per_vm=1&placement=dedicated&io_size_kib=8&read_pct=70")
        .await;
    let narrow = why(&html, 20);
    assert!(
        narrow.starts_with("4 of 20 datastores carry load"),
        "{narrow}"
    );
    assert!(html.contains("value=\"8\"") && html.contains("value=\"70\""));

    let res = app.get("/layouts?read_pct=-80").await;
    assert_eq!(res.status(), 422);
    let text = res.text().await.unwrap();
    assert!(
        text.contains("“-80” is not a read share") && !text.contains('`'),
        "the message quotes what was typed"
    );
    assert!(
        text.contains("value=\"-80\""),
        "the field keeps what was typed"
    );
    let res = app.get("/layouts?placement=sideways").await;
    assert_eq!(res.status(), 422);
}

/// A text as the browser reads it (askama escapes `"&'<>` numerically).
fn unescape(html: &str) -> String {
    [
        ("&#34;", "\""),
        ("&#39;", "'"),
        ("&#60;", "<"),
        ("&#62;", ">"),
        ("&#38;", "&"),
    ]
    .into_iter()
    .fold(html.to_owned(), |t, (code, ch)| t.replace(code, ch))
}

/// The `<li>` texts of the list inside the element with `id`.
fn items(html: &str, id: &str) -> Vec<String> {
    let list = html
        .split(&format!("id=\"{id}\""))
        .nth(1)
        .and_then(|t| t.split("</ul>").next())
        .unwrap_or_else(|| panic!("#{id}"));
    list.split("<li>")
        .skip(1)
        .map(|li| unescape(li.split("</li>").next().unwrap()))
        .collect()
}

/// The texts of a JSON array of strings, or of one field of each object in it.
fn texts(v: &serde_json::Value, field: Option<&str>) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| field.map_or(x, |f| &x[f]).as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_layouts_page_prints_the_verdict_the_layouts_api_answers() {
    let app = spawn_app().await;
    let example: serde_json::Value = serde_json::from_str(include_str!(
        "../../src/web/scenario_templates/avs-datastores.json"
    ))
    .unwrap();
    for vmdks in [4, 5] {
        let mut s = example.clone();
        s["clients"]["avs"]["vmdks_per_vm"] = json!(vmdks);
        let api = app
            .post_json(
                "/api/v1/layouts",
                &json!({"scenario": s, "total_tib": 80, "counts": [1, 4, 20], "versus": 20}),
            )
            .await;
        assert_eq!(api.status(), 200);
        let v: serde_json::Value = api.json().await.unwrap();
        let v = &v["verdict"];
        // The example sets its own 4 x 20 TiB beside 20 x 4 TiB unless told otherwise.
        let html = app
            .get_text(&format!("/layouts?counts=1,4,20&vmdks_per_vm={vmdks}"))
            .await;
        assert_eq!(
            items(&html, "layouts-verdict"),
            texts(&v["statements"], None)
        );
        assert_eq!(
            items(&html, "layouts-deciders"),
            texts(&v["sensitivity"], Some("statement"))
        );
        let whys: Vec<String> = [1, 4, 20].map(|n| unescape(&why(&html, n))).to_vec();
        assert_eq!(whys, texts(&v["why"], None));
        assert_eq!(v["pair"], json!([1, 2]));
        assert!(html.contains("<tr data-count=\"20\" class=\" highlight\">"));
    }

    // "Use this layout" opens a saved base scenario with the layout as an unsaved edit.
    let id = app.create(&example).await;
    let html = app
        .get_text(&format!("/layouts?base={id}&counts=4,20"))
        .await;
    let row = html.split("<tr data-count=\"20\"").nth(1).unwrap();
    let href = row
        .split("class=\"use-layout\" href=\"")
        .nth(1)
        .and_then(|h| h.split('"').next())
        .unwrap();
    let href = unescape(href);
    assert!(href.starts_with(&format!("/scenarios/{id}?s=")), "{href}");
    let planner = app.get_text(&href).await;
    assert!(planner.contains("class=\"plan-status dirty\""));
    assert!(planner.contains("with the inputs from a link: not saved yet"));
    let value = |name: &str| {
        planner
            .split(&format!("name=\"{name}\""))
            .nth(1)
            .and_then(|r| r.split("value=\"").nth(1))
            .and_then(|v| v.split('"').next())
            .unwrap()
            .to_owned()
    };
    assert_eq!(value("storage.volumes[0].count"), "20");
    assert_eq!(value("storage.volumes[0].quota_tib"), "4");
    assert!(planner.contains(&format!("name=\"scenario_id\" value=\"{id}\"")));
    app.stop().await;
}

#[tokio::test]
async fn compare_shows_the_inputs_that_differ_against_a_chosen_baseline() {
    let app = spawn_app().await;
    let a = app.create(&sample_scenario()).await;
    let mut premium = sample_scenario();
    premium["name"] = json!("Premium variant");
    premium["storage"]["level"] = json!("premium");
    let b = app.create(&premium).await;

    let list = app.get_text("/compare").await;
    assert!(
        list.contains("Azure NetApp Files Premium"),
        "vendor names in the list"
    );
    assert!(!list.contains("anf premium"));

    let html = app.get_text(&format!("/compare?id={a}&id={b}")).await;
    // The verdict of the pair: which is better and why, each one's cause, what decides it.
    let verdict = &html[html.find("id=\"compare-verdict\"").expect("the verdict")..];
    let verdict = &verdict[..verdict.find("</ul>").unwrap()];
    assert!(verdict.matches("<li>").count() >= 3, "{verdict}");
    assert!(verdict.contains("Premium variant"), "{verdict}");
    let inputs = &html[html.find("id=\"compare-inputs\"").expect("input rows")..];
    let level = inputs
        .split("<tr")
        .find(|r| r.contains("Service level"))
        .expect("the level row");
    assert!(level.contains("class=\"differs\"") && level.contains("class=\"changed\""));
    let io = inputs
        .split("<tr")
        .find(|r| r.contains(">IO size"))
        .expect("the IO size row");
    assert!(!io.contains("differs"), "equal inputs are not marked: {io}");
    assert!(html.contains("deltas against “AVS 4 x 20 TiB Ultra”"));

    let html = app
        .get_text(&format!("/compare?id={a}&id={b}&baseline=2"))
        .await;
    assert!(
        html.contains("deltas against “Premium variant”"),
        "the chosen baseline"
    );
    assert!(html.contains(&format!("/scenarios/{b}/report.pdf?compare={a}")));
    assert!(html.contains("<option value=\"2\" selected>Premium variant</option>"));
}

#[tokio::test]
async fn layouts_keep_every_typed_value_beside_its_message() {
    let app = spawn_app().await;
    for (field, typed, quoted) in [
        ("total_tib", "-80", "“-80” is not a capacity"),
        ("hosts", "-3", "“-3” is not a host count"),
        ("vms_per_host", "-2", "“-2” is not a VM count"),
        ("vmdks_per_vm", "0", "“0” is not a VMDK count"),
    ] {
        let res = app.get(&format!("/layouts?{field}={typed}")).await;
        assert_eq!(res.status(), 422, "{field}");
        let html = res.text().await.unwrap();
        assert!(html.contains(quoted), "{field}: the message quotes it");
        let input = html
            .split(&format!("name=\"{field}\""))
            .nth(1)
            .and_then(|rest| rest.split('>').next())
            .unwrap_or_else(|| panic!("an input named {field}"));
        assert!(
            input.contains(&format!("value=\"{typed}\"")),
            "{field} keeps what was typed: {input}"
        );
    }
}

#[tokio::test]
async fn layouts_and_compare_download_what_they_show() {
    let app = spawn_app().await;
    let query = "counts=4,20&vms_per_host=2";
    let html = app.get_text(&format!("/layouts?{query}")).await;
    let link = format!("href=\"/layouts.csv?{}\"", query.replace('&', "&#38;"));
    assert!(
        html.contains(&link),
        "{link} in {}",
        html.split("menu-body").nth(1).unwrap_or("")
    );
    assert!(html.contains("href=\"/layouts.md?"));
    let res = app.get(&format!("/layouts.csv?{query}")).await;
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let csv = res.text().await.unwrap();
    let counts: Vec<&str> = csv
        .lines()
        .filter_map(|l| l.split(',').next())
        .filter(|c| c.parse::<u32>().is_ok())
        .collect();
    assert_eq!(counts, ["4", "20"], "{csv}");
    let md = app.get_text(&format!("/layouts.md?{query}")).await;
    assert!(md.starts_with("# Datastore layouts"), "{md}");
    assert!(md.contains("| 20 |"), "{md}");
    assert_eq!(app.get("/layouts.csv?total_tib=-80").await.status(), 422);

    let a = app.create(&sample_scenario()).await;
    let mut premium = sample_scenario();
    premium["name"] = json!("Premium variant");
    premium["storage"]["level"] = json!("premium");
    let b = app.create(&premium).await;
    let html = app.get_text(&format!("/compare?id={a}&id={b}")).await;
    assert!(html.contains(&format!("href=\"/compare.csv?id={a}&#38;id={b}\"")));
    assert!(html.contains(&format!(
        "/scenarios/{a}/report.pdf?compare={b}&amp;paper=letter"
    )));
    let csv = app.get_text(&format!("/compare.csv?id={a}&id={b}")).await;
    assert!(
        csv.contains("Premium variant") && csv.contains("Monthly cost"),
        "{csv}"
    );
    let md = app.get_text(&format!("/compare.md?id={a}&id={b}")).await;
    assert!(
        md.contains("| Metric | AVS 4 x 20 TiB Ultra | Premium variant |"),
        "{md}"
    );
    assert_eq!(app.get(&format!("/compare.md?id={a}")).await.status(), 422);

    let planner = app.get_text(&format!("/scenarios/{a}")).await;
    assert!(planner.contains(&format!("href=\"/scenarios/{a}/report.pdf?paper=letter\"")));
}

/// Every count of the layouts form is checked on each edit: all those that are not
/// counts are named in one message, and the API names each out-of-range one.
#[tokio::test]
async fn layouts_check_every_count_at_once() {
    let app = spawn_app().await;
    let res = app.get("/layouts?counts=4%2C+x%2C+0+2000%2C+8").await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    let message = html
        .split("id=\"e-counts\">")
        .nth(1)
        .and_then(|m| m.split("</span>").next())
        .unwrap();
    assert!(
        message.starts_with("“x”, “0” and “2000” are not counts of volumes"),
        "{message}"
    );
    assert!(
        html.contains("value=\"4, x, 0 2000, 8\""),
        "the typed counts stay"
    );
    let ok = app.get("/layouts?counts=4%2C+8").await;
    assert_eq!(ok.status(), 200, "fixed, the same edit passes");

    let body = json!({"scenario": sample_scenario(), "total_tib": 80, "counts": [4, 0, 2000]});
    let res = app.post_json("/api/v1/layouts", &body).await;
    assert_eq!(res.status(), 422);
    let e: serde_json::Value = res.json().await.unwrap();
    let fields: Vec<&str> = e["errors"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|x| x["field"].as_str())
        .collect();
    assert_eq!(fields, ["counts[1]", "counts[2]"], "{e}");
}

/// The compare page's example link names the server's own address, whatever Host the
/// request gave.
#[tokio::test]
async fn the_compare_placeholder_is_the_servers_own_address() {
    let app = spawn_app().await;
    let port = app.base.rsplit(':').next().unwrap().to_owned();
    let html = app
        .client
        .get(format!("{}/compare", app.base))
        .header("host", format!("localhost:{port}"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        html.contains(&format!("placeholder=\"{}/plan?s=…\"", app.base)),
        "the bound address"
    );
    assert!(!html.contains("localhost:"), "not the request's Host");
}
