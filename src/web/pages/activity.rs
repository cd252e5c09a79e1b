//! `/activity`: the activity log, newest first, a page at a time.

use super::{PageError, render};
use crate::store::activity::ActivityEvent;
use crate::web::api::activity::{self as api, ActivityQuery};
use crate::web::auth::CurrentUser;
use crate::web::state::AppState;
use askama::Template;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;

/// One event as the page shows it.
struct Row {
    at: String,
    /// "you", the user's name, or empty (single-user mode).
    user: String,
    action: &'static str,
    /// "scenario 12", "estate 3".
    object: String,
    /// Link to the object while it exists; empty for deleted objects.
    href: String,
    summary: String,
}

#[derive(Template)]
#[template(path = "pages/activity.html")]
struct ActivityPage {
    rows: Vec<Row>,
    /// Link to the older page; empty on the last one.
    next: String,
}

/// How the page words an action key.
fn action_text(key: &str) -> &'static str {
    match key {
        "created" => "created",
        "imported" => "imported",
        "changed" => "changed",
        "restored" => "restored",
        "deleted" => "deleted",
        "visibility" => "changed who sees",
        _ => "changed",
    }
}

fn row(e: ActivityEvent, user: &CurrentUser) -> Row {
    let object = match e.object_id {
        Some(id) => format!("{} {id}", e.kind),
        None => e.kind.clone(),
    };
    let gone = e.action == "deleted" && e.kind != "measurement";
    let href = match (e.kind.as_str(), e.object_id, e.scenario_id) {
        _ if gone => String::new(),
        ("scenario" | "measurement", _, Some(id)) => format!("/scenarios/{id}"),
        ("estate", Some(id), _) => format!("/estates/{id}"),
        ("prices", _, _) => "/prices".to_owned(),
        _ => String::new(),
    };
    Row {
        at: super::view::short_time(&e.at),
        user: match e.user {
            Some(u) if Some(u.as_str()) == user.name() => "you".to_owned(),
            Some(u) => u,
            None => String::new(),
        },
        action: action_text(&e.action),
        object,
        href,
        summary: e.summary,
    }
}

/// `GET /activity[?before=ID&limit=N]`.
pub async fn page(
    State(st): State<AppState>,
    user: CurrentUser,
    query: Result<Query<ActivityQuery>, QueryRejection>,
) -> Result<Response, PageError> {
    let (limit, before) = api::page_of(query).map_err(|e| PageError::BadRequest(e.to_string()))?;
    let page = api::page(&st, &user, limit, before).await?;
    let next = match page.next_before {
        Some(b) if limit == api::DEFAULT_LIMIT => format!("/activity?before={b}"),
        Some(b) => format!("/activity?before={b}&limit={limit}"),
        None => String::new(),
    };
    let rows = page.events.into_iter().map(|e| row(e, &user)).collect();
    render(StatusCode::OK, &ActivityPage { rows, next })
}
