//! The activity log: who created, changed, restored or deleted what, and when.
//!
//! Each event is written with [`record`] on the transaction of the change it records,
//! so a failed change leaves no event and every event's change happened. Events on a
//! scenario (and its measurements) are seen by the users who may see the scenario,
//! events on an estate by those who may see the estate.

use super::access::{Actor, Ownership, Visibility};
use super::{Db, DbConn, StoreError};
use serde::Serialize;

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Created,
    Imported,
    Changed,
    Restored,
    Deleted,
    /// A scenario became private or shared.
    Visibility,
}

impl Action {
    /// The key as the log stores it.
    pub fn key(self) -> &'static str {
        match self {
            Action::Created => "created",
            Action::Imported => "imported",
            Action::Changed => "changed",
            Action::Restored => "restored",
            Action::Deleted => "deleted",
            Action::Visibility => "visibility",
        }
    }
}

/// What kind of object an event is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectKind {
    Scenario,
    Estate,
    Measurement,
    /// Stored prices (imported or entered by hand).
    Prices,
}

impl ObjectKind {
    /// The key as the log stores it.
    pub fn key(self) -> &'static str {
        match self {
            ObjectKind::Scenario => "scenario",
            ObjectKind::Estate => "estate",
            ObjectKind::Measurement => "measurement",
            ObjectKind::Prices => "prices",
        }
    }
}

/// One event to record.
#[derive(Debug, Clone)]
pub struct Event<'a> {
    /// Who did it; `None` in single-user mode.
    pub actor: Option<&'a str>,
    pub action: Action,
    pub kind: ObjectKind,
    pub object_id: Option<i64>,
    /// The scenario the object belongs to (scenario and measurement events).
    pub scenario_id: Option<i64>,
    /// The ownership that decides who sees the event: its scenario's, or the estate's;
    /// `None` for events every user sees (prices).
    pub seen_as: Option<&'a Ownership>,
    /// The revision the change made, where it made one.
    pub revision: Option<i64>,
    /// A short description, e.g. the object's name.
    pub summary: String,
}

/// Most characters of an event's summary.
const SUMMARY_CHARS: usize = 300;

/// Writes `event` on `conn` (the change's own transaction), stamped now.
pub async fn record(conn: &mut DbConn, event: &Event<'_>) -> Result<(), StoreError> {
    let (owner, private) = match event.seen_as {
        Some(o) => (
            o.owner.as_deref(),
            i64::from(o.visibility == Visibility::Private),
        ),
        None => (None, 0),
    };
    let summary: String = event.summary.chars().take(SUMMARY_CHARS).collect();
    sqlx::query(
        "INSERT INTO activity
             (at, actor, action, object_kind, object_id, scenario_id, revision, summary, owner, private)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(super::now_utc())
    .bind(event.actor)
    .bind(event.action.key())
    .bind(event.kind.key())
    .bind(event.object_id)
    .bind(event.scenario_id)
    .bind(event.revision)
    .bind(summary)
    .bind(owner)
    .bind(private)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// One recorded event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct ActivityEvent {
    /// Increasing with every event; page back with `before`.
    pub id: i64,
    /// When, ISO-8601 UTC.
    pub at: String,
    /// Who; null in single-user mode.
    pub user: Option<String>,
    /// `created`, `imported`, `changed`, `restored`, `deleted` or `visibility`.
    pub action: String,
    /// `scenario`, `estate`, `measurement` or `prices`.
    pub kind: String,
    /// The object's id.
    pub object_id: Option<i64>,
    /// The scenario the object belongs to (scenario and measurement events).
    pub scenario_id: Option<i64>,
    /// The revision the change made, where it made one.
    pub revision: Option<i64>,
    /// What it was about, e.g. the name.
    pub summary: String,
}

/// The events `actor` may see, newest first: at most `limit`, all older than event
/// `before` when given.
pub async fn list_activity(
    pool: &Db,
    actor: Actor<'_>,
    limit: u32,
    before: Option<i64>,
) -> Result<Vec<ActivityEvent>, StoreError> {
    // The same rule as the scenarios' (`access::visible_sql`), on the copied columns.
    Ok(sqlx::query_as(
        "SELECT id, at, actor AS \"user\", action, object_kind AS kind, object_id, scenario_id,
                revision, summary
         FROM activity
         WHERE id < $1 AND (private = 0 OR owner = $2 OR $3 = 1)
         ORDER BY id DESC
         LIMIT $4",
    )
    .bind(before.unwrap_or(i64::MAX))
    .bind(actor.user)
    .bind(actor.all_flag())
    .bind(i64::from(limit))
    .fetch_all(pool)
    .await?)
}
