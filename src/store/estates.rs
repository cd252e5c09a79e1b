//! Estates with their full revision history, as scenarios have: every save adds a
//! revision, nothing is overwritten. The estate request JSON is stored as sent.
//!
//! Estates are a [`Resource`] as scenarios are, with owners and visibility
//! ([`super::access`]): every read
//! and change by id is of an estate the actor may see, `NotFound` otherwise. An estate
//! that has taken in the inputs of a private scenario is private and stays so
//! (`holds_private`), so those inputs never reach another user.

use super::access::{Actor, Ownership, Visibility, visible_sql};
use super::activity::{Action, ObjectKind};
use super::resource::{Resource, Revision, Save, Value};
use super::{Db, StoreError, begin_write};
use crate::engine::Scenario;
use crate::estate::EstateRequest;
use serde::Serialize;

pub use super::resource::{Access as EstateAccess, VisibilityChange};

/// Estates as a versioned, owned, visible resource.
const RESOURCE: Resource = Resource {
    table: "estates",
    revisions: "estate_revisions",
    parent: "estate_id",
    kind: ObjectKind::Estate,
    events: "object_kind = 'estate' AND object_id = $1",
    holds_private: Some("holds_private"),
    full: (
        "estate",
        "create a new estate with these workloads to go on editing",
    ),
};

/// An estate as stored: the newest revision.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEstate {
    pub id: i64,
    pub revision: i64,
    pub request: EstateRequest,
    pub created_at: String,
    pub updated_at: String,
}

/// One line of the estate list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct EstateSummary {
    pub id: i64,
    pub name: String,
    pub workloads: i64,
    pub revision: i64,
    pub updated_at: String,
    /// The user who created it; `None` in single-user mode.
    pub owner: Option<String>,
    /// `shared` or `private`.
    pub visibility: String,
}

/// True when a private scenario owned by `scenario_owner` may go into an estate owned by
/// `estate_owner`: only into one of its owner's, whoever adds it (admins too), since
/// the estate copies its inputs (docs/team-mode.md).
pub fn may_hold_private(scenario_owner: Option<&str>, estate_owner: Option<&str>) -> bool {
    scenario_owner.is_some() && scenario_owner == estate_owner
}

/// Estate `id`'s access when `actor` may see it; `NotFound` when there is no such
/// estate or it is private to someone else. Every route on an estate asks this first.
pub async fn visible_estate(
    pool: &Db,
    id: i64,
    actor: Actor<'_>,
) -> Result<EstateAccess, StoreError> {
    RESOURCE.visible(pool, id, actor).await
}

fn encode(r: &EstateRequest) -> Result<String, StoreError> {
    serde_json::to_string(r).map_err(|e| StoreError::Corrupt(e.to_string()))
}

fn decode(body: &str) -> Result<EstateRequest, StoreError> {
    let mut r: EstateRequest =
        serde_json::from_str(body).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    // Workloads saved before the capacity and Flexible QoS rules read as they meant.
    r.workloads.iter_mut().for_each(Scenario::upgrade);
    Ok(r)
}

/// The estate's row and revision as one save writes them.
fn save<'a>(r: &EstateRequest, name: &'a str, body: &'a str) -> Save<'a> {
    Save {
        name,
        body,
        columns: vec![("workloads", Value::Int(r.workloads.len() as i64))],
        revision_columns: vec![],
    }
}

/// Saves a new estate (revision 1) by `by`, owned by `by`'s user, and returns its id.
/// With `holds_private` (it takes a private scenario's inputs) it is private whatever
/// `visibility` says.
pub async fn create_estate(
    pool: &Db,
    r: &EstateRequest,
    by: Actor<'_>,
    visibility: Visibility,
    holds_private: bool,
) -> Result<i64, StoreError> {
    let body = encode(r)?;
    let name = r.display_name();
    let ownership = Ownership {
        owner: by.user.map(str::to_owned),
        visibility: if holds_private {
            Visibility::Private
        } else {
            visibility
        },
    };
    let mut row = save(r, &name, &body);
    row.columns
        .push(("holds_private", Value::Int(i64::from(holds_private))));
    let mut tx = begin_write(pool).await?;
    let id = RESOURCE
        .create(&mut tx, &row, by, &ownership, Action::Created)
        .await?;
    tx.commit().await?;
    Ok(id)
}

/// Saves `r` as the next revision of estate `id` by `by`; `NotFound` if there is none
/// that `by` may see. With `takes_private` (the caller checked
/// [`may_hold_private`]) the estate becomes private for good.
pub async fn update_estate(
    pool: &Db,
    id: i64,
    r: &EstateRequest,
    by: Actor<'_>,
    takes_private: bool,
) -> Result<i64, StoreError> {
    let body = encode(r)?;
    let name = r.display_name();
    let mut tx = begin_write(pool).await?;
    let done = (Action::Changed, name.clone());
    let revision = RESOURCE
        .update(&mut tx, id, &save(r, &name, &body), by, done, takes_private)
        .await?;
    tx.commit().await?;
    Ok(revision)
}

/// Sets the visibility of estate `id` by `actor` (its owner or an admin) and records
/// it; `NotFound` when `actor` cannot see the estate.
pub async fn set_estate_visibility(
    pool: &Db,
    id: i64,
    visibility: Visibility,
    actor: Actor<'_>,
) -> Result<VisibilityChange, StoreError> {
    RESOURCE.set_visibility(pool, id, visibility, actor).await
}

/// The newest revision of estate `id`, if `by` may see it.
pub async fn get_estate(pool: &Db, id: i64, by: Actor<'_>) -> Result<StoredEstate, StoreError> {
    let row = RESOURCE.newest(pool, id, by).await?;
    Ok(StoredEstate {
        id,
        revision: row.revision,
        request: decode(&row.body)?,
        created_at: row.created_at,
        updated_at: row.updated_at,
    })
}

/// Revision `number` of estate `id`, if `by` may see the estate.
pub async fn get_estate_revision(
    pool: &Db,
    id: i64,
    number: i64,
    by: Actor<'_>,
) -> Result<EstateRequest, StoreError> {
    visible_estate(pool, id, by).await?;
    let body = RESOURCE
        .revision_body(&mut *pool.acquire().await?, id, number)
        .await?;
    decode(&body)
}

/// Every revision of estate `id`, newest first; `NotFound` if there is no such estate
/// that `by` may see.
pub async fn list_estate_revisions(
    pool: &Db,
    id: i64,
    by: Actor<'_>,
) -> Result<Vec<Revision>, StoreError> {
    visible_estate(pool, id, by).await?;
    RESOURCE.history(pool, id).await
}

/// Every estate `by` may see, newest first.
pub async fn list_estates(pool: &Db, by: Actor<'_>) -> Result<Vec<EstateSummary>, StoreError> {
    let sql = format!(
        "SELECT id, name, workloads, revision, updated_at, owner, visibility FROM estates
         WHERE {} ORDER BY touched DESC",
        visible_sql(1, 2)
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(by.user)
        .bind(by.all_flag())
        .fetch_all(pool)
        .await?)
}

/// Deletes estate `id` and its history, by `by`; `NotFound` if `by` may not see it.
pub async fn delete_estate(pool: &Db, id: i64, by: Actor<'_>) -> Result<(), StoreError> {
    RESOURCE.delete(pool, id, by).await
}
