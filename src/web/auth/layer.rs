//! The sign-in gate in front of every route but the public ones ([`sign_in`]): it finds
//! the request's [`Principal`] (a trusted proxy's header, an `Authorization: Bearer`
//! token or the session cookie), then lets the request through or asks for credentials
//! (401 under `/api`, a 303 to `/login` for pages); the route's declared access
//! ([`admit`]) refuses a role that lacks the right (403).
//!
//! Authentication is on when at least one user exists or a proxy header is configured;
//! the user count is cached for [`USERS_TTL`], so a user added by `volplan users add`
//! (or on another instance) is seen within that time. Sessions and tokens are looked
//! up on every request, so a revoked token or a removed user is refused at once.

use super::limit::LoginLimiter;
use super::secret::digest;
use super::{Principal, Role};
use crate::store::{self, Db, StoreError};
use crate::web::error::ApiError;
use crate::web::page_error::PageError;
use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use axum_extra::extract::CookieJar;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = "volplan_session";
/// How long a session lasts from login.
pub const SESSION_LIFETIME: Duration = Duration::from_secs(12 * 60 * 60);
/// How long the "are there users" answer is reused.
pub const USERS_TTL: Duration = Duration::from_secs(2);
/// Longest user name believed from the proxy header.
pub const MAX_PROXY_USER_CHARS: usize = 200;
/// Password checks at once (each takes 19 MiB and tens of milliseconds).
const HASHING_PERMITS: usize = 4;

/// How the server authenticates, from the `serve` flags.
#[derive(Debug, Clone, Default)]
pub struct AuthSettings {
    /// The header a trusted reverse proxy puts the user's name in.
    pub proxy_header: Option<HeaderName>,
    /// The proxies' addresses: the header is believed only from these peers.
    pub proxy_from: Vec<IpAddr>,
    /// The role of a proxy user with no account; `None` refuses such users (403).
    pub proxy_default_role: Option<Role>,
    /// With no user at all, serve everyone as the single user (loopback, or
    /// `--allow-unauthenticated`); otherwise answer 503 until a user is added.
    pub open_without_users: bool,
    /// Mark the session cookie `Secure` (https public URL, or a loopback server).
    pub secure_cookies: bool,
}

impl AuthSettings {
    /// The defaults of a server bound to `addr`: single-user on loopback, proxy off.
    pub fn for_bind(addr: SocketAddr) -> AuthSettings {
        let loopback = addr.ip().is_loopback();
        AuthSettings {
            open_without_users: loopback,
            secure_cookies: loopback,
            ..AuthSettings::default()
        }
    }

    fn trusts(&self, peer: Option<IpAddr>) -> bool {
        peer.is_some_and(|p| self.proxy_from.iter().any(|a| same_ip(*a, p)))
    }
}

/// Compares addresses, reading an IPv4-mapped IPv6 address as IPv4.
fn same_ip(a: IpAddr, b: IpAddr) -> bool {
    a.to_canonical() == b.to_canonical()
}

/// Authentication state shared by the layer and the login page.
#[derive(Debug)]
pub struct Auth {
    pub settings: AuthSettings,
    users: Mutex<Option<(Instant, bool)>>,
    /// Failed logins per user name and address.
    pub limiter: LoginLimiter,
    /// Admission to the password checks.
    pub hashing: Semaphore,
}

impl Auth {
    pub fn new(settings: AuthSettings) -> Auth {
        Auth {
            settings,
            users: Mutex::new(None),
            limiter: LoginLimiter::default(),
            hashing: Semaphore::new(HASHING_PERMITS),
        }
    }

    /// Whether authentication is on: a proxy header is configured or a user exists.
    pub async fn enabled(&self, db: &Db) -> Result<bool, StoreError> {
        if self.settings.proxy_header.is_some() {
            return Ok(true);
        }
        let cached = *self.users.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((at, any)) = cached
            && at.elapsed() < USERS_TTL
        {
            return Ok(any);
        }
        let any = store::users::count_users(db).await? > 0;
        *self.users.lock().unwrap_or_else(|e| e.into_inner()) = Some((Instant::now(), any));
        Ok(any)
    }

    /// The peer's address, or for a trusted proxy the client it forwards for (the last
    /// `X-Forwarded-For` entry, the one the proxy itself added).
    pub fn client_addr(&self, headers: &HeaderMap, peer: Option<IpAddr>) -> Option<IpAddr> {
        if self.settings.trusts(peer) {
            let forwarded = headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .filter_map(|a| a.trim().parse::<IpAddr>().ok())
                .next_back();
            if forwarded.is_some() {
                return forwarded;
            }
        }
        peer
    }
}

