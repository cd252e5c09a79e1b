//! Estate pages: the list with a "new estate" form (workloads from templates and
//! saved scenarios), one estate's plan (pools, allocation, fit, timeline, resize
//! schedule) with its edit form and revision history, two revisions side by side, and
//! the report downloads. Planning is the engine's; the store keeps every revision; the
//! forms ([`form`]) are the planner's components, each message beside its input.

mod form;

use super::planner::OwnershipView;
use super::{PageError, parse_id, render};
use crate::engine::FieldErrors;
use crate::estate::{self, EstatePlan, EstateRequest};
use crate::format::money;
use crate::report::estate as report;
use crate::report::{Edition, Format, RenderOptions};
use crate::store::Revision;
use crate::store::Visibility;
use crate::store::estates::{self as store, EstateSummary, VisibilityChange};
use crate::store::today_utc;
use crate::web::access;
use crate::web::auth::CurrentUser;
use crate::web::pages::form::FormState;
use crate::web::render_pool::Turn;
use crate::web::state::AppState;
use askama::Template;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use form::{Choice, EstateForm, RESERVATIONS};
use std::collections::HashMap;

#[derive(Template)]
#[template(path = "pages/estates.html")]
struct ListPage {
    estates: Vec<EstateSummary>,
    /// Team mode: the form offers a visibility and the list names owners.
    team: bool,
    /// The new estate's settings as typed, each message beside its input.
    form: FormState,
    regions: Vec<(String, String)>,
    /// The currencies of the book in force (and the estate's), for `pricing.currency`.
    currencies: Vec<String>,
    templates: Vec<Choice>,
    saved: Vec<Choice>,
    problem: Option<String>,
}

impl ListPage {
    fn reservations(&self) -> &'static [(&'static str, &'static str)] {
        &RESERVATIONS
    }
}

#[derive(Template)]
#[template(path = "pages/estate.html")]
struct EstatePage {
    id: i64,
    request_name_or: String,
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
    /// The edit form's settings as typed, each message beside its input.
    form: FormState,
    regions: Vec<(String, String)>,
    /// The currencies of the book in force (and the estate's), for `pricing.currency`.
    currencies: Vec<String>,
    templates: Vec<Choice>,
    saved: Vec<Choice>,
    problem: Option<String>,
    /// Who owns it and who sees it (team mode).
    ownership: Option<OwnershipView>,
}

impl EstatePage {
    fn reservations(&self) -> &'static [(&'static str, &'static str)] {
        &RESERVATIONS
    }
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

/// The ANF regions for the region field's suggestions (key, display name).
fn regions(st: &AppState) -> Vec<(String, String)> {
    st.book()
        .regions()
        .into_iter()
        .map(|r| (r.region.to_owned(), r.name.to_owned()))
        .collect()
}

/// `GET /estates`.
pub async fn list(State(st): State<AppState>, user: CurrentUser) -> Result<Response, PageError> {
    let blank = EstateForm::of_request(&EstateRequest::new(Vec::new()));
    list_with(&st, &user, blank, None, StatusCode::OK).await
}

async fn list_with(
    st: &AppState,
    user: &CurrentUser,
    f: EstateForm,
    problem: Option<String>,
    status: StatusCode,
) -> Result<Response, PageError> {
    render(
        status,
        &ListPage {
            estates: store::list_estates(&st.db, access::actor(user)).await?,
            team: user.0.is_some(),
            regions: regions(st),
            currencies: st
                .book()
                .currency_options(f.state.value("pricing.currency")),
            templates: f.templates(),
            saved: f.saved(st, user).await?,
            form: f.state,
            problem,
        },
    )
}

/// Plans the request with the book in force, on a blocking thread.
async fn plan(
    st: &AppState,
    req: &EstateRequest,
) -> Result<Result<EstatePlan, FieldErrors>, PageError> {
    let book = st.book();
    let req = req.clone();
    tokio::task::spawn_blocking(move || estate::optimize(&req, &book))
        .await
        .map_err(|e| PageError::Internal(format!("planning failed: {e}")))
}

