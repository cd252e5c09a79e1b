//! Azure Migrate's import CSV: one row per server, with per-disk performance.
//!
//! The columns are the template's (Microsoft Learn, Azure Migrate, "Assess servers by
//! importing into Azure Migrate", the .CSV template's fields): `Server name`, `Cores`,
//! `Memory (In MB)`, `Storage in use (In GB)`, and per disk `Disk N size (In GB)`,
//! `Disk N read ops (operations per second)`, `Disk N write ops (operations per
//! second)`, `Disk N read throughput (MB per second)`, `Disk N write throughput (MB per
//! second)` for N from 1 to 20 (mandatory ones are starred in the template: `*Server
//! name`). A server's IOPS are its disks' read and write ops added up, its MiB/s their
//! read and write MB/s (decimal MB, as Azure Migrate counts them) converted; without
//! per-disk figures the `Total disks read ops` (and write, and throughput) columns are
//! read instead.

use super::InventoryError;
use super::model::{Disk, Excluded, Inventory, MAX_VMS, Reason, Summary, Vm};
use super::plausible::{CAPACITY_MIB, IOPS, MEMORY_MIB, MIBPS, VCPUS, quoted};
use super::table::Table;
use crate::engine::field_error::Checks;

/// Disks a row may describe.
pub const MAX_DISKS: usize = 20;

/// MiB/s in one MB/s (decimal megabytes).
const MIBPS_PER_MBPS: f64 = 1e6 / 1_048_576.0;

/// Whether `t` is an Azure Migrate import CSV: a `Server name` and a `Cores` column.
pub fn is_azure_migrate(t: &Table) -> bool {
    t.find(&["servername"]).is_some() && t.find(&["cores"]).is_some()
}

/// A disk's columns.
struct DiskColumns {
    size: Option<usize>,
    ops: [Option<usize>; 2],
    mbps: [Option<usize>; 2],
}

fn disk_columns(t: &Table, n: usize) -> DiskColumns {
    let col = |what: &str| t.find(&[&format!("disk{n}{what}")]);
    DiskColumns {
        size: col("sizeingb"),
        ops: [
            col("readopsoperationspersecond"),
            col("writeopsoperationspersecond"),
        ],
        mbps: [
            col("readthroughputmbpersecond"),
            col("writethroughputmbpersecond"),
        ],
    }
}

/// Reads the servers of an Azure Migrate import CSV.
pub fn from_csv(t: &Table) -> Result<Inventory, InventoryError> {
    let name = t
        .find(&["servername"])
        .expect("checked by is_azure_migrate");
    let cores = t.find(&["cores"]);
    let memory = t.find(&["memoryinmb"]);
    let in_use = t.find(&["storageinuseingb"]);
    let disks: Vec<DiskColumns> = (1..=MAX_DISKS).map(|n| disk_columns(t, n)).collect();
    let total_ops = [
        t.find(&["totaldisksreadops", "totaldiskreadopsoperationspersecond"]),
        t.find(&["totaldiskswriteops", "totaldiskwriteopsoperationspersecond"]),
    ];
    let total_mbps = [
        t.find(&[
            "totaldisksreadthroughput",
            "totaldiskreadthroughputmbpersecond",
        ]),
        t.find(&[
            "totaldiskswritethroughput",
            "totaldiskwritethroughputmbpersecond",
        ]),
    ];
    let mut checks = Checks::default();
    let mut summary = Summary {
        source: "azure_migrate".to_owned(),
        dialect: "Azure Migrate import".to_owned(),
        capacity_unit: "GB (read as GiB)".to_owned(),
        ..Summary::default()
    };
    let mut vms = Vec::new();
    let mut excluded = Vec::new();
    for (r, row) in t.rows.iter().enumerate() {
        let Some(vm) = t.cell(row, Some(name)).text() else {
            continue;
        };
        summary.rows += 1;
        if vm.to_ascii_lowercase().starts_with("vcls") {
            excluded.push(Excluded {
                vm,
                reason: Reason::Vcls,
            });
            continue;
        }
        if vms.len() >= MAX_VMS {
            return Err(InventoryError::sheet(
                &t.name,
                format!("more than {MAX_VMS} servers; split the file"),
            ));
        }
        let who = format!("VM {}", quoted(&vm));
        let gib = CAPACITY_MIB.in_unit(1024.0, "GB");
        let mut fig = |c: Option<usize>, b| t.figure(r, c, &who, b, &mut checks);
        let mut vm_disks = Vec::new();
        let (mut iops, mut mbps) = (None::<f64>, None::<f64>);
        for (k, d) in disks.iter().enumerate() {
            if let Some(size) = fig(d.size, gib) {
                vm_disks.push(Disk {
                    disk: format!("Disk {}", k + 1),
                    datastore: None,
                    capacity_mib: size * 1024.0,
                    rdm: false,
                    shared: false,
                });
            }
            for c in d.ops {
                if let Some(v) = fig(c, IOPS) {
                    *iops.get_or_insert(0.0) += v;
                }
            }
            for c in d.mbps {
                if let Some(v) = fig(c, MIBPS.in_unit(MIBPS_PER_MBPS, "MB/s")) {
                    *mbps.get_or_insert(0.0) += v;
                }
            }
        }
        if iops.is_none() {
            for c in total_ops {
                if let Some(v) = fig(c, IOPS) {
                    *iops.get_or_insert(0.0) += v;
                }
            }
        }
        if mbps.is_none() {
            for c in total_mbps {
                if let Some(v) = fig(c, MIBPS.in_unit(MIBPS_PER_MBPS, "MB/s")) {
                    *mbps.get_or_insert(0.0) += v;
                }
            }
        }
        let provisioned: f64 = vm_disks.iter().map(|d| d.capacity_mib).sum();
        let used = fig(in_use, gib).map(|g| g * 1024.0);
        vms.push(Vm {
            vcpus: fig(cores, VCPUS).map_or(0, |n| n.round() as u32),
            memory_mib: fig(memory, MEMORY_MIB).unwrap_or(0.0),
            provisioned_mib: if provisioned > 0.0 {
                provisioned
            } else {
                used.unwrap_or(0.0)
            },
            in_use_mib: used.unwrap_or(provisioned),
            guest_used_mib: None,
            disks: vm_disks,
            iops,
            mibps: mbps.map(|m| m * MIBPS_PER_MBPS),
            flags: Vec::new(),
            powerstate: Default::default(),
            cluster: None,
            host: None,
            datastore: None,
            vm,
        });
    }
    checks.finish().map_err(InventoryError::figures)?;
    Ok(super::rvtools::finish(vms, excluded, summary))
}
