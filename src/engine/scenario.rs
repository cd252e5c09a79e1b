//! The Scenario JSON of the contract.
//!
//! Deserialisation rejects unknown fields (typos are caught); [`Scenario::validate`]
//! (in `validate`) checks every range the contract states and names each field that is
//! wrong.

pub use super::field_error::FieldError;
use serde::{Deserialize, Serialize};

/// One sizing question: a workload, the storage that serves it, and the clients.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Store id, present when the scenario comes from the database; ignored by the engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// At most 200 characters of any script, without control characters or Unicode
    /// noncharacters.
    #[serde(default = "default_name")]
    #[schema(max_length = 200, default = "Untitled scenario")]
    pub name: String,
    pub workload: Workload,
    pub storage: Storage,
    pub clients: Clients,
    /// Azure `armRegionName` or GCP region; null = the price book's reference region.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 40)]
    pub region: Option<String>,
    /// Currency, discount and reservation of the cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pricing: Option<Pricing>,
    /// Snapshots, backup and cross-region replication (ANF).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_protection: Option<DataProtection>,
    /// Customer, project, author and notes, printed on reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<super::meta::Meta>,
}

impl Scenario {
    /// Reads a scenario saved before two rules with the meaning it was saved with
    /// (resolved on read: the store, share links and the calibration series call it).
    ///
    /// - A Flexible pool was accepted with auto QoS, which the engine always treated as
    ///   manual (assigned throughput, bounded by the pool): it becomes manual.
    /// - A capacity of 0 TiB meant "what the volumes hold" (reverse sizing sized for
    ///   the total quota): it becomes the total quota, so the capacity target is met
    ///   exactly as before.
    pub fn upgrade(&mut self) {
        if self.storage.service == Service::Anf && self.storage.level == Level::Flexible {
            self.storage.qos = Qos::Manual;
        }
        if self.workload.capacity_tib == 0.0 {
            self.workload.capacity_tib = self.storage.total_quota_tib();
        }
    }
}

impl Storage {
    /// How many volumes there are (at least 1, for shares of a total).
    pub fn volume_count(&self) -> u32 {
        self.volumes.iter().map(|g| g.count).sum::<u32>().max(1)
    }

    /// Sum of the volumes' quotas, TiB.
    pub fn total_quota_tib(&self) -> f64 {
        self.volumes
            .iter()
            .map(|g| f64::from(g.count) * g.quota_tib)
            .sum()
    }

    /// Switches to `level`, with manual QoS for ANF Flexible (its pools have no auto
    /// QoS): what every sweep and form that changes the level uses.
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
        if self.service == Service::Anf && level == Level::Flexible {
            self.qos = Qos::Manual;
        }
    }
}

/// Snapshot reserve, backup and replication (contract: `data_protection`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DataProtection {
    /// Share of each volume's quota held for snapshots, %.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100)]
    pub snapshot_reserve_pct: f64,
    /// Share of the data that changes per day, %.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100)]
    pub daily_change_pct: f64,
    #[serde(default)]
    pub backup: Option<BackupPolicy>,
    #[serde(default)]
    pub replication: Replication,
    #[serde(default)]
    #[schema(max_length = 40)]
    pub replication_region: Option<String>,
}

/// Backups kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BackupPolicy {
    #[serde(default)]
    #[schema(maximum = 1019)]
    pub daily: u32,
    #[serde(default)]
    #[schema(maximum = 1019)]
    pub weekly: u32,
    #[serde(default)]
    #[schema(maximum = 1019)]
    pub monthly: u32,
}

/// Cross-region replication schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
pub enum Replication {
    #[default]
    #[serde(rename = "none")]
    None,
    #[serde(rename = "10min")]
    TenMinutes,
    #[serde(rename = "hourly")]
    Hourly,
    #[serde(rename = "daily")]
    Daily,
}

