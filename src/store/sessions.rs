//! Browser sessions: the SHA-256 of the cookie's random secret, its user and expiry.

use super::{Db, StoreError, now_utc};

/// The user behind a live session or token: name and role key.
pub type Holder = (String, String);

/// Stores a new session of user `user_id` that ends at `expires_at` (ISO-8601 UTC).
pub async fn create_session(
    db: &Db,
    token_hash: &str,
    user_id: i64,
    expires_at: &str,
) -> Result<(), StoreError> {
    let mut tx = super::begin_write(db).await?;
    let now = now_utc();
    // Expired sessions go whenever a new one starts, so the table stays small.
    sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
        .bind(&now)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(token_hash)
    .bind(user_id)
    .bind(&now)
    .bind(expires_at)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The user of the unexpired session with this hash.
pub async fn session_holder(db: &Db, token_hash: &str) -> Result<Option<Holder>, StoreError> {
    Ok(sqlx::query_as(
        "SELECT u.name, u.role FROM sessions s JOIN users u ON u.id = s.user_id \
         WHERE s.token_hash = $1 AND s.expires_at > $2",
    )
    .bind(token_hash)
    .bind(now_utc())
    .fetch_optional(db)
    .await?)
}

/// Ends the session with this hash (nothing when there is none).
pub async fn end_session(db: &Db, token_hash: &str) -> Result<(), StoreError> {
    let mut tx = super::begin_write(db).await?;
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}
