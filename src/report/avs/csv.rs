//! The AVS plan as CSV: one table with a header row, the datastores first (`section`
//! `datastore`, one row each), then the placement (`section` `placement`, one row per VM
//! or disk). Columns that do not apply to a section are empty.
//!
//! Columns (documented in docs/avs.md; never renamed): see [`COLUMNS`].

use super::{PlanDoc, placement_rows};
use crate::report::ReportError;
use crate::report::doc::csv::{number, text, write};

/// The header row, in order.
pub const COLUMNS: [&str; 15] = [
    "section",
    "datastore",
    "cluster",
    "vm",
    "disk",
    "quota_tib",
    "used_tib",
    "with_growth_tib",
    "fill_pct",
    "vms",
    "mibps",
    "iops",
    "qos_mibps",
    "tib",
    "flags",
];

/// A figure to 4 decimals.
fn n(v: f64) -> String {
    number(v, 4)
}

fn opt(v: Option<f64>) -> String {
    v.map_or_else(String::new, n)
}

/// Writes the CSV (UTF-8, comma-separated, header row first).
pub fn render(doc: &PlanDoc) -> Result<Vec<u8>, ReportError> {
    let header = COLUMNS.map(str::to_owned);
    let datastores = doc.plan.datastores.iter().map(|d| {
        [
            "datastore".to_owned(),
            text(&d.name),
            d.cluster.to_string(),
            String::new(),
            String::new(),
            n(d.quota_tib),
            n(d.used_tib),
            n(d.with_growth_tib),
            n(d.fill_pct),
            d.vms.to_string(),
            n(d.demand_mibps),
            n(d.demand_iops),
            n(d.qos_mibps),
            String::new(),
            String::new(),
        ]
    });
    let placement = placement_rows(doc).into_iter().map(|r| {
        [
            "placement".to_owned(),
            text(r.datastore),
            r.cluster.map_or_else(String::new, |c| c.to_string()),
            text(r.vm),
            r.disk.map_or_else(String::new, text),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            opt(r.mibps),
            opt(r.iops),
            String::new(),
            n(r.tib),
            r.flags.join("; "),
        ]
    });
    write(
        std::iter::once(header).chain(datastores).chain(placement),
        false,
    )
}
