//! The one error type of the JSON API and the `ApiJson` body extractor.
//!
//! Every error body is `{"error": "sentence", "field": "path" | null}` (contract): 400 for
//! malformed JSON, 413 over the body limit, 415 without a JSON content type, 422 for values
//! that fail validation (with the field path, and `errors` listing every wrong field at
//! once), 404 for unknown ids, 503 with `Retry-After` when the database does not answer
//! or the server is too busy. 5xx causes are logged and never sent to the client.

use super::body_shape;
use crate::engine::{FieldError, FieldErrors};
use crate::store::StoreError;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// An API failure, rendered as the contract's error body.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the body is not JSON (syntax error, truncated, empty).
    #[error("{0}")]
    BadRequest(String),
    /// 404: no such resource.
    #[error("{0}")]
    NotFound(String),
    /// 405: the path exists but not with this method.
    #[error("this endpoint does not take that method; the Allow header lists the ones it takes")]
    MethodNotAllowed,
    /// 408: the request took longer than the server allows.
    #[error("the request took longer than {} s; try a smaller request", super::REQUEST_TIMEOUT.as_secs())]
    Timeout,
    /// 413: the body is over the limit.
    #[error(
        "the request body is larger than {} bytes (1 MiB); send a smaller body",
        super::BODY_LIMIT
    )]
    PayloadTooLarge,
    /// 415: the body is not declared as JSON.
    #[error("send the body as JSON with the header `Content-Type: application/json`")]
    UnsupportedMediaType,
    /// 422: JSON of the wrong shape or values out of range; `field` is the path when known.
    #[error("{message}")]
    Invalid {
        field: Option<String>,
        message: String,
    },
    /// 422: values that fail validation, every wrong field of the input.
    #[error("{}", .0.first().message)]
    InvalidFields(FieldErrors),
    /// A refusal with its own status: 403 (cross-site), 415 (charset), 421 (foreign
    /// host), 503 (too busy).
    #[error("{message}")]
    Refused { status: StatusCode, message: String },
    /// 503: the database cannot be reached now ([`StoreError::is_unavailable`]); the
    /// cause is logged, the client is told to try again after [`RETRY_AFTER_SECS`].
    #[error("the database does not answer now; try again in {RETRY_AFTER_SECS} s")]
    Unavailable(String),
    /// 500: a failure of the server; the cause is logged, the client sees "internal error".
    #[error("internal error")]
    Internal(String),
}

/// The contract's error body.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// What went wrong and what to do, as a sentence.
    pub error: String,
    /// The path of the offending field, e.g. `workload.io_size_kib`, or null.
    pub field: Option<String>,
    /// 422 only: every wrong field of the input, the first being `field` and `error`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<ErrorItem>,
}

/// One wrong field of a 422.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorItem {
    /// The path of the field, or null when the input as a whole is wrong.
    pub field: Option<String>,
    /// What is wrong and what to enter instead.
    pub message: String,
}

impl ApiError {
    /// 422 naming a field.
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        ApiError::Invalid {
            field: Some(field.into()),
            message: message.into(),
        }
    }

    /// 404 for a scenario id that does not exist.
    pub fn no_scenario(id: impl std::fmt::Display) -> Self {
        ApiError::NotFound(format!("no scenario with id {id}"))
    }

    /// 500 with the cause kept for the log.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        ApiError::Internal(cause.to_string())
    }

    /// The HTTP status of this error.
    pub fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Timeout => StatusCode::REQUEST_TIMEOUT,
            ApiError::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Invalid { .. } | ApiError::InvalidFields(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ApiError::Refused { status, .. } => *status,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The same error with its field path under `prefix` (e.g. `scenarios[2]`).
    pub fn within(self, prefix: &str) -> Self {
        match self {
            ApiError::Invalid { field, message } => ApiError::Invalid {
                field: Some(match field {
                    Some(f) if f.starts_with('[') => format!("{prefix}{f}"),
                    Some(f) => format!("{prefix}.{f}"),
                    None => prefix.to_owned(),
                }),
                message,
            },
            ApiError::InvalidFields(errors) => ApiError::InvalidFields(errors.within(prefix)),
            other => other,
        }
    }
}

