//! The AVS plan as one printable, self-contained HTML page: inline CSS and SVG charts,
//! a print stylesheet, no script, every text escaped by askama. The placement lists its
//! first [`MAX_PLACEMENT`] rows.

use super::{
    MAX_PLACEMENT, PlacementRow, PlanDoc, charts, options, placement_rows, unit_name, usd,
};
use crate::avs::AvsPlan;
use crate::avs::tco::OptionCost;
use crate::inventory::Summary;
use crate::report::model::ReportError;
use askama::Template;

#[derive(Template)]
#[template(path = "report/avs.html")]
struct Page<'a> {
    doc: &'a PlanDoc<'a>,
    s: &'a Summary,
    p: &'a AvsPlan,
    unit: &'static str,
    options: [(&'static str, &'a OptionCost); 2],
    notes: Vec<&'a String>,
    rows: Vec<PlacementRow<'a>>,
    more: usize,
    tco_chart: String,
    fill_chart: String,
}

impl Page<'_> {
    fn usd(&self, v: &f64) -> String {
        usd(*v)
    }
}

/// Writes the HTML page.
pub fn render(doc: &PlanDoc) -> Result<String, ReportError> {
    let p = doc.plan;
    let s = &doc.inventory.summary;
    let mut rows = placement_rows(doc);
    let more = rows.len().saturating_sub(MAX_PLACEMENT);
    rows.truncate(MAX_PLACEMENT);
    Page {
        doc,
        s,
        p,
        unit: unit_name(p),
        options: options(p),
        notes: s.warnings.iter().chain(&p.warnings).collect(),
        rows,
        more,
        tco_chart: charts::tco(&p.tco),
        fill_chart: charts::fill(p),
    }
    .render()
    .map_err(|e| ReportError::Html(e.to_string()))
}
