//! Prices stored in the database: rows that replace or add rows of the compiled price
//! book (imported from Retail Prices API pages or entered by hand), and the book in
//! force they make with it.
//!
//! Rows are only ever added; the newest row of a service, region and item is the one in
//! force, and the newest row's id numbers the set (the book in force's id ends `+dbN`).

use super::access::Actor;
use super::activity::{self, Action, Event, ObjectKind};
use super::{Db, DbConn};
use super::{StoreError, begin_write};
use crate::engine::pricing::{self, PriceBook};
use crate::prices::retail::{self, ImportOutcome, RetailItem};
use crate::prices::rows::{Override, PricedService, RowKey};
use crate::prices::sheet::{self, SheetOutcome};

#[derive(sqlx::FromRow)]
struct OverrideRow {
    service: String,
    region: String,
    item: String,
    price: f64,
    currency: String,
    region_name: Option<String>,
    as_of: String,
    source: String,
}

/// The prices in force from the database (the newest row of each service, region, item
/// and currency, oldest first) and the number of the newest row (0 without any). Rows of a
/// service this version does not know are left out.
pub async fn overrides(conn: &mut DbConn) -> Result<(i64, Vec<Override>), StoreError> {
    let rows: Vec<OverrideRow> = sqlx::query_as(
        "SELECT o.service, o.region, o.item, o.price, o.currency, o.region_name, o.as_of, o.source
         FROM price_overrides o
         JOIN (SELECT MAX(id) AS id FROM price_overrides GROUP BY service, region, item, currency) newest
           ON o.id = newest.id
         ORDER BY o.id",
    )
    .fetch_all(&mut *conn)
    .await?;
    let (generation,): (i64,) = sqlx::query_as("SELECT COALESCE(MAX(id), 0) FROM price_overrides")
        .fetch_one(&mut *conn)
        .await?;
    let list = rows
        .into_iter()
        .filter_map(|r| {
            Some(Override {
                key: RowKey {
                    service: PricedService::from_key(&r.service)?,
                    region: r.region,
                    item: r.item,
                },
                price: r.price,
                currency: r.currency,
                region_name: r.region_name,
                as_of: r.as_of,
                source: r.source,
            })
        })
        .collect();
    Ok((generation, list))
}

/// The book in force on a connection: the compiled book with the stored prices.
pub async fn book_on(conn: &mut DbConn) -> Result<PriceBook, StoreError> {
    let (generation, list) = overrides(conn).await?;
    Ok(pricing::book().in_force(&list, generation))
}

/// The book in force: the compiled book with the stored prices.
pub async fn book_in_force(pool: &Db) -> Result<PriceBook, StoreError> {
    let mut conn = pool.acquire().await?;
    book_on(&mut conn).await
}

/// Stores `rows` (already checked) in one transaction and records `action` (imported, or
/// changed by hand) by `by`; returns the book in force after.
pub async fn store(
    pool: &Db,
    rows: &[Override],
    by: Actor<'_>,
    action: Action,
) -> Result<PriceBook, StoreError> {
    let mut tx = begin_write(pool).await?;
    for o in rows {
        sqlx::query(
            "INSERT INTO price_overrides (service, region, item, price, currency, region_name, as_of, source)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(o.key.service.key())
        .bind(&o.key.region)
        .bind(&o.key.item)
        .bind(o.price)
        .bind(&o.currency)
        .bind(&o.region_name)
        .bind(&o.as_of)
        .bind(&o.source)
        .execute(&mut *tx)
        .await?;
    }
    let source = rows.first().map_or("", |o| o.source.as_str());
    let event = Event {
        actor: by.user,
        action,
        kind: ObjectKind::Prices,
        object_id: None,
        scenario_id: None,
        seen_as: None,
        revision: None,
        summary: format!("{} price row(s): {source}", rows.len()),
    };
    activity::record(&mut tx, &event).await?;
    let book = book_on(&mut tx).await?;
    tx.commit().await?;
    Ok(book)
}

/// Checks Retail Prices API `items` against the book in force and, unless `dry_run`,
/// stores the rows that are new or changed, valid as of `as_of`, with `origin` (a file
/// name, "an API upload") in their source, recorded as imported by `by`. Returns what
/// happened and the book after.
pub async fn import(
    pool: &Db,
    items: &[RetailItem],
    origin: &str,
    as_of: &str,
    dry_run: bool,
    by: Actor<'_>,
) -> Result<(ImportOutcome, PriceBook), StoreError> {
    let book = book_in_force(pool).await?;
    let plan = retail::plan(items, &book);
    let rows: Vec<Override> = plan
        .accepted()
        .map(|r| r.to_override(as_of, origin))
        .collect();
    let stored = !dry_run && !rows.is_empty();
    let book = if stored {
        store(pool, &rows, by, Action::Imported).await?
    } else {
        book
    };
    Ok((
        ImportOutcome {
            plan,
            stored,
            price_book: book.reference(),
        },
        book,
    ))
}

/// Checks the prices of a sheet against the book in force and, unless `dry_run`,
/// stores the added and changed ones, recorded as imported by `by`. Returns what
/// happened and the book after.
pub async fn sheet(
    pool: &Db,
    rows: Vec<Override>,
    dry_run: bool,
    by: Actor<'_>,
) -> Result<(SheetOutcome, PriceBook), StoreError> {
    let book = book_in_force(pool).await?;
    let (rows, [added, changed, unchanged]) = sheet::plan(rows, &book);
    let stored = !dry_run && !rows.is_empty();
    let book = if stored {
        store(pool, &rows, by, Action::Imported).await?
    } else {
        book
    };
    Ok((
        SheetOutcome {
            added,
            changed,
            unchanged,
            stored,
            price_book: book.reference(),
        },
        book,
    ))
}
