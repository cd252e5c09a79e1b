//! Sheets as tables of cells, from an xlsx workbook (calamine) or a CSV file, with the
//! header matching that copes with the dialects: `Provisioned MiB` (RVTools 4.x),
//! `Provisioned MB` (3.x), `vInfoProvisioned` (CSV export), lower-cased or
//! space-stripped variants.

use super::InventoryError;
use super::bounds::{self, CellsRead, SheetBudget};
use super::plausible::{Bound, quoted};
use crate::engine::field_error::Checks;
use calamine::{DataRef, Reader};
use std::collections::BTreeMap;
use std::io::Cursor;

/// One cell.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Empty,
    Num(f64),
    Text(String),
    Bool(bool),
}

impl Cell {
    /// The cell as text (numbers as written, without a trailing `.0`).
    pub fn text(&self) -> Option<String> {
        match self {
            Cell::Empty => None,
            Cell::Num(n) if n.fract() == 0.0 && n.abs() < 1e15 => Some(format!("{}", *n as i64)),
            Cell::Num(n) => Some(n.to_string()),
            Cell::Text(t) => {
                let t = t.trim();
                (!t.is_empty()).then(|| t.to_owned())
            }
            Cell::Bool(b) => Some(if *b { "True" } else { "False" }.to_owned()),
        }
    }

    /// The cell as a number (text with thousands separators and a decimal point or
    /// comma reads too; `NaN`, `inf` and `1e400` read as what they are, for the
    /// ranges to refuse).
    pub fn num(&self) -> Option<f64> {
        match self {
            Cell::Num(n) => Some(*n),
            Cell::Text(t) => {
                let t = t.trim();
                let plain: String = t.chars().filter(|c| !matches!(c, ' ' | '\u{a0}')).collect();
                plain.parse::<f64>().ok().or_else(|| {
                    if plain.contains(',') && !plain.contains('.') {
                        let comma_decimal = plain.matches(',').count() == 1
                            && plain.rsplit(',').next().is_some_and(|d| d.len() != 3);
                        let fixed = if comma_decimal {
                            plain.replace(',', ".")
                        } else {
                            plain.replace(',', "")
                        };
                        fixed.parse().ok()
                    } else {
                        plain.replace(',', "").parse().ok()
                    }
                })
            }
            Cell::Bool(_) | Cell::Empty => None,
        }
    }

    /// The cell as a yes/no (`True`, `yes`, `1`).
    pub fn flag(&self) -> bool {
        match self {
            Cell::Bool(b) => *b,
            Cell::Num(n) => *n != 0.0,
            Cell::Text(t) => matches!(
                t.trim().to_ascii_lowercase().as_str(),
                "true" | "yes" | "y" | "1" | "wahr" | "vrai"
            ),
            Cell::Empty => false,
        }
    }
}

/// A sheet: its name, headers normalised, and the rows below them.
#[derive(Debug, Clone)]
pub struct Table {
    pub name: String,
    /// Headers as written.
    pub headers: Vec<String>,
    /// Headers normalised: lower-case letters and digits only, the sheet-name prefix of
    /// CSV exports (`vInfo`, `vDisk`, ...) taken off.
    pub keys: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
    /// Where each row is: its row number in the sheet, or its line in the CSV file.
    pub lines: Vec<u32>,
    /// Whether some headers carried the sheet-name prefix.
    pub prefixed: bool,
}

/// Whether a normalised sheet name is one whose CSV export prefixes its headers
/// (RVTools' `vInfo`, `vDisk`, ... sheets).
fn is_sheet_prefix(p: &str) -> bool {
    p.len() >= 4 && p.starts_with('v')
}

/// Lower-case letters and digits only (`# Cores` -> `cores`, `In Use MiB` -> `inusemib`).
pub fn normalise(header: &str) -> String {
    header
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A column found by one of its names, and the factor to MiB for capacity columns.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub index: usize,
    pub to_mib: f64,
    /// The unit the column's figures are in (`MiB`, `GB`, ...).
    pub unit: &'static str,
}

