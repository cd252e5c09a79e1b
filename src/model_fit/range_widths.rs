//! The likely ranges' widths from the leave-one-document-out errors, their coverage,
//! and the envelope of inputs the series cover.
//!
//! Two series of one document share its setup and its bias, so the widths come from
//! withholding whole documents: each withheld point is put in the class of resource
//! that binds it under the full fit (`engine::range::Basis`; latency figures in a
//! class of their own). A class's width is the log error that 80 % of its withheld
//! points stay within; a class with fewer than [`MIN_POINTS`] points takes the width of
//! all of them. The coverage is honest in the same way as the accuracy table: each
//! withheld point is judged by the width the *other* documents give its class, widened
//! for its assumptions and for each of its inputs the other documents do not cover
//! (as the engine widens a prediction outside the committed envelope), so a document
//! never sets the interval it is checked against.

use super::Withheld;
use super::series::{self, SeriesFile};
use crate::engine::catalog::{Coverage, Envelope, Ranges, Width};
use crate::engine::model::Params;
use crate::engine::range::{self, Basis};
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

/// One withheld point: its document, what its range rests on and its log error.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// Index of its document in `SeriesFile::documents`.
    pub document: usize,
    /// `None`: a latency figure.
    pub class: Option<Basis>,
    /// Assumed ceilings near its rate, plus its inputs no other document covers.
    pub assumptions: usize,
    /// |ln(predicted / published)| with its document withheld (0 when a bound holds).
    pub log_error: f64,
}

/// The envelope of the inputs of the series `keep` selects (their scenarios and
/// the scenarios they are compared with).
pub fn envelope(file: &SeriesFile, params: &Params, keep: impl Fn(usize) -> bool) -> Envelope {
    let mut e = Envelope {
        services: Vec::new(),
        vm_sizes: Vec::new(),
        io_kib: [f64::INFINITY, 0.0],
        in_flight: [f64::INFINITY, 0.0],
    };
    let widen = |r: &mut [f64; 2], v: f64| *r = [r[0].min(v), r[1].max(v)];
    for (_, s) in file.series.iter().enumerate().filter(|(i, _)| keep(*i)) {
        for p in &s.points {
            for sc in std::iter::once(&p.scenario).chain(p.versus.as_ref()) {
                let plan = series::plan(sc, params);
                let service = plan.service.key().to_owned();
                if !e.services.contains(&service) {
                    e.services.push(service);
                }
                if plan.avs.is_none()
                    && let Some(vm) = plan.vm
                    && !e.vm_sizes.contains(&vm.name)
                {
                    e.vm_sizes.push(vm.name.clone());
                }
                widen(&mut e.io_kib, plan.io_kib);
                widen(&mut e.in_flight, range::in_flight(&plan));
            }
        }
    }
    e.services.sort();
    e.vm_sizes.sort();
    e
}

/// The document-withheld points of `rows` (one row per document of `file`, in order),
/// classed under the full fit `full`; each counts as an assumption every input of
/// its scenario that no other document covers.
pub fn samples(file: &SeriesFile, full: &Params, rows: &[Withheld]) -> Vec<Sample> {
    let mut out = Vec::new();
    for (d, ((_, series), row)) in file.documents().iter().zip(rows).enumerate() {
        let others = envelope(file, full, |i| !series.contains(&i));
        let points = series.iter().flat_map(|&i| &file.series[i].points);
        for (p, e) in points.zip(&row.errors) {
            let g = p.grounds(full);
            let plan = series::plan(&p.scenario, full);
            out.push(Sample {
                document: d,
                class: g.class,
                assumptions: g.assumptions + range::outside(&others, &plan).len(),
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
/// document `without`.
fn widths(samples: &[Sample], without: Option<usize>) -> (BTreeMap<String, Width>, Width, Width) {
    let kept = || samples.iter().filter(|s| Some(s.document) != without);
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

/// How many samples lie inside the interval the other documents set.
pub fn coverage(samples: &[Sample], documents: usize) -> Coverage {
    let mut inside = 0;
    for i in 0..documents {
        let (classes, pooled, latency) = widths(samples, Some(i));
        for s in samples.iter().filter(|s| s.document == i) {
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

/// The committed ranges from the leave-one-document-out rows.
pub fn ranges(file: &SeriesFile, full: &Params, rows: &[Withheld]) -> Ranges {
    let samples = samples(file, full, rows);
    let (classes, pooled, latency) = widths(&samples, None);
    Ranges {
        about: "Widths of the 80 % likely ranges, written by `volplan calibrate --write`: per class of binding resource (engine::range::Basis), ln(high / central) such that 80 % of the class's published points withheld with their whole source document (leave-one-document-out) lie within it; a class with fewer than 5 points takes the pooled width. A prediction widens its class's width by assumption_log_width for each assumed or lower-bound ceiling near its rate and for each input outside the envelope the series cover. coverage: document-withheld points inside the interval the other documents set.".to_owned(),
        assumption_log_width: ASSUMPTION_LOG_WIDTH,
        classes,
        pooled,
        latency,
        coverage: coverage(&samples, file.documents().len()),
        envelope: envelope(file, full, |_| true),
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
        "\ninterval coverage: {} of {} document-withheld points ({:.1}%) inside the 80 % interval their own document did not set",
        c.inside,
        c.points,
        f64::from(c.inside) * 100.0 / f64::from(c.points.max(1))
    );
    out
}
