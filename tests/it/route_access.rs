//! Every route of the web layer declares who may call it where it is registered
//! (`web::auth::access`): each `.route(...)` and `.routes(...)` call carries one of the
//! declarations, read from the source with comments and test code left out.

use std::path::Path;

const DECLARATIONS: [&str; 5] = [
    ".public()",
    ".compute()",
    ".read_write()",
    ".admin_writes()",
    ".admin()",
];

/// The `.route(...)` and `.routes(...)` calls in `text` without a declaration.
fn undeclared(text: &str) -> Vec<String> {
    let code: String = text
        .split("#[cfg(test)]")
        .next()
        .unwrap_or(text)
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    for opener in [".route(", ".routes("] {
        let mut from = 0;
        while let Some(at) = code[from..].find(opener) {
            let start = from + at;
            let mut depth = 0usize;
            let mut end = start + opener.len() - 1;
            for (i, c) in code[end..].char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            end += i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let call = &code[start..end];
            if !DECLARATIONS.iter().any(|d| call.contains(d)) {
                out.push(call.split_whitespace().collect::<Vec<_>>().join(" "));
            }
            from = end.max(start + 1);
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_route_declares_who_may_call_it() {
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web");
    let mut files = Vec::new();
    rust_files(&web, &mut files);
    let mut missing = Vec::new();
    let mut routes = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).expect("source");
        routes += text.matches(".route(").count() + text.matches(".routes(").count();
        for call in undeclared(&text) {
            missing.push(format!("{}: {call}", f.display()));
        }
    }
    assert!(
        routes > 50,
        "the web layer registers its routes ({routes} found)"
    );
    assert!(
        missing.is_empty(),
        "routes without an access declaration:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_check_finds_an_undeclared_route() {
    let text = r#"
        Router::new()
            .route("/a", get(a).read_write())
            .route("/b", get(b))
            .routes(routes!(c).compute())
            .routes(routes!(d))
    "#;
    assert_eq!(
        undeclared(text),
        [r#".route("/b", get(b))"#, ".routes(routes!(d))"]
    );
}

/// The `.public()` routes and the gate's list of public paths are the same routes.
#[test]
fn every_public_declaration_is_a_public_path_of_the_gate() {
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web");
    let mut files = Vec::new();
    rust_files(&web, &mut files);
    let declared: usize = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).expect("source");
            let code = text.split("#[cfg(test)]").next().unwrap_or(&text);
            code.lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .map(|l| l.matches(".public()").count())
                .sum::<usize>()
        })
        .sum();
    assert_eq!(
        declared,
        volplan::web::auth::layer::PUBLIC_ROUTES.len(),
        "each `.public()` route is one of PUBLIC_ROUTES"
    );
}

/// The state of a server in team mode (one user exists), on a fresh database.
async fn team_mode() -> (
    volplan::web::AppState,
    volplan::web::ServerSettings,
    tempfile::TempDir,
) {
    let dir = tempfile::tempdir().expect("temporary folder");
    let url = crate::helpers::database_url_in(dir.path()).await;
    let db = volplan::store::connect(&url).await.expect("database opens");
    let hash = volplan::web::auth::secret::hash_password("pw-of-ann").unwrap();
    volplan::store::users::save_user(&db, "ann", Some(&hash), Some("viewer"))
        .await
        .unwrap();
    let settings = volplan::web::ServerSettings::for_addr("127.0.0.1:8080".parse().unwrap());
    let book = volplan::store::prices::book_in_force(&db).await.unwrap();
    (
        volplan::web::AppState::new(db, &settings, book),
        settings,
        dir,
    )
}

/// The app of `routes` in team mode.
async fn team_mode_app(
    routes: axum::Router<volplan::web::AppState>,
) -> (axum::Router, tempfile::TempDir) {
    let (state, settings, dir) = team_mode().await;
    let guard = std::sync::Arc::new(settings.guard.clone());
    (volplan::web::app_of(routes, state, guard), dir)
}

async fn get(app: &axum::Router, path: &str) -> axum::http::Response<axum::body::Body> {
    use tower::ServiceExt;
    let req = axum::http::Request::get(path)
        .header(axum::http::header::HOST, "127.0.0.1:8080")
        .body(axum::body::Body::empty())
        .unwrap();
    app.clone().oneshot(req).await.unwrap()
}

#[tokio::test]
async fn a_route_registered_without_a_declaration_asks_for_credentials() {
    let open = || async { "served to anyone" };
    let routes = volplan::web::routes()
        .route("/api/v1/undeclared", axum::routing::get(open))
        .route("/undeclared", axum::routing::get(open));
    let (app, _dir) = team_mode_app(routes).await;

    let api = get(&app, "/api/v1/undeclared").await;
    assert_eq!(api.status(), axum::http::StatusCode::UNAUTHORIZED);
    let page = get(&app, "/undeclared").await;
    assert_eq!(page.status(), axum::http::StatusCode::SEE_OTHER);
    assert_eq!(
        page.headers()[axum::http::header::LOCATION],
        "/login?next=%2Fundeclared"
    );
    // The public paths stay open, and every answer carries a request id.
    let health = get(&app, "/healthz").await;
    assert_eq!(health.status(), axum::http::StatusCode::OK);
    let first: u64 = health.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    let again = get(&app, "/healthz").await;
    let second: u64 = again.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_ne!(first, second, "each request has its own id");
}

#[tokio::test]
async fn a_declared_route_past_the_gate_is_refused() {
    use volplan::web::auth::Declare;
    let (app, _dir) = team_mode_app(volplan::web::routes()).await;
    // Behind the gate, a viewer's route asks for credentials...
    assert_eq!(
        get(&app, "/api/v1/scenarios").await.status(),
        axum::http::StatusCode::UNAUTHORIZED
    );
    // ...and a declared route served without the gate refuses rather than serving.
    let (state, _, _state_dir) = team_mode().await;
    let bare: axum::Router = axum::Router::new()
        .route(
            "/bare",
            axum::routing::get(|| async { "served" }).read_write(),
        )
        .with_state(state);
    assert_eq!(
        get(&bare, "/bare").await.status(),
        axum::http::StatusCode::INTERNAL_SERVER_ERROR
    );
}

/// Only public routes take every method (`any(...)`): the sign-in gate lets a method no
/// route serves through to the route's 405, so a non-public route must not serve it.
#[test]
fn only_public_routes_take_every_method() {
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web");
    let mut files = Vec::new();
    rust_files(&web, &mut files);
    for f in &files {
        let text = std::fs::read_to_string(f).expect("source");
        let code = text.split("#[cfg(test)]").next().unwrap_or(&text);
        for line in code
            .lines()
            .filter(|l| l.contains(" any(") || l.contains("(any("))
        {
            assert!(
                line.contains(".public()"),
                "{}: a route that takes every method must be public: {line}",
                f.display()
            );
        }
    }
}
