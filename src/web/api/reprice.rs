//! Re-pricing a saved revision: the cost it was saved with beside its cost under today's
//! price book, line by line. Nothing is written: the stored revision stays as it was.

use super::scenario_id;
use crate::prices::reprice::{self, CostSnapshot, Repricing};
use crate::store::{self, StoreError};
use crate::web::access;
use crate::web::auth::CurrentUser;
use crate::web::auth::Declare;
use crate::web::error::{ApiError, ErrorBody};
use crate::web::state::AppState;
use axum::Json;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Routes of this module, with their OpenAPI descriptions.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(reprice).compute())
}

/// Which revision to re-price.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RepriceQuery {
    /// Revision number; empty = the newest.
    #[param(minimum = 1)]
    pub revision: Option<i64>,
}

/// A revision's stored cost beside today's.
#[derive(Debug, Serialize, ToSchema)]
pub struct RepriceAnswer {
    pub id: i64,
    pub revision: i64,
    /// The scenario's name in that revision.
    pub name: String,
    /// When the revision was saved (UTC).
    pub saved_at: String,
    #[serde(flatten)]
    pub repricing: Repricing,
}

/// Why a revision cannot be re-priced.
#[derive(Debug, thiserror::Error)]
pub enum RepriceError {
    /// No such scenario or revision.
    #[error("{0}")]
    NotFound(String),
    /// The revision no longer validates (its region left the price book, say).
    #[error("revision {revision} cannot be evaluated: {message}")]
    Invalid {
        revision: i64,
        field: String,
        message: String,
    },
    #[error("{0}")]
    Store(#[from] StoreError),
}

impl From<RepriceError> for ApiError {
    fn from(e: RepriceError) -> Self {
        let sentence = e.to_string();
        match e {
            RepriceError::NotFound(m) => ApiError::NotFound(m),
            RepriceError::Invalid { field, .. } => ApiError::Invalid {
                field: Some(field),
                message: sentence,
            },
            RepriceError::Store(s) => s.into(),
        }
    }
}

/// Re-prices revision `revision` (the newest when `None`) of scenario `id` with the
/// book in force, read fresh from the database.
pub async fn reprice_revision(
    st: &AppState,
    user: &CurrentUser,
    id: i64,
    revision: Option<i64>,
) -> Result<RepriceAnswer, RepriceError> {
    let no_scenario = |e| match e {
        StoreError::NotFound => RepriceError::NotFound(format!("no scenario with id {id}")),
        other => other.into(),
    };
    access::scenario(&st.db, user, id)
        .await
        .map_err(no_scenario)?;
    let rev = match store::priced_revision(&st.db, id, revision).await {
        Ok(r) => r,
        Err(StoreError::NotFound) => {
            store::get_scenario(&st.db, id).await.map_err(no_scenario)?;
            return Err(RepriceError::NotFound(format!(
                "scenario {id} has no revision {}",
                revision.unwrap_or_default()
            )));
        }
        Err(other) => return Err(other.into()),
    };
    let book = st.prices.reload(&st.db).await?;
    let today =
        crate::engine::evaluate_in(&rev.scenario, &book).map_err(|e| RepriceError::Invalid {
            revision: rev.number,
            field: e.first().field.clone(),
            message: e.to_string(),
        })?;
    Ok(RepriceAnswer {
        id,
        revision: rev.number,
        name: rev.scenario.name.clone(),
        saved_at: rev.created_at,
        repricing: reprice::reprice(rev.cost, CostSnapshot::of(&today.cost)),
    })
}

/// Prices a saved revision with today's price book and sets its stored cost beside it,
/// line by line (`stored` is null for revisions saved before costs were kept). The
/// revision is not changed.
#[utoipa::path(
    post, path = "/api/v1/scenarios/{id}/reprice", tag = "scenarios", operation_id = "reprice_scenario",
    params(("id" = i64, Path, description = "Scenario id"), RepriceQuery),
    responses(
        (status = 200, description = "The stored cost, today's cost and each line with its difference", body = RepriceAnswer),
        (status = 400, description = "Malformed query string", body = ErrorBody),
        (status = 404, description = "No such scenario or revision", body = ErrorBody),
        (status = 422, description = "The revision no longer validates", body = ErrorBody),
    )
)]
pub async fn reprice(
    State(st): State<AppState>,
    user: CurrentUser,
    id: Result<Path<String>, PathRejection>,
    q: Result<Query<RepriceQuery>, QueryRejection>,
) -> Result<Json<RepriceAnswer>, ApiError> {
    let id = scenario_id(id)?;
    let Query(q) = q.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    Ok(Json(reprice_revision(&st, &user, id, q.revision).await?))
}
