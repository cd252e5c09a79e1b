//! Home: the saved scenarios with search, the starter templates, import, and delete.

use super::form::parts::{Part, parts};
use super::planner::describe_json_error;
use super::{PageError, parse_id, render};
use crate::engine::FieldErrors;
use crate::engine::scenario::{Level, Scenario, Service};
use crate::format::count;
use crate::store;
use crate::web::access::{self, actor};
use crate::web::auth::CurrentUser;
use crate::web::scenario_templates::{StarterTemplate, TEMPLATES};
use crate::web::state::AppState;
use askama::Template;
use axum::extract::{Multipart, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

/// One row of the scenario list.
struct Row {
    id: i64,
    name: String,
    /// "Azure NetApp Files Ultra", as the vendor writes it.
    service_level: String,
    /// The binding limit's label, or why there is none.
    binding: String,
    updated_at: String,
    revision: i64,
    /// "you", the owner's name, or empty (created in single-user mode).
    owner: String,
    private: bool,
}

#[derive(Template)]
#[template(path = "pages/home.html")]
struct HomePage {
    rows: Vec<Row>,
    q: String,
    /// "1–50 of 5,000" when the list has more than one page, else empty.
    range: String,
    /// Links to the previous and next pages (empty when there is none).
    prev: String,
    next: String,
    templates: &'static [StarterTemplate],
    /// Message after a delete.
    notice: String,
    /// Import: what was pasted or uploaded (kept when it fails) and why it failed.
    import_text: String,
    import_error: String,
}

fn service_level(service: &str, level: &str) -> String {
    let s: Option<Service> = serde_json::from_value(service.into()).ok();
    let l: Option<Level> = serde_json::from_value(level.into()).ok();
    match (s, l) {
        (Some(s), Some(l)) => format!("{} {}", s.display(), l.display(s)),
        _ => format!("{service} {level}"),
    }
}

/// Rows on one page of the home list unless `?limit=` says otherwise.
pub const PAGE_SIZE: u32 = 50;

/// Which page of the list to show.
#[derive(Debug, Clone, Copy)]
struct PageAt {
    limit: u32,
    offset: u64,
}

impl Default for PageAt {
    fn default() -> Self {
        PageAt {
            limit: PAGE_SIZE,
            offset: 0,
        }
    }
}

async fn home_page(
    st: &AppState,
    user: &CurrentUser,
    q: &str,
    at: PageAt,
    notice: String,
    import_text: String,
    import_error: String,
) -> Result<HomePage, PageError> {
    let filter = Some(q.trim()).filter(|q| !q.is_empty());
    let page = store::list_page(&st.db, filter, at.limit, at.offset, actor(user)).await?;
    let rows: Vec<Row> = page
        .items
        .into_iter()
        .map(|s| Row {
            service_level: service_level(&s.service, &s.level),
            id: s.id,
            name: s.name,
            binding: s.binding.unwrap_or_default(),
            updated_at: super::view::short_time(&s.updated_at),
            revision: s.revision,
            owner: match s.owner {
                Some(o) if Some(o.as_str()) == user.name() => "you".to_owned(),
                Some(o) => o,
                None => String::new(),
            },
            private: s.visibility == "private",
        })
        .collect();
    let total = u64::try_from(page.total).unwrap_or(0);
    let link = |offset: u64| {
        let mut url = format!("/?offset={offset}");
        if at.limit != PAGE_SIZE {
            url += &format!("&limit={}", at.limit);
        }
        if let Some(q) = filter {
            url += &format!("&q={}", urlencode(q));
        }
        url
    };
    let limit = u64::from(at.limit);
    let prev = if at.offset > 0 {
        link(at.offset.saturating_sub(limit))
    } else {
        String::new()
    };
    let next = if at.offset + limit < total {
        link(at.offset + limit)
    } else {
        String::new()
    };
    let range = if total > limit || at.offset > 0 {
        let first = (at.offset + 1).min(total);
        let last = (at.offset + rows.len() as u64).min(total);
        format!("{}–{} of {}", count(first), count(last), count(total))
    } else {
        String::new()
    };
    Ok(HomePage {
        rows,
        q: q.to_owned(),
        range,
        prev,
        next,
        templates: TEMPLATES,
        notice,
        import_text,
        import_error,
    })
}

#[derive(Deserialize)]
pub struct HomeQuery {
    q: Option<String>,
    deleted: Option<String>,
    /// Rows per page (1 to 500).
    limit: Option<String>,
    /// Rows to skip.
    offset: Option<String>,
}

impl HomeQuery {
    fn page(&self) -> Result<PageAt, PageError> {
        let limit = match self.limit.as_deref().map(str::trim) {
            None | Some("") => PAGE_SIZE,
            Some(t) => t
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=store::MAX_PAGE).contains(n))
                .ok_or_else(|| {
                    PageError::BadRequest(format!(
                        "The page size must be a whole number from 1 to {}.",
                        store::MAX_PAGE
                    ))
                })?,
        };
        let offset = match self.offset.as_deref().map(str::trim) {
            None | Some("") => 0,
            Some(t) => t
                .parse::<u64>()
                .ok()
                .filter(|n| *n <= i64::MAX as u64)
                .ok_or_else(|| {
                    PageError::BadRequest("The offset must be a whole number, 0 or more.".into())
                })?,
        };
        Ok(PageAt { limit, offset })
    }
}

