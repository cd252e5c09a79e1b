//! What an import would do to a price book: each row it brings, new or changed (old
//! price to new) or unchanged, and how many items it ignores and why.

use super::RetailItem;
use super::meters::{self, ImportedRow, RefusedItem};
use crate::engine::evaluation::PriceBookRef;
use crate::engine::pricing::PriceBook;
use crate::prices::rows::{self, Override, PricedService, RowKey};
use serde::Serialize;

/// How an imported row compares with the book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RowChange {
    /// The book has no price for the row.
    Added,
    /// The book has another price.
    Changed,
    /// The book has the same price.
    Unchanged,
}

/// One row of an import against the book.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct PlannedRow {
    pub service: PricedService,
    pub region: String,
    pub region_name: String,
    pub item: String,
    pub label: String,
    pub unit: String,
    pub change: RowChange,
    /// The book's price before, in `currency`; null for an added row.
    pub old: Option<f64>,
    /// The imported price per `unit`, in `currency`.
    pub new: f64,
    /// ISO 4217 code of the prices (the items' `currencyCode`).
    pub currency: String,
    /// The latest `effectiveStartDate` of the items behind the row.
    pub effective_start: String,
    /// Which items the row comes from.
    pub source: String,
}

impl PlannedRow {
    /// The row as a stored price, valid as of `as_of`, imported from `origin` (a file
    /// name or "API upload").
    pub fn to_override(&self, as_of: &str, origin: &str) -> Override {
        Override {
            key: RowKey {
                service: self.service,
                region: self.region.clone(),
                item: self.item.clone(),
            },
            price: self.new,
            currency: self.currency.clone(),
            region_name: Some(self.region_name.clone()),
            as_of: as_of.to_owned(),
            source: format!("{}; imported from {origin}", self.source),
        }
    }
}

/// Items ignored for one reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Ignored {
    pub reason: &'static str,
    pub items: usize,
}

/// An import checked against a book, before anything is stored.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct ImportPlan {
    /// Items read.
    pub items: usize,
    /// Rows the book lacks, rows with another price, rows with the same price.
    pub added: usize,
    pub changed: usize,
    pub unchanged: usize,
    /// Items that price nothing in the book.
    pub ignored: usize,
    pub ignored_reasons: Vec<Ignored>,
    /// Items of a row of the book at a price no row can hold (not a finite number, or
    /// over 1,000,000 per unit): never stored.
    pub refused: usize,
    /// The first [`MAX_REFUSED_LISTED`] of them, each with why.
    pub refused_items: Vec<RefusedItem>,
    /// Every row of the import, added and changed first.
    pub rows: Vec<PlannedRow>,
}

impl ImportPlan {
    /// The rows an import stores: added and changed.
    pub fn accepted(&self) -> impl Iterator<Item = &PlannedRow> {
        self.rows
            .iter()
            .filter(|r| r.change != RowChange::Unchanged)
    }
}

/// What an import did: its plan, whether the added and changed rows were stored, and
/// the book in force after (answer of `POST /api/v1/prices/import` and of
/// `volplan prices import`).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct ImportOutcome {
    #[serde(flatten)]
    pub plan: ImportPlan,
    /// True when the added and changed rows were stored (false for a dry run or when
    /// nothing changes).
    pub stored: bool,
    /// The book in force after the import.
    pub price_book: PriceBookRef,
}

/// Most refused items an answer lists (all are counted).
pub const MAX_REFUSED_LISTED: usize = 50;

/// Maps `items` to rows and compares them with `book`.
pub fn plan(items: &[RetailItem], book: &PriceBook) -> ImportPlan {
    let mapped = meters::map(items, book.hours_per_month);
    let mut rows: Vec<PlannedRow> = mapped
        .rows
        .into_iter()
        .filter_map(|r| planned(r, book))
        .collect();
    rows.sort_by_key(|r| r.change == RowChange::Unchanged);
    let count = |c: RowChange| rows.iter().filter(|r| r.change == c).count();
    let ignored_reasons: Vec<Ignored> = mapped
        .ignored
        .into_iter()
        .map(|(reason, items)| Ignored { reason, items })
        .collect();
    ImportPlan {
        items: items.len(),
        added: count(RowChange::Added),
        changed: count(RowChange::Changed),
        unchanged: count(RowChange::Unchanged),
        ignored: ignored_reasons.iter().map(|i| i.items).sum(),
        ignored_reasons,
        refused: mapped.refused.len(),
        refused_items: mapped
            .refused
            .into_iter()
            .take(MAX_REFUSED_LISTED)
            .collect(),
        rows,
    }
}

/// One imported row against the book; `None` for a row the book cannot hold (none:
/// [`meters::map`] refuses the items of such a row).
fn planned(r: ImportedRow, book: &PriceBook) -> Option<PlannedRow> {
    let item = rows::check_row(&r.key, r.price).ok()?;
    let old = book.in_currency(&r.currency).and_then(|b| b.get(&r.key));
    let change = match old {
        None => RowChange::Added,
        Some(o) if o == r.price => RowChange::Unchanged,
        Some(_) => RowChange::Changed,
    };
    let region_name = r
        .region_name
        .unwrap_or_else(|| book.region_name(&r.key.region).to_owned());
    Some(PlannedRow {
        service: r.key.service,
        region: r.key.region,
        region_name,
        item: r.key.item,
        label: item.label.clone(),
        unit: item.unit.to_owned(),
        change,
        old,
        new: r.price,
        currency: r.currency,
        effective_start: r.effective_start,
        source: r.source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::pricing;
    use crate::prices::retail::parse;
    use serde_json::json;

    fn item(meter: &str, region: &str, price: f64) -> serde_json::Value {
        json!({
            "currencyCode": "USD", "retailPrice": price, "armRegionName": region,
            "location": "US East", "effectiveStartDate": "2026-02-01T00:00:00Z",
            "meterId": "m", "meterName": meter, "productName": "Azure NetApp Files",
            "skuName": "x", "serviceName": "Azure NetApp Files",
            "unitOfMeasure": "1 GiB/Hour", "type": "Consumption"
        })
    }

    #[test]
    fn added_changed_unchanged_and_ignored() {
        let items = parse(&json!({"Items": [
            item("Standard Capacity", "eastus", 0.000202),
            item("Premium Capacity", "eastus", 0.0005),
            item("Flexible Service Level Capacity", "mexicocentral", 0.0002),
            item("Volume Restore Capacity", "eastus", 0.02),
        ]}))
        .unwrap();
        let p = plan(&items, pricing::book());
        assert_eq!(
            (p.items, p.added, p.changed, p.unchanged, p.ignored),
            (4, 1, 1, 1, 1),
            "{p:?}"
        );
        let premium = p.rows.iter().find(|r| r.item == "premium").unwrap();
        assert_eq!(premium.change, RowChange::Changed);
        assert_eq!(premium.old, Some(0.29419));
        assert_eq!(premium.new, 0.365);
        assert_eq!(p.accepted().count(), 2);
        assert_eq!(p.rows.last().unwrap().change, RowChange::Unchanged);
        let o = premium.to_override("2026-12-01", "page.json");
        assert_eq!(o.price, 0.365);
        assert!(
            o.source.ends_with("imported from page.json"),
            "{}",
            o.source
        );
    }
}
