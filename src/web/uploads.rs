//! The uploads' parsing runs in the upload pool ([`super::AppState::uploads`]), a
//! bounded pool of its own beside the renders', counted against the client who sent
//! the file: the signed-in user, or else the client's address (the TCP peer, or the
//! client a trusted proxy forwards for). One client holds at most
//! [`super::UPLOAD_SHARE`] of its permits; its next upload meanwhile is a 429 with
//! `Retry-After`.

use super::AppState;
use super::auth::Principal;
use super::auth::layer::peer_ip;
use super::render_pool::Refused;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use std::convert::Infallible;

/// Who an upload counts against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uploader(String);

impl FromRequestParts<AppState> for Uploader {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, st: &AppState) -> Result<Self, Infallible> {
        if let Some(p) = parts.extensions.get::<Principal>() {
            return Ok(Uploader(format!("user {}", p.user)));
        }
        let client = st
            .auth
            .client_addr(&parts.headers, peer_ip(&parts.extensions));
        Ok(Uploader(client.map_or_else(
            || "an unknown address".to_owned(),
            |ip| format!("address {ip}"),
        )))
    }
}

impl Uploader {
    /// Parses an upload (`what`, named in messages) in the upload pool, within this
    /// client's share.
    pub async fn parse<T: Send + 'static>(
        &self,
        st: &AppState,
        what: &'static str,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        st.uploads.run_for(&self.0, what, work).await
    }
}
