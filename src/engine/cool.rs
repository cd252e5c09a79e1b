//! ANF cool access: reads served from the cool tier.
//!
//! A read of cool data is fetched from the cool tier's object store before it is
//! returned; the tier serves a bounded number of such reads at once per volume (about
//! 16 jobs at queue depth 15, LEARN-ANF/performance-considerations-cool-access,
//! measurements J3) and each takes far longer than a hot read, sequential reads less so
//! than random ones (the service reads ahead). In the queueing model the retrievals
//! are one pool of workers with a shared queue, visited only by the cool share of the
//! reads: with visit ratio `f`, its ceiling in the workload's IOPS is the tier's rate
//! divided by `f`, and an idle tier adds `f x t` to each IO. Behind the retrievals,
//! the tier's transfer rate per volume caps what it delivers however many are in
//! flight. Writes and hot reads visit neither.

use super::limits::{Applies, Queue, RawLimit, Scope, Sink};
use super::plan::Plan;
use super::scenario::Access;
use super::source::{Source, SourceKind};
use super::trace::{Formula, Label};
use super::units::iops_to_mibps;

/// Cool reads in flight one volume's cool tier serves at once (J3: ~16 jobs x QD <= 15).
pub const COOL_CONCURRENCY: f64 = 240.0;

const SOURCE: Source =
    Source::documented("LEARN-ANF/performance-considerations-cool-access").dated("08/23/2024")
        .section("concurrency ~16 jobs x QD 15; time per cool read and transfer rate from its hot and cool series")
        .kind(SourceKind::Fitted)
        .note("measurements J1-J5, tests/fixtures/series.json");

/// Share of all reads served from the cool tier (0 without cool access).
pub fn cool_read_share(p: &Plan) -> f64 {
    p.cool.map_or(0.0, |c| c.cool_read_pct / 100.0)
}

/// Time one cool read takes at the tier, seconds.
pub fn read_time_s(p: &Plan) -> f64 {
    let m = p.params;
    let a = match p.access {
        Access::Sequential => m.cool_seq_a_ms,
        Access::Random => m.cool_rand_a_ms,
    };
    (a + m.cool_b_ms_per_kib * p.io_kib) / 1000.0
}

/// Adds the cool tier's read ceiling when some reads come from it.
pub fn limits(p: &Plan, spread: f64, set: &mut impl Sink) {
    let share = cool_read_share(p);
    if share <= 0.0 || p.r <= 0.0 {
        return;
    }
    let t = read_time_s(p);
    let volumes = spread.max(1.0);
    // Cool reads per second the tiers of the loaded volumes serve, and the reads of
    // the workload (hot and cool) that come with them.
    let cool_iops = COOL_CONCURRENCY / t * volumes;
    let reads_mibps = iops_to_mibps(cool_iops / share, p.io_kib);
    set.push(RawLimit {
        id: "cool_tier",
        label: Label {
            name: "Cool tier reads",
            formula: Formula::Share {
                pct: share * 100.0,
                of: "reads come from the cool tier, whose rate is",
                value: iops_to_mibps(cool_iops, p.io_kib),
            },
        },
        scope: Scope::Volume,
        applies: Applies::Read,
        mibps: reads_mibps,
        source: SOURCE,
        assumption: false,
        queue: Queue::Pool(COOL_CONCURRENCY * volumes),
    });
    // The tier's transfer rate: what one volume fetches from the object store per
    // second, whatever the number of retrievals in flight.
    let tier_mibps = p.params.cool_mibps_per_volume * volumes;
    set.push(RawLimit {
        id: "cool_tier_transfer",
        label: Label {
            name: "Cool tier transfer",
            formula: Formula::Share {
                pct: share * 100.0,
                of: "reads come from the cool tier, whose transfer rate is",
                value: tier_mibps,
            },
        },
        scope: Scope::Volume,
        applies: Applies::Read,
        mibps: tier_mibps / share,
        source: SOURCE,
        assumption: false,
        queue: Queue::Limiter,
    });
}
