//! The Scenario JSON of the contract, and its validation.
//!
//! Deserialisation rejects unknown fields (typos are caught); [`Scenario::validate`]
//! checks every range the contract states and names the field that is wrong.

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
    #[schema(minimum = 0, maximum = 1000000)]
    pub capacity_tib: f64,
    #[serde(default)]
    #[schema(exclusive_minimum = 0, maximum = 10000000)]
    pub target_mibps: Option<f64>,
    #[serde(default)]
    #[schema(exclusive_minimum = 0, maximum = 1000000000)]
    pub target_iops: Option<f64>,
    /// Mean latency per IO the workload needs at its target rate, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(exclusive_minimum = 0, maximum = 100000)]
    pub target_latency_ms: Option<f64>,
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
    #[schema(minimum = 0.001, maximum = 2048)]
    pub quota_tib: f64,
    #[serde(default)]
    #[schema(exclusive_minimum = 0, maximum = 1000000)]
    pub throughput_mibps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(exclusive_minimum = 0, maximum = 10000000)]
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
    #[schema(exclusive_minimum = 0, maximum = 1000000)]
    pub egress_mibps: Option<f64>,
    #[serde(default)]
    #[schema(exclusive_minimum = 0, maximum = 1000000)]
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
}

impl Avs {
    /// Hosts in the cluster: as given, else the loaded hosts (at least 3).
    pub fn cluster_size(&self) -> u32 {
        self.cluster_hosts.unwrap_or(self.hosts.max(MIN_AVS_HOSTS))
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

/// A value that fails validation: the field path and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct FieldError {
    /// Dotted path, e.g. `workload.io_size_kib` or `storage.volumes[0].quota_tib`.
    pub field: String,
    /// A sentence saying what is wrong and what to enter instead.
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}

// The checks are inlined; the messages are built out of line, only on failure.

#[inline]
fn range(field: &str, v: f64, lo: f64, hi: f64, unit: &str) -> Result<(), FieldError> {
    #[cold]
    fn fail(field: &str, v: f64, lo: f64, hi: f64, unit: &str) -> FieldError {
        FieldError::new(
            field,
            format!("must be a number from {lo} to {hi} {unit}, not {v}"),
        )
    }
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        Err(fail(field, v, lo, hi, unit))
    }
}

#[inline]
fn range_u(field: &str, v: u32, lo: u32, hi: u32) -> Result<(), FieldError> {
    #[cold]
    fn fail(field: &str, v: u32, lo: u32, hi: u32) -> FieldError {
        FieldError::new(
            field,
            format!("must be a whole number from {lo} to {hi}, not {v}"),
        )
    }
    if (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(fail(field, v, lo, hi))
    }
}

