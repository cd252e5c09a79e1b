//! The AVS plan as CSV: one table with a header row, the datastores first (`section`
//! `datastore`, one row each), then the placement (`section` `placement`, one row per VM
//! or disk). Columns that do not apply to a section are empty.
//!
//! Columns (documented in docs/avs.md; never renamed): see [`COLUMNS`].

use super::{PlanDoc, placement_rows};
use crate::report::ReportError;
use crate::report::escape::csv as text;

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

/// A number without separators (up to 4 decimals), so spreadsheets parse it.
fn n(v: f64) -> String {
    if v.is_finite() {
        format!("{}", (v * 10_000.0).round() / 10_000.0)
    } else {
        String::new()
    }
}

fn opt(v: Option<f64>) -> String {
    v.map_or_else(String::new, n)
}

/// Writes the CSV (UTF-8, comma-separated, header row first).
pub fn render(doc: &PlanDoc) -> Result<Vec<u8>, ReportError> {
    let err = |e: ::csv::Error| ReportError::Csv(e.to_string());
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(COLUMNS).map_err(err)?;
    for d in &doc.plan.datastores {
        w.write_record([
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
        ])
        .map_err(err)?;
    }
    for r in placement_rows(doc) {
        w.write_record([
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
        ])
        .map_err(err)?;
    }
    w.into_inner().map_err(|e| ReportError::Csv(e.to_string()))
}
