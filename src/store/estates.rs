//! Estates with their full revision history, as scenarios have: every save adds a
//! revision, nothing is overwritten. The estate request JSON is stored as sent.

use super::access::Actor;
use super::activity::{self, Action, Event, ObjectKind};
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
}

/// One saved version of an estate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct EstateRevision {
    pub number: i64,
    pub name: String,
    pub created_at: String,
    /// The user who saved it; `None` in single-user mode.
    pub author: Option<String>,
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

/// An event on estate `id`.
fn estate_event(
    by: Actor<'_>,
    action: Action,
    id: i64,
    revision: Option<i64>,
    name: String,
) -> Event<'_> {
    Event {
        actor: by.user,
        action,
        kind: ObjectKind::Estate,
        object_id: Some(id),
        scenario: None,
        revision,
        summary: name,
    }
}

/// Saves a new estate (revision 1) by `by` and returns its id.
pub async fn create_estate(pool: &Db, r: &EstateRequest, by: Actor<'_>) -> Result<i64, StoreError> {
    let body = encode(r)?;
    let name = r.display_name();
    let mut tx = begin_write(pool).await?;
    let (id,): (i64,) = sqlx::query_as(
        "INSERT INTO estates (name, workloads, revision, body, touched)
         VALUES ($1, $2, 1, $3, (SELECT COALESCE(MAX(touched), 0) + 1 FROM estates))
         RETURNING id",
    )
    .bind(&name)
    .bind(r.workloads.len() as i64)
    .bind(&body)
    .fetch_one(&mut *tx)
    .await?;
    insert_revision(&mut tx, id, 1, &name, &body, by.user).await?;
    activity::record(
        &mut tx,
        &estate_event(by, Action::Created, id, Some(1), name),
    )
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// Saves `r` as the next revision of estate `id` by `by`; `NotFound` if there is none.
pub async fn update_estate(
    pool: &Db,
    id: i64,
    r: &EstateRequest,
    by: Actor<'_>,
) -> Result<i64, StoreError> {
    let body = encode(r)?;
    let name = r.display_name();
    let mut tx = begin_write(pool).await?;
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
    let event = estate_event(by, Action::Changed, id, Some(revision), name);
    activity::record(&mut tx, &event).await?;
    tx.commit().await?;
    Ok(revision)
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

/// The newest revision of estate `id`.
pub async fn get_estate(pool: &Db, id: i64) -> Result<StoredEstate, StoreError> {
    let (revision, body, created_at, updated_at): (i64, String, String, String) =
        sqlx::query_as("SELECT revision, body, created_at, updated_at FROM estates WHERE id = $1")
            .bind(id)
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

/// Revision `number` of estate `id`.
pub async fn get_estate_revision(
    pool: &Db,
    id: i64,
    number: i64,
) -> Result<EstateRequest, StoreError> {
    let (body,): (String,) =
        sqlx::query_as("SELECT body FROM estate_revisions WHERE estate_id = $1 AND number = $2")
            .bind(id)
            .bind(number)
            .fetch_one(pool)
            .await?;
    decode(&body)
}

/// Every revision of estate `id`, newest first; `NotFound` if there is no such estate.
pub async fn list_estate_revisions(pool: &Db, id: i64) -> Result<Vec<EstateRevision>, StoreError> {
    let revisions: Vec<EstateRevision> = sqlx::query_as(
        "SELECT number, name, created_at, author FROM estate_revisions
         WHERE estate_id = $1 ORDER BY number DESC",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    if revisions.is_empty() {
        return Err(StoreError::NotFound);
    }
    Ok(revisions)
}

/// Every estate, newest first.
pub async fn list_estates(pool: &Db) -> Result<Vec<EstateSummary>, StoreError> {
    Ok(sqlx::query_as(
        "SELECT id, name, workloads, revision, updated_at FROM estates ORDER BY touched DESC",
    )
    .fetch_all(pool)
    .await?)
}

/// Deletes estate `id` and its history, by `by`.
pub async fn delete_estate(pool: &Db, id: i64, by: Actor<'_>) -> Result<(), StoreError> {
    let mut tx = begin_write(pool).await?;
    let name = super::delete_with_history(
        &mut tx,
        "DELETE FROM estate_revisions WHERE estate_id = $1",
        "DELETE FROM estates WHERE id = $1 RETURNING name",
        id,
    )
    .await?;
    activity::record(&mut tx, &estate_event(by, Action::Deleted, id, None, name)).await?;
    tx.commit().await?;
    Ok(())
}
