//! The live estate page: upload a Resource Graph result (optional) and an Azure
//! Monitor metrics export; see the estate's verdict, each volume's demand charted at
//! P50, P95 and max and over time, its headroom and its right-sizing. Optionally
//! compare the metrics with a saved scenario or estate (`POST /live/actuals`, an
//! editor's write like the API's: runs at a scenario's ceiling are kept with it).
//!
//! Reading and sizing are [`crate::live`]'s; the sentences are the verdict's.

mod plans;
pub mod save;

use super::form::parts::parts;
use super::{PageError, render};
use crate::engine::scenario::{Qos, Service};
use crate::format::{capacity, mibps, millis, monthly, signed_pct};
use crate::live::actuals::Position;
use crate::live::estate::{self as assessed, LiveAnswer};
use crate::live::metrics::Metrics;
use crate::live::replan::Replan;
use crate::live::{LiveError, inventory};
use crate::report::charts::Chart;
use crate::web::api::actuals::{self, ActualsAnswer};
use crate::web::auth::CurrentUser;
use crate::web::charts::ChartBlock;
use crate::web::state::AppState;
use crate::web::uploads::Uploader;
use askama::Template;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::response::Response;
use plans::PlanList;
use std::sync::Arc;

/// One row of the volume table, its figures formatted.
pub struct Row {
    pub name: String,
    pub p50: String,
    pub p95: String,
    pub max: String,
    pub qos: String,
    pub headroom: String,
    pub statements: Vec<String>,
}

/// One planned workload against its volumes, formatted.
pub struct ActualRow {
    pub workload: String,
    pub volumes: String,
    pub planned: String,
    pub p95: String,
    pub position: &'static str,
    pub latency: String,
    pub predicted: String,
    pub statement: String,
}

/// One pool of the right-sized volumes planned together, formatted.
pub struct PooledRow {
    pub pool: String,
    pub size: String,
    pub throughput: String,
    pub volumes: String,
    pub monthly: String,
}

/// The right-sized volumes planned together, and the estate request that saves them.
pub struct PooledBlock {
    pub statements: Vec<String>,
    pub rows: Vec<PooledRow>,
    pub request: String,
}

impl PooledBlock {
    fn of(r: &Replan, currency: &str) -> Self {
        PooledBlock {
            statements: r.statements.clone(),
            rows: r
                .pools
                .iter()
                .map(|p| PooledRow {
                    pool: format!(
                        "{}, {}",
                        p.level.display(Service::Anf),
                        match p.qos {
                            Qos::Manual => "manual QoS",
                            Qos::Auto => "auto QoS",
                        }
                    ),
                    size: capacity(p.size_tib),
                    throughput: mibps(p.mibps),
                    volumes: p
                        .volumes
                        .iter()
                        .map(|v| match v.throughput_mibps {
                            Some(t) => {
                                format!("{} ({}, {})", v.name, capacity(v.quota_tib), mibps(t))
                            }
                            None => format!("{} ({})", v.name, capacity(v.quota_tib)),
                        })
                        .collect::<Vec<_>>()
                        .join(", "),
                    monthly: monthly(Some(p.monthly), currency),
                })
                .collect(),
            request: serde_json::to_string(&r.request).unwrap_or_default(),
        }
    }
}

/// The comparison with a saved plan.
pub struct ActualsBlock {
    pub plan: String,
    pub rows: Vec<ActualRow>,
    pub statements: Vec<String>,
    /// The scenario's page, where the kept runs are and calibration runs.
    pub scenario: Option<String>,
}

fn place(p: Position) -> &'static str {
    match p {
        Position::Above => "above",
        Position::Below => "below",
        Position::AsPlanned => "as planned",
    }
}

impl ActualsBlock {
    fn of(a: &ActualsAnswer, plan: String) -> Self {
        ActualsBlock {
            plan,
            rows: a
                .workloads
                .iter()
                .map(|w| ActualRow {
                    workload: w.workload.clone(),
                    volumes: w.volumes.join(", "),
                    planned: mibps(w.planned_mibps),
                    p95: mibps(w.p95_mibps),
                    position: place(w.position),
                    latency: w.latency_ms.map_or_else(|| "-".to_owned(), millis),
                    predicted: match (w.predicted_latency_ms, w.predicted_latency_ms_range) {
                        (Some(p), Some([lo, hi])) => {
                            format!("{} ({} to {})", millis(p), millis(lo), millis(hi))
                        }
                        _ => "-".to_owned(),
                    },
                    statement: w.statement.clone(),
                })
                .collect(),
            statements: a.verdict.statements.clone(),
            scenario: (a.plan == "scenario" && !a.measurements.is_empty())
                .then(|| format!("/scenarios/{}", a.id)),
        }
    }
}

