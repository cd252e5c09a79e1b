//! `volplan backup PATH`: an online copy of the SQLite database to a new file.

use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `volplan backup`.
#[derive(Debug, Clone, clap::Args)]
pub struct BackupArgs {
    /// The file to write the copy to; it must not exist unless --force.
    #[arg(value_name = "PATH")]
    pub path: PathBuf,
    /// The database to copy (as `volplan serve --database-url`).
    #[arg(long = "database-url", env = "DATABASE_URL", default_value = crate::web::config::DEFAULT_DATABASE_URL, value_name = "URL")]
    pub database_url: String,
    /// Replace PATH if it exists.
    #[arg(long)]
    pub force: bool,
}

/// Writes the backup; prints where it went. A refusal (existing file, a PostgreSQL
/// database) exits 2, a
/// database or file failure 1.
pub fn run(args: &BackupArgs) -> ExitCode {
    let Some(runtime) = super::runtime() else {
        return ExitCode::FAILURE;
    };
    let done = runtime.block_on(crate::store::backup::backup(
        &args.database_url,
        &args.path,
        args.force,
    ));
    match done {
        Ok(()) => {
            eprintln!(
                "backed up {} to {}",
                crate::store::redacted(&args.database_url),
                args.path.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            match e {
                crate::store::backup::BackupError::Exists(_)
                | crate::store::backup::BackupError::SameFile(_)
                | crate::store::backup::BackupError::Postgres => ExitCode::from(2),
                _ => ExitCode::FAILURE,
            }
        }
    }
}
