//! Report downloads: `GET /scenarios/{id}/report.{html,md,pdf,csv,xlsx,json}` of a saved
//! scenario, and `GET /plan/report.{...}?s=...` of the unsaved inputs a share link holds
//! (what the planner's Download menu offers while the form has unsaved changes).
//!
//! Query options: `compare=ID,ID` adds a comparison with other saved scenarios,
//! `layouts=1,2,4,8` adds a volume-layout sweep, `paper=a4|letter` sets the PDF paper,
//! `edition=customer|engineer` picks who the report is for (customer by default),
//! `download=1` makes the HTML report an attachment (it opens inline otherwise).

use super::page_error::PageError;
use super::render_pool::Turn;
use super::state::AppState;
use crate::engine::pricing::PriceBook;
use crate::engine::{Evaluation, Scenario};
use crate::report::model::{self, Report};
use crate::report::{self, Edition, Format, Paper, RenderOptions};
use crate::store;
use crate::web::access;
use crate::web::auth::CurrentUser;
use crate::web::auth::Declare;
use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;

/// Most scenarios a report compares with.
pub const MAX_COMPARE: usize = 15;
/// Longest `compare` or `layouts` option, in characters.
pub const MAX_OPTION_CHARS: usize = 2000;
/// Longest `download` option, in characters (`1`, `true` or `yes`).
pub const MAX_DOWNLOAD_CHARS: usize = 8;

/// The report routes, one per format.
pub fn router() -> Router<AppState> {
    let mut router = Router::new();
    for format in Format::ALL {
        router = router.route(
            &format!("/scenarios/{{id}}/report.{}", format.ext()),
            get(
                move |State(st): State<AppState>,
                      user: CurrentUser,
                      Path(raw): Path<String>,
                      q: Result<Query<ReportQuery>, QueryRejection>| async move {
                    match q {
                        Ok(Query(q)) => report(st, &user, raw, q, format).await,
                        Err(e) => Err(PageError::BadRequest(format!(
                            "The report options are wrong: {}.",
                            e.body_text()
                        ))),
                    }
                },
            )
            .read_write(),
        );
        router =
            router.route(
                &format!("/plan/report.{}", format.ext()),
                get(
                    move |State(st): State<AppState>,
                          q: Result<Query<ReportQuery>, QueryRejection>| async move {
                        match q {
                            Ok(Query(q)) => unsaved(st, q, format).await,
                            Err(e) => Err(PageError::BadRequest(format!(
                                "The report options are wrong: {}.",
                                e.body_text()
                            ))),
                        }
                    },
                )
                .compute(),
            );
    }
    router
}

/// The report's query options.
#[derive(Debug, Default, Deserialize)]
pub struct ReportQuery {
    /// Comma-separated ids of saved scenarios to compare with.
    pub compare: Option<String>,
    /// Comma-separated volume counts for the layouts section.
    pub layouts: Option<String>,
    /// `a4` (default) or `letter`.
    pub paper: Option<String>,
    /// `customer` (default: no internal ids, paths or commits) or `engineer` (with the
    /// model trace).
    pub edition: Option<String>,
    /// `1` to download the HTML report instead of opening it.
    pub download: Option<String>,
    /// The unsaved scenario as a share link encodes it (`/plan/report.*` only).
    pub s: Option<String>,
}

/// 422: an option the report cannot use, with what to send instead.
fn unprocessable(message: String) -> PageError {
    PageError::Status {
        status: axum::http::StatusCode::UNPROCESSABLE_ENTITY,
        message,
    }
}

/// A scenario id as links write it: digits only (no sign), 1 or more.
fn parse_id(raw: &str) -> Result<i64, PageError> {
    Some(raw)
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|t| t.parse::<i64>().ok())
        .filter(|id| *id > 0)
        .ok_or_else(|| PageError::NotFound(format!("There is no saved scenario with id `{raw}`.")))
}

fn evaluate(
    s: &Scenario,
    prices: &PriceBook,
    calibration: Option<&crate::engine::evaluation::CalibrationNote>,
) -> Result<Evaluation, PageError> {
    crate::measure::calibrate::evaluate(s, prices, calibration).map_err(|e| {
        PageError::BadRequest(format!(
            "The saved scenario \"{}\" does not validate ({e}); open it in the planner and fix it.",
            s.name
        ))
    })
}

/// The 404 of a scenario that does not exist (or that the user may not see).
fn no_scenario(id: i64) -> impl FnOnce(store::StoreError) -> PageError {
    move |e| match e {
        store::StoreError::NotFound => {
            PageError::NotFound(format!("There is no saved scenario with id {id}."))
        }
        other => PageError::from(other),
    }
}

async fn load(st: &AppState, user: &CurrentUser, id: i64) -> Result<Scenario, PageError> {
    let stored = access::stored_scenario(&st.db, user, id)
        .await
        .map_err(no_scenario(id))?;
    let mut scenario = stored.scenario;
    scenario.id = Some(id);
    Ok(scenario)
}

