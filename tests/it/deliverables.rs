//! Deliverables a customer can be sent: the same figure reads the same in every format,
//! the customer edition of every report carries no internal text (file paths, commits,
//! `.json`/`.js` names, series or limit ids) while the engineer edition does, and a fio
//! job copied out of the PDF runs.

use crate::helpers::{sample_scenario, spawn_app};
use crate::texts::{html_text, md_text, pdf_layout, xlsx_cells};
use std::process::Command;
use volplan::avs as avs_plan;
use volplan::engine::{self, Evaluation, Scenario, pricing};
use volplan::estate::{self, EstateRequest};
use volplan::format::{money, sig};
use volplan::inventory::{self, CapacityBasis, Options};
use volplan::report::avs::PlanDoc;
use volplan::report::{self, Edition, Format, RenderOptions, Report};
use volplan::web::scenario_templates::TEMPLATES;

const DATE: &str = "2026-01-15";

/// The text a reader sees in each document format.
fn texts(render: impl Fn(Format) -> Vec<u8>) -> Vec<(Format, String)> {
    [Format::Pdf, Format::Html, Format::Md, Format::Xlsx]
        .into_iter()
        .map(|f| {
            let bytes = render(f);
            let text = match f {
                Format::Pdf => pdf_layout(&bytes),
                Format::Xlsx => xlsx_cells(&bytes),
                Format::Html => html_text(&String::from_utf8(bytes).expect("UTF-8")),
                _ => md_text(&String::from_utf8(bytes).expect("UTF-8")),
            };
            (f, text)
        })
        .collect()
}

/// What must not reach a customer: paths, file names, commits and internal ids.
struct Internal {
    limit_ids: Vec<&'static str>,
    series_ids: Vec<String>,
}

impl Internal {
    fn new() -> Internal {
        let series: serde_json::Value =
            serde_json::from_str(include_str!("../fixtures/series.json")).expect("series");
        let series_ids = series["series"]
            .as_array()
            .expect("series")
            .iter()
            .filter_map(|s| s["id"].as_str().map(str::to_owned))
            .collect();
        let mut limit_ids = Vec::new();
        for t in TEMPLATES {
            let e = engine::evaluate(&t.scenario()).expect("a template evaluates");
            limit_ids.extend(e.limits.iter().map(|l| l.id).filter(|id| id.contains('_')));
        }
        limit_ids.sort_unstable();
        limit_ids.dedup();
        Internal {
            limit_ids,
            series_ids,
        }
    }

    /// What of it `text` holds.
    fn found(&self, text: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        // Working notes of the catalog's sources: design-note sections, review flags,
        // measurement and calibration ids, document shorthands.
        let notes = [
            "domain.md",
            "service-limits",
            "UNCONFIRMED",
            "calibration C",
            "LEARN-",
            "GCNV/",
        ];
        for needle in ["commit ", "volplan import", "anf-retail-"]
            .into_iter()
            .chain(notes)
        {
            if text.contains(needle) {
                out.push(needle.to_owned());
            }
        }
        // Measurement ids ("measurements I1, I3"); the words alone are the reader's.
        for (i, _) in text.match_indices("measurements ") {
            let id = &text.as_bytes()[i + "measurements ".len()..];
            if id.len() > 1 && id[0].is_ascii_uppercase() && id[1].is_ascii_digit() {
                out.push("measurement id".to_owned());
            }
        }
        // Paths and files of ours; public addresses and the result files a test plan
        // writes are the reader's.
        for token in text.split_whitespace() {
            let t = token.trim_matches(|c: char| "()[],;:'\"`".contains(c));
            let ours = [
                "tests/",
                "docs/",
                "src/",
                "catalog/",
                "Azure/azure-netapp-files",
            ];
            if ours.iter().any(|p| t.starts_with(p)) {
                out.push(format!("path {t}"));
            }
            let t = t.rsplit('=').next().unwrap_or(t);
            if (t.ends_with(".json") || t.ends_with(".js")) && !t.starts_with("result-") {
                out.push(format!("file {t}"));
            }
        }
        let words = text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'));
        for w in words {
            let hex = w.len() >= 7
                && w.chars()
                    .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
                && w.chars().any(|c| c.is_ascii_digit())
                && w.chars().any(|c| c.is_ascii_alphabetic());
            if hex {
                out.push(format!("commit-like {w}"));
            }
            if self.limit_ids.contains(&w) {
                out.push(format!("limit id {w}"));
            }
            if self.series_ids.iter().any(|s| s == w) {
                out.push(format!("series id {w}"));
            }
        }
        out
    }
}

