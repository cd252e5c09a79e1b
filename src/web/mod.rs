//! The web server: shared state, the router with its layers, and start-up.
//!
//! Each area exports `fn router() -> Router<AppState>` and is merged in [`app`]; the
//! layers (body limit, panic catcher, timeout, compression, security headers, tracing,
//! metrics) wrap them all.

pub mod access;
pub mod api;
pub mod assets;
pub mod auth;
pub mod body_shape;
pub mod charts;
pub mod config;
mod conn;
pub mod error;
pub mod guard;
pub mod limits;
pub mod metrics;
pub mod page_error;
pub mod pages;
pub mod price_cache;
pub mod render_pool;
pub mod reports;
pub mod request_span;
pub mod scenario_templates;
pub mod share;
mod slots;
pub mod state;

pub use limits::{
    AVS_BODY_LIMIT, BODY_LIMIT, IAC_BODY_LIMIT, LIVE_BODY_LIMIT, REQUEST_TIMEOUT, SERVED_METHODS,
    body_limit, served_method,
};
pub use state::{
    AppState, HEADER_TIMEOUT, IDLE_TIMEOUT, RENDER_TIMEOUT, RENDER_WAIT, ServerSettings, Shared,
    UPLOAD_SHARE, default_render_permits,
};
pub mod uploads;

use crate::store::Db;
use crate::store::{self, StoreError};
use crate::web::config::Config;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use guard::Guard;
use hyper::service::Service as _;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::any::Any;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tower_http::add_extension::AddExtension;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

/// Content Security Policy: no inline script or style, no framing.
pub const CSP: &str =
    "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'";

/// Every route of the application, each declaring who may call it (`auth::access`).
pub fn routes() -> Router<AppState> {
    Router::new()
        .merge(api::router())
        .merge(pages::router())
        .merge(charts::router())
        .merge(reports::router())
        .merge(pages::login::router())
}

/// The whole application: [`routes`] behind the sign-in gate and the common layers.
pub fn app(state: AppState, guard: Arc<Guard>) -> Router {
    app_of(routes(), state, guard)
}

/// `routes` behind the sign-in gate (every matched route but the public ones asks for
/// credentials in team mode, declared or not) and the common layers.
pub fn app_of(routes: Router<AppState>, state: AppState, guard: Arc<Guard>) -> Router {
    let header =
        |name, value| SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value));
    let metrics = state.metrics.clone();
    let gate = auth::layer::Gate {
        auth: state.auth.clone(),
        db: state.db.clone(),
    };
    let routes = routes
        .route_layer(axum::middleware::from_fn_with_state(
            gate,
            auth::layer::sign_in,
        ))
        .route_layer(axum::middleware::from_fn(request_span::record_route))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
        .layer(CatchPanicLayer::custom(panic_response));
    routes
        .clone()
        .layer(axum::middleware::from_fn_with_state(
            guard.clone(),
            guard::csrf,
        ))
        .layer(axum::middleware::from_fn(guard::check_body))
        .layer(axum::middleware::from_fn_with_state(
            routes,
            unknown_methods,
        ))
        .layer(axum::middleware::from_fn_with_state(
            guard,
            guard::check_host,
        ))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(axum::middleware::from_fn(api_timeout_body))
        .layer(CompressionLayer::new())
        .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header(header::X_FRAME_OPTIONS, "DENY"))
        .layer(header(header::REFERRER_POLICY, "same-origin"))
        .layer(header(header::CACHE_CONTROL, "private, no-store"))
        .layer(header(header::CONTENT_SECURITY_POLICY, CSP))
        .layer(TraceLayer::new_for_http().make_span_with(request_span::span))
        .layer(axum::middleware::from_fn(request_span::assign_id))
        .layer(axum::middleware::from_fn_with_state(
            metrics,
            metrics::track,
        ))
}

/// A method no route serves goes straight to the routes, past the body, form-token and
/// role checks, so that every path answers it 405 with its `Allow` header, admin paths
/// included (no handler runs: the routes answer 405, the fallbacks say so too).
async fn unknown_methods(
    State(routes): State<Router>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if served_method(req.method()) {
        return next.run(req).await;
    }
    match tower::ServiceExt::oneshot(routes, req).await {
        Ok(res) => res,
        Err(never) => match never {},
    }
}

