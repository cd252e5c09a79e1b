//! Stateless sizing endpoints: evaluate one scenario, compare several, sweep layouts.

use super::blocking;
use crate::engine::solve::{self, Layout};
use crate::engine::{self, Evaluation, Scenario};
use crate::web::AppState;
use crate::web::error::{ApiError, ApiJson, ErrorBody};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Most scenarios one compare request may carry.
pub const MAX_COMPARE: usize = 16;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(evaluate))
        .routes(routes!(compare))
        .routes(routes!(layouts))
}

/// Evaluates one scenario.
#[utoipa::path(
    post, path = "/api/v1/evaluate", tag = "sizing",
    request_body(content = Object, description = "A Scenario (contract: Scenario JSON)", example = super::example_scenario),
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
    request_body(content = Object, description = "`{\"scenarios\": [Scenario, ...]}` with 1 to 16 scenarios", example = super::example_compare),
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
    // The outer `?` is a task that panicked, the inner one the engine's answer.
    let results = blocking("evaluation", move || {
        req.scenarios
            .iter()
            .enumerate()
            .map(|(i, s)| {
                engine::evaluate(s)
                    .map_err(|e| ApiError::from(e).within(&format!("scenarios[{i}]")))
            })
            .collect::<Result<Vec<_>, _>>()
    })
    .await??;
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

/// Answer of `POST /api/v1/layouts`.
#[derive(Debug, Serialize)]
pub struct LayoutsResponse {
    pub layouts: Vec<Layout>,
}

/// Splits one capacity into 1..N volumes and evaluates each layout.
#[utoipa::path(
    post, path = "/api/v1/layouts", tag = "sizing",
    request_body(content = Object, description = "`{\"scenario\": Scenario, \"total_tib\": f64, \"counts\": [u32, ...]}`: the scenario's volumes are replaced by `count` x `total_tib / count`", example = super::example_layouts),
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
    // The scenario's own errors name it; the engine checks `total_tib` and `counts`.
    req.scenario
        .validate()
        .map_err(|e| ApiError::from(e).within("scenario"))?;
    let layouts = blocking("evaluation", move || {
        solve::layouts(&req.scenario, req.total_tib, &req.counts)
    })
    .await??;
    Ok(Json(LayoutsResponse { layouts }))
}
