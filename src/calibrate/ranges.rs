//! The likely ranges' widths from the leave-one-series-out errors, and their coverage.
//!
//! Each withheld point is put in the class of resource that binds it under the full
//! fit (`engine::range::Basis`; latency figures in a class of their own). A class's
//! width is the log error that 80 % of its withheld points stay within; a class with
//! fewer than [`MIN_POINTS`] points takes the width of all of them. The coverage is
//! honest in the same way as the accuracy table: each withheld point is judged by the
//! width the *other* series give its class (widened for its assumptions), so a series
//! never sets the interval it is checked against.

use super::Withheld;
use super::series::SeriesFile;
use crate::engine::catalog::{Coverage, Ranges, Width};
use crate::engine::model::Params;
use crate::engine::range::Basis;
use std::collections::BTreeMap;

/// The share of a class's withheld points its interval holds.
pub const QUANTILE: f64 = 0.8;

/// No interval is narrower than this (log factor, 2 %): the published figures
/// themselves are rounded to about that.
pub const MIN_LOG_WIDTH: f64 = 0.02;

/// A class with fewer withheld points takes the pooled width.
pub const MIN_POINTS: usize = 5;

/// How far (log factor, either side) a parameter that rests on an assumption may be
/// off: 1.5x, the spread between services' published per-connection and back-end
/// figures where both exist (Azure Files NFS against ANF connections, GCNV's ONTAP
/// relatives against ANF's write-to-read ratio).
pub const ASSUMPTION_LOG_WIDTH: f64 = 0.405_465_108_108_164_4;

/// One withheld point: its series, what its range rests on and its log error.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    pub series: usize,
    /// `None`: a latency figure.
    pub class: Option<Basis>,
    pub assumptions: usize,
    /// |ln(predicted / published)| with the series withheld (0 when a bound holds).
    pub log_error: f64,
}

/// The withheld points of `rows` (one row per series of `file`, in order), classed
/// under the full fit `full`.
pub fn samples(file: &SeriesFile, full: &Params, rows: &[Withheld]) -> Vec<Sample> {
    let mut out = Vec::new();
    for (i, (s, row)) in file.series.iter().zip(rows).enumerate() {
        for (p, e) in s.points.iter().zip(&row.errors) {
            let g = p.grounds(full);
            out.push(Sample {
                series: i,
                class: g.class,
                assumptions: g.assumptions,
                log_error: (1.0 + e.error).max(1e-300).ln().abs(),
            });
        }
    }
    out
}

/// The 80 % width of `errors` (at least [`MIN_LOG_WIDTH`]).
fn width(mut errors: Vec<f64>) -> Width {
    errors.sort_by(f64::total_cmp);
    let n = errors.len();
    let log_width = if n == 0 {
        MIN_LOG_WIDTH
    } else {
        // The smallest value at least QUANTILE of the points do not exceed.
        let k = ((QUANTILE * n as f64).ceil() as usize).clamp(1, n) - 1;
        errors[k].max(MIN_LOG_WIDTH)
    };
    Width {
        log_width,
        points: n as u32,
    }
}

/// The widths of every class, the pooled one and latency's, from the samples not of
/// series `without`.
fn widths(samples: &[Sample], without: Option<usize>) -> (BTreeMap<String, Width>, Width, Width) {
    let kept = || samples.iter().filter(|s| Some(s.series) != without);
    let of = |class: Option<Basis>| {
        width(
            kept()
                .filter(|s| s.class == class)
                .map(|s| s.log_error)
                .collect(),
        )
    };
    let pooled = width(
        kept()
            .filter(|s| s.class.is_some())
            .map(|s| s.log_error)
            .collect(),
    );
    let classes = Basis::ALL
        .iter()
        .map(|&b| {
            let w = of(Some(b));
            let w = if (w.points as usize) < MIN_POINTS {
                Width {
                    log_width: pooled.log_width,
                    points: w.points,
                }
            } else {
                w
            };
            (b.key().to_owned(), w)
        })
        .collect();
    (classes, pooled, of(None))
}

/// The log half-width of a sample's interval under `classes` and `latency`.
fn interval(s: &Sample, classes: &BTreeMap<String, Width>, pooled: Width, latency: Width) -> f64 {
    let w = match s.class {
        Some(b) => classes.get(b.key()).copied().unwrap_or(pooled),
        None => latency,
    };
    let a = ASSUMPTION_LOG_WIDTH;
    (w.log_width * w.log_width + s.assumptions as f64 * a * a).sqrt()
}

/// How many samples lie inside the interval the other series set.
pub fn coverage(samples: &[Sample], series: usize) -> Coverage {
    let mut inside = 0;
    for i in 0..series {
        let (classes, pooled, latency) = widths(samples, Some(i));
        for s in samples.iter().filter(|s| s.series == i) {
            if s.log_error <= interval(s, &classes, pooled, latency) + 1e-12 {
                inside += 1;
            }
        }
    }
    Coverage {
        inside,
        points: samples.len() as u32,
    }
}

/// The committed ranges from the leave-one-series-out rows.
pub fn ranges(file: &SeriesFile, full: &Params, rows: &[Withheld]) -> Ranges {
    let samples = samples(file, full, rows);
    let (classes, pooled, latency) = widths(&samples, None);
    Ranges {
        about: "Widths of the 80 % likely ranges, written by `volplan calibrate --write`: per class of binding resource (engine::range::Basis), ln(high / central) such that 80 % of the class's withheld published points (leave-one-series-out) lie within it; a class with fewer than 5 points takes the pooled width. A prediction widens its class's width by assumption_log_width for each assumed or lower-bound ceiling near its rate. coverage: withheld points inside the interval the other series set.".to_owned(),
        assumption_log_width: ASSUMPTION_LOG_WIDTH,
        classes,
        pooled,
        latency,
        coverage: coverage(&samples, file.series.len()),
    }
}

/// The ranges as a Markdown table, with the coverage below it.
pub fn table(r: &Ranges) -> String {
    use std::fmt::Write as _;
    let mut out =
        String::from("| binding resource | withheld points | 80 % within |\n|---|---:|---:|\n");
    for b in Basis::ALL {
        let w = r.width(b.key());
        let _ = writeln!(
            out,
            "| {} | {} | ±{:.1}% |",
            b.key(),
            w.points,
            (w.log_width.exp() - 1.0) * 100.0
        );
    }
    let _ = writeln!(
        out,
        "| latency | {} | ±{:.1}% |",
        r.latency.points,
        (r.latency.log_width.exp() - 1.0) * 100.0
    );
    let c = r.coverage;
    let _ = writeln!(
        out,
        "\ninterval coverage: {} of {} withheld points ({:.1}%) inside the 80 % interval their own series did not set",
        c.inside,
        c.points,
        f64::from(c.inside) * 100.0 / f64::from(c.points.max(1))
    );
    out
}
