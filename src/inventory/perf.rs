//! Per-VM performance: IOPS and MiB/s by VM name, from the inventory's own columns, a
//! Live Optics `VM Performance` sheet, or a CSV the user writes (`VM,IOPS,MiB/s`).
//!
//! Where a file has several figures, the peak wins over the 95th percentile, which
//! wins over the average; separate read and write columns are added up. Where a file
//! has several rows for one VM (a series of samples, as performance exports over time
//! write them), the VM's figure is the chosen percentile of its samples (nearest rank:
//! the smallest sample at or above that share of them), IOPS and MiB/s each on its own,
//! as Azure Migrate's performance-based assessments take a percentile of the samples
//! ("Percentile utilization": 50th, 90th, 95th or 99th; Microsoft Learn, Azure Migrate
//! assessment properties).

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

/// The percentile taken of a VM's samples unless the import says otherwise.
pub const DEFAULT_PERCENTILE: u8 = 95;

/// The percentile an import asked for: 1 to 100, null = [`DEFAULT_PERCENTILE`]; any
/// other is refused naming `percentile`.
pub fn chosen(p: Option<u32>) -> Result<u8, crate::engine::scenario::FieldError> {
    match p {
        None => Ok(DEFAULT_PERCENTILE),
        Some(v @ 1..=100) => Ok(v as u8),
        Some(v) => Err(crate::engine::scenario::FieldError::new(
            "percentile",
            format!(
                "must be a whole number from 1 to 100 (the percentile of each VM's samples), not {v}"
            ),
        )),
    }
}

/// The `p`th percentile of `samples` by nearest rank (`p` from 1 to 100): the sample at
/// rank ceil(p / 100 x n) of the sorted samples.
pub fn percentile(samples: &mut [f64], p: u8) -> Option<f64> {
    if samples.is_empty() {
        return None;
    }
    samples.sort_by(f64::total_cmp);
    let rank = (f64::from(p.clamp(1, 100)) / 100.0 * samples.len() as f64).ceil() as usize;
    Some(samples[rank.clamp(1, samples.len()) - 1])
}

/// Sets the figures on the VMs of the same name, a VM with several rows taking the
/// `pct`th percentile of its samples (recorded in the summary); names that match no VM
/// are counted in a warning.
pub fn apply(vms: &mut [Vm], rows: &[PerfRow], summary: &mut Summary, pct: u8) {
    let mut by_vm: HashMap<&str, Vec<&PerfRow>> = HashMap::with_capacity(rows.len());
    for r in rows {
        by_vm.entry(r.vm.as_str()).or_default().push(r);
    }
    let mut matched = 0;
    for v in vms.iter_mut() {
        let Some(samples) = by_vm.get(v.vm.as_str()) else {
            continue;
        };
        matched += 1;
        if samples.len() > 1 {
            summary.series_vms += 1;
            summary.percentile = Some(pct);
        }
        let of = |f: fn(&PerfRow) -> Option<f64>| {
            let mut figures: Vec<f64> = samples.iter().filter_map(|r| f(r)).collect();
            percentile(&mut figures, pct)
        };
        v.iops = of(|r| r.iops).or(v.iops);
        v.mibps = of(|r| r.mibps).or(v.mibps);
    }
    let unmatched = by_vm.len().saturating_sub(matched);
    if unmatched > 0 {
        summary.warnings.push(format!(
            "{unmatched} performance rows name no included VM (excluded, or not in the inventory)"
        ));
    }
}

/// Reads a performance file (a CSV, or an xlsx with a `VM Performance` sheet) and sets
/// its figures on the inventory's VMs.
pub fn merge(inv: &mut Inventory, bytes: &[u8], pct: u8) -> Result<(), InventoryError> {
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
    apply(&mut inv.vms, &rows, &mut inv.summary, pct);
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

    /// 20 samples of 100 to 2,000 IOPS (1 to 20 MB/s): the nearest rank of the 95th
    /// percentile is ceil(0.95 x 20) = 19, so 1,900 IOPS; the 50th is rank 10, 1,000;
    /// the 99th rank 20, 2,000. A VM with one row keeps it.
    #[test]
    fn a_series_takes_the_chosen_percentile_of_each_vms_samples() {
        let mut csv = String::from("VM,Timestamp,IOPS,MB/s\n");
        for i in 1..=20 {
            csv.push_str(&format!("a,2026-01-01T{i:02}:00,{},{i}\n", i * 100));
        }
        csv.push_str("b,2026-01-01T00:00,70,3\n");
        let run = |p: u8| {
            let mut inv = Inventory {
                vms: ["a", "b"]
                    .map(|n| Vm {
                        vm: n.to_owned(),
                        powerstate: Default::default(),
                        cluster: None,
                        host: None,
                        datastore: None,
                        vcpus: 1,
                        memory_mib: 1024.0,
                        provisioned_mib: 1024.0,
                        in_use_mib: 1024.0,
                        guest_used_mib: None,
                        disks: vec![],
                        iops: None,
                        mibps: None,
                        flags: vec![],
                    })
                    .to_vec(),
                excluded: vec![],
                summary: Summary::default(),
            };
            merge(&mut inv, csv.as_bytes(), p).unwrap();
            inv
        };
        let inv = run(DEFAULT_PERCENTILE);
        assert_eq!(inv.vms[0].iops, Some(1900.0));
        let mb = 1e6 / 1_048_576.0;
        assert!((inv.vms[0].mibps.unwrap() - 19.0 * mb).abs() < 1e-9);
        assert_eq!((inv.vms[1].iops, inv.summary.series_vms), (Some(70.0), 1));
        assert_eq!(inv.summary.percentile, Some(95));
        assert_eq!(run(50).vms[0].iops, Some(1000.0));
        assert_eq!(run(99).vms[0].iops, Some(2000.0));
        assert_eq!(percentile(&mut [3.0, 1.0, 2.0], 1), Some(1.0));
        assert_eq!(percentile(&mut [], 95), None);
        assert!(chosen(Some(0)).is_err() && chosen(Some(101)).is_err());
        assert_eq!(chosen(None).unwrap(), 95);
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
        let e = merge(&mut inv, csv, DEFAULT_PERCENTILE).unwrap_err();
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
        let e = merge(&mut inv, b"VM,Owner\na,b\n", DEFAULT_PERCENTILE).unwrap_err();
        assert_eq!(e.column.as_deref(), Some("IOPS"));
    }
}
