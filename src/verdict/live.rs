//! The live estate in words: each volume's headroom and right-sizing, the estate's
//! headline, and a saved plan against the measured volumes. The figures come from
//! the live estate's module; this module only words them, from plain figures, so the words
//! never depend on how the metrics were read.

use super::SetVerdict;
use super::words::plural;
use crate::format::{capacity, mibps, millis, monthly, share};

/// A volume within this share of its QoS throughput at P95 is called tight, %.
pub const TIGHT_PCT: f64 = 10.0;

/// One volume's measured load against what it has.
pub struct Headroom<'a> {
    pub name: &'a str,
    pub p95_mibps: f64,
    pub max_mibps: f64,
    pub qos_mibps: Option<f64>,
    pub ceiling_mibps: f64,
}

/// "data1 runs at 412 MiB/s at P95 (530 MiB/s at most): 20% below its QoS throughput
/// of 512 MiB/s and 25% below the model's ceiling of 550 MiB/s at its IO mix."
pub fn headroom(h: &Headroom) -> String {
    let against = |cap: f64, what: &str| {
        let pct = (cap - h.p95_mibps) / cap * 100.0;
        if crate::engine::same::same(h.p95_mibps, cap) {
            format!("at {what} of {}", mibps(cap))
        } else if pct > 0.0 {
            format!("{} below {what} of {}", share(pct), mibps(cap))
        } else {
            format!("{} above {what} of {}", share(pct), mibps(cap))
        }
    };
    let mut parts = Vec::new();
    if let Some(q) = h.qos_mibps.filter(|q| *q > 0.0) {
        parts.push(against(q, "its QoS throughput"));
    }
    if h.ceiling_mibps > 0.0 {
        parts.push(against(
            h.ceiling_mibps,
            "the model's ceiling at its IO mix",
        ));
    }
    format!(
        "{} runs at {} at P95 ({} at most): {}.",
        h.name,
        mibps(h.p95_mibps),
        mibps(h.max_mibps),
        parts.join(" and ")
    )
}

/// One volume's right-sizing, from the sizing verdict's recommendation.
pub struct RightSize<'a> {
    pub needed_mibps: f64,
    pub needed_tib: f64,
    pub margin_pct: f64,
    /// The recommendation's statement, or why no level meets.
    pub plan: &'a str,
    /// True when the volume is already provisioned as the plan says.
    pub current: bool,
    pub monthly: Option<f64>,
    pub saving: Option<f64>,
    pub currency: &'a str,
}

/// "Sized for 494 MiB/s (P95 plus 20%) and 2.4 TiB: <plan> It saves $120.00/month
/// against $480.00/month today."
pub fn right_size(r: &RightSize) -> String {
    let head = format!(
        "Sized for {} (P95 plus {}) and {}: {}",
        mibps(r.needed_mibps),
        share(r.margin_pct),
        capacity(r.needed_tib),
        r.plan
    );
    let tail = match r.saving {
        _ if r.current => "It is already provisioned so.".to_owned(),
        Some(s) if s.abs() < 0.005 => "It costs what the volume costs today.".to_owned(),
        Some(s) if s > 0.0 => format!(
            "It saves {} against {} today.",
            monthly(Some(s), r.currency),
            monthly(r.monthly, r.currency)
        ),
        Some(s) => format!(
            "It costs {} more than the {} of today, for the headroom the volume lacks.",
            monthly(Some(-s), r.currency),
            monthly(r.monthly, r.currency)
        ),
        None => "Its saving cannot be priced.".to_owned(),
    };
    format!("{head} {tail}")
}

