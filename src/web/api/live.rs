//! The live estate: an Azure Resource Graph result in, the estate of what exists out;
//! Azure Monitor metrics in, each volume's demand, headroom and right-sizing out. A
//! saved plan against the metrics is [`super::actuals`].
//!
//! Bodies are the raw export (at most [`LIVE_BODY_LIMIT`]), read in the upload pool.

use super::blocking;
use crate::estate::EstateRequest;
use crate::live::estate::{self as assessed, LiveAnswer};
use crate::live::metrics::{self, Metrics};
use crate::live::{LiveError, inventory};
use crate::store::{StoreError, estates};
use crate::web::access::actor;
use crate::web::auth::{CurrentUser, Declare};
use crate::web::error::{ApiError, ErrorBody};
use crate::web::limits::LIVE_BODY_LIMIT;
use crate::web::state::AppState;
use crate::web::uploads::Uploader;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{HeaderMap, StatusCode};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(inventory_import).compute())
        .routes(routes!(metrics_import).compute())
        .layer(DefaultBodyLimit::max(LIVE_BODY_LIMIT))
}

const TYPES: [&str; 5] = [
    "application/json",
    "text/csv",
    "application/csv",
    "text/plain",
    "application/octet-stream",
];

/// The body as UTF-8 text, or the 4xx that says what to send.
pub fn body_text(
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
    what: &str,
) -> Result<Bytes, ApiError> {
    let media = crate::web::guard::media_type(headers);
    if !media.as_deref().is_some_and(|m| TYPES.contains(&m)) {
        return Err(ApiError::Refused {
            status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
            message: format!(
                "send the {what} as the raw body with `Content-Type: application/json` or `text/csv`"
            ),
        });
    }
    body.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::Refused {
                status: StatusCode::PAYLOAD_TOO_LARGE,
                message: format!(
                    "the {what} is larger than {} MiB; export fewer volumes or days at a time",
                    LIVE_BODY_LIMIT >> 20
                ),
            }
        } else {
            ApiError::BadRequest(format!("cannot read the request body: {}", r.body_text()))
        }
    })
}

pub(super) fn utf8(bytes: &[u8]) -> Result<&str, LiveError> {
    std::str::from_utf8(bytes)
        .map_err(|e| LiveError::new("body", format!("the export is not UTF-8 text: {e}")))
}

pub(super) fn invalid(e: LiveError) -> ApiError {
    ApiError::invalid(e.field, e.message)
}

/// Choices of the inventory import.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct InventoryQuery {
    /// Azure region of the estate; default: the first pool's location.
    #[param(max_length = 40)]
    pub region: Option<String>,
}

/// Reads an Azure Resource Graph result (the query in the documentation, as JSON from
/// `az graph query` or the REST API, or the portal's CSV download) into the estate of
/// what exists: one workload per volume, named as the volume, on its pool's level and
/// QoS with its quota and (manual QoS) its throughput.
#[utoipa::path(
    post, path = "/api/v1/live/inventory", tag = "live", operation_id = "live_inventory", params(InventoryQuery),
    request_body(content = String, content_type = "application/octet-stream", description = "The Resource Graph result (JSON or CSV), sent as application/json or text/csv"),
    responses(
        (status = 200, description = "The estate request of what exists (the body of `POST /api/v1/estate/optimize`)", body = Object),
        (status = 413, description = "Body over 64 MiB", body = ErrorBody),
        (status = 415, description = "Not sent as JSON or CSV", body = ErrorBody),
        (status = 422, description = "Not a Resource Graph result of the documented query: `field` names the row and column (`data[3].usageThreshold`)", body = ErrorBody),
        (status = 429, description = "This client already has an upload being read", body = ErrorBody),
        (status = 503, description = "Every upload slot busy", body = ErrorBody),
    )
)]
pub async fn inventory_import(
    State(st): State<AppState>,
    who: Uploader,
    headers: HeaderMap,
    q: Result<Query<InventoryQuery>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<EstateRequest>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    if q.region.as_ref().is_some_and(|r| r.len() > 40) {
        return Err(ApiError::invalid(
            "region",
            "an Azure region name is at most 40 characters",
        ));
    }
    let bytes = body_text(&headers, body, "Resource Graph result")?;
    let estate = who
        .parse(&st, "Resource Graph import", move || {
            inventory::parse(utf8(&bytes)?)?.estate(q.region)
        })
        .await?
        .map_err(invalid)?;
    Ok(Json(estate))
}

