//! Client-side limits: VM egress (writes only), NIC ingress (reads), the client's own
//! read/write path, per-connection ceilings, the unloaded round trip, and the
//! concurrency bound by Little's law.

use super::catalog::{self, OpTime, Usl};
use super::concurrency::iops_ceiling;
use super::connections::{connections, connections_per_client, multichannel_active};
use super::limits::{Applies, Queue, RawLimit, Scope, Sink};
use super::plan::Plan;
use super::scaling::{mix, speedup};
use super::scenario::{Files, NfsClient, Protocol, Service};
use super::service::azure_files::is_ssd;
use super::source::{Source, SourceKind};
use super::trace::{Formula, Label};
use super::units::iops_to_mibps;

/// What of the storage level the client side (its limits, round trip and slots)
/// depends on: whether an Azure Files share is SSD (multichannel, round trip); nothing
/// on ANF and GCNV. Reverse sizing reuses one client side across the levels with the
/// same key.
pub fn level_key(p: &Plan) -> bool {
    p.service == Service::AzureFiles && is_ssd(p.level)
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

/// The round trip without queueing (the model's delay centre) in seconds, with its
/// source and whether it rests on an assumption rather than a fitted series.
pub fn delay(p: &Plan) -> (f64, Source, bool) {
    let m = p.params;
    let (base, source, assumption) = match p.service {
        Service::Anf => (
            m.anf_delay_ms,
            Source::undocumented(
                "round trip, from the published Azure NetApp Files benchmarks",
                SourceKind::Fitted,
            )
            .note("fitted jointly to the ANF series, tests/fixtures/series.json"),
            false,
        ),
        Service::Gcnv => (
            m.gcnv_delay_ms,
            Source::documented("GCNV/performance/measure-performance")
                .section("round trip, from the single-thread measurement")
                .kind(SourceKind::Fitted),
            false,
        ),
        Service::AzureFiles if is_ssd(p.level) => (
            m.files_ssd_delay_ms,
            Source::documented("LEARN-FILES/understand-performance")
                .section("round trip, from the SSD latency statements")
                .kind(SourceKind::Fitted),
            false,
        ),
        Service::AzureFiles => (
            catalog::catalog().model.assumptions.files_hdd_delay_ms,
            Source::undocumented(
                "round trip of 10 ms for HDD shares, no published measurement",
                SourceKind::Assumption,
            ),
            true,
        ),
    };
    let state = state_cost(p);
    let ms = (base * state + m.delay_per_kib_ms * p.io_kib + transfer_ms(p))
        / multichannel_penalty(p).0
        + super::security::added_delay_ms(p);
    (ms / 1000.0, source, assumption || state > 1.0)
}

/// Time to put one IO on the client VM's network, ms: its size over the VM's
/// documented bandwidth (or the scenario's egress), so a VM of a lower network tier
/// waits longer for every IO of the same size.
pub fn transfer_ms(p: &Plan) -> f64 {
    p.egress
        .filter(|e| e.mibps > 0.0)
        .map_or(0.0, |e| p.io_kib / 1024.0 / e.mibps * 1000.0)
}

/// Protocol operations per operation of a metadata-heavy mix: an NFSv4.1 client also
/// opens, closes and locks files and renews its lease (state NFSv3 does not keep), an
/// assumption of `model.json` (`nfsv41_state_ops_per_meta_op`, with its sources); 1
/// otherwise. Azure Files documents its NFS (4.1) shares' metadata rate as measured,
/// so the cost is already in it.
pub fn state_cost(p: &Plan) -> f64 {
    if p.metadata_heavy && p.protocol == Protocol::Nfsv41 && p.service != Service::AzureFiles {
        1.0 + catalog::catalog()
            .model
            .assumptions
            .nfsv41_state_ops_per_meta_op
    } else {
        1.0
    }
}

/// Outstanding IOs one client can keep in flight after protocol slot limits.
pub fn outstanding_per_client(p: &Plan) -> f64 {
    let want = f64::from(p.threads) * f64::from(p.queue_depth);
    let slots = &catalog::catalog().model.slots;
    match p.protocol {
        Protocol::Nfsv3 => want.min(slots.nfsv3_per_connection * connections_per_client(p) as f64),
        Protocol::Nfsv41 if p.nfs_client == NfsClient::Dnfs => {
            want.min(slots.nfsv3_per_connection * connections_per_client(p) as f64)
        }
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
            queue: Queue::Servers(clients as f64),
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
            queue: Queue::Servers(clients as f64),
        });
    }

    let times = PathTimes::of(p);
    push_client_path(p, &times, set);
    push_connections(p, &times, set);
}

