//! Prices: the price book's rows (what the prices page and API list and an import or a
//! hand entry changes), the Azure Retail Prices API reader, and re-pricing a stored
//! cost under today's book. The book itself, and the cost of one scenario under it,
//! are the engine's (`engine::pricing`, `engine::cost`).

pub mod items;
pub mod reprice;
pub mod retail;
pub mod rows;
pub mod sheet;
