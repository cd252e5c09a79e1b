//! Estates with their full revision history, as scenarios have: every save adds a
//! revision, nothing is overwritten. The estate request JSON is stored as sent.
//!
//! Estates have owners and visibility as scenarios do ([`super::access`]): every read
//! and change by id is of an estate the actor may see, `NotFound` otherwise. An estate
//! that has taken in the inputs of a private scenario is private and stays so
//! (`holds_private`), so those inputs never reach another user.

use super::access::{Actor, Ownership, Visibility, visible_sql};
use super::activity::{self, Action, Event, ObjectKind};
use super::revisions::{History, Revision};
use super::{Db, DbConn};
use super::{StoreError, begin_write};
use crate::engine::Scenario;
use crate::estate::EstateRequest;
use serde::Serialize;

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

/// Who owns an estate, who sees it, and whether it holds a private scenario's inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EstateAccess {
    pub ownership: Ownership,
    /// The inputs of a private scenario were added: it may not become shared.
    pub holds_private: bool,
}

/// True when a private scenario owned by `scenario_owner` may go into an estate owned by
/// `estate_owner`: only into one of its owner's, whoever adds it (admins too), since
/// the estate copies its inputs (docs/team-mode.md).
pub fn may_hold_private(scenario_owner: Option<&str>, estate_owner: Option<&str>) -> bool {
    scenario_owner.is_some() && scenario_owner == estate_owner
}

/// Estate `id`'s access when `actor` may see it; `NotFound` otherwise.
async fn access_on(
    conn: &mut DbConn,
    id: i64,
    actor: Actor<'_>,
) -> Result<EstateAccess, StoreError> {
    let sql = format!(
        "SELECT owner, visibility, holds_private FROM estates WHERE id = $1 AND {}",
        visible_sql(2, 3)
    );
    let (owner, visibility, holds_private): (Option<String>, String, i64) =
        sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(id)
            .bind(actor.user)
            .bind(actor.all_flag())
            .fetch_one(&mut *conn)
            .await?;
    Ok(EstateAccess {
        ownership: Ownership {
            owner,
            visibility: Visibility::of_key(&visibility),
        },
        holds_private: holds_private != 0,
    })
}

