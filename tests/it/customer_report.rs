//! Reports an architect can send: who it is for, an executive summary, only the inputs
//! and test-plan parts that apply, and public sources, checked in the PDF's own text.

use crate::helpers::{sample_scenario, spawn_app};
use crate::texts::pdf_text;
use serde_json::json;
use volplan::engine::{self, Scenario};
use volplan::report::model::Report;
use volplan::report::{Format, RenderOptions};

const DATE: &str = "2026-01-15";

fn with_meta(mut v: serde_json::Value) -> serde_json::Value {
    v["meta"] = json!({
        "customer": "Contoso Rendering Ltd",
        "project": "Render farm refresh 2027",
        "author": "Dana Architect",
        "notes": "Sized for the spring release.\nPrices are list prices."
    });
    v
}

fn scenario(v: serde_json::Value) -> Scenario {
    serde_json::from_value(v).expect("scenario")
}

fn render(s: &Scenario, f: Format) -> Vec<u8> {
    let e = engine::evaluate(s).expect("evaluates");
    let r = Report::build(s, &e, volplan::engine::pricing::book(), DATE);
    volplan::report::render(&r, f, RenderOptions::default()).expect("renders")
}

/// The contract's example without AVS: 4 Linux VMs over NFSv3 with nconnect.
fn nfs() -> Scenario {
    let mut s = scenario(with_meta(sample_scenario()));
    s.clients.avs = None;
    s.clients.count = 4;
    s.clients.nconnect = 4;
    s
}

#[test]
fn the_avs_pdf_names_who_it_is_for_and_gives_esxi_guidance_only() {
    let s = scenario(with_meta(sample_scenario()));
    let text = pdf_text(&render(&s, Format::Pdf));
    for needle in [
        "Contoso Rendering Ltd",
        "Render farm refresh 2027",
        "Dana Architect",
        "Sized for the spring release.",
        "Executive summary",
        "Capacity: ",
        "Bound by ",
        "ESXi datastore setup",
        "esxcli storage nfs list",
        "4 guest VMs (4 hosts x 1 VM)",
        "Sources",
        "https://learn.microsoft.com/azure/azure-netapp-files/",
    ] {
        assert!(text.contains(needle), "{needle} in: {text}");
    }
    for absent in [
        "domain.md",
        "service-limits",
        "nconnect=",
        "mount -t nfs",
        "DiskSpd",
        "diskspd -c",
        "VM size",
        "Every figure comes from a published document",
        "bound by `",
    ] {
        assert!(!text.contains(absent), "{absent} not in: {text}");
    }
    assert!(
        text.contains("# 1. vSphere mounts"),
        "steps are numbered from 1: {text}"
    );
}

#[test]
fn an_nfs_pdf_has_the_mount_line_and_no_diskspd_an_smb_pdf_the_reverse() {
    let s = nfs();
    let text = pdf_text(&render(&s, Format::Pdf));
    assert!(text.contains("nconnect=4") && text.contains("mount -t nfs"));
    assert!(text.contains("Run on all 4 clients"), "{text}");
    assert!(!text.contains("DiskSpd") && !text.contains("diskspd -c"));

    let mut smb = nfs();
    smb.storage.service = volplan::engine::scenario::Service::AzureFiles;
    smb.storage.level = volplan::engine::scenario::Level::SsdV1;
    smb.storage.volumes[0].quota_tib = 10.0;
    smb.clients.protocol = volplan::engine::scenario::Protocol::Smb3;
    smb.clients.nconnect = 1;
    let text = pdf_text(&render(&smb, Format::Pdf));
    assert!(text.contains("DiskSpd command line") && text.contains("-Rxml"));
    assert!(!text.contains("fio job file") && !text.contains("mount -t nfs"));
    assert!(!text.contains("Capacity pool"), "Azure Files has no pool");
}

