//! ANF capacity pools as the estate optimiser prices them: the seven pool types (auto
//! or manual QoS on Standard, Premium and Ultra, and Flexible), the sums a pool's
//! members add up to, and a pool's size and monthly cost from those sums alone.
//!
//! Rules (service-limits 1.1-1.6): a pool is 1 to 2,048 TiB in 1 TiB steps and holds at
//! most 500 volumes; the volumes' quotas fit the pool; auto QoS gives each volume quota x
//! level rate; a manual pool's budget is pool TiB x level rate and the volumes' assigned
//! throughput fits it; a Flexible pool provisions at least 128 MiB/s (included in the
//! capacity price) and at most 640 MiB/s per pool TiB, and bills what is above 128.
//! With a reservation, a Standard, Premium or Ultra pool pays its size band's discount
//! (100 TiB, 1 PiB), and is bought up to a band's threshold when that costs less.

use crate::engine::catalog;
use crate::engine::pricing::{PriceBook, Reservation};
use crate::engine::scenario::{Level, Qos, Term};
use crate::engine::units::GIB_PER_TIB;
use serde::Serialize;

/// Most volumes in one ANF capacity pool.
pub const MAX_POOL_VOLUMES: u32 = 500;

/// The ANF levels in the order the optimiser indexes them.
pub const LEVELS: [Level; 4] = [
    Level::Standard,
    Level::Premium,
    Level::Ultra,
    Level::Flexible,
];

/// A pool's service level and QoS type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "qos", content = "level", rename_all = "snake_case")]
pub enum PoolType {
    /// Auto QoS on Standard, Premium or Ultra (level index 0..3).
    Auto(Level),
    /// Manual QoS on Standard, Premium or Ultra.
    Manual(Level),
    /// A Flexible pool (manual QoS, throughput bought apart from capacity).
    Flexible,
}

/// Every pool type, in the order of [`PoolType::index`].
pub const TYPES: [PoolType; 7] = [
    PoolType::Auto(Level::Standard),
    PoolType::Auto(Level::Premium),
    PoolType::Auto(Level::Ultra),
    PoolType::Manual(Level::Standard),
    PoolType::Manual(Level::Premium),
    PoolType::Manual(Level::Ultra),
    PoolType::Flexible,
];

/// A mask with every pool type allowed.
pub const ALL_TYPES: u8 = 0x7f;

impl PoolType {
    /// Position in [`TYPES`] (the bit of a type mask).
    pub fn index(self) -> usize {
        match self {
            PoolType::Auto(l) => level_index(l),
            PoolType::Manual(l) => 3 + level_index(l),
            PoolType::Flexible => 6,
        }
    }

    /// The bit of this type in a mask.
    pub fn bit(self) -> u8 {
        1 << self.index()
    }

    /// The service level.
    pub fn level(self) -> Level {
        match self {
            PoolType::Auto(l) | PoolType::Manual(l) => l,
            PoolType::Flexible => Level::Flexible,
        }
    }

    /// The QoS type a scenario states for it.
    pub fn qos(self) -> Qos {
        match self {
            PoolType::Auto(_) => Qos::Auto,
            _ => Qos::Manual,
        }
    }

    /// "Premium manual", "Ultra auto", "Flexible".
    pub fn display(self) -> String {
        match self {
            PoolType::Auto(l) => format!("{} auto", level_name(l)),
            PoolType::Manual(l) => format!("{} manual", level_name(l)),
            PoolType::Flexible => "Flexible".to_owned(),
        }
    }

    /// The types of a level (auto and manual; Flexible alone).
    pub fn of_level(l: Level) -> u8 {
        match l {
            Level::Flexible => PoolType::Flexible.bit(),
            l => PoolType::Auto(l).bit() | PoolType::Manual(l).bit(),
        }
    }
}

/// The level's name as ANF writes it.
pub fn level_name(l: Level) -> &'static str {
    l.display(crate::engine::scenario::Service::Anf)
}

