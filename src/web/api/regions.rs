//! The regions of the price book.

use crate::engine::pricing::RegionInfo;
use crate::web::auth::Declare;
use crate::web::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(regions).read_write())
}

/// Every region the price book prices, with its display name, what is priced there
/// (Flexible, cool access, backup, AVS hosts) and what the service offers there (the
/// ANF region map's data: Flexible, large volumes, breakthrough mode, cool access, AVS
/// datastores, replication partner regions; null for a region the data does not list).
#[utoipa::path(
    get, path = "/api/v1/regions", tag = "sizing", operation_id = "regions",
    responses(
        (status = 200, description = "`[{\"region\", \"name\", \"service\", \"features\": {\"flexible\", \"cool_access\", \"backup\", \"avs\"}, \"offered\": {\"flexible\", \"large_volumes\", \"breakthrough\", \"cool_access\", \"avs_datastore\", \"replication_regions\", \"as_of\"} | null}]`", body = [RegionInfo]),
    )
)]
pub async fn regions(State(st): State<AppState>) -> Response {
    Json(st.book().regions()).into_response()
}
