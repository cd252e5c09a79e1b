//! Shared test helpers: start the real app on a random port with a fresh database.
//!
//! The database is a SQLite file in a temporary folder, or, when `VOLPLAN_TEST_POSTGRES`
//! names a PostgreSQL server (`postgres://user@host:port`), a new database on it, so
//! the same tests check both backends.

use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Once;
use tempfile::TempDir;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// The form token the test forms send (as cookie and field), as a browser would after
/// loading the page.
pub const FORM_TOKEN: &str = "0123456789abcdef0123456789abcdef";

/// A running server: its base URL, an HTTP client and the database file it uses.
pub struct TestApp {
    /// `http://127.0.0.1:PORT` (no trailing slash).
    pub base: String,
    /// Client that does not follow redirects, so tests see 303s.
    pub client: reqwest::Client,
    /// The SQLite file of this app (named but unused on PostgreSQL).
    pub db_path: PathBuf,
    /// The database URL the app serves (`sqlite:...` or `postgres://...`).
    pub db_url: String,
    /// A pool on the same file, for direct store checks.
    pub db: volplan::store::Db,
    dir: Option<TempDir>,
    shutdown: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<std::io::Result<()>>>,
}

static TRACING: Once = Once::new();

/// Logs show only with `TEST_LOG=1`.
fn init_tracing() {
    TRACING.call_once(|| {
        if std::env::var_os("TEST_LOG").is_some() {
            tracing_subscriber::fmt()
                .with_env_filter("info,sqlx=warn")
                .with_test_writer()
                .init();
        }
    });
}

/// The PostgreSQL server of `VOLPLAN_TEST_POSTGRES`, if the tests run against one.
pub fn test_postgres() -> Option<String> {
    std::env::var("VOLPLAN_TEST_POSTGRES")
        .ok()
        .map(|u| u.trim_end_matches('/').to_owned())
        .filter(|u| !u.is_empty())
}

/// The database of the folder `dir`: `volplan.db` in it, or on PostgreSQL a database
/// created for the folder on first use (its name kept in the folder, so a restart on
/// the same folder finds the same data).
pub async fn database_url_in(dir: &std::path::Path) -> String {
    let Some(server) = test_postgres() else {
        return format!("sqlite:{}", dir.join("volplan.db").display());
    };
    let marker = dir.join("postgres-database");
    let name = match std::fs::read_to_string(&marker) {
        Ok(name) => name,
        Err(_) => {
            static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let name = format!(
                "volplan_test_{}_{}_{}",
                std::process::id(),
                NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap()
                    .subsec_nanos()
            );
            create_postgres_database(&server, &name).await;
            std::fs::write(&marker, &name).expect("write the database name");
            name
        }
    };
    format!("{server}/{name}")
}

/// Creates the empty database `name` on `server`.
async fn create_postgres_database(server: &str, name: &str) {
    use sqlx::{Connection, Executor};
    let mut admin = sqlx::postgres::PgConnection::connect(&format!("{server}/postgres"))
        .await
        .expect("the PostgreSQL test server answers");
    admin
        .execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .await
        .expect("create the test database");
    let _ = admin.close().await;
}

/// Opens a fresh, migrated database (SQLite file or PostgreSQL) in a new folder.
pub async fn fresh_database() -> (TempDir, volplan::store::Db) {
    let dir = tempfile::tempdir().expect("temporary folder");
    let url = database_url_in(dir.path()).await;
    let db = volplan::store::connect(&url).await.expect("connect");
    (dir, db)
}

/// True (with a note) when the tests run on PostgreSQL and the caller checks something
/// only SQLite has (its files, pragmas, online backup).
pub fn sqlite_only(what: &str) -> bool {
    let pg = test_postgres().is_some();
    if pg {
        eprintln!("skipped on PostgreSQL: {what} is SQLite's");
    }
    pg
}

/// Starts the app on `127.0.0.1:0` with a fresh database in a new temporary folder.
pub async fn spawn_app() -> TestApp {
    spawn_app_in(tempfile::tempdir().expect("temporary folder")).await
}

/// Starts the app on the database `volplan.db` inside `dir` (kept or created).
pub async fn spawn_app_in(dir: TempDir) -> TestApp {
    spawn_app_with(dir, |_| {}).await
}

/// Starts the app on `volplan.db` inside `dir` (or the test PostgreSQL database named
/// after it) with the default settings of its address changed by `configure`.
pub async fn spawn_app_with(
    dir: TempDir,
    configure: impl FnOnce(&mut volplan::web::ServerSettings),
) -> TestApp {
    let db_url = database_url_in(dir.path()).await;
    serve_on(db_url, dir.path().join("volplan.db"), Some(dir), configure).await
}

/// Starts the app on the database `db_url` (which must exist), with no folder of its own.
pub async fn spawn_app_on(db_url: String) -> TestApp {
    serve_on(db_url, PathBuf::new(), None, |_| {}).await
}

impl TestApp {
    /// A second app instance with its own pool on this app's database, as a second
    /// server behind a load balancer would run.
    pub async fn second_instance(&self) -> TestApp {
        serve_on(self.db_url.clone(), self.db_path.clone(), None, |_| {}).await
    }
}

