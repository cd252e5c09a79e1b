//! Plan against actuals: a saved plan revision (a scenario, or each workload of an
//! estate) against the Azure Monitor metrics of the volumes it became. The API route
//! and the live page share [`saved_plan`] (who may read which revision) and [`compare`]
//! (the comparison, and the runs at the ceiling kept with the scenario).

use super::blocking;
use super::live::{body_text, invalid, no_estate, read_metrics, utf8};
use crate::engine::{FieldErrors, Scenario};
use crate::live::actuals::{self, Actual, Position};
use crate::live::metrics::Metrics;
use crate::measure::Format;
use crate::store::{self, estates, measurements};
use crate::verdict::SetVerdict;
use crate::verdict::live::{self as words, RunsKept, Versus};
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
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(plan_actuals).read_write())
        .layer(DefaultBodyLimit::max(LIVE_BODY_LIMIT))
}

/// The saved plan to compare.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ActualsQuery {
    /// A saved scenario (one of `scenario`, `estate`).
    pub scenario: Option<i64>,
    /// A saved estate.
    pub estate: Option<i64>,
    /// The revision to compare; default the newest.
    pub revision: Option<i64>,
}

/// One planned workload against its volumes.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ActualAnswer {
    pub workload: String,
    pub volumes: Vec<String>,
    pub planned_mibps: f64,
    /// True when the plan set the throughput as a target (else what the plan gives).
    pub planned_is_target: bool,
    pub p95_mibps: f64,
    pub max_mibps: f64,
    pub difference_pct: f64,
    pub position: Position,
    /// Measured median latency, ms.
    pub latency_ms: Option<f64>,
    /// The latency the model predicts at the measured median rate, ms.
    pub predicted_latency_ms: Option<f64>,
    /// Its 80 % range.
    pub predicted_latency_ms_range: Option<[f64; 2]>,
    pub latency_position: Option<Position>,
    /// What the plan gives, MiB/s: reaching it is running at the ceiling.
    pub ceiling_mibps: f64,
    /// Intervals at the ceiling, when enough to make a measured run.
    pub ceiling_intervals: Option<usize>,
    pub statement: String,
}

/// The comparison.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ActualsAnswer {
    /// `scenario` or `estate`.
    pub plan: &'static str,
    pub id: i64,
    pub revision: i64,
    pub workloads: Vec<ActualAnswer>,
    /// Measured volumes no planned workload names.
    pub unmatched: Vec<String>,
    /// Ids of the measured runs kept with the scenario for calibration.
    pub measurements: Vec<i64>,
    pub verdict: SetVerdict,
}

/// A saved plan revision the request's user may read.
pub struct SavedPlan {
    /// `scenario` or `estate`.
    pub kind: &'static str,
    pub id: i64,
    pub revision: i64,
    /// True for the newest revision (only it keeps runs).
    pub newest: bool,
    /// Each workload by name.
    pub workloads: Vec<(String, Scenario)>,
}

/// Why a plan cannot be compared, and the query field it is about (`scenario`,
/// `estate` or `revision`).
pub struct PlanRefused {
    pub field: &'static str,
    pub error: ApiError,
}

impl From<PlanRefused> for ApiError {
    fn from(r: PlanRefused) -> Self {
        r.error
    }
}

/// The revision named by `q` (the newest when none), with the access check of every
/// read: a scenario or estate the user may not see is not found.
pub async fn saved_plan(
    st: &AppState,
    user: &CurrentUser,
    q: &ActualsQuery,
) -> Result<SavedPlan, PlanRefused> {
    let refused = |field, error| PlanRefused { field, error };
    match (q.scenario, q.estate) {
        (Some(id), None) => {
            let current = crate::web::access::stored_scenario(&st.db, user, id)
                .await
                .map_err(|e| refused("scenario", super::not_found_as(id)(e)))?;
            let n = q.revision.unwrap_or(current.revision);
            let s = if n == current.revision {
                current.scenario
            } else {
                store::get_revision(&st.db, id, n).await.map_err(|_| {
                    let message = format!("scenario {id} has no revision {n}");
                    refused("revision", ApiError::NotFound(message))
                })?
            };
            Ok(SavedPlan {
                kind: "scenario",
                id,
                revision: n,
                newest: n == current.revision,
                workloads: vec![(s.name.clone(), s)],
            })
        }
        (None, Some(id)) => {
            let current = estates::get_estate(&st.db, id, actor(user))
                .await
                .map_err(|e| refused("estate", no_estate(id)(e)))?;
            let n = q.revision.unwrap_or(current.revision);
            let req = if n == current.revision {
                current.request
            } else {
                estates::get_estate_revision(&st.db, id, n, actor(user))
                    .await
                    .map_err(|_| {
                        let message = format!("estate {id} has no revision {n}");
                        refused("revision", ApiError::NotFound(message))
                    })?
            };
            Ok(SavedPlan {
                kind: "estate",
                id,
                revision: n,
                newest: n == current.revision,
                workloads: req
                    .workloads
                    .into_iter()
                    .map(|w| (w.name.clone(), w))
                    .collect(),
            })
        }
        _ => Err(refused(
            "scenario",
            ApiError::invalid(
                "scenario",
                "name one saved plan: `?scenario=ID` or `?estate=ID`",
            ),
        )),
    }
}

