//! What the results column shows, formatted once in Rust so templates stay dumb.
//!
//! Headlines carry at most 3 significant digits; tables carry full values. Every
//! number has thousands separators.

use crate::engine::Limit;
use crate::engine::scenario::Scenario;
use crate::engine::{Evaluation, FieldErrors};
use crate::format;
use crate::verdict::compare::TIE_PCT;
use crate::verdict::{TargetKind, Verdict};
use crate::web::charts::ChartBlock;

/// The results column: either figures, or the reason there are none.
#[derive(Debug, Clone)]
pub struct ResultsView {
    pub ok: Option<Results>,
    /// Why there are no figures (invalid inputs, or the engine refused the scenario).
    pub problem: Option<String>,
    /// Input messages for the summary above the results.
    pub errors: Vec<ErrorItem>,
    /// `/plan?s=...` for the scenario as shown; empty when the inputs do not parse.
    pub share_url: String,
    /// Saved scenario id, for links to its charts and reports.
    pub scenario_id: Option<i64>,
}

/// One invalid input, for the summary: a link to the input and its message.
#[derive(Debug, Clone)]
pub struct ErrorItem {
    /// Input name (Scenario JSON path).
    pub field: String,
    /// What the input is called on the page.
    pub label: String,
    pub message: String,
}

impl ErrorItem {
    pub fn new(field: &str, message: &str) -> Self {
        Self {
            field: field.to_owned(),
            label: super::form::field_label(field),
            message: message.to_owned(),
        }
    }
}

/// Formatted figures of one evaluation.
#[derive(Debug, Clone)]
pub struct Results {
    pub throughput: String,
    /// The likely range of the throughput, "3,100-3,900".
    pub throughput_range: String,
    pub iops: String,
    pub iops_range: String,
    pub read: String,
    pub write: String,
    pub io_size: String,
    /// The headline latency (at the target rate when there is one), ms per IO.
    pub latency: String,
    /// The likely range of the headline latency, "0.9-1.3".
    pub latency_range: String,
    /// What sets the ranges' width, and the assumptions that widen them.
    pub range_basis: String,
    /// Which model parameters a calibration to the scenario's own measurements moved.
    pub calibration: Option<CalibrationView>,
    /// Where the headline latency is: "at the target rate" or "at this load".
    pub latency_at: &'static str,
    /// The verdict's latency sentence: the concurrency behind the figure.
    pub latency_note: String,
    /// The verdict's statements as the page shows them.
    pub verdict: VerdictView,
    /// "Bound by ..." sentence: the verdict's, with the mechanism.
    pub bound_by: String,
    pub limits: Vec<LimitRow>,
    pub connections: String,
    pub per_client: String,
    pub outstanding: String,
    pub cost: CostView,
    pub sizing: Vec<SizingRow>,
    pub advice: Vec<AdviceRow>,
    /// The ceilings and latency charts, those that could be drawn.
    pub charts: Vec<ChartBlock>,
}

/// The parameters a calibration moved, as the results column lists them.
#[derive(Debug, Clone)]
pub struct CalibrationView {
    /// "Calibrated to 3 measured runs".
    pub title: String,
    /// One line per parameter that moved by 1 % or more, the largest first.
    pub moved: Vec<String>,
}

impl CalibrationView {
    fn of(note: &crate::engine::evaluation::CalibrationNote) -> Self {
        Self {
            title: crate::verdict::calibration::title(note),
            moved: crate::verdict::calibration::moved(note),
        }
    }
}

/// The verdict at the top of the results: every target with ✔ or ✘, the
/// recommendation (with what Apply fills in), and what decides it.
#[derive(Debug, Clone)]
pub struct VerdictView {
    /// Every target met.
    pub met: bool,
    /// One line per target, capacity first.
    pub targets: Vec<TargetLine>,
    /// The recommendation's statement.
    pub recommendation: Option<String>,
    /// Whether Apply is offered: the scenario is not already the recommendation (Apply
    /// posts the form; the server fills in the recommendation, unsaved).
    pub apply: bool,
    /// Why no level meets every target, when none does.
    pub none_meets: Option<String>,
    /// What decides the answer.
    pub sensitivity: Vec<String>,
    /// The sticky summary's targets mark: "targets ✔" or "targets ✘".
    pub mark: &'static str,
}

