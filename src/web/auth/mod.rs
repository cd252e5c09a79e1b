//! Who makes a request and what they may do.
//!
//! The authentication layer puts a [`Principal`] into the request's extensions; handlers
//! read it with [`CurrentUser`]. No principal means single-user mode (no accounts are
//! configured and the server listens on loopback): everything is allowed and nothing
//! is attributed.

pub mod access;
pub mod layer;
pub mod limit;
pub mod secret;

pub use access::{Access, Declare};
pub use layer::{Auth, AuthSettings, signed_in};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use std::convert::Infallible;

/// What a user may do; each role includes the ones before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Read and export.
    Viewer,
    /// Also create, change, restore and delete.
    Editor,
    /// Also users, tokens and the price book.
    Admin,
}

impl Role {
    /// The role's key as the CLI and the database spell it.
    pub fn key(self) -> &'static str {
        match self {
            Role::Viewer => "viewer",
            Role::Editor => "editor",
            Role::Admin => "admin",
        }
    }

    /// The role of a key; `None` for anything else.
    pub fn parse(key: &str) -> Option<Role> {
        match key {
            "viewer" => Some(Role::Viewer),
            "editor" => Some(Role::Editor),
            "admin" => Some(Role::Admin),
            _ => None,
        }
    }
}

/// The authenticated user of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// The user's name (unique).
    pub user: String,
    pub role: Role,
}

/// The request's user, `None` in single-user mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CurrentUser(pub Option<Principal>);

impl CurrentUser {
    /// The user's name, as revisions and the activity log record it.
    pub fn name(&self) -> Option<&str> {
        self.0.as_ref().map(|p| p.user.as_str())
    }
}

impl<S: Send + Sync> FromRequestParts<S> for CurrentUser {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(CurrentUser(parts.extensions.get::<Principal>().cloned()))
    }
}
