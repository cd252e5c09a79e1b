//! Re-pricing: the cost a revision was saved with beside the cost under today's price
//! book, line by line.
//!
//! A saved revision keeps a [`CostSnapshot`] of its evaluation's cost. Re-pricing
//! evaluates the same revision with today's book and matches the lines by item; the
//! snapshot itself is never changed.

use crate::engine::evaluation::{Cost, PriceBookRef};
use serde::{Deserialize, Serialize};

/// The priced cost of one evaluation, as stored with a revision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CostSnapshot {
    /// The price book the lines come from.
    pub price_book: PriceBookRef,
    pub region: String,
    pub currency: String,
    /// The date of the prices.
    pub price_date: String,
    /// The sum of the lines; null when a storage line has no price.
    pub monthly: Option<f64>,
    pub lines: Vec<SnapshotLine>,
}

/// One cost line of a snapshot (the Evaluation's `cost.lines` item).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SnapshotLine {
    pub item: String,
    pub quantity: f64,
    pub unit: String,
    pub unit_price: Option<f64>,
    pub monthly: Option<f64>,
    /// Charged once, not monthly (false in snapshots saved before the flag existed).
    #[serde(default)]
    pub one_time: bool,
}

impl CostSnapshot {
    /// The snapshot of an evaluation's cost.
    pub fn of(c: &Cost) -> CostSnapshot {
        CostSnapshot {
            price_book: c.price_book.clone(),
            region: c.region.clone(),
            currency: c.currency.to_owned(),
            price_date: c.price_date.clone(),
            monthly: c.monthly,
            lines: c
                .lines
                .iter()
                .map(|l| SnapshotLine {
                    item: l.item.to_owned(),
                    quantity: l.quantity,
                    unit: l.unit.to_owned(),
                    unit_price: l.unit_price,
                    monthly: l.monthly,
                    one_time: l.one_time,
                })
                .collect(),
        }
    }
}

/// How a line compares between the stored snapshot and today.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LineChange {
    /// Same quantity, unit price and amount.
    Unchanged,
    /// A different unit price (or quantity) today.
    Changed,
    /// A line today that the snapshot did not have.
    Added,
    /// A line of the snapshot that today's cost does not have.
    Removed,
    /// The revision was saved before snapshots were kept: nothing to compare with.
    NotStored,
}

/// One item, stored and today.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct RepriceLine {
    pub item: String,
    pub unit: String,
    pub change: LineChange,
    /// The snapshot's line; null for a line added since or a revision without one.
    pub stored: Option<SnapshotLine>,
    /// Today's line; null for a line that no longer applies.
    pub today: Option<SnapshotLine>,
    /// Today's monthly amount less the stored one; null unless both are priced.
    pub difference: Option<f64>,
}

/// The stored cost beside today's (answer of `POST /api/v1/scenarios/{id}/reprice`).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Repricing {
    /// The cost the revision was saved with; null for a revision saved before
    /// snapshots were kept ("not stored").
    pub stored: Option<CostSnapshot>,
    /// The same revision priced with today's book.
    pub today: CostSnapshot,
    /// Every item of either, in the snapshot's order, then the added ones.
    pub lines: Vec<RepriceLine>,
    /// Today's monthly total less the stored one; null unless both are priced.
    pub difference: Option<f64>,
    /// The same in percent of the stored total; null when that is null or 0.
    pub difference_pct: Option<f64>,
}

/// True when two amounts are the same up to rounding noise.
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn same_opt(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => same(a, b),
        (a, b) => a.is_none() && b.is_none(),
    }
}

fn minus(today: Option<f64>, stored: Option<f64>) -> Option<f64> {
    Some(today? - stored?)
}

