//! The price sheet reader: what it reads, and every refusal naming its row and column.

use super::*;
use crate::engine::pricing;

/// The day the sheets of these tests are read.
const TODAY: &str = "2026-07-01";

const HEADER: &str = "service,level,region,meter,unit,price,currency,valid_as_of,source\n";

fn sheet(lines: &str) -> Result<Vec<Override>, FieldErrors> {
    parse(format!("{HEADER}{lines}").as_bytes(), 730.0, TODAY)
}

#[test]
fn gcnv_premium_anf_in_euros_and_an_avs_host() {
    let rows = sheet(
        "gcnv,premium,europe-west4,capacity,GiB-hour,0.000411,USD,2026-06-01,quote 117\n\
         Azure NetApp Files,premium,westeurope,capacity,GiB-month,0.25,EUR,2026-06-01,EA sheet\n\
         \n\
         avs,AV36P,westeurope,host,hour,9.8,USD,2026-06-01,MACC\n\
         gcnv,flex,us-central1,throughput_1y,MiBps-hour,0.0018,USD,2026-06-01,quote\n",
    )
    .unwrap();
    let got: Vec<(&str, &str, f64, &str)> = rows
        .iter()
        .map(|r| {
            (
                r.key.region.as_str(),
                r.key.item.as_str(),
                r.price,
                r.currency.as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("europe-west4", "premium", 0.30003, "USD"),
            ("westeurope", "premium", 0.25, "EUR"),
            ("westeurope", "AV36P", 9.8, "USD"),
            ("us-central1", "flex_throughput_1y", 1.314, "USD"),
        ]
    );
    assert_eq!(rows[0].source, "price sheet: quote 117");
    assert_eq!(rows[0].as_of, "2026-06-01");
}

#[test]
fn every_bad_row_is_named_with_its_column() {
    let e = sheet(
        "gcnv,premium,europe-west4,capacity,GiB-hour,0.0004,USD,2026-06-01,q\n\
         gcnv,premium,europe-west4,capacity,TB-month,0.0004,USD,2026-06-01,q\n\
         gcnv,ultra,europe-west4,capacity,GiB-hour,x,USD,2026-06-01,q\n",
    )
    .unwrap_err();
    let fields: Vec<&str> = e.iter().map(|f| f.field.as_str()).collect();
    assert_eq!(fields, ["rows[2].unit", "rows[3].level"]);
    assert!(
        e.first().message.starts_with("row 2 (line 3), unit:"),
        "{e}"
    );
    for (line, field) in [
        (
            "nas,premium,x,capacity,GiB-month,1,USD,2026-06-01,q",
            "rows[1].service",
        ),
        (
            "gcnv,ultra,us-central1,capacity,GiB-month,1,USD,2026-06-01,q",
            "rows[1].level",
        ),
        (
            "anf,premium,mars,capacity,GiB-month,1,USD,2026-06-01,q",
            "rows[1].region",
        ),
        (
            "anf,premium,eastus,capacity,GiB-month,-1,USD,2026-06-01,q",
            "rows[1].price",
        ),
        (
            "anf,premium,eastus,capacity,GiB-month,1,euro,2026-06-01,q",
            "rows[1].currency",
        ),
        (
            "anf,premium,eastus,capacity,GiB-month,1,USD,1 June,q",
            "rows[1].valid_as_of",
        ),
        (
            "anf,premium,eastus,capacity,GiB-month,1,USD,2026-06-01,",
            "rows[1].source",
        ),
    ] {
        assert_eq!(sheet(line).unwrap_err().first().field, field, "{line}");
    }
    let e = parse(b"service,level,region,price\n", 730.0, TODAY).unwrap_err();
    assert_eq!(e.first().field, "header");
    let e = parse(
        b"service,level,region,meter,unit,prise,currency,valid_as_of,source\n",
        730.0,
        TODAY,
    )
    .unwrap_err();
    assert!(e.first().message.contains("`prise`"), "{e}");
    assert_eq!(
        parse(HEADER.as_bytes(), 730.0, TODAY)
            .unwrap_err()
            .first()
            .field,
        "header"
    );
}

#[test]
fn rows_are_added_changed_or_unchanged_in_their_currency() {
    let rows = sheet(
        "anf,premium,eastus,capacity,GiB-month,0.29419,USD,2026-06-01,same\n\
         anf,ultra,eastus,capacity,GiB-month,0.3,USD,2026-06-01,cheaper\n\
         anf,ultra,eastus,capacity,GiB-month,0.3,EUR,2026-06-01,new currency\n",
    )
    .unwrap();
    let (store, counts) = plan(rows, pricing::book());
    assert_eq!(counts, [1, 1, 1]);
    assert_eq!(store.len(), 2);
}

#[test]
fn a_row_priced_twice_at_two_prices_is_refused_naming_both_rows() {
    let e = sheet(
        "anf,premium,westeurope,capacity,GiB-month,0.25,EUR,2026-06-01,EA\n\
         anf,ultra,westeurope,capacity,GiB-month,0.4,EUR,2026-06-01,EA\n\
         anf,premium,westeurope,capacity,GiB-month,0.27,EUR,2026-06-01,EA\n",
    )
    .unwrap_err();
    assert_eq!(e.len(), 1, "{e}");
    assert_eq!(e.first().field, "rows[3].price");
    assert!(e.first().message.contains("rows 1 and 3"), "{e}");
    // The same price twice (here once hourly, once monthly) is one price, kept once;
    // another currency is another row.
    let rows = sheet(
        "anf,premium,westeurope,capacity,GiB-month,0.365,EUR,2026-06-01,first\n\
         anf,premium,westeurope,capacity,GiB-hour,0.0005,EUR,2026-06-01,second\n\
         anf,premium,westeurope,capacity,GiB-month,0.4,USD,2026-06-01,dollars\n",
    )
    .unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].source, "price sheet: first");
}

