//! Benchmark results: parse a fio, DiskSpd or elbencho file, attach it to a saved scenario
//! with its comparison against the prediction, start a scenario from it, and download the
//! test plan that verifies a scenario.
//!
//! Result files are sent as the raw request body (at most 1 MiB) with the content type
//! `application/octet-stream`, `application/json`, `application/xml`, `text/xml` or
//! `text/csv`: never one an HTML form can send, so a page on another site cannot upload.

use super::{blocking, not_found_as, scenario_id, scenario_id_and, visible};
use crate::engine::Scenario;
use crate::engine::evaluation::CalibrationNote;
use crate::engine::pricing::PriceBook;
use crate::measure::testplan::{self, PlanTool};
use crate::measure::{self, Format, Measurement, ParsedResult};
use crate::store::measurements::{self as stored, StoredMeasurement};
use crate::store::{self, StoreError};
use crate::verdict::measured::{self, Comparison};
use crate::web::auth::CurrentUser;
use crate::web::auth::Declare;
use crate::web::error::{ApiError, ErrorBody};
use crate::web::state::AppState;
use crate::web::uploads::Uploader;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(parse).compute())
        .routes(routes!(scenario_from_result).compute())
        .routes(routes!(list, add).read_write())
        .routes(routes!(remove).read_write())
        .routes(routes!(scenario_from_stored).read_write())
        .routes(routes!(testplan).read_write())
}

/// Content types a result file may come with.
pub const RESULT_TYPES: [&str; 5] = [
    "application/octet-stream",
    "application/json",
    "application/xml",
    "text/xml",
    "text/csv",
];

/// The request body as bytes; over the limit is a 413 with the contract's body, a
/// content type other than [`RESULT_TYPES`] a 415.
fn body_bytes(headers: &HeaderMap, body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    let media = crate::web::guard::media_type(headers);
    if !media.as_deref().is_some_and(|m| RESULT_TYPES.contains(&m)) {
        return Err(ApiError::Refused {
            status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
            message: format!(
                "send the result file as the raw body with `Content-Type: application/octet-stream` \
                 (or application/json, application/xml, text/xml, text/csv), not {}",
                media.map_or_else(
                    || "without a content type".to_owned(),
                    |m| format!("`{}`", m.chars().take(60).collect::<String>())
                )
            ),
        });
    }
    body.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::PayloadTooLarge
        } else {
            ApiError::BadRequest(format!("cannot read the request body: {}", r.body_text()))
        }
    })
}

/// The files of a body that carries several result files of one test (one per client
/// machine, as the generated test plan writes them): `{"files": ["<file 1>", ...]}` as
/// application/json. `None` for any other body (a result file itself: a fio JSON has
/// no such key).
fn several(bytes: &[u8]) -> Option<Vec<String>> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Several {
        files: Vec<String>,
    }
    serde_json::from_slice::<Several>(bytes)
        .ok()
        .map(|s| s.files)
}

/// Parses a result file, or the per-client files of one test added up as `volplan
/// import` adds them ([`several`]), in the upload pool; a file that is not a result is a
/// 422.
async fn parse_body(st: &AppState, who: &Uploader, bytes: Bytes) -> Result<ParsedResult, ApiError> {
    who.parse(st, "result file", move || match several(&bytes) {
        Some(files) => {
            let refs: Vec<&[u8]> = files.iter().map(String::as_bytes).collect();
            measure::parse_many(&refs)
        }
        None => measure::parse(&bytes),
    })
    .await?
    .map_err(|e| match e {
        measure::ImportError::OutOfRange { errors, .. } => ApiError::InvalidFields(errors),
        e => ApiError::Invalid {
            field: e.field(),
            message: e.to_string(),
        },
    })
}

/// Parses `{id}` and `{mid}` of a run's URL; with them, the 404 for a run the scenario
/// does not have (a `{mid}` that is not a number is one).
fn run_ids(
    raw: Result<Path<(String, String)>, PathRejection>,
) -> Result<(i64, i64, impl Fn() -> ApiError), ApiError> {
    let (id, mid) = scenario_id_and(raw)?;
    let parsed = mid.parse::<i64>();
    let missing = move || ApiError::NotFound(format!("scenario {id} has no measurement {mid}"));
    let mid = parsed.map_err(|_| missing())?;
    Ok((id, mid, missing))
}

