//! SQLite storage: the connection pool, embedded migrations and one function per query.
//!
//! Queries are runtime `query_as` with `$N` binds, so a clean checkout builds without a
//! database. Every write runs in `BEGIN IMMEDIATE`: a deferred transaction that later
//! writes can fail with `SQLITE_BUSY` under WAL whatever the busy timeout.

pub mod access;
pub mod activity;
pub mod avs;
pub mod backup;
pub mod estates;
pub mod measurements;
pub mod prices;
mod scenarios;

pub use access::{Actor, Ownership, Visibility, set_visibility, visible_scenario};
pub use scenarios::{
    ListedScenario, MAX_PAGE, PricedRevision, Revision, ScenarioPage, ScenarioSummary,
    StoredScenario, binding_label, create_scenario, create_scenario_by, delete_scenario,
    delete_scenario_by, get_revision, get_scenario, list_page, list_revisions, list_scenarios,
    list_scenarios_for, priced_revision, restore_revision, restore_revision_by, update_scenario,
    update_scenario_by,
};

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

/// The database pool every store function takes.
pub type Db = sqlx::SqlitePool;
/// One connection of [`Db`] (inside a transaction, for example).
pub type DbConn = sqlx::SqliteConnection;
/// A write transaction on [`Db`].
pub type DbTx = sqlx::Transaction<'static, sqlx::Sqlite>;

/// The migrations in `migrations/`, embedded in the binary.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Opens a write transaction that takes the write lock at once.
pub(crate) const BEGIN_IMMEDIATE: &str = "BEGIN IMMEDIATE";

/// How long a connection waits for another writer before giving up.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a store call failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The row asked for does not exist.
    #[error("not found")]
    NotFound,
    /// The database failed (I/O, lock timeout, constraint).
    #[error("database error: {0}")]
    Db(sqlx::Error),
    /// A stored value cannot be read back (e.g. JSON that no longer parses).
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        match e {
            sqlx::Error::RowNotFound => StoreError::NotFound,
            other => StoreError::Db(other),
        }
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(e: sqlx::migrate::MigrateError) -> Self {
        StoreError::Db(sqlx::Error::Migrate(Box::new(e)))
    }
}

/// Opens (creating file and parent folder if needed) and migrates the database at `url`.
///
/// `url` is `sqlite:volplan.db`, `sqlite://dir/x.db`, a plain path, or `sqlite::memory:`.
/// WAL lets readers proceed while one writer commits; `synchronous=NORMAL` is safe with
/// WAL and avoids an fsync per commit.
pub async fn connect(url: &str) -> Result<Db, StoreError> {
    let opts = SqliteConnectOptions::from_str(url)?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .busy_timeout(BUSY_TIMEOUT)
        .foreign_keys(true);
    create_parent_dir(opts.get_filename())?;
    let pool = SqlitePoolOptions::new()
        .max_connections(8)
        .acquire_timeout(Duration::from_secs(30))
        .connect_with(opts)
        .await?;
    MIGRATOR.run(&pool).await?;
    Ok(pool)
}

/// `create_if_missing` creates the file but not its folder.
fn create_parent_dir(file: &Path) -> Result<(), StoreError> {
    let name = file.to_string_lossy();
    if name.starts_with("file:") || name == ":memory:" {
        return Ok(());
    }
    match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.exists() => {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::Db(sqlx::Error::Io(e)))
        }
        _ => Ok(()),
    }
}

/// Deletes a saved object and its history on the caller's transaction: `history`
/// deletes the revisions (explicitly, so they go even on a connection with foreign keys
/// off), then `object` the row, returning its name; both take the id as `$1`.
/// `NotFound` when the row did not exist.
pub(crate) async fn delete_with_history(
    conn: &mut DbConn,
    history: &'static str,
    object: &'static str,
    id: i64,
) -> Result<String, StoreError> {
    sqlx::query(history).bind(id).execute(&mut *conn).await?;
    let (name,): (String,) = sqlx::query_as(object)
        .bind(id)
        .fetch_one(&mut *conn)
        .await?;
    Ok(name)
}

/// Begins a `BEGIN IMMEDIATE` transaction on the pool.
pub(crate) async fn begin_write(pool: &Db) -> Result<DbTx, StoreError> {
    Ok(pool.begin_with(BEGIN_IMMEDIATE).await?)
}

/// Now in UTC as the store writes timestamps: `2026-11-30T12:00:00Z`.
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format_utc(secs)
}

/// `secs` since the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ` (proleptic Gregorian).
pub fn format_utc(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(i64::MAX / 2);
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::format_utc;

    #[test]
    fn formats_utc_timestamps() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(format_utc(1_796_083_199), "2026-11-30T23:59:59Z");
    }
}
