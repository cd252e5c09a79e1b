//! The request's user as the store sees it, and the visibility check that every route
//! reading or changing a saved scenario by id calls before it reads.

use crate::store::{self, Actor, Db, Ownership, StoreError, StoredScenario};
use crate::web::auth::{CurrentUser, Role};

/// The store's view of the request's user: nobody signed in is single-user mode (sees
/// everything); an admin sees every scenario; others see the shared ones and their own.
pub fn actor(user: &CurrentUser) -> Actor<'_> {
    match &user.0 {
        None => Actor::SINGLE_USER,
        Some(p) => Actor {
            user: Some(p.user.as_str()),
            sees_all: p.role == Role::Admin,
        },
    }
}

/// Scenario `id`'s ownership when the request's user may see it; `NotFound` (the
/// route's own 404) when there is no such scenario or it is private to someone else.
pub async fn scenario(db: &Db, user: &CurrentUser, id: i64) -> Result<Ownership, StoreError> {
    store::visible_scenario(db, id, actor(user)).await
}

/// The newest revision of scenario `id` when the request's user may see it (the check
/// of [`scenario`], then the read).
pub async fn stored_scenario(
    db: &Db,
    user: &CurrentUser,
    id: i64,
) -> Result<StoredScenario, StoreError> {
    scenario(db, user, id).await?;
    store::get_scenario(db, id).await
}
