//! The one formatter: how a figure reads in the verdict's statements, on every page, in
//! every report format, on every chart axis and on the command line. A room of its own
//! just above the engine, so the verdict and the reports write figures alike.
//!
//! Each kind of figure has one function here, so the same figure gives the same text
//! wherever it is shown (a monthly cost is "$20,659.26" in the planner, the HTML, PDF
//! and Markdown reports, the Excel cell's number format and the CLI). The digits come
//! from [`Num`], which the engine's limit labels use too: thousands separated by `,`,
//! trailing zeros trimmed.

pub use crate::engine::trace::Num;
use crate::engine::trace::{Exact, Given, Sig};

/// Shown where a level or a line has no public price.
pub const NOT_PRICED: &str = "no list price";

/// A number with thousands separators and at most `decimals` decimals ("12,800", "6.25").
pub fn num(v: f64, decimals: usize) -> String {
    Num(v, decimals).to_string()
}

/// A whole count with thousands separators ("5,000").
pub fn count(n: u64) -> String {
    Num(n as f64, 0).to_string()
}

/// A number as an error message quotes the input it refuses: as written when ordinary
/// ("0.1", "16384"), "1e308" or "5e-324" when huge or tiny, "not a number", "infinite".
pub fn given(v: f64) -> String {
    Given(v).to_string()
}

/// A headline figure: the whole number up to 9,999, else 3 significant digits
/// ("8,921", "164,000", "64.3").
pub fn sig(v: f64) -> String {
    Sig(v).to_string()
}

/// A likely range with the headline's precision: "3,100-3,900".
pub fn range([lo, hi]: [f64; 2]) -> String {
    format!("{}-{}", sig(lo), sig(hi))
}

/// A likely range of milliseconds, each end as [`ms`] writes it: "0.9-1.3".
pub fn ms_range([lo, hi]: [f64; 2]) -> String {
    format!("{}-{}", ms(lo), ms(hi))
}

/// A rate or count in a table, exact to the unit ("10,001"; "6.25" below 10).
pub fn exact(v: f64) -> String {
    Exact(v).to_string()
}

/// A capacity in TiB, to two decimals as quotas and pools are entered ("20", "5.2").
pub fn tib(v: f64) -> String {
    Num(v, 2).to_string()
}

/// A percentage with at most `decimals` decimals ("12.5%").
pub fn pct(v: f64, decimals: usize) -> String {
    if v.is_finite() {
        format!("{}%", Num(v, decimals))
    } else {
        "unlimited".to_owned()
    }
}

/// A change in percent with its sign ("+27.6%", "-3.1%"); whole percent from 100 % up.
pub fn signed_pct(v: f64) -> String {
    if !v.is_finite() {
        return "unlimited".to_owned();
    }
    let sign = if v > 0.0 { "+" } else { "" };
    let decimals = if v.abs() >= 100.0 { 0 } else { 1 };
    format!("{sign}{}%", Num(v, decimals))
}

/// Milliseconds with at most three significant digits: `3.47`, `0.312`, `12.4`, `125`.
pub fn ms(v: f64) -> String {
    Num(v, ms_decimals(v)).to_string()
}

/// A rate with its unit, exact to the unit: "4,337 MiB/s", "6.25 MiB/s".
pub fn mibps(v: f64) -> String {
    format!("{} MiB/s", exact(v))
}

/// A latency with its unit: "4.69 ms", "0.312 ms", "12.6 ms".
pub fn millis(v: f64) -> String {
    format!("{} ms", ms(v))
}

/// A capacity with its unit: "50 TiB", "1.25 TiB".
pub fn capacity(v: f64) -> String {
    format!("{} TiB", tib(v))
}

/// A share without its sign, whole percent from 10 up: "8.4%", "20%".
pub fn share(v: f64) -> String {
    pct(v.abs(), if v.abs() >= 10.0 { 0 } else { 1 })
}

/// The decimals [`ms`] writes `v` with.
pub fn ms_decimals(v: f64) -> usize {
    match v.abs() {
        a if a >= 100.0 => 0,
        a if a >= 10.0 => 1,
        a if a >= 1.0 => 2,
        _ => 3,
    }
}

/// The decimals [`sig`] writes `v` with (the whole number from 100 up).
pub fn sig_decimals(v: f64) -> usize {
    let a = v.abs();
    if a >= 100.0 || a == 0.0 || !a.is_finite() {
        0
    } else {
        (2 - a.log10().floor() as i64).clamp(0, 9) as usize
    }
}

/// The symbol written before an amount in `currency`, where it has a common one.
fn symbol(currency: &str) -> Option<&'static str> {
    match currency {
        "USD" => Some("$"),
        "EUR" => Some("€"),
        "GBP" => Some("£"),
        _ => None,
    }
}

