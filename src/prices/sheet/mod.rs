//! A price sheet: the user's own prices as CSV, one price a line, for what no public
//! price list covers (GCNV levels and regions, AVS hosts, negotiated EA or MACC rates):
//!
//! ```text
//! service,level,region,meter,unit,price,currency,valid_as_of,source
//! gcnv,premium,europe-west4,capacity,GiB-hour,0.000411,USD,2026-06-01,quote 2026-117
//! anf,premium,westeurope,capacity,GiB-month,0.25,EUR,2026-06-01,EA price sheet
//! avs,AV36P,westeurope,host,hour,9.80,USD,2026-06-01,MACC
//! ```
//!
//! `service` is `anf`, `avs`, `azure_files` or `gcnv` (or its name, "Google Cloud
//! NetApp Volumes"); `level` and `meter` name a row of the book (`prices::items`): the
//! item `<level>_<meter>` if there is one (`flexible` + `throughput`, `flex` +
//! `iops_1y`), else the level itself (`premium` + `capacity`, `AV36P` + `host`); `unit`
//! is the item's unit per month or per hour (hourly prices become monthly at the book's
//! hours). Every line is checked before anything is stored; every bad one is named
//! with its row number and column.
//!
//! A price sheet exported from Cost Management (Enterprise Agreement or Microsoft
//! Customer Agreement columns) is read as it comes (`cost_management`).

mod checks;
mod cost_management;

pub use checks::{EARLIEST_AS_OF, YEARS_AHEAD};

use super::items::{self, Item};
use super::rows::{self, Override, PricedService, RowKey};
use crate::engine::field_error::{Checks, FieldError, FieldErrors};
use crate::engine::pricing::PriceBook;
use serde::Serialize;

/// The columns of a sheet, in the order the template writes them.
pub const COLUMNS: [&str; 9] = [
    "service",
    "level",
    "region",
    "meter",
    "unit",
    "price",
    "currency",
    "valid_as_of",
    "source",
];

/// Most rows one sheet may hold.
pub const MAX_ROWS: usize = 20_000;

/// Most characters of a row's source.
pub const MAX_SOURCE: usize = 200;

/// Most bad rows one answer lists; past it the sheet is refused with the ones listed.
pub const MAX_ERRORS: usize = 50;

/// The field of a row's error: `rows[3].unit` (row 1 is the first line after the header).
fn row_field(row: usize, column: Option<&str>) -> String {
    match column {
        Some(c) => format!("rows[{row}].{c}"),
        None => format!("rows[{row}]"),
    }
}

/// The service a sheet names, by key or by the vendor's name.
fn service(text: &str) -> Option<PricedService> {
    let t = text.trim();
    PricedService::ALL
        .into_iter()
        .find(|s| s.key().eq_ignore_ascii_case(t) || s.display().eq_ignore_ascii_case(t))
}

/// The row a level and meter name: `<level>_<meter>` when the book has it, else the
/// level (the meter being its capacity, storage or host).
fn item(service: PricedService, level: &str, meter: &str) -> Option<&'static Item> {
    let key = |s: &str| s.trim().replace([' ', '-'], "_");
    let (level, meter) = (key(level), key(meter).to_ascii_lowercase());
    let find = |k: &str| {
        items::items()
            .iter()
            .find(|i| i.service == service && i.key.eq_ignore_ascii_case(k))
    };
    if !meter.is_empty()
        && let Some(i) = find(&format!("{level}_{meter}"))
    {
        return Some(i);
    }
    matches!(
        meter.as_str(),
        "" | "capacity" | "storage" | "host" | "price"
    )
    .then(|| find(&level))
    .flatten()
}

/// A unit as `(quantity, period)`: "GiB-hour" and "1 GiB/Hour" are `("gib", "hour")`,
/// "MiBps-month" is `("mib/s", "month")`, "GB" is `("gib", "")` (Azure bills a "GB"
/// of storage as 2^30 bytes).
fn unit_parts(unit: &str) -> (String, &'static str) {
    let u: String = unit
        .to_ascii_lowercase()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let u = u
        .trim_start_matches('1')
        .replace("/", "-")
        .replace("mibps", "mib-s");
    let (base, period) = if let Some(b) = u.strip_suffix("-month") {
        (b, "month")
    } else if let Some(b) = u.strip_suffix("-hour") {
        (b, "hour")
    } else if u == "hour" || u == "month" {
        ("", if u == "hour" { "hour" } else { "month" })
    } else {
        (u.as_str(), "")
    };
    let base = match base.replace("mib-s", "mib/s").as_str() {
        "gb" => "gib".to_owned(),
        "10koperations" | "10k-operations" | "10k" => "10koperations".to_owned(),
        other => other.to_owned(),
    };
    (base, period)
}

