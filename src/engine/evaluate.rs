//! Scenario -> Evaluation: the one entry point of the engine. Resolves the scenario,
//! runs the model step, then reverse sizing and advice on its result.

use super::advice;
use super::connections;
use super::cost;
use super::distribution::Distribution;
use super::evaluation::{CalibrationNote, Cost, Evaluation, Flows, Limit};
use super::field_error::{FieldError, FieldErrors};
use super::limits::LimitSet;
use super::model::Params;
use super::model_step::{ClientSide, core_with};
use super::plan::Plan;
use super::pricing::{self, PriceBook};
use super::range;
use super::scenario::Assurance;
use super::scenario::Scenario;
use super::solve;
use super::targets::{self, judged_latency, targets};
use super::units::mibps_to_iops;

/// Checks a scenario exactly as [`evaluate`] does (ranges, catalog keys, service
/// rules), without evaluating it: what a save must pass so that every saved scenario
/// can be evaluated and reported.
pub fn check(scenario: &Scenario, prices: &PriceBook) -> Result<(), FieldErrors> {
    evaluate_with(&Plan::resolve_in(scenario, prices)?, false).map(|_| ())
}

/// Evaluates a scenario at the compiled price book; a value out of range gives the
/// field and what to fix. For the engine's own tests and the command line: everything
/// the server answers evaluates with [`evaluate_in`] and the book in force.
pub fn evaluate(scenario: &Scenario) -> Result<Evaluation, FieldErrors> {
    evaluate_in(scenario, pricing::book())
}

/// Evaluates a scenario with its cost from `prices` (the book in force).
pub fn evaluate_in(scenario: &Scenario, prices: &PriceBook) -> Result<Evaluation, FieldErrors> {
    let plan = Plan::resolve_in(scenario, prices)?;
    evaluate_with(&plan, true)
}

/// Evaluates a scenario with the model parameters `params` instead of the committed
/// fit: a calibration to the user's own measurements, which `note` describes; without
/// the per-level reverse sizing when `sizing` is false (as [`evaluate_without_sizing`]).
pub fn evaluate_calibrated(
    scenario: &Scenario,
    prices: &PriceBook,
    params: &Params,
    note: CalibrationNote,
    sizing: bool,
) -> Result<Evaluation, FieldErrors> {
    let plan = Plan::resolve_with(scenario, params, prices)?;
    let mut ev = evaluate_with(&plan, sizing)?;
    ev.calibration = Some(note);
    Ok(ev)
}

/// Evaluates a scenario without the per-level reverse sizing (`sizing` is empty),
/// priced from `prices`: what a layouts sweep needs for each of its many rows.
pub fn evaluate_without_sizing(
    scenario: &Scenario,
    prices: &PriceBook,
) -> Result<Evaluation, FieldErrors> {
    let plan = Plan::resolve_in(scenario, prices)?;
    evaluate_with(&plan, false)
}

/// The smallest achievable rate an evaluation reports, MiB/s: below it a ceiling is so
/// small (an egress of 1e-300 MiB/s, say) that the figures derived from the rate
/// (headroom, cost per MiB/s, latency) are no longer numbers. With every input in its
/// range and the rate at least this, every figure of the answer is finite.
pub const MIN_MIBPS: f64 = 1e-9;

/// With no duration given, what the plan reaches while its shares burst (`None` when
/// it has a duration or nothing bursts): the likely range reaches up to it.
fn burst_mibps(p: &Plan, client: &ClientSide) -> Option<f64> {
    if p.duration_s.is_some() || !crate::engine::service::azure_files::bursts(p) {
        return None;
    }
    let mut b = *p;
    b.duration_s = Some(1.0);
    let mut set = LimitSet::default();
    Some(core_with(&b, &mut set, Distribution::of(&b), client).total)
}

