//! Sizing reports: every format read back, over HTTP and from the CLI.

use crate::helpers::{named, spawn_app};
use crate::texts::pdf_text;
use std::path::{Path, PathBuf};
use std::process::Command;
use volplan::engine::{self, Evaluation, Scenario};
use volplan::report::model::Report;
use volplan::report::{Format, Paper, RenderOptions};

const FIXED_DATE: &str = "2026-01-15";

fn fixture_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/report")
        .join(name)
}

fn contract() -> (Scenario, Evaluation) {
    let text = std::fs::read_to_string(fixture_path("contract.json")).expect("fixture");
    let s = volplan::cli::parse_scenario(&text).expect("fixture scenario parses");
    let e = engine::evaluate(&s).expect("fixture scenario evaluates");
    (s, e)
}

fn binding_name(e: &Evaluation) -> &'static str {
    e.limits
        .iter()
        .find(|l| l.id == e.binding)
        .map(|l| l.label.name)
        .expect("the binding limit is listed")
}

fn header<'a>(res: &'a reqwest::Response, name: &str) -> &'a str {
    res.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

#[tokio::test]
async fn pdf_over_http_has_name_binding_limit_and_units() {
    let app = spawn_app().await;
    let id = app.create(&named("Render farm sizing")).await;
    let res = app.get(&format!("/scenarios/{id}/report.pdf")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "content-type"), "application/pdf");
    assert_eq!(
        header(&res, "content-disposition"),
        "attachment; filename=\"render-farm-sizing.pdf\""
    );
    let pdf = res.bytes().await.expect("body");
    assert!(pdf.starts_with(b"%PDF-"));
    let text = pdf_text(&pdf);
    let (mut s, _) = contract();
    s.name = "Render farm sizing".into();
    let e = engine::evaluate(&s).expect("evaluates");
    assert!(text.contains("Render farm sizing"), "name in: {text}");
    assert!(text.contains(binding_name(&e)), "binding limit in: {text}");
    assert!(text.contains("MiB/s"));
    assert!(text.contains("Page 1 of "), "page numbers");
    assert!(
        text.contains("A4") || pdf.windows(6).any(|w| w == b"595.28"),
        "A4 by default"
    );
}

#[tokio::test]
async fn letter_paper_and_bad_options() {
    let app = spawn_app().await;
    let id = app.create(&named("Letter")).await;
    let res = app
        .get(&format!("/scenarios/{id}/report.pdf?paper=letter"))
        .await;
    assert_eq!(res.status(), 200);
    let pdf = res.bytes().await.expect("body");
    let raw = String::from_utf8_lossy(&pdf);
    assert!(raw.contains("612 792"), "Letter media box");

    for (query, status) in [
        ("?paper=a3", 422),
        ("?edition=nobody", 422),
        ("?edition=Engineer", 200),
        ("?layouts=0", 422),
        ("?layouts=x", 422),
        ("?compare=99999", 404),
        ("?compare=abc", 404),
    ] {
        let res = app.get(&format!("/scenarios/{id}/report.pdf{query}")).await;
        assert_eq!(res.status(), status, "{query}");
    }
    for path in [
        "/scenarios/99999/report.pdf".to_owned(),
        "/scenarios/abc/report.html".to_owned(),
        format!("/scenarios/{id}/report.exe"),
        format!("/scenarios/{id}/report"),
    ] {
        assert_eq!(app.get(&path).await.status(), 404, "{path}");
    }
}

