//! Request metrics and their Prometheus text exposition (`GET /metrics`).
//!
//! Requests by method, route template and status, a latency histogram per route with
//! fixed buckets, the evaluations done and the renders in flight, kept by a
//! `metrics-exporter-prometheus` recorder of this server's own (not the process-wide
//! one, so that every server in a process counts alone). Routes are the matched
//! templates (`/api/v1/scenarios/{id}`), never the raw URL, so the number of series
//! stays bounded.

use ::metrics::{
    counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram,
    with_local_recorder,
};
use axum::extract::{MatchedPath, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle, PrometheusRecorder};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

/// Upper bounds of the latency buckets, in seconds (`+Inf` follows).
pub const BUCKETS: [f64; 12] = [
    0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0, 30.0,
];

/// The route label of a request that matched no route (404s of unknown paths).
pub const UNMATCHED: &str = "unmatched";

/// The content type of the text exposition format.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

const REQUESTS: &str = "volplan_http_requests_total";
const DURATION: &str = "volplan_http_request_duration_seconds";
const EVALUATIONS: &str = "volplan_evaluations_total";
const RENDERS: &str = "volplan_renders_in_flight";
const PERMITS: &str = "volplan_render_permits";

/// How often [`upkeep`] folds the latencies recorded since into the histograms.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// The server's metrics registry.
#[derive(Debug)]
pub struct Metrics {
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
}

impl Default for Metrics {
    fn default() -> Self {
        let recorder = PrometheusBuilder::new()
            .set_buckets(&BUCKETS)
            .expect("the bucket list is not empty")
            .build_recorder();
        let handle = recorder.handle();
        with_local_recorder(&recorder, || {
            describe_counter!(
                REQUESTS,
                "HTTP requests answered, by method, route template and status code."
            );
            describe_histogram!(
                DURATION,
                "Time from a request's arrival to its response headers, by method and route template."
            );
            describe_counter!(
                EVALUATIONS,
                "Scenarios evaluated by the sizing API (evaluate, compare, layouts)."
            );
            describe_gauge!(RENDERS, "PDF, PNG and XLSX renders running now.");
            describe_gauge!(
                PERMITS,
                "Most PDF, PNG and XLSX renders at once (--render-concurrency)."
            );
            // Shown from the start, at 0.
            counter!(EVALUATIONS).absolute(0);
        });
        Metrics { recorder, handle }
    }
}

impl Metrics {
    /// Records one answered request.
    pub fn record(&self, method: &Method, route: &str, status: u16, seconds: f64) {
        let (method, route) = (method.as_str().to_owned(), route.to_owned());
        with_local_recorder(&self.recorder, || {
            counter!(REQUESTS, "method" => method.clone(), "route" => route.clone(), "status" => status.to_string())
                .increment(1);
            histogram!(DURATION, "method" => method, "route" => route).record(seconds);
        });
    }

    /// Counts `n` scenarios evaluated.
    pub fn evaluated(&self, n: usize) {
        with_local_recorder(&self.recorder, || {
            counter!(EVALUATIONS).increment(n as u64);
        });
    }

    /// The metrics in the Prometheus text format, with the renders in flight and the
    /// render permits of the server.
    pub fn render(&self, renders_in_flight: usize, render_permits: usize) -> String {
        with_local_recorder(&self.recorder, || {
            gauge!(RENDERS).set(renders_in_flight as f64);
            gauge!(PERMITS).set(render_permits as f64);
        });
        // Without the blank lines the exporter puts between metrics (the format
        // ignores them), so that every line is a comment or a sample.
        let mut text = String::new();
        for line in self.handle.render().lines().filter(|l| !l.is_empty()) {
            text.push_str(line);
            text.push('\n');
        }
        text
    }
}

/// Folds the latencies recorded since the last scrape into their histograms every few
/// seconds, so that a server nobody scrapes does not keep every sample; ends with the
/// metrics.
pub async fn upkeep(metrics: Weak<Metrics>) {
    let mut tick = tokio::time::interval(UPKEEP_EVERY);
    loop {
        tick.tick().await;
        match metrics.upgrade() {
            Some(m) => m.handle.run_upkeep(),
            None => return,
        }
    }
}

