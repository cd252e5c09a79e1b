//! The web server: shared state, the router with its layers, and start-up.
//!
//! Each area exports `fn router() -> Router<AppState>` and is merged in [`app`]; the
//! layers (body limit, panic catcher, timeout, compression, security headers, tracing)
//! wrap them all.

pub mod api;
pub mod assets;
pub mod charts;
pub mod error;
pub mod pages;
pub mod reports;
pub mod scenario_templates;

use crate::config::Config;
use crate::store::{self, StoreError};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use sqlx::SqlitePool;
use std::any::Any;
use std::future::Future;
use std::time::Duration;
use tokio::net::TcpListener;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

/// Largest request body: 1 MiB (contract: 413 above).
pub const BODY_LIMIT: usize = 1 << 20;
/// A request that takes longer is answered 408.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Content Security Policy: no inline script or style, no framing.
pub const CSP: &str =
    "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'";

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub db: SqlitePool,
}

/// The whole application: API and pages behind the common layers.
pub fn app(state: AppState) -> Router {
    let header =
        |name, value| SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value));
    Router::new()
        .merge(api::router())
        .merge(pages::router())
        .merge(charts::router())
        .merge(reports::router())
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(axum::middleware::from_fn(api_timeout_body))
        .layer(CompressionLayer::new())
        .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header(header::X_FRAME_OPTIONS, "DENY"))
        .layer(header(header::REFERRER_POLICY, "same-origin"))
        .layer(header(header::CONTENT_SECURITY_POLICY, CSP))
        .layer(TraceLayer::new_for_http())
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

/// Serves the app on `listener` until `shutdown` resolves, then closes the database.
///
/// In-flight requests finish first (bounded by [`REQUEST_TIMEOUT`]).
pub async fn serve(
    listener: TcpListener,
    pool: SqlitePool,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let router = app(AppState { db: pool.clone() });
    axum::serve(listener, router)
        .with_graceful_shutdown(shutdown)
        .await?;
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
    #[error("server failed: {0}")]
    Io(#[from] std::io::Error),
}

/// `volplan serve`: listen, open and migrate the database, serve until Ctrl-C or SIGTERM.
pub async fn run(config: Config) -> Result<(), ServeError> {
    let listener = TcpListener::bind(&config.bind)
        .await
        .map_err(|source| ServeError::Bind {
            addr: config.bind.clone(),
            source,
        })?;
    let addr = listener.local_addr()?;
    tracing::info!(
        "volplan listening on http://{addr} (database {})",
        config.database_url
    );
    let pool = store::connect(&config.database_url)
        .await
        .map_err(|source| ServeError::Database {
            url: config.database_url.clone(),
            source,
        })?;
    serve(listener, pool, shutdown_signal()).await?;
    tracing::info!("volplan stopped");
    Ok(())
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!("cannot listen for Ctrl-C: {e}");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut sig) => {
                sig.recv().await;
            }
            Err(e) => {
                tracing::error!("cannot listen for SIGTERM: {e}");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}
