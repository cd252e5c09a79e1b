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
//!   host-hour; the `VCF BYOL` meters (hosts without VMware licences, portable VCF)
//!   become the `<SKU>_byol` rows. No public page of these items was found, so the
//!   rule is by name.
//! * Azure Files (`serviceName` "Storage"): provisioned v1 (`productName` "Premium
//!   Files", meters `Premium LRS|ZRS Provisioned` and `... Snapshots`, per GiB-month),
//!   provisioned v2 (`productName` "Azure Files Provisioned v2", meters `<sku>
//!   Provisioned Storage|IOPS|Throughput MiBPS`, hourly, so x 730; the price of the first
//!   paid tier, the included baseline being the catalog's) and pay as you go
//!   (`productName` "Files v2", skus `Standard|Hot|Cool LRS|ZRS|GRS`: data stored,
//!   snapshots, metadata, operations per 10,000 and data retrieval).
//!
//! Prices in another currency than USD (`currencyCode`, as the API answers with
//! `?currencyCode=EUR`) become rows of the book in that currency. Everything else is
//! ignored with the reason counted: prices of 0 (placeholders), reservations, tiers
//! above the first (but Azure Files v2's first paid tier), global meters without a
//! region, meters the book does not hold (double encryption, restore). Of several items
//! for one row, the one with the latest `effectiveStartDate` is taken.

use super::RetailItem;
use crate::engine::catalog;
use crate::engine::pricing;
use crate::engine::validate::well_formed_region;
use crate::prices::items::{self, BYOL_SUFFIX};
use crate::prices::rows::{PricedService, RowKey, check_currency, check_row};
use serde::Serialize;
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
    /// Per the row's unit, as the book holds it, in `currency`.
    pub price: f64,
    /// The item's `currencyCode`.
    pub currency: String,
    /// The item's `location`, the region's display name.
    pub region_name: Option<String>,
    /// The latest `effectiveStartDate` of the items behind the row.
    pub effective_start: String,
    /// Which items the row comes from, in words.
    pub source: String,
}

/// The rows of a set of items, how many items were ignored for which reason, and the
/// items refused.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mapped {
    pub rows: Vec<ImportedRow>,
    /// Reason and number of items, most frequent first.
    pub ignored: Vec<(&'static str, usize)>,
    /// Items of a row of the book whose price the book cannot hold (not a finite
    /// number, or over [`MAX_PRICE`](crate::prices::rows::MAX_PRICE) in the row's
    /// unit): never stored, each with why.
    pub refused: Vec<RefusedItem>,
}

/// An item refused: it prices a row of the book, but at a price no row can hold.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct RefusedItem {
    /// The item's position in the page or array (0-based).
    pub index: usize,
    /// Its `meterName`.
    pub meter: String,
    /// Why, in a sentence.
    pub reason: String,
}

