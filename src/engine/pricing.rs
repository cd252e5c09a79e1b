//! The price book: list prices by region, compiled in from `catalog/price_book.json`
//! (built by `tools/price_book.py` from the public price records) plus the catalog's
//! reference rates of Azure Files and GCNV, and the lookups the cost lines use.
//!
//! The engine prices with whichever book it is handed: the compiled one ([`book`]) or
//! the book in force, the compiled one with the prices stored in the database applied
//! ([`PriceBook::in_force`], in `prices::rows`). Both have this shape.
//!
//! A book holds prices in one currency (the compiled one: USD). Prices imported or
//! entered in another currency make a book of their own in that currency, kept in
//! [`PriceBook::currencies`] of the USD book: a cost is priced from one book, so its
//! lines never mix currencies.

use super::catalog;
use super::price_key::{Provenance, RowKey};
use super::regions::RegionOffer;
use super::scenario::{Level, Service, Term};
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
    /// The ISO 4217 code of every price in this book (the compiled book's: USD).
    #[serde(skip, default = "usd")]
    pub currency: &'static str,
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
    /// AVS host prices without VMware Cloud Foundation (the `VCF BYOL` meters: every new
    /// deployment since 1 November 2025), by region, with their date and source.
    #[serde(default)]
    pub avs_byol: BTreeMap<String, AvsRegion>,
    #[serde(default)]
    pub avs_byol_date: String,
    #[serde(default)]
    pub avs_byol_source: String,
    /// Azure Files prices by region and item (`ssd_v2`, `ssd_v2_iops`, ...), per unit and
    /// month (`prices::rows` lists the items and units).
    #[serde(default)]
    pub azure_files: BTreeMap<String, BTreeMap<String, f64>>,
    /// GCNV prices by region and item (`flex`, `flex_throughput`, `premium_1y`, ...).
    #[serde(default)]
    pub gcnv: BTreeMap<String, BTreeMap<String, f64>>,
    /// GCNV's spend-based committed-use discounts, %, where the book has no committed
    /// price of a row (every level and region).
    #[serde(default = "no_discounts")]
    pub gcnv_commitment_discount_pct: ReservedDiscounts,
    /// Display names of regions, by key ("West Europe", "Iowa").
    #[serde(default)]
    pub region_names: BTreeMap<String, String>,
    /// Date and source of the Azure Files and GCNV rows of the compiled book.
    #[serde(default, rename = "row_sources")]
    compiled_sources: Vec<RowSource>,
    /// Date and source of the rows that do not come from the book's own `source`
    /// (the catalog's reference rates, prices entered or imported later).
    #[serde(skip)]
    pub provenance: BTreeMap<RowKey, Provenance>,
    /// Books of the prices stored in other currencies, by ISO 4217 code (empty in those
    /// books themselves).
    #[serde(skip)]
    pub currencies: BTreeMap<String, PriceBook>,
}

fn usd() -> &'static str {
    "USD"
}

fn no_discounts() -> ReservedDiscounts {
    ReservedDiscounts {
        one_year: 0.0,
        three_years: 0.0,
    }
}

/// Where a row of the compiled book comes from, when not from its `source`.
#[derive(Debug, Clone, Deserialize)]
struct RowSource {
    service: super::price_key::PricedService,
    region: String,
    item: String,
    as_of: String,
    source: String,
    /// A secondary source (a third-party document or release-note summary) or a price
    /// derived from one.
    provisional: bool,
}

/// The region a service is priced in when a scenario names none.
#[derive(Debug, Clone, Deserialize)]
pub struct ReferenceRegions {
    pub anf: String,
    pub azure_files: String,
    pub gcnv: String,
}

/// ANF list prices of one region, per month (730 hours), in the book's currency.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct AnfPrices {
    pub name: String,
    /// Per GiB-month of pool capacity (the compiled book prices the three levels in
    /// every region; a book in another currency only what was stored in it).
    pub standard: Option<f64>,
    pub premium: Option<f64>,
    pub ultra: Option<f64>,
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

impl HostPrice {
    /// The price of a host-hour on `term`: the reserved rate where the book has one,
    /// else pay as you go less the book's reserved-host discount (the AVS TCO
    /// estimator's default discounts). The AVS plan's TCO and a scenario's hosts line
    /// both price hosts with it.
    pub fn hour(&self, term: Term, discounts: ReservedDiscounts) -> f64 {
        let off = |pct: f64| self.payg_hour * (1.0 - pct / 100.0);
        match term {
            Term::None => self.payg_hour,
            Term::OneYear => self.ri_1y_hour.unwrap_or_else(|| off(discounts.one_year)),
            Term::ThreeYears => self
                .ri_3y_hour
                .unwrap_or_else(|| off(discounts.three_years)),
        }
    }
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
    for r in std::mem::take(&mut b.compiled_sources) {
        let key = RowKey {
            service: r.service,
            region: r.region,
            item: r.item,
        };
        b.provenance.insert(
            key,
            Provenance {
                as_of: r.as_of,
                source: r.source,
                assumption: r.provisional,
                stored: false,
            },
        );
    }
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
    /// The region's display name ("West Europe").
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

/// A region as every page and report names it, by the compiled book: "West Europe
/// (westeurope)" ([`PriceBook::region_label`]).
pub fn region_label(region: &str) -> String {
    book().region_label(region)
}

/// The region a person means by `typed`: a region of the compiled book by its key in
/// any case ("WestEurope"), by its display name ("West Europe", "west europe") or as
/// every page labels it ("West Europe (westeurope)"); `None` for anything else. The
/// planner and the estate forms read a typed region through it.
pub fn region_key(typed: &str) -> Option<&'static str> {
    let b = book();
    let typed = typed.trim();
    let typed = match typed.rsplit_once(" (") {
        Some((_, key)) if key.ends_with(')') => key.trim_end_matches(')'),
        _ => typed,
    };
    let squeeze = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let want = squeeze(typed);
    let keys = b.anf.keys().chain(b.region_names.keys());
    keys.clone()
        .find(|k| squeeze(k) == want)
        .or_else(|| {
            b.region_names
                .iter()
                .find(|(_, name)| squeeze(name) == want)
                .map(|(k, _)| k)
        })
        .map(String::as_str)
}