impl From<FieldError> for ApiError {
    fn from(e: FieldError) -> Self {
        ApiError::Invalid {
            field: Some(e.field),
            message: e.message,
        }
    }
}

impl From<FieldErrors> for ApiError {
    fn from(e: FieldErrors) -> Self {
        ApiError::InvalidFields(e)
    }
}

impl From<StoreError> for ApiError {
    /// Handlers map `NotFound` themselves to say what was missing; this is the fallback.
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound => ApiError::NotFound("not found".to_owned()),
            StoreError::Full(message) => ApiError::Refused {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                message,
            },
            e if e.is_unavailable() => ApiError::Unavailable(e.to_string()),
            other => ApiError::internal(other),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status_code();
        match &self {
            ApiError::Internal(cause) => tracing::error!(%cause, "request failed"),
            ApiError::Unavailable(cause) => tracing::warn!(%cause, "the database does not answer"),
            _ => {}
        }
        let error = bounded(&self.to_string()).into_owned();
        // Field paths may hold a map key the client chose, messages quote the input.
        let item = |field: Option<String>, message: String| ErrorItem {
            field: field
                .filter(|f| !f.is_empty())
                .map(|f| f.chars().take(MAX_FIELD_CHARS).collect()),
            message: bounded(&message).into_owned(),
        };
        let errors: Vec<ErrorItem> = match self {
            ApiError::Invalid { field, message } => vec![item(field, message)],
            // An empty field path is the input as a whole.
            ApiError::InvalidFields(errors) => errors
                .into_vec()
                .into_iter()
                .map(|e| item(Some(e.field), e.message))
                .collect(),
            _ => Vec::new(),
        };
        let body = ErrorBody {
            error,
            field: errors.first().and_then(|e| e.field.clone()),
            errors,
        };
        with_retry_after((status, axum::Json(body)).into_response())
    }
}

/// Seconds a 429 or 503 (the database does not answer, the server is busy, a client's
/// upload share is taken) asks the client to wait before trying again, in its
/// `Retry-After` header.
pub const RETRY_AFTER_SECS: u64 = 5;

/// `response` with `Retry-After: RETRY_AFTER_SECS` when it is a 429 or 503 without one:
/// every such answer of the API and the pages says when to try again.
pub fn with_retry_after(mut response: Response) -> Response {
    let status = response.status();
    if (status == StatusCode::TOO_MANY_REQUESTS || status == StatusCode::SERVICE_UNAVAILABLE)
        && !response.headers().contains_key(header::RETRY_AFTER)
    {
        response.headers_mut().insert(
            header::RETRY_AFTER,
            header::HeaderValue::from(RETRY_AFTER_SECS),
        );
    }
    response
}

/// Longest piece of the input an error message quotes (between backticks), in
/// characters; longer ones are cut to their start.
pub const MAX_QUOTE_CHARS: usize = 60;
/// Longest error message, in characters.
pub const MAX_MESSAGE_CHARS: usize = 1000;
/// Longest field path of an error (a path may hold a map key the client chose).
const MAX_FIELD_CHARS: usize = 200;

/// An error message as it is sent: each quoted piece (between backticks, as every
/// message quotes the input it refuses) at most [`MAX_QUOTE_CHARS`] characters, the
/// whole at most [`MAX_MESSAGE_CHARS`], so that no input comes back whole.
pub fn bounded(message: &str) -> std::borrow::Cow<'_, str> {
    if message.len() <= MAX_QUOTE_CHARS {
        return std::borrow::Cow::Borrowed(message);
    }
    let mut out = String::with_capacity(message.len().min(4 * MAX_MESSAGE_CHARS));
    for (i, part) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 && part.chars().nth(MAX_QUOTE_CHARS).is_some() {
            out.extend(part.chars().take(MAX_QUOTE_CHARS - 1));
            out.push('…');
        } else {
            out.push_str(part);
        }
    }
    if let Some((cut, _)) = out.char_indices().nth(MAX_MESSAGE_CHARS - 1) {
        out.truncate(cut);
        out.push('…');
    }
    std::borrow::Cow::Owned(out)
}

