//! The plan request (contract: the body of `POST /api/v1/avs/plan`) and its checks.

use super::DEFAULT_MAX_DATASTORES;
use super::existing::Existing;
use super::hosts::{self, HostModel, HostSpec};
use super::licence::{LicenceTerms, Licensing, Vcf};
use crate::engine::field_error::{Checks, FieldErrors, closest, did_you_mean};
use crate::engine::pricing::{HostPrice, PriceBook};
use crate::engine::scenario::{FieldError, Level, Service};
use crate::engine::scenario::{MAX_HOST_SKU_CHARS, MAX_REGION_CHARS};
use crate::inventory::model::{MAX_DISKS_PER_VM, MAX_VMS};
use crate::inventory::{CapacityBasis, Inventory};
use serde::{Deserialize, Serialize};

/// What the layout places.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlaceUnit {
    /// Each VM with all its disks on one datastore.
    #[default]
    Vm,
    /// Each disk on its own choice of datastore.
    Disk,
}

/// How the hosts (and reserved ANF capacity) are bought: the term the TCO headline and
/// its verdict follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
pub enum PurchaseTerm {
    /// Pay as you go.
    #[serde(rename = "payg")]
    Payg,
    /// One-year reservation.
    #[serde(rename = "1y")]
    OneYear,
    /// Three-year reservation: how AVS hosts are almost always bought.
    #[default]
    #[serde(rename = "3y")]
    ThreeYears,
}

impl PurchaseTerm {
    /// Every term, in the order the verdict lists them.
    pub const ALL: [PurchaseTerm; 3] = [
        PurchaseTerm::Payg,
        PurchaseTerm::OneYear,
        PurchaseTerm::ThreeYears,
    ];

    /// The JSON name.
    pub fn key(self) -> &'static str {
        match self {
            PurchaseTerm::Payg => "payg",
            PurchaseTerm::OneYear => "1y",
            PurchaseTerm::ThreeYears => "3y",
        }
    }

    /// Years the term's total covers: the reservation's length (3 for pay as you go, so
    /// that it compares with the usual reservation).
    pub fn years(self) -> u32 {
        match self {
            PurchaseTerm::OneYear => 1,
            _ => 3,
        }
    }

    /// The scenario's reservation term for this purchase term.
    pub fn reservation(self) -> crate::engine::scenario::Term {
        use crate::engine::scenario::Term;
        match self {
            PurchaseTerm::Payg => Term::None,
            PurchaseTerm::OneYear => Term::OneYear,
            PurchaseTerm::ThreeYears => Term::ThreeYears,
        }
    }

    /// "pay as you go", "1-year reserved", "3-year reserved".
    pub fn display(self) -> &'static str {
        match self {
            PurchaseTerm::Payg => "pay as you go",
            PurchaseTerm::OneYear => "1-year reserved",
            PurchaseTerm::ThreeYears => "3-year reserved",
        }
    }
}

