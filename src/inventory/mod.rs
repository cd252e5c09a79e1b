//! VMware inventories in, the VMs to move out: RVTools exports (xlsx, or the `vInfo`
//! CSV of a CSV export), Live Optics workbooks, Azure Migrate's import CSV (per-disk
//! performance) and a plain CSV of VMs with their capacity; performance (IOPS, MiB/s)
//! from the same file, a Live Optics `VM Performance` sheet or a CSV of its own.
//!
//! Pure: bytes in, [`Inventory`] out, no I/O. [`parse`] tells the file's kind from its
//! bytes; a file that is not an inventory is an [`InventoryError`] naming the sheet or
//! column that was expected.

pub mod anonymise;
pub mod azure_migrate;
pub mod bounds;
pub mod model;
pub mod perf;
pub mod plausible;
mod rvtools;
pub mod table;

use crate::engine::FieldErrors;
use std::panic::{AssertUnwindSafe, UnwindSafe};

pub use model::{CapacityBasis, Disk, Excluded, Flag, Inventory, PowerState, Reason, Summary, Vm};

/// Choices of an import.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Keep powered-off VMs (left out by default: they are often retired).
    pub include_powered_off: bool,
    /// Replace VM, host, cluster and datastore names with neutral stand-ins.
    pub anonymise: bool,
    /// The percentile taken of a VM's performance samples where a file has several
    /// (1 to 100); null = [`perf::DEFAULT_PERCENTILE`].
    pub percentile: Option<u8>,
}

impl Options {
    /// The percentile taken of a series.
    pub fn percentile(&self) -> u8 {
        self.percentile.unwrap_or(perf::DEFAULT_PERCENTILE)
    }
}

/// A file that is not a readable inventory: what was expected and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct InventoryError {
    /// The sheet the problem is in, if any.
    pub sheet: Option<String>,
    /// The column that was expected, if any.
    pub column: Option<String>,
    pub message: String,
    /// Figures out of their ranges ([`plausible`]), every one, each named
    /// `sheet.column`; `message` lists them all.
    pub figures: Option<FieldErrors>,
}

impl InventoryError {
    /// A problem with one sheet.
    pub fn sheet(sheet: &str, message: impl Into<String>) -> InventoryError {
        InventoryError {
            sheet: Some(sheet.to_owned()),
            column: None,
            message: message.into(),
            figures: None,
        }
    }

    /// A column the sheet lacks.
    pub fn column(sheet: &str, column: &str, message: impl Into<String>) -> InventoryError {
        InventoryError {
            sheet: Some(sheet.to_owned()),
            column: Some(column.to_owned()),
            message: message.into(),
            figures: None,
        }
    }

    /// Figures out of range, every one, each named `sheet.column`; the sheet and
    /// column are the first one's.
    pub fn figures(errors: FieldErrors) -> InventoryError {
        let all: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        let (sheet, column) = match errors.first().field.split_once('.') {
            Some((s, c)) => (Some(s.to_owned()), Some(c.to_owned())),
            None => (Some(errors.first().field.clone()), None),
        };
        InventoryError {
            sheet,
            column,
            message: all.join("; "),
            figures: Some(errors),
        }
    }

    /// `sheet.column`, `sheet` or nothing: the field an API error names.
    pub fn field(&self) -> Option<String> {
        match (&self.sheet, &self.column) {
            (Some(s), Some(c)) => Some(format!("{s}.{c}")),
            (Some(s), None) => Some(s.clone()),
            _ => None,
        }
    }
}

/// Runs a read of a workbook. The workbook reader panics on some damaged files (an
/// arithmetic overflow on an over-long cell reference, in calamine 0.38, where a
/// debug build checks overflow): such a file is refused as unreadable, never a
/// dropped request.
fn unpanicked<T>(
    sheet: &str,
    read: impl FnOnce() -> Result<T, InventoryError> + UnwindSafe,
) -> Result<T, InventoryError> {
    std::panic::catch_unwind(read).unwrap_or_else(|_| {
        Err(InventoryError::sheet(
            sheet,
            format!(
                "the workbook is damaged and cannot be read: export it again, or send its \
                 {sheet} sheet as CSV"
            ),
        ))
    })
}

