//! fio JSON (`--output-format=json` or `json+`).
//!
//! Handles fio 3.x (`io_bytes` in bytes, `*_ns` latencies) and fio 2.x (`io_bytes` in KiB,
//! `slat`/`clat`/`lat` in µs); local runs (`jobs`) and client/server runs (`client_stats`,
//! one entry per job per host plus an "All clients" sum, which is skipped); one entry per
//! job or, with `group_reporting`, one per reporting group; stray `fio: ...` lines before
//! and after the JSON. Jobs with the same `groupid` ran at the same time and make one
//! measurement; several files (one per client machine) add up group by group.

use super::latency::{LatencyMix, LatencySet};
use super::text::number;
use super::{Format, ImportError, Measurement, ParsedResult, Tool};
use crate::engine::scenario::Access;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Offset of the JSON object: the first line that starts with `{`.
pub(super) fn find_json_start(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with('{') {
            return Some(offset + (line.len() - trimmed.len()));
        }
        offset += line.len();
    }
    None
}

/// Parses one fio JSON output.
pub fn parse(text: &str) -> Result<ParsedResult, ImportError> {
    parse_files(&[text])
}

/// Parses the fio outputs of several client machines that ran the same jobs at the same
/// time, and adds them up group by group (each file counts as one client unless it is a
/// client/server output that names its hosts).
pub fn parse_files(texts: &[&str]) -> Result<ParsedResult, ImportError> {
    let mut warnings = Vec::new();
    let mut entries = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let file = if texts.len() > 1 {
            format!("file {}: ", i + 1)
        } else {
            String::new()
        };
        let mut file_warnings = Vec::new();
        let found =
            read_file(text, &mut file_warnings).map_err(|problem| invalid(&file, problem))?;
        for mut e in found {
            e.host = format!("{file}{}", e.host);
            entries.push(e);
        }
        warnings.extend(file_warnings.into_iter().map(|w| format!("{file}{w}")));
    }
    if texts.len() > 1 {
        let per_file: Vec<BTreeSet<i64>> = (0..texts.len())
            .map(|i| {
                let prefix = format!("file {}: ", i + 1);
                entries
                    .iter()
                    .filter(|e| e.host.starts_with(&prefix))
                    .map(|e| e.groupid)
                    .collect()
            })
            .collect();
        if per_file.iter().any(|g| *g != per_file[0]) {
            warnings.push(
                "the files do not contain the same job groups; each group adds up only the files that ran it"
                    .to_owned(),
            );
        }
        same_jobs_in_every_file(&entries, texts.len())?;
    }
    let measurements = build(&entries, &mut warnings);
    if measurements.is_empty() {
        return Err(invalid(
            "",
            "no job in the file moved any data (every read and write count is 0)".to_owned(),
        ));
    }
    Ok(ParsedResult {
        format: Format::FioJson,
        measurements,
        warnings,
    })
}

/// Files of one test run the same jobs: group by group, every file names the same jobs.
fn same_jobs_in_every_file(entries: &[Entry], files: usize) -> Result<(), ImportError> {
    let groups: BTreeSet<i64> = entries.iter().map(|e| e.groupid).collect();
    for g in groups {
        let names_in = |i: usize| -> BTreeSet<&str> {
            let prefix = format!("file {}: ", i + 1);
            entries
                .iter()
                .filter(|e| e.groupid == g && e.host.starts_with(&prefix))
                .map(|e| e.jobname.as_str())
                .collect()
        };
        let first = names_in(0);
        for i in 1..files {
            let other = names_in(i);
            if !first.is_empty() && !other.is_empty() && other != first {
                let list = |s: &BTreeSet<&str>| s.iter().copied().collect::<Vec<_>>().join(", ");
                return Err(ImportError::Mismatch {
                    problem: format!(
                        "file 1 runs `{}` but file {} runs `{}` in the same job group; import the files of one test together",
                        list(&first),
                        i + 1,
                        list(&other)
                    ),
                });
            }
        }
    }
    Ok(())
}

fn invalid(file: &str, problem: String) -> ImportError {
    ImportError::Invalid {
        format: Format::FioJson,
        problem: format!("{file}{problem}"),
    }
}

/// One job (or reporting group) on one host, with its options merged.
#[derive(Debug, Clone)]
struct Entry {
    host: String,
    groupid: i64,
    jobname: String,
    /// Jobs (threads) this entry stands for.
    jobs: u32,
    /// Effective IOs in flight per job.
    depth: u32,
    access: Option<Access>,
    read: Dir,
    write: Dir,
}