/// A plan request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanRequest {
    /// The answer of `POST /api/v1/avs/inventory`.
    pub inventory: Inventory,
    /// The host SKU (`AV36P` by default: priced without VMware licences and with them
    /// included in the default region).
    #[serde(default = "default_host_sku")]
    #[schema(max_length = 32, default = "AV36P")]
    pub host_sku: String,
    /// Azure `armRegionName`; null = the price book's reference region for ANF. A region
    /// without a price for the host SKU still gets its hosts planned; their cost is
    /// marked missing.
    #[serde(default)]
    #[schema(max_length = 40)]
    pub region: Option<String>,
    /// ANF level of the datastores (standard, premium, ultra, or flexible where the price
    /// book prices it); null = the cheapest that meets the targets.
    #[serde(default)]
    pub level: Option<Level>,
    /// Number of datastores; null = the cheapest count that meets everything.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 4096)]
    pub datastores: Option<u32>,
    /// Capacity headroom for growth on every datastore and on vSAN, %.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000)]
    pub growth_pct: f64,
    /// Share of each datastore kept free, % (like the slack vSAN keeps on its side).
    #[serde(default = "free_space_pct")]
    #[schema(minimum = 0, maximum = 90, default = 20)]
    pub free_space_pct: f64,
    /// The purchase term the TCO headline follows (`payg`, `1y`, `3y`).
    #[serde(default)]
    pub term: PurchaseTerm,
    #[serde(default)]
    pub unit: PlaceUnit,
    #[serde(default)]
    pub capacity_basis: CapacityBasis,
    /// Connections per host per datastore: 1 or 4.
    #[serde(default = "one")]
    #[schema(minimum = 1, maximum = 4)]
    pub nconnect: u32,
    /// Datastores one cluster may mount.
    #[serde(default = "max_datastores")]
    #[schema(minimum = 1, maximum = 256)]
    pub max_datastores: u32,
    /// IOPS and MiB/s of a VM without figures of its own.
    #[serde(default)]
    pub default_iops_per_vm: Option<f64>,
    #[serde(default)]
    pub default_mibps_per_vm: Option<f64>,
    /// IO size of the load; null = MiB/s / IOPS of the inventory, else 64 KiB.
    #[serde(default)]
    pub io_size_kib: Option<f64>,
    #[serde(default = "read_pct")]
    #[schema(minimum = 0, maximum = 100)]
    pub read_pct: f64,
    /// A buffer on every VM's IOPS and MiB/s (measured or defaulted), as Azure
    /// Migrate's comfort factor; 1 = none.
    #[serde(default = "comfort")]
    #[schema(minimum = 1, maximum = 5, default = 1)]
    pub comfort_factor: f64,
    /// IOs each VM keeps in flight.
    #[serde(default = "outstanding")]
    #[schema(minimum = 1, maximum = 1024)]
    pub outstanding_per_vm: u32,
    /// Host sizing constants.
    #[serde(default)]
    pub hosts: HostModel,
    /// VMware Cloud Foundation licensing: portable (default; hosts at the `VCF BYOL`
    /// rate plus cores x the price per core per year) or included (an existing
    /// licence-included reservation, until its end date).
    #[serde(default)]
    pub vcf: Vcf,
    /// A stretched cluster over two availability zones: each site holds the whole
    /// workload with a spare (N+2), so the host count doubles.
    #[serde(default)]
    pub stretched: bool,
    /// The private cloud to expand (its hosts, their SKU and licensing); null = a new
    /// private cloud. Its hosts keep their own workloads: the VMs get added hosts, which
    /// join its clusters where they have room, and only those are bought.
    #[serde(default)]
    pub existing: Option<Existing>,
    /// ISO 4217 code of every figure: the plan is priced from the price book's list in
    /// this currency alone (USD, the compiled list, by default).
    #[serde(default = "usd")]
    #[schema(max_length = 3)]
    pub currency: String,
}

fn usd() -> String {
    "USD".to_owned()
}

/// The host SKU unless the request says otherwise: the one the compiled prices price
/// both with portable VCF (its `VCF BYOL` rate) and licence-included in the reference
/// region (East US), where AV36 has neither.
pub const DEFAULT_HOST_SKU: &str = "AV36P";

fn default_host_sku() -> String {
    DEFAULT_HOST_SKU.to_owned()
}
fn one() -> u32 {
    1
}
fn max_datastores() -> u32 {
    DEFAULT_MAX_DATASTORES
}
fn read_pct() -> f64 {
    DEFAULT_READ_PCT
}
fn outstanding() -> u32 {
    DEFAULT_OUTSTANDING
}
fn comfort() -> f64 {
    DEFAULT_COMFORT_FACTOR
}

/// The comfort factor unless the request says otherwise: none, so that a plan sizes
/// what the inventory measured (Azure Migrate's own examples use 1.3).
pub const DEFAULT_COMFORT_FACTOR: f64 = 1.0;

/// Read share of the load unless the request says otherwise, %.
pub const DEFAULT_READ_PCT: f64 = 70.0;
/// IOs each VM keeps in flight unless the request says otherwise.
pub const DEFAULT_OUTSTANDING: u32 = 8;
fn free_space_pct() -> f64 {
    DEFAULT_FREE_SPACE_PCT
}

/// Share of each datastore kept free unless the request says otherwise, %.
pub const DEFAULT_FREE_SPACE_PCT: f64 = 20.0;

impl PlanRequest {
    /// A request with the defaults for `inventory`.
    pub fn new(inventory: Inventory) -> PlanRequest {
        PlanRequest {
            inventory,
            host_sku: default_host_sku(),
            region: None,
            level: None,
            datastores: None,
            growth_pct: 0.0,
            free_space_pct: DEFAULT_FREE_SPACE_PCT,
            term: PurchaseTerm::default(),
            unit: PlaceUnit::Vm,
            capacity_basis: CapacityBasis::InUse,
            nconnect: 1,
            max_datastores: DEFAULT_MAX_DATASTORES,
            default_iops_per_vm: None,
            default_mibps_per_vm: None,
            io_size_kib: None,
            read_pct: read_pct(),
            comfort_factor: comfort(),
            outstanding_per_vm: outstanding(),
            hosts: HostModel::default(),
            vcf: Vcf::default(),
            stretched: false,
            existing: None,
            currency: usd(),
        }
    }
}