tokio::task_local! {
    static SIGNED_IN: Option<Principal>;
}

/// The signed-in user of the request being answered (for the pages' header); `None`
/// in single-user mode and outside a request.
pub fn signed_in() -> Option<Principal> {
    SIGNED_IN.try_with(Clone::clone).ok().flatten()
}

/// The TCP peer's address, as the server's accept loop recorded it.
pub fn peer_ip(req_extensions: &axum::http::Extensions) -> Option<IpAddr> {
    req_extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
}

/// The value of cookie `name` in the request's `Cookie` headers.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    CookieJar::from_headers(headers)
        .get(name)
        .map(|c| c.value().to_owned())
}

/// What the request's credentials say.
enum Found {
    /// No credentials.
    Nobody,
    User(Principal),
    /// Credentials that do not hold (a bad token, a proxy user without an account).
    Refused(StatusCode, String),
}

fn principal(holder: (String, String)) -> Result<Principal, StoreError> {
    let role = Role::parse(&holder.1)
        .ok_or_else(|| StoreError::Corrupt(format!("user {} has role `{}`", holder.0, holder.1)))?;
    Ok(Principal {
        user: holder.0,
        role,
    })
}

/// Finds the principal of a request from the proxy header, a bearer token or the
/// session cookie, in that order.
async fn find(
    auth: &Auth,
    db: &Db,
    headers: &HeaderMap,
    peer: Option<IpAddr>,
) -> Result<Found, StoreError> {
    if let Some(name) = &auth.settings.proxy_header
        && let Some(value) = headers.get(name)
    {
        if auth.settings.trusts(peer) {
            let user = value.to_str().unwrap_or("").trim();
            if user.is_empty() || user.chars().count() > MAX_PROXY_USER_CHARS {
                return Ok(Found::Refused(
                    StatusCode::FORBIDDEN,
                    format!(
                        "the proxy sent an empty, unreadable or over-long {name} header \
                         (at most {MAX_PROXY_USER_CHARS} characters)"
                    ),
                ));
            }
            return Ok(match store::users::find_user(db, user).await? {
                Some(u) => Found::User(principal((u.name, u.role))?),
                None => match auth.settings.proxy_default_role {
                    Some(role) => Found::User(Principal {
                        user: user.to_owned(),
                        role,
                    }),
                    None => Found::Refused(
                        StatusCode::FORBIDDEN,
                        format!(
                            "there is no volplan account `{}`; ask an admin to add it with `volplan users add`",
                            user.chars()
                                .filter(|c| !c.is_control())
                                .take(100)
                                .collect::<String>()
                        ),
                    ),
                },
            });
        }
        tracing::debug!("ignoring the {name} header from a peer that is not a trusted proxy");
    }
    if let Some(value) = headers.get(header::AUTHORIZATION) {
        let text = value.to_str().unwrap_or("").trim();
        let token = text
            .split_once(' ')
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, t)| t.trim());
        return Ok(match token {
            Some(t) if !t.is_empty() => match store::tokens::token_holder(db, &digest(t)).await? {
                Some(h) => Found::User(principal(h)?),
                None => Found::Refused(
                    StatusCode::UNAUTHORIZED,
                    "the API token is not valid: it was revoked, its user was removed, or it was mistyped".into(),
                ),
            },
            _ => Found::Refused(
                StatusCode::UNAUTHORIZED,
                "send the API token as `Authorization: Bearer TOKEN`".into(),
            ),
        });
    }
    if let Some(secret) = cookie(headers, SESSION_COOKIE)
        && let Some(h) = store::sessions::session_holder(db, &digest(&secret)).await?
    {
        return Ok(Found::User(principal(h)?));
    }
    Ok(Found::Nobody)
}

fn is_api(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}

/// A refusal as JSON under `/api`, as the HTML error page elsewhere.
fn refuse(path: &str, status: StatusCode, message: String) -> Response {
    let mut res = if is_api(path) {
        ApiError::Refused { status, message }.into_response()
    } else {
        PageError::Status { status, message }.into_response()
    };
    if status == StatusCode::UNAUTHORIZED {
        res.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer realm=\"volplan\""),
        );
    }
    res
}

/// The 401 of an API call without credentials, the 303 to the login page of a page.
fn ask_for_credentials(method: &Method, path: &str, query: Option<&str>) -> Response {
    if is_api(path) {
        return refuse(
            path,
            StatusCode::UNAUTHORIZED,
            "authentication required: log in, or send an API token as `Authorization: Bearer TOKEN`".into(),
        );
    }
    let next = match (method, query) {
        (&Method::GET | &Method::HEAD, Some(q)) => format!("{path}?{q}"),
        (&Method::GET | &Method::HEAD, None) => path.to_owned(),
        _ => "/".to_owned(),
    };
    let target = if next == "/" {
        "/login".to_owned()
    } else {
        let encoded: String = form_urlencoded::byte_serialize(next.as_bytes()).collect();
        format!("/login?next={encoded}")
    };
    Redirect::to(&target).into_response()
}