/// A JSON body whose failures answer with the contract's error body.
///
/// Unlike `axum::Json`, whose rejections are plain text, this gives 415 without a JSON
/// content type, 413 over the body limit, 400 for malformed JSON and 422 (with the
/// serde path as `field`) for JSON of the wrong shape.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(req.headers().get(header::CONTENT_TYPE)) {
            return Err(ApiError::UnsupportedMediaType);
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|r| {
            if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge
            } else {
                ApiError::BadRequest(format!("cannot read the request body: {}", r.body_text()))
            }
        })?;
        parse_json(&bytes).map(ApiJson)
    }
}

/// `application/json`, `application/json; charset=utf-8` or `application/*+json`.
fn is_json(value: Option<&header::HeaderValue>) -> bool {
    let Some(Ok(text)) = value.map(|v| v.to_str()) else {
        return false;
    };
    let mime = text
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
}

/// Parses `bytes` as one JSON value of type `T`, mapping serde's errors onto the contract.
///
/// Syntax is checked over the whole body first, so a malformed body is a 400 even when
/// its start already has the wrong shape.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    // The common case first: a well-formed body parses in one pass. Only a failure
    // pays for the syntax pass and the field path below. The body is checked as UTF-8
    // once, as a whole, so that the parser need not check each string it reads.
    if let Ok(Ok(value)) = std::str::from_utf8(bytes).map(serde_json::from_str::<T>) {
        return object_shaped::<T>(bytes).map(|()| value);
    }
    let syntax = &mut serde_json::Deserializer::from_slice(bytes);
    serde::de::IgnoredAny::deserialize(&mut *syntax)
        .and_then(|_| syntax.end())
        .map_err(|e| json_error(&e, None))?;
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut *de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        json_error(&inner, (path != "." && !path.is_empty()).then_some(path))
    })?;
    de.end().map_err(|e| json_error(&e, None))?;
    object_shaped::<T>(bytes)?;
    Ok(value)
}

/// 422 when a body that `T` reads as an object is a JSON array (which serde's derived
/// structs would read as their fields in order).
fn object_shaped<T: DeserializeOwned>(bytes: &[u8]) -> Result<(), ApiError> {
    if body_shape::is_array(bytes) && body_shape::wants_object::<T>() {
        return Err(ApiError::Invalid {
            field: None,
            message: "invalid type: array, expected a JSON object".to_owned(),
        });
    }
    Ok(())
}

fn json_error(e: &serde_json::Error, field: Option<String>) -> ApiError {
    let message = without_position(&e.to_string());
    if e.is_syntax() || e.is_eof() || e.is_io() {
        let hint = if bytes_were_empty(e) {
            "the request body is empty; send a JSON object".to_owned()
        } else {
            format!("the request body is not valid JSON: {message}")
        };
        ApiError::BadRequest(hint)
    } else {
        ApiError::Invalid { field, message }
    }
}

/// serde_json reports an empty body as EOF at line 1 column 0.
fn bytes_were_empty(e: &serde_json::Error) -> bool {
    e.is_eof() && e.line() == 1 && e.column() == 0
}

