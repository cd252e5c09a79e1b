//! Scenarios with their full revision history.
//!
//! Every save adds a revision; a restore copies an old revision into a new one, so
//! nothing is ever overwritten. The JSON is stored without the id (the row has it).

use super::{StoreError, begin_write};
use crate::engine::Scenario;
use serde::Serialize;
use sqlx::{SqliteConnection, SqlitePool};

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
}

/// One saved version of a scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Revision {
    /// 1 for the first save, then counting up.
    pub number: i64,
    /// The scenario's name in that revision.
    pub name: String,
    pub created_at: String,
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
    s.id = Some(id);
    Ok(s)
}

/// Saves a new scenario as revision 1; `s.id` is ignored. Returns the new id.
pub async fn create_scenario(pool: &SqlitePool, s: &Scenario) -> Result<i64, StoreError> {
    let body = encode(s)?;
    let mut tx = begin_write(pool).await?;
    let (id,): (i64,) = sqlx::query_as(
        "INSERT INTO scenarios (name, service, level, revision, body, touched)
         VALUES ($1, $2, $3, 1, $4, (SELECT COALESCE(MAX(touched), 0) + 1 FROM scenarios))
         RETURNING id",
    )
    .bind(&s.name)
    .bind(s.storage.service.key())
    .bind(s.storage.level.key())
    .bind(&body)
    .fetch_one(&mut *tx)
    .await?;
    insert_revision(&mut tx, id, 1, &s.name, &body).await?;
    tx.commit().await?;
    Ok(id)
}

/// Saves `s` as the next revision of scenario `id`; `NotFound` if there is none.
pub async fn update_scenario(pool: &SqlitePool, id: i64, s: &Scenario) -> Result<i64, StoreError> {
    let body = encode(s)?;
    let mut tx = begin_write(pool).await?;
    let revision = save_revision(&mut tx, id, s, &body).await?;
    tx.commit().await?;
    Ok(revision)
}

/// Makes revision `number` of scenario `id` its newest revision (as a new one).
pub async fn restore_revision(pool: &SqlitePool, id: i64, number: i64) -> Result<i64, StoreError> {
    let mut tx = begin_write(pool).await?;
    let (body,): (String,) = sqlx::query_as(
        "SELECT body FROM scenario_revisions WHERE scenario_id = $1 AND number = $2",
    )
    .bind(id)
    .bind(number)
    .fetch_one(&mut *tx)
    .await?;
    let s = decode(id, &body)?;
    let revision = save_revision(&mut tx, id, &s, &body).await?;
    tx.commit().await?;
    Ok(revision)
}

/// Bumps the scenario row to the next revision and records that revision.
async fn save_revision(
    conn: &mut SqliteConnection,
    id: i64,
    s: &Scenario,
    body: &str,
) -> Result<i64, StoreError> {
    let (revision,): (i64,) = sqlx::query_as(
        "UPDATE scenarios
         SET name = $2, service = $3, level = $4, body = $5, revision = revision + 1,
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now'),
             touched = (SELECT COALESCE(MAX(touched), 0) + 1 FROM scenarios)
         WHERE id = $1
         RETURNING revision",
    )
    .bind(id)
    .bind(&s.name)
    .bind(s.storage.service.key())
    .bind(s.storage.level.key())
    .bind(body)
    .fetch_one(&mut *conn)
    .await?;
    insert_revision(conn, id, revision, &s.name, body).await?;
    Ok(revision)
}

async fn insert_revision(
    conn: &mut SqliteConnection,
    id: i64,
    number: i64,
    name: &str,
    body: &str,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO scenario_revisions (scenario_id, number, name, body) VALUES ($1, $2, $3, $4)",
    )
    .bind(id)
    .bind(number)
    .bind(name)
    .bind(body)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The newest revision of scenario `id`.
pub async fn get_scenario(pool: &SqlitePool, id: i64) -> Result<StoredScenario, StoreError> {
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

/// All scenarios, most recently saved first; `search` keeps those whose name, service
/// or level contains it (case-insensitive for ASCII).
pub async fn list_scenarios(
    pool: &SqlitePool,
    search: Option<&str>,
) -> Result<Vec<ScenarioSummary>, StoreError> {
    let pattern = match search.map(str::trim) {
        Some(q) if !q.is_empty() => format!("%{}%", escape_like(q)),
        _ => "%".to_owned(),
    };
    Ok(sqlx::query_as(
        "SELECT id, name, service, level, updated_at, revision FROM scenarios
         WHERE name LIKE $1 ESCAPE '\\' OR service LIKE $1 ESCAPE '\\' OR level LIKE $1 ESCAPE '\\'
         ORDER BY touched DESC",
    )
    .bind(pattern)
    .fetch_all(pool)
    .await?)
}

/// Makes `%`, `_` and `\` match themselves in a LIKE pattern.
fn escape_like(q: &str) -> String {
    let mut out = String::with_capacity(q.len());
    for c in q.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Deletes scenario `id` with all its revisions; `NotFound` if there is none.
pub async fn delete_scenario(pool: &SqlitePool, id: i64) -> Result<(), StoreError> {
    let mut tx = begin_write(pool).await?;
    // Explicit, so the history goes even on a connection with foreign keys off.
    sqlx::query("DELETE FROM scenario_revisions WHERE scenario_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    let done = sqlx::query("DELETE FROM scenarios WHERE id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    if done.rows_affected() == 0 {
        return Err(StoreError::NotFound);
    }
    tx.commit().await?;
    Ok(())
}

/// Every revision of scenario `id`, newest first; `NotFound` if there is no such scenario.
pub async fn list_revisions(pool: &SqlitePool, id: i64) -> Result<Vec<Revision>, StoreError> {
    let revisions: Vec<Revision> = sqlx::query_as(
        "SELECT number, name, created_at FROM scenario_revisions
         WHERE scenario_id = $1 ORDER BY number DESC",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    if revisions.is_empty() {
        return Err(StoreError::NotFound);
    }
    Ok(revisions)
}

/// Revision `number` of scenario `id`, with `id` set.
pub async fn get_revision(pool: &SqlitePool, id: i64, number: i64) -> Result<Scenario, StoreError> {
    let (body,): (String,) = sqlx::query_as(
        "SELECT body FROM scenario_revisions WHERE scenario_id = $1 AND number = $2",
    )
    .bind(id)
    .bind(number)
    .fetch_one(pool)
    .await?;
    decode(id, &body)
}

#[cfg(test)]
mod tests {
    use super::escape_like;

    #[test]
    fn like_wildcards_match_literally() {
        assert_eq!(escape_like("50%_a\\b"), "50\\%\\_a\\\\b");
        assert_eq!(escape_like("plain"), "plain");
    }
}
