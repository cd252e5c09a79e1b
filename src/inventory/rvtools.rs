//! RVTools (`vInfo`, `vDisk`, `vPartition`, `vHost`, `vDatastore`, `vMetaData`) and
//! Live Optics (`VMs`, `VM Performance`) sheets to an [`Inventory`].
//!
//! Left out, with the reason: `vCLS-*` system VMs, templates, SRM placeholders, and
//! powered-off VMs unless they are kept by choice. Flagged: raw device mappings and
//! multi-writer shared disks (`vDisk`), which an NFS datastore cannot hold as they are.

use super::model::{MAX_DISKS_PER_VM, MAX_NAME, MAX_VMS};
use super::perf;
use super::plausible::{Bound, CAPACITY_MIB, CORES, MEMORY_MIB, VCPUS, quoted};
use super::table::{Cell, Column, Table, Workbook};
use super::{
    Disk, Excluded, Flag, Inventory, InventoryError, Options, PowerState, Reason, Summary, Vm,
};
use crate::engine::field_error::{Checks, is_noncharacter};
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// Names of the VM column, normalised.
const VM: &[&str] = &["vm", "vmname", "name", "virtualmachine"];

/// Columns of a VM sheet.
struct VmColumns {
    vm: usize,
    power: Option<usize>,
    template: Option<usize>,
    srm: Option<usize>,
    cpus: Option<usize>,
    memory: Option<Column>,
    provisioned: Option<Column>,
    in_use: Option<Column>,
    path: Option<usize>,
    cluster: Option<usize>,
    host: Option<usize>,
    dialect: &'static str,
    /// The label of the capacity column read first (`MiB`, `MB`, ..., `prefixed`).
    unit: &'static str,
}

/// How capacities labelled `label` were read (the summary's `capacity_unit`).
fn capacity_unit(label: &str) -> &'static str {
    match label {
        "MiB" => "MiB (RVTools 4.x headers)",
        "MB" => "MB read as MiB (RVTools 3.x headers: vSphere's MB are binary, 1 MB = 1 MiB)",
        "GiB" | "GB" => "GiB (x 1024 to MiB; GB read as binary)",
        "TiB" | "TB" => "TiB (x 1,048,576 to MiB; TB read as binary)",
        _ => "MiB (CSV export headers carry no unit; RVTools exports MiB)",
    }
}

impl VmColumns {
    fn find(t: &Table, sheet: &str) -> Result<VmColumns, InventoryError> {
        let vm = t.find(VM).ok_or_else(|| {
            InventoryError::column(
                sheet,
                "VM",
                format!(
                    "sheet `{sheet}` has no `VM` column (RVTools `VM`, CSV export `vInfoVMName`, \
                     Live Optics `VM Name`); the columns found are: {}",
                    shown(&t.headers)
                ),
            )
        })?;
        let provisioned = t.capacity(&["provisioned", "virtualdisksize", "provisionedspace"]);
        let in_use = t.capacity(&["inuse", "virtualdiskused", "usedspace", "used"]);
        if provisioned.is_none() && in_use.is_none() {
            return Err(InventoryError::column(
                sheet,
                "In Use MiB",
                format!(
                    "sheet `{sheet}` has no capacity column: expected `In Use MiB` or \
                     `Provisioned MiB` (RVTools 3.x: `In Use MB`; CSV export: `vInfoInUse`)"
                ),
            ));
        }
        let unit = in_use.or(provisioned).map_or("MiB", |(_, l)| l);
        let dialect = if t.prefixed { "prefixed" } else { unit };
        Ok(VmColumns {
            vm,
            power: t.find(&["powerstate", "state"]),
            template: t.find(&["template"]),
            srm: t.find(&["srmplaceholder"]),
            cpus: t.find(&["cpus", "virtualcpu", "numcpu", "vcpus", "vcpu"]),
            memory: t
                .capacity(&["memory", "provisionedmemory", "memorysize"])
                .map(|(c, _)| c),
            provisioned: provisioned.map(|(c, _)| c),
            in_use: in_use.map(|(c, _)| c),
            path: t.find(&["path", "vmxpath"]),
            cluster: t.find(&["cluster"]),
            host: t.find(&["host"]),
            dialect,
            unit,
        })
    }
}

