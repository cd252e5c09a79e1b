//! Chart routes and the chart block of pages.
//!
//! - `GET /scenarios/{id}/charts/{name}.{svg,png}`: a saved scenario's chart (contract).
//! - `GET /charts/{name}.{svg,png}?s=<share>`: a shared (unsaved) scenario's chart.
//! - `POST /charts/{name}.{svg,png}` with Scenario JSON: an unsaved scenario's chart.
//!
//! Every chart evaluates its scenario as the planner and the reports do: priced from
//! the book in force in the scenario's currency (the sweeps too), a saved scenario with
//! its calibration to its own runs. A saved scenario's charts also show its measured
//! runs (uploaded benchmark results); the latency chart those whose tool reported a
//! latency.
//! PNG size: `?w=&h=` (pixels), default the chart's own size. An unknown id, chart
//! name or format is a 404: an HTML page for browsers, the contract's JSON otherwise.

use crate::engine::evaluation::CalibrationNote;
use crate::engine::pricing::PriceBook;
use crate::engine::{Evaluation, Scenario};
use crate::measure::{MeasuredPoint, calibrate, measured_point};
use crate::report::charts::{Chart, ChartError, ChartName, ChartTable, LatencyRun};
use crate::store::{self, StoreError};
use crate::web::auth::CurrentUser;
use crate::web::auth::Declare;
use crate::web::error::{ApiError, ApiJson};
use crate::web::page_error::PageError;
use crate::web::render_pool::{Refused, RenderPool, Turn};
use crate::web::state::AppState;
use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use std::sync::Arc;

/// Chart routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/scenarios/{id}/charts/{file}", get(saved).read_write())
        .route("/charts/{file}", get(shared).post(posted).compute())
}

/// A chart as a page shows it: inline SVG, a one-sentence summary, its data table
/// and download links.
#[derive(Debug, Clone)]
pub struct ChartBlock {
    /// Anchor id, unique on the page (e.g. `chart-ceilings`).
    pub id: String,
    pub title: String,
    pub summary: String,
    /// The SVG markup (plotters escapes all text; no style attributes or scripts).
    pub svg: String,
    pub table: ChartTable,
    /// Download links (label, URL), e.g. ("PNG", "/scenarios/3/charts/ceilings.png").
    pub links: Vec<(String, String)>,
}

impl ChartBlock {
    /// Renders a prepared chart for a page.
    pub fn new(id: &str, chart: &Chart, links: Vec<(String, String)>) -> Result<Self, ChartError> {
        Ok(ChartBlock {
            id: id.to_owned(),
            title: chart.title().to_owned(),
            summary: chart.summary().to_owned(),
            svg: chart.svg_inline()?,
            table: chart.table(),
            links,
        })
    }
}

/// Most stored runs a chart draws: the newest, whatever the scenario keeps.
pub const MAX_DRAWN_RUNS: u32 = 200;

/// A saved scenario's measured runs, as the charts draw them.
#[derive(Debug, Clone, Default)]
pub struct MeasuredRuns {
    /// The newest runs (at most [`MAX_DRAWN_RUNS`]), each placed with the revision it was
    /// measured against (runs whose revision is gone are left out).
    pub points: Vec<MeasuredPoint>,
    /// Of those, the runs whose tool reported a mean latency.
    pub latency: Vec<LatencyRun>,
}

impl MeasuredRuns {
    /// The newest runs stored with scenario `id`; none if the scenario is gone.
    pub async fn of(db: &crate::store::Db, id: i64) -> Result<MeasuredRuns, StoreError> {
        let runs = match store::measurements::latest(db, id, MAX_DRAWN_RUNS).await {
            Err(StoreError::NotFound) => return Ok(MeasuredRuns::default()),
            other => other?,
        };
        let latency = runs
            .iter()
            .filter_map(|m| LatencyRun::of(&m.measurement))
            .collect();
        let points = store::measurements::with_revisions(db, id, runs)
            .await?
            .iter()
            .filter_map(|(r, sc)| Some(measured_point(&r.measurement, sc.as_deref()?)))
            .collect();
        Ok(MeasuredRuns { points, latency })
    }

    /// The chart with these runs beside the model, where it has a place for them.
    pub fn drawn_on(&self, chart: Chart) -> Chart {
        chart
            .with_measured(&self.points)
            .with_measured_latency(&self.latency)
    }
}

