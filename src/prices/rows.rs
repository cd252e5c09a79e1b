//! The price book as rows, one per service, region, item (a level, meter or AVS host)
//! and currency: what `GET /api/v1/prices` and the CSV export list, what an import, a
//! price sheet or a price entered by hand changes, and the book in force, the compiled
//! book with the stored prices applied ([`PriceBook::in_force`]).
//!
//! Prices are per unit and month at the book's hours per month (AVS: per host-hour),
//! as the book holds them, in their own currency: a stored price in another currency
//! than USD goes into the book of that currency ([`PriceBook::currencies`]). ANF rows
//! exist only for the regions of the compiled book (the regions list and the scenario
//! checks are compiled in); AVS, Azure Files and GCNV rows may be added for any region.

use super::items::BYOL_SUFFIX;
pub use super::items::{Item, item, items};
pub use crate::engine::price_key::{PricedService, Provenance, RowKey, currency_code, replaced_by};
use crate::engine::pricing::{self, AvsRegion, HostPrice, PriceBook};
use crate::engine::validate::well_formed_region;
use serde::Serialize;
use std::collections::BTreeMap;

/// Highest price a row may hold, USD per unit (far above any list price; catches a
/// price typed in cents or per year).
pub const MAX_PRICE: f64 = 1_000_000.0;

/// Why a row cannot be stored: the field and a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    pub field: &'static str,
    pub message: String,
}

impl RowError {
    fn new(field: &'static str, message: impl Into<String>) -> RowError {
        RowError {
            field,
            message: message.into(),
        }
    }
}

/// Checks that `key` names a row the book can hold and `price` is a price; the item on
/// success.
pub fn check_row(key: &RowKey, price: f64) -> Result<&'static Item, RowError> {
    let it = item(key.service, &key.item).ok_or_else(|| {
        let known: Vec<&str> = items()
            .iter()
            .filter(|i| i.service == key.service)
            .map(|i| i.key.as_str())
            .collect();
        RowError::new(
            "item",
            format!(
                "`{}` is not a {} item of the price book; use one of {}",
                key.item,
                key.service.display(),
                known.join(", ")
            ),
        )
    })?;
    if !well_formed_region(&key.region) {
        return Err(RowError::new(
            "region",
            "give the region as its armRegionName (eastus) or GCP name (us-central1): lowercase letters, digits and dashes",
        ));
    }
    if key.service == PricedService::Anf && pricing::anf_region(&key.region).is_none() {
        return Err(RowError::new(
            "region",
            pricing::unknown_anf_region(&key.region),
        ));
    }
    if !(price.is_finite() && (0.0..=MAX_PRICE).contains(&price)) {
        return Err(RowError::new(
            "price",
            format!(
                "a price is 0 to {MAX_PRICE} per {}",
                it.unit.trim_end_matches("-month")
            ),
        ));
    }
    Ok(it)
}

/// Checks a currency code: the ISO 4217 code of a currency in use ([`currency_code`]).
pub fn check_currency(code: &str) -> Result<&'static str, RowError> {
    currency_code(code).ok_or_else(|| {
        let shown: String = code.chars().filter(|c| !c.is_control()).take(12).collect();
        let message = match replaced_by(code) {
            Some(now) => format!(
                "`{shown}` is no longer a currency (ISO 4217 lists it as replaced by {now}); give the price in {now}"
            ),
            None => format!(
                "`{shown}` is not an ISO 4217 currency code; write the code of the currency the price is billed in, such as USD or EUR"
            ),
        };
        RowError::new("currency", message)
    })
}

/// A price stored in the database: it replaces (or adds) one row of the compiled book.
#[derive(Debug, Clone, PartialEq)]
pub struct Override {
    pub key: RowKey,
    /// Per unit, as the book holds it (monthly where the book is monthly).
    pub price: f64,
    /// The ISO 4217 code of `price`.
    pub currency: String,
    /// The region's display name, for a region the book does not list yet.
    pub region_name: Option<String>,
    /// The date the price is valid as of (YYYY-MM-DD).
    pub as_of: String,
    pub source: String,
}

/// One row of the book in force.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct PriceRow {
    pub service: PricedService,
    pub region: String,
    /// The region's display name.
    pub region_name: String,
    /// The level, meter or host SKU (`standard`, `flexible_throughput`, `AV36P`, `ssd_v2`).
    pub item: String,
    pub label: String,
    /// What one unit is: `GiB-month`, `MiB/s-month`, `IOPS-month`, `GiB`,
    /// `10k operations`, `host-hour`.
    pub unit: String,
    /// Per unit, in `currency`.
    pub price: f64,
    /// ISO 4217 code of `price` (`USD`; another for prices imported or entered in it).
    pub currency: String,
    /// The date the price is valid as of.
    pub as_of: String,
    pub source: String,
    /// True when the price comes from the database (imported or entered), not the
    /// compiled book.
    pub stored: bool,
    /// True for a price from a secondary source or derived from one (a third-party
    /// document, a release-note summary, cost divided by quantity): shown as
    /// provisional, with its date.
    pub provisional: bool,
}