#[derive(Debug, Clone)]
pub struct TargetLine {
    pub met: bool,
    /// "capacity", "throughput", "IOPS", "latency".
    pub kind: &'static str,
    pub text: String,
}

#[derive(Debug, Clone)]
pub struct LimitRow {
    pub label: String,
    pub scope: &'static str,
    pub applies: &'static str,
    pub mibps: String,
    pub iops: String,
    pub headroom: String,
    /// Where the limit comes from, public documents by their titles.
    pub source: String,
    pub assumption: bool,
    pub binding: bool,
}

#[derive(Debug, Clone)]
pub struct CostView {
    pub monthly: String,
    /// ISO 4217 code of every amount shown.
    pub currency: &'static str,
    pub billed_tib: String,
    pub per_mibps: String,
    pub price_date: String,
    pub hours_per_month: String,
    /// The price note: each price list with its date, the hours, the currency and what
    /// the prices are before (`report::summary::cost::price_note`).
    pub note: String,
    pub assumption: bool,
    /// Every priced item (`cost.lines`).
    pub lines: Vec<CostLineRow>,
    /// Monthly plus the one-time lines, when there are any.
    pub first_month: Option<String>,
}

/// One cost line as the results table shows it.
#[derive(Debug, Clone)]
pub struct CostLineRow {
    pub label: &'static str,
    /// Quantity with its unit.
    pub quantity: String,
    /// "$0.29419 per GiB-month", or "no list price".
    pub unit_price: String,
    /// The book has a price for the line (without one the page links to the import).
    pub priced: bool,
    /// The amount (a month, or once for a one-time line).
    pub amount: String,
    pub one_time: bool,
    pub note: Option<&'static str>,
}

impl CostLineRow {
    fn of(l: &crate::engine::cost::CostLine, currency: &str) -> Self {
        let per = l.unit.strip_suffix("-month").unwrap_or(l.unit);
        CostLineRow {
            label: l.item,
            quantity: format!("{} {}", format::num(l.quantity, 2), per),
            unit_price: l.unit_price.map_or_else(
                || format::not_priced_in(currency),
                |u| format!("{} per {}", format::unit_price(u, currency), l.unit),
            ),
            priced: l.unit_price.is_some(),
            amount: format::money_or(l.monthly, currency),
            one_time: l.one_time,
            note: l.note,
        }
    }
}

#[derive(Debug, Clone)]
pub struct SizingRow {
    pub level: String,
    pub quota_tib: String,
    pub pool_tib: String,
    pub throughput: String,
    pub monthly: String,
    /// The level has a price in the region (without one the page links to the import).
    pub priced: bool,
    pub meets: bool,
    pub cheapest: bool,
    /// The level the scenario uses.
    pub current: bool,
    /// Why the row meets every target or not (the verdict's).
    pub why: String,
}

#[derive(Debug, Clone)]
pub struct AdviceRow {
    /// JSON key (`warn`, `info`, `assumption`), for the style.
    pub severity: &'static str,
    /// The severity in words.
    pub severity_label: &'static str,
    pub code: &'static str,
    pub message: String,
}

/// A headline figure (the report formatter's [`format::sig`]).
pub fn sig3(v: f64) -> String {
    format::sig(v)
}

/// A full value for tables, with `decimals` at most ([`format::num`]).
pub fn full(v: f64, decimals: usize) -> String {
    format::num(v, decimals)
}

/// A monthly amount in the price book's currency ([`format::money_or`]); "no list
/// price" when the catalog has none.
pub fn usd(v: Option<f64>) -> String {
    format::money_or(v, "USD")
}