async fn serve_on(
    db_url: String,
    db_path: PathBuf,
    dir: Option<TempDir>,
    configure: impl FnOnce(&mut volplan::web::ServerSettings),
) -> TestApp {
    init_tracing();
    let db = volplan::store::connect(&db_url)
        .await
        .expect("database opens and migrates");
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a free port");
    let addr = listener.local_addr().expect("local address");
    let (tx, rx) = oneshot::channel::<()>();
    let mut settings = volplan::web::ServerSettings::for_addr(addr);
    configure(&mut settings);
    let server = tokio::spawn(volplan::web::serve_with(
        listener,
        db.clone(),
        settings,
        async {
            let _ = rx.await;
        },
    ));
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("HTTP client");
    TestApp {
        base: format!("http://{addr}"),
        client,
        db_path,
        db_url,
        db,
        dir,
        shutdown: Some(tx),
        server: Some(server),
    }
}

impl TestApp {
    /// Absolute URL of `path` (which starts with `/`).
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// GET `path`.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.expect("GET")
    }

    /// The body of GET `path` as text.
    pub async fn get_text(&self, path: &str) -> String {
        self.get(path).await.text().await.expect("text body")
    }

    /// The body of GET `path` as JSON.
    pub async fn get_json(&self, path: &str) -> Value {
        self.get(path).await.json().await.expect("JSON body")
    }

    /// POST `body` as JSON to `path`.
    pub async fn post_json(&self, path: &str, body: &Value) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .json(body)
            .send()
            .await
            .expect("POST")
    }

    /// PUT `body` as JSON to `path`.
    pub async fn put_json(&self, path: &str, body: &Value) -> reqwest::Response {
        self.client
            .put(self.url(path))
            .json(body)
            .send()
            .await
            .expect("PUT")
    }

    /// Sends raw bytes with the given content type (none if `None`).
    pub async fn send_raw(
        &self,
        method: reqwest::Method,
        path: &str,
        content_type: Option<&str>,
        body: Vec<u8>,
    ) -> reqwest::Response {
        let mut req = self.client.request(method, self.url(path)).body(body);
        if let Some(ct) = content_type {
            req = req.header(reqwest::header::CONTENT_TYPE, ct);
        }
        req.send().await.expect("request")
    }

    /// Imports the benchmark result `tests/fixtures/import/{name}` into saved scenario `id`.
    pub async fn import_run(&self, id: i64, name: &str) -> reqwest::Response {
        let body = std::fs::read(format!(
            "{}/tests/fixtures/import/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("fixture");
        self.send_raw(
            reqwest::Method::POST,
            &format!("/api/v1/scenarios/{id}/measurements"),
            Some("application/octet-stream"),
            body,
        )
        .await
    }

    /// POSTs a form body (urlencoded or multipart) as this site's own page would: with
    /// the form-token cookie; the body must carry `csrf=FORM_TOKEN` itself.
    pub async fn send_form(
        &self,
        path: &str,
        content_type: &str,
        body: Vec<u8>,
    ) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .header(reqwest::header::CONTENT_TYPE, content_type)
            .header(
                reqwest::header::COOKIE,
                format!("volplan_csrf={FORM_TOKEN}"),
            )
            .body(body)
            .send()
            .await
            .expect("POST form")
    }

    /// POSTs urlencoded `pairs` as this site's own page would (the form token is added).
    pub async fn post_pairs(&self, path: &str, pairs: &[(&str, &str)]) -> reqwest::Response {
        let body = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(pairs)
            .append_pair("csrf", FORM_TOKEN)
            .finish();
        self.send_form(path, "application/x-www-form-urlencoded", body.into_bytes())
            .await
    }

    /// POSTs a multipart form as this site's own page would (the form token is added):
    /// parts of `(name, file name, content)`, a file part where a file name is given.
    pub async fn post_multipart(
        &self,
        path: &str,
        parts: &[(&str, Option<&str>, &str)],
    ) -> reqwest::Response {
        let boundary = "volplanTestBoundary7d1";
        let mut body = String::new();
        for (name, file, content) in parts.iter().copied().chain([("csrf", None, FORM_TOKEN)]) {
            let file = file.map_or_else(String::new, |f| {
                format!("; filename=\"{f}\"\r\nContent-Type: application/json")
            });
            body += &format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"{file}\r\n\r\n{content}\r\n"
            );
        }
        body += &format!("--{boundary}--\r\n");
        self.send_form(
            path,
            &format!("multipart/form-data; boundary={boundary}"),
            body.into_bytes(),
        )
        .await
    }

    /// Saves `scenario` through the API and returns its id.
    pub async fn create(&self, scenario: &Value) -> i64 {
        let res = self.post_json("/api/v1/scenarios", scenario).await;
        assert_eq!(res.status(), 201, "create failed");
        let body: Value = res.json().await.expect("JSON");
        body["id"].as_i64().expect("id")
    }

    /// Stops the server gracefully and hands back its folder (database kept).
    pub async fn stop(mut self) -> TempDir {
        self.halt().await;
        self.dir.take().expect("folder present until stop")
    }

    async fn halt(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(server) = self.server.take() {
            server
                .await
                .expect("server task ends")
                .expect("server stops cleanly");
        }
        self.db.close().await;
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// The text of `tests/fixtures/{rel}`.
pub fn fixture_text(rel: &str) -> String {
    let path = format!("{}/tests/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The contract's example Scenario.
pub fn sample_scenario() -> Value {
    json!({
        "name": "AVS 4 x 20 TiB Ultra",
        "workload": {
            "io_size_kib": 64, "read_pct": 100, "access": "sequential", "threads": 8,
            "queue_depth": 16, "files": "many", "metadata_heavy": false, "capacity_tib": 80,
            "target_mibps": null, "target_iops": null
        },
        "storage": {
            "service": "anf", "level": "ultra", "qos": "auto", "volume_kind": "regular",
            "volumes": [ { "count": 4, "quota_tib": 20, "throughput_mibps": null } ],
            "pool_tib": null
        },
        "clients": {
            "count": 1, "vm_size": "Standard_E32s_v5", "egress_mibps": null,
            "ingress_mibps": null, "protocol": "nfsv3", "nconnect": 1,
            "smb_multichannel": false, "smb_channels": 4,
            "avs": { "hosts": 4, "host_sku": "AV36", "vms_per_host": 1,
                     "vmdks_per_vm": 1, "placement": "dedicated" }
        }
    })
}

/// The sample with another name.
pub fn named(name: &str) -> Value {
    let mut s = sample_scenario();
    s["name"] = json!(name);
    s
}

/// True when every key of `expected` is in `actual` with an equal value (numbers
/// compared as f64, so `64` equals `64.0`).
pub fn json_contains(actual: &Value, expected: &Value) -> bool {
    match (actual, expected) {
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Value::Object(a), Value::Object(b)) => b
            .iter()
            .all(|(k, v)| a.get(k).is_some_and(|av| json_contains(av, v))),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| json_contains(x, y))
        }
        (a, b) => a == b,
    }
}

