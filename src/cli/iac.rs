//! `volplan export FORMAT SCENARIO.json` and `volplan iac check FILE`.

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
    /// statements; exit 1 when a target is missed or the cost is over --max-monthly.
    Check {
        /// The code, or - for standard input.
        file: String,
        /// Monthly cost ceiling; above it the check fails.
        #[arg(long)]
        max_monthly: Option<f64>,
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

/// Runs a code command: 0 when every target is met within the ceiling, 1 when not, 2
/// on input that cannot be read.
pub fn run(cmd: &IacCommand) -> ExitCode {
    let IacCommand::Check {
        file,
        max_monthly,
        json,
    } = cmd;
    if let Some(m) = max_monthly.filter(|m| !(m.is_finite() && *m > 0.0)) {
        eprintln!("error: --max-monthly is a monthly cost above 0, not {m}");
        return ExitCode::from(2);
    }
    let answer = read_input(file).and_then(|t| {
        iac::evaluate::check(&t, pricing::book(), *max_monthly).map_err(|e| match e {
            Refused::Unreadable(m) => m,
            Refused::Invalid(es) => es.to_string(),
        })
    });
    match answer {
        Ok(a) => {
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
            if a.met && !a.over_budget {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
