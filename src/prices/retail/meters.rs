//! Retail Prices API items to price book rows, by the rules `tools/price_book.py`
//! builds the compiled book with.
//!
//! * Azure NetApp Files (`serviceName` and `productName` "Azure NetApp Files",
//!   Consumption): the capacity meters of Standard, Premium, Ultra, Flexible (capacity
//!   and throughput), cool access (capacity and data read back) and Backup. Prices per
//!   hour (`1 GiB/Hour`, `1/Hour`) become per month at the book's 730 hours, rounded to
//!   6 decimals; per-month and per-GiB prices stay as they are. Cross-region
//!   replication (`Cross Region Replication ... Minutes|Hours|Days`, `CRR - ...`, the
//!   generic and the region-pair meters) is charged per GiB replicated, whatever the
//!   API's unit says, and a region's rate is the most common one over its meters (the
//!   lowest on a tie). Only the regions of the compiled book are taken.
//! * Azure VMware Solution (Consumption, per hour): the host SKU named in `armSkuName`,
//!   `skuName` or `meterName` (AV36, AV36P, AV52, AV64, AV48), pay-as-you-go per
//!   host-hour; license-portability (`BYOL`) meters are left out. No public page of
//!   these items was found, so the rule is by name.
//! * Azure Files provisioned v1 (`productName` "Premium Files", meter
//!   `Premium LRS Provisioned`, per GiB-month): the SSD v1 capacity rate.
//!
//! Everything else is ignored with the reason counted: prices of 0 (placeholders),
//! other currencies (the book holds USD), reservations, tiers above the first, global
//! meters without a region, meters the book does not hold (double encryption, restore).
//! Of several items for one row, the one with the latest `effectiveStartDate` is taken.

use super::RetailItem;
use crate::engine::catalog;
use crate::engine::pricing;
use crate::engine::validate::well_formed_region;
use crate::prices::rows::{PricedService, RowKey};
use std::collections::BTreeMap;

/// The ANF meters of the book: `meterName` and the row item.
const ANF_METERS: [(&str, &str); 8] = [
    ("Standard Capacity", "standard"),
    ("Premium Capacity", "premium"),
    ("Ultra Capacity", "ultra"),
    ("Flexible Service Level Capacity", "flexible_capacity"),
    (
        "Flexible Service Level Throughput MiBps",
        "flexible_throughput",
    ),
    (
        "Standard Storage with Cool Access Capacity",
        "cool_capacity",
    ),
    (
        "Standard Storage with Cool Access Data Transfer",
        "cool_transfer",
    ),
    ("Backup Capacity", "backup"),
];

/// A row an import yields.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedRow {
    pub key: RowKey,
    /// USD per the row's unit, as the book holds it.
    pub price: f64,
    /// The item's `location`, the region's display name.
    pub region_name: Option<String>,
    /// The latest `effectiveStartDate` of the items behind the row.
    pub effective_start: String,
    /// Which items the row comes from, in words.
    pub source: String,
}

/// The rows of a set of items, and how many items were ignored for which reason.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mapped {
    pub rows: Vec<ImportedRow>,
    /// Reason and number of items, most frequent first.
    pub ignored: Vec<(&'static str, usize)>,
}

/// What one item is for the book.
enum Meter {
    /// A row priced by this item alone.
    Row(RowKey, f64),
    /// One replication meter of a region and frequency (`crr_10min`, ...): the row's
    /// rate is the most common one over them.
    Replication(RowKey),
    Ignored(&'static str),
}

/// Hourly prices to monthly ones as `tools/price_book.py` does: x hours, 6 decimals.
fn monthly(price: f64, unit: &str, hours: f64) -> f64 {
    if unit.to_ascii_lowercase().ends_with("/hour") {
        (price * hours * 1e6).round() / 1e6
    } else {
        price
    }
}

fn key(service: PricedService, region: &str, item: &str) -> RowKey {
    RowKey {
        service,
        region: region.to_owned(),
        item: item.to_owned(),
    }
}

/// The replication frequency of a replication meter's name, as the row item.
fn replication_item(meter: &str) -> Option<&'static str> {
    if !(meter.starts_with("Cross Region Replication") || meter.starts_with("CRR")) {
        return None;
    }
    match meter.rsplit(' ').next()? {
        "Minutes" => Some("crr_10min"),
        "Hours" => Some("crr_hourly"),
        "Days" => Some("crr_daily"),
        _ => None,
    }
}

