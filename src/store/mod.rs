//! Storage on SQLite (the default, embedded) or PostgreSQL (`postgres://` URLs): the
//! connection pool, embedded migrations and one function per query.
//!
//! Both databases run the same queries through sqlx's `Any` driver: runtime `query_as`
//! with `$N` binds and SQL both speak (timestamps are computed in Rust, not by SQL
//! functions), so a clean checkout builds without a database. Each database has its own
//! migrations (`migrations/` for SQLite, `migrations/postgres/` for PostgreSQL) with the
//! same versions. Every write runs in a transaction that holds the database's one write
//! lock for its whole length (see [`begin_write`]), so the two behave alike under
//! concurrent writers, also across several app instances on one PostgreSQL.

pub mod access;
pub mod activity;
pub mod avs;
pub mod backup;
pub mod bounds;
pub mod calibrations;
mod connect;
pub mod estates;
pub mod measurements;
pub mod prices;
pub mod resource;
mod scenarios;
pub mod sessions;
pub mod tokens;
pub mod users;

pub use access::{Actor, Ownership, Visibility};
pub use connect::{Backend, PG_ACQUIRE_TIMEOUT, backend, connect, redacted};
pub use resource::Revision;
pub use scenarios::{
    ListedScenario, MAX_PAGE, PricedRevision, ScenarioPage, ScenarioSummary, StoredScenario,
    binding_label, create_scenario_by, delete_scenario_by, get_revision, get_scenario, list_page,
    list_revisions, list_scenarios_for, priced_revision, restore_revision_by, revision_bodies,
    set_visibility, update_scenario_by, visible_scenario,
};

use std::time::Duration;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// The database pool every store function takes (SQLite or PostgreSQL).
pub type Db = sqlx::AnyPool;
/// One connection of [`Db`] (inside a transaction, for example).
pub type DbConn = sqlx::AnyConnection;
/// A write transaction on [`Db`].
pub type DbTx = sqlx::Transaction<'static, sqlx::Any>;

/// The SQLite migrations in `migrations/`, embedded in the binary.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");
/// The PostgreSQL migrations in `migrations/postgres/`, embedded in the binary.
pub static PG_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

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
    /// A cap of [`bounds`] would be passed: nothing was written; the sentence names the
    /// cap and what to do.
    #[error("{0}")]
    Full(String),
}

impl StoreError {
    /// True when the database cannot be reached now rather than refusing this request:
    /// the connection was refused or lost, the pool is closed or gave no connection in
    /// time, PostgreSQL is shutting down or refuses connections (SQLSTATE class `08`,
    /// `57P01` to `57P03`), SQLite cannot open or read its file. Such a failure may pass
    /// when tried again; the web layer answers it with 503 and `Retry-After`.
    pub fn is_unavailable(&self) -> bool {
        let StoreError::Db(e) = self else {
            return false;
        };
        match e {
            sqlx::Error::Io(_)
            | sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::WorkerCrashed => true,
            sqlx::Error::Database(db) => db.code().is_some_and(|c| unavailable_code(&c)),
            _ => false,
        }
    }
}

/// PostgreSQL's connection-exception class (`08xxx`) and its shutdown and
/// cannot-connect-now codes (`57P01` admin shutdown, `57P02` crash shutdown, `57P03`
/// cannot connect now); SQLite's `SQLITE_IOERR` (10) and `SQLITE_CANTOPEN` (14),
/// whose extended codes keep the primary code in their low byte.
fn unavailable_code(code: &str) -> bool {
    if code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03") {
        return true;
    }
    code.parse::<u32>()
        .is_ok_and(|n| matches!(n & 0xff, 10 | 14))
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

/// Begins a write transaction that holds the database's write lock until it ends.
///
/// SQLite: `BEGIN IMMEDIATE` takes the write lock at once (a deferred transaction that
/// later writes can fail with `SQLITE_BUSY` under WAL whatever the busy timeout).
/// PostgreSQL: a transaction-scoped advisory lock, held by one writer at a time across
/// every connection and app instance, so a write reads and bumps counters (revision
/// numbers, list order) exactly as on SQLite.
pub(crate) async fn begin_write(pool: &Db) -> Result<DbTx, StoreError> {
    match backend(pool) {
        Backend::Sqlite => Ok(pool.begin_with("BEGIN IMMEDIATE").await?),
        Backend::Postgres => {
            let mut tx = pool.begin().await?;
            sqlx::query("SELECT 1 FROM pg_advisory_xact_lock($1)")
                .bind(WRITE_LOCK)
                .execute(&mut *tx)
                .await?;
            Ok(tx)
        }
    }
}

/// The advisory lock key of volplan's writes on PostgreSQL ("volplan" in ASCII).
const WRITE_LOCK: i64 = 0x0076_6f6c_706c_616e;

/// Now in UTC as the store writes timestamps: `2026-11-30T12:00:00Z`.
pub fn now_utc() -> String {
    format_utc(now_secs())
}

/// Today's date in UTC (`2026-11-30`), as reports and price books are dated.
pub fn today_utc() -> String {
    OffsetDateTime::now_utc().date().to_string()
}

/// Seconds since the Unix epoch now (0 on a clock set before it).
pub fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `secs` since the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ`; a time past the year 9999
/// is written as its last second.
pub fn format_utc(secs: u64) -> String {
    /// 9999-12-31T23:59:59Z, the last second RFC 3339 can write.
    const LAST: u64 = 253_402_300_799;
    let secs = i64::try_from(secs.min(LAST)).expect("LAST fits an i64");
    OffsetDateTime::from_unix_timestamp(secs)
        .expect("the years 1970 to 9999 are in range")
        .format(&Rfc3339)
        .expect("every UTC second of the years 1970 to 9999 has an RFC 3339 form")
}

#[cfg(test)]
mod tests {
    use super::{StoreError, format_utc, unavailable_code};

    #[test]
    fn a_database_out_of_reach_is_told_from_a_refused_request() {
        let db = StoreError::Db;
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        assert!(db(sqlx::Error::Io(refused)).is_unavailable());
        assert!(db(sqlx::Error::PoolTimedOut).is_unavailable());
        assert!(db(sqlx::Error::PoolClosed).is_unavailable());
        assert!(!db(sqlx::Error::Protocol("bad".into())).is_unavailable());
        assert!(!StoreError::NotFound.is_unavailable());
        assert!(!StoreError::Corrupt("x".into()).is_unavailable());
        for code in [
            "08000", "08006", "08P01", "57P01", "57P02", "57P03", "10", "522", "14",
        ] {
            assert!(unavailable_code(code), "{code}");
        }
        // Unique violation, query canceled, SQLite's constraint and busy.
        for code in ["23505", "57014", "19", "2067", "5"] {
            assert!(!unavailable_code(code), "{code}");
        }
    }

    #[test]
    fn formats_utc_timestamps() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(format_utc(1_796_083_199), "2026-11-30T23:59:59Z");
        assert_eq!(format_utc(u64::MAX), "9999-12-31T23:59:59Z");
    }

    #[test]
    fn today_is_a_plain_date() {
        let today = super::today_utc();
        let digits: String = today.chars().filter(char::is_ascii_digit).collect();
        assert_eq!(
            (today.len(), digits.len(), &today[4..5], &today[7..8]),
            (10, 8, "-", "-")
        );
    }
}