/// The planner's charts (ceilings and latency) with the saved scenario's measured runs,
/// drawn in the render pool for the results column. Those that cannot be drawn are left
/// out (and logged), and all of them when the pool is busy, so the figures still show.
pub async fn planner_charts(
    renders: &RenderPool,
    s: Scenario,
    e: Evaluation,
    prices: Arc<PriceBook>,
    measured: MeasuredRuns,
) -> Vec<ChartBlock> {
    let drawn = renders
        .run("planner chart", Turn::Extra, move || {
            [ChartName::Ceilings, ChartName::Latency]
                .into_iter()
                .filter_map(|name| planner_chart(name, &s, &e, &prices, &measured))
                .collect()
        })
        .await;
    drawn.unwrap_or_else(|refused| {
        tracing::warn!("planner without its charts: {refused}");
        Vec::new()
    })
}

/// One planner chart, drawn narrower than the download; `None` (and a log line) if it
/// cannot be drawn.
fn planner_chart(
    name: ChartName,
    s: &Scenario,
    e: &Evaluation,
    prices: &PriceBook,
    measured: &MeasuredRuns,
) -> Option<ChartBlock> {
    let block = Chart::of(name, s, e, prices).and_then(|chart| {
        // Drawn narrower than the download: the results column is about 600 px wide.
        let (_, h) = chart.size();
        let chart = measured.drawn_on(chart.with_size((PLANNER_WIDTH, h)));
        ChartBlock::new(
            &format!("chart-{}", name.key()),
            &chart,
            download_links(s, name),
        )
    });
    match block {
        Ok(block) => Some(block),
        Err(err) => {
            tracing::error!(error = %err, chart = name.key(), "planner chart failed");
            None
        }
    }
}

/// Width of the charts in the planner's results column, in pixels.
const PLANNER_WIDTH: u32 = 640;

/// SVG and PNG links of a saved scenario's chart (none for an unsaved one).
fn download_links(s: &Scenario, name: ChartName) -> Vec<(String, String)> {
    match s.id {
        Some(id) => ["svg", "png"]
            .iter()
            .map(|ext| {
                (
                    ext.to_uppercase(),
                    format!("/scenarios/{id}/charts/{}.{ext}", name.key()),
                )
            })
            .collect(),
        None => Vec::new(),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Svg,
    Png,
}

/// Parses `ceilings.svg` into a chart and a format.
fn parse_file(file: &str) -> Result<(ChartName, Format), String> {
    let (name, ext) = file.rsplit_once('.').ok_or_else(|| {
        format!(
            "there is no chart `{}`; use e.g. ceilings.svg or io-size.png",
            short(file)
        )
    })?;
    let format = match ext {
        "svg" => Format::Svg,
        "png" => Format::Png,
        _ => return Err(format!("charts come as .svg or .png, not .{}", short(ext))),
    };
    let name = name.parse::<ChartName>().map_err(|e| e.to_string())?;
    Ok((name, format))
}

fn short(s: &str) -> String {
    s.chars().take(40).collect()
}

/// `?w=&h=` for PNGs (and `s` for shared scenarios); kept as text so a bad value
/// gets a message, not a bare rejection.
#[derive(Debug, Default, Deserialize)]
pub struct ChartQuery {
    w: Option<String>,
    h: Option<String>,
    s: Option<String>,
}

impl ChartQuery {
    fn size(&self, default: (u32, u32)) -> Result<(u32, u32), String> {
        // An empty `w=` is a value left out by mistake, not a request for the default.
        let parse = |v: &Option<String>, d: u32, what: &str| match v.as_deref().map(str::trim) {
            None => Ok(d),
            Some(t) => t.parse::<u32>().map_err(|_| {
                format!(
                    "{what} must be a whole number of pixels, not `{}`",
                    short(t)
                )
            }),
        };
        let (w, h) = (
            parse(&self.w, default.0, "w")?,
            parse(&self.h, default.1, "h")?,
        );
        if !(200..=4000).contains(&w) || !(150..=4000).contains(&h) {
            return Err(ChartError::Size(w, h).to_string());
        }
        Ok((w, h))
    }
}

/// Errors of the chart routes, rendered for the client that asked.
enum Failure {
    NotFound(String),
    Invalid {
        field: Option<String>,
        message: String,
    },
    /// No render permit within the wait.
    Busy(String),
    /// A store failure other than "not found" (the database may not answer: 503).
    Store(StoreError),
    Internal(String),
}

impl From<ChartError> for Failure {
    fn from(e: ChartError) -> Self {
        match e {
            ChartError::Unknown(_) => Failure::NotFound(e.to_string()),
            ChartError::Scenario(f) => Failure::Invalid {
                field: Some(f.first().field.clone()),
                message: f.to_string(),
            },
            ChartError::Size(..) => Failure::Invalid {
                field: None,
                message: e.to_string(),
            },
            ChartError::Draw(cause) => Failure::Internal(cause),
        }
    }
}

/// Browsers (asking for HTML) get a page; everything else the contract's JSON.
fn wants_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("text/html"))
}