/// The first headers, for a message.
fn shown(headers: &[String]) -> String {
    let mut s: Vec<String> = headers
        .iter()
        .filter(|h| !h.is_empty())
        .take(12)
        .map(|h| format!("`{}`", clip(h)))
        .collect();
    if s.is_empty() {
        return "none".to_owned();
    }
    if headers.len() > 12 {
        s.push("...".to_owned());
    }
    s.join(", ")
}

/// A name cut to [`MAX_NAME`] characters, control characters and Unicode noncharacters
/// (which no report format can carry) dropped.
fn clip(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_control() && !is_noncharacter(*c))
        .take(MAX_NAME)
        .collect::<String>()
        .trim()
        .to_owned()
}

/// `[datastore] dir/file` -> `datastore`.
fn datastore_of(path: &str) -> Option<String> {
    let rest = path.trim().strip_prefix('[')?;
    let (ds, _) = rest.split_once(']')?;
    let ds = clip(ds);
    (!ds.is_empty()).then_some(ds)
}

fn power(cell: &Cell) -> PowerState {
    let t = cell.text().unwrap_or_default().to_ascii_lowercase();
    if t.contains("susp") {
        PowerState::Suspended
    } else if t.contains("off") {
        PowerState::PoweredOff
    } else {
        PowerState::PoweredOn
    }
}

/// The capacity of the `r`th row of `t` in column `c`, MiB, within `bound` (which is
/// in MiB); out of range it is recorded in `checks` ([`Table::figure`]).
fn mib(
    t: &Table,
    r: usize,
    who: &str,
    c: Option<Column>,
    bound: Bound,
    checks: &mut Checks,
) -> Option<f64> {
    let c = c?;
    let bound = bound.in_unit(c.to_mib, c.unit);
    t.figure(r, Some(c.index), who, bound, checks)
        .map(|n| n * c.to_mib)
}

fn text(t: &Table, row: &[Cell], c: Option<usize>) -> Option<String> {
    t.cell(row, c)
        .text()
        .map(|s| clip(&s))
        .filter(|s| !s.is_empty())
}

/// Reads the VM rows of `t`: the VMs kept and the ones left out.
fn vms(
    t: &Table,
    sheet: &str,
    opts: Options,
    summary: &mut Summary,
    checks: &mut Checks,
) -> Result<(Vec<Vm>, Vec<Excluded>), InventoryError> {
    let c = VmColumns::find(t, sheet)?;
    summary.dialect = c.dialect.to_owned();
    summary.capacity_unit = capacity_unit(c.unit).to_owned();
    let mut kept = Vec::new();
    let mut excluded = Vec::new();
    let mut seen: HashMap<String, u32> = HashMap::new();
    let mut unnamed = 0;
    for (r, row) in t.rows.iter().enumerate() {
        let Some(mut name) = text(t, row, Some(c.vm)) else {
            unnamed += 1;
            continue;
        };
        summary.rows += 1;
        match seen.entry(name.clone()) {
            Entry::Occupied(mut e) => {
                *e.get_mut() += 1;
                name = format!("{name} #{}", e.get());
            }
            Entry::Vacant(e) => {
                e.insert(1);
            }
        }
        let state = c
            .power
            .map_or(PowerState::PoweredOn, |p| power(t.cell(row, Some(p))));
        let reason = if name.to_ascii_lowercase().starts_with("vcls") {
            Some(Reason::Vcls)
        } else if t.cell(row, c.template).flag() {
            Some(Reason::Template)
        } else if t.cell(row, c.srm).flag() {
            Some(Reason::SrmPlaceholder)
        } else if state == PowerState::PoweredOff && !opts.include_powered_off {
            Some(Reason::PoweredOff)
        } else {
            None
        };
        if let Some(reason) = reason {
            excluded.push(Excluded { vm: name, reason });
            continue;
        }
        if kept.len() >= MAX_VMS {
            return Err(InventoryError::sheet(
                sheet,
                format!("more than {MAX_VMS} VMs; split the inventory by cluster"),
            ));
        }
        let who = format!("VM {}", quoted(&name));
        let provisioned = mib(t, r, &who, c.provisioned, CAPACITY_MIB, checks);
        let in_use = mib(t, r, &who, c.in_use, CAPACITY_MIB, checks);
        let vcpus = t.figure(r, c.cpus, &who, VCPUS, checks);
        let memory = mib(t, r, &who, c.memory, MEMORY_MIB, checks);
        kept.push(Vm {
            vm: name,
            powerstate: state,
            cluster: text(t, row, c.cluster),
            host: text(t, row, c.host),
            datastore: text(t, row, c.path).and_then(|p| datastore_of(&p)),
            vcpus: vcpus.map_or(0, |n| n.round() as u32),
            memory_mib: memory.unwrap_or(0.0),
            provisioned_mib: provisioned.or(in_use).unwrap_or(0.0),
            in_use_mib: in_use.or(provisioned).unwrap_or(0.0),
            guest_used_mib: None,
            disks: Vec::new(),
            iops: None,
            mibps: None,
            flags: Vec::new(),
        });
    }
    if unnamed > 0 {
        summary.warnings.push(format!(
            "{unnamed} rows of `{sheet}` have no VM name and were skipped"
        ));
    }
    let dupes = seen.values().filter(|n| **n > 1).count();
    if dupes > 0 {
        summary.warnings.push(format!(
            "{dupes} VM names occur more than once; the repeats are numbered (`name #2`)"
        ));
    }
    Ok((kept, excluded))
}

