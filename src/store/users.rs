//! Users of team mode: a unique name, an argon2id password hash and a role.
//!
//! Changing a user's password ends all of that user's sessions and revokes its API
//! tokens in the same transaction (a password change is how a leaked credential is
//! answered); removing a user removes its sessions and API tokens with it.

use super::{Db, StoreError, begin_write, now_utc};

/// A user as listed (no secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub name: String,
    /// `viewer`, `editor` or `admin`.
    pub role: String,
    pub created_at: String,
    pub updated_at: String,
    /// API tokens the user holds.
    pub tokens: i64,
}

/// A user with what login needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credentials {
    pub id: i64,
    pub name: String,
    pub role: String,
    /// The PHC string; empty for an account that cannot log in with a password.
    pub password_hash: String,
}

/// What [`save_user`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Saved {
    /// A new user (else an existing one was changed).
    pub created: bool,
    /// Sessions ended because the password changed.
    pub sessions_ended: u64,
    /// API tokens revoked because the password changed.
    pub tokens_revoked: u64,
}

/// Why [`save_user`] refused.
#[derive(Debug, thiserror::Error)]
pub enum SaveUserError {
    /// A new user needs a password hash and a role.
    #[error("a new user needs a password")]
    NeedsPassword,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a user or token name is not accepted; `None` when it is.
pub fn name_problem(what: &str, name: &str) -> Option<String> {
    let ok = (1..=64).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@'));
    (!ok).then(|| format!("{what} `{name}` must be 1 to 64 letters, digits, `.`, `_`, `-` or `@`"))
}

/// How many users exist (team mode is on when there is at least one).
pub async fn count_users(db: &Db) -> Result<i64, StoreError> {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users")
        .fetch_one(db)
        .await?;
    Ok(n)
}

/// The user called `name`, if any.
pub async fn find_user(db: &Db, name: &str) -> Result<Option<Credentials>, StoreError> {
    let row: Option<(i64, String, String, String)> =
        sqlx::query_as("SELECT id, name, role, password_hash FROM users WHERE name = $1")
            .bind(name)
            .fetch_optional(db)
            .await?;
    Ok(row.map(|(id, name, role, password_hash)| Credentials {
        id,
        name,
        role,
        password_hash,
    }))
}

/// Creates user `name`, or changes the password hash and/or role of the existing one
/// (`None` keeps what is stored). A changed password ends the user's sessions and
/// revokes its API tokens.
pub async fn save_user(
    db: &Db,
    name: &str,
    password_hash: Option<&str>,
    role: Option<&str>,
) -> Result<Saved, SaveUserError> {
    let now = now_utc();
    let mut tx = begin_write(db).await?;
    let existing: Option<(i64,)> = sqlx::query_as("SELECT id FROM users WHERE name = $1")
        .bind(name)
        .fetch_optional(&mut *tx)
        .await
        .map_err(StoreError::from)?;
    let saved = match existing {
        None => {
            let hash = password_hash.ok_or(SaveUserError::NeedsPassword)?;
            sqlx::query(
                "INSERT INTO users (name, password_hash, role, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $4)",
            )
            .bind(name)
            .bind(hash)
            .bind(role.unwrap_or("editor"))
            .bind(&now)
            .execute(&mut *tx)
            .await
            .map_err(StoreError::from)?;
            Saved {
                created: true,
                sessions_ended: 0,
                tokens_revoked: 0,
            }
        }
        Some((id,)) => {
            if let Some(role) = role {
                sqlx::query("UPDATE users SET role = $1, updated_at = $2 WHERE id = $3")
                    .bind(role)
                    .bind(&now)
                    .bind(id)
                    .execute(&mut *tx)
                    .await
                    .map_err(StoreError::from)?;
            }
            let (mut sessions_ended, mut tokens_revoked) = (0, 0);
            if let Some(hash) = password_hash {
                sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3")
                    .bind(hash)
                    .bind(&now)
                    .bind(id)
                    .execute(&mut *tx)
                    .await
                    .map_err(StoreError::from)?;
                sessions_ended = sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await
                    .map_err(StoreError::from)?
                    .rows_affected();
                tokens_revoked = sqlx::query("DELETE FROM api_tokens WHERE user_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await
                    .map_err(StoreError::from)?
                    .rows_affected();
            }
            Saved {
                created: false,
                sessions_ended,
                tokens_revoked,
            }
        }
    };
    tx.commit().await.map_err(StoreError::from)?;
    Ok(saved)
}

/// Every user, by name.
pub async fn list_users(db: &Db) -> Result<Vec<User>, StoreError> {
    let rows: Vec<(String, String, String, String, i64)> = sqlx::query_as(
        "SELECT u.name, u.role, u.created_at, u.updated_at, \
                (SELECT COUNT(*) FROM api_tokens t WHERE t.user_id = u.id) \
         FROM users u ORDER BY u.name",
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(name, role, created_at, updated_at, tokens)| User {
            name,
            role,
            created_at,
            updated_at,
            tokens,
        })
        .collect())
}

/// Removes user `name` with its sessions and tokens (explicitly, so they go even on a
/// connection without foreign keys). `NotFound` when there is no such user.
pub async fn remove_user(db: &Db, name: &str) -> Result<(), StoreError> {
    let mut tx = begin_write(db).await?;
    let (id,): (i64,) = sqlx::query_as("SELECT id FROM users WHERE name = $1")
        .bind(name)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(StoreError::NotFound)?;
    for sql in [
        "DELETE FROM sessions WHERE user_id = $1",
        "DELETE FROM api_tokens WHERE user_id = $1",
        "DELETE FROM users WHERE id = $1",
    ] {
        sqlx::query(sql).bind(id).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(())
}