/// Every host SKU with whether the price book prices it in `region` under
/// `licensing`: the page offers the priced ones and marks the others.
pub fn skus_in(book: &PriceBook, region: &str, licensing: Licensing) -> Vec<(&'static str, bool)> {
    hosts::HOSTS
        .iter()
        .map(|h| (h.sku, host_price(book, region, h.sku, licensing).is_some()))
        .collect()
}

/// The host-hour price of `sku` in `region`: the `VCF BYOL` rate with portable VCF,
/// the licence-included rate otherwise.
pub fn host_price<'b>(
    book: &'b PriceBook,
    region: &str,
    sku: &str,
    licensing: Licensing,
) -> Option<&'b HostPrice> {
    match licensing {
        Licensing::Portable => book.avs_byol_host(region, sku),
        Licensing::Included => book.avs_host(region, sku),
    }
}

/// A checked request's host, region and prices.
pub struct Context<'b> {
    pub spec: &'static HostSpec,
    pub region: String,
    pub region_name: String,
    /// `None` when the price book has no price for the host SKU in the region: the
    /// hosts are planned and their cost is marked missing.
    pub host_price: Option<&'b HostPrice>,
    /// Date and source of `host_price` (the licence-included or the `VCF BYOL` table).
    pub host_price_date: &'b str,
    /// The VCF licensing and its price per core.
    pub licence: LicenceTerms,
    /// The private cloud expanded: its hosts' SKU, their host-hour price under their
    /// own licensing (`None` when the book has none) and VCF per core per year.
    pub existing: Option<ExistingPrice<'b>>,
    pub book: &'b PriceBook,
}

/// What the existing hosts of an expanded private cloud cost.
pub struct ExistingPrice<'b> {
    pub spec: &'static HostSpec,
    pub licensing: Licensing,
    pub host_price: Option<&'b HostPrice>,
    /// VCF (and add-ons) per core per year: the plan's price when portable, else 0.
    pub per_core_year: f64,
}

fn range(field: &str, v: f64, lo: f64, hi: f64) -> Result<(), FieldError> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        Err(FieldError::new(
            field,
            format!(
                "must be a number from {lo} to {hi}, not {}",
                crate::format::given(v)
            ),
        ))
    }
}