/// How the list prices are adjusted (contract: `pricing`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Pricing {
    /// `USD`, the currency of the price book.
    #[serde(default = "usd")]
    #[schema(max_length = 3)]
    pub currency: String,
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100)]
    pub discount_pct: f64,
    #[serde(default)]
    pub reservation: Term,
}

fn usd() -> String {
    "USD".to_owned()
}

/// A reservation term.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
pub enum Term {
    #[default]
    #[serde(rename = "none")]
    None,
    #[serde(rename = "1y")]
    OneYear,
    #[serde(rename = "3y")]
    ThreeYears,
}

impl Term {
    /// The JSON name.
    pub fn key(self) -> &'static str {
        match self {
            Term::None => "none",
            Term::OneYear => "1y",
            Term::ThreeYears => "3y",
        }
    }
}

fn default_name() -> String {
    "Untitled scenario".to_owned()
}

/// What the application does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    #[schema(minimum = 0.5, maximum = 16384)]
    pub io_size_kib: f64,
    #[schema(minimum = 0, maximum = 100)]
    pub read_pct: f64,
    #[serde(default)]
    pub access: Access,
    /// Threads per client.
    #[serde(default = "one")]
    #[schema(minimum = 1, maximum = 1024, default = 1)]
    pub threads: u32,
    /// Outstanding IOs per thread.
    #[serde(default = "one")]
    #[schema(minimum = 1, maximum = 1024, default = 1)]
    pub queue_depth: u32,
    #[serde(default)]
    pub files: Files,
    #[serde(default)]
    pub metadata_heavy: bool,
    /// Share of reads the storage serves from its cache, %: data read again while it is
    /// still hot (a working set that fits the cache, a benchmark re-reading its file).
    /// 0 (the default) plans every read from the media, as the published tests without
    /// cache measured.
    #[serde(default, skip_serializing_if = "is_default")]
    #[schema(minimum = 0, maximum = 100, default = 0)]
    pub cached_read_pct: f64,
    #[schema(minimum = 0, maximum = 1000000)]
    pub capacity_tib: f64,
    #[serde(default)]
    #[schema(minimum = 0.001, maximum = 10000000)]
    pub target_mibps: Option<f64>,
    #[serde(default)]
    #[schema(minimum = 0.001, maximum = 1000000000)]
    pub target_iops: Option<f64>,
    /// Mean latency per IO the workload needs at its target rate, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0.001, maximum = 100000)]
    pub target_latency_ms: Option<f64>,
    /// How long the load lasts, seconds; null (the default) is a sustained load. Shares
    /// with burst credits (Azure Files provisioned SSD and HDD v2) predict their burst
    /// or baseline IOPS from it; with null the likely range spans both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 1000000000)]
    pub duration_s: Option<f64>,
    /// What the targets and reverse sizing aim for: the central estimate (default), or
    /// the low end of the likely range (`p90`: met with about 90 % confidence).
    #[serde(default, skip_serializing_if = "is_default")]
    pub confidence: Assurance,
}

/// How sure a plan must be of meeting its targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Assurance {
    /// The central estimate meets the targets.
    #[default]
    Central,
    /// The low end of the likely range (an 80 % interval: 10 % of outcomes fall below
    /// it) meets them, so they are met with about 90 % confidence.
    P90,
}

impl Assurance {
    /// The JSON name.
    pub fn key(self) -> &'static str {
        match self {
            Assurance::Central => "central",
            Assurance::P90 => "p90",
        }
    }
}

fn one() -> u32 {
    1
}

/// Sequential or random access.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    #[default]
    Sequential,
    Random,
}

/// Whether the IO spreads over many files or hits one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Files {
    #[default]
    Many,
    One,
}

