//! Saved scenarios: CRUD plus revision history and restore.

use super::{not_found_as, scenario_id, scenario_id_and, visible};
use crate::engine::Scenario;
use crate::store::{self, Revision, ScenarioSummary, StoreError, Visibility};
use crate::web::access::actor;
use crate::web::auth::CurrentUser;
use crate::web::auth::Declare;
use crate::web::error::{ApiError, ApiJson, ErrorBody};
use crate::web::state::AppState;
use axum::Json;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create).read_write())
        .routes(routes!(show, update, remove).read_write())
        .routes(routes!(evaluation).read_write())
        .routes(routes!(revisions).read_write())
        .routes(routes!(revision).read_write())
        .routes(routes!(revision_diff).read_write())
        .routes(routes!(restore).read_write())
        .merge(super::visibility::router())
}

/// Answer to a save: the scenario id and the revision the save created.
#[derive(Debug, Serialize, ToSchema)]
pub struct Saved {
    pub id: i64,
    pub revision: i64,
}

/// Rows of the list unless `?limit=` says otherwise.
pub const DEFAULT_LIMIT: u32 = 50;

/// Query of the list: `?q=` keeps scenarios whose name, service or level contains it;
/// `limit` and `offset` choose the page.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Text to search for (case-insensitive), at most 200 characters.
    #[param(max_length = 200)]
    pub q: Option<String>,
    /// Rows per page, 1 to 500 (default 50).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<u32>,
    /// Rows to skip (default 0).
    #[param(minimum = 0, maximum = 9_223_372_036_854_775_807_i64)]
    pub offset: Option<u64>,
}

/// Lists saved scenarios, most recently saved first, one page at a time.
///
/// The body is the page (an array, as the contract has it); `X-Total-Count` says how
/// many scenarios match in all and `Link` gives the `next` and `prev` pages.
#[utoipa::path(
    get, path = "/api/v1/scenarios", tag = "scenarios", operation_id = "list_scenarios", params(ListQuery),
    responses(
        (status = 200, description = "One page of saved scenarios, newest first", body = [ScenarioSummary],
         headers(
            ("X-Total-Count" = i64, description = "Scenarios matching `q` in all pages"),
            ("Link" = String, description = "`<url>; rel=\"next\"` and `<url>; rel=\"prev\"` where there are such pages"),
         )),
        (status = 400, description = "Malformed query string", body = ErrorBody),
        (status = 422, description = "`limit` or `offset` out of range", body = ErrorBody),
    )
)]
pub async fn list(
    State(state): State<AppState>,
    user: CurrentUser,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let (limit, offset) = super::page_bounds(
        query.limit,
        query.offset,
        DEFAULT_LIMIT,
        store::MAX_PAGE,
        "rows",
    )?;
    if query.q.as_ref().is_some_and(|q| q.chars().count() > 200) {
        return Err(ApiError::invalid("q", "`q` is at most 200 characters"));
    }
    let q = query.q.as_deref().filter(|q| !q.trim().is_empty());
    let page = store::list_page(&state.db, q, limit, offset, actor(&user)).await?;
    let extra = q.map_or_else(String::new, |q| {
        format!(
            "&q={}",
            form_urlencoded::byte_serialize(q.as_bytes()).collect::<String>()
        )
    });
    let items: Vec<ScenarioSummary> = page.items.into_iter().map(Into::into).collect();
    let mut res = Json(items).into_response();
    super::page_headers(
        res.headers_mut(),
        "/api/v1/scenarios",
        &extra,
        limit,
        offset,
        page.total,
    );
    Ok(res)
}

/// Query of a create: who may see the new scenario.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CreateQuery {
    /// `shared` (default: every user sees it) or `private` (only its owner and admins).
    #[param(inline)]
    pub visibility: Option<Visibility>,
}

