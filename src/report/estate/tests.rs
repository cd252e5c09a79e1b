use super::*;

const DATE: &str = "2026-01-02";
use crate::report::fixture::estate_plan as plan;

#[test]
fn every_format_renders_the_pools_timeline_and_fit() {
    let p = plan();
    let md =
        String::from_utf8(render(&p, &[], Format::Md, RenderOptions::default(), DATE).unwrap())
            .unwrap();
    assert!(
        md.contains("## Pools") && md.contains("Ultra manual pool of"),
        "{md}"
    );
    assert!(md.contains("## Timeline") && md.contains("## Where each workload fits best"));
    assert!(md.contains("\\<b\\>SAP"), "markup escaped");

    let html =
        String::from_utf8(render(&p, &[], Format::Html, RenderOptions::default(), DATE).unwrap())
            .unwrap();
    assert!(html.contains("<svg") && html.contains("&#60;b&#62;SAP&#60;/b&#62;"));
    assert!(!html.contains("<i>"));

    let csv = render(&p, &[], Format::Csv, RenderOptions::default(), DATE).unwrap();
    let mut rd = ::csv::ReaderBuilder::new()
        .flexible(true)
        .has_headers(false)
        .from_reader(&csv[..]);
    let rows: Vec<::csv::StringRecord> = rd.records().map(Result::unwrap).collect();
    assert!(rows.iter().any(|r| &r[0] == "Timeline"));
    // A name that would be a formula is quoted.
    assert!(rows.iter().any(|r| r.iter().any(|c| c == "'=data")));

    let xlsx = render(&p, &[], Format::Xlsx, RenderOptions::default(), DATE).unwrap();
    let mut wb: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(xlsx)).unwrap();
    use calamine::Reader;
    let names = wb.sheet_names();
    assert!(names.contains(&"Pools".to_owned()) && names.contains(&"Timeline".to_owned()));
    let timeline = wb.worksheet_range("Timeline").unwrap();
    assert_eq!(timeline.height(), p.timeline.len() + 1);

    let pdf = render(&p, &[], Format::Pdf, RenderOptions::default(), DATE).unwrap();
    let doc = lopdf::Document::load_mem(&pdf).unwrap();
    assert!(doc.get_pages().len() >= 2);

    let json: serde_json::Value =
        serde_json::from_slice(&render(&p, &[], Format::Json, ENGINEER, DATE).unwrap()).unwrap();
    for key in ["pools", "assignments", "timeline", "monthly", "total"] {
        assert!(json.get(key).is_some(), "{key}");
    }
    // The customer edition's JSON is the document.
    let json: serde_json::Value = serde_json::from_slice(
        &render(&p, &[], Format::Json, RenderOptions::default(), DATE).unwrap(),
    )
    .unwrap();
    assert_eq!(json["edition"], "customer");
    assert_eq!(json["kind"], "Estate report");
}

const ENGINEER: RenderOptions = RenderOptions {
    paper: crate::report::Paper::A4,
    edition: crate::report::Edition::Engineer,
};
