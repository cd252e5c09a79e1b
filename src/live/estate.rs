//! Every measured volume of an export set against what it has, and the estate's
//! verdict: the answer of `POST /api/v1/live/metrics` and of the live page.
//!
//! What a volume has comes from the estate of what exists (the workload named as the
//! volume) when one is given, else from the export itself: the collector's
//! `ServiceLevel` and `QoSType` with the `VolumeAllocatedSize` metric as its quota.

use super::demand::{Demand, Spread};
use super::inventory::{LivePool, LiveVolume};
use super::metrics::{Metric, Metrics, VolumeSeries};
use super::over_time::{self, OverTime};
use super::replan::{self, Replan};
use super::rightsize::{self, Assessment, MARGIN_PCT};
use crate::engine::field_error::FieldErrors;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{Level, Qos, Scenario};
use crate::estate::EstateRequest;
use crate::verdict::live::{self as words, Headroom, RightSize, TIGHT_PCT};
use crate::verdict::{Recommendation, SetVerdict};
use serde::Serialize;
use std::collections::BTreeMap;

/// Most volumes one answer assesses (each is sized on every level).
pub const MAX_ASSESSED: usize = 200;

/// A metric's spread in the unit volplan reports it in.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct MetricSpread {
    pub p50: f64,
    pub p95: f64,
    pub max: f64,
    /// `IO/s`, `MiB/s`, `ms`, `%` or `TiB`.
    pub unit: &'static str,
}

/// One measured volume.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct VolumeAnswer {
    pub name: String,
    pub level: Option<Level>,
    pub qos: Option<Qos>,
    pub quota_tib: Option<f64>,
    /// Each metric sent, by its Azure Monitor name.
    pub metrics: BTreeMap<&'static str, MetricSpread>,
    /// Read + write MiB/s interval by interval, as a spread.
    pub demand_mibps: Option<Spread>,
    /// Read + write IOPS interval by interval, as a spread.
    pub demand_iops: Option<Spread>,
    /// Read + write MiB/s per day (per hour under two days of samples), as spreads.
    pub demand_over_time: Option<OverTime>,
    /// The volume's QoS throughput, MiB/s.
    pub qos_mibps: Option<f64>,
    /// What the model says the volume gives at its measured IO mix, MiB/s.
    pub ceiling_mibps: Option<f64>,
    /// How far P95 demand is below the QoS throughput, % of it (negative: above).
    pub headroom_pct: Option<f64>,
    /// How far P95 demand is below the model's ceiling, % of it.
    pub ceiling_headroom_pct: Option<f64>,
    /// The cheapest provisioning for P95 plus the margin and the consumed capacity
    /// plus the margin, from the engine's sizing (level, QoS, quota, throughput).
    pub recommendation: Option<Recommendation>,
    /// What the volume costs a month today.
    pub monthly: Option<f64>,
    /// Today's cost less the recommendation's (negative: it costs more).
    pub saving_monthly: Option<f64>,
    /// The headroom and the right-sizing in words.
    pub statements: Vec<String>,
}

/// The answer: every volume, and the verdict on the estate.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct LiveAnswer {
    pub volumes: Vec<VolumeAnswer>,
    pub verdict: SetVerdict,
    pub currency: &'static str,
    /// Seconds between samples.
    pub interval_s: f64,
    /// What was skipped while reading.
    pub warnings: Vec<String>,
    /// The right-sized volumes planned together in capacity pools; null when none was
    /// right-sized.
    pub replan: Option<Replan>,
}

/// The volume as it exists: the estate's workload of its name, else the export's
/// level, QoS and allocated size; None when neither says enough.
fn existing(v: &VolumeSeries, demand: &Demand, estate: Option<&EstateRequest>) -> Option<Scenario> {
    if let Some(s) = estate.and_then(|e| {
        e.workloads
            .iter()
            .find(|w| w.name.eq_ignore_ascii_case(&v.name))
    }) {
        return Some(s.clone());
    }
    let level = match v.service_level.as_deref()?.to_ascii_lowercase().as_str() {
        "standard" => Level::Standard,
        "premium" => Level::Premium,
        "ultra" => Level::Ultra,
        _ => return None,
    };
    let manual = v
        .qos_type
        .as_deref()
        .is_some_and(|q| q.eq_ignore_ascii_case("manual"));
    if manual {
        return None;
    }
    let quota = demand.allocated_tib?;
    let pool = LivePool {
        name: String::new(),
        level,
        qos: Qos::Auto,
        size_tib: quota,
        location: String::new(),
    };
    let volume = LiveVolume {
        name: v.name.clone(),
        pool: String::new(),
        quota_tib: quota,
        throughput_mibps: None,
        large: false,
        protocol: "nfsv3",
    };
    Some(super::volume_scenario(&pool, &volume, None))
}