#[derive(Template)]
#[template(path = "pages/live.html")]
pub struct LivePage {
    pub error: Option<String>,
    pub plan_error: Option<String>,
    pub revision_error: Option<String>,
    /// The saved plans to compare with; None when the user may not keep runs.
    pub plans: Option<PlanList>,
    pub revision: String,
    pub statements: Vec<String>,
    pub warnings: Vec<String>,
    pub chart: Option<ChartBlock>,
    /// Each volume's demand over time.
    pub over_time: Vec<ChartBlock>,
    pub rows: Vec<Row>,
    pub metric_names: String,
    pub total: String,
    pub actuals: Option<ActualsBlock>,
    /// The right-sized volumes planned together.
    pub pooled: Option<PooledBlock>,
}

impl LivePage {
    async fn empty(st: &AppState, user: &CurrentUser, chosen: &str) -> Self {
        let plans = if plans::may_write(user) {
            Some(PlanList::of(st, user, chosen).await)
        } else {
            None
        };
        LivePage {
            error: None,
            plan_error: None,
            revision_error: None,
            plans,
            revision: String::new(),
            statements: Vec::new(),
            warnings: Vec::new(),
            chart: None,
            over_time: Vec::new(),
            rows: Vec::new(),
            metric_names: assessed::metric_names().join(", "),
            total: String::new(),
            actuals: None,
            pooled: None,
        }
    }

    /// The answer's figures, charts and sentences on the page.
    fn show(&mut self, answer: &LiveAnswer) -> Result<(), PageError> {
        let drawn = |id: &str, chart: &Chart| {
            ChartBlock::new(id, chart, Vec::new()).map_err(|e| PageError::Internal(e.to_string()))
        };
        self.chart = Some(drawn("chart-live-demand", &Chart::live_demand(answer))?);
        self.over_time = answer
            .volumes
            .iter()
            .enumerate()
            .filter_map(|(i, v)| Some((i, Chart::live_over_time(v)?)))
            .map(|(i, c)| drawn(&format!("chart-over-time-{i}"), &c))
            .collect::<Result<_, _>>()?;
        let money: f64 = answer.volumes.iter().filter_map(|v| v.monthly).sum();
        self.statements = answer.verdict.statements.clone();
        self.warnings = answer.warnings.clone();
        self.rows = answer
            .volumes
            .iter()
            .map(|v| {
                let d = v.demand_mibps;
                let f = |x: Option<f64>| x.map_or_else(|| "-".to_owned(), mibps);
                Row {
                    name: v.name.clone(),
                    p50: f(d.map(|d| d.p50)),
                    p95: f(d.map(|d| d.p95)),
                    max: f(d.map(|d| d.max)),
                    qos: f(v.qos_mibps),
                    headroom: v.headroom_pct.map_or_else(|| "-".to_owned(), signed_pct),
                    statements: v.statements.clone(),
                }
            })
            .collect();
        self.total = monthly(Some(money), answer.currency);
        self.pooled = answer
            .replan
            .as_ref()
            .map(|r| PooledBlock::of(r, answer.currency));
        Ok(())
    }
}

/// `GET /live`: the upload form.
pub async fn page(State(st): State<AppState>, user: CurrentUser) -> Result<Response, PageError> {
    render(StatusCode::OK, &LivePage::empty(&st, &user, "").await)
}

/// The form: the Resource Graph result (may be empty), the metrics, and the plan.
#[derive(Default)]
struct Upload {
    graph: Vec<u8>,
    metrics: Vec<u8>,
    plan: String,
    revision: String,
}

async fn read(mp: Multipart) -> Result<Upload, String> {
    let mut u = Upload::default();
    let parts = parts(mp)
        .await
        .map_err(|e| format!("The upload could not be read ({e}). Try again."))?;
    for p in parts {
        let short = || p.text().chars().take(40).collect();
        match p.name.as_str() {
            "inventory" => u.graph = p.bytes.to_vec(),
            "metrics" => u.metrics = p.bytes.to_vec(),
            "plan" => u.plan = short(),
            "revision" => u.revision = short(),
            _ => {}
        }
    }
    Ok(u)
}

const NO_METRICS: &str = "Choose the metrics export (the collector CSV or the REST JSON).";

fn text(bytes: &[u8], what: &str) -> Result<String, LiveError> {
    String::from_utf8(bytes.to_vec())
        .map_err(|_| LiveError::new(what, "the file is not UTF-8 text"))
}

