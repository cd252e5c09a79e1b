//! volplan: capacity planning and sizing for cloud file storage.

pub mod cli;
pub mod engine;