/// Parses a benchmark result file without saving it.
#[utoipa::path(
    post, path = "/api/v1/measurements/parse", tag = "measurements", operation_id = "parse_result",
    request_body(content = String, content_type = "application/octet-stream",
        description = "The raw result file: fio JSON (--output-format=json), DiskSpd XML (-Rxml) or elbencho CSV (--csvfile)"),
    responses(
        (status = 200, description = "The runs in the file and what the importer noted", body = ParsedResult),
        (status = 413, description = "Body over 1 MiB", body = ErrorBody),
        (status = 422, description = "Not a result file: the formats expected and the first problem", body = ErrorBody),
        (status = 429, description = "This client already has an upload being read; `Retry-After` says when to try again", body = ErrorBody),
        (status = 503, description = "Every upload slot busy for 20 s, or the file took over 10 s to read; `Retry-After` says when to try again", body = ErrorBody),
    )
)]
pub async fn parse(
    State(state): State<AppState>,
    who: Uploader,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<ParsedResult>, ApiError> {
    let bytes = body_bytes(&headers, body)?;
    Ok(Json(parse_body(&state, &who, bytes).await?))
}

/// Query of "new scenario from this result".
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct FromResultQuery {
    /// Index of the run in the file (0 = first).
    pub run: Option<usize>,
    /// Id of a saved scenario whose storage and clients to keep.
    pub base: Option<i64>,
}

/// A new Scenario whose workload is a measured run (IO size, mix, concurrency, clients),
/// with the measured figures as targets; nothing is saved.
#[utoipa::path(
    post, path = "/api/v1/measurements/scenario", tag = "measurements", operation_id = "scenario_from_result", params(FromResultQuery),
    request_body(content = String, content_type = "application/octet-stream", description = "The raw result file"),
    responses(
        (status = 200, description = "A Scenario (contract: Scenario JSON), ready to save or evaluate", body = Scenario),
        (status = 404, description = "No scenario with the `base` id", body = ErrorBody),
        (status = 422, description = "Not a result file, or no run with that index", body = ErrorBody),
        (status = 429, description = "This client already has an upload being read; `Retry-After` says when to try again", body = ErrorBody),
        (status = 503, description = "Every upload slot busy for 20 s, or the file took over 10 s to read; `Retry-After` says when to try again", body = ErrorBody),
    )
)]
pub async fn scenario_from_result(
    State(state): State<AppState>,
    user: CurrentUser,
    who: Uploader,
    query: Result<Query<FromResultQuery>, QueryRejection>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Scenario>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::invalid("query", e.body_text()))?;
    let parsed = parse_body(&state, &who, body_bytes(&headers, body)?).await?;
    let run = q.run.unwrap_or(0);
    let m = parsed.measurements.get(run).ok_or_else(|| {
        ApiError::invalid(
            "run",
            format!(
                "the file has {} run(s); `run` counts from 0, so use 0 to {}",
                parsed.measurements.len(),
                parsed.measurements.len().saturating_sub(1)
            ),
        )
    })?;
    let base = match q.base {
        Some(id) => Some({
            visible(&state, &user, id).await?;
            store::get_scenario(&state.db, id)
                .await
                .map_err(not_found_as(id))?
                .scenario
        }),
        None => None,
    };
    Ok(Json(measure::scenario_from(m, base.as_ref())))
}

/// One stored run with its comparison against the prediction.
#[derive(Debug, Serialize, ToSchema)]
pub struct MeasurementView {
    pub id: i64,
    /// The scenario revision the run was uploaded against (and is compared with).
    pub revision: i64,
    pub format: Format,
    pub created_at: String,
    pub measurement: Measurement,
    pub warnings: Vec<String>,
    /// Measured against predicted; null when the scenario cannot be evaluated.
    pub comparison: Option<Comparison>,
    /// Why there is no comparison, when there is none.
    pub comparison_error: Option<String>,
}

/// One run and its comparison, predicted as every page predicts the scenario: with its
/// calibration to its own runs (`note`) when it has one.
fn view(
    s: StoredMeasurement,
    scenario: Option<&Scenario>,
    prices: &PriceBook,
    note: Option<&CalibrationNote>,
) -> MeasurementView {
    let (comparison, comparison_error) = match scenario {
        None => (
            None,
            Some(format!("revision {} of the scenario is gone", s.revision)),
        ),
        Some(sc) => match measured::compare_with(sc, &s.measurement, |v| {
            measure::calibrate::evaluate_as(v, prices, note, false)
        }) {
            Ok(c) => (Some(c), None),
            Err(e) => (None, Some(e.to_string())),
        },
    };
    MeasurementView {
        id: s.id,
        revision: s.revision,
        format: s.format,
        created_at: s.created_at,
        measurement: s.measurement,
        warnings: s.warnings,
        comparison,
        comparison_error,
    }
}

