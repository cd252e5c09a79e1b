//! What if the level changed for part of a month: the prorated cost.

use crate::engine::evaluate::evaluate_in;
use crate::engine::evaluation::Evaluation;
use crate::engine::field_error::FieldErrors;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{FieldError, Level, Scenario};

/// Average days per month, used to prorate a level change over part of a month.
pub const DAYS_PER_MONTH: f64 = 30.4;

/// A service level raised (or lowered) for part of a month.
#[derive(Debug, Clone)]
pub struct WhatIf {
    pub level: Level,
    pub days: f64,
    pub base: Evaluation,
    pub changed: Evaluation,
    /// Cost of the month: the base level for the other days, the new one for `days`;
    /// `None` when either level has no list price.
    pub month: Option<f64>,
    /// Extra cost of the month against staying at the base level.
    pub extra: Option<f64>,
}

/// Evaluates the scenario at `level` and prorates the month: `days / 30.4`
/// of the month at the new level's price, the rest at the base level's, priced from
/// `prices`.
pub fn what_if(
    scenario: &Scenario,
    level: Level,
    days: f64,
    prices: &PriceBook,
) -> Result<WhatIf, FieldErrors> {
    if !(days.is_finite() && days > 0.0 && days <= DAYS_PER_MONTH) {
        return Err(FieldError::new(
            "days",
            format!(
                "must be a number of days above 0 and at most {DAYS_PER_MONTH} (an average month), not {days}"
            ),
        ).into());
    }
    let base = evaluate_in(scenario, prices)?;
    let mut s = scenario.clone();
    s.storage.set_level(level);
    let changed = evaluate_in(&s, prices).map_err(|e| {
        e.map(|e| {
            if e.field == "storage.level" {
                FieldError::new("level", e.message)
            } else {
                e
            }
        })
    })?;
    let share = days / DAYS_PER_MONTH;
    // The same scenario at another level: both costs are in its currency.
    let (month, extra) = match (base.cost.monthly, changed.cost.monthly) {
        (Some(b), Some(c)) => {
            let m = b * (1.0 - share) + c * share;
            (Some(m), Some(m - b))
        }
        _ => (None, None),
    };
    Ok(WhatIf {
        level,
        days,
        extra,
        month,
        base,
        changed,
    })
}
