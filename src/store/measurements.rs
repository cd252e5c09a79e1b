//! Benchmark measurements attached to a scenario, each tagged with the scenario revision
//! that was current when it was uploaded.

use super::access::{Actor, ownership_on};
use super::activity::{self, Action, Event, ObjectKind};
use super::{Db, StoreError, begin_write};
use crate::measure::{Format, MeasuredPoint, Measurement, measured_point, ranges};
use serde::Serialize;

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
/// `by` may not see it.
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

/// Every readable measurement of scenario `id`, oldest first; `NotFound` if there is no
/// such scenario.
pub async fn list_measurements(
    pool: &Db,
    scenario_id: i64,
) -> Result<Vec<StoredMeasurement>, StoreError> {
    let exists: Option<(i64,)> = sqlx::query_as("SELECT id FROM scenarios WHERE id = $1")
        .bind(scenario_id)
        .fetch_optional(pool)
        .await?;
    if exists.is_none() {
        return Err(StoreError::NotFound);
    }
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT id, scenario_id, revision, format, body, warnings, created_at
         FROM measurements WHERE scenario_id = $1 ORDER BY id",
    )
    .bind(scenario_id)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().filter_map(readable).collect())
}

/// A stored run as the charts and comparisons may use it: one that does not decode, or
/// whose figures are outside the importer's ranges (stored before they were checked,
/// or changed by hand), is left out with a warning in the log, never answered as an
/// error; it can still be deleted by its id.
fn readable(row: Row) -> Option<StoredMeasurement> {
    let id = row.id;
    let checked = StoredMeasurement::try_from(row).and_then(|m| {
        ranges::check(&m.measurement)
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

/// The runs of scenario `id` as chart points, each placed with the scenario revision it
/// was uploaded against (runs whose revision is gone are left out). `NotFound` if there is
/// no such scenario.
pub async fn measured_points(
    pool: &Db,
    scenario_id: i64,
) -> Result<Vec<MeasuredPoint>, StoreError> {
    let runs = list_measurements(pool, scenario_id).await?;
    let mut out = Vec::with_capacity(runs.len());
    let mut cached: Option<(i64, crate::engine::Scenario)> = None;
    for r in runs {
        if cached.as_ref().is_none_or(|(rev, _)| *rev != r.revision) {
            match super::get_revision(pool, scenario_id, r.revision).await {
                Ok(s) => cached = Some((r.revision, s)),
                Err(StoreError::NotFound) => continue,
                Err(e) => return Err(e),
            }
        }
        if let Some((_, s)) = &cached {
            out.push(measured_point(&r.measurement, s));
        }
    }
    Ok(out)
}
