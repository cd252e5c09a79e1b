//! A closed queueing network of the IO path, solved by approximate Mean Value Analysis.
//!
//! `N` customers (the outstanding IOs after slot limits) cycle through one delay centre
//! (the unloaded round trip `Z`) and one queueing centre per resource. Centre `k` has a
//! ceiling `C_k` (IOPS at the scenario's IO size and mix) and `m_k` parallel servers
//! that the load is spread over (connections, NICs, a volume's back-end servers), so
//! one IO spends `m_k / C_k` in service there and waits behind the IOs already queued
//! at its server. With the Bard-Schweitzer approximation (Schweitzer 1979; Bard 1979;
//! Lazowska et al., "Quantitative System Performance", 1984, ch. 6), an arriving IO
//! sees `(N - 1) / N` of the queue, which gives, at throughput `X` and `rho_k = X / C_k`:
//!
//! ```text
//! R_k(X) = u_k + q_k a rho_k / (1 - a rho_k),   q_k = m_k / C_k,   a = (N - 1) / N
//! N      = X (Z + sum_k R_k(X))                 (Little's law over the whole loop)
//! ```
//!
//! `u_k` is the time an IO spends at the centre when nothing else is there (the wire
//! or connection time; 0 for rate limiters such as QoS). The throughput `X(N)` is the
//! root of the second line, which is increasing in `X`; it is never above the smallest
//! ceiling nor above `N / (Z + sum u_k)`, equals the latter for `N = 1`, tends to the
//! former as `N` grows, and rises with `N`. Latency per IO is `N / X` (Little).

/// One resource on the IO path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Centre {
    /// Ceiling in IOPS at the scenario's IO size and mix.
    pub capacity: f64,
    /// `1 / capacity`, kept so that solving multiplies instead of dividing.
    inv_capacity: f64,
    /// Queueing time scale `m / C` in seconds (service time of one IO at one server).
    pub queue_s: f64,
    /// Time one IO spends here without queueing, in seconds.
    pub unloaded_s: f64,
}

impl Centre {
    /// A centre of `servers` parallel servers, with `unloaded_s` spent per IO when idle.
    pub fn new(capacity: f64, servers: f64, unloaded_s: f64) -> Self {
        let inv_capacity = 1.0 / capacity;
        Self {
            capacity,
            inv_capacity,
            queue_s: servers.max(1.0) * inv_capacity,
            unloaded_s,
        }
    }

    /// A centre of `servers` parallel servers that each hold an IO for its whole
    /// service time, which an IO spends there even when the centre is idle.
    pub fn holding(capacity: f64, servers: f64) -> Self {
        let c = Self::new(capacity, servers, 0.0);
        Self {
            unloaded_s: c.queue_s,
            ..c
        }
    }

    /// Whether the centre limits anything: a finite, positive ceiling.
    fn is_resource(&self) -> bool {
        self.capacity.is_finite() && self.capacity > 0.0
    }

    /// Time an IO spends here (service and queueing) at throughput `x` when an
    /// arriving IO sees `a` of the queue: `u + q a rho / (1 - a rho)`.
    fn residence(&self, a: f64, x: f64) -> f64 {
        let ar = a * x * self.inv_capacity;
        self.unloaded_s + self.queue_s * ar * (1.0 / (1.0 - ar))
    }
}

/// The IO path: a delay and the resources, in the order the limits were produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Network {
    /// Round trip without any queueing or service at the centres, in seconds.
    pub delay_s: f64,
    centres: Vec<Centre>,
}

/// The network at one population.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Throughput in IOPS.
    pub iops: f64,
    /// Mean latency per IO in seconds (`N / X`).
    pub latency_s: f64,
}

impl Network {
    /// A network with delay `delay_s` and no centres yet.
    pub fn new(delay_s: f64) -> Self {
        Self {
            delay_s,
            centres: Vec::new(),
        }
    }

