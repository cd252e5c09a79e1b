//! Client-side limits: VM egress (writes only), NIC ingress (reads), per-connection
//! ceilings with diminishing returns, and concurrency by Little's law.

use super::catalog::{self, Latency};
use super::concurrency::iops_ceiling;
use super::limits::{Applies, RawLimit, Scope, Sink};
use super::plan::Plan;
use super::scaling::{mix, speedup};
use super::scenario::{Files, Protocol, Service};
use super::service::azure_files::is_ssd;
use super::trace::{Formula, Label};
use super::units::iops_to_mibps;

/// SMB channels one client opens to one share: `smb_channels` with multichannel, else 1.
/// Multichannel needs SSD shares on Azure Files (LEARN-FILES/smb-performance).
pub fn smb_channels(p: &Plan) -> u32 {
    if multichannel_active(p) {
        p.smb_channels
    } else {
        1
    }
}

/// True when SMB multichannel is on and the share supports it.
pub fn multichannel_active(p: &Plan) -> bool {
    p.protocol == Protocol::Smb3 && p.smb_multichannel && supports_multichannel(p)
}

/// Azure Files offers multichannel on SSD shares only; ANF and GCNV SMB always.
pub fn supports_multichannel(p: &Plan) -> bool {
    p.service != Service::AzureFiles || is_ssd(p.level)
}

/// Connections one client opens across all volumes (contract: flows.connections).
/// An AVS host mounts every datastore, one connection each, whether or not its VMs
/// use it; the performance model counts only the flows that carry load.
pub fn connections_per_client(p: &Plan) -> u64 {
    if p.avs.is_some() {
        return u64::from(p.n_volumes);
    }
    let per_volume = match p.protocol {
        Protocol::Smb3 => smb_channels(p),
        _ => p.nconnect,
    };
    u64::from(p.n_volumes) * u64::from(per_volume)
}

/// Total connections between clients (or AVS hosts) and storage.
pub fn connections(p: &Plan) -> u64 {
    let clients = p.avs.map_or(p.clients, |a| a.hosts);
    u64::from(clients) * connections_per_client(p)
}

/// The ~10 % loss of SMB multichannel for single-threaded work, or small IO to one
/// file (LEARN-FILES/smb-performance); 1.0 where it does not apply.
pub fn multichannel_penalty(p: &Plan) -> (f64, f64) {
    if !multichannel_active(p) {
        return (1.0, 1.0);
    }
    let smb = &catalog::catalog().services.azure_files.smb;
    let small = p.io_kib <= smb.small_io_kib;
    // One thread over many files with larger IOs "gains a little": no loss there.
    if p.threads == 1 && (p.files == Files::One || small) {
        (smb.single_thread_factor, 1.0)
    } else if p.threads > 1 && p.files == Files::One && small {
        (1.0, smb.single_thread_factor)
    } else {
        (1.0, 1.0)
    }
}

/// The unloaded latency model of the plan's service.
pub fn latency(p: &Plan) -> (&'static Latency, &'static str) {
    let m = &catalog::catalog().model.latency;
    match p.service {
        Service::Anf => (
            &m.anf,
            "latency: fitted to LEARN-ANF concurrency worked examples (8 KiB 0.5 ms, 256 KiB 2 ms)",
        ),
        Service::Gcnv => (
            &m.gcnv,
            "latency: GCNV/performance/expected-performance 0.5 ms example",
        ),
        Service::AzureFiles if is_ssd(p.level) => (
            &m.azure_files_ssd,
            "latency: UNCONFIRMED 1 ms base for SSD shares (assumption)",
        ),
        Service::AzureFiles => (
            &m.azure_files_hdd,
            "latency: UNCONFIRMED 10 ms base for HDD shares (assumption)",
        ),
    }
}

