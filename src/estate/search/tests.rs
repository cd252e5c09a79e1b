use super::*;
use crate::engine::pricing;
use crate::engine::scenario::{Level, Term, VolumeKind};
use crate::estate::demand::Demand;
use proptest::prelude::*;

fn rates() -> Rates {
    rates_with(Term::None)
}

/// East US list rates with the reserved-capacity bands of `term`.
fn rates_with(term: Term) -> Rates {
    Rates::of(pricing::book(), "eastus", 0.0, term).unwrap()
}

fn arb_term() -> impl Strategy<Value = Term> {
    prop_oneof![
        Just(Term::None),
        Just(Term::OneYear),
        Just(Term::ThreeYears)
    ]
}

/// A workload of `volumes` x `quota` TiB whose volumes each need `mibps`.
fn unit(volumes: u32, quota: f64, mibps: f64) -> Sums {
    Demand {
        workload: 0,
        groups: vec![(volumes, quota)],
        kind: VolumeKind::Regular,
        need: [Ok(mibps), Ok(mibps), Ok(mibps), Ok(mibps)],
        entered_mibps: None,
    }
    .at(1.0, 1.0, pool::ALL_TYPES)
    .sums
}

/// Every assignment of workloads to pools, each pool at its cheapest type by trying
/// all seven: the least cost.
fn brute_force(units: &[Sums], r: &Rates) -> f64 {
    let n = units.len();
    let mut best = f64::INFINITY;
    let mut pool_of = vec![0usize; n];
    loop {
        let mut sums = vec![Sums::EMPTY; n];
        for (u, &p) in pool_of.iter().enumerate() {
            sums[p] = sums[p].plus(&units[u]);
        }
        let mut total = 0.0;
        for s in sums.iter().filter(|s| s.volumes > 0) {
            let c = TYPES
                .iter()
                .filter_map(|&t| pool::price(t, s, r))
                .map(|p| p.monthly)
                .fold(f64::INFINITY, f64::min);
            total += c;
        }
        best = best.min(total);
        // Next assignment (odometer).
        let mut i = 0;
        loop {
            if i == n {
                return best;
            }
            pool_of[i] += 1;
            if pool_of[i] < n {
                break;
            }
            pool_of[i] = 0;
            i += 1;
        }
    }
}

fn arb_unit() -> impl Strategy<Value = Sums> {
    (1u32..3, 0.05f64..40.0, 1.0f64..2000.0, 0u8..8).prop_map(|(n, q, t, only)| {
        let mut u = unit(n, q, t);
        // Now and then a workload limited to one level (a latency or feature rule).
        if only < 4 {
            u.types &= PoolType::of_level(pool::LEVELS[only as usize]);
            if u.types == 0 {
                u.types = PoolType::Flexible.bit();
            }
        }
        u
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn exact_equals_brute_force_up_to_six_workloads(
        units in prop::collection::vec(arb_unit(), 1..=6),
        term in arb_term(),
    ) {
        let r = rates_with(term);
        let s = exact(&units, &r, usize::MAX);
        let b = brute_force(&units, &r);
        prop_assert!((s.monthly - b).abs() < 1e-6, "exact {} brute force {}", s.monthly, b);
        // The heuristic never beats the optimum, and the bound never exceeds it.
        let h = heuristic(&units, &r, None, usize::MAX);
        prop_assert!(h.monthly >= b - 1e-6);
        prop_assert!(lower_bound(&units, &r) <= b + 1e-6);
    }

    #[test]
    fn adding_a_workload_never_lowers_the_optimal_cost(
        units in prop::collection::vec(arb_unit(), 1..=7),
        extra in arb_unit(),
        term in arb_term(),
    ) {
        let r = rates_with(term);
        let before = exact(&units, &r, usize::MAX).monthly;
        let mut more = units.clone();
        more.push(extra);
        let after = exact(&more, &r, usize::MAX).monthly;
        prop_assert!(after >= before - 1e-6, "{} -> {}", before, after);
    }
}

#[test]
fn the_sap_example_shares_one_manual_ultra_pool() {
    // G5: data 4 TiB @704, log 0.5 @256, shared 1 @64, backup 4.5 @256, on Ultra only.
    let r = rates();
    let ultra = PoolType::of_level(Level::Ultra);
    let units: Vec<Sums> = [(4.0, 704.0), (0.5, 256.0), (1.0, 64.0), (4.5, 256.0)]
        .iter()
        .map(|&(q, t)| {
            let mut u = unit(1, q, t);
            u.types &= ultra;
            u
        })
        .collect();
    let s = exact(&units, &r, usize::MAX);
    assert_eq!(s.pools.len(), 1);
    let (t, p) = s.pools[0];
    assert_eq!(t, PoolType::Manual(Level::Ultra));
    assert_eq!((p.size_tib, p.mibps), (10.0, 1280.0));
    // Auto QoS would need 704/128 = 5.5 TiB for data alone: 5.5 + 2 + 1 + 4.5 = 13 TiB.
    let auto = pool::price(
        PoolType::Auto(Level::Ultra),
        &units.iter().fold(Sums::EMPTY, |s, u| s.plus(u)),
        &r,
    )
    .unwrap();
    assert_eq!(auto.size_tib, 13.0);
}

#[test]
fn small_flexible_workloads_each_keep_their_included_128() {
    // Two workloads of 0.5 TiB at 120 MiB/s: two 1 TiB Flexible pools cost 2 x 1 TiB
    // of capacity; one pool would pay for 240 - 128 = 112 MiB/s on top of 1 TiB.
    let r = rates();
    let mut a = unit(1, 0.5, 120.0);
    a.types = PoolType::Flexible.bit();
    let s = exact(&[a, a], &r, usize::MAX);
    let one = one_flexible(&[a, a], &r).unwrap();
    let two = 2.0 * r.flex_tib.unwrap();
    assert!((one - (r.flex_tib.unwrap() + 112.0 * r.flex_mibps.unwrap())).abs() < 1e-6);
    assert!((s.monthly - one.min(two)).abs() < 1e-6);
    assert_eq!(s.pools.len(), if two < one { 2 } else { 1 });
}

#[test]
fn the_heuristic_stays_within_its_bound_on_a_large_estate() {
    let r = rates();
    let units: Vec<Sums> = (0..60)
        .map(|i| {
            let f = f64::from(i);
            unit(
                1 + i % 3,
                0.5 + (f * 7.3) % 30.0,
                10.0 + (f * 97.1) % 1500.0,
            )
        })
        .collect();
    let s = solve(&units, &r, None, usize::MAX);
    assert!(!s.exact);
    assert!(s.lower_bound > 0.0 && s.lower_bound <= s.monthly);
    // Merging everything per level only ever costs the same or more.
    assert!(s.monthly <= pool_per_level(&units, &r).unwrap() + 1e-6);
    // Every workload is in exactly one pool that can hold it.
    for (u, &p) in s.pool_of.iter().enumerate() {
        assert!(units[u].types & s.pools[p].0.bit() != 0);
    }
    let gap = (s.monthly - s.lower_bound) / s.monthly;
    assert!(gap < 0.5, "gap {gap}");
}