/// Position of an ANF level in [`LEVELS`].
pub fn level_index(l: Level) -> usize {
    match l {
        Level::Standard => 0,
        Level::Premium => 1,
        Level::Flexible => 3,
        _ => 2,
    }
}

/// MiB/s per TiB of a level (Flexible: its pool maximum per TiB).
pub fn rate(l: Level) -> f64 {
    catalog::anf_level(l).mibps_per_tib
}

/// What the members of one pool add up to, per level where it differs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sums {
    /// Quota of the volumes as placed on each level (large volumes hold at least 50 TiB).
    pub quota_tib: [f64; 4],
    /// Quota under auto QoS on Standard, Premium, Ultra: each volume raised to carry its
    /// throughput at the level's rate.
    pub auto_tib: [f64; 3],
    /// Throughput the volumes need on each level, MiB/s.
    pub mibps: [f64; 4],
    pub volumes: u32,
    /// Pool types every member can use.
    pub types: u8,
}

impl Sums {
    /// The sums of an empty pool.
    pub const EMPTY: Sums = Sums {
        quota_tib: [0.0; 4],
        auto_tib: [0.0; 3],
        mibps: [0.0; 4],
        volumes: 0,
        types: ALL_TYPES,
    };

    /// These sums with `o`'s added.
    pub fn plus(&self, o: &Sums) -> Sums {
        let mut s = *self;
        for i in 0..4 {
            s.quota_tib[i] += o.quota_tib[i];
            s.mibps[i] += o.mibps[i];
        }
        for i in 0..3 {
            s.auto_tib[i] += o.auto_tib[i];
        }
        s.volumes += o.volumes;
        s.types &= o.types;
        s
    }

    /// These sums with `o`'s taken away.
    pub fn minus(&self, o: &Sums, types: u8) -> Sums {
        let mut s = *self;
        for i in 0..4 {
            s.quota_tib[i] -= o.quota_tib[i];
            s.mibps[i] -= o.mibps[i];
        }
        for i in 0..3 {
            s.auto_tib[i] -= o.auto_tib[i];
        }
        s.volumes -= o.volumes;
        s.types = types;
        s
    }
}

/// Reserved-capacity bands a level can have (100 TiB and 1 PiB in the book).
pub const MAX_BANDS: usize = 2;

/// A reserved-capacity band: pools of at least `min_tib` pay `keep` of the price.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Band {
    pub min_tib: f64,
    pub keep: f64,
}

/// Prices per month of one region after the estate's discount.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rates {
    /// Standard, Premium, Ultra: per TiB-month of pool.
    pub tib: [f64; 3],
    /// Standard, Premium, Ultra: the reservation's bands by pool size, smallest first
    /// (`None`: no band; without a reservation every entry is `None`).
    pub bands: [[Option<Band>; MAX_BANDS]; 3],
    /// The reservation term the bands are of.
    pub term: Term,
    /// Flexible: per TiB-month of pool, per MiB/s-month above the 128 included; `None`
    /// where the region does not sell Flexible.
    pub flex_tib: Option<f64>,
    pub flex_mibps: Option<f64>,
}

impl Rates {
    /// The ANF rates of `region` in `book` less `discount_pct`, with the reserved-capacity
    /// bands of `term` for Standard, Premium and Ultra (the pool's size picks the band,
    /// as for one scenario); `None` for a region the book does not price.
    pub fn of(book: &PriceBook, region: &str, discount_pct: f64, term: Term) -> Option<Rates> {
        let (_, p) = book.anf(region)?;
        let keep = 1.0 - discount_pct / 100.0;
        let tib = |gib: f64| gib * GIB_PER_TIB * keep;
        let mut bands = [[None; MAX_BANDS]; 3];
        if term != Term::None {
            for (i, level) in [Level::Standard, Level::Premium, Level::Ultra]
                .iter()
                .enumerate()
            {
                let mut found: Vec<&Reservation> = book
                    .anf_reservations
                    .iter()
                    .filter(|r| r.level == level.key() && r.term == term.key())
                    .collect();
                found.sort_by(|a, b| a.min_tib.total_cmp(&b.min_tib));
                for (slot, r) in bands[i].iter_mut().zip(found) {
                    *slot = Some(Band {
                        min_tib: r.min_tib,
                        keep: 1.0 - r.discount_pct / 100.0,
                    });
                }
            }
        }
        Some(Rates {
            tib: [tib(p.standard?), tib(p.premium?), tib(p.ultra?)],
            bands,
            term,
            flex_tib: p.flexible_capacity.map(tib),
            flex_mibps: p.flexible_throughput.map(|m| m * keep),
        })
    }
}

