//! Storage-side limits per service: QoS, volume and share ceilings, service IOPS.

pub mod anf;
pub mod azure_files;
pub mod demand;
pub mod gcnv;

use super::distribution::Distribution;
use super::limits::Sink;
use super::plan::Plan;
use super::scenario::Service;

/// Adds the storage-side limits of the plan's service.
pub fn limits(p: &Plan, dist: &Distribution, set: &mut impl Sink) {
    match p.service {
        Service::Anf => anf::limits(p, dist, set),
        Service::AzureFiles => azure_files::limits(p, dist, set),
        Service::Gcnv => gcnv::limits(p, dist, set),
    }
}