fn respond(headers: &HeaderMap, f: Failure) -> Response {
    if wants_html(headers) {
        match f {
            Failure::NotFound(m) => PageError::NotFound(m),
            Failure::Invalid { message, .. } => PageError::BadRequest(message),
            Failure::Busy(message) => PageError::Status {
                status: StatusCode::SERVICE_UNAVAILABLE,
                message,
            },
            Failure::Store(e) => PageError::from(e),
            Failure::Internal(c) => PageError::Internal(c),
        }
        .into_response()
    } else {
        match f {
            Failure::NotFound(m) => ApiError::NotFound(m),
            Failure::Invalid { field, message } => ApiError::Invalid { field, message },
            Failure::Busy(message) => ApiError::Refused {
                status: StatusCode::SERVICE_UNAVAILABLE,
                message,
            },
            Failure::Store(e) => ApiError::from(e),
            Failure::Internal(c) => ApiError::internal(c),
        }
        .into_response()
    }
}

/// What a chart is drawn of: the scenario, how it is evaluated and the runs beside it.
struct Subject {
    scenario: Scenario,
    /// The book in force (the scenario is priced from it in its own currency).
    prices: Arc<PriceBook>,
    /// A saved scenario's calibration to its own runs, as its page and reports use it.
    calibration: Option<CalibrationNote>,
    measured: MeasuredRuns,
}

impl Subject {
    /// An unsaved scenario, priced from the book in force.
    fn unsaved(state: &AppState, scenario: Scenario) -> Subject {
        Subject {
            scenario,
            prices: state.book(),
            calibration: None,
            measured: MeasuredRuns::default(),
        }
    }
}

/// Evaluates (as the planner and the reports do) and draws in the render pool.
async fn draw(
    renders: &RenderPool,
    subject: Subject,
    name: ChartName,
    format: Format,
    query: ChartQuery,
    filename: String,
) -> Result<Response, Failure> {
    // A size beyond the cap (or not a number) is refused before waiting for a turn,
    // for SVG too although it is drawn at the chart's own size.
    query.size((780, 440)).map_err(|message| Failure::Invalid {
        field: None,
        message,
    })?;
    let work = move || -> Result<Response, Failure> {
        let Subject {
            scenario,
            prices,
            calibration,
            measured,
        } = subject;
        let evaluation = calibrate::evaluate(&scenario, &prices, calibration.as_ref())
            .map_err(ChartError::from)?;
        let chart = measured.drawn_on(Chart::of(name, &scenario, &evaluation, &prices)?);
        let (body, mime) = match format {
            Format::Svg => (chart.svg()?.into_bytes(), "image/svg+xml; charset=utf-8"),
            Format::Png => {
                let size = query
                    .size(chart.size())
                    .map_err(|message| Failure::Invalid {
                        field: None,
                        message,
                    })?;
                (chart.png(size)?, "image/png")
            }
        };
        let disposition = format!("inline; filename=\"{filename}\"");
        let mut res = ([(header::CONTENT_TYPE, mime)], body).into_response();
        if let Ok(v) = HeaderValue::from_str(&disposition) {
            res.headers_mut().insert(header::CONTENT_DISPOSITION, v);
        }
        Ok(res)
    };
    renders
        .run("chart", Turn::Answer, work)
        .await
        .map_err(|r| match r {
            Refused::Failed(_) => Failure::Internal(r.to_string()),
            _ => Failure::Busy(r.to_string()),
        })?
}

/// The query string, or a 422 saying what is wrong with it.
fn chart_query(q: Result<Query<ChartQuery>, QueryRejection>) -> Result<ChartQuery, Failure> {
    q.map(|Query(q)| q).map_err(|e| Failure::Invalid {
        field: None,
        message: format!("the chart options are wrong: {}", e.body_text()),
    })
}