/// The storage service, level and volumes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Storage {
    pub service: Service,
    pub level: Level,
    #[serde(default)]
    pub qos: Qos,
    #[serde(default)]
    pub volume_kind: VolumeKind,
    /// True when the number of volumes (datastores, shares) is the user's to keep:
    /// reverse sizing then sizes only that many. False (the default): the capacity and
    /// the load are the requirement, and sizing also tries other counts (within the
    /// per-volume quota and throughput limits and the AVS datastore limit). Either way
    /// it also tries the other volume kind where the service sells one (ANF and NetApp
    /// Volumes large volumes). The scenario's own figures do not depend on it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fixed_count: bool,
    #[schema(min_items = 1, max_items = 1024)]
    pub volumes: Vec<VolumeGroup>,
    #[serde(default)]
    #[schema(minimum = 1, maximum = 16384)]
    pub pool_tib: Option<f64>,
    /// ANF cool access: the share of data in the cool tier and of reads served from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cool_access: Option<CoolAccess>,
}

/// ANF cool access (contract: `storage.cool_access`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CoolAccess {
    /// Share of the data that sits in the cool tier (capacity and cost), %.
    #[schema(minimum = 0, maximum = 100)]
    pub cool_data_pct: f64,
    /// Share of the reads served from the cool tier (performance), %.
    #[schema(minimum = 0, maximum = 100)]
    pub cool_read_pct: f64,
    /// Cool data read back (retrieved) each month, % of the cool data (over 100 when it
    /// is read more than once); priced as the cool tier's retrieval. Without it the
    /// monthly cost leaves retrieval out and the advice gives its price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 1000)]
    pub retrieved_pct_per_month: Option<f64>,
}

/// A group of identical volumes (or shares, or AVS datastores).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VolumeGroup {
    #[serde(default = "one")]
    #[schema(minimum = 1, maximum = 1024, default = 1)]
    pub count: u32,
    #[schema(minimum = 0.001, maximum = 3072)]
    pub quota_tib: f64,
    #[serde(default)]
    #[schema(minimum = 0.001, maximum = 1000000)]
    pub throughput_mibps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0.001, maximum = 10000000)]
    pub iops: Option<f64>,
}

/// The storage service.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Service {
    Anf,
    AzureFiles,
    Gcnv,
}

/// A service level of any service; [`Scenario::validate`] checks it fits the service.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Standard,
    Premium,
    Ultra,
    Flexible,
    SsdV1,
    SsdV2,
    HddV2,
    HddPayg,
    Flex,
    Extreme,
}

/// ANF capacity pool QoS type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Qos {
    #[default]
    Auto,
    Manual,
}

/// ANF volume type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum VolumeKind {
    #[default]
    Regular,
    Large,
    /// An ANF large volume in breakthrough mode (six storage endpoints on dedicated
    /// capacity).
    Breakthrough,
}

impl VolumeKind {
    /// The JSON name of the volume kind.
    pub fn key(self) -> &'static str {
        match self {
            VolumeKind::Regular => "regular",
            VolumeKind::Large => "large",
            VolumeKind::Breakthrough => "breakthrough",
        }
    }

    /// Large volumes, in breakthrough mode or not.
    pub fn is_large(self) -> bool {
        self != VolumeKind::Regular
    }
}

/// The NFS client: the kernel's, or Oracle Direct NFS inside the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NfsClient {
    #[default]
    Kernel,
    /// Oracle Direct NFS: the database opens its own connections to every volume.
    Dnfs,
}

/// NFS security flavour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Sec {
    #[default]
    Sys,
    Krb5,
    Krb5i,
    Krb5p,
}

/// SMB signing or encryption.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SmbSecurity {
    #[default]
    None,
    Signing,
    Encryption,
}

impl Sec {
    /// The JSON name.
    pub fn key(self) -> &'static str {
        match self {
            Sec::Sys => "sys",
            Sec::Krb5 => "krb5",
            Sec::Krb5i => "krb5i",
            Sec::Krb5p => "krb5p",
        }
    }
}

