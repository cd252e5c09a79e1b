//! One capacity over several volume (datastore) counts: which layout gives the most,
//! the suggestion (the smallest count within 5 % of the best), what the layouts cost,
//! and a pair set side by side (the base scenario's own count against another) with
//! the mechanism of each and the inputs that flip which of the two wins; and why each
//! layout gets its result.

use super::SetVerdict;
use super::compare::{self, Entry};
use super::mechanism;
use super::words::capitalised;
use super::words::{count_x, volume_noun};
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::Scenario;
use crate::engine::sweep::{self, Layout, NEAR_BEST};
use crate::format::{mibps, money, num};
use serde::Serialize;

/// The verdict on a layouts sweep: what the layouts API answers as `verdict` and the
/// layouts page and its downloads print.
#[derive(Debug, Clone, Default, Serialize, utoipa::ToSchema)]
pub struct LayoutsVerdict {
    /// The best layout (`best`), the statements in reading order and what decides
    /// which of the pair wins (`sensitivity`).
    #[serde(flatten)]
    pub set: SetVerdict,
    /// The two layouts set side by side, as indices into the layouts: the scenario's
    /// own count first.
    pub pair: Option<[usize; 2]>,
    /// Why each layout gets its result, in the order of the layouts: what binds it and,
    /// on AVS, how its datastores share the load.
    pub why: Vec<String>,
}

/// Why one layout gets its result: "The busiest of 20 datastores holds 4 of 64 VMDKs,
/// so Volume QoS caps it at 8,192 MiB/s".
pub fn why(l: &Layout) -> String {
    capitalised(&mechanism::cause(&l.evaluation))
}

/// The two counts a layouts verdict sets side by side: the base scenario's own count and
/// `versus` (or, without it, the suggested count, else the best other one).
pub fn pair(s: &Scenario, layouts: &[Layout], versus: Option<u32>) -> Option<(usize, usize)> {
    let own: u32 = s.storage.volumes.iter().map(|g| g.count).sum();
    let find = |n: u32| layouts.iter().position(|l| l.count == n);
    let a = find(own)?;
    let rows = sweep::layout_rows(layouts);
    let b = match versus.and_then(find) {
        Some(b) => b,
        None => match sweep::suggest_layout(&rows).filter(|&i| i != a) {
            Some(i) => i,
            None => (0..layouts.len()).filter(|&i| i != a).max_by(|&x, &y| {
                layouts[x]
                    .evaluation
                    .throughput_mibps
                    .total_cmp(&layouts[y].evaluation.throughput_mibps)
            })?,
        },
    };
    (a != b).then_some((a, b))
}

/// The verdict on a layouts sweep of `s` (each layout `total_tib / count` per volume).
pub fn layouts(
    s: &Scenario,
    total_tib: f64,
    layouts: &[Layout],
    versus: Option<u32>,
    prices: &PriceBook,
) -> LayoutsVerdict {
    let rows = sweep::layout_rows(layouts);
    let noun = volume_noun(s, true);
    let name = |l: &Layout| format!("{} {noun}", count_x(l.count, l.quota_tib));
    let mut statements = Vec::new();
    let best = (0..layouts.len()).max_by(|&a, &b| {
        layouts[a]
            .evaluation
            .throughput_mibps
            .total_cmp(&layouts[b].evaluation.throughput_mibps)
    });
    let suggested = sweep::suggest_layout(&rows);
    if let (Some(b), Some(g)) = (best, suggested) {
        let top = &layouts[b];
        statements.push(if g == b {
            format!(
                "{} give the most: {}; no smaller count comes within {}% of it.",
                name(top),
                mibps(top.evaluation.throughput_mibps),
                NEAR_BEST * 100.0
            )
        } else {
            format!(
                "{} give the most: {}. Suggested: {}, the smallest count within {}% of it ({}).",
                name(top),
                mibps(top.evaluation.throughput_mibps),
                name(&layouts[g]),
                NEAR_BEST * 100.0,
                mibps(layouts[g].evaluation.throughput_mibps)
            )
        });
    }
    let costs: Vec<Option<f64>> = layouts.iter().map(|l| l.evaluation.cost.monthly).collect();
    let currency = layouts
        .first()
        .map_or("USD", |l| l.evaluation.cost.currency);
    let same = costs.windows(2).all(|w| match (w[0], w[1]) {
        (Some(a), Some(b)) => (a - b).abs() <= 0.005 * a.abs().max(1.0),
        (None, None) => true,
        _ => false,
    });
    match (same, costs.first().copied().flatten()) {
        (true, Some(c)) => statements.push(format!(
            "Every layout costs {}/month: {} bills the capacity of the pool ({} TiB), not the number of {noun} it is split into.",
            money(c, currency),
            s.storage.service.display(),
            num(total_tib, 2)
        )),
        (true, None) => statements.push(
            "The level has no list price; every layout provisions the same capacity.".to_owned(),
        ),
        (false, _) => statements.push(format!(
            "The layouts cost different amounts: {} does not bill this level by pool capacity alone.",
            s.storage.service.display()
        )),
    }
    let mut sensitivity = Vec::new();
    let pair = pair(s, layouts, versus);
    if let Some((a, b)) = pair {
        let scenarios = [
            sweep::layout_variant(s, layouts[a].count, total_tib),
            sweep::layout_variant(s, layouts[b].count, total_tib),
        ];
        let names = [name(&layouts[a]), name(&layouts[b])];
        let entries = [
            Entry {
                name: &names[0],
                scenario: &scenarios[0],
                evaluation: &layouts[a].evaluation,
            },
            Entry {
                name: &names[1],
                scenario: &scenarios[1],
                evaluation: &layouts[b].evaluation,
            },
        ];
        let v = compare::compare(&entries, prices);
        statements.extend(v.statements);
        sensitivity = v.sensitivity;
    }
    LayoutsVerdict {
        set: SetVerdict {
            best,
            statements,
            sensitivity,
        },
        pair: pair.map(|(a, b)| [a, b]),
        why: layouts.iter().map(why).collect(),
    }
}
