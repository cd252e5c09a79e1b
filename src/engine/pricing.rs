//! The price book: list prices by region, compiled in from `catalog/price_book.json`
//! (built by `tools/price_book.py` from the public price records), and the lookups the
//! cost lines use.

use super::regions::RegionOffer;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// The price book as compiled in.
pub const PRICE_BOOK_JSON: &str = include_str!("catalog/price_book.json");

/// Every price the engine knows, with its date and source.
#[derive(Debug, Deserialize)]
pub struct PriceBook {
    pub id: String,
    pub date: String,
    pub source: String,
    pub hours_per_month: f64,
    pub reference_region: ReferenceRegions,
    /// ANF prices by Azure region (`armRegionName`).
    pub anf: BTreeMap<String, AnfPrices>,
    pub anf_reservations: Vec<Reservation>,
    /// AVS host prices by Azure region.
    pub avs: BTreeMap<String, AvsRegion>,
}

/// The region a service is priced in when a scenario names none.
#[derive(Debug, Deserialize)]
pub struct ReferenceRegions {
    pub anf: String,
    pub azure_files: String,
    pub gcnv: String,
}

/// ANF list prices of one region, USD per month (730 hours).
#[derive(Debug, Deserialize)]
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
#[derive(Debug, Deserialize)]
pub struct Reservation {
    pub level: String,
    pub term: String,
    pub min_tib: f64,
    pub discount_pct: f64,
}

/// AVS host prices of one region.
#[derive(Debug, Deserialize)]
pub struct AvsRegion {
    pub name: String,
    #[serde(flatten)]
    pub hosts: BTreeMap<String, HostPrice>,
}

/// One AVS host SKU's price per host-hour.
#[derive(Debug, Deserialize)]
pub struct HostPrice {
    pub payg_hour: f64,
    #[serde(default)]
    pub ri_1y_hour: Option<f64>,
    #[serde(default)]
    pub ri_3y_hour: Option<f64>,
}

static BOOK: LazyLock<PriceBook> =
    LazyLock::new(|| serde_json::from_str(PRICE_BOOK_JSON).expect("price_book.json is valid"));

/// The compiled-in price book.
pub fn book() -> &'static PriceBook {
    &BOOK
}

/// One region of the regions list (`GET /api/v1/regions`).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RegionInfo {
    /// Azure `armRegionName`.
    pub region: &'static str,
    /// The region as the price book names it.
    pub name: &'static str,
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

/// Every ANF region of the price book, with what it prices and what it offers.
pub fn regions() -> Vec<RegionInfo> {
    let b = book();
    b.anf
        .iter()
        .map(|(key, p)| RegionInfo {
            region: key.as_str(),
            name: p.name.as_str(),
            service: "anf",
            features: RegionFeatures {
                flexible: p.flexible_capacity.is_some() && p.flexible_throughput.is_some(),
                cool_access: p.cool_capacity.is_some(),
                backup: p.backup.is_some(),
                avs: b.avs.contains_key(key),
            },
            offered: super::regions::offer(key),
        })
        .collect()
}

/// The ANF prices of `region` (the book's key, `&'static` for the evaluation).
pub fn anf(region: &str) -> Option<(&'static str, &'static AnfPrices)> {
    book()
        .anf
        .get_key_value(region)
        .map(|(k, v)| (k.as_str(), v))
}

/// The reserved-capacity discount for `level` over `term` at `tib` of capacity, %.
pub fn reservation_discount_pct(level: &str, term: &str, tib: f64) -> Option<f64> {
    book()
        .anf_reservations
        .iter()
        .filter(|r| r.level == level && r.term == term && tib >= r.min_tib)
        .map(|r| r.discount_pct)
        .fold(None, |best: Option<f64>, d| {
            Some(best.map_or(d, |b| b.max(d)))
        })
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

    #[test]
    fn east_us_and_west_europe_match_the_retail_snapshot() {
        // NOTES.md: East US Standard 0.14746, Premium 0.29419, Ultra 0.39274, Flexible
        // 0.11023 + 2.24986 per MiB/s; West Europe Flexible 0.15768 + 3.21711.
        let (_, e) = anf("eastus").unwrap();
        assert_eq!(
            (e.standard, e.premium, e.ultra),
            (0.14746, 0.29419, 0.39274)
        );
        assert_eq!(e.flexible_capacity, Some(0.11023));
        assert_eq!(e.flexible_throughput, Some(2.24986));
        let (_, w) = anf("westeurope").unwrap();
        assert_eq!(w.flexible_capacity, Some(0.15768));
        assert_eq!(w.flexible_throughput, Some(3.21711));
    }

    #[test]
    fn reservation_bands() {
        assert_eq!(reservation_discount_pct("premium", "3y", 99.0), None);
        assert_eq!(reservation_discount_pct("premium", "3y", 100.0), Some(30.0));
        assert_eq!(
            reservation_discount_pct("premium", "3y", 2048.0),
            Some(34.0)
        );
        assert_eq!(
            reservation_discount_pct("standard", "1y", 150.0),
            Some(18.0)
        );
    }
}
