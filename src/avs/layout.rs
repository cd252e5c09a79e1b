//! Placing VMs (or their disks) on N datastores: largest first, each to the datastore
//! with the least combined share of capacity and throughput so far, so that both
//! balance; then each datastore's quota is the larger of its capacity with headroom and
//! the quota its level needs for its throughput.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One thing to place: a VM or one of its disks.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Index of the VM in the inventory.
    pub vm: usize,
    /// Index of the disk in the VM, when disks are placed.
    pub disk: Option<usize>,
    /// Capacity with growth, TiB.
    pub tib: f64,
    pub mibps: f64,
    pub iops: f64,
}

/// What a datastore holds after packing.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bin {
    pub tib: f64,
    pub mibps: f64,
    pub iops: f64,
    pub items: u32,
}

/// A packing: the datastore of each item, and what each datastore holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Packing {
    pub of_item: Vec<u32>,
    pub bins: Vec<Bin>,
}

/// Orders items for packing: largest capacity first, ties by throughput.
pub fn order(items: &[Item]) -> Vec<u32> {
    let mut idx: Vec<u32> = (0..items.len() as u32).collect();
    idx.sort_unstable_by(|&a, &b| {
        let (a, b) = (&items[a as usize], &items[b as usize]);
        b.tib.total_cmp(&a.tib).then(b.mibps.total_cmp(&a.mibps))
    });
    idx
}

/// Packs `items` (visited in `order`) onto `n` datastores.
pub fn pack(items: &[Item], order: &[u32], n: u32) -> Packing {
    let n = n.max(1);
    let total_tib: f64 = items
        .iter()
        .map(|i| i.tib)
        .sum::<f64>()
        .max(f64::MIN_POSITIVE);
    let total_mibps: f64 = items.iter().map(|i| i.mibps).sum();
    let w_mibps = if total_mibps > 0.0 {
        1.0 / total_mibps
    } else {
        0.0
    };
    let w_tib = 1.0 / total_tib;
    let mut bins = vec![Bin::default(); n as usize];
    let mut of_item = vec![0u32; items.len()];
    // Min-heap of (score, datastore); scores as ordered integers (score x 2^40).
    let key = |b: &Bin| ((b.tib * w_tib + b.mibps * w_mibps) * 1e12) as u64;
    let mut heap: BinaryHeap<Reverse<(u64, u32)>> = (0..n).map(|d| Reverse((0, d))).collect();
    for &i in order {
        let Reverse((_, d)) = heap.pop().expect("n >= 1 datastores");
        let it = &items[i as usize];
        let b = &mut bins[d as usize];
        b.tib += it.tib;
        b.mibps += it.mibps;
        b.iops += it.iops;
        b.items += 1;
        of_item[i as usize] = d;
        heap.push(Reverse((key(b), d)));
    }
    Packing { of_item, bins }
}

/// Quota of a datastore holding `bin`, TiB: its capacity with `headroom_pct` on top and
/// `free_pct` of the quota kept free, at least what `mibps_per_tib` needs for its
/// throughput, at least `min_tib`, rounded up to whole GiB.
pub fn quota_tib(
    bin: &Bin,
    headroom_pct: f64,
    free_pct: f64,
    mibps_per_tib: f64,
    min_tib: f64,
) -> f64 {
    let cap = bin.tib * (1.0 + headroom_pct / 100.0) / (1.0 - free_pct / 100.0);
    let perf = if mibps_per_tib > 0.0 {
        bin.mibps / mibps_per_tib
    } else {
        0.0
    };
    let q = cap.max(perf).max(min_tib);
    (q * 1024.0).ceil() / 1024.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(vm: usize, tib: f64, mibps: f64) -> Item {
        Item {
            vm,
            disk: None,
            tib,
            mibps,
            iops: 0.0,
        }
    }

    #[test]
    fn packing_balances_capacity() {
        let items: Vec<Item> = (0..100)
            .map(|i| item(i, 1.0 + (i % 7) as f64, 0.0))
            .collect();
        let p = pack(&items, &order(&items), 4);
        let max = p.bins.iter().map(|b| b.tib).fold(0.0, f64::max);
        let min = p.bins.iter().map(|b| b.tib).fold(f64::MAX, f64::min);
        assert!(max - min <= 7.0, "{max} vs {min}");
        assert_eq!(p.bins.iter().map(|b| b.items).sum::<u32>(), 100);
    }

    #[test]
    fn quota_covers_capacity_and_throughput() {
        let b = Bin {
            tib: 2.0,
            mibps: 1000.0,
            iops: 0.0,
            items: 1,
        };
        // Premium: 64 MiB/s per TiB -> 15.625 TiB for 1,000 MiB/s.
        assert_eq!(quota_tib(&b, 20.0, 0.0, 64.0, 0.05), 15.625);
        // Ultra: capacity with 20 % headroom (2.4 TiB) beats 7.8125 TiB? No: throughput wins.
        assert_eq!(quota_tib(&b, 20.0, 0.0, 128.0, 0.05), 7.8125);
        let idle = Bin { mibps: 0.0, ..b };
        assert_eq!(
            quota_tib(&idle, 20.0, 0.0, 128.0, 0.05),
            (2.4f64 * 1024.0).ceil() / 1024.0
        );
        // 20 % kept free: 2.4 TiB used fills 80 % of 3 TiB.
        assert_eq!(quota_tib(&idle, 20.0, 20.0, 128.0, 0.05), 3.0);
    }
}