impl Table {
    /// A table from its header row and data rows, each with its row number in the
    /// sheet (or line in the file); blank rows are dropped.
    pub fn new(name: &str, headers: Vec<String>, rows: Vec<(u32, Vec<Cell>)>) -> Table {
        let full = normalise(name);
        let prefix = full
            .strip_prefix("rvtoolstab")
            .or_else(|| full.strip_prefix("tab"))
            .unwrap_or(&full);
        let mut prefixed = false;
        let keys = headers
            .iter()
            .map(|h| {
                let k = normalise(h);
                match k.strip_prefix(prefix) {
                    Some(rest) if is_sheet_prefix(prefix) && !rest.is_empty() => {
                        prefixed = true;
                        rest.to_owned()
                    }
                    _ => k,
                }
            })
            .collect();
        let (lines, rows) = rows
            .into_iter()
            .filter(|(_, r)| r.iter().any(|c| *c != Cell::Empty))
            .unzip();
        Table {
            name: name.to_owned(),
            headers,
            keys,
            rows,
            lines,
            prefixed,
        }
    }

    /// The first column whose normalised header is one of `names`.
    pub fn find(&self, names: &[&str]) -> Option<usize> {
        names
            .iter()
            .find_map(|n| self.keys.iter().position(|k| k == n))
    }

    /// A capacity column `base` (normalised, e.g. `inuse`) in any unit label:
    /// `MiB`, `MB` (vSphere's MB are binary: RVTools 4.x relabelled the same figures
    /// MiB), `GiB`/`GB`, `TiB`/`TB`, or none (CSV exports: MiB).
    pub fn capacity(&self, bases: &[&str]) -> Option<(Column, &'static str)> {
        const UNITS: [(&str, f64, &str); 7] = [
            ("mib", 1.0, "MiB"),
            ("mb", 1.0, "MB"),
            ("gib", 1024.0, "GiB"),
            ("gb", 1024.0, "GB"),
            ("tib", 1_048_576.0, "TiB"),
            ("tb", 1_048_576.0, "TB"),
            ("", 1.0, "prefixed"),
        ];
        for base in bases {
            for (suffix, to_mib, label) in UNITS {
                let key = format!("{base}{suffix}");
                if let Some(index) = self.keys.iter().position(|k| *k == key) {
                    let unit = if suffix.is_empty() { "MiB" } else { label };
                    return Some((
                        Column {
                            index,
                            to_mib,
                            unit,
                        },
                        label,
                    ));
                }
            }
        }
        None
    }

    /// The figure of the `r`th row in column `col`, within `bound` (in the column's
    /// unit); one out of range is recorded in `checks`, naming the sheet, the row,
    /// `who` (``VM `web01` ``) and the column, and read as missing. `None` also for a
    /// blank cell or text that is no number.
    pub fn figure(
        &self,
        r: usize,
        col: Option<usize>,
        who: &str,
        bound: Bound,
        checks: &mut Checks,
    ) -> Option<f64> {
        let col = col?;
        let v = self.cell(&self.rows[r], Some(col)).num()?;
        let header = self.headers.get(col).map_or("", String::as_str);
        let line = self.lines.get(r).copied().unwrap_or_default();
        let what = format!("{} row {line}, {who}: {}", self.name, quoted(header));
        let field = format!(
            "{}.{}",
            self.name,
            header.chars().take(60).collect::<String>()
        );
        bound.check(checks, &field, &what, v).then_some(v)
    }

    /// The cell at `row`, `col` (empty past the row's end).
    pub fn cell<'a>(&'a self, row: &'a [Cell], col: Option<usize>) -> &'a Cell {
        col.and_then(|c| row.get(c)).unwrap_or(&Cell::Empty)
    }
}

/// A workbook's sheets by name.
pub struct Workbook {
    pub sheets: Vec<String>,
    book: calamine::Xlsx<Cursor<Vec<u8>>>,
    /// The cells read from every sheet so far.
    read: CellsRead,
}

impl Workbook {
    /// Opens an xlsx workbook from its bytes, once its container is within
    /// [`bounds`]' limits.
    pub fn open(bytes: &[u8]) -> Result<Workbook, InventoryError> {
        bounds::check_container(bytes)?;
        let book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(Cursor::new(bytes.to_vec()))
            .map_err(bounds::cannot_open)?;
        let sheets = book.sheet_names();
        Ok(Workbook {
            sheets,
            book,
            read: CellsRead::default(),
        })
    }

