//! Infrastructure as code: a saved scenario, a saved estate or an AVS plan exported as
//! Terraform, Bicep, `az` or `gcloud` commands, and code (Terraform HCL, `terraform
//! show -json`, an ARM deployment) evaluated with its verdict.

use super::{blocking, not_found_as, scenario_id_and, visible};
use crate::avs::{self, PlanRequest};
use crate::iac::{self, Format, evaluate::Refused, layout};
use crate::store::{self, StoreError};
use crate::web::access::actor;
use crate::web::auth::{CurrentUser, Declare};
use crate::web::error::{ApiError, ApiJson, ErrorBody};
use crate::web::limits::{AVS_BODY_LIMIT, IAC_BODY_LIMIT};
use crate::web::state::AppState;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(scenario_export).read_write())
        .routes(routes!(estate_export).read_write())
        .merge(
            OpenApiRouter::new()
                .routes(routes!(evaluate).compute())
                .layer(DefaultBodyLimit::max(IAC_BODY_LIMIT)),
        )
        .merge(
            OpenApiRouter::new()
                .routes(routes!(avs_export).compute())
                .layer(DefaultBodyLimit::max(AVS_BODY_LIMIT)),
        )
}

fn format(raw: &str) -> Result<Format, ApiError> {
    Format::parse(raw).ok_or_else(|| {
        ApiError::NotFound(format!(
            "no export format {:?}: use terraform, bicep, azcli or gcloud",
            raw.chars().take(40).collect::<String>()
        ))
    })
}

/// The code (with the plan's name) as a text/plain download named after the plan.
fn code(
    f: Format,
    named: Result<(String, String), iac::ExportError>,
) -> Result<Response, ApiError> {
    let (name, text) = named.map_err(|e| ApiError::invalid("format", e.0))?;
    let file = format!("{}.{}", layout::name(&name, 60), f.ext());
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// A saved scenario's newest revision as code.
#[utoipa::path(
    get, path = "/api/v1/scenarios/{id}/export/{format}", tag = "iac", operation_id = "export_scenario",
    params(("id" = i64, Path, description = "Scenario id"), ("format" = String, Path, description = "`terraform`, `bicep`, `azcli` or `gcloud`", pattern = "^(terraform|bicep|azcli|gcloud)$")),
    responses(
        (status = 200, description = "The code (text/plain): the scenario's pool and volumes, each manual-QoS volume's throughput, variables for the resource group and network, comments citing the revision", body = String, content_type = "text/plain"),
        (status = 404, description = "No such scenario or format", body = ErrorBody),
        (status = 422, description = "The format cannot hold this plan (Azure Files; Flexible in Bicep; a GCNV pool in Bicep or az, an ANF pool in gcloud): the message says which format to use", body = ErrorBody),
    )
)]
pub async fn scenario_export(
    State(state): State<AppState>,
    user: CurrentUser,
    ids: Result<Path<(String, String)>, PathRejection>,
) -> Result<Response, ApiError> {
    let (id, raw) = scenario_id_and(ids)?;
    let f = format(&raw)?;
    visible(&state, &user, id).await?;
    let stored = store::get_scenario(&state.db, id)
        .await
        .map_err(not_found_as(id))?;
    let source = format!("saved scenario {id}, revision {}", stored.revision);
    let s = stored.scenario;
    let book = state.book();
    let text = blocking("export", move || {
        layout::of_scenario(&s, &source, &book)
            .and_then(|l| iac::export(&l, f).map(|t| (l.name, t)))
    })
    .await?;
    code(f, text)
}

