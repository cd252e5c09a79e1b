//! One line of a cost, shared by the cost of every service (`cost`, and the Azure Files
//! and GCNV lines of `cost_files_gcnv`).

use serde::Serialize;

/// Most lines one cost has.
pub const MAX_LINES: usize = 12;

/// One line of the monthly cost (contract: `cost.lines`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
pub struct CostLine {
    pub item: &'static str,
    pub quantity: f64,
    pub unit: &'static str,
    /// Price per unit and month after reservation and discount; null when unpriced.
    pub unit_price: Option<f64>,
    /// The amount a month; for a one-time line, the amount charged once.
    pub monthly: Option<f64>,
    /// Charged once (in the first month), not every month: left out of the monthly sum.
    pub one_time: bool,
    /// How the line is charged, where the item does not say it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'static str>,
}

/// A line at `unit_price` (before discount) for `quantity`.
pub(super) fn line(
    item: &'static str,
    quantity: f64,
    unit: &'static str,
    unit_price: Option<f64>,
) -> CostLine {
    CostLine {
        item,
        quantity,
        unit,
        unit_price,
        monthly: unit_price.map(|u| u * quantity),
        one_time: false,
        note: None,
    }
}
