//! Benchmark results in, normalised measurements out: fio JSON, DiskSpd XML (`-Rxml`) and
//! elbencho CSV.
//!
//! Pure parsers (no I/O): [`parse`] detects the format from the bytes and yields one
//! [`Measurement`] per test in the file, plus warnings for what could not be read. The units
//! and traps of each format are described in the module of each tool.

pub mod against_predicted;
pub mod calibrate;
pub mod diskspd;
pub mod elbencho;
pub mod fio;
pub mod infer;
mod latency;
pub mod plausible;
pub mod points;
pub mod testplan;
mod text;

pub use against_predicted::{Gap, GapClass, compare, compare_with};
pub use infer::scenario_from;
pub use points::{MeasuredPoint, measured_point};

use crate::engine::field_error::{Checks, FieldErrors};
use crate::engine::scenario::Access;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The benchmark tool a measurement comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Tool {
    Fio,
    Diskspd,
    Elbencho,
    /// Azure Monitor metrics of a live volume measured at its ceiling.
    AzureMonitor,
}

impl Tool {
    /// The tool as its authors write it.
    pub fn display(self) -> &'static str {
        match self {
            Tool::Fio => "fio",
            Tool::Diskspd => "DiskSpd",
            Tool::Elbencho => "elbencho",
            Tool::AzureMonitor => "Azure Monitor",
        }
    }
}

/// A result file format volplan reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// `fio --output-format=json` (fio 2.x and 3.x, local or client/server).
    FioJson,
    /// `diskspd ... -Rxml`.
    DiskspdXml,
    /// `elbencho --csvfile`.
    ElbenchoCsv,
    /// Azure Monitor metrics of a volume measured at its ceiling, taken in through the
    /// plan-against-actuals comparison, never uploaded as a file of its own.
    AzureMonitor,
}

impl Format {
    /// How to produce this format, as a user would type it.
    pub fn display(self) -> &'static str {
        match self {
            Format::FioJson => "fio JSON (fio --output-format=json)",
            Format::DiskspdXml => "DiskSpd XML (diskspd -Rxml)",
            Format::ElbenchoCsv => "elbencho CSV (elbencho --csvfile)",
            Format::AzureMonitor => "Azure Monitor metrics (plan against actuals)",
        }
    }

    /// The tool that writes this format.
    pub fn tool(self) -> Tool {
        match self {
            Format::FioJson => Tool::Fio,
            Format::DiskspdXml => Tool::Diskspd,
            Format::ElbenchoCsv => Tool::Elbencho,
            Format::AzureMonitor => Tool::AzureMonitor,
        }
    }
}

/// One benchmark run, normalised: totals across all threads, targets and clients.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Measurement {
    pub tool: Tool,
    /// Job name, target path or phase label, to tell the runs of one file apart.
    pub label: String,
    /// Total IOPS (reads + writes).
    pub iops: f64,
    /// Total MiB/s (reads + writes).
    pub mibps: f64,
    /// Share of IOs that are reads, 0..100.
    pub read_pct: f64,
    /// Average bytes per IO, in KiB.
    pub io_size_kib: f64,
    /// Threads (fio jobs, DiskSpd thread-target pairs) per client.
    pub threads: u32,
    /// Outstanding IOs per thread.
    pub queue_depth: u32,
    /// IOs in flight across all clients: threads x queue depth x clients.
    pub outstanding: u32,
    /// Client machines that ran the test at the same time.
    pub clients: u32,
    /// Mean completion latency over all IOs, in ms.
    pub latency_mean_ms: Option<f64>,
    /// Median latency over all IOs, in ms.
    pub latency_p50_ms: Option<f64>,
    /// 99th percentile latency over all IOs, in ms.
    pub latency_p99_ms: Option<f64>,
    pub read_iops: f64,
    pub write_iops: f64,
    pub read_mibps: f64,
    pub write_mibps: f64,
    /// Random or sequential offsets; None when the file does not say or the runs differ.
    pub access: Option<Access>,
    /// Measured duration in seconds.
    pub runtime_s: f64,
}

/// What one file yields: its format, the runs in it, and what could not be read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ParsedResult {
    pub format: Format,
    pub measurements: Vec<Measurement>,
    /// Sentences about what was skipped, assumed or found suspicious.
    pub warnings: Vec<String>,
}

