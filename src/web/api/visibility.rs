//! Who owns a saved scenario and who may see it: `GET` and `PUT
//! /api/v1/scenarios/{id}/visibility`.

use super::{not_found_as, scenario_id};
use crate::store::{self, Ownership, Visibility};
use crate::web::access::{self, actor};
use crate::web::auth::CurrentUser;
use crate::web::auth::Declare;
use crate::web::error::{ApiError, ApiJson, ErrorBody};
use crate::web::state::AppState;
use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(show, change).read_write())
}

/// Body of a visibility change.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VisibilityChange {
    /// `shared` (every user sees it) or `private` (only its owner and admins).
    pub visibility: Visibility,
}

/// Who owns a scenario and who may see it.
#[utoipa::path(
    get, path = "/api/v1/scenarios/{id}/visibility", tag = "scenarios", operation_id = "get_visibility",
    params(("id" = i64, Path, description = "Scenario id")),
    responses(
        (status = 200, description = "The owner (null when created in single-user mode) and the visibility", body = Ownership),
        (status = 404, description = "No such scenario", body = ErrorBody),
    )
)]
pub async fn show(
    State(state): State<AppState>,
    user: CurrentUser,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<Ownership>, ApiError> {
    let id = scenario_id(id)?;
    let ownership = access::scenario(&state.db, &user, id)
        .await
        .map_err(not_found_as(id))?;
    Ok(Json(ownership))
}

/// Makes a scenario private (only its owner and admins see it) or shared (every user
/// sees it). Only its owner and admins may.
#[utoipa::path(
    put, path = "/api/v1/scenarios/{id}/visibility", tag = "scenarios", operation_id = "set_visibility",
    params(("id" = i64, Path, description = "Scenario id")),
    request_body(content = VisibilityChange, example = json!({"visibility": "private"})),
    responses(
        (status = 200, description = "Changed (or already so)", body = Ownership),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 403, description = "Not the scenario's owner or an admin", body = ErrorBody),
        (status = 404, description = "No such scenario", body = ErrorBody),
        (status = 413, description = "Body over 1 MiB", body = ErrorBody),
        (status = 415, description = "Not sent as application/json", body = ErrorBody),
        (status = 422, description = "`visibility` is not shared or private", body = ErrorBody),
    )
)]
pub async fn change(
    State(state): State<AppState>,
    user: CurrentUser,
    id: Result<Path<String>, PathRejection>,
    ApiJson(body): ApiJson<VisibilityChange>,
) -> Result<Json<Ownership>, ApiError> {
    let id = scenario_id(id)?;
    match store::set_visibility(&state.db, id, body.visibility, actor(&user))
        .await
        .map_err(not_found_as(id))?
    {
        Some(ownership) => Ok(Json(ownership)),
        None => Err(ApiError::Refused {
            status: StatusCode::FORBIDDEN,
            message: format!("only the owner of scenario {id} or an admin may change who sees it"),
        }),
    }
}
