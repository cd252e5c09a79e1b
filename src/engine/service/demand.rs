//! A volume's back end as a storage demand: a time per op and a time per KiB, for reads
//! and for writes (ANF regular, large and breakthrough volumes; GCNV volumes).
//!
//! The back end's time per IO has a fixed part (request processing, metadata, a
//! consistency point's share) and a part that grows with the bytes moved, as a
//! connection's does. One resource with both parts caps small random IO by its op part
//! and large sequential IO by its byte part, so the ceiling at 8 or 32 KiB falls between
//! the 4 KiB IOPS and the 64 KiB MiB/s figures instead of repeating the 4 KiB IOPS at
//! every size. Reads and writes share the back end by the mix rule (time per op
//! `r t_read + (1 - r) t_write`), which also gives the published mix tables their shape.
//! A read the storage serves from its cache (the workload's `cached_read_pct`) skips the
//! media and costs a fitted share of a read from it (A4/A5, A1/A2: the same volume re-reading
//! its data set against reading it once).
//! The times are fitted jointly with the rest of the model (`model.json`); a published
//! figure whose clients could have bound the test is only a lower bound on them, which
//! the fit respects because it predicts each test through its whole path.

use crate::engine::catalog::{self, Evidence, OpTime};
use crate::engine::distribution::Distribution;
use crate::engine::limits::{Applies, Queue, RawLimit, Scope, Sink};
use crate::engine::model::Params;
use crate::engine::plan::Plan;
use crate::engine::scenario::VolumeKind;
use crate::engine::source::{Source, SourceKind};
use crate::engine::trace::{Formula, Label};
use crate::engine::units::iops_to_mibps;

/// One volume's back end.
#[derive(Debug, Clone, Copy)]
pub struct Demand {
    pub read: OpTime,
    pub write: OpTime,
    /// For reads and for writes: fitted, or fitted with only lower bounds from
    /// published tests.
    pub evidence: Evidence,
    /// Where the times come from; a fitted source takes the evidence's kind at the
    /// plan's mix.
    pub source: Source,
    /// True when the times are borrowed from another service (an assumption).
    pub assumption: bool,
}

const ANF_SOURCE: Source = Source::undocumented(
    "back end: time per op and per KiB, read and write, from the published Azure NetApp Files benchmarks",
    SourceKind::Fitted,
)
.note("fitted jointly to the ANF series (tests/fixtures/series.json; model.json)");
const GCNV_SOURCE: Source = Source::undocumented(
    "back end: no Google Cloud NetApp Volumes document gives a write or IOPS ceiling, so the Azure NetApp Files mechanism of the same volume kind (time per op and per KiB, writes slower than reads) scaled so that large reads reach the documented volume cap, and large sequential writes at the share of it in Google's one published write figure (a pool's 350 MiB/s of large sequential writes against 1,024 MiB/s of reads, in the guide for the service before today's levels)",
    SourceKind::Assumption,
)
.note("the ANF times are fitted to the ANF series (tests/fixtures/series.json)");

impl Demand {
    /// IOPS of one volume at `kib` KiB and read fraction `r`.
    pub fn iops(&self, kib: f64, r: f64) -> f64 {
        1e6 / (r * self.read.us(kib) + (1.0 - r) * self.write.us(kib))
    }

    /// MiB/s of reads of unbounded size: the limit of the byte part alone.
    pub fn read_mibps_limit(&self) -> f64 {
        iops_to_mibps(1e6 / self.read.b_us_per_kib, 1.0)
    }

    /// The same back end when a share `cached` (0-1) of reads comes from the storage's
    /// cache, each costing `factor` of a read from the media.
    pub fn with_cached_reads(self, cached: f64, factor: f64) -> Self {
        let f = 1.0 - cached * (1.0 - factor);
        Self {
            read: OpTime::new(self.read.a_us * f, self.read.b_us_per_kib * f),
            ..self
        }
    }

    /// The same back end with every time multiplied by `f`.
    fn scaled(self, f: f64) -> Self {
        let s = |t: OpTime| OpTime::new(t.a_us * f, t.b_us_per_kib * f);
        Self {
            read: s(self.read),
            write: s(self.write),
            ..self
        }
    }
}

/// The fitted back end of an ANF volume of `kind`.
pub fn anf(m: &Params, kind: VolumeKind) -> Demand {
    let (read, write) = match kind {
        VolumeKind::Regular => (
            OpTime::new(m.anf_regular_read_a_us, m.anf_regular_read_b_us_per_kib),
            OpTime::new(m.anf_regular_write_a_us, m.anf_regular_write_b_us_per_kib),
        ),
        VolumeKind::Large => (
            OpTime::new(m.anf_large_read_a_us, m.anf_large_read_b_us_per_kib),
            OpTime::new(m.anf_large_write_a_us, m.anf_large_write_b_us_per_kib),
        ),
        VolumeKind::Breakthrough => (
            OpTime::new(m.anf_bt_read_a_us, m.anf_bt_read_b_us_per_kib),
            OpTime::new(m.anf_bt_write_a_us, m.anf_bt_write_b_us_per_kib),
        ),
    };
    let e = &catalog::catalog().model.storage_evidence;
    let kinds = match kind {
        VolumeKind::Regular => e.regular,
        VolumeKind::Large => e.large,
        VolumeKind::Breakthrough => e.breakthrough,
    };
    Demand {
        read,
        write,
        evidence: kinds,
        source: ANF_SOURCE,
        assumption: false,
    }
}

