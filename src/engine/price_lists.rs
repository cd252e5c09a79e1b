//! The price lists a cost is priced from: per service and region, the rows of the book
//! the plan's lines use, with the date and source of those rows alone (a price stored
//! for another region, service or currency changes nothing here). The price note of
//! every page and report names these.

use super::catalog;
use super::plan::Plan;
use super::price_key::{PricedService, RowKey};
use super::pricing::{self, PriceBook};
use super::scenario::{Level, Replication, Service, Term};
use serde::Serialize;

/// The prices of one service in one region that a cost uses (contract: `cost.price_lists`).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct PriceList {
    pub service: PricedService,
    /// The region's key (`armRegionName`, GCNV's location).
    pub region: String,
    /// ISO 4217 code of the list's prices.
    pub currency: &'static str,
    /// The newest valid-as-of date of the rows used (YYYY-MM-DD).
    pub as_of: String,
    /// Where those rows come from, each source once.
    pub source: String,
    /// Rows of the list the cost uses that have a price.
    pub rows: usize,
    /// Rows it would use that have no price in this currency (their lines are unpriced).
    pub missing: usize,
    /// True when a row used was stored in the database (a price sheet, a Retail Prices
    /// API page or a hand entry): the user's own prices, not the public list.
    pub stored: bool,
    /// True when a row used is provisional (a secondary source or derived).
    pub provisional: bool,
}

/// The rows of the book the plan's lines look up, by service and region.
fn used_rows(p: &Plan) -> Vec<RowKey> {
    let key = |service: PricedService, region: &str, item: &str| RowKey {
        service,
        region: region.to_owned(),
        item: item.to_owned(),
    };
    let mut out = Vec::new();
    match p.service {
        Service::Anf => {
            let region = p
                .prices
                .anf(p.rates.region)
                .map_or(p.rates.region, |(k, _)| k);
            let level = anf_level(p.level);
            out.push(key(PricedService::Anf, region, level));
            if p.level == Level::Flexible {
                out.push(key(PricedService::Anf, region, "flexible_throughput"));
            }
            if p.cool.is_some() {
                out.push(key(PricedService::Anf, region, "cool_capacity"));
                out.push(key(PricedService::Anf, region, "cool_transfer"));
            }
            if let Some(d) = p.protection {
                if d.backup.is_some() {
                    out.push(key(PricedService::Anf, region, "backup"));
                }
                let crr = match d.replication {
                    Replication::None => None,
                    Replication::TenMinutes => Some("crr_10min"),
                    Replication::Hourly => Some("crr_hourly"),
                    Replication::Daily => Some("crr_daily"),
                };
                if let Some(item) = crr {
                    out.push(key(PricedService::Anf, region, item));
                    if let Some(to) = d.replication_region.as_deref() {
                        let to = p.prices.anf(to).map_or(to, |(k, _)| k);
                        out.push(key(PricedService::Anf, to, level));
                    }
                }
            }
        }
        Service::AzureFiles | Service::Gcnv => {
            let (service, table) = if p.service == Service::Gcnv {
                (PricedService::Gcnv, &p.prices.gcnv)
            } else {
                (PricedService::AzureFiles, &p.prices.azure_files)
            };
            let level = p.level.key();
            let wanted = |item: &str| {
                let rest = match item.strip_prefix(level) {
                    Some("") => return true,
                    Some(r) => r,
                    None => return false,
                };
                let committed = rest.ends_with("_1y") || rest.ends_with("_3y");
                rest.starts_with('_')
                    && match p.reservation {
                        Term::None => !committed,
                        Term::OneYear => !rest.ends_with("_3y"),
                        Term::ThreeYears => !rest.ends_with("_1y"),
                    }
            };
            out.push(key(service, p.rates.region, level));
            if let Some(items) = table.get(p.rates.region) {
                out.extend(
                    items
                        .keys()
                        .filter(|i| i.as_str() != level && wanted(i))
                        .map(|i| key(service, p.rates.region, i)),
                );
            }
        }
    }
    if let Some(a) = p.avs {
        out.push(key(PricedService::Avs, p.rates.region, &a.host.sku));
    }
    out
}