/// Compares the stored snapshot (if the revision has one) with today's cost.
pub fn reprice(stored: Option<CostSnapshot>, today: CostSnapshot) -> Repricing {
    let mut lines = Vec::with_capacity(today.lines.len());
    match &stored {
        None => lines.extend(today.lines.iter().map(|t| RepriceLine {
            item: t.item.clone(),
            unit: t.unit.clone(),
            change: LineChange::NotStored,
            stored: None,
            today: Some(t.clone()),
            difference: None,
        })),
        Some(s) => {
            for old in &s.lines {
                let now = today.lines.iter().find(|t| t.item == old.item);
                let change = match now {
                    None => LineChange::Removed,
                    Some(t)
                        if same(t.quantity, old.quantity)
                            && same_opt(t.unit_price, old.unit_price)
                            && same_opt(t.monthly, old.monthly) =>
                    {
                        LineChange::Unchanged
                    }
                    Some(_) => LineChange::Changed,
                };
                lines.push(RepriceLine {
                    item: old.item.clone(),
                    unit: old.unit.clone(),
                    change,
                    stored: Some(old.clone()),
                    today: now.cloned(),
                    difference: minus(now.and_then(|t| t.monthly), old.monthly),
                });
            }
            for t in &today.lines {
                if !s.lines.iter().any(|old| old.item == t.item) {
                    lines.push(RepriceLine {
                        item: t.item.clone(),
                        unit: t.unit.clone(),
                        change: LineChange::Added,
                        stored: None,
                        today: Some(t.clone()),
                        difference: None,
                    });
                }
            }
        }
    }
    let before = stored.as_ref().and_then(|s| s.monthly);
    let difference = minus(today.monthly, before);
    let difference_pct = match (difference, before) {
        (Some(d), Some(b)) if b != 0.0 => Some(d / b * 100.0),
        _ => None,
    };
    Repricing {
        stored,
        today,
        lines,
        difference,
        difference_pct,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(item: &str, unit_price: f64, quantity: f64) -> SnapshotLine {
        SnapshotLine {
            item: item.to_owned(),
            quantity,
            unit: "GiB-month".to_owned(),
            unit_price: Some(unit_price),
            monthly: Some(unit_price * quantity),
            one_time: false,
        }
    }

    fn snapshot(lines: Vec<SnapshotLine>) -> CostSnapshot {
        CostSnapshot {
            price_book: PriceBookRef {
                id: "book".into(),
                date: "2026-01-29".into(),
                source: "test".into(),
            },
            region: "eastus".into(),
            currency: "USD".into(),
            price_date: "2026-01-29".into(),
            monthly: lines.iter().map(|l| l.monthly).sum(),
            lines,
        }
    }

    #[test]
    fn lines_are_matched_by_item() {
        let stored = snapshot(vec![
            line("Ultra pool capacity", 0.39274, 1024.0),
            line("Backup", 0.05, 100.0),
        ]);
        let today = snapshot(vec![
            line("Ultra pool capacity", 0.5, 1024.0),
            line("Cool tier capacity", 0.06, 10.0),
        ]);
        let r = reprice(Some(stored), today);
        let changes: Vec<LineChange> = r.lines.iter().map(|l| l.change).collect();
        assert_eq!(
            changes,
            [LineChange::Changed, LineChange::Removed, LineChange::Added]
        );
        assert!(same(
            r.lines[0].difference.unwrap(),
            (0.5 - 0.39274) * 1024.0
        ));
        assert_eq!(r.lines[1].difference, None);
        let before = 0.39274 * 1024.0 + 5.0;
        let after = 512.0 + 0.6;
        assert!(same(r.difference.unwrap(), after - before));
        assert!(same(
            r.difference_pct.unwrap(),
            (after - before) / before * 100.0
        ));
    }

    #[test]
    fn unchanged_and_not_stored() {
        let s = snapshot(vec![line("Standard pool capacity", 0.14746, 4096.0)]);
        let r = reprice(Some(s.clone()), s.clone());
        assert_eq!(r.lines[0].change, LineChange::Unchanged);
        assert_eq!(r.difference, Some(0.0));
        let r = reprice(None, s);
        assert_eq!(r.lines[0].change, LineChange::NotStored);
        assert_eq!((r.difference, r.difference_pct), (None, None));
    }
}
