//! API tokens for admins: `GET /api/v1/tokens`, `POST /api/v1/tokens` (the token is
//! in the answer, once) and `DELETE /api/v1/tokens/{name}`, as `volplan tokens` does.

use crate::store::StoreError;
use crate::store::tokens::{self, Created};
use crate::store::users::name_problem;
use crate::web::auth::Declare;
use crate::web::auth::secret::{digest, new_api_token};
use crate::web::error::{ApiError, ApiJson, ErrorBody};
use crate::web::state::AppState;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create).admin())
        .routes(routes!(revoke).admin())
}

/// A token as listed: never its secret.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ListedToken {
    pub name: String,
    /// The user it acts as.
    pub user: String,
    /// That user's role now.
    pub role: String,
    pub created_at: String,
}

/// Body of `POST /api/v1/tokens`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    /// 1 to 64 letters, digits, `.`, `_`, `-` or `@`; unique.
    #[schema(min_length = 1, max_length = 64)]
    pub name: String,
    /// The user the token acts as (a user name: 1 to 64 of the same characters).
    #[schema(min_length = 1, max_length = 64)]
    pub user: String,
}

/// Answer of `POST /api/v1/tokens`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CreatedToken {
    pub name: String,
    pub user: String,
    /// The secret, shown only in this answer: send it as `Authorization: Bearer TOKEN`.
    pub token: String,
}

/// Every API token (admin only).
#[utoipa::path(
    get, path = "/api/v1/tokens", tag = "accounts", operation_id = "list_tokens",
    responses(
        (status = 200, description = "The tokens by name", body = [ListedToken]),
        (status = 401, description = "No credentials", body = ErrorBody),
        (status = 403, description = "Not an admin", body = ErrorBody),
    )
)]
pub async fn list(State(st): State<AppState>) -> Result<Json<Vec<ListedToken>>, ApiError> {
    let list = tokens::list_tokens(&st.db).await?;
    Ok(Json(
        list.into_iter()
            .map(|t| ListedToken {
                name: t.name,
                user: t.user,
                role: t.role,
                created_at: t.created_at,
            })
            .collect(),
    ))
}

/// Creates a token for a user (admin only); the answer holds the secret, once.
#[utoipa::path(
    post, path = "/api/v1/tokens", tag = "accounts", operation_id = "create_token",
    request_body(content = NewToken),
    responses(
        (status = 201, description = "The token, shown only now", body = CreatedToken),
        (status = 401, description = "No credentials", body = ErrorBody),
        (status = 403, description = "Not an admin", body = ErrorBody),
        (status = 409, description = "A token of that name exists", body = ErrorBody),
        (status = 422, description = "A bad name, or no such user (`field` says which)", body = ErrorBody),
    )
)]
pub async fn create(
    State(st): State<AppState>,
    ApiJson(req): ApiJson<NewToken>,
) -> Result<(StatusCode, Json<CreatedToken>), ApiError> {
    if let Some(problem) = name_problem("the token name", &req.name) {
        return Err(ApiError::invalid("name", problem));
    }
    if let Some(problem) = name_problem("the user name", &req.user) {
        return Err(ApiError::invalid("user", problem));
    }
    let token = new_api_token().map_err(ApiError::internal)?;
    match tokens::create_token(&st.db, &req.name, &req.user, &digest(&token)).await? {
        Created::Created => Ok((
            StatusCode::CREATED,
            Json(CreatedToken {
                name: req.name,
                user: req.user,
                token,
            }),
        )),
        Created::NameTaken => Err(ApiError::Refused {
            status: StatusCode::CONFLICT,
            message: format!(
                "there is already a token `{}`; revoke it first or pick another name",
                req.name
            ),
        }),
        Created::NoUser => Err(ApiError::invalid(
            "user",
            format!(
                "there is no user `{}`; add it with `volplan users add`",
                req.user
            ),
        )),
    }
}

/// Revokes a token (admin only): requests with it get 401 from now on.
#[utoipa::path(
    delete, path = "/api/v1/tokens/{name}", tag = "accounts", operation_id = "revoke_token",
    params(("name" = String, Path, max_length = 64, description = "Token name")),
    responses(
        (status = 204, description = "Revoked"),
        (status = 401, description = "No credentials", body = ErrorBody),
        (status = 403, description = "Not an admin", body = ErrorBody),
        (status = 404, description = "No token of that name", body = ErrorBody),
    )
)]
pub async fn revoke(
    State(st): State<AppState>,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    match tokens::revoke_token(&st.db, &name).await {
        Ok(()) => Ok(StatusCode::NO_CONTENT),
        Err(StoreError::NotFound) => Err(ApiError::NotFound(format!(
            "there is no token `{}`",
            name.chars()
                .filter(|c| !c.is_control())
                .take(100)
                .collect::<String>()
        ))),
        Err(e) => Err(e.into()),
    }
}
