//! The sizing engine: a pure library (no I/O, no async, no web or database code).
//!
//! `evaluate` turns a [`Scenario`] into an [`Evaluation`]: every limit that applies,
//! the binding one, the achievable rate and latency from the queueing model
//! (`model`), cost, advice and per-level reverse sizing. Every ceiling carries its
//! source; every fitted parameter comes from one joint fit (`volplan calibrate`).
//!
//! Costs come from the price book the caller hands in (`pricing`: the compiled book, or
//! the book in force with the prices stored in the database, `price_rows`); Azure Retail
//! Prices API pages are read and mapped to price book rows by `retail_prices`, and
//! `reprice` sets a revision's stored cost beside today's.

pub mod advice;
pub mod avs;
pub mod catalog;
pub mod client;
pub mod concurrency;
pub mod connections;
pub mod cool;
pub mod cost;
pub mod cost_files_gcnv;
pub mod cost_line;
pub mod distribution;
pub mod evaluate;
pub mod evaluation;
pub mod field_error;
pub mod host_specs;
pub mod licence;
pub mod limits;
pub mod meta;
pub mod model;
pub mod model_step;
pub mod plan;
pub mod price_key;
pub mod price_lists;
pub mod pricing;
#[cfg(test)]
pub(crate) mod properties;
pub mod range;
pub mod regions;
pub mod same;
pub mod scaling;
pub mod scenario;
pub mod scenario_diff;
pub mod security;
pub mod service;
pub mod solve;
pub mod source;
pub mod sweep;
pub mod targets;
pub mod trace;
pub mod units;
pub mod validate;

pub use evaluate::{check, evaluate, evaluate_in};
pub use evaluation::{Cost, Evaluation, Flows, Limit, Sizing, SizingBasis, Targets};
pub use field_error::{FieldError, FieldErrors};
pub use scenario::Scenario;
