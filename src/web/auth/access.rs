//! Who may call a route, declared where the route is registered: every `.route(...)` and
//! `.routes(...)` of the web layer wraps its method router in one of [`Declare`]'s
//! methods (`public`, `compute`, `read_write`, `admin_writes`, `admin`). The declared
//! [`Access`] becomes a route layer that checks the role the method needs, behind the
//! sign-in gate that every route but the public ones passes (`layer::sign_in`).
//!
//! Authentication does not depend on the declaration: a route registered without one
//! still asks for credentials in team mode. A test reads the web layer's source and
//! fails on a route registered without a declaration, and one that every `.public()`
//! route is in `layer::PUBLIC_ROUTES`.

use super::Role;
use super::layer::admit;
use axum::extract::Request;
use axum::http::Method;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::MethodRouter;
use utoipa_axum::router::UtoipaMethodRouter;

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Reads (GET, HEAD) for viewers, changes for editors: a saved resource.
    ReadWrite,
    /// Any method for viewers: a computation that saves nothing (sizing, comparing,
    /// sweeping, re-pricing, parsing an upload, a chart or a preview).
    Compute,
    /// Reads for viewers, changes for admins: the price book.
    AdminWrites,
    /// Admins only, reads included: the API tokens.
    Admin,
}

impl Access {
    /// The least role that may send `method`.
    pub fn needed(self, method: &Method) -> Role {
        let reads = matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
        match self {
            Access::Compute => Role::Viewer,
            Access::ReadWrite if reads => Role::Viewer,
            Access::ReadWrite => Role::Editor,
            Access::AdminWrites if reads => Role::Viewer,
            Access::AdminWrites | Access::Admin => Role::Admin,
        }
    }
}

/// The route layer of `access`: check the role of the user the gate found.
fn guarded<S: Clone + Send + Sync + 'static>(
    router: MethodRouter<S>,
    access: Access,
) -> MethodRouter<S> {
    router.route_layer(middleware::from_fn(move |req: Request, next: Next| {
        check(access, req, next)
    }))
}

async fn check(access: Access, req: Request, next: Next) -> Response {
    let needed = access.needed(req.method());
    admit(needed, req, next).await
}

/// Declares who may call a route (see the module doc).
pub trait Declare: Sized {
    /// Applies `access` to the route.
    fn access(self, access: Access) -> Self;

    /// Anyone, signed in or not: probes, metrics, static files, the login page. The
    /// gate lets a route through unsigned only when its path is one of
    /// `layer::PUBLIC_ROUTES`; this marks it so where it is registered.
    fn public(self) -> Self {
        self
    }
    /// See [`Access::Compute`].
    fn compute(self) -> Self {
        self.access(Access::Compute)
    }
    /// See [`Access::ReadWrite`].
    fn read_write(self) -> Self {
        self.access(Access::ReadWrite)
    }
    /// See [`Access::AdminWrites`].
    fn admin_writes(self) -> Self {
        self.access(Access::AdminWrites)
    }
    /// See [`Access::Admin`].
    fn admin(self) -> Self {
        self.access(Access::Admin)
    }
}

impl<S: Clone + Send + Sync + 'static> Declare for MethodRouter<S> {
    fn access(self, access: Access) -> Self {
        guarded(self, access)
    }
}

impl<S: Clone + Send + Sync + 'static> Declare for UtoipaMethodRouter<S> {
    fn access(self, access: Access) -> Self {
        let (schemas, paths, router) = self;
        (schemas, paths, guarded(router, access))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_by_access_and_method() {
        let (get, post, delete) = (Method::GET, Method::POST, Method::DELETE);
        assert_eq!(Access::ReadWrite.needed(&get), Role::Viewer);
        assert_eq!(Access::ReadWrite.needed(&post), Role::Editor);
        assert_eq!(Access::ReadWrite.needed(&delete), Role::Editor);
        assert_eq!(Access::Compute.needed(&post), Role::Viewer);
        assert_eq!(Access::AdminWrites.needed(&get), Role::Viewer);
        assert_eq!(Access::AdminWrites.needed(&post), Role::Admin);
        assert_eq!(Access::Admin.needed(&get), Role::Admin);
    }
}
