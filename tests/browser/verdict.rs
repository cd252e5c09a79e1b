//! A new user's way to an answer: the AVS 4 x 20 TiB vs 20 x 4 TiB template shows its
//! verdict with what decides it; the layouts page says which layout wins and why (the
//! busiest datastore's share of the VMDKs); 5 VMDKs per VM flips it, with its reason;
//! "Use this layout" opens the planner, Apply fills in the recommendation as an unsaved
//! edit, Save keeps it, and a reload shows it kept.
//!
//! Every statement checked is the one the API answers for the same inputs (fetched
//! here), never a sentence written into the test; only the words that name the
//! mechanism ("busiest", "4 of 64 VMDKs", "evenly") are.

use super::{Res, js, value_of, wait_for};
use fantoccini::{Client, Locator};
use serde_json::{Value, json};

/// The planner form's inputs as the server reads them (its Scenario JSON download).
pub(super) async fn form_scenario(c: &Client) -> Res<Value> {
    let s = c
        .execute_async(
            "const done = arguments[arguments.length - 1]; \
             fetch('/scenarios/scenario.json', { method: 'POST', \
               body: new URLSearchParams(new FormData(document.getElementById('planner'))) }) \
             .then(r => r.json()).then(done, e => done({ error: String(e) }));",
            vec![],
        )
        .await?;
    if s.get("error").is_some() {
        return Err(format!("the form's scenario: {s}").into());
    }
    Ok(s)
}

/// Clicks the element `css` matches.
pub(super) async fn click(c: &Client, css: &str) -> Res {
    c.find(Locator::Css(css)).await?.click().await?;
    Ok(())
}

/// The planner form's scenario and the API's evaluation of it, with its verdict.
pub(super) async fn judge_form(c: &Client, base: &str) -> Res<(Value, Value)> {
    let s = form_scenario(c).await?;
    let judged = post(base, "/api/v1/evaluate", &s).await?;
    Ok((s, judged))
}

/// `POST {base}{path}` with a JSON body; the JSON answer.
async fn post(base: &str, path: &str, body: &Value) -> Res<Value> {
    let res = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .json(body)
        .send()
        .await?;
    let status = res.status();
    let answer: Value = res.json().await?;
    if !status.is_success() {
        return Err(format!("{path} answered {status}: {answer}").into());
    }
    Ok(answer)
}

/// The texts of the elements `css` matches, without the icons and screen-reader
/// prefixes in child elements (the text nodes only).
pub(super) async fn texts(c: &Client, css: &str) -> Res<Vec<String>> {
    let v = js(
        c,
        &format!(
            "Array.from(document.querySelectorAll({css:?}), e => Array.from(e.childNodes)
               .filter(n => n.nodeType === 3).map(n => n.textContent).join('').trim())"
        ),
    )
    .await?;
    Ok(serde_json::from_value(v)?)
}

