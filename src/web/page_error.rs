//! The one error type of the HTML pages: a page that could not be served, rendered as
//! an HTML page with its status (the guards' refusals of page requests use it too).

use crate::store::StoreError;
use crate::web::error::{RETRY_AFTER_SECS, with_retry_after};
use askama::Template;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

/// A page that could not be served: rendered as an HTML page with the status.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    BadRequest(String),
    /// A refusal with its own status (403, 413, 415, 421, 503) and a sentence.
    #[error("{message}")]
    Status { status: StatusCode, message: String },
    /// The database cannot be reached now ([`StoreError::is_unavailable`]): 503 with
    /// `Retry-After`; the cause is logged.
    #[error("the database does not answer: {0}")]
    Unavailable(String),
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<StoreError> for PageError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound => {
                PageError::NotFound("There is no saved scenario with this id.".into())
            }
            StoreError::Full(message) => PageError::Status {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                message: crate::verdict::words::as_sentence(&message),
            },
            e if e.is_unavailable() => PageError::Unavailable(e.to_string()),
            other => PageError::Internal(other.to_string()),
        }
    }
}

impl From<askama::Error> for PageError {
    fn from(e: askama::Error) -> Self {
        PageError::Internal(format!("template: {e}"))
    }
}

#[derive(Template)]
#[template(path = "pages/error.html")]
struct ErrorPage<'a> {
    status: u16,
    title: &'a str,
    message: &'a str,
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let unavailable =
            format!("The database does not answer now. Try again in {RETRY_AFTER_SECS} seconds.");
        let (status, title, message) = match &self {
            PageError::NotFound(m) => (StatusCode::NOT_FOUND, "Not found", m.as_str()),
            PageError::BadRequest(m) => (StatusCode::BAD_REQUEST, "Cannot open this", m.as_str()),
            PageError::Status { status, message } => (
                *status,
                match status.as_u16() {
                    403 => "Refused",
                    413 => "Too large",
                    429 => "Too many at once",
                    503 => "Busy",
                    _ => "Cannot do this",
                },
                message.as_str(),
            ),
            PageError::Unavailable(cause) => {
                tracing::warn!(error = %cause, "the database does not answer");
                (
                    StatusCode::SERVICE_UNAVAILABLE,
                    "Try again shortly",
                    unavailable.as_str(),
                )
            }
            PageError::Internal(cause) => {
                tracing::error!(error = %cause, "page failed");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Something went wrong",
                    "The server could not complete this request. Nothing was changed; try again.",
                )
            }
        };
        let message = crate::web::error::bounded(message).into_owned();
        let page = ErrorPage {
            status: status.as_u16(),
            title,
            message: &message,
        };
        with_retry_after(match page.render() {
            Ok(body) => (status, Html(body)).into_response(),
            Err(_) => (status, message).into_response(),
        })
    }
}
