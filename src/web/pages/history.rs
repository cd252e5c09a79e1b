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
    /// What this revision changed against the one before ("first save" for the first).
    pub changes: String,
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
    let mut changes: HashMap<i64, String> = HashMap::new();
    for pair in bodies.windows(2) {
        let ((_, before), (n, after)) = (&pair[0], &pair[1]);
        changes.insert(*n, summary(&scenario_diff::diff(before, after)));
    }
    Ok(revisions
        .into_iter()
        .map(|r| HistoryRow {
            by: you_or(r.author.as_deref(), user),
            changes: changes
                .remove(&r.number)
                .unwrap_or_else(|| if r.number == 1 { "first save" } else { "" }.to_owned()),
            number: r.number,
            name: r.name,
            created_at: super::view::short_time(&r.created_at),
        })
        .collect())
}

/// "Service level: ultra → premium; Threads: 16 → 32; 2 more": each input by its
/// label on the form.
pub fn summary(changes: &[Change]) -> String {
    if changes.is_empty() {
        return "no change".to_owned();
    }
    let mut parts: Vec<String> = changes
        .iter()
        .take(SHOWN_CHANGES)
        .map(|c| {
            format!(
                "{}: {} → {}",
                super::form::field_label(&c.field),
                value(&c.before),
                value(&c.after)
            )
        })
        .collect();
    if changes.len() > SHOWN_CHANGES {
        parts.push(format!("{} more", changes.len() - SHOWN_CHANGES));
    }
    parts.join("; ")
}

/// A value as a person reads it: text without quotes, "none" for null, at most 40
/// characters (then "…").
fn value(v: &Value) -> String {
    let text = match v {
        Value::Null => "none".to_owned(),
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
        assert_eq!(
            summary(&c),
            "Service level: ultra → premium; Threads: 16 → 32; Region: none → eastus; 1 more"
        );
        assert_eq!(summary(&[]), "no change");
    }
}
