//! The Evaluation JSON of the contract: what a scenario achieves, what binds, and why.

use super::advice::Advice;
use super::cost_line::CostLine;
use super::limits::{Applies, Scope};
use super::model::curve::LatencyCurve;
pub use super::pricing::PriceBookRef;
pub use super::range::Confidence;
use super::scenario::{Level, Qos, Scenario, Service, VolumeGroup, VolumeKind};
use super::source::Source;
use super::trace::Label;
use arrayvec::ArrayVec;
use serde::Serialize;

/// Most service levels one service has (ANF, Azure Files and GCNV have four each).
pub const MAX_LEVELS: usize = 4;

/// The answer to one scenario.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Evaluation {
    /// Achievable MiB/s at the workload's IO size and mix, across all clients.
    pub throughput_mibps: f64,
    pub read_mibps: f64,
    pub write_mibps: f64,
    /// Achievable IOPS; `throughput_mibps = iops x io_size_kib / 1024`.
    pub iops: f64,
    /// The likely range of `throughput_mibps`, `[low, high]`: an 80 % interval that
    /// contains the central figure, as wide as the model's leave-one-document-out errors
    /// where the same kind of resource bound, widened for assumed ceilings near the
    /// rate, and never above the smallest documented ceiling.
    #[schema(value_type = Vec<f64>, min_items = 2, max_items = 2)]
    pub throughput_mibps_range: [f64; 2],
    /// The same range in IOPS.
    #[schema(value_type = Vec<f64>, min_items = 2, max_items = 2)]
    pub iops_range: [f64; 2],
    /// The likely range of `latency_ms`, `[low, high]` (80 %).
    #[schema(value_type = Vec<f64>, min_items = 2, max_items = 2)]
    pub latency_ms_range: [f64; 2],
    /// What sets the ranges' width and the assumptions that widen them.
    pub confidence: Confidence,
    /// Id of the smallest limit at this mix.
    pub binding: &'static str,
    /// Every limit that applies, converted to the scenario's IO size.
    pub limits: Vec<Limit>,
    pub targets: Targets,
    pub flows: Flows,
    pub cost: Cost,
    /// Rules that fired, most important first.
    pub advice: Vec<Advice>,
    /// Per-level reverse sizing (extension of the contract), one row per level of the
    /// service: held inline, a service has at most [`MAX_LEVELS`] levels.
    #[schema(value_type = Vec<Sizing>, max_items = 4)]
    pub sizing: ArrayVec<Sizing, MAX_LEVELS>,
    /// Mean latency per IO at the achievable load, ms, from the queueing model.
    pub latency_ms: f64,
    /// Mean latency per IO when driven at the target rate, ms; null without a target or
    /// when the target is above the achievable rate.
    pub latency_at_target_ms: Option<f64>,
    /// Latency against load up to the achievable rate, with its likely band
    /// (computed when serialised).
    #[schema(value_type = Vec<super::model::curve::CurvePoint>)]
    pub latency_curve: LatencyCurve,
    /// The parameters refitted to this scenario's own measurements, and how far each
    /// moved from the published fit; null when the published fit applies.
    pub calibration: Option<CalibrationNote>,
}

/// Which parameters a calibration to the user's measurements moved.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct CalibrationNote {
    /// Measured runs the parameters were refitted to.
    pub measurements: u32,
    /// Every refitted parameter, the largest move first.
    pub parameters: Vec<MovedParameter>,
    /// How far the runs' measured throughput lies from the published fit's prediction
    /// for them, % (geometric mean of measured / predicted - 1: -15 is 15 % below);
    /// null for a calibration stored before it was recorded.
    pub measured_vs_published_pct: Option<f64>,
    /// The same against the refitted model's prediction.
    pub measured_vs_refitted_pct: Option<f64>,
}

/// One refitted parameter (contract: `{"name", "before", "after"}`).
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct MovedParameter {
    /// The parameter's name in `model.json`.
    pub name: String,
    /// What it means, with its unit.
    #[serde(default)]
    pub about: String,
    pub unit: String,
    /// The published fit's value.
    pub before: f64,
    /// The value refitted to the measurements.
    pub after: f64,
}

/// One ceiling with its provenance.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Limit {
    pub id: &'static str,
    /// Name and formula, e.g. "Volume QoS (4 x 20 TiB x 128 MiB/s/TiB)".
    #[schema(value_type = String)]
    pub label: Label,
    pub scope: Scope,
    pub applies: Applies,
    /// The ceiling in MiB/s at the scenario's IO size, for the IO it applies to.
    pub mibps: f64,
    /// The same ceiling in IOPS.
    pub iops: f64,
    /// Where the value comes from, as three fields: `source` (the public citation:
    /// document, date, the part cited), `kind` (`documented`, `fitted`, `lower_bound`,
    /// `derived` or `assumption`) and `provenance` (the same as data).
    #[serde(flatten, serialize_with = "super::source::cited")]
    #[schema(inline, value_type = super::source::Cited)]
    pub source: Source,
    /// True when the value rests on an assumption for this plan: an unconfirmed figure,
    /// or another service's or host's parameters (no published figure of its own).
    pub assumption: bool,
    /// How far above the achievable total (at this mix) this limit sits, in percent.
    pub headroom_pct: f64,
}

