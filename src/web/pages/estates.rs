//! Estate pages: the list with a "new estate" form (workloads from templates and
//! saved scenarios), one estate's plan (pools, allocation, fit, timeline, resize
//! schedule) with its edit form and revision history, two revisions side by side, and
//! the report downloads. Planning is the engine's; the store keeps every revision.

use super::planner::OwnershipView;
use super::{PageError, parse_id, render};
use crate::engine::Scenario;
use crate::engine::scenario::Term;
use crate::estate::{self, EstatePlan, EstateRequest};
use crate::format::money;
use crate::report::estate as report;
use crate::report::{Edition, Format, RenderOptions};
use crate::store::Revision;
use crate::store::Visibility;
use crate::store::estates::{self as store, EstateSummary, VisibilityChange};
use crate::store::today_utc;
use crate::web::AppState;
use crate::web::access;
use crate::web::auth::CurrentUser;
use crate::web::render_pool::Turn;
use crate::web::scenario_templates::TEMPLATES;
use askama::Template;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use std::collections::HashMap;

/// One checkbox of the workload chooser.
pub struct Choice {
    pub value: String,
    pub name: String,
    /// A private scenario: adding it makes the estate private.
    pub private: bool,
}

#[derive(Template)]
#[template(path = "pages/estates.html")]
struct ListPage {
    estates: Vec<EstateSummary>,
    /// Team mode: the form offers a visibility and the list names owners.
    team: bool,
    request_name: Option<String>,
    region_value: String,
    years_value: u32,
    growth_value: f64,
    reservation_value: &'static str,
    templates: Vec<Choice>,
    saved: Vec<Choice>,
    problem: Option<String>,
}

#[derive(Template)]
#[template(path = "pages/estate.html")]
struct EstatePage {
    id: i64,
    request_name: Option<String>,
    request_name_or: String,
    region_value: String,
    years_value: u32,
    growth_value: f64,
    reservation_value: &'static str,
    revision: i64,
    newest: i64,
    request: EstateRequest,
    plan: Option<EstatePlan>,
    /// The plan's verdict: pools within the account's limit, what the totals leave out,
    /// the re-plans and resizes.
    verdict: Vec<String>,
    chart: String,
    body: String,
    revisions: Vec<Revision>,
    templates: Vec<Choice>,
    saved: Vec<Choice>,
    problem: Option<String>,
    /// Who owns it and who sees it (team mode).
    ownership: Option<OwnershipView>,
}

#[derive(Template)]
#[template(path = "pages/estate_compare.html")]
struct ComparePage {
    id: i64,
    name: String,
    a: i64,
    b: i64,
    rows: Vec<(String, String, String)>,
}

async fn choices(
    st: &AppState,
    user: &CurrentUser,
) -> Result<(Vec<Choice>, Vec<Choice>), PageError> {
    let templates = TEMPLATES
        .iter()
        .map(|t| Choice {
            value: t.key.to_owned(),
            name: t.name.to_owned(),
            private: false,
        })
        .collect();
    let saved = crate::store::list_scenarios_for(&st.db, None, access::actor(user))
        .await?
        .into_iter()
        .map(|s| Choice {
            value: s.id.to_string(),
            private: s.visibility == Visibility::Private.key(),
            name: s.name,
        })
        .collect();
    Ok((templates, saved))
}

/// `GET /estates`.
pub async fn list(State(st): State<AppState>, user: CurrentUser) -> Result<Response, PageError> {
    list_with(&st, &user, None, StatusCode::OK).await
}

async fn list_with(
    st: &AppState,
    user: &CurrentUser,
    problem: Option<String>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let (templates, saved) = choices(st, user).await?;
    render(
        status,
        &ListPage {
            estates: store::list_estates(&st.db, access::actor(user)).await?,
            team: user.0.is_some(),
            request_name: None,
            region_value: String::new(),
            years_value: 3,
            growth_value: 0.0,
            reservation_value: Term::None.key(),
            templates,
            saved,
            problem,
        },
    )
}

/// The form's fields; `template` and `scenario` and `remove` repeat.
struct EstateForm {
    one: HashMap<String, String>,
    templates: Vec<String>,
    scenarios: Vec<String>,
    remove: Vec<usize>,
}

fn parse_form(body: &[u8]) -> EstateForm {
    let mut f = EstateForm {
        one: HashMap::new(),
        templates: Vec::new(),
        scenarios: Vec::new(),
        remove: Vec::new(),
    };
    for (k, v) in form_urlencoded::parse(body) {
        match k.as_ref() {
            "template" => f.templates.push(v.into_owned()),
            "scenario" => f.scenarios.push(v.into_owned()),
            "remove" => f.remove.extend(v.parse::<usize>().ok()),
            _ => {
                f.one.insert(k.into_owned(), v.into_owned());
            }
        }
    }
    f
}

