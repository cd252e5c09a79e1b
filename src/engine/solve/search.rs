//! One sizing row's search: grow a provisioning until it meets the goal, then narrow it
//! down to the least that meets, checking each step with the model.

use super::Sizer;
use super::assign::Assign;
use crate::engine::limits::LimitSet;
use crate::engine::model_step::{add_storage_centres, core_with, path};
use crate::engine::plan::Plan;
use crate::engine::scenario::Level;
use crate::engine::targets::{judged_latency, targets};
use crate::engine::units::iops_to_mibps;

/// One row's search: the working plan, re-pointed at `level` with `n` volumes.
pub(super) struct Row<'a, 'p, 'r, 'o, 'q> {
    pub(super) plan: &'a mut Plan<'p>,
    pub(super) sizer: &'a mut Sizer<'r, 'o, 'q>,
    pub(super) level: Level,
    pub(super) n: u32,
    /// How a provisioned rate is assigned over the volumes.
    pub(super) assign: Assign,
}

/// Whether a provisioning meets its targets under the whole model.
pub(super) struct Check {
    pub(super) met: bool,
    /// The achievable MiB/s, when the check had to solve for it.
    pub(super) total: Option<f64>,
}

impl Row<'_, '_, '_, '_, '_> {
    /// Checks `n` volumes of `quota` (and the provisioned rates) at the row's level.
    /// Without a latency target, meeting is a question about the throughput alone,
    /// which a [`RateCheck`] answers without solving the network: the client side's
    /// centres are summed once per table, so a check adds only the storage side's.
    fn check(&mut self, quota: f64, mibps: Option<f64>, iops: Option<f64>) -> Check {
        let plan = &mut *self.plan;
        let quota = self.assign.quota(quota, mibps);
        let (busy, rest) = self.assign.rates(mibps);
        plan.set_split(self.level, self.n, quota, busy, rest, iops);
        let plan = &*plan;
        if let Some(own) = self.sizer.own.answer(plan) {
            return own;
        }
        let dist = self.sizer.dist;
        let (client, mut rate) = self.sizer.client(plan);
        if plan.target_latency_ms.is_some() {
            let mut set = LimitSet::default();
            let c = core_with(plan, &mut set, dist, client);
            let latency = if self.sizer.latency_at_load {
                Some(c.latency_ms())
            } else {
                judged_latency(plan, c.latency_ms(), c.latency_at_target_ms(plan))
            };
            return Check {
                met: targets(plan, c.total, latency).met,
                total: Some(c.total),
            };
        }
        add_storage_centres(plan, &dist, client, &mut rate);
        Check {
            met: rate.reaches(),
            total: None,
        }
    }

    /// The achievable MiB/s of the provisioning the last check set, solved for when
    /// that check did not.
    fn total(&mut self, check: &Check) -> f64 {
        if let Some(t) = check.total {
            return t;
        }
        let plan = &*self.plan;
        let dist = self.sizer.dist;
        let (client, _) = self.sizer.client(plan);
        let (network, _) = path(
            plan,
            &mut LimitSet::default(),
            &mut LimitSet::default(),
            &dist,
            client,
        );
        iops_to_mibps(network.solve(client.outstanding).iops, plan.io_kib)
    }
}

/// Margin on each growth step of the rate search (a provisioned rate is bought in
/// coarser steps than a quota).
pub(crate) const RATE_MARGIN: f64 = 0.01;

/// How much a search step grows the provisioning: by the throughput shortfall
/// `need / got` plus `margin`, or by a quarter when only the latency is short.
fn growth(need: f64, got: f64, margin: f64) -> f64 {
    let short = if got > 0.0 { need / got } else { 2.0 };
    if short > 1.0 {
        short * (1.0 + margin)
    } else {
        1.25
    }
}

/// Most bisection steps that close the gap between a provisioning that meets and the
/// largest one known (or bound) not to, so that a row is the least that meets, within
/// the rate margin, wherever the search started: enough to narrow from the largest
/// volume down to a smallest share a hundred times smaller (near a limit that is not
/// storage's, the quota search can only tell at the largest volume).
const NARROW_STEPS: usize = 12;

/// The least value in `(lo, ok]` for which `meets` holds, to within a quarter of
/// [`RATE_MARGIN`], given that `ok` meets (`meets` rounds the value it tries and
/// returns it).
fn narrow(mut lo: f64, mut ok: f64, mut meets: impl FnMut(f64) -> Option<f64>) -> f64 {
    for _ in 0..NARROW_STEPS {
        if ok <= lo * (1.0 + RATE_MARGIN / 4.0) {
            break;
        }
        let mid = (lo * ok).sqrt();
        match meets(mid) {
            Some(v) if v < ok => ok = v,
            Some(_) => break,
            None => lo = mid,
        }
    }
    ok
}

/// Most model evaluations a quota search spends beyond the first guess.
const SEARCH_STEPS: usize = 8;

/// Margin on each growth step of the quota search, so that it lands on a quota that
/// meets rather than one just short of it.
const GROW_MARGIN: f64 = 0.002;

