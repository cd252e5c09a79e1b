//! AVS from the inventory: import an RVTools (or Live Optics, or CSV) export, and plan
//! the hosts, the datastore layout and the TCO from it.
//!
//! The inventory is sent as the raw request body (at most 32 MiB) with a content type an
//! HTML form cannot send, as for benchmark results.

use super::blocking;
use crate::avs::{self, PlanRequest};
use crate::inventory::{self, Inventory, Options};
use crate::web::auth::Declare;
use crate::web::error::{ApiError, ApiJson, ErrorBody};
use crate::web::limits::AVS_BODY_LIMIT;
use crate::web::state::AppState;
use crate::web::uploads::Uploader;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{HeaderMap, StatusCode};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(import).compute())
        .routes(routes!(performance).compute())
        .routes(routes!(plan).compute())
        .layer(DefaultBodyLimit::max(AVS_BODY_LIMIT))
}

/// Content types an inventory may come with.
pub const INVENTORY_TYPES: [&str; 4] = [
    "application/octet-stream",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "text/csv",
    "application/csv",
];

/// Choices of an import.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ImportQuery {
    /// Keep powered-off VMs (default: left out, with the reason).
    pub include_powered_off: Option<bool>,
    /// Replace VM, host, cluster and datastore names with neutral stand-ins.
    pub anonymise: Option<bool>,
    /// Where a performance sheet has several samples per VM, the percentile of them
    /// each VM takes: 1 to 100, default 95.
    #[param(minimum = 1, maximum = 100)]
    pub percentile: Option<u32>,
}

/// The raw body; a content type other than [`INVENTORY_TYPES`] is a 415.
fn raw(headers: &HeaderMap, body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    let media = crate::web::guard::media_type(headers);
    if !media
        .as_deref()
        .is_some_and(|m| INVENTORY_TYPES.contains(&m))
    {
        return Err(ApiError::Refused {
            status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
            message: "send the inventory file as the raw body with `Content-Type: application/octet-stream` \
                      (or text/csv, or the xlsx media type)"
                .to_owned(),
        });
    }
    body.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::Refused {
                status: StatusCode::PAYLOAD_TOO_LARGE,
                message: format!(
                    "the inventory is larger than {} MiB; export one vCenter or cluster at a time",
                    AVS_BODY_LIMIT >> 20
                ),
            }
        } else {
            ApiError::BadRequest(format!("cannot read the request body: {}", r.body_text()))
        }
    })
}

fn invalid(e: inventory::InventoryError) -> ApiError {
    if let Some(figures) = e.figures {
        return ApiError::InvalidFields(figures);
    }
    ApiError::Invalid {
        field: e.field(),
        message: e.message,
    }
}

/// Reads an RVTools export (xlsx, or its `vInfo` CSV), a Live Optics workbook or a CSV
/// of VMs (VM, provisioned and used MiB, optional IOPS and MiB/s).
#[utoipa::path(
    post, path = "/api/v1/avs/inventory", tag = "avs", operation_id = "avs_inventory", params(ImportQuery),
    request_body(content = String, content_type = "application/octet-stream", description = "The raw inventory file"),
    responses(
        (status = 200, description = "`{\"vms\": [...], \"excluded\": [{\"vm\", \"reason\"}], \"summary\": {...}}`", body = Inventory),
        (status = 413, description = "Body over 32 MiB", body = ErrorBody),
        (status = 415, description = "Not sent as a raw file", body = ErrorBody),
        (status = 422, description = "Not an inventory: `field` names the sheet and column expected, e.g. `vInfo.VM`; figures out of range (NaN, infinite, negative, absurd): `errors` lists every one, each naming sheet and column as `field` and row, VM and range in its message; or a file over a limit (more than 4,000,000 cells read, a part too large), named in the message", body = ErrorBody),
        (status = 429, description = "This client already has an upload being read; `Retry-After` says when to try again", body = ErrorBody),
        (status = 503, description = "Every upload slot busy for 20 s, or the file took over 10 s to read; `Retry-After` says when to try again", body = ErrorBody),
    )
)]
pub async fn import(
    State(st): State<AppState>,
    who: Uploader,
    headers: HeaderMap,
    q: Result<Query<ImportQuery>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Inventory>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let bytes = raw(&headers, body)?;
    let opts = Options {
        include_powered_off: q.include_powered_off.unwrap_or(false),
        anonymise: q.anonymise.unwrap_or(false),
        percentile: Some(inventory::perf::chosen(q.percentile)?),
    };
    let inv = who
        .parse(&st, "inventory import", move || {
            inventory::parse(&bytes, opts)
        })
        .await?
        .map_err(invalid)?;
    Ok(Json(inv))
}

