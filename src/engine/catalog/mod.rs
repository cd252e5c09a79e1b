//! Service catalogs, VM sizes, AVS hosts, prices and fitted model parameters.
//!
//! The data lives in JSON files beside this module (compiled into the binary with
//! `include_str!`), every entry with its source, so an architect can read and check it.

use crate::engine::model::Params;
use crate::engine::scenario::Level;
use crate::engine::source::{SourceEntry, SourceKind};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

/// Raw JSON of the service catalog (levels, formulas' constants, prices).
pub const SERVICES_JSON: &str = include_str!("services.json");
/// Raw JSON of the VM sizes.
pub const VM_SIZES_JSON: &str = include_str!("vm_sizes.json");
/// Raw JSON of the fitted model parameters and the points they were fitted to.
pub const MODEL_JSON: &str = include_str!("model.json");

/// Everything the engine knows, parsed once.
#[derive(Debug, Deserialize)]
pub struct Catalog {
    pub services: Services,
    pub vm_sizes: Vec<VmSize>,
    /// Positions in `vm_sizes` by lower-case name.
    #[serde(skip)]
    vm_index: HashMap<String, usize>,
    pub model: Model,
}

static CATALOG: LazyLock<Catalog> = LazyLock::new(|| {
    #[derive(Deserialize)]
    struct Vms {
        vm_sizes: Vec<VmSize>,
    }
    let vms: Vms = serde_json::from_str(VM_SIZES_JSON).expect("vm_sizes.json is valid");
    let vm_index = vms
        .vm_sizes
        .iter()
        .map(|v| v.name.to_ascii_lowercase())
        .zip(0..)
        .collect();
    Catalog {
        services: serde_json::from_str(SERVICES_JSON).expect("services.json is valid"),
        vm_sizes: vms.vm_sizes,
        vm_index,
        model: serde_json::from_str(MODEL_JSON).expect("model.json is valid"),
    }
});

/// The catalog, parsed on first use.
pub fn catalog() -> &'static Catalog {
    &CATALOG
}

/// The catalog version (the date of its last review).
pub fn version() -> &'static str {
    &catalog().services.version
}

/// The catalog entry of an ANF level.
pub fn anf_level(l: Level) -> &'static AnfLevel {
    let levels = &catalog().services.anf.levels;
    match l {
        Level::Standard => &levels.standard,
        Level::Premium => &levels.premium,
        Level::Flexible => &levels.flexible,
        _ => &levels.ultra,
    }
}

/// Every VM size of the catalog (Azure and GCE).
pub fn vm_sizes() -> &'static [VmSize] {
    &catalog().vm_sizes
}

/// A VM size by name: Azure names match case-insensitively with `Standard_` optional.
pub fn vm_size(name: &str) -> Option<&'static VmSize> {
    let lower = name.trim().to_ascii_lowercase();
    let bare = lower.strip_prefix("standard_").unwrap_or(&lower);
    let c = catalog();
    c.vm_index.get(bare).map(|&i| &c.vm_sizes[i])
}

/// An AVS host SKU by name (case-insensitive).
pub fn avs_host(sku: &str) -> Option<&'static AvsHost> {
    let sku = sku.trim();
    catalog()
        .services
        .avs_hosts
        .iter()
        .find(|h| h.sku.eq_ignore_ascii_case(sku))
}

/// A VM size with its network limit.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VmSize {
    /// Azure size without `Standard_`, or the GCE machine type.
    pub name: String,
    /// `azure` or `gce`.
    pub cloud: String,
    pub vcpu: u32,
    /// Expected network bandwidth (egress) in Mbps as published.
    pub egress_mbps: f64,
    /// GCE Tier_1 egress in Mbps, where offered.
    #[serde(default)]
    pub tier1_egress_mbps: Option<f64>,
    /// Physical NIC line rate in Gbps where documented (reads are bound by it).
    #[serde(default)]
    pub nic_gbps: Option<f64>,
    pub source: SourceEntry,
    #[serde(default)]
    pub note: Option<String>,
}

impl VmSize {
    /// The name as the vendor writes it (`Standard_E32s_v5`, `n2-standard-32`).
    pub fn display_name(&self) -> String {
        if self.cloud == "azure" {
            format!("Standard_{}", self.name)
        } else {
            self.name.clone()
        }
    }
}