/// A priced pool: its size, the throughput it provides or provisions, and its cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Priced {
    pub size_tib: f64,
    /// Manual: the budget (size x rate); Flexible: the provisioned throughput (at least
    /// 128); auto: the sum of the volumes' limits.
    pub mibps: f64,
    pub monthly: f64,
}

/// Whole TiB steps covering `tib`, at least the pool minimum.
pub fn steps(tib: f64) -> f64 {
    let min = catalog::catalog().services.anf.pool.min_tib;
    (tib - 1e-9).ceil().max(min)
}

/// The smallest valid pool of `ty` for members with sums `s` and its monthly cost;
/// `None` when no valid pool holds them (a member cannot use the type, over 2,048 TiB
/// or 500 volumes, or the region does not sell the level).
pub fn price(ty: PoolType, s: &Sums, r: &Rates) -> Option<Priced> {
    if s.types & ty.bit() == 0 || s.volumes > MAX_POOL_VOLUMES {
        return None;
    }
    let c = &catalog::catalog().services.anf;
    let (size, mibps, monthly) = match ty {
        PoolType::Auto(l) => {
            let i = level_index(l);
            let (size, monthly) = reserved(steps(s.auto_tib[i]), i, r);
            (size, s.auto_tib[i] * rate(l), monthly)
        }
        PoolType::Manual(l) => {
            let i = level_index(l);
            let need = steps(s.quota_tib[i]).max(steps(s.mibps[i] / rate(l)));
            let (size, monthly) = reserved(need, i, r);
            (size, size * rate(l), monthly)
        }
        PoolType::Flexible => {
            let flex = &c.flexible;
            let t = s.mibps[3].max(flex.pool_min_mibps);
            let size = steps(s.quota_tib[3]).max(steps(t / flex.pool_max_mibps_per_tib));
            let monthly = size * r.flex_tib? + (t - flex.pool_min_mibps) * r.flex_mibps?;
            (size, t, monthly)
        }
    };
    (size <= c.pool.max_tib).then_some(Priced {
        size_tib: size,
        mibps,
        monthly,
    })
}

/// The cheapest pool of level `i` of at least `need` TiB and its monthly cost: the
/// smallest, or a reservation band's threshold when a pool that large costs less.
fn reserved(need: f64, i: usize, r: &Rates) -> (f64, f64) {
    let max = catalog::catalog().services.anf.pool.max_tib;
    let cost = |size: f64| size * r.tib[i] * band(i, size, r).map_or(1.0, |b| b.keep);
    r.bands[i]
        .iter()
        .flatten()
        .map(|b| b.min_tib)
        .filter(|&t| t > need && t <= max)
        .fold((need, cost(need)), |best, t| {
            let c = cost(t);
            if c < best.1 - 1e-9 { (t, c) } else { best }
        })
}

/// The band a pool of level `i` and `size_tib` pays, if any.
pub fn band(i: usize, size_tib: f64, r: &Rates) -> Option<Band> {
    r.bands[i]
        .iter()
        .flatten()
        .filter(|b| size_tib >= b.min_tib)
        .min_by(|a, b| a.keep.total_cmp(&b.keep))
        .copied()
}

/// The lowest share of the list price any band of level `i` keeps (1 without bands).
pub fn best_keep(i: usize, r: &Rates) -> f64 {
    r.bands[i]
        .iter()
        .flatten()
        .map(|b| b.keep)
        .fold(1.0, f64::min)
}

