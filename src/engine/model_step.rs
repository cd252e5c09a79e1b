//! The model step: a resolved plan's limits, its IO path as a queueing network and the
//! operating point where the workload's concurrency meets it. Evaluation, reverse
//! sizing and advice all call this; it calls none of them.

use super::avs;
use super::client;
use super::distribution::Distribution;
use super::limits::{LimitSet, Queue, RawLimit, Sink};
use super::model::curve::LatencyCurve;
use super::model::{Centre, Network, Point, RateCheck};
use super::plan::Plan;
use super::service;
use super::source::Source;
use super::targets::target_iops;
use super::units::{iops_to_mibps, mibps_to_iops};

/// The numbers of one evaluation, without text: what advice and sizing reuse.
#[derive(Debug, Clone)]
pub struct Core<'s> {
    /// Every limit, in the caller's set (filled by [`core`]), the Little's-law bound last.
    pub limits: &'s LimitSet,
    /// Achievable MiB/s (reads + writes): the queueing model's throughput.
    pub total: f64,
    /// The smallest ceiling (or the concurrency bound): what the rate bends under.
    pub binding: &'s RawLimit,
    /// The binding limit's total at this mix, MiB/s.
    pub ceiling: f64,
    /// Outstanding IOs in flight across all clients after slot limits.
    pub outstanding: f64,
    /// The first `storage_count` limits are the storage service's; the rest client-side.
    pub storage_count: usize,
    /// How the load spreads over the volumes (independent of level and quota).
    pub dist: Distribution,
    /// The IO path as a queueing network.
    pub network: Network,
    /// The operating point: achievable IOPS and mean latency.
    pub point: Point,
}

impl Core<'_> {
    /// Achievable IOPS.
    pub fn iops(&self, p: &Plan) -> f64 {
        mibps_to_iops(self.total, p.io_kib)
    }

    /// The smallest limit other than those `skip` rejects, as a total at the plan's mix.
    pub fn next_total(&self, p: &Plan, skip: impl Fn(&RawLimit) -> bool) -> f64 {
        self.limits
            .iter()
            .filter(|l| l.applies_at(p.r) && !skip(l))
            .map(|l| l.total_at(p.r))
            .fold(f64::INFINITY, f64::min)
    }

    /// Mean latency per IO at the achievable load, ms.
    pub fn latency_ms(&self) -> f64 {
        self.point.latency_s * 1000.0
    }

    /// The latency curve up to this operating point, its band `log_width` either side
    /// (0 for none).
    pub fn latency_curve(&self, p: &Plan, log_width: f64) -> LatencyCurve {
        LatencyCurve {
            network: self.network.clone(),
            outstanding: self.outstanding,
            iops: self.point.iops,
            latency_ms: self.latency_ms(),
            io_kib: p.io_kib,
            log_width,
        }
    }

    /// Mean latency per IO when the workload runs at its target rate, ms; `None`
    /// without a target or when the target is above the achievable rate.
    pub fn latency_at_target_ms(&self, p: &Plan) -> Option<f64> {
        let target = target_iops(p)?;
        self.network
            .latency_below(target, self.outstanding, self.point)
            .map(|s| s * 1000.0)
    }
}

/// The client side of a plan's IO path: the client (or AVS) and connection limits,
/// their queueing centres, the outstanding IOs after slot limits and the unloaded round
/// trip. Nothing in it depends on the volumes' quotas or provisioned rates, so reverse
/// sizing computes it once and reuses it for every level with the same
/// [`client::level_key`].
#[derive(Debug, Clone, PartialEq)]
pub struct ClientSide {
    /// The client-side limits, in the order [`core`] adds them after the storage ones.
    pub limits: LimitSet,
    /// Their centres behind the unloaded round trip (no storage centres).
    pub network: Network,
    /// Outstanding IOs in flight across all clients after slot limits.
    pub outstanding: f64,
    /// The round trip with its source and whether it is assumed ([`client::delay`]).
    pub delay: (f64, Source, bool),
}

