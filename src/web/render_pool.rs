//! The one way heavy work runs off the async workers: at most `permits` at once, each
//! for at most `timeout`. The server keeps two such pools: the renders (page charts,
//! chart downloads and every report format) and the uploads' parsing (inventory
//! workbooks and CSV, performance CSV, benchmark result files), so that uploads never
//! hold the slots a report needs. A pool may also cap what one client holds at once
//! (its share, keyed by user or address): past it a request is refused at once (429)
//! instead of queueing behind the same client's own work.
//!
//! A render that waits longer than its turn's wait gets a 503; one that runs past the
//! timeout answers its request with a 503 while its thread runs on holding its permit,
//! so a render that never ends costs its own request and one permit, never the server:
//! the workers keep answering every other request (`/healthz` among them), and shutdown
//! does not wait for it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// How long a render may wait for its turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// A chart a page can be shown without: it waits at most [`EXTRA_WAIT`].
    Extra,
    /// The request's answer itself (a report, a chart, a page's result): it waits the
    /// pool's full wait.
    Answer,
}

/// Longest wait of a chart a page can be shown without.
pub const EXTRA_WAIT: Duration = Duration::from_secs(2);

/// Why a render did not run or did not finish: a sentence for a 503.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("the server is busy with other {kind} (waited {secs} s); try again in a moment")]
    Busy { kind: &'static str, secs: u64 },
    /// The client already holds its share of the pool.
    #[error(
        "you already have {share} {kind} running, the most one client may have at once; \
         try again once {} finished",
        if *.share == 1 { "it has" } else { "they have" }
    )]
    OverShare { kind: &'static str, share: usize },
    #[error("the {what} took longer than {secs} s and was given up; try again in a moment")]
    TimedOut { what: &'static str, secs: u64 },
    /// The render panicked (a bug; the cause is logged).
    #[error("the {0} failed")]
    Failed(&'static str),
}

impl Refused {
    /// 429 for a client over its share, 503 otherwise (both answered with
    /// `Retry-After`).
    fn status(&self) -> axum::http::StatusCode {
        match self {
            Refused::OverShare { .. } => axum::http::StatusCode::TOO_MANY_REQUESTS,
            _ => axum::http::StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl From<Refused> for crate::web::pages::PageError {
    fn from(r: Refused) -> Self {
        if let Refused::Failed(_) = r {
            return crate::web::pages::PageError::Internal(r.to_string());
        }
        let mut message = r.to_string();
        message[..1].make_ascii_uppercase();
        crate::web::pages::PageError::Status {
            status: r.status(),
            message: message + ".",
        }
    }
}

impl From<Refused> for crate::web::error::ApiError {
    fn from(r: Refused) -> Self {
        if let Refused::Failed(_) = r {
            return crate::web::error::ApiError::internal(r.to_string());
        }
        crate::web::error::ApiError::Refused {
            status: r.status(),
            message: r.to_string(),
        }
    }
}

/// A bounded, timed pool of blocking work (the renders, or the uploads' parsing).
#[derive(Debug)]
pub struct RenderPool {
    permits: Arc<Semaphore>,
    total: usize,
    wait: Duration,
    timeout: Duration,
    /// What the pool runs, plural, for its busy message (`reports and images`).
    kind: &'static str,
    /// Most permits one client may hold at once.
    share: usize,
    /// Permits held (or waited for) by each client that has any.
    held: Arc<Mutex<HashMap<String, usize>>>,
}

/// One client's claim on its share, released when dropped (with the permit it guards,
/// so a work that runs past its timeout keeps counting against its client).
struct Claim {
    held: Arc<Mutex<HashMap<String, usize>>>,
    client: String,
}

impl Drop for Claim {
    fn drop(&mut self) {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = held.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.client);
            }
        }
    }
}

impl RenderPool {
    /// A pool of `permits` renders with no share per client.
    pub fn new(permits: usize, wait: Duration, timeout: Duration) -> RenderPool {
        RenderPool::shared("reports and images", permits, permits, wait, timeout)
    }

    /// A pool running `kind` (plural, for messages), `permits` at once, at most `share`
    /// of them for one client.
    pub fn shared(
        kind: &'static str,
        permits: usize,
        share: usize,
        wait: Duration,
        timeout: Duration,
    ) -> RenderPool {
        RenderPool {
            permits: Arc::new(Semaphore::new(permits.max(1))),
            total: permits.max(1),
            wait,
            timeout,
            kind,
            share: share.clamp(1, permits.max(1)),
            held: Arc::default(),
        }
    }

    /// Most permits one client may hold at once.
    pub fn share(&self) -> usize {
        self.share
    }

    /// Counts one more permit for `client`; refused when it holds its share.
    fn claim(&self, client: &str) -> Result<Claim, Refused> {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        let n = held.entry(client.to_owned()).or_default();
        if *n >= self.share {
            return Err(Refused::OverShare {
                kind: self.kind,
                share: self.share,
            });
        }
        *n += 1;
        Ok(Claim {
            held: self.held.clone(),
            client: client.to_owned(),
        })
    }

    /// Runs `work` as [`RenderPool::run`] does, counted against `client`'s share (a
    /// user's name or an address): refused at once (429) while the client holds it.
    pub async fn run_for<T: Send + 'static>(
        &self,
        client: &str,
        what: &'static str,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        let claim = self.claim(client)?;
        self.run(what, Turn::Answer, move || {
            let _claim = claim;
            work()
        })
        .await
    }

    /// Most renders at once.
    pub fn permits(&self) -> usize {
        self.total
    }

    /// Renders running now (permits held), those given up but still running included.
    pub fn in_use(&self) -> usize {
        self.total.saturating_sub(self.permits.available_permits())
    }

    /// Runs the render `what` (named in messages) on a blocking thread once a permit is
    /// free within the wait of `turn`, and waits for it at most the pool's timeout.
    pub async fn run<T: Send + 'static>(
        &self,
        what: &'static str,
        turn: Turn,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        let wait = match turn {
            Turn::Extra => self.wait.min(EXTRA_WAIT),
            Turn::Answer => self.wait,
        };
        let permit = tokio::time::timeout(wait, self.permits.clone().acquire_owned())
            .await
            .ok()
            .and_then(Result::ok)
            .ok_or(Refused::Busy {
                kind: self.kind,
                secs: wait.as_secs(),
            })?;
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        });
        match tokio::time::timeout(self.timeout, task).await {
            Ok(Ok(out)) => Ok(out),
            Ok(Err(e)) => {
                tracing::error!("{what} failed: {e}");
                Err(Refused::Failed(what))
            }
            Err(_) => {
                tracing::warn!(
                    "{what} still running after {} s: answered 503, its permit stays taken until it ends",
                    self.timeout.as_secs()
                );
                Err(Refused::TimedOut {
                    what,
                    secs: self.timeout.as_secs(),
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_render_returns_its_value_and_frees_its_permit() {
        let pool = RenderPool::new(1, Duration::from_millis(50), Duration::from_secs(5));
        assert_eq!(pool.run("chart", Turn::Answer, || 7).await, Ok(7));
        assert_eq!(pool.in_use(), 0);
    }

    #[tokio::test]
    async fn a_stuck_render_costs_its_request_and_its_permit_only() {
        let pool = RenderPool::new(1, Duration::from_millis(50), Duration::from_millis(100));
        let (release, held) = std::sync::mpsc::channel::<()>();
        let stuck = pool.run("report", Turn::Answer, move || held.recv()).await;
        assert_eq!(
            stuck.unwrap_err(),
            Refused::TimedOut {
                what: "report",
                secs: 0
            }
        );
        assert_eq!(pool.in_use(), 1, "the stuck render keeps its permit");
        let busy = pool.run("chart", Turn::Extra, || 1).await.unwrap_err();
        assert!(busy.to_string().contains("busy"), "{busy}");
        release.send(()).unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(pool.in_use(), 0);
        assert_eq!(pool.run("chart", Turn::Extra, || 1).await, Ok(1));
    }

    #[tokio::test]
    async fn one_client_holds_at_most_its_share() {
        let pool = RenderPool::shared(
            "uploads",
            3,
            2,
            Duration::from_millis(50),
            Duration::from_secs(5),
        );
        let pool = Arc::new(pool);
        let mut releases = Vec::new();
        let mut running = Vec::new();
        for _ in 0..2 {
            let (release, held) = std::sync::mpsc::channel::<()>();
            releases.push(release);
            let pool = pool.clone();
            running.push(tokio::spawn(async move {
                pool.run_for("10.0.0.1", "inventory import", move || held.recv())
                    .await
            }));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        let over = pool.run_for("10.0.0.1", "inventory import", || 1).await;
        assert_eq!(
            over,
            Err(Refused::OverShare {
                kind: "uploads",
                share: 2
            })
        );
        let message = over.unwrap_err().to_string();
        assert!(message.contains("try again"), "{message}");
        assert_eq!(
            pool.run_for("10.0.0.2", "inventory import", || 2).await,
            Ok(2),
            "another client has the third permit"
        );
        drop(releases);
        for r in running {
            assert!(r.await.unwrap().is_ok());
        }
        assert_eq!(
            pool.run_for("10.0.0.1", "inventory import", || 3).await,
            Ok(3)
        );
        assert!(pool.held.lock().unwrap().is_empty(), "shares are released");
    }

    #[tokio::test]
    async fn a_panicking_render_is_a_failure_and_frees_its_permit() {
        let pool = RenderPool::new(1, Duration::from_millis(50), Duration::from_secs(1));
        let r: Result<(), _> = pool.run("chart", Turn::Answer, || panic!("boom")).await;
        assert_eq!(r, Err(Refused::Failed("chart")));
        assert_eq!(pool.in_use(), 0);
    }
}
