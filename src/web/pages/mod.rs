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
mod iac;
mod layouts;
mod live;
pub mod login;
mod planner;
mod prices;
mod reprice;

mod table_file;
pub mod view;
mod whatif;

use crate::web::auth::Declare;
use crate::web::state::AppState;
use askama::Template;
use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};

/// Page routes, with `/static/*`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(home::index).read_write())
        .route("/import", post(home::import).read_write())
        .route("/scenarios/new", get(planner::new).read_write())
        .route("/scenarios", post(planner::save_new).read_write())
        .route("/scenarios/copy", post(planner::save_copy).read_write())
        .route("/scenarios/evaluate", post(planner::evaluate).compute())
        .route("/scenarios/results", post(planner::results).compute())
        .route(
            "/scenarios/scenario.json",
            post(planner::download_form).compute(),
        )
        .route("/plan", get(planner::shared).read_write())
        .route(
            "/scenarios/{id}",
            get(planner::show).post(planner::save).read_write(),
        )
        .route(
            "/scenarios/{id}/scenario.json",
            get(planner::download_saved).read_write(),
        )
        .route(
            "/scenarios/{id}/delete",
            get(home::confirm_delete).post(home::delete).read_write(),
        )
        .route(
            "/scenarios/{id}/revisions/{n}/restore",
            post(planner::restore).read_write(),
        )
        .route("/scenarios/{id}/reprice", post(reprice::reprice).compute())
        .route(
            "/scenarios/{id}/visibility",
            post(planner::set_visibility).read_write(),
        )
        .route("/activity", get(activity::page).read_write())
        .route("/compare", get(compare::page).read_write())
        .route("/compare.csv", get(compare::csv).read_write())
        .route("/compare.md", get(compare::markdown).read_write())
        .route(
            "/estates",
            get(estates::list).post(estates::create).read_write(),
        )
        .route(
            "/estates/{id}",
            get(estates::show).post(estates::save).read_write(),
        )
        .route("/estates/{id}/compare", get(estates::compare).read_write())
        .route(
            "/estates/{id}/visibility",
            post(estates::set_visibility).read_write(),
        )
        .route("/estates/{id}/{file}", get(estates::download).read_write())
        .route("/layouts", get(layouts::page).read_write())
        .route("/layouts.csv", get(layouts::csv).read_write())
        .route("/layouts.md", get(layouts::markdown).read_write())
        .route("/whatif", get(whatif::page).read_write())
        .route("/avs", get(avs::page).post(avs::upload).read_write())
        .route("/avs/{id}", get(avs::show).read_write())
        .route("/avs/{id}/save", post(avs::save).read_write())
        .route("/avs/{id}/plan.pdf", get(avs::pdf).read_write())
        .route("/avs/{id}/plan.md", get(avs::markdown).read_write())
        .route("/avs/{id}/plan.html", get(avs::html).read_write())
        .route("/avs/{id}/plan.csv", get(avs::csv).read_write())
        .route("/avs/{id}/plan.xlsx", get(avs::xlsx).read_write())
        .route("/avs/{id}/plan.json", get(avs::json).read_write())
        .route("/avs/{id}/export/{format}", get(avs::code).read_write())
        .route(
            "/live",
            get(live::page)
                .post(live::upload)
                .layer(axum::extract::DefaultBodyLimit::max(
                    crate::web::limits::LIVE_BODY_LIMIT,
                ))
                .compute(),
        )
        .route(
            "/iac",
            get(iac::page)
                .post(iac::check)
                .layer(axum::extract::DefaultBodyLimit::max(
                    crate::web::limits::IAC_BODY_LIMIT,
                ))
                .compute(),
        )
        .route("/live/estate", post(live::save::save).read_write())
        .route(
            "/live/actuals",
            post(live::compare)
                .layer(axum::extract::DefaultBodyLimit::max(
                    crate::web::limits::LIVE_BODY_LIMIT,
                ))
                .read_write(),
        )
        .route("/prices", get(prices::page).read_write())
        .route("/prices/preview", post(prices::preview).admin_writes())
        .route("/prices/accept", post(prices::accept).admin_writes())
        .route("/prices/enter", post(prices::enter).admin_writes())
        .route("/prices/sheet", post(prices::sheet).admin_writes())
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
    if !crate::web::limits::served_method(&method) {
        let page = PageError::Status {
            status: StatusCode::METHOD_NOT_ALLOWED,
            message: format!("This server does not take {method} requests."),
        };
        return ([(header::ALLOW, crate::web::limits::SERVED_METHODS)], page).into_response();
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
