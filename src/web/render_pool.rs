//! The one way renders run: page charts, chart downloads and every report format are
//! drawn off the async workers, at most `permits` at once, each for at most `timeout`;
//! so are the inventory reads, which take as much memory as a report.
//!
//! A render that waits longer than its turn's wait gets a 503; one that runs past the
//! timeout answers its request with a 503 while its thread runs on holding its permit,
//! so a render that never ends costs its own request and one permit, never the server:
//! the workers keep answering every other request (`/healthz` among them), and shutdown
//! does not wait for it.

use std::sync::Arc;
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
    #[error(
        "the server is busy with other reports and images (waited {0} s); try again in a moment"
    )]
    Busy(u64),
    #[error("the {what} took longer than {secs} s and was given up; try again in a moment")]
    TimedOut { what: &'static str, secs: u64 },
    /// The render panicked (a bug; the cause is logged).
    #[error("the {0} failed")]
    Failed(&'static str),
}

impl From<Refused> for crate::web::pages::PageError {
    fn from(r: Refused) -> Self {
        if let Refused::Failed(_) = r {
            return crate::web::pages::PageError::Internal(r.to_string());
        }
        let mut message = r.to_string();
        message[..1].make_ascii_uppercase();
        crate::web::pages::PageError::Status {
            status: axum::http::StatusCode::SERVICE_UNAVAILABLE,
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
            status: axum::http::StatusCode::SERVICE_UNAVAILABLE,
            message: r.to_string(),
        }
    }
}

/// The bounded, timed pool of renders.
#[derive(Debug)]
pub struct RenderPool {
    permits: Arc<Semaphore>,
    total: usize,
    wait: Duration,
    timeout: Duration,
}

impl RenderPool {
    pub fn new(permits: usize, wait: Duration, timeout: Duration) -> RenderPool {
        RenderPool {
            permits: Arc::new(Semaphore::new(permits.max(1))),
            total: permits.max(1),
            wait,
            timeout,
        }
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
            .ok_or(Refused::Busy(wait.as_secs()))?;
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
    async fn a_panicking_render_is_a_failure_and_frees_its_permit() {
        let pool = RenderPool::new(1, Duration::from_millis(50), Duration::from_secs(1));
        let r: Result<(), _> = pool.run("chart", Turn::Answer, || panic!("boom")).await;
        assert_eq!(r, Err(Refused::Failed("chart")));
        assert_eq!(pool.in_use(), 0);
    }
}
