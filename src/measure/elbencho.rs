//! elbencho CSV (`elbencho --csvfile`): one row per benchmark phase, already summed over
//! all hosts and threads.
//!
//! The `[last]` columns (when the slowest thread finished) are used. Latency is in µs with
//! min/avg/max only. With `--rwmixpct`, the main columns hold the WRITE results and the
//! `rwmix read ...` columns the reads. Phases without IO (MKDIRS, STAT, RMFILES, ...) are
//! skipped. elbencho appends to an existing file, so repeated header rows are skipped too.

use super::text::number;
use super::{Format, ImportError, Measurement, ParsedResult, Tool};
use crate::engine::scenario::Access;
use std::collections::HashMap;

/// True for the first line of an elbencho CSV file.
pub(super) fn looks_like_header(line: &str) -> bool {
    let cols: Vec<String> = split(line)
        .into_iter()
        .map(|c| c.to_ascii_lowercase())
        .collect();
    cols.iter().any(|c| c == "operation")
        && cols.iter().any(|c| c == "iops [last]" || c == "iso date")
}

/// Parses one elbencho CSV file.
pub fn parse(text: &str) -> Result<ParsedResult, ImportError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, header_line) = lines
        .next()
        .ok_or_else(|| invalid("the file is empty".to_owned()))?;
    let header = split(header_line);
    let index: HashMap<String, usize> = header
        .iter()
        .enumerate()
        .map(|(i, h)| (h.to_ascii_lowercase(), i))
        .collect();
    for required in ["operation", "iops [last]", "threads"] {
        if !index.contains_key(required) {
            return Err(invalid(format!(
                "the header has no `{required}` column; write the file with elbencho --csvfile"
            )));
        }
    }
    let mut warnings = Vec::new();
    let mut skipped: Vec<String> = Vec::new();
    let mut measurements = Vec::new();
    for (n, line) in lines {
        if line.trim() == header_line.trim() {
            continue;
        }
        let fields = split(line);
        if fields.len() < header.len() {
            warnings.push(format!(
                "line {}: {} of {} columns; skipped",
                n + 1,
                fields.len(),
                header.len()
            ));
            continue;
        }
        let row = Row {
            index: &index,
            fields: &fields,
        };
        let op = row.text("operation").to_owned();
        match measure(&row, &op, &mut warnings) {
            Some(m) => measurements.push(m),
            None => {
                if !skipped.contains(&op) {
                    skipped.push(op);
                }
            }
        }
    }
    if !skipped.is_empty() && !measurements.is_empty() {
        warnings.push(format!(
            "phases without reads or writes skipped: {}",
            skipped.join(", ")
        ));
    }
    if measurements.is_empty() {
        let what = if skipped.is_empty() {
            "the file has no result rows".to_owned()
        } else {
            format!(
                "no phase did reads or writes (phases: {}); run elbencho with -r or -w",
                skipped.join(", ")
            )
        };
        return Err(invalid(what));
    }
    Ok(ParsedResult {
        format: Format::ElbenchoCsv,
        measurements,
        warnings,
    })
}

fn invalid(problem: String) -> ImportError {
    ImportError::Invalid {
        format: Format::ElbenchoCsv,
        problem,
    }
}

/// Splits one CSV line. elbencho replaces commas inside its `command` column with spaces,
/// so a plain split works; fields wrapped in double quotes are unwrapped.
fn split(line: &str) -> Vec<String> {
    line.split(',')
        .map(|f| {
            let f = f.trim();
            f.strip_prefix('"')
                .and_then(|s| s.strip_suffix('"'))
                .filter(|s| !s.contains('"'))
                .unwrap_or(f)
                .to_owned()
        })
        .collect()
}

struct Row<'a> {
    index: &'a HashMap<String, usize>,
    fields: &'a [String],
}

impl Row<'_> {
    fn text(&self, col: &str) -> &str {
        self.index
            .get(col)
            .and_then(|i| self.fields.get(*i))
            .map(String::as_str)
            .unwrap_or("")
    }

    fn num(&self, col: &str) -> Option<f64> {
        number(self.text(col))
    }
}