/// An inventory and a performance file to add to it.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PerformanceRequest {
    pub inventory: Inventory,
    /// The performance CSV's text: `VM`, `IOPS`, `MiB/s` columns (Live Optics names too);
    /// as long as the body may be.
    #[schema(max_length = 33554432)]
    pub csv: String,
    /// Where the CSV has several rows (samples) per VM, the percentile of them each VM
    /// takes: 1 to 100, default 95.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 100)]
    pub percentile: Option<u32>,
}

/// Adds per-VM IOPS and MiB/s from a CSV to an imported inventory.
#[utoipa::path(
    post, path = "/api/v1/avs/performance", tag = "avs", operation_id = "avs_performance",
    request_body(content = PerformanceRequest),
    responses(
        (status = 200, description = "The inventory with the VMs' figures set", body = Inventory),
        (status = 422, description = "The CSV lacks a VM or IOPS/MiB/s column, or figures of the CSV or the inventory are out of range: `errors` lists every one", body = ErrorBody),
        (status = 429, description = "This client already has an upload being read; `Retry-After` says when to try again", body = ErrorBody),
        (status = 503, description = "Every upload slot busy for 20 s, or the file took over 10 s to read; `Retry-After` says when to try again", body = ErrorBody),
    )
)]
pub async fn performance(
    State(st): State<AppState>,
    who: Uploader,
    ApiJson(req): ApiJson<PerformanceRequest>,
) -> Result<Json<Inventory>, ApiError> {
    req.inventory.check_text()?;
    inventory::plausible::check(&req.inventory)?;
    let pct = inventory::perf::chosen(req.percentile)?;
    let inv = who
        .parse(&st, "performance import", move || {
            let mut inv = req.inventory;
            inventory::perf::merge(&mut inv, req.csv.as_bytes(), pct).map(|()| inv)
        })
        .await?
        .map_err(invalid)?;
    Ok(Json(inv))
}

/// Plans the inventory: vSAN-only and ANF-datastore host counts, the datastore layout
/// (each cluster's evaluated by the engine) and the 1/3/5-year TCO.
#[utoipa::path(
    post, path = "/api/v1/avs/plan", tag = "avs", operation_id = "avs_plan",
    request_body(content = PlanRequest),
    responses(
        (status = 200, description = "`{\"datastores\", \"placement\": [{\"vm\", \"datastore\"}], \"evaluation\": Evaluation, \"tco\": {\"vsan_only\", \"with_anf\"}, ..., \"verdict\"}`: the verdict says which option is cheaper at each purchase term, the break-even, and the headline at the request's `term`", body = crate::verdict::avs::JudgedPlan),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 422, description = "Values fail validation: `errors` lists every one (host SKU and region with did-you-mean, every inventory figure out of range), `field` the first", body = ErrorBody),
    )
)]
pub async fn plan(
    State(st): State<AppState>,
    ApiJson(req): ApiJson<PlanRequest>,
) -> Result<Json<crate::verdict::avs::JudgedPlan>, ApiError> {
    let book = st.book();
    let term = req.term;
    let plan = blocking("plan", move || avs::plan(&req, &book)).await??;
    Ok(Json(crate::verdict::avs::judge(plan, term)))
}
