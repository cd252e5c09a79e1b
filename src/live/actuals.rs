//! Plan against actuals: each workload of a saved plan (a scenario, or each workload of
//! an estate) against the measured volumes it became, matched by name: the volume
//! named as the workload, or as the workload followed by a number (`data`, `data-1`,
//! `data_2`, `data3`).
//!
//! The demand is the matched volumes' read + write throughput added interval by
//! interval; it is set against the plan's target (or, without one, what the plan
//! gives), and the measured median latency against the latency the model predicts at
//! the measured median rate, with its 80 % range. Intervals in which the volumes ran
//! at the plan's ceiling ([`crate::engine::same::reaches`]) for at least
//! [`MIN_CEILING_INTERVALS`] become one measured run for calibration.

use super::demand::{Demand, Sample};
use super::metrics::{Metric, Metrics, VolumeSeries};
use crate::engine::evaluate::evaluate_in;
use crate::engine::field_error::FieldErrors;
use crate::engine::pricing::PriceBook;
use crate::engine::same::{reaches, same};
use crate::engine::scenario::Scenario;
use crate::measure::{Measurement, Tool};
use std::collections::BTreeMap;

/// Fewest intervals at the ceiling that make a run (15 minutes at the 5-minute grain).
pub const MIN_CEILING_INTERVALS: usize = 3;

/// Where the measured figure sits against the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Position {
    Above,
    Below,
    AsPlanned,
}

impl Position {
    fn of(measured: f64, planned: f64) -> Position {
        if same(measured, planned) {
            Position::AsPlanned
        } else if measured > planned {
            Position::Above
        } else {
            Position::Below
        }
    }
}

/// The measured latency against the prediction at the measured rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LatencyCheck {
    pub measured_ms: f64,
    pub predicted_ms: f64,
    /// The prediction's 80 % range.
    pub range_ms: [f64; 2],
    /// Above, below or within (as planned) the range.
    pub position: Position,
}

/// One planned workload against its volumes.
#[derive(Debug, Clone)]
pub struct Actual {
    pub workload: String,
    /// The measured volumes matched to it, as named in the metrics.
    pub volumes: Vec<String>,
    pub planned_mibps: f64,
    /// True when the plan set a throughput target (else: what the plan gives).
    pub planned_is_target: bool,
    pub p95_mibps: f64,
    pub max_mibps: f64,
    /// P95 against plan, % (negative: below).
    pub difference_pct: f64,
    pub position: Position,
    pub latency: Option<LatencyCheck>,
    /// The plan's ceiling, MiB/s: what its evaluation gives.
    pub ceiling_mibps: f64,
    /// Intervals at the ceiling.
    pub ceiling_intervals: usize,
    /// The intervals at the ceiling as a measured run, when there are enough.
    pub ceiling_run: Option<Measurement>,
}

/// Whether `volume` is the one named `workload` or one of its numbered volumes.
pub fn matches(workload: &str, volume: &str) -> bool {
    let (w, v) = (workload.trim().to_lowercase(), volume.trim().to_lowercase());
    if w.is_empty() {
        return false;
    }
    match v.strip_prefix(&w) {
        Some("") => true,
        Some(rest) => {
            let digits = rest.trim_start_matches(['-', '_', '.']);
            !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
        }
        None => false,
    }
}

/// Each planned workload (name, scenario) against the measured volumes; the names of
/// the volumes no workload matched come second.
pub fn compare(
    plan: &[(String, Scenario)],
    metrics: &Metrics,
    prices: &PriceBook,
) -> Result<(Vec<Actual>, Vec<String>), FieldErrors> {
    let mut used = vec![false; metrics.volumes.len()];
    let mut out = Vec::new();
    for (i, (name, s)) in plan.iter().enumerate() {
        let hits: Vec<usize> = (0..metrics.volumes.len())
            .filter(|&j| !used[j] && matches(name, &metrics.volumes[j].name))
            .collect();
        if hits.is_empty() {
            continue;
        }
        for &j in &hits {
            used[j] = true;
        }
        let series: Vec<&VolumeSeries> = hits.iter().map(|&j| &metrics.volumes[j]).collect();
        let demand = Demand::of(&merge(&series));
        let Some(spread) = demand.mibps else {
            continue;
        };
        let e = evaluate_in(s, prices).map_err(|e| e.within(&format!("plan[{i}]")))?;
        let planned = s.workload.target_mibps.unwrap_or(e.throughput_mibps);
        let latency = demand.latency_ms.zip(demand.mibps).and_then(|(l, m)| {
            (e.throughput_mibps > 0.0).then(|| {
                let curve = &e.latency_curve;
                let predicted = curve.latency_ms_at(m.p50 / e.throughput_mibps * 100.0);
                let range = [
                    predicted * (-curve.log_width).exp(),
                    predicted * curve.log_width.exp(),
                ];
                let position = if l.p50 > range[1] && !same(l.p50, range[1]) {
                    Position::Above
                } else if l.p50 < range[0] && !same(l.p50, range[0]) {
                    Position::Below
                } else {
                    Position::AsPlanned
                };
                LatencyCheck {
                    measured_ms: l.p50,
                    predicted_ms: predicted,
                    range_ms: range,
                    position,
                }
            })
        });
        let at_ceiling: Vec<&Sample> = demand
            .samples
            .iter()
            .filter(|x| reaches(x.mibps, e.throughput_mibps))
            .collect();
        let volumes: Vec<String> = series.iter().map(|v| v.name.clone()).collect();
        let ceiling_run = (at_ceiling.len() >= MIN_CEILING_INTERVALS)
            .then(|| run(s, &volumes, &at_ceiling, metrics.interval_s));
        out.push(Actual {
            workload: name.clone(),
            volumes,
            planned_mibps: planned,
            planned_is_target: s.workload.target_mibps.is_some(),
            p95_mibps: spread.p95,
            max_mibps: spread.max,
            difference_pct: if planned > 0.0 {
                (spread.p95 - planned) / planned * 100.0
            } else {
                0.0
            },
            position: Position::of(spread.p95, planned),
            latency,
            ceiling_mibps: e.throughput_mibps,
            ceiling_intervals: at_ceiling.len(),
            ceiling_run,
        });
    }
    let unmatched = metrics
        .volumes
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|(v, _)| v.name.clone())
        .collect();
    Ok((out, unmatched))
}