/// The method label: the standard methods as they are, anything else `OTHER` (so a
/// client cannot grow the registry with invented methods).
fn method_label(method: &Method) -> Method {
    const STANDARD: [Method; 9] = [
        Method::GET,
        Method::HEAD,
        Method::POST,
        Method::PUT,
        Method::DELETE,
        Method::PATCH,
        Method::OPTIONS,
        Method::CONNECT,
        Method::TRACE,
    ];
    if STANDARD.contains(method) {
        method.clone()
    } else {
        Method::from_bytes(b"OTHER").expect("OTHER is a valid method token")
    }
}

/// Middleware: times every request and records it under its route template.
pub async fn track(State(metrics): State<Arc<Metrics>>, req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = method_label(req.method());
    let route = req.extensions().get::<MatchedPath>().cloned();
    let res = next.run(req).await;
    metrics.record(
        &method,
        route.as_ref().map_or(UNMATCHED, MatchedPath::as_str),
        res.status().as_u16(),
        start.elapsed().as_secs_f64(),
    );
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line is a comment or `name{labels} value` with a number for value.
    fn assert_exposition(text: &str) {
        for line in text.lines() {
            if line.starts_with("# HELP ") || line.starts_with("# TYPE ") {
                continue;
            }
            let (series, value) = line.rsplit_once(' ').expect(line);
            assert!(value.parse::<f64>().is_ok(), "{line}");
            let name = series.split('{').next().unwrap();
            assert!(
                !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':'),
                "{line}"
            );
            if let Some(labels) = series.strip_prefix(name).filter(|l| !l.is_empty()) {
                assert!(labels.starts_with('{') && labels.ends_with('}'), "{line}");
            }
        }
    }

    #[test]
    fn counts_and_buckets_accumulate() {
        let m = Metrics::default();
        m.record(&Method::GET, "/api/v1/scenarios/{id}", 200, 0.003);
        m.record(&Method::GET, "/api/v1/scenarios/{id}", 404, 0.2);
        m.record(&Method::GET, "/api/v1/scenarios/{id}", 200, 99.0);
        m.evaluated(3);
        let text = m.render(1, 4);
        assert_exposition(&text);
        let labels = "method=\"GET\",route=\"/api/v1/scenarios/{id}\"";
        for line in [
            format!("volplan_http_requests_total{{{labels},status=\"200\"}} 2"),
            format!("volplan_http_requests_total{{{labels},status=\"404\"}} 1"),
            format!("volplan_http_request_duration_seconds_bucket{{{labels},le=\"0.001\"}} 0"),
            format!("volplan_http_request_duration_seconds_bucket{{{labels},le=\"0.005\"}} 1"),
            format!("volplan_http_request_duration_seconds_bucket{{{labels},le=\"0.25\"}} 2"),
            format!("volplan_http_request_duration_seconds_bucket{{{labels},le=\"30\"}} 2"),
            format!("volplan_http_request_duration_seconds_bucket{{{labels},le=\"+Inf\"}} 3"),
            format!("volplan_http_request_duration_seconds_count{{{labels}}} 3"),
            "volplan_evaluations_total 3".to_owned(),
            "volplan_renders_in_flight 1".to_owned(),
            "volplan_render_permits 4".to_owned(),
        ] {
            assert!(text.lines().any(|l| l == line), "{line} missing in\n{text}");
        }
        let sum_line = text
            .lines()
            .find(|l| l.starts_with("volplan_http_request_duration_seconds_sum"))
            .unwrap();
        let sum: f64 = sum_line.rsplit_once(' ').unwrap().1.parse().unwrap();
        assert!((sum - 99.203).abs() < 1e-6, "{sum}");
    }

    #[test]
    fn label_values_are_escaped_and_invented_methods_folded() {
        let m = Metrics::default();
        m.record(&Method::GET, "a\"b\\c\nd", 200, 0.1);
        let text = m.render(0, 1);
        assert_exposition(&text);
        assert!(text.contains("route=\"a\\\"b\\\\c\\nd\""), "{text}");
        let odd = Method::from_bytes(b"BREW").unwrap();
        assert_eq!(method_label(&odd).as_str(), "OTHER");
        assert_eq!(method_label(&Method::DELETE), Method::DELETE);
    }
}
