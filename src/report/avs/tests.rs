//! Every format of plans over generated inventories (hostile names, disks placed or
//! not, flags, figures or none) renders and reads back.

use super::{PlanDoc, render};
use crate::avs::{PlaceUnit, PlanRequest, plan};
use crate::engine::pricing::book;
use crate::inventory::{CapacityBasis, Vm};
use crate::report::fixture::{avs_plan as planned, inventory, vm};
use crate::report::{Format, RenderOptions};
use calamine::Reader;
use proptest::prelude::*;

/// Every format of `doc`, each read back: the number of placement rows each lists.
fn check_every_format(doc: &PlanDoc) {
    let placed = doc.plan.placement.len();
    let headline = doc.verdict.statement.as_str();
    for f in Format::ALL {
        let bytes =
            render(doc, f, RenderOptions::default()).unwrap_or_else(|e| panic!("{f:?}: {e}"));
        match f {
            Format::Pdf => assert!(bytes.starts_with(b"%PDF")),
            Format::Md => {
                let md = std::str::from_utf8(&bytes).unwrap();
                assert!(md.contains("and their datastores"), "{md}");
                assert!(!md.contains("<i>") && !md.contains("<b>"), "names escaped");
            }
            Format::Html => {
                let text = String::from_utf8(bytes).unwrap();
                let xml = roxmltree::Document::parse_with_options(
                    &text,
                    roxmltree::ParsingOptions {
                        allow_dtd: true,
                        ..Default::default()
                    },
                )
                .unwrap_or_else(|e| panic!("HTML not well-formed: {e}"));
                let rows = xml
                    .descendants()
                    .filter(|n| n.attribute("id") == Some("placement-table"))
                    .flat_map(|t| t.descendants().filter(|n| n.has_tag_name("tr")))
                    .count();
                assert_eq!(rows - 1, placed.min(super::MAX_PLACEMENT));
                assert!(!text.contains("<script>"));
                let texts: Vec<&str> = xml.descendants().filter_map(|n| n.text()).collect();
                for statement in &doc.verdict.statements {
                    assert!(
                        texts.iter().any(|t| t.contains(statement.as_str())),
                        "the verdict's {statement:?} in the HTML"
                    );
                }
            }
            Format::Csv => {
                let mut r = ::csv::Reader::from_reader(&bytes[..]);
                let kinds: Vec<String> = r.records().map(|x| x.unwrap()[0].to_owned()).collect();
                assert_eq!(kinds.iter().filter(|k| *k == "placement").count(), placed);
                assert_eq!(
                    kinds.iter().filter(|k| *k == "datastore").count(),
                    doc.plan.datastores.len()
                );
            }
            Format::Xlsx => {
                let mut book: calamine::Xlsx<_> =
                    calamine::open_workbook_from_rs(std::io::Cursor::new(bytes)).unwrap();
                let range = book.worksheet_range("Placement").unwrap();
                assert_eq!(range.rows().count() - 1, placed);
                let summary = book.worksheet_range("Summary").unwrap();
                assert!(
                    summary
                        .cells()
                        .any(|(_, _, c)| matches!(c, calamine::Data::String(s) if s == headline)),
                    "{headline}"
                );
            }
            Format::Json => {
                // The customer edition's JSON is the document, with the verdict's words.
                let customer: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                assert_eq!(customer["edition"], "customer");
                assert!(
                    String::from_utf8_lossy(&bytes)
                        .contains(&serde_json::to_string(headline).unwrap())
                );
                let engineer = RenderOptions {
                    edition: crate::report::Edition::Engineer,
                    ..RenderOptions::default()
                };
                let bytes = render(doc, f, engineer).unwrap();
                let back: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                assert_eq!(back["placement"].as_array().map(Vec::len), Some(placed));
                assert_eq!(back["level"], doc.plan.level.key());
                assert_eq!(back["verdict"]["statement"], headline);
            }
        }
    }
}

/// Names with markup, quotes, formula starts, separators and non-ASCII letters.
fn name() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9<>&\"'=+@,;| éß漢-]{1,40}"
        .prop_filter("a name is not blank", |s| !s.trim().is_empty())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn every_format_of_an_accepted_plan_renders_and_reads_back(
        vms in prop::collection::vec(
            (name(), 0.0f64..6.0, 0usize..4, prop::option::of(0.0f64..400.0), any::<bool>()),
            1..24,
        ),
        disk in any::<bool>(),
        provisioned in any::<bool>(),
        growth in 0.0f64..100.0,
    ) {
        let mut seen = std::collections::HashSet::new();
        let vms: Vec<Vm> = vms
            .into_iter()
            .filter(|v| seen.insert(v.0.clone()))
            .map(|(n, t, d, p, f)| vm(n, t, d, p, f))
            .collect();
        let inv = inventory(vms);
        let mut req = PlanRequest::new(inv.clone());
        req.region = Some("westus2".to_owned());
        req.unit = if disk { PlaceUnit::Disk } else { PlaceUnit::Vm };
        req.capacity_basis = if provisioned { CapacityBasis::Provisioned } else { CapacityBasis::InUse };
        req.growth_pct = growth;
        // A plan the engine refuses is the API's 422; every accepted one renders.
        if let Ok(p) = plan(&req, book()) {
            let verdict = crate::verdict::avs::verdict(&p, Default::default());
            let doc = PlanDoc { origin: "<i>file</i>.xlsx", inventory: &inv, basis: req.capacity_basis, plan: &p, date: "2026-01-02", verdict: &verdict };
            check_every_format(&doc);
        }
    }
}

