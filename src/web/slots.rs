//! The server's connection slots and its budget of slow clients.
//!
//! A connection holds one of the `max_connections` slots from accept to close. While it
//! is in its header phase (before its first request's headers, or idle between
//! keep-alive requests) it does no work for anyone, so such connections give way:
//! those in their header phase for over [`SLOW_AFTER`] hold at most
//! [`SLOW_SHARE_PERCENT`] % of the slots (past that the oldest is closed), and when every
//! slot is taken the connection longest in its header phase is closed to make room for
//! the new one. A new connection waits only while every slot serves a request (and
//! takes the first that finishes its answer), so slow clients from however many
//! addresses never keep `/healthz` or a fast client out.

use super::conn::SLOW_AFTER;
use axum::body::Body;
use axum::http::Response;
use hyper::body::{Body as HttpBody, Frame, SizeHint};
use std::collections::BTreeMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::sync::{AcquireError, Notify, OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

/// Share of the slots that connections slow with their headers may hold, in percent.
pub const SLOW_SHARE_PERCENT: usize = 50;

/// The slots, and the connections among them in their header phase.
#[derive(Debug)]
pub struct Slots {
    permits: Arc<Semaphore>,
    max_slow: usize,
    table: Mutex<Table>,
    /// Signalled when a connection enters its header phase (for an admission waiting
    /// with every slot serving).
    entered: Notify,
}

#[derive(Debug, Default)]
struct Table {
    /// Connections in their header phase by (since when, id).
    waiting: BTreeMap<(Instant, u64), Arc<Holder>>,
    next_id: u64,
}

/// What a connection holds: its slot's permit (taken away when it is closed for
/// another, which then has it at once) and the signal that closes it.
#[derive(Debug)]
struct Holder {
    permit: Mutex<Option<OwnedSemaphorePermit>>,
    close: Notify,
}

impl Holder {
    /// Closes the connection; its permit, for the connection taking its place.
    fn evict(&self) -> Option<OwnedSemaphorePermit> {
        self.close.notify_one();
        self.permit.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

impl Slots {
    /// `max` slots, at most [`SLOW_SHARE_PERCENT`] % of them (at least one) slow.
    pub fn new(max: usize) -> Slots {
        let max = max.max(1);
        Slots {
            permits: Arc::new(Semaphore::new(max)),
            max_slow: (max * SLOW_SHARE_PERCENT / 100).max(1),
            table: Mutex::default(),
            entered: Notify::new(),
        }
    }

    fn with<T>(&self, f: impl FnOnce(&mut Table) -> T) -> T {
        f(&mut self.table.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// A slot for a new connection (in its header phase): slow connections past their
    /// share are closed first; with every slot taken, the connection longest in its
    /// header phase is closed and its slot handed over, or else this waits for a slot
    /// to be freed. Never waits on a closing connection, so the accept loop keeps pace.
    pub async fn admit(self: &Arc<Self>) -> Result<Slot, AcquireError> {
        let now = Instant::now();
        let handed = self.with(|t| {
            if let Some(cutoff) = now.checked_sub(SLOW_AFTER) {
                let mut slow = t.waiting.range(..(cutoff, u64::MAX)).count();
                while slow > self.max_slow {
                    if let Some((_, holder)) = t.waiting.pop_first() {
                        drop(holder.evict());
                    }
                    slow -= 1;
                }
            }
            if self.permits.available_permits() > 0 {
                return None;
            }
            let (_, holder) = t.waiting.pop_first()?;
            holder.evict()
        });
        let permit = match handed {
            Some(permit) => permit,
            None => self.wait_for_slot().await?,
        };
        let holder = Arc::new(Holder {
            permit: Mutex::new(Some(permit)),
            close: Notify::new(),
        });
        let since = Instant::now();
        let id = self.with(|t| {
            let id = t.next_id;
            t.next_id += 1;
            t.waiting.insert((since, id), holder.clone());
            id
        });
        Ok(Slot {
            slots: self.clone(),
            id,
            holder,
            phase: Mutex::new(Phase::Waiting(since)),
        })
    }

    /// A slot once one is freed, or once a connection enters its header phase (then
    /// closed and its slot handed over).
    async fn wait_for_slot(&self) -> Result<OwnedSemaphorePermit, AcquireError> {
        loop {
            tokio::select! {
                biased;
                permit = self.permits.clone().acquire_owned() => return permit,
                // The signal may be an old one: a connection is closed only while no
                // slot is free.
                () = self.entered.notified() => {
                    if let Ok(permit) = self.permits.clone().try_acquire_owned() {
                        return Ok(permit);
                    }
                    let handed = self.with(|t| t.waiting.pop_first().and_then(|(_, h)| h.evict()));
                    if let Some(permit) = handed {
                        return Ok(permit);
                    }
                }
            }
        }
    }

    /// Connections in their header phase now.
    #[cfg(test)]
    fn waiting(&self) -> usize {
        self.with(|t| t.waiting.len())
    }
}

/// Where a connection is.
#[derive(Debug, Clone, Copy)]
enum Phase {
    /// Waiting for a request's headers since then.
    Waiting(Instant),
    /// Serving this many requests (their answers not yet sent whole).
    Serving(usize),
}

/// One connection's slot, freed when dropped.
#[derive(Debug)]
pub struct Slot {
    slots: Arc<Slots>,
    id: u64,
    holder: Arc<Holder>,
    phase: Mutex<Phase>,
}

impl Slot {
    fn phase(&self) -> std::sync::MutexGuard<'_, Phase> {
        self.phase.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A request's headers have arrived: the connection leaves its header phase.
    pub fn request_started(&self) {
        let mut phase = self.phase();
        *phase = match *phase {
            Phase::Waiting(since) => {
                self.slots.with(|t| t.waiting.remove(&(since, self.id)));
                Phase::Serving(1)
            }
            Phase::Serving(n) => Phase::Serving(n + 1),
        };
    }

    /// A request's answer has been sent (or dropped): with none left, the connection
    /// waits for the next request's headers.
    pub fn request_ended(&self) {
        let mut phase = self.phase();
        if let Phase::Serving(n) = *phase {
            *phase = if n > 1 {
                Phase::Serving(n - 1)
            } else {
                let since = Instant::now();
                let holder = self.holder.clone();
                self.slots
                    .with(|t| t.waiting.insert((since, self.id), holder));
                self.slots.entered.notify_one();
                Phase::Waiting(since)
            };
        }
    }

    /// Resolves when the connection is closed to make room for others.
    pub async fn closed(&self) {
        self.holder.close.notified().await;
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Phase::Waiting(since) = *self.phase() {
            self.slots.with(|t| t.waiting.remove(&(since, self.id)));
        }
    }
}

/// Ends a request on its connection's [`Slot`] when dropped (with the answer's body).
pub struct RequestEnd(pub Arc<Slot>);

impl Drop for RequestEnd {
    fn drop(&mut self) {
        self.0.request_ended();
    }
}

/// The answer `res` whose request ends (`end`) once its body is sent whole or dropped.
pub fn ends_with_body(res: Response<Body>, end: RequestEnd) -> Response<Body> {
    res.map(|inner| Body::new(Ending { inner, _end: end }))
}

/// A body that carries its request's end: every frame, the end of stream and the
/// size (so a known length is still sent as `Content-Length`) are the inner body's.
struct Ending {
    inner: Body,
    _end: RequestEnd,
}

impl HttpBody for Ending {
    type Data = <Body as HttpBody>::Data;
    type Error = <Body as HttpBody>::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Whether `slot` has been told to close.
    async fn told_to_close(slot: &Slot) -> bool {
        tokio::time::timeout(Duration::from_millis(1), slot.closed())
            .await
            .is_ok()
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_server_closes_its_oldest_waiting_connection_for_a_new_one() {
        let slots = Arc::new(Slots::new(3));
        let oldest = slots.admit().await.unwrap();
        tokio::time::advance(Duration::from_millis(10)).await;
        let busy = slots.admit().await.unwrap();
        busy.request_started();
        let newer = slots.admit().await.unwrap();
        assert_eq!(slots.waiting(), 2);
        // Full: the fourth connection takes the slot of the one waiting longest.
        let admitting = {
            let slots = slots.clone();
            tokio::spawn(async move { slots.admit().await.unwrap() })
        };
        tokio::task::yield_now().await;
        assert!(told_to_close(&oldest).await);
        assert!(!told_to_close(&newer).await && !told_to_close(&busy).await);
        drop(oldest);
        let fourth = admitting.await.unwrap();
        // A connection serving a request is never closed: with the others serving
        // too, a new one waits for a slot.
        newer.request_started();
        fourth.request_started();
        let waiting = {
            let slots = slots.clone();
            tokio::spawn(async move { slots.admit().await.unwrap() })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished());
        assert!(!told_to_close(&busy).await);
        // Its answer sent, `newer` waits for its next request's headers again: it is
        // closed, and the waiting admission takes its slot.
        let newer = Arc::new(newer);
        drop(RequestEnd(newer.clone()));
        let admitted = waiting.await.unwrap();
        assert!(told_to_close(&newer).await);
        assert!(!told_to_close(&fourth).await && !told_to_close(&busy).await);
        assert_eq!(slots.waiting(), 1, "the one admitted");
        drop(admitted);
    }

    #[tokio::test]
    async fn no_connection_is_closed_while_a_slot_is_free() {
        let slots = Arc::new(Slots::new(3));
        let a = Arc::new(slots.admit().await.unwrap());
        a.request_started();
        // Its answer sent, `a` waits for its next request: a signal nobody waits for.
        drop(RequestEnd(a.clone()));
        let _b = slots.admit().await.unwrap();
        let _c = slots.admit().await.unwrap();
        assert!(!told_to_close(&a).await);
        assert_eq!(slots.waiting(), 3);
    }

    #[tokio::test(start_paused = true)]
    async fn slow_connections_past_their_share_are_closed_oldest_first() {
        let slots = Arc::new(Slots::new(4));
        let a = slots.admit().await.unwrap();
        tokio::time::advance(Duration::from_millis(10)).await;
        let b = slots.admit().await.unwrap();
        tokio::time::advance(Duration::from_millis(10)).await;
        let c = slots.admit().await.unwrap();
        tokio::time::advance(SLOW_AFTER).await;
        // Three slow, two allowed (half of 4): the next admission closes the oldest.
        let _d = slots.admit().await.unwrap();
        assert!(told_to_close(&a).await);
        assert!(!told_to_close(&b).await && !told_to_close(&c).await);
        assert_eq!(slots.waiting(), 3);
        // A connection that sent its headers is not slow.
        b.request_started();
        assert_eq!(slots.waiting(), 2);
        drop(c);
        assert_eq!(slots.waiting(), 1);
    }
}