/// Index of the kept VMs by name.
fn index(vms: &[Vm]) -> HashMap<&str, usize> {
    vms.iter()
        .enumerate()
        .map(|(i, v)| (v.vm.as_str(), i))
        .collect()
}

/// Attaches the `vDisk` rows to their VMs and flags RDMs and shared disks.
fn disks(t: &Table, vms: &mut [Vm], summary: &mut Summary, checks: &mut Checks) {
    let Some(vm) = t.find(VM) else {
        summary
            .warnings
            .push("sheet `vDisk` has no `VM` column; disks were not read".to_owned());
        return;
    };
    let label = t.find(&["disk", "label"]);
    let path = t.find(&["diskpath", "path", "filename"]);
    let capacity = t.capacity(&["capacity"]).map(|(c, _)| c);
    let raw = t.find(&["raw", "rdm"]);
    let mode = t.find(&["diskmode", "mode"]);
    let compat = t.find(&["rawcompmode", "compatibilitymode"]);
    let sharing = t.find(&["sharingmode", "sharing"]);
    let idx: HashMap<String, usize> = index(vms)
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
    for (r, row) in t.rows.iter().enumerate() {
        let Some(name) = text(t, row, Some(vm)) else {
            continue;
        };
        let Some(&i) = idx.get(&name) else { continue };
        let v = &mut vms[i];
        if v.disks.len() >= MAX_DISKS_PER_VM {
            continue;
        }
        let mode_text = text(t, row, mode).unwrap_or_default().to_ascii_lowercase();
        let compat_text = text(t, row, compat)
            .unwrap_or_default()
            .to_ascii_lowercase();
        let rdm = t.cell(row, raw).flag()
            || mode_text.contains("raw")
            || compat_text.contains("physical")
            || compat_text.contains("virtualmode");
        let shared =
            text(t, row, sharing).is_some_and(|s| s.to_ascii_lowercase().contains("multiwriter"));
        let n = v.disks.len() + 1;
        let disk = text(t, row, label).unwrap_or_else(|| format!("Hard disk {n}"));
        let who = format!("VM {}, disk {}", quoted(&name), quoted(&disk));
        let capacity_mib = mib(t, r, &who, capacity, CAPACITY_MIB, checks);
        v.disks.push(Disk {
            disk,
            datastore: text(t, row, path).and_then(|p| datastore_of(&p)),
            capacity_mib: capacity_mib.unwrap_or(0.0),
            rdm,
            shared,
        });
        for (on, flag) in [(rdm, Flag::Rdm), (shared, Flag::SharedDisk)] {
            if on && !v.flags.contains(&flag) {
                v.flags.push(flag);
            }
        }
    }
    for v in vms.iter_mut() {
        let disks: f64 = v.disks.iter().map(|d| d.capacity_mib).sum();
        if v.provisioned_mib == 0.0 && disks > 0.0 {
            v.provisioned_mib = disks;
        }
        v.flags.sort();
    }
}

