//! Making a scenario private or shared: the change and its activity event, in one
//! transaction.

use super::access::{Actor, Ownership, Visibility, ownership_on};
use super::activity::{self, Action, Event, ObjectKind};
use super::{Db, StoreError, begin_write};

/// Sets the visibility of scenario `id` and records it; the events of the scenario
/// follow it. `NotFound` when `actor` cannot see the scenario, `Ok(None)` (nothing
/// changed) when `actor` may see but not change it.
pub async fn set_visibility(
    pool: &Db,
    id: i64,
    visibility: Visibility,
    actor: Actor<'_>,
) -> Result<Option<Ownership>, StoreError> {
    let mut tx = begin_write(pool).await?;
    let ownership = ownership_on(&mut tx, id, actor).await?;
    if !ownership.may_change_visibility(actor) {
        return Ok(None);
    }
    if ownership.visibility == visibility {
        return Ok(Some(ownership));
    }
    sqlx::query("UPDATE scenarios SET visibility = $2 WHERE id = $1")
        .bind(id)
        .bind(visibility.key())
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE activity SET private = $2 WHERE scenario_id = $1")
        .bind(id)
        .bind(i64::from(visibility == Visibility::Private))
        .execute(&mut *tx)
        .await?;
    let (name,): (String,) = sqlx::query_as("SELECT name FROM scenarios WHERE id = $1")
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
    let changed = Ownership {
        visibility,
        ..ownership
    };
    activity::record(
        &mut tx,
        &Event {
            actor: actor.user,
            action: Action::Visibility,
            kind: ObjectKind::Scenario,
            object_id: Some(id),
            scenario_id: Some(id),
            seen_as: Some(&changed),
            revision: None,
            summary: format!("{name}: {}", visibility.key()),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(Some(changed))
}