fn ext(format: Format) -> &'static str {
    match format {
        Format::Svg => "svg",
        Format::Png => "png",
    }
}

/// `GET /scenarios/{id}/charts/{name}.{svg,png}`.
async fn saved(
    State(state): State<AppState>,
    user: CurrentUser,
    Path((id, file)): Path<(String, String)>,
    query: Result<Query<ChartQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    let result = async {
        let query = chart_query(query)?;
        let id = id
            .parse::<i64>()
            .ok()
            .filter(|id| *id > 0)
            .ok_or_else(|| Failure::NotFound(format!("no scenario with id {}", short(&id))))?;
        let (name, format) = parse_file(&file).map_err(Failure::NotFound)?;
        let stored = crate::web::access::stored_scenario(&state.db, &user, id)
            .await
            .map_err(|e| match e {
                StoreError::NotFound => Failure::NotFound(format!("no scenario with id {id}")),
                other => Failure::Store(other),
            })?;
        // The scenario's measured runs, drawn beside the model.
        let measured = MeasuredRuns::of(&state.db, id)
            .await
            .map_err(Failure::Store)?;
        let calibration = store::calibrations::get_calibration(&state.db, id)
            .await
            .map_err(Failure::Store)?;
        let subject = Subject {
            scenario: stored.scenario,
            prices: state.book(),
            calibration,
            measured,
        };
        let filename = format!("scenario-{id}-{name}.{}", ext(format));
        draw(&state.renders, subject, name, format, query, filename).await
    }
    .await;
    result.unwrap_or_else(|f| respond(&headers, f))
}

/// `GET /charts/{name}.{svg,png}?s=<share>`: the chart of a shared scenario.
async fn shared(
    State(state): State<AppState>,
    Path(file): Path<String>,
    query: Result<Query<ChartQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    let result = async {
        let query = chart_query(query)?;
        let (name, format) = parse_file(&file).map_err(Failure::NotFound)?;
        let scenario =
            crate::web::share::decode(query.s.as_deref()).map_err(|e| Failure::Invalid {
                field: Some("s".to_owned()),
                message: e.to_string(),
            })?;
        let filename = format!("{name}.{}", ext(format));
        let subject = Subject::unsaved(&state, scenario);
        draw(&state.renders, subject, name, format, query, filename).await
    }
    .await;
    result.unwrap_or_else(|f| respond(&headers, f))
}

/// `POST /charts/{name}.{svg,png}` with a Scenario JSON body: an unsaved scenario's chart.
async fn posted(
    State(state): State<AppState>,
    Path(file): Path<String>,
    query: Result<Query<ChartQuery>, QueryRejection>,
    headers: HeaderMap,
    body: Result<ApiJson<Scenario>, ApiError>,
) -> Response {
    let (name, format) = match parse_file(&file) {
        Ok(v) => v,
        Err(m) => return respond(&headers, Failure::NotFound(m)),
    };
    let query = match chart_query(query) {
        Ok(q) => q,
        Err(f) => return respond(&headers, f),
    };
    let scenario = match body {
        Ok(ApiJson(s)) => s,
        Err(e) => return e.into_response(),
    };
    let filename = format!("{name}.{}", ext(format));
    let subject = Subject::unsaved(&state, scenario);
    draw(&state.renders, subject, name, format, query, filename)
        .await
        .unwrap_or_else(|f| respond(&headers, f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_parse() {
        assert_eq!(
            parse_file("ceilings.svg"),
            Ok((ChartName::Ceilings, Format::Svg))
        );
        assert_eq!(
            parse_file("io-size.png"),
            Ok((ChartName::IoSize, Format::Png))
        );
        assert!(
            parse_file("scaling.gif")
                .unwrap_err()
                .contains(".svg or .png")
        );
        assert!(
            parse_file("pie.svg")
                .unwrap_err()
                .contains("ceilings, io-size, scaling and latency")
        );
        assert_eq!(
            parse_file("latency.svg"),
            Ok((ChartName::Latency, Format::Svg))
        );
        assert!(parse_file("ceilings").is_err());
    }

    #[test]
    fn png_size_defaults_and_rejects_text() {
        let q = ChartQuery::default();
        assert_eq!(q.size((780, 440)), Ok((780, 440)));
        let q = ChartQuery {
            w: Some("1200".into()),
            h: Some("x".into()),
            s: None,
        };
        assert!(q.size((780, 440)).unwrap_err().contains("h must be"));
    }
}