/// The value of ANF meter `item` in one region's prices (`None`: not a meter;
/// `Some(None)`: not priced there).
pub(crate) fn anf_get(p: &pricing::AnfPrices, item: &str) -> Option<Option<f64>> {
    Some(match item {
        "standard" => p.standard,
        "premium" => p.premium,
        "ultra" => p.ultra,
        "flexible_capacity" => p.flexible_capacity,
        "flexible_throughput" => p.flexible_throughput,
        "cool_capacity" => p.cool_capacity,
        "cool_transfer" => p.cool_transfer,
        "backup" => p.backup,
        "crr_10min" => p.crr_10min,
        "crr_hourly" => p.crr_hourly,
        "crr_daily" => p.crr_daily,
        _ => return None,
    })
}

/// Sets ANF meter `item` of one region's prices.
fn anf_set(p: &mut pricing::AnfPrices, item: &str, price: f64) {
    match item {
        "standard" => p.standard = Some(price),
        "premium" => p.premium = Some(price),
        "ultra" => p.ultra = Some(price),
        "flexible_capacity" => p.flexible_capacity = Some(price),
        "flexible_throughput" => p.flexible_throughput = Some(price),
        "cool_capacity" => p.cool_capacity = Some(price),
        "cool_transfer" => p.cool_transfer = Some(price),
        "backup" => p.backup = Some(price),
        "crr_10min" => p.crr_10min = Some(price),
        "crr_hourly" => p.crr_hourly = Some(price),
        "crr_daily" => p.crr_daily = Some(price),
        _ => {}
    }
}

impl PriceBook {
    /// The price of row `key`, if the book has one.
    pub fn get(&self, key: &RowKey) -> Option<f64> {
        match key.service {
            PricedService::Anf => anf_get(self.anf.get(&key.region)?, &key.item)?,
            PricedService::Avs => match key.item.strip_suffix(BYOL_SUFFIX) {
                Some(sku) => self.avs_byol_host(&key.region, sku),
                None => self.avs_host(&key.region, &key.item),
            }
            .map(|h| h.payg_hour),
            PricedService::AzureFiles => self.azure_files.get(&key.region)?.get(&key.item).copied(),
            PricedService::Gcnv => self.gcnv.get(&key.region)?.get(&key.item).copied(),
        }
    }

    /// Sets row `key` to `price` (checked by [`check_row`]); an AVS host's reserved
    /// rates follow with the book's default discounts. Rows of an ANF region the book
    /// lacks are dropped.
    fn set(&mut self, key: &RowKey, price: f64, region_name: Option<&str>) {
        if let Some(name) = region_name.filter(|n| !n.is_empty()) {
            self.region_names
                .entry(key.region.clone())
                .or_insert_with(|| name.to_owned());
        }
        let name = self.region_name(&key.region).to_owned();
        match key.service {
            PricedService::Anf => {
                if let Some(p) = self.anf.get_mut(&key.region) {
                    anf_set(p, &key.item, price);
                }
            }
            PricedService::Avs => {
                let d = self.avs_reserved_discount_pct;
                // As the estimator's derived rates: 6 decimals are plenty for a host-hour.
                let off = |pct: f64| Some((price * (1.0 - pct / 100.0) * 1e6).round() / 1e6);
                // Reserved host rates without VCF are derived the same way until an
                // import reads the reservation items.
                let (table, sku) = match key.item.strip_suffix(BYOL_SUFFIX) {
                    Some(sku) => (&mut self.avs_byol, sku),
                    None => (&mut self.avs, key.item.as_str()),
                };
                let region = table
                    .entry(key.region.clone())
                    .or_insert_with(|| AvsRegion {
                        name,
                        hosts: Default::default(),
                    });
                region.hosts.insert(
                    sku.to_owned(),
                    HostPrice {
                        payg_hour: price,
                        ri_1y_hour: off(d.one_year),
                        ri_3y_hour: off(d.three_years),
                    },
                );
            }
            PricedService::AzureFiles | PricedService::Gcnv => {
                let table = if key.service == PricedService::Gcnv {
                    &mut self.gcnv
                } else {
                    &mut self.azure_files
                };
                table
                    .entry(key.region.clone())
                    .or_default()
                    .insert(key.item.clone(), price);
            }
        }
    }

