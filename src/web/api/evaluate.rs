//! Stateless sizing endpoints: evaluate one scenario, compare several, sweep layouts.

use crate::engine::scenario::VolumeGroup;
use crate::engine::{self, Evaluation, Scenario};
use crate::web::AppState;
use crate::web::error::{ApiError, ApiJson, ErrorBody};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Most scenarios one compare request may carry.
pub const MAX_COMPARE: usize = 16;
/// Most volume counts one layouts request may carry.
pub const MAX_LAYOUT_COUNTS: usize = 256;
/// Largest volume count of one layout.
pub const MAX_LAYOUT_COUNT: u32 = 1024;
/// Largest total capacity of a layout sweep, in TiB (same bound as `workload.capacity_tib`).
pub const MAX_LAYOUT_TIB: f64 = 1_000_000.0;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(evaluate))
        .routes(routes!(compare))
        .routes(routes!(layouts))
}

/// Runs CPU-bound engine work off the async workers; a panic becomes a logged 500.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::internal(format!("evaluation task failed: {e}")))?
}

/// Evaluates one scenario.
#[utoipa::path(
    post, path = "/api/v1/evaluate", tag = "sizing",
    request_body(content = Object, description = "A Scenario (contract: Scenario JSON)"),
    responses(
        (status = 200, description = "The Evaluation (contract: Evaluation JSON)", body = Object),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 413, description = "Body over 1 MiB", body = ErrorBody),
        (status = 415, description = "Not sent as application/json", body = ErrorBody),
        (status = 422, description = "A value fails validation; `field` names it", body = ErrorBody),
    )
)]
pub async fn evaluate(ApiJson(scenario): ApiJson<Scenario>) -> Result<Json<Evaluation>, ApiError> {
    Ok(Json(engine::evaluate(&scenario)?))
}

/// Body of `POST /api/v1/compare`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareRequest {
    pub scenarios: Vec<Scenario>,
}

/// Answer of `POST /api/v1/compare`: one Evaluation per scenario, in order.
#[derive(Debug, Serialize)]
pub struct CompareResponse {
    pub results: Vec<Evaluation>,
}

/// Evaluates 1 to 16 scenarios side by side.
#[utoipa::path(
    post, path = "/api/v1/compare", tag = "sizing",
    request_body(content = Object, description = "`{\"scenarios\": [Scenario, ...]}` with 1 to 16 scenarios"),
    responses(
        (status = 200, description = "`{\"results\": [Evaluation, ...]}` in the order sent", body = Object),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 413, description = "Body over 1 MiB", body = ErrorBody),
        (status = 415, description = "Not sent as application/json", body = ErrorBody),
        (status = 422, description = "Wrong count or a value fails validation, e.g. `scenarios[2].workload.threads`", body = ErrorBody),
    )
)]
pub async fn compare(
    ApiJson(req): ApiJson<CompareRequest>,
) -> Result<Json<CompareResponse>, ApiError> {
    let n = req.scenarios.len();
    if !(1..=MAX_COMPARE).contains(&n) {
        return Err(ApiError::invalid(
            "scenarios",
            format!("send 1 to {MAX_COMPARE} scenarios to compare, not {n}"),
        ));
    }
    let results = blocking(move || {
        req.scenarios
            .iter()
            .enumerate()
            .map(|(i, s)| {
                engine::evaluate(s).map_err(|e| ApiError::from(e).within(&format!("scenarios[{i}]")))
            })
            .collect::<Result<Vec<_>, _>>()
    })
    .await?;
    Ok(Json(CompareResponse { results }))
}

/// Body of `POST /api/v1/layouts`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayoutsRequest {
    pub scenario: Scenario,
    /// Capacity split evenly over `count` volumes.
    pub total_tib: f64,
    /// Volume counts to try, 1 to 256 of them, each 1 to 1024.
    pub counts: Vec<u32>,
}

/// One layout of the sweep: `count` volumes of `quota_tib` each, and what they achieve.
#[derive(Debug, Serialize)]
pub struct LayoutItem {
    pub count: u32,
    pub quota_tib: f64,
    pub evaluation: Evaluation,
}

/// Answer of `POST /api/v1/layouts`.
#[derive(Debug, Serialize)]
pub struct LayoutsResponse {
    pub layouts: Vec<LayoutItem>,
}

/// Splits one capacity into 1..N volumes and evaluates each layout.
#[utoipa::path(
    post, path = "/api/v1/layouts", tag = "sizing",
    request_body(content = Object, description = "`{\"scenario\": Scenario, \"total_tib\": f64, \"counts\": [u32, ...]}`: the scenario's volumes are replaced by `count` x `total_tib / count`"),
    responses(
        (status = 200, description = "`{\"layouts\": [{\"count\", \"quota_tib\", \"evaluation\"}, ...]}` in the order of `counts`", body = Object),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 413, description = "Body over 1 MiB", body = ErrorBody),
        (status = 415, description = "Not sent as application/json", body = ErrorBody),
        (status = 422, description = "A value fails validation; `field` names it", body = ErrorBody),
    )
)]
pub async fn layouts(
    ApiJson(req): ApiJson<LayoutsRequest>,
) -> Result<Json<LayoutsResponse>, ApiError> {
    check_layouts(&req)?;
    let layouts = blocking(move || sweep(&req)).await?;
    Ok(Json(LayoutsResponse { layouts }))
}

fn check_layouts(req: &LayoutsRequest) -> Result<(), ApiError> {
    req.scenario
        .validate()
        .map_err(|e| ApiError::from(e).within("scenario"))?;
    let t = req.total_tib;
    if !(t.is_finite() && t > 0.0 && t <= MAX_LAYOUT_TIB) {
        return Err(ApiError::invalid(
            "total_tib",
            format!("must be a number above 0 and at most {MAX_LAYOUT_TIB} TiB, not {t}"),
        ));
    }
    let n = req.counts.len();
    if !(1..=MAX_LAYOUT_COUNTS).contains(&n) {
        return Err(ApiError::invalid(
            "counts",
            format!("send 1 to {MAX_LAYOUT_COUNTS} volume counts, not {n}"),
        ));
    }
    for (i, &c) in req.counts.iter().enumerate() {
        if !(1..=MAX_LAYOUT_COUNT).contains(&c) {
            return Err(ApiError::invalid(
                format!("counts[{i}]"),
                format!("must be a whole number of volumes from 1 to {MAX_LAYOUT_COUNT}, not {c}"),
            ));
        }
    }
    Ok(())
}

/// Evaluates the scenario once per count, its volumes replaced by `count` equal volumes.
fn sweep(req: &LayoutsRequest) -> Result<Vec<LayoutItem>, ApiError> {
    let mut out = Vec::with_capacity(req.counts.len());
    for (i, &count) in req.counts.iter().enumerate() {
        let quota_tib = req.total_tib / f64::from(count);
        let mut s = req.scenario.clone();
        s.storage.volumes = vec![VolumeGroup {
            count,
            quota_tib,
            throughput_mibps: None,
            iops: None,
        }];
        let evaluation = engine::evaluate(&s).map_err(|e| {
            if e.field.starts_with("storage.volumes") {
                ApiError::invalid(
                    format!("counts[{i}]"),
                    format!("{count} volumes of {quota_tib} TiB: {}", e.message),
                )
            } else {
                ApiError::from(e).within("scenario")
            }
        })?;
        out.push(LayoutItem {
            count,
            quota_tib,
            evaluation,
        });
    }
    Ok(out)
}
