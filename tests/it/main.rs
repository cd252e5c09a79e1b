//! The integration tests: one binary, one module per area.

mod api;
mod avs;
mod calibration;
mod charts;
mod customer_report;
mod estate;
mod helpers;
mod hostile;
mod import;
mod model_fit;
mod mounts;
mod openapi;
mod ops;
mod ownership;
mod pages;
mod pagination;
mod platform;
mod price_import;
mod prices;
mod regions;
mod render_matrix;
mod reports;
mod reprice;
mod security;
mod store;
mod tool_pages;