/// A file that cannot be read as a benchmark result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportError {
    /// The bytes match none of the formats; `problem` says what the file looks like instead.
    Unrecognized { problem: String },
    /// The format was recognised but the file is not a usable result of it.
    Invalid { format: Format, problem: String },
    /// Several files that cannot be combined into one test.
    Mismatch { problem: String },
    /// Figures outside their physical ranges ([`plausible`]), every one of every run,
    /// each named by the answer's field (`measurements[0].iops`).
    OutOfRange { format: Format, errors: FieldErrors },
}

impl ImportError {
    /// The answer's field the error is about (the first of them), if one.
    pub fn field(&self) -> Option<String> {
        match self {
            ImportError::OutOfRange { errors, .. } => Some(errors.first().field.clone()),
            _ => None,
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Unrecognized { problem } => write!(
                f,
                "not a benchmark result volplan can read: expected {}, {} or {}; {problem}",
                Format::FioJson.display(),
                Format::DiskspdXml.display(),
                Format::ElbenchoCsv.display()
            ),
            ImportError::Invalid { format, problem } => {
                write!(f, "{}: {problem}", format.display())
            }
            ImportError::Mismatch { problem } => {
                write!(f, "these files cannot be combined into one test: {problem}")
            }
            ImportError::OutOfRange { format, errors } => {
                let problems: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
                write!(f, "{}: {}", format.display(), problems.join("; "))
            }
        }
    }
}

impl std::error::Error for ImportError {}

/// Largest input the parsers accept (fio json+ with histograms stays well below).
pub const MAX_INPUT_BYTES: usize = 64 * 1024 * 1024;

/// Detects the format of one result file and parses it; a figure outside its physical
/// range refuses the file.
pub fn parse(bytes: &[u8]) -> Result<ParsedResult, ImportError> {
    let text = text::decode(bytes)?;
    in_range(match detect(&text)? {
        Format::FioJson => fio::parse(&text),
        Format::DiskspdXml => diskspd::parse(&text),
        Format::ElbenchoCsv => elbencho::parse(&text),
        Format::AzureMonitor => Err(not_a_file()),
    }?)
}

/// Azure Monitor runs come from the plan-against-actuals comparison, not a result file.
fn not_a_file() -> ImportError {
    ImportError::Invalid {
        format: Format::AzureMonitor,
        problem: "send Azure Monitor metrics to /api/v1/live/actuals".to_owned(),
    }
}

/// The result, or every figure of its runs outside its range ([`plausible::check`]).
fn in_range(parsed: ParsedResult) -> Result<ParsedResult, ImportError> {
    let mut checks = Checks::default();
    for (run, m) in parsed.measurements.iter().enumerate() {
        checks.extend(plausible::check(m).map_err(|e| e.within(&format!("measurements[{run}]"))));
    }
    match checks.finish() {
        Ok(()) => Ok(parsed),
        Err(errors) => Err(ImportError::OutOfRange {
            format: parsed.format,
            errors,
        }),
    }
}

/// Parses several result files of one test (one per client machine, run at the same time)
/// and adds them up: run `i` of every file is one run on `files.len()` clients. The sums
/// are checked against the physical ranges as [`parse`] checks one file.
pub fn parse_many(files: &[&[u8]]) -> Result<ParsedResult, ImportError> {
    in_range(parse_and_add(files)?)
}