/// Saves a new scenario (revision 1), owned by the signed-in user.
#[utoipa::path(
    post, path = "/api/v1/scenarios", tag = "scenarios", operation_id = "create_scenario", params(CreateQuery),
    request_body(content = Scenario, description = "A Scenario; an `id` in it is ignored", example = super::example_scenario),
    responses(
        (status = 201, description = "Saved; `Location` names the new scenario", body = Saved,
         headers(("Location" = String, description = "/api/v1/scenarios/{id}"))),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 413, description = "Body over 1 MiB", body = ErrorBody),
        (status = 415, description = "Not sent as application/json", body = ErrorBody),
        (status = 422, description = "A value fails validation; `field` names it", body = ErrorBody),
    )
)]
pub async fn create(
    State(state): State<AppState>,
    user: CurrentUser,
    query: Result<Query<CreateQuery>, QueryRejection>,
    ApiJson(scenario): ApiJson<Scenario>,
) -> Result<impl IntoResponse, ApiError> {
    let Query(query) = query.map_err(|e| {
        ApiError::invalid(
            "visibility",
            format!("{}; `visibility` is shared or private", e.body_text()),
        )
    })?;
    crate::engine::check(&scenario, &state.book())?;
    named(&scenario)?;
    let visibility = query.visibility.unwrap_or_default();
    let id = store::create_scenario_by(
        &state.db,
        &scenario,
        actor(&user),
        visibility,
        store::activity::Action::Created,
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, format!("/api/v1/scenarios/{id}"))],
        Json(Saved { id, revision: 1 }),
    ))
}

/// A scenario is stored under a name: a blank one is refused (422 on `name`), so no list,
/// history or report shows a scenario without one. (Evaluating needs no name.)
fn named(s: &Scenario) -> Result<(), ApiError> {
    if s.name.trim().is_empty() {
        return Err(ApiError::invalid(
            "name",
            "must not be empty or only spaces: give the scenario a name (left out, it is called Untitled scenario)",
        ));
    }
    Ok(())
}

/// The newest revision of one scenario, with its `id`.
#[utoipa::path(
    get, path = "/api/v1/scenarios/{id}", tag = "scenarios", operation_id = "get_scenario",
    params(("id" = i64, Path, description = "Scenario id")),
    responses(
        (status = 200, description = "The Scenario with `id`", body = Scenario),
        (status = 404, description = "No such scenario", body = ErrorBody),
    )
)]
pub async fn show(
    State(state): State<AppState>,
    user: CurrentUser,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<Scenario>, ApiError> {
    let id = scenario_id(id)?;
    visible(&state, &user, id).await?;
    let stored = store::get_scenario(&state.db, id)
        .await
        .map_err(not_found_as(id))?;
    Ok(Json(stored.scenario))
}

/// The newest revision evaluated with the price book in force, with its verdict.
#[utoipa::path(
    get, path = "/api/v1/scenarios/{id}/evaluation", tag = "scenarios", operation_id = "evaluate_saved",
    params(("id" = i64, Path, description = "Scenario id")),
    responses(
        (status = 200, description = "The Evaluation with its `verdict`, as `POST /api/v1/evaluate` answers it", body = crate::verdict::Judged),
        (status = 404, description = "No such scenario", body = ErrorBody),
    )
)]
pub async fn evaluation(
    State(state): State<AppState>,
    user: CurrentUser,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<crate::verdict::Judged>, ApiError> {
    let id = scenario_id(id)?;
    visible(&state, &user, id).await?;
    let stored = store::get_scenario(&state.db, id)
        .await
        .map_err(not_found_as(id))?;
    let book = state.book();
    // The scenario's calibration to its own runs, as the planner and the report use it.
    let calibration = crate::store::calibrations::get_calibration(&state.db, id).await?;
    let judged = super::blocking("evaluation", move || {
        crate::measure::calibrate::evaluate(&stored.scenario, &book, calibration.as_ref())
            .map(|e| crate::verdict::judge(&stored.scenario, e, &book))
    })
    .await??;
    state.metrics.evaluated(1);
    Ok(Json(judged))
}

/// Saves a scenario as its next revision.
#[utoipa::path(
    put, path = "/api/v1/scenarios/{id}", tag = "scenarios", operation_id = "update_scenario",
    params(("id" = i64, Path, description = "Scenario id")),
    request_body(content = Scenario, description = "The Scenario; an `id` in it must match the URL or be left out"),
    responses(
        (status = 200, description = "Saved as a new revision", body = Saved),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 404, description = "No such scenario", body = ErrorBody),
        (status = 413, description = "Body over 1 MiB", body = ErrorBody),
        (status = 415, description = "Not sent as application/json", body = ErrorBody),
        (status = 422, description = "A value fails validation; `field` names it", body = ErrorBody),
    )
)]
pub async fn update(
    State(state): State<AppState>,
    user: CurrentUser,
    id: Result<Path<String>, PathRejection>,
    ApiJson(scenario): ApiJson<Scenario>,
) -> Result<Json<Saved>, ApiError> {
    let id = scenario_id(id)?;
    if let Some(other) = scenario.id.filter(|&other| other != id) {
        return Err(ApiError::invalid(
            "id",
            format!(
                "the body is scenario {other} but the URL is scenario {id}; leave `id` out or make them match"
            ),
        ));
    }
    crate::engine::check(&scenario, &state.book())?;
    named(&scenario)?;
    let revision = store::update_scenario_by(&state.db, id, &scenario, actor(&user))
        .await
        .map_err(not_found_as(id))?;
    Ok(Json(Saved { id, revision }))
}

