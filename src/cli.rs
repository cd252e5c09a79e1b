//! Command-line tools: read input, call the engine, print JSON; exit 2 on bad input.

pub mod avs;
pub mod backup;
pub mod estate;
pub mod iac;
pub mod prices;
pub mod tokens;
pub mod users;

use crate::engine;
use crate::mounts::{self, MountRequest, Workload};
use crate::verdict;
use std::io::{Read, Write};
use std::process::ExitCode;

/// A one-thread async runtime for a command that uses the store; `None` (after saying
/// why on stderr) when it cannot start.
fn runtime() -> Option<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| eprintln!("error: cannot start the async runtime: {e}"))
        .ok()
}

/// Reads FILE (or stdin for `-`) as text; the error says what could not be read.
pub fn read_input(file: &str) -> Result<String, String> {
    let mut text = String::new();
    if file == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
    } else {
        text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    }
    Ok(text)
}

/// Parses Scenario JSON; errors name the field path and what to fix.
pub fn parse_scenario(text: &str) -> Result<engine::Scenario, String> {
    let de = &mut serde_json::Deserializer::from_str(text);
    let scenario: engine::Scenario = serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path == "." || path.is_empty() {
            format!("scenario JSON: {inner}")
        } else {
            format!("{path}: {inner}")
        }
    })?;
    Ok(scenario)
}

/// Every field error on a line of its own.
fn lines(errors: &engine::FieldErrors) -> String {
    let each: Vec<String> = errors.iter().map(ToString::to_string).collect();
    each.join("\nerror: ")
}