/// Whether the targets are met: capacity, throughput, IOPS and latency.
#[derive(Debug, Clone, Copy, Serialize, utoipa::ToSchema)]
pub struct Targets {
    /// Every target met, the capacity among them.
    pub met: bool,
    /// Whether the volumes hold `workload.capacity_tib`.
    pub capacity_met: bool,
    /// (total quota / capacity - 1) x 100.
    pub capacity_headroom_pct: f64,
    /// (achievable / target - 1) x 100; null without a target.
    pub mibps_headroom_pct: Option<f64>,
    pub iops_headroom_pct: Option<f64>,
    /// Whether the latency target is met; null without `target_latency_ms`.
    pub latency_met: Option<bool>,
    /// Whether the targets are met at the likely range's worst end: the rates at its low
    /// end, the latency at its high end (what `workload.confidence: "p90"` requires for
    /// `met`).
    pub met_at_low_end: bool,
    /// The latency the latency target is judged by, at the likely range's high end, ms;
    /// null without `target_latency_ms` or when the target rate is out of reach.
    pub latency_high_ms: Option<f64>,
}

impl Targets {
    /// Whether the throughput target is met ([`super::same::reaches`]); `None` without one.
    pub fn mibps_met(&self) -> Option<bool> {
        self.mibps_headroom_pct.map(super::same::headroom_reaches)
    }

    /// Whether the IOPS target is met; `None` without one.
    pub fn iops_met(&self) -> Option<bool> {
        self.iops_headroom_pct.map(super::same::headroom_reaches)
    }

    /// Whether every rate target set is met.
    pub fn rate_met(&self) -> bool {
        self.mibps_met() != Some(false) && self.iops_met() != Some(false)
    }
}

/// Network flows between clients and storage.
#[derive(Debug, Clone, Copy, Serialize, utoipa::ToSchema)]
pub struct Flows {
    /// TCP connections between all clients and all volumes.
    pub connections: u64,
    /// Connections that one client (VM or AVS host) opens.
    pub per_client: u64,
    /// Outstanding IOs the workload can keep in flight after slot limits.
    pub outstanding: f64,
    /// AVS: datastores mounted; null elsewhere.
    pub datastores: Option<u32>,
    /// AVS: datastores that carry load under the VMDK placement; null elsewhere.
    pub loaded_datastores: Option<u32>,
}

/// Monthly cost at list prices, every amount in `currency` (the lines come from one
/// book, so they never mix currencies).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Cost {
    /// The monthly total in USD: `monthly` when `currency` is USD, null in another
    /// currency (never converted) or when a line has no list price.
    pub monthly_usd: Option<f64>,
    /// The monthly total in `currency`; null when a line has no list price.
    pub monthly: Option<f64>,
    /// Charged once, in the first month (the lines flagged `one_time`: the first full
    /// backup, the initial replication transfer); null without them. The first month
    /// costs `monthly + one_time`.
    pub one_time: Option<f64>,
    /// TiB billed at the service level's (hot) rate.
    pub billed_tib: f64,
    /// TiB in the ANF cool tier, billed at the cool rate (absent without cool access).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cool_tib: Option<f64>,
    /// The region priced.
    pub region: String,
    /// ISO 4217 code of every amount of the cost (`pricing.currency`, USD by default).
    pub currency: &'static str,
    /// Hours per month used to turn hourly prices into monthly ones.
    pub hours_per_month: f64,
    /// Date of the price snapshot.
    pub price_date: String,
    /// The price book the lines come from.
    pub price_book: PriceBookRef,
    /// The discount off every line, % (`pricing.discount_pct`, 0 without).
    pub discount_pct: f64,
    /// The price lists used, per service and region, each with the date and source of
    /// the rows the lines use: the price note names these.
    pub price_lists: Vec<super::price_lists::PriceList>,
    /// Every priced item.
    pub lines: Vec<CostLine>,
    /// Cost per achievable MiB/s per month, in USD (null in another currency).
    pub usd_per_mibps: Option<f64>,
    /// Cost per achievable MiB/s per month, in `currency`.
    pub per_mibps: Option<f64>,
    /// True when the price is UNCONFIRMED or derived.
    pub assumption: bool,
}

