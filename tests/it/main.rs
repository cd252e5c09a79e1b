//! The integration tests: one binary, one module per area.

mod api;
mod calibration;
mod charts;
mod helpers;
mod hostile;
mod import;
mod model_fit;
mod mounts;
mod openapi;
mod pages;
mod pagination;
mod platform;
mod prices;
mod regions;
mod reports;
mod security;
mod store;
