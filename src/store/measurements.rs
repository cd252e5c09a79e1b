//! Benchmark measurements attached to a scenario, each tagged with the scenario revision
//! that was current when it was uploaded. A scenario and an owner keep at most the runs
//! of [`super::bounds`]; every read takes a bounded page or the newest runs, in SQL.

use super::access::Actor;
use super::activity::{self, Action, Event, ObjectKind};
use super::scenarios::ownership_on;
use super::{Db, StoreError, begin_write, bounds};
use crate::engine::Scenario;
use crate::measure::{Format, Measurement, plausible};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;

/// A measurement as stored.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredMeasurement {
    pub id: i64,
    pub scenario_id: i64,
    /// The scenario revision current at upload.
    pub revision: i64,
    pub format: Format,
    pub measurement: Measurement,
    /// What the importer skipped or assumed for the file this run came from.
    pub warnings: Vec<String>,
    /// ISO-8601 UTC.
    pub created_at: String,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    scenario_id: i64,
    revision: i64,
    format: String,
    body: String,
    warnings: String,
    created_at: String,
}

fn corrupt(id: i64, what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(format!("measurement {id}: {what}: {e}"))
}

impl TryFrom<Row> for StoredMeasurement {
    type Error = StoreError;

    fn try_from(r: Row) -> Result<Self, StoreError> {
        Ok(StoredMeasurement {
            id: r.id,
            scenario_id: r.scenario_id,
            revision: r.revision,
            format: serde_json::from_value(serde_json::Value::String(r.format.clone()))
                .map_err(|e| corrupt(r.id, "format", e))?,
            measurement: serde_json::from_str(&r.body).map_err(|e| corrupt(r.id, "body", e))?,
            warnings: serde_json::from_str(&r.warnings)
                .map_err(|e| corrupt(r.id, "warnings", e))?,
            created_at: r.created_at,
        })
    }
}

fn format_key(f: Format) -> Result<String, StoreError> {
    match serde_json::to_value(f) {
        Ok(serde_json::Value::String(s)) => Ok(s),
        _ => Err(StoreError::Corrupt("cannot encode the format".to_owned())),
    }
}

/// Saves the runs of one uploaded file under scenario `id` at its current revision, by
/// `by`. Returns the stored rows in order; `NotFound` if there is no such scenario or
/// `by` may not see it, `Full` (nothing saved) past the caps of [`bounds::check_runs`].
pub async fn add_measurements(
    pool: &Db,
    scenario_id: i64,
    format: Format,
    runs: &[Measurement],
    warnings: &[String],
    by: Actor<'_>,
) -> Result<Vec<StoredMeasurement>, StoreError> {
    let format_text = format_key(format)?;
    let warnings_text = serde_json::to_string(warnings)
        .map_err(|e| StoreError::Corrupt(format!("cannot encode warnings: {e}")))?;
    let mut tx = begin_write(pool).await?;
    let ownership = ownership_on(&mut tx, scenario_id, by).await?;
    bounds::check_runs(&mut tx, scenario_id, ownership.owner.as_deref(), runs.len()).await?;
    let (revision,): (i64,) = sqlx::query_as("SELECT revision FROM scenarios WHERE id = $1")
        .bind(scenario_id)
        .fetch_one(&mut *tx)
        .await?;
    let mut out = Vec::with_capacity(runs.len());
    for m in runs {
        let body = serde_json::to_string(m)
            .map_err(|e| StoreError::Corrupt(format!("cannot encode a measurement: {e}")))?;
        let row: Row = sqlx::query_as(
            "INSERT INTO measurements (scenario_id, revision, format, label, body, warnings)
             VALUES ($1, $2, $3, $4, $5, $6)
             RETURNING id, scenario_id, revision, format, body, warnings, created_at",
        )
        .bind(scenario_id)
        .bind(revision)
        .bind(&format_text)
        .bind(&m.label)
        .bind(&body)
        .bind(&warnings_text)
        .fetch_one(&mut *tx)
        .await?;
        out.push(row.try_into()?);
    }
    let labels: Vec<&str> = runs.iter().map(|m| m.label.as_str()).collect();
    let event = Event {
        actor: by.user,
        action: Action::Imported,
        kind: ObjectKind::Measurement,
        object_id: out.first().map(|m: &StoredMeasurement| m.id),
        scenario_id: Some(scenario_id),
        seen_as: Some(&ownership),
        revision: Some(revision),
        summary: format!(
            "{} run(s) from {format_text}: {}",
            runs.len(),
            labels.join(", ")
        ),
    };
    activity::record(&mut tx, &event).await?;
    tx.commit().await?;
    Ok(out)
}

const COLUMNS: &str = "id, scenario_id, revision, format, body, warnings, created_at";

/// `NotFound` unless scenario `id` exists.
async fn scenario_exists(pool: &Db, scenario_id: i64) -> Result<(), StoreError> {
    sqlx::query_as::<_, (i64,)>("SELECT id FROM scenarios WHERE id = $1")
        .bind(scenario_id)
        .fetch_one(pool)
        .await?;
    Ok(())
}

