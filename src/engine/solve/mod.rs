//! Reverse sizing: targets -> the smallest quota per level, and the cheapest level.

use super::catalog;
use super::client;
use super::distribution::Distribution;
use super::evaluation::{MAX_LEVELS, Sizing, SizingBasis};
use super::model::RateCheck;
use super::model_step::{ClientSide, Core};
use super::plan::{Plan, Volumes, quota_range};
use super::same::least_reaching;
use super::scenario::{Level, Qos, Service, VolumeKind};
use super::service::{azure_files, gcnv};
use super::targets::rate_needed_iops;
use super::units::{GIB_PER_TIB, iops_to_mibps};
use arrayvec::ArrayVec;
use assign::Assign;
use layouts::Layout;
use search::{Check, Row, search_quota, search_rate};
use std::borrow::Cow;

mod assign;
mod layouts;
mod search;

pub use layouts::MAX_DATASTORES_PER_CLUSTER;
pub(crate) use search::RATE_MARGIN;

/// For each level of the plan's service: the cheapest number and kind of volumes
/// ([`layouts`]), quota and pool that meet capacity, throughput and IOPS, its cost, and
/// the cheapest that meets all. Without targets, the goal is the throughput the scenario achieves now
/// (`current_mibps`), so the table answers "what else would give me this?"; a row
/// gives it when it gives the same ([`crate::engine::same`]).
///
/// A provisioned rate on ANF (Flexible) is assigned per volume in proportion to the
/// load each carries ([`assign`]), never above what a volume may be assigned. The
/// scenario as entered is the row of its own level whenever it meets the goal for no
/// more, so the cheapest row never costs more than the scenario.
///
/// Each row is checked with the whole queueing model (throughput and latency at the
/// target rate), and raised until it meets or reaches the largest volume.
///
/// Only the storage side changes between rows: the plan's client side `client` is
/// reused for every level with the same [`client::level_key`].
///
/// A row whose provisioning is the scenario's own has the scenario's answer: it meets
/// exactly when the scenario does (`met`) and costs what it does (`monthly`), and
/// is neither checked nor priced again.
pub fn sizing(
    p: &Plan,
    c: &Core,
    client: &ClientSide,
    met: bool,
    monthly: Option<f64>,
) -> ArrayVec<Sizing, MAX_LEVELS> {
    let goal = if p.target_mibps.is_none() && p.target_iops.is_none() {
        Goal {
            mibps: Some(c.total),
            iops: None,
            basis: SizingBasis::Current,
        }
    } else {
        Goal {
            mibps: p.target_mibps,
            iops: p.target_iops,
            basis: SizingBasis::Targets,
        }
    };
    // How far below its binding ceiling the scenario runs: the first guess of each
    // level asks its ceiling for the goal divided by this, so that the search usually
    // ends at the first evaluation.
    let bend = (c.total / c.ceiling).clamp(0.5, 1.0);
    // One working copy of the plan, re-pointed at each level in turn.
    let mut work = *p;
    work.target_mibps = goal.mibps;
    work.target_iops = goal.iops;
    let levels = Level::of(p.service);
    let mut sizer = Sizer {
        own: Own {
            plan: p,
            total: c.total,
            met,
            monthly,
        },
        dist: c.dist,
        layout: Layout {
            n: p.n_volumes.max(1),
            kind: p.kind,
        },
        key: (client::level_key(p), p.n_volumes.max(1), p.kind),
        rate: client_rate_check(&work, client),
        latency_at_load: goal.basis == SizingBasis::Current,
        client: Cow::Borrowed(client),
    };
    let need = goal.needed_mibps(p.io_kib);
    let capacity = required_capacity(p);
    let mut rows = ArrayVec::new();
    for &level in levels {
        // The scenario's own layout first: another replaces it only when cheaper.
        let own = Layout {
            n: p.n_volumes.max(1),
            kind: p.kind,
        };
        sizer.set_layout(&mut work, own);
        let mut best = size_level(p, &goal, level, bend, &mut work, &mut sizer);
        for kind in layouts::kinds(p, level) {
            layouts::search_counts(
                p,
                level,
                kind,
                (capacity, need),
                &mut best,
                |layout, best| {
                    // A layout whose least provisioning costs within half the rule for the
                    // same of the best row cannot be cheaper by more than the search's own
                    // precision, nor can more volumes of its kind.
                    if floor_cost(&mut work, level, layout, capacity, need)
                        .is_some_and(|f| !cheaper_cost(f / (1.0 - RATE_MARGIN / 2.0), best))
                    {
                        return None;
                    }
                    sizer.set_layout(&mut work, layout);
                    Some(size_level(p, &goal, level, bend, &mut work, &mut sizer))
                },
            );
        }
        rows.push(sizer.own.row_if_cheaper(best).unwrap_or(best));
    }
    let cheapest = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r.meets)
        .filter_map(|(i, r)| r.monthly.map(|m| (i, m)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i);
    if let Some(i) = cheapest {
        rows[i].cheapest = true;
    }
    rows
}

