//! What every handler can reach ([`AppState`]) and how the server bounds its
//! connections and work ([`ServerSettings`]).

use super::auth;
use super::config::{self, Config};
use super::guard::Guard;
use super::metrics;
use super::price_cache::PriceCache;
use super::render_pool::RenderPool;
use crate::engine::pricing::PriceBook;
use crate::store::Db;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// What every handler can reach: one shared allocation, so that the copy each
/// request's extractors and middleware take is one reference count, not one per part.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// The parts of [`AppState`].
pub struct Shared {
    pub db: Db,
    /// The bounded, timed pool every render runs in (page charts, charts, reports).
    pub renders: Arc<RenderPool>,
    /// The pool of the same kind the uploads are parsed in (inventories, benchmark
    /// results), each client at most [`UPLOAD_SHARE`] of its permits.
    pub uploads: Arc<RenderPool>,
    /// The price book in force (compiled book plus the prices stored in `db`).
    pub prices: Arc<PriceCache>,
    /// Request and evaluation counters (`GET /metrics`).
    pub metrics: Arc<metrics::Metrics>,
    /// Accounts: the settings, the user-count cache and the login rate limit.
    pub auth: Arc<auth::Auth>,
    /// The server's own address for the pages ([`Guard::own_base`](super::guard::Guard::own_base)).
    pub own_base: String,
}

impl AppState {
    /// State on `db` with the render limit of `settings`, pricing with `prices`.
    pub fn new(db: Db, settings: &ServerSettings, prices: PriceBook) -> AppState {
        AppState(Arc::new(Shared {
            db,
            renders: Arc::new(RenderPool::new(
                settings.render_permits,
                settings.render_wait,
                settings.render_timeout,
            )),
            uploads: Arc::new(RenderPool::shared(
                "uploads",
                settings.upload_permits,
                UPLOAD_SHARE,
                settings.render_wait,
                settings.render_timeout,
            )),
            prices: Arc::new(PriceCache::new(prices)),
            metrics: Arc::default(),
            auth: Arc::new(auth::Auth::new(settings.auth.clone())),
            own_base: settings.guard.own_base(),
        }))
    }

    /// The price book in force.
    pub fn book(&self) -> Arc<PriceBook> {
        self.prices.current()
    }
}

/// How the server bounds its connections and work.
#[derive(Debug, Clone)]
pub struct ServerSettings {
    /// Host check and the server's own origin.
    pub guard: Guard,
    /// A request's headers must arrive within this (also the keep-alive wait for the
    /// next request's headers).
    pub header_timeout: Duration,
    /// A connection with no bytes read or written for this long is closed.
    pub idle_timeout: Duration,
    /// Most connections at once; past it, the one longest waiting for a request's
    /// headers is closed for a new one, or the new one waits in the listen backlog.
    pub max_connections: usize,
    /// Most connections from one client address (more are closed at once); a quarter
    /// of them at most may wait over a second for their first request's headers.
    pub max_connections_per_address: usize,
    /// Most expensive renders at once.
    pub render_permits: usize,
    /// Most uploads parsed at once (a pool of their own, beside the renders').
    pub upload_permits: usize,
    /// How long a render waits for its turn before 503.
    pub render_wait: Duration,
    /// How long a render may run before its request gets 503.
    pub render_timeout: Duration,
    /// Accounts, sessions, tokens and the proxy header.
    pub auth: auth::AuthSettings,
}

/// Default header-read timeout.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Default idle timeout of a connection.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// Default wait of a render for its turn.
pub const RENDER_WAIT: Duration = Duration::from_secs(20);
/// Default longest run of a render (a PDF report takes about a second); with the wait,
/// within [`REQUEST_TIMEOUT`](super::limits::REQUEST_TIMEOUT).
pub const RENDER_TIMEOUT: Duration = Duration::from_secs(10);

/// Most uploads one client (a signed-in user, or else an address) has parsed at once;
/// more are answered 429 with `Retry-After`.
pub const UPLOAD_SHARE: usize = 1;

/// Renders at once by default: one per core, at most 4 (a 4000 x 4000 PNG or a PDF
/// report takes about 50 MB while it renders, so 4 keep the server under 300 MB).
pub fn default_render_permits() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 4))
}

impl ServerSettings {
    /// The defaults for a server listening on `addr` with no other host names.
    pub fn for_addr(addr: SocketAddr) -> ServerSettings {
        ServerSettings {
            guard: Guard::for_bind(addr),
            header_timeout: HEADER_TIMEOUT,
            idle_timeout: IDLE_TIMEOUT,
            max_connections: config::DEFAULT_MAX_CONNECTIONS as usize,
            max_connections_per_address: config::DEFAULT_MAX_CONNECTIONS_PER_ADDRESS as usize,
            render_permits: default_render_permits(),
            upload_permits: default_render_permits(),
            render_wait: RENDER_WAIT,
            render_timeout: RENDER_TIMEOUT,
            auth: auth::AuthSettings::for_bind(addr),
        }
    }

    /// The settings of `config` for a server bound to `addr`.
    pub fn from_config(
        config: &Config,
        addr: SocketAddr,
    ) -> Result<ServerSettings, crate::web::config::ConfigError> {
        let permits = config
            .render_concurrency
            .map_or_else(default_render_permits, |n| n as usize);
        Ok(ServerSettings {
            guard: Guard {
                hosts: config.host_set(addr)?,
                public_origin: config.public_origin()?,
            },
            max_connections: config.max_connections as usize,
            max_connections_per_address: config.max_connections_per_address as usize,
            render_permits: permits,
            upload_permits: permits,
            auth: config.auth_settings(addr)?,
            ..ServerSettings::for_addr(addr)
        })
    }
}
