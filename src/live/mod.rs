//! The live estate: what runs in Azure and how it is used, set against the model.
//!
//! PURE: no I/O. [`inventory`] reads an Azure Resource Graph result into the estate of
//! what exists; [`metrics`] reads Azure Monitor metrics (the collector CSV or the REST
//! answer) into series per volume; [`demand`] turns a volume's series into percentiles,
//! [`over_time`] into percentiles per day or hour;
//! [`rightsize`] sets a volume's demand against its QoS throughput and the model's
//! ceiling and sizes it again with the engine's reverse sizing; [`replan`] plans the
//! right-sized volumes together in capacity pools; [`actuals`] compares a
//! saved plan with the volumes it became and turns a volume measured at its ceiling
//! into a measured run for calibration. Every sentence comes from
//! [`crate::verdict::live`].

pub mod actuals;
pub mod demand;
pub mod estate;
pub mod inventory;
pub mod metrics;
pub mod over_time;
pub mod replan;
pub mod rightsize;
#[cfg(test)]
mod tests;

use crate::engine::scenario::{Access, Level, Scenario};
use demand::Demand;
use inventory::{LivePool, LiveVolume};
use std::fmt;

/// An input volplan cannot read: the field (column, member or row) and what to fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveError {
    pub field: String,
    pub message: String,
}

impl LiveError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        LiveError {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for LiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for LiveError {}

/// `level` when the text named an ANF level, else an error naming `field`.
fn level_or(text: &str, level: Option<Level>, field: &str) -> Result<Level, LiveError> {
    level.ok_or_else(|| {
        LiveError::new(
            field,
            format!(
                "`{}` is not an ANF service level (Standard, Premium, Ultra or Flexible)",
                text.chars().take(40).collect::<String>()
            ),
        )
    })
}

/// The scenario of one volume as it exists: its pool's level and QoS, its quota and
/// throughput, and the measured mix when `demand` has one.
pub fn volume_scenario(pool: &LivePool, v: &LiveVolume, demand: Option<&Demand>) -> Scenario {
    let mut s: Scenario = serde_json::from_value(inventory::scenario_json(pool, v))
        .expect("the volume scenario is built from typed values");
    if let Some(d) = demand {
        with_measured_mix(&mut s, d);
    }
    s
}

/// `s` with the IO size and read share the metrics measured over the whole period.
pub fn with_measured_mix(s: &mut Scenario, d: &Demand) {
    if let Some(kib) = d.io_size_kib {
        s.workload.io_size_kib = kib.clamp(4.0, 1024.0).round();
        s.workload.access = if s.workload.io_size_kib <= 32.0 {
            Access::Random
        } else {
            Access::Sequential
        };
    }
    if let Some(r) = d.read_pct {
        s.workload.read_pct = r.clamp(0.0, 100.0).round();
    }
}
