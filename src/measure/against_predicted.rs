//! Measured against predicted: evaluates the scenario at the measurement's IO size, mix and
//! concurrency, and finds the reason for any gap, which the verdict (`verdict::measured`) words.
//!
//! A run is "at a ceiling" when it lands within 10% of a limit (storage, client or
//! connection scope). Below every ceiling, Little's law decides: in a closed-loop benchmark
//! IOPS x latency = IOs in flight, so when that holds and the prediction needs more IOs in
//! flight at the measured latency, the run was concurrency-bound. More than 20% below the
//! prediction with no such reason is "unexplained", with a list of what to check.

use super::Measurement;
use crate::engine::evaluate_in;
use crate::engine::evaluation::{Evaluation, Limit};
use crate::engine::field_error::FieldErrors;
use crate::engine::limits::Scope;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::Scenario;
use serde::Serialize;

/// A run is at a ceiling when it is within this share of it.
pub const CEILING_TOLERANCE: f64 = 0.10;
/// Below the prediction by more than this share, with no reason found, is unexplained.
pub const UNEXPLAINED_GAP: f64 = 0.20;
/// Little's law holds when IOPS x latency is within this share of the IOs in flight.
const LITTLE_TOLERANCE: f64 = 0.30;

/// Why the measurement lands where it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GapClass {
    /// Within 10% of a volume, pool, share, file or datastore limit.
    AtStorageCeiling,
    /// Within 10% of a client, VM or host limit.
    AtClientCeiling,
    /// Within 10% of the per-connection ceiling.
    ConnectionBound,
    /// Too few IOs in flight for the latency (Little's law).
    ConcurrencyBound,
    /// Below every ceiling, but within 20% of the prediction.
    NearPrediction,
    /// More than 10% above the prediction and every ceiling.
    AbovePrediction,
    /// More than 20% below the prediction with no ceiling near.
    Unexplained,
}

/// The limit a measurement sits at.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct NearLimit {
    pub id: &'static str,
    pub label: String,
    pub scope: Scope,
    /// The limit as a total (reads + writes) at the measured mix, in MiB/s.
    pub total_mibps: f64,
}

/// Measured against predicted for one run, with the reason for the gap.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Gap {
    pub label: String,
    pub measured_mibps: f64,
    pub measured_iops: f64,
    pub predicted_mibps: f64,
    pub predicted_iops: f64,
    /// measured / predicted MiB/s.
    pub ratio: f64,
    pub class: GapClass,
    /// The figures behind a concurrency-bound class.
    #[serde(skip)]
    pub concurrency: Option<Concurrency>,
    /// Id of the limit that binds the prediction.
    pub binding: &'static str,
    /// The limit the measurement sits at, when one is within 10%.
    pub limit: Option<NearLimit>,
    /// IOs in flight that the measurement used.
    pub outstanding: u32,
    /// IOs in flight needed to reach the prediction at the measured latency.
    pub needed_outstanding: Option<u32>,
    pub measured_latency_ms: Option<f64>,
    pub predicted_latency_ms: f64,
    /// What to check when the gap is unexplained.
    #[serde(skip)]
    pub checks: Vec<Check>,
    /// The scenario as evaluated: the base with the measurement's IO size, mix and concurrency.
    pub scenario: Scenario,
}

/// Why a run is concurrency-bound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Concurrency {
    /// The engine's concurrency limit binds: the latency the IOs in flight ran at and
    /// the next ceiling above it.
    AtLimit { latency_ms: f64, next_mibps: f64 },
    /// Little's law: the run's IOs in flight at its latency give its IOPS; the threads x
    /// queue depth per client that would reach the prediction, and the model's latency
    /// when the run's is more than 20% slower.
    Little {
        latency_ms: f64,
        model_latency_ms: Option<f64>,
        threads: u32,
        queue_depth: u32,
    },
}

/// One thing to check when a gap is unexplained.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Check {
    /// The tool kept fewer IOs in flight than it was given.
    InFlight { kept: f64, outstanding: u32 },
    /// The run has no latency to test Little's law with.
    Latency,
    /// The NFS mount options, with the planned nconnect.
    MountOptions { nconnect: u32 },
    /// SMB multichannel at the client and the share.
    Multichannel,
    /// The network path.
    NetworkPath,
    /// Other workloads on the volume or pool.
    OtherWorkloads,
    /// A run shorter than 60 s.
    LongerRun { runtime_s: f64 },
}

