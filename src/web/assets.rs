//! Static files (CSS, JavaScript, icons, the DejaVu Sans font) embedded in the binary.
//!
//! Pages link assets through [`url`], which appends a content hash (`?v=...`):
//! a request carrying the current hash may be cached for a year, anything else is
//! revalidated with its ETag. So a new release never serves a stale stylesheet,
//! and the binary serves correctly from any working directory.

use crate::web::auth::Declare;
use crate::web::state::AppState;
use axum::Router;
use axum::extract::{Path, Query};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rust_embed::RustEmbed;
use serde::Deserialize;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::LazyLock;

/// The crate version, shown in the footer.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Path of the page font; its bytes come from the `dejavu` crate (the charts use the same).
const FONT_PATH: &str = "fonts/DejaVuSans.ttf";
/// The font never changes within a release of the `dejavu` crate.
const FONT_HASH: &str = "dejavu-2.37";

#[derive(RustEmbed)]
#[folder = "static/"]
struct Static;

/// Short content hashes of every embedded file, computed once.
static HASHES: LazyLock<HashMap<String, String>> = LazyLock::new(|| {
    let mut map = HashMap::new();
    for path in Static::iter() {
        if let Some(file) = Static::get(&path) {
            let hash: String = file.metadata.sha256_hash()[..6]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            map.insert(path.into_owned(), hash);
        }
    }
    map.insert(FONT_PATH.to_owned(), FONT_HASH.to_owned());
    map
});

/// The URL of a static file with its content hash, e.g. `/static/css/app.css?v=1a2b3c4d5e6f`.
pub fn url(path: &str) -> String {
    match HASHES.get(path) {
        Some(h) => format!("/static/{path}?v={h}"),
        None => format!("/static/{path}"),
    }
}

/// `/static/*`.
pub fn router() -> Router<AppState> {
    Router::new().route("/static/{*path}", get(serve).public())
}

#[derive(Deserialize)]
struct Version {
    v: Option<String>,
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("ttf") => "font/ttf",
        Some("woff2") => "font/woff2",
        Some("json") => "application/json",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

async fn serve(Path(path): Path<String>, Query(q): Query<Version>, headers: HeaderMap) -> Response {
    let body: Cow<'static, [u8]> = if path == FONT_PATH {
        Cow::Borrowed(dejavu::sans::regular())
    } else {
        match Static::get(&path) {
            Some(file) => file.data,
            None => {
                return (
                    StatusCode::NOT_FOUND,
                    [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                    "no such static file",
                )
                    .into_response();
            }
        }
    };
    let hash = HASHES.get(&path).cloned().unwrap_or_default();
    let etag = format!("\"{hash}\"");
    let cache = if q.v.as_deref() == Some(hash.as_str()) {
        "public, max-age=31536000, immutable"
    } else {
        "public, no-cache"
    };
    let mut out = HeaderMap::new();
    out.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(&path)),
    );
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if let Ok(v) = HeaderValue::from_str(&etag) {
        out.insert(header::ETAG, v);
    }
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    if fresh {
        return (StatusCode::NOT_MODIFIED, out).into_response();
    }
    (out, body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_carry_a_content_hash() {
        let u = url("css/app.css");
        assert!(u.starts_with("/static/css/app.css?v="), "{u}");
        assert_eq!(url(FONT_PATH), format!("/static/{FONT_PATH}?v={FONT_HASH}"));
        assert_eq!(url("missing.css"), "/static/missing.css");
    }

    #[test]
    fn content_types_by_extension() {
        assert_eq!(content_type("css/app.css"), "text/css; charset=utf-8");
        assert_eq!(
            content_type("js/planner.js"),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(content_type(FONT_PATH), "font/ttf");
        assert_eq!(content_type("x"), "application/octet-stream");
    }
}