/// An amount of money: "$20,659.26", "€1,234.50", "1,234.50 CHF" (always two decimals,
/// so a column of amounts lines up).
pub fn money(v: f64, currency: &str) -> String {
    if !v.is_finite() {
        return NOT_PRICED.to_owned();
    }
    let sign = if v < 0.0 && (v * 100.0).round() != 0.0 {
        "-"
    } else {
        ""
    };
    let digits = two_decimals(v.abs());
    match symbol(currency) {
        Some(s) => format!("{sign}{s}{digits}"),
        None => format!("{sign}{digits} {currency}"),
    }
}

/// An amount on a chart axis: whole units, no cents ("$60,000").
pub fn money_tick(v: f64, currency: &str) -> String {
    let whole = num(v.abs().round(), 0);
    let sign = if v.round() < 0.0 { "-" } else { "" };
    match symbol(currency) {
        Some(s) => format!("{sign}{s}{whole}"),
        None => format!("{sign}{whole} {currency}"),
    }
}

/// What a line without a price says: [`NOT_PRICED`] in USD (the public list's
/// currency), "no EUR price" in another (the book's list in it lacks the row; no price
/// is ever converted).
pub fn not_priced_in(currency: &str) -> String {
    if currency == "USD" {
        NOT_PRICED.to_owned()
    } else {
        format!("no {currency} price")
    }
}

/// An amount or [`NOT_PRICED`] without a price.
pub fn money_or(v: Option<f64>, currency: &str) -> String {
    v.map_or_else(|| NOT_PRICED.to_owned(), |v| money(v, currency))
}

/// A monthly amount: "$14,446.20/month", or [`NOT_PRICED`] without a price.
pub fn monthly(v: Option<f64>, currency: &str) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{}/month", money(v, currency)),
        _ => NOT_PRICED.to_owned(),
    }
}

/// A difference in money with its sign: "+$12.00", "-$3.50", "±$0.00".
pub fn signed_money(delta: f64, currency: &str) -> String {
    let cents = (delta * 100.0).round();
    let sign = if cents > 0.0 {
        "+"
    } else if cents < 0.0 {
        "-"
    } else {
        "±"
    };
    format!("{sign}{}", money(delta.abs(), currency))
}

/// `v` with exactly two decimals and thousands separators ("1,234.50").
fn two_decimals(v: f64) -> String {
    let text = Num(v, 2).to_string();
    match text.split_once('.') {
        Some((_, frac)) if frac.len() == 1 => format!("{text}0"),
        Some(_) => text,
        None => format!("{text}.00"),
    }
}

/// A change with its sign, `decimals` at most: "+1,234", "-5.5", "±0".
pub fn signed(v: f64, decimals: usize) -> String {
    let sign = if v > 0.0 {
        "+"
    } else if v < 0.0 {
        "-"
    } else {
        "±"
    };
    format!("{sign}{}", Num(v.abs(), decimals))
}

/// A price's digits as a price list writes them: at least two and at most six decimals
/// ("0.29", "0.000082", "10.00"), no currency.
pub fn price_digits(v: f64) -> String {
    let text = Num(v.abs(), 6).to_string();
    let decimals = text.split_once('.').map_or(0, |(_, f)| f.len());
    let digits = if decimals < 2 {
        two_decimals(v.abs())
    } else {
        text
    };
    let sign = if v < 0.0 { "-" } else { "" };
    format!("{sign}{digits}")
}

/// A unit price as a price list writes it: "$0.29", "$0.000082".
pub fn unit_price(v: f64, currency: &str) -> String {
    let digits = price_digits(v.abs());
    let sign = if v < 0.0 { "-" } else { "" };
    match symbol(currency) {
        Some(s) => format!("{sign}{s}{digits}"),
        None => format!("{sign}{digits} {currency}"),
    }
}

/// The Excel number format that shows a figure as [`money`] writes it.
pub fn xlsx_money(currency: &str) -> String {
    match symbol(currency) {
        Some(s) => format!("\"{s}\"#,##0.00"),
        None => format!("#,##0.00 \"{currency}\""),
    }
}

/// The Excel number format for a figure in `unit` with `decimals` decimals: thousands
/// separators and the unit as a suffix (`#,##0.0 "MiB/s"`).
pub fn xlsx_unit(unit: &str, decimals: usize) -> String {
    let base = if decimals == 0 {
        "#,##0".to_owned()
    } else {
        format!("#,##0.{}", "0".repeat(decimals))
    };
    match unit {
        "" => base,
        "%" => format!("{base}\"%\""),
        u => format!("{base} \"{u}\""),
    }
}