/// The scenario with the measurement's IO size, read share, access and concurrency.
pub fn variant(base: &Scenario, m: &Measurement) -> Scenario {
    let mut s = base.clone();
    let w = &mut s.workload;
    w.io_size_kib = m.io_size_kib.clamp(0.5, 16384.0);
    w.read_pct = m.read_pct.clamp(0.0, 100.0);
    if let Some(a) = m.access {
        w.access = a;
    }
    w.target_mibps = None;
    w.target_iops = None;
    // AVS keeps its hosts and VMs: the run's IOs in flight spread over those VMs.
    let vms = match &s.clients.avs {
        Some(a) => a.hosts.saturating_mul(a.vms_per_host).max(1),
        None => {
            s.clients.count = m.clients.clamp(1, 100_000);
            s.clients.count
        }
    };
    let per_client = (m.outstanding / vms).max(1);
    let (threads, qd) = split_outstanding(per_client, m.threads.clamp(1, per_client));
    s.workload.threads = threads;
    s.workload.queue_depth = qd;
    s
}

/// Client machines of a scenario: VMs, or AVS hosts x VMs per host.
fn client_machines(s: &Scenario) -> u32 {
    match &s.clients.avs {
        Some(a) => a.hosts.saturating_mul(a.vms_per_host).max(1),
        None => s.clients.count.max(1),
    }
}

/// A practical threads x queue depth for `per_client` IOs in flight: keeps the run's
/// threads while the queue depth stays at most 64, else adds threads at depth 32.
fn suggest(per_client: u32, threads: u32) -> (u32, u32) {
    let threads = threads.max(1);
    if per_client.div_ceil(threads) <= 64 {
        split_outstanding(per_client, threads)
    } else {
        split_outstanding(per_client, per_client.div_ceil(32))
    }
}

/// Threads x queue depth close to `per_client`, keeping `threads` if possible (both 1..1024).
fn split_outstanding(per_client: u32, threads: u32) -> (u32, u32) {
    let threads = threads.clamp(1, 1024);
    let qd = per_client.div_ceil(threads).clamp(1, 1024);
    (threads, qd)
}

/// Compares one measurement with the published fit's prediction for the same IO size,
/// mix and concurrency, the variant priced from `prices` (the book in force) as the
/// scenario is.
pub fn compare(base: &Scenario, m: &Measurement, prices: &PriceBook) -> Result<Gap, FieldErrors> {
    compare_with(base, m, |s| evaluate_in(s, prices))
}

/// [`compare`], the variant evaluated by `evaluate` (a saved scenario's calibration to
/// its runs: `calibrate::evaluate_as`).
pub fn compare_with(
    base: &Scenario,
    m: &Measurement,
    evaluate: impl Fn(&Scenario) -> Result<Evaluation, FieldErrors>,
) -> Result<Gap, FieldErrors> {
    let scenario = variant(base, m);
    let ev = evaluate(&scenario)?;
    Ok(classify(scenario, &ev, m))
}

/// Classifies a measurement against an evaluation of its variant scenario.
pub fn classify(scenario: Scenario, ev: &Evaluation, m: &Measurement) -> Gap {
    let predicted = ev.throughput_mibps;
    let ratio = if predicted > 0.0 {
        m.mibps / predicted
    } else {
        0.0
    };
    let lat_s = m.latency_mean_ms.filter(|l| *l > 0.0).map(|l| l / 1000.0);
    let outstanding = m.outstanding.max(1);
    let little_ok = lat_s.is_some_and(|l| {
        let inflight = m.iops * l;
        (inflight / f64::from(outstanding) - 1.0).abs() <= LITTLE_TOLERANCE
    });
    // Faster than the smallest ceiling by more than the tolerance: no higher limit explains it.
    let above = ratio > 1.0 + CEILING_TOLERANCE;
    let near = if above {
        None
    } else {
        nearest_limit(ev, m.mibps)
    };
    let mut out = Gap {
        label: m.label.clone(),
        measured_mibps: m.mibps,
        measured_iops: m.iops,
        predicted_mibps: predicted,
        predicted_iops: ev.iops,
        ratio,
        class: GapClass::Unexplained,
        concurrency: None,
        binding: ev.binding,
        limit: None,
        outstanding,
        needed_outstanding: None,
        measured_latency_ms: m.latency_mean_ms,
        predicted_latency_ms: ev.latency_ms,
        checks: Vec::new(),
        scenario,
    };
    if let Some((limit, total)) = near {
        out.class = match limit.scope {
            Scope::Volume | Scope::Pool | Scope::Share | Scope::File | Scope::Datastore => {
                GapClass::AtStorageCeiling
            }
            Scope::Client | Scope::Vm | Scope::Host => GapClass::AtClientCeiling,
            Scope::Connection => GapClass::ConnectionBound,
            Scope::Workload => {
                // The engine's own concurrency limit binds: what would lift it.
                let lat = lat_s.unwrap_or(ev.latency_ms / 1000.0);
                let next = next_ceiling(ev, limit.id);
                out.needed_outstanding = Some(clamp_u32((next / predicted * ev.iops * lat).ceil()));
                out.concurrency = Some(Concurrency::AtLimit {
                    latency_ms: lat * 1000.0,
                    next_mibps: next,
                });
                GapClass::ConcurrencyBound
            }
        };
        out.limit = Some(NearLimit {
            id: limit.id,
            label: limit.label.to_string(),
            scope: limit.scope,
            total_mibps: total,
        });
        return out;
    }
    if above {
        out.class = GapClass::AbovePrediction;
        return out;
    }
    if let Some(l) = lat_s {
        let needed = (ev.iops * l).ceil();
        if little_ok && needed > f64::from(outstanding) * (1.0 + CEILING_TOLERANCE) {
            let needed = clamp_u32(needed);
            let per_client = needed.div_ceil(client_machines(&out.scenario));
            let (threads, queue_depth) = suggest(per_client, out.scenario.workload.threads);
            out.class = GapClass::ConcurrencyBound;
            out.needed_outstanding = Some(needed);
            out.concurrency = Some(Concurrency::Little {
                latency_ms: l * 1000.0,
                model_latency_ms: (m.latency_mean_ms.unwrap_or(0.0) > 1.2 * ev.latency_ms)
                    .then_some(ev.latency_ms),
                threads,
                queue_depth,
            });
            return out;
        }
    }
    if ratio >= 1.0 - UNEXPLAINED_GAP {
        out.class = GapClass::NearPrediction;
        return out;
    }
    out.checks = checks(&out.scenario, m, lat_s, little_ok);
    out.class = GapClass::Unexplained;
    out
}

