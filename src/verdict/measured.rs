//! Measured against predicted in words: the reason a run lands where it does
//! ([`crate::measure::compare`] finds it), the figures behind it, and what would change it.

use crate::engine::evaluation::Evaluation;
use crate::engine::field_error::FieldErrors;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::Scenario;
use crate::format::{count, exact, ms, num, pct};
use crate::measure::against_predicted::{Check, Concurrency, Gap, GapClass};
use crate::measure::{self, Measurement};
use serde::Serialize;

/// Measured against predicted for one run, in words.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Comparison {
    #[serde(flatten)]
    pub run: Gap,
    /// One sentence: the class, the figures behind it, and what would change it.
    pub sentence: String,
    /// What to check when the gap is unexplained.
    pub checks: Vec<String>,
}

/// Compares one measurement with the prediction for it, priced from `prices` (see
/// [`measure::compare`]).
pub fn compare(
    base: &Scenario,
    m: &Measurement,
    prices: &PriceBook,
) -> Result<Comparison, FieldErrors> {
    measure::compare(base, m, prices).map(worded)
}

/// [`compare`], the variant evaluated by `evaluate` (see [`measure::compare_with`]).
pub fn compare_with(
    base: &Scenario,
    m: &Measurement,
    evaluate: impl Fn(&Scenario) -> Result<Evaluation, FieldErrors>,
) -> Result<Comparison, FieldErrors> {
    measure::compare_with(base, m, evaluate).map(worded)
}

/// The comparison `run` with its sentence and checks.
pub fn worded(run: Gap) -> Comparison {
    Comparison {
        sentence: sentence(&run),
        checks: run.checks.iter().map(check).collect(),
        run,
    }
}

/// How far `ratio` is from 1, in whole percent: "30%".
fn off(ratio: f64) -> String {
    pct((ratio - 1.0).abs() * 100.0, 0)
}

/// The sentence of a comparison.
fn sentence(g: &Gap) -> String {
    let measured = format!(
        "{} MiB/s ({} IOPS)",
        exact(g.measured_mibps),
        exact(g.measured_iops)
    );
    let predicted = exact(g.predicted_mibps);
    let outstanding = count(u64::from(g.outstanding));
    let needed = count(u64::from(g.needed_outstanding.unwrap_or(0)));
    if let Some(l) = &g.limit {
        let within = format!(
            "{measured} is within 10% of {} ({} MiB/s at this mix)",
            l.label,
            exact(l.total_mibps)
        );
        return match (g.class, g.concurrency) {
            (GapClass::AtClientCeiling, _) => format!(
                "At the client ceiling: {within}; more needs larger or more client machines."
            ),
            (GapClass::ConnectionBound, _) => format!(
                "Connection-bound: {within}; more connections (nconnect, SMB channels or datastores) would raise it."
            ),
            (
                _,
                Some(Concurrency::AtLimit {
                    latency_ms,
                    next_mibps,
                }),
            ) => format!(
                "Concurrency-bound: {measured} is within 10% of {} ({} MiB/s); {outstanding} IOs in flight at {} ms cannot go faster, and the next ceiling ({} MiB/s) needs about {needed} outstanding IOs.",
                l.label,
                exact(l.total_mibps),
                ms(latency_ms),
                exact(next_mibps),
            ),
            _ => format!(
                "At the storage ceiling: {within}; more needs a larger quota, a higher service level or more volumes."
            ),
        };
    }
    match (g.class, g.concurrency) {
        (GapClass::AbovePrediction, _) => format!(
            "Above the prediction: {measured} is {} above the predicted {predicted} MiB/s; check that the test bypassed caches (fio direct=1, DiskSpd -Sh) with files larger than client memory.",
            off(g.ratio)
        ),
        (
            _,
            Some(Concurrency::Little {
                latency_ms,
                model_latency_ms,
                threads,
                queue_depth,
            }),
        ) => format!(
            "Concurrency-bound: {outstanding} IOs in flight at {} ms{} give {} IOPS by Little's law; the predicted {} IOPS needs about {needed} outstanding IOs at this latency (e.g. {threads} threads x queue depth {queue_depth} per client).",
            ms(latency_ms),
            model_latency_ms
                .map(|m| format!(" (the model expects {} ms)", ms(m)))
                .unwrap_or_default(),
            exact(g.measured_iops),
            exact(g.predicted_iops)
        ),
        (GapClass::NearPrediction, _) => format!(
            "Near the prediction: {measured} is {} {} the predicted {predicted} MiB/s, within the model's 20% tolerance.",
            off(g.ratio),
            if g.ratio >= 1.0 { "above" } else { "below" }
        ),
        _ => format!(
            "Unexplained: {measured} is {} below the predicted {predicted} MiB/s with no ceiling near; check {}.",
            off(g.ratio),
            g.checks.iter().map(check).collect::<Vec<_>>().join("; ")
        ),
    }
}

/// One thing to check, as the unexplained sentence lists it.
fn check(c: &Check) -> String {
    match *c {
        Check::InFlight { kept, outstanding } => format!(
            "why the tool kept only {} of {} IOs in flight (IOPS x latency): client CPU, a synchronous ioengine or a rate limit",
            num(kept, 0),
            count(u64::from(outstanding))
        ),
        Check::Latency => {
            "the latency (rerun with latency output: DiskSpd -L) to test Little's law".to_owned()
        }
        Check::MountOptions { nconnect } => format!(
            "the mount options (nconnect={nconnect} as planned, rsize/wsize 262144, hard, no sync)"
        ),
        Check::Multichannel => "that SMB multichannel is on at the client and the share".to_owned(),
        Check::NetworkPath => {
            "the network path (accelerated networking, clients in the volume's region and zone)"
                .to_owned()
        }
        Check::OtherWorkloads => {
            "other workloads on the same volume or capacity pool during the test".to_owned()
        }
        Check::LongerRun { runtime_s } => format!(
            "a longer run: {} s is short; run at least 60 s after a warm-up",
            num(runtime_s, 0)
        ),
    }
}