/// Reads both files and assesses every volume, in the upload pool; the metrics too,
/// for a comparison.
async fn assess(
    st: &AppState,
    who: &Uploader,
    u: Upload,
) -> Result<Result<(LiveAnswer, Metrics), LiveError>, PageError> {
    let book = st.book();
    let (graph, metrics) = (u.graph, u.metrics);
    Ok(who
        .parse(st, "live metrics", move || {
            let estate = if graph.iter().all(u8::is_ascii_whitespace) {
                None
            } else {
                Some(inventory::parse(&text(&graph, "inventory")?)?.estate(None)?)
            };
            let (m, sent) = crate::web::api::live::read_metrics(&text(&metrics, "metrics")?)?;
            let answer = assessed::assess(&m, sent.as_ref().or(estate.as_ref()), &book)
                .map_err(|e| LiveError::new(e.first().field.clone(), e.first().message.clone()))?;
            Ok((answer, m))
        })
        .await?)
}

/// `POST /live`: reads both files and shows the answer.
pub async fn upload(
    State(st): State<AppState>,
    who: Uploader,
    user: CurrentUser,
    mp: Multipart,
) -> Result<Response, PageError> {
    let mut page = LivePage::empty(&st, &user, "").await;
    let u = match read(mp).await {
        Ok(u) if u.metrics.is_empty() => Err(NO_METRICS.to_owned()),
        other => other,
    };
    let u = match u {
        Ok(u) => u,
        Err(e) => {
            page.error = Some(e);
            return render(StatusCode::BAD_REQUEST, &page);
        }
    };
    match assess(&st, &who, u).await? {
        Ok((answer, _)) => {
            page.show(&answer)?;
            render(StatusCode::OK, &page)
        }
        Err(e) => {
            page.error = Some(format!("Not read: {e}"));
            render(StatusCode::UNPROCESSABLE_ENTITY, &page)
        }
    }
}

/// A message of the API for the page: a sentence.
fn sentence(e: &impl std::fmt::Display) -> String {
    let t = crate::web::pages::form::prose_quotes(&e.to_string());
    if t.is_empty() {
        return t;
    }
    crate::verdict::words::as_sentence(&t)
}

/// `POST /live/actuals`: reads both files, shows the answer and compares the metrics
/// with the chosen saved plan. Every error stands beside its field, the choices kept.
pub async fn compare(
    State(st): State<AppState>,
    who: Uploader,
    user: CurrentUser,
    mp: Multipart,
) -> Result<Response, PageError> {
    let u = match read(mp).await {
        Ok(u) => u,
        Err(e) => {
            let mut page = LivePage::empty(&st, &user, "").await;
            page.error = Some(e);
            return render(StatusCode::BAD_REQUEST, &page);
        }
    };
    let mut page = LivePage::empty(&st, &user, &u.plan).await;
    page.revision = u.revision.clone();
    let q = plans::query(&u.plan, &u.revision);
    for (field, message) in q.as_ref().err().into_iter().flatten() {
        *if *field == "plan" {
            &mut page.plan_error
        } else {
            &mut page.revision_error
        } = Some(message.clone());
    }
    if u.metrics.is_empty() {
        page.error = Some(NO_METRICS.to_owned());
    }
    let q = match q {
        Ok(q) if page.error.is_none() => q,
        _ => return render(StatusCode::UNPROCESSABLE_ENTITY, &page),
    };
    // The plan and the files are both checked, so that every error shows at once; the
    // estate's answer shows whenever the files read.
    let plan = actuals::saved_plan(&st, &user, &q).await;
    let mut status = StatusCode::OK;
    if let Err(r) = &plan {
        let message = Some(sentence(&r.error));
        if r.field == "revision" {
            page.revision_error = message;
        } else {
            page.plan_error = message;
        }
        status = r.error.status_code();
    }
    let (answer, metrics) = match assess(&st, &who, u).await? {
        Ok(x) => x,
        Err(e) => {
            page.error = Some(format!("Not read: {e}"));
            if status == StatusCode::OK {
                status = StatusCode::UNPROCESSABLE_ENTITY;
            }
            return render(status, &page);
        }
    };
    page.show(&answer)?;
    let Ok(plan) = plan else {
        return render(status, &page);
    };
    let name = page
        .plans
        .as_ref()
        .and_then(PlanList::chosen_name)
        .unwrap_or_default()
        .to_owned();
    match actuals::compare(&st, &user, plan, Arc::new(metrics)).await {
        Ok(a) => {
            let plan = format!("{name} (revision {})", a.revision);
            page.actuals = Some(ActualsBlock::of(&a, plan));
            render(StatusCode::OK, &page)
        }
        Err(e) => {
            page.plan_error = Some(sentence(&e));
            render(e.status_code(), &page)
        }
    }
}
