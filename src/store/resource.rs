//! A versioned, owned, visible resource: scenarios and estates are both a row holding
//! the newest revision and a table of every revision, nothing overwritten; both have an
//! owner and a visibility that every read and change by id checks (`NotFound` to those
//! who may not see it); both record what is done to them in the activity log, whose
//! events follow their visibility. [`Resource`] names one kind's tables and columns;
//! its methods are the one implementation of access, create, update with a revision,
//! history, visibility and delete that the scenario and estate stores stand on.

use super::access::{Actor, Ownership, Visibility, visible_sql};
use super::activity::{self, Action, Event, ObjectKind};
use super::{Db, DbConn, StoreError, begin_write, bounds};
use serde::Serialize;
use sqlx::AssertSqlSafe;

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

/// How a change of visibility ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VisibilityChange {
    Done(Ownership),
    /// The actor may see it but not change who sees it.
    NotAllowed,
    /// It holds a private scenario's inputs and stays private.
    HoldsPrivate,
}

/// Who owns a resource, who sees it, and whether it holds a private scenario's inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Access {
    pub ownership: Ownership,
    /// The inputs of a private scenario were added: it may not become shared.
    pub holds_private: bool,
}

/// A column's value in a save.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Value<'a> {
    Text(Option<&'a str>),
    Int(i64),
}

/// What one save writes: the name and the body, with the resource's own columns of
/// its row and of the revision.
pub(crate) struct Save<'a> {
    pub name: &'a str,
    pub body: &'a str,
    pub columns: Vec<(&'static str, Value<'a>)>,
    pub revision_columns: Vec<(&'static str, Value<'a>)>,
}

/// The newest revision as the row holds it.
#[derive(sqlx::FromRow)]
pub(crate) struct Newest {
    pub revision: i64,
    pub body: String,
    pub created_at: String,
    pub updated_at: String,
}

/// One kind of versioned, owned, visible resource: its tables and columns.
pub(crate) struct Resource {
    /// The table of the newest revisions, one row each (`scenarios`).
    pub table: &'static str,
    /// The table of every revision (`scenario_revisions`) and its column naming the row.
    pub revisions: &'static str,
    pub parent: &'static str,
    pub kind: ObjectKind,
    /// The condition on `activity` (the id as `$1`) that picks the events following
    /// its visibility.
    pub events: &'static str,
    /// The column that marks it as holding a private scenario's inputs, if it has one.
    pub holds_private: Option<&'static str>,
    /// Said when it keeps the most revisions: what it is, and what to do instead.
    pub full: (&'static str, &'static str),
}

/// `values` bound in order, after the binds already on the query.
macro_rules! bind_values {
    ($query:expr, $values:expr) => {{
        let mut q = $query;
        for (_, v) in $values {
            q = match *v {
                Value::Text(t) => q.bind(t),
                Value::Int(i) => q.bind(i),
            };
        }
        q
    }};
}

/// `col = $n, ...` for `columns`, numbered from `first`.
fn assignments(columns: &[(&str, Value)], first: usize) -> String {
    columns
        .iter()
        .enumerate()
        .map(|(i, (c, _))| format!(", {c} = ${}", first + i))
        .collect()
}

/// `, col, ...` and `, $n, ...` for `columns`, numbered from `first`.
fn insert_lists(columns: &[(&str, Value)], first: usize) -> (String, String) {
    let names = columns.iter().map(|(c, _)| format!(", {c}")).collect();
    let binds = (0..columns.len())
        .map(|i| format!(", ${}", first + i))
        .collect();
    (names, binds)
}