/// The limit closest to the measured total, if it is within 10%.
fn nearest_limit(ev: &Evaluation, measured: f64) -> Option<(&Limit, f64)> {
    ev.limits
        .iter()
        .map(|l| (l, total_of(ev, l)))
        .filter(|(_, t)| *t > 0.0 && (measured / t - 1.0).abs() <= CEILING_TOLERANCE)
        .min_by(|a, b| {
            let da = (measured / a.1 - 1.0).abs();
            let db = (measured / b.1 - 1.0).abs();
            da.total_cmp(&db)
                .then(rank(a.0.scope).cmp(&rank(b.0.scope)))
        })
}

/// Storage first, then client, connection and concurrency when limits tie.
fn rank(scope: Scope) -> u8 {
    match scope {
        Scope::Volume | Scope::Pool | Scope::Share | Scope::File | Scope::Datastore => 0,
        Scope::Client | Scope::Vm | Scope::Host => 1,
        Scope::Connection => 2,
        Scope::Workload => 3,
    }
}

/// A limit as a total (reads + writes) at the evaluation's mix.
fn total_of(ev: &Evaluation, l: &Limit) -> f64 {
    ev.throughput_mibps * (1.0 + l.headroom_pct / 100.0)
}

/// The smallest total of the limits other than `skip`.
fn next_ceiling(ev: &Evaluation, skip: &str) -> f64 {
    ev.limits
        .iter()
        .filter(|l| l.id != skip)
        .map(|l| total_of(ev, l))
        .fold(f64::INFINITY, f64::min)
        .min(1.0e9)
}

/// What to check when nothing explains the gap, tailored to the scenario.
fn checks(s: &Scenario, m: &Measurement, lat_s: Option<f64>, little_ok: bool) -> Vec<Check> {
    let mut out = Vec::new();
    match lat_s {
        Some(l) if !little_ok => out.push(Check::InFlight {
            kept: m.iops * l,
            outstanding: m.outstanding,
        }),
        None => out.push(Check::Latency),
        _ => {}
    }
    out.push(if s.clients.protocol.is_nfs() {
        Check::MountOptions {
            nconnect: s.clients.nconnect,
        }
    } else {
        Check::Multichannel
    });
    out.push(Check::NetworkPath);
    out.push(Check::OtherWorkloads);
    if m.runtime_s > 0.0 && m.runtime_s < 60.0 {
        out.push(Check::LongerRun {
            runtime_s: m.runtime_s,
        });
    }
    out
}

fn clamp_u32(x: f64) -> u32 {
    if x.is_finite() {
        x.clamp(1.0, f64::from(u32::MAX)) as u32
    } else {
        u32::MAX
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outstanding_split_keeps_threads() {
        assert_eq!(split_outstanding(128, 4), (4, 32));
        assert_eq!(split_outstanding(5, 2), (2, 3));
        assert_eq!(split_outstanding(1, 1), (1, 1));
        assert_eq!(split_outstanding(1_000_000, 2000), (1024, 977));
    }

    #[test]
    fn suggestions_keep_queue_depth_practical() {
        assert_eq!(suggest(315, 4), (10, 32));
        assert_eq!(suggest(8, 2), (2, 4));
        assert_eq!(suggest(256, 4), (4, 64));
    }
}
