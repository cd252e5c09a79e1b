//! `POST /live/estate`: the right-sized volumes planned together, saved as an estate
//! (shared, as the Estates page saves one by default), so the plan goes on to the Estates page (growth, reports, code).
//!
//! The page sends the plan's estate request back in a hidden field; it is read as any
//! estate request is (its fields, every workload and the optimiser's checks) before it
//! is stored, never trusted because this server wrote it.

use super::super::PageError;
use crate::estate::{self, EstateRequest, MAX_WORKLOADS};
use crate::store::Visibility;
use crate::store::estates as store;
use crate::web::access;
use crate::web::auth::CurrentUser;
use crate::web::state::AppState;
use axum::Form;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

/// The form: the estate request as JSON.
#[derive(Deserialize)]
pub struct SaveForm {
    request: String,
}

/// Stores the sent estate and opens it.
pub async fn save(
    State(st): State<AppState>,
    user: CurrentUser,
    Form(form): Form<SaveForm>,
) -> Result<Response, PageError> {
    let refused = |message: String| PageError::Status {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        message,
    };
    let req: EstateRequest = serde_json::from_str(&form.request)
        .map_err(|e| refused(format!("The estate sent is not an estate request: {e}.")))?;
    if req.workloads.is_empty() || req.workloads.len() > MAX_WORKLOADS {
        return Err(refused(format!(
            "An estate holds 1 to {MAX_WORKLOADS} workloads; this one has {}.",
            req.workloads.len()
        )));
    }
    estate::optimize(&req, &st.book())
        .map_err(|e| refused(format!("The estate cannot be planned: {e}.")))?;
    let id = store::create_estate(
        &st.db,
        &req,
        access::actor(&user),
        Visibility::Shared,
        false,
    )
    .await?;
    Ok(Redirect::to(&format!("/estates/{id}")).into_response())
}