/// Asserts the contract's error body: `error` (a sentence) and `field`, and on a 422
/// `errors`, every wrong field, the first of which is `field` and `error`.
pub fn assert_error_body(body: &Value, field: Option<&str>) {
    let obj = body
        .as_object()
        .unwrap_or_else(|| panic!("error body is an object: {body}"));
    let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    assert!(
        keys == ["error", "field"] || keys == ["error", "errors", "field"],
        "error body has error, field and (422) errors only: {body}"
    );
    if let Some(errors) = obj.get("errors") {
        let first = &errors[0];
        assert_eq!(first["field"], obj["field"], "errors[0] is field in {body}");
        assert_eq!(
            first["message"], obj["error"],
            "errors[0] is error in {body}"
        );
    }
    let error = obj["error"].as_str().expect("error is a string");
    assert!(!error.is_empty(), "error sentence is not empty");
    assert!(
        !error.contains(" at line "),
        "no parser position in: {error}"
    );
    match field {
        Some(f) => assert_eq!(obj["field"], Value::String(f.to_owned()), "field in {body}"),
        None => assert!(obj["field"].is_null(), "field is null in {body}"),
    }
}

/// The `volplan serve` binary running on its own SQLite file in `dir`, on a free
/// loopback port, with `args` added: the child (killed on drop) and its address
/// (`127.0.0.1:PORT`). Its log lines are read and dropped. For checks of the process
/// itself (its memory, its connections), which an in-process server would share with
/// the tests.
pub async fn serve_binary(dir: &std::path::Path, args: &[&str]) -> (tokio::process::Child, String) {
    use tokio::io::AsyncBufReadExt;
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_volplan"))
        .args(["serve", "--bind", "127.0.0.1:0", "--database-url"])
        .arg(format!("sqlite:{}", dir.join("volplan.db").display()))
        .args(args)
        .env("RUST_LOG", "info")
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start volplan serve");
    let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let first = tokio::time::timeout(std::time::Duration::from_secs(30), lines.next_line())
        .await
        .expect("the server logs within 30 s")
        .expect("stderr reads")
        .expect("a first log line");
    let addr = first
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("the first log line names the address: {first}"))
        .to_owned();
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, addr)
}

/// The message a page shows beside input `name` (its `e-NAME` span; empty when fine).
pub fn field_message<'h>(html: &'h str, name: &str) -> &'h str {
    html.split_once(&format!("<span class=\"error\" id=\"e-{name}\">"))
        .and_then(|(_, rest)| rest.split_once("</span>"))
        .map(|(m, _)| m)
        .unwrap_or_else(|| panic!("no message beside {name}"))
}

/// An attribute value as the browser reads it (askama escapes `"&'<>` numerically).
pub fn unescape_attr(attr: &str) -> String {
    [
        ("&#34;", "\""),
        ("&#39;", "'"),
        ("&#60;", "<"),
        ("&#62;", ">"),
        ("&#38;", "&"),
    ]
    .iter()
    .fold(attr.to_owned(), |out, (code, ch)| out.replace(code, ch))
}
