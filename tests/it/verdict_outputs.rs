//! One verdict, printed everywhere: for every template and for generated scenarios, the
//! statements the API's `verdict` holds appear word for word on the planner page and in
//! the HTML, PDF, Markdown and Excel reports of the saved scenario.

use crate::helpers::{TestApp, spawn_app};
use crate::texts::{collapse, html_text, md_text, pdf_text, unescape_html, xlsx_cells};
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

/// Saves `s` and checks that every statement of its verdict reads the same on the page
/// and in every report; `false` when the service refuses the scenario.
async fn check(app: &TestApp, s: &Value) -> bool {
    let res = app.post_json("/api/v1/scenarios", s).await;
    if res.status() == 422 {
        return false;
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
    let mut want = statements.clone();
    want.extend(deciders.iter().map(|d| format!("What decides it: {d}")));
    for ext in ["html", "md", "pdf", "xlsx"] {
        let res = app.get(&format!("/scenarios/{id}/report.{ext}")).await;
        assert_eq!(res.status(), 200, "report.{ext} of {s}");
        let bytes = res.bytes().await.expect("body").to_vec();
        let text = match ext {
            "pdf" => pdf_text(&bytes),
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
    }
    true
}

#[tokio::test]
async fn every_statement_reads_the_same_on_the_page_in_every_report_and_in_the_api() {
    let app = spawn_app().await;
    for t in TEMPLATES {
        let s = serde_json::to_value(t.scenario()).expect("template as JSON");
        assert!(check(&app, &s).await, "template {} is accepted", t.key);
    }
    let mut checked = 0;
    for s in generated(16) {
        checked += usize::from(check(&app, &s).await);
    }
    assert!(
        checked >= 12,
        "only {checked} of 16 generated scenarios accepted"
    );
    app.stop().await;
}
