//! Per-VM performance: IOPS and MiB/s by VM name, from the inventory's own columns, a
//! Live Optics `VM Performance` sheet, or a CSV the user writes (`VM,IOPS,MiB/s`).
//!
//! Where a file has several figures, the peak wins over the 95th percentile, which
//! wins over the average; separate read and write columns are added up.

use super::table::{self, Table, Workbook};
use super::{Inventory, InventoryError, Summary, Vm};
use std::collections::HashMap;

/// Where the figures are in a table.
#[derive(Debug, Clone)]
pub struct PerfColumns {
    vm: usize,
    iops: Vec<usize>,
    /// Columns and their factor to MiB/s.
    mibps: Vec<(usize, f64)>,
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

/// Factor from a throughput column's unit to MiB/s.
fn to_mibps(key: &str) -> f64 {
    if key.contains("mib") {
        1.0
    } else if key.contains("kib") || key.contains("kbs") || key.contains("kbps") {
        1.0 / 1024.0
    } else {
        // Decimal MB/s.
        1e6 / 1_048_576.0
    }
}

/// The performance columns of `t`, if it has a VM column and an IOPS or MiB/s one.
pub fn columns(t: &Table) -> Option<PerfColumns> {
    let vm = t.find(&["vm", "vmname", "name", "virtualmachine"])?;
    let iops = best(t, |k| k.contains("iops"));
    let mibps: Vec<(usize, f64)> = best(t, |k| {
        !k.contains("iops")
            && (k.contains("throughput")
                || ["mibs", "mibps", "mbs", "mbps", "mbsec", "mibsec"]
                    .iter()
                    .any(|u| k.ends_with(u)))
    })
    .into_iter()
    .map(|i| (i, to_mibps(&t.keys[i])))
    .collect();
    (!iops.is_empty() || !mibps.is_empty()).then_some(PerfColumns { vm, iops, mibps })
}

/// The figures of every row with a VM name.
pub fn read(t: &Table, c: &PerfColumns) -> Vec<PerfRow> {
    let sum = |row: &[table::Cell], cols: &mut dyn Iterator<Item = (usize, f64)>| {
        let mut any = false;
        let mut total = 0.0;
        for (i, f) in cols {
            if let Some(n) = t.cell(row, Some(i)).num() {
                any = true;
                total += n.max(0.0) * f;
            }
        }
        any.then_some(total)
    };
    t.rows
        .iter()
        .filter_map(|row| {
            let vm = t.cell(row, Some(c.vm)).text()?;
            Some(PerfRow {
                vm: vm.trim().to_owned(),
                iops: sum(row, &mut c.iops.iter().map(|&i| (i, 1.0))),
                mibps: sum(row, &mut c.mibps.iter().copied()),
            })
        })
        .collect()
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
    let rows = read(&t, &c);
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
        let rows = read(&t, &c);
        assert_eq!(rows[0].iops, Some(50.0));
        let want = 2.0 * 1e6 / 1_048_576.0;
        assert!((rows[0].mibps.unwrap() - want).abs() < 1e-9);
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
