//! The JSON API under `/api`: sizing, saved scenarios, and the OpenAPI document.
//!
//! Each area exports `fn router() -> OpenApiRouter<AppState>` with `#[utoipa::path]`
//! handlers and is merged below, so `/api/openapi.json` lists every route. Scenario and
//! Evaluation bodies are described as JSON objects: their exact shape is the contract's.

pub mod activity;
pub mod actuals;
pub mod avs;
pub mod calibrate;
pub mod estate;
pub mod evaluate;
pub mod iac;
pub mod live;
pub mod measurements;
pub mod mounts;
pub mod openapi;
pub mod ops;
pub mod prices;
pub mod regions;
pub mod reprice;
pub mod scenarios;
pub mod tokens;
pub mod visibility;

use crate::store::StoreError;
use crate::web::auth::CurrentUser;
use crate::web::auth::Declare;
use crate::web::error::{ApiError, ErrorBody};
use crate::web::state::AppState;
use axum::Router;
use axum::extract::Path;
use axum::extract::rejection::PathRejection;
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "volplan",
        description = "Capacity planning and sizing for cloud file storage. Every error answers `{\"error\": \"sentence\", \"field\": \"path\" | null}`."
    ),
    components(schemas(ErrorBody, crate::engine::Scenario, crate::engine::Evaluation, crate::report::doc::json::DocJson)),
    tags(
        (name = "sizing", description = "Evaluate, compare and sweep scenarios (nothing is saved)"),
        (name = "scenarios", description = "Saved scenarios with their revision history"),
        (name = "measurements", description = "Benchmark results (fio, DiskSpd, elbencho) against the prediction, and the test plan that verifies a scenario"),
        (name = "advisor", description = "Client tuning: the Linux NFS mount-plan linter"),
        (name = "avs", description = "AVS from the inventory: RVTools import, datastore layout, host count and TCO"),
        (name = "iac", description = "Infrastructure as code: a plan exported as Terraform, Bicep or CLI commands; code read back and evaluated"),
        (name = "live", description = "The live estate: Azure Resource Graph inventory and Azure Monitor metrics in, headroom, right-sizing and plan against actuals out"),
        (name = "activity", description = "Who created, changed, restored or deleted what"),
        (name = "health", description = "Liveness, readiness and metrics"),
        (name = "accounts", description = "API tokens of team mode (admins only)"),
    )
)]
struct ApiDoc;

/// All `/api` routes, `/healthz`, `/readyz`, `/metrics` and `/api/openapi.json`; unknown `/api` paths answer 404 JSON.
pub fn router() -> Router<AppState> {
    let (router, doc) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(healthz).public())
        .merge(ops::router())
        .merge(estate::router())
        .merge(avs::router())
        .merge(live::router())
        .merge(actuals::router())
        .merge(evaluate::router())
        .merge(iac::router())
        .merge(measurements::router())
        .merge(calibrate::router())
        .merge(mounts::router())
        .merge(prices::router())
        .merge(regions::router())
        .merge(reprice::router())
        .merge(scenarios::router())
        .merge(tokens::router())
        .merge(activity::router())
        .split_for_parts();
    let mut doc = serde_json::to_value(&doc)
        .expect("the OpenAPI document is built from static descriptions and always serialises");
    openapi::complete(&mut doc);
    let scenario = openapi::json_schema(&doc, "Scenario", "/api/v1/schema/scenario.json");
    let evaluation = openapi::json_schema(&doc, "Evaluation", "/api/v1/schema/evaluation.json");
    let json_doc = |v: &serde_json::Value, ct: &'static str| {
        let text = v.to_string();
        get(move || async move { ([(header::CONTENT_TYPE, ct)], text) })
    };
    router
        .route(
            "/api/openapi.json",
            json_doc(&doc, "application/json").read_write(),
        )
        .route(
            "/api/v1/schema/scenario.json",
            json_doc(&scenario, "application/schema+json").read_write(),
        )
        .route(
            "/api/v1/schema/evaluation.json",
            json_doc(&evaluation, "application/schema+json").read_write(),
        )
        .route("/api", any(unknown_endpoint).public())
        .route("/api/{*rest}", any(unknown_endpoint).public())
        .layer(axum::middleware::map_response(json_method_not_allowed))
}

/// The contract's example Scenario, shown as the request example in the OpenAPI document.
pub(crate) fn example_scenario() -> serde_json::Value {
    serde_json::json!({
        "name": "AVS 4 x 20 TiB Ultra",
        "workload": {
            "io_size_kib": 64, "read_pct": 100, "access": "sequential", "threads": 8,
            "queue_depth": 16, "files": "many", "metadata_heavy": false, "capacity_tib": 80,
            "target_mibps": null, "target_iops": null
        },
        "storage": {
            "service": "anf", "level": "ultra", "qos": "auto", "volume_kind": "regular",
            "volumes": [{ "count": 4, "quota_tib": 20, "throughput_mibps": null }],
            "pool_tib": null
        },
        "clients": {
            "count": 1, "vm_size": null, "egress_mibps": null, "ingress_mibps": null,
            "protocol": "nfsv3", "nconnect": 1, "smb_multichannel": false, "smb_channels": 4,
            "avs": { "hosts": 4, "host_sku": "AV36", "vms_per_host": 1, "vmdks_per_vm": 1,
                     "placement": "dedicated" }
        }
    })
}