/// All services.
#[derive(Debug, Deserialize)]
pub struct Services {
    pub version: String,
    pub anf: Anf,
    pub azure_files: AzureFiles,
    pub gcnv: Gcnv,
    pub avs_hosts: Vec<AvsHost>,
}

/// Azure NetApp Files.
#[derive(Debug, Deserialize)]
pub struct Anf {
    pub levels: AnfLevels,
    pub flexible: AnfFlexible,
    pub pool: Range,
    pub regular_volume: Range,
    pub large_volume: Range,
    pub manual_qos: MibpsRange,
    pub breakthrough_volume: Range,
    pub breakthrough: Breakthrough,
    pub cool_tier: CoolTier,
    pub hours_per_month: f64,
    pub price_date: String,
}

/// ANF levels.
#[derive(Debug, Deserialize)]
pub struct AnfLevels {
    pub standard: AnfLevel,
    pub premium: AnfLevel,
    pub ultra: AnfLevel,
    pub flexible: AnfLevel,
}

/// One ANF service level.
#[derive(Debug, Deserialize)]
pub struct AnfLevel {
    pub mibps_per_tib: f64,
    pub regular_max_mibps: f64,
    pub large_max_mibps: f64,
    pub usd_per_gib_hour: Option<f64>,
    /// Source of the per-TiB rate.
    pub source: SourceEntry,
    /// Source of the volume maximums.
    pub cap_source: SourceEntry,
    /// Source of the price.
    pub price_source: String,
}

/// ANF Flexible pool throughput rules and derived prices.
#[derive(Debug, Deserialize)]
pub struct AnfFlexible {
    pub pool_min_mibps: f64,
    pub pool_max_mibps_per_tib: f64,
    pub usd_per_gib_month: f64,
    pub usd_per_mibps_month: f64,
    pub source: SourceEntry,
}

/// A size range in TiB.
#[derive(Debug, Deserialize)]
pub struct Range {
    pub min_tib: f64,
    #[serde(default)]
    pub step_tib: Option<f64>,
    pub max_tib: f64,
    pub source: SourceEntry,
}

/// A throughput range in MiB/s.
#[derive(Debug, Deserialize)]
pub struct MibpsRange {
    pub min_mibps: f64,
    pub max_mibps: f64,
    pub source: SourceEntry,
}

/// ANF cool-tier prices.
#[derive(Debug, Deserialize)]
pub struct CoolTier {
    pub usd_per_gib_month: f64,
    pub retrieval_usd_per_gib: f64,
    pub source: SourceEntry,
}

/// Breakthrough mode: the most throughput one volume may be assigned. What its back
/// end serves is fitted (`model.json`), not a catalog figure.
#[derive(Debug, Deserialize)]
pub struct Breakthrough {
    /// Documented ceiling ("throughput up to 900,000 MiB/s"), MiB/s.
    pub max_mibps: f64,
    pub source: SourceEntry,
}

/// Azure Files.
#[derive(Debug, Deserialize)]
pub struct AzureFiles {
    pub ssd_v1: FilesV1,
    pub ssd_v2: FilesV2,
    pub hdd_v2: FilesV2,
    pub hdd_payg: FilesPayg,
    pub per_file: PerFile,
    pub metadata_iops: MetadataIops,
    pub handles_per_file: u32,
    pub handles_preview: u32,
    pub smb: Smb,
    pub hours_per_month: f64,
    pub price_date: String,
}

/// SSD provisioned v1.
#[derive(Debug, Deserialize)]
pub struct FilesV1 {
    pub min_gib: f64,
    pub max_gib: f64,
    pub usd_per_gib_month: Option<f64>,
    pub price_source: String,
    pub source: SourceEntry,
}

/// Provisioned v2 (SSD or HDD).
#[derive(Debug, Deserialize)]
pub struct FilesV2 {
    pub min_gib: f64,
    pub max_gib: f64,
    pub min_iops: f64,
    pub max_iops: f64,
    pub min_mibps: f64,
    pub max_mibps: f64,
    pub source: SourceEntry,
}

/// HDD pay-as-you-go.
#[derive(Debug, Deserialize)]
pub struct FilesPayg {
    pub max_gib: f64,
    pub share_iops: f64,
    pub account_ingress_mibps: f64,
    pub account_egress_mibps: f64,
    pub source: SourceEntry,
}

/// Per-file limits.
#[derive(Debug, Deserialize)]
pub struct PerFile {
    pub ssd_iops: f64,
    pub ssd_mibps: f64,
    pub hdd_iops: f64,
    pub hdd_mibps: f64,
    pub source: SourceEntry,
}

