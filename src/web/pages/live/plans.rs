//! The saved plans the live page offers to compare with: the scenarios and estates the
//! user may read, as the API would let them, and the form's choice read back.

use crate::store::{self, estates};
use crate::web::access::actor;
use crate::web::api::actuals::ActualsQuery;
use crate::web::auth::{CurrentUser, Role};
use crate::web::state::AppState;

/// Most scenarios the list offers (the newest saved).
const MAX_LISTED: u32 = 500;

/// One choice of the plan list.
pub struct PlanChoice {
    /// `scenario-ID` or `estate-ID`.
    pub value: String,
    pub name: String,
    /// The name with the newest revision.
    pub label: String,
    pub selected: bool,
}

/// The plan list: scenarios then estates, `chosen` selected.
pub struct PlanList {
    pub scenarios: Vec<PlanChoice>,
    pub estates: Vec<PlanChoice>,
}

/// True when the user may keep runs with a scenario: the comparison's write.
pub fn may_write(user: &CurrentUser) -> bool {
    user.0.as_ref().is_none_or(|p| p.role >= Role::Editor)
}

impl PlanList {
    /// The plans `user` may read, `chosen` (the form's value) selected.
    pub async fn of(st: &AppState, user: &CurrentUser, chosen: &str) -> PlanList {
        let by = actor(user);
        let choice = |kind: &str, id: i64, name: &str, revision: i64| {
            let value = format!("{kind}-{id}");
            PlanChoice {
                selected: value == chosen,
                label: format!("{name} (revision {revision})"),
                name: name.to_owned(),
                value,
            }
        };
        // A list that cannot be read leaves the choice empty (and is logged): reading an
        // estate needs no database, so the page still serves it.
        let scenarios = store::list_page(&st.db, None, MAX_LISTED, 0, by)
            .await
            .map(|p| p.items)
            .unwrap_or_else(|e| {
                tracing::warn!("live page without the scenario list: {e}");
                Vec::new()
            })
            .iter()
            .map(|s| choice("scenario", s.id, &s.name, s.revision))
            .collect();
        let estates = estates::list_estates(&st.db, by)
            .await
            .unwrap_or_else(|e| {
                tracing::warn!("live page without the estate list: {e}");
                Vec::new()
            })
            .iter()
            .map(|e| choice("estate", e.id, &e.name, e.revision))
            .collect();
        PlanList { scenarios, estates }
    }

    /// The name of the chosen plan, as listed.
    pub fn chosen_name(&self) -> Option<&str> {
        self.scenarios
            .iter()
            .chain(&self.estates)
            .find(|c| c.selected)
            .map(|c| c.name.as_str())
    }
}

/// The form's plan and revision as the API's query; else each field that cannot be
/// read with what to fix.
pub fn query(plan: &str, revision: &str) -> Result<ActualsQuery, Vec<(&'static str, String)>> {
    let mut errors = Vec::new();
    let revision = match revision.trim() {
        "" => None,
        r => {
            let n = r.parse::<i64>().ok().filter(|n| *n > 0);
            if n.is_none() {
                errors.push((
                    "revision",
                    "Enter a revision number (1, 2, ...) or leave it blank for the newest."
                        .to_owned(),
                ));
            }
            n
        }
    };
    let id = |s: &str| s.parse::<i64>().ok().filter(|n| *n > 0);
    let (scenario, estate) = match plan.split_once('-') {
        Some(("scenario", n)) => (id(n), None),
        Some(("estate", n)) => (None, id(n)),
        _ => (None, None),
    };
    if scenario.is_none() && estate.is_none() {
        errors.push((
            "plan",
            "Choose the saved scenario or estate to compare the metrics with.".to_owned(),
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(ActualsQuery {
        scenario,
        estate,
        revision,
    })
}