    /// Adds a centre; a non-finite or non-positive ceiling is no resource.
    pub fn push(&mut self, c: Centre) {
        if c.is_resource() {
            self.centres.push(c);
        }
    }

    /// Adds the centres of `other` after these (its delay is not added).
    pub fn append(&mut self, other: &Network) {
        for &c in other.centres() {
            self.push(c);
        }
    }

    /// The centres.
    pub fn centres(&self) -> &[Centre] {
        &self.centres
    }

    /// Latency of one IO alone in the system, in seconds (`Z + sum u_k`).
    pub fn unloaded_s(&self) -> f64 {
        self.delay_s + self.centres().iter().map(|c| c.unloaded_s).sum::<f64>()
    }

    /// The smallest ceiling (infinite without centres).
    pub fn min_capacity(&self) -> f64 {
        self.bottleneck().0
    }

    /// The first centre with the smallest ceiling: its capacity and queueing time scale
    /// (infinite and 0 without centres), found in one pass.
    fn bottleneck(&self) -> (f64, f64) {
        self.centres().iter().fold((f64::INFINITY, 0.0), |best, c| {
            if c.capacity < best.0 {
                (c.capacity, c.queue_s)
            } else {
                best
            }
        })
    }

    /// A check of `x` IOPS with `n` outstanding through this network's delay and
    /// centres, to which more centres can be added.
    pub fn rate_check(&self, n: f64, x: f64) -> RateCheck {
        let mut check = RateCheck::new(n, x, self.delay_s);
        for &c in self.centres() {
            check.add(c);
        }
        check
    }

    /// The sum of the centres' queueing time scales.
    fn queue_sum(&self) -> f64 {
        self.centres().iter().map(|c| c.queue_s).sum()
    }

    /// Throughput and latency with `n` IOs outstanding (`n >= 1`).
    pub fn solve(&self, n: f64) -> Point {
        let n = n.max(1.0);
        let l0 = self.unloaded_s();
        let (cmin, q_min) = self.bottleneck();
        let hi = (n / l0).min(cmin);
        if self.centres().is_empty() {
            return Point {
                iops: hi,
                latency_s: l0,
            };
        }
        let a = (n - 1.0) / n;
        let b_inv = 1.0 / cmin;
        // F(x) = x (Z + sum R_k) - n has a pole at the bottleneck's ceiling; times
        // w = 1 - a x / C_b it is smooth there, so Newton's method on G = w F
        // converges in a few steps. G and F have the same sign inside the bracket.
        let g = |x: f64| -> (f64, f64) {
            let (r, dr) = self.loop_time(a, x);
            let f = x * r - n;
            let df = r + x * dr;
            let w = 1.0 - a * x * b_inv;
            (w * f, w * df - a * b_inv * f)
        };
        // The root of the network with only the bottleneck queueing is at or right of
        // the true root (every dropped queue only adds latency): when it is left of
        // the bracket's end, so is the solution.
        let right = bottleneck_root(n, a, l0, cmin, q_min);
        if right >= hi && g(hi).0 <= 0.0 {
            // Past the smallest ceiling: the rest of the IOs wait in its queue.
            return Point {
                iops: hi,
                latency_s: n / hi,
            };
        }
        // Newton's method from the right of the root, bisecting if a step leaves the
        // bracket [lo, hi] where G changes sign. It starts at `right`, close to the
        // root when one centre dominates, so two or three steps usually suffice. The
        // bracket starts at the root of the network whose every centre queued as much
        // as the bottleneck, which is at or left of the true root (no centre is busier
        // than the bottleneck), so a step that leaves it lands close.
        let mut x = right.min(hi);
        let left = bottleneck_root(n, a, l0, cmin, self.queue_sum());
        let mut lo = if left < x { left } else { 0.0 };
        let mut hi = hi;
        for _ in 0..60 {
            let (gx, dgx) = g(x);
            if gx > 0.0 {
                hi = x;
            } else {
                lo = x;
            }
            let step = gx / dgx;
            let mut next = x - step;
            if !(next > lo && next < hi) {
                next = 0.5 * (lo + hi);
            } else if step.abs() <= 1e-7 * x {
                // Quadratic convergence: the error after this step is ~ step^2.
                x = next;
                break;
            }
            if (next - x).abs() <= 1e-11 * x {
                x = next;
                break;
            }
            x = next;
        }
        Point {
            iops: x,
            latency_s: n / x,
        }
    }

