//! The layouts sweep: the same capacity as 1, 2, 4 ... volumes, and the explorer's rows.

use crate::engine::evaluate::evaluate_without_sizing;
use crate::engine::evaluation::Evaluation;
use crate::engine::field_error::FieldErrors;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{
    FieldError, MAX_QUOTA_TIB, MAX_TOTAL_TIB, MAX_VOLUMES, Scenario, VolumeGroup,
};
use crate::engine::trace::Formula;
use crate::engine::trace::Num;
use serde::Serialize;

/// A layout within this share of the best throughput counts as "as good".
pub const NEAR_BEST: f64 = 0.05;

/// An ANF layout whose datastores outgrow a regular volume uses large volumes (as an
/// architect would), when they are large enough to be one.
pub(super) fn large_where_needed(s: &mut Scenario) {
    use crate::engine::plan::quota_range;
    use crate::engine::scenario::{Service, VolumeKind};
    let st = &mut s.storage;
    let Some(q) = st.volumes.first().map(|v| v.quota_tib) else {
        return;
    };
    if st.service == Service::Anf && st.volume_kind == VolumeKind::Regular {
        let (_, regular_max, _) = quota_range(st.service, st.level, VolumeKind::Regular);
        let (large_min, _, _) = quota_range(st.service, st.level, VolumeKind::Large);
        if q > regular_max && q >= large_min {
            st.volume_kind = VolumeKind::Large;
        }
    }
}

/// Total provisioned quota of the scenario's volumes, in TiB.
pub fn total_quota_tib(scenario: &Scenario) -> f64 {
    scenario.storage.total_quota_tib()
}

/// The scenario with its volumes replaced by `count` x `total_tib / count`.
/// An assigned throughput (manual QoS, Flexible) is split the same way.
pub fn with_layout(scenario: &Scenario, count: u32, total_tib: f64) -> Scenario {
    let mut s = scenario.clone();
    let assigned: Option<f64> = {
        let groups = &scenario.storage.volumes;
        if groups.iter().all(|g| g.throughput_mibps.is_some()) {
            Some(
                groups
                    .iter()
                    .map(|g| f64::from(g.count) * g.throughput_mibps.unwrap_or(0.0))
                    .sum(),
            )
        } else {
            None
        }
    };
    let n = f64::from(count.max(1));
    s.storage.volumes = vec![VolumeGroup {
        count,
        quota_tib: total_tib / n,
        throughput_mibps: assigned.map(|t| t / n),
        iops: None,
    }];
    s
}

/// The scenario of one layout of the sweep: its volumes replaced by `count` x
/// `total_tib / count`, each with the first group's assigned throughput and IOPS, in the
/// smallest pool.
pub fn layout_variant(s: &Scenario, count: u32, total_tib: f64) -> Scenario {
    let mut variant = s.clone();
    let template = s.storage.volumes.first();
    variant.storage.volumes = vec![VolumeGroup {
        count,
        quota_tib: total_tib / f64::from(count),
        throughput_mibps: template.and_then(|v| v.throughput_mibps),
        iops: template.and_then(|v| v.iops),
    }];
    variant.storage.pool_tib = None;
    variant
}

/// One layout of the sweep.
#[derive(Debug, Clone, Serialize)]
pub struct Layout {
    pub count: u32,
    pub quota_tib: f64,
    /// The layout's evaluation, without a per-level sizing table (`sizing` is empty).
    pub evaluation: Evaluation,
}

/// The most volumes a layout splits the capacity into.
pub const MAX_LAYOUT_COUNT: u32 = 1024;

