//! The measured volumes pooled again: each right-sized volume (P95 plus the margin,
//! the largest consumed capacity plus the margin, its measured IO mix) becomes a
//! workload of an estate, and the estate optimiser ([`crate::estate::optimize`])
//! groups them into capacity pools and splits each manual-QoS or Flexible pool's
//! throughput over its volumes by what each carries. Sizing each volume alone gives
//! every volume a pool of its own; this plan is the one an architect deploys.

use super::rightsize::Assessment;
use crate::engine::plan::quota_range;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{Level, Qos, Scenario, VolumeGroup, VolumeKind};
use crate::estate::{self, EstatePricing, EstateRequest};
use crate::verdict::live as words;
use serde::Serialize;

/// One volume in a pool of the plan.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PooledVolume {
    pub name: String,
    /// The volume's quota, TiB.
    pub quota_tib: f64,
    /// The throughput assigned to it (manual QoS and Flexible), MiB/s.
    pub throughput_mibps: Option<f64>,
}

/// One capacity pool of the plan.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PooledPool {
    pub level: Level,
    pub qos: Qos,
    pub size_tib: f64,
    /// Manual: the pool's throughput budget; Flexible: the throughput provisioned;
    /// auto: the sum of the volumes' limits (MiB/s).
    pub mibps: f64,
    pub monthly: f64,
    pub volumes: Vec<PooledVolume>,
    /// How the pool's throughput is split, in words.
    pub statement: String,
}

/// The right-sized volumes planned together.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Replan {
    /// The estate of the right-sized volumes: the request of
    /// `POST /api/v1/estate/optimize`, to save as an estate or plan further.
    #[schema(value_type = Object)]
    pub request: EstateRequest,
    pub pools: Vec<PooledPool>,
    /// What the pools cost a month.
    pub monthly: f64,
    /// What the measured volumes cost a month today.
    pub today_monthly: Option<f64>,
    /// Today's cost less the plan's (negative: the plan costs more).
    pub saving_monthly: Option<f64>,
    /// What sizing each volume alone costs a month.
    pub alone_monthly: Option<f64>,
    /// Volumes the plan could not place or whose targets it misses, and why.
    pub left_out: Vec<String>,
    /// The plan in words: the headline, then one statement per pool.
    pub statements: Vec<String>,
}

/// The workload `a` asks the plan for: the volume as it exists with the capacity
/// and throughput it was right-sized for, its quota the capacity (within the range of
/// the volume kind that holds it) and its throughput the plan's to assign.
fn sized(a: &Assessment) -> Scenario {
    let mut s = a.scenario.clone();
    s.workload.capacity_tib = a.needed_tib;
    s.workload.target_mibps = Some(a.needed_mibps);
    s.workload.target_iops = None;
    s.workload.target_latency_ms = None;
    let st = &mut s.storage;
    let count: u32 = st.volumes.iter().map(|g| g.count).sum::<u32>().max(1);
    let each = a.needed_tib / f64::from(count);
    let (_, regular_max, _) = quota_range(st.service, st.level, VolumeKind::Regular);
    st.volume_kind = if each <= regular_max {
        VolumeKind::Regular
    } else {
        VolumeKind::Large
    };
    let (min, max, _) = quota_range(st.service, st.level, st.volume_kind);
    st.volumes = vec![VolumeGroup {
        count,
        quota_tib: each.clamp(min, max),
        throughput_mibps: None,
        iops: None,
    }];
    st.pool_tib = None;
    s
}

/// Plans the assessed volumes together; `today` and `alone` are the estate's cost
/// today and with every volume sized alone. None without an assessed volume; an
/// estate the optimiser refuses is a warning for the answer.
pub fn replan(
    assessed: &[&Assessment],
    today: Option<f64>,
    alone: Option<f64>,
    prices: &PriceBook,
) -> Result<Option<Replan>, String> {
    let Some(first) = assessed.first() else {
        return Ok(None);
    };
    let mut request = EstateRequest::new(assessed.iter().map(|a| sized(a)).collect());
    request.name = Some(words::REPLAN_NAME.to_owned());
    request.years = 1;
    request.region = first.scenario.region.clone();
    request.pricing = Some(EstatePricing {
        currency: first.currency.to_owned(),
    });
    let plan = estate::optimize(&request, prices)
        .map_err(|e| format!("the right-sized volumes could not be pooled: {e}"))?;
    let name = |w: usize| request.workloads[w].name.clone();
    let pools: Vec<PooledPool> = plan
        .pools
        .iter()
        .map(|p| PooledPool {
            level: p.level,
            qos: p.qos,
            size_tib: p.size_tib,
            mibps: p.mibps,
            monthly: p.monthly,
            volumes: plan
                .assignments
                .iter()
                .filter(|x| x.pool == Some(p.id))
                .flat_map(|x| {
                    x.volumes.iter().map(|g| PooledVolume {
                        name: x.name.clone(),
                        quota_tib: g.quota_tib,
                        throughput_mibps: g.throughput_mibps,
                    })
                })
                .collect(),
            statement: p.explanation.clone(),
        })
        .collect();
    let mut left_out: Vec<String> = plan
        .excluded
        .iter()
        .map(|x| words::left_out(&x.name, Some(&x.detail)))
        .collect();
    left_out.extend(
        plan.assignments
            .iter()
            .filter(|x| !x.targets_met && x.pool.is_some())
            .map(|x| words::left_out(&name(x.workload), x.note.as_deref())),
    );
    let monthly = plan.monthly;
    let saving = today.map(|t| t - monthly);
    let mut statements = vec![words::pooled(&words::Pooled {
        pools: pools.len(),
        monthly,
        today,
        alone,
        left_out: left_out.len(),
        currency: first.currency,
    })];
    statements.extend(pools.iter().map(|p| p.statement.clone()));
    statements.extend(left_out.iter().map(|l| words::left_out_of_pools(l)));
    Ok(Some(Replan {
        request,
        pools,
        monthly,
        today_monthly: today,
        saving_monthly: saving,
        alone_monthly: alone,
        left_out,
        statements,
    }))
}
