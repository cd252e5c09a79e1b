//! Calibration to one environment: refits the parameters that govern a scenario's IO
//! path (its connections, client path and round trip) to the runs measured there, so
//! that changes from there ("nconnect 8 instead of 1") are predicted from what the
//! user's own clients and network do.
//!
//! A maximum a posteriori fit: each run adds `ln(predicted / measured) / RUN_LOG_SD`
//! for its throughput (and its mean latency, when measured), each parameter a prior
//! `ln(value / published fit) / sd` whose spread is the published fit's own
//! likely-range width for that kind of resource. So one run moves a parameter
//! only as far as it is evidence against the published fit, and a parameter no run
//! depends on keeps its published value. The published fit itself is untouched.
//! Pure: the caller passes the stored runs with the scenario revision each was
//! measured against.

use super::Measurement;
use super::against_predicted::variant;
use crate::engine::evaluation::{CalibrationNote, MovedParameter};
use crate::engine::field_error::{FieldError, FieldErrors};
use crate::engine::limits::LimitSet;
use crate::engine::model::Params;
use crate::engine::model::params::INFO;
use crate::engine::model_step::core;
use crate::engine::plan::Plan;
use crate::engine::pricing;
use crate::engine::range::{Basis, width};
use crate::engine::scenario::{Protocol, Scenario, Service};
use crate::engine::service::azure_files::is_ssd;
use crate::model_fit::lm;

/// How far one run's throughput may be from what its setup sustains (log factor, one
/// standard deviation). No published document gives the spread of repeated runs, so
/// this is a stated assumption: about twice the joint fit's in-sample median error
/// (docs/accuracy.md), so that one run moves a parameter only as far as its evidence.
pub const RUN_LOG_SD: f64 = 0.10;

/// A run's mean latency weighs half as much as its throughput (it also carries the
/// client's own queueing, which the model does not see).
const LATENCY_LOG_SD: f64 = 2.0 * RUN_LOG_SD;

/// Most runs one calibration reads (the newest are kept).
pub const MAX_RUNS: u32 = 200;

/// Iteration cap of the refit (a handful of parameters converges in far fewer).
const MAX_ITERATIONS: usize = 200;

/// One measured run and the scenario revision it was measured against.
#[derive(Debug, Clone, Copy)]
pub struct Run<'a> {
    pub scenario: &'a Scenario,
    pub measurement: &'a Measurement,
}

/// A refit: the parameters to evaluate with, and which moved.
#[derive(Debug, Clone)]
pub struct Calibration {
    pub params: Params,
    pub note: CalibrationNote,
}

/// The parameters that govern `s`'s IO path, each with the class of resource whose
/// published width is its prior spread.
pub fn governing(s: &Scenario) -> Vec<(&'static str, Basis)> {
    use Basis::{Client, Concurrency, Connection};
    let c = &s.clients;
    let mut out = Vec::new();
    let delay = match s.storage.service {
        Service::Anf => Some("anf_delay_ms"),
        Service::Gcnv => Some("gcnv_delay_ms"),
        Service::AzureFiles if is_ssd(s.storage.level) => Some("files_ssd_delay_ms"),
        Service::AzureFiles => None,
    };
    if c.avs.is_some() {
        for name in [
            "avs_flow_a_us",
            "avs_flow_b_us_per_kib",
            "avs_host_a_us",
            "avs_host_b_us_per_kib",
            "avs_vm_a_us",
            "avs_vm_b_us_per_kib",
        ] {
            out.push((name, Connection));
        }
    } else if c.protocol == Protocol::Smb3 {
        for name in [
            "smb_client_read_a_us",
            "smb_client_write_a_us",
            "smb_read_b_us_per_kib",
            "smb_write_b_us_per_kib",
        ] {
            out.push((name, Connection));
        }
        for name in ["client_read_b_us_per_kib", "client_write_b_us_per_kib"] {
            out.push((name, Client));
        }
    } else {
        let conn: &[&'static str] = if s.storage.service == Service::AzureFiles {
            &["files_nfs_conn_a_us", "files_nfs_conn_b_us_per_kib"]
        } else {
            &[
                "conn_read_a_us",
                "conn_read_b_us_per_kib",
                "conn_write_a_us",
                "conn_write_b_us_per_kib",
            ]
        };
        out.extend(conn.iter().map(|&n| (n, Connection)));
        for name in [
            "client_read_a_us",
            "client_read_b_us_per_kib",
            "client_write_a_us",
            "client_write_b_us_per_kib",
        ] {
            out.push((name, Client));
        }
    }
    if let Some(d) = delay {
        out.push((d, Concurrency));
    }
    out
}

/// Index of parameter `name` in the vector.
fn index(name: &str) -> usize {
    INFO.iter()
        .position(|i| i.name == name)
        .expect("a governing parameter is a model parameter")
}

