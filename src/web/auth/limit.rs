//! Login rate limit, in memory (per server process): failures are counted per user name
//! and per client address; past a free allowance each further failure locks that key
//! for twice as long as the one before, and a locked key is answered 429.
//!
//! User names: 5 free failures, then 1 s, 2 s, 4 s, ... up to 15 min. Addresses (an
//! office behind one NAT shares one): 20 free failures, then the same doubling. A
//! successful login clears its user name's count (not its address's, so one valid
//! account does not reset the guessing of others); a key with no failure for an hour is
//! forgotten.
//!
//! Hand-written because the rate-limit crates (governor and the tower layers over it)
//! limit the rate of requests per key, not failed attempts with a doubling lock-out that
//! a success clears.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failures per user name before the lock-out starts.
pub const NAME_FREE_FAILURES: u32 = 5;
/// Failures per client address before the lock-out starts.
pub const ADDRESS_FREE_FAILURES: u32 = 20;
/// The first lock-out; each further failure doubles it.
pub const FIRST_LOCK: Duration = Duration::from_secs(1);
/// The longest lock-out.
pub const MAX_LOCK: Duration = Duration::from_secs(15 * 60);
/// A key with no failure for this long starts again from zero.
pub const FORGET_AFTER: Duration = Duration::from_secs(60 * 60);
/// Keys kept before old ones are dropped.
const MAX_KEYS: usize = 100_000;

#[derive(Debug, Clone, Copy)]
struct Entry {
    failures: u32,
    locked_until: Instant,
    last_failure: Instant,
}

/// The failure counts of one server.
#[derive(Debug, Default)]
pub struct LoginLimiter {
    entries: Mutex<HashMap<String, Entry>>,
}

fn name_key(name: &str) -> String {
    format!("n:{}", name.to_lowercase())
}

fn address_key(addr: IpAddr) -> String {
    format!("a:{addr}")
}

/// How long a key is locked after its `failures`-th failure.
fn lock_after(failures: u32, free: u32) -> Duration {
    if failures < free {
        return Duration::ZERO;
    }
    let doublings = (failures - free).min(20);
    (FIRST_LOCK * 2u32.pow(doublings)).min(MAX_LOCK)
}

impl LoginLimiter {
    /// `Err(wait)` while the name or the address is locked out.
    pub fn check(&self, name: &str, addr: Option<IpAddr>) -> Result<(), Duration> {
        let now = Instant::now();
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let wait = [Some(name_key(name)), addr.map(address_key)]
            .into_iter()
            .flatten()
            .filter_map(|k| entries.get(&k))
            .map(|e| e.locked_until.saturating_duration_since(now))
            .max()
            .unwrap_or_default();
        if wait.is_zero() { Ok(()) } else { Err(wait) }
    }

    /// Counts a failed login.
    pub fn failed(&self, name: &str, addr: Option<IpAddr>) {
        let now = Instant::now();
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= MAX_KEYS {
            entries.retain(|_, e| e.locked_until > now || now - e.last_failure < FORGET_AFTER);
            if entries.len() >= MAX_KEYS {
                entries.clear();
            }
        }
        let keys = [
            Some((name_key(name), NAME_FREE_FAILURES)),
            addr.map(|a| (address_key(a), ADDRESS_FREE_FAILURES)),
        ];
        for (key, free) in keys.into_iter().flatten() {
            let e = entries.entry(key).or_insert(Entry {
                failures: 0,
                locked_until: now,
                last_failure: now,
            });
            if now - e.last_failure >= FORGET_AFTER {
                e.failures = 0;
            }
            e.failures = e.failures.saturating_add(1);
            e.last_failure = now;
            e.locked_until = now + lock_after(e.failures, free);
        }
    }

    /// Clears the count of a user name after a successful login.
    pub fn succeeded(&self, name: &str) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.remove(&name_key(name));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_doubles_after_the_free_failures() {
        assert_eq!(lock_after(4, 5), Duration::ZERO);
        assert_eq!(lock_after(5, 5), Duration::from_secs(1));
        assert_eq!(lock_after(6, 5), Duration::from_secs(2));
        assert_eq!(lock_after(9, 5), Duration::from_secs(16));
        assert_eq!(lock_after(40, 5), MAX_LOCK);
    }

    #[test]
    fn names_lock_after_five_and_success_clears_them() {
        let l = LoginLimiter::default();
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        for _ in 0..4 {
            l.failed("Alice", Some(ip));
            assert!(l.check("alice", Some(ip)).is_ok());
        }
        l.failed("alice", Some(ip));
        let wait = l.check("ALICE", None).unwrap_err();
        assert!(wait <= Duration::from_secs(1) && !wait.is_zero());
        assert!(l.check("bob", Some(ip)).is_ok(), "the address has 15 more");
        l.succeeded("alice");
        assert!(l.check("alice", Some(ip)).is_ok());
    }

    #[test]
    fn addresses_lock_after_twenty() {
        let l = LoginLimiter::default();
        let ip: IpAddr = "2001:db8::1".parse().unwrap();
        for i in 0..20 {
            l.failed(&format!("user{i}"), Some(ip));
        }
        assert!(l.check("someone-else", Some(ip)).is_err());
        assert!(l.check("someone-else", None).is_ok());
    }
}
