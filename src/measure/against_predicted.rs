//! Measured against predicted: evaluates the scenario at the measurement's IO size, mix and
//! concurrency, and names the reason for any gap in one sentence.
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

/// Measured against predicted for one run.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Comparison {
    pub label: String,
    pub measured_mibps: f64,
    pub measured_iops: f64,
    pub predicted_mibps: f64,
    pub predicted_iops: f64,
    /// measured / predicted MiB/s.
    pub ratio: f64,
    pub class: GapClass,
    /// One sentence: the class, the figures behind it, and what would change it.
    pub sentence: String,
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
    pub checks: Vec<String>,
    /// The scenario as evaluated: the base with the measurement's IO size, mix and concurrency.
    pub scenario: Scenario,
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
pub fn compare(
    base: &Scenario,
    m: &Measurement,
    prices: &PriceBook,
) -> Result<Comparison, FieldErrors> {
    compare_with(base, m, |s| evaluate_in(s, prices))
}

/// [`compare`], the variant evaluated by `evaluate` (a saved scenario's calibration to
/// its runs: `calibrate::evaluate_as`).
pub fn compare_with(
    base: &Scenario,
    m: &Measurement,
    evaluate: impl Fn(&Scenario) -> Result<Evaluation, FieldErrors>,
) -> Result<Comparison, FieldErrors> {
    let scenario = variant(base, m);
    let ev = evaluate(&scenario)?;
    Ok(classify(scenario, &ev, m))
}