/// The volumes' series as one: IOPS and throughput added, latency weighted by IOs,
/// consumed share the largest, allocated size added.
fn merge(series: &[&VolumeSeries]) -> VolumeSeries {
    if let [one] = series {
        return (*one).clone();
    }
    let mut out = VolumeSeries::default();
    let mut add = |m: Metric, at: &str, v: f64| {
        *out.metrics
            .entry(m)
            .or_default()
            .entry(at.to_owned())
            .or_insert(0.0) += v;
    };
    for v in series {
        for (m, points) in &v.metrics {
            match m {
                Metric::AverageReadLatency | Metric::AverageWriteLatency => {}
                Metric::VolumeConsumedSizePercentage => {}
                _ => points.iter().for_each(|(at, x)| add(*m, at, *x)),
            }
        }
    }
    for (lat, ios) in [
        (Metric::AverageReadLatency, Metric::ReadIops),
        (Metric::AverageWriteLatency, Metric::WriteIops),
    ] {
        let mut weighted: BTreeMap<String, (f64, f64)> = BTreeMap::new();
        for v in series {
            let Some(l) = v.metrics.get(&lat) else {
                continue;
            };
            for (at, ms) in l {
                let n = v
                    .metrics
                    .get(&ios)
                    .and_then(|s| s.get(at))
                    .copied()
                    .unwrap_or(0.0);
                let w = weighted.entry(at.clone()).or_default();
                w.0 += ms * n;
                w.1 += n;
            }
        }
        let merged: BTreeMap<String, f64> = weighted
            .into_iter()
            .filter(|(_, (_, n))| *n > 0.0)
            .map(|(at, (sum, n))| (at, sum / n))
            .collect();
        if !merged.is_empty() {
            out.metrics.insert(lat, merged);
        }
    }
    let consumed: BTreeMap<String, f64> = series
        .iter()
        .filter_map(|v| v.metrics.get(&Metric::VolumeConsumedSizePercentage))
        .flatten()
        .fold(BTreeMap::new(), |mut acc, (at, p)| {
            let e = acc.entry(at.clone()).or_insert(0.0_f64);
            *e = e.max(*p);
            acc
        });
    if !consumed.is_empty() {
        out.metrics
            .insert(Metric::VolumeConsumedSizePercentage, consumed);
    }
    out
}

/// The intervals at the ceiling as one run of the plan's clients and concurrency.
fn run(s: &Scenario, volumes: &[String], at: &[&Sample], interval_s: f64) -> Measurement {
    let n = at.len() as f64;
    let mean = |f: fn(&Sample) -> f64| at.iter().map(|x| f(x)).sum::<f64>() / n;
    let (mibps, read_mibps, iops, read_iops) = (
        mean(|x| x.mibps),
        mean(|x| x.read_mibps),
        mean(|x| x.iops),
        mean(|x| x.read_iops),
    );
    let lat: Vec<f64> = at.iter().filter_map(|x| x.latency_ms).collect();
    let w = &s.workload;
    let clients = s.clients.count.max(1);
    Measurement {
        tool: Tool::AzureMonitor,
        label: format!(
            "{} at the ceiling, {} intervals",
            volumes.join(", "),
            at.len()
        ),
        iops,
        mibps,
        read_pct: if iops > 0.0 {
            read_iops / iops * 100.0
        } else {
            w.read_pct
        },
        io_size_kib: if iops > 0.0 {
            mibps * 1024.0 / iops
        } else {
            w.io_size_kib
        },
        threads: w.threads,
        queue_depth: w.queue_depth,
        outstanding: w
            .threads
            .saturating_mul(w.queue_depth)
            .saturating_mul(clients),
        clients,
        latency_mean_ms: (!lat.is_empty()).then(|| lat.iter().sum::<f64>() / lat.len() as f64),
        latency_p50_ms: None,
        latency_p99_ms: None,
        read_iops,
        write_iops: iops - read_iops,
        read_mibps,
        write_mibps: mibps - read_mibps,
        access: Some(w.access),
        runtime_s: n * interval_s,
    }
}