#[test]
fn disk_rows_share_their_vm_capacity_and_figures() {
    let (inv, p) = planned(3);
    let verdict = crate::verdict::avs::verdict(&p, Default::default());
    let doc = PlanDoc {
        origin: "x",
        inventory: &inv,
        basis: CapacityBasis::InUse,
        plan: &p,
        date: "2026-01-02",
        verdict: &verdict,
    };
    let rows = super::placement_rows(&doc);
    assert_eq!(rows.len(), 6);
    let vm0: Vec<_> = rows.iter().filter(|r| r.vm == "vm0").collect();
    assert_eq!(vm0.len(), 2);
    let tib: f64 = vm0.iter().map(|r| r.tib).sum();
    assert!((tib - 0.5).abs() < 1e-9, "{tib}");
    let mibps: f64 = vm0.iter().filter_map(|r| r.mibps).sum();
    assert!((mibps - 10.0).abs() < 1e-9, "{mibps}");
    assert_eq!(vm0[0].disk, Some("Hard disk 1"));
    assert!(rows.iter().all(|r| r.cluster == Some(1)));
}

/// The upload's file name and the VM names are escaped like the scenario report's: no
/// HTML, no links, no broken tables.
#[test]
fn markdown_escapes_the_file_and_vm_names() {
    let hostile = [
        "<img src=x onerror=alert(1)>",
        "[click](javascript:alert(1))",
        "a|b|c",
    ];
    let inv = inventory(
        hostile
            .iter()
            .map(|n| vm((*n).to_owned(), 1.0, 1, Some(10.0), false))
            .collect(),
    );
    let mut req = PlanRequest::new(inv.clone());
    req.region = Some("westus2".to_owned());
    let p = plan(&req, book()).unwrap();
    let verdict = crate::verdict::avs::verdict(&p, Default::default());
    let doc = PlanDoc {
        origin: "<script>alert(1)</script>|[x](javascript:1).csv",
        inventory: &inv,
        basis: CapacityBasis::InUse,
        plan: &p,
        date: "2026-01-02",
        verdict: &verdict,
    };
    let md =
        String::from_utf8(render(&doc, Format::Md, RenderOptions::default()).unwrap()).unwrap();
    // The names come only escaped: no tag, no link, no image.
    for raw in hostile
        .iter()
        .chain(&["<script>alert(1)</script>", "[x](javascript:1)"])
    {
        assert!(!md.contains(raw), "{raw} unescaped");
        assert!(
            md.contains(&crate::report::escape::md(raw)),
            "{raw} escaped"
        );
    }
    let rows: Vec<&str> = md.lines().filter(|l| l.contains("a\\|b\\|c")).collect();
    assert!(!rows.is_empty(), "the pipe is escaped in its cell: {md}");
    for row in rows {
        // Unescaped pipes are the table's own: as many as its columns have.
        let pipes = row.replace("\\|", "").matches('|').count();
        assert_eq!(pipes, 7, "{row}");
    }
}

/// The customer edition of a plan whose hosts have no price names no API path and no
/// internal term, and its cost table carries every figure the headline quotes.
#[test]
fn the_customer_edition_speaks_plainly_and_its_tables_hold_the_headline_figures() {
    use crate::report::Edition;
    for (sku, term) in [
        ("AV36", crate::avs::PurchaseTerm::ThreeYears),
        ("AV36P", crate::avs::PurchaseTerm::Payg),
    ] {
        let inv = inventory(
            (0..6)
                .map(|i| vm(format!("vm{i}"), 0.5, 2, Some(10.0), false))
                .collect(),
        );
        let mut req = PlanRequest::new(inv.clone());
        req.host_sku = sku.to_owned();
        req.region = Some("eastus".to_owned());
        req.term = term;
        let p = plan(&req, book()).unwrap();
        assert_eq!(p.tco.hosts_priced, sku == "AV36P");
        let verdict = crate::verdict::avs::verdict(&p, term);
        let doc = PlanDoc {
            origin: "inventory.xlsx",
            inventory: &inv,
            basis: req.capacity_basis,
            plan: &p,
            date: "2026-01-02",
            verdict: &verdict,
        };
        let opts = RenderOptions {
            edition: Edition::Customer,
            ..RenderOptions::default()
        };
        let md = String::from_utf8(render(&doc, Format::Md, opts).unwrap()).unwrap();
        for word in ["price book", "/api/", "GET ", "POST "] {
            assert!(!md.contains(word), "{sku}: {word:?} in {md}");
        }
        // Every money figure of the headline statement is a cell of the report's tables.
        let cells: Vec<&str> = md
            .lines()
            .filter(|l| l.starts_with('|'))
            .flat_map(|l| l.split('|').map(str::trim))
            .collect();
        let figures: Vec<&str> = verdict
            .statement
            .split([' ', '(', ')'])
            .map(|w| {
                w.trim_end_matches([',', '.', ';', ')'])
                    .trim_end_matches("/month")
            })
            .filter(|w| w.starts_with('$'))
            .collect();
        // Hosts priced: the saving, both options' monthly and the total over the term.
        assert_eq!(
            figures.len(),
            if p.tco.hosts_priced { 4 } else { 1 },
            "{figures:?}"
        );
        for figure in figures {
            assert!(
                cells.iter().any(|c| c.trim_start_matches('-') == figure),
                "{sku}: {figure} of {:?} in no table cell:\n{md}",
                verdict.statement
            );
        }
    }
}