impl PlanRequest {
    /// Checks every field, reporting every wrong one at once, and finds the host,
    /// region and prices.
    pub fn resolve<'b>(&self, book: &'b PriceBook) -> Result<Context<'b>, FieldErrors> {
        self.check_inventory()?;
        let mut c = Checks::default();
        c.text("host_sku", &self.host_sku, MAX_HOST_SKU_CHARS, false);
        if let Some(r) = &self.region {
            c.text("region", r, MAX_REGION_CHARS, false);
        }
        c.check(range("growth_pct", self.growth_pct, 0.0, 1000.0));
        c.check(range("free_space_pct", self.free_space_pct, 0.0, 90.0));
        c.check(range("read_pct", self.read_pct, 0.0, 100.0));
        c.check(range("comfort_factor", self.comfort_factor, 1.0, 5.0));
        if let Some(v) = self.io_size_kib {
            c.check(range("io_size_kib", v, 4.0, 1024.0));
        }
        if let Some(v) = self.default_iops_per_vm {
            c.check(range("default_iops_per_vm", v, 0.0, 1e6));
        }
        if let Some(v) = self.default_mibps_per_vm {
            c.check(range("default_mibps_per_vm", v, 0.0, 1e5));
        }
        if !matches!(self.nconnect, 1 | 4) {
            c.push(FieldError::new(
                "nconnect",
                format!("must be 1 or 4, not {}", self.nconnect),
            ));
        }
        if !(1..=1024).contains(&self.outstanding_per_vm) {
            c.push(FieldError::new(
                "outstanding_per_vm",
                "must be a whole number from 1 to 1024",
            ));
        }
        if !(1..=256).contains(&self.max_datastores) {
            c.push(FieldError::new(
                "max_datastores",
                "must be a whole number from 1 to 256",
            ));
        }
        if let Some(n) = self.datastores {
            c.range_u("datastores", n, 1, 4096);
        }
        if let Some(l) = self.level
            && !matches!(
                l,
                Level::Standard | Level::Premium | Level::Ultra | Level::Flexible
            )
        {
            c.push(FieldError::new(
                "level",
                format!(
                    "AVS datastores are planned at standard, premium, ultra or flexible, not {}",
                    l.key()
                ),
            ));
        }
        self.vcf.check(&mut c, "vcf", &self.currency);
        if let Some(e) = &self.existing {
            e.check(&mut c, self.stretched);
            if e.licensing == Licensing::Portable
                && self.vcf.licensing == Licensing::Included
                && !c.has("vcf.price_per_core_year")
            {
                // The existing portable hosts take the plan's VCF price per core.
                let portable = Vcf {
                    licensing: Licensing::Portable,
                    add_ons: Vec::new(),
                    ..self.vcf.clone()
                };
                portable.check(&mut c, "vcf", &self.currency);
            }
        }
        if let Err((f, m)) = self.hosts.validate() {
            c.push(FieldError::new(format!("hosts.{f}"), m));
        }
        let spec = hosts::spec(&self.host_sku);
        if spec.is_none() && !c.has("host_sku") {
            c.push(FieldError::new(
                "host_sku",
                format!(
                    "`{}` is not an AVS host SKU; use one of {}.{}",
                    clip(&self.host_sku),
                    hosts::HOSTS.map(|h| h.sku).join(", "),
                    did_you_mean(&closest(&self.host_sku, hosts::HOSTS.map(|h| h.sku)))
                ),
            ));
        }
        let region = match self.region.as_deref().map(str::trim) {
            None | Some("") => book.reference_region(Service::Anf).to_owned(),
            Some(r) => r.to_ascii_lowercase(),
        };
        let anf = book.anf(&region);
        if anf.is_none() && !c.has("region") {
            c.push(FieldError::new(
                "region",
                format!(
                    "`{}` is not a region the price book prices Azure NetApp Files in.{} Choose one from the region list.",
                    clip(&region),
                    did_you_mean(&closest(&region, book.anf.keys().map(String::as_str)))
                ),
            ));
        }
        c.finish()?;
        let (Some(spec), Some((_, anf))) = (spec, anf) else {
            unreachable!("a missing host or region is a recorded error");
        };
        let licensing = self.vcf.licensing;
        let host_price = host_price(book, &region, spec.sku, licensing);
        let region_name = book
            .avs
            .get(&region)
            .map_or_else(|| anf.name.clone(), |r| r.name.clone());
        let existing = self.existing.as_ref().map(|e| {
            let spec = e.spec(spec);
            ExistingPrice {
                spec,
                licensing: e.licensing,
                host_price: self::host_price(book, &region, spec.sku, e.licensing),
                per_core_year: Vcf {
                    licensing: e.licensing,
                    ..self.vcf.clone()
                }
                .per_core_year(),
            }
        });
        Ok(Context {
            spec,
            region,
            region_name,
            host_price,
            host_price_date: match licensing {
                Licensing::Portable => &book.avs_byol_date,
                Licensing::Included => &book.avs_date,
            },
            licence: self.vcf.terms(book.currency),
            existing,
            book,
        })
    }

    /// The inventory's VMs: at least one, at most [`MAX_VMS`], names short
    /// ([`Inventory::check_text`](crate::inventory::Inventory::check_text)) and unique,
    /// at most [`MAX_DISKS_PER_VM`] disks each, and every figure within its range
    /// ([`inventory::plausible::check`](crate::inventory::plausible::check)), every one out
    /// of it named.
    fn check_inventory(&self) -> Result<(), FieldErrors> {
        let vms = &self.inventory.vms;
        if vms.is_empty() {
            return Err(FieldError::new(
                "inventory.vms",
                "the inventory has no VMs to place; import an inventory first",
            )
            .into());
        }
        if vms.len() > MAX_VMS {
            return Err(FieldError::new(
                "inventory.vms",
                format!("at most {MAX_VMS} VMs, not {}", vms.len()),
            )
            .into());
        }
        self.inventory.check_text()?;
        let mut names = std::collections::HashSet::with_capacity(vms.len());
        for (i, v) in vms.iter().enumerate() {
            let f = |name: &str| format!("inventory.vms[{i}].{name}");
            if !names.insert(v.vm.as_str()) {
                return Err(FieldError::new(
                    f("vm"),
                    format!("`{}` occurs twice; VM names must be unique", clip(&v.vm)),
                )
                .into());
            }
            if v.disks.len() > MAX_DISKS_PER_VM {
                return Err(FieldError::new(
                    f("disks"),
                    format!("at most {MAX_DISKS_PER_VM} disks per VM"),
                )
                .into());
            }
        }
        crate::inventory::plausible::check(&self.inventory)
    }
}

/// A name shortened for a message.
fn clip(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).take(60).collect()
}