#[test]
fn ten_thousand_lines_of_one_row_at_two_prices_are_refused() {
    let mut lines = String::new();
    for i in 0..10_000 {
        let price = if i % 2 == 0 { "0.25" } else { "0.26" };
        lines.push_str(&format!(
            "anf,premium,westeurope,capacity,GiB-month,{price},EUR,2026-06-01,q\n"
        ));
    }
    let e = sheet(&lines).unwrap_err();
    assert_eq!(e.len(), MAX_ERRORS, "listed up to the cap");
    assert!(e.first().message.contains("rows 1 and 2"), "{e}");
}

#[test]
fn a_column_named_twice_is_refused_with_both_positions() {
    let e = parse(
        b"service,level,region,meter,unit,price,currency,valid_as_of,source,price\n\
          anf,premium,eastus,capacity,GiB-month,1,USD,2026-06-01,q,2\n",
        730.0,
        TODAY,
    )
    .unwrap_err();
    assert_eq!(e.first().field, "header");
    assert!(
        e.first()
            .message
            .contains("`price` is named twice (columns 6 and 10)"),
        "{e}"
    );
}

#[test]
fn currencies_are_iso_4217_codes_in_use() {
    for (code, says) in [
        ("ABC", "not an ISO 4217 currency code"),
        ("XAU", "not an ISO 4217 currency code"),
        ("XTS", "not an ISO 4217 currency code"),
        ("eur", "not an ISO 4217 currency code"),
        ("HRK", "replaced by EUR"),
    ] {
        let e = sheet(&format!(
            "anf,premium,eastus,capacity,GiB-month,1,{code},2026-06-01,q\n"
        ))
        .unwrap_err();
        assert_eq!(e.first().field, "rows[1].currency", "{code}");
        assert!(e.first().message.contains(says), "{code}: {e}");
    }
    for code in ["USD", "EUR", "GBP", "JPY", "CHF", "SEK"] {
        sheet(&format!(
            "anf,premium,eastus,capacity,GiB-month,1,{code},2026-06-01,q\n"
        ))
        .unwrap_or_else(|e| panic!("{code}: {e}"));
    }
}

#[test]
fn dates_are_days_within_the_window() {
    for (date, says) in [
        ("0001-01-01", "outside the dates"),
        ("9999-12-31", "outside the dates"),
        ("2014-12-31", "outside the dates"),
        ("2028-07-02", "outside the dates"),
        ("2026-02-30", "not a day of the calendar"),
        ("2026-6-1", "not a date"),
    ] {
        let e = sheet(&format!(
            "anf,premium,eastus,capacity,GiB-month,1,USD,{date},q\n"
        ))
        .unwrap_err();
        assert_eq!(e.first().field, "rows[1].valid_as_of", "{date}");
        assert!(e.first().message.contains(says), "{date}: {e}");
    }
    for date in ["2015-01-01", "2024-02-29", "2028-07-01"] {
        sheet(&format!(
            "anf,premium,eastus,capacity,GiB-month,1,USD,{date},q\n"
        ))
        .unwrap_or_else(|e| panic!("{date}: {e}"));
    }
}

#[test]
fn a_quote_left_open_is_refused_with_its_row_and_the_rest_is_still_read() {
    let e = sheet(
        "anf,premium,eastus,capacity,GiB-month,1,USD,2026-06-01,\"EA sheet\n\
         anf,ultra,eastus,capacity,GiB-month,x,USD,2026-06-01,q\n\
         anf,standard,eastus,capacity,GiB-month,1,USD,2026-06-01,\"quoted, \"\"closed\"\"\"\n",
    )
    .unwrap_err();
    let fields: Vec<&str> = e.iter().map(|f| f.field.as_str()).collect();
    assert_eq!(fields, ["rows[1].source", "rows[2].price"], "{e}");
    assert!(e.first().message.contains("not closed"), "{e}");
    let e = sheet("anf,\"premium,eastus,capacity,GiB-month,1,USD,2026-06-01,q").unwrap_err();
    assert_eq!(e.first().field, "rows[1].level", "{e}");
    let e = parse(b"\"service,level\n", 730.0, TODAY).unwrap_err();
    assert_eq!(e.first().field, "header");
    let rows = sheet(
        "anf,standard,eastus,capacity,GiB-month,1,USD,2026-06-01,\"quoted, \"\"closed\"\"\"\n",
    )
    .unwrap();
    assert_eq!(rows[0].source, "price sheet: quoted, \"closed\"");
}

#[test]
fn rows_are_numbered_by_their_line_past_blank_lines() {
    let e = sheet(
        "anf,premium,eastus,capacity,GiB-month,1,USD,2026-06-01,q\n\
         \n\
         \n\
         anf,ultra,eastus,capacity,GiB-month,x,USD,2026-06-01,q\n",
    )
    .unwrap_err();
    assert_eq!(e.first().field, "rows[4].price", "{e}");
    assert!(e.first().message.starts_with("row 4 (line 5)"), "{e}");
}
