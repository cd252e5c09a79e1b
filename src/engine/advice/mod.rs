//! Advice rules from the source documents, each with a stable code.

pub mod reach;
pub mod region_features;
pub mod rules;

use super::limits::as_display;
use super::regions::{Feature, Region};
use super::trace::Label;
use serde::Serialize;

/// How much a piece of advice matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The scenario misses its targets or breaks a rule.
    Warn,
    /// A change that would help.
    Info,
    /// An assumption behind a number.
    Assumption,
}

impl Severity {
    /// The JSON name.
    pub fn key(self) -> &'static str {
        match self {
            Severity::Warn => "warn",
            Severity::Info => "info",
            Severity::Assumption => "assumption",
        }
    }
}

/// One piece of advice.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Advice {
    /// Stable code, e.g. `nconnect`.
    pub code: &'static str,
    pub severity: Severity,
    /// The Scenario field the advice is about, when it is about one (e.g.
    /// `storage.volume_kind`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<&'static str>,
    /// The advice and its reason, worded by the verdict (`verdict::advice`) when shown.
    #[serde(serialize_with = "as_display")]
    #[schema(value_type = String)]
    pub message: Message,
}

/// How many changes the `target_unreachable` advice tries.
pub const UNREACHABLE_TRIES: usize = 4;

/// A change the `target_unreachable` advice tries, one at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Twice the volumes.
    MoreVolumes,
    /// Twice the AVS datastores.
    MoreDatastores,
    /// Twice the AVS hosts, up to 16.
    MoreHosts,
    /// Four times the VMDKs per VM.
    MoreVmdks,
    /// Twice the client VMs.
    MoreClients,
    /// SMB multichannel with 4 channels.
    SmbChannels,
    /// nconnect=16.
    MostConnections,
    /// Four times the queue depth.
    DeeperQueue,
}

/// One change the `target_unreachable` advice tried, at the best level and largest
/// volume.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Try {
    /// The change (`None`: not tried).
    pub what: Option<Change>,
    /// The achievable MiB/s.
    pub mibps: f64,
    /// The latency the latency target is judged by (at the target rate), ms; `None`
    /// when the rate is out of reach.
    pub latency_ms: Option<f64>,
    /// Whether it meets the rate and latency targets.
    pub meets: bool,
}

/// A piece of advice as a finding with the figures it cites; the verdict (`verdict::advice`)
/// words it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Message {
    /// AVS with every VMDK on the first datastore.
    AvsPlacement,
    /// The regular-volume ceiling binds.
    LargeVolume,
    /// A single file binds.
    SpreadFiles,
    /// SMB multichannel asked for on an HDD share.
    SmbMultichannelHdd,
    /// SMB multichannel on for single-threaded small IO.
    SmbMultichannelOff,
    /// SMB multichannel off for multi-threaded work.
    SmbMultichannel,
    /// Metadata-heavy work on an SSD share.
    MetadataCaching,
    /// Many clients x threads on one file or directory.
    Handles,
    /// Large IO on ANF: the rsize/wsize to mount with.
    RsizeWsize,
    /// The price rests on an assumption.
    PriceAssumption,
    /// Targets missed: achieved vs target and the binding limit.
    TargetsMissed {
        mibps: f64,
        target_mibps: Option<f64>,
        iops: f64,
        target_iops: Option<f64>,
        /// Latency at the target rate (or at the achievable load) and its target, ms.
        latency_ms: Option<f64>,
        target_latency_ms: Option<f64>,
        binding: Label,
        /// Whether some sizing row meets the targets.
        sizable: bool,
    },
    /// Datastores that carry no load under the VMDK placement.
    AvsIdleDatastores {
        loaded: u32,
        total: u32,
        vms: u32,
        vmdks_per_vm: u32,
        dedicated: bool,
    },
    /// No level meets the targets with this layout: which target fails, and what
    /// would meet them.
    TargetUnreachable {
        need_mibps: f64,
        /// The latency target and the round trip without queueing (ms), when a
        /// latency target is set.
        latency: Option<(f64, f64)>,
        /// The scenario's own layout at the best level and largest volume.
        as_is: Try,
        /// Changes tried, each at the best level and largest volume.
        tried: [Try; UNREACHABLE_TRIES],
        /// When the capacity does not fit the volumes at any level: the capacity (TiB),
        /// the number of volumes and the largest volume (TiB).
        too_big: Option<(f64, u32, f64)>,
    },
    /// The volumes hold less than the workload stores.
    CapacityShort {
        have_tib: f64,
        need_tib: f64,
        /// The largest volume of the scenario's kind, TiB.
        max_quota_tib: f64,
    },
    /// More nconnect would lift the connection ceiling.
    Nconnect {
        current: u32,
        suggested: u32,
        now_mibps: f64,
        then_mibps: f64,
    },
    /// A bigger VM would lift the client limit.
    VmSize {
        name: &'static str,
        azure: bool,
        mbps: f64,
        mibps: f64,
        next_mibps: f64,
    },
    /// Client-side limit with storage headroom: spread over more clients.
    SpreadClients {
        binding: &'static str,
        storage_headroom_pct: f64,
    },
    /// AVS with fewer than four datastores.
    AvsDatastores { count: u32 },
    /// NFSv4.1 session slots below the demand.
    SessionSlots { wanted: f64 },
    /// NFSv3 outstanding IOs per connection above 128.
    SlotTable { per_connection: f64 },
    /// SSD v1 bursting.
    Burst { burst_iops: f64, baseline_iops: f64 },
    /// The cool share of reads holds the workload below its targets; all hot would meet.
    CoolReads {
        cool_read_pct: f64,
        mibps: f64,
        hot_mibps: f64,
    },
    /// Cool-tier retrieval is billed per GiB read and not in the monthly cost.
    CoolRetrieval { usd_per_gib: f64, cool_tib: f64 },
    /// The AVS host SKU has no public price in the region.
    AvsHostsUnpriced {
        sku: &'static str,
        region: &'static str,
    },
    /// The region does not offer a feature the scenario asks for (region data).
    RegionLacks {
        feature: Feature,
        region: &'static Region,
    },
    /// Volumes do not replicate from this region to the one named (region data).
    ReplicationPair {
        from: &'static Region,
        to: &'static str,
    },
    /// The region data does not list the region: its features are not checked.
    RegionUnlisted {
        /// The region as the price book names it.
        name: &'static str,
    },
    /// A value rests on an assumption.
    Assumption {
        what: &'static str,
        source: crate::engine::source::Source,
    },
}
