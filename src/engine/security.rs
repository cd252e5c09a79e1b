//! NFS Kerberos and SMB signing or encryption: the time each adds to an IO's round trip
//! and how much of the file-protocol processing capacity it leaves.
//!
//! Kerberos: LEARN-ANF/performance-impact-kerberos (NFSv4.1 against `sec=sys`,
//! measurements I1 and I3): added latency at low concurrency, lower maxima at high
//! concurrency, by access pattern. The cryptography runs in the RPC processing of the
//! client and of the storage front end, so the flavour's share applies to the smallest
//! processing ceiling on the path (client path, connections, the volume's processing
//! ceilings), never to a rate limit (QoS, pool budget, VM egress). The same page
//! measures krb5i (integrity only): its figures are taken as published. SMB
//! (LEARN-ANF/azure-netapp-files-smb-performance, H4 and H5):
//! signing is computed on one client core per channel (875 MiB/s of sequential reads on
//! one channel became about 250 MiB/s); encryption costs the storage side 10 to 15 % of
//! read/write throughput and 5 % of metadata work.

use super::limits::{Applies, Queue, RawLimit, Scope, Sink};
use super::plan::Plan;
use super::scenario::{Access, Sec, Service, SmbSecurity};
use super::source::{Source, SourceKind};
use super::trace::{Formula, Label};

const KERBEROS_SOURCE: Source = Source::documented("LEARN-ANF/performance-impact-kerberos")
    .dated("02/18/2021")
    .section("krb5, krb5i and krb5p against sec=sys, NFSv4.1, one client and volume")
    .kind(SourceKind::Fitted)
    .note("measurements I1, I3; krb5i from the page's own section");
const SMB_SIGNING_SOURCE: Source =
    Source::documented("LEARN-ANF/azure-netapp-files-smb-performance").dated("01/28/2025")
        .section("with signing, one channel's sequential reads fell from 875 to about 250 MiB/s, bound by one client core")
        .kind(SourceKind::Fitted)
        .note("measurements H4");
const SMB_ENCRYPTION_SOURCE: Source = Source::documented(
    "LEARN-ANF/azure-netapp-files-smb-performance",
)
.dated("01/28/2025")
.section(
    "encryption costs 10-15 % of read/write and 5 % of metadata throughput on the storage side",
)
.kind(SourceKind::Fitted)
.note("measurements H5");

/// Share of the storage-side processing SMB encryption leaves (H5: "-10 % to -15 %"
/// for reads and writes, the midpoint; "-5 %" for metadata-intensive work).
const SMB_ENCRYPTION_SHARE: f64 = 0.875;
const SMB_ENCRYPTION_META_SHARE: f64 = 0.95;

/// Per-channel signing ceiling (H4: about 250 MiB/s on one channel).
pub const SMB_SIGNING_MIBPS_PER_CHANNEL: f64 = 250.0;

/// One flavour's published effect.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Krb {
    /// Added latency at low concurrency, ms: sequential, random, metadata.
    delay_ms: [f64; 3],
    /// Share of the maximum left: sequential, random read, random write, metadata.
    share: [f64; 4],
}

const KRB5: Krb = Krb {
    delay_ms: [0.3, 0.2, 0.2],
    share: [1.0, 0.70, 1.0, 0.70],
};
/// krb5i: "+0.5 ms" sequential, "+0.2 ms" random and metadata at low concurrency;
/// sequential throughput "decreased by 70 %", random reads by 50 % falling to 25 % for
/// writes, metadata by 30 %.
const KRB5I: Krb = Krb {
    delay_ms: [0.5, 0.2, 0.2],
    share: [0.30, 0.50, 0.75, 0.70],
};
const KRB5P: Krb = Krb {
    delay_ms: [0.8, 0.2, 0.2],
    share: [0.15, 0.35, 0.57, 0.70],
};

fn flavour(sec: Sec) -> Option<Krb> {
    match sec {
        Sec::Sys => None,
        Sec::Krb5 => Some(KRB5),
        Sec::Krb5i => Some(KRB5I),
        Sec::Krb5p => Some(KRB5P),
    }
}

