//! The integration tests: one binary, one module per area.

mod api;
mod helpers;
mod hostile;
mod import;
mod pages;
mod reports;
mod store;
mod calibration;