/// In-guest used space from `vPartition`.
fn partitions(t: &Table, vms: &mut [Vm], checks: &mut Checks) {
    let (Some(vm), Some(consumed)) = (t.find(VM), t.capacity(&["consumed"]).map(|(c, _)| c)) else {
        return;
    };
    let idx: HashMap<String, usize> = index(vms)
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
    for (r, row) in t.rows.iter().enumerate() {
        let Some(i) = text(t, row, Some(vm)).and_then(|n| idx.get(&n).copied()) else {
            continue;
        };
        let who = format!("VM {}", quoted(&vms[i].vm));
        if let Some(m) = mib(t, r, &who, Some(consumed), CAPACITY_MIB, checks) {
            *vms[i].guest_used_mib.get_or_insert(0.0) += m;
        }
    }
}

/// Hosts and their cores from `vHost`.
fn hosts(t: &Table, summary: &mut Summary, checks: &mut Checks) {
    let cores = t.find(&["cores", "numcores", "cpucores", "cpucore"]);
    let host = t.find(&["host", "name", "hostname"]);
    summary.hosts = t.rows.len() as u32;
    summary.host_cores = (0..t.rows.len())
        .filter_map(|r| {
            let name = text(t, &t.rows[r], host).unwrap_or_default();
            t.figure(r, cores, &format!("host {}", quoted(&name)), CORES, checks)
        })
        .map(|n| n.round() as u32)
        .sum();
}

/// Builds the inventory from a workbook: RVTools, or Live Optics (`VMs`).
pub fn from_workbook(book: &mut Workbook, opts: Options) -> Result<Inventory, InventoryError> {
    let mut summary = Summary::default();
    let (table, sheet, source) = if let Some(t) = book.table("vinfo")? {
        (t, "vInfo", "rvtools")
    } else if let Some(t) = book.table("vms")? {
        (t, "VMs", "live_optics")
    } else {
        return Err(InventoryError::sheet(
            "vInfo",
            format!(
                "the workbook has no `vInfo` sheet (RVTools) or `VMs` sheet (Live Optics); \
                 its sheets are: {}",
                shown(&book.sheets)
            ),
        ));
    };
    summary.source = source.to_owned();
    let mut checks = Checks::default();
    let (mut vms, excluded) = vms(&table, sheet, opts, &mut summary, &mut checks)?;
    if let Some(p) = perf::columns(&table) {
        perf::apply(
            &mut vms,
            &perf::read(&table, &p, &mut checks),
            &mut summary,
            opts.percentile(),
        );
    }
    if let Some(t) = book.table("vdisk")? {
        disks(&t, &mut vms, &mut summary, &mut checks);
    }
    if let Some(t) = book.table("vpartition")? {
        partitions(&t, &mut vms, &mut checks);
    }
    if let Some(t) = book.table("vhost")? {
        hosts(&t, &mut summary, &mut checks);
    } else if let Some(t) = book.table("esxhosts")? {
        hosts(&t, &mut summary, &mut checks);
    }
    if let Some(t) = book.table("vdatastore")? {
        summary.datastores = t.rows.len() as u32;
    }
    if let Some(t) = book.table("vmetadata")? {
        summary.rvtools_version = t
            .rows
            .first()
            .and_then(|r| text(&t, r, t.find(&["rvtoolsversion", "version"])));
        if let Some(w) = version_mismatch(&summary) {
            summary.warnings.push(w);
        }
    }
    if let Some(t) = book.table("vmperformance")? {
        match perf::columns(&t) {
            Some(p) => perf::apply(
                &mut vms,
                &perf::read(&t, &p, &mut checks),
                &mut summary,
                opts.percentile(),
            ),
            None => summary.warnings.push(
                "sheet `VM Performance` has no VM and IOPS or MiB/s columns; performance was not read"
                    .to_owned(),
            ),
        }
    }
    checks.finish().map_err(InventoryError::figures)?;
    Ok(finish(vms, excluded, summary))
}