/// The capacity every layout must hold: the workload's, or the quota entered without one.
fn required_capacity(p: &Plan) -> f64 {
    if p.capacity_tib > 0.0 {
        p.capacity_tib
    } else {
        p.total_quota_tib
    }
}

/// Whether `row` meets for less than `best` (or `best` does not meet).
fn cheaper(row: &Sizing, best: &Sizing) -> bool {
    row.monthly
        .filter(|_| row.meets)
        .is_some_and(|c| cheaper_cost(c, best))
}

/// Whether a monthly cost `c` is less than `best`'s (or `best` does not meet): by more
/// than a cent and a hundredth of a percent, so that a tie keeps the layout tried first.
fn cheaper_cost(c: f64, best: &Sizing) -> bool {
    best.monthly
        .filter(|_| best.meets)
        .is_none_or(|b| c < b * (1.0 - 1e-4) - 0.01)
}

/// The least `layout` can cost at `level` holding `capacity` and carrying `need` MiB/s:
/// each volume its share of the capacity (at least the smallest quota) and, where the
/// volumes' ceiling is all the throughput there is (no storage cache, no cool tier),
/// the quota or the assigned rate that ceiling needs for the goal, less a margin for
/// the rule for the same. Every row of that layout costs at least this.
fn floor_cost(
    plan: &mut Plan,
    level: Level,
    layout: Layout,
    capacity: f64,
    need: f64,
) -> Option<f64> {
    let (lo, _, _) = quota_range(plan.service, level, layout.kind);
    let nf = f64::from(layout.n);
    let carried = if plan.cached == 0.0 && plan.cool.is_none() {
        least_reaching(need) / nf
    } else {
        0.0
    };
    let (per_tib, mibps) = match (plan.service, level) {
        (Service::Anf, Level::Flexible) => (None, Some(carried).filter(|&m| m > 0.0)),
        (Service::Anf, l) => (Some(catalog::anf_level(l).mibps_per_tib), None),
        (Service::Gcnv, l) if l != Level::Flex => (Some(gcnv::level(l).mibps_per_tib), None),
        _ => (None, None),
    };
    let share = (capacity / nf)
        .max(lo)
        .max(per_tib.map_or(0.0, |r| carried / r));
    plan.kind = layout.kind;
    plan.set_uniform(level, layout.n, share, mibps, None);
    super::cost::monthly(plan)
}

/// What a sizing row must reach: the scenario's targets, or what it achieves now.
struct Goal {
    mibps: Option<f64>,
    iops: Option<f64>,
    basis: SizingBasis,
}

impl Goal {
    /// The least throughput that gives what the goal asks at IO size `io_kib` (MiB/s,
    /// [`least_reaching`] the larger of the MiB/s and the IOPS goal).
    fn needed_mibps(&self, io_kib: f64) -> f64 {
        let t = self.mibps.unwrap_or(0.0);
        let i = self.iops.map_or(0.0, |i| iops_to_mibps(i, io_kib));
        least_reaching(t.max(i))
    }
}

/// The scenario's own provisioning and its answer.
struct Own<'o, 'p> {
    plan: &'o Plan<'p>,
    /// Its achievable MiB/s.
    total: f64,
    /// Whether it meets the goal.
    met: bool,
    /// Its monthly cost.
    monthly: Option<f64>,
}

