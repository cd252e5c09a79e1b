//! Scenarios with their full revision history, a [`Resource`] with the scenario's
//! own columns (service, level, the binding limit) and the cost of each revision.
//!
//! Every save adds a revision; a restore copies an old revision into a new one, so
//! nothing is ever overwritten. The JSON is stored without the id (the row has it).
//! Each revision is priced at save with the book in force then (the compiled book with
//! the stored prices, read in the save's transaction) and keeps that cost.

use super::access::{Actor, Ownership, Visibility};
use super::activity::{Action, ObjectKind};
use super::resource::{Resource, Revision, Save, Value, VisibilityChange};
use super::{Db, DbConn};
use super::{StoreError, begin_write, prices};
use crate::engine::pricing::PriceBook;
use crate::engine::{Evaluation, FieldErrors, Scenario};
use crate::prices::reprice::CostSnapshot;
use serde::Serialize;

mod list;

/// Scenarios as a versioned, owned, visible resource.
const RESOURCE: Resource = Resource {
    table: "scenarios",
    revisions: "scenario_revisions",
    parent: "scenario_id",
    kind: ObjectKind::Scenario,
    events: "scenario_id = $1",
    holds_private: None,
    full: (
        "scenario",
        "save it as a copy (a new scenario) to go on editing",
    ),
};

pub use list::{ListedScenario, MAX_PAGE, ScenarioPage, list_page, list_scenarios_for};

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
    /// The cost as the revision stores it.
    cost_json: Option<String>,
}

impl Facts {
    fn of(s: &Scenario, book: &PriceBook) -> Result<Facts, StoreError> {
        let evaluated = crate::engine::evaluate_in(s, book);
        let cost = evaluated.as_ref().ok().map(|ev| CostSnapshot::of(&ev.cost));
        let cost_json = cost
            .as_ref()
            .map(serde_json::to_string)
            .transpose()
            .map_err(|e| StoreError::Corrupt(format!("cannot encode the cost: {e}")))?;
        Ok(Facts {
            binding: label_of(&evaluated),
            cost,
            cost_json,
        })
    }

    /// The facts of `s` under the book in force on the transaction's connection.
    async fn on(conn: &mut DbConn, s: &Scenario) -> Result<Facts, StoreError> {
        Facts::of(s, &prices::book_on(conn).await?)
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

/// The scenario's row and revision as one save writes them.
fn save<'a>(s: &'a Scenario, body: &'a str, facts: &'a Facts) -> Save<'a> {
    let cost = facts.cost.as_ref();
    Save {
        name: &s.name,
        body,
        columns: vec![
            ("service", Value::Text(Some(s.storage.service.key()))),
            ("level", Value::Text(Some(s.storage.level.key()))),
            ("binding", Value::Text(Some(&facts.binding))),
        ],
        revision_columns: vec![
            (
                "price_book_id",
                Value::Text(cost.map(|c| &*c.price_book.id)),
            ),
            ("price_date", Value::Text(cost.map(|c| &*c.price_book.date))),
            ("cost", Value::Text(facts.cost_json.as_deref())),
        ],
    }
}

/// Saves a new scenario as revision 1, owned by and attributed to `by`, and records
/// `action` (created or imported); `s.id` is ignored. Returns the new id.
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
    let ownership = Ownership {
        owner: by.user.map(str::to_owned),
        visibility,
    };
    let id = RESOURCE
        .create(&mut tx, &save(s, &body, &facts), by, &ownership, action)
        .await?;
    tx.commit().await?;
    Ok(id)
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
    let facts = Facts::on(&mut tx, s).await?;
    let done = (Action::Changed, s.name.clone());
    let revision = RESOURCE
        .update(&mut tx, id, &save(s, &body, &facts), by, done, false)
        .await?;
    tx.commit().await?;
    Ok(revision)
}

