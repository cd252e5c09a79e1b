//! The AVS plan as code: Terraform, Bicep or az commands for its datastores.

use super::{Asked, PlanQuery, planned};
use crate::web::page_error::PageError;
use crate::web::state::AppState;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// `GET /avs/{id}/export/{format}?...`: the plan as code (Terraform, Bicep or az
/// commands), each datastore attached to its cluster.
pub async fn code(
    State(st): State<AppState>,
    Path((raw, key)): Path<(String, String)>,
    Query(q): Query<PlanQuery>,
) -> Result<Response, PageError> {
    let f = crate::iac::Format::parse(&key).ok_or_else(|| {
        PageError::NotFound(format!(
            "No export format {key:?}: use terraform, bicep or azcli."
        ))
    })?;
    let page = planned(&st, &raw, q, Asked::Plan).await?;
    let message = page.problems();
    let Some(plan) = page.plan else {
        return Err(PageError::Status {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message,
        });
    };
    let source = format!("the AVS plan of inventory {}", page.origin);
    let text = crate::iac::layout::of_avs(&plan, "AVS datastores", &source, &st.book())
        .and_then(|l| crate::iac::export(&l, f))
        .map_err(|e| PageError::Status {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: e.0,
        })?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"avs-datastores.{}\"", f.ext()),
            ),
        ],
        text,
    )
        .into_response())
}
