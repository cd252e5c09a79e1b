//! The rows of a scenario's report: headline figures, limits, per-level sizing, advice,
//! and the scenarios and layouts set beside it.

use crate::engine::advice::Severity;
use crate::engine::source::Source;
use crate::engine::{Evaluation, Scenario};
use crate::format::{self, NOT_PRICED};
use crate::report::summary::{self, cost, storage_name};
use crate::report::{Edition, sources};
use crate::verdict::{Verdict, headline};

/// One headline figure.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// Stable key, e.g. `throughput_mibps` (used as the CSV key).
    pub key: &'static str,
    pub label: String,
    /// `None` when there is no figure (a level without a list price).
    pub value: Option<f64>,
    /// The likely range as the planner page writes it ("3,100-3,900"), for the rates
    /// and the latency; `None` for the other figures.
    pub range: Option<String>,
    /// The same range as numbers, for the data formats.
    pub range_values: Option<[f64; 2]>,
    pub unit: &'static str,
    /// Decimals of the spreadsheet cell's number format.
    pub decimals: usize,
    /// How the report writes it, the way the planner page does.
    pub shown: Shown,
}

/// How a headline figure is written, in every report format as on the planner page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// Rates and counts rounded to significant digits ([`format::sig`]).
    Sig,
    /// Milliseconds to three significant digits ([`format::ms`]).
    Ms,
    /// The figure's own decimals: capacity, connection counts.
    Decimals,
    /// Money in the evaluation's currency ([`format::money`]).
    Money(&'static str),
}

impl Figure {
    /// The value as the planner page writes it, or [`NOT_PRICED`].
    pub fn text(&self) -> String {
        match (self.value, self.shown) {
            (Some(v), Shown::Sig) => format::sig(v),
            (Some(v), Shown::Ms) => format::ms(v),
            (Some(v), Shown::Decimals) => format::num(v, self.decimals),
            (Some(v), Shown::Money(c)) => format::money(v, c),
            (None, _) => NOT_PRICED.to_owned(),
        }
    }

    /// The Excel number format that shows the value as [`Figure::text`] does (with the
    /// decimals of its significant digits; Excel keeps the digits a rounding drops).
    pub fn excel_format(&self) -> String {
        let v = self.value.unwrap_or(0.0);
        match self.shown {
            Shown::Money(c) => format::xlsx_money(c),
            Shown::Sig => format::xlsx_unit(self.unit, format::sig_decimals(v).min(3)),
            Shown::Ms => format::xlsx_unit(self.unit, format::ms_decimals(v)),
            Shown::Decimals => format::xlsx_unit(self.unit, self.decimals.min(3)),
        }
    }
}

/// The report's headline figures, as the planner page shows them: the rates and the
/// headline latency (at the target rate when there is one) with their likely ranges.
pub fn headline(e: &Evaluation, v: &Verdict) -> Vec<Figure> {
    // The ranges' basis sentence is the edition's (see `Report::range_basis`).
    let likely = headline::likely(e, &v.latency, ToString::to_string);
    let f = |key, label: &str, value: f64, unit, decimals, shown| Figure {
        key,
        label: label.to_owned(),
        value: Some(value),
        range: None,
        range_values: None,
        unit,
        decimals,
        shown,
    };
    let ranged = |fig: Figure, text: String, values: [f64; 2]| Figure {
        range: Some(text),
        range_values: Some(values),
        ..fig
    };
    let money = Shown::Money(e.cost.currency);
    let priced = |key, label: &str, value, decimals| Figure {
        key,
        label: label.to_owned(),
        value,
        range: None,
        range_values: None,
        unit: if key == "usd_per_mibps" {
            "a month"
        } else {
            ""
        },
        decimals,
        shown: money,
    };
    vec![
        ranged(
            f(
                "throughput_mibps",
                "Throughput",
                e.throughput_mibps,
                "MiB/s",
                1,
                Shown::Sig,
            ),
            likely.throughput_mibps,
            e.throughput_mibps_range,
        ),
        ranged(
            f("iops", "IOPS", e.iops, "IOPS", 0, Shown::Sig),
            likely.iops,
            e.iops_range,
        ),
        f("read_mibps", "Reads", e.read_mibps, "MiB/s", 1, Shown::Sig),
        f(
            "write_mibps",
            "Writes",
            e.write_mibps,
            "MiB/s",
            1,
            Shown::Sig,
        ),
        ranged(
            f(
                "latency_ms",
                &headline::latency_label(&v.latency),
                v.latency.ms,
                "ms",
                3,
                Shown::Ms,
            ),
            likely.latency_ms,
            likely.latency_ms_values,
        ),
        f(
            "connections",
            "TCP connections",
            e.flows.connections as f64,
            "",
            0,
            Shown::Decimals,
        ),
        priced("monthly_usd", "Monthly cost", e.cost.monthly, 2),
        f(
            "billed_tib",
            "Billed capacity",
            e.cost.billed_tib,
            "TiB",
            2,
            Shown::Decimals,
        ),
        priced("usd_per_mibps", "Cost per MiB/s", e.cost.per_mibps, 2),
    ]
}