    /// The sheet whose name, normalised, is `key` or ends with it (`tabvInfo`), read as a
    /// table whose first non-blank row is the header.
    ///
    /// The cells are read one by one within the sheet's [`SheetBudget`]: only the rows
    /// that hold a value take memory, never a grid up to the farthest cell; every cell
    /// read counts against the workbook's [`CellsRead`].
    pub fn table(&mut self, key: &str) -> Result<Option<Table>, InventoryError> {
        let Some(name) = self
            .sheets
            .iter()
            .find(|s| {
                let n = normalise(s);
                n == key || n.ends_with(key)
            })
            .cloned()
        else {
            return Ok(None);
        };
        let unreadable = |e: calamine::XlsxError| {
            InventoryError::sheet(&name, format!("cannot read sheet `{name}`: {e}"))
        };
        let mut budget = SheetBudget::new(&name);
        let mut rows: BTreeMap<u32, Vec<Cell>> = BTreeMap::new();
        let mut reader = self
            .book
            .worksheet_cells_reader(&name)
            .map_err(unreadable)?;
        while let Some(c) = reader.next_cell().map_err(unreadable)? {
            self.read.add(&name, 1)?;
            let value = cell(c.get_value());
            if value == Cell::Empty {
                continue;
            }
            let (r, col) = c.get_position();
            budget.place(r, col)?;
            if let Cell::Text(t) = &value {
                budget.text(t.len())?;
            }
            let row = rows.entry(r).or_default();
            let col = col as usize;
            if row.len() <= col {
                budget.cells(col + 1 - row.len())?;
                row.resize(col + 1, Cell::Empty);
            }
            row[col] = value;
        }
        drop(reader);
        let mut rows = rows
            .into_iter()
            .map(|(r, cells)| (r.saturating_add(1), cells));
        let headers = rows
            .next()
            .unwrap_or_default()
            .1
            .iter()
            .map(|c| c.text().unwrap_or_default())
            .collect();
        Ok(Some(Table::new(&name, headers, rows.collect())))
    }
}

fn cell(d: &DataRef<'_>) -> Cell {
    match d {
        DataRef::Empty | DataRef::Error(_) => Cell::Empty,
        DataRef::Int(i) => Cell::Num(*i as f64),
        DataRef::Float(f) => Cell::Num(*f),
        DataRef::Bool(b) => Cell::Bool(*b),
        DataRef::String(s) | DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => {
            Cell::Text(s.clone())
        }
        DataRef::SharedString(s) => Cell::Text((*s).to_owned()),
        DataRef::DateTime(d) => Cell::Num(d.as_f64()),
    }
}

/// CSV text: UTF-8, UTF-16 with its byte-order mark (Excel's "Unicode text"), or else
/// Latin-1 (a CSV saved by Excel in a Western Windows code page); binary data (NUL
/// bytes) is none.
fn decode(bytes: &[u8]) -> Option<std::borrow::Cow<'_, str>> {
    let utf16 = |le: bool| {
        let units = bytes[2..]
            .chunks(2)
            .map(|c| match (c, le) {
                ([a, b], true) => Some(u16::from_le_bytes([*a, *b])),
                ([a, b], false) => Some(u16::from_be_bytes([*a, *b])),
                _ => None,
            })
            .collect::<Option<Vec<u16>>>()?;
        String::from_utf16(&units).ok().map(std::borrow::Cow::Owned)
    };
    if bytes.starts_with(&[0xff, 0xfe]) {
        return utf16(true);
    }
    if bytes.starts_with(&[0xfe, 0xff]) {
        return utf16(false);
    }
    if bytes.contains(&0) {
        return None;
    }
    match std::str::from_utf8(bytes) {
        Ok(t) => Some(std::borrow::Cow::Borrowed(t)),
        Err(_) => Some(std::borrow::Cow::Owned(
            bytes.iter().map(|&b| char::from(b)).collect(),
        )),
    }
}

