//! A saved scenario's history as the planner lists it: each revision with who saved it
//! and what it changed against the one before.

use crate::engine::scenario_diff::{self, Change};
use crate::store;
use crate::web::auth::CurrentUser;
use crate::web::state::AppState;
use serde_json::Value;
use std::collections::HashMap;

/// Changes a history row names before it counts the rest.
const SHOWN_CHANGES: usize = 3;

/// One revision in the planner's History menu.
pub struct HistoryRow {
    pub number: i64,
    pub name: String,
    /// Short UTC time.
    pub created_at: String,
    /// "you", the author's name, or empty (single-user mode).
    pub by: String,
    /// What this revision changed against the one before ("first save" for the first):
    /// the first changes, each input by its label.
    pub changes: String,
    /// The rest of the changes, one line each, shown when the row is expanded.
    pub more: Vec<String>,
}

/// "you" when `name` is the signed-in user, else the name (empty without one).
pub fn you_or(name: Option<&str>, user: &CurrentUser) -> String {
    match name {
        Some(n) if Some(n) == user.name() => "you".to_owned(),
        Some(n) => n.to_owned(),
        None => String::new(),
    }
}

/// The revisions of scenario `id`, newest first, each with what it changed.
pub async fn rows(
    st: &AppState,
    user: &CurrentUser,
    id: i64,
) -> Result<Vec<HistoryRow>, store::StoreError> {
    let mut revisions = store::list_revisions(&st.db, id).await?;
    revisions.sort_by_key(|r| std::cmp::Reverse(r.number));
    let bodies = store::revision_bodies(&st.db, id).await?;
    let mut changes: HashMap<i64, (String, Vec<String>)> = HashMap::new();
    for pair in bodies.windows(2) {
        let ((_, before), (n, after)) = (&pair[0], &pair[1]);
        changes.insert(*n, summary(&scenario_diff::diff(before, after)));
    }
    Ok(revisions
        .into_iter()
        .map(|r| {
            let (changes, more) = changes.remove(&r.number).unwrap_or_else(|| {
                let first = if r.number == 1 { "first save" } else { "" };
                (first.to_owned(), Vec::new())
            });
            HistoryRow {
                by: you_or(r.author.as_deref(), user),
                changes,
                more,
                number: r.number,
                name: r.name,
                created_at: super::view::short_time(&r.created_at),
            }
        })
        .collect())
}

/// "Service level: ultra → premium; Threads: 16 → 32" and the rest of the changes, one
/// each: every input by its label on the form, or in words.
pub fn summary(changes: &[Change]) -> (String, Vec<String>) {
    if changes.is_empty() {
        return ("no change".to_owned(), Vec::new());
    }
    let mut lines: Vec<String> = changes
        .iter()
        .map(|c| {
            format!(
                "{}: {} → {}",
                super::form::field_label(&c.field),
                value(&c.before),
                value(&c.after)
            )
        })
        .collect();
    let more = lines.split_off(SHOWN_CHANGES.min(lines.len()));
    (lines.join("; "), more)
}

/// A value as a person reads it: text without quotes, "not set" for null (never
/// "null"), at most 40 characters (then "…").
fn value(v: &Value) -> String {
    let text = match v {
        Value::Null => "not set".to_owned(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if text.chars().count() > 40 {
        format!("{}…", text.chars().take(40).collect::<String>())
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(field: &str, before: Value, after: Value) -> Change {
        Change {
            field: field.to_owned(),
            before,
            after,
        }
    }

    #[test]
    fn a_summary_names_the_first_changes_and_counts_the_rest() {
        let c = [
            change("storage.level", "ultra".into(), "premium".into()),
            change("workload.threads", 16.into(), 32.into()),
            change("region", Value::Null, "eastus".into()),
            change("name", "a".into(), "b".into()),
        ];
        let (shown, more) = summary(&c);
        assert_eq!(
            shown,
            "Service level: ultra → premium; Threads: 16 → 32; Region: not set → eastus"
        );
        assert_eq!(more, ["Scenario name: a → b"]);
        assert_eq!(summary(&[]).0, "no change");
        // A field the form has no label for is named in words, never by its key.
        let (shown, _) = summary(&[
            change("pricing.currency", "EUR".into(), "USD".into()),
            change("data_protection.snapshot_reserve_pct", 5.into(), 10.into()),
        ]);
        assert_eq!(
            shown,
            "Currency: EUR → USD; Data protection, snapshot reserve %: 5 → 10"
        );
    }
}
