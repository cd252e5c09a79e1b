//! Scenario -> Evaluation: the one entry point of the engine.

use super::evaluation::Evaluation;
use super::scenario::{FieldError, Scenario};

/// Evaluates a scenario; a value out of range gives the field and what to fix.
pub fn evaluate(scenario: &Scenario) -> Result<Evaluation, FieldError> {
    scenario.validate()?;
    Err(FieldError::new("storage", "the engine is being built"))
}