/// Metadata IOPS per share.
#[derive(Debug, Deserialize)]
pub struct MetadataIops {
    pub smb_cached_or_nfs: f64,
    pub smb_uncached: f64,
    pub hdd: f64,
    pub caching_gain: f64,
    pub source: SourceEntry,
}

/// SMB multichannel rules.
#[derive(Debug, Deserialize)]
pub struct Smb {
    pub max_channels: u32,
    pub small_io_kib: f64,
    pub single_thread_factor: f64,
    pub source: SourceEntry,
}

/// Google Cloud NetApp Volumes.
#[derive(Debug, Deserialize)]
pub struct Gcnv {
    pub levels: GcnvLevels,
    pub source: SourceEntry,
    pub regular_max_mibps: f64,
    pub large_max_mibps: f64,
    pub cap_source: SourceEntry,
    pub volume: GcnvVolume,
    pub flex: GcnvFlex,
    pub latency_ms: f64,
    pub latency_source: SourceEntry,
    /// Large sequential writes as a share of large sequential reads (Google's one
    /// published write figure), with its source.
    pub seq_write_share: f64,
    pub seq_write_source: SourceEntry,
    pub hours_per_month: f64,
    pub price_date: String,
}

/// GCNV levels.
#[derive(Debug, Deserialize)]
pub struct GcnvLevels {
    pub standard: GcnvLevel,
    pub premium: GcnvLevel,
    pub extreme: GcnvLevel,
    pub flex: GcnvLevel,
}

/// One GCNV level.
#[derive(Debug, Deserialize)]
pub struct GcnvLevel {
    pub mibps_per_tib: f64,
    pub usd_per_gib_hour: Option<f64>,
    pub price_source: String,
}

/// GCNV volume sizes.
#[derive(Debug, Deserialize)]
pub struct GcnvVolume {
    pub min_tib: f64,
    pub max_tib: f64,
    pub large_min_tib: f64,
    pub large_max_tib: f64,
    pub flex_min_tib: f64,
    pub flex_max_tib: f64,
}

/// GCNV Flex custom performance.
#[derive(Debug, Deserialize)]
pub struct GcnvFlex {
    pub default_mibps: f64,
    pub default_iops: f64,
    pub iops_per_mibps: f64,
    pub max_mibps: f64,
    pub max_iops: f64,
    pub file_mibps_per_tib: f64,
    pub source: SourceEntry,
}

/// An AVS host SKU.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AvsHost {
    pub sku: String,
    /// NICs for customer traffic.
    pub nics: u32,
    pub nic_gbps: f64,
    pub source: SourceEntry,
    #[serde(default)]
    pub unconfirmed: bool,
}

/// The performance model's parameters: the jointly fitted vector and the documented
/// constants beside it.
#[derive(Debug, Deserialize)]
pub struct Model {
    /// Written by `volplan calibrate` (see `model::params` for each one's meaning).
    pub params: Params,
    pub slots: Slots,
    pub assumptions: Assumptions,
    /// What the published tests say about each ANF volume kind's back end.
    pub storage_evidence: StorageEvidence,
    /// The widths of the likely ranges (written by `volplan calibrate`).
    pub ranges: Ranges,
}

/// The 80 % intervals of predictions: per class of binding resource, the log error
/// that 80 % of the withheld published points of that class stay within
/// (leave-one-document-out), how often the intervals held, and the inputs the
/// published series covered.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Ranges {
    pub about: String,
    /// How far (log factor, 80 % either side) a parameter that rests on an assumption
    /// may be off; each assumed ceiling near the rate widens a range by it.
    pub assumption_log_width: f64,
    /// Per class key (`engine::range::Basis`).
    pub classes: BTreeMap<String, Width>,
    /// Every withheld point, for a class without enough of its own.
    pub pooled: Width,
    /// Latency predictions.
    pub latency: Width,
    /// Share of the document-withheld points inside the interval the other documents
    /// set.
    pub coverage: Coverage,
    /// The inputs the published series cover; a prediction outside them is widened.
    #[serde(default)]
    pub envelope: Envelope,
}