/// Applies the form to `req`: settings, workloads removed, workloads added. Whether a
/// private scenario's inputs were added, which only one who may put them in this
/// estate (`may_take_private`: its owner) may do.
async fn apply(
    st: &AppState,
    user: &CurrentUser,
    f: &EstateForm,
    req: &mut EstateRequest,
    may_take_private: bool,
) -> Result<bool, String> {
    let text = |k: &str| f.one.get(k).map(|v| v.trim().to_owned());
    if let Some(n) = text("name") {
        req.name = (!n.is_empty()).then_some(n);
    }
    if let Some(r) = text("region") {
        req.region = (!r.is_empty()).then_some(r);
    }
    if let Some(y) = text("years") {
        req.years = y
            .parse()
            .map_err(|_| format!("years: `{y}` is not a whole number from 1 to 5"))?;
    }
    if let Some(g) = text("growth_pct_per_year") {
        req.growth_pct_per_year = if g.is_empty() {
            0.0
        } else {
            g.parse()
                .map_err(|_| format!("growth: `{g}` is not a number of % per year"))?
        };
    }
    if let Some(t) = text("reservation") {
        req.reservation = match t.as_str() {
            "none" | "" => Term::None,
            "1y" => Term::OneYear,
            "3y" => Term::ThreeYears,
            other => return Err(format!("reservation: `{other}` is not none, 1y or 3y")),
        };
    }
    let mut keep = Vec::with_capacity(req.workloads.len());
    for (i, w) in req.workloads.drain(..).enumerate() {
        if !f.remove.contains(&i) {
            keep.push(w);
        }
    }
    req.workloads = keep;
    // Per-workload growth and what-ifs name workloads by index: drop them on removal.
    if !f.remove.is_empty() {
        req.growth.clear();
        req.what_if.clear();
    }
    for key in &f.templates {
        let t = crate::web::scenario_templates::find(key)
            .ok_or_else(|| format!("there is no template `{key}`"))?;
        req.workloads.push(t.scenario());
    }
    let mut took_private = false;
    for raw in &f.scenarios {
        let id: i64 = raw
            .parse()
            .map_err(|_| format!("`{}` is not a scenario id", short(raw)))?;
        let missing = |_| format!("there is no saved scenario {id}");
        let ownership = access::scenario(&st.db, user, id).await.map_err(missing)?;
        let s = crate::store::get_scenario(&st.db, id)
            .await
            .map_err(missing)?;
        if ownership.visibility == Visibility::Private {
            if !may_take_private {
                return Err(format!(
                    "“{}” is private: only its owner's own estates may hold it (they become \
                     private); add it to an estate of yours, or make the scenario shared",
                    s.scenario.name
                ));
            }
            took_private = true;
        }
        let mut w: Scenario = s.scenario;
        w.id = None;
        req.workloads.push(w);
    }
    Ok(took_private)
}

/// A value cut for a message.
fn short(v: &str) -> String {
    v.chars().take(40).collect()
}

/// Plans the request with the book in force, on a blocking thread.
async fn plan(st: &AppState, req: &EstateRequest) -> Result<EstatePlan, String> {
    let book = st.book();
    let req = req.clone();
    tokio::task::spawn_blocking(move || estate::optimize(&req, &book))
        .await
        .map_err(|e| format!("planning failed: {e}"))?
        .map_err(|e| e.to_string())
}

/// `POST /estates`: a new estate from the chosen workloads.
pub async fn create(
    State(st): State<AppState>,
    user: CurrentUser,
    body: Bytes,
) -> Result<Response, PageError> {
    let f = parse_form(&body);
    let mut req = EstateRequest::new(Vec::new());
    // The new estate's owner is the user: it may take the user's private scenarios.
    let checked = match apply(&st, &user, &f, &mut req, true).await {
        Ok(private) => plan(&st, &req).await.map(|_| private),
        Err(e) => Err(e),
    };
    let took_private = match checked {
        Ok(private) => private,
        Err(e) => {
            let msg = format!("{e}. Nothing was saved.");
            return list_with(&st, &user, Some(msg), StatusCode::UNPROCESSABLE_ENTITY).await;
        }
    };
    let visibility = Visibility::of_key(f.one.get("visibility").map_or("", String::as_str));
    let by = access::actor(&user);
    let id = store::create_estate(&st.db, &req, by, visibility, took_private).await?;
    Ok(Redirect::to(&format!("/estates/{id}")).into_response())
}

