//! Axis ranges and drawn values, made safe in one place before plotters sees them.
//!
//! plotters places ticks by dividing an axis range until the ticks are dense enough;
//! a range that is not finite, that spans nothing or that reaches 1e300 makes that
//! arithmetic lose every digit and loop without end (a stored benchmark result of
//! 1e308 IOPS froze the server), and an element drawn far outside the range becomes a
//! dashed line billions of pixels long. So every chart builds its coordinates from the
//! [`Linear`] and [`Log`] ranges made here, and passes every value it draws through
//! their `at` (or [`value`]): whatever the data, plotters only sees finite ranges within
//! [`MAX`], at least [`MIN`] wide, and values inside them.

use std::ops::Range;

/// Largest magnitude an axis shows: far beyond any storage figure (IOPS, MiB/s, money),
/// small enough that tick arithmetic stays exact.
pub const MAX: f64 = 1e12;
/// Smallest positive value a log axis shows, and the narrowest span of a linear one.
pub const MIN: f64 = 1e-6;
/// Most decades a log axis spans below its largest value.
const LOG_DECADES: f64 = 9.0;

/// A value as charts draw it: `None` for NaN, anything beyond [`MAX`] (infinities too)
/// held at `±MAX`.
pub fn value(v: f64) -> Option<f64> {
    (!v.is_nan()).then(|| v.clamp(-MAX, MAX))
}

/// The largest drawable value of `values`, or `None` when there is none.
fn largest(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    values
        .into_iter()
        .filter_map(value)
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
}

/// What every axis answers: its range for plotters, where a value lands on it, and
/// whether a value lies on it.
pub trait Span {
    /// The axis' first and last value.
    fn bounds(&self) -> (f64, f64);

    fn range(&self) -> Range<f64> {
        let (lo, hi) = self.bounds();
        lo..hi
    }

    /// `v` inside the axis (NaN at its start).
    fn at(&self, v: f64) -> f64 {
        let (lo, hi) = self.bounds();
        if v.is_nan() { lo } else { v.clamp(lo, hi) }
    }

    /// Whether `v` lies on the axis (not beyond either end).
    fn shows(&self, v: f64) -> bool {
        let (lo, hi) = self.bounds();
        (lo..=hi).contains(&v)
    }
}

/// A linear axis and how many labels plotters should put on it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Linear {
    pub lo: f64,
    pub hi: f64,
    pub labels: usize,
}

impl Linear {
    /// From 0 to the largest of `values` times `pad`, rounded up to a 1-2-5 step so that
    /// about `target` labels (never fewer than five) fall on round values.
    pub fn from_zero(values: impl IntoIterator<Item = f64>, pad: f64, target: usize) -> Linear {
        let max = largest(values).unwrap_or(0.0) * pad;
        let max = if max.is_finite() && max >= MIN {
            max.min(MAX)
        } else {
            1.0
        };
        let raw = max / (target.max(5) - 1) as f64;
        let p = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * p)
            .find(|s| *s >= raw)
            .unwrap_or(10.0 * p);
        let steps = ((max / step).ceil() as usize).max(4);
        Linear {
            lo: 0.0,
            hi: (steps as f64 * step).min(MAX),
            labels: steps + 1,
        }
    }

    /// From 0 to just past the largest of `values` (times `pad`), not rounded: a curve
    /// fills the width and plotters picks round labels inside. Below one unit the axis
    /// runs from 0 to 1.
    pub fn tight(values: impl IntoIterator<Item = f64>, pad: f64, labels: usize) -> Linear {
        let max = largest(values).unwrap_or(0.0);
        let hi = if max >= 1.0 {
            (max * pad).min(MAX)
        } else {
            1.0
        };
        Linear {
            lo: 0.0,
            hi,
            labels: labels.max(2),
        }
    }

    /// A category axis of `n` slots centred on 0, 1, ..., n - 1.
    pub fn slots(n: usize) -> Linear {
        let n = n.clamp(1, 100_000);
        Linear {
            lo: -0.5,
            hi: n as f64 - 0.5,
            labels: n.min(50),
        }
    }

    /// The same axis scaled by `factor` (a second unit of the same quantity, e.g. MiB/s
    /// beside IOPS), held within the bounds.
    pub fn scaled(self, factor: f64) -> Linear {
        let hi = self.hi * factor;
        let hi = if hi.is_finite() && hi >= MIN {
            hi.min(MAX)
        } else {
            1.0
        };
        Linear {
            lo: 0.0,
            hi,
            labels: self.labels,
        }
    }
}

impl Span for Linear {
    fn bounds(&self) -> (f64, f64) {
        (self.lo, self.hi)
    }
}

/// A logarithmic axis with its tick values.
#[derive(Debug, Clone, PartialEq)]
pub struct Log {
    pub lo: f64,
    pub hi: f64,
    pub ticks: Vec<f64>,
}

