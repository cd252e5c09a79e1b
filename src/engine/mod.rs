//! The sizing engine: a pure library (no I/O, no async, no web or database code).
//!
//! `evaluate` turns a [`Scenario`] into an [`Evaluation`]: every limit that applies,
//! the binding one, cost, advice and per-level reverse sizing.

pub mod advice;
pub mod evaluate;
pub mod evaluation;
pub mod import;
pub mod limits;
pub mod scenario;
pub mod sweep;
pub mod trace;

pub use evaluate::evaluate;
pub use evaluation::{Cost, Evaluation, Flows, Limit, Sizing, Targets};
pub use scenario::{FieldError, Scenario};