/// `GET /[?q=...&offset=...&limit=...]`.
pub async fn index(
    State(st): State<AppState>,
    user: CurrentUser,
    Query(q): Query<HomeQuery>,
) -> Result<Response, PageError> {
    let at = q.page()?;
    let notice = q
        .deleted
        .map(|name| format!("Deleted “{name}”."))
        .unwrap_or_default();
    let page = home_page(
        &st,
        &user,
        q.q.as_deref().unwrap_or(""),
        at,
        notice,
        String::new(),
        String::new(),
    )
    .await?;
    render(StatusCode::OK, &page)
}

#[derive(Template)]
#[template(path = "pages/confirm_delete.html")]
struct ConfirmDelete {
    id: i64,
    name: String,
    revisions: usize,
}

/// `GET /scenarios/{id}/delete`: asks before deleting.
pub async fn confirm_delete(
    State(st): State<AppState>,
    user: CurrentUser,
    Path(raw): Path<String>,
) -> Result<Response, PageError> {
    let id = parse_id(&raw)?;
    let stored = access::stored_scenario(&st.db, &user, id).await?;
    let revisions = store::list_revisions(&st.db, id).await?.len();
    render(
        StatusCode::OK,
        &ConfirmDelete {
            id,
            name: stored.scenario.name,
            revisions,
        },
    )
}

/// `POST /scenarios/{id}/delete`.
pub async fn delete(
    State(st): State<AppState>,
    user: CurrentUser,
    Path(raw): Path<String>,
) -> Result<Response, PageError> {
    let id = parse_id(&raw)?;
    let stored = access::stored_scenario(&st.db, &user, id).await?;
    store::delete_scenario_by(&st.db, id, actor(&user)).await?;
    let name: String = stored.scenario.name.chars().take(200).collect();
    let to = format!("/?deleted={}", urlencode(&name));
    Ok(Redirect::to(&to).into_response())
}

/// Percent-encodes a query value (everything but unreserved characters).
fn urlencode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Largest scenario file accepted by the import form.
const MAX_IMPORT: usize = 512 * 1024;

/// Reads the import form: the uploaded file wins over the text area when both are given.
async fn read_import(mp: Multipart) -> Result<String, String> {
    let mut file_text = None;
    let mut pasted = String::new();
    let parts = parts(mp).await.map_err(|e| {
        format!("The upload could not be read ({e}). Try again, or paste the JSON.")
    })?;
    for Part { name, bytes, .. } in parts {
        if bytes.len() > MAX_IMPORT {
            return Err(format!(
                "The file is {} KiB; a scenario file is at most 512 KiB.",
                bytes.len() / 1024
            ));
        }
        let text = String::from_utf8(bytes.to_vec())
            .map_err(|_| "The file is not UTF-8 text: choose a Scenario JSON file.".to_owned())?;
        match name.as_str() {
            "file" if !text.trim().is_empty() => file_text = Some(text),
            "json" => pasted = text,
            _ => {}
        }
    }
    Ok(file_text.unwrap_or(pasted))
}

/// `POST /import`: a Scenario JSON file or pasted text becomes a saved scenario.
pub async fn import(
    State(st): State<AppState>,
    user: CurrentUser,
    mp: Multipart,
) -> Result<Response, PageError> {
    let text = match read_import(mp).await {
        Ok(t) => t,
        Err(msg) => {
            return import_failed(&st, &user, String::new(), msg, StatusCode::BAD_REQUEST).await;
        }
    };
    if text.trim().is_empty() {
        let msg = "Choose a Scenario JSON file or paste its text, then Import.".to_owned();
        return import_failed(&st, &user, text, msg, StatusCode::BAD_REQUEST).await;
    }
    let de = &mut serde_json::Deserializer::from_str(&text);
    let parsed: Result<Scenario, FieldErrors> =
        serde_path_to_error::deserialize(de).map_err(|e| FieldErrors::from(describe_json_error(e)));
    let scenario = match parsed.and_then(|s| crate::engine::check(&s, &st.book()).map(|()| s)) {
        Ok(s) => s,
        Err(e) => {
            let msg = if e.first().field == "scenario" {
                format!(
                    "This is not Scenario JSON: {}. Nothing was saved.",
                    e.first().message
                )
            } else {
                let each: Vec<String> = e.iter().map(ToString::to_string).collect();
                format!("{}. Nothing was saved.", each.join("; "))
            };
            return import_failed(&st, &user, text, msg, StatusCode::UNPROCESSABLE_ENTITY).await;
        }
    };
    let mut scenario = scenario;
    scenario.id = None;
    let imported = store::activity::Action::Imported;
    let shared = store::Visibility::Shared;
    let id = store::create_scenario_by(&st.db, &scenario, actor(&user), shared, imported).await?;
    Ok(Redirect::to(&format!("/scenarios/{id}?imported=1")).into_response())
}

async fn import_failed(
    st: &AppState,
    user: &CurrentUser,
    text: String,
    msg: String,
    status: StatusCode,
) -> Result<Response, PageError> {
    let page = home_page(st, user, "", PageAt::default(), String::new(), text, msg).await?;
    render(status, &page)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendor_names() {
        assert_eq!(service_level("anf", "ultra"), "Azure NetApp Files Ultra");
        assert_eq!(
            service_level("azure_files", "ssd_v2"),
            "Azure Files SSD provisioned v2"
        );
        assert_eq!(service_level("x", "y"), "x y");
    }

    #[test]
    fn counts_are_grouped() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(5000), "5,000");
        assert_eq!(count(1234567), "1,234,567");
    }

    #[test]
    fn query_values_are_encoded() {
        assert_eq!(urlencode("a b&c<"), "a%20b%26c%3C");
    }
}
