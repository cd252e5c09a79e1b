//! Scenarios with their full revision history.
//!
//! Every save adds a revision; a restore copies an old revision into a new one, so
//! nothing is ever overwritten. The JSON is stored without the id (the row has it).
//! Each revision is priced at save with the book in force then (the compiled book with
//! the stored prices, read in the save's transaction) and keeps that cost.

use super::access::{Actor, Ownership, Visibility, ownership_on};
use super::activity::{self, Action, Event, ObjectKind};
use super::revisions::{History, Revision};
use super::{Db, DbConn};
use super::{StoreError, begin_write, prices};
use crate::engine::pricing::PriceBook;
use crate::engine::{Evaluation, FieldErrors, Scenario};
use crate::prices::reprice::CostSnapshot;
use serde::Serialize;

mod list;

pub use list::{
    ListedScenario, MAX_PAGE, ScenarioPage, list_page, list_scenarios, list_scenarios_for,
};

/// A scenario as stored: the newest revision with its id set.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredScenario {
    pub id: i64,
    /// Number of the newest revision.
    pub revision: i64,
    /// The scenario, with `id` set to [`StoredScenario::id`].
    pub scenario: Scenario,
    /// ISO-8601 UTC, e.g. `2026-11-30T12:00:00Z`.
    pub created_at: String,
    pub updated_at: String,
}

/// One line of the scenario list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct ScenarioSummary {
    pub id: i64,
    pub name: String,
    /// Service key, e.g. `anf`.
    pub service: String,
    /// Level key, e.g. `ultra`.
    pub level: String,
    pub updated_at: String,
    pub revision: i64,
    /// The user who created it; null in single-user mode.
    pub owner: Option<String>,
    /// `shared` (every user sees it) or `private` (its owner and admins).
    pub visibility: String,
}

/// The label of the limit that binds `s` priced from `book` (the book in force), or
/// why it cannot be evaluated, as the list shows it (computed once per revision, at
/// save).
pub fn binding_label(s: &Scenario, book: &PriceBook) -> String {
    label_of(&crate::engine::evaluate_in(s, book))
}

fn label_of(evaluated: &Result<Evaluation, FieldErrors>) -> String {
    match evaluated {
        Ok(ev) => ev
            .limits
            .iter()
            .find(|l| l.id == ev.binding)
            .map(|l| l.label.to_string())
            .unwrap_or_else(|| ev.binding.to_owned()),
        Err(e) => format!("not evaluated: {}", e.first().message),
    }
}

/// What a save records besides the scenario: the binding limit's label and the cost
/// priced with the book in force at that moment (none when it cannot be evaluated).
struct Facts {
    binding: String,
    cost: Option<CostSnapshot>,
}

impl Facts {
    fn of(s: &Scenario, book: &PriceBook) -> Facts {
        let evaluated = crate::engine::evaluate_in(s, book);
        Facts {
            binding: label_of(&evaluated),
            cost: evaluated.ok().map(|ev| CostSnapshot::of(&ev.cost)),
        }
    }

    /// The facts of `s` under the book in force on the transaction's connection.
    async fn on(conn: &mut DbConn, s: &Scenario) -> Result<Facts, StoreError> {
        Ok(Facts::of(s, &prices::book_on(conn).await?))
    }
}

/// One revision with the cost it was saved with.
#[derive(Debug, Clone, PartialEq)]
pub struct PricedRevision {
    pub number: i64,
    /// The scenario of that revision, with `id` set.
    pub scenario: Scenario,
    pub created_at: String,
    /// The priced cost stored at save; `None` for revisions saved before costs were
    /// kept (and for a scenario that could not be evaluated then).
    pub cost: Option<CostSnapshot>,
}

#[derive(sqlx::FromRow)]
struct PricedRow {
    number: i64,
    body: String,
    created_at: String,
    cost: Option<String>,
}

/// Revision `number` of scenario `id` (the newest when `None`) with its stored cost.
pub async fn priced_revision(
    pool: &Db,
    id: i64,
    number: Option<i64>,
) -> Result<PricedRevision, StoreError> {
    let row: PricedRow = sqlx::query_as(
        "SELECT r.number, r.body, r.created_at, r.cost
         FROM scenario_revisions r JOIN scenarios s ON s.id = r.scenario_id
         WHERE r.scenario_id = $1 AND r.number = COALESCE($2, s.revision)",
    )
    .bind(id)
    .bind(number)
    .fetch_one(pool)
    .await?;
    let cost = match row.cost {
        None => None,
        Some(text) => Some(serde_json::from_str(&text).map_err(|e| {
            StoreError::Corrupt(format!("scenario {id} revision {}: cost: {e}", row.number))
        })?),
    };
    Ok(PricedRevision {
        number: row.number,
        scenario: decode(id, &row.body)?,
        created_at: row.created_at,
        cost,
    })
}

#[derive(sqlx::FromRow)]
struct ScenarioRow {
    id: i64,
    revision: i64,
    body: String,
    created_at: String,
    updated_at: String,
}