#[tokio::test]
async fn xlsx_has_the_sheets_and_the_throughput() {
    use calamine::{Data, Reader, Xlsx};
    let app = spawn_app().await;
    let id = app.create(&named("Workbook")).await;
    let res = app.get(&format!("/scenarios/{id}/report.xlsx")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        header(&res, "content-type"),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    );
    let bytes = res.bytes().await.expect("body").to_vec();
    let zip = bytes.clone();
    let mut wb: Xlsx<_> = Xlsx::new(std::io::Cursor::new(bytes)).expect("XLSX opens");
    let names = wb.sheet_names();
    for sheet in [
        "Summary",
        "Limits",
        "Latency",
        "Sizing",
        "Inputs",
        "Advice",
        "Test plan",
    ] {
        assert!(
            names.iter().any(|n| n == sheet),
            "sheet {sheet} in {names:?}"
        );
    }
    let (mut s, _) = contract();
    s.name = "Workbook".into();
    let e = engine::evaluate(&s).expect("evaluates");
    let summary = wb.worksheet_range("Summary").expect("Summary sheet");
    let row = summary
        .rows()
        .find(|r| r.first() == Some(&Data::String("Throughput".into())))
        .expect("a Throughput row");
    match row.get(1) {
        Some(Data::Float(v)) => assert!((v - e.throughput_mibps).abs() < 1e-6, "{v}"),
        other => panic!("throughput is a number, got {other:?}"),
    }
    // The binding limit's id is for engineers: the customer's workbook has none.
    let is_id_row = |r: &&[Data]| r.first() == Some(&Data::String("Binding limit id".into()));
    assert!(summary.rows().find(is_id_row).is_none());
    let res = app
        .get(&format!("/scenarios/{id}/report.xlsx?edition=engineer"))
        .await;
    let bytes = res.bytes().await.expect("body").to_vec();
    let mut engineer: Xlsx<_> = Xlsx::new(std::io::Cursor::new(bytes)).expect("XLSX opens");
    let summary = engineer.worksheet_range("Summary").expect("Summary sheet");
    let id_row = summary.rows().find(is_id_row).expect("a binding row");
    assert_eq!(id_row.get(1), Some(&Data::String(e.binding.into())));
    let limits = wb.worksheet_range("Limits").expect("Limits sheet");
    assert_eq!(
        limits.height(),
        e.limits.len() + 1,
        "a header and one row per limit"
    );
    let latency = wb.worksheet_range("Latency").expect("Latency sheet");
    assert_eq!(
        latency.get((e.latency_curve.points().count(), 3)),
        Some(&Data::Float(e.latency_ms)),
        "the curve ends at the achievable load's latency"
    );
    // Zip entry names are stored in clear: the four charts are PNG media files.
    for n in 1..=4 {
        let name = format!("xl/media/image{n}.png");
        assert!(
            zip.windows(name.len()).any(|w| w == name.as_bytes()),
            "{name}"
        );
    }
}

#[tokio::test]
async fn csv_parses_with_the_documented_columns() {
    let app = spawn_app().await;
    let id = app.create(&named("CSV")).await;
    let res = app.get(&format!("/scenarios/{id}/report.csv")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "content-type"), "text/csv; charset=utf-8");
    let body = res.bytes().await.expect("body");
    let mut rd = csv::Reader::from_reader(body.as_ref());
    let columns: Vec<String> = rd
        .headers()
        .expect("header")
        .iter()
        .map(String::from)
        .collect();
    assert_eq!(
        columns,
        [
            "section",
            "key",
            "label",
            "value",
            "unit",
            "mibps",
            "iops",
            "headroom_pct",
            "binding",
            "assumption",
            "scope",
            "applies",
            "source"
        ]
    );
    let rows: Vec<csv::StringRecord> = rd.records().map(|r| r.expect("row")).collect();
    let (mut s, _) = contract();
    s.name = "CSV".into();
    let e = engine::evaluate(&s).expect("evaluates");
    let limits: Vec<_> = rows.iter().filter(|r| &r[0] == "limit").collect();
    assert_eq!(limits.len(), e.limits.len());
    let first_limit = rows.iter().position(|r| &r[0] == "limit").expect("limits");
    assert!(
        rows[..first_limit].iter().all(|r| &r[0] == "summary"),
        "summary block first"
    );
    let binding: Vec<_> = limits.iter().filter(|r| &r[8] == "true").collect();
    assert_eq!(binding.len(), 1);
    assert_eq!(&binding[0][1], e.binding);
}