/// A limit's headroom over the achievable figure, or "ties with the binding limit"
/// for another limit within [`TIE_PCT`] of the binding one (not "+0.0%").
fn headroom(l: &Limit, binding: Option<&Limit>) -> String {
    match binding {
        Some(b) if b.id != l.id && (l.mibps - b.mibps).abs() <= TIE_PCT / 100.0 * b.mibps => {
            "ties with the binding limit".into()
        }
        _ => pct(l.headroom_pct),
    }
}

use format::signed_pct as pct;

/// "2026-11-30T13:04:39Z" -> "2026-11-30 13:04" (UTC); other text is shown as it is.
pub fn short_time(iso: &str) -> String {
    match (iso.get(..10), iso.get(11..16)) {
        (Some(date), Some(time)) if iso.as_bytes().get(10) == Some(&b'T') => {
            format!("{date} {time}")
        }
        _ => iso.to_owned(),
    }
}

impl ResultsView {
    /// Results of a valid scenario, with its verdict and its charts as drawn (see
    /// [`planner_charts`](crate::web::charts::planner_charts)).
    pub fn evaluated(
        scenario: &Scenario,
        ev: &Evaluation,
        verdict: &Verdict,
        share_url: String,
        charts: Vec<ChartBlock>,
    ) -> Self {
        Self {
            ok: Some(Results::new(scenario, ev, verdict, charts)),
            problem: None,
            errors: Vec::new(),
            share_url,
            scenario_id: scenario.id,
        }
    }

    /// No figures: the inputs have errors.
    pub fn invalid(errors: Vec<ErrorItem>, share_url: String, id: Option<i64>) -> Self {
        let n = errors.len();
        Self {
            ok: None,
            problem: Some(if n == 1 {
                "One input needs fixing before there are results.".into()
            } else {
                format!("{n} inputs need fixing before there are results.")
            }),
            errors,
            share_url,
            scenario_id: id,
        }
    }

    /// No figures: the engine refused the scenario.
    pub fn refused(e: &FieldErrors, share_url: String, id: Option<i64>) -> Self {
        Self {
            ok: None,
            problem: Some("The scenario cannot be evaluated.".into()),
            errors: e
                .iter()
                .map(|e| ErrorItem::new(&e.field, &e.message))
                .collect(),
            share_url,
            scenario_id: id,
        }
    }
}

