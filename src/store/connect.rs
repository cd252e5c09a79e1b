//! Opening the database a URL names: SQLite (file or memory) or PostgreSQL, migrated.

use super::{Db, MIGRATOR, PG_MIGRATOR, StoreError};
use sqlx::ConnectOptions;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::sqlite::SqliteConnectOptions;
use std::path::Path;
use std::str::FromStr;
use std::sync::Once;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Which database a pool talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The backend a database URL names: `postgres://` or `postgresql://` is PostgreSQL,
    /// anything else (a `sqlite:` URL or a plain path) SQLite.
    pub fn of_url(url: &str) -> Backend {
        let scheme = url.split_once("://").map_or("", |(s, _)| s);
        if scheme.eq_ignore_ascii_case("postgres") || scheme.eq_ignore_ascii_case("postgresql") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }
}

/// `url` as logs and messages may show it: a password replaced by `***`.
pub fn redacted(url: &str) -> String {
    match url.parse::<AnyConnectOptions>().map(|o| o.database_url) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("***"));
            u.to_string()
        }
        _ => url.to_owned(),
    }
}

/// The backend of `pool`.
pub fn backend(pool: &Db) -> Backend {
    match pool.connect_options().database_url.scheme() {
        "postgres" | "postgresql" => Backend::Postgres,
        _ => Backend::Sqlite,
    }
}

/// Opens and migrates the database at `url`.
///
/// SQLite: `sqlite:volplan.db`, `sqlite://dir/x.db`, a plain path (file and parent
/// folder created if needed), or `sqlite::memory:`; WAL lets readers proceed while one
/// writer commits, `synchronous=NORMAL` is safe with WAL and avoids an fsync per commit.
/// PostgreSQL: `postgres://user:password@host:port/database` (the database must exist).
pub async fn connect(url: &str) -> Result<Db, StoreError> {
    static DRIVERS: Once = Once::new();
    DRIVERS.call_once(sqlx::any::install_default_drivers);
    let pool = match Backend::of_url(url) {
        Backend::Postgres => {
            let pool = AnyPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(PG_ACQUIRE_TIMEOUT)
                .connect(url)
                .await?;
            PG_MIGRATOR.run(&pool).await?;
            pool
        }
        Backend::Sqlite => {
            let pool = AnyPoolOptions::new()
                .max_connections(8)
                .acquire_timeout(Duration::from_secs(30))
                .after_connect(|conn, _| {
                    Box::pin(async move {
                        sqlx::raw_sql(SQLITE_PRAGMAS).execute(conn).await?;
                        Ok(())
                    })
                })
                .connect_with(sqlite_options(url)?)
                .await?;
            MIGRATOR.run(&pool).await?;
            pool
        }
    };
    Ok(pool)
}

/// How long a request waits for a PostgreSQL connection. The pool keeps trying to
/// connect to a server that refuses connections until then, so this is how soon a
/// request learns that the server is down (and is answered 503 with `Retry-After`),
/// well within the 30 s a request may take.
pub const PG_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// Set on every SQLite connection (the `Any` driver opens it from a URL, which carries
/// no pragmas); the busy timeout is [`BUSY_TIMEOUT`](super::BUSY_TIMEOUT).
const SQLITE_PRAGMAS: &str = "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
                              PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000;";

/// The `Any` options of a SQLite URL or path: the file created if missing (with its
/// folder); `:memory:` as one named in-memory database that every connection shares.
fn sqlite_options(url: &str) -> Result<AnyConnectOptions, StoreError> {
    static MEMORY: AtomicUsize = AtomicUsize::new(0);
    let opts = SqliteConnectOptions::from_str(url)?;
    let bare = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:");
    let any_url = if bare.starts_with(":memory:") || url.contains("mode=memory") {
        let n = MEMORY.fetch_add(1, Ordering::Relaxed);
        format!(
            "sqlite:file:volplan-memory-{}-{n}?mode=memory&cache=shared",
            std::process::id()
        )
    } else {
        let file = opts.get_filename();
        create_parent_dir(file)?;
        format!("sqlite:{}?mode=rwc", encode_path(file))
    };
    let url = any_url
        .parse()
        .map_err(|e| StoreError::Db(sqlx::Error::Configuration(Box::new(e))))?;
    Ok(AnyConnectOptions::from_url(&url)?)
}

/// `path` with the bytes a URL path cannot carry literally (`%`, `?`, `#`, spaces,
/// non-ASCII) percent-encoded; SQLite's URL parser decodes them again.
fn encode_path(path: &Path) -> String {
    let mut out = String::new();
    for &b in path.as_os_str().as_encoded_bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~+,=:@".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// SQLite creates the file but not its folder.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_their_backend() {
        assert_eq!(Backend::of_url("postgres://u@h/db"), Backend::Postgres);
        assert_eq!(Backend::of_url("PostgreSQL://h/db"), Backend::Postgres);
        assert_eq!(Backend::of_url("sqlite:volplan.db"), Backend::Sqlite);
        assert_eq!(Backend::of_url("/var/lib/volplan.db"), Backend::Sqlite);
    }

    #[test]
    fn sqlite_waits_as_long_as_the_store_says() {
        let ms = format!("busy_timeout = {};", super::super::BUSY_TIMEOUT.as_millis());
        assert!(SQLITE_PRAGMAS.contains(&ms), "{SQLITE_PRAGMAS}");
    }

    #[test]
    fn passwords_stay_out_of_messages() {
        assert_eq!(
            redacted("postgres://volplan:s3cret@db:5432/volplan"),
            "postgres://volplan:***@db:5432/volplan"
        );
        assert_eq!(redacted("sqlite:volplan.db"), "sqlite:volplan.db");
    }

    #[test]
    fn paths_survive_the_url() {
        let odd = Path::new("/tmp/a b/x?#%é.db");
        let url = format!("sqlite:{}?mode=rwc", encode_path(odd));
        let back = SqliteConnectOptions::from_str(&url).unwrap();
        assert_eq!(back.get_filename(), odd);
    }
}
