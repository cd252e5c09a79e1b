//! A report's words around the verdict's statements: names (service and level, what the
//! volumes are called), the limits in reading order, where the figures come from, the
//! assumptions and the cost in words; latency in words, chart captions, and the AVS
//! plan's and the estate's summaries are [`crate::verdict::summary`]'s. Every conclusion (a target met, what binds, the
//! recommendation, which is better) is the verdict's ([`crate::verdict`]); the reports
//! print it as it is and compose none of their own.

pub mod cost;

pub use crate::verdict::summary::{
    LAYOUTS_COST_NOTE, avs, ceilings_caption, compare_caption, estate, io_size_caption, latency,
    latency_caption, latency_target_notes, layouts_caption, scaling_caption,
};

use crate::engine::Evaluation;
use crate::engine::evaluation::Limit;
use crate::engine::scenario::Service;
use crate::report::Edition;
use crate::verdict::advice;

/// Service and level as the vendor writes them, e.g. "Azure NetApp Files Ultra".
pub fn storage_name(service: Service, level: crate::engine::scenario::Level) -> String {
    format!("{} {}", service.display(), level.display(service))
}

/// The limits binding first, then by headroom: what binds, then what binds next.
pub fn ordered_limits(e: &Evaluation) -> Vec<&Limit> {
    let mut rows: Vec<&Limit> = e.limits.iter().collect();
    rows.sort_by(|a, b| {
        (b.id == e.binding)
            .cmp(&(a.id == e.binding))
            .then(a.headroom_pct.total_cmp(&b.headroom_pct))
    });
    rows
}

/// Where the figures come from: published limits, and which ones are fitted to
/// published measurements rather than stated by a document.
pub fn provenance(e: &Evaluation) -> String {
    let fitted: Vec<&str> = e
        .limits
        .iter()
        .filter(|l| l.source.kind.is_fitted())
        .map(|l| l.label.name)
        .collect();
    if fitted.is_empty() {
        "Every limit is a published figure or a formula from a published document; none is flagged as unconfirmed.".to_owned()
    } else {
        format!(
            "Limits are published figures or formulas from published documents, except {}, fitted to published benchmark measurements: a model of the measured behaviour, not a documented limit.",
            fitted.join(", ")
        )
    }
}

/// The assumptions behind the figures: the engine's own notes first, then every
/// assumption-flagged limit and the price snapshot that no note already names.
pub fn assumptions(e: &Evaluation, edition: Edition) -> Vec<String> {
    let mut out: Vec<String> = e
        .advice
        .iter()
        .filter(|a| a.severity == crate::engine::advice::Severity::Assumption)
        .map(|a| match a.message {
            // The source as this edition shows it (public titles for a customer).
            crate::engine::advice::Message::Assumption { what, source } => {
                advice::assumption(what, &edition.source(&source))
            }
            ref m => m.to_string(),
        })
        .collect();
    let covered = |out: &[String], what: &str| out.iter().any(|m| m.contains(what));
    for l in e.limits.iter().filter(|l| l.assumption) {
        if !covered(&out, l.label.name) {
            out.push(advice::limit_assumption(
                &l.label,
                &edition.source(&l.source),
            ));
        }
    }
    if e.cost.assumption && !covered(&out, "price") {
        out.push(advice::price_assumption(
            &cost::price_basis(e, edition),
            e.cost.hours_per_month,
        ));
    }
    out
}
