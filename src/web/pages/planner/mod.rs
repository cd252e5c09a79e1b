//! The planner: a scenario's inputs on the left, its results on the right.
//!
//! With JavaScript, `static/js/planner.js` posts the form to `/scenarios/results` as
//! the user types and swaps in the rendered results. Without it, the form posts to
//! `/scenarios/evaluate` and the whole page is rendered again; both paths share
//! [`form::parse`] and [`assess`].

use super::form::{self, FormState};
use super::history::{HistoryRow, you_or};
use super::view::{ErrorItem, ResultsView};
use super::{PageError, parse_id, render};
use crate::engine::evaluation::CalibrationNote;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{Level, Scenario, Service};
use crate::engine::{self, FieldError};
use crate::measure::calibrate;
use crate::store::calibrations;
use crate::store::{self, Ownership, Visibility};
use crate::web::access::{self, actor};
use crate::web::auth::CurrentUser;
use crate::web::charts::{MeasuredRuns, planner_charts};
use crate::web::render_pool::RenderPool;
use crate::web::scenario_templates;
use crate::web::share;
use crate::web::state::AppState;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;
use std::sync::{Arc, LazyLock};

mod download;
mod live;
mod saving;

pub use download::{download_form, download_saved};
pub use live::results;
pub use saving::{restore, save, save_copy, save_new, set_visibility};

/// A service with its levels, for the selects.
pub struct ServiceOpt {
    pub key: &'static str,
    pub label: &'static str,
    pub levels: Vec<LevelOpt>,
}

pub struct LevelOpt {
    pub key: &'static str,
    pub label: &'static str,
}

static SERVICES: LazyLock<Vec<ServiceOpt>> = LazyLock::new(|| {
    [Service::Anf, Service::AzureFiles, Service::Gcnv]
        .into_iter()
        .map(|s| ServiceOpt {
            key: s.key(),
            label: s.display(),
            levels: Level::of(s)
                .iter()
                .map(|l| LevelOpt {
                    key: l.key(),
                    label: l.display(s),
                })
                .collect(),
        })
        .collect()
});

/// Catalog VM sizes as the vendors write them, for the VM size datalist.
static VM_SIZES: LazyLock<Vec<String>> = LazyLock::new(|| {
    engine::catalog::vm_sizes()
        .iter()
        .map(|v| v.display_name())
        .collect()
});

/// AVS host SKUs of the catalog, for the host type datalist.
static AVS_HOSTS: LazyLock<Vec<String>> = LazyLock::new(|| {
    engine::catalog::catalog()
        .services
        .avs_hosts
        .iter()
        .map(|h| h.sku.clone())
        .collect()
});

/// The price book's ANF regions (`armRegionName`, display name), for the region
/// datalist; the book in force holds the same regions as the compiled one.
static REGIONS: LazyLock<Vec<(&'static str, &'static str)>> = LazyLock::new(|| {
    engine::pricing::book()
        .anf
        .iter()
        .map(|(key, p)| (key.as_str(), p.name.as_str()))
        .collect()
});

#[derive(Template)]
#[template(path = "pages/planner.html")]
struct PlannerPage {
    form: FormState,
    r: ResultsView,
    id: Option<i64>,
    status: String,
    /// See [`Context::edited`].
    edited: bool,
    save_action: String,
    revisions: Vec<HistoryRow>,
    current_revision: i64,
    /// Someone is signed in (team mode): the history names who saved each revision
    /// and the page offers who sees the scenario.
    show_authors: bool,
    /// Who owns the saved scenario and who sees it (`None` while unsaved).
    ownership: Option<OwnershipView>,
    services: &'static [ServiceOpt],
    vm_sizes: &'static [String],
    avs_hosts: &'static [String],
    regions: &'static [(&'static str, &'static str)],
    /// The currencies of the book in force (and the scenario's own), for `pricing.currency`.
    currencies: Vec<String>,
    /// The Download menu's report formats: (extension, label).
    report_links: &'static [(&'static str, &'static str)],
}

