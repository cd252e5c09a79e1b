//! How much one inventory file may make the reader hold or do, so that no upload can
//! exhaust the server: a workbook a few kilobytes long can declare a cell a million
//! rows down, or inflate to gigabytes.
//!
//! An xlsx workbook is checked before the workbook reader opens it: the number of parts
//! and each part's uncompressed size as the zip's central directory declares it (the zip
//! reader fails a part that inflates past its declared size, so the declared sizes bound
//! the work), the parts the reader holds whole in memory (shared strings, styles, the
//! workbook part) to far less than the worksheets it reads as a stream. Its sheets are then read cell by cell, never as a grid up to the farthest
//! cell, with a [`SheetBudget`] that refuses a cell beyond the farthest reference, more
//! cells than [`MAX_CELLS`] or more text than [`MAX_TEXT`]; a CSV file has the same budget.
//! Every cell the reader yields, blank or repeated, counts against the file's
//! [`CellsRead`] as it is read, so a small file of millions of cells that all land
//! on the same few places stops at [`MAX_CELLS_READ`] instead of being read through.
//! Every refusal names the limit, the sheet and what to do.

use super::InventoryError;
use quick_xml::events::Event;
use std::io::Cursor;

/// Most parts (files) in a workbook's zip container; an RVTools export has about 40.
pub const MAX_PARTS: usize = 1_000;
/// Largest uncompressed worksheet part: worksheets are read as a stream.
pub const MAX_SHEET_PART: u64 = 128 << 20;
/// Largest uncompressed shared-strings part: the reader holds it whole.
pub const MAX_STRINGS_PART: u64 = 16 << 20;
/// Largest uncompressed part of those the reader holds whole as it opens a workbook
/// (the workbook part, its styles and theme, the relationships): their parsed form
/// takes up to 50 times their size.
pub const MAX_OPENED_PART: u64 = 512 << 10;
/// Largest uncompressed size of all parts together.
pub const MAX_UNCOMPRESSED: u64 = 512 << 20;
/// Farthest column read: column `SR` (RVTools' `vInfo` has about 90).
pub const MAX_COLUMNS: u32 = 512;
/// Farthest row read: Excel's last row, 1,048,576.
pub const MAX_ROWS: u32 = 1 << 20;
/// Most cells one sheet may hold, counting the blanks before a row's last value.
pub const MAX_CELLS: usize = 3_000_000;
/// Most cells read from one file, over all the sheets read, blank and repeated cells
/// included: a full RVTools export of about 20,000 VMs (its `vInfo` and `vDisk`).
pub const MAX_CELLS_READ: usize = 4_000_000;
/// Most bytes of text one sheet may hold.
pub const MAX_TEXT: usize = 48 << 20;

/// Whole MiB, rounded up: a part just over a limit is not said to be at it.
fn mib(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
}

/// The limit of a part by its name in the container; `workbook` is the file name of the
/// workbook part. Names are compared as the workbook reader looks them up (lower case,
/// `/` for `\\`), by their last component, so no path spelling moves a part the
/// reader holds whole under the worksheets' limit.
fn part_limit(name: &str, workbook: &str) -> (u64, &'static str) {
    let lower = name.replace('\\', "/").to_ascii_lowercase();
    let file = lower.rsplit('/').next().unwrap_or_default();
    if file.ends_with(".rels")
        || file == workbook
        || file == "styles.xml"
        || file.starts_with("theme")
        || lower.contains("theme/")
    {
        (MAX_OPENED_PART, "read whole")
    } else if file == "sharedstrings.xml" {
        (MAX_STRINGS_PART, "the shared strings")
    } else {
        (MAX_SHEET_PART, "a worksheet or other part")
    }
}

/// The file name (lower case) of the workbook part that `_rels/.rels` names, if it is
/// within its own limit and says; `workbook.xml` otherwise.
fn workbook_name(zip: &mut zip::ZipArchive<Cursor<&[u8]>>) -> String {
    let fallback = "workbook.xml".to_owned();
    let Some(index) = (0..zip.len()).find(|&i| {
        zip.by_index_data(i).is_ok_and(|p| {
            let name = String::from_utf8_lossy(p.name_raw()).replace('\\', "/");
            name.eq_ignore_ascii_case("_rels/.rels") && p.size() <= MAX_OPENED_PART
        })
    }) else {
        return fallback;
    };
    let mut text = String::new();
    let read = zip
        .by_index(index)
        .map_err(std::io::Error::other)
        .and_then(|mut f| std::io::Read::read_to_string(&mut f, &mut text));
    if read.is_err() {
        return fallback;
    }
    let mut xml = quick_xml::Reader::from_str(&text);
    loop {
        match xml.read_event() {
            Ok(Event::Start(e) | Event::Empty(e)) if e.local_name().as_ref() == "Relationship" => {
                let attr = |key: &str| {
                    e.attributes()
                        .flatten()
                        .find(|a| a.key.local_name().as_ref() == key)
                        .map(|a| a.value.to_string())
                };
                let office = attr("Type").is_some_and(|t| t.ends_with("/officeDocument"));
                if let (true, Some(target)) = (office, attr("Target")) {
                    let target = target.replace('\\', "/").to_ascii_lowercase();
                    return target.rsplit('/').next().unwrap_or_default().to_owned();
                }
            }
            Ok(Event::Eof) | Err(_) => return fallback,
            Ok(_) => {}
        }
    }
}

