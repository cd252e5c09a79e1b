//! The saved versions of a scenario or an estate: both keep every save as a numbered
//! revision with its name, time and author, listed the same way.

use super::{Db, DbConn, StoreError, bounds};
use serde::Serialize;

/// One saved version of a scenario or an estate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Revision {
    /// 1 for the first save, then counting up.
    pub number: i64,
    /// The scenario's or estate's name in that revision.
    pub name: String,
    pub created_at: String,
    /// The user who saved it; null in single-user mode.
    pub author: Option<String>,
}

/// Whose history a revision belongs to.
#[derive(Debug, Clone, Copy)]
pub enum History {
    Scenario,
    Estate,
}

impl History {
    /// `StoreError::Full` (nothing written) when `id` already keeps
    /// [`bounds::MAX_REVISIONS`] revisions; every save asks this first in its transaction.
    pub(super) async fn check_room(self, conn: &mut DbConn, id: i64) -> Result<(), StoreError> {
        let (sql, what, fix) = match self {
            History::Scenario => (
                "SELECT COUNT(*) FROM scenario_revisions WHERE scenario_id = $1",
                "scenario",
                "save it as a copy (a new scenario) to go on editing",
            ),
            History::Estate => (
                "SELECT COUNT(*) FROM estate_revisions WHERE estate_id = $1",
                "estate",
                "create a new estate with these workloads to go on editing",
            ),
        };
        let (held,): (i64,) = sqlx::query_as(sql).bind(id).fetch_one(&mut *conn).await?;
        bounds::check_revisions(held, what, fix)
    }

    fn list_sql(self) -> &'static str {
        match self {
            History::Scenario => {
                "SELECT number, name, created_at, author FROM scenario_revisions
                 WHERE scenario_id = $1 ORDER BY number DESC"
            }
            History::Estate => {
                "SELECT number, name, created_at, author FROM estate_revisions
                 WHERE estate_id = $1 ORDER BY number DESC"
            }
        }
    }
}

/// Every revision of scenario or estate `id`, newest first; `NotFound` without any.
pub async fn list(pool: &Db, history: History, id: i64) -> Result<Vec<Revision>, StoreError> {
    let revisions: Vec<Revision> = sqlx::query_as(history.list_sql())
        .bind(id)
        .fetch_all(pool)
        .await?;
    if revisions.is_empty() {
        return Err(StoreError::NotFound);
    }
    Ok(revisions)
}