/// Example body of `POST /api/v1/compare`.
pub(crate) fn example_compare() -> serde_json::Value {
    let mut premium = example_scenario();
    premium["name"] = "AVS 4 x 20 TiB Premium".into();
    premium["storage"]["level"] = "premium".into();
    serde_json::json!({ "scenarios": [example_scenario(), premium] })
}

/// Example body of `POST /api/v1/layouts`.
pub(crate) fn example_layouts() -> serde_json::Value {
    serde_json::json!({ "scenario": example_scenario(), "total_tib": 80, "counts": [1, 2, 4, 8, 16] })
}

/// Liveness probe: answers `ok` while the server runs.
#[utoipa::path(get, path = "/healthz", tag = "health", operation_id = "healthz", responses((status = 200, description = "`ok`", body = String, content_type = "text/plain")))]
pub async fn healthz() -> &'static str {
    "ok"
}

/// Parses the `{id}` segment; a non-number is an id that cannot exist (404).
fn scenario_id(raw: Result<Path<String>, PathRejection>) -> Result<i64, ApiError> {
    let Path(raw) = raw.map_err(|e| ApiError::NotFound(e.body_text()))?;
    raw.parse().map_err(|_| ApiError::no_scenario(&raw))
}

/// Parses `{id}` of a URL with a second segment (a revision, a measurement), which is
/// returned as sent for the caller to parse and name in its own 404.
fn scenario_id_and(
    raw: Result<Path<(String, String)>, PathRejection>,
) -> Result<(i64, String), ApiError> {
    let Path((id, rest)) = raw.map_err(|e| ApiError::NotFound(e.body_text()))?;
    let id: i64 = id.parse().map_err(|_| ApiError::no_scenario(&id))?;
    Ok((id, rest))
}

/// Maps the store's "not found" to the 404 of scenario `id`; other store errors pass on.
fn not_found_as(id: i64) -> impl FnOnce(StoreError) -> ApiError {
    move |e| match e {
        StoreError::NotFound => ApiError::no_scenario(id),
        other => other.into(),
    }
}

/// The visibility check of every API route that reads or changes scenario `id`: the
/// scenario's 404 when it does not exist or is private to another user.
async fn visible(state: &AppState, user: &CurrentUser, id: i64) -> Result<(), ApiError> {
    crate::web::access::scenario(&state.db, user, id)
        .await
        .map(drop)
        .map_err(not_found_as(id))
}

/// The `limit` (default `default`, 1 to `max` `rows` per page) and `offset` of a paged
/// list, or the 422 naming the one out of range.
fn page_bounds(
    limit: Option<u32>,
    offset: Option<u64>,
    default: u32,
    max: u32,
    rows: &str,
) -> Result<(u32, u64), ApiError> {
    let limit = limit.unwrap_or(default);
    if !(1..=max).contains(&limit) {
        return Err(ApiError::invalid(
            "limit",
            format!("`limit` is {rows} per page: 1 to {max}, not {limit}"),
        ));
    }
    let offset = offset.unwrap_or(0);
    if offset > i64::MAX as u64 {
        return Err(ApiError::invalid("offset", "`offset` is too large"));
    }
    Ok((limit, offset))
}

/// `X-Total-Count` and the `Link` to the `next` and `prev` pages of a list at `path`
/// paged by `limit` and `offset` (`extra`: more of the query, `&q=...`, or empty).
fn page_headers(
    h: &mut axum::http::HeaderMap,
    path: &str,
    extra: &str,
    limit: u32,
    offset: u64,
    total: i64,
) {
    let link = |offset: u64, rel: &str| {
        format!("<{path}?limit={limit}&offset={offset}{extra}>; rel=\"{rel}\"")
    };
    let mut links = Vec::new();
    if offset.saturating_add(u64::from(limit)) < u64::try_from(total).unwrap_or(0) {
        links.push(link(offset + u64::from(limit), "next"));
    }
    if offset > 0 {
        links.push(link(offset.saturating_sub(u64::from(limit)), "prev"));
    }
    h.insert("x-total-count", header::HeaderValue::from(total));
    if !links.is_empty()
        && let Ok(v) = header::HeaderValue::from_str(&links.join(", "))
    {
        h.insert(header::LINK, v);
    }
}

/// Runs CPU-bound work off the async workers; a panic becomes a logged 500 saying which
/// `what` task failed.
async fn blocking<T: Send + 'static>(
    what: &'static str,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::internal(format!("{what} task failed: {e}")))
}

async fn unknown_endpoint(method: Method, uri: axum::http::Uri) -> Response {
    if !crate::web::limits::served_method(&method) {
        let allow = [(header::ALLOW, crate::web::limits::SERVED_METHODS)];
        return (allow, ApiError::MethodNotAllowed).into_response();
    }
    ApiError::NotFound(format!(
        "no API endpoint {method} {}; see /api/openapi.json for the list",
        uri.path().chars().take(200).collect::<String>()
    ))
    .into_response()
}

/// axum answers a known path with the wrong method by an empty 405; give it the error body.
/// (axum adds the `Allow` header after this layer has run.)
async fn json_method_not_allowed(res: Response) -> Response {
    if res.status() != StatusCode::METHOD_NOT_ALLOWED {
        return res;
    }
    let mut out = ApiError::MethodNotAllowed.into_response();
    for (name, value) in res.headers() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            out.headers_mut().insert(name, value.clone());
        }
    }
    out
}