/// The report formats the Download menu offers, in its order.
const REPORT_LINKS: [(&str, &str); 6] = [
    ("pdf", "Report (PDF)"),
    ("html", "Report (HTML)"),
    ("xlsx", "Report (Excel)"),
    ("md", "Report (Markdown)"),
    ("csv", "Report (CSV)"),
    ("json", "Report (JSON)"),
];

#[derive(Template)]
#[template(path = "components/results.html")]
struct ResultsFragment {
    r: ResultsView,
}

/// Evaluates a parsed form with the book in force (and the saved scenario's
/// calibration to its own measurements, if it has one): figures with their charts
/// (drawn in the render pool), or the reasons there are none (recorded on the form).
async fn assess(
    renders: &RenderPool,
    form: &mut FormState,
    scenario: Option<&Scenario>,
    id: Option<i64>,
    measured: &MeasuredRuns,
    calibration: Option<&CalibrationNote>,
    prices: &Arc<PriceBook>,
) -> ResultsView {
    match scenario {
        Some(s) => {
            let mut s = s.clone();
            s.id = id;
            let url = share::link(&s);
            match calibrate::evaluate(&s, prices, calibration) {
                Ok(ev) => {
                    form.add_warnings(&ev.advice);
                    let v = crate::verdict::evaluation(&s, &ev, prices);
                    let charts = planner_charts(
                        renders,
                        s.clone(),
                        ev.clone(),
                        prices.clone(),
                        measured.clone(),
                    )
                    .await;
                    ResultsView::evaluated(&s, &ev, &v, url, charts)
                }
                Err(e) => {
                    form.add_field_errors(&e);
                    ResultsView::refused(&e, url, id)
                }
            }
        }
        None => {
            let errors = form
                .errors()
                .iter()
                .map(|(f, m)| ErrorItem::new(f, m))
                .collect();
            ResultsView::invalid(errors, String::new(), id)
        }
    }
}

/// The owner and visibility as the planner and the estate page show them.
pub struct OwnershipView {
    /// "you", the owner's name, or empty (created in single-user mode).
    pub owner: String,
    pub private: bool,
    /// Whether the user may change the visibility (the owner or an admin).
    pub may_change: bool,
}

impl OwnershipView {
    pub(super) fn of(o: &Ownership, user: &CurrentUser) -> OwnershipView {
        OwnershipView {
            owner: you_or(o.owner.as_deref(), user),
            private: o.visibility == Visibility::Private,
            may_change: o.may_change_visibility(actor(user)),
        }
    }
}

/// What the planner page needs besides the form.
struct Context {
    id: Option<i64>,
    status: String,
    /// The form holds inputs that are not saved (a recalculation or an applied
    /// recommendation posted without saving, or inputs from a link): the page marks
    /// them unsaved and asks before leaving.
    edited: bool,
    revisions: Vec<HistoryRow>,
    current_revision: i64,
    show_authors: bool,
    ownership: Option<OwnershipView>,
    /// The saved scenario's measured runs, drawn on the inline charts.
    measured: MeasuredRuns,
    /// The saved scenario's calibration to those runs, if any.
    calibration: Option<CalibrationNote>,
    /// The price book in force.
    prices: Arc<PriceBook>,
}

impl Context {
    /// A page not yet saved; `user` decides whether it offers a visibility (team mode).
    fn unsaved(st: &AppState, user: &CurrentUser, status: impl Into<String>) -> Self {
        Self {
            id: None,
            status: status.into(),
            edited: false,
            revisions: Vec::new(),
            current_revision: 0,
            show_authors: user.0.is_some(),
            ownership: None,
            measured: MeasuredRuns::default(),
            calibration: None,
            prices: st.book(),
        }
    }
}

