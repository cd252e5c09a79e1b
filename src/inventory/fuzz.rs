//! The import over hostile files: arbitrary bytes, truncated and mutated CSVs and
//! workbooks, and `vInfo` sheets with shuffled, missing or garbage columns never panic,
//! and each gives an inventory with every figure in range, or an error naming the sheet
//! (and the column) expected or the figures out of range.

use super::{Inventory, InventoryError, Options, parse};
use proptest::prelude::*;
use rust_xlsxwriter::Workbook;

/// The `vInfo` columns of the generated exports; 0 is the VM, 5 and 6 the capacities.
const HEADERS: [&str; 8] = [
    "VM",
    "Powerstate",
    "Template",
    "CPUs",
    "Memory",
    "Provisioned MiB",
    "In Use MiB",
    "Path",
];

/// A valid `vInfo` CSV of `n` VMs.
fn csv(n: usize) -> String {
    let mut s = HEADERS.join(",") + "\n";
    for i in 0..n {
        s += &format!(
            "vm{i},poweredOn,False,4,16384,{},{},[ds-{i}] vm{i}/vm{i}.vmx\n",
            2048 * (i + 1),
            1024 * (i + 1)
        );
    }
    s
}

/// A generated cell.
#[derive(Debug, Clone)]
enum Cell {
    Num(f64),
    Text(String),
    Bool(bool),
    Empty,
}

fn cell() -> impl Strategy<Value = Cell> {
    prop_oneof![
        prop_oneof![
            any::<f64>().prop_filter("finite", |v| v.is_finite()),
            -1e12f64..1e12
        ]
        .prop_map(Cell::Num),
        "[ -~éß漢\\[\\]]{0,24}".prop_map(Cell::Text),
        any::<bool>().prop_map(Cell::Bool),
        Just(Cell::Empty),
    ]
}

/// A workbook with one sheet `sheet` of `headers` and `rows`.
fn workbook(sheet: &str, headers: &[String], rows: &[Vec<Cell>]) -> Vec<u8> {
    let mut book = Workbook::new();
    let ws = book.add_worksheet();
    ws.set_name(sheet).unwrap();
    for (c, h) in headers.iter().enumerate() {
        ws.write_string(0, c as u16, h).unwrap();
    }
    for (r, row) in rows.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            let (r, c) = (r as u32 + 1, c as u16);
            match v {
                Cell::Num(n) => ws.write_number(r, c, *n).map(|_| ()),
                Cell::Text(t) => ws.write_string(r, c, t).map(|_| ()),
                Cell::Bool(b) => ws.write_boolean(r, c, *b).map(|_| ()),
                Cell::Empty => Ok(()),
            }
            .unwrap();
        }
    }
    book.save_to_buffer().unwrap()
}

/// An inventory, or an error that names the sheet expected and says why.
fn names_what_was_expected(r: &Result<Inventory, InventoryError>) -> bool {
    match r {
        Ok(_) => true,
        Err(e) => e.sheet.is_some() && !e.message.trim().is_empty(),
    }
}

/// `bytes` with `edits` applied: each sets the byte at an index (modulo the length).
fn mutate(mut bytes: Vec<u8>, edits: &[(usize, u8)]) -> Vec<u8> {
    let n = bytes.len();
    for &(i, b) in edits {
        bytes[i % n] = b;
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600), zip in any::<bool>()) {
        let bytes = if zip { [b"PK\x03\x04".as_slice(), &bytes].concat() } else { bytes };
        let r = parse(&bytes, Options::default());
        prop_assert!(names_what_was_expected(&r), "{r:?}");
    }

    #[test]
    fn truncated_and_mutated_csvs_never_panic(
        n in 0usize..6,
        cut in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>()), 0..6),
    ) {
        let full = csv(n).into_bytes();
        let cut = cut.index(full.len() + 1);
        let bytes = if full.is_empty() { full } else { mutate(full[..cut.max(1)].to_vec(), &edits) };
        let r = parse(&bytes, Options::default());
        prop_assert!(names_what_was_expected(&r), "{r:?}");
    }

    #[test]
    fn truncated_and_mutated_workbooks_never_panic(
        cut in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>()), 0..8),
        truncate in any::<bool>(),
    ) {
        let rows: Vec<Vec<Cell>> = (0..4)
            .map(|i| vec![Cell::Text(format!("vm{i}")), Cell::Num(1024.0), Cell::Num(512.0)])
            .collect();
        let headers = ["VM", "Provisioned MiB", "In Use MiB"].map(String::from);
        let full = workbook("vInfo", &headers, &rows);
        let bytes = if truncate {
            full[..cut.index(full.len())].to_vec()
        } else {
            mutate(full, &edits)
        };
        let r = parse(&bytes, Options::default());
        prop_assert!(names_what_was_expected(&r), "{r:?}");
    }

    #[test]
    fn shuffled_missing_and_garbage_columns_give_an_inventory_or_name_the_column(
        keep in prop::collection::vec(any::<bool>(), HEADERS.len()),
        order in Just((0..HEADERS.len() + 3).collect::<Vec<usize>>()).prop_shuffle(),
        garbage in prop::collection::vec("[a-z0-9 ]{0,10}", 1..4),
        rows in prop::collection::vec(prop::collection::vec(cell(), 0..12), 0..8),
        sheet in prop::sample::select(vec!["vInfo", "tabvInfo", "RVTools_tabvInfo"]),
    ) {
        // Garbage headers start with `Zz`, which no known column does.
        let mut columns: Vec<String> = Vec::new();
        for &i in &order {
            if i < HEADERS.len() {
                if keep[i] {
                    columns.push(HEADERS[i].to_owned());
                }
            } else if let Some(g) = garbage.get(i - HEADERS.len()) {
                columns.push(format!("Zz{g}"));
            }
        }
        let bytes = workbook(sheet, &columns, &rows);
        let r = parse(&bytes, Options { include_powered_off: true, ..Options::default() });
        let field = r.as_ref().err().and_then(InventoryError::field);
        if !keep[0] {
            prop_assert_eq!(field.as_deref(), Some("vInfo.VM"), "{:?}", r);
        } else if !keep[5] && !keep[6] {
            prop_assert_eq!(field.as_deref(), Some("vInfo.In Use MiB"), "{:?}", r);
        } else {
            match r {
                Ok(inv) => {
                    prop_assert!(inv.vms.len() + inv.excluded.len() <= rows.len());
                    prop_assert!(inv.vms.iter().all(|v| v.in_use_mib >= 0.0 && v.in_use_mib.is_finite()));
                    prop_assert_eq!(super::plausible::check(&inv), Ok(()));
                }
                // A garbage figure (negative, huge) is refused, naming its sheet and column.
                Err(e) => {
                    let figures = e.figures.as_ref().expect("only figures may be refused");
                    prop_assert!(figures.iter().all(|f| f.field.starts_with(&format!("{sheet}.")) && f.message.contains("outside 0 to")), "{:?}", e);
                }
            }
        }
    }
}