/// Whether the bytes are a zip container (xlsx).
fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// Reads an inventory: an xlsx workbook (RVTools or Live Optics) or a CSV file.
pub fn parse(bytes: &[u8], opts: Options) -> Result<Inventory, InventoryError> {
    import(bytes, None, opts)
}

/// Reads an inventory and, when given, a performance file for it (a CSV, or a workbook
/// with a `VM Performance` sheet). Names are anonymised after the performance rows are
/// matched to the VMs by their own names.
pub fn import(
    bytes: &[u8],
    performance: Option<&[u8]>,
    opts: Options,
) -> Result<Inventory, InventoryError> {
    let mut inv = if is_zip(bytes) {
        unpanicked("vInfo", || {
            let mut book = table::Workbook::open(bytes)?;
            rvtools::from_workbook(&mut book, opts)
        })?
    } else {
        let t = table::csv_table("vInfo", bytes)?;
        if azure_migrate::is_azure_migrate(&t) {
            azure_migrate::from_csv(&t)?
        } else {
            rvtools::from_csv(t, opts)?
        }
    };
    if let Some(p) = performance {
        unpanicked(
            "VM Performance",
            AssertUnwindSafe(|| perf::merge(&mut inv, p, opts.percentile())),
        )?;
    }
    if opts.anonymise {
        anonymise::anonymise(&mut inv);
    }
    Ok(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_not_an_inventory_names_what_was_expected() {
        let e = parse(b"colour,size\nfoo,1\n", Options::default()).unwrap_err();
        assert_eq!(e.field().as_deref(), Some("vInfo.VM"));
        assert!(e.message.contains("`VM`"), "{}", e.message);
        let e = parse(b"PK\x03\x04garbage", Options::default()).unwrap_err();
        assert!(e.message.contains("workbook"), "{}", e.message);
        let e = parse(&[0xff, 0xfe, 0x00], Options::default()).unwrap_err();
        assert!(e.message.contains("xlsx"), "{}", e.message);
    }

    #[test]
    fn a_plain_csv_of_vms_reads_with_performance() {
        let csv = "VM,Provisioned MiB,In Use MiB,IOPS,MiB/s\nweb01,102400,51200,300,12.5\nvCLS-1,100,100,,\n";
        let inv = parse(csv.as_bytes(), Options::default()).unwrap();
        assert_eq!(inv.vms.len(), 1);
        assert_eq!(inv.vms[0].in_use_mib, 51200.0);
        assert_eq!(inv.vms[0].iops, Some(300.0));
        assert_eq!(inv.vms[0].mibps, Some(12.5));
        assert_eq!(inv.excluded[0].reason, Reason::Vcls);
        assert_eq!(inv.summary.source, "csv");
        assert_eq!(inv.summary.with_performance, 1);
    }

    #[test]
    fn performance_matches_real_names_before_they_are_anonymised() {
        let csv = "VM,In Use MiB\nsap-prod-01,1024\nsap-prod-02,2048\n";
        let perf = "VM,IOPS,MiB/s\nsap-prod-02,500,20\n";
        let opts = Options {
            anonymise: true,
            ..Options::default()
        };
        let inv = import(csv.as_bytes(), Some(perf.as_bytes()), opts).unwrap();
        assert_eq!(inv.vms[1].vm, "vm-00002");
        assert_eq!(inv.vms[1].mibps, Some(20.0));
        assert_eq!(inv.summary.with_performance, 1);
        assert!(!serde_json::to_string(&inv).unwrap().contains("sap-prod"));
    }
}

#[cfg(test)]
mod fuzz;
