//! Stateless sizing endpoints: evaluate one scenario, compare several, sweep layouts.

use super::blocking;
use crate::engine::sweep::{self, Layout};
use crate::engine::{self, Scenario};
use crate::verdict::layouts::LayoutsVerdict;
use crate::verdict::{self, Judged, SetVerdict};
use crate::web::auth::Declare;
use crate::web::error::{ApiError, ApiJson, ErrorBody};
use crate::web::state::AppState;
use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Most scenarios one compare request may carry.
pub const MAX_COMPARE: usize = 16;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(evaluate).compute())
        .routes(routes!(compare).compute())
        .routes(routes!(layouts).compute())
}

/// Evaluates one scenario.
#[utoipa::path(
    post, path = "/api/v1/evaluate", tag = "sizing", operation_id = "evaluate",
    request_body(content = Scenario, description = "A Scenario (contract: Scenario JSON)", example = super::example_scenario),
    responses(
        (status = 200, description = "The Evaluation (contract: Evaluation JSON) with its `verdict`: every target met or missed and what decides it, the recommendation, what binds, the latency, why each sizing row meets or not, and the inputs that change the answer", body = Judged),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 413, description = "Body over 1 MiB", body = ErrorBody),
        (status = 415, description = "Not sent as application/json", body = ErrorBody),
        (status = 422, description = "A value fails validation; `field` names it", body = ErrorBody),
    )
)]
pub async fn evaluate(
    State(st): State<AppState>,
    ApiJson(scenario): ApiJson<Scenario>,
) -> Result<Json<Judged>, ApiError> {
    let book = st.book();
    // The verdict evaluates neighbours and sizing rows: off the async workers.
    let judged = blocking("evaluation", move || {
        engine::evaluate_in(&scenario, &book).map(|e| verdict::judge(&scenario, e, &book))
    })
    .await??;
    st.metrics.evaluated(1);
    Ok(Json(judged))
}

/// Body of `POST /api/v1/compare`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CompareRequest {
    #[schema(min_items = 1, max_items = 16)]
    pub scenarios: Vec<Scenario>,
}

/// Answer of `POST /api/v1/compare`: one Evaluation (with its verdict) per scenario, in
/// order, and the verdict on them together.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CompareResponse {
    pub results: Vec<Judged>,
    /// Which is better and why, each one's mechanism, and the inputs (changed in every
    /// scenario alike) that flip the answer.
    pub verdict: SetVerdict,
}

/// Evaluates 1 to 16 scenarios side by side.
#[utoipa::path(
    post, path = "/api/v1/compare", tag = "sizing", operation_id = "compare",
    request_body(content = CompareRequest, description = "`{\"scenarios\": [Scenario, ...]}` with 1 to 16 scenarios", example = super::example_compare),
    responses(
        (status = 200, description = "`{\"results\": [Evaluation, ...], \"verdict\"}` in the order sent", body = CompareResponse),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 413, description = "Body over 1 MiB", body = ErrorBody),
        (status = 415, description = "Not sent as application/json", body = ErrorBody),
        (status = 422, description = "Wrong count or a value fails validation, e.g. `scenarios[2].workload.threads`", body = ErrorBody),
    )
)]
pub async fn compare(
    State(st): State<AppState>,
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
    let book = st.book();
    let answer = blocking("evaluation", move || {
        let evals = req
            .scenarios
            .iter()
            .enumerate()
            .map(|(i, s)| {
                engine::evaluate_in(s, &book)
                    .map_err(ApiError::from)
                    .map_err(|e| e.within(&format!("scenarios[{i}]")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let names: Vec<String> = req
            .scenarios
            .iter()
            .enumerate()
            .map(|(i, s)| format!("“{}” ({})", s.name, i + 1))
            .collect();
        let entries: Vec<verdict::compare::Entry> = req
            .scenarios
            .iter()
            .zip(&evals)
            .zip(&names)
            .map(|((scenario, evaluation), name)| verdict::compare::Entry {
                name,
                scenario,
                evaluation,
            })
            .collect();
        let together = verdict::compare::compare(&entries, &book);
        let results = req
            .scenarios
            .iter()
            .zip(evals)
            .map(|(s, e)| verdict::judge(s, e, &book))
            .collect();
        Ok::<_, ApiError>(CompareResponse {
            results,
            verdict: together,
        })
    })
    .await??;
    st.metrics.evaluated(answer.results.len());
    Ok(Json(answer))
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
    /// The count the verdict sets beside the scenario's own (default: the suggested
    /// count, else the best other one).
    #[serde(default)]
    pub versus: Option<u32>,
}

/// Answer of `POST /api/v1/layouts`.
#[derive(Debug, Serialize)]
pub struct LayoutsResponse {
    pub layouts: Vec<Layout>,
    /// The best layout, the suggestion, the cost, the scenario's own layout against
    /// `versus`, the inputs that flip which of the two wins, and why each layout gets
    /// its result.
    pub verdict: LayoutsVerdict,
}

/// Splits one capacity into 1..N volumes and evaluates each layout.
#[utoipa::path(
    post, path = "/api/v1/layouts", tag = "sizing", operation_id = "layouts",
    request_body(content = Object, description = "`{\"scenario\": Scenario, \"total_tib\": f64, \"counts\": [u32, ...], \"versus\": u32 | null}`: the scenario's volumes are replaced by `count` x `total_tib / count`", example = super::example_layouts),
    responses(
        (status = 200, description = "`{\"layouts\": [{\"count\", \"quota_tib\", \"evaluation\"}, ...], \"verdict\": {\"best\", \"statements\", \"sensitivity\", \"pair\", \"why\"}}` in the order of `counts` (`verdict.pair`: the indices of the two layouts set side by side; `verdict.why`: why each layout gets its result)", body = Object),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 413, description = "Body over 1 MiB", body = ErrorBody),
        (status = 415, description = "Not sent as application/json", body = ErrorBody),
        (status = 422, description = "A value fails validation; `field` names it", body = ErrorBody),
    )
)]
pub async fn layouts(
    State(st): State<AppState>,
    ApiJson(req): ApiJson<LayoutsRequest>,
) -> Result<Json<LayoutsResponse>, ApiError> {
    // The scenario's own errors name it; the engine checks `total_tib` and `counts`.
    crate::engine::check(&req.scenario, &st.book())
        .map_err(|e| ApiError::from(e).within("scenario"))?;
    let book = st.book();
    let answer = blocking("evaluation", move || {
        let layouts = sweep::layouts(&req.scenario, req.total_tib, &req.counts, &book)?;
        let verdict =
            verdict::layouts::layouts(&req.scenario, req.total_tib, &layouts, req.versus, &book);
        Ok::<_, engine::FieldErrors>(LayoutsResponse { layouts, verdict })
    })
    .await??;
    st.metrics.evaluated(answer.layouts.len());
    Ok(Json(answer))
}
