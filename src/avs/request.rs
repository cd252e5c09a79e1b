//! The plan request (contract: the body of `POST /api/v1/avs/plan`) and its checks.

use super::DEFAULT_MAX_DATASTORES;
use super::hosts::{self, HostModel, HostSpec};
use crate::engine::pricing::{HostPrice, PriceBook};
use crate::engine::scenario::{FieldError, Level};
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

/// A plan request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanRequest {
    /// The answer of `POST /api/v1/avs/inventory`.
    pub inventory: Inventory,
    #[serde(default = "av36")]
    #[schema(max_length = 32)]
    pub host_sku: String,
    /// Azure `armRegionName`; null = the first region that prices the host SKU.
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
    /// IOs each VM keeps in flight.
    #[serde(default = "outstanding")]
    #[schema(minimum = 1, maximum = 1024)]
    pub outstanding_per_vm: u32,
    /// Host sizing constants.
    #[serde(default)]
    pub hosts: HostModel,
}

fn av36() -> String {
    "AV36".to_owned()
}
fn one() -> u32 {
    1
}
fn max_datastores() -> u32 {
    DEFAULT_MAX_DATASTORES
}
fn read_pct() -> f64 {
    70.0
}
fn outstanding() -> u32 {
    8
}

impl PlanRequest {
    /// A request with the defaults for `inventory`.
    pub fn new(inventory: Inventory) -> PlanRequest {
        PlanRequest {
            inventory,
            host_sku: av36(),
            region: None,
            level: None,
            datastores: None,
            growth_pct: 0.0,
            unit: PlaceUnit::Vm,
            capacity_basis: CapacityBasis::InUse,
            nconnect: 1,
            max_datastores: DEFAULT_MAX_DATASTORES,
            default_iops_per_vm: None,
            default_mibps_per_vm: None,
            io_size_kib: None,
            read_pct: read_pct(),
            outstanding_per_vm: outstanding(),
            hosts: HostModel::default(),
        }
    }
}

/// A checked request's host, region and prices.
pub struct Context<'b> {
    pub spec: &'static HostSpec,
    pub region: String,
    pub region_name: String,
    pub host_price: &'b HostPrice,
    pub book: &'b PriceBook,
}

fn range(field: &str, v: f64, lo: f64, hi: f64) -> Result<(), FieldError> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        Err(FieldError::new(
            field,
            format!("must be a number from {lo} to {hi}, not {v}"),
        ))
    }
}

