//! The live estate page: upload a Resource Graph result (optional) and an Azure
//! Monitor metrics export; see the estate's verdict, each volume's demand charted at
//! P50, P95 and max, its headroom and its right-sizing. Nothing is saved.
//!
//! Reading and sizing are [`crate::live`]'s; the sentences are the verdict's.

use super::{PageError, render};
use crate::format::{mibps, monthly, signed_pct};
use crate::live::estate::{self as assessed, LiveAnswer};
use crate::live::{LiveError, inventory};
use crate::report::charts::Chart;
use crate::web::charts::ChartBlock;
use crate::web::state::AppState;
use crate::web::uploads::Uploader;
use askama::Template;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::response::Response;

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

#[derive(Template)]
#[template(path = "pages/live.html")]
pub struct LivePage {
    pub error: Option<String>,
    pub statements: Vec<String>,
    pub warnings: Vec<String>,
    pub chart: Option<ChartBlock>,
    pub rows: Vec<Row>,
    pub metric_names: String,
    pub total: String,
}

impl LivePage {
    fn empty() -> Self {
        LivePage {
            error: None,
            statements: Vec::new(),
            warnings: Vec::new(),
            chart: None,
            rows: Vec::new(),
            metric_names: assessed::metric_names().join(", "),
            total: String::new(),
        }
    }

    fn of(answer: &LiveAnswer) -> Result<Self, PageError> {
        let chart = Chart::live_demand(answer);
        let block = ChartBlock::new("chart-live-demand", &chart, Vec::new())
            .map_err(|e| PageError::Internal(e.to_string()))?;
        let money: f64 = answer.volumes.iter().filter_map(|v| v.monthly).sum();
        Ok(LivePage {
            statements: answer.verdict.statements.clone(),
            warnings: answer.warnings.clone(),
            chart: Some(block),
            rows: answer
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
                .collect(),
            total: monthly(Some(money), answer.currency),
            ..LivePage::empty()
        })
    }
}

/// `GET /live`: the upload form.
pub async fn page() -> Result<Response, PageError> {
    render(StatusCode::OK, &LivePage::empty())
}

/// The uploaded files: the Resource Graph result (may be empty) and the metrics.
async fn read(mut mp: Multipart) -> Result<(Vec<u8>, Vec<u8>), String> {
    let (mut graph, mut metrics) = (Vec::new(), Vec::new());
    loop {
        let field = match mp.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) => return Err(format!("The upload could not be read ({e}). Try again.")),
        };
        let name = field.name().unwrap_or("").to_owned();
        let bytes = field
            .bytes()
            .await
            .map_err(|e| format!("The upload could not be read ({e}). Try again."))?;
        match name.as_str() {
            "inventory" => graph = bytes.to_vec(),
            "metrics" => metrics = bytes.to_vec(),
            _ => {}
        }
    }
    if metrics.is_empty() {
        return Err("Choose the metrics export (the collector CSV or the REST JSON).".to_owned());
    }
    Ok((graph, metrics))
}

fn text(bytes: &[u8], what: &str) -> Result<String, LiveError> {
    String::from_utf8(bytes.to_vec())
        .map_err(|_| LiveError::new(what, "the file is not UTF-8 text"))
}

/// `POST /live`: reads both files and shows the answer.
pub async fn upload(
    State(st): State<AppState>,
    who: Uploader,
    mp: Multipart,
) -> Result<Response, PageError> {
    let mut page = LivePage::empty();
    let (graph, metrics) = match read(mp).await {
        Ok(x) => x,
        Err(e) => {
            page.error = Some(e);
            return render(StatusCode::BAD_REQUEST, &page);
        }
    };
    let book = st.book();
    let answered = who
        .parse(&st, "live metrics", move || {
            let estate = if graph.iter().all(u8::is_ascii_whitespace) {
                None
            } else {
                Some(inventory::parse(&text(&graph, "inventory")?)?.estate(None)?)
            };
            let (m, sent) = crate::web::api::live::read_metrics(&text(&metrics, "metrics")?)?;
            assessed::assess(&m, sent.as_ref().or(estate.as_ref()), &book)
                .map_err(|e| LiveError::new(e.first().field.clone(), e.first().message.clone()))
        })
        .await?;
    match answered {
        Ok(answer) => render(StatusCode::OK, &LivePage::of(&answer)?),
        Err(e) => {
            page.error = Some(format!("Not read: {e}"));
            render(StatusCode::UNPROCESSABLE_ENTITY, &page)
        }
    }
}
