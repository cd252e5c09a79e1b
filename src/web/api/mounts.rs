//! `POST /api/v1/advise/mounts`: checks a Linux NFS mount plan (contract: "Mount advisor").

use crate::mounts::{self, MountAdvice, MountRequest};
use crate::web::auth::Declare;
use crate::web::error::{ApiError, ApiJson, ErrorBody};
use crate::web::state::AppState;
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(advise_mounts).compute())
}

/// Checks fstab lines and `mount` commands (in mount order) and answers each mount's
/// effective nconnect, the findings and the recommended fstab.
#[utoipa::path(
    post, path = "/api/v1/advise/mounts", tag = "advisor", operation_id = "advise_mounts",
    request_body(content = Object, description = "`{\"text\": \"fstab lines or mount commands\", \"distro\": \"rhel 8.2\" | null, \"workload\": \"eda|web_small|web_large|database|sas_grid|shared_rw\" | null}`"),
    responses(
        (status = 200, description = "`{\"mounts\": [...], \"findings\": [...], \"fstab\": \"...\", \"kernel\": [...]}`", body = Object),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 413, description = "Body over 1 MiB", body = ErrorBody),
        (status = 415, description = "Not sent as application/json", body = ErrorBody),
        (status = 422, description = "Unknown field, unknown workload or distribution, empty or over-long text; `field` names it", body = ErrorBody),
    )
)]
pub async fn advise_mounts(
    ApiJson(req): ApiJson<MountRequest>,
) -> Result<Json<MountAdvice>, ApiError> {
    req.validate()
        .map_err(|e| ApiError::invalid(e.field, e.message))?;
    Ok(Json(mounts::advise(&req)))
}
