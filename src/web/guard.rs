//! Request guards in front of every route: the Host check (421, and 400 for two Host
//! headers), cross-site request
//! refusal with the forms' per-session token (403), and the early body checks
//! (413 on a declared length over the limit, 415 on a charset other than UTF-8).
//!
//! A state-changing request (POST, PUT, PATCH, DELETE) is refused when
//! the browser says it comes from another site (`Sec-Fetch-Site: cross-site` or
//! `same-site`) or its `Origin` is not the server's own. Requests with neither header
//! (curl, scripts) pass. HTML forms also carry a token: the `volplan_csrf` cookie
//! (SameSite=Strict) must equal the form's hidden `csrf` field (or an `X-CSRF-Token`
//! header), a double submit that a page on another site cannot make.
//!
//! Hand-written because tower-http and axum-extra have no Host allow-list, and the
//! CSRF crates check a token in a header or in each handler, not the Fetch Metadata and
//! `Origin` signals together with a token inside urlencoded and multipart form bodies,
//! which this layer reads before any handler.

use crate::web::auth::layer::cookie;
use crate::web::config::{HostSet, Origin};
use crate::web::error::ApiError;
use crate::web::limits::{BODY_LIMIT, body_limit};
use crate::web::page_error::PageError;
use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::cookie::{Cookie, SameSite};
use std::sync::Arc;

/// Name of the cookie that holds the form token.
pub const CSRF_COOKIE: &str = "volplan_csrf";
/// Name of the hidden form field that repeats it.
pub const CSRF_FIELD: &str = "csrf";
/// Header that may carry the token instead of the field (scripts).
pub const CSRF_HEADER: &str = "x-csrf-token";

/// What the guards need to know about the server.
#[derive(Debug, Clone)]
pub struct Guard {
    /// Host header values the server answers.
    pub hosts: HostSet,
    /// The origin of `--public-url`, also the server's own.
    pub public_origin: Option<Origin>,
}

impl Guard {
    /// The guard of a server bound to `addr` with no other names.
    pub fn for_bind(addr: std::net::SocketAddr) -> Guard {
        Guard {
            hosts: HostSet::for_bind(addr),
            public_origin: None,
        }
    }

    /// The address the pages give for this server (the compare page's example link):
    /// the public URL's origin, else the address it is bound to; never a request's Host.
    pub fn own_base(&self) -> String {
        match &self.public_origin {
            Some(o) if o.port == o.default_port() => format!("{}://{}", o.scheme, o.host),
            Some(o) => format!("{}://{}:{}", o.scheme, o.host, o.port),
            None => format!("http://{}", self.hosts.bound()),
        }
    }

    /// Cookies are marked `Secure` when users reach the server over https.
    fn secure_cookie(&self) -> bool {
        self.public_origin
            .as_ref()
            .is_some_and(|o| o.scheme == "https")
    }
}

tokio::task_local! {
    static TOKEN: String;
}

/// The form token of the request being answered, for the hidden `csrf` field of every
/// form a page renders (empty outside a request).
pub fn csrf_token() -> String {
    TOKEN.try_with(String::clone).unwrap_or_default()
}

fn is_api(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}

/// A refusal, as JSON under `/api` and as the HTML error page elsewhere.
fn refuse(path: &str, status: StatusCode, message: String) -> Response {
    if is_api(path) {
        ApiError::Refused { status, message }.into_response()
    } else {
        PageError::Status { status, message }.into_response()
    }
}

/// The `Host` of the request: the header, or the authority of an absolute URI.
fn request_host(req: &Request) -> Option<String> {
    req.headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .or_else(|| req.uri().authority().map(|a| a.as_str().to_owned()))
}

