//! What each chart shows, in a sentence or two: its caption, its SVG `<desc>` and the
//! alt text a screen reader reads.

use super::latency;
use crate::engine::model::curve::CurvePoint;
use crate::engine::sweep::{IoSizeSweep, LayoutRow, MetricRow, ScalingSweep};
use crate::engine::{Evaluation, Scenario};
use crate::format::{ms, num};

/// The ceilings chart: what binds, how close the workload runs to it, and how far the
/// next ceiling sits above it.
pub fn ceilings_caption(e: &Evaluation) -> String {
    let finite = || {
        e.limits
            .iter()
            .filter(|l| l.mibps.is_finite() && l.mibps >= 0.0)
    };
    let Some(b) = finite()
        .filter(|l| l.id == e.binding)
        .min_by(|a, b| a.mibps.total_cmp(&b.mibps))
    else {
        return format!("Achievable {} MiB/s.", num(e.throughput_mibps, 0));
    };
    let next = finite()
        .filter(|l| !std::ptr::eq(*l, b))
        .map(|l| l.mibps)
        .fold(f64::NAN, f64::min);
    let load = Some(latency::binding_load(b, e.latency_ms))
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| format!("achievable {} MiB/s", num(e.throughput_mibps, 0)));
    let mut text = format!(
        "Bound by {} at {} MiB/s ({} IOPS); {load}.",
        b.label.name,
        num(b.mibps, 0),
        num(b.iops, 0),
    );
    if next.is_finite() && b.mibps > 0.0 {
        let above = (next / b.mibps - 1.0) * 100.0;
        // Under half a percent rounds to "0% higher": say it is a tie.
        if above < 0.5 {
            text.push_str(" The next ceiling ties with it: both must rise to gain anything.");
        } else {
            text.push_str(&format!(" The next ceiling is {}% higher.", num(above, 0)));
        }
    }
    text
}

/// The io-size chart: the achievable figure at the smallest, the largest and the
/// scenario's IO size.
pub fn io_size_caption(sw: &IoSizeSweep) -> String {
    let own = sw
        .points
        .iter()
        .find(|p| p.io_size_kib == sw.scenario_io_kib);
    match (sw.points.first(), sw.points.last(), own) {
        (Some(f), Some(l), Some(o)) => format!(
            "Achievable throughput goes from {} MiB/s ({} IOPS) at {} KiB to {} MiB/s ({} IOPS) at {} KiB; at the scenario's {} KiB it is {} MiB/s ({} IOPS).",
            num(f.throughput_mibps, 0),
            num(f.iops, 0),
            num(f.io_size_kib, 1),
            num(l.throughput_mibps, 0),
            num(l.iops, 0),
            num(l.io_size_kib, 1),
            num(o.io_size_kib, 1),
            num(o.throughput_mibps, 0),
            num(o.iops, 0)
        ),
        _ => "No IO sizes were evaluated.".to_owned(),
    }
}

/// The scaling chart: the figure at the first and last step and the scenario's own, the
/// steps left out, and whether a published measurement is shown beside the model.
pub fn scaling_caption(sw: &ScalingSweep) -> String {
    let unit = sw.metric.unit();
    let value = |p: Option<&crate::engine::sweep::ScalingPoint>| {
        p.map(|p| p.value(sw.metric)).unwrap_or(0.0)
    };
    let cur = sw.points.iter().find(|p| p.n == sw.current);
    let mut text = format!(
        "From {} to {} ({}) the achievable figure goes from {} to {} {unit}",
        sw.points.first().map_or(1, |p| p.n),
        sw.points.last().map_or(1, |p| p.n),
        sw.axis.short(),
        num(value(sw.points.first()), 0),
        num(value(sw.points.last()), 0)
    );
    match cur {
        Some(c) => text.push_str(&format!(
            "; the scenario uses {} ({} {unit}).",
            sw.current,
            num(c.value(sw.metric), 0)
        )),
        None => text.push('.'),
    }
    if !sw.skipped.is_empty() {
        text.push_str(&format!(
            " {} {} left out: {}.",
            sw.axis.short(),
            runs(&sw.skipped),
            sw.skipped_reason.as_deref().unwrap_or("no valid layout")
        ));
    }
    if !sw.published.is_empty() {
        text.push_str(
            " A published measurement on the same setup is shown as markers, with the model at that setup as a dashed line.",
        );
    }
    text
}

