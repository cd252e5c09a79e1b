//! `volplan prices import FILE...`: Azure Retail Prices API pages into the price book of
//! a database, as the Prices page and `POST /api/v1/prices/import` do.

use crate::prices::retail::{self, RetailItem};
use std::process::ExitCode;

/// The `volplan prices` commands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum PricesCommand {
    /// Import Azure Retail Prices API pages (one page per file, or a merged array of
    /// items) into the database: new and changed rows are stored as prices of the book
    /// in force; prints what changed as JSON.
    Import(ImportArgs),
}

/// Options of `volplan prices import`.
#[derive(Debug, Clone, clap::Args)]
pub struct ImportArgs {
    /// Retail Prices API pages as saved from the API (`{"Items": [...]}`) or merged
    /// arrays of items; - for standard input. Several files are read as one import.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// The database to store the prices in (as `volplan serve --database-url`).
    #[arg(long = "database-url", env = "DATABASE_URL", default_value = crate::web::config::DEFAULT_DATABASE_URL, value_name = "URL")]
    pub database_url: String,
    /// Print what would change without storing anything.
    #[arg(long)]
    pub dry_run: bool,
}

/// Runs a `volplan prices` command; bad input exits 2, a database failure 1.
pub fn run(cmd: &PricesCommand) -> ExitCode {
    match cmd {
        PricesCommand::Import(args) => import(args),
    }
}

/// Reads every file's items, in order; the error names the file and the item.
fn read_items(files: &[String]) -> Result<Vec<RetailItem>, String> {
    let mut items = Vec::new();
    for f in files {
        let bytes = if f == "-" {
            use std::io::Read;
            let mut b = Vec::new();
            std::io::stdin()
                .read_to_end(&mut b)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            b
        } else {
            std::fs::read(f).map_err(|e| format!("cannot read {f}: {e}"))?
        };
        items.extend(retail::parse_bytes(&bytes).map_err(|e| format!("{f}: {e}"))?);
    }
    Ok(items)
}

fn import(args: &ImportArgs) -> ExitCode {
    let items = match read_items(&args.files) {
        Ok(items) => items,
        Err(msg) => {
            eprintln!("error: {msg}");
            return ExitCode::from(2);
        }
    };
    let origin = args.files.join(", ");
    let today = crate::store::today_utc();
    let run = async {
        let pool = crate::store::connect(&args.database_url).await?;
        let done = crate::store::prices::import(
            &pool,
            &items,
            &origin,
            &today,
            args.dry_run,
            crate::store::Actor::SINGLE_USER,
        )
        .await;
        pool.close().await;
        done
    };
    let Some(runtime) = super::runtime() else {
        return ExitCode::FAILURE;
    };
    match runtime.block_on(run) {
        Ok((outcome, _)) => match serde_json::to_string_pretty(&outcome) {
            Ok(json) => {
                println!("{json}");
                if outcome.stored {
                    eprintln!(
                        "stored {} new and {} changed price(s) in {}; a running server uses them from its next start or the next time its Prices page is opened",
                        outcome.plan.added,
                        outcome.plan.changed,
                        crate::store::redacted(&args.database_url)
                    );
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: cannot write the answer: {e}");
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("error: {}: {e}", crate::store::redacted(&args.database_url));
            ExitCode::FAILURE
        }
    }
}
