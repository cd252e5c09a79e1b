//! `POST /api/v1/estate/optimize`: plan an estate (nothing is saved).

use super::blocking;
use crate::estate::{self, EstateRequest};
use crate::web::auth::Declare;
use crate::web::error::{ApiError, ApiJson, ErrorBody};
use crate::web::state::AppState;
use axum::Json;
use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(optimize).compute())
}

/// Groups the workloads into capacity pools at the least cost, sizes each workload on
/// every service, and follows the estate over its growth.
#[utoipa::path(
    post, path = "/api/v1/estate/optimize", tag = "sizing", operation_id = "estate_optimize",
    request_body(content = Object, description = "`{\"workloads\": [Scenario, ...], \"region\", \"years\": 1..5, \"growth_pct_per_year\": 0..}`; optional `name`, `gcp_region`, `throughput_growth_pct_per_year`, `growth` (per workload: `capacity_pct_per_year`, `throughput_pct_per_year` or `capacity_tib_by_month`), `levels`, `pricing` (`{\"currency\": \"EUR\"}`: priced only from the price book's list in that ISO 4217 currency; USD by default), `discount_pct`, `reservation` (`none`, `1y`, `3y`), `what_if` (`[{\"workload\", \"level\", \"month\"}]`), `migration_threshold_usd_month` (default 100: a re-plan must save more a month), `min_dwell_months` (default 6, 0 to 60: a moved workload stays at least this long; a move the estate would reverse later in the timeline is made only when what it saves until then exceeds two moves, each the threshold times the dwell), `max_pools` (default 25: the account's capacity-pool limit), `resize_every_months` (default 3: pools resize quarterly, for the demand at the end of the quarter)"),
    responses(
        (status = 200, description = "`{\"pools\", \"assignments\", \"timeline\", \"monthly\", \"total\", \"cost_by_year\", \"method\", \"lower_bound\", \"gap_pct\", \"baselines\", \"fit\", \"events\", \"max_pools\", \"excluded\", \"verdict\"}`: `excluded` lists what the totals leave out (`{\"workload\", \"name\", \"reason\", \"detail\"}`, `reason` one of `no_list_price`, `no_host_price` (AVS hosts; their datastores are counted), `no_pool`, `unreachable` (its clients cannot reach its service)); the cost statement of `verdict.statements` names each, with the pool count, the re-plans and the resizes. `assignments[].entered_mibps`: for a workload without a throughput or IOPS target, what its scenario achieves as entered, which the plan keeps (within 1 %). `timeline[]`: `demand_tib` (what the workloads hold, grown) beside `provisioned_tib` (the quotas provisioned for them), `mibps`, `pool_tib`, `pools`, `monthly`, `what_if`. `fit` lists only the services each workload's clients reach (Azure VMs: ANF and Azure Files; Google machine types: GCNV; AVS hosts: ANF)", body = Object),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 413, description = "Body over 1 MiB", body = ErrorBody),
        (status = 415, description = "Not sent as application/json", body = ErrorBody),
        (status = 422, description = "Values fail validation: `errors` lists every wrong field of the request, `field` the first, e.g. `workloads[2].workload.threads`", body = ErrorBody),
    )
)]
pub async fn optimize(
    State(st): State<AppState>,
    ApiJson(req): ApiJson<EstateRequest>,
) -> Result<Json<crate::verdict::estate::JudgedEstate>, ApiError> {
    let book = st.book();
    let answer = blocking("estate", move || {
        estate::optimize(&req, &book).map(|plan| crate::verdict::estate::judge(plan, &req))
    })
    .await??;
    Ok(Json(answer))
}