fn parse_and_add(files: &[&[u8]]) -> Result<ParsedResult, ImportError> {
    let many = files.len() > 1;
    let prefix_file = |i: usize, e: ImportError| if many { prefix_file(i, e) } else { e };
    let mut texts = Vec::with_capacity(files.len());
    for (i, bytes) in files.iter().enumerate() {
        let text = text::decode(bytes).map_err(|e| prefix_file(i, e))?;
        let format = detect(&text).map_err(|e| prefix_file(i, e))?;
        texts.push((format, text));
    }
    let Some((first, _)) = texts.first() else {
        return Err(ImportError::Mismatch {
            problem: "no files were given".to_owned(),
        });
    };
    let first = *first;
    if let Some(i) = texts.iter().position(|(f, _)| *f != first) {
        return Err(ImportError::Mismatch {
            problem: format!(
                "file 1 is {} but file {} is {}",
                first.display(),
                i + 1,
                texts[i].0.display()
            ),
        });
    }
    if first == Format::FioJson {
        let refs: Vec<&str> = texts.iter().map(|(_, t)| t.as_str()).collect();
        return fio::parse_files(&refs);
    }
    let mut parsed = Vec::with_capacity(texts.len());
    for (i, (format, text)) in texts.iter().enumerate() {
        let one = match format {
            Format::DiskspdXml => diskspd::parse(text),
            Format::ElbenchoCsv => elbencho::parse(text),
            Format::FioJson => fio::parse(text),
            Format::AzureMonitor => Err(not_a_file()),
        };
        parsed.push(one.map_err(|e| prefix_file(i, e))?);
    }
    combine_clients(parsed)
}

fn prefix_file(i: usize, e: ImportError) -> ImportError {
    match e {
        ImportError::Unrecognized { problem } => ImportError::Unrecognized {
            problem: format!("file {}: {problem}", i + 1),
        },
        ImportError::Invalid { format, problem } => ImportError::Invalid {
            format,
            problem: format!("file {}: {problem}", i + 1),
        },
        other => other,
    }
}

/// Adds up results of the same test run on several clients at once (run by run).
fn combine_clients(parsed: Vec<ParsedResult>) -> Result<ParsedResult, ImportError> {
    let format = parsed[0].format;
    let runs = parsed[0].measurements.len();
    if let Some(i) = parsed.iter().position(|p| p.measurements.len() != runs) {
        return Err(ImportError::Mismatch {
            problem: format!(
                "file 1 has {runs} runs but file {} has {}; every client must run the same tests",
                i + 1,
                parsed[i].measurements.len()
            ),
        });
    }
    let mut warnings = Vec::new();
    for (i, p) in parsed.iter().enumerate() {
        if parsed.len() == 1 {
            warnings.extend(p.warnings.iter().cloned());
        } else {
            warnings.extend(p.warnings.iter().map(|w| format!("file {}: {w}", i + 1)));
        }
    }
    let mut measurements = Vec::with_capacity(runs);
    for r in 0..runs {
        let parts: Vec<&Measurement> = parsed.iter().map(|p| &p.measurements[r]).collect();
        measurements.push(sum_clients(&parts, &mut warnings));
    }
    if parsed.len() > 1 {
        warnings.push(format!(
            "{} files added up as {} clients running at the same time; p50 and p99 are \
             IO-weighted averages of the per-file percentiles (an estimate)",
            parsed.len(),
            parsed.len()
        ));
    }
    Ok(ParsedResult {
        format,
        measurements,
        warnings,
    })
}

/// Sums one run over clients; latency means are weighted by IOPS.
fn sum_clients(parts: &[&Measurement], warnings: &mut Vec<String>) -> Measurement {
    let first = parts[0];
    let mut m = first.clone();
    if parts.len() == 1 {
        return m;
    }
    let sum = |f: fn(&Measurement) -> f64| parts.iter().map(|p| f(p)).sum::<f64>();
    m.read_iops = sum(|p| p.read_iops);
    m.write_iops = sum(|p| p.write_iops);
    m.read_mibps = sum(|p| p.read_mibps);
    m.write_mibps = sum(|p| p.write_mibps);
    m.iops = m.read_iops + m.write_iops;
    m.mibps = m.read_mibps + m.write_mibps;
    m.read_pct = if m.iops > 0.0 {
        100.0 * m.read_iops / m.iops
    } else {
        first.read_pct
    };
    m.io_size_kib = if m.iops > 0.0 {
        m.mibps * 1024.0 / m.iops
    } else {
        first.io_size_kib
    };
    m.clients = parts.iter().map(|p| p.clients).sum();
    m.outstanding = parts.iter().map(|p| p.outstanding).sum();
    m.runtime_s = parts.iter().map(|p| p.runtime_s).fold(0.0, f64::max);
    let weighted = |f: fn(&Measurement) -> Option<f64>| -> Option<f64> {
        let mut num = 0.0;
        let mut den = 0.0;
        for p in parts {
            let v = f(p)?;
            num += v * p.iops;
            den += p.iops;
        }
        (den > 0.0).then(|| num / den)
    };
    m.latency_mean_ms = weighted(|p| p.latency_mean_ms);
    m.latency_p50_ms = weighted(|p| p.latency_p50_ms);
    m.latency_p99_ms = weighted(|p| p.latency_p99_ms);
    if parts.iter().any(|p| p.access != first.access) {
        m.access = None;
    }
    if parts
        .iter()
        .any(|p| p.threads != first.threads || p.queue_depth != first.queue_depth)
    {
        warnings.push(format!(
            "run `{}`: the clients used different threads or queue depths; the outstanding IOs are their sum",
            first.label
        ));
    }
    if parts
        .iter()
        .any(|p| (p.io_size_kib - first.io_size_kib).abs() > 0.01 * first.io_size_kib.max(0.5))
    {
        warnings.push(format!(
            "run `{}`: the clients used different IO sizes; the IO size is the average",
            first.label
        ));
    }
    m
}