/// Zip's central-directory header signature: every part has one.
const CENTRAL_HEADER: &[u8; 4] = b"PK\x01\x02";

/// Checks an xlsx container against the part limits before it is opened. A refusal
/// names the sheet the import expects (`vInfo`), as every refusal of a workbook does.
///
/// The parts are counted from the signatures of their central-directory headers
/// first, since the zip reader holds the whole directory in memory as it opens it; the
/// count can only be too high (compressed data may happen to hold the signature), and
/// a real workbook stays far below the limit either way.
pub fn check_container(bytes: &[u8]) -> Result<(), InventoryError> {
    let headers = bytes
        .windows(CENTRAL_HEADER.len())
        .filter(|w| *w == CENTRAL_HEADER)
        .count();
    if headers > MAX_PARTS {
        return Err(too_many_parts());
    }
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(cannot_open)?;
    if zip.len() > MAX_PARTS {
        return Err(too_many_parts());
    }
    let workbook = workbook_name(&mut zip);
    let mut total: u64 = 0;
    for i in 0..zip.len() {
        let Ok(part) = zip.by_index_data(i) else {
            continue;
        };
        let name = String::from_utf8_lossy(part.name_raw()).into_owned();
        let size = part.size();
        let (limit, kind) = part_limit(&name, &workbook);
        if size > limit {
            return Err(InventoryError::sheet(
                "vInfo",
                format!(
                    "the workbook part `{}` ({kind}) unpacks to {} MiB, over the limit of {} MiB: \
                 export only the sheets needed (vInfo, vDisk, vPartition, vHost), or send the \
                 vInfo sheet as CSV",
                    clip(&name),
                    mib(size),
                    mib(limit)
                ),
            ));
        }
        total = total.saturating_add(size);
    }
    if total > MAX_UNCOMPRESSED {
        return Err(InventoryError::sheet(
            "vInfo",
            format!(
                "the workbook unpacks to {} MiB, over the limit of {} MiB: export only the sheets \
             needed (vInfo, vDisk, vPartition, vHost), or one cluster at a time",
                mib(total),
                mib(MAX_UNCOMPRESSED)
            ),
        ));
    }
    Ok(())
}

/// A workbook that does not open, whether as a zip or as a workbook.
pub fn cannot_open(e: impl std::fmt::Display) -> InventoryError {
    InventoryError::sheet(
        "vInfo",
        format!(
            "cannot open the workbook ({e}): expected an RVTools export (.xlsx with a \
             `vInfo` sheet) or its vInfo CSV"
        ),
    )
}

fn too_many_parts() -> InventoryError {
    InventoryError::sheet(
        "vInfo",
        format!(
            "the workbook has more than {MAX_PARTS} parts, more than any export: save it again \
         from Excel or send the vInfo sheet as CSV"
        ),
    )
}

/// A part name cut for a message.
fn clip(name: &str) -> String {
    name.chars().filter(|c| !c.is_control()).take(80).collect()
}