/// One page of scenario `id`'s runs, oldest first: at most `limit` after skipping
/// `offset`, with the number stored in all; `NotFound` if there is no such scenario.
/// Unreadable rows are left out of the page (see [`readable`]), not of the count.
pub async fn page(
    pool: &Db,
    scenario_id: i64,
    limit: u32,
    offset: u64,
) -> Result<(Vec<StoredMeasurement>, i64), StoreError> {
    scenario_exists(pool, scenario_id).await?;
    let (total,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM measurements WHERE scenario_id = $1")
            .bind(scenario_id)
            .fetch_one(pool)
            .await?;
    let sql = format!(
        "SELECT {COLUMNS} FROM measurements WHERE scenario_id = $1 ORDER BY id LIMIT $2 OFFSET $3"
    );
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(scenario_id)
        .bind(i64::from(limit))
        .bind(i64::try_from(offset).unwrap_or(i64::MAX))
        .fetch_all(pool)
        .await?;
    Ok((rows.into_iter().filter_map(readable).collect(), total))
}

/// The newest `n` readable runs of scenario `id`, oldest first; `NotFound` if there is
/// no such scenario.
pub async fn latest(
    pool: &Db,
    scenario_id: i64,
    n: u32,
) -> Result<Vec<StoredMeasurement>, StoreError> {
    scenario_exists(pool, scenario_id).await?;
    let sql = format!(
        "SELECT {COLUMNS} FROM measurements WHERE scenario_id = $1 ORDER BY id DESC LIMIT $2"
    );
    let rows: Vec<Row> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(scenario_id)
        .bind(i64::from(n))
        .fetch_all(pool)
        .await?;
    Ok(rows.into_iter().rev().filter_map(readable).collect())
}

/// Run `id` of scenario `scenario_id`; `NotFound` if there is none or it is unreadable.
pub async fn get(pool: &Db, scenario_id: i64, id: i64) -> Result<StoredMeasurement, StoreError> {
    let sql = format!("SELECT {COLUMNS} FROM measurements WHERE id = $1 AND scenario_id = $2");
    let row: Row = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .bind(scenario_id)
        .fetch_one(pool)
        .await?;
    readable(row).ok_or(StoreError::NotFound)
}

/// Runs of scenario `id`, each with the scenario revision it was uploaded against
/// (`None` when that revision is gone); runs of one revision share it, read once.
pub async fn with_revisions(
    pool: &Db,
    scenario_id: i64,
    runs: Vec<StoredMeasurement>,
) -> Result<Vec<(StoredMeasurement, Option<Arc<Scenario>>)>, StoreError> {
    let mut revisions: HashMap<i64, Option<Arc<Scenario>>> = HashMap::new();
    let mut out = Vec::with_capacity(runs.len());
    for r in runs {
        let sc = match revisions.get(&r.revision) {
            Some(sc) => sc.clone(),
            None => {
                let sc = match super::get_revision(pool, scenario_id, r.revision).await {
                    Ok(s) => Some(Arc::new(s)),
                    Err(StoreError::NotFound) => None,
                    Err(e) => return Err(e),
                };
                revisions.insert(r.revision, sc.clone());
                sc
            }
        };
        out.push((r, sc));
    }
    Ok(out)
}

/// A stored run as the charts and comparisons may use it: one that does not decode, or
/// whose figures are outside the importer's ranges (stored before they were checked,
/// or changed by hand), is left out with a warning in the log, never answered as an
/// error; it can still be deleted by its id.
fn readable(row: Row) -> Option<StoredMeasurement> {
    let id = row.id;
    let checked = StoredMeasurement::try_from(row).and_then(|m| {
        plausible::check(&m.measurement)
            .map(|()| m)
            .map_err(|e| corrupt(id, "body", e.to_string()))
    });
    checked
        .inspect_err(|e| tracing::warn!("left out an unreadable stored run: {e}"))
        .ok()
}

/// Deletes measurement `id` of scenario `scenario_id`, by `by`; `NotFound` if there is
/// none (or `by` may not see the scenario).
pub async fn delete_measurement(
    pool: &Db,
    scenario_id: i64,
    id: i64,
    by: Actor<'_>,
) -> Result<(), StoreError> {
    let mut tx = begin_write(pool).await?;
    let ownership = ownership_on(&mut tx, scenario_id, by).await?;
    let (label,): (String,) = sqlx::query_as(
        "DELETE FROM measurements WHERE id = $1 AND scenario_id = $2 RETURNING label",
    )
    .bind(id)
    .bind(scenario_id)
    .fetch_one(&mut *tx)
    .await?;
    let event = Event {
        actor: by.user,
        action: Action::Deleted,
        kind: ObjectKind::Measurement,
        object_id: Some(id),
        scenario_id: Some(scenario_id),
        seen_as: Some(&ownership),
        revision: None,
        summary: label,
    };
    activity::record(&mut tx, &event).await?;
    tx.commit().await?;
    Ok(())
}
