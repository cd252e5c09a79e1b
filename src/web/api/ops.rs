//! Operations endpoints beside `/healthz`: readiness (`/readyz`) and the Prometheus
//! metrics (`/metrics`).

use crate::web::auth::Declare;
use crate::web::error::{ApiError, ErrorBody};
use crate::web::metrics;
use crate::web::state::AppState;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use serde::Serialize;
use std::time::Duration;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// A database that takes longer than this to answer `SELECT 1` is not ready.
pub const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// `/readyz` and `/metrics`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(readyz).public())
        .routes(routes!(metrics_text).public())
}

/// Answer of `GET /readyz` when the server can serve.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Ready {
    /// Always `ready`.
    pub status: &'static str,
    /// Always `ok`: the database answered a query.
    pub database: &'static str,
}

/// Readiness probe: 200 when the database answers a trivial query, 503 when it does not.
#[utoipa::path(
    get, path = "/readyz", tag = "health", operation_id = "readyz",
    responses(
        (status = 200, description = "`{\"status\": \"ready\", \"database\": \"ok\"}`", body = Ready),
        (status = 503, description = "The database does not answer; `error` says why", body = ErrorBody),
    )
)]
pub async fn readyz(State(st): State<AppState>) -> Result<axum::Json<Ready>, ApiError> {
    let probe = sqlx::query("SELECT 1").execute(&st.db);
    let cause = match tokio::time::timeout(READY_TIMEOUT, probe).await {
        Ok(Ok(_)) => {
            return Ok(axum::Json(Ready {
                status: "ready",
                database: "ok",
            }));
        }
        Ok(Err(e)) => e.to_string(),
        Err(_) => format!("no answer within {} s", READY_TIMEOUT.as_secs()),
    };
    tracing::warn!("not ready: the database does not answer: {cause}");
    Err(ApiError::Refused {
        status: StatusCode::SERVICE_UNAVAILABLE,
        message: format!("not ready: the database does not answer ({cause})"),
    })
}

/// Request counts by route and status, latency histograms, evaluations and renders in
/// flight, in the Prometheus text exposition format 0.0.4.
#[utoipa::path(
    get, path = "/metrics", tag = "health", operation_id = "metrics",
    responses((status = 200, description = "Prometheus text exposition format 0.0.4", body = String, content_type = "text/plain; version=0.0.4; charset=utf-8"))
)]
pub async fn metrics_text(State(st): State<AppState>) -> impl IntoResponse {
    let text = st.metrics.render(st.renders.in_use(), st.renders.permits());
    ([(header::CONTENT_TYPE, metrics::CONTENT_TYPE)], text)
}