/// The factor from a sheet's `unit` to the item's unit (1, or the hours of a month
/// for an hourly price of a monthly item); `None` when they do not fit.
fn per_item_unit(sheet_unit: &str, item: &Item, hours: f64) -> Option<f64> {
    let (have, have_period) = unit_parts(sheet_unit);
    let (want, want_period) = unit_parts(item.unit);
    // A host-hour is also written "hour" or "host-hour".
    let same = have == want || (want == "host" && have.is_empty());
    match (same, have_period, want_period) {
        (false, _, _) => None,
        (true, a, b) if a == b => Some(1.0),
        (true, "hour", "month") => Some(hours),
        _ => None,
    }
}

/// The units a sheet may give for `item`, for messages.
fn units_of(item: &Item) -> String {
    match item.unit.strip_suffix("-month") {
        Some(base) => format!("{} or {base}-hour", item.unit),
        None => item.unit.to_owned(),
    }
}

/// Reads a sheet into prices to store, priced in the book's units (`hours` per month),
/// its dates checked against `today` (`YYYY-MM-DD`). Every bad row is named with its
/// column (up to [`MAX_ERRORS`]), `header` for the first line: a quote left open, a
/// cell that is not what its column takes, a date outside the window
/// ([`EARLIEST_AS_OF`] to [`YEARS_AHEAD`] years ahead), and a second
/// row for the same row of the book at another price (naming both; at the same price
/// the first is kept).
pub fn parse(bytes: &[u8], hours: f64, today: &str) -> Result<Vec<Override>, FieldErrors> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let header_err = |message: String| FieldErrors::from(FieldError::new("header", message));
    let open = checks::open_quotes(bytes);
    if open.first().is_some_and(|o| o.line == 1) {
        return Err(header_err(
            "a quote in the first line is not closed on it; close it with \" or remove it"
                .to_owned(),
        ));
    }
    let text = checks::without_lines(bytes, &open);
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_slice());
    let header = reader
        .headers()
        .map_err(|e| header_err(format!("not CSV ({e})")))?
        .clone();
    let names: Vec<String> = header.iter().map(str::to_ascii_lowercase).collect();
    let export = cost_management::is_export(&names);
    let index = if export {
        [0; 9]
    } else {
        checks::header(&names)?
    };
    let mut errors = BadRows::default();
    for o in open.iter().take(MAX_ERRORS) {
        let column = names
            .get(o.field)
            .cloned()
            .unwrap_or_else(|| format!("column {}", o.field + 1));
        let message = format!(
            "a quote opened in `{column}` is not closed on this line; close it with \" (a cell holds no line break)"
        );
        errors.push(o.line - 1, &column, message);
    }
    if export {
        return cost_management::parse(&mut reader, &names, errors, hours, today);
    }
    // The row of a record, by where it starts: the reader's positions (its line and
    // byte) are those before the blank lines it skips.
    let breaks: Vec<usize> = text
        .iter()
        .enumerate()
        .filter_map(|(i, b)| (*b == b'\n').then_some(i))
        .collect();
    let row_at = |p: Option<&csv::Position>| {
        let from = p.map_or(0, |p| usize::try_from(p.byte()).unwrap_or(usize::MAX));
        let start = from
            + text.get(from..).map_or(0, |rest| {
                rest.iter()
                    .take_while(|b| matches!(b, b'\n' | b'\r'))
                    .count()
            });
        breaks.partition_point(|&b| b < start)
    };
    let mut out = Vec::new();
    let mut seen = checks::Seen::default();
    for record in reader.records() {
        if errors.count >= MAX_ERRORS {
            break;
        }
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let row = row_at(e.position());
                errors.whole(row, format!("not CSV ({e})"));
                break;
            }
        };
        if record.iter().all(str::is_empty) {
            continue;
        }
        let row = row_at(record.position());
        if out.len() + errors.count >= MAX_ROWS {
            errors.whole(
                row,
                format!("a sheet holds at most {MAX_ROWS} prices; split it"),
            );
            break;
        }
        let cells: [&str; 9] = index.map(|i| record.get(i).unwrap_or(""));
        let checked = line(&cells, hours, today).and_then(|o| {
            let first = seen.first(row, &o).map_err(|m| ("price", m))?;
            Ok(first.then_some(o))
        });
        match checked {
            Ok(Some(o)) => out.push(o),
            Ok(None) => {}
            Err((column, message)) => errors.push(row, column, message),
        }
    }
    errors.checks.finish()?;
    if out.is_empty() {
        return Err(header_err(
            "the sheet has no prices: one line per price after the header".to_owned(),
        ));
    }
    Ok(out)
}