/// The ANF row of a level's capacity.
fn anf_level(level: Level) -> &'static str {
    match level {
        Level::Standard => "standard",
        Level::Premium => "premium",
        Level::Flexible => "flexible_capacity",
        _ => "ultra",
    }
}

/// The price of a row in `book`, if it has one.
fn priced(book: &PriceBook, k: &RowKey) -> bool {
    match k.service {
        PricedService::Anf => book.anf.get(&k.region).is_some_and(|a| {
            let items = [
                ("standard", a.standard),
                ("premium", a.premium),
                ("ultra", a.ultra),
                ("flexible_capacity", a.flexible_capacity),
                ("flexible_throughput", a.flexible_throughput),
                ("cool_capacity", a.cool_capacity),
                ("cool_transfer", a.cool_transfer),
                ("backup", a.backup),
                ("crr_10min", a.crr_10min),
                ("crr_hourly", a.crr_hourly),
                ("crr_daily", a.crr_daily),
            ];
            items.iter().any(|(i, v)| *i == k.item && v.is_some())
        }),
        PricedService::Avs => book.avs_host(&k.region, &k.item).is_some(),
        PricedService::AzureFiles => book
            .azure_files
            .get(&k.region)
            .is_some_and(|t| t.contains_key(&k.item)),
        PricedService::Gcnv => book
            .gcnv
            .get(&k.region)
            .is_some_and(|t| t.contains_key(&k.item)),
    }
}

/// The date and source of a row without a provenance of its own: the public list it
/// was compiled from.
fn compiled_basis(book: &PriceBook, service: PricedService) -> (String, String) {
    let s = &catalog::catalog().services;
    let compiled = pricing::book();
    let date = match service {
        PricedService::Avs => return (book.avs_date.clone(), book.avs_source.clone()),
        PricedService::Anf => compiled.date.to_string(),
        PricedService::AzureFiles => s.azure_files.price_date.clone(),
        PricedService::Gcnv => s.gcnv.price_date.clone(),
    };
    (date, compiled.source.to_string())
}

/// The price lists the plan's cost uses, in the order its lines use them.
pub fn of(p: &Plan) -> Vec<PriceList> {
    let book = p.prices;
    let mut lists: Vec<PriceList> = Vec::new();
    for k in used_rows(p) {
        let at = match lists
            .iter()
            .position(|l| l.service == k.service && l.region == k.region)
        {
            Some(i) => i,
            None => {
                lists.push(PriceList {
                    service: k.service,
                    region: k.region.clone(),
                    currency: book.currency,
                    as_of: String::new(),
                    source: String::new(),
                    rows: 0,
                    missing: 0,
                    stored: false,
                    provisional: false,
                });
                lists.len() - 1
            }
        };
        let list = &mut lists[at];
        if !priced(book, &k) {
            list.missing += 1;
            continue;
        }
        list.rows += 1;
        let (as_of, source) = match book.provenance.get(&k) {
            Some(v) => {
                list.stored |= v.stored;
                list.provisional |= v.assumption;
                (v.as_of.clone(), v.source.clone())
            }
            None => compiled_basis(book, k.service),
        };
        if as_of > list.as_of {
            list.as_of = as_of;
        }
        if !list.source.split("; ").any(|s| s == source) {
            if !list.source.is_empty() {
                list.source.push_str("; ");
            }
            list.source.push_str(&source);
        }
    }
    lists
}

/// The newest date of the lists that price something; `None` when none does.
pub fn newest(lists: &[PriceList]) -> Option<&str> {
    lists
        .iter()
        .filter(|l| l.rows > 0)
        .map(|l| l.as_of.as_str())
        .max()
}
