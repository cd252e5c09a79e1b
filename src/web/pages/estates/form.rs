//! The estate forms (a new estate, the edit of one): the settings as typed and the
//! workloads to add or remove, read into an estate request. Every input that is wrong
//! gets its message beside it, all in one round (the request's own checks report
//! every field at once), and keeps what was typed.

use crate::engine::FieldErrors;
use crate::engine::Scenario;
use crate::engine::scenario::Term;
use crate::estate::EstateRequest;
use crate::store::Visibility;
use crate::web::access;
use crate::web::auth::CurrentUser;
use crate::web::pages::form::{FormState, field_label};
use crate::web::scenario_templates::TEMPLATES;
use crate::web::state::AppState;

/// One checkbox of the workload chooser.
pub struct Choice {
    pub value: String,
    pub name: String,
    /// A private scenario: adding it makes the estate private.
    pub private: bool,
    /// Ticked when the form comes back with a message.
    pub checked: bool,
}

/// The reservation terms of the select, by key.
pub const RESERVATIONS: [(&str, &str); 3] = [
    ("none", "None (pay as you go)"),
    ("1y", "1 year"),
    ("3y", "3 years"),
];

/// Inputs of the form that a field error of the request can name.
const INPUTS: [&str; 8] = [
    "name",
    "region",
    "years",
    "reservation",
    "pricing.currency",
    "growth_pct_per_year",
    "migration_threshold_usd_month",
    "min_dwell_months",
];

/// The form as sent: the settings as typed, and the repeated checkboxes.
pub struct EstateForm {
    pub state: FormState,
    templates: Vec<String>,
    scenarios: Vec<String>,
    remove: Vec<usize>,
}

impl EstateForm {
    /// The form showing `req`'s settings: the edit form, or a new estate's defaults.
    pub fn of_request(req: &EstateRequest) -> EstateForm {
        let state = FormState::of_values([
            ("name".to_owned(), req.name.clone().unwrap_or_default()),
            ("region".to_owned(), req.region.clone().unwrap_or_default()),
            ("years".to_owned(), req.years.to_string()),
            ("reservation".to_owned(), req.reservation.key().to_owned()),
            ("pricing.currency".to_owned(), req.currency().to_owned()),
            (
                "growth_pct_per_year".to_owned(),
                req.growth_pct_per_year.to_string(),
            ),
            (
                "migration_threshold_usd_month".to_owned(),
                req.migration_threshold_usd_month.to_string(),
            ),
            (
                "min_dwell_months".to_owned(),
                req.min_dwell_months.to_string(),
            ),
            ("visibility".to_owned(), Visibility::Shared.key().to_owned()),
        ]);
        EstateForm {
            state,
            templates: Vec::new(),
            scenarios: Vec::new(),
            remove: Vec::new(),
        }
    }

    /// The form of a request body; `template`, `scenario` and `remove` repeat.
    pub fn parse(body: &[u8]) -> EstateForm {
        let mut one = Vec::new();
        let (mut templates, mut scenarios, mut remove) = (Vec::new(), Vec::new(), Vec::new());
        for (k, v) in form_urlencoded::parse(body) {
            match k.as_ref() {
                "template" => templates.push(v.into_owned()),
                "scenario" => scenarios.push(v.into_owned()),
                "remove" => remove.extend(v.parse::<usize>().ok()),
                _ => one.push((k.into_owned(), v.into_owned())),
            }
        }
        EstateForm {
            state: FormState::of_values(one),
            templates,
            scenarios,
            remove,
        }
    }

    /// Whether the form has a message for any input.
    pub fn has_errors(&self) -> bool {
        self.state.has_errors()
    }

    /// The templates to choose from, those sent ticked.
    pub fn templates(&self) -> Vec<Choice> {
        TEMPLATES
            .iter()
            .map(|t| Choice {
                value: t.key.to_owned(),
                name: t.name.to_owned(),
                private: false,
                checked: self.templates.iter().any(|k| k == t.key),
            })
            .collect()
    }

    /// The saved scenarios the user sees, those sent ticked.
    pub async fn saved(
        &self,
        st: &AppState,
        user: &CurrentUser,
    ) -> Result<Vec<Choice>, crate::store::StoreError> {
        Ok(
            crate::store::list_scenarios_for(&st.db, None, access::actor(user))
                .await?
                .into_iter()
                .map(|s| Choice {
                    value: s.id.to_string(),
                    private: s.visibility == Visibility::Private.key(),
                    checked: self.scenarios.contains(&s.id.to_string()),
                    name: s.name,
                })
                .collect(),
        )
    }