/// The parameters of a plan's connections and client path, by service and protocol:
/// each service's own where published series fix them, ANF's where none does (an
/// assumption the limit states and the likely range widens for).
#[derive(Debug, Clone, Copy)]
struct PathTimes {
    /// One connection's (or SMB channel's) request and byte times, reads and writes.
    conn_read: OpTime,
    conn_write: OpTime,
    conn_source: Source,
    conn_assumed: bool,
    /// One vCPU's time per op and per KiB on the client path.
    client_read: OpTime,
    client_write: OpTime,
    client_source: Source,
    client_assumed: bool,
}

impl PathTimes {
    fn of(p: &Plan) -> Self {
        let m = p.params;
        // Oracle Direct NFS runs its own NFS client in user space: the kernel client's
        // per-op work shrinks to the fitted share, the per-KiB copy stays.
        let op = if p.nfs_client == NfsClient::Dnfs {
            m.dnfs_op_factor
        } else {
            1.0
        };
        let anf_client = (
            OpTime::new(m.client_read_a_us * op, m.client_read_b_us_per_kib),
            OpTime::new(m.client_write_a_us * op, m.client_write_b_us_per_kib),
        );
        if p.protocol == Protocol::Smb3 {
            // An SMB channel's requests are processed by the one CPU its flow is
            // steered to, so its request time is the SMB client's time per op.
            let (read_a, write_a) = (m.smb_client_read_a_us, m.smb_client_write_a_us);
            let gcnv = p.service == Service::Gcnv;
            return Self {
                conn_read: OpTime::new(read_a, m.smb_read_b_us_per_kib),
                conn_write: OpTime::new(write_a, m.smb_write_b_us_per_kib),
                conn_source: if gcnv {
                    Source::undocumented("SMB channels: no published Google Cloud NetApp Volumes SMB figure; request time, byte time and multichannel contention from the Azure Files and Azure NetApp Files SMB benchmarks", SourceKind::Assumption).note("fitted to the Azure Files and ANF SMB series, tests/fixtures/series.json")
                } else {
                    Source::undocumented("SMB channels: request time of the SMB client's vCPU, byte time and multichannel contention, from the Azure Files and Azure NetApp Files SMB benchmarks", SourceKind::Fitted).note("fitted to the Azure Files and ANF SMB series, tests/fixtures/series.json")
                },
                conn_assumed: gcnv,
                client_read: OpTime::new(read_a, anf_client.0.b_us_per_kib),
                client_write: OpTime::new(write_a, anf_client.1.b_us_per_kib),
                client_source: if gcnv {
                    Source::undocumented("client path: the SMB client's time per request and the NFS client's per KiB from the Azure Files and Azure NetApp Files benchmarks; no published Google Cloud NetApp Volumes figure", SourceKind::Assumption).note("fitted to the Azure Files and ANF series, tests/fixtures/series.json")
                } else {
                    Source::undocumented("client path: the SMB client's vCPU time per request (SMB benchmarks) and the file client's per KiB (single-client NFS benchmarks)", SourceKind::Fitted).note("fitted to the SMB and the single-client NFS series, tests/fixtures/series.json")
                },
                client_assumed: gcnv,
            };
        }
        let anf_conn = (
            OpTime::new(m.conn_read_a_us, m.conn_read_b_us_per_kib),
            OpTime::new(m.conn_write_a_us, m.conn_write_b_us_per_kib),
        );
        let (conn, conn_source, conn_assumed, client_source, client_assumed) = match p.service {
            Service::Anf => (
                anf_conn,
                Source::undocumented("NFS connections: per-connection request and byte times, from the published Azure NetApp Files nconnect benchmarks", SourceKind::Fitted).note("fitted jointly to the ANF nconnect series, tests/fixtures/series.json"),
                false,
                Source::undocumented("client path: vCPU time per op and per KiB, from the published single-client benchmarks", SourceKind::Fitted).note("fitted jointly to the single-client series, tests/fixtures/series.json"),
                false,
            ),
            Service::AzureFiles => {
                let t = OpTime::new(m.files_nfs_conn_a_us, m.files_nfs_conn_b_us_per_kib);
                (
                    (t, t),
                    Source::documented("LEARN-FILES/nfs-performance").section("NFS connections: Azure Files' own request and byte times, from its nconnect benchmarks").kind(SourceKind::Fitted),
                    false,
                    Source::undocumented("client path: the Linux NFS client's vCPU times from the Azure NetApp Files benchmarks; no published Azure Files figure", SourceKind::Assumption).note("fitted to the ANF series, tests/fixtures/series.json"),
                    true,
                )
            }
            Service::Gcnv => (
                anf_conn,
                Source::undocumented("NFS connections: Azure NetApp Files' per-connection request and byte times from its nconnect benchmarks; no published Google Cloud NetApp Volumes figure", SourceKind::Assumption).note("fitted to the ANF nconnect series, tests/fixtures/series.json"),
                true,
                Source::undocumented("client path: the Linux NFS client's vCPU times from the Azure NetApp Files benchmarks; no published Google Cloud NetApp Volumes figure", SourceKind::Assumption).note("fitted to the ANF series, tests/fixtures/series.json"),
                true,
            ),
        };
        Self {
            conn_read: conn.0,
            conn_write: conn.1,
            conn_source,
            conn_assumed,
            client_read: anf_client.0,
            client_write: anf_client.1,
            client_source,
            client_assumed,
        }
    }
}

