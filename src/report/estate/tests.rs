use super::*;
use crate::engine::pricing;
use crate::estate::{EstateRequest, optimize};
use serde_json::json;

fn plan() -> EstatePlan {
    let w = |name: &str, quota: f64, mibps: f64| {
        json!({
            "name": name,
            "workload": {"io_size_kib": 256, "read_pct": 70, "capacity_tib": quota,
                         "target_mibps": null, "target_iops": null},
            "storage": {"service": "anf", "level": "ultra",
                        "volumes": [{"count": 1, "quota_tib": quota, "throughput_mibps": mibps}]},
            "clients": {"count": 2, "vm_size": "Standard_E32s_v5", "protocol": "nfsv4.1"}
        })
    };
    let req: EstateRequest = serde_json::from_value(json!({
        "name": "<b>SAP</b> & =cmd|'/c calc'!A1",
        "workloads": [w("=data", 4.0, 704.0), w("log <i>", 0.5, 256.0), w("shared", 1.0, 64.0)],
        "region": "eastus", "years": 2, "growth_pct_per_year": 30, "levels": ["ultra"]
    }))
    .unwrap();
    optimize(&req, pricing::book()).unwrap()
}

#[test]
fn every_format_renders_the_pools_timeline_and_fit() {
    let p = plan();
    let md = String::from_utf8(render(&p, Format::Md).unwrap()).unwrap();
    assert!(
        md.contains("## Pools") && md.contains("Ultra manual pool of"),
        "{md}"
    );
    assert!(md.contains("## Timeline") && md.contains("## Where each workload fits best"));
    assert!(md.contains("\\<b\\>SAP"), "markup escaped");

    let html = String::from_utf8(render(&p, Format::Html).unwrap()).unwrap();
    assert!(html.contains("<svg") && html.contains("&lt;b&gt;SAP&lt;/b&gt;"));
    assert!(!html.contains("<i>"));

    let csv = render(&p, Format::Csv).unwrap();
    let mut rd = ::csv::ReaderBuilder::new()
        .flexible(true)
        .has_headers(false)
        .from_reader(&csv[..]);
    let rows: Vec<::csv::StringRecord> = rd.records().map(Result::unwrap).collect();
    assert!(rows.iter().any(|r| &r[0] == "Timeline"));
    // A name that would be a formula is quoted.
    assert!(rows.iter().any(|r| r.iter().any(|c| c == "'=data")));

    let xlsx = render(&p, Format::Xlsx).unwrap();
    let mut wb: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(xlsx)).unwrap();
    use calamine::Reader;
    let names = wb.sheet_names();
    assert!(names.contains(&"Pools".to_owned()) && names.contains(&"Timeline".to_owned()));
    let timeline = wb.worksheet_range("Timeline").unwrap();
    assert_eq!(timeline.height(), p.timeline.len() + 1);

    let pdf = render(&p, Format::Pdf).unwrap();
    let doc = lopdf::Document::load_mem(&pdf).unwrap();
    assert!(doc.get_pages().len() >= 2);

    let json: serde_json::Value =
        serde_json::from_slice(&render(&p, Format::Json).unwrap()).unwrap();
    for key in ["pools", "assignments", "timeline", "monthly", "total"] {
        assert!(json.get(key).is_some(), "{key}");
    }
}
