//! volplan: capacity planning and sizing for cloud file storage.

#![forbid(unsafe_code)]

pub mod avs;
pub mod cli;
pub mod engine;
pub mod estate;
pub mod format;
pub mod iac;
pub mod inventory;
pub mod live;
pub mod measure;
pub mod model_fit;
pub mod mounts;
pub mod prices;
pub mod report;
pub mod store;
pub mod verdict;
pub mod web;