/// Guesses the format from the first meaningful characters.
fn detect(text: &str) -> Result<Format, ImportError> {
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return Err(ImportError::Unrecognized {
            problem: "the file is empty".to_owned(),
        });
    }
    if trimmed.starts_with('<') || text.contains("<Results>") {
        return Ok(Format::DiskspdXml);
    }
    let first_line = trimmed.lines().next().unwrap_or_default();
    if elbencho::looks_like_header(first_line) {
        return Ok(Format::ElbenchoCsv);
    }
    if fio::find_json_start(text).is_some()
        && (text.contains("\"fio version\"")
            || text.contains("\"jobs\"")
            || text.contains("\"client_stats\""))
    {
        return Ok(Format::FioJson);
    }
    Err(ImportError::Unrecognized {
        problem: guess_problem(trimmed, first_line),
    })
}

/// Names what the file looks like, so the user knows which option to add.
fn guess_problem(text: &str, first_line: &str) -> String {
    let head: String = text.chars().take(4096).collect();
    if head.contains("Total IO") && head.contains("thread |") {
        return "this is DiskSpd text output; run diskspd again with -Rxml and import that file"
            .to_owned();
    }
    if head.contains("IOPS=") && (head.contains("fio-") || head.contains(": (g=")) {
        return "this is fio's normal text output; run fio again with --output-format=json"
            .to_owned();
    }
    if head.contains("terse_version") || head.split(';').count() > 100 {
        return "this looks like fio terse output; run fio again with --output-format=json"
            .to_owned();
    }
    if (head.starts_with('{') || head.starts_with('['))
        && serde_json::from_str::<serde_json::Value>(text).is_ok()
    {
        return "this is JSON but not fio output (no `jobs` or `client_stats`)".to_owned();
    }
    let shown: String = first_line.chars().take(60).collect();
    let ellipsis = if first_line.chars().count() > 60 {
        "..."
    } else {
        ""
    };
    format!("the first line is `{shown}{ellipsis}`")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_text_files_name_the_expected_formats() {
        let e = parse(b"").unwrap_err().to_string();
        assert!(e.contains("fio JSON") && e.contains("DiskSpd XML") && e.contains("elbencho CSV"));
        assert!(e.contains("empty"), "{e}");
        let e = parse(b"hello world\nsecond").unwrap_err().to_string();
        assert!(e.contains("`hello world`"), "{e}");
    }

    #[test]
    fn fio_text_output_is_named() {
        let text =
            "seq: (g=0): rw=read, bs=(R) 4096B-4096B\nfio-3.36\n  read: IOPS=2000, BW=8MiB/s";
        let e = parse(text.as_bytes()).unwrap_err().to_string();
        assert!(e.contains("--output-format=json"), "{e}");
    }

    #[test]
    fn diskspd_text_output_is_named() {
        let text = "Command Line: diskspd -b4K\n\nTotal IO\nthread |       bytes     |     I/Os";
        let e = parse(text.as_bytes()).unwrap_err().to_string();
        assert!(e.contains("-Rxml"), "{e}");
    }

    #[test]
    fn other_json_is_named() {
        let e = parse(br#"{"name": "x"}"#).unwrap_err().to_string();
        assert!(e.contains("not fio output"), "{e}");
    }
}