async fn page(
    renders: &RenderPool,
    mut form: FormState,
    scenario: Option<&Scenario>,
    ctx: Context,
) -> PlannerPage {
    let r = assess(
        renders,
        &mut form,
        scenario,
        ctx.id,
        &ctx.measured,
        ctx.calibration.as_ref(),
        &ctx.prices,
    )
    .await;
    let currencies = ctx.prices.currency_options(form.value("pricing.currency"));
    PlannerPage {
        currencies,
        form,
        r,
        save_action: match ctx.id {
            Some(id) => format!("/scenarios/{id}"),
            None => "/scenarios".into(),
        },
        id: ctx.id,
        status: ctx.status,
        edited: ctx.edited,
        revisions: ctx.revisions,
        current_revision: ctx.current_revision,
        show_authors: ctx.show_authors,
        ownership: ctx.ownership,
        services: &SERVICES,
        vm_sizes: &VM_SIZES,
        avs_hosts: &AVS_HOSTS,
        regions: &REGIONS,
        report_links: &REPORT_LINKS,
    }
}

/// A store error on revision `n` of scenario `id` as the page says it: a missing
/// revision is a 404 that names it.
fn no_revision(id: i64, n: i64) -> impl FnOnce(store::StoreError) -> PageError {
    move |e| match e {
        store::StoreError::NotFound => {
            PageError::NotFound(format!("Scenario {id} has no revision {n}."))
        }
        other => other.into(),
    }
}

#[derive(Deserialize)]
pub struct NewQuery {
    template: Option<String>,
}

/// `GET /scenarios/new[?template=KEY]`.
pub async fn new(
    State(st): State<AppState>,
    user: CurrentUser,
    Query(q): Query<NewQuery>,
) -> Result<Response, PageError> {
    let (scenario, status) = match q.template.as_deref().filter(|t| !t.is_empty()) {
        Some(key) => {
            let t = scenario_templates::find(key).ok_or_else(|| {
                PageError::NotFound(format!(
                    "There is no template \"{key}\". Pick one from the list on the home page."
                ))
            })?;
            (
                t.scenario(),
                format!("New from the template “{}”: not saved yet.", t.name),
            )
        }
        None => (form::blank(), "New scenario: not saved yet.".to_owned()),
    };
    let form = FormState::from_scenario(&scenario);
    render(
        StatusCode::OK,
        &page(
            &st.renders,
            form,
            Some(&scenario),
            Context::unsaved(&st, &user, status),
        )
        .await,
    )
}

#[derive(Deserialize)]
pub struct ShowQuery {
    /// Show this revision instead of the newest.
    rev: Option<i64>,
    /// Just saved as this revision.
    saved: Option<i64>,
    /// Just restored from this revision.
    restored: Option<i64>,
    /// Just imported.
    imported: Option<u8>,
    /// Just changed who sees it.
    visibility: Option<u8>,
    /// Inputs to show instead of the saved ones, as an unsaved edit (a share link's
    /// `s`, e.g. from the layouts page's "Use this layout").
    s: Option<String>,
}

async fn saved_context(
    st: &AppState,
    user: &CurrentUser,
    id: i64,
    current_revision: i64,
    status: String,
) -> Result<Context, PageError> {
    let ownership = access::scenario(&st.db, user, id).await?;
    let revisions = super::history::rows(st, user, id).await?;
    Ok(Context {
        id: Some(id),
        status,
        edited: false,
        revisions,
        current_revision,
        show_authors: user.0.is_some(),
        ownership: Some(OwnershipView::of(&ownership, user)),
        measured: measured_for(st, user, Some(id)).await?,
        calibration: calibration_for(st, user, Some(id)).await?,
        prices: st.book(),
    })
}

/// The measured runs stored with a saved scenario (none for an unsaved one, one
/// deleted meanwhile, or one the user may not see).
async fn measured_for(
    st: &AppState,
    user: &CurrentUser,
    id: Option<i64>,
) -> Result<MeasuredRuns, PageError> {
    match id {
        Some(id) => match access::scenario(&st.db, user, id).await {
            Ok(_) => Ok(MeasuredRuns::of(&st.db, id).await?),
            Err(store::StoreError::NotFound) => Ok(MeasuredRuns::default()),
            Err(e) => Err(e.into()),
        },
        None => Ok(MeasuredRuns::default()),
    }
}

