//! Request metrics and their Prometheus text exposition (`GET /metrics`).
//!
//! A hand-written registry of atomics: requests by method, route template and status,
//! a latency histogram per route with fixed buckets, and the evaluations done. Routes
//! are the matched templates (`/api/v1/scenarios/{id}`), never the raw URL, so the
//! number of series stays bounded; a route's entry is allocated once, on its first
//! request.

use axum::extract::{MatchedPath, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

/// Upper bounds of the latency buckets, in seconds (`+Inf` follows).
pub const BUCKETS: [f64; 12] = [
    0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0, 30.0,
];

/// The route label of a request that matched no route (404s of unknown paths).
pub const UNMATCHED: &str = "unmatched";

/// The content type of the text exposition format.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Counters of one method and route template.
#[derive(Debug, Default)]
struct RouteStats {
    /// Requests by status code.
    statuses: Mutex<BTreeMap<u16, u64>>,
    /// Requests per latency bucket (not cumulative); the last one is `+Inf`.
    buckets: [AtomicU64; BUCKETS.len() + 1],
    /// Sum of the latencies, in nanoseconds.
    sum_nanos: AtomicU64,
}

/// The entries of one route template, one per method.
type Methods = Vec<(Method, Arc<RouteStats>)>;

/// The server's metrics registry.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Route template, then its methods.
    routes: RwLock<HashMap<String, Methods>>,
    evaluations: AtomicU64,
}

impl Metrics {
    /// Records one answered request.
    pub fn record(&self, method: &Method, route: &str, status: u16, seconds: f64) {
        let stats = self.route(method, route);
        *stats
            .statuses
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(status)
            .or_default() += 1;
        let bucket = BUCKETS
            .iter()
            .position(|le| seconds <= *le)
            .unwrap_or(BUCKETS.len());
        stats.buckets[bucket].fetch_add(1, Ordering::Relaxed);
        stats
            .sum_nanos
            .fetch_add((seconds * 1e9) as u64, Ordering::Relaxed);
    }

    /// Counts `n` scenarios evaluated.
    pub fn evaluated(&self, n: usize) {
        self.evaluations.fetch_add(n as u64, Ordering::Relaxed);
    }

    /// The entry of `method` and `route`, created on first use.
    fn route(&self, method: &Method, route: &str) -> Arc<RouteStats> {
        let find = |methods: &Methods| {
            methods
                .iter()
                .find(|(m, _)| m == method)
                .map(|(_, s)| s.clone())
        };
        let routes = self.routes.read().unwrap_or_else(|e| e.into_inner());
        if let Some(stats) = routes.get(route).and_then(find) {
            return stats;
        }
        drop(routes);
        let mut routes = self.routes.write().unwrap_or_else(|e| e.into_inner());
        let methods = routes.entry(route.to_owned()).or_default();
        if let Some(stats) = find(methods) {
            return stats;
        }
        let stats = Arc::new(RouteStats::default());
        methods.push((method.clone(), stats.clone()));
        stats
    }

    /// The metrics in the Prometheus text format, with the renders in flight and the
    /// render permits of the server.
    pub fn render(&self, renders_in_flight: usize, render_permits: usize) -> String {
        let mut routes: Vec<_> = self
            .routes
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .flat_map(|(route, methods)| {
                methods
                    .iter()
                    .map(move |(m, s)| ((m.clone(), route.clone()), s.clone()))
            })
            .collect();
        routes.sort_by(|a, b| (&a.0.1, a.0.0.as_str()).cmp(&(&b.0.1, b.0.0.as_str())));
        let mut out = String::with_capacity(1024 + routes.len() * 1536);
        header(
            &mut out,
            "volplan_http_requests_total",
            "counter",
            "HTTP requests answered, by method, route template and status code.",
        );
        for ((method, route), stats) in &routes {
            let labels = labels(method, route);
            let statuses = stats.statuses.lock().unwrap_or_else(|e| e.into_inner());
            for (status, n) in statuses.iter() {
                let _ = writeln!(
                    out,
                    "volplan_http_requests_total{{{labels},status=\"{status}\"}} {n}"
                );
            }
        }
        header(
            &mut out,
            "volplan_http_request_duration_seconds",
            "histogram",
            "Time from a request's arrival to its response headers, by method and route template.",
        );
        for ((method, route), stats) in &routes {
            let labels = labels(method, route);
            let mut cumulative = 0u64;
            for (i, bucket) in stats.buckets.iter().enumerate() {
                cumulative += bucket.load(Ordering::Relaxed);
                let le = BUCKETS.get(i).map_or("+Inf".to_owned(), |b| b.to_string());
                let _ = writeln!(
                    out,
                    "volplan_http_request_duration_seconds_bucket{{{labels},le=\"{le}\"}} {cumulative}"
                );
            }
            let sum = stats.sum_nanos.load(Ordering::Relaxed) as f64 / 1e9;
            let _ = writeln!(
                out,
                "volplan_http_request_duration_seconds_sum{{{labels}}} {sum}"
            );
            let _ = writeln!(
                out,
                "volplan_http_request_duration_seconds_count{{{labels}}} {cumulative}"
            );
        }
        header(
            &mut out,
            "volplan_evaluations_total",
            "counter",
            "Scenarios evaluated by the sizing API (evaluate, compare, layouts).",
        );
        let _ = writeln!(
            out,
            "volplan_evaluations_total {}",
            self.evaluations.load(Ordering::Relaxed)
        );
        header(
            &mut out,
            "volplan_renders_in_flight",
            "gauge",
            "PDF, PNG and XLSX renders running now.",
        );
        let _ = writeln!(out, "volplan_renders_in_flight {renders_in_flight}");
        header(
            &mut out,
            "volplan_render_permits",
            "gauge",
            "Most PDF, PNG and XLSX renders at once (--render-concurrency).",
        );
        let _ = writeln!(out, "volplan_render_permits {render_permits}");
        out
    }
}

fn header(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
}

fn labels(method: &Method, route: &str) -> String {
    format!("method=\"{}\",route=\"{}\"", method, escape(route))
}

/// A label value with `\`, `"` and line feeds escaped as the text format asks.
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
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
        assert_eq!(escape("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
        let odd = Method::from_bytes(b"BREW").unwrap();
        assert_eq!(method_label(&odd).as_str(), "OTHER");
        assert_eq!(method_label(&Method::DELETE), Method::DELETE);
    }
}