impl Own<'_, '_> {
    /// Whether `plan` (the working copy, after `set_uniform`) provisions what the
    /// scenario does.
    fn is(&self, plan: &Plan) -> bool {
        let p = self.plan;
        let (
            Volumes::Groups([g]),
            Volumes::Uniform {
                count,
                quota_tib,
                mibps,
                iops,
                busy: 0,
                ..
            },
        ) = (p.volumes, plan.volumes)
        else {
            return false;
        };
        plan.level == p.level
            && plan.kind == p.kind
            && plan.qos == p.qos
            && plan.pool_tib == p.pool_tib
            && g.count == count
            && g.quota_tib == quota_tib
            && g.throughput_mibps == mibps
            && g.iops == iops
    }

    /// The scenario's own provisioning as the row of its level, when it meets the goal
    /// for no more than the `sized` row costs (within the rate margin): the search
    /// starts from the scenario's own load, so without this, applying a row could size
    /// that level anew, a few MiB/s away, and the recommendation would move each time
    /// it is applied.
    fn row_if_cheaper(&self, sized: Sizing) -> Option<Sizing> {
        let p = self.plan;
        let own = self.monthly?;
        // Within the search's own margin, or within one step of the whole GiB, MiB/s and
        // IOPS that applying the row rounds to, the two are the same answer.
        let same_layout = sized.volume_count == p.n_volumes && sized.volume_kind == p.kind;
        let within_rounding = match p.volumes {
            Volumes::Groups([g]) if sized.busiest.is_none() && same_layout => {
                let r = sized.volume_group(g.count);
                let step = |a: Option<f64>, b: Option<f64>| match (a, b) {
                    (Some(a), Some(b)) => a <= b + 1.0,
                    (a, b) => a.is_none() && b.is_none(),
                };
                g.quota_tib <= r.quota_tib + 1.0 / 1024.0
                    && step(g.throughput_mibps, r.throughput_mibps)
                    && step(g.iops, r.iops)
            }
            _ => false,
        };
        // Against targets, half the rule for the same: the sized row is itself up to a
        // quarter of the rate margin above the least that meets, and keeping the entered
        // one must not add up to more than the rule for the same. Against what the
        // scenario gives, the whole margin: a row applied gives up to 1 % less than the
        // scenario it was sized for, and sizing it again must keep it rather than find
        // another 1 % less each time it is applied.
        let margin = match sized.basis {
            SizingBasis::Targets => RATE_MARGIN / 2.0,
            SizingBasis::Current => RATE_MARGIN,
        };
        let cheaper = !sized.meets
            || within_rounding
            || sized.monthly.is_none_or(|m| own <= m * (1.0 + margin));
        let iops = p
            .volumes
            .iter()
            .map(|g| g.iops.map(|i| i * f64::from(g.count)))
            .sum::<Option<f64>>();
        (sized.level == p.level && self.met && cheaper).then(|| Sizing {
            qos: p.qos,
            volume_count: p.n_volumes,
            volume_kind: p.kind,
            quota_tib: p.total_quota_tib,
            pool_tib: p.pool_tib,
            throughput_mibps: p.assigned_total(),
            busiest: None,
            as_entered: true,
            iops,
            monthly_usd: Some(own).filter(|_| p.prices.currency == "USD"),
            monthly: Some(own),
            meets: true,
            ..sized
        })
    }

    /// The check of `plan` when it provisions what the scenario does.
    fn answer(&self, plan: &Plan) -> Option<Check> {
        self.is(plan).then_some(Check {
            met: self.met,
            total: Some(self.total),
        })
    }
}

/// What every row of one sizing table shares.
struct Sizer<'r, 'o, 'p> {
    own: Own<'o, 'p>,
    /// How the load spreads over the volumes of the layout being sized.
    dist: Distribution,
    /// The number and kind of volumes being sized.
    layout: Layout,
    /// The client side, for the levels with the [`client::level_key`] and the layout in
    /// `key`: the scenario's own until a row needs another.
    client: Cow<'r, ClientSide>,
    key: (bool, u32, VolumeKind),
    /// The client side's centres summed at the goal's rate: each check adds only the
    /// storage side's.
    rate: RateCheck,
    /// Whether a latency target is judged at the achievable load (no rate target: the
    /// goal is what the scenario gives, as the row applied is evaluated).
    latency_at_load: bool,
}

