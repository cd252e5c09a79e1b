//! How the workload's load spreads over volumes.
//!
//! Ordinary clients spread evenly over all volumes (contract: "The workload spreads
//! evenly over all volumes"). On AVS the VMDK placement decides it: `spread` puts
//! VMDKs round-robin over all datastores, `dedicated` puts VM i on datastore i mod N,
//! `single` puts everything on the first datastore.

use super::plan::{Group, Plan};
use super::scenario::Placement;

/// The volumes by load ([`Distribution::tiers`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tiers {
    /// How many volumes carry the larger share (the first ones); 0 when all carry the same.
    pub busy: u32,
    pub busy_share: f64,
    pub rest_share: f64,
}

/// The share of the load each volume carries.
#[derive(Debug, Clone, Copy)]
pub struct Distribution {
    /// Units (VMDKs or VMs) placed round-robin; 0 = even spread over all volumes.
    units: u64,
    /// Volumes that carry load.
    pub used: u32,
    base: u64,
    rem: u64,
    /// 1 / the busiest volume's share, from the integer counts.
    spread: f64,
}

impl Distribution {
    /// The units (VMDKs or VMs) an AVS placement puts on datastores; 0 for ordinary
    /// clients, which spread evenly over every volume.
    pub fn units(p: &Plan) -> u64 {
        match p.avs {
            None => 0,
            Some(a) => {
                let vms = u64::from(a.hosts) * u64::from(a.vms_per_host);
                match a.placement {
                    Placement::Spread => vms * u64::from(a.vmdks_per_vm),
                    Placement::Dedicated => vms,
                    Placement::Single => 1,
                }
            }
        }
    }

    /// The distribution a plan implies.
    pub fn of(p: &Plan) -> Self {
        let n = u64::from(p.n_volumes.max(1));
        let units = Self::units(p);
        if units == 0 {
            return Self {
                units: 0,
                used: n as u32,
                base: 1,
                rem: 0,
                spread: n as f64,
            };
        }
        let base = units / n;
        let rem = units % n;
        Self {
            units,
            used: units.min(n) as u32,
            base,
            rem,
            spread: units as f64 / (base + u64::from(rem > 0)) as f64,
        }
    }

    /// Fraction of the load on volume `d` (0-based).
    pub fn frac(&self, d: u32) -> f64 {
        if self.units == 0 {
            return 1.0 / f64::from(self.used);
        }
        let count = self.base + u64::from(u64::from(d) < self.rem);
        count as f64 / self.units as f64
    }

    /// The whole load in units of the busiest volume's load (1 / its share): a
    /// per-volume ceiling times this is the total it allows.
    pub fn spread(&self) -> f64 {
        self.spread
    }

    /// When the units do not divide evenly over the loaded volumes: how many the
    /// busiest holds and how many there are (64 VMDKs over 20 datastores: 4 of 64).
    pub fn unequal(&self) -> Option<(u64, u64)> {
        (self.units > 0 && self.rem > 0).then_some((self.base + 1, self.units))
    }

    /// The volumes in at most two tiers by load: the first `busy` volumes each carry
    /// `busy_share` of the load and the others `rest_share` each (0 where no unit lands).
    pub fn tiers(&self) -> Tiers {
        if self.units == 0 {
            let share = 1.0 / f64::from(self.used);
            return Tiers {
                busy: 0,
                busy_share: share,
                rest_share: share,
            };
        }
        let units = self.units as f64;
        Tiers {
            busy: self.rem as u32,
            busy_share: (self.base + 1) as f64 / units,
            rest_share: self.base as f64 / units,
        }
    }

    /// How many equally loaded volumes the busiest one is worth (for labels).
    pub fn effective_count(&self) -> u32 {
        self.spread.round().max(1.0) as u32
    }

    /// The total that per-volume ceilings allow: min over loaded volumes of ceiling / share.
    /// Returns the total and the group whose volume binds.
    pub fn bound(&self, p: &Plan, per_volume: impl Fn(Group) -> f64) -> (f64, Group) {
        if p.volumes.groups() == 1 {
            let g = p.volumes.group(0);
            return (per_volume(g) * self.spread, g);
        }
        if self.units == 0 {
            let mut best = (f64::INFINITY, p.volumes.group(0));
            for g in p.volumes.iter() {
                let v = per_volume(g);
                if v < best.0 {
                    best = (v, g);
                }
            }
            return (best.0 * f64::from(self.used), best.1);
        }
        let mut best = (f64::INFINITY, p.volumes.group(0));
        for d in 0..self.used {
            let g = p.volumes.group_of(d);
            let v = per_volume(g) / self.frac(d);
            if v < best.0 {
                best = (v, g);
            }
        }
        best
    }
}