/// Sets every volume of `metrics` against what it has and sizes it again.
pub fn assess(
    metrics: &Metrics,
    estate: Option<&EstateRequest>,
    prices: &PriceBook,
) -> Result<LiveAnswer, FieldErrors> {
    let mut volumes = Vec::with_capacity(metrics.volumes.len());
    let mut warnings = metrics.warnings.clone();
    let mut currency = "USD";
    let (mut tight, mut not_sized) = (Vec::new(), Vec::new());
    let mut kept: Vec<Assessment> = Vec::new();
    for (i, v) in metrics.volumes.iter().enumerate() {
        let demand = Demand::of(v);
        let scenario = existing(v, &demand, estate);
        let assessed = match &scenario {
            Some(s) if i < MAX_ASSESSED => rightsize::assess(s, &demand, prices)
                .map_err(|e| e.within(&format!("volumes[{i}]")))?,
            _ => None,
        };
        let mut answer = VolumeAnswer {
            name: v.name.clone(),
            level: scenario.as_ref().map(|s| s.storage.level),
            qos: scenario.as_ref().map(|s| s.storage.qos),
            quota_tib: scenario.as_ref().map(|s| {
                s.storage
                    .volumes
                    .iter()
                    .map(|g| g.quota_tib * f64::from(g.count))
                    .sum()
            }),
            metrics: demand
                .metrics
                .iter()
                .map(|(m, s)| {
                    (
                        m.key(),
                        MetricSpread {
                            p50: s.p50,
                            p95: s.p95,
                            max: s.max,
                            unit: m.unit(),
                        },
                    )
                })
                .collect(),
            demand_mibps: demand.mibps,
            demand_iops: demand.iops,
            demand_over_time: over_time::of(&demand.samples),
            qos_mibps: None,
            ceiling_mibps: None,
            headroom_pct: None,
            ceiling_headroom_pct: None,
            recommendation: None,
            monthly: None,
            saving_monthly: None,
            statements: Vec::new(),
        };
        match assessed {
            Some(a) => {
                currency = a.currency;
                if a.headroom_pct.is_some_and(|h| h < TIGHT_PCT) {
                    tight.push(v.name.clone());
                }
                kept.push(a.clone());
                fill(&mut answer, a);
            }
            None => {
                not_sized.push(v.name.clone());
            }
        }
        volumes.push(answer);
    }
    if metrics.volumes.len() > MAX_ASSESSED {
        warnings.push(format!(
            "only the first {MAX_ASSESSED} volumes were right-sized; send the others separately"
        ));
    }
    let measured = volumes.len();
    let kept: Vec<&Assessment> = kept.iter().collect();
    let sum = |f: fn(&Assessment) -> Option<f64>| kept.iter().map(|a| f(a)).sum::<Option<f64>>();
    let (today, alone) = (
        sum(|a| a.monthly),
        sum(|a| a.recommendation.as_ref().and_then(|r| r.monthly)),
    );
    let replan = replan::replan(&kept, today, alone, prices).unwrap_or_else(|w| {
        warnings.push(w);
        None
    });
    // The headline's saving only when every measured volume was right-sized.
    let all = not_sized.is_empty() && !kept.is_empty();
    let mut verdict = words::estate(
        measured,
        &names(&tight),
        &names(&not_sized),
        today.filter(|_| all),
        alone.filter(|_| all),
        currency,
    );
    if let Some(r) = &replan {
        verdict.statements.push(r.statements[0].clone());
    }
    Ok(LiveAnswer {
        volumes,
        verdict,
        currency,
        interval_s: metrics.interval_s,
        warnings,
        replan,
    })
}

fn fill(answer: &mut VolumeAnswer, a: Assessment) {
    answer.statements.push(words::headroom(&Headroom {
        name: &answer.name,
        p95_mibps: a.p95_mibps,
        max_mibps: a.max_mibps,
        qos_mibps: a.qos_mibps,
        ceiling_mibps: a.ceiling_mibps,
    }));
    let plan = a
        .recommendation
        .as_ref()
        .map(|r| r.statement.as_str())
        .or(a.none_meets.as_deref())
        .unwrap_or("no level meets.");
    answer.statements.push(words::right_size(&RightSize {
        needed_mibps: a.needed_mibps,
        needed_tib: a.needed_tib,
        margin_pct: MARGIN_PCT,
        plan,
        current: a.recommendation.as_ref().is_some_and(|r| r.current),
        monthly: a.monthly,
        saving: a.saving,
        currency: a.currency,
    }));
    answer.qos_mibps = a.qos_mibps;
    answer.ceiling_mibps = Some(a.ceiling_mibps);
    answer.headroom_pct = a.headroom_pct;
    answer.ceiling_headroom_pct = Some(a.ceiling_headroom_pct);
    answer.monthly = a.monthly;
    answer.saving_monthly = a.saving;
    answer.recommendation = a.recommendation;
}

fn names(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The metrics volplan reads, for the documentation and the page.
pub fn metric_names() -> Vec<&'static str> {
    Metric::ALL.iter().map(|m| m.key()).collect()
}