/// A CSV file as one table named `name`: decoded as [`decode`] says (a byte-order mark
/// is skipped), the delimiter (`,`, `;` or tab) taken from the header line.
pub fn csv_table(name: &str, bytes: &[u8]) -> Result<Table, InventoryError> {
    let text = decode(bytes).ok_or_else(|| {
        InventoryError::sheet(
            name,
            format!(
                "the file is neither an xlsx workbook nor CSV text: expected an RVTools export \
                 (.xlsx) or its `{name}` CSV"
            ),
        )
    })?;
    let text = text.trim_start_matches('\u{feff}');
    let first = text.lines().next().unwrap_or("");
    let delimiter = [b',', b';', b'\t']
        .into_iter()
        .max_by_key(|d| first.bytes().filter(|b| b == d).count())
        .unwrap_or(b',');
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .has_headers(false)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    let mut headers = None;
    let mut budget = SheetBudget::new(name);
    let mut read = CellsRead::default();
    for (line, record) in reader.records().enumerate() {
        let record = record.map_err(|e| InventoryError::sheet(name, format!("CSV: {e}")))?;
        read.add(name, record.len())?;
        // Trailing empty fields hold nothing: they neither count nor widen the row.
        let used = (0..record.len())
            .rev()
            .find(|&i| !record[i].trim().is_empty())
            .map_or(0, |last| last + 1);
        if used == 0 {
            continue;
        }
        let last = u32::try_from(used - 1).unwrap_or(u32::MAX);
        budget.place(u32::try_from(line).unwrap_or(u32::MAX), last)?;
        budget.cells(used)?;
        budget.text(record.as_slice().len())?;
        let fields = record.iter().take(used).map(str::trim);
        if headers.is_none() {
            headers = Some(fields.map(str::to_owned).collect());
            continue;
        }
        let at = record.position().map_or(0, |p| p.line());
        rows.push((
            u32::try_from(at).unwrap_or(u32::MAX),
            fields
                .map(|f| {
                    if f.is_empty() {
                        Cell::Empty
                    } else {
                        Cell::Text(f.to_owned())
                    }
                })
                .collect(),
        ));
    }
    Ok(Table::new(name, headers.unwrap_or_default(), rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_normalise_across_dialects() {
        let t = Table::new(
            "vInfo",
            vec![
                "vInfoVMName".into(),
                "In Use MiB".into(),
                "provisioned mb".into(),
                "# Cores".into(),
            ],
            vec![],
        );
        assert_eq!(t.keys, ["vmname", "inusemib", "provisionedmb", "cores"]);
        assert!(t.prefixed);
        let (used, label) = t.capacity(&["inuse"]).unwrap();
        assert_eq!((used.index, label), (1, "MiB"));
        assert_eq!(t.capacity(&["provisioned"]).unwrap().1, "MB");
    }

    #[test]
    fn numbers_read_with_separators() {
        assert_eq!(Cell::Text("1,234".into()).num(), Some(1234.0));
        assert_eq!(Cell::Text("12,5".into()).num(), Some(12.5));
        assert_eq!(Cell::Text("1 024.5".into()).num(), Some(1024.5));
        assert_eq!(Cell::Text("n/a".into()).num(), None);
        assert!(Cell::Num(f64::NAN).num().unwrap().is_nan());
        assert_eq!(Cell::Text("-inf".into()).num(), Some(f64::NEG_INFINITY));
        assert_eq!(Cell::Text("1e400".into()).num(), Some(f64::INFINITY));
    }

    #[test]
    fn csv_takes_the_delimiter_of_the_header() {
        let t = csv_table("x", "\u{feff}VM;IOPS\nweb01;12,5\n\n".as_bytes()).unwrap();
        assert_eq!(t.keys, ["vm", "iops"]);
        assert_eq!(t.rows.len(), 1);
        assert_eq!(t.rows[0][1].num(), Some(12.5));
        assert_eq!(t.lines, [2]);
    }

    #[test]
    fn csv_reads_utf16_and_latin1_text() {
        let text = "VM,In Use MiB\ncafé,10\n";
        let mut utf16 = vec![0xff, 0xfe];
        utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        let latin1: Vec<u8> = text.chars().map(|c| c as u8).collect();
        for bytes in [utf16, latin1] {
            let t = csv_table("vInfo", &bytes).unwrap();
            assert_eq!(t.rows[0][0].text().as_deref(), Some("café"));
        }
        let e = csv_table("vInfo", b"VM\0\x01").unwrap_err();
        assert_eq!(e.field().as_deref(), Some("vInfo"));
    }
}