/// The estate's headline: how many volumes were measured, which run tight against
/// their QoS throughput, and what right-sizing saves.
pub fn estate(
    measured: usize,
    tight: &[&str],
    not_sized: &[&str],
    today: Option<f64>,
    planned: Option<f64>,
    currency: &str,
) -> SetVerdict {
    let mut statements = vec![format!(
        "{} measured.",
        plural(measured as u64, "volume", "volumes")
    )];
    statements.push(if tight.is_empty() {
        format!(
            "No volume runs within {} of its QoS throughput at P95.",
            share(TIGHT_PCT)
        )
    } else {
        format!(
            "{} within {} of the QoS throughput at P95, or above it: {}.",
            plural(tight.len() as u64, "volume runs", "volumes run"),
            share(TIGHT_PCT),
            tight.join(", ")
        )
    });
    if !not_sized.is_empty() {
        statements.push(format!(
            "Not right-sized (no throughput measured, or no quota or throughput known): {}.",
            not_sized.join(", ")
        ));
    }
    if let (Some(t), Some(p)) = (today, planned) {
        statements.push(if t - p >= 0.005 {
            format!(
                "Right-sizing the measured volumes saves {}: from {} to {}.",
                monthly(Some(t - p), currency),
                monthly(Some(t), currency),
                monthly(Some(p), currency)
            )
        } else {
            format!(
                "Right-sizing the measured volumes saves nothing: {} today, {} right-sized.",
                monthly(Some(t), currency),
                monthly(Some(p), currency)
            )
        });
    }
    SetVerdict {
        best: None,
        statements,
        sensitivity: Vec::new(),
    }
}

/// The name of the estate the right-sized volumes make.
pub const REPLAN_NAME: &str = "Right-sized from the metrics";

/// The right-sized volumes planned together in capacity pools.
pub struct Pooled<'a> {
    pub pools: usize,
    pub monthly: f64,
    /// What the measured volumes cost today.
    pub today: Option<f64>,
    /// What sizing each volume alone costs.
    pub alone: Option<f64>,
    /// Volumes the pools leave out or whose targets they miss.
    pub left_out: usize,
    pub currency: &'a str,
}

/// "Planned together, the right-sized volumes fit 3 capacity pools at $2,100.00/month:
/// $640.00/month less than today's $2,740.00/month (each volume sized alone:
/// $2,380.00/month)."
pub fn pooled(p: &Pooled) -> String {
    let m = |x: f64| monthly(Some(x), p.currency);
    let mut text = format!(
        "Planned together, the right-sized volumes fit {} at {}",
        plural(p.pools as u64, "capacity pool", "capacity pools"),
        m(p.monthly)
    );
    match p.today {
        Some(t) if (t - p.monthly).abs() < 0.005 => {
            text.push_str(": what they cost today");
        }
        Some(t) if t > p.monthly => {
            text.push_str(&format!(
                ": {} less than today's {}",
                m(t - p.monthly),
                m(t)
            ));
        }
        Some(t) => {
            text.push_str(&format!(
                ": {} more than today's {}",
                m(p.monthly - t),
                m(t)
            ));
        }
        None => {}
    }
    if let Some(a) = p.alone {
        text.push_str(&format!(" (each volume sized alone: {})", m(a)));
    }
    text.push('.');
    if p.left_out > 0 {
        text.push_str(&format!(
            " {} not in the pools as sized, named below.",
            plural(p.left_out as u64, "volume is", "volumes are")
        ));
    }
    text
}

/// A volume the pools leave out or whose target they miss, and why: "data9: no
/// allowed level holds it".
pub fn left_out(name: &str, why: Option<&str>) -> String {
    format!("{name}: {}", why.unwrap_or("misses its target"))
}

/// "Left out of the pools: data9: no allowed level holds it."
pub fn left_out_of_pools(why: &str) -> String {
    format!("Left out of the pools: {why}.")
}

/// One planned workload against its volumes.
pub struct Versus<'a> {
    pub workload: &'a str,
    pub volumes: &'a [String],
    pub planned_mibps: f64,
    pub planned_is_target: bool,
    pub p95_mibps: f64,
    pub difference_pct: f64,
    /// Measured and predicted median latency with the prediction's range.
    pub latency: Option<(f64, f64, [f64; 2])>,
    pub ceiling_intervals: Option<usize>,
    /// Whether the run at the ceiling is kept, and if not why.
    pub kept: RunsKept,
}