impl PlanRequest {
    /// Checks every field and finds the host, region and prices.
    pub fn resolve<'b>(&self, book: &'b PriceBook) -> Result<Context<'b>, FieldError> {
        self.check_inventory()?;
        crate::engine::field_error::text("host_sku", &self.host_sku, MAX_HOST_SKU_CHARS, false)?;
        if let Some(r) = &self.region {
            crate::engine::field_error::text("region", r, MAX_REGION_CHARS, false)?;
        }
        range("growth_pct", self.growth_pct, 0.0, 1000.0)?;
        range("read_pct", self.read_pct, 0.0, 100.0)?;
        if let Some(v) = self.io_size_kib {
            range("io_size_kib", v, 4.0, 1024.0)?;
        }
        if let Some(v) = self.default_iops_per_vm {
            range("default_iops_per_vm", v, 0.0, 1e6)?;
        }
        if let Some(v) = self.default_mibps_per_vm {
            range("default_mibps_per_vm", v, 0.0, 1e5)?;
        }
        if !matches!(self.nconnect, 1 | 4) {
            return Err(FieldError::new(
                "nconnect",
                format!("must be 1 or 4, not {}", self.nconnect),
            ));
        }
        if !(1..=1024).contains(&self.outstanding_per_vm) {
            return Err(FieldError::new(
                "outstanding_per_vm",
                "must be a whole number from 1 to 1024",
            ));
        }
        if !(1..=256).contains(&self.max_datastores) {
            return Err(FieldError::new(
                "max_datastores",
                "must be a whole number from 1 to 256",
            ));
        }
        if let Some(n) = self.datastores
            && !(1..=4096).contains(&n)
        {
            return Err(FieldError::new(
                "datastores",
                format!("must be a whole number from 1 to 4096, not {n}"),
            ));
        }
        if let Some(l) = self.level
            && !matches!(
                l,
                Level::Standard | Level::Premium | Level::Ultra | Level::Flexible
            )
        {
            return Err(FieldError::new(
                "level",
                format!(
                    "AVS datastores are planned at standard, premium, ultra or flexible, not {}",
                    l.key()
                ),
            ));
        }
        self.hosts
            .validate()
            .map_err(|(f, m)| FieldError::new(format!("hosts.{f}"), m))?;
        let spec = hosts::spec(&self.host_sku).ok_or_else(|| {
            FieldError::new(
                "host_sku",
                format!(
                    "`{}` is not an AVS host SKU; use one of {}",
                    clip(&self.host_sku),
                    hosts::HOSTS.map(|h| h.sku).join(", ")
                ),
            )
        })?;
        let priced: Vec<&str> = book
            .avs
            .iter()
            .filter(|(r, p)| p.hosts.contains_key(spec.sku) && book.anf(r).is_some())
            .map(|(r, _)| r.as_str())
            .collect();
        let region = match self.region.as_deref().map(str::trim) {
            None | Some("") => priced.first().map(|r| (*r).to_owned()).ok_or_else(|| {
                FieldError::new(
                    "host_sku",
                    format!("{} has no public price in any region", spec.sku),
                )
            })?,
            Some(r) => r.to_ascii_lowercase(),
        };
        let host_price = book.avs_host(&region, spec.sku).ok_or_else(|| {
            FieldError::new(
                "region",
                format!(
                    "{} has no price in `{}`; regions that price it: {}",
                    spec.sku,
                    clip(&region),
                    if priced.is_empty() {
                        "none".to_owned()
                    } else {
                        priced.join(", ")
                    }
                ),
            )
        })?;
        let Some((_, anf)) = book.anf(&region) else {
            return Err(FieldError::new(
                "region",
                format!("`{}` has no ANF prices", clip(&region)),
            ));
        };
        let region_name = book
            .avs
            .get(&region)
            .map_or_else(|| anf.name.clone(), |r| r.name.clone());
        Ok(Context {
            spec,
            region,
            region_name,
            host_price,
            book,
        })
    }

    /// The inventory's VMs: at least one, at most [`MAX_VMS`], figures finite and not
    /// negative, names short ([`Inventory::check_text`](crate::inventory::Inventory::check_text)) and unique.
    fn check_inventory(&self) -> Result<(), FieldError> {
        let vms = &self.inventory.vms;
        if vms.is_empty() {
            return Err(FieldError::new(
                "inventory.vms",
                "the inventory has no VMs to place; import one with POST /api/v1/avs/inventory",
            ));
        }
        if vms.len() > MAX_VMS {
            return Err(FieldError::new(
                "inventory.vms",
                format!("at most {MAX_VMS} VMs, not {}", vms.len()),
            ));
        }
        self.inventory.check_text()?;
        let mut names = std::collections::HashSet::with_capacity(vms.len());
        for (i, v) in vms.iter().enumerate() {
            let f = |name: &str| format!("inventory.vms[{i}].{name}");
            if !names.insert(v.vm.as_str()) {
                return Err(FieldError::new(
                    f("vm"),
                    format!("`{}` occurs twice; VM names must be unique", clip(&v.vm)),
                ));
            }
            range(&f("memory_mib"), v.memory_mib, 0.0, 64.0 * 1024.0 * 1024.0)?;
            range(&f("provisioned_mib"), v.provisioned_mib, 0.0, 1e10)?;
            range(&f("in_use_mib"), v.in_use_mib, 0.0, 1e10)?;
            if v.vcpus > 4096 {
                return Err(FieldError::new(f("vcpus"), "at most 4096"));
            }
            if let Some(x) = v.iops {
                range(&f("iops"), x, 0.0, 1e7)?;
            }
            if let Some(x) = v.mibps {
                range(&f("mibps"), x, 0.0, 1e6)?;
            }
            if let Some(x) = v.guest_used_mib {
                range(&f("guest_used_mib"), x, 0.0, 1e10)?;
            }
            if v.disks.len() > MAX_DISKS_PER_VM {
                return Err(FieldError::new(
                    f("disks"),
                    format!("at most {MAX_DISKS_PER_VM} disks per VM"),
                ));
            }
            for (k, d) in v.disks.iter().enumerate() {
                range(
                    &f(&format!("disks[{k}].capacity_mib")),
                    d.capacity_mib,
                    0.0,
                    1e10,
                )?;
            }
        }
        Ok(())
    }
}

/// A name shortened for a message.
fn clip(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).take(60).collect()
}
