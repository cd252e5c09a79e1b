//! `volplan calibrate`: one joint fit of every model parameter over all published
//! series, the residual of each point, and the leave-one-series-out and
//! leave-one-document-out tables.
//!
//! The fit is least squares on the log of the error (a point 10 % high weighs as much
//! as one 10 % low, whatever its unit), each point weighted by `1 / sqrt(points in its
//! series)` so that a long latency curve counts as one series, not as twenty figures.
//! It starts from the physical first guesses in `model::params::INFO`, never from the
//! committed values, so the committed values can be checked against a fresh fit.

pub mod lm;
pub mod range_widths;
pub mod run;
pub mod series;

use crate::engine::model::Params;
use crate::engine::model::params::INFO;
use series::SeriesFile;

/// The fixture's path inside the repository.
pub const SERIES_PATH: &str = "tests/fixtures/series.json";

/// Iteration cap of the optimiser (it converges in far fewer).
const MAX_ITERATIONS: usize = 2500;

/// Weight of a calibration case's distance outside its published band: the bands of
/// `calibration.json` act as near-hard constraints on the fit.
const BAND_WEIGHT: f64 = 10.0;

/// Weight of the prior that holds each parameter's logarithm near its first guess
/// (a factor e away costs as much as one point 3 % off).
const PRIOR_WEIGHT: f64 = 0.03;

/// A fitted parameter vector.
#[derive(Debug, Clone)]
pub struct Fit {
    pub params: Params,
    /// Weighted sum of squared log errors.
    pub cost: f64,
    pub iterations: usize,
}

/// One point's prediction against its published figure.
#[derive(Debug, Clone)]
pub struct PointError {
    pub series: String,
    pub point: String,
    pub published: f64,
    pub predicted: f64,
    /// `predicted / published - 1` after bounds (0 when a one-sided figure holds).
    pub error: f64,
}

/// Fits every parameter to every series except those `withheld` (indices into the
/// file).
pub fn fit(file: &SeriesFile, withheld: &[usize]) -> Fit {
    let lo: Vec<f64> = INFO.iter().map(|i| i.min.ln()).collect();
    let hi: Vec<f64> = INFO.iter().map(|i| i.max.ln()).collect();
    let start: Vec<f64> = INFO.iter().map(|i| i.start.ln()).collect();
    let residuals = |x: &[f64], out: &mut Vec<f64>| {
        let theta: Vec<f64> = x.iter().map(|v| v.exp()).collect();
        let params = Params::from_slice(&theta);
        out.clear();
        // A weak prior: each parameter stays near its first guess unless the data
        // move it, so a parameter no remaining series constrains (in cross-validation)
        // keeps a physical value instead of drifting to a bound.
        for (v, s) in x.iter().zip(&start) {
            out.push(PRIOR_WEIGHT * (v - s));
        }
        for (i, s) in file.series.iter().enumerate() {
            if withheld.contains(&i) {
                continue;
            }
            let w = 1.0 / (s.points.len() as f64).sqrt();
            for p in &s.points {
                let predicted = p.predict(&params);
                out.push(w * p.log_error(predicted));
                if p.tol_pct.is_some() || p.band.is_some() {
                    out.push(BAND_WEIGHT * p.band_violation(predicted));
                }
            }
        }
    };
    let s = lm::minimise(&start, &lo, &hi, MAX_ITERATIONS, &residuals);
    let theta: Vec<f64> = s.x.iter().map(|v| v.exp()).collect();
    Fit {
        params: Params::from_slice(&theta),
        cost: s.cost,
        iterations: s.iterations,
    }
}

/// The error of every point of the series `only` (or of all series) under `params`.
pub fn errors(file: &SeriesFile, params: &Params, only: Option<&[usize]>) -> Vec<PointError> {
    let mut out = Vec::new();
    for (i, s) in file.series.iter().enumerate() {
        if only.is_some_and(|o| !o.contains(&i)) {
            continue;
        }
        for p in &s.points {
            let predicted = p.predict(params);
            out.push(PointError {
                series: s.id.clone(),
                point: p.id.clone(),
                published: p.value,
                predicted,
                error: p.log_error(predicted).exp() - 1.0,
            });
        }
    }
    out
}

/// One row of a leave-out table: a series or a document withheld.
#[derive(Debug, Clone)]
pub struct Withheld {
    /// The withheld series' or document's id.
    pub series: String,
    pub points: usize,
    /// Median and largest |error| of its points, predicted by the rest.
    pub median: f64,
    pub worst: f64,
    /// Median |error| of the same points when they are in the fit.
    pub in_sample_median: f64,
    pub errors: Vec<PointError>,
}

impl Withheld {
    /// The factor its points are off together: exp(|mean log error|).
    pub fn factor(&self) -> f64 {
        let n = self.errors.len().max(1) as f64;
        let mean: f64 = self
            .errors
            .iter()
            .map(|e| (1.0 + e.error).max(1e-300).ln())
            .sum::<f64>()
            / n;
        mean.abs().exp()
    }
}

