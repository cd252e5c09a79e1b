//! Online backup of a SQLite database with `VACUUM INTO`: a consistent copy taken while
//! the server keeps serving (readers and writers are not stopped).

use super::{BUSY_TIMEOUT, StoreError};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Why a backup was not written.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error(
        "the database is PostgreSQL: back it up with pg_dump (see docs/operations.md, \
         Backups); volplan backup copies SQLite files"
    )]
    Postgres,
    #[error("{0} exists; pass --force to replace it")]
    Exists(PathBuf),
    #[error("{0} is the database itself; back up to another file")]
    SameFile(PathBuf),
    #[error("the database {url} cannot be opened: {source}")]
    Open { url: String, source: StoreError },
    #[error("cannot write {path}: {source}")]
    Write { path: PathBuf, source: StoreError },
    #[error("cannot replace {path}: {source}")]
    Replace {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Copies the existing database at `url` to the new file `path`; an existing `path`
/// is replaced only with `force` (the copy is written beside it, then renamed over it).
pub async fn backup(url: &str, path: &Path, force: bool) -> Result<(), BackupError> {
    if super::Backend::of_url(url) == super::Backend::Postgres {
        return Err(BackupError::Postgres);
    }
    let open = |source: StoreError| BackupError::Open {
        url: url.to_owned(),
        source,
    };
    let opts = SqliteConnectOptions::from_str(url)
        .map_err(|e| open(e.into()))?
        .create_if_missing(false)
        .busy_timeout(BUSY_TIMEOUT);
    if same_file(opts.get_filename(), path) {
        return Err(BackupError::SameFile(path.to_owned()));
    }
    let exists = path.exists();
    if exists && !force {
        return Err(BackupError::Exists(path.to_owned()));
    }
    let mut conn = opts.connect().await.map_err(|e| open(e.into()))?;
    let target = if exists {
        partial_name(path)
    } else {
        path.to_owned()
    };
    let written = sqlx::query("VACUUM INTO $1")
        .bind(target.to_string_lossy().into_owned())
        .execute(&mut conn)
        .await;
    let _ = conn.close().await;
    if let Err(e) = written {
        if exists {
            let _ = std::fs::remove_file(&target);
        }
        return Err(BackupError::Write {
            path: path.to_owned(),
            source: e.into(),
        });
    }
    if exists {
        std::fs::rename(&target, path).map_err(|source| {
            let _ = std::fs::remove_file(&target);
            BackupError::Replace {
                path: path.to_owned(),
                source,
            }
        })?;
    }
    Ok(())
}

/// Where a forced backup is written before it replaces `path`: beside it, so the
/// rename stays on one file system.
fn partial_name(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(format!(".partial-{}", std::process::id()));
    path.with_file_name(name)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
