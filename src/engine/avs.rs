//! Azure VMware Solution: hosts x datastores flows, VMDK placement, and the per-flow,
//! per-host, per-VM and per-datastore ceilings fitted to the AVS measurements.

use super::catalog::{self, Usl};
use super::distribution::Distribution;
use super::limits::{Applies, Queue, RawLimit, Scope, Sink};
use super::plan::{AvsPlan, Plan};
use super::scaling::speedup;
use super::scenario::Placement;
use super::source::{Source, SourceKind};
use super::trace::{Formula, Label};
use super::units::{gbps_to_mibps, iops_to_mibps, mibps_to_iops};

/// VMDKs (spread) or VMs (dedicated) one host places, i.e. how many datastores it can touch.
fn units_per_host(a: &AvsPlan) -> u64 {
    match a.placement {
        Placement::Spread => u64::from(a.vms_per_host) * u64::from(a.vmdks_per_vm),
        Placement::Dedicated => u64::from(a.vms_per_host),
        Placement::Single => 1,
    }
}

/// Datastores one host puts load on.
pub fn loaded_datastores_per_host(p: &Plan, a: &AvsPlan) -> u64 {
    units_per_host(a).min(u64::from(p.n_volumes)).max(1)
}

/// NFS flows of one host that carry load: one TCP connection per loaded datastore, or
/// `nconnect` of them.
pub fn flows_per_host(p: &Plan, a: &AvsPlan) -> u64 {
    loaded_datastores_per_host(p, a) * u64::from(a.nconnect.max(1))
}

/// IOPS of a resource with time `a_us + b_us x KiB` per read and `write_factor` times
/// that per write, at read fraction `r`.
fn rate(a_us: f64, b_us: f64, write_factor: f64, kib: f64, r: f64) -> f64 {
    let t = a_us + b_us * kib;
    1e6 / (t * (r + (1.0 - r) * write_factor))
}

/// Hosts that share the busiest datastore.
fn hosts_on_busiest(p: &Plan, a: &AvsPlan) -> f64 {
    let d = f64::from(p.n_volumes.max(1));
    let u = units_per_host(a) as f64;
    let h = f64::from(a.hosts);
    if a.placement == Placement::Single || u >= d {
        h
    } else {
        (h * u / d).ceil().clamp(1.0, h)
    }
}

/// Adds the AVS limits.
pub fn limits(p: &Plan, a: &AvsPlan, dist: &Distribution, set: &mut impl Sink) {
    let m = p.params;
    let nic_gbps = catalog::catalog().model.assumptions.avs_flow_nic_gbps;
    let source = SOURCE;
    let hosts = f64::from(a.hosts);
    let flows = flows_per_host(p, a) as f64;
    let nic_flow = mibps_to_iops(gbps_to_mibps(nic_gbps.min(a.host.nic_gbps)), p.io_kib);
    let wf = m.avs_write_factor;
    let flow = rate(m.avs_flow_a_us, m.avs_flow_b_us_per_kib, wf, p.io_kib, p.r).min(nic_flow);
    let usl_ds = Usl {
        sigma: m.avs_ds_sigma,
        kappa: m.avs_ds_kappa,
    };
    let usl_hosts = Usl::contention(m.avs_hosts_sigma);

    let per_host_flows = flow * speedup(usl_ds, flows);
    set.push(RawLimit {
        id: "connection",
        label: Label {
            name: "Datastore flows per host",
            formula: Formula::Connections {
                n: (hosts * flows) as u64,
                per_flow_mibps: iops_to_mibps(flow, p.io_kib),
                factor: per_host_flows / (flow * flows),
            },
        },
        scope: Scope::Connection,
        applies: Applies::Both,
        mibps: iops_to_mibps(per_host_flows * hosts, p.io_kib),
        source,
        assumption: false,
        queue: Queue::Servers(hosts * flows),
    });

    let sharing = hosts_on_busiest(p, a) * f64::from(a.nconnect.max(1));
    let ds = flow * speedup(usl_hosts, sharing) * dist.spread();
    set.push(RawLimit {
        id: "datastore",
        label: Label {
            name: "Busiest datastore, flows from all its hosts",
            formula: Formula::Hosts {
                n: sharing as u64,
                per_flow_mibps: iops_to_mibps(flow, p.io_kib),
                factor: speedup(usl_hosts, sharing) / sharing,
            },
        },
        scope: Scope::Datastore,
        applies: Applies::Both,
        mibps: iops_to_mibps(ds, p.io_kib),
        source,
        assumption: false,
        queue: Queue::Storage,
    });

    let host = rate(m.avs_host_a_us, m.avs_host_b_us_per_kib, wf, p.io_kib, p.r);
    set.push(RawLimit {
        id: "host",
        label: Label {
            name: "AVS host NFS ceiling",
            formula: Formula::Times {
                n: u64::from(a.hosts),
                each: iops_to_mibps(host, p.io_kib),
                what: "per host, fitted to AV36 measurements",
            },
        },
        scope: Scope::Host,
        applies: Applies::Both,
        mibps: iops_to_mibps(host * hosts, p.io_kib),
        source,
        assumption: a.host.sku != "AV36",
        queue: Queue::Parallel(hosts),
    });

    let nic = gbps_to_mibps(a.host.nic_gbps) * f64::from(a.host.nics);
    for (id, applies, name) in [
        ("host_ingress", Applies::Read, "AVS host NICs (reads)"),
        ("host_egress", Applies::Write, "AVS host NICs (writes)"),
    ] {
        set.push(RawLimit {
            id,
            label: Label {
                name,
                formula: Formula::Times {
                    n: u64::from(a.hosts),
                    each: nic,
                    what: "per host",
                },
            },
            scope: Scope::Host,
            applies,
            mibps: nic * hosts,
            source: a.host.source.get(),
            assumption: a.host.unconfirmed,
            queue: Queue::Servers(hosts),
        });
    }

    // Every host's datastore traffic crosses the private cloud's one path to the ANF
    // network (ExpressRoute with FastPath in the published tests).
    let path = rate(m.avs_path_a_us, m.avs_path_b_us_per_kib, 1.0, p.io_kib, p.r);
    set.push(RawLimit {
        id: "avs_path",
        label: Label {
            name: "AVS cluster path to the ANF network",
            formula: Formula::Iops {
                value: path,
                what: "for the whole cluster, fitted to the four-host tests",
            },
        },
        scope: Scope::Host,
        applies: Applies::Both,
        mibps: iops_to_mibps(path, p.io_kib),
        source,
        assumption: false,
        queue: Queue::Parallel(hosts),
    });

    let vms = f64::from(a.hosts) * f64::from(a.vms_per_host);
    let vm = rate(m.avs_vm_a_us, m.avs_vm_b_us_per_kib, wf, p.io_kib, p.r);
    set.push(RawLimit {
        id: "vm",
        label: Label {
            name: "Guest VM ceiling",
            formula: Formula::Times {
                n: vms as u64,
                each: iops_to_mibps(vm, p.io_kib),
                what: "per VM, fitted to measurements with a 16 vCPU guest",
            },
        },
        scope: Scope::Vm,
        applies: Applies::Both,
        mibps: iops_to_mibps(vm * vms, p.io_kib),
        source,
        assumption: false,
        queue: Queue::Parallel(vms),
    });
}