/// The timeout layer answers an empty 408; under `/api` give it the contract's error body.
async fn api_timeout_body(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let res = next.run(req).await;
    if api
        && res.status() == StatusCode::REQUEST_TIMEOUT
        && !res.headers().contains_key(header::CONTENT_TYPE)
    {
        return error::ApiError::Timeout.into_response();
    }
    res
}

/// A panic in a handler is a bug: log it, answer 500 with the contract's body, keep serving.
fn panic_response(payload: Box<dyn Any + Send + 'static>) -> Response {
    let detail = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("unknown panic");
    error::ApiError::internal(format!("handler panicked: {detail}")).into_response()
}

/// Serves the app on `listener` until `shutdown` resolves, then closes the database,
/// with the default bounds for the address it listens on.
pub async fn serve(
    listener: TcpListener,
    pool: Db,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let settings = ServerSettings::for_addr(listener.local_addr()?);
    serve_with(listener, pool, settings, shutdown).await
}

/// Serves the app on `listener` with `settings` until `shutdown` resolves, then waits
/// for in-flight requests (bounded by [`REQUEST_TIMEOUT`]) and closes the database.
///
/// Each connection is HTTP/1.1 with a header-read timeout and an idle timeout; at most
/// `max_connections` are served at once, `max_connections_per_address` from one client.
pub async fn serve_with(
    listener: TcpListener,
    pool: Db,
    settings: ServerSettings,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let prices = store::prices::book_in_force(&pool)
        .await
        .map_err(std::io::Error::other)?;
    let state = AppState::new(pool, &settings, prices);
    serve_state(listener, state, settings, shutdown).await
}

