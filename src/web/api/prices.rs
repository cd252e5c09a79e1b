//! The price book in force over the API: its rows (JSON and CSV), the import of Azure
//! Retail Prices API pages and of price sheets (the user's own prices as CSV) into it.

use crate::prices;
use crate::prices::retail::{self, ImportOutcome};
use crate::prices::rows::{PriceRow, PricedService};
use crate::prices::sheet::SheetOutcome;
use crate::store;
use crate::store::today_utc;
use crate::web::auth::Declare;
use crate::web::error::{ApiError, ApiJson, ErrorBody};
use crate::web::state::AppState;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list).read_write())
        .routes(routes!(csv).read_write())
        .routes(routes!(import).admin_writes())
        .routes(routes!(sheet).admin_writes())
}

/// Which rows to list: both filters are optional and exact.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RowsQuery {
    /// `anf`, `avs`, `azure_files` or `gcnv`; absent = all.
    #[param(value_type = Option<PricedService>, inline)]
    pub service: Option<String>,
    /// An `armRegionName` or GCP region, e.g. `westeurope`; empty = all.
    #[param(max_length = 40)]
    pub region: Option<String>,
}

impl RowsQuery {
    /// The rows of the book in force that the filters keep.
    fn rows(&self, st: &AppState) -> Result<Vec<PriceRow>, ApiError> {
        let max = crate::engine::scenario::MAX_REGION_CHARS;
        for (name, value, max) in [
            ("service", &self.service, 16),
            ("region", &self.region, max),
        ] {
            if value.as_ref().is_some_and(|v| v.chars().count() > max) {
                return Err(ApiError::invalid(
                    name,
                    format!("`{name}` is at most {max} characters"),
                ));
            }
        }
        let service = match self.service.as_deref() {
            None => None,
            Some(s) => Some(PricedService::from_key(s).ok_or_else(|| {
                ApiError::invalid(
                    "service",
                    format!("`{s}` is not a priced service; use anf, avs, azure_files or gcnv"),
                )
            })?),
        };
        let region = self
            .region
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty());

        Ok(st
            .book()
            .rows()
            .into_iter()
            .filter(|r| service.is_none_or(|s| r.service == s))
            .filter(|r| region.is_none_or(|g| r.region == g))
            .collect())
    }
}

fn rows_query(q: Result<Query<RowsQuery>, QueryRejection>) -> Result<RowsQuery, ApiError> {
    q.map(|Query(q)| q)
        .map_err(|e| ApiError::BadRequest(e.body_text()))
}

/// The price book rows in force: the compiled book with the prices stored in the
/// database (imported or entered), each with its unit, date and source.
#[utoipa::path(
    get, path = "/api/v1/prices", tag = "prices", operation_id = "list_prices", params(RowsQuery),
    responses(
        (status = 200, description = "Rows by service, region and item; `stored` marks the prices from the database", body = [PriceRow]),
        (status = 400, description = "Malformed query string", body = ErrorBody),
        (status = 422, description = "Unknown service", body = ErrorBody),
    )
)]
pub async fn list(
    State(st): State<AppState>,
    q: Result<Query<RowsQuery>, QueryRejection>,
) -> Result<Json<Vec<PriceRow>>, ApiError> {
    Ok(Json(rows_query(q)?.rows(&st)?))
}

/// The CSV columns of the price book export.
pub const CSV_COLUMNS: [&str; 12] = [
    "service",
    "region",
    "region_name",
    "item",
    "label",
    "unit",
    "price",
    "currency",
    "as_of",
    "source",
    "stored",
    "provisional",
];

/// The rows as CSV (free text cannot run as a spreadsheet formula).
pub fn to_csv(rows: &[PriceRow]) -> Result<Vec<u8>, csv::Error> {
    use crate::report::escape::csv as text;
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(CSV_COLUMNS)?;
    for r in rows {
        w.write_record([
            r.service.key().to_owned(),
            text(&r.region),
            text(&r.region_name),
            text(&r.item),
            text(&r.label),
            r.unit.clone(),
            r.price.to_string(),
            r.currency.clone(),
            text(&r.as_of),
            text(&r.source),
            r.stored.to_string(),
            r.provisional.to_string(),
        ])?;
    }
    w.into_inner().map_err(|e| e.into_error().into())
}

/// The price book rows in force as a CSV file (the same filters as `GET /api/v1/prices`).
#[utoipa::path(
    get, path = "/api/v1/prices.csv", tag = "prices", operation_id = "export_prices", params(RowsQuery),
    responses(
        (status = 200, description = "One row per service, region, item and currency: service, region, region_name, item, label, unit, price (in currency), currency, as_of, source, stored, provisional", body = String, content_type = "text/csv"),
        (status = 400, description = "Malformed query string", body = ErrorBody),
        (status = 422, description = "Unknown service", body = ErrorBody),
    )
)]
pub async fn csv(
    State(st): State<AppState>,
    q: Result<Query<RowsQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let rows = rows_query(q)?.rows(&st)?;
    let body = to_csv(&rows).map_err(ApiError::internal)?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"volplan-prices.csv\"",
            ),
        ],
        body,
    )
        .into_response())
}

/// Options of an import.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ImportQuery {
    /// `true` answers what the import would change without storing anything.
    pub dry_run: Option<bool>,
}

