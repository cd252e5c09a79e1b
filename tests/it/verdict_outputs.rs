//! One verdict, printed everywhere: for every template and for generated scenarios, the
//! statements the API's `verdict` holds appear word for word on the planner page and in
//! the HTML, PDF, Markdown and Excel reports of the saved scenario.

use crate::helpers::{TestApp, spawn_app};
use crate::texts::{collapse, html_text, md_text, pdf_layout, unescape_html, xlsx_cells};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use serde_json::{Value, json};
use volplan::web::scenario_templates::TEMPLATES;

/// A valid scenario of any service: ANF (with or without AVS), Azure Files or GCNV, at
/// any IO size and mix, with or without rate and latency targets.
fn scenarios() -> impl Strategy<Value = Value> {
    let service = prop_oneof![
        Just(("anf", "standard", "nfsv3")),
        Just(("anf", "premium", "nfsv3")),
        Just(("anf", "ultra", "nfsv3")),
        Just(("azure_files", "ssd_v1", "smb3")),
        Just(("azure_files", "ssd_v1", "nfsv4.1")),
        Just(("gcnv", "premium", "nfsv3")),
        Just(("gcnv", "extreme", "nfsv3")),
    ];
    (
        service,
        prop_oneof![Just(4.0), Just(8.0), Just(64.0), Just(256.0)],
        0u32..=100,
        any::<bool>(),
        1u32..=8,
        1u32..=20,
        prop::option::of(500u32..=12_000),
        prop::option::of(1u32..=20),
        any::<bool>(),
    )
        .prop_map(
            |((service, level, protocol), io, read, random, count, each, mibps, ms, avs)| {
                let avs = avs && service == "anf";
                let quota = f64::from(each) * 2.0;
                json!({
                    "name": format!("{service} {level} {count} x {quota} TiB"),
                    "workload": {"io_size_kib": io, "read_pct": read,
                        "access": if random { "random" } else { "sequential" },
                        "threads": 8, "queue_depth": 16,
                        "capacity_tib": quota * f64::from(count) * 0.9,
                        "target_mibps": mibps, "target_iops": null,
                        "target_latency_ms": ms.map(f64::from)},
                    "storage": {"service": service, "level": level,
                        "volumes": [{"count": count, "quota_tib": quota}]},
                    "clients": if avs {
                        json!({"count": 4, "protocol": "nfsv3",
                               "avs": {"hosts": 4, "host_sku": "AV36", "vms_per_host": 4,
                                       "vmdks_per_vm": 4, "placement": "spread"}})
                    } else {
                        json!({"count": 4, "vm_size": "Standard_D16s_v5", "protocol": protocol,
                               "nconnect": if protocol == "nfsv3" { 4 } else { 1 },
                               "smb_multichannel": protocol == "smb3"})
                    }
                })
            },
        )
}

/// `n` generated scenarios, the same on every run.
fn generated(n: usize) -> Vec<Value> {
    let mut runner = TestRunner::deterministic();
    (0..n)
        .map(|_| {
            scenarios()
                .new_tree(&mut runner)
                .expect("a scenario")
                .current()
        })
        .collect()
}

/// The HTML entities askama writes, undone, and whitespace collapsed.
fn unescaped(html: &str) -> String {
    collapse(&unescape_html(html))
}

/// The text inside the element with `id` on a page (tags dropped, entities undone).
fn by_id(page: &str, id: &str) -> String {
    let start = page
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("#{id} on the page"));
    let body = &page[start..];
    let body = &body[body.find('>').expect("tag end") + 1..];
    let tag = page[..start].rsplit('<').next().expect("tag");
    let name = tag.split_whitespace().next().expect("tag name");
    let end = body.find(&format!("</{name}>")).expect("closing tag");
    collapse(&html_text(&body[..end]))
}

/// A headline figure as the page shows it: the label a report gives it, the value and
/// the likely range in words.
struct Headline {
    label: String,
    value: String,
    likely: String,
}

/// The page's headline figures: throughput, IOPS and the headline latency, each with
/// its range, and the sentence on what the ranges are.
fn page_headlines(page: &str) -> (Vec<Headline>, String) {
    let range = |id: &str| by_id(page, id).trim_matches(['(', ')']).to_owned();
    let latency = by_id(page, "kpi-latency");
    // "Latency 1.97 ms per IO at the target rate (likely 1.6-2.4)"
    let (head, likely) = latency.split_once(" (").expect("latency range");
    let value = head
        .strip_prefix("Latency ")
        .and_then(|t| t.split_once(" ms per IO "))
        .expect("latency figure");
    let figures = vec![
        Headline {
            label: "Throughput".into(),
            value: by_id(page, "kpi-mibps"),
            likely: range("kpi-mibps-range"),
        },
        Headline {
            label: "IOPS".into(),
            value: by_id(page, "kpi-iops"),
            likely: range("kpi-iops-range"),
        },
        Headline {
            label: format!("Latency per IO {}", value.1),
            value: value.0.to_owned(),
            likely: likely.trim_end_matches(')').to_owned(),
        },
    ];
    let basis = collapse(&html_text(&by_id_raw(page, "range-basis")));
    (figures, basis)
}

/// The element whose class list holds `class`, as markup.
fn by_id_raw(page: &str, class: &str) -> String {
    let start = page.find(class).expect("class on the page");
    let body = &page[start..];
    let body = &body[body.find('>').expect("tag end") + 1..];
    body[..body.find("</").expect("closing tag")].to_owned()
}