impl ClientSide {
    /// The client side of `p` with the load spread `dist`; allocates nothing.
    pub fn of(p: &Plan, dist: &Distribution) -> Self {
        let mut limits = LimitSet::default();
        let outstanding = match &p.avs {
            Some(a) => {
                avs::limits(p, a, dist, &mut limits);
                avs::outstanding(p, a)
            }
            None => {
                client::limits(p, &mut limits);
                client::outstanding_per_client(p) * f64::from(p.clients)
            }
        };
        let delay = client::delay(p);
        let mut network = Network::new(delay.0);
        Centres::of(p, dist).push(limits.iter(), &mut network);
        Self {
            limits,
            network,
            outstanding,
            delay,
        }
    }
}

/// Computes every limit of a resolved plan into `set` (which must be empty), builds the
/// queueing network from them and solves it at the workload's concurrency; allocates
/// nothing. The set is the caller's so that it is never copied.
pub fn core<'s>(p: &Plan, set: &'s mut LimitSet) -> Core<'s> {
    let dist = Distribution::of(p);
    core_with(p, set, dist, &ClientSide::of(p, &dist))
}

/// As [`core`], with the plan's client side already known.
pub fn core_with<'s>(
    p: &Plan,
    set: &'s mut LimitSet,
    dist: Distribution,
    client: &ClientSide,
) -> Core<'s> {
    let mut security = LimitSet::default();
    let (network, storage_count) = path(p, set, &mut security, &dist, client);
    set.append(&client.limits);
    set.append(&security);
    set.push(client::concurrency_limit(
        p,
        client.outstanding,
        network.unloaded_s(),
        client.delay,
    ));
    let point = network.solve(client.outstanding);
    let set: &'s LimitSet = set;
    let b = set
        .binding(p.r, storage_count)
        .expect("every plan has storage limits");
    Core {
        limits: set,
        total: iops_to_mibps(point.iops, p.io_kib),
        binding: b.limit,
        ceiling: b.total,
        outstanding: client.outstanding,
        storage_count,
        dist,
        network,
        point,
    }
}

/// The IO path of a plan whose client side is known, unsolved: puts the storage
/// service's limits into `storage` and the security limits into `security` (both
/// empty before) and returns the queueing network of the storage, client and security
/// limits, in that order, behind the round trip (the concurrency bound is not a
/// centre), and how many limits are the storage service's.
pub fn path(
    p: &Plan,
    storage: &mut LimitSet,
    security: &mut LimitSet,
    dist: &Distribution,
    client: &ClientSide,
) -> (Network, usize) {
    storage_limits(p, dist, client, storage, security);
    let centres = Centres::of(p, dist);
    let mut network = Network::new(client.delay.0);
    centres.push(storage.iter(), &mut network);
    network.append(&client.network);
    centres.push(security.iter(), &mut network);
    (network, storage.len())
}

/// The limits a plan's storage side adds to its known client side: the storage
/// service's (and the cool tier's) into `storage`, the security flavour's, which act
/// on both sides, into `security` (both empty before).
fn storage_limits(
    p: &Plan,
    dist: &Distribution,
    client: &ClientSide,
    storage: &mut LimitSet,
    security: &mut LimitSet,
) {
    debug_assert!(
        storage.is_empty() && security.is_empty(),
        "the IO path needs empty limit sets"
    );
    service_limits(p, dist, storage);
    super::security::limits(p, storage.iter().chain(client.limits.iter()), security);
}

/// The storage service's and the cool tier's limits, into `sink`.
fn service_limits(p: &Plan, dist: &Distribution, sink: &mut impl Sink) {
    service::limits(p, dist, sink);
    super::cool::limits(p, dist.spread(), sink);
}

/// Adds the centres of a plan's storage side (its service's, the cool tier's and the
/// security flavour's limits) to `rate`, a check of its client side `client` at a
/// rate: what a sizing check needs. The limits go straight into the check unless a
/// security flavour's processing share, which slows the smallest processing ceiling
/// on the path, needs them collected first.
pub fn add_storage_centres(
    p: &Plan,
    dist: &Distribution,
    client: &ClientSide,
    rate: &mut RateCheck,
) {
    let mut sink = RateSink {
        centres: Centres::of(p, dist),
        rate,
    };
    if super::security::processing_share(p).is_some() {
        push_collected(p, dist, client, &mut sink);
    } else {
        service_limits(p, dist, &mut sink);
        super::security::limits(p, std::iter::empty(), &mut sink);
    }
}