/// One direction (`read` or `write`) of an entry, in bytes, IOs and ms.
#[derive(Debug, Clone, Default)]
struct Dir {
    ios: f64,
    bytes: f64,
    iops: f64,
    bw_bytes: f64,
    runtime_ms: f64,
    latency: LatencySet,
}

/// Reads the entries of one file; the error is the first problem found.
fn read_file(text: &str, warnings: &mut Vec<String>) -> Result<Vec<Entry>, String> {
    let start = find_json_start(text).ok_or_else(|| {
        "no JSON object found (no line starts with `{`); run fio with --output-format=json"
            .to_owned()
    })?;
    let stray: Vec<&str> = text[..start]
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    for line in &stray {
        warnings.push(format!("fio wrote before the JSON: {}", clip(line)));
    }
    let mut stream = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
    let root = match stream.next() {
        Some(Ok(v)) => v,
        Some(Err(e)) => {
            let line = text[..start].lines().count() + e.line();
            return Err(format!(
                "the JSON is broken at line {line}, column {}: {e}",
                e.column()
            ));
        }
        None => return Err("the JSON object is empty".to_owned()),
    };
    let end = start + stream.byte_offset();
    for line in text[end..].lines().map(str::trim).filter(|l| !l.is_empty()) {
        warnings.push(format!("fio wrote after the JSON: {}", clip(line)));
    }
    let root = root
        .as_object()
        .ok_or_else(|| "the JSON is not an object".to_owned())?;
    let version = root
        .get("fio version")
        .and_then(Value::as_str)
        .unwrap_or("");
    let v2_by_name = version
        .strip_prefix("fio-")
        .and_then(|v| v.split('.').next())
        .and_then(|m| m.parse::<u32>().ok())
        .map(|major| major < 3);
    let global = options_of(root.get("global options"));
    let (list, client_server) = match (root.get("jobs"), root.get("client_stats")) {
        (Some(Value::Array(jobs)), _) => (jobs, false),
        (_, Some(Value::Array(stats))) => (stats, true),
        _ => {
            return Err(
                "the JSON has neither a `jobs` nor a `client_stats` array; is this fio output?"
                    .to_owned(),
            );
        }
    };
    if list.is_empty() {
        let hint = stray
            .first()
            .map(|l| format!(" (fio said: {})", clip(l)))
            .unwrap_or_default();
        return Err(format!(
            "the output lists no jobs: fio stopped before any job ran{hint}"
        ));
    }
    let mut entries = Vec::new();
    let mut v2_noted = false;
    for (i, job) in list.iter().enumerate() {
        let Some(job) = job.as_object() else {
            warnings.push(format!(
                "entry {} of the job list is not an object; skipped",
                i + 1
            ));
            continue;
        };
        let jobname = job
            .get("jobname")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        if client_server && jobname == "All clients" {
            continue;
        }
        let host = if client_server {
            job.get("hostname")
                .and_then(Value::as_str)
                .filter(|h| !h.is_empty())
                .map(|h| format!("host {h}"))
                .unwrap_or_else(|| "client".to_owned())
        } else {
            String::new()
        };
        let groupid = job.get("groupid").and_then(Value::as_i64).unwrap_or(0);
        let mut opts = global.clone();
        opts.extend(options_of(job.get("job options")));
        let v2 = v2_by_name.unwrap_or_else(|| looks_v2(job));
        if v2 && !v2_noted {
            warnings.push("fio 2.x output: io_bytes read as KiB and latencies as µs".to_owned());
            v2_noted = true;
        }
        if let Some(err) = job.get("error").and_then(Value::as_i64).filter(|e| *e != 0) {
            warnings.push(format!(
                "job `{jobname}` ended with error {err}; its figures cover the IO done before it"
            ));
        }
        let (read, write) = if job.contains_key("mixed") && !job.contains_key("read") {
            warnings.push(format!(
                "job `{jobname}` uses unified_rw_reporting: reads and writes are split by rwmixread"
            ));
            split_mixed(read_dir(job.get("mixed"), v2), &opts)
        } else {
            (
                read_dir(job.get("read"), v2),
                read_dir(job.get("write"), v2),
            )
        };
        let trim = read_dir(job.get("trim"), v2);
        if trim.ios > 0.0 {
            warnings.push(format!("job `{jobname}`: trim IOs are not counted"));
        }
        let group_reporting = opts.get("group_reporting").is_some_and(|v| v.trim() != "0");
        let numjobs = opt_u32(&opts, "numjobs").unwrap_or(1).max(1);
        let jobs = if group_reporting {
            jobs_in_group(job, &read, &write, numjobs, &jobname, warnings)
        } else {
            1
        };
        let depth = effective_depth(&opts, &jobname, warnings);
        entries.push(Entry {
            host,
            groupid,
            jobname,
            jobs,
            depth,
            access: access_of(&opts),
            read,
            write,
        });
    }
    Ok(entries)
}