fn example_avs() -> (inventory::Inventory, avs_plan::AvsPlan) {
    let mut csv = "VM,Powerstate,Template,CPUs,Memory,Provisioned MiB,In Use MiB\n".to_owned();
    for i in 0..24u32 {
        csv += &format!("app-{i:02},poweredOn,False,8,32768,600000,400000\n");
    }
    let inv = inventory::parse(csv.as_bytes(), Options::default()).expect("inventory");
    let mut req = avs_plan::PlanRequest::new(inv.clone());
    req.region = Some("westus2".to_owned());
    let plan = avs_plan::plan(&req, pricing::book()).expect("plan");
    (inv, plan)
}

/// The AVS plan's report document for the example inventory.
fn plan_doc<'a>(
    inv: &'a volplan::inventory::Inventory,
    plan: &'a volplan::avs::AvsPlan,
    verdict: &'a volplan::verdict::avs::AvsVerdict,
) -> PlanDoc<'a> {
    PlanDoc {
        origin: "vinfo.csv",
        inventory: inv,
        basis: CapacityBasis::InUse,
        plan,
        date: DATE,
        verdict,
    }
}

/// The example estate's plan with its verdict's statements.
fn example_estate() -> (volplan::estate::EstatePlan, Vec<String>) {
    let request = EstateRequest {
        name: Some("Estate".to_owned()),
        workloads: TEMPLATES.iter().take(3).map(|t| t.scenario()).collect(),
        region: Some("eastus".to_owned()),
        years: 2,
        growth_pct_per_year: 20.0,
        ..serde_json::from_str(r#"{"workloads": []}"#).expect("an empty request")
    };
    let plan = estate::optimize(&request, pricing::book()).expect("estate");
    let statements = volplan::verdict::estate::verdict(&plan, &request).statements;
    (plan, statements)
}

/// Every report of the product in `edition`: each template's, with the others compared
/// and layouts; the AVS plan's; the estate's. (name, format, text).
fn every_report(edition: Edition) -> Vec<(String, Format, String)> {
    let opts = RenderOptions {
        edition,
        ..RenderOptions::default()
    };
    let mut out = Vec::new();
    let evaluated: Vec<(Scenario, Evaluation)> = TEMPLATES
        .iter()
        .map(|t| {
            let s = t.scenario();
            let e = engine::evaluate(&s).expect("a template evaluates");
            (s, e)
        })
        .collect();
    for (i, (s, e)) in evaluated.iter().enumerate() {
        let mut r = Report::build(s, e, volplan::engine::pricing::book(), DATE);
        if i == 0 {
            r = r
                .with_comparison(&evaluated[1..3], volplan::engine::pricing::book())
                .with_layouts(&[1, 2, 4], pricing::book())
                .expect("layouts");
        }
        for (f, text) in texts(|f| report::render(&r, f, opts).expect("renders")) {
            out.push((s.name.clone(), f, text));
        }
    }
    let (inv, plan) = example_avs();
    let verdict = volplan::verdict::avs::verdict(&plan, Default::default());
    let doc = plan_doc(&inv, &plan, &verdict);
    for (f, text) in texts(|f| report::avs::render(&doc, f, opts).expect("renders")) {
        out.push(("AVS plan".to_owned(), f, text));
    }
    let (p, statements) = example_estate();
    for (f, text) in
        texts(|f| report::estate::render(&p, &statements, f, opts, DATE).expect("renders"))
    {
        out.push(("estate".to_owned(), f, text));
    }
    out
}

#[test]
fn the_customer_edition_of_every_report_has_no_internal_text() {
    let internal = Internal::new();
    for (name, f, text) in every_report(Edition::Customer) {
        let found = internal.found(&text);
        assert!(found.is_empty(), "{name} as {f}: {found:?}");
    }
}

#[test]
fn the_engineer_edition_carries_the_ids_paths_and_price_book() {
    let internal = Internal::new();
    for (name, f, text) in every_report(Edition::Engineer) {
        if name == "AVS plan" || name == "estate" {
            continue;
        }
        let found = internal.found(&text).join(" ");
        for needle in ["limit id", "path tests/", "anf-retail-"] {
            assert!(
                found.contains(needle),
                "{name} as {f}: no {needle} in {found}"
            );
        }
        if f != Format::Xlsx {
            assert!(text.contains("Model trace"), "{name} as {f}");
        }
    }
}

/// A number of the planner page's headline element `id`.
fn kpi(page: &str, id: &str) -> String {
    let at = page
        .find(&format!("id=\"{id}\">"))
        .unwrap_or_else(|| panic!("#{id} on the page"));
    let rest = &page[at + id.len() + 6..];
    rest[..rest.find('<').expect("closing tag")].to_owned()
}

#[tokio::test]
async fn the_same_figure_reads_the_same_in_every_format() {
    let app = spawn_app().await;
    let v = sample_scenario();
    let id = app.create(&v).await;
    let s: Scenario = serde_json::from_value(v).expect("scenario");
    let e = engine::evaluate(&s).expect("evaluates");
    let cost = money(e.cost.monthly_usd.expect("a list price"), e.cost.currency);
    let mibps = sig(e.throughput_mibps);
    assert!(cost.starts_with('$') && cost.contains(',') && cost.contains('.'));

    let page = app.get_text(&format!("/scenarios/{id}")).await;
    assert_eq!(kpi(&page, "kpi-mibps"), mibps, "the planner's headline");
    assert!(
        page.contains(&format!("<dd id=\"kpi-monthly\">{cost}</dd>")),
        "the planner's cost {cost}"
    );

    for ext in ["html", "md", "pdf", "csv", "xlsx", "json"] {
        // The engineer JSON is the data (the customer's is the document: below).
        let edition = if ext == "json" {
            "?edition=engineer"
        } else {
            ""
        };
        let res = app
            .get(&format!("/scenarios/{id}/report.{ext}{edition}"))
            .await;
        assert_eq!(res.status(), 200, "{ext}");
        let bytes = res.bytes().await.expect("body").to_vec();
        match ext {
            "json" => {
                let v: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
                let m = v["evaluation"]["cost"]["monthly_usd"]
                    .as_f64()
                    .expect("cost");
                let t = v["evaluation"]["throughput_mibps"].as_f64().expect("MiB/s");
                assert_eq!((money(m, "USD"), sig(t)), (cost.clone(), mibps.clone()));
                let customer = app.get_text(&format!("/scenarios/{id}/report.json")).await;
                assert!(customer.contains(&cost), "customer JSON: {cost}");
                assert!(customer.contains(&format!("\"{mibps}\"")), "customer JSON");
            }
            "xlsx" => {
                use calamine::{Data, Reader, Xlsx};
                let cells = xlsx_cells(&bytes);
                let mut book: Xlsx<_> =
                    Xlsx::new(std::io::Cursor::new(bytes.clone())).expect("workbook");
                let summary = book.worksheet_range("Summary").expect("Summary");
                let number = |label: &str| {
                    summary
                        .rows()
                        .find(|r| r.first() == Some(&Data::String(label.into())))
                        .and_then(|r| match r.get(1) {
                            Some(Data::Float(v)) => Some(*v),
                            _ => None,
                        })
                        .unwrap_or_else(|| panic!("{label} as a number"))
                };
                assert_eq!(money(number("Monthly cost"), "USD"), cost);
                assert_eq!(sig(number("Throughput")), mibps);
                // Stored as numbers with the number format that shows the same text.
                let styles = {
                    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip");
                    let mut f = zip.by_name("xl/styles.xml").expect("styles");
                    let mut text = String::new();
                    std::io::Read::read_to_string(&mut f, &mut text).expect("UTF-8");
                    text
                };
                assert!(
                    styles.contains("formatCode=\"&quot;$&quot;#,##0.00\""),
                    "the money format: {styles}"
                );
                let v = volplan::verdict::evaluation(&s, &e, volplan::engine::pricing::book());
                for statement in volplan::verdict::report_statements(&v) {
                    assert!(cells.contains(&statement), "xlsx: {statement}");
                }
            }
            _ => {
                let text = match ext {
                    "pdf" => pdf_layout(&bytes),
                    _ => String::from_utf8(bytes).expect("UTF-8"),
                };
                assert!(text.contains(&cost), "{ext}: {cost}");
                assert!(
                    text.contains(&format!("{mibps} MiB/s")),
                    "{ext}: {mibps} MiB/s"
                );
            }
        }
    }
}

/// The fio job of an NFS template, copied out of the PDF's text, parses with fio.
#[test]
fn a_fio_job_copied_from_the_pdf_runs() {
    if Command::new("fio").arg("--version").output().is_err() {
        panic!("fio is needed: apt-get install -y fio");
    }
    for key in [
        "sap-hana",
        "oracle-dnfs",
        "anf-large-volume",
        "avs-datastores",
    ] {
        let t = TEMPLATES.iter().find(|t| t.key == key).expect("template");
        let s = t.scenario();
        let e = engine::evaluate(&s).expect("evaluates");
        let pdf = report::render(
            &Report::build(&s, &e, volplan::engine::pricing::book(), DATE),
            Format::Pdf,
            RenderOptions::default(),
        )
        .expect("PDF");
        let text = pdf_layout(&pdf);
        let start = text.find("fio job file").expect("the fio job in the PDF");
        let job: Vec<&str> = text[start..]
            .lines()
            .skip(1)
            .map(str::trim)
            .filter(|l| !l.starts_with("Sizing report ·") && !l.starts_with("Page "))
            .take_while(|l| !l.starts_with("Mount options") && !l.starts_with("Sources"))
            .filter(|l| !l.is_empty())
            .collect();
        assert!(job.contains(&"[global]"), "{key}: {job:?}");
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("job.fio");
        std::fs::write(&path, job.join("\n") + "\n").expect("write job");
        let out = Command::new("fio")
            .arg("--parse-only")
            .arg(&path)
            .output()
            .expect("fio runs");
        assert!(
            out.status.success(),
            "{key}: fio --parse-only: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            job.join("\n")
        );
    }
}

/// The estate and AVS reports print their verdict's statements word for word, in every
/// document format (compared without whitespace, as a PDF breaks lines).
#[test]
fn the_estate_and_avs_reports_print_their_verdict() {
    let squeeze = |t: &str| t.replace('\\', "").split_whitespace().collect::<String>();
    let (p, statements) = example_estate();
    assert!(statements.len() >= 4, "{statements:?}");
    for (f, text) in texts(|f| {
        report::estate::render(&p, &statements, f, RenderOptions::default(), DATE).expect("renders")
    }) {
        for s in &statements {
            assert!(squeeze(&text).contains(&squeeze(s)), "estate as {f}: {s}");
        }
    }
    let (inv, plan) = example_avs();
    let verdict = volplan::verdict::avs::verdict(&plan, Default::default());
    let doc = plan_doc(&inv, &plan, &verdict);
    for (f, text) in
        texts(|f| report::avs::render(&doc, f, RenderOptions::default()).expect("renders"))
    {
        for s in &verdict.statements {
            assert!(squeeze(&text).contains(&squeeze(s)), "AVS plan as {f}: {s}");
        }
    }
}

/// The JSON download of every report in `edition`: each template's (the first with the
/// others compared and layouts), the AVS plan's and the estate's. (name, JSON text).
fn every_json(edition: Edition) -> Vec<(String, String)> {
    let opts = RenderOptions {
        edition,
        ..RenderOptions::default()
    };
    let json = |bytes: Vec<u8>| String::from_utf8(bytes).expect("UTF-8");
    let evaluated: Vec<(Scenario, Evaluation)> = TEMPLATES
        .iter()
        .map(|t| {
            let s = t.scenario();
            let e = engine::evaluate(&s).expect("a template evaluates");
            (s, e)
        })
        .collect();
    let mut out = Vec::new();
    for (i, (s, e)) in evaluated.iter().enumerate() {
        let mut r = Report::build(s, e, pricing::book(), DATE);
        if i == 0 {
            r = r
                .with_comparison(&evaluated[1..3], pricing::book())
                .with_layouts(&[1, 2, 4], pricing::book())
                .expect("layouts");
        }
        let bytes = report::render(&r, Format::Json, opts).expect("renders");
        out.push((s.name.clone(), json(bytes)));
    }
    let (inv, plan) = example_avs();
    let verdict = volplan::verdict::avs::verdict(&plan, Default::default());
    let doc = plan_doc(&inv, &plan, &verdict);
    let bytes = report::avs::render(&doc, Format::Json, opts).expect("renders");
    out.push(("AVS plan".to_owned(), json(bytes)));
    let (p, statements) = example_estate();
    let bytes = report::estate::render(&p, &statements, Format::Json, opts, DATE).expect("renders");
    out.push(("estate".to_owned(), json(bytes)));
    out
}

#[test]
fn the_customer_json_has_no_internal_text_and_the_engineer_json_keeps_it() {
    let internal = Internal::new();
    for (name, text) in every_json(Edition::Customer) {
        let found = internal.found(&text);
        assert!(found.is_empty(), "{name} as customer JSON: {found:?}");
        for absent in ["fitted jointly", "\"id\":", "\"binding\":", "price_book"] {
            assert!(!text.contains(absent), "{name} as customer JSON: {absent}");
        }
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(v["edition"], "customer", "{name}");
        assert!(!v["sections"].as_array().expect("sections").is_empty());
    }
    let engineer = every_json(Edition::Engineer);
    let (name, text) = &engineer[0];
    let found = internal.found(text).join(" ");
    for needle in ["limit id", "path tests/", "anf-retail-"] {
        assert!(found.contains(needle), "{name} as engineer JSON: {needle}");
    }
}

/// The customer JSON of a template holds what its PDF says: the verdict's statements,
/// each headline figure with its likely range, and the fio job of the test plan.
#[test]
fn the_customer_json_says_what_the_customer_pdf_says() {
    let squeeze = |t: &str| t.split_whitespace().collect::<String>();
    let t = TEMPLATES
        .iter()
        .find(|t| t.key == "sap-hana")
        .expect("template");
    let s = t.scenario();
    let e = engine::evaluate(&s).expect("evaluates");
    let r = Report::build(&s, &e, pricing::book(), DATE);
    let opts = RenderOptions::default();
    let json: serde_json::Value =
        serde_json::from_slice(&report::render(&r, Format::Json, opts).expect("JSON"))
            .expect("JSON");
    let pdf = squeeze(&crate::texts::pdf_text(
        &report::render(&r, Format::Pdf, opts).expect("PDF"),
    ));
    let mut strings = Vec::new();
    collect_strings(&json, &mut strings);
    let figures = json["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .flat_map(|s| s["blocks"].as_array().expect("blocks"))
        .find(|b| b["type"] == "figures")
        .expect("the headline figures");
    let throughput = &figures["figures"][0];
    assert_eq!(throughput["value"], sig(e.throughput_mibps));
    assert!(
        throughput["range"]
            .as_str()
            .is_some_and(|r| r.starts_with("likely ")),
        "{throughput}"
    );
    for statement in volplan::verdict::report_statements(&r.verdict) {
        assert!(strings.contains(&statement), "JSON: {statement}");
        assert!(pdf.contains(&squeeze(&statement)), "PDF: {statement}");
    }
    assert!(
        strings.iter().any(|s| s.contains("[global]")),
        "the fio job in the JSON"
    );
}

fn collect_strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|v| collect_strings(v, out)),
        serde_json::Value::Object(m) => m.values().for_each(|v| collect_strings(v, out)),
        _ => {}
    }
}
