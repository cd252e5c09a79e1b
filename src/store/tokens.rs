//! API tokens: a name, the user they act as, and the SHA-256 of their random secret.
//! Revoking deletes the row, so the next request with the token is refused.

use super::sessions::Holder;
use super::{Db, StoreError, begin_write, now_utc};

/// A token as listed (never its secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub name: String,
    pub user: String,
    pub role: String,
    pub created_at: String,
}

/// What [`create_token`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Created {
    Created,
    /// Another token has this name.
    NameTaken,
    /// There is no such user.
    NoUser,
}

/// Stores token `name` of user `user` with the hash of its secret.
pub async fn create_token(
    db: &Db,
    name: &str,
    user: &str,
    token_hash: &str,
) -> Result<Created, StoreError> {
    let mut tx = begin_write(db).await?;
    let Some((user_id,)): Option<(i64,)> = sqlx::query_as("SELECT id FROM users WHERE name = $1")
        .bind(user)
        .fetch_optional(&mut *tx)
        .await?
    else {
        return Ok(Created::NoUser);
    };
    let taken: Option<(i64,)> = sqlx::query_as("SELECT id FROM api_tokens WHERE name = $1")
        .bind(name)
        .fetch_optional(&mut *tx)
        .await?;
    if taken.is_some() {
        return Ok(Created::NameTaken);
    }
    sqlx::query(
        "INSERT INTO api_tokens (name, user_id, token_hash, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(name)
    .bind(user_id)
    .bind(token_hash)
    .bind(now_utc())
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Created::Created)
}

/// The user of the token with this hash.
pub async fn token_holder(db: &Db, token_hash: &str) -> Result<Option<Holder>, StoreError> {
    Ok(sqlx::query_as(
        "SELECT u.name, u.role FROM api_tokens t JOIN users u ON u.id = t.user_id \
         WHERE t.token_hash = $1",
    )
    .bind(token_hash)
    .fetch_optional(db)
    .await?)
}

/// Every token, by name.
pub async fn list_tokens(db: &Db) -> Result<Vec<Token>, StoreError> {
    let rows: Vec<(String, String, String, String)> = sqlx::query_as(
        "SELECT t.name, u.name, u.role, t.created_at FROM api_tokens t \
         JOIN users u ON u.id = t.user_id ORDER BY t.name",
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(name, user, role, created_at)| Token {
            name,
            user,
            role,
            created_at,
        })
        .collect())
}

/// Revokes (deletes) token `name`; `NotFound` when there is none.
pub async fn revoke_token(db: &Db, name: &str) -> Result<(), StoreError> {
    let mut tx = begin_write(db).await?;
    let done = sqlx::query("DELETE FROM api_tokens WHERE name = $1")
        .bind(name)
        .execute(&mut *tx)
        .await?;
    if done.rows_affected() == 0 {
        return Err(StoreError::NotFound);
    }
    tx.commit().await?;
    Ok(())
}