/// Classifies a measurement against an evaluation of its variant scenario.
pub fn classify(scenario: Scenario, ev: &Evaluation, m: &Measurement) -> Comparison {
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
    let mut out = Comparison {
        label: m.label.clone(),
        measured_mibps: m.mibps,
        measured_iops: m.iops,
        predicted_mibps: predicted,
        predicted_iops: ev.iops,
        ratio,
        class: GapClass::Unexplained,
        sentence: String::new(),
        binding: ev.binding,
        limit: None,
        outstanding,
        needed_outstanding: None,
        measured_latency_ms: m.latency_mean_ms,
        predicted_latency_ms: ev.latency_ms,
        checks: Vec::new(),
        scenario,
    };
    let measured = format!("{} MiB/s ({} IOPS)", fmt(m.mibps), fmt(m.iops));
    if let Some((limit, total)) = near {
        let near_limit = NearLimit {
            id: limit.id,
            label: limit.label.to_string(),
            scope: limit.scope,
            total_mibps: total,
        };
        let within = format!(
            "{measured} is within 10% of {} ({} MiB/s at this mix)",
            near_limit.label,
            fmt(total)
        );
        match limit.scope {
            Scope::Volume | Scope::Pool | Scope::Share | Scope::File | Scope::Datastore => {
                out.class = GapClass::AtStorageCeiling;
                out.sentence = format!(
                    "At the storage ceiling: {within}; more needs a larger quota, a higher service level or more volumes."
                );
            }
            Scope::Client | Scope::Vm | Scope::Host => {
                out.class = GapClass::AtClientCeiling;
                out.sentence = format!(
                    "At the client ceiling: {within}; more needs larger or more client machines."
                );
            }
            Scope::Connection => {
                out.class = GapClass::ConnectionBound;
                out.sentence = format!(
                    "Connection-bound: {within}; more connections (nconnect, SMB channels or datastores) would raise it."
                );
            }
            Scope::Workload => {
                // The engine's own concurrency limit binds: name what would lift it.
                let lat = lat_s.unwrap_or(ev.latency_ms / 1000.0);
                let next = next_ceiling(ev, limit.id);
                let needed = (next / predicted * ev.iops * lat).ceil();
                out.class = GapClass::ConcurrencyBound;
                out.needed_outstanding = Some(clamp_u32(needed));
                out.sentence = format!(
                    "Concurrency-bound: {measured} is within 10% of {} ({} MiB/s); {} IOs in flight at {} ms cannot go faster, and the next ceiling ({} MiB/s) needs about {} outstanding IOs.",
                    near_limit.label,
                    fmt(total),
                    outstanding,
                    fmt_ms(lat * 1000.0),
                    fmt(next),
                    clamp_u32(needed)
                );
            }
        }
        out.limit = Some(near_limit);
        return out;
    }
    let pct = |r: f64| format!("{:.0}%", (r - 1.0).abs() * 100.0);
    if above {
        out.class = GapClass::AbovePrediction;
        out.sentence = format!(
            "Above the prediction: {measured} is {} above the predicted {} MiB/s; check that the test bypassed caches (fio direct=1, DiskSpd -Sh) with files larger than client memory.",
            pct(ratio),
            fmt(predicted)
        );
        return out;
    }
    if let Some(l) = lat_s {
        let needed = (ev.iops * l).ceil();
        if little_ok && needed > f64::from(outstanding) * (1.0 + CEILING_TOLERANCE) {
            let needed = clamp_u32(needed);
            let per_client = needed.div_ceil(client_machines(&out.scenario));
            let (t, q) = suggest(per_client, out.scenario.workload.threads);
            let slow = if m.latency_mean_ms.unwrap_or(0.0) > 1.2 * ev.latency_ms {
                format!(" (the model expects {} ms)", fmt_ms(ev.latency_ms))
            } else {
                String::new()
            };
            out.class = GapClass::ConcurrencyBound;
            out.needed_outstanding = Some(needed);
            out.sentence = format!(
                "Concurrency-bound: {outstanding} IOs in flight at {} ms{slow} give {} IOPS by Little's law; the predicted {} IOPS needs about {needed} outstanding IOs at this latency (e.g. {t} threads x queue depth {q} per client).",
                fmt_ms(l * 1000.0),
                fmt(m.iops),
                fmt(ev.iops)
            );
            return out;
        }
    }
    if ratio >= 1.0 - UNEXPLAINED_GAP {
        out.class = GapClass::NearPrediction;
        out.sentence = format!(
            "Near the prediction: {measured} is {} {} the predicted {} MiB/s, within the model's 20% tolerance.",
            pct(ratio),
            if ratio >= 1.0 { "above" } else { "below" },
            fmt(predicted)
        );
        return out;
    }
    out.checks = checks(&out.scenario, m, lat_s, little_ok);
    out.class = GapClass::Unexplained;
    out.sentence = format!(
        "Unexplained: {measured} is {} below the predicted {} MiB/s with no ceiling near; check {}.",
        pct(ratio),
        fmt(predicted),
        out.checks.join("; ")
    );
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
fn checks(s: &Scenario, m: &Measurement, lat_s: Option<f64>, little_ok: bool) -> Vec<String> {
    let mut out = Vec::new();
    match lat_s {
        Some(l) if !little_ok => out.push(format!(
            "why the tool kept only {:.0} of {} IOs in flight (IOPS x latency): client CPU, a synchronous ioengine or a rate limit",
            m.iops * l,
            m.outstanding
        )),
        None => out.push(
            "the latency (rerun with latency output: DiskSpd -L) to test Little's law".to_owned(),
        ),
        _ => {}
    }
    if s.clients.protocol.is_nfs() {
        out.push(format!(
            "the mount options (nconnect={} as planned, rsize/wsize 262144, hard, no sync)",
            s.clients.nconnect
        ));
    } else {
        out.push("that SMB multichannel is on at the client and the share".to_owned());
    }
    out.push(
        "the network path (accelerated networking, clients in the volume's region and zone)"
            .to_owned(),
    );
    out.push("other workloads on the same volume or capacity pool during the test".to_owned());
    if m.runtime_s > 0.0 && m.runtime_s < 60.0 {
        out.push(format!(
            "a longer run: {:.0} s is short; run at least 60 s after a warm-up",
            m.runtime_s
        ));
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

/// Figures as a reader wants them: thousands separated, no decimals above 100.
fn fmt(x: f64) -> String {
    if !x.is_finite() {
        return "unbounded".to_owned();
    }
    if x.abs() < 100.0 {
        return format!("{x:.1}");
    }
    let digits = format!("{:.0}", x.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if x < 0.0 { format!("-{out}") } else { out }
}

fn fmt_ms(ms: f64) -> String {
    if ms < 10.0 {
        format!("{ms:.2}")
    } else {
        format!("{ms:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_are_readable() {
        assert_eq!(fmt(1234567.4), "1,234,567");
        assert_eq!(fmt(999.6), "1,000");
        assert_eq!(fmt(42.25), "42.2");
        assert_eq!(fmt_ms(0.917), "0.92");
    }

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
