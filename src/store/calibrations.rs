//! A scenario's calibration to its own measured runs: the refitted parameters, stored
//! with the scenario and replaced by each refit.

use super::access::Actor;
use super::activity::{self, Action, Event, ObjectKind};
use super::scenarios::ownership_on;
use super::{Db, StoreError, begin_write};
use crate::engine::evaluation::{CalibrationNote, MovedParameter};

/// Stores `note` as scenario `id`'s calibration (replacing any), by `by`. `NotFound`
/// if there is no such scenario or `by` may not see it.
pub async fn save_calibration(
    pool: &Db,
    scenario_id: i64,
    note: &CalibrationNote,
    by: Actor<'_>,
) -> Result<(), StoreError> {
    let parameters = serde_json::to_string(&note.parameters)
        .map_err(|e| StoreError::Corrupt(format!("cannot encode a calibration: {e}")))?;
    let mut tx = begin_write(pool).await?;
    let ownership = ownership_on(&mut tx, scenario_id, by).await?;
    sqlx::query(
        "INSERT INTO scenario_calibrations (scenario_id, parameters, measurements,
             measured_vs_published_pct, measured_vs_refitted_pct)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (scenario_id) DO UPDATE
         SET parameters = excluded.parameters, measurements = excluded.measurements,
             measured_vs_published_pct = excluded.measured_vs_published_pct,
             measured_vs_refitted_pct = excluded.measured_vs_refitted_pct,
             created_at = excluded.created_at",
    )
    .bind(scenario_id)
    .bind(&parameters)
    .bind(i64::from(note.measurements))
    .bind(note.measured_vs_published_pct.filter(|v| v.is_finite()))
    .bind(note.measured_vs_refitted_pct.filter(|v| v.is_finite()))
    .execute(&mut *tx)
    .await?;
    let event = Event {
        actor: by.user,
        action: Action::Changed,
        kind: ObjectKind::Scenario,
        object_id: Some(scenario_id),
        scenario_id: Some(scenario_id),
        seen_as: Some(&ownership),
        revision: None,
        summary: format!("calibrated to {} measured run(s)", note.measurements),
    };
    activity::record(&mut tx, &event).await?;
    tx.commit().await?;
    Ok(())
}

/// Scenario `id`'s calibration, if it has one.
pub async fn get_calibration(
    pool: &Db,
    scenario_id: i64,
) -> Result<Option<CalibrationNote>, StoreError> {
    let row: Option<(String, i64, Option<f64>, Option<f64>)> = sqlx::query_as(
        "SELECT parameters, measurements, measured_vs_published_pct, measured_vs_refitted_pct
         FROM scenario_calibrations WHERE scenario_id = $1",
    )
    .bind(scenario_id)
    .fetch_optional(pool)
    .await?;
    let Some((parameters, measurements, published, refitted)) = row else {
        return Ok(None);
    };
    let parameters: Vec<MovedParameter> = serde_json::from_str(&parameters)
        .map_err(|e| StoreError::Corrupt(format!("calibration of scenario {scenario_id}: {e}")))?;
    Ok(Some(CalibrationNote {
        measurements: u32::try_from(measurements).unwrap_or(u32::MAX),
        parameters,
        measured_vs_published_pct: published,
        measured_vs_refitted_pct: refitted,
    }))
}