impl Sizer<'_, '_, '_> {
    /// Points the working plan at `layout`, and the load's spread with it.
    fn set_layout(&mut self, plan: &mut Plan, layout: Layout) {
        plan.kind = layout.kind;
        plan.n_volumes = layout.n;
        if layout != self.layout {
            self.dist = Distribution::of(plan);
            self.layout = layout;
        }
    }

    /// The client side of `plan` (already at its level and layout) and its part of the
    /// rate check, recomputed only when the level or the layout changes what the client
    /// side depends on.
    fn client(&mut self, plan: &Plan) -> (&ClientSide, RateCheck) {
        let key = (client::level_key(plan), plan.n_volumes, plan.kind);
        if key != self.key {
            let client = ClientSide::of(plan, &self.dist);
            self.rate = client_rate_check(plan, &client);
            self.client = Cow::Owned(client);
            self.key = key;
        }
        debug_assert_eq!(
            *self.client,
            ClientSide::of(plan, &self.dist),
            "the client side depends on the level only through client::level_key"
        );
        (&self.client, self.rate)
    }
}

/// The client side's part of the check that a plan reaches its rate goal.
fn client_rate_check(plan: &Plan, client: &ClientSide) -> RateCheck {
    client
        .network
        .rate_check(client.outstanding, rate_needed_iops(plan))
}

/// One row of the table: `p` is the scenario's plan, `plan` the working copy to size.
/// On ANF levels other than Flexible under an uneven load, manual QoS (throughput
/// assigned per volume by load, the quota only as large as the pool that budget needs)
/// is tried beside auto QoS, and the cheaper that meets is the row.
fn size_level(
    p: &Plan,
    goal: &Goal,
    level: Level,
    bend: f64,
    plan: &mut Plan,
    sizer: &mut Sizer,
) -> Sizing {
    let auto = size_qos(p, goal, level, bend, plan, sizer, false);
    let uneven = sizer.dist.tiers().busy > 0;
    if !(p.service == Service::Anf && level != Level::Flexible && uneven) {
        return auto;
    }
    let manual = size_qos(p, goal, level, bend, plan, sizer, true);
    let cost = |r: &Sizing| r.monthly.filter(|_| r.meets).unwrap_or(f64::INFINITY);
    if cost(&manual) < cost(&auto) {
        manual
    } else {
        auto
    }
}