/// Reads form `f` into `req` (settings, workloads removed and added) and checks the
/// result: every message goes beside its input; what names no input is returned for
/// the top of the page. Whether a private scenario was added.
async fn read(
    st: &AppState,
    user: &CurrentUser,
    f: &mut EstateForm,
    req: &mut EstateRequest,
    estate_owner: Option<&str>,
) -> Result<(bool, Option<String>), PageError> {
    f.read_settings(req);
    let took_private = f.apply_workloads(st, user, req, estate_owner).await;
    // The request's own checks run in the same round as the form's, so every wrong
    // input is marked at once; a request that passes them is planned.
    let checked = match req.validate(&st.book()) {
        Ok(_) if !f.has_errors() => plan(st, req).await?.map(|_| ()),
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    };
    let problem = checked.err().and_then(|e| f.place_errors(&e, req));
    Ok((took_private, problem))
}

/// The sentence above a form that was not saved: what names no input, and that the
/// marked inputs need a change; `None` when there is nothing to say (it saves).
fn unsaved(f: &EstateForm, problem: Option<String>) -> Option<String> {
    match problem {
        Some(p) => Some(format!("{p} Nothing was saved.")),
        None if f.has_errors() => {
            Some("Nothing was saved: the marked fields need a change.".to_owned())
        }
        None => None,
    }
}

/// `POST /estates`: a new estate from the chosen workloads.
pub async fn create(
    State(st): State<AppState>,
    user: CurrentUser,
    body: Bytes,
) -> Result<Response, PageError> {
    let mut f = EstateForm::parse(&body);
    let mut req = EstateRequest::new(Vec::new());
    // The new estate's owner is the user: it may take the user's private scenarios.
    let owner = access::actor(&user).user;
    let (took_private, problem) = read(&st, &user, &mut f, &mut req, owner).await?;
    if let Some(problem) = unsaved(&f, problem) {
        return list_with(
            &st,
            &user,
            f,
            Some(problem),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    }
    let visibility = Visibility::of_key(f.state.value("visibility"));
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
    let f = EstateForm::of_request(&req);
    page(&st, &user, at, req, f, None, StatusCode::OK).await
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
        other => PageError::from(other),
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
    f: EstateForm,
    problem: Option<String>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let (plan, problem) = match plan(st, &request).await? {
        Ok(p) => (Some(p), problem),
        Err(e) => (None, Some(problem.unwrap_or(e.to_string()))),
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
    let by = access::actor(user);
    let ownership = store::visible_estate(&st.db, id, by)
        .await
        .map_err(not_found)?
        .ownership;
    render(
        status,
        &EstatePage {
            id,
            request_name_or: request.display_name(),
            regions: regions(st),
            currencies: st
                .book()
                .currency_options(f.state.value("pricing.currency")),
            templates: f.templates(),
            saved: f.saved(st, user).await?,
            form: f.state,
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
    let owner = store::visible_estate(&st.db, id, by)
        .await
        .map_err(not_found)?
        .ownership
        .owner;
    let mut f = EstateForm::parse(&body);
    let mut req = stored.request.clone();
    let (took_private, problem) = read(&st, &user, &mut f, &mut req, owner.as_deref()).await?;
    let problem = match unsaved(&f, problem) {
        Some(problem) => Some(problem),
        None => match store::update_estate(&st.db, id, &req, by, took_private).await {
            // A full history keeps the inputs on the page, with what to do.
            Err(crate::store::StoreError::Full(why)) => Some(format!("Nothing was saved: {why}.")),
            saved => {
                saved.map_err(not_found)?;
                None
            }
        },
    };
    if let Some(problem) = problem {
        let at = Shown {
            id,
            revision: stored.revision,
            newest: stored.revision,
        };
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        return page(&st, &user, at, stored.request, f, Some(problem), status).await;
    }
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
    let p = plan(&st, &req)
        .await?
        .map_err(|e| PageError::BadRequest(e.to_string()))?;
    let opts = RenderOptions {
        edition,
        ..RenderOptions::default()
    };
    let statements = crate::verdict::estate::verdict(&p, &req).statements;
    let bytes = st
        .renders
        .run("estate report", Turn::Answer, move || {
            report::render(&p, &statements, format, opts, &today_utc())
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
    let unplanned = |e: FieldErrors| PageError::BadRequest(e.to_string());
    let pa = plan(&st, &ra).await?.map_err(unplanned)?;
    let pb = plan(&st, &rb).await?.map_err(unplanned)?;
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
    let f = EstateForm::parse(&body);
    let visibility = match Some(f.state.value("visibility")) {
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