/// Whether `text` has `label`, then `value` and `likely` close after it (a table row or
/// a figure's box); `xlsx` cells keep numbers as numbers, so only the range is sought.
fn has_figure(text: &str, f: &Headline, xlsx: bool) -> bool {
    text.match_indices(&f.label).any(|(at, _)| {
        let after = &text[at + f.label.len()..];
        let near = &after[..after.len().min(160)];
        let likely = near.find(&f.likely);
        match near.find(&f.value) {
            Some(v) if !xlsx => likely.is_some_and(|l| l > v),
            _ => xlsx && likely.is_some(),
        }
    })
}

/// Saves `s` and checks that every statement of its verdict and every headline figure
/// with its likely range reads the same on the page and in every report; `None` when
/// the service refuses the scenario, else whether its headline latency is at a target
/// rate.
async fn check(app: &TestApp, s: &Value) -> Option<bool> {
    let res = app.post_json("/api/v1/scenarios", s).await;
    if res.status() == 422 {
        return None;
    }
    assert_eq!(res.status(), 201, "{s}");
    let id = res.json::<Value>().await.expect("JSON")["id"]
        .as_i64()
        .expect("id");
    let api = app
        .get_json(&format!("/api/v1/scenarios/{id}/evaluation"))
        .await;
    let verdict = &api["verdict"];
    let list = |v: &Value| -> Vec<String> {
        v.as_array()
            .expect("a list")
            .iter()
            .map(|x| {
                x.as_str()
                    .or_else(|| x["statement"].as_str())
                    .expect("a statement")
                    .to_owned()
            })
            .collect()
    };
    let statements = list(&verdict["statements"]);
    let deciders = list(&verdict["sensitivity"]);
    assert!(statements.len() >= 3, "{verdict}");

    // The planner page: each statement and each decider as it is.
    let page = unescaped(&app.get_text(&format!("/scenarios/{id}")).await);
    for line in statements.iter().chain(&deciders) {
        assert!(
            page.contains(&collapse(line)),
            "page of {s}: {line}\n--- in ---\n{}",
            page.split("What decides it").nth(1).unwrap_or(&page)
        );
    }

    // Every report: the statements, then each decider after "What decides it:".
    // The headline figures and their ranges as the page shows them; the latency is the
    // verdict's headline, at the target rate when there is one.
    let (figures, basis) = page_headlines(&page);
    let at_target = api["latency_at_target_ms"].as_f64();
    if let Some(ms) = at_target {
        assert_eq!(figures[2].label, "Latency per IO at the target rate");
        assert_eq!(figures[2].value, volplan::format::ms(ms), "{s}");
    }
    let mut want = statements.clone();
    want.extend(deciders.iter().map(|d| format!("What decides it: {d}")));
    want.push(basis);
    for ext in ["html", "md", "pdf", "xlsx"] {
        let res = app.get(&format!("/scenarios/{id}/report.{ext}")).await;
        assert_eq!(res.status(), 200, "report.{ext} of {s}");
        let bytes = res.bytes().await.expect("body").to_vec();
        let text = match ext {
            // The running header and page numbers left out, as a reader skips them.
            "pdf" => collapse(
                &pdf_layout(&bytes)
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.starts_with("Sizing report ·") && !l.starts_with("Page "))
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            "xlsx" => collapse(&xlsx_cells(&bytes)),
            "md" => collapse(&md_text(&String::from_utf8(bytes).expect("UTF-8"))),
            _ => collapse(&html_text(&String::from_utf8(bytes).expect("UTF-8"))),
        };
        // A PDF line may break after a slash or a hyphen: compare without whitespace.
        let pdf = ext == "pdf";
        let bare = |l: &str| if pdf { l.replace(' ', "") } else { collapse(l) };
        let text = if pdf { text.replace(' ', "") } else { text };
        for line in &want {
            assert!(
                text.contains(&bare(line)),
                "report.{ext} of {s}: {line}\n--- in ---\n{text}"
            );
        }
        for f in &figures {
            let f = Headline {
                label: bare(&f.label),
                value: bare(&f.value),
                likely: bare(&f.likely),
            };
            assert!(
                has_figure(&text, &f, ext == "xlsx"),
                "report.{ext} of {s}: {} {} ({})\n--- in ---\n{text}",
                f.label,
                f.value,
                f.likely
            );
        }
    }
    Some(at_target.is_some())
}

#[tokio::test]
async fn every_statement_reads_the_same_on_the_page_in_every_report_and_in_the_api() {
    let app = spawn_app().await;
    let mut at_target = 0;
    for t in TEMPLATES {
        let s = serde_json::to_value(t.scenario()).expect("template as JSON");
        let at = check(&app, &s).await;
        assert!(at.is_some(), "template {} is accepted", t.key);
        at_target += usize::from(at == Some(true));
    }
    let mut checked = 0;
    for s in generated(16) {
        let at = check(&app, &s).await;
        checked += usize::from(at.is_some());
        at_target += usize::from(at == Some(true));
    }
    assert!(
        checked >= 12,
        "only {checked} of 16 generated scenarios accepted"
    );
    assert!(
        at_target >= 1,
        "no scenario had its headline latency at a target rate"
    );
    app.stop().await;
}