/// Outstanding IOs one client can keep in flight after protocol slot limits.
pub fn outstanding_per_client(p: &Plan) -> f64 {
    let want = f64::from(p.threads) * f64::from(p.queue_depth);
    let slots = &catalog::catalog().model.slots;
    match p.protocol {
        Protocol::Nfsv3 => want.min(slots.nfsv3_per_connection * connections_per_client(p) as f64),
        Protocol::Nfsv41 => want.min(
            f64::from(p.n_volumes)
                * slots
                    .nfsv41_session_default
                    .min(slots.nfsv3_per_connection * f64::from(p.nconnect)),
        ),
        Protocol::Smb3 => want,
    }
}

/// Adds egress, ingress, connection and concurrency limits for ordinary VMs.
pub fn limits(p: &Plan, set: &mut impl Sink) {
    let clients = u64::from(p.clients);
    if let Some(e) = p.egress {
        set.push(RawLimit {
            id: "client_egress",
            label: Label {
                name: "Client VM egress (writes)",
                formula: Formula::Times {
                    n: clients,
                    each: e.mibps,
                    what: "per VM, metered on egress only",
                },
            },
            scope: Scope::Client,
            applies: Applies::Write,
            mibps: e.mibps * clients as f64,
            source: e.source,
            assumption: e.assumption,
        });
    }
    if let Some(i) = p.ingress {
        set.push(RawLimit {
            id: "client_ingress",
            label: Label {
                name: "Client NIC line rate (reads)",
                formula: Formula::Times {
                    n: clients,
                    each: i.mibps,
                    what: "per VM; ingress is not metered, only the NIC bounds it",
                },
            },
            scope: Scope::Client,
            applies: Applies::Read,
            mibps: i.mibps * clients as f64,
            source: i.source,
            assumption: i.assumption,
        });
    }

    let model = &catalog::catalog().model;
    let n = connections_per_client(p) as f64;
    let (usl_r, usl_w, source) = if p.protocol == Protocol::Smb3 {
        (
            model.smb_channel.usl_read,
            model.smb_channel.usl_write,
            model.smb_channel.source.as_str(),
        )
    } else {
        (
            model.nfs_connection.usl_read,
            model.nfs_connection.usl_write,
            model.nfs_connection.source.as_str(),
        )
    };
    let conn = &model.nfs_connection;
    let read = conn.read.iops(p.io_kib) * speedup(usl_r, n);
    let write = conn.write.iops(p.io_kib) * speedup(usl_w, n);
    let (_, conn_penalty) = multichannel_penalty(p);
    let per_client = mix(p.r, read, write) * conn_penalty;
    let one = mix(p.r, conn.read.iops(p.io_kib), conn.write.iops(p.io_kib));
    set.push(RawLimit {
        id: "connection",
        label: Label {
            name: "TCP connections",
            formula: Formula::Connections {
                n: connections(p),
                per_flow_mibps: iops_to_mibps(one, p.io_kib),
                factor: per_client / (one * n),
            },
        },
        scope: Scope::Connection,
        applies: Applies::Both,
        mibps: iops_to_mibps(per_client, p.io_kib) * clients as f64,
        source,
        assumption: p.protocol == Protocol::Smb3,
    });

    push_concurrency(p, outstanding_per_client(p) * clients as f64, set);
}

/// Adds the Little's-law limit for `outstanding` IOs in flight in total.
pub fn push_concurrency(p: &Plan, outstanding: f64, set: &mut impl Sink) {
    let (lat, source) = latency(p);
    let (lat_penalty, _) = multichannel_penalty(p);
    let ms = lat.at(p.io_kib) / lat_penalty;
    let iops = iops_ceiling(outstanding, ms);
    set.push(RawLimit {
        id: "concurrency",
        label: Label {
            name: "Concurrency (Little's law)",
            formula: Formula::Little {
                outstanding,
                latency_ms: ms,
            },
        },
        scope: Scope::Workload,
        applies: Applies::Both,
        mibps: iops_to_mibps(iops, p.io_kib),
        source,
        assumption: lat.unconfirmed,
    });
}

/// Unloaded latency in ms for the plan (with the multichannel penalty).
pub fn unloaded_latency_ms(p: &Plan) -> f64 {
    let (lat, _) = latency(p);
    lat.at(p.io_kib) / multichannel_penalty(p).0
}