/// An axis label: thousands separators, decimals only below 10 ("60,000", "2.5", "0.25").
pub fn tick(v: f64) -> String {
    let d = match v.abs() {
        a if a >= 10.0 || v == v.trunc() => 0,
        a if a >= 1.0 => 1,
        a if a >= 0.01 => 2,
        _ => 6,
    };
    Num(v, d).to_string()
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A date in words ("29 January 2026") from `YYYY-MM-DD` (a longer timestamp is cut to
/// its date); other text is returned as it is.
pub fn date_words(iso: &str) -> String {
    let date = iso.get(..10).unwrap_or(iso);
    let mut parts = date.split('-');
    let (Some(y), Some(m), Some(d), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return iso.to_owned();
    };
    match (y.parse::<u32>(), m.parse::<usize>(), d.parse::<u32>()) {
        (Ok(y), Ok(m @ 1..=12), Ok(d @ 1..=31)) if y >= 1000 => {
            format!("{d} {} {y}", MONTHS[m - 1])
        }
        _ => iso.to_owned(),
    }
}

/// A period's start on a time axis, from an RFC 3339 UTC time: the day ("3 Nov"), with
/// the hour when `hourly` ("3 Nov 14:00"); other text is returned as it is.
pub fn period_tick(iso: &str, hourly: bool) -> String {
    let (Some(m), Some(d), Some(h)) = (iso.get(5..7), iso.get(8..10), iso.get(11..16)) else {
        return iso.to_owned();
    };
    let (Ok(m @ 1..=12), Ok(d)) = (m.parse::<usize>(), d.parse::<u32>()) else {
        return iso.to_owned();
    };
    let day = format!("{d} {}", &MONTHS[m - 1][..3]);
    if hourly { format!("{day} {h}") } else { day }
}

/// A yes/no cell.
pub fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_period_start_reads_as_its_day_or_hour() {
        assert_eq!(period_tick("2026-11-03T00:00:00Z", false), "3 Nov");
        assert_eq!(period_tick("2026-11-03T14:00:00Z", true), "3 Nov 14:00");
        assert_eq!(period_tick("later", true), "later");
    }

    #[test]
    fn money_always_has_two_decimals_and_its_currency() {
        assert_eq!(money(20_659.26, "USD"), "$20,659.26");
        assert_eq!(money(1234.5, "USD"), "$1,234.50");
        assert_eq!(money(12_345.0, "USD"), "$12,345.00");
        assert_eq!(money(1234.5, "EUR"), "€1,234.50");
        assert_eq!(money(1234.5, "CHF"), "1,234.50 CHF");
        assert_eq!(money(-3.5, "USD"), "-$3.50");
        assert_eq!(money(-0.001, "USD"), "$0.00");
        assert_eq!(money_or(None, "USD"), NOT_PRICED);
        assert_eq!(money(f64::NAN, "USD"), NOT_PRICED);
        assert_eq!(signed_money(12.0, "USD"), "+$12.00");
        assert_eq!(money_tick(60_000.0, "USD"), "$60,000");
        assert_eq!(signed_money(-0.001, "USD"), "±$0.00");
        assert_eq!(unit_price(0.000082, "USD"), "$0.000082");
        assert_eq!(unit_price(0.29, "USD"), "$0.29");
        assert_eq!(unit_price(2.0, "EUR"), "€2.00");
        assert_eq!(price_digits(0.000273973), "0.000274");
        assert_eq!(price_digits(10.0), "10.00");
        assert_eq!(signed(1234.4, 0), "+1,234");
        assert_eq!(signed(0.0, 1), "±0");
        assert_eq!(price_digits(0.000273973), "0.000274");
        assert_eq!(price_digits(10.0), "10.00");
        assert_eq!(signed(1234.4, 0), "+1,234");
        assert_eq!(signed(0.0, 1), "±0");
        assert_eq!(xlsx_money("USD"), "\"$\"#,##0.00");
        assert_eq!(xlsx_money("CHF"), "#,##0.00 \"CHF\"");
    }

    #[test]
    fn figures_units_and_ticks() {
        assert_eq!(sig(8921.4), "8,921");
        assert_eq!(sig(163_840.0), "164,000");
        assert_eq!(exact(6.25), "6.25");
        assert_eq!(count(5000), "5,000");
        assert_eq!(pct(12.46, 1), "12.5%");
        assert_eq!(signed_pct(27.61), "+27.6%");
        assert_eq!(signed_pct(150.4), "+150%");
        assert_eq!(ms(3.4712), "3.47");
        assert_eq!(ms(0.31234), "0.312");
        assert_eq!(tick(60_000.0), "60,000");
        assert_eq!(tick(5.0), "5");
        assert_eq!(tick(2.5), "2.5");
        assert_eq!(tick(0.25), "0.25");
        assert_eq!(xlsx_unit("MiB/s", 1), "#,##0.0 \"MiB/s\"");
        assert_eq!(xlsx_unit("%", 0), "#,##0\"%\"");
    }

    #[test]
    fn dates_in_words() {
        assert_eq!(date_words("2026-01-29"), "29 January 2026");
        assert_eq!(date_words("2026-12-01T10:00:00Z"), "1 December 2026");
        assert_eq!(date_words("soon"), "soon");
        assert_eq!(date_words("2026-13-01"), "2026-13-01");
    }
}
