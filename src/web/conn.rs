//! A TCP stream that records when bytes last moved, for the idle timeout.
//!
//! The server's accept loop ([`super::serve_with`]) is hand-written because axum 0.8's
//! `serve` has neither a header-read timeout (only on axum's unreleased main branch) nor
//! a connection limit nor an idle timeout; hyper's builder gives the header timeout,
//! this stream the idle one.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
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
}