/// A note when `vMetaData`'s RVTools version and the capacity headers disagree (3.x
/// writes `MB`, 4.x `MiB`): the figures are read by their headers' label either way.
fn version_mismatch(s: &Summary) -> Option<String> {
    let major: u32 = s
        .rvtools_version
        .as_deref()?
        .split('.')
        .next()?
        .trim()
        .parse()
        .ok()?;
    let expected = if major >= 4 { "MiB" } else { "MB" };
    (matches!(s.dialect.as_str(), "MiB" | "MB") && s.dialect != expected).then(|| {
        format!(
            "`vMetaData` says RVTools {} but the capacity headers say {}; capacities were read as {}",
            s.rvtools_version.as_deref().unwrap_or_default(),
            s.dialect,
            s.capacity_unit
        )
    })
}

/// Builds the inventory from a CSV file: the `vInfo` CSV of an RVTools CSV export, or a
/// plain CSV of VMs with capacity (and optionally IOPS and MiB/s).
pub fn from_csv(table: Table, opts: Options) -> Result<Inventory, InventoryError> {
    let mut summary = Summary {
        source: if table.prefixed { "rvtools" } else { "csv" }.to_owned(),
        ..Summary::default()
    };
    let mut checks = Checks::default();
    let (mut vms, excluded) = vms(&table, "vInfo", opts, &mut summary, &mut checks)?;
    if let Some(p) = perf::columns(&table) {
        perf::apply(
            &mut vms,
            &perf::read(&table, &p, &mut checks),
            &mut summary,
            opts.percentile(),
        );
    }
    checks.finish().map_err(InventoryError::figures)?;
    Ok(finish(vms, excluded, summary))
}

pub(super) fn finish(vms: Vec<Vm>, excluded: Vec<Excluded>, mut summary: Summary) -> Inventory {
    let mut clusters: Vec<&str> = vms.iter().filter_map(|v| v.cluster.as_deref()).collect();
    clusters.sort_unstable();
    clusters.dedup();
    summary.clusters = clusters.len() as u32;
    if vms.iter().all(|v| v.iops.is_none() && v.mibps.is_none()) && !vms.is_empty() {
        summary.warnings.push(
            "no performance figures: add a CSV of VM, IOPS and MiB/s (or a Live Optics \
             `VM Performance` sheet), or set a per-VM default, to size the datastores for throughput"
                .to_owned(),
        );
    }
    let mut inv = Inventory {
        vms,
        excluded,
        summary,
    };
    inv.total();
    if inv.summary.host_cores > 0 {
        inv.summary.vcpu_per_core = Some(
            (inv.summary.vcpus as f64 / f64::from(inv.summary.host_cores) * 100.0).round() / 100.0,
        );
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_datastore_is_the_bracketed_part_of_a_path() {
        assert_eq!(
            datastore_of("[ds-01] web/web.vmx").as_deref(),
            Some("ds-01")
        );
        assert_eq!(datastore_of("web/web.vmx"), None);
        assert_eq!(datastore_of("[] x"), None);
    }

    #[test]
    fn power_states_read_in_any_spelling() {
        assert_eq!(
            power(&Cell::Text("poweredOff".into())),
            PowerState::PoweredOff
        );
        assert_eq!(
            power(&Cell::Text("Suspended".into())),
            PowerState::Suspended
        );
        assert_eq!(
            power(&Cell::Text("poweredOn".into())),
            PowerState::PoweredOn
        );
    }
}