/// The calibration stored with a saved scenario (none for an unsaved one, one deleted
/// meanwhile, or one the user may not see).
async fn calibration_for(
    st: &AppState,
    user: &CurrentUser,
    id: Option<i64>,
) -> Result<Option<CalibrationNote>, PageError> {
    let Some(id) = id else { return Ok(None) };
    match access::scenario(&st.db, user, id).await {
        Ok(_) => Ok(calibrations::get_calibration(&st.db, id).await?),
        Err(store::StoreError::NotFound) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// `GET /scenarios/{id}[?rev=N]`.
pub async fn show(
    State(st): State<AppState>,
    user: CurrentUser,
    Path(raw): Path<String>,
    Query(q): Query<ShowQuery>,
) -> Result<Response, PageError> {
    let id = parse_id(&raw)?;
    let stored = access::stored_scenario(&st.db, &user, id).await?;
    let (scenario, status) = match q.rev.filter(|&n| n != stored.revision) {
        Some(n) => {
            let s = store::get_revision(&st.db, id, n)
                .await
                .map_err(no_revision(id, n))?;
            (
                s,
                format!(
                    "Viewing revision {n} of {}: Save makes it the newest revision.",
                    stored.revision
                ),
            )
        }
        None => {
            let when = &stored.updated_at;
            let status = if let Some(n) = q.restored {
                format!("Restored revision {n} as revision {}.", stored.revision)
            } else if q.imported.is_some() {
                "Imported and saved as revision 1.".to_owned()
            } else if let Some(n) = q.saved {
                format!("Saved as revision {n}.")
            } else if q.visibility.is_some() {
                "Visibility changed.".to_owned()
            } else {
                format!(
                    "Revision {}, saved {} UTC.",
                    stored.revision,
                    super::view::short_time(when)
                )
            };
            (stored.scenario, status)
        }
    };
    if q.s.is_some() {
        let scenario =
            share::decode(q.s.as_deref()).map_err(|e| PageError::BadRequest(e.to_string()))?;
        let status = format!(
            "Revision {}, with the inputs from a link: not saved yet. Save to keep them.",
            stored.revision
        );
        let mut ctx = saved_context(&st, &user, id, stored.revision, status).await?;
        ctx.edited = true;
        return linked(&st, scenario, ctx).await;
    }
    let ctx = saved_context(&st, &user, id, stored.revision, status).await?;
    let form = FormState::from_scenario(&scenario);
    render(
        StatusCode::OK,
        &page(&st.renders, form, Some(&scenario), ctx).await,
    )
}

/// The form of a scenario from outside the form (a link, JSON), its values marked where
/// they fail validation; whether they pass.
fn checked_form(st: &AppState, scenario: &Scenario) -> (FormState, bool) {
    let mut form = FormState::from_scenario(scenario);
    match crate::engine::check(scenario, &st.book()) {
        Ok(()) => (form, true),
        Err(e) => {
            form.add_field_errors(&e);
            (form, false)
        }
    }
}

/// The planner with a scenario from a link.
async fn linked(st: &AppState, scenario: Scenario, ctx: Context) -> Result<Response, PageError> {
    let (form, valid) = checked_form(st, &scenario);
    let valid = valid.then_some(&scenario);
    render(StatusCode::OK, &page(&st.renders, form, valid, ctx).await)
}

#[derive(Deserialize)]
pub struct ShareQuery {
    s: Option<String>,
}

/// `GET /plan?s=...`: a shared scenario, prefilled and not saved.
pub async fn shared(
    State(st): State<AppState>,
    user: CurrentUser,
    Query(q): Query<ShareQuery>,
) -> Result<Response, PageError> {
    let scenario =
        share::decode(q.s.as_deref()).map_err(|e| PageError::BadRequest(e.to_string()))?;
    let ctx = Context::unsaved(
        &st,
        &user,
        "Opened from a share link: not saved. Save to keep a copy.",
    );
    linked(&st, scenario, ctx).await
}

/// Form pairs as posted; every value is a string.
type Pairs = axum::Form<Vec<(String, String)>>;

/// The saved scenario the form belongs to, from its hidden input.
fn form_id(pairs: &[(String, String)]) -> Option<i64> {
    pairs
        .iter()
        .find(|(k, _)| k == "scenario_id")
        .and_then(|(_, v)| v.parse().ok())
}

async fn context_for(
    st: &AppState,
    user: &CurrentUser,
    id: Option<i64>,
    status: &str,
) -> Result<Context, PageError> {
    match id {
        Some(id) => {
            let stored = access::stored_scenario(&st.db, user, id).await?;
            saved_context(st, user, id, stored.revision, status.to_owned()).await
        }
        None => Ok(Context::unsaved(st, user, status)),
    }
}

/// Re-renders the planner from a form that cannot be used as it is (422).
async fn invalid_page(
    st: &AppState,
    user: &CurrentUser,
    form: FormState,
    id: Option<i64>,
    status: &str,
) -> Result<Response, PageError> {
    let mut ctx = context_for(st, user, id, status).await?;
    ctx.edited = true;
    render(
        StatusCode::UNPROCESSABLE_ENTITY,
        &page(&st.renders, form, None, ctx).await,
    )
}

/// `POST /scenarios/evaluate`: the planner without JavaScript.
pub async fn evaluate(
    State(st): State<AppState>,
    user: CurrentUser,
    axum::Form(pairs): Pairs,
) -> Result<Response, PageError> {
    let id = form_id(&pairs);
    let action = |name: &str| pairs.iter().any(|(k, v)| k == "action" && v == name);
    let (mut form, mut scenario) = form::parse(&pairs, &st.book());
    if action("add_group") {
        form.add_group();
    }
    let mut status = if id.is_some() {
        "Recalculated: changes not saved yet."
    } else {
        "Not saved yet."
    };
    // Apply without script: the recommendation filled into the form, not saved.
    if action("apply_recommendation")
        && let Some(s) = scenario.as_mut()
        && let Ok(ev) = engine::evaluate_in(s, &st.book())
        && let Some(r) = crate::verdict::evaluation(s, &ev, &st.book()).recommendation
    {
        r.apply_to(s);
        form = FormState::from_scenario(s);
        status = "Applied the recommendation: not saved yet. Save to keep it.";
    }
    let mut ctx = context_for(&st, &user, id, status).await?;
    ctx.edited = true;
    let code = if scenario.is_some() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    render(code, &page(&st.renders, form, scenario.as_ref(), ctx).await)
}

/// Scenario JSON that failed to parse: the message says where. Syntax errors are
/// reported against the whole text (field `scenario`), data errors against their path.
pub(super) fn describe_json_error(e: serde_path_to_error::Error<serde_json::Error>) -> FieldError {
    let path = e.path().to_string();
    let inner = e.into_inner();
    let syntax = matches!(
        inner.classify(),
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof
    );
    let msg = if syntax {
        format!("{inner}")
    } else {
        let m = inner.to_string();
        m.split(" at line ").next().unwrap_or(&m).to_owned()
    };
    if syntax || path == "." || path.is_empty() {
        FieldError::new("scenario", msg)
    } else {
        FieldError::new(path, msg)
    }
}

#[cfg(test)]
mod tests {
    use super::download::file_name;
    use super::*;

    #[test]
    fn file_names_are_slugs() {
        assert_eq!(file_name("SAP HANA on ANF"), "sap-hana-on-anf.json");
        assert_eq!(file_name("<script>"), "script.json");
        assert_eq!(file_name("   "), "scenario.json");
    }

    #[test]
    fn the_blank_scenario_is_valid() {
        crate::engine::check(&form::blank(), crate::engine::pricing::book()).unwrap();
    }
}