/// Pushes the storage side's limits into `sink` from the sets [`storage_limits`]
/// collects first (what a processing share needs to find the ceiling it slows).
fn push_collected(p: &Plan, dist: &Distribution, client: &ClientSide, sink: &mut impl Sink) {
    let mut storage = LimitSet::default();
    let mut security = LimitSet::default();
    storage_limits(p, dist, client, &mut storage, &mut security);
    for &l in storage.iter().chain(security.iter()) {
        sink.push(l);
    }
}

/// Takes limits as the queueing centres of a rate check (a limit that limits nothing
/// adds no centre, as [`LimitSet`] keeps no such limit).
struct RateSink<'r> {
    centres: Centres,
    rate: &'r mut RateCheck,
}

impl Sink for RateSink<'_> {
    fn push(&mut self, l: RawLimit) {
        if let Some(c) = self.centres.centre(&l) {
            self.rate.add(c);
        }
    }
}

/// How a plan's limits become queueing centres (see [`Queue`]).
#[derive(Debug, Clone, Copy)]
struct Centres {
    /// Read fraction of the workload.
    r: f64,
    /// IOPS per MiB/s at the plan's IO size.
    per_mibps: f64,
    /// Back-end servers behind a storage ceiling: those of every loaded volume.
    storage_servers: f64,
}

impl Centres {
    /// The conversion for plan `p` with the load spread `dist`.
    fn of(p: &Plan, dist: &Distribution) -> Self {
        Self {
            r: p.r,
            per_mibps: mibps_to_iops(1.0, p.io_kib),
            storage_servers: p.params.storage_servers * dist.spread().max(1.0),
        }
    }

    /// The centre of limit `l`; `None` for the concurrency bound, which is not one.
    fn centre(&self, l: &RawLimit) -> Option<Centre> {
        let capacity = l.total_at(self.r) * self.per_mibps;
        Some(match l.queue {
            Queue::Storage => Centre::new(capacity, self.storage_servers, 0.0),
            Queue::Limiter => Centre::new(capacity, 1.0, 0.0),
            Queue::Servers(n) => Centre::holding(capacity, n),
            Queue::Parallel(n) => Centre::new(capacity, n, 0.0),
            Queue::Pool(n) => Centre::new(capacity, 1.0, n.max(1.0) / capacity),
            Queue::Bound => return None,
        })
    }

    /// Adds a centre to `net` for each of `limits`.
    fn push<'l>(&self, limits: impl Iterator<Item = &'l RawLimit>, net: &mut Network) {
        for c in limits.filter_map(|l| self.centre(l)) {
            net.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::{Level, Scenario};
    use crate::model_fit::series::SeriesFile;

    /// Every scenario of the published series (`tests/fixtures/series.json`).
    fn published() -> Vec<Scenario> {
        SeriesFile::parse(include_str!("../../tests/fixtures/series.json"))
            .expect("series.json parses")
            .series
            .into_iter()
            .flat_map(|s| s.points)
            .map(|p| p.scenario)
            .collect()
    }

    #[test]
    fn storage_centres_go_straight_into_a_rate_check_as_collected() {
        let mut checked = 0;
        for s in published() {
            let p = Plan::resolve(&s).expect("a published scenario resolves");
            for &level in Level::of(p.service) {
                let mut p = p;
                p.level = level;
                let dist = Distribution::of(&p);
                let client = ClientSide::of(&p, &dist);
                let rate = client.network.rate_check(client.outstanding, 1_000.0);
                let (mut straight, mut collected) = (rate, rate);
                add_storage_centres(&p, &dist, &client, &mut straight);
                push_collected(
                    &p,
                    &dist,
                    &client,
                    &mut RateSink {
                        centres: Centres::of(&p, &dist),
                        rate: &mut collected,
                    },
                );
                assert_eq!(straight, collected, "{} at {level:?}", s.name);
                checked += 1;
            }
        }
        assert!(checked > 100, "only {checked} plans checked");
    }
}