/// Throughput (MiB/s) and mean latency (ms) of `s` under `params`, resolved with
/// `prices` (the book in force: a scenario in a currency only stored prices hold
/// resolves with it alone).
fn predict(s: &Scenario, params: &Params, prices: &pricing::PriceBook) -> Option<(f64, f64)> {
    let plan = Plan::resolve_with(s, params, prices).ok()?;
    let mut set = LimitSet::default();
    let c = core(&plan, &mut set);
    Some((c.total, c.latency_ms()))
}

/// Refits the parameters governing `base` (the scenario as it is now) to `runs`,
/// starting from and held near `published`, each run resolved with `prices` (the book
/// in force).
pub fn calibrate(
    base: &Scenario,
    published: &Params,
    runs: &[Run],
    prices: &pricing::PriceBook,
) -> Result<Calibration, FieldErrors> {
    if runs.is_empty() {
        return Err(FieldError::new(
            "measurements",
            "there is no measured run to calibrate to: import a fio, DiskSpd or elbencho result first",
        )
        .into());
    }
    let runs = &runs[runs.len().saturating_sub(MAX_RUNS as usize)..];
    // Each run as the scenario it was measured against, at its own IO size, mix and
    // concurrency; a run whose revision no longer evaluates is left out.
    let cases: Vec<(Scenario, &Measurement)> = runs
        .iter()
        .map(|r| (variant(r.scenario, r.measurement), r.measurement))
        .filter(|(s, m)| m.mibps > 0.0 && predict(s, published, prices).is_some())
        .collect();
    if cases.is_empty() {
        return Err(FieldError::new(
            "measurements",
            "no measured run can be predicted with this scenario (each run is evaluated at its own IO size, mix and IOs in flight): check the scenario's clients and storage",
        )
        .into());
    }
    let names = governing(base);
    let idx: Vec<usize> = names.iter().map(|(n, _)| index(n)).collect();
    let sd: Vec<f64> = names
        .iter()
        .map(|(_, b)| width(*b).log_width.max(RUN_LOG_SD))
        .collect();
    let start_vec = published.to_vec();
    let x0: Vec<f64> = idx.iter().map(|&i| start_vec[i].ln()).collect();
    let lo: Vec<f64> = idx.iter().map(|&i| INFO[i].min.ln()).collect();
    let hi: Vec<f64> = idx.iter().map(|&i| INFO[i].max.ln()).collect();
    let params_at = |x: &[f64]| {
        let mut v = start_vec.clone();
        for (&i, xi) in idx.iter().zip(x) {
            v[i] = xi.exp();
        }
        Params::from_slice(&v)
    };
    let residuals = |x: &[f64], out: &mut Vec<f64>| {
        out.clear();
        for ((xi, x0i), s) in x.iter().zip(&x0).zip(&sd) {
            out.push((xi - x0i) / s);
        }
        let params = params_at(x);
        for (s, m) in &cases {
            let (mibps, latency) = predict(s, &params, prices).unwrap_or((f64::NAN, f64::NAN));
            out.push(log_ratio(mibps, m.mibps) / RUN_LOG_SD);
            if let Some(l) = m.latency_mean_ms.filter(|l| *l > 0.0) {
                out.push(log_ratio(latency, l) / LATENCY_LOG_SD);
            }
        }
    };
    let fit = lm::minimise(&x0, &lo, &hi, MAX_ITERATIONS, &residuals);
    let params = params_at(&fit.x);
    // Measured over predicted, geometric mean over the runs, as a percentage.
    let gap = |p: &Params| {
        let logs: Vec<f64> = cases
            .iter()
            .filter_map(|(s, m)| {
                let (mibps, _) = predict(s, p, prices)?;
                (mibps.is_finite() && mibps > 0.0).then(|| (m.mibps / mibps).ln())
            })
            .collect();
        (!logs.is_empty())
            .then(|| ((logs.iter().sum::<f64>() / logs.len() as f64).exp() - 1.0) * 100.0)
    };
    let after = params.to_vec();
    let mut moved: Vec<MovedParameter> = idx
        .iter()
        .map(|&i| MovedParameter {
            name: INFO[i].name.to_owned(),
            about: INFO[i].about.to_owned(),
            unit: INFO[i].unit.to_owned(),
            before: start_vec[i],
            after: after[i],
        })
        .collect();
    moved.sort_by(|a, b| {
        let m = |p: &MovedParameter| (p.after / p.before).ln().abs();
        m(b).total_cmp(&m(a))
    });
    Ok(Calibration {
        params,
        note: CalibrationNote {
            measurements: cases.len() as u32,
            parameters: moved,
            measured_vs_published_pct: gap(published),
            measured_vs_refitted_pct: gap(&params),
        },
    })
}

/// `ln(a / b)`, large but finite when `a` is not a positive number.
fn log_ratio(a: f64, b: f64) -> f64 {
    if a.is_finite() && a > 0.0 {
        (a / b).ln()
    } else {
        10.0
    }
}

/// Evaluates `s` priced from `prices`, with the scenario's calibration to its own
/// measurements (`note`) when it has one: the one way every page, report and API
/// answer of a saved scenario evaluates it.
pub fn evaluate(
    s: &Scenario,
    prices: &pricing::PriceBook,
    note: Option<&CalibrationNote>,
) -> Result<crate::engine::Evaluation, FieldErrors> {
    evaluate_as(s, prices, note, true)
}