/// True when a job object uses the fio 2.x keys (`clat` in µs) rather than `clat_ns`.
fn looks_v2(job: &Map<String, Value>) -> bool {
    ["read", "write"].iter().any(|d| {
        job.get(*d).and_then(Value::as_object).is_some_and(|o| {
            !o.contains_key("clat_ns")
                && !o.contains_key("lat_ns")
                && !o.contains_key("bw_bytes")
                && (o.contains_key("clat") || o.contains_key("lat"))
        })
    })
}

/// `global options` is an object, or (client/server) an array of objects.
fn options_of(v: Option<&Value>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut add = |o: &Map<String, Value>| {
        for (k, v) in o {
            let s = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => u8::from(*b).to_string(),
                _ => continue,
            };
            out.insert(k.clone(), s);
        }
    };
    match v {
        Some(Value::Object(o)) => add(o),
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_object).for_each(add),
        _ => {}
    }
    out
}

fn opt_u32(opts: &BTreeMap<String, String>, key: &str) -> Option<u32> {
    let v = number(opts.get(key)?)?;
    (v >= 0.0 && v <= f64::from(u32::MAX)).then(|| v.round() as u32)
}

/// Reads a number stored as a JSON number or a numeric string.
fn num(o: &Map<String, Value>, key: &str) -> Option<f64> {
    match o.get(key)? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => number(s),
        _ => None,
    }
}

fn read_dir(v: Option<&Value>, v2: bool) -> Dir {
    let Some(o) = v.and_then(Value::as_object) else {
        return Dir::default();
    };
    let unit = if v2 { 1024.0 } else { 1.0 };
    let runtime_ms = num(o, "runtime").unwrap_or(0.0);
    let bytes = num(o, "io_bytes")
        .map(|b| b * unit)
        .or_else(|| num(o, "io_kbytes").map(|k| k * 1024.0))
        .unwrap_or(0.0);
    let iops_field = num(o, "iops");
    let ios = num(o, "total_ios")
        .or_else(|| iops_field.map(|i| i * runtime_ms / 1000.0))
        .unwrap_or(0.0);
    let per_s = |x: f64| {
        if runtime_ms > 0.0 {
            x * 1000.0 / runtime_ms
        } else {
            0.0
        }
    };
    let iops = iops_field.unwrap_or_else(|| per_s(ios));
    let bw_bytes = num(o, "bw_bytes")
        .or_else(|| num(o, "bw").map(|kib| kib * 1024.0))
        .unwrap_or_else(|| per_s(bytes));
    let latency = if v2 {
        latency_of(o, &["lat", "clat"], &["lat", "clat"], 1e-3, ios)
    } else {
        latency_of(o, &["lat_ns", "clat_ns"], &["lat_ns", "clat_ns"], 1e-6, ios)
    };
    Dir {
        ios,
        bytes,
        iops,
        bw_bytes,
        runtime_ms,
        latency,
    }
}

/// Mean from the first of `mean_keys` that has IOs; percentiles from the first of
/// `pct_keys` that has them (clat percentiles are on by default, lat only on request).
fn latency_of(
    o: &Map<String, Value>,
    mean_keys: &[&str],
    pct_keys: &[&str],
    to_ms: f64,
    ios: f64,
) -> LatencySet {
    let stat = |k: &str| o.get(k).and_then(Value::as_object);
    let mean_ms = mean_keys.iter().find_map(|k| {
        let s = stat(k)?;
        let n = num(s, "N").unwrap_or(1.0);
        let mean = num(s, "mean")?;
        (n > 0.0 && mean > 0.0).then_some(mean * to_ms)
    });
    let percentiles = pct_keys
        .iter()
        .find_map(|k| {
            let p = stat(k)?.get("percentile")?.as_object()?;
            let pts: Vec<(f64, f64)> = p
                .iter()
                .filter_map(|(pct, v)| {
                    let pct = number(pct)?;
                    let v = match v {
                        Value::Number(n) => n.as_f64()?,
                        Value::String(s) => number(s)?,
                        _ => return None,
                    };
                    (v > 0.0 && (0.0..=100.0).contains(&pct)).then_some((pct, v * to_ms))
                })
                .collect();
            (!pts.is_empty()).then_some(pts)
        })
        .unwrap_or_default();
    LatencySet {
        ios,
        mean_ms,
        percentiles,
    }
}

