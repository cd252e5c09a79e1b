//! Azure VMware Solution: hosts x datastores flows, VMDK placement, and the per-flow,
//! per-host, per-VM and per-datastore ceilings fitted to the AVS measurements.

use super::catalog;
use super::client::push_concurrency;
use super::distribution::Distribution;
use super::limits::{Applies, RawLimit, Scope, Sink};
use super::plan::{AvsPlan, Plan};
use super::scaling::speedup;
use super::scenario::Placement;
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

/// Datastores one host uses = its NFS flows (one TCP connection per datastore per host).
pub fn flows_per_host(p: &Plan, a: &AvsPlan) -> u64 {
    units_per_host(a).min(u64::from(p.n_volumes)).max(1)
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
    let m = &catalog::catalog().model.avs;
    let source = m.source.as_str();
    let hosts = f64::from(a.hosts);
    let flows = flows_per_host(p, a) as f64;
    let nic_flow = mibps_to_iops(
        gbps_to_mibps(m.flow_nic_gbps.min(a.host.nic_gbps)),
        p.io_kib,
    );
    let flow = m.flow.iops(p.io_kib, p.r).min(nic_flow);

    let per_host_flows = flow * speedup(m.usl_datastores_per_host, flows);
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
    });

    let sharing = hosts_on_busiest(p, a);
    let ds = flow * speedup(m.usl_hosts_per_datastore, sharing) * dist.spread();
    set.push(RawLimit {
        id: "datastore",
        label: Label {
            name: "Busiest datastore, flows from all its hosts",
            formula: Formula::Hosts {
                n: sharing as u64,
                per_flow_mibps: iops_to_mibps(flow, p.io_kib),
                factor: speedup(m.usl_hosts_per_datastore, sharing) / sharing,
            },
        },
        scope: Scope::Datastore,
        applies: Applies::Both,
        mibps: iops_to_mibps(ds, p.io_kib),
        source,
        assumption: false,
    });

    let host = m.host.iops(p.io_kib, p.r);
    set.push(RawLimit {
        id: "host",
        label: Label {
            name: "AVS host NFS ceiling",
            formula: Formula::Times {
                n: u64::from(a.hosts),
                each: iops_to_mibps(host, p.io_kib),
                what: "per host, measured on AV36",
            },
        },
        scope: Scope::Host,
        applies: Applies::Both,
        mibps: iops_to_mibps(host * hosts, p.io_kib),
        source,
        assumption: a.host.sku != "AV36",
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
            source: a.host.source.as_str(),
            assumption: a.host.unconfirmed,
        });
    }

    let vms = f64::from(a.hosts) * f64::from(a.vms_per_host);
    let vm = m.vm.iops(p.io_kib, p.r);
    set.push(RawLimit {
        id: "vm",
        label: Label {
            name: "Guest VM ceiling",
            formula: Formula::Times {
                n: vms as u64,
                each: iops_to_mibps(vm, p.io_kib),
                what: "per VM, measured with a 16 vCPU guest",
            },
        },
        scope: Scope::Vm,
        applies: Applies::Both,
        mibps: iops_to_mibps(vm * vms, p.io_kib),
        source,
        assumption: false,
    });

    push_concurrency(p, outstanding(p, a), set);
}

/// Outstanding IOs across all hosts: each host's VMs, capped at 128 slots per flow.
pub fn outstanding(p: &Plan, a: &AvsPlan) -> f64 {
    let slots = catalog::catalog().model.slots.nfsv3_per_connection;
    let want = f64::from(a.vms_per_host) * f64::from(p.threads) * f64::from(p.queue_depth);
    want.min(slots * flows_per_host(p, a) as f64) * f64::from(a.hosts)
}