/// Ascending counts as runs: `[1, 2, 3, 7, 30, 31]` -> "1-3, 7, 30-31".
fn runs(counts: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < counts.len() {
        let mut j = i;
        while j + 1 < counts.len() && counts[j + 1] == counts[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            counts[i].to_string()
        } else {
            format!("{}-{}", counts[i], counts[j])
        });
        i = j + 1;
    }
    out.join(", ")
}

/// The latency chart: the latency at the achievable load, how the curve rises, and which
/// targets are marked.
pub fn latency_caption(s: &Scenario, e: &Evaluation, curve: &[CurvePoint]) -> String {
    let mut text = format!(
        "The model's latency per IO as load rises to the achievable {} IOPS, where it is {} ms{} The shaded band is its likely range (an 80 % interval).",
        num(e.iops, 0),
        ms(e.latency_ms),
        latency::shape(curve)
    );
    let rate = s.workload.target_mibps.is_some() || s.workload.target_iops.is_some();
    let marked: Vec<&str> = [
        rate.then_some("the target rate (dotted)"),
        s.workload
            .target_latency_ms
            .map(|_| "the target latency (dashed)"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !marked.is_empty() {
        text.push_str(&format!(" Green lines mark {}.", marked.join(" and ")));
    }
    text
}

/// The comparison chart: how many scenarios, and which has the highest throughput.
pub fn compare_caption(names: &[String], rows: &[MetricRow]) -> String {
    let Some(r) = rows.iter().find(|r| r.key == "throughput") else {
        return format!("{} scenarios compared.", names.len());
    };
    let best: Vec<&str> = r
        .best
        .iter()
        .zip(names)
        .filter(|(b, _)| **b)
        .map(|(_, n)| n.as_str())
        .collect();
    if best.is_empty() {
        format!(
            "{} scenarios compared; their throughput is the same.",
            names.len()
        )
    } else {
        format!(
            "{} scenarios compared; highest throughput: {}.",
            names.len(),
            best.join(", ")
        )
    }
}

/// The layouts chart: the suggested count and why more add nothing.
pub fn layouts_caption(rows: &[LayoutRow], suggested: Option<usize>) -> String {
    match suggested.and_then(|i| rows.get(i)) {
        Some(r) => format!(
            "{} datastores of {} TiB reach {} MiB/s, within 5% of the best layout; more datastores add connections, not throughput.",
            r.count,
            num(r.quota_tib, 2),
            num(r.throughput_mibps, 0)
        ),
        None => "No layouts were evaluated.".to_owned(),
    }
}

/// What the layouts chart's table says of the cost: every count costs the same.
pub const LAYOUTS_COST_NOTE: &str = "Billing is by capacity pool, so every count costs the same.";

/// The latency chart's table notes on the targets: the latency at the target rate (or
/// that the target rate is out of reach, when a rate target is set) and the latency
/// target, ms.
pub fn latency_target_notes(
    at_target_ms: Option<f64>,
    rate_target: bool,
    target_latency_ms: Option<f64>,
) -> Vec<String> {
    let mut notes = Vec::new();
    match (at_target_ms, rate_target) {
        (Some(t), _) => notes.push(format!(
            "Latency at the target rate: {} ms per IO.",
            num(t, 3)
        )),
        (None, true) => notes.push("The target rate is above the achievable rate.".to_owned()),
        (None, false) => {}
    }
    if let Some(t) = target_latency_ms {
        notes.push(format!("Target latency: {} ms per IO.", num(t, 3)));
    }
    notes
}