impl Resource {
    /// An event on `id` by `by`, seen by those who may see it as `seen_as`.
    pub fn event<'a>(
        &self,
        by: Actor<'a>,
        action: Action,
        id: i64,
        seen_as: &'a Ownership,
        revision: Option<i64>,
        summary: String,
    ) -> Event<'a> {
        Event {
            actor: by.user,
            action,
            kind: self.kind,
            object_id: Some(id),
            scenario_id: (self.kind == ObjectKind::Scenario).then_some(id),
            seen_as: Some(seen_as),
            revision,
            summary,
        }
    }

    /// `id`'s access when `actor` may see it; `NotFound` when there is none or it is
    /// private to someone else. On a write's transaction it checks the row it changes.
    pub async fn access(
        &self,
        conn: &mut DbConn,
        id: i64,
        actor: Actor<'_>,
    ) -> Result<Access, StoreError> {
        let sql = format!(
            "SELECT owner, visibility, {} FROM {} WHERE id = $1 AND {}",
            self.holds_private.unwrap_or("CAST(0 AS BIGINT)"),
            self.table,
            visible_sql(2, 3)
        );
        let (owner, visibility, holds_private): (Option<String>, String, i64) =
            sqlx::query_as(AssertSqlSafe(sql))
                .bind(id)
                .bind(actor.user)
                .bind(actor.all_flag())
                .fetch_one(&mut *conn)
                .await?;
        Ok(Access {
            ownership: Ownership {
                owner,
                visibility: Visibility::of_key(&visibility),
            },
            holds_private: holds_private != 0,
        })
    }

    /// [`Resource::access`] on a connection of `pool`.
    pub async fn visible(
        &self,
        pool: &Db,
        id: i64,
        actor: Actor<'_>,
    ) -> Result<Access, StoreError> {
        self.access(&mut *pool.acquire().await?, id, actor).await
    }

    /// `StoreError::Full` (nothing written) when `id` already keeps
    /// [`bounds::MAX_REVISIONS`] revisions; every save asks this first in its transaction.
    async fn check_room(&self, conn: &mut DbConn, id: i64) -> Result<(), StoreError> {
        let sql = format!(
            "SELECT COUNT(*) FROM {} WHERE {} = $1",
            self.revisions, self.parent
        );
        let (held,): (i64,) = sqlx::query_as(AssertSqlSafe(sql))
            .bind(id)
            .fetch_one(&mut *conn)
            .await?;
        bounds::check_revisions(held, self.full.0, self.full.1)
    }

    async fn insert_revision(
        &self,
        conn: &mut DbConn,
        id: i64,
        number: i64,
        save: &Save<'_>,
        author: Option<&str>,
    ) -> Result<(), StoreError> {
        let (names, binds) = insert_lists(&save.revision_columns, 6);
        let sql = format!(
            "INSERT INTO {} ({}, number, name, body, author{names})
             VALUES ($1, $2, $3, $4, $5{binds})",
            self.revisions, self.parent
        );
        let query = sqlx::query(AssertSqlSafe(sql))
            .bind(id)
            .bind(number)
            .bind(save.name)
            .bind(save.body)
            .bind(author);
        bind_values!(query, &save.revision_columns)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Saves a new row as revision 1 on the caller's write transaction, owned as
    /// `ownership`, and records `action` by `by`. Returns the new id.
    pub async fn create(
        &self,
        conn: &mut DbConn,
        save: &Save<'_>,
        by: Actor<'_>,
        ownership: &Ownership,
        action: Action,
    ) -> Result<i64, StoreError> {
        let (names, binds) = insert_lists(&save.columns, 5);
        let sql = format!(
            "INSERT INTO {table} (name, body, revision, touched, owner, visibility{names})
             VALUES ($1, $2, 1, (SELECT COALESCE(MAX(touched), 0) + 1 FROM {table}), $3, $4{binds})
             RETURNING id",
            table = self.table
        );
        let query = sqlx::query_as(AssertSqlSafe(sql))
            .bind(save.name)
            .bind(save.body)
            .bind(ownership.owner.as_deref())
            .bind(ownership.visibility.key());
        let (id,): (i64,) = bind_values!(query, &save.columns)
            .fetch_one(&mut *conn)
            .await?;
        self.insert_revision(conn, id, 1, save, by.user).await?;
        let event = self.event(by, action, id, ownership, Some(1), save.name.to_owned());
        activity::record(conn, &event).await?;
        Ok(id)
    }

    /// Saves the next revision of `id` by `by` on the caller's write transaction and
    /// records `action` with `summary`; `NotFound` if there is none `by` may see,
    /// `Full` when it keeps the most revisions. With `seal_private` (a resource that
    /// takes a private scenario's inputs) it becomes private for good.
    pub async fn update(
        &self,
        conn: &mut DbConn,
        id: i64,
        save: &Save<'_>,
        by: Actor<'_>,
        (action, summary): (Action, String),
        seal_private: bool,
    ) -> Result<i64, StoreError> {
        let mut ownership = self.access(conn, id, by).await?.ownership;
        self.check_room(conn, id).await?;
        if let Some(column) = self.holds_private.filter(|_| seal_private) {
            ownership.visibility = Visibility::Private;
            let sql = format!(
                "UPDATE {} SET visibility = 'private', {column} = 1 WHERE id = $1",
                self.table
            );
            sqlx::query(AssertSqlSafe(sql))
                .bind(id)
                .execute(&mut *conn)
                .await?;
            self.hide_events(conn, id, true).await?;
        }
        let sql = format!(
            "UPDATE {table}
             SET name = $2, body = $3, revision = revision + 1, updated_at = $4,
                 touched = (SELECT COALESCE(MAX(touched), 0) + 1 FROM {table}){columns}
             WHERE id = $1 RETURNING revision",
            table = self.table,
            columns = assignments(&save.columns, 5)
        );
        let query = sqlx::query_as(AssertSqlSafe(sql))
            .bind(id)
            .bind(save.name)
            .bind(save.body)
            .bind(super::now_utc());
        let (revision,): (i64,) = bind_values!(query, &save.columns)
            .fetch_one(&mut *conn)
            .await?;
        self.insert_revision(conn, id, revision, save, by.user)
            .await?;
        let event = self.event(by, action, id, &ownership, Some(revision), summary);
        activity::record(conn, &event).await?;
        Ok(revision)
    }

    /// Its events follow its visibility.
    async fn hide_events(
        &self,
        conn: &mut DbConn,
        id: i64,
        private: bool,
    ) -> Result<(), StoreError> {
        let sql = format!("UPDATE activity SET private = $2 WHERE {}", self.events);
        sqlx::query(AssertSqlSafe(sql))
            .bind(id)
            .bind(i64::from(private))
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Sets the visibility of `id` by `actor` (its owner or one who sees all) and
    /// records it; `NotFound` when `actor` cannot see it.
    pub async fn set_visibility(
        &self,
        pool: &Db,
        id: i64,
        visibility: Visibility,
        actor: Actor<'_>,
    ) -> Result<VisibilityChange, StoreError> {
        let mut tx = begin_write(pool).await?;
        let access = self.access(&mut tx, id, actor).await?;
        if !access.ownership.may_change_visibility(actor) {
            return Ok(VisibilityChange::NotAllowed);
        }
        if visibility == Visibility::Shared && access.holds_private {
            return Ok(VisibilityChange::HoldsPrivate);
        }
        let changed = Ownership {
            visibility,
            ..access.ownership
        };
        if access.ownership.visibility != visibility {
            let sql = format!(
                "UPDATE {} SET visibility = $2 WHERE id = $1 RETURNING name",
                self.table
            );
            let (name,): (String,) = sqlx::query_as(AssertSqlSafe(sql))
                .bind(id)
                .bind(visibility.key())
                .fetch_one(&mut *tx)
                .await?;
            self.hide_events(&mut tx, id, visibility == Visibility::Private)
                .await?;
            let summary = format!("{name}: {}", visibility.key());
            let event = self.event(actor, Action::Visibility, id, &changed, None, summary);
            activity::record(&mut tx, &event).await?;
        }
        tx.commit().await?;
        Ok(VisibilityChange::Done(changed))
    }

    /// The newest revision of `id`, if `by` may see it.
    pub async fn newest(&self, pool: &Db, id: i64, by: Actor<'_>) -> Result<Newest, StoreError> {
        let sql = format!(
            "SELECT revision, body, created_at, updated_at FROM {} WHERE id = $1 AND {}",
            self.table,
            visible_sql(2, 3)
        );
        Ok(sqlx::query_as(AssertSqlSafe(sql))
            .bind(id)
            .bind(by.user)
            .bind(by.all_flag())
            .fetch_one(pool)
            .await?)
    }

    /// The body of revision `number` of `id` (no visibility check: the caller made it).
    pub async fn revision_body(
        &self,
        conn: &mut DbConn,
        id: i64,
        number: i64,
    ) -> Result<String, StoreError> {
        let sql = format!(
            "SELECT body FROM {} WHERE {} = $1 AND number = $2",
            self.revisions, self.parent
        );
        let (body,): (String,) = sqlx::query_as(AssertSqlSafe(sql))
            .bind(id)
            .bind(number)
            .fetch_one(&mut *conn)
            .await?;
        Ok(body)
    }

    /// Every revision of `id` with its body, oldest first.
    pub async fn bodies(&self, pool: &Db, id: i64) -> Result<Vec<(i64, String)>, StoreError> {
        let sql = format!(
            "SELECT number, body FROM {} WHERE {} = $1 ORDER BY number",
            self.revisions, self.parent
        );
        Ok(sqlx::query_as(AssertSqlSafe(sql))
            .bind(id)
            .fetch_all(pool)
            .await?)
    }

    /// Every revision of `id`, newest first; `NotFound` without any.
    pub async fn history(&self, pool: &Db, id: i64) -> Result<Vec<Revision>, StoreError> {
        let sql = format!(
            "SELECT number, name, created_at, author FROM {} WHERE {} = $1 ORDER BY number DESC",
            self.revisions, self.parent
        );
        let revisions: Vec<Revision> = sqlx::query_as(AssertSqlSafe(sql))
            .bind(id)
            .fetch_all(pool)
            .await?;
        if revisions.is_empty() {
            return Err(StoreError::NotFound);
        }
        Ok(revisions)
    }

    /// Deletes `id` and its history, by `by`; `NotFound` if `by` may not see it. The
    /// revisions go explicitly, so they go even on a connection with foreign keys off.
    pub async fn delete(&self, pool: &Db, id: i64, by: Actor<'_>) -> Result<(), StoreError> {
        let mut tx = begin_write(pool).await?;
        let ownership = self.access(&mut tx, id, by).await?.ownership;
        let sql = format!("DELETE FROM {} WHERE {} = $1", self.revisions, self.parent);
        sqlx::query(AssertSqlSafe(sql))
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let sql = format!("DELETE FROM {} WHERE id = $1 RETURNING name", self.table);
        let (name,): (String,) = sqlx::query_as(AssertSqlSafe(sql))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        let event = self.event(by, Action::Deleted, id, &ownership, None, name);
        activity::record(&mut tx, &event).await?;
        tx.commit().await?;
        Ok(())
    }
}