/// `unified_rw_reporting`: one `mixed` direction; split it by the job's read share.
fn split_mixed(mixed: Dir, opts: &BTreeMap<String, String>) -> (Dir, Dir) {
    let rw = opts
        .get("rw")
        .or_else(|| opts.get("readwrite"))
        .map(String::as_str);
    let read_share = match rw.map(|r| r.split(':').next().unwrap_or(r).trim()) {
        Some("read" | "randread") => 1.0,
        Some("write" | "randwrite" | "trim" | "randtrim") => 0.0,
        _ => opt_u32(opts, "rwmixread")
            .map(|r| f64::from(r.min(100)) / 100.0)
            .or_else(|| opt_u32(opts, "rwmixwrite").map(|w| 1.0 - f64::from(w.min(100)) / 100.0))
            .unwrap_or(0.5),
    };
    let part = |share: f64| Dir {
        ios: mixed.ios * share,
        bytes: mixed.bytes * share,
        iops: mixed.iops * share,
        bw_bytes: mixed.bw_bytes * share,
        runtime_ms: mixed.runtime_ms,
        latency: LatencySet {
            ios: mixed.latency.ios * share,
            ..mixed.latency.clone()
        },
    };
    (part(read_share), part(1.0 - read_share))
}

/// Jobs behind one `group_reporting` entry. Its `job options` come from the last job of the
/// group (fio #2132), so `numjobs` is cross-checked with `job_runtime` (the sum of the
/// jobs' runtimes) over the group's runtime.
fn jobs_in_group(
    job: &Map<String, Value>,
    read: &Dir,
    write: &Dir,
    numjobs: u32,
    jobname: &str,
    warnings: &mut Vec<String>,
) -> u32 {
    let runtime = read.runtime_ms.max(write.runtime_ms);
    let Some(total) = num(job, "job_runtime").filter(|t| *t > 0.0 && runtime > 0.0) else {
        return numjobs;
    };
    let ratio = total / runtime;
    let n = ratio.round();
    if n >= 1.0 && (ratio - n).abs() <= 0.15 && n as u32 != numjobs && n < 1_000_000.0 {
        warnings.push(format!(
            "group `{jobname}`: the options say numjobs={numjobs} but job_runtime shows {n} jobs; using {n}"
        ));
        return n as u32;
    }
    numjobs
}

/// `iodepth` counts only with an asynchronous engine; fio caps synchronous engines at 1.
fn effective_depth(
    opts: &BTreeMap<String, String>,
    jobname: &str,
    warnings: &mut Vec<String>,
) -> u32 {
    let depth = opt_u32(opts, "iodepth").unwrap_or(1).max(1);
    let engine = opts.get("ioengine").map(|e| e.trim().to_ascii_lowercase());
    let sync = match engine.as_deref() {
        None => true,
        Some(e) => matches!(
            e,
            "sync" | "psync" | "vsync" | "pvsync" | "pvsync2" | "mmap" | "splice" | "ftruncate"
        ),
    };
    if sync && depth > 1 {
        let name = engine.as_deref().unwrap_or("psync (the default)");
        let note = format!(
            "job `{jobname}`: iodepth={depth} has no effect with the {name} engine; counted as 1 IO in flight per job"
        );
        if !warnings.contains(&note) {
            warnings.push(note);
        }
        return 1;
    }
    depth
}

fn access_of(opts: &BTreeMap<String, String>) -> Option<Access> {
    let rw = opts.get("rw").or_else(|| opts.get("readwrite"))?;
    let rw = rw.split(':').next().unwrap_or(rw).trim();
    match rw {
        "randread" | "randwrite" | "randrw" | "randtrim" | "trimwrite" => Some(Access::Random),
        "read" | "write" | "rw" | "readwrite" | "trim" => Some(Access::Sequential),
        _ => None,
    }
}