#[tokio::test]
async fn html_escapes_a_hostile_name_and_has_its_own_csp() {
    let app = spawn_app().await;
    let hostile = "<script>alert('x')</script> & \"quotes\"";
    let id = app.create(&named(hostile)).await;
    let res = app.get(&format!("/scenarios/{id}/report.html")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "content-type"), "text/html; charset=utf-8");
    assert_eq!(
        header(&res, "content-security-policy"),
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'"
    );
    assert!(header(&res, "content-disposition").starts_with("inline;"));
    let html = res.text().await.expect("body");
    assert!(!html.contains("<script>"), "the name is escaped");
    assert!(html.contains("&#60;script&#62;") || html.contains("&lt;script&gt;"));
    assert!(html.contains("<svg"), "charts inline");
    assert!(html.contains("@media print"), "print stylesheet");
    assert!(
        !html.contains("<link") && !html.contains("src=\"http"),
        "self-contained"
    );

    let res = app
        .get(&format!("/scenarios/{id}/report.html?download=1"))
        .await;
    assert!(header(&res, "content-disposition").starts_with("attachment;"));
}

#[tokio::test]
async fn json_markdown_comparison_and_layouts() {
    let app = spawn_app().await;
    let a = app.create(&named("First")).await;
    let mut other = named("Second");
    other["storage"]["level"] = "premium".into();
    let b = app.create(&other).await;

    let res = app
        .get(&format!(
            "/scenarios/{a}/report.json?compare={b}&layouts=1,2,4&edition=engineer"
        ))
        .await;
    assert_eq!(res.status(), 200);
    assert!(header(&res, "content-disposition").contains("first.json"));
    let v: serde_json::Value = res.json().await.expect("JSON");
    for key in ["scenario", "evaluation", "catalog_version", "generated"] {
        assert!(v.get(key).is_some(), "{key}");
    }
    assert_eq!(v["scenario"]["name"], "First");
    assert_eq!(v["catalog_version"], engine::catalog::version());
    assert_eq!(v["comparison"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["layouts"].as_array().map(Vec::len), Some(3));

    let res = app
        .get(&format!(
            "/scenarios/{a}/report.md?compare={b}&layouts=1,2,4"
        ))
        .await;
    assert_eq!(header(&res, "content-type"), "text/markdown; charset=utf-8");
    let md = res.text().await.expect("body");
    assert!(md.contains("## Comparison") && md.contains("| Second |"));
    assert!(md.contains("## Volume layouts"));
    assert!(
        md.contains("](data:image/png;base64,") && !md.contains("](/scenarios/"),
        "charts embedded, not linked to the server"
    );

    let res = app
        .get(&format!(
            "/scenarios/{a}/report.pdf?compare={b}&layouts=1,2,4"
        ))
        .await;
    let text = pdf_text(&res.bytes().await.expect("body"));
    assert!(text.contains("Comparison") && text.contains("Second"));
    assert!(text.contains("Volume layouts"));
}

/// Every format but CSV carries the verification test plan: the fio job with its mix and
/// JSON output, the DiskSpd command line and the mount options.
#[test]
fn the_test_plan_is_in_every_report_but_the_csv() {
    use calamine::{Reader, Xlsx};
    use volplan::measure::testplan::{self, PlanTool};
    let (mut s, _) = contract();
    s.workload.read_pct = 70.0;
    // Linux clients over NFS: the fio job and the mount options, no DiskSpd.
    s.clients.avs = None;
    let e = engine::evaluate(&s).expect("evaluates");
    let r = Report::build(&s, &e, volplan::engine::pricing::book(), FIXED_DATE);
    let render = |f| volplan::report::render(&r, f, RenderOptions::default()).expect("renders");
    let needles = ["rwmixread=70", "--output-format=json"];

    let html = String::from_utf8(render(Format::Html)).expect("UTF-8");
    assert!(html.contains("Verification test plan") && html.contains("<pre class=\"plan\">"));
    let md = String::from_utf8(render(Format::Md)).expect("UTF-8");
    assert!(md.contains("## Verification test plan") && md.contains("```ini\n"));
    let pdf = pdf_text(&render(Format::Pdf));
    assert!(pdf.contains("Verification test plan"), "{pdf}");
    let engineer = RenderOptions {
        edition: volplan::report::Edition::Engineer,
        ..RenderOptions::default()
    };
    let json = volplan::report::render(&r, Format::Json, engineer).expect("renders");
    let json: serde_json::Value = serde_json::from_slice(&json).expect("JSON");
    assert_eq!(json["test_plan"]["fio"], testplan::plan(&s, PlanTool::Fio));
    assert_eq!(
        json["test_plan"]["diskspd"],
        testplan::plan(&s, PlanTool::Diskspd)
    );
    assert_eq!(
        json["test_plan"]["mount_options"],
        testplan::mount_options(&s)
    );
    let mut wb: Xlsx<_> =
        Xlsx::new(std::io::Cursor::new(render(Format::Xlsx))).expect("XLSX opens");
    let sheet = wb.worksheet_range("Test plan").expect("Test plan sheet");
    let rows: Vec<String> = sheet
        .rows()
        .map(|row| row.first().map(ToString::to_string).unwrap_or_default())
        .collect();
    let xlsx = rows.join("\n");
    // The customer's copy: the job as planned, no step that imports into volplan.
    let customer = testplan::plan_in(&s, PlanTool::Fio, testplan::Voice::Neutral);
    for line in customer.lines().filter(|l| !l.is_empty()) {
        assert!(rows.iter().any(|r| r == line), "row {line:?} in the sheet");
    }
    let json = json.to_string();
    for needle in needles {
        for (name, text) in [
            ("html", &html),
            ("md", &md),
            ("pdf", &pdf),
            ("xlsx", &xlsx),
            ("json", &json),
        ] {
            assert!(text.contains(needle), "{needle} in the {name} report");
        }
    }
    let mount = testplan::mount_options(&s);
    assert!(md.contains(&mount) && xlsx.contains(&mount) && pdf.contains(&mount));
    for (name, text) in [("html", &html), ("md", &md), ("pdf", &pdf), ("xlsx", &xlsx)] {
        assert!(
            !text.contains("-Rxml"),
            "no DiskSpd in the {name} report of an NFS plan"
        );
    }
    let csv = String::from_utf8(render(Format::Csv)).expect("UTF-8");
    assert!(
        !csv.contains("rwmixread"),
        "the CSV keeps its documented columns"
    );
}

/// Replaces every number ("8,592", "7.4", "2026") with `#`, so the snapshot checks the
/// report's structure, words, escaping and formatting while the engine's figures evolve.
fn mask_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            while let Some(&n) = chars.peek() {
                if n.is_ascii_digit() || n == ',' || n == '.' {
                    chars.next();
                } else {
                    break;
                }
            }
            out.push('#');
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` with every `data:image/png;base64,...` payload left out.
fn without_image_data(text: &str) -> String {
    const MARK: &str = "data:image/png;base64,";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(MARK) {
        out.push_str(&rest[..at + MARK.len()]);
        rest = &rest[at + MARK.len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '+' || c == '/' || c == '='))
            .unwrap_or(rest.len());
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn markdown_matches_the_committed_snapshot() {
    let (s, e) = contract();
    let bytes = volplan::report::render(
        &Report::build(&s, &e, volplan::engine::pricing::book(), FIXED_DATE),
        Format::Md,
        RenderOptions::default(),
    )
    .expect("Markdown renders");
    // The charts are embedded as PNG data: the snapshot keeps their place, not their pixels.
    let md = without_image_data(&String::from_utf8(bytes).expect("UTF-8"));
    let path = fixture_path("contract.md");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &md).expect("write snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&path).expect("snapshot exists");
    assert!(
        mask_numbers(&md) == mask_numbers(&expected),
        "the Markdown report differs from {} (numbers aside); if the change is intended, run \
         `UPDATE_SNAPSHOTS=1 cargo test --test it reports::` and commit the file.\n--- got ---\n{md}",
        path.display()
    );
}

#[test]
fn number_masking_keeps_the_words() {
    assert_eq!(
        mask_numbers("8,592 MiB/s at 7.4% (4 x 20 TiB), 2026-01-15."),
        "# MiB/s at #% (# x # TiB), #-#-#"
    );
}

#[test]
fn every_starter_template_reports_in_every_format() {
    for t in volplan::web::scenario_templates::TEMPLATES {
        let s = t.scenario();
        let e = engine::evaluate(&s).unwrap_or_else(|err| panic!("{}: {err}", t.key));
        let r = Report::build(&s, &e, volplan::engine::pricing::book(), FIXED_DATE);
        for f in Format::ALL {
            let bytes = volplan::report::render(&r, f, RenderOptions::default())
                .unwrap_or_else(|err| panic!("{} as {f}: {err}", t.key));
            assert!(bytes.len() > 100, "{} as {f}", t.key);
        }
    }
}

#[test]
fn an_avs_estate_larger_than_one_volume_reports_in_every_format() {
    // 8 x 20 TiB datastores: the datastore sweep must not ask one regular volume for
    // 160 TiB (it uses a large volume, and leaves out layouts that cannot exist).
    let (mut s, _) = contract();
    s.storage.volumes[0].count = 8;
    s.workload.capacity_tib = 160.0;
    let e = engine::evaluate(&s).expect("evaluates");
    let r = Report::build(&s, &e, volplan::engine::pricing::book(), FIXED_DATE);
    for f in Format::ALL {
        let bytes = volplan::report::render(&r, f, RenderOptions::default())
            .unwrap_or_else(|err| panic!("as {f}: {err}"));
        assert!(bytes.len() > 100, "as {f}");
    }
    let sweep = volplan::engine::sweep::scaling(&s, volplan::engine::pricing::book())
        .expect("the sweep has valid steps");
    assert!(
        sweep.points.iter().any(|p| p.n == 1),
        "one large volume of 160 TiB"
    );
    assert!(sweep.points.iter().any(|p| p.n == 8));
    // A sweep over tiny datastores leaves out the counts below the volume minimum.
    s.storage.volumes[0].quota_tib = 0.1;
    s.storage.volumes[0].count = 2;
    s.workload.capacity_tib = 0.2;
    let sweep = volplan::engine::sweep::scaling(&s, volplan::engine::pricing::book())
        .expect("some steps are valid");
    assert!(!sweep.skipped.is_empty() && sweep.skipped_reason.is_some());
    assert!(sweep.points.iter().all(|p| !sweep.skipped.contains(&p.n)));
}

#[test]
fn a_thousand_volumes_report_as_a_spreadsheet() {
    // The test plan's command lines grow with the volume count; a spreadsheet cell
    // holds 32,767 characters, so long lines continue over several rows.
    for protocol in ["nfsv3", "smb3"] {
        let (service, level) = if protocol == "smb3" {
            ("azure_files", "ssd_v1")
        } else {
            ("anf", "premium")
        };
        let s: engine::Scenario = serde_json::from_str(&format!(
            r#"{{"name": "1,024 volumes", "workload": {{"io_size_kib": 64, "read_pct": 80, "threads": 8,
                "queue_depth": 16, "capacity_tib": 1024}},
                "storage": {{"service": "{service}", "level": "{level}", "volumes": [{{"count": 1024, "quota_tib": 1}}]}},
                "clients": {{"count": 16, "vm_size": "Standard_D16s_v5", "protocol": "{protocol}"}}}}"#
        ))
        .expect("scenario parses");
        let e = engine::evaluate(&s).expect("evaluates");
        let r = Report::build(&s, &e, volplan::engine::pricing::book(), FIXED_DATE);
        let bytes = volplan::report::render(&r, Format::Xlsx, RenderOptions::default())
            .unwrap_or_else(|err| panic!("{protocol} as xlsx: {err}"));
        let mut book: calamine::Xlsx<_> =
            calamine::open_workbook_from_rs(std::io::Cursor::new(bytes)).expect("opens");
        let plan = calamine::Reader::worksheet_range(&mut book, "Test plan").expect("sheet");
        assert!(
            plan.rows()
                .all(|row| row.iter().all(|c| c.to_string().chars().count() <= 32_767))
        );
    }
}

/// Renders page 1 of the contract example's PDF with `pdftoppm` (`tools/report_pages.sh`
/// writes every page of the example reports into `docs/report-pages/`).
#[test]
fn first_pdf_page_renders_to_png() {
    let (s, e) = contract();
    let pdf = volplan::report::render(
        &Report::build(&s, &e, volplan::engine::pricing::book(), FIXED_DATE),
        Format::Pdf,
        RenderOptions {
            paper: Paper::A4,
            ..RenderOptions::default()
        },
    )
    .expect("PDF");
    let dir = tempfile::tempdir().expect("temp dir");
    let pdf_path = dir.path().join("report.pdf");
    std::fs::write(&pdf_path, &pdf).expect("write");
    let prefix = dir.path().join("page");
    let status = Command::new("pdftoppm")
        .args(["-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile"])
        .arg(&pdf_path)
        .arg(&prefix)
        .status()
        .expect("pdftoppm runs: install poppler-utils");
    assert!(status.success());
    let png = std::fs::read(prefix.with_extension("png")).expect("page image");
    assert!(png.starts_with(b"\x89PNG"));
    assert!(png.len() > 10_000, "the page has content");
}

#[test]
fn the_cli_writes_each_format() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = fixture_path("contract.json");
    for (ext, magic) in [
        ("html", &b"<!DOCTYPE html>"[..]),
        ("md", b"# AVS 4 x 20 TiB Ultra"),
        ("pdf", b"%PDF-"),
        ("csv", b"section,key,label"),
        ("xlsx", b"PK"),
        ("json", b"{"),
    ] {
        let out = dir.path().join(format!("report.{ext}"));
        let res = Command::new(env!("CARGO_BIN_EXE_volplan"))
            .arg("report")
            .arg(&input)
            .args(["--format", ext, "--output"])
            .arg(&out)
            .args(["--paper", "letter"])
            .output()
            .expect("volplan runs");
        assert!(
            res.status.success(),
            "{ext}: {}",
            String::from_utf8_lossy(&res.stderr)
        );
        let bytes = std::fs::read(&out).expect("report written");
        assert!(bytes.starts_with(magic), "{ext} starts with its magic");
    }

    for (args, needle) in [
        (vec!["--format", "doc"], "--format must be"),
        (vec!["--format", "pdf", "--paper", "a5"], "paper must be"),
        (vec!["--format", "pdf", "--layouts", "0"], "--layouts"),
    ] {
        let res = Command::new(env!("CARGO_BIN_EXE_volplan"))
            .arg("report")
            .arg(&input)
            .args(&args)
            .arg("--output")
            .arg(dir.path().join("x"))
            .output()
            .expect("volplan runs");
        assert_eq!(res.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&res.stderr).contains(needle),
            "{args:?}"
        );
    }
    let res = Command::new(env!("CARGO_BIN_EXE_volplan"))
        .args([
            "report",
            "/no/such/file.json",
            "--format",
            "md",
            "--output",
            "-",
        ])
        .output()
        .expect("volplan runs");
    assert_eq!(res.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&res.stderr).contains("/no/such/file.json"));
}

#[tokio::test]
async fn planner_and_compare_pages_offer_the_downloads() {
    let app = spawn_app().await;
    let a = app.create(&named("One")).await;
    let b = app.create(&named("Two")).await;
    let planner = app
        .get(&format!("/scenarios/{a}"))
        .await
        .text()
        .await
        .expect("page");
    for ext in ["html", "pdf", "md", "xlsx", "csv", "json"] {
        assert!(
            planner.contains(&format!("/scenarios/{a}/report.{ext}")),
            "planner links report.{ext}"
        );
    }
    let compare = app
        .get(&format!("/compare?id={a}&id={b}"))
        .await
        .text()
        .await
        .expect("page");
    let link = format!("/scenarios/{a}/report.pdf?compare={b}");
    assert!(compare.contains(&link), "compare page links {link}");
    let res = app.get(&link).await;
    assert_eq!(res.status(), 200);
    let text = pdf_text(&res.bytes().await.expect("body"));
    assert!(text.contains("Comparison") && text.contains("Two"));
}

/// The latency section (its sentence, the curve and the chart) is in every format: a
/// section with the chart in HTML and PDF, a table in Markdown, a sheet in the workbook,
/// rows in the CSV, the curve in the JSON evaluation.
#[test]
fn the_latency_section_is_in_every_report() {
    use calamine::{Reader, Xlsx};
    let (mut s, _) = contract();
    s.workload.target_latency_ms = Some(5.0);
    let e = engine::evaluate(&s).expect("evaluates");
    let r = Report::build(&s, &e, volplan::engine::pricing::book(), FIXED_DATE);
    // The section prints the verdict's headline latency; the target's verdict is one of
    // the target lines; the binding sentence is the verdict's.
    assert!(
        r.latency.starts_with(&r.verdict.latency.statement),
        "{}",
        r.latency
    );
    let latency_target = r
        .verdict
        .targets
        .iter()
        .find(|t| t.target == volplan::verdict::TargetKind::Latency)
        .expect("the latency target is judged");
    assert!(
        latency_target.statement.contains("5 ms"),
        "{}",
        latency_target.statement
    );
    assert!(r.targets.iter().any(|t| t.text == latency_target.statement));
    assert_eq!(r.binding.sentence, r.verdict.binding);
    assert!(
        r.binding.sentence.contains("the workload runs at "),
        "{}",
        r.binding.sentence
    );
    let render = |f| volplan::report::render(&r, f, RenderOptions::default()).expect("renders");

    let html = String::from_utf8(render(Format::Html)).expect("UTF-8");
    let section = &html[html
        .find("<h2 id=\"latency\">Latency</h2>")
        .expect("section")..];
    let section = &section[..section.find("</section>").unwrap()];
    assert!(section.contains("<svg") && section.contains("Latency against load"));
    assert!(section.contains("100 (achievable)"), "the data table");
    assert_eq!(
        html.matches("<title>Latency against load").count(),
        1,
        "drawn once"
    );

    let pdf = pdf_text(&render(Format::Pdf));
    assert!(pdf.contains("Latency Latency: "), "the section: {pdf}");
    assert!(
        pdf.contains("Latency per IO against load"),
        "the chart's text"
    );

    let md = String::from_utf8(render(Format::Md)).expect("UTF-8");
    assert!(md.contains("## Latency\n\nLatency: "));
    assert!(md.contains("| Load (% of achievable) | IOPS | MiB/s | Latency (ms) |"));
    assert!(md.contains("| 100 (achievable) | "));

    let mut wb: Xlsx<_> =
        Xlsx::new(std::io::Cursor::new(render(Format::Xlsx))).expect("XLSX opens");
    let sheet = wb.worksheet_range("Latency").expect("Latency sheet");
    assert_eq!(sheet.height(), e.latency_curve.points().count() + 3);

    let csv = String::from_utf8(render(Format::Csv)).expect("UTF-8");
    assert_eq!(
        csv.lines().filter(|l| l.starts_with("latency,")).count(),
        e.latency_curve.points().count()
    );
    assert!(csv.contains("summary,latency_met,"));
    assert!(csv.contains("summary,latency_at_target_ms,"));

    let engineer = RenderOptions {
        edition: volplan::report::Edition::Engineer,
        ..RenderOptions::default()
    };
    let json = volplan::report::render(&r, Format::Json, engineer).expect("renders");
    let json: serde_json::Value = serde_json::from_slice(&json).expect("JSON");
    let curve = json["evaluation"]["latency_curve"]
        .as_array()
        .expect("curve");
    assert_eq!(curve.last().unwrap()["load_pct"], 100.0);
    assert_eq!(json["evaluation"]["targets"]["latency_met"], true);
}

#[tokio::test]
async fn reports_of_saved_scenarios_embed_the_latency_chart() {
    let app = spawn_app().await;
    let id = app.create(&named("Linked")).await;
    let md = app
        .get(&format!("/scenarios/{id}/report.md"))
        .await
        .text()
        .await
        .unwrap();
    assert!(md.contains("![Latency against load: Linked"));
    assert!(md.contains("](data:image/png;base64,") && !md.contains("/charts/latency.svg"));
    for ext in ["html", "pdf", "xlsx", "csv", "json"] {
        let res = app.get(&format!("/scenarios/{id}/report.{ext}")).await;
        assert_eq!(res.status(), 200, "{ext}");
    }
}