/// 421 for a `Host` the server does not serve (DNS rebinding, a wrong proxy config);
/// 400 for a request with more than one `Host` header, which names no one host.
pub async fn check_host(State(guard): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    if req.headers().get_all(header::HOST).iter().nth(1).is_some() {
        return refuse(
            req.uri().path(),
            StatusCode::BAD_REQUEST,
            "the request has more than one Host header; send exactly one".to_owned(),
        );
    }
    match request_host(&req) {
        Some(host) if guard.hosts.allows(&host) => next.run(req).await,
        host => {
            let shown: String = host
                .as_deref()
                .unwrap_or("")
                .chars()
                .filter(|c| !c.is_control())
                .take(100)
                .collect();
            let message = if shown.is_empty() {
                "the request names no host; send a Host header".to_owned()
            } else {
                format!(
                    "this server does not serve the host `{shown}`; use the address it listens on, \
                     or add the name to --allowed-hosts (VOLPLAN_ALLOWED_HOSTS)"
                )
            };
            refuse(req.uri().path(), StatusCode::MISDIRECTED_REQUEST, message)
        }
    }
}

/// The methods the routes change data with (any other method is 405 at the router).
fn state_changing(method: &Method) -> bool {
    matches!(
        *method,
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    )
}

/// Why a state-changing request is refused as cross-site, if it is.
fn cross_site(guard: &Guard, headers: &HeaderMap) -> Option<String> {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    if let Some(site) = text("sec-fetch-site") {
        return match site.trim().to_ascii_lowercase().as_str() {
            "same-origin" | "none" => None,
            other => Some(format!(
                "cross-site request refused (Sec-Fetch-Site: {}): change data from volplan's own pages or with an API client",
                other.chars().take(20).collect::<String>()
            )),
        };
    }
    let origin = text("origin")?;
    let host = text("host").unwrap_or("");
    let own = Origin::parse(origin).is_some_and(|o| {
        let authority = match (o.scheme.as_str(), o.port) {
            ("http", 80) | ("https", 443) => o.host.clone(),
            _ => format!("{}:{}", o.host, o.port),
        };
        authority.eq_ignore_ascii_case(host)
            || o.host.eq_ignore_ascii_case(host)
            || guard.public_origin.as_ref() == Some(&o)
    });
    (!own).then(|| {
        format!(
            "cross-site request refused (Origin: {}): change data from volplan's own pages or with an API client",
            origin.chars().filter(|c| !c.is_control()).take(100).collect::<String>()
        )
    })
}

/// The media type of a `Content-Type` value, lower case, without parameters.
pub fn media_type(headers: &HeaderMap) -> Option<String> {
    let ct = headers.get(header::CONTENT_TYPE)?.to_str().ok()?;
    Some(ct.split(';').next()?.trim().to_ascii_lowercase())
}

/// The bodies an HTML form can send (and so a page on another site).
fn form_like(headers: &HeaderMap) -> bool {
    match media_type(headers).as_deref() {
        None => true,
        Some(m) => matches!(
            m,
            "application/x-www-form-urlencoded" | "multipart/form-data" | "text/plain"
        ),
    }
}

fn cookie_token(headers: &HeaderMap) -> Option<String> {
    cookie(headers, CSRF_COOKIE).filter(|v| valid_token(v))
}

