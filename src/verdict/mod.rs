//! The verdict: every conclusion a user reads, computed once from an evaluation or a
//! plan and printed as it is by the pages, the reports, the API and the CLI (nothing
//! else composes its own conclusion).
//!
//! PURE: no I/O. The room sits above the engine and the planning rooms: it evaluates
//! neighbours and sizing rows with [`crate::engine`] to say what decides an answer.
//!
//! - [`advice`]: the words of the engine's advice findings.
//! - [`evaluation`]: one scenario: each target met or missed with its margin and what
//!   decides it, why each sizing row meets or not, the recommendation, what binds and
//!   by which mechanism, the headline latency, and the inputs that change the answer.
//! - [`measured`]: one benchmark run measured against its prediction.
//! - [`compare`]: several scenarios (the compare page and API).
//! - [`layouts`]: one capacity over several volume counts.
//! - [`avs`]: vSAN only against ANF datastores, by purchase term, with the break-even.
//! - [`estate`]: an estate plan's headline and what its totals leave out.
//! - [`summary`]: chart captions, latency in words, the AVS and estate summaries.

pub mod advice;
pub mod avs;
pub mod calibration;
pub mod compare;
pub mod estate;
pub mod headline;
pub mod iac;
pub mod layouts;
pub mod live;
pub mod measured;
pub mod mechanism;
pub mod sensitivity;
pub mod sizing;
pub mod summary;
pub mod targets;
#[cfg(test)]
mod tests;
pub mod words;

use crate::engine::evaluation::Evaluation;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::Scenario;
use serde::Serialize;
pub use sizing::{Recommendation, RowVerdict};
pub use targets::LatencyVerdict;

/// A target the verdict judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TargetKind {
    Capacity,
    Throughput,
    Iops,
    Latency,
}

impl TargetKind {
    /// "capacity", "throughput", "IOPS", "latency".
    pub fn noun(self) -> &'static str {
        match self {
            TargetKind::Capacity => "capacity",
            TargetKind::Throughput => "throughput",
            TargetKind::Iops => "IOPS",
            TargetKind::Latency => "latency",
        }
    }
}

/// One target met or missed.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct TargetVerdict {
    pub target: TargetKind,
    pub met: bool,
    /// How far the figure is on the good side of the target, % (negative: missed by).
    pub margin_pct: f64,
    /// The limit id that decides it, or `latency` or `capacity`.
    pub decided_by: String,
    pub statement: String,
}

/// One input whose plausible change changes the answer.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Sensitivity {
    /// The Scenario field, e.g. `clients.avs.vmdks_per_vm`.
    pub input: String,
    /// The value tried.
    #[schema(value_type = Value)]
    pub value: serde_json::Value,
    /// "With 5 VMDKs per VM: 10,231 MiB/s (+25 %); ..."
    pub statement: String,
}

/// The verdict on one evaluation (contract: `Evaluation.verdict`).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Verdict {
    /// Capacity first, then throughput, IOPS and latency where the scenario sets them.
    pub targets: Vec<TargetVerdict>,
    /// The cheapest sizing row that meets every target; null when none does.
    pub recommendation: Option<Recommendation>,
    /// Why no level meets every target with this layout (and which change would);
    /// null when one does or the scenario sets no target.
    pub none_meets: Option<String>,
    /// What decides the answer: the inputs whose plausible change flips a target or the
    /// recommendation (without targets: moves the throughput by 10 % or more).
    pub sensitivity: Vec<Sensitivity>,
    /// Every statement in reading order: the targets, the recommendation (or why no
    /// level meets), what binds, the latency.
    pub statements: Vec<String>,
    /// What binds and by which mechanism.
    pub binding: String,
    /// The headline latency and the concurrency behind it.
    pub latency: LatencyVerdict,
    /// Why each sizing row meets every target or not.
    pub sizing: Vec<RowVerdict>,
}

impl Verdict {
    /// Whether every target is met.
    pub fn met(&self) -> bool {
        self.targets.iter().all(|t| t.met)
    }
}

/// The verdict on `e`, the evaluation of `s` priced from `prices` (neighbours and
/// sizing rows are evaluated with the same book).
pub fn evaluation(s: &Scenario, e: &Evaluation, prices: &PriceBook) -> Verdict {
    let targets = targets::targets(s, e);
    let sized = sizing::sized(s, e, prices);
    let binding = mechanism::binding(s, e);
    let latency = targets::headline_latency(s, e);
    let mut statements: Vec<String> = targets.iter().map(|t| t.statement.clone()).collect();
    if let Some(r) = &sized.recommendation {
        statements.push(r.statement.clone());
    } else if let Some(none) = &sized.none_meets {
        statements.push(none.clone());
    }
    let none_meets = sized.none_meets;
    statements.push(binding.clone());
    statements.push(latency.statement.clone());
    if let Some(note) = &e.calibration {
        statements.push(calibration::statement(note));
    }
    let mut v = Verdict {
        targets,
        recommendation: sized.recommendation,
        none_meets,
        sensitivity: Vec::new(),
        statements,
        binding,
        latency,
        sizing: sized.rows,
    };
    v.sensitivity = sensitivity::sensitivity(s, e, &v, prices);
    v
}

/// An evaluation with its verdict: the Evaluation JSON of the contract with `verdict`
/// added (what the API, the CLI and the pages hand out).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Judged {
    #[serde(flatten)]
    pub evaluation: Evaluation,
    pub verdict: Verdict,
}

/// Evaluates nothing: judges the evaluation `e` of `s` (see [`evaluation`]).
pub fn judge(s: &Scenario, e: Evaluation, prices: &PriceBook) -> Judged {
    let verdict = evaluation(s, &e, prices);
    Judged {
        evaluation: e,
        verdict,
    }
}

/// The statements a report prints for one scenario, in reading order: the verdict's
/// statements, then what decides it.
pub fn report_statements(v: &Verdict) -> Vec<String> {
    with_deciders(&v.statements, &v.sensitivity)
}

/// The statements a report prints for a set (a comparison, layouts), in reading order:
/// the set verdict's statements, then what decides it.
pub fn set_statements(v: &SetVerdict) -> Vec<String> {
    with_deciders(&v.statements, &v.sensitivity)
}

/// `statements`, then each decider as "What decides it: ...".
fn with_deciders(statements: &[String], deciders: &[Sensitivity]) -> Vec<String> {
    let mut out = statements.to_vec();
    out.extend(
        deciders
            .iter()
            .map(|x| format!("What decides it: {}", x.statement)),
    );
    out
}

/// A set of scenarios or layouts judged together (compare, layouts, estate): which is
/// best, the statements in reading order, and what decides it.
#[derive(Debug, Clone, Default, Serialize, utoipa::ToSchema)]
pub struct SetVerdict {
    /// Index of the best scenario or layout, when one is best.
    pub best: Option<usize>,
    pub statements: Vec<String>,
    pub sensitivity: Vec<Sensitivity>,
}
