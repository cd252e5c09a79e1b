//! Per-VM performance: IOPS and MiB/s by VM name, from the inventory's own columns, a
//! Live Optics `VM Performance` sheet, or a CSV the user writes (`VM,IOPS,MiB/s`).
//!
//! Where a file has several figures, the peak wins over the 95th percentile, which
//! wins over the average; separate read and write columns are added up.

use super::plausible::{self, IOPS, MIBPS, quoted};
use super::table::{self, Table, Workbook};
use super::{Inventory, InventoryError, Summary, Vm};
use crate::engine::field_error::Checks;
use std::collections::HashMap;

/// Where the figures are in a table.
#[derive(Debug, Clone)]
pub struct PerfColumns {
    vm: usize,
    iops: Vec<usize>,
    /// Columns, their factor to MiB/s and their unit.
    mibps: Vec<(usize, f64, &'static str)>,
}

/// The figures of one VM.
#[derive(Debug, Clone, PartialEq)]
pub struct PerfRow {
    pub vm: String,
    pub iops: Option<f64>,
    pub mibps: Option<f64>,
}

/// The best columns among those whose key `is`: peak, then 95th percentile, then
/// average or unqualified; a single total, else read + write.
fn best(t: &Table, is: impl Fn(&str) -> bool) -> Vec<usize> {
    let cands: Vec<usize> = (0..t.keys.len()).filter(|&i| is(&t.keys[i])).collect();
    for rank in ["peak", "max", "95", ""] {
        let of_rank: Vec<usize> = cands
            .iter()
            .copied()
            .filter(|&i| rank.is_empty() || t.keys[i].contains(rank))
            .collect();
        let total: Vec<usize> = of_rank
            .iter()
            .copied()
            .filter(|&i| !t.keys[i].contains("read") && !t.keys[i].contains("write"))
            .collect();
        if let Some(&i) = total.first() {
            return vec![i];
        }
        let read = of_rank
            .iter()
            .copied()
            .find(|&i| t.keys[i].contains("read"));
        let write = of_rank
            .iter()
            .copied()
            .find(|&i| t.keys[i].contains("write"));
        if let (Some(r), Some(w)) = (read, write) {
            return vec![r, w];
        }
    }
    Vec::new()
}

/// Factor from a throughput column's unit to MiB/s, and the unit.
fn to_mibps(key: &str) -> (f64, &'static str) {
    if key.contains("mib") {
        (1.0, "MiB/s")
    } else if key.contains("kib") || key.contains("kbs") || key.contains("kbps") {
        (1.0 / 1024.0, "KiB/s")
    } else {
        // Decimal MB/s.
        (1e6 / 1_048_576.0, "MB/s")
    }
}

/// The performance columns of `t`, if it has a VM column and an IOPS or MiB/s one.
pub fn columns(t: &Table) -> Option<PerfColumns> {
    let vm = t.find(&["vm", "vmname", "name", "virtualmachine"])?;
    let iops = best(t, |k| k.contains("iops"));
    let mibps: Vec<(usize, f64, &'static str)> = best(t, |k| {
        !k.contains("iops")
            && (k.contains("throughput")
                || ["mibs", "mibps", "mbs", "mbps", "mbsec", "mibsec"]
                    .iter()
                    .any(|u| k.ends_with(u)))
    })
    .into_iter()
    .map(|i| {
        let (f, unit) = to_mibps(&t.keys[i]);
        (i, f, unit)
    })
    .collect();
    (!iops.is_empty() || !mibps.is_empty()).then_some(PerfColumns { vm, iops, mibps })
}

/// The figures of every row with a VM name; those out of range are recorded in
/// `checks` ([`Table::figure`]).
pub fn read(t: &Table, c: &PerfColumns, checks: &mut Checks) -> Vec<PerfRow> {
    let iops: Vec<_> = c.iops.iter().map(|&i| (i, 1.0, IOPS)).collect();
    let mibps: Vec<_> = c
        .mibps
        .iter()
        .map(|&(i, f, unit)| (i, f, MIBPS.in_unit(f, unit)))
        .collect();
    let mut rows = Vec::with_capacity(t.rows.len());
    for (r, row) in t.rows.iter().enumerate() {
        let Some(vm) = t.cell(row, Some(c.vm)).text() else {
            continue;
        };
        let who = format!("VM {}", quoted(vm.trim()));
        let mut sum = |cols: &[(usize, f64, plausible::Bound)]| {
            let mut any = false;
            let mut total = 0.0;
            for &(i, f, bound) in cols {
                if let Some(n) = t.figure(r, Some(i), &who, bound, checks) {
                    any = true;
                    total += n * f;
                }
            }
            any.then_some(total)
        };
        rows.push(PerfRow {
            iops: sum(&iops),
            mibps: sum(&mibps),
            vm: vm.trim().to_owned(),
        });
    }
    rows
}