fn evaluate_with(p: &Plan, with_sizing: bool) -> Result<Evaluation, FieldErrors> {
    let mut set = LimitSet::default();
    let dist = Distribution::of(p);
    let client = ClientSide::of(p, &dist);
    let c = core_with(p, &mut set, dist, &client);
    let total = c.total;
    if !(total.is_finite() && total >= MIN_MIBPS) {
        return Err(FieldError::new(
            "",
            "this scenario gets no measurable throughput: a ceiling is too small to compute with (a tiny egress, ingress, throughput or IOPS value); raise it",
        )
        .into());
    }
    let iops = mibps_to_iops(total, p.io_kib);
    // Two factors instead of two divisions per limit.
    let iops_per_mibps = mibps_to_iops(1.0, p.io_kib);
    let pct_of_total = 100.0 / total;
    let mut limits = Vec::with_capacity(c.limits.len());
    for l in c.limits.iter().filter(|l| l.applies_at(p.r)) {
        limits.push(Limit {
            id: l.id,
            label: l.label,
            scope: l.scope,
            applies: l.applies,
            mibps: l.mibps,
            iops: l.mibps * iops_per_mibps,
            source: l.source,
            assumption: l.assumption,
            headroom_pct: (l.total_at(p.r) - total) * pct_of_total,
        });
    }
    let price = cost::price(p);
    let price_lists = super::price_lists::of(p);
    let usd = p.prices.currency == "USD";
    let latency_ms = c.latency_ms();
    let latency_at_target_ms = c.latency_at_target_ms(p);
    let burst = burst_mibps(p, &client);
    let likely = range::likely(
        p,
        c.limits,
        c.binding,
        total,
        latency_ms,
        client.delay.2,
        burst,
    );
    let [low, high] = likely.mibps;
    let judged = judged_latency(p, latency_ms, latency_at_target_ms);
    let mut targets = targets(p, total, judged);
    // The worst end of the likely range: the rate at its low end, the latency at its
    // high end (the range's width applies at the target rate as at the achievable load).
    let latency_spread = likely.latency_log_width.exp();
    let judged_high = judged.map(|l| l * latency_spread);
    targets.latency_high_ms = p.target_latency_ms.and(judged_high);
    targets.met_at_low_end = targets::targets(p, low, judged_high).met;
    // "p90": the worst end must meet the targets, so sizing asks each level for the
    // rate goals raised by the central figure's margin over the low end, and the latency
    // bound lowered by the high end's over the central figure.
    let sized = if p.confidence == Assurance::P90 {
        targets.met = targets.met_at_low_end;
        let margin = total / low;
        let mut raised = *p;
        raised.target_mibps = p.target_mibps.map(|t| t * margin);
        raised.target_iops = p.target_iops.map(|t| t * margin);
        raised.target_latency_ms = p.target_latency_ms.map(|t| t / latency_spread);
        raised
    } else {
        *p
    };
    let sizing = if with_sizing {
        solve::sizing(&sized, &c, &client, targets.met, price.monthly)
    } else {
        Default::default()
    };
    let advice = advice::rules::advise(p, &c, &price, &targets, with_sizing.then_some(&sizing[..]));
    Ok(Evaluation {
        throughput_mibps: total,
        read_mibps: total * p.r,
        write_mibps: total * (1.0 - p.r),
        iops,
        throughput_mibps_range: likely.mibps,
        iops_range: [mibps_to_iops(low, p.io_kib), mibps_to_iops(high, p.io_kib)],
        latency_ms_range: likely.latency_ms,
        confidence: likely.confidence,
        binding: c.binding.id,
        advice,
        limits,
        targets,
        flows: Flows {
            connections: connections::connections(p),
            per_client: connections::connections_per_client(p),
            outstanding: c.outstanding,
            datastores: p.avs.map(|_| p.n_volumes),
            loaded_datastores: p.avs.map(|_| c.dist.used),
        },
        cost: Cost {
            monthly_usd: price.monthly.filter(|_| usd),
            monthly: price.monthly,
            one_time: price.one_time,
            billed_tib: price.billed_tib,
            cool_tib: p.cool.map(|_| price.cool_tib),
            region: price.region.to_owned(),
            currency: p.prices.currency,
            hours_per_month: price.hours_per_month,
            price_date: super::price_lists::newest(&price_lists)
                .unwrap_or(price.price_date)
                .to_owned(),
            price_book: p.prices.reference(),
            discount_pct: p.discount_pct,
            price_lists,
            lines: price.lines.to_vec(),
            usd_per_mibps: price.monthly.filter(|_| usd).map(|m| m / total),
            per_mibps: price.monthly.map(|m| m / total),
            assumption: price.assumption,
        },
        sizing,
        latency_ms,
        latency_at_target_ms,
        latency_curve: c.latency_curve(p, likely.latency_log_width),
        calibration: None,
    })
}
