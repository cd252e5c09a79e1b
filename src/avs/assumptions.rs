//! The per-VM figures a plan assumed: where the inventory gave no figure (IOPS, MiB/s)
//! or the request left a default (read share, IO size, IOs in flight), each with its
//! value and where it came from, as the page and every report list them.

use super::request::PlanRequest;
use super::{PlanTargets, request};
use serde::Serialize;

/// Where an assumed figure comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Read from the inventory (or a performance file).
    Inventory,
    /// The plan's default, as no figure was given.
    Default,
    /// Given in the request (the page's or the command line's inputs).
    User,
}

impl Source {
    /// "inventory", "default", "yours".
    pub fn display(self) -> &'static str {
        match self {
            Source::Inventory => "inventory",
            Source::Default => "default",
            Source::User => "yours",
        }
    }
}

/// One assumed per-VM figure.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Assumption {
    pub name: String,
    pub value: f64,
    pub unit: &'static str,
    pub source: Source,
}

impl Assumption {
    /// The value with its unit: "70 %", "49.5 KiB".
    pub fn shown(&self) -> String {
        let decimals = if self.value.fract() == 0.0 { 0 } else { 1 };
        format!("{} {}", crate::format::num(self.value, decimals), self.unit)
    }
}

fn row(name: impl Into<String>, value: f64, unit: &'static str, source: Source) -> Assumption {
    Assumption {
        name: name.into(),
        value,
        unit,
        source,
    }
}

/// `user` when the request's value differs from the default, else `default`.
fn given(value: f64, default: f64) -> Source {
    if (value - default).abs() > 1e-9 {
        Source::User
    } else {
        Source::Default
    }
}

/// The figures the plan assumed for `req` with the load `targets`.
pub fn assumptions(req: &PlanRequest, targets: &PlanTargets) -> Vec<Assumption> {
    let vms = &req.inventory.vms;
    let mut out = vec![row(
        "Read share",
        targets.read_pct,
        "%",
        given(req.read_pct, request::DEFAULT_READ_PCT),
    )];
    let measured = |f: fn(&crate::inventory::Vm) -> Option<f64>| {
        let figures: Vec<f64> = vms.iter().filter_map(f).collect();
        let mean = figures.iter().sum::<f64>() / figures.len().max(1) as f64;
        (figures.len(), mean)
    };
    let (with_iops, mean_iops) = measured(|v| v.iops);
    let (with_mibps, mean_mibps) = measured(|v| v.mibps);
    out.push(row(
        "IO size",
        targets.io_size_kib,
        "KiB",
        match req.io_size_kib {
            Some(_) => Source::User,
            None if with_iops > 0 && with_mibps > 0 => Source::Inventory,
            None => Source::Default,
        },
    ));
    if let Some(p) = req.inventory.summary.percentile {
        out.push(row(
            format!(
                "Percentile of each VM's performance samples: the share at or below its figure ({} VMs with several)",
                req.inventory.summary.series_vms
            ),
            f64::from(p),
            "%",
            given(
                f64::from(p),
                f64::from(crate::inventory::perf::DEFAULT_PERCENTILE),
            ),
        ));
    }
    out.push(row(
        "Comfort factor on every VM's IOPS and MiB/s",
        req.comfort_factor,
        "x",
        given(req.comfort_factor, request::DEFAULT_COMFORT_FACTOR),
    ));
    out.push(row(
        "IOs in flight per VM",
        f64::from(req.outstanding_per_vm),
        "IOs",
        given(
            f64::from(req.outstanding_per_vm),
            f64::from(request::DEFAULT_OUTSTANDING),
        ),
    ));
    for (what, unit, with, mean, default) in [
        (
            "IOPS",
            "IOPS",
            with_iops,
            mean_iops,
            req.default_iops_per_vm,
        ),
        (
            "MiB/s",
            "MiB/s",
            with_mibps,
            mean_mibps,
            req.default_mibps_per_vm,
        ),
    ] {
        if with > 0 {
            out.push(row(
                format!("{what} per VM, mean of the {with} VMs with figures"),
                mean,
                unit,
                Source::Inventory,
            ));
        }
        let without = vms.len() - with;
        if without > 0 {
            out.push(row(
                format!("{what} per VM without figures ({without} VMs)"),
                default.unwrap_or(0.0),
                unit,
                if default.is_some() {
                    Source::User
                } else {
                    Source::Default
                },
            ));
        }
    }
    out
}