/// Reverse sizing for one level: the smallest provisioning that meets the targets.
#[derive(Debug, Clone, Copy, Serialize, utoipa::ToSchema)]
pub struct Sizing {
    pub service: Service,
    pub level: Level,
    /// Auto QoS (throughput from quota) or manual QoS (assigned per volume; Flexible).
    pub qos: Qos,
    /// How many volumes (datastores, shares) the row provisions: the scenario's own
    /// count, or another where `storage.fixed_count` is false and it is cheaper.
    pub volume_count: u32,
    /// The kind of those volumes: the scenario's own, or the other one the service
    /// sells where it is cheaper.
    pub volume_kind: VolumeKind,
    /// The total quota over every volume.
    pub quota_tib: f64,
    pub pool_tib: f64,
    /// Provisioned throughput for levels that provision it separately: the total over
    /// every volume.
    pub throughput_mibps: Option<f64>,
    /// When the load is uneven (an AVS placement loads some datastores more): the
    /// busiest volumes, which come first, and what each is assigned; the others share
    /// the rest of `throughput_mibps` evenly. Absent when every volume gets the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub busiest: Option<Busiest>,
    /// True when the row is the scenario's provisioning as entered (its volumes and
    /// pool are kept as they are).
    pub as_entered: bool,
    /// Provisioned IOPS for levels that provision them separately (Azure Files
    /// provisioned v2, GCNV Flex custom); absent elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iops: Option<f64>,
    /// The monthly cost in USD; null when the level has no list price or the cost is
    /// in another currency.
    pub monthly_usd: Option<f64>,
    /// The monthly cost in the evaluation's `cost.currency`; null when the level has
    /// no list price there.
    pub monthly: Option<f64>,
    /// True when this provisioning meets capacity, throughput and IOPS.
    pub meets: bool,
    /// True for the cheapest level that meets everything.
    pub cheapest: bool,
    /// What the row sizes for.
    pub basis: SizingBasis,
}

/// The busiest volumes of a sizing row and the throughput each is assigned.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Busiest {
    /// How many volumes (the first ones) carry the larger share of the load.
    pub count: u32,
    /// MiB/s assigned to each of them.
    pub throughput_mibps: f64,
}

impl Sizing {
    /// `s` provisioned as this row: its volumes become the row's number of volumes, of
    /// the row's kind and one quota (whole GiB, rounded up), assigned the row's
    /// throughput (whole MiB/s, rounded up; the busiest first when the load is uneven),
    /// at the row's level and QoS in the
    /// smallest pool; the scenario itself when the row is its provisioning as entered.
    /// What "apply" does, and how every statement about a row is checked.
    pub fn applied_to(&self, s: &Scenario) -> Scenario {
        let mut v = s.clone();
        if self.as_entered {
            return v;
        }
        v.storage.set_level(self.level);
        v.storage.qos = self.qos;
        v.storage.volume_kind = self.volume_kind;
        v.storage.pool_tib = None;
        v.storage.volumes = self.volume_groups(self.volume_count);
        v
    }

    /// The row as `n` volumes, each a share of its quota (whole GiB, rounded up) and of
    /// its provisioned rates (whole MiB/s and IOPS, rounded up): one group, or the
    /// busiest volumes and the others.
    pub fn volume_groups(&self, n: u32) -> Vec<VolumeGroup> {
        let even = self.volume_group(n);
        let Some(b) = self.busiest.filter(|b| b.count > 0 && b.count < n) else {
            return vec![even];
        };
        let rest = n - b.count;
        let others = self.throughput_mibps.map(|t| {
            ((t - b.throughput_mibps * f64::from(b.count)) / f64::from(rest) - 1e-6).ceil()
        });
        vec![
            VolumeGroup {
                count: b.count,
                throughput_mibps: Some(b.throughput_mibps.ceil()),
                ..even.clone()
            },
            VolumeGroup {
                count: rest,
                throughput_mibps: others,
                ..even
            },
        ]
    }

    /// The row as `n` equal volumes, each a share of its quota (whole GiB, rounded up)
    /// and of its provisioned rates (whole MiB/s and IOPS, rounded up).
    pub fn volume_group(&self, n: u32) -> VolumeGroup {
        let nf = f64::from(n);
        let gib = |tib: f64| ((tib * 1024.0) - 1e-6).ceil() / 1024.0;
        VolumeGroup {
            count: n,
            quota_tib: gib(self.quota_tib / nf),
            throughput_mibps: self.throughput_mibps.map(|t| (t / nf - 1e-6).ceil()),
            iops: self.iops.map(|i| (i / nf - 1e-6).ceil()),
        }
    }
}

/// The goal of reverse sizing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SizingBasis {
    /// The scenario's targets (and capacity).
    Targets,
    /// No targets set: the throughput the scenario achieves now (and capacity).
    Current,
}