impl Log {
    /// A range padded around the positive `values` and rounded outwards to 1-2-5 values,
    /// spanning at least one decade and at most [`LOG_DECADES`]. Values below [`MIN`]
    /// and far below the largest are left under the axis.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Log {
        let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
        for v in values.into_iter().filter_map(value).filter(|v| *v >= MIN) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        if !lo.is_finite() {
            return Log::span(1.0, 10.0);
        }
        let lo = lo.max(hi / 10f64.powf(LOG_DECADES));
        let down = |v: f64| {
            let p = 10f64.powf(v.log10().floor());
            [5.0, 2.0, 1.0]
                .iter()
                .map(|m| m * p)
                .find(|x| *x <= v)
                .unwrap_or(p)
        };
        let up = |v: f64| {
            let p = 10f64.powf(v.log10().floor());
            [1.0, 2.0, 5.0, 10.0]
                .iter()
                .map(|m| m * p)
                .find(|x| *x >= v)
                .unwrap_or(10.0 * p)
        };
        let (lo, hi) = (down(lo * 0.95).max(MIN), up(hi * 1.05).min(MAX));
        if hi / lo < 10.0 {
            Log::span(down(lo / 2.0).max(MIN), hi)
        } else {
            Log::span(lo, hi)
        }
    }

    /// The axis from `lo` to `hi` as given (held within [`MIN`] and [`MAX`]), with ticks.
    pub fn span(lo: f64, hi: f64) -> Log {
        let lo = if lo.is_finite() {
            lo.clamp(MIN, MAX)
        } else {
            MIN
        };
        let hi = if hi.is_finite() {
            hi.clamp(MIN, MAX)
        } else {
            MAX
        };
        let (lo, hi) = if hi > lo * 1.01 {
            (lo, hi)
        } else {
            (lo, (lo * 10.0).min(MAX))
        };
        let (lo, hi) = if hi > lo { (lo, hi) } else { (hi / 10.0, hi) };
        Log {
            lo,
            hi,
            ticks: log_ticks(lo, hi),
        }
    }
}

impl Span for Log {
    fn bounds(&self) -> (f64, f64) {
        (self.lo, self.hi)
    }
}

/// Ticks for a log axis: 1-2-5 steps when the range is narrow, decades when wide.
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo.is_normal() && hi.is_finite() && lo > 0.0 && hi >= lo) {
        return Vec::new();
    }
    let decades = (hi / lo).log10();
    let steps: &[f64] = if decades <= 1.5 {
        &[1.0, 1.5, 2.0, 3.0, 5.0, 7.0]
    } else if decades <= 2.5 {
        &[1.0, 2.0, 5.0]
    } else if decades <= 4.5 {
        &[1.0, 3.0]
    } else {
        &[1.0]
    };
    let mut out = Vec::new();
    let mut p = 10f64.powf(lo.log10().floor());
    while p > 0.0 && p <= hi {
        for m in steps {
            let v = p * m;
            if v >= lo && v <= hi {
                out.push(v);
            }
        }
        p *= 10.0;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Doubles at the extremes, mixed with ordinary ones.
    fn any_double() -> impl Strategy<Value = f64> {
        prop_oneof![
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(f64::NEG_INFINITY),
            Just(f64::MAX),
            Just(1e308),
            Just(5e-324),
            Just(f64::MIN_POSITIVE),
            Just(0.0),
            Just(-1.0),
            proptest::num::f64::ANY,
            0.0f64..1e6,
        ]
    }

    proptest! {
        /// Whatever the values, the axes are finite, ordered, at least [`MIN`] wide,
        /// within [`MAX`], with a bounded number of labels, and they hold what they show.
        #[test]
        fn axes_are_finite_and_bounded(values in proptest::collection::vec(any_double(), 0..8)) {
            for a in [
                Linear::from_zero(values.iter().copied(), 1.05, 7),
                Linear::tight(values.iter().copied(), 1.06, 6),
            ] {
                prop_assert!(a.lo.is_finite() && a.hi.is_finite(), "{a:?}");
                prop_assert!(a.hi - a.lo >= MIN && a.hi <= MAX, "{a:?}");
                prop_assert!((2..=12).contains(&a.labels), "{a:?}");
                for v in &values {
                    prop_assert!(a.shows(a.at(*v)));
                }
            }
            let l = Log::of(values.iter().copied());
            prop_assert!(l.lo >= MIN && l.hi <= MAX && l.hi > l.lo, "{l:?}");
            prop_assert!(l.ticks.len() <= 100, "{l:?}");
            for v in &values {
                prop_assert!(l.shows(l.at(*v)));
            }
        }
    }

    #[test]
    fn ordinary_axes_read_well() {
        let a = Linear::from_zero([18_400.0], 1.0, 7);
        assert_eq!((a.hi, a.labels), (20_000.0, 5));
        for max in [0.5, 7.0, 18_400.0, 177_250.0, 1.0e6, 123.0] {
            for target in [5, 7, 9] {
                let a = Linear::from_zero([max], 1.0, target);
                assert!(a.hi >= max && (5..=11).contains(&a.labels), "{max}: {a:?}");
            }
        }
        for (lo, hi) in [(100.0, 1000.0), (1.0, 1e6), (50.0, 20_000.0), (2.0, 50.0)] {
            let t = log_ticks(lo, hi);
            assert!(
                t.len() >= 5 && t.iter().all(|v| *v >= lo && *v <= hi),
                "{t:?}"
            );
        }
        let l = Log::of([120.0, 10_240.0]);
        assert!(l.lo <= 120.0 && l.hi >= 10_240.0);
        assert_eq!(Linear::tight([1e308], 1.06, 6).hi, MAX);
        assert_eq!(Linear::tight([0.3], 1.06, 6).hi, 1.0);
    }
}
