//! The price book: list prices by region, compiled in from `catalog/price_book.json`
//! (built by `tools/price_book.py` from the public price records) plus the catalog's
//! reference rates of Azure Files and GCNV, and the lookups the cost lines use.
//!
//! The engine prices with whichever book it is handed: the compiled one ([`book`]) or
//! the book in force, the compiled one with the prices stored in the database applied
//! ([`PriceBook::in_force`], in `price_rows`). Both have this shape.

use super::catalog;
use super::price_key::{Provenance, RowKey};
use super::regions::RegionOffer;
use super::scenario::{Level, Service};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock};

/// The price book as compiled in.
pub const PRICE_BOOK_JSON: &str = include_str!("catalog/price_book.json");

/// Every price the engine knows, with its date and source.
#[derive(Debug, Clone, Deserialize)]
pub struct PriceBook {
    /// Shared with every evaluation's `cost.price_book`, which clones no text.
    pub id: Arc<str>,
    pub date: Arc<str>,
    pub source: Arc<str>,
    pub hours_per_month: f64,
    pub reference_region: ReferenceRegions,
    /// ANF prices by Azure region (`armRegionName`).
    pub anf: BTreeMap<String, AnfPrices>,
    pub anf_reservations: Vec<Reservation>,
    /// AVS host prices by Azure region.
    pub avs: BTreeMap<String, AvsRegion>,
    /// Date and source of the AVS host prices.
    pub avs_date: String,
    pub avs_source: String,
    /// The AVS estimator's default reserved-host discounts, %: the reserved rates of a
    /// host whose pay-as-you-go price is entered later are derived with them.
    pub avs_reserved_discount_pct: ReservedDiscounts,
    /// Azure Files capacity prices, USD per GiB-month, by region and level key.
    #[serde(default)]
    pub azure_files: BTreeMap<String, BTreeMap<String, f64>>,
    /// GCNV capacity prices, USD per GiB-month, by region and level key.
    #[serde(default)]
    pub gcnv: BTreeMap<String, BTreeMap<String, f64>>,
    /// Date and source of the rows that do not come from the book's own `source`
    /// (the catalog's reference rates, prices entered or imported later).
    #[serde(skip)]
    pub provenance: BTreeMap<RowKey, Provenance>,
}

/// The region a service is priced in when a scenario names none.
#[derive(Debug, Clone, Deserialize)]
pub struct ReferenceRegions {
    pub anf: String,
    pub azure_files: String,
    pub gcnv: String,
}

/// ANF list prices of one region, USD per month (730 hours).
#[derive(Debug, Clone, Deserialize)]
pub struct AnfPrices {
    pub name: String,
    /// Per GiB-month of pool capacity.
    pub standard: f64,
    pub premium: f64,
    pub ultra: f64,
    /// Flexible: per GiB-month of capacity, per MiB/s-month above the included 128.
    #[serde(default)]
    pub flexible_capacity: Option<f64>,
    #[serde(default)]
    pub flexible_throughput: Option<f64>,
    /// Cool tier: per GiB-month, and per GiB read back.
    #[serde(default)]
    pub cool_capacity: Option<f64>,
    #[serde(default)]
    pub cool_transfer: Option<f64>,
    /// Backup, per GiB-month.
    #[serde(default)]
    pub backup: Option<f64>,
    /// Cross-region replication from this region, per GiB replicated.
    #[serde(default)]
    pub crr_10min: Option<f64>,
    #[serde(default)]
    pub crr_hourly: Option<f64>,
    #[serde(default)]
    pub crr_daily: Option<f64>,
}

/// A reserved-capacity discount band of ANF.
#[derive(Debug, Clone, Deserialize)]
pub struct Reservation {
    pub level: String,
    pub term: String,
    pub min_tib: f64,
    pub discount_pct: f64,
}

/// AVS host prices of one region.
#[derive(Debug, Clone, Deserialize)]
pub struct AvsRegion {
    pub name: String,
    #[serde(flatten)]
    pub hosts: BTreeMap<String, HostPrice>,
}