/// Drops serde_json's " at line X column Y" suffix: the body is one line to most clients.
fn without_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) if message[i..].contains(" column ") => message[..i].to_owned(),
        _ => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_quote_only_the_start_of_long_input() {
        let long = "x".repeat(900_000);
        let m = format!("`{long}` is not in the catalog; use `Standard_E32s_v5`");
        let b = bounded(&m);
        assert!(
            b.starts_with(&format!("`{}…`", "x".repeat(MAX_QUOTE_CHARS - 1))),
            "{b}"
        );
        assert!(b.ends_with("use `Standard_E32s_v5`"), "{b}");
        let unquoted = "y".repeat(5000);
        let b = bounded(&unquoted);
        assert_eq!(b.chars().count(), MAX_MESSAGE_CHARS);
        assert_eq!(bounded("short `one`"), "short `one`");
        let body = ApiError::invalid("a".repeat(500), m).into_response();
        assert_eq!(body.status(), StatusCode::UNPROCESSABLE_ENTITY);
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Probe {
        #[allow(dead_code)]
        n: u32,
    }

    #[tokio::test]
    async fn a_database_out_of_reach_is_503_with_retry_after() {
        let res = ApiError::from(StoreError::Db(sqlx::Error::PoolTimedOut)).into_response();
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(res.headers()[header::RETRY_AFTER], "5");
        let body = axum::body::to_bytes(res.into_body(), 1 << 16)
            .await
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert!(
            v["error"].as_str().unwrap().contains("does not answer"),
            "{v}"
        );
        let res = crate::web::page_error::PageError::from(StoreError::Db(sqlx::Error::PoolClosed))
            .into_response();
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(res.headers()[header::RETRY_AFTER], "5");
        // Other failures stay 500, without the header.
        let res = ApiError::from(StoreError::Corrupt("x".into())).into_response();
        assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(!res.headers().contains_key(header::RETRY_AFTER));
    }

    #[test]
    fn position_suffix_is_cut() {
        assert_eq!(
            without_position("expected value at line 1 column 3"),
            "expected value"
        );
        assert_eq!(without_position("plain"), "plain");
    }

    #[test]
    fn syntax_is_400_and_shape_is_422_with_field() {
        assert!(matches!(
            parse_json::<Probe>(b"{\"n\": "),
            Err(ApiError::BadRequest(_))
        ));
        assert!(
            matches!(parse_json::<Probe>(b""), Err(ApiError::BadRequest(m)) if m.contains("empty"))
        );
        assert!(matches!(
            parse_json::<Probe>(b"{\"n\": 1} x"),
            Err(ApiError::BadRequest(_))
        ));
        match parse_json::<Probe>(b"{\"n\": \"big\"}") {
            Err(ApiError::Invalid { field, message }) => {
                assert_eq!(field.as_deref(), Some("n"));
                assert!(!message.contains("line"), "{message}");
            }
            other => panic!("expected 422, got {other:?}"),
        }
        match parse_json::<Probe>(b"{\"n\": 1, \"typo\": 2}") {
            Err(ApiError::Invalid { field, .. }) => assert_eq!(field.as_deref(), Some("typo")),
            other => panic!("expected 422, got {other:?}"),
        }
        match parse_json::<Probe>(b"[1]") {
            Err(ApiError::Invalid { field, message }) => {
                assert_eq!(field, None);
                assert!(message.contains("expected a JSON object"), "{message}");
            }
            other => panic!("expected 422 for an array, got {other:?}"),
        }
        assert!(matches!(
            parse_json::<Probe>(b"[1"),
            Err(ApiError::BadRequest(_))
        ));
        assert!(parse_json::<serde_json::Value>(b"[1]").is_ok());
    }

    #[test]
    fn json_content_types() {
        let h = |s: &'static str| header::HeaderValue::from_static(s);
        assert!(is_json(Some(&h("application/json"))));
        assert!(is_json(Some(&h("Application/JSON; charset=utf-8"))));
        assert!(is_json(Some(&h("application/merge-patch+json"))));
        assert!(!is_json(Some(&h("text/plain"))));
        assert!(!is_json(None));
    }

    #[test]
    fn prefix_joins_paths() {
        let e = ApiError::invalid("workload.threads", "m").within("scenarios[2]");
        assert!(
            matches!(e, ApiError::Invalid { field: Some(f), .. } if f == "scenarios[2].workload.threads")
        );
    }

    #[tokio::test]
    async fn api_timeouts_answer_with_the_error_body() {
        use axum::Router;
        use axum::body::Body;
        use axum::routing::get;
        use tower::ServiceExt;
        use tower_http::timeout::TimeoutLayer;
        let slow = || async {
            tokio::time::sleep(std::time::Duration::from_secs(5)).await;
            "late"
        };
        let app = Router::new()
            .route("/api/slow", get(slow))
            .route("/slow", get(slow))
            .layer(TimeoutLayer::with_status_code(
                StatusCode::REQUEST_TIMEOUT,
                std::time::Duration::from_millis(10),
            ))
            .layer(axum::middleware::from_fn(crate::web::api_timeout_body));
        let res = app
            .clone()
            .oneshot(Request::get("/api/slow").body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::REQUEST_TIMEOUT);
        let body = axum::body::to_bytes(res.into_body(), 1 << 16)
            .await
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("longer"));
        assert!(v["field"].is_null());
        let res = app
            .oneshot(Request::get("/slow").body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::REQUEST_TIMEOUT);
    }
}
