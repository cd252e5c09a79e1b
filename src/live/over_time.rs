//! A volume's demand over the period: per day (per hour when the samples span less than
//! [`HOURLY_BELOW_S`]) the P50, P95 and largest of its read + write MiB/s, for the
//! demand-over-time chart and the answer's `demand_over_time`. Samples spanning more
//! than [`MAX_PERIODS`] days are grouped in periods of several days, so that no export
//! makes more periods than a chart can show.
//!
//! Times are read as RFC 3339 (`2026-11-01T00:05:00Z`, an offset allowed); a time
//! without a zone (`2026-11-01 00:05:00`) is read as UTC. Periods start at UTC
//! midnight (or on the hour), counted from the first sample's.

use super::demand::{Sample, Spread};
use serde::Serialize;
use std::collections::BTreeMap;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// Samples spanning less than this are grouped by hour, else by day, seconds.
pub const HOURLY_BELOW_S: i64 = 2 * 86_400;

/// Most periods of one volume: a year of days.
pub const MAX_PERIODS: i64 = 400;

/// The unit of each period's length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    Hour,
    Day,
}

impl Step {
    /// The period's length, seconds.
    pub fn seconds(self) -> i64 {
        match self {
            Step::Hour => 3_600,
            Step::Day => 86_400,
        }
    }
}

/// One period's demand.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Period {
    /// When the period starts, RFC 3339 in UTC.
    pub start: String,
    pub p50: f64,
    pub p95: f64,
    pub max: f64,
    /// Samples in the period.
    pub samples: usize,
}

/// The demand period by period, in time order.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct OverTime {
    pub step: Step,
    /// Steps in each period: 1, unless the samples span more than 400 days.
    pub per: u32,
    pub periods: Vec<Period>,
    /// Samples whose time could not be read (left out of the periods).
    pub unread: usize,
}

/// The demand of `samples` period by period; None when no sample has a readable time.
pub fn of(samples: &[Sample]) -> Option<OverTime> {
    let timed: Vec<(i64, f64)> = samples
        .iter()
        .filter_map(|s| Some((s.at?, s.mibps)))
        .collect();
    let first = timed.iter().map(|t| t.0).min()?;
    let last = timed.iter().map(|t| t.0).max()?;
    let step = if last - first < HOURLY_BELOW_S {
        Step::Hour
    } else {
        Step::Day
    };
    let per = ((last - first) / step.seconds() / MAX_PERIODS + 1).clamp(1, i64::from(u32::MAX));
    let len = step.seconds() * per;
    // Periods count from the first sample's midnight (or hour), never before it.
    let origin = first.div_euclid(step.seconds()) * step.seconds();
    let mut by: BTreeMap<i64, Vec<f64>> = BTreeMap::new();
    for (at, v) in &timed {
        by.entry(origin + (at - origin).div_euclid(len) * len)
            .or_default()
            .push(*v);
    }
    let periods = by
        .into_iter()
        .filter_map(|(start_s, values)| {
            let n = values.len();
            let s = Spread::of(values)?;
            Some(Period {
                start: OffsetDateTime::from_unix_timestamp(start_s)
                    .ok()?
                    .format(&Rfc3339)
                    .ok()?,
                p50: s.p50,
                p95: s.p95,
                max: s.max,
                samples: n,
            })
        })
        .collect();
    Some(OverTime {
        step,
        per: per as u32,
        periods,
        unread: samples.len() - timed.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::metrics::seconds;

    fn sample(at: Option<i64>, mibps: f64) -> Sample {
        Sample {
            at,
            mibps,
            read_mibps: mibps,
            iops: 1.0,
            read_iops: 1.0,
            latency_ms: None,
        }
    }

    #[test]
    fn times_are_read_with_a_zone_an_offset_or_none() {
        assert_eq!(seconds("1970-01-02T00:00:00Z"), Some(86_400));
        assert_eq!(seconds("1970-01-02T01:00:00+01:00"), Some(86_400));
        assert_eq!(seconds(" 1970-01-02 00:00:00 "), Some(86_400));
        assert_eq!(seconds("yesterday"), None);
    }

    #[test]
    fn a_day_or_more_of_samples_is_grouped_by_day_less_by_hour() {
        // Three days of hourly samples: the value is the hour of the day.
        let days: Vec<Sample> = (0..72)
            .map(|h| sample(Some(h * 3_600), (h % 24) as f64))
            .chain([sample(None, 5.0)])
            .collect();
        let o = of(&days).unwrap();
        assert_eq!(o.step, Step::Day);
        assert_eq!(o.unread, 1);
        assert_eq!(o.periods.len(), 3);
        let d = &o.periods[1];
        assert_eq!(d.start, "1970-01-02T00:00:00Z");
        assert_eq!((d.samples, d.max, d.p50), (24, 23.0, 11.5));
        // 0..23 at the 95th percentile, interpolated: 0.95 x 23 = 21.85.
        assert!((d.p95 - 21.85).abs() < 1e-9, "{}", d.p95);
        let hours = of(&days[..47]).unwrap();
        assert_eq!(hours.step, Step::Hour);
        assert_eq!(hours.periods.len(), 47);
        assert!(of(&[sample(None, 1.0)]).is_none());
        assert_eq!((o.per, hours.per), (1, 1));
    }

    #[test]
    fn samples_over_centuries_make_at_most_a_year_of_periods() {
        let far = [
            sample(seconds("0001-01-01T00:00:00Z"), 1.0),
            sample(seconds("2026-11-01T00:00:00Z"), 2.0),
            sample(seconds("9999-12-31T23:55:00Z"), 3.0),
        ];
        let o = of(&far).unwrap();
        assert_eq!((o.step, o.periods.len()), (Step::Day, 3));
        assert!(o.per > 7_000, "{}", o.per);
        // Every period holds its sample: its start is at most one period before it.
        for (p, s) in o.periods.iter().zip(&far) {
            let at = s.at.unwrap();
            let start = seconds(&p.start).unwrap();
            assert!(start <= at && at - start < i64::from(o.per) * 86_400);
        }
    }
}