/// The metrics body: the export itself, or `{"estate": <the inventory's answer>,
/// "metrics": "<CSV text>" | <REST answer>}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WithEstate {
    estate: EstateRequest,
    metrics: serde_json::Value,
}

/// Reads a metrics body; the estate it carries, if any.
pub fn read_metrics(text: &str) -> Result<(Metrics, Option<EstateRequest>), LiveError> {
    let start = text.trim_start_matches('\u{feff}').trim_start();
    if start.starts_with('{') && start.contains("\"estate\"") {
        let w: WithEstate = serde_json::from_str(start).map_err(|e| {
            LiveError::new("estate", format!("not an estate with its metrics: {e}"))
        })?;
        let m = match &w.metrics {
            serde_json::Value::String(csv) => metrics::parse(csv)?,
            other => metrics::parse_value(other)?,
        };
        return Ok((m, Some(w.estate)));
    }
    Ok((metrics::parse(text)?, None))
}

/// Which saved estate describes the measured volumes.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MetricsQuery {
    /// A saved estate (e.g. the imported inventory) whose workloads are the volumes.
    pub estate: Option<i64>,
}

/// Reads Azure Monitor metrics of ANF volumes (the collector CSV `Timestamp,
/// ServiceLevel, QoSType, VolumeName, MetricName, Average`, or the REST API's answer)
/// and answers each volume's demand (P50, P95 and max of every metric), its headroom
/// against its QoS throughput and the model's ceiling, and the cheapest provisioning
/// for its P95 demand plus 20 % (level, QoS, quota, throughput) with the saving. What
/// each volume has comes from the estate sent with the metrics or named by `estate`,
/// else from the export's service level, QoS type and `VolumeAllocatedSize`.
#[utoipa::path(
    post, path = "/api/v1/live/metrics", tag = "live", operation_id = "live_metrics", params(MetricsQuery),
    request_body(content = String, content_type = "text/csv", description = "The metrics export, or `{\"estate\", \"metrics\"}` as JSON"),
    responses(
        (status = 200, description = "`{\"volumes\": [{\"name\", \"metrics\": {\"<MetricName>\": {\"p50\", \"p95\", \"max\", \"unit\"}}, \"headroom_pct\", \"recommendation\", ...}], \"verdict\"}`", body = LiveAnswer),
        (status = 404, description = "No such estate", body = ErrorBody),
        (status = 413, description = "Body over 64 MiB", body = ErrorBody),
        (status = 415, description = "Not sent as CSV or JSON", body = ErrorBody),
        (status = 422, description = "Not a metrics export: `field` names the column or member (`Average`, `value[].id`)", body = ErrorBody),
        (status = 429, description = "This client already has an upload being read", body = ErrorBody),
        (status = 503, description = "Every upload slot busy", body = ErrorBody),
    )
)]
pub async fn metrics_import(
    State(st): State<AppState>,
    who: Uploader,
    user: CurrentUser,
    headers: HeaderMap,
    q: Result<Query<MetricsQuery>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<LiveAnswer>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let bytes = body_text(&headers, body, "metrics export")?;
    let saved = match q.estate {
        Some(id) => Some(
            estates::get_estate(&st.db, id, actor(&user))
                .await
                .map_err(no_estate(id))?
                .request,
        ),
        None => None,
    };
    let (m, sent) = who
        .parse(&st, "metrics import", move || read_metrics(utf8(&bytes)?))
        .await?
        .map_err(invalid)?;
    let book = st.book();
    let estate = sent.or(saved);
    let answer = blocking("live metrics", move || {
        assessed::assess(&m, estate.as_ref(), &book)
    })
    .await?
    .map_err(ApiError::InvalidFields)?;
    Ok(Json(answer))
}

pub(super) fn no_estate(id: i64) -> impl FnOnce(StoreError) -> ApiError {
    move |e| match e {
        StoreError::NotFound => ApiError::NotFound(format!("no estate with id {id}")),
        other => other.into(),
    }
}
