//! Azure Monitor metrics of ANF volumes in, one series per volume and metric out.
//!
//! Two shapes are read: the collector CSV (`Timestamp, ServiceLevel, QoSType,
//! VolumeName, MetricName, Average`, one row per volume, metric and interval; more
//! columns are ignored) and the Azure Monitor REST API's metrics answer
//! (`{"interval", "value": [{"name": {"value"}, "timeseries": [{"data": [{"timeStamp",
//! "average"}]}]}], "resourceregion"}` with the volume in each metric's `id`), or an
//! array of such answers, one per volume. Units are Microsoft's: IOPS in IO/s,
//! throughput in bytes/s (read here as MiB/s), latency in ms, consumed size in %,
//! allocated size in bytes.

use super::LiveError;
use serde_json::Value;
use std::collections::BTreeMap;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// Most samples one body may carry (volumes x metrics x intervals): 100 volumes x 8
/// metrics x 30 days at 5 minutes is under 7 million.
pub const MAX_SAMPLES: usize = 8_000_000;

/// Most volumes in one body.
pub const MAX_VOLUMES: usize = 1_000;

/// The metrics volplan reads, in Microsoft's REST names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Metric {
    ReadIops,
    WriteIops,
    ReadThroughput,
    WriteThroughput,
    AverageReadLatency,
    AverageWriteLatency,
    VolumeConsumedSizePercentage,
    VolumeAllocatedSize,
}

impl Metric {
    /// Every metric, in answer order.
    pub const ALL: [Metric; 8] = [
        Metric::ReadIops,
        Metric::WriteIops,
        Metric::ReadThroughput,
        Metric::WriteThroughput,
        Metric::AverageReadLatency,
        Metric::AverageWriteLatency,
        Metric::VolumeConsumedSizePercentage,
        Metric::VolumeAllocatedSize,
    ];

    /// The REST API's name.
    pub fn key(self) -> &'static str {
        match self {
            Metric::ReadIops => "ReadIops",
            Metric::WriteIops => "WriteIops",
            Metric::ReadThroughput => "ReadThroughput",
            Metric::WriteThroughput => "WriteThroughput",
            Metric::AverageReadLatency => "AverageReadLatency",
            Metric::AverageWriteLatency => "AverageWriteLatency",
            Metric::VolumeConsumedSizePercentage => "VolumeConsumedSizePercentage",
            Metric::VolumeAllocatedSize => "VolumeAllocatedSize",
        }
    }

    /// The unit of the figures volplan reports for it.
    pub fn unit(self) -> &'static str {
        match self {
            Metric::ReadIops | Metric::WriteIops => "IO/s",
            Metric::ReadThroughput | Metric::WriteThroughput => "MiB/s",
            Metric::AverageReadLatency | Metric::AverageWriteLatency => "ms",
            Metric::VolumeConsumedSizePercentage => "%",
            Metric::VolumeAllocatedSize => "TiB",
        }
    }

    /// Largest plausible value in Microsoft's unit; beyond it the file is damaged.
    fn max(self) -> f64 {
        match self {
            Metric::ReadIops | Metric::WriteIops => 1e9,
            Metric::ReadThroughput | Metric::WriteThroughput => 1e14,
            Metric::AverageReadLatency | Metric::AverageWriteLatency => 3.6e6,
            Metric::VolumeConsumedSizePercentage => 1000.0,
            Metric::VolumeAllocatedSize => 1e18,
        }
    }

    /// Microsoft's unit to volplan's: bytes/s to MiB/s, bytes to TiB.
    fn scale(self) -> f64 {
        match self {
            Metric::ReadThroughput | Metric::WriteThroughput => 1.0 / 1_048_576.0,
            Metric::VolumeAllocatedSize => 1.0 / 1_099_511_627_776.0,
            _ => 1.0,
        }
    }

    fn of(name: &str) -> Option<Metric> {
        Metric::ALL
            .into_iter()
            .find(|m| m.key().eq_ignore_ascii_case(name.trim()))
    }
}

/// What the export says about one volume.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VolumeSeries {
    pub name: String,
    /// `ServiceLevel` of the collector CSV, as written.
    pub service_level: Option<String>,
    /// `QoSType` of the collector CSV, as written.
    pub qos_type: Option<String>,
    /// Each metric's samples by interval (the timestamp as written), in volplan's unit.
    pub metrics: BTreeMap<Metric, BTreeMap<String, f64>>,
}