    /// Applies the settings to `req`; a setting the form does not send keeps `req`'s.
    /// A value that does not read gets its message and leaves `req`'s in place, so
    /// that the request's checks report the others.
    pub fn read_settings(&mut self, req: &mut EstateRequest) {
        let shown = EstateForm::of_request(req).state;
        for name in INPUTS {
            self.state.default_value(name, shown.value(name));
        }
        let f = &mut self.state;
        let name = f.value("name").trim();
        req.name = (!name.is_empty()).then(|| name.to_owned());
        let region = f.value("region").trim();
        req.region = (!region.is_empty()).then(|| {
            crate::engine::pricing::region_key(region)
                .map_or(region, |k| k)
                .to_owned()
        });
        if f.value("years").trim().is_empty() {
            f.add_error("years", "enter a whole number of years, 1 to 5");
        } else if let Some(y) = f.whole("years") {
            req.years = y;
        }
        req.growth_pct_per_year = f.number("growth_pct_per_year").unwrap_or(0.0);
        req.migration_threshold_usd_month = f
            .number("migration_threshold_usd_month")
            .unwrap_or(crate::estate::DEFAULT_MIGRATION_THRESHOLD_USD_MONTH);
        req.min_dwell_months = f
            .whole("min_dwell_months")
            .unwrap_or(crate::estate::DEFAULT_MIN_DWELL_MONTHS);
        let currency = f.value("pricing.currency").trim().to_ascii_uppercase();
        req.pricing = (!currency.is_empty() && currency != "USD")
            .then_some(crate::estate::EstatePricing { currency });
        let term = f.value("reservation").trim();
        match term {
            "none" | "" => req.reservation = Term::None,
            "1y" => req.reservation = Term::OneYear,
            "3y" => req.reservation = Term::ThreeYears,
            other => {
                let message =
                    format!("\"{other}\" is not none, 1y or 3y: choose one of the options");
                f.add_error("reservation", message);
            }
        }
    }

    /// Removes the workloads ticked for removal and adds those chosen. Whether a
    /// private scenario's inputs were added, which only an estate of the scenario's
    /// owner (`estate_owner`) may take, whoever adds it; a choice that cannot be added
    /// gets its message beside its list.
    pub async fn apply_workloads(
        &mut self,
        st: &AppState,
        user: &CurrentUser,
        req: &mut EstateRequest,
        estate_owner: Option<&str>,
    ) -> bool {
        let mut keep = Vec::with_capacity(req.workloads.len());
        for (i, w) in req.workloads.drain(..).enumerate() {
            if !self.remove.contains(&i) {
                keep.push(w);
            }
        }
        req.workloads = keep;
        // Per-workload growth and what-ifs name workloads by index: drop them on removal.
        if !self.remove.is_empty() {
            req.growth.clear();
            req.what_if.clear();
        }
        for key in &self.templates {
            match crate::web::scenario_templates::find(key) {
                Some(t) => req.workloads.push(t.scenario()),
                None => self
                    .state
                    .add_error("template", format!("there is no template `{}`", short(key))),
            }
        }
        let mut took_private = false;
        for raw in self.scenarios.clone() {
            match self.scenario(st, user, &raw, estate_owner).await {
                Ok((w, private)) => {
                    took_private |= private;
                    req.workloads.push(w);
                }
                Err(m) => self.state.add_error("scenario", m),
            }
        }
        took_private
    }

    /// Saved scenario `raw` as a workload, and whether it is private.
    async fn scenario(
        &self,
        st: &AppState,
        user: &CurrentUser,
        raw: &str,
        estate_owner: Option<&str>,
    ) -> Result<(Scenario, bool), String> {
        let id: i64 = raw
            .parse()
            .map_err(|_| format!("`{}` is not a scenario id", short(raw)))?;
        let missing = |_| format!("there is no saved scenario {id}");
        let ownership = access::scenario(&st.db, user, id).await.map_err(missing)?;
        let s = crate::store::get_scenario(&st.db, id)
            .await
            .map_err(missing)?;
        let private = ownership.visibility == Visibility::Private;
        let owner = ownership.owner.as_deref();
        if private && !crate::store::estates::may_hold_private(owner, estate_owner) {
            return Err(format!(
                "“{}” is private: only estates of its owner{} may hold it (they become \
                 private); add it to one of theirs, or have it made shared",
                s.scenario.name,
                owner.map_or(String::new(), |o| format!(" ({o})"))
            ));
        }
        let mut w: Scenario = s.scenario;
        w.id = None;
        Ok((w, private))
    }

    /// Puts the request's errors beside the inputs they name: the settings', and the
    /// workloads' beside the template list (named by workload). The others, which no
    /// input of the form sets, come back as one sentence for the top of the page.
    pub fn place_errors(&mut self, errors: &FieldErrors, req: &EstateRequest) -> Option<String> {
        let mut rest = Vec::new();
        for e in errors.iter() {
            let field = e.field.as_str();
            if INPUTS.contains(&field) || field == "workloads" {
                self.state.add_error(field, e.message.clone());
            } else if let Some((i, input)) = workload_of(field)
                && let Some(w) = req.workloads.get(i)
            {
                let message = format!("“{}”, {}: {}", w.name, field_label(input), e.message);
                self.state.add_error("workloads", message);
            } else {
                rest.push(e.to_string());
            }
        }
        (!rest.is_empty()).then(|| format!("{}.", rest.join("; ")))
    }
}

/// `workloads[3].storage.level` -> (3, `storage.level`).
fn workload_of(field: &str) -> Option<(usize, &str)> {
    let rest = field.strip_prefix("workloads[")?;
    let end = rest.find(']')?;
    let input = rest[end + 1..].trim_start_matches('.');
    Some((rest[..end].parse().ok()?, input))
}

/// A value cut for a message.
fn short(v: &str) -> String {
    v.chars().take(40).collect()
}