/// Sets the figures on the VMs of the same name; names that match no VM are counted in
/// a warning.
pub fn apply(vms: &mut [Vm], rows: &[PerfRow], summary: &mut Summary) {
    let idx: HashMap<&str, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.vm.as_str(), i))
        .collect();
    let mut matched = 0;
    for v in vms.iter_mut() {
        if let Some(&i) = idx.get(v.vm.as_str()) {
            matched += 1;
            let r = &rows[i];
            v.iops = r.iops.or(v.iops);
            v.mibps = r.mibps.or(v.mibps);
        }
    }
    let unmatched = rows.len().saturating_sub(matched);
    if unmatched > 0 {
        summary.warnings.push(format!(
            "{unmatched} performance rows name no included VM (excluded, or not in the inventory)"
        ));
    }
}

/// Reads a performance file (a CSV, or an xlsx with a `VM Performance` sheet) and sets
/// its figures on the inventory's VMs.
pub fn merge(inv: &mut Inventory, bytes: &[u8]) -> Result<(), InventoryError> {
    let t = if bytes.starts_with(b"PK\x03\x04") {
        let mut book = Workbook::open(bytes)?;
        book.table("vmperformance")?.ok_or_else(|| {
            InventoryError::sheet(
                "VM Performance",
                "the performance workbook has no `VM Performance` sheet",
            )
        })?
    } else {
        table::csv_table("performance", bytes)?
    };
    let c = columns(&t).ok_or_else(|| {
        InventoryError::column(
            &t.name,
            "IOPS",
            "the performance file needs a `VM` column and an `IOPS` or `MiB/s` column",
        )
    })?;
    let mut checks = Checks::default();
    let rows = read(&t, &c, &mut checks);
    checks.finish().map_err(InventoryError::figures)?;
    apply(&mut inv.vms, &rows, &mut inv.summary);
    inv.summary
        .warnings
        .retain(|w| !w.starts_with("no performance figures"));
    inv.total();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_wins_and_read_write_add_up() {
        let t = table::csv_table(
            "p",
            b"VM Name,Average IOPS,Peak IOPS,Peak Read MB/s,Peak Write MB/s\na,10,50,1,1\n",
        )
        .unwrap();
        let c = columns(&t).unwrap();
        let mut checks = Checks::default();
        let rows = read(&t, &c, &mut checks);
        assert!(checks.is_clean());
        assert_eq!(rows[0].iops, Some(50.0));
        let want = 2.0 * 1e6 / 1_048_576.0;
        assert!((rows[0].mibps.unwrap() - want).abs() < 1e-9);
    }

    #[test]
    fn figures_out_of_range_are_refused_naming_row_vm_column_and_range() {
        let mut inv = Inventory {
            vms: vec![],
            excluded: vec![],
            summary: Summary::default(),
        };
        let csv = b"VM,IOPS,MB/s
a,-1,1
b,NaN,1e308
";
        let e = merge(&mut inv, csv).unwrap_err();
        let errors = e.figures.expect("every figure out of range");
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            ["performance.IOPS", "performance.IOPS", "performance.MB/s"]
        );
        let m: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert!(
            m[0].starts_with(
                "performance row 2, VM `a`: `IOPS` is -1, outside 0 to 10,000,000 IOPS"
            ),
            "{}",
            m[0]
        );
        assert!(
            m[1].contains("row 3, VM `b`: `IOPS` is not a number"),
            "{}",
            m[1]
        );
        assert!(m[2].contains("`MB/s` is 1e308, outside 0 to"), "{}", m[2]);
    }

    #[test]
    fn a_file_without_figures_is_refused() {
        let mut inv = Inventory {
            vms: vec![],
            excluded: vec![],
            summary: Summary::default(),
        };
        let e = merge(&mut inv, b"VM,Owner\na,b\n").unwrap_err();
        assert_eq!(e.column.as_deref(), Some("IOPS"));
    }
}
