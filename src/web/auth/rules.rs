//! Which role each request needs: the one place that says what is public, what a viewer
//! may post, and what only an admin may do.

use super::Role;
use axum::http::Method;

/// Paths anyone may reach without logging in: the probes, the metrics, the static
/// assets and the login page itself.
fn public(path: &str) -> bool {
    matches!(
        path,
        "/healthz" | "/readyz" | "/metrics" | "/login" | "/logout"
    ) || path.starts_with("/static/")
}

/// State-changing requests that only compute and save nothing, so a viewer may send
/// them (`*` is one path segment): sizing, comparing, sweeping and re-pricing, the
/// mount advisor, parsing benchmark results and inventories, planning AVS and estates,
/// and the planner page's live results, chart previews and JSON downloads.
pub const VIEWER_COMPUTATIONS: &[&str] = &[
    "/api/v1/evaluate",
    "/api/v1/compare",
    "/api/v1/layouts",
    "/api/v1/advise/mounts",
    "/api/v1/avs/inventory",
    "/api/v1/avs/performance",
    "/api/v1/avs/plan",
    "/api/v1/estate/optimize",
    "/api/v1/measurements/parse",
    "/api/v1/measurements/scenario",
    "/api/v1/scenarios/*/reprice",
    "/scenarios/evaluate",
    "/scenarios/results",
    "/scenarios/scenario.json",
    "/scenarios/*/reprice",
    "/charts/*",
    "/advisor",
    "/advisor/from-plan",
];

/// Paths (and everything under them) whose changes need an admin: the price book.
pub const ADMIN_PREFIXES: &[&str] = &["/api/v1/prices/import", "/api/v1/prices/sheet", "/prices/"];

/// Paths (and everything under them) only an admin may even read: the API tokens
/// (users are managed with `volplan users`).
pub const ADMIN_ONLY: &[&str] = &["/api/v1/tokens"];

fn state_changing(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Whether `path` matches `pattern`, where a `*` segment matches any one segment.
fn matches(pattern: &str, path: &str) -> bool {
    let mut p = pattern.split('/');
    let mut q = path.split('/');
    loop {
        match (p.next(), q.next()) {
            (None, None) => return true,
            (Some("*"), Some(seg)) if !seg.is_empty() => {}
            (Some(a), Some(b)) if a == b => {}
            _ => return false,
        }
    }
}

/// Whether `path` is `prefix` or below it; a prefix ending in `/` only matches below.
fn under(prefix: &str, path: &str) -> bool {
    match prefix.strip_suffix('/') {
        Some(_) => path.starts_with(prefix),
        None => path
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/')),
    }
}

/// The least role that may send `method` to `path`; `None` for public paths.
pub fn required_role(method: &Method, path: &str) -> Option<Role> {
    if public(path) {
        return None;
    }
    let admin = ADMIN_PREFIXES.iter().any(|p| under(p, path));
    if (admin && state_changing(method)) || ADMIN_ONLY.iter().any(|p| under(p, path)) {
        return Some(Role::Admin);
    }
    if !state_changing(method) || VIEWER_COMPUTATIONS.iter().any(|p| matches(p, path)) {
        return Some(Role::Viewer);
    }
    Some(Role::Editor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_by_method_and_path() {
        let get = Method::GET;
        let post = Method::POST;
        assert_eq!(required_role(&get, "/healthz"), None);
        assert_eq!(required_role(&get, "/static/css/app.css"), None);
        assert_eq!(required_role(&post, "/login"), None);
        assert_eq!(required_role(&get, "/"), Some(Role::Viewer));
        assert_eq!(required_role(&get, "/prices"), Some(Role::Viewer));
        assert_eq!(required_role(&get, "/api/v1/prices"), Some(Role::Viewer));
        assert_eq!(required_role(&post, "/api/v1/evaluate"), Some(Role::Viewer));
        assert_eq!(
            required_role(&post, "/api/v1/scenarios/7/reprice"),
            Some(Role::Viewer)
        );
        assert_eq!(
            required_role(&post, "/charts/ceilings.svg"),
            Some(Role::Viewer)
        );
        assert_eq!(
            required_role(&post, "/api/v1/scenarios"),
            Some(Role::Editor)
        );
        assert_eq!(
            required_role(&Method::DELETE, "/api/v1/scenarios/7"),
            Some(Role::Editor)
        );
        assert_eq!(required_role(&post, "/scenarios/7"), Some(Role::Editor));
        assert_eq!(
            required_role(&post, "/scenarios//reprice"),
            Some(Role::Editor)
        );
        assert_eq!(
            required_role(&post, "/api/v1/prices/import"),
            Some(Role::Admin)
        );
        assert_eq!(required_role(&post, "/prices/accept"), Some(Role::Admin));
        assert_eq!(required_role(&post, "/prices"), Some(Role::Editor));
        assert_eq!(required_role(&get, "/api/v1/tokens"), Some(Role::Admin));
        assert_eq!(
            required_role(&Method::DELETE, "/api/v1/tokens/ci"),
            Some(Role::Admin)
        );
        assert_eq!(required_role(&get, "/api/v1/tokensx"), Some(Role::Viewer));
        assert_eq!(
            required_role(&post, "/api/v1/evaluate/x"),
            Some(Role::Editor)
        );
    }
}
