//! Why each row of the per-level sizing table meets the targets or not, and the
//! recommendation: the cheapest row that meets every target, as the scenario it would
//! become (what the planner's Apply fills in).
//!
//! Every row is evaluated again as the scenario it describes ([`Sizing::applied_to`]),
//! so its statement quotes the figures a user gets after applying it.

use super::mechanism;
use super::words::{level, plural, volume_noun};
use crate::engine::evaluation::{Evaluation, Sizing, SizingBasis};
use crate::engine::plan::quota_range;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{Level, Qos, Scenario, VolumeGroup, VolumeKind};
use crate::format::{capacity as tib, mibps, millis as ms, monthly, num};
use crate::measure::calibrate::evaluate_as;
use serde::Serialize;
use std::borrow::Cow;

/// Why one sizing row meets the targets or not.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RowVerdict {
    pub level: Level,
    pub meets: bool,
    pub cheapest: bool,
    /// MiB/s the row's provisioning achieves, evaluated as a scenario of its own (the
    /// figure the statement gives); null when it cannot be evaluated.
    pub throughput_mibps: Option<f64>,
    /// Monthly cost of the row's provisioning, evaluated the same way; null without a
    /// list price.
    pub monthly: Option<f64>,
    /// "Ultra, 1 x 50 TiB: reaches 4,337 MiB/s but takes 4.7 ms per IO at 4,000 MiB/s,
    /// above the 2 ms target."
    pub statement: String,
}

/// The cheapest provisioning that meets every target, ready to apply.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Recommendation {
    pub level: Level,
    pub qos: Qos,
    /// The kind of the volumes (it may differ from the scenario's where the other kind
    /// is cheaper).
    pub volume_kind: VolumeKind,
    /// The volumes as they would be entered (quota in whole GiB, throughput in whole
    /// MiB/s); their number may differ from the scenario's unless
    /// `storage.fixed_count` is set.
    pub volumes: Vec<VolumeGroup>,
    /// Achievable MiB/s with this provisioning.
    pub throughput_mibps: f64,
    /// Monthly cost; null without a list price.
    pub monthly: Option<f64>,
    /// True when the scenario as entered is already this provisioning.
    pub current: bool,
    pub statement: String,
}

impl Recommendation {
    /// `s` with this provisioning: level, QoS, volume kind and volumes, in the smallest
    /// pool.
    pub fn apply_to(&self, s: &mut Scenario) {
        s.storage.set_level(self.level);
        s.storage.qos = self.qos;
        s.storage.volume_kind = self.volume_kind;
        s.storage.volumes = self.volumes.clone();
        s.storage.pool_tib = None;
    }
}

/// The rows, the recommendation, and when no row meets, the statement saying so.
pub struct Sized {
    pub rows: Vec<RowVerdict>,
    pub recommendation: Option<Recommendation>,
    pub none_meets: Option<String>,
}

/// A row's provisioning in words: "Flexible, 1 x 50 TiB".
fn row_name(s: &Scenario, applied: &Scenario) -> String {
    format!(
        "{}, {}",
        level(s.storage.service, applied.storage.level),
        super::words::layout_and_kind(applied)
    )
}

/// The sizing table of `e` with a reason per row.
pub fn sized(s: &Scenario, e: &Evaluation, prices: &PriceBook) -> Sized {
    let currency = e.cost.currency;
    let current_mibps = e.throughput_mibps;
    let mut rows = Vec::with_capacity(e.sizing.len());
    let mut recommendation = None;
    for row in &e.sizing {
        let applied = row.applied_to(s);
        // The scenario's own provisioning is judged by the scenario's own figures, so the
        // row, the recommendation and the cost section give one figure for it.
        let ev = if same_provisioning(s, &applied) {
            Some(Cow::Borrowed(e))
        } else {
            evaluate_as(&applied, prices, e.calibration.as_ref(), false)
                .ok()
                .map(Cow::Owned)
        };
        let name = row_name(s, &applied);
        let statement = match &ev {
            Some(ev) if row.meets => {
                let mut t = format!("{name}: meets every target: {}", mibps(ev.throughput_mibps));
                if let Some(l) = ev
                    .latency_at_target_ms
                    .filter(|_| s.workload.target_latency_ms.is_some())
                {
                    t.push_str(&format!(", {} per IO at the target rate", ms(l)));
                }
                if row.basis == SizingBasis::Current {
                    t = format!(
                        "{name}: gives what this scenario gives: {}",
                        mibps(ev.throughput_mibps)
                    );
                }
                format!("{t}, {}.", monthly(ev.cost.monthly, currency))
            }
            Some(ev) => format!("{name}: {}.", why_not(&applied, row, ev, current_mibps)),
            None => format!("{name}: cannot be evaluated as a scenario of its own."),
        };
        if row.cheapest
            && let Some(ev) = &ev
        {
            recommendation = Some(recommend(s, e, row, &applied, ev));
        }
        rows.push(RowVerdict {
            level: row.level,
            meets: row.meets,
            cheapest: row.cheapest,
            throughput_mibps: ev.as_ref().map(|ev| ev.throughput_mibps),
            monthly: ev.as_ref().and_then(|ev| ev.cost.monthly),
            statement,
        });
    }
    let none_meets = (recommendation.is_none() && !e.sizing.is_empty()).then(|| {
        let n: u32 = s.storage.volumes.iter().map(|g| g.count).sum();
        let layout = plural(u64::from(n), volume_noun(s, false), volume_noun(s, true));
        match e.advice.iter().find(|a| a.code == "target_unreachable") {
            Some(a) => format!("No level meets every target with {layout}. {}", a.message),
            None => format!(
                "No level meets every target with {layout}; each level's reason is in the sizing table."
            ),
        }
    });
    Sized {
        rows,
        recommendation,
        none_meets,
    }
}