/// An export: its volumes in name order and the sampling interval.
#[derive(Debug, Clone, PartialEq)]
pub struct Metrics {
    pub volumes: Vec<VolumeSeries>,
    /// Seconds between samples (the REST answer's `interval`; 300 for the CSV).
    pub interval_s: f64,
    /// Rows or points skipped, in words.
    pub warnings: Vec<String>,
}

/// Reads a collector CSV or a REST API answer (detected from the first character).
pub fn parse(text: &str) -> Result<Metrics, LiveError> {
    let text = text.trim_start_matches('\u{feff}');
    let mut acc = Acc::default();
    match text.trim_start().chars().next() {
        Some('{') | Some('[') => {
            let v: Value = serde_json::from_str(text)
                .map_err(|e| LiveError::new("metrics", format!("not valid JSON: {e}")))?;
            acc.interval_s = rest(&v, &mut acc)?;
        }
        Some(_) => csv(text, &mut acc)?,
        None => return Err(LiveError::new("metrics", "the metrics export is empty")),
    }
    acc.finish()
}

/// Reads the Azure Monitor answer given as JSON already.
pub fn parse_value(v: &Value) -> Result<Metrics, LiveError> {
    let mut acc = Acc::default();
    acc.interval_s = rest(v, &mut acc)?;
    acc.finish()
}

#[derive(Default)]
struct Acc {
    volumes: Vec<VolumeSeries>,
    /// Index in `volumes` by lower-case name.
    index: std::collections::HashMap<String, usize>,
    /// The last name asked for and its index: exports list a volume's rows together.
    last: Option<(String, usize)>,
    samples: usize,
    skipped: usize,
    interval_s: f64,
}

impl Acc {
    fn volume(&mut self, name: &str) -> Result<&mut VolumeSeries, LiveError> {
        if let Some((last, i)) = &self.last
            && last == name
        {
            return Ok(&mut self.volumes[*i]);
        }
        let key = name.to_ascii_lowercase();
        let i = match self.index.get(&key) {
            Some(i) => *i,
            None if self.volumes.len() >= MAX_VOLUMES => {
                return Err(LiveError::new(
                    "VolumeName",
                    format!("more than {MAX_VOLUMES} volumes; export fewer at a time"),
                ));
            }
            None => {
                self.volumes.push(VolumeSeries {
                    name: name.to_owned(),
                    ..VolumeSeries::default()
                });
                self.index.insert(key, self.volumes.len() - 1);
                self.volumes.len() - 1
            }
        };
        self.last = Some((name.to_owned(), i));
        Ok(&mut self.volumes[i])
    }

    fn add(&mut self, volume: &str, metric: Metric, at: &str, raw: f64) -> Result<(), LiveError> {
        if !raw.is_finite() || raw < 0.0 || raw > metric.max() {
            self.skipped += 1;
            return Ok(());
        }
        self.samples += 1;
        if self.samples > MAX_SAMPLES {
            return Err(LiveError::new(
                "metrics",
                format!("more than {MAX_SAMPLES} samples; export fewer volumes or days at a time"),
            ));
        }
        let v = raw * metric.scale();
        self.volume(volume)?
            .metrics
            .entry(metric)
            .or_default()
            .insert(at.trim().to_owned(), v);
        Ok(())
    }

    fn finish(self) -> Result<Metrics, LiveError> {
        if self.volumes.is_empty() {
            return Err(LiveError::new(
                "MetricName",
                "no sample of a metric volplan reads (ReadIops, WriteIops, ReadThroughput, \
                 WriteThroughput, AverageReadLatency, AverageWriteLatency, \
                 VolumeConsumedSizePercentage, VolumeAllocatedSize)",
            ));
        }
        let mut warnings = Vec::new();
        if self.skipped > 0 {
            warnings.push(format!(
                "{} samples outside their physical range (negative, not a number or absurd) were left out",
                self.skipped
            ));
        }
        let mut volumes = self.volumes;
        volumes.sort_by_key(|v| v.name.to_ascii_lowercase());
        Ok(Metrics {
            volumes,
            interval_s: if self.interval_s > 0.0 {
                self.interval_s
            } else {
                300.0
            },
            warnings,
        })
    }
}

