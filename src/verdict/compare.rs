//! Several scenarios judged together: which is better and why, each one's mechanism,
//! and the inputs whose plausible change flips the answer (the same change made to
//! every scenario, each evaluated with the engine).
//!
//! The better one: among those that meet every target they set, the cheapest (ties go
//! to the faster); when none sets a target, the faster, unless they tie within
//! [`SAME_PCT`](crate::engine::same::SAME_PCT), when the cheaper. Every "cheaper" or "costs less" in the statements is
//! the difference of the two monthly figures it names.

use super::Sensitivity;
use super::SetVerdict;
use super::mechanism;
use super::sensitivity::{Change, MAX_ITEMS, changes};
use super::targets::has_targets;
use super::words::capitalised;
use crate::engine::evaluation::Evaluation;
use crate::engine::pricing::PriceBook;
use crate::engine::same::{SAME_PCT, same};
use crate::engine::scenario::Scenario;
use crate::format::{mibps, money, signed_pct};
use crate::measure::calibrate::evaluate_as;

/// Limits within this share of each other tie, %: both must rise to gain anything.
pub const TIE_PCT: f64 = 0.05;

/// Monthly costs within this many currency units are the same cost.
const SAME_COST: f64 = 0.005;

/// One scenario of a comparison, under the name the statements use (“name” or
/// "4 x 20 TiB").
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    pub name: &'a str,
    pub scenario: &'a Scenario,
    pub evaluation: &'a Evaluation,
}

/// The index of the better scenario; `None` for a tie.
pub fn better(entries: &[(&Scenario, &Evaluation)]) -> Option<usize> {
    let targeted = entries.iter().any(|(s, _)| has_targets(s));
    let meeting: Vec<usize> = (0..entries.len())
        .filter(|&i| entries[i].1.targets.met)
        .collect();
    let by_cost = targeted && !meeting.is_empty();
    // Costs in different currencies are never set against each other: then only USD
    // costs rank (the others count as unpriced).
    let one_currency = entries
        .iter()
        .all(|(_, e)| e.cost.currency == entries[0].1.cost.currency);
    let cost = |i: usize| {
        let c = &entries[i].1.cost;
        if one_currency {
            c.monthly
        } else {
            c.monthly_usd
        }
        .unwrap_or(f64::INFINITY)
    };
    let rate = |i: usize| entries[i].1.throughput_mibps;
    let mut order: Vec<usize> = if by_cost {
        meeting
    } else {
        (0..entries.len()).collect()
    };
    if by_cost {
        order.sort_by(|&a, &b| {
            cost(a)
                .total_cmp(&cost(b))
                .then(rate(b).total_cmp(&rate(a)))
        });
    } else {
        order.sort_by(|&a, &b| rate(b).total_cmp(&rate(a)));
    }
    let first = *order.first()?;
    let Some(&second) = order.get(1) else {
        return Some(first);
    };
    let tie_rate = same(rate(first), rate(second));
    let tie_cost = (cost(first) - cost(second)).abs() <= SAME_COST
        || (cost(first).is_infinite() && cost(second).is_infinite());
    match (by_cost, tie_rate, tie_cost) {
        (_, true, true) => None,
        (true, _, _) | (false, false, _) => Some(first),
        (false, true, false) => Some(if cost(first) < cost(second) {
            first
        } else {
            second
        }),
    }
}

/// How the cost of `a` reads against `b`, with both named: "at the same cost
/// ($8,010/month)", "and A costs $120/month less than B ($x against $y)", "but A costs
/// $120/month more than B (...)".
pub fn cost_clause(a: &Evaluation, b: &Evaluation, a_name: &str, b_name: &str) -> String {
    let currency = a.cost.currency;
    if currency != b.cost.currency {
        return format!(
            "(their costs are in different currencies, {currency} and {}, and are not compared)",
            b.cost.currency
        );
    }
    match (a.cost.monthly, b.cost.monthly) {
        (Some(x), Some(y)) if (x - y).abs() <= SAME_COST => {
            format!("at the same cost ({}/month)", money(x, currency))
        }
        (Some(x), Some(y)) if x < y => format!(
            "and {a_name} costs {}/month less than {b_name} ({} against {})",
            money(y - x, currency),
            money(x, currency),
            money(y, currency)
        ),
        (Some(x), Some(y)) => format!(
            "but {a_name} costs {}/month more than {b_name} ({} against {})",
            money(x - y, currency),
            money(x, currency),
            money(y, currency)
        ),
        _ => "(one of them has no list price)".to_owned(),
    }
}