fn measure(row: &Row<'_>, op: &str, warnings: &mut Vec<String>) -> Option<Measurement> {
    let main_iops = row.num("iops [last]").unwrap_or(0.0);
    let mix_iops = row.num("rwmix read iops [last]").unwrap_or(0.0);
    if main_iops + mix_iops <= 0.0 {
        return None;
    }
    let is_read = op.eq_ignore_ascii_case("read");
    let (read_iops, write_iops) = if is_read {
        (main_iops, 0.0)
    } else {
        (mix_iops, main_iops)
    };
    let label_col = row.text("label");
    let label = match (label_col.is_empty(), mix_iops > 0.0) {
        (true, false) => op.to_owned(),
        (true, true) => format!("{op} + rwmix read"),
        (false, false) => format!("{label_col} {op}"),
        (false, true) => format!("{label_col} {op} + rwmix read"),
    };
    let block = row.num("block size").filter(|b| *b > 0.0);
    let reported = |col: &str| row.num(col).unwrap_or(0.0);
    let mut rate = |iops: f64, col: &str| -> f64 {
        let from_blocks = block.map(|b| iops * b / 1_048_576.0);
        match from_blocks {
            Some(x) => {
                let r = reported(col);
                if (x - r).abs() > 1.0_f64.max(0.05 * r) {
                    warnings.push(format!(
                        "`{label}`: IOPS x block size gives {x:.0} MiB/s but elbencho reports {r}; using elbencho's figure"
                    ));
                    r
                } else {
                    x
                }
            }
            None => reported(col),
        }
    };
    let main_mibps = rate(main_iops, "mib/s [last]");
    let mix_mibps = if mix_iops > 0.0 {
        rate(mix_iops, "rwmix read mib/s [last]")
    } else {
        0.0
    };
    let (read_mibps, write_mibps) = if is_read {
        (main_mibps, 0.0)
    } else {
        (mix_mibps, main_mibps)
    };
    let iops = read_iops + write_iops;
    let mibps = read_mibps + write_mibps;
    let lat_main = row.num("io lat us [avg]");
    let lat_mix = row.num("rwmix read io lat us [avg]");
    let latency_mean_ms = match (lat_main, mix_iops > 0.0) {
        (Some(m), false) => Some(m / 1000.0),
        (Some(m), true) => lat_mix.map(|r| (m * main_iops + r * mix_iops) / iops / 1000.0),
        (None, _) => None,
    };
    let threads = row.num("threads").unwrap_or(1.0).round().clamp(1.0, 1.0e6) as u32;
    let depth = row.num("io depth").unwrap_or(1.0).round().clamp(1.0, 1.0e6) as u32;
    let hosts = row.num("hosts").unwrap_or(1.0).round().clamp(1.0, 1.0e6) as u32;
    let access = match row.text("random") {
        "1" => Some(Access::Random),
        "0" => Some(Access::Sequential),
        _ => None,
    };
    Some(Measurement {
        tool: Tool::Elbencho,
        label,
        iops,
        mibps,
        read_pct: 100.0 * read_iops / iops,
        io_size_kib: block.map(|b| b / 1024.0).unwrap_or(mibps * 1024.0 / iops),
        threads,
        queue_depth: depth,
        outstanding: threads.saturating_mul(depth).saturating_mul(hosts),
        clients: hosts,
        latency_mean_ms,
        latency_p50_ms: None,
        latency_p99_ms: None,
        read_iops,
        write_iops,
        read_mibps,
        write_mibps,
        access,
        runtime_s: row.num("time ms [last]").unwrap_or(0.0) / 1000.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_detection() {
        assert!(looks_like_header(
            "ISO date,label,path type,paths,hosts,threads,operation,IOPS [last]"
        ));
        assert!(!looks_like_header("a,b,c"));
    }

    #[test]
    fn quoted_command_field() {
        let f = split(r#"a,"b",""elbencho" "-w" "/mnt""#);
        assert_eq!(f[1], "b");
        assert_eq!(f[2], r#"""elbencho" "-w" "/mnt""#);
    }

    #[test]
    fn missing_columns_are_named() {
        let e = parse("ISO date,operation,IOPS [last]\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`threads`"), "{e}");
    }
}