/// The inputs the published series cover (`engine::range::outside` checks a plan
/// against them).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// Service keys with at least one series.
    pub services: Vec<String>,
    /// Client VM sizes (catalog names) of the series.
    pub vm_sizes: Vec<String>,
    /// Smallest and largest IO size, KiB.
    pub io_kib: [f64; 2],
    /// Smallest and largest IOs in flight per client (threads x queue depth).
    pub in_flight: [f64; 2],
}

/// One class's width.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Width {
    /// ln(high / central) = ln(central / low).
    pub log_width: f64,
    /// Withheld points behind it.
    pub points: u32,
}

/// How many withheld points lay inside their interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    pub inside: u32,
    pub points: u32,
}

impl Ranges {
    /// The width of class `key`, the pooled one when the class has none.
    pub fn width(&self, key: &str) -> Width {
        self.classes.get(key).copied().unwrap_or(self.pooled)
    }
}

/// For each ANF volume kind, whether its back end's read and write times are fitted
/// to figures the back end set, or only bounded below by tests their clients held.
#[derive(Debug, Deserialize)]
pub struct StorageEvidence {
    pub regular: Evidence,
    pub large: Evidence,
    pub breakthrough: Evidence,
    pub source: String,
}

/// What a back end's read and write times rest on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evidence {
    pub read: SourceKind,
    pub write: SourceKind,
}

impl Evidence {
    /// Both directions fitted.
    pub const FITTED: Evidence = Evidence {
        read: SourceKind::Fitted,
        write: SourceKind::Fitted,
    };

    /// The kind of a ceiling at read fraction `r`: a lower bound when a direction the
    /// workload uses rests only on lower bounds.
    pub fn at(&self, r: f64) -> SourceKind {
        let lower = |k: SourceKind, used: bool| used && k == SourceKind::LowerBound;
        if lower(self.read, r > 0.0) || lower(self.write, r < 1.0) {
            SourceKind::LowerBound
        } else {
            SourceKind::Fitted
        }
    }
}

/// Model constants that no published series fixes, each an explicit assumption.
#[derive(Debug, Deserialize)]
pub struct Assumptions {
    /// Round trip of an Azure Files HDD share, ms.
    pub files_hdd_delay_ms: f64,
    /// Line rate one AVS datastore flow can use, Gbps (one TCP flow on a 25 GbE port).
    pub avs_flow_nic_gbps: f64,
    /// State operations (OPEN, CLOSE, LOCK, lease renewal) an NFSv4.1 client sends per
    /// operation of a metadata-heavy mix, on top of what NFSv3 sends.
    pub nfsv41_state_ops_per_meta_op: f64,
    pub source: String,
}

/// Per-operation time `a + b x KiB`, in microseconds.
#[derive(Debug, Clone, Copy)]
pub struct OpTime {
    pub a_us: f64,
    pub b_us_per_kib: f64,
}

impl OpTime {
    /// A time per op of `a_us` plus `b_us_per_kib` per KiB.
    pub fn new(a_us: f64, b_us_per_kib: f64) -> Self {
        Self { a_us, b_us_per_kib }
    }

    /// Operations per second at IO size `kib`.
    pub fn iops(&self, kib: f64) -> f64 {
        1e6 / self.us(kib)
    }

    /// Microseconds per IO of `kib` KiB.
    pub fn us(&self, kib: f64) -> f64 {
        self.a_us + self.b_us_per_kib * kib
    }
}

/// Universal Scalability Law parameters.
#[derive(Debug, Clone, Copy)]
pub struct Usl {
    pub sigma: f64,
    pub kappa: f64,
}

impl Usl {
    /// Contention only (no coherency term).
    pub fn contention(sigma: f64) -> Self {
        Self { sigma, kappa: 0.0 }
    }
}

/// NFS slot limits.
#[derive(Debug, Deserialize)]
pub struct Slots {
    pub nfsv3_per_connection: f64,
    pub nfsv41_session_default: f64,
    pub nfsv41_session_max: f64,
    pub source: SourceEntry,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_parses_and_covers_section_5() {
        let c = catalog();
        assert!(c.vm_sizes.len() >= 100);
        assert_eq!(vm_size("Standard_E32s_v5").unwrap().egress_mbps, 16000.0);
        assert_eq!(vm_size("e104id_v5").unwrap().egress_mbps, 100000.0);
        assert_eq!(vm_size("n2-standard-32").unwrap().egress_mbps, 32000.0);
        assert!(vm_size("Standard_Z9").is_none());
        assert_eq!(avs_host("av36").unwrap().nics, 2);
    }
}