/// One AVS host SKU's price per host-hour.
#[derive(Debug, Clone, Deserialize)]
pub struct HostPrice {
    pub payg_hour: f64,
    #[serde(default)]
    pub ri_1y_hour: Option<f64>,
    #[serde(default)]
    pub ri_3y_hour: Option<f64>,
}

/// Reserved-host discounts by term, %.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct ReservedDiscounts {
    #[serde(rename = "1y")]
    pub one_year: f64,
    #[serde(rename = "3y")]
    pub three_years: f64,
}

static BOOK: LazyLock<PriceBook> = LazyLock::new(compiled);

/// Which price book priced a cost (contract: `cost.price_book`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct PriceBookRef {
    /// The compiled book's id, with `+dbN` when prices stored in the database apply.
    #[schema(value_type = String)]
    pub id: Arc<str>,
    /// The date the book's prices are valid as of.
    #[schema(value_type = String)]
    pub date: Arc<str>,
    #[schema(value_type = String)]
    pub source: Arc<str>,
}

/// The compiled-in price book.
pub fn book() -> &'static PriceBook {
    &BOOK
}

/// The compiled JSON with the catalog's reference rates of Azure Files and GCNV, each
/// with the catalog's date and source.
fn compiled() -> PriceBook {
    let mut b: PriceBook = serde_json::from_str(PRICE_BOOK_JSON).expect("price_book.json is valid");
    let s = &catalog::catalog().services;
    if let Some(rate) = s.azure_files.ssd_v1.usd_per_gib_month {
        let region = b.reference_region.azure_files.clone();
        b.set_reference(
            Service::AzureFiles,
            region,
            Level::SsdV1,
            rate,
            Provenance {
                as_of: s.azure_files.price_date.clone(),
                source: s.azure_files.ssd_v1.price_source.clone(),
                // A third-party quote (UNCONFIRMED in the catalog).
                assumption: true,
                stored: false,
            },
        );
    }
    let g = &s.gcnv;
    for (level, l) in [
        (Level::Flex, &g.levels.flex),
        (Level::Standard, &g.levels.standard),
        (Level::Premium, &g.levels.premium),
        (Level::Extreme, &g.levels.extreme),
    ] {
        if let Some(hourly) = l.usd_per_gib_hour {
            let region = b.reference_region.gcnv.clone();
            b.set_reference(
                Service::Gcnv,
                region,
                level,
                hourly * g.hours_per_month,
                Provenance {
                    as_of: g.price_date.clone(),
                    source: l.price_source.clone(),
                    assumption: false,
                    stored: false,
                },
            );
        }
    }
    b
}

/// One region of the regions list (`GET /api/v1/regions`).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RegionInfo<'b> {
    /// Azure `armRegionName`.
    pub region: &'b str,
    /// The region as the price book names it.
    pub name: &'b str,
    pub service: &'static str,
    /// What the price book prices there.
    pub features: RegionFeatures,
    /// What the service offers there, from the region data; null when the region data
    /// does not list the region (its features are then not checked).
    pub offered: Option<RegionOffer>,
}

/// What a region's prices cover.
#[derive(Debug, Clone, Copy, Serialize, utoipa::ToSchema)]
pub struct RegionFeatures {
    /// Flexible capacity and throughput are priced.
    pub flexible: bool,
    /// The cool tier is priced.
    pub cool_access: bool,
    /// Backup is priced.
    pub backup: bool,
    /// AVS hosts are priced.
    pub avs: bool,
}

/// The compiled book's key of an ANF region (the ANF regions are those of the compiled
/// book in every book in force), `&'static` for the advice that names it.
pub fn anf_region(region: &str) -> Option<&'static str> {
    book()
        .anf
        .get_key_value(region)
        .map(|(key, _)| key.as_str())
}

/// The compiled book's ANF regions, in name order.
pub fn anf_regions() -> impl Iterator<Item = &'static str> {
    book().anf.keys().map(String::as_str)
}

impl PriceBook {
    /// Which book this is, for `cost.price_book`.
    pub fn reference(&self) -> PriceBookRef {
        PriceBookRef {
            id: self.id.clone(),
            date: self.date.clone(),
            source: self.source.clone(),
        }
    }