#[test]
fn limits_cite_public_titles_and_every_format_carries_the_meta() {
    let s = nfs();
    let e = engine::evaluate(&s).expect("evaluates");
    let r = Report::build(&s, &e, volplan::engine::pricing::book(), DATE);
    assert!(!r.sources.is_empty());
    for d in &r.sources {
        assert!(d.url.starts_with("https://"), "{d:?}");
        assert!(!d.title.contains("LEARN-"), "{d:?}");
    }
    for l in &r.limits {
        for internal in ["domain.md", "service-limits", "LEARN-", "measurements "] {
            assert!(
                !l.source_in(volplan::report::Edition::Customer)
                    .contains(internal),
                "{}: {}",
                l.label,
                l.source
            );
        }
    }
    for f in [Format::Html, Format::Md, Format::Csv, Format::Json] {
        let text = String::from_utf8(render(&s, f)).expect("UTF-8");
        for needle in [
            "Contoso Rendering Ltd",
            "Render farm refresh 2027",
            "Dana Architect",
        ] {
            assert!(text.contains(needle), "{needle} in the {f} report");
        }
    }
    let md = String::from_utf8(render(&s, Format::Md)).expect("UTF-8");
    assert!(md.contains("## Executive summary") && md.contains("## Sources"));
    assert!(!md.contains("domain.md") && !md.contains("service-limits"));
}

#[tokio::test]
async fn meta_is_saved_from_the_api_and_checked() {
    let app = spawn_app().await;
    let id = app.create(&with_meta(sample_scenario())).await;
    let html = app.get_text(&format!("/scenarios/{id}/report.html")).await;
    assert!(html.contains("Contoso Rendering Ltd") && html.contains("Executive summary"));
    let page = app.get_text(&format!("/scenarios/{id}")).await;
    assert!(
        page.contains("value=\"Dana Architect\""),
        "the planner shows the author"
    );
    let mut long = sample_scenario();
    long["meta"] = json!({"customer": "x".repeat(201)});
    let res = app.post_json("/api/v1/scenarios", &long).await;
    assert_eq!(res.status(), 422);
    let body: serde_json::Value = res.json().await.expect("JSON");
    assert_eq!(body["field"], "meta.customer");
}

/// The report's text in each downloadable format, through the routes a browser uses
/// (PDF through `pdftotext`, the workbook's cells joined).
async fn download_text(app: &crate::helpers::TestApp, id: i64, ext: &str) -> String {
    let res = app.get(&format!("/scenarios/{id}/report.{ext}")).await;
    assert_eq!(res.status(), 200, "report.{ext}");
    let bytes = res.bytes().await.expect("body").to_vec();
    match ext {
        "pdf" => pdf_text(&bytes),
        "xlsx" => {
            use calamine::{Reader, Xlsx};
            let mut book: Xlsx<_> = Xlsx::new(std::io::Cursor::new(bytes)).expect("workbook opens");
            let mut cells = Vec::new();
            for (_, range) in book.worksheets() {
                cells.extend(range.cells().map(|(_, _, c)| c.to_string()));
            }
            cells.join("\n")
        }
        _ => String::from_utf8(bytes).expect("UTF-8"),
    }
}

#[tokio::test]
async fn the_achievable_figure_reads_the_same_on_the_planner_and_in_every_report() {
    use volplan::engine::trace::{Num, Sig};
    let app = spawn_app().await;
    let v = sample_scenario();
    let id = app.create(&v).await;
    let e = engine::evaluate(&scenario(v)).expect("evaluates");
    let want = Sig(e.throughput_mibps).to_string();
    // The example's figure is one the headline rounding changes, so a format writing
    // its own decimals would fail here.
    assert_ne!(want, Num(e.throughput_mibps, 1).to_string());

    let page = app.get_text(&format!("/scenarios/{id}")).await;
    assert!(
        page.contains(&format!("id=\"kpi-mibps\">{want}</span>")),
        "planner headline {want}"
    );
    for ext in ["md", "html", "pdf", "csv", "xlsx"] {
        let text = download_text(&app, id, ext).await;
        assert!(text.contains(&want), "{ext}: {want} in {text}");
    }
    let md = download_text(&app, id, "md").await;
    assert!(
        md.contains(&format!("| Throughput | {want} | MiB/s |")),
        "{md}"
    );
    let html = download_text(&app, id, "html").await;
    assert!(
        html.contains(&format!("<dt>Throughput</dt><dd>{want} <small>MiB/s")),
        "HTML headline"
    );
    let pdf = download_text(&app, id, "pdf").await;
    assert!(pdf.contains(&format!("{want} MiB/s")), "PDF headline");
}