/// Estate `id`'s access when `actor` may see it; `NotFound` when there is no such
/// estate or it is private to someone else. Every route on an estate asks this first.
pub async fn visible_estate(
    pool: &Db,
    id: i64,
    actor: Actor<'_>,
) -> Result<EstateAccess, StoreError> {
    access_on(&mut *pool.acquire().await?, id, actor).await
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

/// An event on estate `id`, seen by those who may see the estate.
fn estate_event<'a>(
    by: Actor<'a>,
    action: Action,
    id: i64,
    seen_as: &'a Ownership,
    revision: Option<i64>,
    name: String,
) -> Event<'a> {
    Event {
        actor: by.user,
        action,
        kind: ObjectKind::Estate,
        object_id: Some(id),
        scenario_id: None,
        seen_as: Some(seen_as),
        revision,
        summary: name,
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
    let mut tx = begin_write(pool).await?;
    let (id,): (i64,) = sqlx::query_as(
        "INSERT INTO estates (name, workloads, revision, body, touched, owner, visibility, holds_private)
         VALUES ($1, $2, 1, $3, (SELECT COALESCE(MAX(touched), 0) + 1 FROM estates), $4, $5, $6)
         RETURNING id",
    )
    .bind(&name)
    .bind(r.workloads.len() as i64)
    .bind(&body)
    .bind(ownership.owner.as_deref())
    .bind(ownership.visibility.key())
    .bind(i64::from(holds_private))
    .fetch_one(&mut *tx)
    .await?;
    insert_revision(&mut tx, id, 1, &name, &body, by.user).await?;
    let event = estate_event(by, Action::Created, id, &ownership, Some(1), name);
    activity::record(&mut tx, &event).await?;
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
    let mut ownership = access_on(&mut tx, id, by).await?.ownership;
    History::Estate.check_room(&mut tx, id).await?;
    if takes_private {
        ownership.visibility = Visibility::Private;
        sqlx::query("UPDATE estates SET visibility = 'private', holds_private = 1 WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        hide_events(&mut tx, id, true).await?;
    }
    let (revision,): (i64,) = sqlx::query_as(
        "UPDATE estates
         SET name = $2, workloads = $3, body = $4, revision = revision + 1,
             updated_at = $5,
             touched = (SELECT COALESCE(MAX(touched), 0) + 1 FROM estates)
         WHERE id = $1 RETURNING revision",
    )
    .bind(id)
    .bind(&name)
    .bind(r.workloads.len() as i64)
    .bind(&body)
    .bind(super::now_utc())
    .fetch_one(&mut *tx)
    .await?;
    insert_revision(&mut tx, id, revision, &name, &body, by.user).await?;
    let event = estate_event(by, Action::Changed, id, &ownership, Some(revision), name);
    activity::record(&mut tx, &event).await?;
    tx.commit().await?;
    Ok(revision)
}

/// The estate's events follow its visibility.
async fn hide_events(conn: &mut DbConn, id: i64, private: bool) -> Result<(), StoreError> {
    sqlx::query("UPDATE activity SET private = $2 WHERE object_kind = 'estate' AND object_id = $1")
        .bind(id)
        .bind(i64::from(private))
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// How a change of an estate's visibility ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VisibilityChange {
    Done(Ownership),
    /// The actor may see the estate but not change who sees it.
    NotAllowed,
    /// It holds a private scenario's inputs and stays private.
    HoldsPrivate,
}

/// Sets the visibility of estate `id` by `actor` (its owner or an admin) and records
/// it; `NotFound` when `actor` cannot see the estate.
pub async fn set_estate_visibility(
    pool: &Db,
    id: i64,
    visibility: Visibility,
    actor: Actor<'_>,
) -> Result<VisibilityChange, StoreError> {
    let mut tx = begin_write(pool).await?;
    let access = access_on(&mut tx, id, actor).await?;
    if !access.ownership.may_change_visibility(actor) {
        return Ok(VisibilityChange::NotAllowed);
    }
    if visibility == Visibility::Shared && access.holds_private {
        return Ok(VisibilityChange::HoldsPrivate);
    }
    let changed = Ownership {
        visibility,
        ..access.ownership
    };
    if access.ownership.visibility != visibility {
        sqlx::query("UPDATE estates SET visibility = $2 WHERE id = $1")
            .bind(id)
            .bind(visibility.key())
            .execute(&mut *tx)
            .await?;
        hide_events(&mut tx, id, visibility == Visibility::Private).await?;
        let (name,): (String,) = sqlx::query_as("SELECT name FROM estates WHERE id = $1")
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        let summary = format!("{name}: {}", visibility.key());
        let event = estate_event(actor, Action::Visibility, id, &changed, None, summary);
        activity::record(&mut tx, &event).await?;
    }
    tx.commit().await?;
    Ok(VisibilityChange::Done(changed))
}

async fn insert_revision(
    conn: &mut DbConn,
    id: i64,
    number: i64,
    name: &str,
    body: &str,
    author: Option<&str>,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO estate_revisions (estate_id, number, name, body, author)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(id)
    .bind(number)
    .bind(name)
    .bind(body)
    .bind(author)
    .execute(conn)
    .await?;
    Ok(())
}

/// The newest revision of estate `id`, if `by` may see it.
pub async fn get_estate(pool: &Db, id: i64, by: Actor<'_>) -> Result<StoredEstate, StoreError> {
    let sql = format!(
        "SELECT revision, body, created_at, updated_at FROM estates WHERE id = $1 AND {}",
        visible_sql(2, 3)
    );
    let (revision, body, created_at, updated_at): (i64, String, String, String) =
        sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(id)
            .bind(by.user)
            .bind(by.all_flag())
            .fetch_one(pool)
            .await?;
    Ok(StoredEstate {
        id,
        revision,
        request: decode(&body)?,
        created_at,
        updated_at,
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
    let (body,): (String,) =
        sqlx::query_as("SELECT body FROM estate_revisions WHERE estate_id = $1 AND number = $2")
            .bind(id)
            .bind(number)
            .fetch_one(pool)
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
    super::revisions::list(pool, History::Estate, id).await
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
    let mut tx = begin_write(pool).await?;
    let ownership = access_on(&mut tx, id, by).await?.ownership;
    let name = super::delete_with_history(
        &mut tx,
        "DELETE FROM estate_revisions WHERE estate_id = $1",
        "DELETE FROM estates WHERE id = $1 RETURNING name",
        id,
    )
    .await?;
    let event = estate_event(by, Action::Deleted, id, &ownership, None, name);
    activity::record(&mut tx, &event).await?;
    tx.commit().await?;
    Ok(())
}