/// The JSON stored for a scenario: the scenario without its id.
fn encode(s: &Scenario) -> Result<String, StoreError> {
    let mut bare = s.clone();
    bare.id = None;
    serde_json::to_string(&bare).map_err(|e| StoreError::Corrupt(format!("cannot encode: {e}")))
}

fn decode(id: i64, body: &str) -> Result<Scenario, StoreError> {
    let mut s: Scenario = serde_json::from_str(body)
        .map_err(|e| StoreError::Corrupt(format!("scenario {id}: {e}")))?;
    // Rows saved before the capacity and Flexible QoS rules read as they meant.
    s.upgrade();
    s.id = Some(id);
    Ok(s)
}

/// Saves a new scenario as revision 1 in single-user mode; `s.id` is ignored. Returns
/// the new id.
pub async fn create_scenario(pool: &Db, s: &Scenario) -> Result<i64, StoreError> {
    create_scenario_by(
        pool,
        s,
        Actor::SINGLE_USER,
        Visibility::Shared,
        Action::Created,
    )
    .await
}

/// Saves a new scenario as revision 1, owned by and attributed to `by`, and records
/// `action` (created or imported). Returns the new id.
pub async fn create_scenario_by(
    pool: &Db,
    s: &Scenario,
    by: Actor<'_>,
    visibility: Visibility,
    action: Action,
) -> Result<i64, StoreError> {
    let body = encode(s)?;
    let mut tx = begin_write(pool).await?;
    let facts = Facts::on(&mut tx, s).await?;
    let (id,): (i64,) = sqlx::query_as(
        "INSERT INTO scenarios (name, service, level, revision, body, binding, touched, owner, visibility)
         VALUES ($1, $2, $3, 1, $4, $5, (SELECT COALESCE(MAX(touched), 0) + 1 FROM scenarios), $6, $7)
         RETURNING id",
    )
    .bind(&s.name)
    .bind(s.storage.service.key())
    .bind(s.storage.level.key())
    .bind(&body)
    .bind(&facts.binding)
    .bind(by.user)
    .bind(visibility.key())
    .fetch_one(&mut *tx)
    .await?;
    insert_revision(&mut tx, id, 1, &s.name, &body, facts.cost.as_ref(), by.user).await?;
    let ownership = Ownership {
        owner: by.user.map(str::to_owned),
        visibility,
    };
    let event = scenario_event(by, action, id, &ownership, Some(1), s.name.clone());
    activity::record(&mut tx, &event).await?;
    tx.commit().await?;
    Ok(id)
}

/// Saves `s` as the next revision of scenario `id` in single-user mode; `NotFound` if
/// there is none.
pub async fn update_scenario(pool: &Db, id: i64, s: &Scenario) -> Result<i64, StoreError> {
    update_scenario_by(pool, id, s, Actor::SINGLE_USER).await
}

/// Saves `s` as the next revision of scenario `id`, by `by`; `NotFound` if there is none
/// or `by` may not see it.
pub async fn update_scenario_by(
    pool: &Db,
    id: i64,
    s: &Scenario,
    by: Actor<'_>,
) -> Result<i64, StoreError> {
    let body = encode(s)?;
    let mut tx = begin_write(pool).await?;
    let ownership = ownership_on(&mut tx, id, by).await?;
    let revision = save_revision(&mut tx, id, s, &body, by.user).await?;
    let event = scenario_event(
        by,
        Action::Changed,
        id,
        &ownership,
        Some(revision),
        s.name.clone(),
    );
    activity::record(&mut tx, &event).await?;
    tx.commit().await?;
    Ok(revision)
}

/// Makes revision `number` of scenario `id` its newest revision (as a new one), in
/// single-user mode.
pub async fn restore_revision(pool: &Db, id: i64, number: i64) -> Result<i64, StoreError> {
    restore_revision_by(pool, id, number, Actor::SINGLE_USER).await
}

/// Makes revision `number` of scenario `id` its newest revision (as a new one), by `by`.
pub async fn restore_revision_by(
    pool: &Db,
    id: i64,
    number: i64,
    by: Actor<'_>,
) -> Result<i64, StoreError> {
    let mut tx = begin_write(pool).await?;
    let ownership = ownership_on(&mut tx, id, by).await?;
    let (body,): (String,) = sqlx::query_as(
        "SELECT body FROM scenario_revisions WHERE scenario_id = $1 AND number = $2",
    )
    .bind(id)
    .bind(number)
    .fetch_one(&mut *tx)
    .await?;
    let s = decode(id, &body)?;
    let revision = save_revision(&mut tx, id, &s, &body, by.user).await?;
    let summary = format!("{} (revision {number})", s.name);
    let event = scenario_event(
        by,
        Action::Restored,
        id,
        &ownership,
        Some(revision),
        summary,
    );
    activity::record(&mut tx, &event).await?;
    tx.commit().await?;
    Ok(revision)
}

fn scenario_event<'a>(
    by: Actor<'a>,
    action: Action,
    id: i64,
    ownership: &'a Ownership,
    revision: Option<i64>,
    summary: String,
) -> Event<'a> {
    Event {
        actor: by.user,
        action,
        kind: ObjectKind::Scenario,
        object_id: Some(id),
        scenario_id: Some(id),
        seen_as: Some(ownership),
        revision,
        summary,
    }
}