impl RefusedItem {
    /// Item `i`, whose price `price` (in the row's unit) the row `key` cannot hold.
    fn of(i: &RetailItem, key: &RowKey, price: f64) -> Option<RefusedItem> {
        let e = check_row(key, price).err()?;
        Some(RefusedItem {
            index: i.index,
            meter: i.meter_name.clone(),
            reason: format!(
                "retailPrice {} per {} is out of range: {}",
                shown(i.retail_price),
                i.unit,
                e.message
            ),
        })
    }
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
    if check_currency(&i.currency).is_err() {
        return Meter::Ignored("a currencyCode that is not an ISO 4217 code");
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
    if i.tier_minimum > 0.0 && !files_v2(i) {
        return Meter::Ignored("a tier above the first");
    }
    if !i.primary {
        return Meter::Ignored("not the primary meter region");
    }
    match i.service_name.as_str() {
        "Azure NetApp Files" => anf(i, hours),
        "Azure VMware Solution" => avs(i),
        "Storage" => files(i, hours),
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
    let byol = names
        .iter()
        .any(|n| n.to_ascii_uppercase().contains("BYOL"));
    if !i.unit.to_ascii_lowercase().ends_with("hour") {
        return Meter::Ignored("an AVS price not per host-hour");
    }
    match avs_sku(i) {
        // The host without VMware licences: portable VCF's host rate.
        Some(sku) if byol => Meter::Row(
            key(
                PricedService::Avs,
                &i.region,
                &format!("{sku}{BYOL_SUFFIX}"),
            ),
            i.retail_price,
        ),
        Some(sku) => Meter::Row(key(PricedService::Avs, &i.region, sku), i.retail_price),
        None => Meter::Ignored("an AVS item that names no host SKU of the catalog"),
    }
}

/// True for an Azure Files provisioned v2 item: its IOPS and throughput meters are
/// tiered, a free first tier (the baseline a share includes) and a paid one.
fn files_v2(i: &RetailItem) -> bool {
    i.service_name == "Storage" && i.product_name == "Azure Files Provisioned v2"
}

/// The Azure Files meters of the book: `productName`, the meter's words after the
/// sku, the level key and the item suffix.
const FILES_METERS: [(&str, &str, &str, &str); 15] = [
    ("Premium Files", "Provisioned", "ssd_v1", ""),
    ("Premium Files", "Snapshots", "ssd_v1", "_snapshots"),
    (
        "Azure Files Provisioned v2",
        "Provisioned Storage",
        "v2",
        "",
    ),
    (
        "Azure Files Provisioned v2",
        "Provisioned IOPS",
        "v2",
        "_iops",
    ),
    (
        "Azure Files Provisioned v2",
        "Provisioned Throughput MiBPS",
        "v2",
        "_throughput",
    ),
    ("Files v2", "Data Stored", "payg", ""),
    ("Files v2", "Snapshots", "payg", "_snapshots"),
    ("Files v2", "Metadata", "payg", "_metadata"),
    ("Files v2", "Read Operations", "payg", "_read"),
    ("Files v2", "Write Operations", "payg", "_write"),
    ("Files v2", "List Operations", "payg", "_list"),
    (
        "Files v2",
        "List and Create Container Operations",
        "payg",
        "_list",
    ),
    ("Files v2", "Other Operations", "payg", "_other"),
    ("Files v2", "All Other Operations", "payg", "_other"),
    ("Files v2", "Data Retrieval", "payg", "_retrieval"),
];

/// The row an Azure Files item prices, from its product, sku (`SSD LRS`, `Hot ZRS`,
/// `Premium LRS`, `Standard GRS` = transaction optimized) and meter name.
fn files_item(i: &RetailItem) -> Option<String> {
    let meter = i.meter_name.as_str();
    let (_, _, level, suffix) = FILES_METERS
        .iter()
        .find(|(product, words, _, _)| *product == i.product_name && meter.ends_with(words))?;
    let mut sku = i.sku_name.split_whitespace();
    let (tier, redundancy) = (sku.next()?, sku.next()?.to_ascii_lowercase());
    let level = match (*level, tier) {
        ("ssd_v1", "Premium") => "ssd_v1",
        ("v2", "SSD") => "ssd_v2",
        ("v2", "HDD") => "hdd_v2",
        ("payg", "Standard") => "hdd_payg",
        ("payg", "Hot") => "hdd_payg_hot",
        ("payg", "Cool") => "hdd_payg_cool",
        _ => return None,
    };
    let infix = if redundancy == "lrs" {
        String::new()
    } else {
        format!("_{redundancy}")
    };
    Some(format!("{level}{infix}{suffix}"))
}

fn files(i: &RetailItem, hours: f64) -> Meter {
    if i.meter_name.contains("Free") {
        return Meter::Ignored("an Azure Files meter of the free baseline a share includes");
    }
    match files_item(i).filter(|item| items::item(PricedService::AzureFiles, item).is_some()) {
        Some(item) => Meter::Row(
            key(PricedService::AzureFiles, &i.region, &item),
            monthly(i.retail_price, &i.unit, hours),
        ),
        None => Meter::Ignored("an Azure Files meter the price book does not hold"),
    }
}

/// The item that prices a row: the latest `effectiveStartDate`, the first on a tie.
struct Chosen<'i> {
    item: &'i RetailItem,
    price: f64,
}

/// Maps the items to rows (see the module docs); `hours` is the book's hours per month.
pub fn map(items: &[RetailItem], hours: f64) -> Mapped {
    map_from(items, hours, "Azure Retail Prices API")
}

/// [`map`] for items read from `origin` (a Cost Management price sheet), which each
/// row's source names.
pub fn map_from(items: &[RetailItem], hours: f64, origin: &str) -> Mapped {
    // Rows by key and currency: a page in EUR prices the EUR book's row.
    let mut single: BTreeMap<(RowKey, &str), Chosen> = BTreeMap::new();
    let mut replication: BTreeMap<(RowKey, &str), Vec<&RetailItem>> = BTreeMap::new();
    let mut ignored: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut refused = Vec::new();
    for i in items {
        let meter = classify(i, hours);
        let refusal = match &meter {
            Meter::Row(k, price) => RefusedItem::of(i, k, *price),
            Meter::Replication(k) => RefusedItem::of(i, k, i.retail_price),
            Meter::Ignored(_) => None,
        };
        if let Some(r) = refusal {
            refused.push(r);
            continue;
        }
        match meter {
            Meter::Row(k, price) => match single.get(&(k.clone(), i.currency.as_str())) {
                Some(c) if c.item.effective_start >= i.effective_start => {}
                _ => {
                    single.insert((k, &i.currency), Chosen { item: i, price });
                }
            },
            Meter::Replication(k) => replication.entry((k, &i.currency)).or_default().push(i),
            Meter::Ignored(reason) => *ignored.entry(reason).or_default() += 1,
        }
    }
    let mut rows: Vec<ImportedRow> = single
        .into_iter()
        .map(|((key, currency), c)| ImportedRow {
            key,
            currency: currency.to_owned(),
            price: c.price,
            region_name: Some(c.item.location.clone()).filter(|l| !l.is_empty()),
            effective_start: c.item.effective_start.clone(),
            source: format!(
                "{origin}: {} ({} per {}{}, effective {})",
                c.item.meter_name,
                c.item.retail_price,
                c.item.unit,
                if c.item.meter_id.is_empty() {
                    String::new()
                } else {
                    format!(", meterId {}", c.item.meter_id)
                },
                c.item.effective_start
            ),
        })
        .collect();
    for ((key, currency), meters) in replication {
        let price = most_common(meters.iter().map(|m| m.retail_price));
        let effective_start = meters
            .iter()
            .map(|m| m.effective_start.clone())
            .max()
            .unwrap_or_default();
        rows.push(ImportedRow {
            source: format!(
                "{origin}: the most common of {} replication meter(s) from {} (per GiB replicated)",
                meters.len(),
                key.region
            ),
            region_name: meters
                .iter()
                .map(|m| m.location.clone())
                .find(|l| !l.is_empty()),
            key,
            currency: currency.to_owned(),
            price,
            effective_start,
        });
    }
    rows.sort_by(|a, b| (&a.key, &a.currency).cmp(&(&b.key, &b.currency)));
    let mut ignored: Vec<(&'static str, usize)> = ignored.into_iter().collect();
    ignored.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    Mapped {
        rows,
        ignored,
        refused,
    }
}

/// A price as a message shows it: in full up to a billion, in exponent form past it
/// (1e308 would be 309 digits).
fn shown(v: f64) -> String {
    if v.abs() < 1e9 {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
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
mod tests;
