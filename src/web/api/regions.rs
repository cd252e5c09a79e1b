//! The regions of the price book.

use crate::web::AppState;
use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(regions))
}

/// Every region the price book prices, with its display name and what is priced there
/// (Flexible, cool access, backup, AVS hosts).
#[utoipa::path(
    get, path = "/api/v1/regions", tag = "sizing", operation_id = "regions",
    responses(
        (status = 200, description = "`[{\"region\", \"name\", \"service\", \"features\": {\"flexible\", \"cool_access\", \"backup\", \"avs\"}}]`", body = [Object]),
    )
)]
pub async fn regions(State(st): State<AppState>) -> Response {
    Json(st.book().regions()).into_response()
}