/// Deletes a scenario with its whole history.
#[utoipa::path(
    delete, path = "/api/v1/scenarios/{id}", tag = "scenarios", operation_id = "delete_scenario",
    params(("id" = i64, Path, description = "Scenario id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 404, description = "No such scenario", body = ErrorBody),
    )
)]
pub async fn remove(
    State(state): State<AppState>,
    user: CurrentUser,
    id: Result<Path<String>, PathRejection>,
) -> Result<StatusCode, ApiError> {
    let id = scenario_id(id)?;
    store::delete_scenario_by(&state.db, id, actor(&user))
        .await
        .map_err(not_found_as(id))?;
    Ok(StatusCode::NO_CONTENT)
}

/// The revision history of a scenario, newest first, each with who saved it.
#[utoipa::path(
    get, path = "/api/v1/scenarios/{id}/revisions", tag = "scenarios", operation_id = "list_revisions",
    params(("id" = i64, Path, description = "Scenario id")),
    responses(
        (status = 200, description = "Revisions, newest first", body = [Revision]),
        (status = 404, description = "No such scenario", body = ErrorBody),
    )
)]
pub async fn revisions(
    State(state): State<AppState>,
    user: CurrentUser,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<Vec<Revision>>, ApiError> {
    let id = scenario_id(id)?;
    visible(&state, &user, id).await?;
    let list = store::list_revisions(&state.db, id)
        .await
        .map_err(not_found_as(id))?;
    Ok(Json(list))
}

/// Parses `{id}` and `{n}` of a revision URL.
fn revision_ids(
    raw: Result<Path<(String, String)>, PathRejection>,
) -> Result<(i64, i64), ApiError> {
    let (id, n) = scenario_id_and(raw)?;
    let n: i64 = n
        .parse()
        .map_err(|_| ApiError::NotFound(format!("scenario {id} has no revision {n}")))?;
    Ok((id, n))
}

async fn missing_revision(
    state: &AppState,
    user: &CurrentUser,
    id: i64,
    n: i64,
    e: StoreError,
) -> ApiError {
    match e {
        StoreError::NotFound => match crate::web::access::scenario(&state.db, user, id).await {
            Ok(_) => ApiError::NotFound(format!("scenario {id} has no revision {n}")),
            Err(StoreError::NotFound) => ApiError::no_scenario(id),
            Err(other) => other.into(),
        },
        other => other.into(),
    }
}

/// One revision of a scenario, as it was saved.
#[utoipa::path(
    get, path = "/api/v1/scenarios/{id}/revisions/{n}", tag = "scenarios", operation_id = "get_revision",
    params(("id" = i64, Path, description = "Scenario id"), ("n" = i64, Path, description = "Revision number")),
    responses(
        (status = 200, description = "The Scenario of that revision, with `id`", body = Scenario),
        (status = 404, description = "No such scenario or revision", body = ErrorBody),
    )
)]
pub async fn revision(
    State(state): State<AppState>,
    user: CurrentUser,
    ids: Result<Path<(String, String)>, PathRejection>,
) -> Result<Json<Scenario>, ApiError> {
    let (id, n) = revision_ids(ids)?;
    visible(&state, &user, id).await?;
    match store::get_revision(&state.db, id, n).await {
        Ok(s) => Ok(Json(s)),
        Err(e) => Err(missing_revision(&state, &user, id, n, e).await),
    }
}

