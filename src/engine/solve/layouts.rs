//! Which numbers of volumes (datastores, shares) and which volume kinds a sizing row
//! tries.
//!
//! The capacity and the load are the requirement; the count is the user's only where
//! `storage.fixed_count` says so. Otherwise a level tries, besides the scenario's own
//! count, the least count that holds the capacity within the kind's largest volume and
//! (ANF) carries the goal within the kind's per-volume throughput maximum, then twice
//! that, four times ... (at most [`MAX_COUNTS`] counts), within the service's volume
//! limit and the AVS datastore limit. Each volume holds at least the kind's smallest
//! quota. A count changes the cost
//! only where a limit binds (a volume's size or throughput, a connection per volume, how
//! an AVS placement spreads over datastores), so the search stops at the first count
//! that meets and costs more than the one before.
//!
//! Kinds: the scenario's own, and on ANF and NetApp Volumes (levels with large volumes)
//! regular and large volumes, each with its own quota range and throughput maximum from
//! the catalog. AVS datastores stay regular: large-volume datastores are not confirmed
//! (`service-limits.md` 4.2).

use crate::engine::plan::{Plan, quota_range};
use crate::engine::scenario::{Level, MAX_VOLUMES, Service, VolumeKind};
use crate::engine::service::anf::volume_cap;
use arrayvec::ArrayVec;

/// ANF datastores one AVS cluster may mount (the datastore benchmark page's figure; the
/// attach page says 8 by default and up to 256 by support request: `service-limits.md`
/// 4.2, 2026).
pub const MAX_DATASTORES_PER_CLUSTER: u32 = 64;

/// Most counts tried per kind beyond the scenario's own (doublings of the least).
const MAX_COUNTS: usize = 8;

/// One layout: a number of volumes of one kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Layout {
    pub(super) n: u32,
    pub(super) kind: VolumeKind,
}

/// The kinds tried at `level`, the scenario's own first.
pub(super) fn kinds(p: &Plan, level: Level) -> ArrayVec<VolumeKind, 3> {
    let mut out = ArrayVec::new();
    out.push(p.kind);
    let both = match p.service {
        Service::Anf => p.avs.is_none(),
        Service::Gcnv => level != Level::Flex,
        Service::AzureFiles => false,
    };
    let others: &[VolumeKind] = if both {
        &[VolumeKind::Regular, VolumeKind::Large]
    } else if p.service == Service::Anf {
        &[VolumeKind::Regular]
    } else {
        &[]
    };
    for &k in others {
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

/// The counts tried for `kind` at `level`, ascending, for a goal of `need` MiB/s over
/// `capacity` TiB: none but the scenario's own count where it is fixed.
pub(super) fn counts(
    p: &Plan,
    level: Level,
    kind: VolumeKind,
    capacity: f64,
    need: f64,
) -> ArrayVec<u32, MAX_COUNTS> {
    let mut out = ArrayVec::new();
    if p.fixed_count {
        if kind != p.kind {
            out.push(p.n_volumes.max(1));
        }
        return out;
    }
    let (_, hi, _) = quota_range(p.service, level, kind);
    let most = match p.avs {
        Some(a) => {
            let clusters = a.hosts.div_ceil(a.cluster_hosts.max(1)).max(1);
            MAX_DATASTORES_PER_CLUSTER.saturating_mul(clusters)
        }
        None => MAX_VOLUMES,
    };
    let fit = (capacity / hi - 1e-9).ceil().max(1.0) as u32;
    let rate = match p.service {
        Service::Anf => (need / volume_cap(level, kind).0 - 1e-9).ceil().max(1.0) as u32,
        _ => 1,
    };
    // The same doublings whatever the scenario's own count, so that a row applied is
    // sized among the same counts again.
    let least = fit.max(rate);
    (0..MAX_COUNTS as u32)
        .map(|k| least.saturating_mul(1 << k))
        .filter(|&n| n <= most && (n != p.n_volumes || kind != p.kind))
        .collect()
}