/// A saved estate's newest revision, planned with the price book in force, as code.
#[utoipa::path(
    get, path = "/api/v1/estates/{id}/export/{format}", tag = "iac", operation_id = "export_estate",
    params(("id" = i64, Path, description = "Estate id"), ("format" = String, Path, description = "`terraform`, `bicep`, `azcli` or `gcloud`", pattern = "^(terraform|bicep|azcli|gcloud)$")),
    responses(
        (status = 200, description = "The code (text/plain): the plan's ANF pools with every workload's volumes, a storage pool per GCNV workload; what it leaves out is named in its first comments", body = String, content_type = "text/plain"),
        (status = 404, description = "No such estate or format", body = ErrorBody),
        (status = 422, description = "The format cannot hold this plan, or the estate no longer plans: the message says what to change", body = ErrorBody),
    )
)]
pub async fn estate_export(
    State(state): State<AppState>,
    user: CurrentUser,
    ids: Result<Path<(String, String)>, PathRejection>,
) -> Result<Response, ApiError> {
    let Path((raw_id, raw)) = ids.map_err(|e| ApiError::NotFound(e.body_text()))?;
    let missing = || {
        ApiError::NotFound(format!(
            "no estate {}",
            raw_id.chars().take(40).collect::<String>()
        ))
    };
    let id: i64 = raw_id.parse().map_err(|_| missing())?;
    let f = format(&raw)?;
    let by = actor(&user);
    let stored = match store::estates::get_estate(&state.db, id, by).await {
        Err(StoreError::NotFound) => return Err(missing()),
        other => other?,
    };
    let source = format!("saved estate {id}, revision {}", stored.revision);
    let book = state.book();
    let req = stored.request;
    let text = blocking("export", move || {
        let plan =
            crate::estate::optimize(&req, &book).map_err(|e| iac::ExportError(e.to_string()))?;
        layout::of_estate(&plan, &req, &source, &book)
            .and_then(|l| iac::export(&l, f).map(|t| (l.name, t)))
    })
    .await?;
    code(f, text)
}

/// An AVS plan (the body of `POST /api/v1/avs/plan`) as code: a pool per cluster, its
/// datastores as planned, each attached to its cluster.
#[utoipa::path(
    post, path = "/api/v1/avs/plan/export/{format}", tag = "iac", operation_id = "export_avs_plan",
    params(("format" = String, Path, description = "`terraform`, `bicep` or `azcli`", pattern = "^(terraform|bicep|azcli|gcloud)$")),
    request_body(content = PlanRequest),
    responses(
        (status = 200, description = "The code (text/plain); Terraform attaches each datastore with `azurerm_vmware_netapp_volume_attachment`, az with `az vmware datastore netapp-volume create`", body = String, content_type = "text/plain"),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 404, description = "No such format", body = ErrorBody),
        (status = 422, description = "The plan request fails validation (`errors` lists every field), or the format cannot hold the plan", body = ErrorBody),
    )
)]
pub async fn avs_export(
    State(state): State<AppState>,
    raw: Result<Path<String>, PathRejection>,
    ApiJson(req): ApiJson<PlanRequest>,
) -> Result<Response, ApiError> {
    let Path(raw) = raw.map_err(|e| ApiError::NotFound(e.body_text()))?;
    let f = format(&raw)?;
    let book = state.book();
    let plan = blocking("plan", move || avs::plan(&req, &book)).await??;
    let book = state.book();
    let text = blocking("export", move || {
        layout::of_avs(&plan, "AVS datastores", "an AVS plan", &book)
            .and_then(|l| iac::export(&l, f))
    })
    .await?;
    code(f, text.map(|t| ("AVS datastores".to_owned(), t)))
}

/// Choices of an evaluation of code.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EvaluateQuery {
    /// A monthly cost ceiling: the answer's `over_budget` and last statement compare
    /// the code's cost with it.
    pub max_monthly: Option<f64>,
    /// The monthly cost of the code before the change (the `monthly` of its answer):
    /// the answer's `growth` and last statement compare the code's cost with it.
    pub baseline_monthly: Option<f64>,
    /// With `baseline_monthly`: the largest allowed increase, %; `growth.over` is true
    /// above it.
    pub max_increase_pct: Option<f64>,
}