/// Imports one Azure Retail Prices API page (`{"Items": [...], "NextPageLink": ...}`)
/// or a merged array of its items: the rows the price book holds (ANF meters, AVS
/// hosts, Azure Files SSD v1) are stored as prices of the database when they are new
/// or changed; the rest is counted as ignored, with the reasons.
#[utoipa::path(
    post, path = "/api/v1/prices/import", tag = "prices", operation_id = "import_prices", params(ImportQuery),
    request_body(content = Object, description = "A Retail Prices API page or an array of its items; fields the documentation does not list are ignored"),
    responses(
        (status = 200, description = "`added`, `changed`, `unchanged` (rows), `ignored` and `refused` (items; `refused_items` says why each price cannot be held), the rows against the book and the book in force after", body = ImportOutcome),
        (status = 400, description = "Malformed JSON or query string", body = ErrorBody),
        (status = 413, description = "Body over 1 MiB", body = ErrorBody),
        (status = 415, description = "Not sent as application/json", body = ErrorBody),
        (status = 422, description = "Not a page, or a malformed item: `field` names it, e.g. `Items[3].retailPrice`", body = ErrorBody),
    )
)]
pub async fn import(
    State(st): State<AppState>,
    user: crate::web::auth::CurrentUser,
    q: Result<Query<ImportQuery>, QueryRejection>,
    ApiJson(doc): ApiJson<serde_json::Value>,
) -> Result<Json<ImportOutcome>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let items = retail::parse(&doc).map_err(|e| ApiError::Invalid {
        field: e.field,
        message: e.message,
    })?;
    let (outcome, book) = store::prices::import(
        &st.db,
        &items,
        "an API upload (POST /api/v1/prices/import)",
        &today_utc(),
        q.dry_run.unwrap_or(false),
        crate::web::access::actor(&user),
    )
    .await?;
    st.prices.replace(book);
    Ok(Json(outcome))
}

/// Content types a price sheet may come with.
pub const SHEET_TYPES: [&str; 3] = ["text/csv", "application/csv", "text/plain"];

/// Stores a price sheet: the user's own prices as CSV, one a line, with the columns
/// `service, level, region, meter, unit, price, currency, valid_as_of, source` (GCNV
/// levels and regions, AVS hosts, negotiated EA or MACC prices). Every line is checked
/// first: a 422 names every bad row with its column (a quote left open, a column named
/// twice, a row of the book priced twice at different prices, a currency outside ISO
/// 4217, a date outside 2015 to two years ahead, ...), and nothing is stored.
/// Prices in another currency than USD price scenarios whose `pricing.currency` is
/// that currency. A Cost Management price sheet export (Enterprise Agreement or
/// Microsoft Customer Agreement columns: `MeterName, MeterCategory, MeterRegion,
/// UnitOfMeasure, UnitPrice, CurrencyCode | currency, EffectiveStartDate, ...`) is read
/// as it comes: its Azure NetApp Files, Azure Files and AVS lines, each dated by its
/// `EffectiveStartDate`; a bad cell is named as `rows[N].<Column>`.
#[utoipa::path(
    post, path = "/api/v1/prices/sheet", tag = "prices", operation_id = "import_price_sheet", params(ImportQuery),
    request_body(content = String, content_type = "text/csv", description = "A header line `service,level,region,meter,unit,price,currency,valid_as_of,source`, then one price a line, e.g. `gcnv,premium,europe-west4,capacity,GiB-hour,0.000411,USD,2026-06-01,quote 117`; or a Cost Management price sheet export (EA or MCA columns) as it comes"),
    responses(
        (status = 200, description = "`added`, `changed` and `unchanged` rows; `stored` and the book in force after", body = SheetOutcome),
        (status = 400, description = "Malformed query string or body", body = ErrorBody),
        (status = 413, description = "Body over 1 MiB", body = ErrorBody),
        (status = 415, description = "Not sent as text/csv", body = ErrorBody),
        (status = 422, description = "Bad rows: `errors` names each with its column, e.g. `rows[3].unit` (row 1 is the first line after the header), or `header`; `field` is the first. A row of the book priced at two prices names both rows; the same price twice is kept once", body = ErrorBody),
    )
)]
pub async fn sheet(
    State(st): State<AppState>,
    user: crate::web::auth::CurrentUser,
    headers: HeaderMap,
    q: Result<Query<ImportQuery>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<SheetOutcome>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let media = crate::web::guard::media_type(&headers);
    if !media.as_deref().is_some_and(|m| SHEET_TYPES.contains(&m)) {
        return Err(ApiError::Refused {
            status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
            message: "send the price sheet as the raw body with `Content-Type: text/csv`"
                .to_owned(),
        });
    }
    let bytes = body.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::Refused {
                status: StatusCode::PAYLOAD_TOO_LARGE,
                message: "the sheet is larger than 1 MiB; split it".to_owned(),
            }
        } else {
            ApiError::BadRequest(format!("cannot read the request body: {}", r.body_text()))
        }
    })?;
    let rows = prices::sheet::parse(&bytes, st.book().hours_per_month, &today_utc())
        .map_err(ApiError::InvalidFields)?;
    let (outcome, book) = store::prices::sheet(
        &st.db,
        rows,
        q.dry_run.unwrap_or(false),
        crate::web::access::actor(&user),
    )
    .await?;
    st.prices.replace(book);
    Ok(Json(outcome))
}