    /// `Z + sum_k R_k(x)` at throughput `x` when an arriving IO sees `a` of the queue,
    /// and its derivative in `x`.
    ///
    /// The centres are taken two at a time into two sums, so that the pairs' divisions
    /// and sums run side by side.
    fn loop_time(&self, a: f64, x: f64) -> (f64, f64) {
        let ax = a * x;
        let mut r = [0.0; 2];
        let mut dr = [0.0; 2];
        for pair in self.centres.chunks(2) {
            for (k, c) in pair.iter().enumerate() {
                let ar = ax * c.inv_capacity;
                let inv_s = 1.0 / (1.0 - ar);
                r[k] += c.unloaded_s + c.queue_s * ar * inv_s;
                dr[k] += c.queue_s * a * c.inv_capacity * inv_s * inv_s;
            }
        }
        (self.delay_s + (r[0] + r[1]), dr[0] + dr[1])
    }

    /// Latency per IO when the workload runs at `x` IOPS with at most `n_max`
    /// outstanding. `None` when `x` is above what `n_max` IOs achieve.
    pub fn latency_at(&self, x: f64, n_max: f64) -> Option<f64> {
        self.latency_below(x, n_max, self.solve(n_max))
    }

    /// As [`Network::latency_at`], with the solution at `n_max` already known: the
    /// population `n` in `[1, n_max]` whose throughput is `x`, the root of
    /// `F(n) = n - x (Z + sum R_k(x, n))` (increasing in `n`), by Newton's method kept
    /// inside the bracket.
    pub fn latency_below(&self, x: f64, n_max: f64, top: Point) -> Option<f64> {
        if x > top.iops * (1.0 + 1e-9) {
            return None;
        }
        if x >= top.iops {
            return Some(top.latency_s);
        }
        let f = |n: f64| -> (f64, f64) {
            let a = (n - 1.0) / n;
            let mut r = self.delay_s;
            let mut dr = 0.0;
            let inv_n2 = 1.0 / (n * n);
            for c in self.centres() {
                let rho = x * c.inv_capacity;
                let inv_s = 1.0 / (1.0 - a * rho);
                r += c.unloaded_s + c.queue_s * a * rho * inv_s;
                // d/dn of q a rho / (1 - a rho), with da/dn = 1 / n^2.
                dr += c.queue_s * rho * inv_s * inv_s;
            }
            (n - x * r, 1.0 - x * dr * inv_n2)
        };
        let (mut lo, mut hi) = (1.0, n_max.max(1.0));
        let l0 = self.unloaded_s();
        // F(1) = 1 - x (Z + sum u_k): no IO waits behind another when one is alone.
        if x * l0 <= 1.0 {
            // Less than one IO in flight on average: the unloaded latency.
            return Some(l0);
        }
        // The population an open network (a = 1) would need is at or right of the
        // root (a < 1 only shortens the queues) and close to it once a few IOs are
        // in flight.
        let open = x * self
            .centres()
            .iter()
            .map(|c| {
                let rho = x * c.inv_capacity;
                c.unloaded_s + c.queue_s * rho / (1.0 - rho)
            })
            .fold(self.delay_s, |acc, r| acc + r);
        let mut n = if open.is_finite() && open > lo {
            open.min(hi)
        } else {
            hi
        };
        for _ in 0..60 {
            let (fx, dfx) = f(n);
            if fx > 0.0 {
                hi = n;
            } else {
                lo = n;
            }
            let newton = n - fx / dfx;
            let step_ok = dfx > 0.0 && newton > lo && newton < hi;
            let next = if step_ok { newton } else { 0.5 * (lo + hi) };
            // After a Newton step of relative size s the error is of the order of
            // s^2 (quadratic convergence; about 1e-9 of the root after a step of 1e-4
            // on the published series), so no further evaluation is needed to confirm
            // it. A bisection step proves only its own size.
            let tol = if step_ok { 1e-4 } else { 1e-9 };
            if (next - n).abs() <= tol * n {
                n = next;
                break;
            }
            n = next;
        }
        Some((n / x).max(l0))
    }
}