/// Which revision a diff starts from.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DiffQuery {
    /// The revision to compare with (default: the one before `n`).
    #[param(maximum = 9_007_199_254_740_991_i64, minimum = 1)]
    pub base: Option<i64>,
}

/// What changed between two revisions.
#[derive(Debug, Serialize, ToSchema)]
pub struct RevisionDiff {
    /// The revision compared with; null for the first revision, which has none before it.
    pub from: Option<i64>,
    pub to: i64,
    /// Every input that differs, by its path in the scenario's JSON.
    pub changes: Vec<crate::engine::scenario_diff::Change>,
}

/// What changed in revision `n`: every input that differs from the revision before it
/// (or from `?base=m`), with its value before and after.
#[utoipa::path(
    get, path = "/api/v1/scenarios/{id}/revisions/{n}/diff", tag = "scenarios", operation_id = "diff_revision",
    params(("id" = i64, Path, description = "Scenario id"), ("n" = i64, Path, description = "Revision number"), DiffQuery),
    responses(
        (status = 200, description = "`from`, `to` and the `changes` (`field`, `before`, `after`)", body = RevisionDiff),
        (status = 400, description = "Malformed query string", body = ErrorBody),
        (status = 404, description = "No such scenario or revision", body = ErrorBody),
    )
)]
pub async fn revision_diff(
    State(state): State<AppState>,
    user: CurrentUser,
    ids: Result<Path<(String, String)>, PathRejection>,
    q: Result<Query<DiffQuery>, QueryRejection>,
) -> Result<Json<RevisionDiff>, ApiError> {
    let (id, n) = revision_ids(ids)?;
    let Query(q) = q.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    visible(&state, &user, id).await?;
    let to = match store::get_revision(&state.db, id, n).await {
        Ok(s) => s,
        Err(e) => return Err(missing_revision(&state, &user, id, n, e).await),
    };
    let base = q.base.or_else(|| (n > 1).then_some(n - 1));
    let changes = match base {
        Some(m) => match store::get_revision(&state.db, id, m).await {
            Ok(from) => crate::engine::scenario_diff::diff(&from, &to),
            Err(e) => return Err(missing_revision(&state, &user, id, m, e).await),
        },
        None => Vec::new(),
    };
    Ok(Json(RevisionDiff {
        from: base,
        to: n,
        changes,
    }))
}

/// Makes an old revision the newest one, as a new revision (nothing is overwritten).
#[utoipa::path(
    post, path = "/api/v1/scenarios/{id}/revisions/{n}/restore", tag = "scenarios", operation_id = "restore_revision",
    params(("id" = i64, Path, description = "Scenario id"), ("n" = i64, Path, description = "Revision number")),
    responses(
        (status = 200, description = "Restored as a new revision", body = Saved),
        (status = 404, description = "No such scenario or revision", body = ErrorBody),
    )
)]
pub async fn restore(
    State(state): State<AppState>,
    user: CurrentUser,
    ids: Result<Path<(String, String)>, PathRejection>,
) -> Result<Json<Saved>, ApiError> {
    let (id, n) = revision_ids(ids)?;
    match store::restore_revision_by(&state.db, id, n, actor(&user)).await {
        Ok(revision) => Ok(Json(Saved { id, revision })),
        Err(e) => Err(missing_revision(&state, &user, id, n, e).await),
    }
}