impl Results {
    fn new(s: &Scenario, ev: &Evaluation, v: &Verdict, charts: Vec<ChartBlock>) -> Self {
        let binding = ev.limits.iter().find(|l| l.id == ev.binding);
        // The binding limit first, then the closest ceilings.
        let limits: Vec<LimitRow> = crate::report::summary::ordered_limits(ev)
            .into_iter()
            .map(|l| LimitRow {
                label: l.label.to_string(),
                scope: l.scope.key(),
                applies: l.applies.key(),
                mibps: format::exact(l.mibps),
                iops: format::exact(l.iops),
                headroom: headroom(l, binding),
                source: l.source.to_string(),
                assumption: l.assumption,
                binding: l.id == ev.binding,
            })
            .collect();
        let w = &s.workload;
        let current_level = s.storage.level;
        let sizing = ev
            .sizing
            .iter()
            .zip(&v.sizing)
            .map(|(z, why)| SizingRow {
                level: format!("{} {}", z.service.display(), z.level.display(z.service)),
                quota_tib: full(z.quota_tib, 2),
                pool_tib: full(z.pool_tib, 2),
                throughput: why
                    .throughput_mibps
                    .map(format::exact)
                    .unwrap_or_else(|| "-".into()),
                monthly: format::money_or(why.monthly, ev.cost.currency),
                priced: why.monthly.is_some(),
                meets: z.meets,
                cheapest: z.cheapest,
                current: z.service == s.storage.service && z.level == current_level,
                why: why.statement.clone(),
            })
            .collect();

        let likely = crate::verdict::headline::likely(ev, &v.latency, ToString::to_string);
        Self {
            throughput: sig3(ev.throughput_mibps),
            throughput_range: likely.throughput_mibps,
            iops: sig3(ev.iops),
            iops_range: likely.iops,
            read: sig3(ev.read_mibps),
            write: sig3(ev.write_mibps),
            io_size: full(w.io_size_kib, 1),
            latency: format::ms(v.latency.ms),
            latency_range: likely.latency_ms,
            range_basis: likely.basis,
            calibration: ev.calibration.as_ref().map(CalibrationView::of),
            latency_at: crate::verdict::headline::latency_at(&v.latency),
            latency_note: v.latency.statement.clone(),
            verdict: VerdictView::of(v),
            bound_by: v.binding.clone(),
            limits,
            connections: full(ev.flows.connections as f64, 0),
            per_client: full(ev.flows.per_client as f64, 0),
            outstanding: full(ev.flows.outstanding, 0),
            cost: CostView {
                monthly: format::money_or(ev.cost.monthly, ev.cost.currency),
                currency: ev.cost.currency,
                billed_tib: full(ev.cost.billed_tib, 2),
                per_mibps: format::money_or(ev.cost.per_mibps, ev.cost.currency),
                price_date: ev.cost.price_date.clone(),
                hours_per_month: full(ev.cost.hours_per_month, 0),
                note: crate::report::summary::cost::price_note(
                    ev,
                    crate::report::Edition::Customer,
                ),
                assumption: ev.cost.assumption,
                lines: ev
                    .cost
                    .lines
                    .iter()
                    .map(|l| CostLineRow::of(l, ev.cost.currency))
                    .collect(),
                first_month: ev.cost.one_time.map(|once| {
                    format::money_or(ev.cost.monthly.map(|m| m + once), ev.cost.currency)
                }),
            },
            sizing,
            charts,
            advice: ev
                .advice
                .iter()
                .map(|a| AdviceRow {
                    severity: a.severity.key(),
                    severity_label: match a.severity.key() {
                        "warn" => "Warning",
                        "info" => "Info",
                        "assumption" => "Assumption",
                        other => other,
                    },
                    code: a.code,
                    message: a.message.to_string(),
                })
                .collect(),
        }
    }
}

impl VerdictView {
    /// The verdict as the results column shows it.
    pub fn of(v: &Verdict) -> Self {
        let met = v.met();
        let apply = v.recommendation.as_ref().is_some_and(|r| !r.current);
        VerdictView {
            met,
            targets: v
                .targets
                .iter()
                .map(|t| TargetLine {
                    met: t.met,
                    kind: match t.target {
                        TargetKind::Capacity => "capacity",
                        TargetKind::Throughput => "throughput",
                        TargetKind::Iops => "iops",
                        TargetKind::Latency => "latency",
                    },
                    text: t.statement.clone(),
                })
                .collect(),
            recommendation: v.recommendation.as_ref().map(|r| r.statement.clone()),
            apply,
            none_meets: v.none_meets.clone(),
            sensitivity: v.sensitivity.iter().map(|x| x.statement.clone()).collect(),
            mark: if met { "targets ✔" } else { "targets ✘" },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headline_numbers_have_three_significant_digits() {
        assert_eq!(sig3(163_840.0), "164,000");
        assert_eq!(sig3(10_240.0), "10,200");
        assert_eq!(sig3(999.6), "1,000");
        assert_eq!(sig3(64.25), "64.3");
        assert_eq!(sig3(6.25), "6.25");
        assert_eq!(sig3(0.1234), "0.123");
        assert_eq!(sig3(0.0), "0");
        assert_eq!(sig3(f64::INFINITY), "unlimited");
    }

    #[test]
    fn money_and_percentages() {
        assert_eq!(usd(Some(1234.5)), "$1,234.50");
        assert_eq!(usd(Some(0.004)), "$0.00");
        assert_eq!(usd(None), "no list price");
        assert_eq!(pct(27.64), "+27.6%");
        assert_eq!(pct(0.0), "0%");
        assert_eq!(pct(71_790.66), "+71,791%");
        assert_eq!(short_time("2026-11-30T13:04:39Z"), "2026-11-30 13:04");
        assert_eq!(short_time("yesterday"), "yesterday");
    }
}