/// Spreadsheet column letters of a zero-based column (`0` -> `A`, `511` -> `SR`).
pub fn column_letters(col: u32) -> String {
    let mut n = u64::from(col) + 1;
    let mut out = Vec::new();
    while n > 0 {
        let rem = ((n - 1) % 26) as u8;
        out.push(b'A' + rem);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// The cells read so far from one file, whatever they hold or where they are.
#[derive(Debug, Default)]
pub struct CellsRead(usize);

impl CellsRead {
    /// Counts `n` more cells read from `sheet`: refused past [`MAX_CELLS_READ`].
    pub fn add(&mut self, sheet: &str, n: usize) -> Result<(), InventoryError> {
        self.0 = self.0.saturating_add(n);
        if self.0 <= MAX_CELLS_READ {
            return Ok(());
        }
        Err(InventoryError::sheet(
            sheet,
            format!(
                "the file has more than {} cells (blank and repeated ones included), over the \
                 limit of cells read from one file; export only the sheets needed (vInfo, vDisk, \
                 vPartition, vHost), or one cluster at a time",
                crate::format::count(MAX_CELLS_READ as u64)
            ),
        ))
    }
}

/// What one sheet has used of its limits while it is read.
#[derive(Debug)]
pub struct SheetBudget<'a> {
    sheet: &'a str,
    cells: usize,
    text: usize,
}

impl<'a> SheetBudget<'a> {
    pub fn new(sheet: &'a str) -> SheetBudget<'a> {
        SheetBudget {
            sheet,
            cells: 0,
            text: 0,
        }
    }

    /// Admits a value at zero-based `row`, `col`: refused beyond the farthest cell read.
    pub fn place(&self, row: u32, col: u32) -> Result<(), InventoryError> {
        if col < MAX_COLUMNS && row < MAX_ROWS {
            return Ok(());
        }
        let sheet = self.sheet;
        Err(InventoryError::sheet(
            sheet,
            format!(
                "sheet `{sheet}` has a value in cell {}{}, beyond the farthest cell read \
                 ({}{}: {MAX_COLUMNS} columns, {MAX_ROWS} rows); delete what lies beyond the \
                 table, or send the sheet as CSV",
                column_letters(col),
                u64::from(row) + 1,
                column_letters(MAX_COLUMNS - 1),
                MAX_ROWS
            ),
        ))
    }

    /// Admits `n` more cells (values and the blanks before them in their row).
    pub fn cells(&mut self, n: usize) -> Result<(), InventoryError> {
        self.cells = self.cells.saturating_add(n);
        if self.cells <= MAX_CELLS {
            return Ok(());
        }
        let sheet = self.sheet;
        Err(InventoryError::sheet(
            sheet,
            format!(
                "sheet `{sheet}` has more than {MAX_CELLS} cells; split the inventory by \
                 cluster, or leave out the columns not needed"
            ),
        ))
    }

    /// Admits `n` more bytes of text.
    pub fn text(&mut self, n: usize) -> Result<(), InventoryError> {
        self.text = self.text.saturating_add(n);
        if self.text <= MAX_TEXT {
            return Ok(());
        }
        let sheet = self.sheet;
        Err(InventoryError::sheet(
            sheet,
            format!(
                "sheet `{sheet}` holds more than {} MiB of text; split the inventory by \
                 cluster, or leave out the columns not needed",
                MAX_TEXT >> 20
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_lettered_as_spreadsheets_do() {
        assert_eq!(column_letters(0), "A");
        assert_eq!(column_letters(25), "Z");
        assert_eq!(column_letters(26), "AA");
        assert_eq!(column_letters(MAX_COLUMNS - 1), "SR");
        assert_eq!(column_letters(16_383), "XFD");
    }

    #[test]
    fn a_far_cell_is_refused_naming_it_and_the_limit() {
        let b = SheetBudget::new("vInfo");
        assert!(b.place(MAX_ROWS - 1, MAX_COLUMNS - 1).is_ok());
        let e = b.place(1_048_575, 16_383).unwrap_err();
        assert_eq!(e.field().as_deref(), Some("vInfo"));
        assert!(e.message.contains("XFD1048576"), "{}", e.message);
        assert!(e.message.contains("SR1048576"), "{}", e.message);
    }

    #[test]
    fn cells_and_text_are_counted_up_to_their_limits() {
        let mut b = SheetBudget::new("vDisk");
        assert!(b.cells(MAX_CELLS).is_ok());
        assert!(b.cells(1).unwrap_err().message.contains("cells"));
        let mut b = SheetBudget::new("vDisk");
        assert!(b.text(MAX_TEXT).is_ok());
        assert!(b.text(1).unwrap_err().message.contains("MiB of text"));
    }

    #[test]
    fn cells_read_are_counted_over_the_whole_file() {
        let mut read = CellsRead::default();
        assert!(read.add("vInfo", MAX_CELLS_READ - 1).is_ok());
        assert!(read.add("vDisk", 1).is_ok());
        let e = read.add("vDisk", 1).unwrap_err();
        assert_eq!(e.field().as_deref(), Some("vDisk"));
        assert!(
            e.message.contains("4,000,000 cells") && e.message.contains("limit"),
            "{}",
            e.message
        );
    }

    #[test]
    fn what_is_not_a_zip_is_refused_as_a_workbook_that_cannot_open() {
        let e = check_container(b"PK\x03\x04garbage").unwrap_err();
        assert!(
            e.message.contains("cannot open the workbook"),
            "{}",
            e.message
        );
        let many = CENTRAL_HEADER.repeat(MAX_PARTS + 1);
        let e = check_container(&many).unwrap_err();
        assert!(e.message.contains("parts"), "{}", e.message);
    }
}