impl EvaluateQuery {
    /// Every choice in range: a ceiling above 0, a baseline of 0 or more, an increase
    /// of 0 % or more with a baseline.
    fn check(&self) -> Result<(), ApiError> {
        let bad = |field: &str, what: &str, v: f64| {
            Err(ApiError::invalid(
                field,
                format!("`{field}` is {what}, not {v}"),
            ))
        };
        if let Some(m) = self.max_monthly.filter(|m| !(m.is_finite() && *m > 0.0)) {
            return bad("max_monthly", "a monthly cost above 0", m);
        }
        if let Some(b) = self
            .baseline_monthly
            .filter(|b| !(b.is_finite() && *b >= 0.0))
        {
            return bad("baseline_monthly", "a monthly cost of 0 or more", b);
        }
        if let Some(p) = self
            .max_increase_pct
            .filter(|p| !(p.is_finite() && *p >= 0.0))
        {
            return bad("max_increase_pct", "a percentage of 0 or more", p);
        }
        if self.max_increase_pct.is_some() && self.baseline_monthly.is_none() {
            return Err(ApiError::invalid(
                "max_increase_pct",
                "`max_increase_pct` needs `baseline_monthly`, the monthly cost it is an increase over",
            ));
        }
        Ok(())
    }
}

/// Reads Terraform HCL, `terraform show -json` or an ARM deployment and answers with
/// the scenarios it describes, each evaluated with its verdict.
#[utoipa::path(
    post, path = "/api/v1/iac/evaluate", tag = "iac", operation_id = "iac_evaluate", params(EvaluateQuery),
    request_body(content = String, content_type = "application/octet-stream", description = "Terraform HCL, `terraform show -json` output or an ARM deployment JSON (also as application/json)"),
    responses(
        (status = 200, description = "`{\"scenarios\": [Scenario], \"evaluations\": [Evaluation with verdict], \"estate\": EstateRequest | null, \"statements\", \"met\", \"monthly\", \"over_budget\", \"growth\"}`: one scenario per pool, evaluated for the workload in its `volplan-workload` tag (or the default workload); `growth` compares the cost with `baseline_monthly` when given", body = crate::iac::evaluate::Answer),
        (status = 400, description = "The body is not text", body = ErrorBody),
        (status = 413, description = "Body over 8 MiB", body = ErrorBody),
        (status = 422, description = "More than 200 pools, no NetApp pool found, the code does not parse, or a pool it describes fails validation (`field` under `pools[i]`), or `max_monthly`, `baseline_monthly` or `max_increase_pct` is out of range (`max_increase_pct` needs `baseline_monthly`)", body = ErrorBody),
    )
)]
pub async fn evaluate(
    State(state): State<AppState>,
    q: Result<Query<EvaluateQuery>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<iac::evaluate::Answer>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    q.check()?;
    let bytes = body.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::Refused {
                status: StatusCode::PAYLOAD_TOO_LARGE,
                message: "the code is larger than the body limit; send the NetApp resources only"
                    .to_owned(),
            }
        } else {
            ApiError::BadRequest(format!("cannot read the request body: {}", r.body_text()))
        }
    })?;
    let text = String::from_utf8(bytes.to_vec()).map_err(|_| {
        ApiError::BadRequest("the body is not UTF-8 text: send the code as it is".to_owned())
    })?;
    let book = state.book();
    let answer = blocking("iac evaluation", move || {
        iac::evaluate::check(&text, &book, q.max_monthly).map(|mut a| {
            if q.baseline_monthly.is_some() {
                a.grown(q.baseline_monthly, q.max_increase_pct);
            }
            a
        })
    })
    .await?;
    match answer {
        Ok(a) => Ok(Json(a)),
        Err(Refused::Unreadable(m)) => Err(ApiError::invalid("body", m)),
        Err(Refused::Invalid(e)) => Err(ApiError::InvalidFields(e)),
    }
}
