//! The activity log: `GET /api/v1/activity`, newest first, one page at a time.

use crate::store::activity::{self, ActivityEvent};
use crate::web::access::actor;
use crate::web::auth::CurrentUser;
use crate::web::auth::Declare;
use crate::web::error::{ApiError, ErrorBody};
use crate::web::state::AppState;
use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list).read_write())
}

/// Events per page unless `?limit=` says otherwise.
pub const DEFAULT_LIMIT: u32 = 50;
/// Most events per page.
pub const MAX_LIMIT: u32 = 500;

/// Which page of the log.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ActivityQuery {
    /// Events per page, 1 to 500 (default 50).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<u32>,
    /// Only events older than the event with this id (the `next_before` of the page before).
    #[param(minimum = 1, maximum = 9_223_372_036_854_775_807_i64)]
    pub before: Option<i64>,
}

/// One page of the log.
#[derive(Debug, Serialize, ToSchema)]
pub struct ActivityPage {
    /// Newest first.
    pub events: Vec<ActivityEvent>,
    /// `before` of the next (older) page; null on the last page.
    pub next_before: Option<i64>,
}

/// Checks the query: the page size and the cursor, or a 4xx naming what to fix.
pub fn page_of(
    query: Result<Query<ActivityQuery>, QueryRejection>,
) -> Result<(u32, Option<i64>), ApiError> {
    let Query(q) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let limit = q.limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::invalid(
            "limit",
            format!("`limit` is events per page: 1 to {MAX_LIMIT}, not {limit}"),
        ));
    }
    if let Some(b) = q.before.filter(|&b| b < 1) {
        return Err(ApiError::invalid(
            "before",
            format!("`before` is an event id, 1 or more, not {b}"),
        ));
    }
    Ok((limit, q.before))
}

/// The page of events the user may see: at most `limit`, older than `before`.
pub async fn page(
    state: &AppState,
    user: &CurrentUser,
    limit: u32,
    before: Option<i64>,
) -> Result<ActivityPage, crate::store::StoreError> {
    // One more than the page tells whether an older page exists.
    let mut events = activity::list_activity(&state.db, actor(user), limit + 1, before).await?;
    let more = events.len() > limit as usize;
    events.truncate(limit as usize);
    let next_before = if more {
        events.last().map(|e| e.id)
    } else {
        None
    };
    Ok(ActivityPage {
        events,
        next_before,
    })
}

/// Who created, changed, restored or deleted what, newest first: only events on
/// objects the user may see.
#[utoipa::path(
    get, path = "/api/v1/activity", tag = "activity", operation_id = "list_activity", params(ActivityQuery),
    responses(
        (status = 200, description = "One page of events, newest first", body = ActivityPage),
        (status = 400, description = "Malformed query string", body = ErrorBody),
        (status = 422, description = "`limit` or `before` out of range", body = ErrorBody),
    )
)]
pub async fn list(
    State(state): State<AppState>,
    user: CurrentUser,
    query: Result<Query<ActivityQuery>, QueryRejection>,
) -> Result<Json<ActivityPage>, ApiError> {
    let (limit, before) = page_of(query)?;
    Ok(Json(page(&state, &user, limit, before).await?))
}
