//! The performance model: the IO path as a queueing network, its fitted parameters,
//! and the latency curve it implies.

pub mod curve;
pub mod network;
pub mod params;

pub use network::{Centre, Network, Point, RateCheck};
pub use params::Params;
