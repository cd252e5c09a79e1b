//! The IO-size sweep: the scenario at each IO size from 4 KiB to 1 MiB.

use crate::engine::evaluate::evaluate_in;
use crate::engine::field_error::FieldErrors;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::Scenario;

/// IO sizes of the IO-size sweep, in KiB (4 KiB to 1 MiB in powers of two).
pub const IO_SIZES_KIB: [f64; 9] = [4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0];

/// One IO size of the IO-size sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct IoSizePoint {
    pub io_size_kib: f64,
    pub throughput_mibps: f64,
    pub iops: f64,
    /// Id of the binding limit at this IO size.
    pub binding: &'static str,
}

/// One ceiling followed across the sweep; `None` where it does not apply.
#[derive(Debug, Clone, PartialEq)]
pub struct Ceiling {
    pub id: &'static str,
    pub name: &'static str,
    pub mibps: Vec<Option<f64>>,
}

/// The IO-size sweep: achievable figures and every ceiling per IO size.
#[derive(Debug, Clone, PartialEq)]
pub struct IoSizeSweep {
    pub points: Vec<IoSizePoint>,
    pub ceilings: Vec<Ceiling>,
    /// The scenario's own IO size (always one of the points).
    pub scenario_io_kib: f64,
}

/// The sizes swept for a scenario: [`IO_SIZES_KIB`] plus its own IO size.
pub fn io_sizes_for(scenario: &Scenario) -> Vec<f64> {
    let own = scenario.workload.io_size_kib;
    let mut sizes = IO_SIZES_KIB.to_vec();
    if !sizes.iter().any(|s| (s - own).abs() < 1e-9) {
        sizes.push(own);
        sizes.sort_by(f64::total_cmp);
    }
    sizes
}

/// Evaluates the scenario at each IO size from 4 KiB to 1 MiB (and its own), priced
/// from `prices` (the book in force) as the scenario itself is.
pub fn io_size(scenario: &Scenario, prices: &PriceBook) -> Result<IoSizeSweep, FieldErrors> {
    let sizes = io_sizes_for(scenario);
    let mut points = Vec::with_capacity(sizes.len());
    let mut ceilings: Vec<Ceiling> = Vec::new();
    let mut s = scenario.clone();
    for (i, &kib) in sizes.iter().enumerate() {
        s.workload.io_size_kib = kib;
        let e = evaluate_in(&s, prices)?;
        points.push(IoSizePoint {
            io_size_kib: kib,
            throughput_mibps: e.throughput_mibps,
            iops: e.iops,
            binding: e.binding,
        });
        for l in &e.limits {
            let name = l.label.name;
            let pos = match ceilings.iter().position(|c| c.id == l.id && c.name == name) {
                Some(p) => p,
                None => {
                    ceilings.push(Ceiling {
                        id: l.id,
                        name,
                        mibps: vec![None; sizes.len()],
                    });
                    ceilings.len() - 1
                }
            };
            // Several limits of one id and name (e.g. two volume groups): the tightest shows.
            let slot = &mut ceilings[pos].mibps[i];
            *slot = Some(slot.map_or(l.mibps, |v: f64| v.min(l.mibps)));
        }
    }
    Ok(IoSizeSweep {
        points,
        ceilings,
        scenario_io_kib: scenario.workload.io_size_kib,
    })
}