/// Why `typed` is refused as an ANF region, with the closest regions by name and key
/// ("Did you mean West Europe (westeurope)?"): the planner, the estates and the price
/// rows say it in these words.
pub fn unknown_anf_region(typed: &str) -> String {
    use super::field_error::{closest, did_you_mean};
    let like: Vec<String> = closest(typed, anf_regions())
        .into_iter()
        .map(region_label)
        .collect();
    let like: Vec<&str> = like.iter().map(String::as_str).collect();
    let shown: String = typed.chars().take(40).collect();
    let more = if typed.chars().count() > 40 {
        "..."
    } else {
        ""
    };
    format!(
        "`{shown}{more}` is not an Azure NetApp Files region.{} The Regions page lists all {}.",
        did_you_mean(&like),
        anf_regions().count()
    )
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
                name: self.region_name(key),
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

    /// The price of a host without VCF (`VCF BYOL`) of `sku` in `region`.
    pub fn avs_byol_host(&self, region: &str, sku: &str) -> Option<&HostPrice> {
        self.avs_byol.get(region).and_then(|r| r.hosts.get(sku))
    }

    /// The region `service` is priced in when a scenario names none.
    pub fn reference_region(&self, service: Service) -> &str {
        match service {
            Service::Anf => &self.reference_region.anf,
            Service::AzureFiles => &self.reference_region.azure_files,
            Service::Gcnv => &self.reference_region.gcnv,
        }
    }

    /// The capacity price of an Azure Files or GCNV level in `region`, per GiB-month,
    /// with its provenance; `None` where the book has none (and for ANF, whose prices
    /// are [`PriceBook::anf`]).
    pub fn capacity(
        &self,
        service: Service,
        region: &str,
        level: Level,
    ) -> Option<(f64, Option<&Provenance>)> {
        self.rate(service, region, level.key())
    }

    /// The price of Azure Files or GCNV row `item` in `region`, per unit and month,
    /// with its provenance; `None` where the book has none.
    pub fn rate(
        &self,
        service: Service,
        region: &str,
        item: &str,
    ) -> Option<(f64, Option<&Provenance>)> {
        let table = match service {
            Service::Anf => return None,
            Service::AzureFiles => &self.azure_files,
            Service::Gcnv => &self.gcnv,
        };
        let rate = *table.get(region)?.get(item)?;
        let key = RowKey {
            service: service.into(),
            region: region.to_owned(),
            item: item.to_owned(),
        };
        Some((rate, self.provenance.get(&key)))
    }

    /// The book of prices in `currency`: this one, or one of [`PriceBook::currencies`].
    pub fn in_currency(&self, currency: &str) -> Option<&PriceBook> {
        if self.currency == currency {
            Some(self)
        } else {
            self.currencies.get(currency)
        }
    }

    /// True when this book has a price of `service` in `region`.
    pub fn prices_in(&self, service: Service, region: &str) -> bool {
        match service {
            Service::Anf => self.anf.get(region).is_some_and(|p| {
                [p.standard, p.premium, p.ultra, p.flexible_capacity]
                    .iter()
                    .any(Option::is_some)
            }),
            Service::AzureFiles => self.azure_files.get(region).is_some_and(|t| !t.is_empty()),
            Service::Gcnv => self.gcnv.get(region).is_some_and(|t| !t.is_empty()),
        }
    }

    /// The book of `currency` (an ISO 4217 code, as typed), or why there is none: the
    /// message of field `field`, naming what to import. Prices are never converted
    /// between currencies.
    pub fn for_currency(
        &self,
        currency: &str,
        field: &str,
    ) -> Result<&PriceBook, super::field_error::FieldError> {
        let code = currency.trim().to_ascii_uppercase();
        if super::price_key::currency_code(&code).is_none() {
            return Err(super::field_error::FieldError::new(
                field,
                format!(
                    "`{}` is not an ISO 4217 currency code; use one such as USD or EUR",
                    currency
                        .chars()
                        .filter(|c| !c.is_control())
                        .take(12)
                        .collect::<String>()
                ),
            ));
        }
        self.in_currency(&code).ok_or_else(|| {
            super::field_error::FieldError::new(
                field,
                format!(
                    "the price book has no {code} prices; it has {}. Import a price sheet or a Retail Prices API page in {code} on the Prices page",
                    self.currency_options("").join(", ")
                ),
            )
        })
    }

    /// The currencies a form offers: this book's first, then those of its books in other
    /// currencies, then `chosen` when no book has it (a saved choice stays on the form;
    /// the checks name it).
    pub fn currency_options(&self, chosen: &str) -> Vec<String> {
        let mut out: Vec<String> = std::iter::once(self.currency)
            .chain(self.currencies.keys().map(String::as_str))
            .map(str::to_owned)
            .collect();
        if !chosen.is_empty() && !out.iter().any(|c| c == chosen) {
            out.push(chosen.to_owned());
        }
        out
    }

    /// The currencies with a price of `service` in `region`, this book's first.
    pub fn currencies_of(&self, service: Service, region: &str) -> Vec<&str> {
        std::iter::once(self)
            .chain(self.currencies.values())
            .filter(|b| b.prices_in(service, region))
            .map(|b| b.currency)
            .collect()
    }

    /// A book of the same shape in `currency` (a code of
    /// [`price_key::currency_code`](super::price_key::currency_code)) without a price:
    /// the regions, reservation bands and discounts stay (they are percentages), every
    /// price is gone.
    pub fn blank(&self, currency: &'static str) -> PriceBook {
        let mut b = self.clone_shape();
        b.currency = currency;
        b.anf = self
            .anf
            .iter()
            .map(|(k, p)| {
                let name = p.name.clone();
                (
                    k.clone(),
                    AnfPrices {
                        name,
                        ..AnfPrices::default()
                    },
                )
            })
            .collect();
        b
    }

    /// This book's own fields without its foreign-currency books (a book in another
    /// currency starts from them).
    fn clone_shape(&self) -> PriceBook {
        PriceBook {
            id: self.id.clone(),
            currency: self.currency,
            date: self.date.clone(),
            source: self.source.clone(),
            hours_per_month: self.hours_per_month,
            reference_region: self.reference_region.clone(),
            anf: BTreeMap::new(),
            anf_reservations: self.anf_reservations.clone(),
            avs: BTreeMap::new(),
            avs_date: self.avs_date.clone(),
            avs_source: self.avs_source.clone(),
            avs_reserved_discount_pct: self.avs_reserved_discount_pct,
            avs_byol: BTreeMap::new(),
            avs_byol_date: self.avs_byol_date.clone(),
            avs_byol_source: self.avs_byol_source.clone(),
            azure_files: BTreeMap::new(),
            gcnv: BTreeMap::new(),
            gcnv_commitment_discount_pct: self.gcnv_commitment_discount_pct,
            region_names: self.region_names.clone(),
            compiled_sources: Vec::new(),
            provenance: BTreeMap::new(),
            currencies: BTreeMap::new(),
        }
    }

    /// A region as every page and report names it: "West Europe (westeurope)", or the
    /// key alone when the book knows no name for it.
    pub fn region_label(&self, region: &str) -> String {
        match self.region_name(region) {
            name if name == region => region.to_owned(),
            name => format!("{name} ({region})"),
        }
    }

    /// The display name of a region ("West Europe", "Iowa"); its key when the book
    /// knows no name for it.
    pub fn region_name<'s>(&'s self, region: &'s str) -> &'s str {
        self.region_names
            .get(region)
            .map(String::as_str)
            .or_else(|| self.avs.get(region).map(|r| r.name.as_str()))
            .or_else(|| self.anf.get(region).map(|p| p.name.as_str()))
            .unwrap_or(region)
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
                assert!(v.is_some_and(|v| v > 0.0 && v < 2.0), "{k}: {v:?}");
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
            (Some(0.14746), Some(0.29419), Some(0.39274))
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
    fn a_region_is_read_by_its_key_or_its_name() {
        for typed in [
            "westeurope",
            "WestEurope",
            " West Europe ",
            "west europe",
            "West Europe (westeurope)",
        ] {
            assert_eq!(region_key(typed), Some("westeurope"), "{typed}");
        }
        assert_eq!(region_key("Iowa"), Some("us-central1"));
        assert_eq!(region_key("europe-west3"), Some("europe-west3"));
        for typed in ["westeurop", "mars", "", "West"] {
            assert_eq!(region_key(typed), None, "{typed}");
        }
        let m = unknown_anf_region("westeurop");
        assert!(m.contains("Did you mean West Europe (westeurope)?"), "{m}");
        assert!(!m.contains("/api/"), "{m}");
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
        // Premium there comes from the pricing page's table as a public tool read it.
        let (premium, p) = b
            .capacity(Service::Gcnv, "us-central1", Level::Premium)
            .unwrap();
        assert!((premium - 0.2942).abs() < 1e-9, "{premium}");
        assert!(p.unwrap().assumption);
        assert!(
            b.capacity(Service::Gcnv, "europe-west1", Level::Standard)
                .is_none()
        );
    }
}
