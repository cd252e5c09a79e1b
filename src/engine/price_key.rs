//! What a price book row is keyed by: the priced service, the region and the item, and
//! where a price that is not the compiled book's own comes from. The book
//! (`pricing::PriceBook`) keys its provenance by these; the rows themselves, their checks
//! and the book in force are the `prices` module's.

use super::scenario::{Level, Service};
use serde::{Deserialize, Serialize};

/// `code` as the ISO 4217 code of a currency prices are billed in (`USD`, `EUR`),
/// shared by every cost priced in it (`Cost.currency`), or `None` when it is not one.
/// The list is ISO 4217's as the `iso_currency` crate carries it; of it, the codes that
/// are no money one is billed in (funds such as `USN`, metals such as `XAU`, `XTS` for
/// testing, the code for no currency) and those since replaced (`HRK`, by `EUR` in 2023) are not taken.
pub fn currency_code(code: &str) -> Option<&'static str> {
    let c = iso_currency::Currency::from_code(code)?;
    (!c.is_special() && !c.is_fund() && c.is_superseded().is_none()).then(|| c.code())
}

/// The currency that replaced `code`, when ISO 4217 lists it as replaced (`HRK`:
/// `EUR`), for the message that refuses it.
pub fn replaced_by(code: &str) -> Option<&'static str> {
    iso_currency::Currency::from_code(code)?
        .is_superseded()
        .map(|c| c.code())
}

/// What a row prices: the three storage services and the AVS hosts.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum PricedService {
    Anf,
    Avs,
    AzureFiles,
    Gcnv,
}

impl PricedService {
    /// Every priced service, in the order rows are listed.
    pub const ALL: [PricedService; 4] = [
        PricedService::Anf,
        PricedService::Avs,
        PricedService::AzureFiles,
        PricedService::Gcnv,
    ];

    /// The JSON name.
    pub fn key(self) -> &'static str {
        match self {
            PricedService::Anf => "anf",
            PricedService::Avs => "avs",
            PricedService::AzureFiles => "azure_files",
            PricedService::Gcnv => "gcnv",
        }
    }

    /// The service named by its JSON name.
    pub fn from_key(key: &str) -> Option<PricedService> {
        Self::ALL.into_iter().find(|s| s.key() == key)
    }

    /// The service as the vendor writes it.
    pub fn display(self) -> &'static str {
        match self {
            PricedService::Anf => Service::Anf.display(),
            PricedService::Avs => "Azure VMware Solution",
            PricedService::AzureFiles => Service::AzureFiles.display(),
            PricedService::Gcnv => Service::Gcnv.display(),
        }
    }
}

impl From<Service> for PricedService {
    fn from(s: Service) -> Self {
        match s {
            Service::Anf => PricedService::Anf,
            Service::AzureFiles => PricedService::AzureFiles,
            Service::Gcnv => PricedService::Gcnv,
        }
    }
}

/// Which row: service, region (`armRegionName` or GCP region) and item key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RowKey {
    pub service: PricedService,
    pub region: String,
    pub item: String,
}

impl RowKey {
    /// The row of a storage level's capacity (ANF: the level's pool capacity; Flexible
    /// is priced by `flexible_capacity`).
    pub fn level(service: Service, region: &str, level: Level) -> RowKey {
        let item = match level {
            Level::Flexible => "flexible_capacity",
            other => other.key(),
        };
        RowKey {
            service: service.into(),
            region: region.to_owned(),
            item: item.to_owned(),
        }
    }
}

/// Where a row's price comes from when it is not the book's own source.
#[derive(Debug, Clone, PartialEq)]
pub struct Provenance {
    /// The date the price is valid as of (YYYY-MM-DD).
    pub as_of: String,
    pub source: String,
    /// True for an UNCONFIRMED or derived price.
    pub assumption: bool,
    /// True for a price stored in the database (imported or entered by hand).
    pub stored: bool,
}
