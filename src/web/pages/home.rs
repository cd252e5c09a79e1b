//! Home: the saved scenarios with search, the starter templates, import, and delete.

use super::planner::describe_json_error;
use super::{PageError, parse_id, render};
use crate::engine::scenario::{Level, Scenario, Service};
use crate::engine::{self, FieldError};
use crate::store;
use crate::web::AppState;
use crate::web::scenario_templates::{StarterTemplate, TEMPLATES};
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
}

#[derive(Template)]
#[template(path = "pages/home.html")]
struct HomePage {
    rows: Vec<Row>,
    q: String,
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

fn binding_of(scenario: &Scenario) -> String {
    match engine::evaluate(scenario) {
        Ok(ev) => ev
            .limits
            .iter()
            .find(|l| l.id == ev.binding)
            .map(|l| l.label.to_string())
            .unwrap_or_else(|| ev.binding.to_owned()),
        Err(e) => format!("not evaluated: {}", e.message),
    }
}

async fn home_page(
    st: &AppState,
    q: &str,
    notice: String,
    import_text: String,
    import_error: String,
) -> Result<HomePage, PageError> {
    let filter = Some(q.trim()).filter(|q| !q.is_empty());
    let list = store::list_scenarios(&st.db, filter).await?;
    let mut rows = Vec::with_capacity(list.len());
    for s in list {
        let binding = match store::get_scenario(&st.db, s.id).await {
            Ok(stored) => binding_of(&stored.scenario),
            Err(store::StoreError::NotFound) => continue,
            Err(e) => return Err(e.into()),
        };
        rows.push(Row {
            service_level: service_level(&s.service, &s.level),
            id: s.id,
            name: s.name,
            binding,
            updated_at: super::view::short_time(&s.updated_at),
            revision: s.revision,
        });
    }
    Ok(HomePage {
        rows,
        q: q.to_owned(),
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
}

/// `GET /[?q=...]`.
pub async fn index(
    State(st): State<AppState>,
    Query(q): Query<HomeQuery>,
) -> Result<Response, PageError> {
    let notice = q
        .deleted
        .map(|name| format!("Deleted “{name}”."))
        .unwrap_or_default();
    let page = home_page(
        &st,
        q.q.as_deref().unwrap_or(""),
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
    Path(raw): Path<String>,
) -> Result<Response, PageError> {
    let id = parse_id(&raw)?;
    let stored = store::get_scenario(&st.db, id).await?;
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
    Path(raw): Path<String>,
) -> Result<Response, PageError> {
    let id = parse_id(&raw)?;
    let stored = store::get_scenario(&st.db, id).await?;
    store::delete_scenario(&st.db, id).await?;
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
async fn read_import(mut mp: Multipart) -> Result<String, String> {
    let mut file_text = None;
    let mut pasted = String::new();
    loop {
        let field = match mp.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) => {
                return Err(format!(
                    "The upload could not be read ({e}). Try again, or paste the JSON."
                ));
            }
        };
        let name = field.name().unwrap_or("").to_owned();
        let bytes = field.bytes().await.map_err(|e| {
            format!("The upload could not be read ({e}). Try again, or paste the JSON.")
        })?;
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
pub async fn import(State(st): State<AppState>, mp: Multipart) -> Result<Response, PageError> {
    let text = match read_import(mp).await {
        Ok(t) => t,
        Err(msg) => return import_failed(&st, String::new(), msg, StatusCode::BAD_REQUEST).await,
    };
    if text.trim().is_empty() {
        let msg = "Choose a Scenario JSON file or paste its text, then Import.".to_owned();
        return import_failed(&st, text, msg, StatusCode::BAD_REQUEST).await;
    }
    let de = &mut serde_json::Deserializer::from_str(&text);
    let parsed: Result<Scenario, FieldError> =
        serde_path_to_error::deserialize(de).map_err(describe_json_error);
    let scenario = match parsed.and_then(|s| crate::engine::check(&s).map(|()| s)) {
        Ok(s) => s,
        Err(e) => {
            let msg = if e.field == "scenario" {
                format!(
                    "This is not Scenario JSON: {}. Nothing was saved.",
                    e.message
                )
            } else {
                format!("{}: {}. Nothing was saved.", e.field, e.message)
            };
            return import_failed(&st, text, msg, StatusCode::UNPROCESSABLE_ENTITY).await;
        }
    };
    let mut scenario = scenario;
    scenario.id = None;
    let id = store::create_scenario(&st.db, &scenario).await?;
    Ok(Redirect::to(&format!("/scenarios/{id}?imported=1")).into_response())
}

async fn import_failed(
    st: &AppState,
    text: String,
    msg: String,
    status: StatusCode,
) -> Result<Response, PageError> {
    let page = home_page(st, "", String::new(), text, msg).await?;
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
    fn query_values_are_encoded() {
        assert_eq!(urlencode("a b&c<"), "a%20b%26c%3C");
    }
}