/// Whether the plan's security settings rest on an assumption: Kerberos outside ANF
/// and SMB encryption or signing outside ANF, where only ANF's figures are published.
pub fn assumed(p: &Plan) -> bool {
    (p.sec != Sec::Sys || p.smb_security != SmbSecurity::None) && p.service != Service::Anf
}

/// Time the security flavour adds to every IO's round trip, ms.
pub fn added_delay_ms(p: &Plan) -> f64 {
    let Some(k) = flavour(p.sec) else { return 0.0 };
    if p.metadata_heavy {
        k.delay_ms[2]
    } else if p.access == Access::Sequential {
        k.delay_ms[0]
    } else {
        k.delay_ms[1]
    }
}

/// Share of the processing capacity the security setting leaves at the plan's access
/// pattern and mix (1 = no effect), with its source.
pub fn processing_share(p: &Plan) -> Option<(f64, Source)> {
    if let Some(k) = flavour(p.sec) {
        let source = KERBEROS_SOURCE;
        let share = if p.metadata_heavy {
            k.share[3]
        } else if p.access == Access::Sequential {
            k.share[0]
        } else {
            // Reads and writes share the time per op.
            1.0 / (p.r / k.share[1] + (1.0 - p.r) / k.share[2])
        };
        return (share < 1.0).then_some((share, source));
    }
    if p.smb_security == SmbSecurity::Encryption {
        let share = if p.metadata_heavy {
            SMB_ENCRYPTION_META_SHARE
        } else {
            SMB_ENCRYPTION_SHARE
        };
        return Some((share, SMB_ENCRYPTION_SOURCE));
    }
    None
}

/// The ceilings the protocol processing sets (what cryptography slows down); Azure
/// Files' IOPS ceiling is a provisioned budget, not processing.
fn is_processing(p: &Plan, l: &RawLimit) -> bool {
    match l.id {
        "connection" | "connection_bytes" | "client_path" => true,
        "volume_max" | "service_iops" => p.service != Service::AzureFiles,
        _ => false,
    }
}

/// Adds the security limits of a path whose service and client limits are `on_path`.
pub fn limits<'l>(p: &Plan, on_path: impl Iterator<Item = &'l RawLimit>, set: &mut impl Sink) {
    if let Some((share, source)) = processing_share(p) {
        let base = on_path
            .filter(|l| is_processing(p, l) && l.applies_at(p.r))
            .min_by(|a, b| a.total_at(p.r).total_cmp(&b.total_at(p.r)))
            .map(|l| (l.total_at(p.r), l.queue, l.label.name));
        // The cryptography queues like the ceiling it slows down but adds no time of
        // its own when idle (the published added latency is in the round trip).
        let queue = |q: Queue| match q {
            Queue::Servers(n) => Queue::Parallel(n),
            other => other,
        };
        if let Some((total, base_queue, of)) = base {
            let name = if p.protocol.is_nfs() {
                "Kerberos processing"
            } else {
                "SMB encryption processing"
            };
            set.push(RawLimit {
                id: "security",
                label: Label {
                    name,
                    formula: Formula::Share {
                        pct: share * 100.0,
                        of,
                        value: total,
                    },
                },
                scope: Scope::Workload,
                applies: Applies::Both,
                mibps: total * share,
                source,
                assumption: assumed(p),
                queue: queue(base_queue),
            });
        }
    }
    if p.smb_security == SmbSecurity::Signing && p.avs.is_none() {
        let channels = f64::from(super::connections::smb_channels(p)) * f64::from(p.clients);
        set.push(RawLimit {
            id: "smb_signing",
            label: Label {
                name: "SMB signing",
                formula: Formula::Times {
                    n: channels as u64,
                    each: SMB_SIGNING_MIBPS_PER_CHANNEL,
                    what: "per channel, signed on one client core",
                },
            },
            scope: Scope::Client,
            applies: Applies::Both,
            mibps: SMB_SIGNING_MIBPS_PER_CHANNEL * channels,
            source: SMB_SIGNING_SOURCE,
            assumption: assumed(p),
            queue: Queue::Servers(channels),
        });
    }
}
