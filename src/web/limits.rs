//! The bounds every request has: the methods served, its body size and how long it
//! may take.

use axum::http::Method;
use std::time::Duration;

/// Largest request body: 1 MiB (contract: 413 above).
pub const BODY_LIMIT: usize = 1 << 20;

/// Largest body of the AVS inventory and plan endpoints: an RVTools export or the
/// inventory of 10,000 VMs is several MiB.
pub const AVS_BODY_LIMIT: usize = 32 << 20;

/// Largest body of `POST /api/v1/iac/evaluate` and the Check code page: `terraform
/// show -json` of an estate carries its whole configuration and state.
pub const IAC_BODY_LIMIT: usize = 8 << 20;

/// Largest body of the live estate's endpoints and page: 30 days of 5-minute metrics
/// of tens of volumes.
pub const LIVE_BODY_LIMIT: usize = 64 << 20;

/// The body limit of a request path.
pub fn body_limit(path: &str) -> usize {
    if path.starts_with("/api/v1/live/") || path == "/live" || path == "/live/actuals" {
        LIVE_BODY_LIMIT
    } else if path.starts_with("/api/v1/avs/") {
        AVS_BODY_LIMIT
    } else if path.starts_with("/api/v1/iac/") || path == "/iac" {
        IAC_BODY_LIMIT
    } else {
        BODY_LIMIT
    }
}
/// A request that takes longer is answered 408.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Whether any route serves `method`; others (TRACE, OPTIONS, PATCH, ...) are a 405.
pub fn served_method(method: &Method) -> bool {
    matches!(
        *method,
        Method::GET | Method::HEAD | Method::POST | Method::PUT | Method::DELETE
    )
}

/// The `Allow` header of a path no route serves.
pub const SERVED_METHODS: &str = "GET, HEAD, POST, PUT, DELETE";
