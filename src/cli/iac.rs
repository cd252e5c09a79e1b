//! `volplan export FORMAT SCENARIO.json` and `volplan iac check FILE [--baseline OLD]`.

use super::{parse_scenario, read_input};
use crate::engine::pricing;
use crate::iac::{self, Format, evaluate::Refused, layout};
use clap::{Args, Subcommand};
use std::process::ExitCode;

/// `volplan export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// terraform, bicep, azcli or gcloud.
    pub format: String,
    /// Scenario JSON file, or - for standard input.
    pub file: String,
}

/// Code commands.
#[derive(Debug, Subcommand)]
pub enum IacCommand {
    /// Read Terraform HCL, `terraform show -json` output or an ARM deployment JSON
    /// (FILE or - for stdin), evaluate every NetApp pool it deploys and print the
    /// statements; exit 1 when a target is missed, the cost is over --max-monthly, or
    /// it grew past --max-increase-pct over the --baseline code.
    Check {
        /// The code, or - for standard input.
        file: String,
        /// Monthly cost ceiling; above it the check fails.
        #[arg(long)]
        max_monthly: Option<f64>,
        /// The code before the change (same formats): its cost is compared with FILE's.
        #[arg(long)]
        baseline: Option<String>,
        /// Largest allowed increase of the monthly cost over --baseline, in %; above
        /// it the check fails.
        #[arg(long, requires = "baseline")]
        max_increase_pct: Option<f64>,
        /// Print the answer as JSON instead of the statements.
        #[arg(long)]
        json: bool,
    },
}

/// Writes the scenario as code on stdout; bad input: exit 2.
pub fn export(args: &ExportArgs) -> ExitCode {
    let Some(f) = Format::parse(&args.format) else {
        eprintln!(
            "error: no format {:?}: use terraform, bicep, azcli or gcloud",
            args.format
        );
        return ExitCode::from(2);
    };
    let text = read_input(&args.file)
        .and_then(|t| parse_scenario(&t))
        .and_then(|s| {
            let source = format!("the Scenario JSON of {}", s.name);
            layout::of_scenario(&s, &source, pricing::book())
                .and_then(|l| iac::export(&l, f))
                .map_err(|e| e.0)
        });
    match text {
        Ok(t) => {
            print!("{t}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Reads and evaluates `file`; the message of code that cannot be read.
fn checked(file: &str, max_monthly: Option<f64>) -> Result<iac::evaluate::Answer, String> {
    read_input(file).and_then(|t| {
        iac::evaluate::check(&t, pricing::book(), max_monthly).map_err(|e| match e {
            Refused::Unreadable(m) => format!("{file}: {m}"),
            Refused::Invalid(es) => format!("{file}: {es}"),
        })
    })
}

/// Runs a code command: 0 when every target is met within the ceiling and the allowed
/// increase, 1 when not, 2 on input that cannot be read.
pub fn run(cmd: &IacCommand) -> ExitCode {
    let IacCommand::Check {
        file,
        max_monthly,
        baseline,
        max_increase_pct,
        json,
    } = cmd;
    if let Some(m) = max_monthly.filter(|m| !(m.is_finite() && *m > 0.0)) {
        eprintln!("error: --max-monthly is a monthly cost above 0, not {m}");
        return ExitCode::from(2);
    }
    if let Some(p) = max_increase_pct.filter(|p| !(p.is_finite() && *p >= 0.0)) {
        eprintln!("error: --max-increase-pct is a percentage of 0 or more, not {p}");
        return ExitCode::from(2);
    }
    let answered = checked(file, *max_monthly).and_then(|mut a| {
        if let Some(b) = baseline {
            a.grown(checked(b, None)?.monthly, *max_increase_pct);
        }
        Ok(a)
    });
    let a = match answered {
        Ok(a) => a,
        Err(msg) => {
            eprintln!("error: {msg}");
            return ExitCode::from(2);
        }
    };
    if *json {
        match serde_json::to_string_pretty(&a) {
            Ok(j) => println!("{j}"),
            Err(e) => {
                eprintln!("error: cannot write the answer: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        for j in &a.evaluations {
            for line in &j.verdict.statements {
                println!("{line}");
            }
        }
        for line in &a.statements {
            println!("{line}");
        }
    }
    if a.met && !a.over_budget && !a.growth.as_ref().is_some_and(|g| g.over) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