/// Adds the per-connection ceilings as two resources in series on each connection:
/// its request processing (a time per RPC or SMB request, one at a time per
/// connection) and its byte stream (a time per KiB on the TCP flow). Pipelined, each
/// caps the connection on its own, so small IOs meet the request rate and large ones
/// the byte rate (measurements B3-B7: ~45,000 4 KiB writes but ~1,650 MiB/s of
/// 256 KiB writes on one connection). An SMB channel's requests are processed by the
/// one CPU its flow is steered to (receive side scaling: LEARN-FILES/smb-performance,
/// "distribute the IO load across multiple CPUs"; measurements H1: "4 CPU cores
/// saturated by SMB" with 4 connections), so its request time is the SMB client's
/// vCPU time per op.
fn push_connections(p: &Plan, t: &PathTimes, set: &mut impl Sink) {
    let m = p.params;
    let n = connections_per_client(p) as f64;
    let smb = p.protocol == Protocol::Smb3;
    let (read, write) = (t.conn_read, t.conn_write);
    // Aggregation over the client's connections: SMB channels contend (fitted USL),
    // NFS connections add up.
    let (factor_r, factor_w) = if smb {
        let penalty = multichannel_penalty(p).1;
        (
            speedup(Usl::contention(m.smb_usl_read_sigma), n) * penalty,
            speedup(Usl::contention(m.smb_usl_write_sigma), n) * penalty,
        )
    } else {
        (n, n)
    };
    let clients = u64::from(p.clients);
    let resources = [
        (
            "connection",
            "TCP connections (requests)",
            1e6 / read.a_us,
            1e6 / write.a_us,
        ),
        (
            "connection_bytes",
            "TCP connections (bytes)",
            1e6 / (read.b_us_per_kib * p.io_kib),
            1e6 / (write.b_us_per_kib * p.io_kib),
        ),
    ];
    for (id, name, read_iops, write_iops) in resources {
        let one = mix(p.r, read_iops, write_iops);
        let per_client = mix(p.r, read_iops * factor_r, write_iops * factor_w);
        set.push(RawLimit {
            id,
            label: Label {
                name,
                formula: Formula::Connections {
                    n: connections(p),
                    per_flow_mibps: iops_to_mibps(one, p.io_kib),
                    factor: per_client / (one * n),
                },
            },
            scope: Scope::Connection,
            applies: Applies::Both,
            mibps: iops_to_mibps(per_client, p.io_kib) * clients as f64,
            source: t.conn_source,
            assumption: t.conn_assumed,
            queue: Queue::Servers(clients as f64 * n),
        });
    }
}

/// Adds the client's own read and write path: the NFS or SMB client and virtual NIC
/// processing, which scales with the VM's vCPUs (a time per op and per KiB of one vCPU,
/// fitted; reads and writes share the CPUs by the mix rule). Omitted when the VM size
/// is not known (only `egress_mibps` given).
fn push_client_path(p: &Plan, t: &PathTimes, set: &mut impl Sink) {
    let Some(vm) = p.vm else { return };
    let vcpu = f64::from(vm.vcpu.max(1));
    let read = t.client_read.iops(p.io_kib) * vcpu;
    let write = t.client_write.iops(p.io_kib) * vcpu;
    let per_client = mix(p.r, read, write);
    let clients = f64::from(p.clients);
    set.push(RawLimit {
        id: "client_path",
        label: Label {
            name: "Client read/write path",
            formula: Formula::Times {
                n: u64::from(p.clients),
                each: iops_to_mibps(per_client, p.io_kib),
                what: "per VM: file client and virtual NIC processing, scales with vCPUs",
            },
        },
        scope: Scope::Client,
        applies: Applies::Both,
        mibps: iops_to_mibps(per_client, p.io_kib) * clients,
        source: t.client_source,
        assumption: t.client_assumed,
        queue: Queue::Parallel(clients * vcpu),
    });
}

/// The Little's-law bound for `outstanding` IOs in flight at `unloaded_s` per IO;
/// `delay` is what [`delay`] gives for the plan (its source and assumption are the
/// bound's).
pub fn concurrency_limit(
    p: &Plan,
    outstanding: f64,
    unloaded_s: f64,
    delay: (f64, Source, bool),
) -> RawLimit {
    let (_, source, assumption) = delay;
    let ms = unloaded_s * 1000.0;
    RawLimit {
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
        mibps: iops_to_mibps(iops_ceiling(outstanding, ms), p.io_kib),
        source,
        assumption,
        queue: Queue::Bound,
    }
}