/// Whether a network reaches a fixed throughput `x` with `n` IOs outstanding, summed
/// centre by centre: `F(x) = x (Z + sum R_k(x)) - n` increases in `x` and has no pole
/// below the bound `min(n / (Z + sum u_k), C_min)` that the solution never exceeds, so
/// [`Network::solve`] reaches `x` exactly when `x` is within that bound and
/// `F(x) <= 0`. One pass over the centres instead of Newton's iterations, and the
/// sums are additive: reverse sizing adds the client side's centres once and each
/// storage candidate's centres to a copy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateCheck {
    /// The throughput asked for, IOPS.
    x: f64,
    /// Outstanding IOs (at least 1).
    n: f64,
    /// The share of the queue an arriving IO sees, `(n - 1) / n`.
    a: f64,
    /// `Z + sum R_k(x)` over the centres added so far, seconds.
    loop_s: f64,
    /// `Z + sum u_k`, seconds.
    unloaded_s: f64,
    /// The smallest ceiling added so far, IOPS.
    min_capacity: f64,
}

impl RateCheck {
    /// A check of `x` IOPS with `n` outstanding through the delay `delay_s` alone.
    pub fn new(n: f64, x: f64, delay_s: f64) -> Self {
        let n = n.max(1.0);
        Self {
            x,
            n,
            a: (n - 1.0) / n,
            loop_s: delay_s,
            unloaded_s: delay_s,
            min_capacity: f64::INFINITY,
        }
    }

    /// Adds a centre (one that limits nothing is skipped, as [`Network::push`] does).
    pub fn add(&mut self, c: Centre) {
        if c.is_resource() {
            self.loop_s += c.residence(self.a, self.x);
            self.unloaded_s += c.unloaded_s;
            self.min_capacity = self.min_capacity.min(c.capacity);
        }
    }

    /// Whether the centres added reach the throughput.
    pub fn reaches(&self) -> bool {
        let x = self.x;
        if x <= 0.0 {
            return true;
        }
        if x > (self.n / self.unloaded_s).min(self.min_capacity) {
            return false;
        }
        x * self.loop_s - self.n <= 0.0
    }
}