    /// Every ANF region of the book, with what it prices.
    pub fn regions(&self) -> Vec<RegionInfo<'_>> {
        self.anf
            .iter()
            .map(|(key, p)| RegionInfo {
                region: key.as_str(),
                name: p.name.as_str(),
                service: "anf",
                features: RegionFeatures {
                    flexible: p.flexible_capacity.is_some() && p.flexible_throughput.is_some(),
                    cool_access: p.cool_capacity.is_some(),
                    backup: p.backup.is_some(),
                    avs: self.avs.get(key).is_some_and(|r| !r.hosts.is_empty()),
                },
                offered: super::regions::offer(key),
            })
            .collect()
    }

    /// The ANF prices of `region`, with the book's key for it.
    pub fn anf(&self, region: &str) -> Option<(&str, &AnfPrices)> {
        self.anf.get_key_value(region).map(|(k, v)| (k.as_str(), v))
    }

    /// The reserved-capacity discount for `level` over `term` at `tib` of capacity, %.
    pub fn reservation_discount_pct(&self, level: &str, term: &str, tib: f64) -> Option<f64> {
        self.anf_reservations
            .iter()
            .filter(|r| r.level == level && r.term == term && tib >= r.min_tib)
            .map(|r| r.discount_pct)
            .fold(None, |best: Option<f64>, d| {
                Some(best.map_or(d, |b| b.max(d)))
            })
    }

    /// The price of AVS host `sku` in `region`.
    pub fn avs_host(&self, region: &str, sku: &str) -> Option<&HostPrice> {
        self.avs.get(region).and_then(|r| r.hosts.get(sku))
    }

    /// The region `service` is priced in when a scenario names none.
    pub fn reference_region(&self, service: Service) -> &str {
        match service {
            Service::Anf => &self.reference_region.anf,
            Service::AzureFiles => &self.reference_region.azure_files,
            Service::Gcnv => &self.reference_region.gcnv,
        }
    }

    /// The capacity price of an Azure Files or GCNV level in `region`, USD per
    /// GiB-month, with its provenance; `None` where the book has none (and for ANF,
    /// whose prices are [`PriceBook::anf`]).
    pub fn capacity(
        &self,
        service: Service,
        region: &str,
        level: Level,
    ) -> Option<(f64, Option<&Provenance>)> {
        let table = match service {
            Service::Anf => return None,
            Service::AzureFiles => &self.azure_files,
            Service::Gcnv => &self.gcnv,
        };
        let rate = *table.get(region)?.get(level.key())?;
        let key = RowKey::level(service, region, level);
        Some((rate, self.provenance.get(&key)))
    }

    /// Sets a catalog reference rate with its provenance.
    fn set_reference(
        &mut self,
        service: Service,
        region: String,
        level: Level,
        rate: f64,
        provenance: Provenance,
    ) {
        let key = RowKey::level(service, &region, level);
        let table = match service {
            Service::Anf => return,
            Service::AzureFiles => &mut self.azure_files,
            Service::Gcnv => &mut self.gcnv,
        };
        table
            .entry(region)
            .or_default()
            .insert(level.key().to_owned(), rate);
        self.provenance.insert(key, provenance);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_anf_region_prices_the_three_levels() {
        let b = book();
        assert!(b.anf.len() >= 50, "{}", b.anf.len());
        for (k, p) in &b.anf {
            for v in [p.standard, p.premium, p.ultra] {
                assert!(v > 0.0 && v < 2.0, "{k}: {v}");
            }
        }
    }

    /// The price of a book row by the level key of the snapshot fixture (the meter
    /// keys the price rows use).
    fn level_price(p: &AnfPrices, level: &str) -> Option<f64> {
        crate::prices::rows::anf_get(p, level).unwrap_or_else(|| {
            panic!("the snapshot fixture has a level the book does not know: {level}")
        })
    }

    #[test]
    fn every_region_and_level_of_the_retail_snapshot_is_priced_the_same() {
        // tests/fixtures/prices/anf-snapshot.json: the Retail Prices API snapshot's ANF
        // rows (written by tools/price_book.py beside the book), the distinct monthly
        // prices per region and level.
        #[derive(Deserialize)]
        struct Row {
            region: String,
            level: String,
            prices: Vec<f64>,
        }
        #[derive(Deserialize)]
        struct Fixture {
            rows: Vec<Row>,
        }
        let f: Fixture = serde_json::from_str(include_str!(
            "../../tests/fixtures/prices/anf-snapshot.json"
        ))
        .unwrap();
        assert!(f.rows.len() > 500, "{}", f.rows.len());
        // A region the snapshot gives no capacity price cannot price a volume: only
        // francesouth (its FR South to FR Central replication meters alone) is left out.
        let capacity = |region: &str| {
            ["standard", "premium", "ultra"]
                .iter()
                .all(|l| f.rows.iter().any(|r| r.region == region && r.level == *l))
        };
        let mut wrong = Vec::new();
        for r in &f.rows {
            let Some((_, p)) = book().anf(&r.region) else {
                if r.region != "francesouth" || capacity(&r.region) {
                    wrong.push(format!("{} is not in the book", r.region));
                }
                continue;
            };
            let Some(have) = level_price(p, &r.level) else {
                wrong.push(format!("{} {}: no price in the book", r.region, r.level));
                continue;
            };
            // Replication has one meter per destination pair: the book's price must be
            // one of them; every other level has one price.
            let same = if r.level.starts_with("crr_") {
                r.prices.contains(&have)
            } else {
                r.prices == [have]
            };
            if !same {
                wrong.push(format!(
                    "{} {}: book {have}, snapshot {:?}",
                    r.region, r.level, r.prices
                ));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        // And the book has no region the snapshot does not list (mexicocentral's
        // Premium comes from the calculators' tables: the snapshot has none).
        for region in book().anf.keys() {
            assert!(
                f.rows.iter().any(|r| &r.region == region),
                "{region} is in the book, not in the snapshot"
            );
        }
    }

    #[test]
    fn east_us_and_west_europe_match_the_retail_snapshot() {
        // NOTES.md: East US Standard 0.14746, Premium 0.29419, Ultra 0.39274, Flexible
        // 0.11023 + 2.24986 per MiB/s; West Europe Flexible 0.15768 + 3.21711.
        let (_, e) = book().anf("eastus").unwrap();
        assert_eq!(
            (e.standard, e.premium, e.ultra),
            (0.14746, 0.29419, 0.39274)
        );
        assert_eq!(e.flexible_capacity, Some(0.11023));
        assert_eq!(e.flexible_throughput, Some(2.24986));
        let (_, w) = book().anf("westeurope").unwrap();
        assert_eq!(w.flexible_capacity, Some(0.15768));
        assert_eq!(w.flexible_throughput, Some(3.21711));
    }

    #[test]
    fn reservation_bands() {
        let b = book();
        assert_eq!(b.reservation_discount_pct("premium", "3y", 99.0), None);
        assert_eq!(
            b.reservation_discount_pct("premium", "3y", 100.0),
            Some(30.0)
        );
        assert_eq!(
            b.reservation_discount_pct("premium", "3y", 2048.0),
            Some(34.0)
        );
        assert_eq!(
            b.reservation_discount_pct("standard", "1y", 150.0),
            Some(18.0)
        );
    }

    #[test]
    fn the_catalog_reference_rates_are_rows_of_the_book() {
        let b = book();
        let (files, p) = b
            .capacity(Service::AzureFiles, "swedencentral", Level::SsdV1)
            .unwrap();
        assert_eq!(files, 0.19);
        assert!(p.unwrap().assumption);
        let (gcnv, p) = b
            .capacity(Service::Gcnv, "us-central1", Level::Standard)
            .unwrap();
        assert!((gcnv - 0.000273973 * 730.0).abs() < 1e-12, "{gcnv}");
        assert_eq!(p.unwrap().as_of, "2026-04-10");
        assert!(
            b.capacity(Service::Gcnv, "us-central1", Level::Premium)
                .is_none()
        );
        assert!(
            b.capacity(Service::Gcnv, "europe-west1", Level::Standard)
                .is_none()
        );
    }
}