fn valid_token(t: &str) -> bool {
    (16..=128).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A new random token (the one secret generator's 64 hex digits); `Err` when the
/// system has no randomness, never a guessable fallback.
fn new_token() -> Result<String, String> {
    crate::web::auth::secret::random_secret()
}

/// The `csrf` field of a form body.
async fn form_field(headers: &HeaderMap, bytes: &Bytes) -> Option<String> {
    match media_type(headers).as_deref() {
        Some("application/x-www-form-urlencoded") => form_urlencoded::parse(bytes)
            .find(|(k, _)| k == CSRF_FIELD)
            .map(|(_, v)| v.into_owned()),
        Some("multipart/form-data") => {
            // The token comes first in every form of the site: its first MiB holds it,
            // whatever the size of the files after it.
            let mut req = Request::new(Body::from(bytes.slice(..bytes.len().min(BODY_LIMIT))));
            *req.headers_mut() = headers.clone();
            let mut mp = Multipart::from_request(req, &()).await.ok()?;
            while let Ok(Some(field)) = mp.next_field().await {
                if field.name() == Some(CSRF_FIELD) {
                    return field.text().await.ok();
                }
            }
            None
        }
        _ => None,
    }
}

/// Refuses cross-site state-changing requests (403) and API requests with a body only a
/// form would send (415); hands every page its token and sets the cookie when the client
/// has none.
pub async fn csrf(State(guard): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    let path = req.uri().path().to_owned();
    let api = is_api(&path);
    if state_changing(req.method()) {
        if let Some(message) = cross_site(&guard, req.headers()) {
            return refuse(&path, StatusCode::FORBIDDEN, message);
        }
        if api && req.headers().contains_key(header::CONTENT_TYPE) && form_like(req.headers()) {
            let media = media_type(req.headers()).unwrap_or_default();
            return ApiError::Refused {
                status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
                message: format!(
                    "the API does not take `{media}` bodies (an HTML form could send them); send JSON \
                     as application/json, result files as application/octet-stream, or no body"
                ),
            }
            .into_response();
        }
    }
    if api {
        // An API answer renders no form and sets no cookie: no token to hand on.
        return next.run(req).await;
    }
    let (token, fresh) = match cookie_token(req.headers()) {
        Some(t) => (t, false),
        None => match new_token() {
            Ok(t) => (t, true),
            Err(cause) => {
                tracing::error!(%cause, "no session token");
                return refuse(
                    &path,
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server cannot make a session token now (no system randomness); try again in a moment".to_owned(),
                );
            }
        },
    };
    let mut res = TOKEN.scope(token.clone(), next.run(req)).await;
    if fresh {
        let cookie = Cookie::build((CSRF_COOKIE, token))
            .path("/")
            .http_only(true)
            .same_site(SameSite::Strict)
            .secure(guard.secure_cookie());
        if let Ok(v) = HeaderValue::from_str(&cookie.to_string()) {
            res.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    res
}

/// On the page routes that take forms: a form post (urlencoded, multipart or text) must
/// carry the session's token, as the hidden `csrf` field or the `X-CSRF-Token` header,
/// equal to the `volplan_csrf` cookie; 403 otherwise. (A route layer, so a method no
/// route takes still gets its 405.)
pub async fn require_form_token(req: Request, next: Next) -> Response {
    // A method no route serves is answered 405 by the routes behind this layer.
    let served = crate::web::limits::served_method(req.method());
    if !served || !state_changing(req.method()) || !form_like(req.headers()) {
        return next.run(req).await;
    }
    let path = req.uri().path().to_owned();
    let existing = cookie_token(req.headers());
    let (parts, body) = req.into_parts();
    let bytes = match axum::body::to_bytes(body, body_limit(&path)).await {
        Ok(b) => b,
        Err(_) => return too_large(&path),
    };
    let sent = match parts.headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok()) {
        Some(h) => Some(h.trim().to_owned()),
        None => form_field(&parts.headers, &bytes).await,
    };
    if !matches!((&existing, &sent), (Some(c), Some(s)) if c == s) {
        return refuse(
            &path,
            StatusCode::FORBIDDEN,
            "This form has expired or did not come from volplan's own page. \
             Reload the page and send it again; nothing was changed."
                .to_owned(),
        );
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

fn too_large(path: &str) -> Response {
    if is_api(path) {
        ApiError::PayloadTooLarge.into_response()
    } else {
        refuse(
            path,
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "The request is larger than {} MiB; send a smaller file or less text.",
                body_limit(path) >> 20
            ),
        )
    }
}

/// 413 at once for a declared `Content-Length` over the body limit (before any of the
/// body is read), 415 for a `charset` other than UTF-8.
pub async fn check_body(req: Request, next: Next) -> Response {
    let path = req.uri().path().to_owned();
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > body_limit(&path) as u64) {
        let mut res = too_large(&path);
        // The body is not read: close the connection rather than drain it.
        res.headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        return res;
    }
    if let Some(charset) = foreign_charset(req.headers()) {
        let message = format!(
            "the body is declared as charset `{charset}`; send it as UTF-8 (`charset=utf-8` or no charset)"
        );
        return if is_api(&path) {
            ApiError::Refused {
                status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
                message,
            }
            .into_response()
        } else {
            refuse(&path, StatusCode::UNSUPPORTED_MEDIA_TYPE, message)
        };
    }
    next.run(req).await
}

/// The charset parameter of the Content-Type when it is not UTF-8.
fn foreign_charset(headers: &HeaderMap) -> Option<String> {
    let ct = headers.get(header::CONTENT_TYPE)?.to_str().ok()?;
    ct.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        if !k.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let v = v.trim().trim_matches('"');
        let utf8 = v.eq_ignore_ascii_case("utf-8") || v.eq_ignore_ascii_case("utf8");
        (!utf8).then(|| v.chars().filter(|c| !c.is_control()).take(40).collect())
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_own_base_is_the_public_url_else_the_bound_address() {
        let bound = Guard::for_bind("127.0.0.1:8080".parse().unwrap());
        assert_eq!(bound.own_base(), "http://127.0.0.1:8080");
        let any = Guard::for_bind("0.0.0.0:9000".parse().unwrap());
        assert_eq!(any.own_base(), "http://localhost:9000");
        let public = Guard {
            public_origin: crate::web::config::Origin::parse("https://volplan.example.com/x"),
            ..bound
        };
        assert_eq!(public.own_base(), "https://volplan.example.com");
    }

    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    fn guard() -> Guard {
        Guard::for_bind("127.0.0.1:8080".parse().unwrap())
    }

    #[test]
    fn cross_site_signals() {
        let g = guard();
        assert!(cross_site(&g, &headers(&[])).is_none());
        assert!(cross_site(&g, &headers(&[("sec-fetch-site", "same-origin")])).is_none());
        assert!(cross_site(&g, &headers(&[("sec-fetch-site", "none")])).is_none());
        assert!(cross_site(&g, &headers(&[("sec-fetch-site", "cross-site")])).is_some());
        assert!(cross_site(&g, &headers(&[("sec-fetch-site", "same-site")])).is_some());
        let own = headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:8080"),
        ]);
        assert!(cross_site(&g, &own).is_none());
        let evil = headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://evil.example"),
        ]);
        assert!(cross_site(&g, &evil).is_some());
        let null = headers(&[("host", "127.0.0.1:8080"), ("origin", "null")]);
        assert!(cross_site(&g, &null).is_some());
    }

    #[test]
    fn charsets() {
        assert_eq!(
            foreign_charset(&headers(&[(
                "content-type",
                "application/json; charset=utf-8"
            )])),
            None
        );
        assert_eq!(
            foreign_charset(&headers(&[("content-type", "application/json")])),
            None
        );
        assert_eq!(
            foreign_charset(&headers(&[(
                "content-type",
                "application/json; charset=\"UTF-16\""
            )]))
            .as_deref(),
            Some("UTF-16")
        );
    }

    #[test]
    fn tokens() {
        let t = new_token().unwrap();
        assert_eq!(t.len(), 64);
        assert!(valid_token(&t));
        assert_ne!(t, new_token().unwrap());
        let h = headers(&[("cookie", "a=b; volplan_csrf=0123456789abcdef0123")]);
        assert_eq!(cookie_token(&h).as_deref(), Some("0123456789abcdef0123"));
        assert!(cookie_token(&headers(&[("cookie", "volplan_csrf=<x>")])).is_none());
    }
}
