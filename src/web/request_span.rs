//! The request's span in the logs: a request id (also sent back as `X-Request-Id`), the
//! method, the path without its query (queries can carry share payloads) and the
//! matched route, recorded once routing has found it.

use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use std::sync::atomic::{AtomicU64, Ordering};
use tracing::Span;

/// The response header that carries the request id.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The id of one request, unique within the server process; a client's own
/// `X-Request-Id` is not believed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestId(pub u64);

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Gives the request its id and sends it back on the response (the outermost layer,
/// so the span and every answer carry it).
pub async fn assign_id(mut req: Request, next: Next) -> Response {
    let id = RequestId(NEXT_ID.fetch_add(1, Ordering::Relaxed));
    req.extensions_mut().insert(id);
    let mut res = next.run(req).await;
    res.headers_mut()
        .insert(REQUEST_ID, HeaderValue::from(id.0));
    res
}

/// The span of one request (the trace layer's `make_span_with`).
pub fn span<B>(req: &axum::http::Request<B>) -> Span {
    let id = req.extensions().get::<RequestId>().map_or(0, |r| r.0);
    tracing::info_span!(
        "request",
        id,
        method = %req.method(),
        path = req.uri().path(),
        route = tracing::field::Empty,
    )
}

/// Records the matched route in the request's span (a route layer: it runs once
/// routing has matched).
pub async fn record_route(req: Request, next: Next) -> Response {
    if let Some(route) = req.extensions().get::<MatchedPath>() {
        Span::current().record("route", route.as_str());
    }
    next.run(req).await
}