fn unavailable(path: &str, cause: StoreError) -> Response {
    if cause.is_unavailable() {
        return if is_api(path) {
            ApiError::from(cause).into_response()
        } else {
            PageError::from(cause).into_response()
        };
    }
    tracing::error!(error = %cause, "authentication lookup failed");
    refuse(
        path,
        StatusCode::SERVICE_UNAVAILABLE,
        "cannot check the credentials now (the database does not answer); try again".into(),
    )
}

/// What the sign-in gate needs: the accounts' settings and caches, and the database.
#[derive(Debug, Clone)]
pub struct Gate {
    pub auth: Arc<Auth>,
    pub db: Db,
}

/// The routes anyone may call, signed in or not, as their matched paths: the probes,
/// the metrics, static files, the login page and the API's unknown-path answer. Every
/// other route is behind [`sign_in`], so a route registered without a declaration asks
/// for credentials rather than serving everyone.
pub const PUBLIC_ROUTES: [&str; 8] = [
    "/healthz",
    "/readyz",
    "/metrics",
    "/static/{*path}",
    "/login",
    "/logout",
    "/api",
    "/api/{*rest}",
];

/// Who the sign-in gate found: the principal, or `None` in single-user mode. The route
/// layers of the access declarations read it; a route without it is refused.
#[derive(Debug, Clone)]
pub struct SignedIn(pub Option<Principal>);

/// The sign-in gate in front of every matched route but the [`PUBLIC_ROUTES`]: it
/// resolves the principal or asks for credentials, and fails closed (no database
/// answer, no principal in team mode: no handler runs).
pub async fn sign_in(State(gate): State<Gate>, mut req: Request, next: Next) -> Response {
    let public = req
        .extensions()
        .get::<MatchedPath>()
        .is_some_and(|m| PUBLIC_ROUTES.contains(&m.as_str()));
    // A method no route serves reaches the route's 405 with its `Allow` header, signed
    // in or not: only the public `any(...)` routes take every method (a test holds it).
    if public || !crate::web::limits::served_method(req.method()) {
        return next.run(req).await;
    }
    let path = req.uri().path().to_owned();
    let Gate { auth, db } = gate;
    let enabled = match auth.enabled(&db).await {
        Ok(on) => on,
        Err(e) => return unavailable(&path, e),
    };
    if !enabled {
        if !auth.settings.open_without_users {
            return refuse(
                &path,
                StatusCode::SERVICE_UNAVAILABLE,
                "this server is not on loopback and has no users yet: add one with \
                 `volplan users add NAME --role admin` (or start it with --allow-unauthenticated)"
                    .into(),
            );
        }
        req.extensions_mut().insert(SignedIn(None));
        return SIGNED_IN.scope(None, next.run(req)).await;
    }
    let peer = peer_ip(req.extensions());
    let who = match find(&auth, &db, req.headers(), peer).await {
        Ok(Found::User(p)) => p,
        Ok(Found::Nobody) => {
            return ask_for_credentials(req.method(), &path, req.uri().query());
        }
        Ok(Found::Refused(status, message)) => return refuse(&path, status, message),
        Err(e) => return unavailable(&path, e),
    };
    req.extensions_mut().insert(who.clone());
    req.extensions_mut().insert(SignedIn(Some(who.clone())));
    SIGNED_IN.scope(Some(who), next.run(req)).await
}

/// Admits a request whose user (found by [`sign_in`]) has the role `needed`; refuses
/// it otherwise, and refuses any request the gate did not see (the route layer of
/// every declared route).
pub async fn admit(needed: Role, req: Request, next: Next) -> Response {
    let path = req.uri().path();
    match req.extensions().get::<SignedIn>() {
        None => {
            tracing::error!(path, "a declared route was reached past the sign-in gate");
            refuse(
                path,
                StatusCode::INTERNAL_SERVER_ERROR,
                "the server is misconfigured".into(),
            )
        }
        Some(SignedIn(Some(who))) if who.role < needed => refuse(
            path,
            StatusCode::FORBIDDEN,
            format!(
                "{} has the role {}, and {} {} needs {}; ask an admin for a higher role",
                who.user,
                who.role.key(),
                req.method(),
                path,
                needed.key()
            ),
        ),
        Some(_) => next.run(req).await,
    }
}