/// The strings of a JSON array, or one field of each object in it.
fn strings(v: &Value, field: Option<&str>) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| field.map_or(x, |f| &x[f]).as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// The provisioning of a Scenario or a recommendation: level, QoS and each volume
/// group's count, quota and MiB/s (numbers as numbers, `4` and `4.0` alike).
pub(super) fn provisioning(v: &Value) -> (Value, Value, Vec<[Option<f64>; 3]>) {
    let groups = v["volumes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|g| ["count", "quota_tib", "throughput_mibps"].map(|f| g[f].as_f64()))
        .collect();
    (v["level"].clone(), v["qos"].clone(), groups)
}

/// The layouts page as shown against the layouts API's answer for the same inputs:
/// the statements, what decides them and each row's why. The answer.
async fn layouts_as_answered(c: &Client, base: &str, scenario: &Value) -> Res<Value> {
    let field = |id: &str| format!("document.getElementById('{id}').value");
    let total: f64 = js(c, &field("l-total"))
        .await?
        .as_str()
        .unwrap_or("")
        .parse()?;
    let counts: Vec<u32> = js(c, &field("l-counts"))
        .await?
        .as_str()
        .unwrap_or("")
        .split(|ch: char| ch == ',' || ch.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let versus: Option<u32> = js(c, &field("l-versus"))
        .await?
        .as_str()
        .unwrap_or("")
        .parse()
        .ok();
    let answer = post(
        base,
        "/api/v1/layouts",
        &json!({ "scenario": scenario, "total_tib": total, "counts": counts, "versus": versus }),
    )
    .await?;
    let v = &answer["verdict"];
    assert_eq!(
        texts(c, "#layouts-verdict > li").await?,
        strings(&v["statements"], None)
    );
    assert_eq!(
        texts(c, "#layouts-deciders li").await?,
        strings(&v["sensitivity"], Some("statement"))
    );
    assert_eq!(
        texts(c, "#layouts-table td.why").await?,
        strings(&v["why"], None)
    );
    Ok(answer)
}

/// The pair of layouts the verdict sets side by side: (count, MiB/s, why) of each.
fn pair(answer: &Value) -> Vec<(u64, f64, String)> {
    let v = &answer["verdict"];
    v["pair"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64)
        .map(|i| {
            let l = &answer["layouts"][i as usize];
            (
                l["count"].as_u64().unwrap_or(0),
                l["evaluation"]["throughput_mibps"].as_f64().unwrap_or(0.0),
                v["why"][i as usize].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

/// The one statement of the page that says which of the pair wins (or that they tie).
async fn headline(c: &Client) -> Res<String> {
    let all = texts(c, "#layouts-verdict > li").await?;
    all.into_iter()
        .find(|s| {
            s.contains(" beats ")
                || s.contains("give the same throughput")
                || s.starts_with("No clear winner")
        })
        .ok_or_else(|| "no statement sets the pair side by side".into())
}

pub async fn verdict_journey(c: &Client, base: &str) -> Res {
    // A new user opens the template from the home page.
    c.goto(&format!("{base}/")).await?;
    click(c, "a[href=\"/scenarios/new?template=avs-datastores\"]").await?;
    c.wait().for_element(Locator::Css("#verdict")).await?;
    let (template, judged) = judge_form(c, base).await?;
    let v = &judged["verdict"];
    // The verdict as the API gives it: each target, the recommendation, what binds and
    // the latency, then what decides it.
    assert_eq!(
        texts(c, "#verdict-targets li").await?,
        strings(&v["targets"], Some("statement"))
    );
    let shown = js(c, "document.getElementById('results').innerText").await?;
    let shown = shown.as_str().unwrap_or("");
    for s in strings(&v["statements"], None) {
        assert!(shown.contains(&s), "the planner shows “{s}”");
    }
    let deciders = strings(&v["sensitivity"], Some("statement"));
    assert!(
        !deciders.is_empty(),
        "the template has inputs that decide it"
    );
    assert_eq!(texts(c, "#deciders li").await?, deciders);

    // The layouts page (the menu) opens with the same template, its 4 x 20 TiB set
    // beside 20 x 4 TiB: which wins, and why.
    click(c, "nav a[href=\"/layouts\"]").await?;
    c.wait()
        .for_element(Locator::Css("#layouts-verdict"))
        .await?;
    let answer = layouts_as_answered(c, base, &template).await?;
    let before = pair(&answer);
    assert_eq!(
        before.iter().map(|p| p.0).collect::<Vec<_>>(),
        [4, 20],
        "{before:?}"
    );
    assert!(
        before[0].1 > before[1].1,
        "4 x 20 TiB gives more: {before:?}"
    );
    let wins = headline(c).await?;
    assert!(
        wins.starts_with("4 x 20 TiB") && wins.contains(" beats "),
        "{wins}"
    );
    // Why: the busiest of the 20 datastores holds 4 of the 64 VMDKs.
    assert!(
        before[1]
            .2
            .contains("busiest of 20 datastores holds 4 of 64 VMDKs"),
        "{}",
        before[1].2
    );
    let twenty = texts(c, "#layouts-table tr[data-count=\"20\"] td.why").await?;
    assert_eq!(twenty, [before[1].2.clone()]);
    assert!(
        texts(c, "#layouts-verdict > li")
            .await?
            .iter()
            .any(|s| s.contains("busiest of 20 datastores holds 4 of 64 VMDKs")),
        "the verdict names the imbalance"
    );
    // What decides it names the VMDKs per VM that would flip it.
    let flip = answer["verdict"]["sensitivity"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|x| x["input"] == "clients.avs.vmdks_per_vm" && x["value"] == 5)
        .ok_or("5 VMDKs per VM decides it")?;
    assert!(
        texts(c, "#layouts-deciders li")
            .await?
            .contains(&flip["statement"].as_str().unwrap_or("").to_owned())
    );

    // 5 VMDKs per VM: the verdict flips (or ties), and the reason goes with it.
    let vmdks = c.find(Locator::Id("l-vmdks")).await?;
    vmdks.clear().await?;
    vmdks.send_keys("5").await?;
    click(c, "form.tool-form button[type=\"submit\"]").await?;
    wait_for(
        c,
        "location.search.includes('vmdks_per_vm=5') && !!document.getElementById('layouts-verdict')",
        "the layouts with 5 VMDKs per VM",
    )
    .await?;
    let mut five = template.clone();
    five["clients"]["avs"]["vmdks_per_vm"] = json!(5);
    let answer = layouts_as_answered(c, base, &five).await?;
    let after = pair(&answer);
    assert!(
        after[1].1 >= after[0].1,
        "20 x 4 TiB no longer loses: {after:?}"
    );
    let now = headline(c).await?;
    assert_ne!(now, wins);
    assert!(
        now.starts_with("20 x 4 TiB")
            || now.contains("give the same throughput")
            || now.starts_with("No clear winner"),
        "{now}"
    );
    assert!(
        !after[1].2.contains("busiest") && after[1].2.contains("evenly"),
        "the 80 VMDKs spread evenly: {}",
        after[1].2
    );

    // Use this layout: the planner with 20 x 4 TiB and 5 VMDKs per VM, not saved.
    click(c, "#layouts-table tr[data-count=\"20\"] a.use-layout").await?;
    c.wait().for_element(Locator::Css("#verdict")).await?;
    assert_eq!(value_of(c, "storage.volumes[0].count").await?, "20");
    assert_eq!(value_of(c, "clients.avs.vmdks_per_vm").await?, "5");
    let (_, judged) = judge_form(c, base).await?;
    let rec = judged["verdict"]["recommendation"].clone();
    assert!(rec.is_object(), "a recommendation: {}", judged["verdict"]);
    assert_eq!(
        texts(c, "#recommendation .recommendation-text").await?,
        [rec["statement"].as_str().unwrap_or("").to_owned()]
    );

    // Apply: one click fills the form with it, marked as an unsaved edit.
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
    let level = value_of(c, "storage.level").await?;
    let per_volume = value_of(c, "storage.volumes[0].throughput_mibps").await?;

    // Save, reload: the applied values are kept.
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
    assert_eq!(value_of(c, "storage.level").await?, level);
    assert_eq!(
        value_of(c, "storage.volumes[0].throughput_mibps").await?,
        per_volume
    );
    assert!(
        js(
            c,
            "document.getElementById('plan-status').classList.contains('dirty')"
        )
        .await?
            == false,
        "saved: nothing left unsaved"
    );
    let stored: Value = reqwest::get(format!("{base}/api/v1/scenarios/{id}"))
        .await?
        .json()
        .await?;
    let stored = stored.get("scenario").unwrap_or(&stored);
    assert_eq!(
        provisioning(&stored["storage"]),
        provisioning(&rec),
        "saved"
    );
    assert_eq!(stored["clients"]["avs"]["vmdks_per_vm"], 5);
    assert!(
        js(
            c,
            "document.getElementById('apply-recommendation') === null"
        )
        .await?
            == true,
        "nothing left to apply: the saved scenario is its own recommendation"
    );
    Ok(())
}
