//! Per-connection bookkeeping of the accept loop: a TCP stream that records when bytes
//! last moved (for the idle timeout), and the per-address counts that keep one client
//! from taking every connection slot.
//!
//! The server's accept loop ([`super::serve_with`]) is hand-written because axum 0.8's
//! `serve` has neither a header-read timeout (only on axum's unreleased main branch) nor
//! a connection limit nor an idle timeout nor a per-address limit; hyper's builder gives
//! the header timeout, this module the idle timeout and the per-address counts, and
//! [`super::slots`] the connection slots with their slow-client budget.

use std::collections::HashMap;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Instant;

/// When a connection last read or wrote a byte.
#[derive(Debug)]
pub struct Activity {
    start: Instant,
    /// Milliseconds after `start`.
    last_ms: AtomicU64,
}

impl Activity {
    pub fn new() -> Activity {
        Activity {
            start: Instant::now(),
            last_ms: AtomicU64::new(0),
        }
    }

    fn touch(&self) {
        let ms = self.start.elapsed().as_millis() as u64;
        self.last_ms.store(ms, Ordering::Relaxed);
    }

    /// Resolves once no byte has moved for `idle`.
    pub async fn idle_for(&self, idle: Duration) {
        loop {
            let last = self.start + Duration::from_millis(self.last_ms.load(Ordering::Relaxed));
            let deadline = last + idle;
            if Instant::now() >= deadline {
                return;
            }
            tokio::time::sleep_until(deadline).await;
        }
    }
}

/// A [`TcpStream`] that touches its [`Activity`] on every read and write.
pub struct Tracked {
    inner: TcpStream,
    activity: Arc<Activity>,
}

impl Tracked {
    pub fn new(inner: TcpStream, activity: Arc<Activity>) -> Tracked {
        Tracked { inner, activity }
    }
}

impl AsyncRead for Tracked {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let res = Pin::new(&mut this.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            this.activity.touch();
        }
        res
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let res = Pin::new(&mut this.inner).poll_write(cx, data);
        if matches!(res, Poll::Ready(Ok(n)) if n > 0) {
            this.activity.touch();
        }
        res
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let res = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        if matches!(res, Poll::Ready(Ok(n)) if n > 0) {
            this.activity.touch();
        }
        res
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// Open connections per client address, and those among them that have been waiting
/// for their first request's headers longer than [`SLOW_AFTER`] (a client that opens
/// connections and drips its headers would hold each slot for the whole header timeout).
#[derive(Debug)]
pub struct PerAddress {
    counts: Mutex<HashMap<IpAddr, Counts>>,
    max_open: u32,
    max_slow: u32,
}

/// A connection still without its first request's headers this long counts as slow.
pub const SLOW_AFTER: Duration = Duration::from_secs(1);

#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    open: u32,
    slow: u32,
}

impl PerAddress {
    /// At most `max_open` connections per address, of which at most a quarter (at least
    /// one) slow.
    pub fn new(max_open: usize) -> PerAddress {
        let max_open = u32::try_from(max_open).unwrap_or(u32::MAX).max(1);
        PerAddress {
            counts: Mutex::new(HashMap::new()),
            max_open,
            max_slow: (max_open / 4).max(1),
        }
    }

    fn with<T>(&self, f: impl FnOnce(&mut HashMap<IpAddr, Counts>) -> T) -> T {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut counts)
    }

    /// Counts a new connection from `ip`; `None` (and nothing counted) when the address
    /// has its most open connections.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<Peer> {
        let admitted = self.with(|counts| {
            let c = counts.entry(ip).or_default();
            if c.open >= self.max_open {
                return false;
            }
            c.open += 1;
            true
        });
        admitted.then(|| Peer {
            limits: self.clone(),
            ip,
            state: Mutex::new(Headers::Awaited),
        })
    }

    /// (open, slow) connections of `ip`.
    #[cfg(test)]
    fn of(&self, ip: IpAddr) -> (u32, u32) {
        self.with(|counts| counts.get(&ip).map_or((0, 0), |c| (c.open, c.slow)))
    }
}

/// Where a connection is with its first request's headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Headers {
    Awaited,
    /// Awaited longer than [`SLOW_AFTER`]: counted as slow.
    Slow,
    Arrived,
}

/// One admitted connection: counted until dropped.
#[derive(Debug)]
pub struct Peer {
    limits: Arc<PerAddress>,
    ip: IpAddr,
    state: Mutex<Headers>,
}

impl Peer {
    /// Moves the connection to `next`, keeping the address's slow count in step; what
    /// the count was checked against, if it just became slow.
    fn set(&self, next: Headers) -> Option<bool> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let before = *state;
        if before == Headers::Arrived || before == next {
            return None;
        }
        *state = next;
        self.limits.with(|counts| {
            let c = counts.get_mut(&self.ip)?;
            if before == Headers::Slow {
                c.slow = c.slow.saturating_sub(1);
            }
            if next == Headers::Slow {
                c.slow += 1;
                return Some(c.slow > self.limits.max_slow);
            }
            None
        })
    }

    /// The first request's headers have arrived: the connection is not slow.
    pub fn headers_arrived(&self) {
        self.set(Headers::Arrived);
    }

    /// Resolves when the connection should be closed: it has waited [`SLOW_AFTER`] for
    /// its first request's headers and its address has more slow connections than
    /// allowed. Pending forever otherwise.
    pub async fn too_slow(&self) {
        tokio::time::sleep(SLOW_AFTER).await;
        if self.set(Headers::Slow) == Some(true) {
            return;
        }
        std::future::pending::<()>().await;
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        self.set(Headers::Arrived);
        self.limits.with(|counts| {
            if let Some(c) = counts.get_mut(&self.ip) {
                c.open = c.open.saturating_sub(1);
                if c.open == 0 {
                    counts.remove(&self.ip);
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn idle_waits_for_quiet_since_the_last_byte() {
        let a = Activity::new();
        let started = Instant::now();
        tokio::time::sleep(Duration::from_millis(60)).await;
        a.touch();
        a.idle_for(Duration::from_millis(100)).await;
        let took = started.elapsed();
        assert!(took >= Duration::from_millis(160), "{took:?}");
        assert!(took < Duration::from_millis(1000), "{took:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn one_address_is_capped_and_its_slow_connections_closed() {
        let limits = Arc::new(PerAddress::new(8));
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let mut peers: Vec<Peer> = (0..8).map(|_| limits.admit(a).unwrap()).collect();
        assert!(limits.admit(a).is_none(), "the ninth from one address");
        assert!(limits.admit(b).is_some(), "another address is not affected");
        // Five send their headers; of the three slow ones, two (a quarter of 8) are kept.
        for p in &peers[..5] {
            p.headers_arrived();
        }
        let mut closed = 0;
        for p in &peers {
            let slow = tokio::time::timeout(SLOW_AFTER * 2, p.too_slow()).await;
            closed += usize::from(slow.is_ok());
        }
        assert_eq!(closed, 1);
        assert_eq!(limits.of(a), (8, 3));
        peers.truncate(6);
        assert_eq!(limits.of(a), (6, 1));
        drop(peers);
        assert_eq!(limits.of(a), (0, 0));
        assert!(
            limits.with(|c| !c.contains_key(&a)),
            "an idle address is forgotten"
        );
    }
}