/// `volplan evaluate FILE`: Scenario JSON in, Evaluation JSON with its verdict out, or
/// with `statements` the verdict's statements as lines of text.
pub fn evaluate(file: &str, statements: bool) -> ExitCode {
    let book = engine::pricing::book();
    let result = read_input(file)
        .and_then(|text| parse_scenario(&text))
        .and_then(|s| {
            engine::evaluate_in(&s, book)
                .map(|e| crate::verdict::judge(&s, e, book))
                .map_err(|e| lines(&e))
        });
    match result {
        Ok(judged) if statements => {
            for line in crate::verdict::report_statements(&judged.verdict) {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Ok(judged) => match serde_json::to_string_pretty(&judged) {
            Ok(json) => {
                println!("{json}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: cannot write the evaluation: {e}");
                ExitCode::FAILURE
            }
        },
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Reads a mount-advisor request: a JSON object as in the contract, or, when the text
/// is not JSON, the text itself as the mount lines. `distro` and `workload` fill or
/// override the request's fields.
pub fn parse_mount_request(
    text: &str,
    distro: Option<String>,
    workload: Option<&str>,
) -> Result<MountRequest, String> {
    let mut req = match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(_)) => {
            let de = &mut serde_json::Deserializer::from_str(text);
            serde_path_to_error::deserialize(de).map_err(|e| {
                let path = e.path().to_string();
                let inner = e.into_inner();
                if path == "." || path.is_empty() {
                    format!("mount request JSON: {inner}")
                } else {
                    format!("{path}: {inner}")
                }
            })?
        }
        Ok(_) => {
            return Err(
                "the input is JSON but not an object; send {\"text\": ..., \"distro\": ..., \"workload\": ...} or plain mount lines".into(),
            );
        }
        Err(_) => MountRequest {
            text: text.to_owned(),
            ..MountRequest::default()
        },
    };
    if distro.is_some() {
        req.distro = distro;
    }
    if let Some(w) = workload {
        req.workload = Some(Workload::from_key(w).ok_or_else(|| {
            let keys: Vec<&str> = Workload::ALL.iter().map(|w| w.key()).collect();
            format!("workload: `{w}` is not one of {}", keys.join(", "))
        })?);
    }
    req.validate().map_err(|e| e.to_string())?;
    Ok(req)
}

/// `volplan advise-mounts FILE`: a mount plan in, the advice JSON out.
pub fn advise_mounts(file: &str, distro: Option<String>, workload: Option<&str>) -> ExitCode {
    let result = read_input(file).and_then(|text| parse_mount_request(&text, distro, workload));
    match result {
        Ok(req) => {
            let written = serde_json::to_string_pretty(&mounts::advise(&req))
                .map_err(std::io::Error::other)
                .and_then(|json| writeln!(std::io::stdout().lock(), "{json}"));
            match written {
                // A reader that stops early (`| head`) is not an error.
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: cannot write the advice: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Options of `volplan report`.
#[derive(Debug, Clone, clap::Args)]
pub struct ReportArgs {
    /// Scenario JSON file, or - for standard input.
    pub file: String,
    /// html, md, pdf, csv, xlsx or json.
    #[arg(long, value_name = "FORMAT")]
    pub format: String,
    /// Where to write the report; - for standard output.
    #[arg(long, value_name = "PATH")]
    pub output: String,
    /// Paper size of the PDF: a4 or letter.
    #[arg(long, default_value = "a4")]
    pub paper: String,
    /// Who the report is for: customer (no internal ids, paths or commits) or engineer
    /// (with the model trace).
    #[arg(long, default_value = "customer")]
    pub edition: String,
    /// Add a layouts section: volume counts separated by commas, e.g. 1,2,4,8.
    #[arg(long, value_name = "COUNTS")]
    pub layouts: Option<String>,
    /// Add a comparison with another Scenario JSON file (repeat for more).
    #[arg(long, value_name = "FILE")]
    pub compare: Vec<String>,
}

/// `volplan report FILE --format F --output PATH`: writes the sizing report.
pub fn report(args: &ReportArgs) -> ExitCode {
    use crate::report::model::{self, Report};
    use crate::report::{Edition, Format, Paper, RenderOptions};
    let result = (|| -> Result<Vec<u8>, String> {
        let format = Format::from_ext(&args.format).ok_or_else(|| {
            format!(
                "--format must be html, md, pdf, csv, xlsx or json, not `{}`",
                args.format
            )
        })?;
        let paper = Paper::parse(&args.paper).map_err(|e| format!("--paper: {e}"))?;
        let edition = Edition::parse(&args.edition).map_err(|e| format!("--edition: {e}"))?;
        let counts = args
            .layouts
            .as_deref()
            .map(model::parse_counts)
            .transpose()
            .map_err(|e| format!("--layouts: {e}"))?;
        let load = |file: &str| -> Result<(engine::Scenario, engine::Evaluation), String> {
            let s = read_input(file).and_then(|text| parse_scenario(&text))?;
            let e = engine::evaluate(&s).map_err(|e| format!("{file}: {e}"))?;
            Ok((s, e))
        };
        let (scenario, evaluation) = load(&args.file)?;
        let others = args
            .compare
            .iter()
            .map(|f| load(f))
            .collect::<Result<Vec<_>, String>>()?;
        let mut r = Report::build(
            &scenario,
            &evaluation,
            engine::pricing::book(),
            &crate::store::today_utc(),
        );
        if !others.is_empty() {
            r = r.with_comparison(&others, engine::pricing::book());
        }
        if let Some(counts) = counts {
            r = r
                .with_layouts(&counts, engine::pricing::book())
                .map_err(|e| format!("--layouts: {e}"))?;
        }
        crate::report::render(&r, format, RenderOptions { paper, edition })
            .map_err(|e| e.to_string())
    })();
    let bytes = match result {
        Ok(bytes) => bytes,
        Err(msg) => {
            eprintln!("error: {msg}");
            return ExitCode::from(2);
        }
    };
    let written = if args.output == "-" {
        use std::io::Write;
        std::io::stdout().write_all(&bytes)
    } else {
        std::fs::write(&args.output, &bytes)
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", args.output);
            ExitCode::from(2)
        }
    }
}

/// Options of `volplan import`.
#[derive(Debug, Clone, clap::Args)]
pub struct ImportArgs {
    /// Result files: fio JSON, DiskSpd XML (-Rxml) or elbencho CSV; several files are the
    /// same test run on several clients at once and are added up.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Scenario JSON to compare the measurements with (measured against predicted).
    #[arg(long, value_name = "SCENARIO.json")]
    pub scenario: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `volplan import FILE... [--scenario S.json]`: the measurements, and with a scenario the
/// comparison with the prediction and its reason. Warnings go to stderr.
pub fn import(args: &ImportArgs) -> ExitCode {
    use crate::measure;
    let result = (|| -> Result<String, String> {
        let mut files = Vec::with_capacity(args.files.len());
        for f in &args.files {
            files.push(std::fs::read(f).map_err(|e| format!("cannot read {f}: {e}"))?);
        }
        let refs: Vec<&[u8]> = files.iter().map(Vec::as_slice).collect();
        let parsed = measure::parse_many(&refs).map_err(|e| e.to_string())?;
        let scenario = match &args.scenario {
            Some(path) => Some(read_input(path).and_then(|t| parse_scenario(&t))?),
            None => None,
        };
        let comparisons: Vec<Option<Result<verdict::measured::Comparison, String>>> = parsed
            .measurements
            .iter()
            .map(|m| {
                scenario.as_ref().map(|s| {
                    verdict::measured::compare(s, m, engine::pricing::book())
                        .map_err(|e| e.to_string())
                })
            })
            .collect();
        for w in &parsed.warnings {
            eprintln!("warning: {w}");
        }
        if args.json {
            let runs: Vec<serde_json::Value> = parsed
                .measurements
                .iter()
                .zip(&comparisons)
                .map(|(m, c)| {
                    let (comparison, error) = match c {
                        Some(Ok(c)) => (serde_json::to_value(c).ok(), None),
                        Some(Err(e)) => (None, Some(e.clone())),
                        None => (None, None),
                    };
                    serde_json::json!({
                        "measurement": m, "comparison": comparison, "comparison_error": error
                    })
                })
                .collect();
            let out = serde_json::json!({
                "format": parsed.format, "warnings": parsed.warnings, "runs": runs
            });
            return serde_json::to_string_pretty(&out).map_err(|e| e.to_string());
        }
        let mut text = format!(
            "{}: {} run(s)\n",
            parsed.format.display(),
            parsed.measurements.len()
        );
        for (m, c) in parsed.measurements.iter().zip(&comparisons) {
            text.push_str(&import_line(m));
            match c {
                Some(Ok(c)) => text.push_str(&format!(
                    "    predicted {} MiB/s, {} IOPS (binding: {}); measured / predicted = {}\n    {}\n",
                    num(c.run.predicted_mibps, 1),
                    num(c.run.predicted_iops, 0),
                    c.run.binding,
                    num(c.run.ratio, 2),
                    c.sentence
                )),
                Some(Err(e)) => text.push_str(&format!("    no prediction: {e}\n")),
                None => {}
            }
        }
        Ok(text.trim_end().to_owned())
    })();
    match result {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

use crate::format::{self, num};

/// One measurement as a line of text.
fn import_line(m: &crate::measure::Measurement) -> String {
    let access = match m.access {
        Some(engine::scenario::Access::Random) => ", random",
        Some(engine::scenario::Access::Sequential) => ", sequential",
        None => "",
    };
    let ms = |x: Option<f64>| {
        x.map(|v| format!("{} ms", format::ms(v)))
            .unwrap_or_else(|| "n/a".to_owned())
    };
    format!(
        "  {}: {} MiB/s, {} IOPS; {} KiB, {}% reads{access}; {} IOs in flight ({} thread(s) x queue depth {} x {} client(s)); latency mean {}, p50 {}, p99 {}; {} s\n",
        m.label,
        num(m.mibps, 1),
        num(m.iops, 0),
        num(m.io_size_kib, 1),
        num(m.read_pct, 0),
        m.outstanding,
        m.threads,
        m.queue_depth,
        m.clients,
        ms(m.latency_mean_ms),
        ms(m.latency_p50_ms),
        ms(m.latency_p99_ms),
        num(m.runtime_s, 0)
    )
}