/// `GET /estates/{id}?rev=N`.
pub async fn show(
    State(st): State<AppState>,
    user: CurrentUser,
    Path(raw): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Response, PageError> {
    let id = parse_id(&raw)?;
    let (rev, req, newest) = revision(&st, &user, id, q.get("rev")).await?;
    let at = Shown {
        id,
        revision: rev,
        newest,
    };
    page(&st, &user, at, req, None, StatusCode::OK).await
}

async fn revision(
    st: &AppState,
    user: &CurrentUser,
    id: i64,
    rev: Option<&String>,
) -> Result<(i64, EstateRequest, i64), PageError> {
    let by = access::actor(user);
    let stored = store::get_estate(&st.db, id, by).await.map_err(not_found)?;
    match rev.and_then(|r| r.parse::<i64>().ok()) {
        Some(n) if n != stored.revision => {
            let req = store::get_estate_revision(&st.db, id, n, by)
                .await
                .map_err(not_found)?;
            Ok((n, req, stored.revision))
        }
        _ => Ok((stored.revision, stored.request, stored.revision)),
    }
}

fn not_found(e: crate::store::StoreError) -> PageError {
    match e {
        crate::store::StoreError::NotFound => {
            PageError::NotFound("There is no saved estate (or revision) with this id.".into())
        }
        other => PageError::Internal(other.to_string()),
    }
}

/// Which estate revision a page shows, and the newest one.
struct Shown {
    id: i64,
    revision: i64,
    newest: i64,
}

async fn page(
    st: &AppState,
    user: &CurrentUser,
    Shown {
        id,
        revision,
        newest,
    }: Shown,
    request: EstateRequest,
    problem: Option<String>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let (plan, problem) = match plan(st, &request).await {
        Ok(p) => (Some(p), problem),
        Err(e) => (None, Some(problem.unwrap_or(e))),
    };
    let (chart, body) = match &plan {
        Some(p) => {
            let drawn = p.clone();
            let chart = st
                .renders
                .run("estate chart", Turn::Extra, move || {
                    report::page_chart(&drawn)
                })
                .await;
            // Busy, slow or failed: the page shows its tables without the chart.
            let chart = match chart {
                Ok(Ok(svg)) => svg,
                Ok(Err(e)) => {
                    tracing::error!("estate chart failed: {e}");
                    String::new()
                }
                Err(e) => {
                    tracing::warn!("estate page without its chart: {e}");
                    String::new()
                }
            };
            let sections = report::page_sections(p, &today_utc()).unwrap_or_else(|e| {
                tracing::error!(error = %e, "estate page sections failed");
                String::new()
            });
            (chart, sections)
        }
        None => (String::new(), String::new()),
    };
    let verdict = plan
        .as_ref()
        .map(|p| crate::verdict::estate::verdict(p, &request).statements)
        .unwrap_or_default();
    let (templates, saved) = choices(st, user).await?;
    let by = access::actor(user);
    let ownership = store::visible_estate(&st.db, id, by)
        .await
        .map_err(not_found)?
        .ownership;
    let region = request.region.clone().unwrap_or_default();
    render(
        status,
        &EstatePage {
            id,
            request_name: request.name.clone(),
            request_name_or: request.display_name(),
            region_value: region.clone(),
            years_value: request.years,
            growth_value: request.growth_pct_per_year,
            reservation_value: request.reservation.key(),
            revision,
            newest,
            request,
            plan,
            verdict,
            chart,
            body,
            revisions: store::list_estate_revisions(&st.db, id, by)
                .await
                .map_err(not_found)?,
            templates,
            saved,
            problem,
            ownership: user
                .0
                .is_some()
                .then(|| OwnershipView::of(&ownership, user)),
        },
    )
}

/// `POST /estates/{id}`: the edit form saved as a new revision.
pub async fn save(
    State(st): State<AppState>,
    user: CurrentUser,
    Path(raw): Path<String>,
    body: Bytes,
) -> Result<Response, PageError> {
    let id = parse_id(&raw)?;
    let by = access::actor(&user);
    let stored = store::get_estate(&st.db, id, by).await.map_err(not_found)?;
    let may_take_private = store::visible_estate(&st.db, id, by)
        .await
        .map_err(not_found)?
        .may_take_private(by);
    let f = parse_form(&body);
    let mut req = stored.request.clone();
    let checked = match apply(&st, &user, &f, &mut req, may_take_private).await {
        Ok(private) => plan(&st, &req).await.map(|_| private),
        Err(e) => Err(e),
    };
    let took_private = match checked {
        Ok(private) => private,
        Err(e) => {
            let msg = format!("{e}. Nothing was saved.");
            let at = Shown {
                id,
                revision: stored.revision,
                newest: stored.revision,
            };
            return page(
                &st,
                &user,
                at,
                stored.request,
                Some(msg),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
    };
    store::update_estate(&st.db, id, &req, by, took_private)
        .await
        .map_err(not_found)?;
    Ok(Redirect::to(&format!("/estates/{id}")).into_response())
}

/// `GET /estates/{id}/report.{ext}?rev=N`.
pub async fn download(
    State(st): State<AppState>,
    user: CurrentUser,
    Path((raw, file)): Path<(String, String)>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Response, PageError> {
    let id = parse_id(&raw)?;
    let format = file
        .strip_prefix("report.")
        .and_then(Format::from_ext)
        .ok_or_else(|| {
            PageError::NotFound(
                "Estate reports are report.html, .md, .pdf, .csv, .xlsx or .json.".into(),
            )
        })?;
    let edition = Edition::parse(q.get("edition").map_or("", String::as_str))
        .map_err(|e| PageError::BadRequest(format!("The {e}.")))?;
    let (_, req, _) = revision(&st, &user, id, q.get("rev")).await?;
    let p = plan(&st, &req).await.map_err(PageError::BadRequest)?;
    let opts = RenderOptions {
        edition,
        ..RenderOptions::default()
    };
    let bytes = st
        .renders
        .run("estate report", Turn::Answer, move || {
            report::render(&p, format, opts, &today_utc())
        })
        .await?
        .map_err(|e| PageError::Internal(e.to_string()))?;
    let name = format!("attachment; filename=\"estate-{id}.{}\"", &file[7..]);
    Ok((
        [
            (header::CONTENT_TYPE, format.content_type().to_owned()),
            (header::CONTENT_DISPOSITION, name),
        ],
        bytes,
    )
        .into_response())
}

/// `GET /estates/{id}/compare?a=N&b=M`: two revisions side by side.
pub async fn compare(
    State(st): State<AppState>,
    user: CurrentUser,
    Path(raw): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Response, PageError> {
    let id = parse_id(&raw)?;
    let by = access::actor(&user);
    let stored = store::get_estate(&st.db, id, by).await.map_err(not_found)?;
    let n = |k: &str| q.get(k).and_then(|v| v.parse::<i64>().ok());
    let b = n("b").unwrap_or(stored.revision);
    let a = n("a").unwrap_or((b - 1).max(1));
    let ra = store::get_estate_revision(&st.db, id, a, by)
        .await
        .map_err(not_found)?;
    let rb = store::get_estate_revision(&st.db, id, b, by)
        .await
        .map_err(not_found)?;
    let pa = plan(&st, &ra).await.map_err(PageError::BadRequest)?;
    let pb = plan(&st, &rb).await.map_err(PageError::BadRequest)?;
    let row = |label: &str, f: &dyn Fn(&EstatePlan) -> String| (label.to_owned(), f(&pa), f(&pb));
    let mut rows = vec![
        row("Workloads", &|p| p.assignments.len().to_string()),
        row("Pools", &|p| p.pools.len().to_string()),
        row("Pool TiB", &|p| {
            p.pools.iter().map(|x| x.size_tib).sum::<f64>().to_string()
        }),
        row("First month", &|p| money(p.monthly, p.currency)),
        row("Total", &|p| money(p.total, p.currency)),
        row("Events in the resize schedule", &|p| {
            p.events.len().to_string()
        }),
    ];
    for y in 0..pa.cost_by_year.len().max(pb.cost_by_year.len()) {
        let cell = |p: &EstatePlan| {
            p.cost_by_year
                .get(y)
                .map_or("-".to_owned(), |c| money(*c, p.currency))
        };
        rows.push((format!("Year {}", y + 1), cell(&pa), cell(&pb)));
    }
    render(
        StatusCode::OK,
        &ComparePage {
            id,
            name: pb.name.clone(),
            a,
            b,
            rows,
        },
    )
}

/// `POST /estates/{id}/visibility`: the owner (or an admin) chooses who sees the estate.
pub async fn set_visibility(
    State(st): State<AppState>,
    user: CurrentUser,
    Path(raw): Path<String>,
    body: Bytes,
) -> Result<Response, PageError> {
    let id = parse_id(&raw)?;
    let f = parse_form(&body);
    let visibility = match f.one.get("visibility").map(String::as_str) {
        Some(v @ ("shared" | "private")) => Visibility::of_key(v),
        _ => {
            return Err(PageError::BadRequest(
                "Choose who sees the estate: shared or private.".into(),
            ));
        }
    };
    match store::set_estate_visibility(&st.db, id, visibility, access::actor(&user))
        .await
        .map_err(not_found)?
    {
        VisibilityChange::Done(_) => Ok(Redirect::to(&format!("/estates/{id}")).into_response()),
        VisibilityChange::NotAllowed => Err(PageError::Status {
            status: StatusCode::FORBIDDEN,
            message: "Only the estate's owner or an admin may change who sees it.".into(),
        }),
        VisibilityChange::HoldsPrivate => Err(PageError::Status {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: "This estate holds the inputs of a private scenario, so it stays \
                      private; build a new estate from shared scenarios to share one."
                .into(),
        }),
    }
}
