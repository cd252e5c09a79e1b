//! The AVS plan as a report: a document (HTML, Markdown, PDF) laid out like the sizing
//! report, with an executive summary, the cost by purchase term with its break-even,
//! the hosts and what drives them, the datastore layout as a chart and a table, the
//! clusters as evaluated and the placement; and its data formats: CSV (the datastores
//! and the VM-to-datastore placement in one table), XLSX (Summary, Hosts and TCO,
//! Datastores, Placement) and JSON (the answer of `POST /api/v1/avs/plan`).
//!
//! Every format shows the names as the inventory holds them: an anonymised inventory's
//! stand-ins (`vm-00001`), never the originals.

mod csv;
mod document;
mod xlsx;

pub use csv::COLUMNS as CSV_COLUMNS;
pub use document::document;

use crate::avs::AvsPlan;
use crate::inventory::model::MIB_PER_TIB;
use crate::inventory::{CapacityBasis, Flag, Inventory};
use crate::report::{Edition, Format, RenderOptions, ReportError, doc, render_doc};
use crate::verdict::avs::AvsVerdict;
use std::collections::HashMap;

/// Placement rows the text formats (PDF, Markdown, HTML) list before they refer to the
/// full placement in the CSV, XLSX and JSON files.
pub const MAX_PLACEMENT: usize = 5000;

/// A plan with what it was made from.
pub struct PlanDoc<'a> {
    /// The name of the file the inventory came from.
    pub origin: &'a str,
    pub inventory: &'a Inventory,
    /// The capacity the plan sized on.
    pub basis: CapacityBasis,
    pub plan: &'a AvsPlan,
    /// The date of the report (YYYY-MM-DD).
    pub date: &'a str,
    /// The verdict every format prints (the cheaper option at the chosen term).
    pub verdict: &'a AvsVerdict,
}

/// The engineer edition's JSON download: the plan with its verdict, as `POST
/// /api/v1/avs/plan` answers (the customer edition's is the document's).
#[derive(serde::Serialize)]
struct Answer<'a> {
    #[serde(flatten)]
    plan: &'a AvsPlan,
    verdict: &'a AvsVerdict,
}

/// The plan in `format`.
pub fn render(doc: &PlanDoc, format: Format, opts: RenderOptions) -> Result<Vec<u8>, ReportError> {
    match format {
        Format::Csv => csv::render(doc),
        Format::Xlsx => xlsx::render(doc),
        Format::Json if opts.edition == Edition::Customer => {
            doc::json::render(&document(doc, opts.edition))
        }
        Format::Json => serde_json::to_vec(&Answer {
            plan: doc.plan,
            verdict: doc.verdict,
        })
        .map_err(|e| ReportError::Json(e.to_string())),
        _ => render_doc(&document(doc, opts.edition), format, opts.paper),
    }
}

/// One row of the VM-to-datastore placement with the VM's figures (a disk's share of
/// them when disks are placed).
#[derive(Debug, Clone, PartialEq)]
pub struct PlacementRow<'a> {
    pub vm: &'a str,
    pub disk: Option<&'a str>,
    pub datastore: &'a str,
    pub cluster: Option<u32>,
    pub tib: f64,
    pub mibps: Option<f64>,
    pub iops: Option<f64>,
    pub flags: Vec<&'static str>,
}

/// A flag's short name.
pub fn flag_name(f: Flag) -> &'static str {
    match f {
        Flag::Rdm => "RDM",
        Flag::SharedDisk => "shared disk",
    }
}

/// The placement in plan order, each row with its VM's (or disk's) capacity on the
/// plan's basis and performance.
pub fn placement_rows<'a>(doc: &PlanDoc<'a>) -> Vec<PlacementRow<'a>> {
    let vms: HashMap<&str, &crate::inventory::Vm> = doc
        .inventory
        .vms
        .iter()
        .map(|v| (v.vm.as_str(), v))
        .collect();
    let cluster: HashMap<&str, u32> = doc
        .plan
        .datastores
        .iter()
        .map(|d| (d.name.as_str(), d.cluster))
        .collect();
    let mut next_disk: HashMap<&str, usize> = HashMap::new();
    doc.plan
        .placement
        .iter()
        .map(|p| {
            let v = vms.get(p.vm.as_str());
            let share = match (v, &p.disk) {
                (Some(v), Some(_)) => {
                    let k = next_disk.entry(p.vm.as_str()).or_default();
                    let sized: f64 = v.disks.iter().map(|d| d.capacity_mib).sum();
                    let share = v
                        .disks
                        .get(*k)
                        .filter(|_| sized > 0.0)
                        .map_or(0.0, |d| d.capacity_mib / sized);
                    *k += 1;
                    share
                }
                _ => 1.0,
            };
            PlacementRow {
                vm: p.vm.as_str(),
                disk: p.disk.as_deref(),
                datastore: p.datastore.as_str(),
                cluster: cluster.get(p.datastore.as_str()).copied(),
                tib: v.map_or(0.0, |v| v.capacity_mib(doc.basis) / MIB_PER_TIB * share),
                mibps: v.and_then(|v| v.mibps).map(|m| m * share),
                iops: v.and_then(|v| v.iops).map(|m| m * share),
                flags: v.map_or_else(Vec::new, |v| {
                    v.flags.iter().map(|f| flag_name(*f)).collect()
                }),
            }
        })
        .collect()
}

/// What the plan places: `VMs` or `disks`.
pub fn unit_name(p: &AvsPlan) -> &'static str {
    if p.unit == crate::avs::PlaceUnit::Disk {
        "disks"
    } else {
        "VMs"
    }
}

/// The two options of the TCO comparison with their names.
pub fn options(p: &AvsPlan) -> [(&'static str, &crate::avs::tco::OptionCost); 2] {
    [
        ("vSAN only", &p.tco.vsan_only),
        ("with ANF datastores", &p.tco.with_anf),
    ]
}

#[cfg(test)]
mod tests;
