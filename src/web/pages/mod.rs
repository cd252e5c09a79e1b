//! HTML pages: the scenario list (home), the planner, share links, import and delete,
//! and the Prices page.
//!
//! Handlers parse the request, call the store and the engine, and render an askama
//! template; formatting lives in [`view`], the form <-> Scenario mapping in [`form`].

pub use super::page_error::PageError;

mod activity;
pub mod advisor;
mod avs;
mod compare;
mod compare_inputs;
mod estates;
pub mod form;
mod history;
mod home;
mod layouts;
mod planner;
mod prices;
mod reprice;
pub mod share;
mod table_file;
pub mod view;
mod whatif;

use crate::web::AppState;
use askama::Template;
use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};

/// Page routes, with `/static/*`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(home::index))
        .route("/import", post(home::import))
        .route("/scenarios/new", get(planner::new))
        .route("/scenarios", post(planner::save_new))
        .route("/scenarios/copy", post(planner::save_copy))
        .route("/scenarios/evaluate", post(planner::evaluate))
        .route("/scenarios/results", post(planner::results))
        .route("/scenarios/scenario.json", post(planner::download_form))
        .route("/plan", get(planner::shared))
        .route("/scenarios/{id}", get(planner::show).post(planner::save))
        .route(
            "/scenarios/{id}/scenario.json",
            get(planner::download_saved),
        )
        .route(
            "/scenarios/{id}/delete",
            get(home::confirm_delete).post(home::delete),
        )
        .route(
            "/scenarios/{id}/revisions/{n}/restore",
            post(planner::restore),
        )
        .route("/scenarios/{id}/reprice", post(reprice::reprice))
        .route("/scenarios/{id}/visibility", post(planner::set_visibility))
        .route("/activity", get(activity::page))
        .route("/compare", get(compare::page))
        .route("/compare.csv", get(compare::csv))
        .route("/compare.md", get(compare::markdown))
        .route("/estates", get(estates::list).post(estates::create))
        .route("/estates/{id}", get(estates::show).post(estates::save))
        .route("/estates/{id}/compare", get(estates::compare))
        .route("/estates/{id}/visibility", post(estates::set_visibility))
        .route("/estates/{id}/{file}", get(estates::download))
        .route("/layouts", get(layouts::page))
        .route("/layouts.csv", get(layouts::csv))
        .route("/layouts.md", get(layouts::markdown))
        .route("/whatif", get(whatif::page))
        .route("/avs", get(avs::page).post(avs::upload))
        .route("/avs/{id}", get(avs::show))
        .route("/avs/{id}/save", post(avs::save))
        .route("/avs/{id}/plan.pdf", get(avs::pdf))
        .route("/avs/{id}/plan.md", get(avs::markdown))
        .route("/avs/{id}/plan.html", get(avs::html))
        .route("/avs/{id}/plan.csv", get(avs::csv))
        .route("/avs/{id}/plan.xlsx", get(avs::xlsx))
        .route("/avs/{id}/plan.json", get(avs::json))
        .route("/prices", get(prices::page))
        .route("/prices/preview", post(prices::preview))
        .route("/prices/accept", post(prices::accept))
        .route("/prices/enter", post(prices::enter))
        .route("/prices/sheet", post(prices::sheet))
        .merge(advisor::router())
        .route_layer(axum::middleware::from_fn(
            crate::web::guard::require_form_token,
        ))
        .merge(crate::web::assets::router())
        .fallback(not_found)
}

/// Any path no route knows (`/api/*` answers its own JSON 404): an HTML 404 page, or a
/// 405 for a method no route serves.
async fn not_found(method: axum::http::Method, uri: axum::http::Uri) -> Response {
    if !crate::web::served_method(&method) {
        let page = PageError::Status {
            status: StatusCode::METHOD_NOT_ALLOWED,
            message: format!("This server does not take {method} requests."),
        };
        return ([(header::ALLOW, crate::web::SERVED_METHODS)], page).into_response();
    }
    PageError::NotFound(format!(
        "There is no page at {}. The scenarios are listed on the home page.",
        uri.path().chars().take(200).collect::<String>()
    ))
    .into_response()
}

/// Renders a template with a status, turning a template failure into a 500 page.
fn render(status: StatusCode, t: &impl Template) -> Result<Response, PageError> {
    Ok((status, Html(t.render()?)).into_response())
}

/// Parses an id from the path; anything else is a 404 (there is no such page).
fn parse_id(raw: &str) -> Result<i64, PageError> {
    raw.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| PageError::NotFound(format!("There is no page at /scenarios/{raw}.")))
}
