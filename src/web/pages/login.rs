//! `GET /login` (the form), `POST /login` (check the password, start a session) and
//! `POST /logout` (end it). Both posts carry the form token like every other form.

use crate::store;
use crate::web::auth::Declare;
use crate::web::auth::layer::{SESSION_COOKIE, SESSION_LIFETIME, cookie, peer_ip};
use crate::web::auth::secret::{decoy_hash, digest, random_secret, verify_password};
use crate::web::page_error::PageError;
use crate::web::state::AppState;
use askama::Template;
use axum::Router;
use axum::extract::{FromRequest, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum_extra::extract::cookie::{Cookie, SameSite};
use serde::Deserialize;

/// The login and logout routes, behind the form-token check.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/login", get(page).post(login).public())
        .route("/logout", post(logout).public())
        .route_layer(axum::middleware::from_fn(
            crate::web::guard::require_form_token,
        ))
}

#[derive(Template)]
#[template(path = "pages/login.html")]
struct LoginPage<'a> {
    next: &'a str,
    user: &'a str,
    problem: &'a str,
}

/// Query of `GET /login`.
#[derive(Debug, Default, Deserialize)]
pub struct LoginQuery {
    #[serde(default)]
    next: String,
}

/// The fields of the login form.
#[derive(Debug, Default, Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    user: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    next: String,
}

/// `next` when it is a path on this site (not `//host`, not the login page), else `/`.
pub fn safe_next(next: &str) -> &str {
    let ok = next.starts_with('/')
        && !next.starts_with("//")
        && !next.starts_with("/\\")
        && !next.chars().any(|c| c.is_control() || c == '\\')
        && !next.starts_with("/login")
        && !next.starts_with("/logout")
        && next.len() <= 2000;
    if ok { next } else { "/" }
}

fn form(status: StatusCode, next: &str, user: &str, problem: &str) -> Result<Response, PageError> {
    let page = LoginPage {
        next: safe_next(next),
        user,
        problem,
    };
    Ok((status, Html(page.render()?)).into_response())
}

/// `GET /login`: the form (or, with no users, straight on to `next`).
pub async fn page(
    State(st): State<AppState>,
    Query(q): Query<LoginQuery>,
) -> Result<Response, PageError> {
    if !st.auth.enabled(&st.db).await? {
        return Ok(Redirect::to(safe_next(&q.next)).into_response());
    }
    form(StatusCode::OK, &q.next, "", "")
}

fn session_cookie(value: &str, max_age: u64, secure: bool) -> HeaderValue {
    let cookie = Cookie::build((SESSION_COOKIE, value))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .max_age(time::Duration::seconds(
            i64::try_from(max_age).unwrap_or(i64::MAX),
        ))
        .secure(secure);
    HeaderValue::from_str(&cookie.to_string())
        .expect("a cookie of hex digits and fixed attributes is a valid header value")
}

/// `POST /login`: on the right password a new session and a 303 to `next`; on a wrong
/// one 401 with the form again; while the name or address is locked out, 429 with
/// `Retry-After`.
pub async fn login(State(st): State<AppState>, req: Request) -> Result<Response, PageError> {
    let peer = peer_ip(req.extensions());
    let client = st.auth.client_addr(req.headers(), peer);
    let axum::Form(f) = axum::Form::<LoginForm>::from_request(req, &st)
        .await
        .map_err(|e| PageError::BadRequest(e.body_text()))?;
    let user = f.user.trim().to_owned();
    if !st.auth.enabled(&st.db).await? {
        return Ok(Redirect::to(safe_next(&f.next)).into_response());
    }
    if let Err(wait) = st.auth.limiter.check(&user, client) {
        let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        let mut res = form(
            StatusCode::TOO_MANY_REQUESTS,
            &f.next,
            &user,
            &format!("Too many failed logins. Wait {secs} s before trying again."),
        )?;
        res.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
        return Ok(res);
    }
    let account = store::users::find_user(&st.db, &user).await?;
    let hash = account.as_ref().map(|a| a.password_hash.clone());
    let password = f.password;
    let _permit = st
        .auth
        .hashing
        .acquire()
        .await
        .map_err(|e| PageError::Internal(e.to_string()))?;
    let matches = tokio::task::spawn_blocking(move || match &hash {
        Some(h) => verify_password(&password, h),
        None => verify_password(&password, decoy_hash()),
    })
    .await
    .map_err(|e| PageError::Internal(format!("password check failed: {e}")))?;
    let Some(account) = account.filter(|_| matches) else {
        st.auth.limiter.failed(&user, client);
        let mut res = form(
            StatusCode::UNAUTHORIZED,
            &f.next,
            &user,
            "Wrong user name or password.",
        )?;
        res.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer realm=\"volplan\""),
        );
        return Ok(res);
    };
    st.auth.limiter.succeeded(&user);
    let secret = random_secret().map_err(PageError::Internal)?;
    let lifetime = SESSION_LIFETIME.as_secs();
    let expires = store::format_utc(store::now_secs() + lifetime);
    store::sessions::create_session(&st.db, &digest(&secret), account.id, &expires).await?;
    tracing::info!(user = %account.name, "logged in");
    let mut res = Redirect::to(safe_next(&f.next)).into_response();
    res.headers_mut().append(
        header::SET_COOKIE,
        session_cookie(&secret, lifetime, st.auth.settings.secure_cookies),
    );
    Ok(res)
}

/// `POST /logout`: ends the session (in the database, so the cookie is dead even if
/// kept) and clears the cookie; 303 to the login page.
pub async fn logout(State(st): State<AppState>, headers: HeaderMap) -> Result<Response, PageError> {
    if let Some(secret) = cookie(&headers, SESSION_COOKIE) {
        store::sessions::end_session(&st.db, &digest(&secret)).await?;
    }
    let mut res = Redirect::to("/login").into_response();
    res.headers_mut().append(
        header::SET_COOKIE,
        session_cookie("", 0, st.auth.settings.secure_cookies),
    );
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::safe_next;

    #[test]
    fn next_stays_on_this_site() {
        assert_eq!(safe_next("/scenarios/3?rev=2"), "/scenarios/3?rev=2");
        for bad in [
            "",
            "https://evil.example/",
            "//evil.example",
            "/\\evil.example",
            "/login?next=/x",
            "scenarios",
            "/a\nb",
        ] {
            assert_eq!(safe_next(bad), "/", "{bad:?}");
        }
    }
}