/// Makes revision `number` of scenario `id` its newest revision (as a new one), by `by`.
pub async fn restore_revision_by(
    pool: &Db,
    id: i64,
    number: i64,
    by: Actor<'_>,
) -> Result<i64, StoreError> {
    let mut tx = begin_write(pool).await?;
    RESOURCE.access(&mut tx, id, by).await?;
    let body = RESOURCE.revision_body(&mut tx, id, number).await?;
    let s = decode(id, &body)?;
    let facts = Facts::on(&mut tx, &s).await?;
    let done = (Action::Restored, format!("{} (revision {number})", s.name));
    let revision = RESOURCE
        .update(&mut tx, id, &save(&s, &body, &facts), by, done, false)
        .await?;
    tx.commit().await?;
    Ok(revision)
}

/// The newest revision of scenario `id`.
pub async fn get_scenario(pool: &Db, id: i64) -> Result<StoredScenario, StoreError> {
    let row = RESOURCE.newest(pool, id, Actor::SINGLE_USER).await?;
    Ok(StoredScenario {
        id,
        revision: row.revision,
        scenario: decode(id, &row.body)?,
        created_at: row.created_at,
        updated_at: row.updated_at,
    })
}

/// Deletes scenario `id` with all its revisions, by `by`; `NotFound` if there is none or
/// `by` may not see it.
pub async fn delete_scenario_by(pool: &Db, id: i64, by: Actor<'_>) -> Result<(), StoreError> {
    RESOURCE.delete(pool, id, by).await
}

/// Every revision of scenario `id`, newest first; `NotFound` if there is no such scenario.
pub async fn list_revisions(pool: &Db, id: i64) -> Result<Vec<Revision>, StoreError> {
    RESOURCE.history(pool, id).await
}

/// Every revision of scenario `id` with its body, oldest first (for the history's
/// "what changed"); revisions whose body no longer reads are left out.
pub async fn revision_bodies(pool: &Db, id: i64) -> Result<Vec<(i64, Scenario)>, StoreError> {
    Ok(RESOURCE
        .bodies(pool, id)
        .await?
        .into_iter()
        .filter_map(|(n, body)| decode(id, &body).ok().map(|s| (n, s)))
        .collect())
}

/// Revision `number` of scenario `id`, with `id` set.
pub async fn get_revision(pool: &Db, id: i64, number: i64) -> Result<Scenario, StoreError> {
    let body = RESOURCE
        .revision_body(&mut *pool.acquire().await?, id, number)
        .await?;
    decode(id, &body)
}

/// The ownership of scenario `id` when `actor` may see it; `NotFound` when there is no
/// such scenario or it is private to someone else. Every route that reads or changes
/// a scenario by id asks this first.
pub async fn visible_scenario(
    pool: &Db,
    id: i64,
    actor: Actor<'_>,
) -> Result<Ownership, StoreError> {
    Ok(RESOURCE.visible(pool, id, actor).await?.ownership)
}

/// [`visible_scenario`] on `conn` (a write's transaction, so that it checks the row it
/// changes).
pub(crate) async fn ownership_on(
    conn: &mut DbConn,
    id: i64,
    actor: Actor<'_>,
) -> Result<Ownership, StoreError> {
    Ok(RESOURCE.access(conn, id, actor).await?.ownership)
}

/// Sets the visibility of scenario `id` and records it; the events of the scenario
/// (its measurements' too) follow it. `NotFound` when `actor` cannot see the scenario,
/// `Ok(None)` (nothing changed) when `actor` may see but not change it.
pub async fn set_visibility(
    pool: &Db,
    id: i64,
    visibility: Visibility,
    actor: Actor<'_>,
) -> Result<Option<Ownership>, StoreError> {
    Ok(
        match RESOURCE.set_visibility(pool, id, visibility, actor).await? {
            VisibilityChange::Done(o) => Some(o),
            VisibilityChange::NotAllowed | VisibilityChange::HoldsPrivate => None,
        },
    )
}
