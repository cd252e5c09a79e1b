//! How much the store keeps per scenario, estate and owner. Each cap is far above what a
//! real plan needs (a test campaign is tens of runs, a scenario's history some dozens
//! of saves) and keeps every page, chart and answer built from the stored rows bounded.
//! A write past a cap is refused before anything changes ([`StoreError::Full`]), with a
//! sentence that names the cap and what to do; nothing is pruned.

use super::{DbConn, StoreError};

/// Most benchmark runs one scenario keeps (a 1 MiB fio file carries about 300).
pub const MAX_RUNS_PER_SCENARIO: i64 = 2_000;
/// Most benchmark runs one owner's scenarios keep together (in single-user mode, the
/// whole database).
pub const MAX_RUNS_PER_OWNER: i64 = 20_000;
/// Most revisions one scenario or estate keeps.
pub const MAX_REVISIONS: i64 = 1_000;
/// `StoreError::Full` unless scenario `id` (owned by `owner`) has room for `adding`
/// more runs, per scenario and per owner.
pub async fn check_runs(
    conn: &mut DbConn,
    scenario_id: i64,
    owner: Option<&str>,
    adding: usize,
) -> Result<(), StoreError> {
    let adding = i64::try_from(adding).unwrap_or(i64::MAX);
    let (held,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM measurements WHERE scenario_id = $1")
            .bind(scenario_id)
            .fetch_one(&mut *conn)
            .await?;
    if held.saturating_add(adding) > MAX_RUNS_PER_SCENARIO {
        return Err(StoreError::Full(format!(
            "this scenario already has {held} runs and the file adds {adding}; one scenario \
             keeps at most {MAX_RUNS_PER_SCENARIO} runs: delete some runs first, or attach \
             the file to a copy of the scenario"
        )));
    }
    let (owned,): (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM measurements m JOIN scenarios s ON s.id = m.scenario_id
         WHERE s.owner IS NOT DISTINCT FROM $1",
    )
    .bind(owner)
    .fetch_one(&mut *conn)
    .await?;
    if owned.saturating_add(adding) > MAX_RUNS_PER_OWNER {
        return Err(StoreError::Full(format!(
            "your scenarios already have {owned} runs and the file adds {adding}; one owner \
             keeps at most {MAX_RUNS_PER_OWNER} runs: delete runs of scenarios you no longer \
             need first"
        )));
    }
    Ok(())
}

/// `StoreError::Full` when `held` revisions of a `what` (scenario, estate) leave no room
/// for one more; `fix` says how to go on editing.
pub fn check_revisions(held: i64, what: &str, fix: &str) -> Result<(), StoreError> {
    if held >= MAX_REVISIONS {
        return Err(StoreError::Full(format!(
            "this {what} already has {held} revisions, the most one {what} keeps; {fix} \
             (this one keeps its history)"
        )));
    }
    Ok(())
}