/// Whether the scenario meets its targets.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetLine {
    pub met: bool,
    /// e.g. "Targets met: 12,000 MiB/s with 5% headroom."
    pub text: String,
}

/// The limit that binds, in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    pub id: &'static str,
    pub label: String,
    pub mibps: f64,
    pub iops: f64,
    /// One sentence: which limit, its value and why it binds.
    pub sentence: String,
}

/// One limit with its headroom and provenance.
#[derive(Debug, Clone, PartialEq)]
pub struct LimitRow {
    pub id: &'static str,
    pub label: String,
    pub scope: &'static str,
    pub applies: &'static str,
    pub mibps: f64,
    pub iops: f64,
    pub headroom_pct: f64,
    pub binding: bool,
    pub assumption: bool,
    /// Where the limit comes from.
    pub source: Source,
}

impl LimitRow {
    /// The source as `edition` shows it.
    pub fn source_in(&self, edition: Edition) -> String {
        sources::cite(&self.source, edition)
    }
}

/// Every limit, binding first, then by headroom.
pub fn limit_rows(e: &Evaluation) -> Vec<LimitRow> {
    summary::ordered_limits(e)
        .into_iter()
        .map(|l| LimitRow {
            id: l.id,
            label: l.label.to_string(),
            scope: l.scope.key(),
            applies: l.applies.key(),
            mibps: l.mibps,
            iops: l.iops,
            headroom_pct: l.headroom_pct,
            binding: l.id == e.binding,
            assumption: l.assumption,
            source: l.source,
        })
        .collect()
}

/// The binding limit with the verdict's sentence on it.
pub fn binding(e: &Evaluation, v: &Verdict) -> Binding {
    let l = e.limits.iter().find(|l| l.id == e.binding);
    Binding {
        id: e.binding,
        label: l.map_or_else(|| e.binding.to_owned(), |l| l.label.to_string()),
        mibps: l.map_or(e.throughput_mibps, |l| l.mibps),
        iops: l.map_or(e.iops, |l| l.iops),
        sentence: v.binding.clone(),
    }
}

/// Reverse sizing for one level.
#[derive(Debug, Clone, PartialEq)]
pub struct SizingRow {
    /// Service and level as the vendor writes them.
    pub name: String,
    pub level: &'static str,
    pub quota_tib: f64,
    pub pool_tib: f64,
    pub throughput_mibps: Option<f64>,
    pub monthly: Option<f64>,
    pub meets: bool,
    pub cheapest: bool,
    /// True for the level the scenario uses.
    pub current: bool,
}

/// Every level's sizing, with the figures the verdict judged each row by (so a row, the
/// recommendation and the cost section agree on one figure).
pub fn sizing_rows(s: &Scenario, e: &Evaluation, v: &Verdict) -> Vec<SizingRow> {
    e.sizing
        .iter()
        .zip(&v.sizing)
        .map(|(z, why)| SizingRow {
            name: storage_name(z.service, z.level),
            level: z.level.key(),
            quota_tib: z.quota_tib,
            pool_tib: z.pool_tib,
            throughput_mibps: why.throughput_mibps,
            monthly: why.monthly,
            meets: z.meets,
            cheapest: z.cheapest,
            current: cost::is_current(s, z),
        })
        .collect()
}

/// One piece of advice.
#[derive(Debug, Clone, PartialEq)]
pub struct AdviceRow {
    pub code: &'static str,
    pub severity: &'static str,
    pub message: String,
}

/// The advice that is not an assumption, most important first.
pub fn advice_rows(e: &Evaluation) -> Vec<AdviceRow> {
    e.advice
        .iter()
        .filter(|a| a.severity != Severity::Assumption)
        .map(|a| AdviceRow {
            code: a.code,
            severity: a.severity.key(),
            message: a.message.to_string(),
        })
        .collect()
}

/// One scenario in the comparison section.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareRow {
    pub id: Option<i64>,
    pub name: String,
    /// Service and level as the vendor writes them.
    pub storage: String,
    pub throughput_mibps: f64,
    pub iops: f64,
    pub latency_ms: f64,
    pub binding: &'static str,
    pub binding_label: String,
    pub monthly: Option<f64>,
    pub currency: &'static str,
    pub met: bool,
}

pub fn compare_row(s: &Scenario, e: &Evaluation) -> CompareRow {
    CompareRow {
        id: s.id,
        name: s.name.clone(),
        storage: storage_name(s.storage.service, s.storage.level),
        throughput_mibps: e.throughput_mibps,
        iops: e.iops,
        latency_ms: e.latency_ms,
        binding: e.binding,
        binding_label: crate::verdict::mechanism::binding_name(e),
        monthly: e.cost.monthly,
        currency: e.cost.currency,
        met: e.targets.met,
    }
}

/// One volume layout in the layouts section: the same capacity split over `count` volumes.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutRow {
    pub count: u32,
    pub quota_tib: f64,
    pub throughput_mibps: f64,
    pub iops: f64,
    pub connections: u64,
    pub binding: &'static str,
    pub binding_label: String,
    /// Why the layout gets its result, as the verdict says it.
    pub why: String,
    pub monthly: Option<f64>,
    pub met: bool,
}
