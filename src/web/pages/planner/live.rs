//! The planner's live recalculation: `POST /scenarios/results` answers the results
//! column for the inputs as typed (the page's script sends the form and gets the
//! rendered column with every message per input) or for Scenario JSON.

use super::{Pairs, ResultsFragment, assess, calibration_for, checked_form, form_id, measured_for};
use crate::engine::scenario::Scenario;
use crate::web::auth::CurrentUser;
use crate::web::pages::PageError;
use crate::web::pages::form;
use crate::web::state::AppState;
use askama::Template;
use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde::Serialize;
use std::collections::BTreeMap;

/// The answer to a live recalculation.
#[derive(Serialize)]
struct LiveResults {
    /// True when the inputs parse and validate.
    ok: bool,
    /// The rendered results column.
    html: String,
    /// Message per input name.
    errors: BTreeMap<String, String>,
    /// Warning per input name (e.g. a feature the region lacks).
    warnings: BTreeMap<String, String>,
    /// `/plan?s=...` for the inputs; empty when they do not parse.
    share_url: String,
}

/// `POST /scenarios/results`: the results column for the planner's inputs.
///
/// A form body (what the page's script sends) answers JSON with the rendered HTML and
/// the per-input messages; a Scenario JSON body answers the HTML fragment alone.
pub async fn results(
    State(st): State<AppState>,
    user: CurrentUser,
    req: Request,
) -> Result<Response, PageError> {
    let ctype = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    if ctype.starts_with("application/json") {
        let body = Bytes::from_request(req, &())
            .await
            .map_err(|e| PageError::BadRequest(format!("The request body cannot be read: {e}")))?;
        return results_for_json(&st, &user, &body).await;
    }
    if !ctype.starts_with("application/x-www-form-urlencoded") {
        return Err(PageError::BadRequest(
            "Send the planner form (application/x-www-form-urlencoded) or Scenario JSON (application/json).".into(),
        ));
    }
    let axum::Form(pairs) = Pairs::from_request(req, &())
        .await
        .map_err(|e| PageError::BadRequest(format!("The form data cannot be read: {e}")))?;
    let id = form_id(&pairs);
    let (mut form, scenario) = form::parse(&pairs, &st.book());
    let measured = measured_for(&st, &user, id).await?;
    let calibration = calibration_for(&st, &user, id).await?;
    let r = assess(
        &st.renders,
        &mut form,
        scenario.as_ref(),
        id,
        &measured,
        calibration.as_ref(),
        &st.book(),
    )
    .await;
    let share_url = r.share_url.clone();
    let html = ResultsFragment { r }.render()?;
    let live = LiveResults {
        ok: scenario.is_some() && !form.has_errors(),
        html,
        errors: form.errors().clone(),
        warnings: form.warnings().clone(),
        share_url,
    };
    Ok(Json(live).into_response())
}

async fn results_for_json(
    st: &AppState,
    user: &CurrentUser,
    body: &[u8],
) -> Result<Response, PageError> {
    let de = &mut serde_json::Deserializer::from_slice(body);
    let scenario: Scenario = serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        PageError::BadRequest(format!("Scenario JSON, at {path}: {}", e.into_inner()))
    })?;
    let (mut form, valid) = checked_form(st, &scenario);
    let valid = valid.then_some(&scenario);
    let status = if valid.is_some() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    let measured = measured_for(st, user, scenario.id).await?;
    let calibration = calibration_for(st, user, scenario.id).await?;
    let r = assess(
        &st.renders,
        &mut form,
        valid,
        scenario.id,
        &measured,
        calibration.as_ref(),
        &st.book(),
    )
    .await;
    Ok((status, Html(ResultsFragment { r }.render()?)).into_response())
}