fn csv(text: &str, acc: &mut Acc) -> Result<(), LiveError> {
    let mut r = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = r
        .headers()
        .map_err(|e| LiveError::new("metrics", format!("cannot read the CSV header: {e}")))?
        .clone();
    let col = |name: &str| headers.iter().position(|h| h.eq_ignore_ascii_case(name));
    let need = |name: &'static str| {
        col(name).ok_or_else(|| {
            LiveError::new(
                name,
                format!(
                    "the CSV has no `{name}` column; expected the collector's columns \
                     Timestamp, ServiceLevel, QoSType, VolumeName, MetricName, Average"
                ),
            )
        })
    };
    let (ts, vol, metric, avg) = (
        need("Timestamp")?,
        need("VolumeName")?,
        need("MetricName")?,
        need("Average")?,
    );
    let (level, qos) = (col("ServiceLevel"), col("QoSType"));
    let mut row = csv::StringRecord::new();
    for i in 0.. {
        match r.read_record(&mut row) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                return Err(LiveError::new(
                    "metrics",
                    format!("row {}: cannot be read: {e}", i + 2),
                ));
            }
        }
        let cell = |c: usize| row.get(c).unwrap_or("");
        let Some(m) = Metric::of(cell(metric)) else {
            continue;
        };
        let name = cell(vol);
        if name.is_empty() {
            return Err(LiveError::new(
                "VolumeName",
                format!("row {}: the volume name is empty", i + 2),
            ));
        }
        let value = match cell(avg) {
            "" => continue,
            v => v.parse::<f64>().map_err(|_| {
                LiveError::new(
                    "Average",
                    format!(
                        "row {}: `{}` is not a number",
                        i + 2,
                        v.chars().take(40).collect::<String>()
                    ),
                )
            })?,
        };
        acc.add(name, m, cell(ts), value)?;
        let v = acc.volume(name)?;
        for (c, slot) in [(level, &mut v.service_level), (qos, &mut v.qos_type)] {
            if let Some(c) = c
                && slot.is_none()
                && !cell(c).is_empty()
            {
                *slot = Some(cell(c).to_owned());
            }
        }
    }
    Ok(())
}

/// The REST answer (or an array of them); returns the interval in seconds.
fn rest(v: &Value, acc: &mut Acc) -> Result<f64, LiveError> {
    if let Some(all) = v.as_array() {
        let mut interval = 0.0;
        for one in all {
            interval = rest(one, acc)?;
        }
        return Ok(interval);
    }
    let Some(metrics) = v.get("value").and_then(Value::as_array) else {
        return Err(LiveError::new(
            "value",
            "not an Azure Monitor metrics answer: expected an object with a `value` array \
             (az monitor metrics list -o json) or the collector CSV",
        ));
    };
    for m in metrics {
        let name = m
            .pointer("/name/value")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let Some(metric) = Metric::of(name) else {
            continue;
        };
        let id = m.get("id").and_then(Value::as_str).unwrap_or_default();
        let volume = volume_of(id).ok_or_else(|| {
            LiveError::new(
                "value[].id",
                format!("the metric `{name}` does not name the volume it belongs to in its `id`"),
            )
        })?;
        for series in m
            .get("timeseries")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            for p in series
                .get("data")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let at = p
                    .get("timeStamp")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                if let Some(avg) = p.get("average").and_then(Value::as_f64) {
                    acc.add(&volume, metric, at, avg)?;
                }
            }
        }
    }
    Ok(v.get("interval")
        .and_then(Value::as_str)
        .and_then(duration_s)
        .unwrap_or(300.0))
}

/// The volume's name in a metric id `.../volumes/<name>/providers/Microsoft.Insights/...`.
fn volume_of(id: &str) -> Option<String> {
    let parts: Vec<&str> = id.split('/').collect();
    let at = parts
        .iter()
        .position(|p| p.eq_ignore_ascii_case("volumes"))?;
    parts
        .get(at + 1)
        .filter(|n| !n.is_empty())
        .map(|n| (*n).to_owned())
}

/// An ISO 8601 duration of minutes or hours (`PT5M`, `PT1H`) in seconds.
fn duration_s(iso: &str) -> Option<f64> {
    let t = iso.strip_prefix("PT")?;
    let (n, unit) = t.split_at(t.len().checked_sub(1)?);
    let n: f64 = n.parse().ok()?;
    let s = match unit {
        "M" => n * 60.0,
        "H" => n * 3600.0,
        "S" => n,
        _ => return None,
    };
    (s > 0.0 && s.is_finite()).then_some(s)
}

/// Seconds since 1970 of a timestamp as an export writes it; None when unreadable.
pub fn seconds(at: &str) -> Option<i64> {
    let t = at.trim();
    if let Ok(d) = OffsetDateTime::parse(t, &Rfc3339) {
        return Some(d.unix_timestamp());
    }
    let mut utc = t.replacen(' ', "T", 1);
    utc.push('Z');
    OffsetDateTime::parse(&utc, &Rfc3339)
        .ok()
        .map(OffsetDateTime::unix_timestamp)
}