/// Why a row does not meet (`s` is the row applied): capacity that does not fit, a rate short of its target and
/// what caps it, or a latency above its target at the target rate.
fn why_not(s: &Scenario, row: &Sizing, ev: &Evaluation, current_mibps: f64) -> String {
    let n = s.storage.volume_count();
    let (_, hi, _) = quota_range(s.storage.service, row.level, s.storage.volume_kind);
    if s.workload.capacity_tib / f64::from(n) > hi + 1e-9 {
        return format!(
            "{} does not fit in {} of at most {} each",
            tib(s.workload.capacity_tib),
            plural(u64::from(n), volume_noun(s, false), volume_noun(s, true)),
            tib(hi)
        );
    }
    let cause = mechanism::cause(ev);
    if row.basis == SizingBasis::Current {
        return format!(
            "reaches only {} of the {} this scenario achieves: {cause}",
            mibps(ev.throughput_mibps),
            mibps(current_mibps)
        );
    }
    let w = &s.workload;
    if !ev.targets.rate_met() {
        let target = match (w.target_mibps, ev.targets.mibps_met()) {
            (Some(t), Some(false)) => mibps(t),
            _ => format!("{} IOPS", num(w.target_iops.unwrap_or(0.0), 0)),
        };
        return format!(
            "reaches only {} of the {target} target even at its largest: {cause}",
            mibps(ev.throughput_mibps)
        );
    }
    if let (Some(t), Some(false)) = (w.target_latency_ms, ev.targets.latency_met) {
        return match ev.latency_at_target_ms {
            Some(l) => format!(
                "reaches {} but takes {} per IO at the target rate, above the {} target",
                mibps(ev.throughput_mibps),
                ms(l),
                ms(t)
            ),
            None => format!(
                "reaches {}, short of the target rate its {} latency target is set at",
                mibps(ev.throughput_mibps),
                ms(t)
            ),
        };
    }
    format!(
        "reaches {} as sized, but no provisioning of this level tried meets every target",
        mibps(ev.throughput_mibps)
    )
}

/// The recommendation of the cheapest row `row` of `e` (the evaluation of `s`), applied
/// as `applied` and evaluated as `ev`.
fn recommend(
    s: &Scenario,
    e: &Evaluation,
    row: &Sizing,
    applied: &Scenario,
    ev: &Evaluation,
) -> Recommendation {
    let currency = e.cost.currency;
    let st = &applied.storage;
    let current = same_provisioning(s, applied);
    let what = format!(
        "{}, {}{}: reaches {}, {}",
        level(st.service, st.level),
        super::words::layout_and_kind(applied),
        assigned(applied),
        mibps(ev.throughput_mibps),
        monthly(ev.cost.monthly, currency)
    );
    let was = format!("as entered, {}", monthly(e.cost.monthly, currency));
    let statement = match (row.basis, current) {
        (SizingBasis::Targets, false) => {
            format!("Cheapest that meets every target: {what} ({was}).")
        }
        (SizingBasis::Targets, true) => {
            format!("The provisioning as entered is the cheapest that meets every target: {what}.")
        }
        (SizingBasis::Current, false) => format!(
            "Cheapest that gives what this scenario gives ({}, {}): {what} ({was}).",
            mibps(e.throughput_mibps),
            tib(s.workload.capacity_tib)
        ),
        (SizingBasis::Current, true) => {
            format!("The provisioning as entered is the cheapest for what it gives: {what}.")
        }
    };
    Recommendation {
        level: st.level,
        qos: st.qos,
        volume_kind: st.volume_kind,
        volumes: st.volumes.clone(),
        throughput_mibps: ev.throughput_mibps,
        monthly: ev.cost.monthly,
        current,
        statement,
    }
}

/// The throughput assigned to the volumes: "", " with 10,260 MiB/s assigned", or per
/// group when it differs " with 4 x 512 MiB/s + 16 x 384 MiB/s assigned (8,192 MiB/s)".
fn assigned(s: &Scenario) -> String {
    let groups: Vec<(u32, f64)> = s
        .storage
        .volumes
        .iter()
        .filter_map(|g| g.throughput_mibps.map(|t| (g.count, t)))
        .collect();
    let total: f64 = groups.iter().map(|&(c, t)| f64::from(c) * t).sum();
    let even = groups.windows(2).all(|w| w[0].1 == w[1].1);
    match groups.as_slice() {
        [] => String::new(),
        _ if even => format!(" with {} assigned", mibps(total)),
        many => format!(
            " with {} assigned ({})",
            many.iter()
                .map(|&(c, t)| format!("{c} x {}", mibps(t)))
                .collect::<Vec<_>>()
                .join(" + "),
            mibps(total)
        ),
    }
}

/// Whether `applied` provisions what `s` does (same level, QoS and volumes, to the GiB
/// and the MiB/s).
fn same_provisioning(s: &Scenario, applied: &Scenario) -> bool {
    let (a, b) = (&s.storage, &applied.storage);
    let close = |x: Option<f64>, y: Option<f64>, tol: f64| match (x, y) {
        (Some(x), Some(y)) => (x - y).abs() <= tol,
        (None, None) => true,
        _ => false,
    };
    a.level == b.level
        && a.qos == b.qos
        && a.volume_kind == b.volume_kind
        && a.volumes.len() == b.volumes.len()
        && a.volumes.iter().zip(&b.volumes).all(|(x, y)| {
            x.count == y.count
                && (x.quota_tib - y.quota_tib).abs() <= 1.0 / 1024.0
                && close(x.throughput_mibps, y.throughput_mibps, 1.0)
                && close(x.iops, y.iops, 1.0)
        })
}
