//! The headline figures as the planner page and every report print them: each rate
//! and the headline latency with its likely range, where the latency is taken, and the
//! sentence saying what the ranges are.

use super::targets::{LatencyVerdict, ranges};
use crate::engine::Evaluation;
use crate::engine::source::Source;
use crate::format;

/// The likely ranges beside the headline figures, written once for every output.
#[derive(Debug, Clone, PartialEq)]
pub struct Likely {
    /// "3,100-3,900" (MiB/s).
    pub throughput_mibps: String,
    /// "25,000-31,000" (IOPS).
    pub iops: String,
    /// The headline latency's range, "0.9-1.3" (ms).
    pub latency_ms: String,
    /// The same range as numbers, ms.
    pub latency_ms_values: [f64; 2],
    /// What sets the ranges' width and the assumptions that widen them.
    pub basis: String,
}

/// The likely ranges of `e`'s headline figures; the latency's is the evaluation's band
/// (a factor either side of the latency at the achievable load) around the headline
/// latency `l`, which may be taken at the target rate. `source` writes a limit's source
/// for the reader (see [`ranges`]).
pub fn likely(e: &Evaluation, l: &LatencyVerdict, source: impl Fn(&Source) -> String) -> Likely {
    let scale = if e.latency_ms > 0.0 {
        l.ms / e.latency_ms
    } else {
        1.0
    };
    let latency = e.latency_ms_range.map(|r| r * scale);
    Likely {
        throughput_mibps: format::range(e.throughput_mibps_range),
        iops: format::range(e.iops_range),
        latency_ms: format::ms_range(latency),
        latency_ms_values: latency,
        basis: ranges(&e.confidence, source),
    }
}

/// A range as it stands beside its figure: "likely 3,100-3,900".
pub fn likely_words(range: &str) -> String {
    format!("likely {range}")
}

/// Where the headline latency is taken: "at the target rate" or "at this load".
pub fn latency_at(l: &LatencyVerdict) -> &'static str {
    if l.at_target {
        "at the target rate"
    } else {
        "at this load"
    }
}

/// The headline latency's label in a report's figures: "Latency per IO at the target
/// rate".
pub fn latency_label(l: &LatencyVerdict) -> String {
    format!("Latency per IO {}", latency_at(l))
}
