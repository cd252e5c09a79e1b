//! Calibration to the user's environment: refits the parameters that govern a saved
//! scenario (connections, client path, round trip) to its measured runs, stores the
//! result with the scenario, and answers the scenario's evaluation with them.

use super::{blocking, not_found_as, scenario_id, visible};
use crate::engine::evaluation::{Evaluation, MovedParameter};
use crate::engine::{self, catalog};
use crate::measure::calibrate::{self, Run};
use crate::store::measurements as stored;
use crate::store::{self, calibrations};
use crate::web::auth::{CurrentUser, Declare};
use crate::web::error::{ApiError, ErrorBody};
use crate::web::state::AppState;
use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use serde::Serialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(calibrate).read_write())
}

/// Answer of a calibration (contract: `{"parameters": [{"name", "before", "after"}],
/// "evaluation": Evaluation}`).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Calibrated {
    /// Every refitted parameter: its published value and the refitted one, the largest
    /// move first.
    pub parameters: Vec<MovedParameter>,
    /// What the refit found, as every page and report states it: how far the runs lay
    /// from the published fit, which parameters moved, how far the refitted model lies.
    pub statement: String,
    /// The scenario evaluated with the refitted parameters (its `calibration` says
    /// which moved).
    pub evaluation: Evaluation,
}

/// Refits the parameters that govern a saved scenario's IO path (connections, client
/// path, round trip) to its measured runs, each compared with the scenario revision it
/// was measured against. The published fit stays the prior: one run moves a parameter
/// only as far as it is evidence. The calibration is stored with the scenario, so the
/// planner predicts changes from there; the published fit is untouched.
#[utoipa::path(
    post, path = "/api/v1/scenarios/{id}/calibrate", tag = "measurements", operation_id = "calibrate_scenario",
    params(("id" = i64, Path, description = "Scenario id")),
    responses(
        (status = 200, description = "The parameters that moved and the evaluation with them", body = Calibrated),
        (status = 404, description = "No such scenario", body = ErrorBody),
        (status = 422, description = "No measured run to calibrate to, or none the scenario can predict", body = ErrorBody),
    )
)]
pub async fn calibrate(
    State(state): State<AppState>,
    user: CurrentUser,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<Calibrated>, ApiError> {
    let id = scenario_id(id)?;
    visible(&state, &user, id).await?;
    let current = store::get_scenario(&state.db, id)
        .await
        .map_err(not_found_as(id))?;
    // The newest runs the refit reads, and no more, from the database.
    let newest = stored::latest(&state.db, id, calibrate::MAX_RUNS)
        .await
        .map_err(not_found_as(id))?;
    let runs = stored::with_revisions(&state.db, id, newest)
        .await
        .map_err(not_found_as(id))?;
    let scenario = current.scenario;
    let book = state.book();
    let fitted = blocking("calibration", move || {
        let runs: Vec<Run> = runs
            .iter()
            .filter_map(|(r, sc)| {
                sc.as_deref().map(|scenario| Run {
                    scenario,
                    measurement: &r.measurement,
                })
            })
            .collect();
        let published = &catalog::catalog().model.params;
        let c = calibrate::calibrate(&scenario, published, &runs, &book)?;
        let ev = calibrate::evaluate(&scenario, &book, Some(&c.note))?;
        Ok::<_, engine::FieldErrors>((c.note, ev))
    })
    .await??;
    let (note, evaluation) = fitted;
    calibrations::save_calibration(&state.db, id, &note, crate::web::access::actor(&user))
        .await
        .map_err(not_found_as(id))?;
    state.metrics.evaluated(1);
    Ok(Json(Calibrated {
        statement: crate::verdict::calibration::statement(&note),
        parameters: note.parameters,
        evaluation,
    }))
}