async fn report(
    st: AppState,
    user: &CurrentUser,
    raw: String,
    q: ReportQuery,
    format: Format,
) -> Result<Response, PageError> {
    let id = parse_id(&raw)?;
    for (name, value, max) in [
        ("compare", &q.compare, MAX_OPTION_CHARS),
        ("layouts", &q.layouts, MAX_OPTION_CHARS),
    ] {
        if value.as_ref().is_some_and(|v| v.chars().count() > max) {
            return Err(unprocessable(format!(
                "The {name} option is longer than {max} characters."
            )));
        }
    }
    let opts = render_options(&q)?;
    let counts = match q.layouts.as_deref() {
        None | Some("") => None,
        Some(text) => Some(
            model::parse_counts(text)
                .map_err(|e| unprocessable(format!("The layouts option is wrong: {e}.")))?,
        ),
    };
    let prices = st.book();
    let mut others = Vec::new();
    if let Some(list) = q.compare.as_deref().filter(|t| !t.trim().is_empty()) {
        let ids: Vec<&str> = list
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .collect();
        if ids.len() > MAX_COMPARE {
            return Err(unprocessable(format!(
                "Compare with at most {MAX_COMPARE} scenarios at once, not {}.",
                ids.len()
            )));
        }
        for other in ids {
            let other = parse_id(other)?;
            let s = load(&st, user, other).await?;
            let calibration = crate::store::calibrations::get_calibration(&st.db, other).await?;
            let e = evaluate(&s, &prices, calibration.as_ref())?;
            others.push((s, e));
        }
    }
    access::scenario(&st.db, user, id)
        .await
        .map_err(no_scenario(id))?;
    let saved = store::priced_revision(&st.db, id, None)
        .await
        .map_err(no_scenario(id))?;
    let scenario = saved.scenario;
    // The scenario's calibration to its own runs, as the planner and the API use it.
    let calibration = crate::store::calibrations::get_calibration(&st.db, id).await?;
    let evaluation = evaluate(&scenario, &prices, calibration.as_ref())?;
    let today = crate::store::today_utc();

    let built = st
        .renders
        .run("report", Turn::Answer, move || {
            let mut r = Report::build(&scenario, &evaluation, &prices, &today).with_saved_cost(
                saved.number,
                &saved.created_at,
                saved.cost,
            );
            if !others.is_empty() {
                r = r.with_comparison(&others, &prices);
            }
            if let Some(counts) = counts {
                r = r
                    .with_layouts(&counts, &prices)
                    .map_err(|e| unprocessable(format!("The layouts cannot be evaluated: {e}.")))?;
            }
            let bytes =
                report::render(&r, format, opts).map_err(|e| PageError::Internal(e.to_string()))?;
            Ok::<_, PageError>((r.slug(), bytes))
        })
        .await?;
    let (slug, bytes) = built?;
    Ok(deliver(format, &slug, bytes, q.download.as_deref()))
}

/// The paper and the edition the options ask for; a 422 saying what to send otherwise.
fn render_options(q: &ReportQuery) -> Result<RenderOptions, PageError> {
    if q.download
        .as_ref()
        .is_some_and(|v| v.chars().count() > MAX_DOWNLOAD_CHARS)
    {
        return Err(unprocessable(format!(
            "The download option is longer than {MAX_DOWNLOAD_CHARS} characters."
        )));
    }
    let paper = match q.paper.as_deref() {
        None | Some("") => Paper::A4,
        Some(p) => Paper::parse(p).map_err(|e| unprocessable(format!("The {e}.")))?,
    };
    let edition = Edition::parse(q.edition.as_deref().unwrap_or(""))
        .map_err(|e| unprocessable(format!("The {e}.")))?;
    Ok(RenderOptions { paper, edition })
}

/// `GET /plan/report.{ext}?s=...`: the report of the unsaved inputs a share link holds,
/// priced from the book in force (no saved cost: nothing is stored).
async fn unsaved(st: AppState, q: ReportQuery, format: Format) -> Result<Response, PageError> {
    let opts = render_options(&q)?;
    let scenario =
        crate::web::share::decode(q.s.as_deref()).map_err(|e| unprocessable(e.to_string()))?;
    let prices = st.book();
    let evaluation =
        crate::measure::calibrate::evaluate(&scenario, &prices, None).map_err(|e| {
            unprocessable(format!(
                "These inputs do not validate ({e}); fix the marked inputs in the planner first."
            ))
        })?;
    let today = crate::store::today_utc();
    let built = st
        .renders
        .run("report", Turn::Answer, move || {
            let r = Report::build(&scenario, &evaluation, &prices, &today);
            let bytes =
                report::render(&r, format, opts).map_err(|e| PageError::Internal(e.to_string()))?;
            Ok::<_, PageError>((r.slug(), bytes))
        })
        .await?;
    let (slug, bytes) = built?;
    Ok(deliver(format, &slug, bytes, q.download.as_deref()))
}

/// The report's response: its content type, an attachment named after the scenario (the
/// HTML report opens inline unless `download` is 1, true or yes), and for HTML the
/// report's own content security policy.
fn deliver(format: Format, slug: &str, bytes: Vec<u8>, download: Option<&str>) -> Response {
    let attachment = format != Format::Html || matches!(download, Some("1" | "true" | "yes"));
    let disposition = format!(
        "{}; filename=\"{slug}.{}\"",
        if attachment { "attachment" } else { "inline" },
        format.ext()
    );
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(format.content_type()),
    );
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    if format == Format::Html {
        // The report carries its own inline style and SVG: relax the app's policy for it
        // alone, and still allow no script.
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(report::CSP),
        );
    }
    response
}
