//! The checks of a price sheet that the CSV reader does not make: every quote closed on
//! its own line, a header naming each column once, one price per row of the book, and
//! a valid-as-of date that is a day of the calendar within the window prices can have.
//!
//! The `csv` crate reads a quote left open as a field that runs on to the end of the
//! file (it reports no error), so the quoting is checked here, line by line, before the
//! reader sees the text: a price sheet's cells never hold a line break.

use super::COLUMNS;
use crate::engine::field_error::{Checks, FieldError, FieldErrors};
use crate::prices::retail::date_part;
use crate::prices::rows::{Override, RowKey};
use std::collections::HashMap;

/// The earliest date a price may be valid as of: none of the services the book prices
/// was sold before 2015 (Azure Files, the oldest, became generally available that year).
pub const EARLIEST_AS_OF: &str = "2015-01-01";

/// How many years past today a price may be valid as of: a price list announced ahead
/// starts within months, so a date further out is a typing error (9999-12-31).
pub const YEARS_AHEAD: i32 = 2;

/// A line whose quote is still open at its end: its line number (1 is the header) and
/// the field (0-based) the quote opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct OpenQuote {
    pub line: usize,
    pub field: usize,
}

/// The lines of `text` that leave a quoted field open at their end. A quote opens a
/// field only at its start (as RFC 4180 and the reader read it); `""` inside a quoted
/// field is a quote character.
pub(super) fn open_quotes(text: &[u8]) -> Vec<OpenQuote> {
    let mut open = Vec::new();
    for (i, line) in text.split(|b| *b == b'\n').enumerate() {
        let (mut field, mut quoted, mut at_start) = (0, false, true);
        let mut bytes = line.iter().peekable();
        while let Some(&b) = bytes.next() {
            match (quoted, b) {
                (false, b'"') if at_start => quoted = true,
                (false, b',') => {
                    field += 1;
                    at_start = true;
                    continue;
                }
                (true, b'"') if bytes.peek() == Some(&&b'"') => {
                    bytes.next();
                }
                (true, b'"') => quoted = false,
                _ => {}
            }
            at_start = false;
        }
        if quoted {
            open.push(OpenQuote { line: i + 1, field });
        }
    }
    open
}

/// `text` with the lines `open` names emptied (their line breaks kept, so the reader
/// numbers the other lines as the file does).
pub(super) fn without_lines(text: &[u8], open: &[OpenQuote]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for (i, line) in text.split(|b| *b == b'\n').enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        if !open.iter().any(|o| o.line == i + 1) {
            out.extend_from_slice(line);
        }
    }
    out
}

/// Where each of [`COLUMNS`] is in the header `names` (lowercased); every unknown,
/// repeated and missing column is named.
pub(super) fn header(names: &[String]) -> Result<[usize; 9], FieldErrors> {
    let mut errors = Checks::default();
    let mut push = |message: String| errors.push(FieldError::new("header", message));
    for (i, name) in names.iter().enumerate() {
        if !COLUMNS.contains(&name.as_str()) {
            push(format!(
                "`{}` (column {}) is not a column of a price sheet; the columns are {}",
                super::clip(name),
                i + 1,
                COLUMNS.join(", ")
            ));
        } else if let Some(first) = names[..i].iter().position(|n| n == name) {
            push(format!(
                "the column `{name}` is named twice (columns {} and {}); keep one",
                first + 1,
                i + 1
            ));
        }
    }
    let mut index = [0usize; 9];
    for (slot, c) in index.iter_mut().zip(COLUMNS) {
        match names.iter().position(|n| n == c) {
            Some(i) => *slot = i,
            None => push(format!(
                "the column `{c}` is missing; the first line names the columns {}",
                COLUMNS.join(", ")
            )),
        }
    }
    errors.finish().map(|()| index)
}

/// The valid-as-of date of a line: `YYYY-MM-DD`, a day of the calendar, from
/// [`EARLIEST_AS_OF`] to [`YEARS_AHEAD`] years after `today` (`YYYY-MM-DD`).
pub(super) fn as_of(text: &str, today: &str) -> Result<String, String> {
    let not_a_date = || format!("`{}` is not a date; write it YYYY-MM-DD", super::clip(text));
    let date = date_part(text)
        .filter(|d| d.len() == text.len())
        .ok_or_else(not_a_date)?;
    let part = |r: std::ops::Range<usize>| date[r].parse::<u16>().unwrap_or(0);
    let month = time::Month::try_from(part(5..7) as u8).map_err(|_| not_a_date())?;
    if time::Date::from_calendar_date(i32::from(part(0..4)), month, part(8..10) as u8).is_err() {
        return Err(format!("{date} is not a day of the calendar"));
    }
    let latest = latest_as_of(today);
    if date.as_str() < EARLIEST_AS_OF || date > latest {
        return Err(format!(
            "{date} is outside the dates a price can be valid as of, {EARLIEST_AS_OF} to {latest} ({YEARS_AHEAD} years from today); write the date the price list or quote starts"
        ));
    }
    Ok(date)
}

/// The latest valid-as-of date: [`YEARS_AHEAD`] years after `today`.
fn latest_as_of(today: &str) -> String {
    let year = today
        .get(..4)
        .and_then(|y| y.parse::<i32>().ok())
        .unwrap_or(2026);
    format!(
        "{}{}",
        year + YEARS_AHEAD,
        today.get(4..).unwrap_or("-12-31")
    )
}

/// The rows of the book a sheet has priced so far: each row (and currency) once.
#[derive(Default)]
pub(super) struct Seen(HashMap<(RowKey, String), (usize, f64)>);

impl Seen {
    /// Records `o` from sheet row `row`: true when it prices a row for the first time,
    /// false when an earlier row gave it the same price (one price, kept once), the
    /// message when an earlier row gave it another price.
    pub fn first(&mut self, row: usize, o: &Override) -> Result<bool, String> {
        match self.0.get(&(o.key.clone(), o.currency.clone())) {
            None => {
                self.0
                    .insert((o.key.clone(), o.currency.clone()), (row, o.price));
                Ok(true)
            }
            Some(&(_, price)) if price == o.price => Ok(false),
            Some(&(earlier, price)) => Err(format!(
                "rows {earlier} and {row} price the same row ({} {} in {}, {}) at {price} and {}; keep the one that is right",
                o.key.service.key(),
                o.key.item,
                o.key.region,
                o.currency,
                o.price
            )),
        }
    }
}
