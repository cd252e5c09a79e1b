//! Code in, verdict out: read the code, build its scenarios, evaluate and judge each.

use super::{read, scenarios};
use crate::engine::pricing::PriceBook;
use crate::engine::{self, FieldErrors, Scenario};
use crate::estate::EstateRequest;
use crate::verdict::{self, Judged};
use serde::Serialize;

/// The answer of `POST /api/v1/iac/evaluate` and `volplan iac check`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Answer {
    /// One scenario per pool the code deploys.
    #[schema(value_type = Vec<Object>)]
    pub scenarios: Vec<Scenario>,
    /// Each scenario's evaluation with its verdict, in the same order.
    #[schema(value_type = Vec<Object>)]
    pub evaluations: Vec<Judged>,
    /// With more than one pool: the estate of those scenarios (`POST
    /// /api/v1/estate/optimize` plans it); null otherwise.
    #[schema(value_type = Option<Object>)]
    pub estate: Option<EstateRequest>,
    /// Every pool's reach, range and cost, unassigned manual-QoS throughput, the cost
    /// against `max_monthly` when given (else, with several pools, their cost
    /// together), and the cost against the baseline's when given.
    pub statements: Vec<String>,
    /// Every target of every scenario met (targets travel in the code's
    /// `volplan-workload` tags).
    pub met: bool,
    /// Monthly cost of every pool; null when one has no list price.
    pub monthly: Option<f64>,
    /// True when `monthly` is over `max_monthly`.
    pub over_budget: bool,
    /// The cost against the baseline's (the code before the change) when one is given;
    /// null otherwise.
    pub growth: Option<Growth>,
}

/// Why code could not be evaluated: unreadable (the message), or a scenario it
/// describes fails validation (its errors, each field under `pools[i]`).
#[derive(Debug)]
pub enum Refused {
    Unreadable(String),
    Invalid(FieldErrors),
}

/// Most pools one piece of code may deploy to be evaluated (as many as an estate's
/// workloads).
pub const MAX_POOLS: usize = 200;

/// Reads `text`, evaluates every pool it deploys priced from `book`.
pub fn check(text: &str, book: &PriceBook, max_monthly: Option<f64>) -> Result<Answer, Refused> {
    let layout = read::read(text).map_err(|e| Refused::Unreadable(e.0))?;
    if layout.pools.len() > MAX_POOLS {
        return Err(Refused::Unreadable(format!(
            "the code deploys {} pools; at most {MAX_POOLS} are evaluated at once: send one environment at a time",
            layout.pools.len()
        )));
    }
    let scenarios = scenarios::scenarios(&layout);
    let mut evaluations = Vec::with_capacity(scenarios.len());
    for (i, s) in scenarios.iter().enumerate() {
        let e = engine::evaluate_in(s, book).map_err(|es| {
            Refused::Invalid(es.within(&format!("pools[{i}]")).map(|mut e| {
                e.message = format!("pool {}: {}", s.name, e.message);
                e
            }))
        })?;
        evaluations.push(verdict::judge(s, e, book));
    }
    let entries: Vec<_> = scenarios
        .iter()
        .zip(evaluations.iter().map(|j| &j.evaluation))
        .collect();
    let statements = verdict::iac::statements(&entries, max_monthly, book);
    let monthly = verdict::iac::monthly(&entries);
    let met = evaluations.iter().all(|j| j.verdict.met());
    let over_budget = matches!((monthly, max_monthly), (Some(m), Some(max)) if m > max);
    let estate = (scenarios.len() > 1).then(|| {
        let mut req = EstateRequest::new(scenarios.clone());
        req.name = Some(layout.name.clone());
        req
    });
    Ok(Answer {
        scenarios,
        evaluations,
        estate,
        statements,
        met,
        monthly,
        over_budget,
        growth: None,
    })
}

/// The code's monthly cost against the code before a change.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Growth {
    /// The baseline's monthly cost; null when a pool of it has no list price.
    pub baseline_monthly: Option<f64>,
    /// How much the code's monthly cost is above the baseline's, % (negative: below);
    /// null when either is not priced.
    pub increase_pct: Option<f64>,
    /// True when the increase is over `max_increase_pct`.
    pub over: bool,
    /// Both costs and the increase, against the allowed increase when given (also the
    /// last of the answer's statements).
    pub statement: String,
}

impl Answer {
    /// Sets [`Answer::growth`]: the cost against `baseline_monthly` (null: the baseline
    /// is not priced), over when the increase passes `max_increase_pct`.
    pub fn grown(&mut self, baseline_monthly: Option<f64>, max_increase_pct: Option<f64>) {
        let currency = self
            .evaluations
            .first()
            .map_or("USD", |j| j.evaluation.cost.currency);
        let increase_pct = self
            .monthly
            .zip(baseline_monthly)
            .map(|(n, b)| verdict::iac::increase_pct(n, b));
        let statement =
            verdict::iac::growth(self.monthly, baseline_monthly, max_increase_pct, currency);
        self.statements.push(statement.clone());
        self.growth = Some(Growth {
            baseline_monthly,
            increase_pct,
            over: matches!((increase_pct, max_increase_pct), (Some(p), Some(max)) if p > max),
            statement,
        });
    }
}
