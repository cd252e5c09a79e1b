//! volplan: capacity planning and sizing for cloud file storage.

pub mod calibrate;
pub mod cli;
pub mod config;
pub mod engine;
pub mod inventory;
pub mod report;
pub mod store;
pub mod web;