impl SmbSecurity {
    /// The JSON name.
    pub fn key(self) -> &'static str {
        match self {
            SmbSecurity::None => "none",
            SmbSecurity::Signing => "signing",
            SmbSecurity::Encryption => "encryption",
        }
    }
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// The clients: VMs (or AVS hosts), their network and protocol.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Clients {
    #[serde(default = "one")]
    #[schema(minimum = 1, maximum = 100000, default = 1)]
    pub count: u32,
    #[serde(default)]
    pub vm_size: Option<String>,
    #[serde(default)]
    #[schema(minimum = 0.001, maximum = 1000000)]
    pub egress_mibps: Option<f64>,
    #[serde(default)]
    #[schema(minimum = 0.001, maximum = 1000000)]
    pub ingress_mibps: Option<f64>,
    pub protocol: Protocol,
    #[serde(default = "one")]
    #[schema(minimum = 1, maximum = 16, default = 1)]
    pub nconnect: u32,
    #[serde(default)]
    pub smb_multichannel: bool,
    #[serde(default = "four")]
    #[schema(minimum = 1, maximum = 4, default = 4)]
    pub smb_channels: u32,
    #[serde(default)]
    pub avs: Option<Avs>,
    /// `dnfs` = Oracle Direct NFS (NFS protocols only).
    #[serde(default, skip_serializing_if = "is_default")]
    pub nfs_client: NfsClient,
    /// NFS security flavour (NFS protocols only).
    #[serde(default, skip_serializing_if = "is_default")]
    pub sec: Sec,
    /// SMB signing or encryption (SMB only).
    #[serde(default, skip_serializing_if = "is_default")]
    pub smb_security: SmbSecurity,
}

fn four() -> u32 {
    4
}

/// File protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub enum Protocol {
    #[serde(rename = "nfsv3")]
    Nfsv3,
    #[serde(rename = "nfsv4.1")]
    Nfsv41,
    #[serde(rename = "smb3")]
    Smb3,
}

/// Azure VMware Solution hosts with the volumes mounted as NFS datastores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Avs {
    #[schema(minimum = 1, maximum = 16)]
    pub hosts: u32,
    #[serde(default = "default_host_sku")]
    pub host_sku: String,
    #[serde(default = "one")]
    #[schema(minimum = 1, maximum = 1024, default = 1)]
    pub vms_per_host: u32,
    #[serde(default = "one")]
    #[schema(minimum = 1, maximum = 256, default = 1)]
    pub vmdks_per_vm: u32,
    #[serde(default)]
    pub placement: Placement,
    /// Connections per host per datastore: 1 (as in the published AVS tests) or 4.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    #[schema(minimum = 1, maximum = 4, default = 1)]
    pub nconnect: u32,
    /// Hosts in the AVS cluster (3 to 16); `hosts` of them run the workload's VMs.
    /// Null = `hosts`, or 3 when fewer hosts run the workload.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 3, maximum = 16)]
    pub cluster_hosts: Option<u32>,
    /// How the hosts' VMware Cloud Foundation is licensed. Null = VCF included in the
    /// host price (the licence-included rate); with `portable` the hosts cost the
    /// `VCF BYOL` rate and a licence line adds every physical core at the price per
    /// core per year (plus add-ons), as the AVS plan prices them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vcf: Option<super::licence::Vcf>,
}

impl Avs {
    /// Hosts in the cluster: as given, else the loaded hosts (at least 3).
    pub fn cluster_size(&self) -> u32 {
        self.cluster_hosts.unwrap_or(self.hosts.max(MIN_AVS_HOSTS))
    }

    /// How the hosts are licensed (null `vcf`: included).
    pub fn licensing(&self) -> super::licence::Licensing {
        self.vcf
            .as_ref()
            .map_or(super::licence::Licensing::Included, |v| v.licensing)
    }
}

/// Smallest AVS cluster (LEARN-AVS: 3 to 16 hosts per cluster).
pub const MIN_AVS_HOSTS: u32 = 3;
/// Largest AVS cluster.
pub const MAX_AVS_HOSTS: u32 = 16;

fn is_one(v: &u32) -> bool {
    *v == 1
}

fn default_host_sku() -> String {
    "AV36".to_owned()
}

