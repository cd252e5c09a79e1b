//! Every format of plans over generated inventories (hostile names, disks placed or
//! not, flags, figures or none) renders and reads back.

use super::{Format, PlanDoc, render};
use crate::avs::{AvsPlan, PlaceUnit, PlanRequest, plan};
use crate::engine::pricing::book;
use crate::inventory::{CapacityBasis, Disk, Flag, Inventory, PowerState, Summary, Vm};
use calamine::Reader;
use proptest::prelude::*;

fn vm(name: String, tib: f64, disks: usize, perf: Option<f64>, flagged: bool) -> Vm {
    let mib = tib * 1_048_576.0;
    Vm {
        vm: name,
        powerstate: PowerState::PoweredOn,
        cluster: Some("<b>Cluster & Co</b>".to_owned()),
        host: None,
        datastore: None,
        vcpus: 4,
        memory_mib: 16384.0,
        provisioned_mib: mib * 1.5,
        in_use_mib: mib,
        guest_used_mib: None,
        disks: (0..disks)
            .map(|k| Disk {
                disk: format!("Hard disk {}", k + 1),
                datastore: None,
                capacity_mib: mib * 1.5 / disks as f64,
                rdm: flagged && k == 0,
                shared: false,
            })
            .collect(),
        iops: perf.map(|m| m * 16.0),
        mibps: perf,
        flags: if flagged { vec![Flag::Rdm] } else { vec![] },
    }
}

fn inventory(vms: Vec<Vm>) -> Inventory {
    let mut inv = Inventory {
        vms,
        excluded: vec![],
        summary: Summary {
            capacity_unit: "MiB (RVTools 4.x headers)".to_owned(),
            warnings: vec!["=HYPERLINK(\"x\") <script>".to_owned()],
            ..Summary::default()
        },
    };
    inv.total();
    inv
}

/// An inventory of `n` VMs of two disks each and its plan in West US 2, disks placed.
pub(super) fn planned(n: usize) -> (Inventory, AvsPlan) {
    let inv = inventory(
        (0..n)
            .map(|i| vm(format!("vm{i}"), 0.5, 2, Some(10.0), false))
            .collect(),
    );
    let mut req = PlanRequest::new(inv.clone());
    req.region = Some("westus2".to_owned());
    req.unit = PlaceUnit::Disk;
    let p = plan(&req, book()).unwrap();
    (inv, p)
}

/// Every format of `doc`, each read back: the number of placement rows each lists.
fn check_every_format(doc: &PlanDoc) {
    let placed = doc.plan.placement.len();
    for f in [
        Format::Pdf,
        Format::Md,
        Format::Html,
        Format::Csv,
        Format::Xlsx,
        Format::Json,
    ] {
        let bytes = render(doc, f).unwrap_or_else(|e| panic!("{f:?}: {e}"));
        match f {
            Format::Pdf => assert!(bytes.starts_with(b"%PDF")),
            Format::Md => {
                let text = String::from_utf8(bytes).unwrap();
                assert!(text.contains("## Placement"));
                check_markdown(&text);
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
                    .filter(|n| n.attribute("id") == Some("avs-vms"))
                    .flat_map(|t| t.descendants().filter(|n| n.has_tag_name("tr")))
                    .count();
                assert_eq!(rows - 1, placed.min(super::MAX_PLACEMENT));
                assert!(!text.contains("<script>"));
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
            }
            Format::Json => {
                let back: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                assert_eq!(back["placement"].as_array().map(Vec::len), Some(placed));
                assert_eq!(back["level"], doc.plan.level.key());
            }
        }
    }
}

/// The Markdown starts no markup from a name: no `<` or `[` outside an escape, and
/// every table row has as many cells as its table's header.
fn check_markdown(text: &str) {
    let mut header_cells = 0;
    for line in text.lines() {
        let (mut escaped, mut bars) = (false, 0);
        for c in line.chars() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '<' | '[' => panic!("unescaped {c} in {line:?}"),
                '|' => bars += 1,
                _ => {}
            }
        }
        if !line.starts_with('|') {
            header_cells = 0;
        } else if header_cells == 0 {
            header_cells = bars;
        } else {
            assert_eq!(bars, header_cells, "{line:?}");
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
            let doc = PlanDoc { origin: "<i>file</i> [x](javascript:y) |.xlsx", inventory: &inv, basis: req.capacity_basis, plan: &p };
            check_every_format(&doc);
        }
    }
}

#[test]
fn disk_rows_share_their_vm_capacity_and_figures() {
    let (inv, p) = planned(3);
    let doc = PlanDoc {
        origin: "x",
        inventory: &inv,
        basis: CapacityBasis::InUse,
        plan: &p,
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