/// Answer of an upload: the runs saved and what the importer noted.
#[derive(Debug, Serialize, ToSchema)]
pub struct Uploaded {
    pub format: Format,
    pub warnings: Vec<String>,
    pub measurements: Vec<MeasurementView>,
}

/// Attaches a result file to a saved scenario: every run is stored with the scenario's
/// current revision and compared with the prediction for its IO size, mix and concurrency.
/// The per-client files of one test (run at the same time, one per client machine) are
/// sent together as `{"files": ["<file 1>", "<file 2>", ...]}` (application/json) and
/// added up into one run per test, as `volplan import` adds several files.
#[utoipa::path(
    post, path = "/api/v1/scenarios/{id}/measurements", tag = "measurements", operation_id = "add_measurements",
    params(("id" = i64, Path, description = "Scenario id")),
    request_body(content = String, content_type = "application/octet-stream", description = "The raw result file, or `{\"files\": [...]}` (application/json): the per-client files of one test, added up into one run"),
    responses(
        (status = 201, description = "The runs saved, each with its comparison", body = Uploaded),
        (status = 404, description = "No such scenario", body = ErrorBody),
        (status = 413, description = "Body over 1 MiB", body = ErrorBody),
        (status = 422, description = "Not a result file: the formats expected and the first problem", body = ErrorBody),
        (status = 429, description = "This client already has an upload being read; `Retry-After` says when to try again", body = ErrorBody),
        (status = 503, description = "Every upload slot busy for 20 s, or the file took over 10 s to read; `Retry-After` says when to try again", body = ErrorBody),
    )
)]
pub async fn add(
    State(state): State<AppState>,
    user: CurrentUser,
    who: Uploader,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let id = scenario_id(id)?;
    visible(&state, &user, id).await?;
    let bytes = body_bytes(&headers, body)?;
    let current = store::get_scenario(&state.db, id)
        .await
        .map_err(not_found_as(id))?;
    let parsed = parse_body(&state, &who, bytes).await?;
    let saved = stored::add_measurements(
        &state.db,
        id,
        parsed.format,
        &parsed.measurements,
        &parsed.warnings,
        crate::web::access::actor(&user),
    )
    .await
    .map_err(not_found_as(id))?;
    let scenario = current.scenario;
    let book = state.book();
    let note = crate::store::calibrations::get_calibration(&state.db, id).await?;
    let views = blocking("comparison", move || {
        saved
            .into_iter()
            .map(|s| view(s, Some(&scenario), &book, note.as_ref()))
            .collect::<Vec<_>>()
    })
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(Uploaded {
            format: parsed.format,
            warnings: parsed.warnings,
            measurements: views,
        }),
    ))
}

/// Runs per page of the list unless `?limit=` says otherwise.
pub const DEFAULT_LIMIT: u32 = 50;
/// Most runs one page of the list may have.
pub const MAX_LIMIT: u32 = 200;

/// Which page of a scenario's runs.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Runs per page, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// Runs to skip, oldest first (default 0).
    #[param(minimum = 0, maximum = 9_223_372_036_854_775_807_i64)]
    pub offset: Option<u64>,
}

/// The runs attached to a scenario, oldest first, one page at a time, each compared with
/// the revision it was uploaded against.
///
/// The body is the page (an array); `X-Total-Count` says how many runs the scenario
/// keeps and `Link` gives the `next` and `prev` pages.
#[utoipa::path(
    get, path = "/api/v1/scenarios/{id}/measurements", tag = "measurements", operation_id = "list_measurements",
    params(("id" = i64, Path, description = "Scenario id"), ListQuery),
    responses(
        (status = 200, description = "One page of the scenario's runs, oldest first", body = [MeasurementView],
         headers(
            ("X-Total-Count" = i64, description = "Runs the scenario keeps in all pages"),
            ("Link" = String, description = "`<url>; rel=\"next\"` and `<url>; rel=\"prev\"` where there are such pages"),
         )),
        (status = 400, description = "Malformed query string", body = ErrorBody),
        (status = 404, description = "No such scenario", body = ErrorBody),
        (status = 422, description = "`limit` or `offset` out of range", body = ErrorBody),
    )
)]
pub async fn list(
    State(state): State<AppState>,
    user: CurrentUser,
    id: Result<Path<String>, PathRejection>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let id = scenario_id(id)?;
    let Query(q) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let (limit, offset) = super::page_bounds(q.limit, q.offset, DEFAULT_LIMIT, MAX_LIMIT, "runs")?;
    visible(&state, &user, id).await?;
    let (rows, total) = stored::page(&state.db, id, limit, offset)
        .await
        .map_err(not_found_as(id))?;
    let runs = stored::with_revisions(&state.db, id, rows)
        .await
        .map_err(not_found_as(id))?;
    let book = state.book();
    let note = crate::store::calibrations::get_calibration(&state.db, id).await?;
    let views = blocking("comparison", move || {
        runs.into_iter()
            .map(|(r, sc)| view(r, sc.as_deref(), &book, note.as_ref()))
            .collect::<Vec<_>>()
    })
    .await?;
    let mut res = Json(views).into_response();
    let path = format!("/api/v1/scenarios/{id}/measurements");
    super::page_headers(res.headers_mut(), &path, "", limit, offset, total);
    Ok(res)
}

