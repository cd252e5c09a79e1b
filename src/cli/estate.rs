//! `volplan estate optimize FILE`: an estate request in, the planned estate out.

use super::read_input;
use crate::engine::pricing;
use crate::estate::{self, EstateRequest};
use clap::Subcommand;
use std::process::ExitCode;

/// Estate commands.
#[derive(Debug, Subcommand)]
pub enum EstateCommand {
    /// Read an estate request (FILE or - for stdin; the body of POST
    /// /api/v1/estate/optimize) and print the planned estate as JSON: pools,
    /// assignments, per-workload fit and the growth timeline.
    Optimize {
        /// Estate request JSON, or - for standard input.
        file: String,
    },
}

/// Runs an estate command; bad input: message on stderr, exit 2.
pub fn run(cmd: &EstateCommand) -> ExitCode {
    let EstateCommand::Optimize { file } = cmd;
    let planned = read_input(file).and_then(|t| parse(&t)).and_then(|req| {
        estate::optimize(&req, pricing::book())
            .map(|plan| crate::verdict::estate::judge(plan, &req))
            .map_err(|e| e.to_string())
    });
    match planned {
        Ok(p) => match serde_json::to_string_pretty(&p) {
            Ok(json) => {
                println!("{json}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: cannot write the estate: {e}");
                ExitCode::FAILURE
            }
        },
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Parses an estate request; errors name the field path.
pub fn parse(text: &str) -> Result<EstateRequest, String> {
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path == "." || path.is_empty() {
            format!("estate JSON: {inner}")
        } else {
            format!("{path}: {inner}")
        }
    })
}