/// The back end of a GCNV volume of `kind` (regular or large) whose documented cap is
/// `cap_mibps`: ANF's of the same kind, every time scaled by one factor so that reads
/// of unbounded size reach the cap (the document wins where it states a figure; the op
/// part follows the ANF mechanism, an assumption), and a write byte time at which large
/// sequential writes reach `write_share` of the cap (Google's one published write
/// figure, an assumption for today's levels).
pub fn gcnv(m: &Params, kind: VolumeKind, cap_mibps: f64, write_share: f64) -> Demand {
    let kind = if kind == VolumeKind::Regular {
        VolumeKind::Regular
    } else {
        VolumeKind::Large
    };
    let anf = anf(m, kind);
    let scaled = anf.scaled(anf.read_mibps_limit() / cap_mibps);
    let write_b_us_per_kib = 1e6 / (cap_mibps * write_share * 1024.0);
    Demand {
        write: OpTime::new(scaled.write.a_us, write_b_us_per_kib),
        source: GCNV_SOURCE,
        assumption: true,
        evidence: Evidence::FITTED,
        ..scaled
    }
}

/// Adds the back end `d` of the plan's loaded volumes as the `service_iops` limit.
pub fn push(p: &Plan, dist: &Distribution, d: &Demand, set: &mut impl Sink) {
    let d = d.with_cached_reads(p.cached, p.params.cache_read_factor);
    let per_volume = d.iops(p.io_kib, p.r);
    let count = dist.effective_count();
    set.push(RawLimit {
        id: "service_iops",
        label: Label {
            name: "Volume back end at this IO size and read share",
            formula: Formula::Iops {
                value: per_volume * f64::from(count),
                what: "time per op and per KiB, reads and writes by the mix rule",
            },
        },
        scope: Scope::Volume,
        applies: Applies::Both,
        mibps: iops_to_mibps(per_volume, p.io_kib) * dist.spread(),
        source: match d.source.kind {
            SourceKind::Fitted => d.source.kind(d.evidence.at(p.r)),
            _ => d.source,
        },
        assumption: d.assumption,
        queue: Queue::Storage,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_op_part_caps_small_io_and_the_byte_part_large_io() {
        let d = anf(&catalog::catalog().model.params, VolumeKind::Regular);
        let (at4, at8, at64) = (d.iops(4.0, 1.0), d.iops(8.0, 1.0), d.iops(64.0, 1.0));
        assert!(at8 < at4 && at64 < at8, "{at4} {at8} {at64}");
        // MiB/s grows with the IO size towards the byte part's limit.
        assert!(iops_to_mibps(at64, 64.0) > iops_to_mibps(at8, 8.0));
        let huge = iops_to_mibps(d.iops(1e9, 1.0), 1e9);
        assert!(huge < d.read_mibps_limit() && huge > 0.999 * d.read_mibps_limit());
        // Writes cost more than reads, so a mix lies between them.
        let mix = d.iops(8.0, 0.5);
        assert!(d.iops(8.0, 0.0) < mix && mix < at8);
    }

    #[test]
    fn cached_reads_cost_less_and_writes_do_not_change() {
        let m = &catalog::catalog().model.params;
        let d = anf(m, VolumeKind::Regular);
        let hot = d.with_cached_reads(1.0, m.cache_read_factor);
        assert!(m.cache_read_factor < 1.0);
        let gain = hot.iops(64.0, 1.0) / d.iops(64.0, 1.0);
        assert!((gain * m.cache_read_factor - 1.0).abs() < 1e-9, "{gain}");
        assert_eq!(hot.iops(64.0, 0.0), d.iops(64.0, 0.0));
        let half = d
            .with_cached_reads(0.5, m.cache_read_factor)
            .iops(64.0, 1.0);
        assert!(d.iops(64.0, 1.0) < half && half < hot.iops(64.0, 1.0));
    }

    #[test]
    fn a_gcnv_volume_reads_up_to_its_documented_cap_and_writes_its_share() {
        let m = &catalog::catalog().model.params;
        let d = gcnv(m, VolumeKind::Regular, 5120.0, 0.25);
        let mibps = |r: f64| iops_to_mibps(d.iops(1e12, r), 1e12);
        assert!((mibps(1.0) / 5120.0 - 1.0).abs() < 1e-3, "{}", mibps(1.0));
        assert!((mibps(0.0) / 1280.0 - 1.0).abs() < 1e-3, "{}", mibps(0.0));
        assert!(d.assumption);
        // Writes keep ANF's time per op, scaled with the reads.
        let anf = anf(m, VolumeKind::Regular);
        let scale = d.read.a_us / anf.read.a_us;
        assert!((d.write.a_us / (anf.write.a_us * scale) - 1.0).abs() < 1e-9);
    }
}