/// Removes one run from a scenario.
#[utoipa::path(
    delete, path = "/api/v1/scenarios/{id}/measurements/{mid}", tag = "measurements", operation_id = "delete_measurement",
    params(("id" = i64, Path, description = "Scenario id"), ("mid" = i64, Path, description = "Measurement id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 404, description = "No such scenario or measurement", body = ErrorBody),
    )
)]
pub async fn remove(
    State(state): State<AppState>,
    user: CurrentUser,
    ids: Result<Path<(String, String)>, PathRejection>,
) -> Result<StatusCode, ApiError> {
    let (id, mid, missing) = run_ids(ids)?;
    visible(&state, &user, id).await?;
    stored::delete_measurement(&state.db, id, mid, crate::web::access::actor(&user))
        .await
        .map_err(|e| match e {
            StoreError::NotFound => missing(),
            other => other.into(),
        })?;
    Ok(StatusCode::NO_CONTENT)
}

/// A new Scenario from a stored run: the scenario's current storage and clients with the
/// run's workload and the measured figures as targets; nothing is saved.
#[utoipa::path(
    get, path = "/api/v1/scenarios/{id}/measurements/{mid}/scenario", tag = "measurements", operation_id = "scenario_from_measurement",
    params(("id" = i64, Path, description = "Scenario id"), ("mid" = i64, Path, description = "Measurement id")),
    responses(
        (status = 200, description = "A Scenario (contract: Scenario JSON), ready to save or evaluate", body = Scenario),
        (status = 404, description = "No such scenario or measurement", body = ErrorBody),
    )
)]
pub async fn scenario_from_stored(
    State(state): State<AppState>,
    user: CurrentUser,
    ids: Result<Path<(String, String)>, PathRejection>,
) -> Result<Json<Scenario>, ApiError> {
    let (id, mid, missing) = run_ids(ids)?;
    visible(&state, &user, id).await?;
    let current = store::get_scenario(&state.db, id)
        .await
        .map_err(not_found_as(id))?;
    let run = stored::get(&state.db, id, mid).await.map_err(|e| match e {
        StoreError::NotFound => missing(),
        other => other.into(),
    })?;
    Ok(Json(measure::scenario_from(
        &run.measurement,
        Some(&current.scenario),
    )))
}

/// Query of the test plan download.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PlanQuery {
    /// `fio` (default; Linux, NFS) or `diskspd` (Windows, SMB).
    #[param(inline)]
    pub tool: Option<PlanTool>,
}

/// The benchmark that verifies a saved scenario, as a text file to download.
#[utoipa::path(
    get, path = "/api/v1/scenarios/{id}/testplan", tag = "measurements", operation_id = "testplan", params(PlanQuery,
        ("id" = i64, Path, description = "Scenario id")),
    responses(
        (status = 200, description = "A fio job file or a DiskSpd script, with mount options and how to import the result", body = String, content_type = "text/plain"),
        (status = 404, description = "No such scenario", body = ErrorBody),
        (status = 422, description = "Unknown tool", body = ErrorBody),
    )
)]
pub async fn testplan(
    State(state): State<AppState>,
    user: CurrentUser,
    id: Result<Path<String>, PathRejection>,
    query: Result<Query<PlanQuery>, QueryRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let id = scenario_id(id)?;
    let Query(q) = query.map_err(|e| {
        ApiError::invalid(
            "tool",
            format!("{}; `tool` is fio or diskspd", e.body_text()),
        )
    })?;
    let tool = q.tool.unwrap_or(PlanTool::Fio);
    visible(&state, &user, id).await?;
    let stored = store::get_scenario(&state.db, id)
        .await
        .map_err(not_found_as(id))?;
    let text = blocking("test plan", move || testplan::plan(&stored.scenario, tool)).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}\"", tool.file_name()),
            ),
        ],
        text,
    ))
}