    /// The book in force: this book with `overrides` applied in order (a later one for
    /// the same row wins), those in another currency in a book of their own
    /// ([`PriceBook::currencies`]). `generation` identifies the set of stored prices
    /// (the newest one's number) and becomes part of the books' id.
    pub fn in_force(&self, overrides: &[Override], generation: i64) -> PriceBook {
        let mut by_currency: BTreeMap<&'static str, Vec<&Override>> = BTreeMap::new();
        for o in overrides {
            if let (Ok(_), Ok(code)) = (check_row(&o.key, o.price), check_currency(&o.currency)) {
                by_currency.entry(code).or_default().push(o);
            }
        }
        let own = by_currency.remove(self.currency).unwrap_or_default();
        let mut book = self.with(&own, generation);
        book.currencies = by_currency
            .into_iter()
            .map(|(code, list)| (code.to_owned(), self.blank(code).with(&list, generation)))
            .collect();
        book
    }

    /// A copy of this book with `overrides` (checked, in this book's currency) applied.
    fn with(&self, overrides: &[&Override], generation: i64) -> PriceBook {
        let mut book = self.clone();
        for o in overrides {
            book.set(&o.key, o.price, o.region_name.as_deref());
            book.provenance.insert(
                o.key.clone(),
                Provenance {
                    as_of: o.as_of.clone(),
                    source: o.source.clone(),
                    assumption: false,
                    stored: true,
                },
            );
        }
        if let Some(newest) = overrides.iter().max_by(|a, b| a.as_of.cmp(&b.as_of)) {
            book.id = format!("{}+db{generation}", self.id).into();
            book.date = (&*self.date).max(newest.as_of.as_str()).into();
            let rows: std::collections::BTreeSet<&RowKey> =
                overrides.iter().map(|o| &o.key).collect();
            book.source = format!(
                "{}; {} {} price(s) stored in the database, the newest as of {} ({})",
                self.source,
                rows.len(),
                self.currency,
                newest.as_of,
                newest.source
            )
            .into();
        }
        book
    }

    /// Every row of the book and of its books in other currencies, by service, region,
    /// item and currency.
    pub fn rows(&self) -> Vec<PriceRow> {
        let mut out = self.own_rows();
        for b in self.currencies.values() {
            out.extend(b.own_rows());
        }
        out.sort_by(|a, b| (a.service, &a.region).cmp(&(b.service, &b.region)));
        out
    }

    /// The rows of this book alone.
    fn own_rows(&self) -> Vec<PriceRow> {
        let mut out = Vec::new();
        for it in items() {
            for (region, region_name) in self.regions_of(it.service) {
                let key = RowKey {
                    service: it.service,
                    region: region.to_owned(),
                    item: it.key.clone(),
                };
                let Some(price) = self.get(&key) else {
                    continue;
                };
                let provenance = self.provenance.get(&key);
                let (as_of, source) = match provenance {
                    Some(p) => (p.as_of.clone(), p.source.clone()),
                    None if it.key.ends_with(BYOL_SUFFIX) => {
                        (self.avs_byol_date.clone(), self.avs_byol_source.clone())
                    }
                    None if it.service == PricedService::Avs => {
                        (self.avs_date.clone(), self.avs_source.clone())
                    }
                    None => (
                        pricing::book().date.to_string(),
                        pricing::book().source.to_string(),
                    ),
                };
                out.push(PriceRow {
                    service: it.service,
                    region: key.region,
                    region_name: region_name.to_owned(),
                    item: key.item,
                    label: it.label.clone(),
                    unit: it.unit.to_owned(),
                    price,
                    currency: self.currency.to_string(),
                    as_of,
                    source,
                    stored: provenance.is_some_and(|p| p.stored),
                    provisional: provenance.is_some_and(|p| p.assumption),
                });
            }
        }
        out
    }