/// The catalog AVS host SKU an item names, the longest match first (AV36P before AV36).
fn avs_sku(i: &RetailItem) -> Option<&'static str> {
    let mut skus: Vec<&'static str> = catalog::catalog()
        .services
        .avs_hosts
        .iter()
        .map(|h| h.sku.as_str())
        .collect();
    skus.sort_by_key(|s| std::cmp::Reverse(s.len()));
    [&i.arm_sku_name, &i.sku_name, &i.meter_name]
        .iter()
        .flat_map(|name| name.split(|c: char| !c.is_ascii_alphanumeric()))
        .find_map(|word| skus.iter().copied().find(|s| s.eq_ignore_ascii_case(word)))
}

fn classify(i: &RetailItem, hours: f64) -> Meter {
    if !i.kind.eq_ignore_ascii_case("Consumption") {
        return Meter::Ignored(
            "not a Consumption price (reservations and dev/test rates are not list prices)",
        );
    }
    if i.currency != "USD" {
        return Meter::Ignored("not in USD (the price book holds USD list prices)");
    }
    if i.region.is_empty() {
        return Meter::Ignored("a global meter without a region");
    }
    if !well_formed_region(&i.region) {
        return Meter::Ignored("a region that is not an armRegionName");
    }
    if i.retail_price == 0.0 {
        return Meter::Ignored("a price of 0 (a placeholder)");
    }
    if i.tier_minimum > 0.0 {
        return Meter::Ignored("a tier above the first");
    }
    if !i.primary {
        return Meter::Ignored("not the primary meter region");
    }
    match i.service_name.as_str() {
        "Azure NetApp Files" => anf(i, hours),
        "Azure VMware Solution" => avs(i),
        "Storage" if i.product_name == "Premium Files" => files(i),
        _ => Meter::Ignored("a service the price book does not price"),
    }
}

fn anf(i: &RetailItem, hours: f64) -> Meter {
    if i.product_name != "Azure NetApp Files" {
        return Meter::Ignored("an ANF product the price book does not hold (reservations)");
    }
    if pricing::anf_region(&i.region).is_none() {
        return Meter::Ignored("an ANF region outside the price book's regions");
    }
    if let Some(item) = replication_item(&i.meter_name) {
        // Charged per GiB replicated, whatever the unit says (NOTES.md: CRR unit).
        return Meter::Replication(key(PricedService::Anf, &i.region, item));
    }
    match ANF_METERS.iter().find(|(m, _)| *m == i.meter_name) {
        Some((_, item)) => Meter::Row(
            key(PricedService::Anf, &i.region, item),
            monthly(i.retail_price, &i.unit, hours),
        ),
        None => {
            Meter::Ignored("an ANF meter the price book does not hold (double encryption, restore)")
        }
    }
}

fn avs(i: &RetailItem) -> Meter {
    let names = [&i.meter_name, &i.sku_name, &i.product_name];
    if names
        .iter()
        .any(|n| n.to_ascii_uppercase().contains("BYOL"))
    {
        return Meter::Ignored("an AVS license-portability (BYOL) price");
    }
    if !i.unit.to_ascii_lowercase().ends_with("hour") {
        return Meter::Ignored("an AVS price not per host-hour");
    }
    match avs_sku(i) {
        Some(sku) => Meter::Row(key(PricedService::Avs, &i.region, sku), i.retail_price),
        None => Meter::Ignored("an AVS item that names no host SKU of the catalog"),
    }
}

fn files(i: &RetailItem) -> Meter {
    if i.meter_name == "Premium LRS Provisioned" && i.unit.to_ascii_lowercase().ends_with("/month")
    {
        Meter::Row(
            key(PricedService::AzureFiles, &i.region, "ssd_v1"),
            i.retail_price,
        )
    } else {
        Meter::Ignored("an Azure Files meter the price book does not hold")
    }
}