/// Serves the app with `state` (its database, render pool and caches) on `listener`,
/// as [`serve_with`] does.
pub async fn serve_state(
    listener: TcpListener,
    state: AppState,
    settings: ServerSettings,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let pool = state.db.clone();
    tokio::spawn(metrics::upkeep(Arc::downgrade(&state.metrics)));
    let router = app(state, Arc::new(settings.guard.clone()));
    let slots = Arc::new(slots::Slots::new(settings.max_connections));
    let per_address = Arc::new(conn::PerAddress::new(settings.max_connections_per_address));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(settings.header_timeout)
        .keep_alive(true);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors and the like: wait, then accept again.
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // One address at its limit is closed at once, its slot free for others.
        let Some(counted) = per_address.admit(peer.ip()) else {
            tracing::debug!("{} is at its connection limit; closed", peer.ip());
            continue;
        };
        // A slot: with every one taken, one in its header phase is closed for it.
        let slot = tokio::select! {
            slot = slots.admit() => match slot {
                Ok(slot) => Arc::new(slot),
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let counted = Arc::new(counted);
        let _ = stream.set_nodelay(true);
        let activity = Arc::new(conn::Activity::new());
        let io = TokioIo::new(conn::Tracked::new(stream, activity.clone()));
        // The peer's address for the proxy-header check and the login rate limit.
        let inner = TowerToHyperService::new(AddExtension::new(
            router.clone(),
            axum::extract::ConnectInfo(peer),
        ));
        let arrived = counted.clone();
        let serving = slot.clone();
        let service = hyper::service::service_fn(move |req| {
            arrived.headers_arrived();
            serving.request_started();
            let end = slots::RequestEnd(serving.clone());
            let answer = inner.call(req);
            async move { Ok::<_, std::convert::Infallible>(slots::ends_with_body(answer.await?, end)) }
        });
        let connection = graceful.watch(http.serve_connection(io, service));
        let idle = settings.idle_timeout;
        tokio::spawn(async move {
            tokio::select! {
                done = connection => if let Err(e) = done {
                    tracing::debug!("connection ended: {e}");
                },
                () = activity.idle_for(idle) => tracing::debug!("idle connection closed"),
                () = counted.too_slow() => tracing::debug!(
                    "closed one of too many connections from {} still sending their headers",
                    peer.ip()
                ),
                () = slot.closed() => tracing::debug!(
                    "closed a connection waiting for its headers to make room for a new one"
                ),
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(REQUEST_TIMEOUT, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!(
            "requests still running after {} s; stopping anyway",
            REQUEST_TIMEOUT.as_secs()
        );
    }
    pool.close().await;
    Ok(())
}

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: String,
        source: std::io::Error,
    },
    #[error("cannot open the database {url}: {source}")]
    Database { url: String, source: StoreError },
    #[error("{0}")]
    Config(#[from] crate::web::config::ConfigError),
    #[error("server failed: {0}")]
    Io(#[from] std::io::Error),
}

/// `volplan serve`: listen, open and migrate the database, serve until Ctrl-C or SIGTERM.
pub async fn run(config: Config) -> Result<(), ServeError> {
    let shutdown = shutdown_signal();
    let listener = listen(&config.bind)
        .await
        .map_err(|source| ServeError::Bind {
            addr: config.bind.clone(),
            source,
        })?;
    let addr = listener.local_addr()?;
    let opened = async {
        let pool = store::connect(&config.database_url).await?;
        let users = store::users::count_users(&pool).await?;
        Ok::<_, StoreError>((pool, users))
    };
    let (pool, users) = opened.await.map_err(|source| ServeError::Database {
        url: store::redacted(&config.database_url),
        source,
    })?;
    let authenticated = users > 0 || config.auth_proxy_header.is_some();
    let settings = match config
        .check_exposure(addr, authenticated)
        .and_then(|()| ServerSettings::from_config(&config, addr))
    {
        Ok(settings) => settings,
        Err(e) => {
            pool.close().await;
            return Err(e.into());
        }
    };
    tracing::info!(
        "volplan listening on http://{addr} (database {})",
        store::redacted(&config.database_url)
    );
    if authenticated {
        tracing::info!(
            "team mode: {users} user(s){}; every request needs a login, an API token or the proxy's header",
            if config.auth_proxy_header.is_some() {
                " and the proxy header"
            } else {
                ""
            }
        );
    } else if !addr.ip().is_loopback() {
        tracing::warn!(
            "listening on {addr} without authentication (--allow-unauthenticated): anyone who \
             reaches this port can read, change and delete every scenario"
        );
    }
    serve_with(listener, pool, settings, shutdown).await?;
    tracing::info!("volplan stopped");
    Ok(())
}

/// Connections the kernel queues for `accept` (it caps this at `net.core.somaxconn`).
/// Tokio's default (1,024) overflows when many clients reconnect at once (a slow-client
/// flood closed and reopened thousands of times a second), and a dropped connection
/// attempt is retried by the client's kernel only after a second.
const LISTEN_BACKLOG: u32 = 4096;

/// A listener on the first address `bind` resolves to that can be bound, with
/// [`LISTEN_BACKLOG`].
async fn listen(bind: &str) -> std::io::Result<TcpListener> {
    let mut last = None;
    for addr in tokio::net::lookup_host(bind).await? {
        let listener = (|| {
            let socket = if addr.is_ipv4() {
                tokio::net::TcpSocket::new_v4()?
            } else {
                tokio::net::TcpSocket::new_v6()?
            };
            #[cfg(unix)]
            socket.set_reuseaddr(true)?;
            socket.bind(addr)?;
            socket.listen(LISTEN_BACKLOG)
        })();
        match listener {
            Ok(listener) => return Ok(listener),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, "no address to listen on")
    }))
}

/// Resolves on Ctrl-C or SIGTERM. The handlers are installed when this is called (not
/// when the future is first polled), so a signal that arrives as soon as the server
/// answers still stops it gracefully.
pub fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let signals = {
        use tokio::signal::unix::{SignalKind, signal};
        [SignalKind::interrupt(), SignalKind::terminate()].map(|kind| {
            signal(kind)
                .inspect_err(|e| tracing::error!("cannot listen for signal {kind:?}: {e}"))
                .ok()
        })
    };
    async move {
        #[cfg(unix)]
        {
            let [interrupt, terminate] = signals;
            let wait = |sig: Option<tokio::signal::unix::Signal>| async move {
                match sig {
                    Some(mut sig) => {
                        sig.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = wait(interrupt) => {},
                () = wait(terminate) => {},
            }
        }
        #[cfg(not(unix))]
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!("cannot listen for Ctrl-C: {e}");
            std::future::pending::<()>().await;
        }
        tracing::info!("shutting down");
    }
}
