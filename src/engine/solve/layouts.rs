//! Which numbers of volumes (datastores, shares) and which volume kinds a sizing row
//! tries.
//!
//! The capacity and the load are the requirement; the count is the user's only where
//! `storage.fixed_count` says so. Otherwise a level tries, besides the scenario's own
//! count, the least count that holds the capacity within the kind's largest volume and
//! (ANF) carries the goal within the kind's per-volume throughput maximum, then twice
//! that, four times ... (at most [`MAX_COUNTS`] counts), within the service's volume
//! limit, and on AVS within the datastore limit and no more datastores than the
//! placement puts VMDKs (or VMs) on. Each volume holds at least the kind's smallest
//! quota. A count changes the cost
//! only where a limit binds (a volume's size or throughput, a connection per volume, how
//! an AVS placement spreads over datastores), so the doublings stop at the first count
//! that meets for no less than the one before, and the search then looks halfway
//! between the cheapest count and its neighbours ([`search_counts`]).
//!
//! Kinds: the scenario's own, and on ANF and NetApp Volumes (levels with large volumes)
//! regular and large volumes, each with its own quota range and throughput maximum from
//! the catalog. AVS datastores stay regular: large-volume datastores are not confirmed
//! (`service-limits.md` 4.2).

use crate::engine::distribution::Distribution;
use crate::engine::evaluation::Sizing;
use crate::engine::plan::{Plan, quota_range};
use crate::engine::scenario::{Level, MAX_VOLUMES, Service, VolumeKind};
use crate::engine::service::anf::volume_cap;
use arrayvec::ArrayVec;

/// ANF datastores one AVS cluster may mount (the datastore benchmark page's figure; the
/// attach page says 8 by default and up to 256 by support request: `service-limits.md`
/// 4.2, 2026).
pub const MAX_DATASTORES_PER_CLUSTER: u32 = 64;

/// Most doublings of the least count tried per kind.
const MAX_COUNTS: usize = 8;

/// Rounds of counts halfway between the cheapest count and its neighbours.
const REFINE_ROUNDS: usize = 2;

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

/// The counts `kind` may take at `level` for a goal of `need` MiB/s over `capacity`
/// TiB: the least that holds the capacity within the kind's largest volume and (ANF)
/// carries the goal within its per-volume throughput maximum, and the most the service
/// (or the AVS cluster and placement) allows. `None` where the count is fixed.
fn count_range(
    p: &Plan,
    level: Level,
    kind: VolumeKind,
    capacity: f64,
    need: f64,
) -> Option<(u32, u32)> {
    if p.fixed_count {
        return None;
    }
    let (_, hi, _) = quota_range(p.service, level, kind);
    let most = match p.avs {
        Some(a) => {
            let clusters = a.hosts.div_ceil(a.cluster_hosts.max(1)).max(1);
            // A datastore beyond one per VMDK (or VM) the placement puts carries nothing.
            let units = u32::try_from(Distribution::units(p)).unwrap_or(u32::MAX);
            MAX_DATASTORES_PER_CLUSTER
                .saturating_mul(clusters)
                .min(units.max(1))
        }
        None => MAX_VOLUMES,
    };
    let fit = (capacity / hi - 1e-9).ceil().max(1.0) as u32;
    let rate = match p.service {
        Service::Anf => (need / volume_cap(level, kind).0 - 1e-9).ceil().max(1.0) as u32,
        _ => 1,
    };
    Some((fit.max(rate), most))
}

/// Sizes the counts of `kind` at `level` with `size` (`None`: the layout cannot beat
/// `best`, nor can more volumes of its kind), keeping the cheapest row in `best`.
///
/// The doublings of the least count come first (the same whatever the scenario's own
/// count, so that a row applied is sized among the same counts again), up to the first
/// that meets for no less than the one before. Then, where a count of this kind meets,
/// the counts halfway to its neighbours, and halfway again ([`REFINE_ROUNDS`]): a
/// per-volume allowance (a share's base rate, a connection per volume) can make a count
/// between two doublings the cheapest. Where the count is fixed, only the scenario's
/// own count of another kind.
pub(super) fn search_counts(
    p: &Plan,
    level: Level,
    kind: VolumeKind,
    (capacity, need): (f64, f64),
    best: &mut Sizing,
    mut size: impl FnMut(Layout, &Sizing) -> Option<Sizing>,
) {
    let own = |n: u32| n == p.n_volumes && kind == p.kind;
    let Some((least, most)) = count_range(p, level, kind, capacity, need) else {
        if kind != p.kind
            && let Some(row) = size(
                Layout {
                    n: p.n_volumes.max(1),
                    kind,
                },
                best,
            )
            && super::cheaper(&row, best)
        {
            *best = row;
        }
        return;
    };
    // The cheapest count of the doublings that meets, and its cost: the same whatever
    // the scenario's own count, as the counts around it are.
    let mut at: Option<(u32, f64)> = None;
    let keep = |row: Sizing, n: u32, at: &mut Option<(u32, f64)>, best: &mut Sizing| {
        let cost = row.monthly.filter(|_| row.meets);
        if let Some(c) = cost
            && at.is_none_or(|(_, a)| c < a)
        {
            *at = Some((n, c));
        }
        if super::cheaper(&row, best) {
            *best = row;
        }
        cost
    };
    let doublings: ArrayVec<u32, MAX_COUNTS> = (0..MAX_COUNTS as u32)
        .map(|k| least.saturating_mul(1 << k))
        .filter(|&n| n <= most)
        .collect();
    let mut last = None;
    for &n in doublings.iter().filter(|&&n| !own(n)) {
        let Some(row) = size(Layout { n, kind }, best) else {
            break;
        };
        let cost = keep(row, n, &mut at, best);
        // Past the count where more volumes stop paying off.
        if let (Some(c), Some(l)) = (cost, last)
            && c >= l
        {
            break;
        }
        last = cost.or(last);
    }
    let Some((mut centre, _)) = at else {
        return;
    };
    let mut step = centre / 2;
    for _ in 0..REFINE_ROUNDS {
        if step == 0 {
            break;
        }
        let around = [centre + step, centre.saturating_sub(step)];
        for n in around {
            if n < least || n > most || own(n) || doublings.contains(&n) {
                continue;
            }
            if let Some(row) = size(Layout { n, kind }, best) {
                keep(row, n, &mut at, best);
            }
        }
        centre = at.map_or(centre, |(n, _)| n);
        step /= 2;
    }
}