/// The item that prices a row: the latest `effectiveStartDate`, the first on a tie.
struct Chosen<'i> {
    item: &'i RetailItem,
    price: f64,
}

/// Maps the items to rows (see the module docs); `hours` is the book's hours per month.
pub fn map(items: &[RetailItem], hours: f64) -> Mapped {
    let mut single: BTreeMap<RowKey, Chosen> = BTreeMap::new();
    let mut replication: BTreeMap<RowKey, Vec<&RetailItem>> = BTreeMap::new();
    let mut ignored: BTreeMap<&'static str, usize> = BTreeMap::new();
    for i in items {
        match classify(i, hours) {
            Meter::Row(k, price) => match single.get(&k) {
                Some(c) if c.item.effective_start >= i.effective_start => {}
                _ => {
                    single.insert(k, Chosen { item: i, price });
                }
            },
            Meter::Replication(k) => replication.entry(k).or_default().push(i),
            Meter::Ignored(reason) => *ignored.entry(reason).or_default() += 1,
        }
    }
    let mut rows: Vec<ImportedRow> = single
        .into_iter()
        .map(|(key, c)| ImportedRow {
            key,
            price: c.price,
            region_name: Some(c.item.location.clone()).filter(|l| !l.is_empty()),
            effective_start: c.item.effective_start.clone(),
            source: format!(
                "Azure Retail Prices API: {} ({} per {}, meterId {}, effective {})",
                c.item.meter_name,
                c.item.retail_price,
                c.item.unit,
                c.item.meter_id,
                c.item.effective_start
            ),
        })
        .collect();
    for (key, meters) in replication {
        let price = most_common(meters.iter().map(|m| m.retail_price));
        let effective_start = meters
            .iter()
            .map(|m| m.effective_start.clone())
            .max()
            .unwrap_or_default();
        rows.push(ImportedRow {
            source: format!(
                "Azure Retail Prices API: the most common of {} replication meter(s) from {} (per GiB replicated)",
                meters.len(),
                key.region
            ),
            region_name: meters
                .iter()
                .map(|m| m.location.clone())
                .find(|l| !l.is_empty()),
            key,
            price,
            effective_start,
        });
    }
    rows.sort_by(|a, b| a.key.cmp(&b.key));
    let mut ignored: Vec<(&'static str, usize)> = ignored.into_iter().collect();
    ignored.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    Mapped { rows, ignored }
}

/// The most common value, the lowest on a tie (`max(set(p), key=(count, -p))`).
fn most_common(prices: impl Iterator<Item = f64>) -> f64 {
    let mut counts: Vec<(f64, usize)> = Vec::new();
    for p in prices {
        match counts.iter_mut().find(|(v, _)| *v == p) {
            Some((_, n)) => *n += 1,
            None => counts.push((p, 1)),
        }
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.total_cmp(&a.0)))
        .map_or(0.0, |(v, _)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(meter: &str, region: &str, price: f64, unit: &str) -> RetailItem {
        RetailItem {
            index: 0,
            currency: "USD".into(),
            retail_price: price,
            region: region.into(),
            location: "US East".into(),
            effective_start: "2025-09-01".into(),
            meter_id: "id".into(),
            meter_name: meter.into(),
            product_name: "Azure NetApp Files".into(),
            sku_name: String::new(),
            arm_sku_name: String::new(),
            service_name: "Azure NetApp Files".into(),
            unit: unit.into(),
            kind: "Consumption".into(),
            tier_minimum: 0.0,
            primary: true,
        }
    }

    fn price(m: &Mapped, item: &str) -> f64 {
        m.rows
            .iter()
            .find(|r| r.key.item == item)
            .unwrap_or_else(|| panic!("no {item} in {m:?}"))
            .price
    }

    #[test]
    fn anf_meters_become_monthly_rows_as_the_book_script_makes_them() {
        let m = map(
            &[
                item("Standard Capacity", "eastus", 0.000202, "1 GiB/Hour"),
                item(
                    "Flexible Service Level Throughput MiBps",
                    "eastus",
                    0.003082,
                    "1/Hour",
                ),
                item("Backup Capacity", "eastus", 0.05, "1 GiB/Month"),
                item(
                    "Standard Storage with Cool Access Data Transfer",
                    "eastus",
                    0.02,
                    "1 GiB",
                ),
                item(
                    "Standard Double Encrypted Capacity",
                    "eastus",
                    0.0003,
                    "1 GiB/Hour",
                ),
            ],
            730.0,
        );
        assert_eq!(price(&m, "standard"), 0.14746);
        assert_eq!(price(&m, "flexible_throughput"), 2.24986);
        assert_eq!(price(&m, "backup"), 0.05);
        assert_eq!(price(&m, "cool_transfer"), 0.02);
        assert_eq!(m.rows.len(), 4);
        assert_eq!(m.ignored.len(), 1);
        // The compiled book holds the same figures.
        let (_, e) = pricing::book().anf("eastus").unwrap();
        assert_eq!(
            (e.standard, e.flexible_throughput),
            (0.14746, Some(2.24986))
        );
    }

    #[test]
    fn replication_takes_the_most_common_rate_of_a_region() {
        let m = map(
            &[
                item(
                    "Cross Region Replication Minutes",
                    "eastus",
                    0.14,
                    "1 GiB/Hour",
                ),
                item(
                    "Cross Region Replication - US East to US West Minutes",
                    "eastus",
                    0.14,
                    "1 GiB/Hour",
                ),
                item(
                    "CRR - US East to US North Central Minutes",
                    "eastus",
                    0.16,
                    "1 GiB/Hour",
                ),
                item(
                    "Cross Region Replication Hours",
                    "eastus",
                    0.12,
                    "1 GiB/Hour",
                ),
                item(
                    "Cross Region Replication Hours",
                    "eastus",
                    0.13,
                    "1 GiB/Hour",
                ),
            ],
            730.0,
        );
        assert_eq!(price(&m, "crr_10min"), 0.14);
        assert_eq!(price(&m, "crr_hourly"), 0.12);
    }

    #[test]
    fn what_the_book_does_not_hold_is_counted_as_ignored() {
        let mut eur = item("Ultra Capacity", "eastus", 0.0005, "1 GiB/Hour");
        eur.currency = "EUR".into();
        let mut reservation = item("Ultra Capacity", "eastus", 0.0005, "1 GiB/Hour");
        reservation.kind = "Reservation".into();
        let m = map(
            &[
                eur,
                reservation,
                item("Standard Capacity", "", 0.0002, "1 GiB/Hour"),
                item("Standard Capacity", "eastus", 0.0, "1 GiB/Hour"),
                item("Standard Capacity", "marsnorth", 0.0002, "1 GiB/Hour"),
            ],
            730.0,
        );
        assert!(m.rows.is_empty());
        assert_eq!(m.ignored.iter().map(|(_, n)| n).sum::<usize>(), 5);
    }

    #[test]
    fn avs_hosts_by_sku_name() {
        let mut host = item("AV36P Node", "westeurope", 10.96, "1 Hour");
        host.service_name = "Azure VMware Solution".into();
        host.product_name = "Azure VMware Solution".into();
        let mut byol = host.clone();
        byol.meter_name = "AV36P VCF BYOL Node".into();
        let m = map(&[host, byol], 730.0);
        assert_eq!(m.rows.len(), 1);
        assert_eq!(m.rows[0].key.item, "AV36P");
        assert_eq!(m.rows[0].price, 10.96);
    }

    #[test]
    fn the_latest_effective_date_wins() {
        let old = item("Ultra Capacity", "eastus", 0.0006, "1 GiB/Hour");
        let mut new = item("Ultra Capacity", "eastus", 0.000538, "1 GiB/Hour");
        new.effective_start = "2026-01-01".into();
        let m = map(&[new.clone(), old.clone()], 730.0);
        assert_eq!(price(&m, "ultra"), 0.39274);
        let m = map(&[old, new], 730.0);
        assert_eq!(price(&m, "ultra"), 0.39274);
    }
}