/// The cheapest type for a pool of members with sums `s` (auto before manual at the
/// same cost: it needs no per-volume assignment).
pub fn cheapest(s: &Sums, r: &Rates) -> Option<(PoolType, Priced)> {
    TYPES
        .iter()
        .filter_map(|&t| price(t, s, r).map(|p| (t, p)))
        .fold(None, |best, (t, p)| match best {
            Some((_, b)) if b.monthly <= p.monthly + 1e-9 => best,
            _ => Some((t, p)),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::pricing;

    fn sums(quota: f64, mibps: f64) -> Sums {
        Sums {
            quota_tib: [quota; 4],
            auto_tib: [
                quota.max(mibps / 16.0),
                quota.max(mibps / 64.0),
                quota.max(mibps / 128.0),
            ],
            mibps: [mibps; 4],
            volumes: 1,
            types: ALL_TYPES,
        }
    }

    #[test]
    fn manual_pool_budget_is_size_times_rate() {
        let r = Rates::of(pricing::book(), "eastus", 0.0, Term::None).unwrap();
        // G5: 10 TiB of volumes needing 1,280 MiB/s on Ultra -> a 10 TiB pool.
        let p = price(PoolType::Manual(Level::Ultra), &sums(10.0, 1280.0), &r).unwrap();
        assert_eq!((p.size_tib, p.mibps), (10.0, 1280.0));
        // 896 MiB/s on Premium needs 14 TiB whatever the capacity.
        let p = price(PoolType::Manual(Level::Premium), &sums(5.0, 896.0), &r).unwrap();
        assert_eq!((p.size_tib, p.mibps), (14.0, 896.0));
        assert!((p.monthly - 14.0 * 1024.0 * 0.29419).abs() < 1e-6);
    }

    #[test]
    fn flexible_bills_throughput_above_the_included_128() {
        let r = Rates::of(pricing::book(), "eastus", 0.0, Term::None).unwrap();
        // Cost-model page: 1 TiB Flexible at 512 MiB/s ~ $976.
        let p = price(PoolType::Flexible, &sums(1.0, 512.0), &r).unwrap();
        assert_eq!(p.size_tib, 1.0);
        assert!((p.monthly - 976.0).abs() < 5.0, "{}", p.monthly);
        // 700 MiB/s needs 2 TiB (640 per TiB at most).
        assert_eq!(
            price(PoolType::Flexible, &sums(0.5, 700.0), &r)
                .unwrap()
                .size_tib,
            2.0
        );
        // Under 128 MiB/s costs capacity only.
        let small = price(PoolType::Flexible, &sums(1.0, 50.0), &r).unwrap();
        assert!((small.monthly - 1024.0 * 0.11023).abs() < 1e-6);
    }

    #[test]
    fn every_reservation_band_of_the_book_fits_the_rates() {
        let book = pricing::book();
        for level in ["standard", "premium", "ultra"] {
            for term in ["1y", "3y"] {
                let n = book
                    .anf_reservations
                    .iter()
                    .filter(|r| r.level == level && r.term == term)
                    .count();
                assert!((1..=MAX_BANDS).contains(&n), "{level} {term}: {n} bands");
            }
        }
    }

    #[test]
    fn pools_respect_their_limits() {
        let r = Rates::of(pricing::book(), "eastus", 0.0, Term::None).unwrap();
        assert_eq!(steps(0.2), 1.0);
        assert_eq!(steps(14.0), 14.0);
        assert_eq!(steps(14.01), 15.0);
        assert!(price(PoolType::Auto(Level::Ultra), &sums(2049.0, 1.0), &r).is_none());
        let mut s = sums(1.0, 1.0);
        s.volumes = 501;
        assert!(price(PoolType::Auto(Level::Ultra), &s, &r).is_none());
        s.volumes = 1;
        s.types = PoolType::Flexible.bit();
        assert_eq!(cheapest(&s, &r).unwrap().0, PoolType::Flexible);
    }
}