/// Withholds each series (or each of `only`, indices into the file) in turn, fits the
/// rest and predicts it; one row per withheld series, in file order.
pub fn leave_one_out(file: &SeriesFile, full: &Params, only: Option<&[usize]>) -> Vec<Withheld> {
    let groups: Vec<(String, Vec<usize>)> = (0..file.series.len())
        .filter(|i| only.is_none_or(|o| o.contains(i)))
        .map(|i| (file.series[i].id.clone(), vec![i]))
        .collect();
    leave_out(file, full, &groups)
}

/// Withholds each source document (every series citing it) in turn, fits the rest and
/// predicts it; one row per document, in order of first appearance.
pub fn leave_one_document_out(file: &SeriesFile, full: &Params) -> Vec<Withheld> {
    leave_out(file, full, &file.documents())
}

/// Withholds each group of series in turn (on up to four threads), fits the rest and
/// predicts the group; one row per group, in the order given.
fn leave_out(file: &SeriesFile, full: &Params, groups: &[(String, Vec<usize>)]) -> Vec<Withheld> {
    let n = groups.len();
    let mut rows: Vec<Option<Withheld>> = (0..n).map(|_| None).collect();
    let workers = std::thread::available_parallelism().map_or(1, |p| p.get().min(4));
    let chunks: Vec<Vec<usize>> = (0..workers)
        .map(|w| (0..n).skip(w).step_by(workers).collect())
        .collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|idx| {
                scope.spawn(move || {
                    idx.iter()
                        .map(|&g| {
                            let (id, series) = &groups[g];
                            let f = fit(file, series);
                            let errs = errors(file, &f.params, Some(series.as_slice()));
                            let ins = errors(file, full, Some(series.as_slice()));
                            (
                                g,
                                Withheld {
                                    series: id.clone(),
                                    points: errs.len(),
                                    median: median(errs.iter().map(|e| e.error.abs())),
                                    worst: errs.iter().map(|e| e.error.abs()).fold(0.0, f64::max),
                                    in_sample_median: median(ins.iter().map(|e| e.error.abs())),
                                    errors: errs,
                                },
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            for (g, w) in h.join().expect("a fit thread panicked") {
                rows[g] = Some(w);
            }
        }
    });
    rows.into_iter().flatten().collect()
}

/// Median of non-negative values (0 for none).
pub fn median(v: impl Iterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = v.collect();
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        0.5 * (v[m - 1] + v[m])
    }
}

/// `model.json` with `params`, the residuals and (when given) the likely ranges
/// replaced, everything else kept.
pub fn model_json(
    current: &str,
    params: &Params,
    errs: &[PointError],
    ranges: Option<&crate::engine::catalog::Ranges>,
) -> Result<String, String> {
    let mut doc: serde_json::Value =
        serde_json::from_str(current).map_err(|e| format!("model.json: {e}"))?;
    let obj = doc.as_object_mut().ok_or("model.json is not an object")?;
    let rounded: serde_json::Map<String, serde_json::Value> = INFO
        .iter()
        .zip(params.to_vec())
        .map(|(i, v)| (i.name.to_owned(), serde_json::json!(round_sig(v, 10))))
        .collect();
    obj.insert("params".into(), serde_json::Value::Object(rounded));
    if let Some(r) = ranges {
        let mut r = r.clone();
        let round = |w: &mut crate::engine::catalog::Width| w.log_width = round_sig(w.log_width, 6);
        r.classes.values_mut().for_each(round);
        round(&mut r.pooled);
        round(&mut r.latency);
        obj.insert(
            "ranges".into(),
            serde_json::to_value(&r).map_err(|e| e.to_string())?,
        );
    }
    let residuals: Vec<serde_json::Value> = errs
        .iter()
        .map(|e| {
            serde_json::json!({
                "series": e.series,
                "point": e.point,
                "published": e.published,
                "predicted": round_sig(e.predicted, 6),
                "error_pct": round_sig(e.error * 100.0, 4),
            })
        })
        .collect();
    obj.insert(
        "fit".into(),
        serde_json::json!({
            "series": SERIES_PATH,
            "points": errs.len(),
            "median_error_pct": round_sig(median(errs.iter().map(|e| e.error.abs())) * 100.0, 4),
            "max_error_pct": round_sig(errs.iter().map(|e| e.error.abs()).fold(0.0, f64::max) * 100.0, 4),
            "residuals": residuals,
        }),
    );
    let mut text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    text.push('\n');
    Ok(text)
}

/// Rounds to `digits` significant digits (stable text in model.json).
pub fn round_sig(v: f64, digits: i32) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let scale = 10f64.powi(digits - 1 - v.abs().log10().floor() as i32);
    (v * scale).round() / scale
}

/// Whether two parameter vectors agree to `rel` (relative) in every component.
pub fn same_params(a: &Params, b: &Params, rel: f64) -> Result<(), String> {
    for ((i, x), y) in INFO.iter().zip(a.to_vec()).zip(b.to_vec()) {
        if (x - y).abs() > rel * x.abs().max(y.abs()) {
            return Err(format!("{}: committed {y}, fit gives {x}", i.name));
        }
    }
    Ok(())
}