/// The smallest quota in `[floor, hi]` that meets (queueing keeps the rate below the
/// ceiling the first guess was sized to): grow by the shortfall until it meets, or try
/// the largest volume once more quota stops helping, then narrow down to the least
/// quota that meets. Returns the quota, the rates, and whether it meets.
pub(super) fn search_quota(
    row: &mut Row,
    first: f64,
    floor: f64,
    hi: f64,
    need: f64,
    round: impl Fn(f64) -> f64,
) -> (f64, Option<f64>, Option<f64>, bool) {
    // The least quota that could meet: the capacity's share, and the level's ceiling
    // reaching the goal.
    let mut below = floor;
    let check = row.check(first, None, None);
    let (quota, met) = if check.met {
        (first, true)
    } else if first >= hi {
        (first, false)
    } else {
        below = below.max(first);
        let mut got = row.total(&check);
        // The rate grows a little less than in proportion to the quota (other centres
        // queue too), so growing by the shortfall approaches the smallest quota that
        // meets from below, a few steps at most.
        let mut quota = first;
        let mut found = None;
        for _ in 0..SEARCH_STEPS {
            let factor = growth(need, got, GROW_MARGIN);
            quota = round((quota * factor).min(hi));
            let check = row.check(quota, None, None);
            if check.met {
                found = Some((quota, true));
                break;
            }
            if quota >= hi {
                found = Some((quota, false));
                break;
            }
            below = quota;
            let total = row.total(&check);
            if total <= got * (1.0 + 1e-3) {
                // Another limit holds the rate: only the largest volume can still tell.
                break;
            }
            got = total;
        }
        found.unwrap_or_else(|| (hi, row.check(hi, None, None).met))
    };
    if !met {
        return (quota, None, None, false);
    }
    // The first guess assumed the scenario's own bend below its ceiling, and growth
    // steps overshoot: narrow down to the least quota that meets.
    let least = narrow(below, quota, |q| {
        let q = round(q);
        row.check(q, None, None).met.then_some(q)
    });
    (least, None, None, true)
}

/// Provisioned-rate levels (Flexible, SSD v2, HDD v2, GCNV Flex): raise the rates
/// until the targets are met, a few steps at most, then narrow them down to the least
/// that meets.
pub(super) fn search_rate(
    row: &mut Row,
    quota: f64,
    mut mibps: Option<f64>,
    mut iops: Option<f64>,
    need: f64,
) -> (f64, Option<f64>, Option<f64>, bool) {
    let mut met = false;
    let mut last = 0.0;
    let mut kept = (mibps, iops);
    let mut failed = false;
    let mut doubled = false;
    for step in 0..SEARCH_STEPS / 2 {
        let check = row.check(quota, mibps, iops);
        met = check.met;
        if met {
            failed = step > 0;
            break;
        }
        let total = row.total(&check);
        if total <= last * (1.0 + 1e-3) {
            if doubled {
                // Another limit holds the rate: buying more does not help, so keep the
                // rates of the step before.
                return (quota, kept.0, kept.1, false);
            }
            // Close to another limit a step buys little; twice the rate tells whether
            // more buys the target at all (the rule for the same may then call it met).
            doubled = true;
            mibps = mibps.map(|m| m * 2.0);
            iops = iops.map(|i| i * 2.0);
            continue;
        }
        last = total;
        kept = (mibps, iops);
        let factor = growth(need, total, RATE_MARGIN);
        mibps = mibps.map(|m| m * factor);
        iops = iops.map(|i| i * factor);
    }
    if !met && !doubled {
        // Close to another limit each step buys little: the last step's rates, then
        // twice them, tell whether more buys the target at all (the rule for the same
        // may then call it met).
        failed = true;
        met = row.check(quota, mibps, iops).met;
        if !met {
            let twice = (mibps.map(|m| m * 2.0), iops.map(|i| i * 2.0));
            if row.check(quota, twice.0, twice.1).met {
                kept = (mibps, iops);
                (mibps, iops) = twice;
                met = true;
            }
        }
    }
    if !met {
        return (quota, mibps, iops, false);
    }
    // As for quotas: narrow the rates down by one factor, from the step that did not
    // meet, or from the goal itself (a provisioned rate below it caps the volume short).
    let scale = |v: Option<f64>, by: Option<f64>| v.zip(by).map(|(v, by)| v / by);
    let per_volume_need = need / f64::from(row.n);
    let below = if failed {
        scale(kept.0, mibps).or(scale(kept.1, iops)).unwrap_or(0.5)
    } else {
        mibps.map_or(0.5, |m| (per_volume_need / m).min(1.0))
    };
    let f = narrow(below, 1.0, |f| {
        row.check(quota, mibps.map(|m| m * f), iops.map(|i| i * f))
            .met
            .then_some(f)
    });
    let mibps = mibps.map(|m| whole_steps_down(row, quota, m * f));
    (quota, mibps, iops.map(|i| i * f), true)
}

/// Most whole-MiB/s steps [`whole_steps_down`] tries.
const WHOLE_STEPS: usize = 4;

/// The least average rate at or below `mibps` per volume that still meets, one whole
/// MiB/s of one volume tier at a time: the narrowing works on a continuous factor, but
/// each volume is assigned whole MiB/s, so at a few MiB/s per volume its last step can
/// leave a whole MiB/s (a percent or more) that the goal does not need.
fn whole_steps_down(row: &mut Row, quota: f64, mut mibps: f64) -> f64 {
    for _ in 0..WHOLE_STEPS {
        let Some(lower) = row.assign.step_down(mibps) else {
            break;
        };
        if !row.check(quota, Some(lower), None).met {
            break;
        }
        mibps = lower;
    }
    mibps
}