/// The throughput at population `n` (with `a = (n - 1) / n` and unloaded latency
/// `l0`) if the network queued as one centre at the bottleneck's utilisation (ceiling
/// `cmin`) with queueing time scale `q`: the positive root of `A x^2 + B x - n = 0`,
/// written in the form that is stable for either sign of `A`. With the bottleneck's own
/// `q` (only it queues) the root is at or right of the true one; with the sum over all
/// centres (each as busy as the bottleneck), at or left of it. Infinite when it has
/// none (the caller clamps it to the bracket).
fn bottleneck_root(n: f64, a: f64, l0: f64, cmin: f64, q: f64) -> f64 {
    let ac = a / cmin;
    let big_a = ac * (q - l0);
    let big_b = l0 + n * ac;
    let disc = big_b * big_b + 4.0 * big_a * n;
    if disc < 0.0 {
        return f64::INFINITY;
    }
    2.0 * n / (big_b + disc.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net() -> Network {
        let mut n = Network::new(0.3e-3);
        n.push(Centre::new(100_000.0, 10.0, 0.0));
        n.push(Centre::new(400_000.0, 8.0, 8.0 / 400_000.0));
        n
    }

    #[test]
    fn every_resource_becomes_a_centre() {
        let mut n = Network::new(1e-3);
        for i in 1..=40 {
            n.push(Centre::new(1_000.0 * f64::from(i), 1.0, 0.0));
        }
        n.push(Centre::new(f64::INFINITY, 1.0, 0.0));
        assert_eq!(n.centres().len(), 40);
        // The slowest of all forty bounds the rate.
        assert!(n.solve(1e6).iops <= 1_000.0 * (1.0 + 1e-9));
    }

    #[test]
    fn one_outstanding_io_is_littles_law() {
        let n = net();
        let p = n.solve(1.0);
        assert!((p.iops * n.unloaded_s() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn many_outstanding_ios_reach_the_smallest_ceiling() {
        let p = net().solve(1e6);
        assert!(p.iops <= 100_000.0 && p.iops > 0.98 * 100_000.0, "{p:?}");
    }

    #[test]
    fn throughput_and_latency_rise_with_population() {
        let n = net();
        let mut last = n.solve(1.0);
        for k in 2..2000 {
            let p = n.solve(k as f64);
            assert!(p.iops >= last.iops * (1.0 - 1e-12), "{k}");
            assert!(p.latency_s >= last.latency_s * (1.0 - 1e-12), "{k}");
            last = p;
        }
    }

    /// Whether `n` outstanding IOs reach `x` IOPS through `net`, by a [`RateCheck`].
    fn reaches(net: &Network, n: f64, x: f64) -> bool {
        net.rate_check(n, x).reaches()
    }

    #[test]
    fn reaches_agrees_with_solve() {
        let n = net();
        for k in [1.0, 2.0, 10.0, 64.0, 1e6] {
            let x = n.solve(k).iops;
            assert!(reaches(&n, k, x * (1.0 - 1e-9)), "{k}");
            assert!(!reaches(&n, k, x * (1.0 + 1e-9)), "{k}");
        }
        assert!(reaches(&n, 4.0, 0.0));
        assert!(!reaches(&n, 1e9, 100_001.0));
    }

    #[test]
    fn the_start_and_the_bracket_hold_the_root_between_them() {
        // Two, then three near-equal bottlenecks: the one-queue roots bracket the
        // solution, with only the bottleneck's queue and with every centre's.
        let mut two = net();
        two.push(Centre::new(101_000.0, 4.0, 4.0 / 101_000.0));
        let mut three = two.clone();
        three.push(Centre::new(100_500.0, 32.0, 0.0));
        for net in [net(), two, three] {
            let l0 = net.unloaded_s();
            let (cmin, q_min) = net.bottleneck();
            for n in [2.0, 8.0, 40.0, 200.0, 5_000.0] {
                let a = (n - 1.0) / n;
                let x = net.solve(n).iops;
                let right = bottleneck_root(n, a, l0, cmin, q_min);
                let left = bottleneck_root(n, a, l0, cmin, net.queue_sum());
                assert!(left <= x * (1.0 + 1e-12), "{n}: {left} > {x}");
                assert!(x <= right.min(cmin) * (1.0 + 1e-12), "{n}: {x} > {right}");
            }
        }
    }

    #[test]
    fn latency_at_inverts_solve() {
        let n = net();
        for k in [1.0, 3.0, 10.0, 30.0, 60.0, 200.0] {
            let p = n.solve(k);
            let l = n.latency_at(p.iops, 256.0).unwrap();
            assert!((l / p.latency_s - 1.0).abs() < 1e-6, "{k}: {l} vs {p:?}");
        }
        assert!(n.latency_at(1e9, 256.0).is_none());
    }

    #[test]
    fn knee_is_flat_then_steep() {
        // 10 servers behind a 100,000 IOPS ceiling: little queueing at half load,
        // several times the unloaded latency near the ceiling.
        let n = net();
        let l0 = n.unloaded_s();
        let half = n.latency_at(50_000.0, 1e6).unwrap();
        let near = n.latency_at(97_000.0, 1e6).unwrap();
        assert!(half < 1.5 * l0, "{half} vs {l0}");
        assert!(near > 4.0 * l0, "{near} vs {l0}");
    }
}