    /// The regions the book has rows of for `service`, with their display names.
    fn regions_of(&self, service: PricedService) -> Vec<(&str, &str)> {
        let keys: Vec<&String> = match service {
            PricedService::Anf => self.anf.keys().collect(),
            PricedService::Avs => {
                let mut keys: Vec<&String> = self.avs.keys().chain(self.avs_byol.keys()).collect();
                keys.sort();
                keys.dedup();
                keys
            }
            PricedService::AzureFiles => self.azure_files.keys().collect(),
            PricedService::Gcnv => self.gcnv.keys().collect(),
        };
        keys.into_iter()
            .map(|k| (k.as_str(), self.region_name(k)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(service: PricedService, region: &str, item: &str) -> RowKey {
        RowKey {
            service,
            region: region.to_owned(),
            item: item.to_owned(),
        }
    }

    fn stored(k: RowKey, price: f64) -> Override {
        Override {
            key: k,
            price,
            currency: "USD".to_owned(),
            region_name: None,
            as_of: "2026-12-01".to_owned(),
            source: "test".to_owned(),
        }
    }

    #[test]
    fn overrides_replace_and_add_rows() {
        let base = pricing::book();
        let standard = key(PricedService::Anf, "eastus", "standard");
        let gcnv = key(PricedService::Gcnv, "europe-west1", "premium");
        let host = key(PricedService::Avs, "eastus", "AV64");
        let book = base.in_force(
            &[
                stored(standard.clone(), 0.2),
                stored(gcnv.clone(), 0.3),
                stored(host.clone(), 10.0),
            ],
            7,
        );
        assert_eq!(base.get(&standard), Some(0.14746));
        assert_eq!(book.get(&standard), Some(0.2));
        assert_eq!(book.get(&gcnv), Some(0.3));
        let h = book.avs_host("eastus", "AV64").unwrap();
        assert_eq!((h.ri_1y_hour, h.ri_3y_hour), (Some(5.7), Some(5.0)));
        assert_eq!(*book.id, format!("{}+db7", base.id));
        assert_eq!(&*book.date, "2026-12-01");
        assert!(book.source.contains("3 USD price(s)"), "{}", book.source);
        let rows = book.rows();
        let row = rows
            .iter()
            .find(|r| r.region == "eastus" && r.item == "standard")
            .unwrap();
        assert!(row.stored && row.price == 0.2 && row.as_of == "2026-12-01");
        let untouched = rows
            .iter()
            .find(|r| r.region == "eastus" && r.item == "premium")
            .unwrap();
        assert!(!untouched.stored && *untouched.as_of == *base.date);
    }

    /// A stored `VCF BYOL` host rate prices portable VCF's hosts, apart from the
    /// licence-included rate, and the compiled ones are listed with their source.
    #[test]
    fn byol_host_rows_price_hosts_without_vmware_licences() {
        let base = pricing::book();
        let byol = key(PricedService::Avs, "westeurope", "AV36P_byol");
        assert_eq!(base.get(&byol), None);
        let book = base.in_force(&[stored(byol.clone(), 9.0)], 3);
        assert_eq!(book.get(&byol), Some(9.0));
        assert_eq!(
            book.avs_byol_host("westeurope", "AV36P").unwrap().payg_hour,
            9.0
        );
        assert_eq!(
            book.avs_host("westeurope", "AV36P").map(|h| h.payg_hour),
            base.avs_host("westeurope", "AV36P").map(|h| h.payg_hour),
            "the licence-included rate is untouched"
        );
        let rows = base.rows();
        let row = rows
            .iter()
            .find(|r| r.region == "eastus" && r.item == "AV36P_byol")
            .expect("the compiled VCF BYOL rate is a row");
        assert_eq!(row.price, 8.2);
        assert_eq!(row.source, base.avs_byol_source);
    }

    #[test]
    fn the_compiled_book_lists_every_priced_row_once() {
        let rows = pricing::book().rows();
        let anf = rows
            .iter()
            .filter(|r| r.service == PricedService::Anf)
            .count();
        assert!(anf >= 51 * 3, "{anf}");
        assert!(rows.iter().all(|r| !r.stored && r.price >= 0.0));
        let files = rows
            .iter()
            .find(|r| r.service == PricedService::AzureFiles && r.region == "swedencentral")
            .unwrap();
        assert_eq!((files.item.as_str(), files.price), ("ssd_v1", 0.19));
        assert!(files.provisional);
        let mut keys: Vec<_> = rows
            .iter()
            .map(|r| (r.service, &r.region, &r.item))
            .collect();
        let n = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), n);
    }

    #[test]
    fn rows_are_checked() {
        assert!(check_row(&key(PricedService::Anf, "eastus", "ultra"), 0.3).is_ok());
        let e = check_row(&key(PricedService::Anf, "mars", "ultra"), 0.3).unwrap_err();
        assert_eq!(e.field, "region");
        let e = check_row(&key(PricedService::Gcnv, "us-central1", "ultra"), 0.3).unwrap_err();
        assert!(e.field == "item" && e.message.contains("extreme"), "{e:?}");
        let e = check_row(&key(PricedService::Gcnv, "us-central1", "flex"), -1.0).unwrap_err();
        assert_eq!(e.field, "price");
        assert!(check_row(&key(PricedService::Avs, "Bad Region", "AV36"), 1.0).is_err());
    }
}