/// The bad rows of a sheet: at most [`MAX_ERRORS`] are listed.
#[derive(Default)]
struct BadRows {
    checks: Checks,
    count: usize,
}

impl BadRows {
    /// Records a bad cell of `row`.
    fn push(&mut self, row: usize, column: &str, message: String) {
        self.checks.push(FieldError::new(
            row_field(row, Some(column)),
            format!("row {row} (line {}), {column}: {message}", row + 1),
        ));
        self.count += 1;
    }

    /// Records what stops the reading at `row`.
    fn whole(&mut self, row: usize, message: String) {
        self.checks
            .push(FieldError::new(row_field(row, None), message));
    }
}

/// One line of a sheet, its cells in the order of [`COLUMNS`].
fn line(cells: &[&str; 9], hours: f64, today: &str) -> Result<Override, (&'static str, String)> {
    let get = |i: usize| cells[i];
    let service = service(get(0)).ok_or_else(|| {
        (
            "service",
            format!(
                "`{}` is not a priced service; use anf, avs, azure_files or gcnv",
                clip(get(0))
            ),
        )
    })?;
    let it = item(service, get(1), get(3)).ok_or_else(|| {
        (
            "level",
            format!(
                "{} has no row for level `{}` and meter `{}`; the Prices page's entry form lists every row (e.g. premium with capacity, flex with throughput)",
                service.display(),
                clip(get(1)),
                clip(get(3))
            ),
        )
    })?;
    let factor = per_item_unit(get(4), it, hours).ok_or_else(|| {
        (
            "unit",
            format!(
                "`{}` does not fit {} ({}); use {}",
                clip(get(4)),
                it.label,
                service.display(),
                units_of(it)
            ),
        )
    })?;
    let price: f64 = get(5).parse().map_err(|_| {
        (
            "price",
            format!(
                "`{}` is not a price; write it as a number such as 0.25",
                clip(get(5))
            ),
        )
    })?;
    // As the book's script turns hourly prices monthly: 6 decimals.
    let price = if factor == 1.0 {
        price
    } else {
        (price * factor * 1e6).round() / 1e6
    };
    let key = RowKey {
        service,
        region: get(2).to_owned(),
        item: it.key.clone(),
    };
    rows::check_row(&key, price).map_err(|e| {
        let column = match e.field {
            "region" => "region",
            "price" => "price",
            _ => "level",
        };
        (column, e.message)
    })?;
    let currency = rows::check_currency(get(6)).map_err(|e| ("currency", e.message))?;
    let as_of = checks::as_of(get(7), today).map_err(|m| ("valid_as_of", m))?;
    let source: String = get(8).chars().filter(|c| !c.is_control()).collect();
    if source.is_empty() || source.chars().count() > MAX_SOURCE {
        return Err((
            "source",
            format!("say where the price comes from in 1 to {MAX_SOURCE} characters"),
        ));
    }
    Ok(Override {
        key,
        price,
        currency: currency.to_owned(),
        region_name: None,
        as_of,
        source: format!("price sheet: {source}"),
    })
}

/// A value shortened for a message.
fn clip(s: &str) -> String {
    let short: String = s.chars().filter(|c| !c.is_control()).take(40).collect();
    if short.chars().count() < s.chars().count() {
        format!("{short}...")
    } else {
        short
    }
}

/// What a sheet did to the book (answer of `POST /api/v1/prices/sheet`).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct SheetOutcome {
    /// Rows the book in force had no price for (in that currency).
    pub added: usize,
    /// Rows whose price changed.
    pub changed: usize,
    /// Rows with the same price: not stored again.
    pub unchanged: usize,
    /// True when the added and changed rows were stored (false for a dry run or when
    /// nothing changes).
    pub stored: bool,
    /// The book in force after.
    pub price_book: crate::engine::evaluation::PriceBookRef,
}

/// Splits `rows` (one per row of the book and currency, as [`parse`] reads them)
/// against `book`: the added and changed ones (to store), and the counts of added,
/// changed and unchanged rows.
pub fn plan(rows: Vec<Override>, book: &PriceBook) -> (Vec<Override>, [usize; 3]) {
    let mut counts = [0; 3];
    let store = rows
        .into_iter()
        .filter(|r| {
            let old = book.in_currency(&r.currency).and_then(|b| b.get(&r.key));
            let i = match old {
                None => 0,
                Some(o) if o != r.price => 1,
                Some(_) => 2,
            };
            counts[i] += 1;
            i < 2
        })
        .collect();
    (store, counts)
}

#[cfg(test)]
mod tests;
