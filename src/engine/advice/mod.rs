//! Advice rules from the source documents, each with a stable code.

use super::limits::as_display;
use serde::Serialize;
use std::fmt;

/// How much a piece of advice matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The scenario misses its targets or breaks a rule.
    Warn,
    /// A change that would help.
    Info,
    /// An assumption behind a number.
    Assumption,
}

impl Severity {
    /// The JSON name.
    pub fn key(self) -> &'static str {
        match self {
            Severity::Warn => "warn",
            Severity::Info => "info",
            Severity::Assumption => "assumption",
        }
    }
}

/// One piece of advice.
#[derive(Debug, Clone, Serialize)]
pub struct Advice {
    /// Stable code, e.g. `nconnect`.
    pub code: &'static str,
    pub severity: Severity,
    /// The advice and its reason, formatted when shown.
    #[serde(serialize_with = "as_display")]
    pub message: Message,
}

/// The text of a piece of advice with the numbers it cites.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Message {
    /// A fixed sentence.
    Text(&'static str),
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Text(t) => f.write_str(t),
        }
    }
}
