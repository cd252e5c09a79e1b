//! A volume's demand over time: each metric's percentiles, and the combined series
//! (read + write MiB/s and IOPS, the IO-weighted latency) interval by interval.

use super::metrics::{Metric, VolumeSeries};
use serde::Serialize;
use std::collections::BTreeMap;

/// P50, P95 and the largest sample of a series.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Spread {
    pub p50: f64,
    pub p95: f64,
    pub max: f64,
}

/// The `q`-quantile (0..1) of `values`, interpolated between the two nearest ranks
/// (Hyndman and Fan's type 7, as spreadsheets compute PERCENTILE.INC); None when empty.
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    let n = sorted.len();
    let first = *sorted.first()?;
    if n == 1 {
        return Some(first);
    }
    let h = (n - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    Some(sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo]))
}

impl Spread {
    /// The spread of `values`; None when there are none.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Option<Spread> {
        let mut v: Vec<f64> = values.into_iter().filter(|x| x.is_finite()).collect();
        v.sort_by(f64::total_cmp);
        Some(Spread {
            p50: quantile(&v, 0.5)?,
            p95: quantile(&v, 0.95)?,
            max: *v.last()?,
        })
    }
}

/// One interval of a volume's load.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Seconds since 1970, when the export's time could be read.
    pub at: Option<i64>,
    pub mibps: f64,
    pub read_mibps: f64,
    pub iops: f64,
    pub read_iops: f64,
    /// IO-weighted mean of the read and write latency, ms; None without IOs or latency.
    pub latency_ms: Option<f64>,
}

/// A volume's demand, as the answer reports it and the sizing reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Demand {
    /// Each metric present, in its reported unit.
    pub metrics: BTreeMap<Metric, Spread>,
    /// Read + write MiB/s, IOPS and latency interval by interval, in time order.
    pub samples: Vec<Sample>,
    pub mibps: Option<Spread>,
    pub iops: Option<Spread>,
    pub latency_ms: Option<Spread>,
    /// Average KiB per IO over the whole period.
    pub io_size_kib: Option<f64>,
    /// Share of the IOs that are reads over the whole period, %.
    pub read_pct: Option<f64>,
    /// Last allocated size, TiB.
    pub allocated_tib: Option<f64>,
    /// Largest share of the quota consumed, %.
    pub consumed_max_pct: Option<f64>,
}

impl Demand {
    /// The demand of one volume's series.
    pub fn of(v: &VolumeSeries) -> Demand {
        let metrics = v
            .metrics
            .iter()
            .filter_map(|(m, s)| Some((*m, Spread::of(s.values().copied())?)))
            .collect();
        let get = |m: Metric, at: &str| v.metrics.get(&m).and_then(|s| s.get(at)).copied();
        let mut times: Vec<&String> = [
            Metric::ReadThroughput,
            Metric::WriteThroughput,
            Metric::ReadIops,
            Metric::WriteIops,
        ]
        .iter()
        .filter_map(|m| v.metrics.get(m))
        .flat_map(|s| s.keys())
        .collect();
        times.sort();
        times.dedup();
        let samples: Vec<Sample> = times
            .into_iter()
            .map(|at| {
                let (rm, wm) = (
                    get(Metric::ReadThroughput, at).unwrap_or(0.0),
                    get(Metric::WriteThroughput, at).unwrap_or(0.0),
                );
                let (ri, wi) = (
                    get(Metric::ReadIops, at).unwrap_or(0.0),
                    get(Metric::WriteIops, at).unwrap_or(0.0),
                );
                let weighted = [
                    (get(Metric::AverageReadLatency, at), ri),
                    (get(Metric::AverageWriteLatency, at), wi),
                ];
                let ios: f64 = weighted
                    .iter()
                    .filter(|(l, _)| l.is_some())
                    .map(|(_, n)| n)
                    .sum();
                let latency_ms = (ios > 0.0).then(|| {
                    weighted
                        .iter()
                        .map(|(l, n)| l.unwrap_or(0.0) * n)
                        .sum::<f64>()
                        / ios
                });
                Sample {
                    at: super::metrics::seconds(at),
                    mibps: rm + wm,
                    read_mibps: rm,
                    iops: ri + wi,
                    read_iops: ri,
                    latency_ms,
                }
            })
            .collect();
        let total = |f: fn(&Sample) -> f64| samples.iter().map(f).sum::<f64>();
        let (mib, ios, read_ios) = (
            total(|s| s.mibps),
            total(|s| s.iops),
            total(|s| s.read_iops),
        );
        Demand {
            metrics,
            mibps: Spread::of(samples.iter().map(|s| s.mibps)),
            iops: Spread::of(samples.iter().map(|s| s.iops)),
            latency_ms: Spread::of(samples.iter().filter_map(|s| s.latency_ms)),
            io_size_kib: (ios > 0.0 && mib > 0.0).then(|| mib * 1024.0 / ios),
            read_pct: (ios > 0.0).then(|| read_ios / ios * 100.0),
            allocated_tib: v
                .metrics
                .get(&Metric::VolumeAllocatedSize)
                .and_then(|s| s.values().last().copied())
                .filter(|t| *t > 0.0),
            consumed_max_pct: v
                .metrics
                .get(&Metric::VolumeConsumedSizePercentage)
                .and_then(|s| s.values().copied().reduce(f64::max)),
            samples,
        }
    }
}