/// Whether the runs at a plan's ceiling are kept with it for calibration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunsKept {
    /// Kept with the scenario (its newest revision).
    Stored,
    /// An estate keeps no measurements.
    Estate,
    /// Only the newest revision of a scenario keeps runs.
    OlderRevision,
}

/// "data (volumes data-1, data-2) runs 25% above plan: 500 MiB/s at P95 against the
/// 400 MiB/s target. Latency 1.2 ms measured, 0.9 ms predicted (0.7 to 1.1 ms): above
/// the range."
pub fn versus(v: &Versus) -> String {
    let planned = if v.planned_is_target {
        format!("the {} target", mibps(v.planned_mibps))
    } else {
        format!("the {} the plan gives", mibps(v.planned_mibps))
    };
    let position = if crate::engine::same::same(v.p95_mibps, v.planned_mibps) {
        "as planned".to_owned()
    } else if v.difference_pct > 0.0 {
        format!("{} above plan", share(v.difference_pct))
    } else {
        format!("{} below plan", share(v.difference_pct))
    };
    let mut t = format!(
        "{} ({} {}) runs {position}: {} at P95 against {planned}.",
        v.workload,
        if v.volumes.len() == 1 {
            "volume"
        } else {
            "volumes"
        },
        v.volumes.join(", "),
        mibps(v.p95_mibps)
    );
    if let Some((measured, predicted, [lo, hi])) = v.latency {
        let place = if measured > hi && !crate::engine::same::same(measured, hi) {
            "above the range"
        } else if measured < lo && !crate::engine::same::same(measured, lo) {
            "below the range"
        } else {
            "within the range"
        };
        t.push_str(&format!(
            " Median latency {} measured, {} predicted at that rate ({} to {}): {place}.",
            millis(measured),
            millis(predicted),
            millis(lo),
            millis(hi)
        ));
    }
    if let Some(n) = v.ceiling_intervals {
        let kept = match v.kept {
            RunsKept::Stored => "kept with the scenario as a measured run for calibration",
            RunsKept::Estate | RunsKept::OlderRevision => {
                "a measured run for calibration, not kept"
            }
        };
        t.push_str(&format!(
            " It ran at the plan's ceiling for {}: {kept}.",
            plural(n as u64, "interval", "intervals")
        ));
    }
    t
}

/// The comparison's headline: the workloads above and below plan, the volumes no
/// workload matched, and the runs kept for calibration.
pub fn actuals(
    above: &[&str],
    below: &[&str],
    unmatched: &[&str],
    runs: usize,
    kept: RunsKept,
) -> SetVerdict {
    let list = |names: &[&str]| {
        if names.is_empty() {
            "none".to_owned()
        } else {
            names.join(", ")
        }
    };
    let mut statements = vec![
        format!("Above plan: {}.", list(above)),
        format!("Below plan: {}.", list(below)),
    ];
    if !unmatched.is_empty() {
        statements.push(format!(
            "Measured volumes no planned workload names: {}.",
            unmatched.join(", ")
        ));
    }
    if runs > 0 {
        let runs = plural(runs as u64, "run", "runs");
        statements.push(match kept {
            RunsKept::Stored => format!(
                "{runs} at the plan's ceiling kept with the scenario's measured runs; calibrate it to learn from them."
            ),
            RunsKept::Estate => format!(
                "{runs} at the plan's ceiling; save the workload as a scenario to keep them for calibration."
            ),
            RunsKept::OlderRevision => format!(
                "{runs} at the plan's ceiling, not kept: only the newest revision of a scenario keeps measured runs."
            ),
        });
    }
    SetVerdict {
        best: None,
        statements,
        sensitivity: Vec::new(),
    }
}