/// Evaluates the scenario with its volumes replaced by `count` x `total_tib / count`
/// for each count (contract: POST /api/v1/layouts), priced from `prices`.
pub fn layouts(
    s: &Scenario,
    total_tib: f64,
    counts: &[u32],
    prices: &PriceBook,
) -> Result<Vec<Layout>, FieldErrors> {
    // Any scenario's own total fits: a layout is asked for at the scenario's quota.
    if !(total_tib.is_finite() && total_tib > 0.0 && total_tib <= MAX_TOTAL_TIB) {
        return Err(FieldError::new(
            "total_tib",
            format!(
                "must be a capacity above 0 and at most {} TiB ({MAX_VOLUMES} volumes of {MAX_QUOTA_TIB} TiB)",
                Num(MAX_TOTAL_TIB, 0)
            ),
        ).into());
    }
    if counts.is_empty() || counts.len() > 256 {
        return Err(
            FieldError::new("counts", "give 1 to 256 volume counts, e.g. [1, 2, 4, 8]").into(),
        );
    }
    // Every count out of range is named at once.
    let mut checks = crate::engine::field_error::Checks::default();
    for (i, &count) in counts.iter().enumerate() {
        if !(1..=MAX_LAYOUT_COUNT).contains(&count) {
            checks.push(FieldError::new(
                format!("counts[{i}]"),
                format!("must be a whole number from 1 to {MAX_LAYOUT_COUNT}, not {count}"),
            ));
        }
    }
    checks.finish()?;
    let mut out = Vec::with_capacity(counts.len());
    for (i, &count) in counts.iter().enumerate() {
        let quota_tib = total_tib / f64::from(count);
        let variant = layout_variant(s, count, total_tib);
        let evaluation = evaluate_without_sizing(&variant, prices).map_err(|e| {
            e.about(
                &format!("counts[{i}]"),
                &format!("{count} volumes of {quota_tib:.4} TiB"),
            )
        })?;
        out.push(Layout {
            count,
            quota_tib,
            evaluation,
        });
    }
    Ok(out)
}

/// One layout as the explorer shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutRow {
    pub count: u32,
    pub quota_tib: f64,
    pub throughput_mibps: f64,
    pub iops: f64,
    /// The QoS ceiling of one volume (datastore): quota x level rate; `None` without one.
    pub qos_per_volume_mibps: Option<f64>,
    /// Connections one client (AVS host or VM) opens.
    pub connections_per_client: u64,
    pub connections: u64,
    /// `None` when the catalog has no list price for the level, or in another currency.
    pub monthly_usd: Option<f64>,
    /// The monthly cost in `currency`; `None` without a list price.
    pub monthly: Option<f64>,
    /// ISO 4217 code of `monthly` (the scenario's `pricing.currency`).
    pub currency: &'static str,
    pub binding: &'static str,
}

/// The explorer's rows: per-volume QoS is the `volume_qos` ceiling divided by the count.
pub fn layout_rows(layouts: &[Layout]) -> Vec<LayoutRow> {
    layouts
        .iter()
        .map(|l| {
            let e = &l.evaluation;
            // The formula holds one volume's quota x rate; the limit's value may
            // count only the volumes the workload reaches.
            let qos =
                e.limits
                    .iter()
                    .find(|x| x.id == "volume_qos")
                    .map(|x| match x.label.formula {
                        Formula::QuotaRate {
                            quota_tib, rate, ..
                        } => quota_tib * rate,
                        Formula::Busiest { each, .. } => each,
                        _ => x.mibps / f64::from(l.count.max(1)),
                    });
            LayoutRow {
                count: l.count,
                quota_tib: l.quota_tib,
                throughput_mibps: e.throughput_mibps,
                iops: e.iops,
                qos_per_volume_mibps: qos,
                connections_per_client: e.flows.per_client,
                connections: e.flows.connections,
                monthly_usd: e.cost.monthly_usd,
                monthly: e.cost.monthly,
                currency: e.cost.currency,
                binding: e.binding,
            }
        })
        .collect()
}

/// Index of the smallest count whose throughput is within [`NEAR_BEST`] of the best.
pub fn suggest_layout(rows: &[LayoutRow]) -> Option<usize> {
    let best = rows
        .iter()
        .map(|r| r.throughput_mibps)
        .fold(f64::NAN, f64::max);
    if !best.is_finite() {
        return None;
    }
    rows.iter()
        .enumerate()
        .filter(|(_, r)| r.throughput_mibps >= best * (1.0 - NEAR_BEST))
        .min_by_key(|(_, r)| r.count)
        .map(|(i, _)| i)
}