/// Compares `plan` with the metrics; runs at a scenario's ceiling are kept with its
/// newest revision (a write, checked against the user as every measurement upload is).
pub async fn compare(
    st: &AppState,
    user: &CurrentUser,
    plan: SavedPlan,
    metrics: Arc<Metrics>,
) -> Result<ActualsAnswer, ApiError> {
    let book = st.book();
    let workloads = plan.workloads;
    let (found, unmatched) = blocking("plan against actuals", move || {
        actuals::compare(&workloads, &metrics, &book)
    })
    .await?
    .map_err(|e: FieldErrors| ApiError::InvalidFields(e))?;
    let runs: Vec<_> = found.iter().filter_map(|a| a.ceiling_run.clone()).collect();
    let kept = match (plan.kind, plan.newest) {
        ("scenario", true) => RunsKept::Stored,
        ("scenario", false) => RunsKept::OlderRevision,
        _ => RunsKept::Estate,
    };
    let measurements = if kept == RunsKept::Stored && !runs.is_empty() {
        let note = ["Azure Monitor 5-minute averages at the plan's ceiling".to_owned()];
        measurements::add_measurements(
            &st.db,
            plan.id,
            Format::AzureMonitor,
            &runs,
            &note,
            actor(user),
        )
        .await
        .map_err(super::not_found_as(plan.id))?
        .into_iter()
        .map(|m| m.id)
        .collect()
    } else {
        Vec::new()
    };
    let names = |p: Position| -> Vec<&str> {
        found
            .iter()
            .filter(|a| a.position == p)
            .map(|a| a.workload.as_str())
            .collect()
    };
    let unmatched_names: Vec<&str> = unmatched.iter().map(String::as_str).collect();
    let verdict = words::actuals(
        &names(Position::Above),
        &names(Position::Below),
        &unmatched_names,
        runs.len(),
        kept,
    );
    Ok(ActualsAnswer {
        plan: plan.kind,
        id: plan.id,
        revision: plan.revision,
        workloads: found.iter().map(|a| answer(a, kept)).collect(),
        unmatched,
        measurements,
        verdict,
    })
}

/// Compares a saved plan revision (a scenario, or each workload of an estate) with the
/// Azure Monitor metrics of the volumes it became, matched by name: throughput against
/// plan, latency against the prediction and its range. Where a scenario's volumes ran
/// at its ceiling, those intervals are kept with the scenario as a measured run, so
/// `POST /api/v1/scenarios/{id}/calibrate` learns from them (newest revision only).
#[utoipa::path(
    post, path = "/api/v1/live/actuals", tag = "live", operation_id = "live_actuals", params(ActualsQuery),
    request_body(content = String, content_type = "text/csv", description = "The metrics export"),
    responses(
        (status = 200, description = "Each workload against its volumes, and the verdict", body = ActualsAnswer),
        (status = 404, description = "No such scenario, estate or revision", body = ErrorBody),
        (status = 413, description = "Body over 64 MiB", body = ErrorBody),
        (status = 422, description = "Neither or both of `scenario` and `estate`, or not a metrics export", body = ErrorBody),
    )
)]
pub async fn plan_actuals(
    State(st): State<AppState>,
    who: Uploader,
    user: CurrentUser,
    headers: HeaderMap,
    q: Result<Query<ActualsQuery>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<ActualsAnswer>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let plan = saved_plan(&st, &user, &q).await?;
    let bytes = body_text(&headers, body, "metrics export")?;
    let (m, _) = who
        .parse(&st, "metrics import", move || read_metrics(utf8(&bytes)?))
        .await?
        .map_err(invalid)?;
    Ok(Json(compare(&st, &user, plan, Arc::new(m)).await?))
}

fn answer(a: &Actual, kept: RunsKept) -> ActualAnswer {
    let ceiling_intervals = a.ceiling_run.as_ref().map(|_| a.ceiling_intervals);
    let statement = words::versus(&Versus {
        workload: &a.workload,
        volumes: &a.volumes,
        planned_mibps: a.planned_mibps,
        planned_is_target: a.planned_is_target,
        p95_mibps: a.p95_mibps,
        difference_pct: a.difference_pct,
        latency: a
            .latency
            .map(|l| (l.measured_ms, l.predicted_ms, l.range_ms)),
        ceiling_intervals,
        kept,
    });
    ActualAnswer {
        workload: a.workload.clone(),
        volumes: a.volumes.clone(),
        planned_mibps: a.planned_mibps,
        planned_is_target: a.planned_is_target,
        p95_mibps: a.p95_mibps,
        max_mibps: a.max_mibps,
        difference_pct: a.difference_pct,
        position: a.position,
        latency_ms: a.latency.map(|l| l.measured_ms),
        predicted_latency_ms: a.latency.map(|l| l.predicted_ms),
        predicted_latency_ms_range: a.latency.map(|l| l.range_ms),
        latency_position: a.latency.map(|l| l.position),
        ceiling_mibps: a.ceiling_mibps,
        ceiling_intervals,
        statement,
    }
}
