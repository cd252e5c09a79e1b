//! Imported VMware inventories, kept so that the AVS page can plan them again with other
//! choices.

use super::Db;
use super::{StoreError, begin_write};
use crate::inventory::Inventory;

/// Stores an inventory; answers its id.
pub async fn add_inventory(pool: &Db, origin: &str, inv: &Inventory) -> Result<i64, StoreError> {
    let body = serde_json::to_string(inv)
        .map_err(|e| StoreError::Corrupt(format!("cannot encode an inventory: {e}")))?;
    let mut tx = begin_write(pool).await?;
    let (id,): (i64,) =
        sqlx::query_as("INSERT INTO avs_inventories (origin, body) VALUES ($1, $2) RETURNING id")
            .bind(origin)
            .bind(&body)
            .fetch_one(&mut *tx)
            .await?;
    tx.commit().await?;
    Ok(id)
}

/// The inventory `id` and the name of the file it came from.
pub async fn get_inventory(pool: &Db, id: i64) -> Result<(String, Inventory), StoreError> {
    let row: Option<(String, String)> =
        sqlx::query_as("SELECT origin, body FROM avs_inventories WHERE id = $1")
            .bind(id)
            .fetch_optional(pool)
            .await?;
    let (origin, body) = row.ok_or(StoreError::NotFound)?;
    let inv = serde_json::from_str(&body)
        .map_err(|e| StoreError::Corrupt(format!("inventory {id}: {e}")))?;
    Ok((origin, inv))
}