/// Bumps the scenario row to the next revision and records that revision, priced with
/// the book in force now; `StoreError::Full` when the scenario keeps the most revisions.
async fn save_revision(
    conn: &mut DbConn,
    id: i64,
    s: &Scenario,
    body: &str,
    author: Option<&str>,
) -> Result<i64, StoreError> {
    History::Scenario.check_room(conn, id).await?;
    let facts = Facts::on(conn, s).await?;
    let (revision,): (i64,) = sqlx::query_as(
        "UPDATE scenarios
         SET name = $2, service = $3, level = $4, body = $5, binding = $6,
             revision = revision + 1,
             updated_at = $7,
             touched = (SELECT COALESCE(MAX(touched), 0) + 1 FROM scenarios)
         WHERE id = $1
         RETURNING revision",
    )
    .bind(id)
    .bind(&s.name)
    .bind(s.storage.service.key())
    .bind(s.storage.level.key())
    .bind(body)
    .bind(&facts.binding)
    .bind(super::now_utc())
    .fetch_one(&mut *conn)
    .await?;
    insert_revision(
        conn,
        id,
        revision,
        &s.name,
        body,
        facts.cost.as_ref(),
        author,
    )
    .await?;
    Ok(revision)
}

async fn insert_revision(
    conn: &mut DbConn,
    id: i64,
    number: i64,
    name: &str,
    body: &str,
    cost: Option<&CostSnapshot>,
    author: Option<&str>,
) -> Result<(), StoreError> {
    let cost_json = cost
        .map(serde_json::to_string)
        .transpose()
        .map_err(|e| StoreError::Corrupt(format!("cannot encode the cost: {e}")))?;
    sqlx::query(
        "INSERT INTO scenario_revisions (scenario_id, number, name, body, price_book_id, price_date, cost, author)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(id)
    .bind(number)
    .bind(name)
    .bind(body)
    .bind(cost.map(|c| &*c.price_book.id))
    .bind(cost.map(|c| &*c.price_book.date))
    .bind(cost_json)
    .bind(author)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The newest revision of scenario `id`.
pub async fn get_scenario(pool: &Db, id: i64) -> Result<StoredScenario, StoreError> {
    let row: ScenarioRow = sqlx::query_as(
        "SELECT id, revision, body, created_at, updated_at FROM scenarios WHERE id = $1",
    )
    .bind(id)
    .fetch_one(pool)
    .await?;
    Ok(StoredScenario {
        id: row.id,
        revision: row.revision,
        scenario: decode(row.id, &row.body)?,
        created_at: row.created_at,
        updated_at: row.updated_at,
    })
}

/// Deletes scenario `id` with all its revisions in single-user mode; `NotFound` if
/// there is none.
pub async fn delete_scenario(pool: &Db, id: i64) -> Result<(), StoreError> {
    delete_scenario_by(pool, id, Actor::SINGLE_USER).await
}

/// Deletes scenario `id` with all its revisions, by `by`; `NotFound` if there is none or
/// `by` may not see it.
pub async fn delete_scenario_by(pool: &Db, id: i64, by: Actor<'_>) -> Result<(), StoreError> {
    let mut tx = begin_write(pool).await?;
    let ownership = ownership_on(&mut tx, id, by).await?;
    let name = super::delete_with_history(
        &mut tx,
        "DELETE FROM scenario_revisions WHERE scenario_id = $1",
        "DELETE FROM scenarios WHERE id = $1 RETURNING name",
        id,
    )
    .await?;
    let event = scenario_event(by, Action::Deleted, id, &ownership, None, name);
    activity::record(&mut tx, &event).await?;
    tx.commit().await?;
    Ok(())
}

/// Every revision of scenario `id`, newest first; `NotFound` if there is no such scenario.
pub async fn list_revisions(pool: &Db, id: i64) -> Result<Vec<Revision>, StoreError> {
    super::revisions::list(pool, History::Scenario, id).await
}

/// Every revision of scenario `id` with its body, oldest first (for the history's
/// "what changed"); revisions whose body no longer reads are left out.
pub async fn revision_bodies(pool: &Db, id: i64) -> Result<Vec<(i64, Scenario)>, StoreError> {
    let rows: Vec<(i64, String)> = sqlx::query_as(
        "SELECT number, body FROM scenario_revisions WHERE scenario_id = $1 ORDER BY number",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(n, body)| decode(id, &body).ok().map(|s| (n, s)))
        .collect())
}

/// Revision `number` of scenario `id`, with `id` set.
pub async fn get_revision(pool: &Db, id: i64, number: i64) -> Result<Scenario, StoreError> {
    let (body,): (String,) = sqlx::query_as(
        "SELECT body FROM scenario_revisions WHERE scenario_id = $1 AND number = $2",
    )
    .bind(id)
    .bind(number)
    .fetch_one(pool)
    .await?;
    decode(id, &body)
}
