//! The `volplan` command: web server (default) and command-line tools.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "volplan", version, about = "Capacity planning and sizing for cloud file storage")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Read one Scenario JSON (FILE or - for stdin) and print its Evaluation JSON.
    Evaluate {
        /// Scenario JSON file, or - for standard input.
        file: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Evaluate { file }) => volplan::cli::evaluate(&file),
        None => {
            eprintln!("the web server is not wired yet; use `volplan evaluate FILE`");
            ExitCode::from(2)
        }
    }
}