#[inline]
fn positive(field: &str, v: Option<f64>, hi: f64, unit: &str) -> Result<(), FieldError> {
    #[cold]
    fn fail(field: &str, x: f64, hi: f64, unit: &str) -> FieldError {
        FieldError::new(
            field,
            format!("must be above 0 and at most {hi} {unit}, or null for none; got {x}"),
        )
    }
    match v {
        None => Ok(()),
        Some(x) if x.is_finite() && x > 0.0 && x <= hi => Ok(()),
        Some(x) => Err(fail(field, x, hi, unit)),
    }
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

/// The 66 code points Unicode reserves as never being text: U+FDD0 to U+FDEF and the
/// last two of every plane (U+FFFE, U+FFFF, U+1FFFE, ... U+10FFFF). XML, and with it
/// SVG and XLSX, does not allow U+FFFE and U+FFFF.
pub fn is_noncharacter(c: char) -> bool {
    let u = u32::from(c);
    (0xFDD0..=0xFDEF).contains(&u) || u & 0xFFFE == 0xFFFE
}

/// Largest number of volumes in one scenario (ANF: 500 volumes per pool).
pub const MAX_VOLUMES: u32 = 1024;

/// Largest quota of one volume, TiB (an ANF large volume by request).
pub const MAX_QUOTA_TIB: f64 = 2048.0;

/// Largest total quota of a scenario: [`MAX_VOLUMES`] volumes of [`MAX_QUOTA_TIB`].
pub const MAX_TOTAL_TIB: f64 = MAX_VOLUMES as f64 * MAX_QUOTA_TIB;

impl Scenario {
    /// Checks every range of the contract; the error names the first field that is wrong.
    pub fn validate(&self) -> Result<(), FieldError> {
        // A name of at most 200 bytes has at most 200 characters: count only longer ones.
        if self.name.len() > 200 && self.name.chars().count() > 200 {
            return Err(FieldError::new(
                "name",
                "must be at most 200 characters long",
            ));
        }
        // ASCII names (nearly all) are checked byte by byte: they hold no
        // noncharacter, and their control characters are the ASCII ones.
        let ascii = self.name.is_ascii();
        let control = if ascii {
            self.name.bytes().any(|b| b.is_ascii_control())
        } else {
            self.name.chars().any(char::is_control)
        };
        if control {
            return Err(FieldError::new(
                "name",
                "must not contain control characters (tabs, line breaks, NUL and the like)",
            ));
        }
        if !ascii && self.name.chars().any(is_noncharacter) {
            return Err(FieldError::new(
                "name",
                "must not contain Unicode noncharacters (U+FFFE, U+FFFF, U+FDD0 to U+FDEF and the like): they are not text, and SVG, XLSX and PDF cannot carry them",
            ));
        }
        if let Some(m) = &self.meta {
            m.validate()?;
        }
        self.check_text()?;
        let w = &self.workload;
        range("workload.io_size_kib", w.io_size_kib, 0.5, 16384.0, "KiB")?;
        range("workload.read_pct", w.read_pct, 0.0, 100.0, "%")?;
        range_u("workload.threads", w.threads, 1, 1024)?;
        range_u("workload.queue_depth", w.queue_depth, 1, 1024)?;
        range(
            "workload.capacity_tib",
            w.capacity_tib,
            0.0,
            1_000_000.0,
            "TiB",
        )?;
        positive(
            "workload.target_mibps",
            w.target_mibps,
            10_000_000.0,
            "MiB/s",
        )?;
        positive(
            "workload.target_iops",
            w.target_iops,
            1_000_000_000.0,
            "IOPS",
        )?;
        positive(
            "workload.target_latency_ms",
            w.target_latency_ms,
            100_000.0,
            "ms",
        )?;

        let s = &self.storage;
        if !Level::of(s.service).contains(&s.level) {
            let names: Vec<&str> = Level::of(s.service).iter().map(|l| l.key()).collect();
            return Err(FieldError::new(
                "storage.level",
                format!(
                    "{} offers the levels {}; `{}` is not one of them",
                    s.service.display(),
                    names.join(", "),
                    s.level.key()
                ),
            ));
        }
        if s.volumes.is_empty() {
            return Err(FieldError::new(
                "storage.volumes",
                "needs at least one volume group, e.g. [{\"count\": 1, \"quota_tib\": 4}]",
            ));
        }
        let mut total = 0u32;
        for (i, v) in s.volumes.iter().enumerate() {
            let at = |e: FieldError| FieldError {
                field: format!("storage.volumes[{i}].{}", e.field),
                message: e.message,
            };
            range_u("count", v.count, 1, MAX_VOLUMES).map_err(at)?;
            range("quota_tib", v.quota_tib, 0.001, MAX_QUOTA_TIB, "TiB").map_err(at)?;
            positive("throughput_mibps", v.throughput_mibps, 1_000_000.0, "MiB/s").map_err(at)?;
            positive("iops", v.iops, 10_000_000.0, "IOPS").map_err(at)?;
            total += v.count;
        }
        if total > MAX_VOLUMES {
            return Err(FieldError::new(
                "storage.volumes",
                format!("at most {MAX_VOLUMES} volumes in all; these groups add up to {total}"),
            ));
        }
        if let Some(p) = s.pool_tib {
            range("storage.pool_tib", p, 1.0, MAX_QUOTA_TIB * 8.0, "TiB")?;
        }
        if let Some(cool) = &s.cool_access {
            range(
                "storage.cool_access.cool_data_pct",
                cool.cool_data_pct,
                0.0,
                100.0,
                "%",
            )?;
            range(
                "storage.cool_access.cool_read_pct",
                cool.cool_read_pct,
                0.0,
                100.0,
                "%",
            )?;
            if let Some(pct) = cool.retrieved_pct_per_month {
                range(
                    "storage.cool_access.retrieved_pct_per_month",
                    pct,
                    0.0,
                    1000.0,
                    "%",
                )?;
            }
        }

        let c = &self.clients;
        range_u("clients.count", c.count, 1, 100_000)?;
        positive("clients.egress_mibps", c.egress_mibps, 1_000_000.0, "MiB/s")?;
        positive(
            "clients.ingress_mibps",
            c.ingress_mibps,
            1_000_000.0,
            "MiB/s",
        )?;
        range_u("clients.nconnect", c.nconnect, 1, 16)?;
        range_u("clients.smb_channels", c.smb_channels, 1, 4)?;
        self.check_rules()?;
        self.check_pricing()?;
        self.check_data_protection()?;
        if let Some(a) = &c.avs {
            if let Some(n) = a.cluster_hosts
                && !(MIN_AVS_HOSTS..=MAX_AVS_HOSTS).contains(&n)
            {
                return Err(FieldError::new(
                    "clients.avs.cluster_hosts",
                    format!("an AVS cluster has {MIN_AVS_HOSTS} to {MAX_AVS_HOSTS} hosts, not {n}"),
                ));
            }
            let cluster = a.cluster_size();
            if a.hosts == 0 || a.hosts > cluster.min(MAX_AVS_HOSTS) {
                return Err(FieldError::new(
                    "clients.avs.hosts",
                    format!(
                        "an AVS cluster has {MIN_AVS_HOSTS} to {MAX_AVS_HOSTS} hosts, and 1 to all of them run the workload (cluster_hosts: {}); got {}",
                        cluster.min(MAX_AVS_HOSTS),
                        a.hosts
                    ),
                ));
            }
            range_u("clients.avs.vms_per_host", a.vms_per_host, 1, 1024)?;
            range_u("clients.avs.vmdks_per_vm", a.vmdks_per_vm, 1, 256)?;
            if a.nconnect != 1 && a.nconnect != 4 {
                return Err(FieldError::new(
                    "clients.avs.nconnect",
                    format!(
                        "AVS hosts mount a datastore with 1 connection, or 4 with nconnect; got {}",
                        a.nconnect
                    ),
                ));
            }
        }
        Ok(())
    }
}

impl Scenario {
    /// The service rules of the contract: which protocol, security and AVS settings a
    /// service offers.
    fn check_rules(&self) -> Result<(), FieldError> {
        let (st, c) = (&self.storage, &self.clients);
        let service = st.service.display();
        let anf_only = |field: &str, feature: &str| {
            FieldError::new(
                field,
                format!("{feature} is an Azure NetApp Files feature, not one of {service}"),
            )
        };
        if st.service == Service::AzureFiles && c.protocol == Protocol::Nfsv3 {
            return Err(FieldError::new(
                "clients.protocol",
                "Azure Files NFS shares speak NFSv4.1 only; choose nfsv4.1 (or smb3)",
            ));
        }
        if c.avs.is_some() && st.service != Service::Anf {
            return Err(anf_only(
                "clients.avs",
                "AVS datastores on file volumes (set avs to null or choose anf)",
            ));
        }
        if st.cool_access.is_some() && st.service != Service::Anf {
            return Err(anf_only(
                "storage.cool_access",
                "Cool access (set cool_access to null)",
            ));
        }
        if st.volume_kind == VolumeKind::Breakthrough && st.service != Service::Anf {
            return Err(anf_only(
                "storage.volume_kind",
                "Breakthrough mode (use regular or large)",
            ));
        }
        if c.sec != Sec::Sys {
            let why = if !c.protocol.is_nfs() {
                "Kerberos flavours apply to NFS mounts; with smb3 use sys here and smb_security for signing or encryption".to_owned()
            } else if st.service == Service::AzureFiles {
                "Azure Files NFS shares do not offer Kerberos mounts (they secure traffic with encryption in transit); use sys".to_owned()
            } else if c.protocol == Protocol::Nfsv3 {
                format!(
                    "{service} offers Kerberos ({}) on NFSv4.1 volumes only; choose nfsv4.1 or sec sys",
                    c.sec.key()
                )
            } else {
                String::new()
            };
            if !why.is_empty() {
                return Err(FieldError::new("clients.sec", why));
            }
        }
        if c.smb_security != SmbSecurity::None && c.protocol.is_nfs() {
            return Err(FieldError::new(
                "clients.smb_security",
                "SMB signing and encryption apply to SMB shares; with NFS use none here and sec for Kerberos",
            ));
        }
        if c.nfs_client == NfsClient::Dnfs && (!c.protocol.is_nfs() || c.avs.is_some()) {
            return Err(FieldError::new(
                "clients.nfs_client",
                "Oracle Direct NFS runs in a database server against its own NFS volumes (not over smb3, not on AVS datastores); use kernel",
            ));
        }
        Ok(())
    }
}

/// Longest region name (`armRegionName` or GCP region), in characters.
pub const MAX_REGION_CHARS: usize = 40;
/// Longest VM size name, in characters.
pub const MAX_VM_SIZE_CHARS: usize = 64;
/// Longest AVS host SKU, in characters.
pub const MAX_HOST_SKU_CHARS: usize = 32;

impl Scenario {
    /// The lengths of the free-text fields other than the name, before any check
    /// looks them up (and quotes them).
    fn check_text(&self) -> Result<(), FieldError> {
        let mut fields = vec![
            ("region", self.region.as_deref(), MAX_REGION_CHARS),
            (
                "clients.vm_size",
                self.clients.vm_size.as_deref(),
                MAX_VM_SIZE_CHARS,
            ),
            (
                "clients.avs.host_sku",
                self.clients.avs.as_ref().map(|a| a.host_sku.as_str()),
                MAX_HOST_SKU_CHARS,
            ),
            (
                "pricing.currency",
                self.pricing.as_ref().map(|p| p.currency.as_str()),
                3,
            ),
        ];
        if let Some(d) = &self.data_protection {
            fields.push((
                "data_protection.replication_region",
                d.replication_region.as_deref(),
                MAX_REGION_CHARS,
            ));
        }
        for (field, value, max) in fields {
            if let Some(v) = value {
                super::meta::text(field, v, max, false)?;
            }
        }
        Ok(())
    }

    /// The region's spelling and the pricing adjustments; an ANF region must be in the
    /// price book.
    fn check_pricing(&self) -> Result<(), FieldError> {
        if let Some(r) = &self.region {
            let well_formed = !r.is_empty()
                && r.len() <= MAX_REGION_CHARS
                && r.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            if !well_formed {
                return Err(FieldError::new(
                    "region",
                    "give the region as its armRegionName (eastus, westeurope) or GCP name (us-central1): lowercase letters, digits and dashes",
                ));
            }
            if self.storage.service == Service::Anf && super::pricing::anf_region(r).is_none() {
                return Err(FieldError::new(
                    "region",
                    format!(
                        "`{r}` is not an Azure NetApp Files region of the price book; GET /api/v1/regions lists the {} regions",
                        super::pricing::book().anf.len()
                    ),
                ));
            }
        }
        if let Some(p) = &self.pricing {
            if p.currency != "USD" {
                return Err(FieldError::new(
                    "pricing.currency",
                    format!(
                        "the price book holds USD list prices only; use USD (not `{}`)",
                        p.currency
                    ),
                ));
            }
            range("pricing.discount_pct", p.discount_pct, 0.0, 100.0, "%")?;
            if p.reservation != Term::None && self.storage.service != Service::Anf {
                return Err(FieldError::new(
                    "pricing.reservation",
                    format!(
                        "{} has no reserved capacity in the price book; use none",
                        self.storage.service.display()
                    ),
                ));
            }
        }
        Ok(())
    }
}

impl Scenario {
    /// Data protection: ranges, ANF only, and a priced replication region.
    fn check_data_protection(&self) -> Result<(), FieldError> {
        let Some(d) = &self.data_protection else {
            return Ok(());
        };
        if self.storage.service != Service::Anf {
            return Err(FieldError::new(
                "data_protection",
                format!(
                    "snapshot reserve, backup and replication are priced for Azure NetApp Files only, not for {}; set data_protection to null",
                    self.storage.service.display()
                ),
            ));
        }
        range(
            "data_protection.snapshot_reserve_pct",
            d.snapshot_reserve_pct,
            0.0,
            100.0,
            "%",
        )?;
        range(
            "data_protection.daily_change_pct",
            d.daily_change_pct,
            0.0,
            100.0,
            "%",
        )?;
        if let Some(b) = &d.backup {
            range_u("data_protection.backup.daily", b.daily, 0, 1019)?;
            range_u("data_protection.backup.weekly", b.weekly, 0, 1019)?;
            range_u("data_protection.backup.monthly", b.monthly, 0, 1019)?;
        }
        match (d.replication, d.replication_region.as_deref()) {
            (Replication::None, _) => Ok(()),
            (_, None) => Err(FieldError::new(
                "data_protection.replication_region",
                "name the region the volumes replicate to (an ANF region, e.g. westus)",
            )),
            (_, Some(r)) if super::pricing::anf_region(r).is_none() => Err(FieldError::new(
                "data_protection.replication_region",
                format!(
                    "`{r}` is not an Azure NetApp Files region of the price book; GET /api/v1/regions lists them"
                ),
            )),
            (_, Some(r)) if Some(r) == self.region.as_deref() => Err(FieldError::new(
                "data_protection.replication_region",
                "cross-region replication needs another region than the scenario's",
            )),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_noncharacter;

    #[test]
    fn noncharacters_are_the_66_reserved_code_points() {
        let all = (0..=0x10FFFF)
            .filter_map(char::from_u32)
            .filter(|&c| is_noncharacter(c))
            .count();
        assert_eq!(all, 66);
        for c in [
            '\u{FDD0}',
            '\u{FDEF}',
            '\u{FFFE}',
            '\u{FFFF}',
            '\u{1FFFE}',
            '\u{10FFFF}',
        ] {
            assert!(is_noncharacter(c), "{:X}", u32::from(c));
        }
        for c in [
            '\u{FDCF}',
            '\u{FDF0}',
            '\u{FFFD}',
            '\u{E000}',
            '\u{10000}',
            'a',
        ] {
            assert!(!is_noncharacter(c), "{:X}", u32::from(c));
        }
    }
}
