//! The book in force as every handler sees it: loaded from the database when the server
//! starts and replaced whenever this server stores a price (or re-reads the database for
//! the Prices page, re-pricing and imports), so evaluations need no query.
//!
//! Prices stored by another process (`volplan prices import` against the same file)
//! reach a running server at its next start or the next time one of those pages reads
//! the database; saves always price with the database's book.

use crate::engine::pricing::PriceBook;
use crate::store::Db;
use crate::store::{self, StoreError};
use std::sync::{Arc, RwLock};

/// The shared book in force.
#[derive(Debug)]
pub struct PriceCache {
    current: RwLock<Arc<PriceBook>>,
}

impl PriceCache {
    /// A cache holding `book`.
    pub fn new(book: PriceBook) -> PriceCache {
        PriceCache {
            current: RwLock::new(Arc::new(book)),
        }
    }

    /// The book in force as last loaded.
    pub fn current(&self) -> Arc<PriceBook> {
        match self.current.read() {
            Ok(b) => b.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Replaces the book (after a store or a fresh read) and returns it.
    pub fn replace(&self, book: PriceBook) -> Arc<PriceBook> {
        let book = Arc::new(book);
        match self.current.write() {
            Ok(mut b) => *b = book.clone(),
            Err(poisoned) => *poisoned.into_inner() = book.clone(),
        }
        book
    }

    /// Reads the book in force from the database and keeps it.
    pub async fn reload(&self, db: &Db) -> Result<Arc<PriceBook>, StoreError> {
        Ok(self.replace(store::prices::book_in_force(db).await?))
    }
}