/// Where the AVS parameters come from.
const SOURCE: Source =
    Source::documented("LEARN-ANF/performance-azure-vmware-solution-datastore")
        .section("AVS flows, hosts and VMs, 4 AV36 hosts, ESXi 7u3, fio 3.16, with the other published benchmarks")
        .kind(SourceKind::Fitted)
        .note("fitted jointly with the other series (tests/fixtures/series.json)");

/// Outstanding IOs across all hosts: each host's VMs, capped at 128 slots per flow.
pub fn outstanding(p: &Plan, a: &AvsPlan) -> f64 {
    let slots = catalog::catalog().model.slots.nfsv3_per_connection;
    let want = f64::from(a.vms_per_host) * f64::from(p.threads) * f64::from(p.queue_depth);
    want.min(slots * flows_per_host(p, a) as f64) * f64::from(a.hosts)
}

#[cfg(test)]
mod tests {
    use crate::engine::{Scenario, evaluate};

    fn four_hosts(nconnect: u32) -> Scenario {
        serde_json::from_str(&format!(
            r#"{{"workload": {{"io_size_kib": 8, "read_pct": 100, "access": "random", "threads": 4, "queue_depth": 32,
                "capacity_tib": 80}},
                "storage": {{"service": "anf", "level": "ultra", "volumes": [{{"count": 4, "quota_tib": 20}}]}},
                "clients": {{"protocol": "nfsv3",
                "avs": {{"hosts": 4, "vms_per_host": 1, "vmdks_per_vm": 1, "placement": "dedicated", "nconnect": {nconnect}}}}}}}"#
        ))
        .expect("test scenario parses")
    }

    #[test]
    fn nconnect_multiplies_the_flows_and_lifts_a_flow_bound_layout() {
        let one = evaluate(&four_hosts(1)).unwrap();
        let four = evaluate(&four_hosts(4)).unwrap();
        // flows = hosts x datastores x nconnect.
        assert_eq!(one.flows.connections, 16);
        assert_eq!(four.flows.connections, 64);
        assert_eq!(one.binding, "connection");
        // Four connections per datastore lift the flow bound until a shared resource
        // (here the cluster's path to the ANF network) takes over.
        assert!(four.throughput_mibps > 1.2 * one.throughput_mibps);
        assert_ne!(four.binding, "connection");
    }
}