/// One row of the table at one QoS: auto (manual for Flexible), or `manual` on a level
/// whose volumes otherwise get their quota's throughput.
fn size_qos(
    p: &Plan,
    goal: &Goal,
    level: Level,
    bend: f64,
    plan: &mut Plan,
    sizer: &mut Sizer,
    manual: bool,
) -> Sizing {
    let Layout { n, kind } = sizer.layout;
    let nf = f64::from(n);
    let need = goal.needed_mibps(p.io_kib);
    // The ceiling the first guess provisions for; a provisioned rate with the margin
    // of each step of the rate search, so that the first guess usually meets.
    let ceiling = need / bend;
    let rate_ceiling = ceiling * (1.0 + RATE_MARGIN);
    let capacity = required_capacity(p);
    let (lo, hi, _) = quota_range(p.service, level, kind);
    // At these levels a volume's throughput is its quota times the level's rate.
    let per_tib = match (p.service, level) {
        (Service::Anf, l) if l != Level::Flexible => Some(catalog::anf_level(l).mibps_per_tib),
        (Service::Gcnv, l) if l != Level::Flex => Some(gcnv::level(l).mibps_per_tib),
        _ => None,
    };
    let mut mibps = None;
    let mut iops = None;
    let per_volume = match (p.service, level, per_tib) {
        // Manual QoS: a provisioned rate, the quota grown to the pool it needs.
        (_, _, Some(_)) if manual => {
            mibps = Some(rate_ceiling / nf);
            capacity / nf
        }
        (_, _, Some(rate)) => (capacity / nf).max(ceiling / nf / rate),
        // Flexible: a provisioned rate.
        (Service::Anf, _, None) => {
            let flex = &catalog::catalog().services.anf.flexible;
            mibps = Some(rate_ceiling.max(flex.pool_min_mibps) / nf);
            capacity / nf
        }
        (Service::AzureFiles, Level::SsdV1, _) => {
            let gib_cap = capacity * GIB_PER_TIB / nf;
            let thr = goal.mibps.map_or(0.0, |t| t / nf);
            let io = goal.iops.map_or(0.0, |t| t / nf);
            let mut gib = gib_cap
                // Inverse of 100 + CEILING(0.04 x GiB) + CEILING(0.06 x GiB) and
                // 3000 + GiB (SSD v1), refined upwards below for the ceilings.
                .max((thr - 100.0) / 0.1)
                .max(io - 3000.0)
                .max(0.0)
                .ceil();
            while gib < hi * GIB_PER_TIB
                && (azure_files::v1_mibps(gib) < thr || azure_files::v1_iops(gib) < io)
            {
                gib += 1.0;
            }
            gib / GIB_PER_TIB
        }
        (Service::AzureFiles, Level::SsdV2 | Level::HddV2, _) => {
            mibps = goal.mibps.map(|t| t / nf);
            iops = goal.iops.map(|t| t / nf);
            capacity / nf
        }
        (Service::AzureFiles, _, _) => capacity / nf,
        // Flex: a provisioned rate.
        (Service::Gcnv, _, None) => {
            mibps = (need > 0.0).then(|| rate_ceiling / nf);
            capacity / nf
        }
    };
    let round = |q: f64| {
        if p.service == Service::Anf && kind == VolumeKind::Regular {
            // Quotas are set in GiB.
            (q * GIB_PER_TIB).ceil() / GIB_PER_TIB
        } else {
            q
        }
    };
    let quota = round(per_volume.max(lo));
    // The capacity must fit the volumes; the rate is judged by the search below.
    let fits = capacity / nf <= hi + 1e-9;
    // No volume holds less than its share of the capacity.
    let share = capacity / nf;
    // ANF levels other than Flexible: auto QoS sizes by quota, manual QoS assigns.
    if p.service == Service::Anf {
        plan.qos = if level == Level::Flexible || manual {
            Qos::Manual
        } else {
            Qos::Auto
        };
    }
    let assign = Assign::of(
        p.service,
        kind,
        level,
        n,
        sizer.dist.tiers(),
        per_tib.filter(|_| manual),
    );
    let mut row = Row {
        plan,
        sizer,
        level,
        n,
        assign,
    };
    // Nothing achieves more than the quota-times-rate ceiling: a goal above it at the
    // largest volumes cannot be met, whatever the rest of the path.
    let (quota, mibps, iops, met) = if per_tib.is_some_and(|r| need > hi * r * nf) {
        (hi, None, None, false)
    } else if mibps.is_some() || iops.is_some() {
        search_rate(&mut row, quota.min(hi), mibps, iops, need)
    } else {
        let least = per_tib.map_or(0.0, |r| need / nf / r);
        let floor = round(share.max(least).max(lo)).min(hi);
        search_quota(&mut row, quota.min(hi), floor, hi, need, round)
    };
    let quota = assign.quota(quota.min(hi), mibps).min(hi);
    let (busy, rest) = assign.rates(mibps);
    plan.set_split(level, n, quota, busy, rest, iops);
    let (assigned, busiest) = assign.total(mibps);
    let plan = &*plan;
    let monthly = if sizer.own.is(plan) {
        sizer.own.monthly
    } else {
        super::cost::monthly(plan)
    };
    Sizing {
        service: p.service,
        level,
        qos: plan.qos,
        volume_count: n,
        volume_kind: kind,
        quota_tib: quota * nf,
        pool_tib: plan.pool_tib,
        throughput_mibps: assigned,
        busiest,
        as_entered: false,
        iops: iops.map(|i| i * nf),
        monthly_usd: monthly.filter(|_| plan.prices.currency == "USD"),
        monthly,
        meets: fits && met,
        cheapest: false,
        basis: goal.basis,
    }
}

#[cfg(test)]
mod oracle;
#[cfg(test)]
mod tests;