/// [`evaluate`], without the per-level reverse sizing when `sizing` is false: how the
/// verdict evaluates the neighbours and sizing rows of a calibrated scenario, so that
/// what decides it starts from the same parameters as the figure it changes.
pub fn evaluate_as(
    s: &Scenario,
    prices: &pricing::PriceBook,
    note: Option<&CalibrationNote>,
    sizing: bool,
) -> Result<crate::engine::Evaluation, FieldErrors> {
    match note {
        Some(note) => {
            let published = &crate::engine::catalog::catalog().model.params;
            let params = apply(published, &note.parameters);
            crate::engine::evaluate::evaluate_calibrated(s, prices, &params, note.clone(), sizing)
        }
        None if sizing => crate::engine::evaluate_in(s, prices),
        None => crate::engine::evaluate::evaluate_without_sizing(s, prices),
    }
}

/// The published parameters with a stored calibration's values applied (parameters
/// it names that the model no longer has are ignored).
pub fn apply(published: &Params, moved: &[MovedParameter]) -> Params {
    let mut v = published.to_vec();
    for m in moved {
        if let Some(i) = INFO.iter().position(|i| i.name == m.name)
            && m.after.is_finite()
            && m.after >= INFO[i].min
            && m.after <= INFO[i].max
        {
            v[i] = m.after;
        }
    }
    Params::from_slice(&v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::catalog;
    use crate::measure::Tool;

    fn scenario() -> Scenario {
        serde_json::from_value(serde_json::json!({
            "name": "one client",
            "workload": {"io_size_kib": 64, "read_pct": 100, "access": "sequential",
                         "threads": 4, "queue_depth": 16, "capacity_tib": 10},
            "storage": {"service": "anf", "level": "ultra", "qos": "manual",
                        "volumes": [{"count": 1, "quota_tib": 100, "throughput_mibps": 4500}]},
            "clients": {"count": 1, "vm_size": "Standard_D32s_v5", "protocol": "nfsv3", "nconnect": 1}
        }))
        .unwrap()
    }

    fn run(mibps: f64) -> Measurement {
        Measurement {
            tool: Tool::Fio,
            label: "seq-read".into(),
            iops: mibps * 16.0,
            mibps,
            read_pct: 100.0,
            io_size_kib: 64.0,
            threads: 4,
            queue_depth: 16,
            outstanding: 64,
            clients: 1,
            latency_mean_ms: None,
            latency_p50_ms: None,
            latency_p99_ms: None,
            read_iops: mibps * 16.0,
            write_iops: 0.0,
            read_mibps: mibps,
            write_mibps: 0.0,
            access: None,
            runtime_s: 60.0,
        }
    }

    #[test]
    fn a_slow_run_moves_the_connection_part_way_and_more_runs_move_it_further() {
        let s = scenario();
        let published = catalog::catalog().model.params;
        let (predicted, _) = predict(&s, &published, pricing::book()).unwrap();
        let slow = run(predicted * 0.6);
        let one = calibrate(
            &s,
            &published,
            &[Run {
                scenario: &s,
                measurement: &slow,
            }],
            pricing::book(),
        )
        .unwrap();
        let (after_one, _) = predict(&s, &one.params, pricing::book()).unwrap();
        assert!(
            after_one < predicted && after_one > slow.mibps,
            "one run moves the prediction part way: {predicted} -> {after_one} (measured {})",
            slow.mibps
        );
        let many: Vec<Run> = (0..8)
            .map(|_| Run {
                scenario: &s,
                measurement: &slow,
            })
            .collect();
        let eight = calibrate(&s, &published, &many, pricing::book()).unwrap();
        let (after_eight, _) = predict(&s, &eight.params, pricing::book()).unwrap();
        assert!(after_eight < after_one, "{after_eight} vs {after_one}");
        // The largest move is listed first and names a governing parameter.
        let top = &one.note.parameters[0];
        assert!(governing(&s).iter().any(|(n, _)| *n == top.name));
        assert!(top.after != top.before, "a listed parameter moved");
        // Applying the stored note gives the same parameters.
        assert_eq!(apply(&published, &one.note.parameters), one.params);
    }

    #[test]
    fn a_run_that_matches_the_prediction_moves_nothing_much() {
        let s = scenario();
        let published = catalog::catalog().model.params;
        let (predicted, _) = predict(&s, &published, pricing::book()).unwrap();
        let m = run(predicted);
        let c = calibrate(
            &s,
            &published,
            &[Run {
                scenario: &s,
                measurement: &m,
            }],
            pricing::book(),
        )
        .unwrap();
        for p in &c.note.parameters {
            assert!((p.after / p.before - 1.0).abs() < 0.01, "{p:?}");
        }
    }

    #[test]
    fn no_runs_is_an_error_naming_what_to_do() {
        let e = calibrate(
            &scenario(),
            &catalog::catalog().model.params,
            &[],
            pricing::book(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("import"), "{e}");
    }
}
