//! Latency in words, shared by the planner, the charts and every report format: how
//! close the workload runs to its binding limit, the target rate, and where the curve's
//! knee is. Whether the latency target is met is the verdict's to say.

use crate::engine::model::curve::CurvePoint;
use crate::engine::units::mibps_to_iops;
use crate::engine::{Evaluation, Limit, Scenario};
use crate::format::{Num, ms};
use crate::verdict::Verdict;

/// How close the workload runs to the binding limit `l`: "runs at 90% of it (9,210 of
/// 10,240 MiB/s); latency 3.47 ms per IO". A limit on reads or writes only is compared
/// with the read or write part of the load. Empty when the headroom is not a number.
pub fn binding_load(l: &Limit, latency_ms: f64) -> String {
    let share = 1.0 / (1.0 + l.headroom_pct / 100.0);
    if !(share.is_finite() && share > 0.0 && l.mibps.is_finite()) {
        return String::new();
    }
    let part = match l.applies.key() {
        "read" => " of reads",
        "write" => " of writes",
        _ => "",
    };
    format!(
        "runs at {}% of it ({} of {} MiB/s{part}); latency {} ms per IO",
        Num(share * 100.0, 0),
        Num(l.mibps * share, 0),
        Num(l.mibps, 0),
        ms(latency_ms)
    )
}

/// The target rate in IOPS: the larger of the IOPS target and the MiB/s target, as the
/// engine judges `latency_at_target_ms`.
pub fn target_iops(s: &Scenario) -> Option<f64> {
    let w = &s.workload;
    let from_mibps = w.target_mibps.map(|t| mibps_to_iops(t, w.io_size_kib));
    match (from_mibps, w.target_iops) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// The point where the curve's latency has doubled from its light-load value (the
/// knee: queues form past it); `None` for a curve that stays flatter than that.
pub fn knee(points: &[CurvePoint]) -> Option<CurvePoint> {
    let first = points.first()?.latency_ms;
    points
        .iter()
        .find(|p| first > 0.0 && p.latency_ms >= 2.0 * first)
        .copied()
}

/// How the curve rises, as the end of a sentence: "; it doubles from 0.312 ms at light
/// load by 40% load (3,684 MiB/s)." (or that it stays flat up to the achievable load).
pub fn shape(points: &[CurvePoint]) -> String {
    let before_last = points.iter().rev().nth(1).map_or(0.0, |p| p.load_pct);
    match (points.first(), knee(points)) {
        (Some(light), Some(k)) if k.load_pct < 100.0 => format!(
            "; it doubles from {} ms at light load by {}% load ({} MiB/s).",
            ms(light.latency_ms),
            Num(k.load_pct, 0),
            Num(k.mibps, 0)
        ),
        (Some(light), Some(_)) => format!(
            "; from {} ms at light load it stays within twice that up to {}% load and rises only at the achievable load, where the IOs in flight queue at the binding limit.",
            ms(light.latency_ms),
            Num(before_last, 0)
        ),
        (Some(light), None) => format!(
            "; from {} ms at light load it stays within twice that up to the achievable load.",
            ms(light.latency_ms)
        ),
        (None, _) => ".".to_owned(),
    }
}

/// The latency section in words: the verdict's headline latency, then how the curve
/// rises ("It doubles from 0.312 ms at light load by 40% load (3,684 MiB/s).").
pub fn summary(e: &Evaluation, v: &Verdict) -> String {
    let points: Vec<CurvePoint> = e.latency_curve.points().collect();
    let rest = shape(&points);
    let rest = rest.trim_start_matches("; ");
    let mut chars = rest.chars();
    let curve = match chars.next() {
        Some(c) if c != '.' => format!(" {}{}", c.to_uppercase(), chars.as_str()),
        _ => String::new(),
    };
    format!("{}{curve}", v.latency.statement)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixture;

    #[test]
    fn milliseconds_have_three_significant_digits() {
        assert_eq!(ms(3.4744), "3.47");
        assert_eq!(ms(0.31221), "0.312");
        assert_eq!(ms(12.44), "12.4");
        assert_eq!(ms(125.4), "125");
        assert_eq!(ms(2.0), "2");
    }

    #[test]
    fn the_binding_load_says_how_close_and_how_slow() {
        let (_, e) = fixture::example();
        let l = e.limits.iter().find(|l| l.id == e.binding).unwrap();
        let text = binding_load(l, e.latency_ms);
        assert!(text.starts_with("runs at "), "{text}");
        assert!(
            text.contains(&format!("of {} MiB/s", Num(l.mibps, 0))),
            "{text}"
        );
        assert!(text.ends_with(" ms per IO"), "{text}");
    }

    #[test]
    fn the_knee_is_where_latency_doubles() {
        let p = |load_pct, latency_ms| CurvePoint {
            load_pct,
            iops: load_pct,
            mibps: load_pct,
            latency_ms,
            latency_ms_low: latency_ms,
            latency_ms_high: latency_ms,
        };
        let curve = [p(5.0, 1.0), p(50.0, 1.5), p(90.0, 2.5), p(100.0, 4.0)];
        assert_eq!(knee(&curve).map(|k| k.load_pct), Some(90.0));
        assert_eq!(knee(&[p(5.0, 1.0), p(100.0, 1.2)]), None);
        assert_eq!(knee(&[]), None);
    }

    #[test]
    fn the_section_prints_the_verdicts_latency_then_the_curve() {
        let (mut s, _) = fixture::example();
        s.workload.target_latency_ms = Some(50.0);
        let e = crate::engine::evaluate(&s).unwrap();
        let v = crate::verdict::evaluation(&s, &e, crate::engine::pricing::book());
        let text = summary(&e, &v);
        assert!(text.starts_with(&v.latency.statement), "{text}");
        assert!(text.len() > v.latency.statement.len() + 10, "{text}");
        assert!(!text.contains(". ;") && !text.contains(".."), "{text}");
    }
}