/// One measurement per reporting group, adding up every entry (job, host, file) in it.
fn build(entries: &[Entry], warnings: &mut Vec<String>) -> Vec<Measurement> {
    let groups: BTreeSet<i64> = entries.iter().map(|e| e.groupid).collect();
    let mut out = Vec::new();
    for g in groups {
        let members: Vec<&Entry> = entries.iter().filter(|e| e.groupid == g).collect();
        let read_ios: f64 = members.iter().map(|e| e.read.ios).sum();
        let write_ios: f64 = members.iter().map(|e| e.write.ios).sum();
        let bytes: f64 = members.iter().map(|e| e.read.bytes + e.write.bytes).sum();
        let names: BTreeSet<&str> = members.iter().map(|e| e.jobname.as_str()).collect();
        let label = label_of(&names, g);
        if read_ios + write_ios <= 0.0 {
            warnings.push(format!("group `{label}` did no reads or writes; skipped"));
            continue;
        }
        let hosts: BTreeSet<&str> = members.iter().map(|e| e.host.as_str()).collect();
        let clients = hosts.len().max(1) as u32;
        let threads_total: u32 = members.iter().map(|e| e.jobs).sum::<u32>().max(1);
        let outstanding: u32 = members
            .iter()
            .map(|e| e.jobs.saturating_mul(e.depth))
            .fold(0u32, u32::saturating_add)
            .max(1);
        let mut mix = LatencyMix::default();
        for e in &members {
            mix.add(e.read.latency.clone());
            mix.add(e.write.latency.clone());
        }
        let read_iops: f64 = members.iter().map(|e| e.read.iops).sum();
        let write_iops: f64 = members.iter().map(|e| e.write.iops).sum();
        let read_mibps: f64 = members.iter().map(|e| e.read.bw_bytes).sum::<f64>() / 1_048_576.0;
        let write_mibps: f64 = members.iter().map(|e| e.write.bw_bytes).sum::<f64>() / 1_048_576.0;
        let access = members[0]
            .access
            .filter(|a| members.iter().all(|e| e.access == Some(*a)));
        let runtime_ms = members
            .iter()
            .map(|e| e.read.runtime_ms.max(e.write.runtime_ms))
            .fold(0.0, f64::max);
        out.push(Measurement {
            tool: Tool::Fio,
            label,
            iops: read_iops + write_iops,
            mibps: read_mibps + write_mibps,
            read_pct: 100.0 * read_ios / (read_ios + write_ios),
            io_size_kib: bytes / (read_ios + write_ios) / 1024.0,
            threads: (threads_total / clients).max(1),
            queue_depth: (f64::from(outstanding) / f64::from(threads_total))
                .round()
                .max(1.0) as u32,
            outstanding,
            clients,
            latency_mean_ms: mix.mean_ms(),
            latency_p50_ms: mix.quantile_ms(50.0),
            latency_p99_ms: mix.quantile_ms(99.0),
            read_iops,
            write_iops,
            read_mibps,
            write_mibps,
            access,
            runtime_s: runtime_ms / 1000.0,
        });
    }
    out
}

fn label_of(names: &BTreeSet<&str>, group: i64) -> String {
    let named: Vec<&str> = names.iter().copied().filter(|n| !n.is_empty()).collect();
    match named.len() {
        0 => format!("group {group}"),
        1..=3 => named.join(" + "),
        n => format!("{} + {} more", named[..2].join(" + "), n - 2),
    }
}

fn clip(line: &str) -> String {
    if line.chars().count() > 200 {
        let s: String = line.chars().take(200).collect();
        format!("{s}...")
    } else {
        line.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_start_skips_stray_lines() {
        let t = "fio: pid=12, err=5/file:io_u.c:1889, func=io_u error\n  {\n}";
        assert_eq!(&t[find_json_start(t).unwrap()..], "{\n}");
        assert_eq!(find_json_start("no json"), None);
    }

    #[test]
    fn sync_engine_caps_depth() {
        let mut w = Vec::new();
        let mut o = BTreeMap::new();
        o.insert("iodepth".to_owned(), "32".to_owned());
        assert_eq!(effective_depth(&o, "j", &mut w), 1);
        assert_eq!(w.len(), 1);
        o.insert("ioengine".to_owned(), "libaio".to_owned());
        assert_eq!(effective_depth(&o, "j", &mut w), 32);
    }

    #[test]
    fn access_from_rw() {
        let mut o = BTreeMap::new();
        o.insert("rw".to_owned(), "randrw:8".to_owned());
        assert_eq!(access_of(&o), Some(Access::Random));
        o.insert("rw".to_owned(), "read".to_owned());
        assert_eq!(access_of(&o), Some(Access::Sequential));
        o.clear();
        assert_eq!(access_of(&o), None);
    }

    #[test]
    fn unified_rw_reporting_is_split() {
        let mut o = BTreeMap::new();
        o.insert("rw".to_owned(), "randrw".to_owned());
        o.insert("rwmixread".to_owned(), "70".to_owned());
        let mixed = Dir {
            ios: 1000.0,
            bytes: 4096.0 * 1000.0,
            iops: 100.0,
            bw_bytes: 409_600.0,
            runtime_ms: 10_000.0,
            latency: LatencySet::default(),
        };
        let (r, w) = split_mixed(mixed, &o);
        assert!((r.ios - 700.0).abs() < 1e-9 && (w.ios - 300.0).abs() < 1e-9);
    }
}