/// The headline of a comparison: which is better and by how much.
fn headline(entries: &[Entry], best: Option<usize>) -> String {
    let pairs: Vec<(&Scenario, &Evaluation)> =
        entries.iter().map(|e| (e.scenario, e.evaluation)).collect();
    let targeted = pairs.iter().any(|(s, _)| has_targets(s));
    let Some(b) = best else {
        let rates: Vec<String> = entries
            .iter()
            .map(|e| format!("{} {}", e.name, mibps(e.evaluation.throughput_mibps)))
            .collect();
        return format!(
            "No clear winner: {} (within {}% of each other, at the same cost).",
            rates.join(", "),
            SAME_PCT
        );
    };
    let w = &entries[b];
    let others: Vec<&Entry> = entries
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != b)
        .map(|x| x.1)
        .collect();
    if targeted {
        if !w.evaluation.targets.met {
            return format!(
                "None meets every target it sets; {} comes closest: {}.",
                w.name,
                mibps(w.evaluation.throughput_mibps)
            );
        }
        let mut parts = vec![format!(
            "{} is the better choice: it meets every target it sets, at {}",
            w.name,
            crate::format::monthly(w.evaluation.cost.monthly, w.evaluation.cost.currency)
        )];
        for o in &others {
            parts.push(if !o.evaluation.targets.met {
                format!("{} misses", o.name)
            } else if o.evaluation.cost.currency != w.evaluation.cost.currency {
                // Costs in different currencies are never set against each other.
                format!(
                    "{} meets them too, priced in {} (not compared)",
                    o.name, o.evaluation.cost.currency
                )
            } else {
                let (x, y) = (o.evaluation.cost.monthly, w.evaluation.cost.monthly);
                match (x, y) {
                    (Some(x), Some(y)) if x - y > SAME_COST => format!(
                        "{} meets them too but costs {}/month more ({} against {})",
                        o.name,
                        money(x - y, w.evaluation.cost.currency),
                        money(x, w.evaluation.cost.currency),
                        money(y, w.evaluation.cost.currency)
                    ),
                    (None, Some(_)) => format!("{} meets them too but has no list price", o.name),
                    _ => format!(
                        "{} meets them too at the same cost but gives less ({} against {})",
                        o.name,
                        mibps(o.evaluation.throughput_mibps),
                        mibps(w.evaluation.throughput_mibps)
                    ),
                }
            });
        }
        return format!("{}.", parts.join("; "));
    }
    if entries.len() == 2 {
        let o = others[0];
        let (x, y) = (w.evaluation.throughput_mibps, o.evaluation.throughput_mibps);
        if same(x, y) {
            return format!(
                "{} and {} give the same throughput ({} and {}), {}.",
                w.name,
                o.name,
                mibps(x),
                mibps(y),
                cost_clause(w.evaluation, o.evaluation, w.name, o.name)
            );
        }
        let gain = (w.evaluation.throughput_mibps / o.evaluation.throughput_mibps - 1.0) * 100.0;
        return format!(
            "{} beats {}: {} against {} ({}), {}.",
            w.name,
            o.name,
            mibps(w.evaluation.throughput_mibps),
            mibps(o.evaluation.throughput_mibps),
            signed_pct(gain),
            cost_clause(w.evaluation, o.evaluation, w.name, o.name)
        );
    }
    let mut rest: Vec<&Entry> = others.clone();
    rest.sort_by(|a, b| {
        b.evaluation
            .throughput_mibps
            .total_cmp(&a.evaluation.throughput_mibps)
    });
    format!(
        "{} gives the most: {}; then {}.",
        w.name,
        mibps(w.evaluation.throughput_mibps),
        rest.iter()
            .map(|o| format!("{} ({})", o.name, mibps(o.evaluation.throughput_mibps)))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The verdict on several scenarios, with what decides it.
pub fn compare(entries: &[Entry], prices: &PriceBook) -> SetVerdict {
    let pairs: Vec<(&Scenario, &Evaluation)> =
        entries.iter().map(|e| (e.scenario, e.evaluation)).collect();
    let best = better(&pairs);
    let mut statements = vec![headline(entries, best)];
    for e in entries {
        statements.push(format!("{}: {}.", e.name, mechanism::cause(e.evaluation)));
    }
    let sensitivity = deciders(entries, best, prices);
    SetVerdict {
        best,
        statements,
        sensitivity,
    }
}

/// The changes (made to every scenario alike) that flip which is better, or that bind
/// them all at one other limit.
pub fn deciders(entries: &[Entry], best: Option<usize>, prices: &PriceBook) -> Vec<Sensitivity> {
    let Some(first) = entries.first() else {
        return Vec::new();
    };
    let now_bound: Vec<&str> = entries.iter().map(|e| e.evaluation.binding).collect();
    let mut out = Vec::new();
    for c in changes(first.scenario, true) {
        if matches!(c, Change::Volumes(_)) {
            continue;
        }
        let Some(evals) = entries
            .iter()
            .map(|e| {
                c.apply(e.scenario).and_then(|s| {
                    evaluate_as(&s, prices, e.evaluation.calibration.as_ref(), false)
                        .ok()
                        .map(|v| (s, v))
                })
            })
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        let pairs: Vec<(&Scenario, &Evaluation)> = evals.iter().map(|(s, e)| (s, e)).collect();
        let then = better(&pairs);
        let phrase = capitalised(&c.phrase(first.scenario));
        let rates = || {
            evals
                .iter()
                .zip(entries)
                .map(|((_, e), x)| format!("{} {}", x.name, mibps(e.throughput_mibps)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let statement = if then != best {
            match then {
                Some(i) => format!(
                    "{phrase}, {} wins: {}; {}.",
                    entries[i].name,
                    rates(),
                    mechanism::cause(&evals[i].1)
                ),
                None => format!("{phrase}, they tie: {}.", rates()),
            }
        } else {
            let bound: Vec<&str> = evals.iter().map(|(_, e)| e.binding).collect();
            let same = bound.windows(2).all(|w| w[0] == w[1]);
            if same && bound != now_bound && entries.len() > 1 {
                let name = mechanism::binding_limit(&evals[0].1)
                    .map_or(bound[0].to_owned(), |l| l.label.name.to_owned());
                let who = if entries.len() == 2 {
                    "both are"
                } else {
                    "they are all"
                };
                format!("{phrase}, {who} bound by {name}: {}.", rates())
            } else {
                continue;
            }
        };
        out.push(Sensitivity {
            input: c.input().to_owned(),
            value: c.value(),
            statement,
        });
        if out.len() >= MAX_ITEMS {
            break;
        }
    }
    out
}