/// How each VM's VMDKs are placed on the datastores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// Round-robin over all datastores.
    #[default]
    Spread,
    /// VM i on datastore i mod N.
    Dedicated,
    /// All on the first datastore.
    Single,
}

impl Level {
    /// The levels a service offers, in ascending order of performance per TiB.
    pub fn of(service: Service) -> &'static [Level] {
        match service {
            Service::Anf => &[
                Level::Standard,
                Level::Premium,
                Level::Ultra,
                Level::Flexible,
            ],
            Service::AzureFiles => &[Level::HddPayg, Level::HddV2, Level::SsdV1, Level::SsdV2],
            Service::Gcnv => &[Level::Flex, Level::Standard, Level::Premium, Level::Extreme],
        }
    }

    /// The JSON name of the level.
    pub fn key(self) -> &'static str {
        match self {
            Level::Standard => "standard",
            Level::Premium => "premium",
            Level::Ultra => "ultra",
            Level::Flexible => "flexible",
            Level::SsdV1 => "ssd_v1",
            Level::SsdV2 => "ssd_v2",
            Level::HddV2 => "hdd_v2",
            Level::HddPayg => "hdd_payg",
            Level::Flex => "flex",
            Level::Extreme => "extreme",
        }
    }

    /// The level as the vendor writes it.
    pub fn display(self, service: Service) -> &'static str {
        match (service, self) {
            (Service::AzureFiles, Level::SsdV1) => "SSD provisioned v1",
            (Service::AzureFiles, Level::SsdV2) => "SSD provisioned v2",
            (Service::AzureFiles, Level::HddV2) => "HDD provisioned v2",
            (Service::AzureFiles, Level::HddPayg) => "HDD pay-as-you-go",
            (_, Level::Standard) => "Standard",
            (_, Level::Premium) => "Premium",
            (_, Level::Ultra) => "Ultra",
            (_, Level::Flexible) => "Flexible",
            (_, Level::Flex) => "Flex",
            (_, Level::Extreme) => "Extreme",
            (_, other) => other.key(),
        }
    }
}

impl Service {
    /// The JSON name of the service.
    pub fn key(self) -> &'static str {
        match self {
            Service::Anf => "anf",
            Service::AzureFiles => "azure_files",
            Service::Gcnv => "gcnv",
        }
    }

    /// The service as the vendor writes it.
    pub fn display(self) -> &'static str {
        match self {
            Service::Anf => "Azure NetApp Files",
            Service::AzureFiles => "Azure Files",
            Service::Gcnv => "Google Cloud NetApp Volumes",
        }
    }
}

impl Protocol {
    /// The JSON name of the protocol.
    pub fn key(self) -> &'static str {
        match self {
            Protocol::Nfsv3 => "nfsv3",
            Protocol::Nfsv41 => "nfsv4.1",
            Protocol::Smb3 => "smb3",
        }
    }

    /// True for NFSv3 and NFSv4.1.
    pub fn is_nfs(self) -> bool {
        !matches!(self, Protocol::Smb3)
    }
}

/// Largest number of volumes in one scenario (ANF: 500 volumes per pool).
pub const MAX_VOLUMES: u32 = 1024;

/// Largest quota of one volume, TiB: the largest volume any service offers (a GCNV
/// large volume, 3 PiB; the per-service ranges are checked when the plan resolves).
pub const MAX_QUOTA_TIB: f64 = 3072.0;

/// Largest total quota of a scenario: [`MAX_VOLUMES`] volumes of [`MAX_QUOTA_TIB`].
pub const MAX_TOTAL_TIB: f64 = MAX_VOLUMES as f64 * MAX_QUOTA_TIB;

/// Longest region name (`armRegionName` or GCP region), in characters.
pub const MAX_REGION_CHARS: usize = 40;
/// Longest VM size name, in characters.
pub const MAX_VM_SIZE_CHARS: usize = 64;
/// Longest AVS host SKU, in characters.
pub const MAX_HOST_SKU_CHARS: usize = 32;
