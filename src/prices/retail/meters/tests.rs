//! Retail Prices API items to rows: each meter the book holds, the rules of
//! `tools/price_book.py`, and what is ignored or refused.

use super::*;

fn item(meter: &str, region: &str, price: f64, unit: &str) -> RetailItem {
    RetailItem {
        index: 0,
        currency: "USD".into(),
        retail_price: price,
        region: region.into(),
        location: "US East".into(),
        effective_start: "2025-09-01".into(),
        meter_id: "id".into(),
        meter_name: meter.into(),
        product_name: "Azure NetApp Files".into(),
        sku_name: String::new(),
        arm_sku_name: String::new(),
        service_name: "Azure NetApp Files".into(),
        unit: unit.into(),
        kind: "Consumption".into(),
        tier_minimum: 0.0,
        primary: true,
    }
}

fn price(m: &Mapped, item: &str) -> f64 {
    m.rows
        .iter()
        .find(|r| r.key.item == item)
        .unwrap_or_else(|| panic!("no {item} in {m:?}"))
        .price
}

#[test]
fn anf_meters_become_monthly_rows_as_the_book_script_makes_them() {
    let m = map(
        &[
            item("Standard Capacity", "eastus", 0.000202, "1 GiB/Hour"),
            item(
                "Flexible Service Level Throughput MiBps",
                "eastus",
                0.003082,
                "1/Hour",
            ),
            item("Backup Capacity", "eastus", 0.05, "1 GiB/Month"),
            item(
                "Standard Storage with Cool Access Data Transfer",
                "eastus",
                0.02,
                "1 GiB",
            ),
            item(
                "Standard Double Encrypted Capacity",
                "eastus",
                0.0003,
                "1 GiB/Hour",
            ),
        ],
        730.0,
    );
    assert_eq!(price(&m, "standard"), 0.14746);
    assert_eq!(price(&m, "flexible_throughput"), 2.24986);
    assert_eq!(price(&m, "backup"), 0.05);
    assert_eq!(price(&m, "cool_transfer"), 0.02);
    assert_eq!(m.rows.len(), 4);
    assert_eq!(m.ignored.len(), 1);
    // The compiled book holds the same figures.
    let (_, e) = pricing::book().anf("eastus").unwrap();
    assert_eq!(
        (e.standard, e.flexible_throughput),
        (Some(0.14746), Some(2.24986))
    );
}

#[test]
fn replication_takes_the_most_common_rate_of_a_region() {
    let m = map(
        &[
            item(
                "Cross Region Replication Minutes",
                "eastus",
                0.14,
                "1 GiB/Hour",
            ),
            item(
                "Cross Region Replication - US East to US West Minutes",
                "eastus",
                0.14,
                "1 GiB/Hour",
            ),
            item(
                "CRR - US East to US North Central Minutes",
                "eastus",
                0.16,
                "1 GiB/Hour",
            ),
            item(
                "Cross Region Replication Hours",
                "eastus",
                0.12,
                "1 GiB/Hour",
            ),
            item(
                "Cross Region Replication Hours",
                "eastus",
                0.13,
                "1 GiB/Hour",
            ),
        ],
        730.0,
    );
    assert_eq!(price(&m, "crr_10min"), 0.14);
    assert_eq!(price(&m, "crr_hourly"), 0.12);
}

#[test]
fn a_price_in_another_currency_is_a_row_in_that_currency() {
    let usd = item("Ultra Capacity", "westeurope", 0.000538, "1 GiB/Hour");
    let mut eur = usd.clone();
    eur.currency = "EUR".into();
    eur.retail_price = 0.0005;
    let mut bad = usd.clone();
    bad.currency = "euro".into();
    let m = map(&[usd, eur, bad], 730.0);
    let codes: Vec<(&str, f64)> = m
        .rows
        .iter()
        .map(|r| (r.currency.as_str(), r.price))
        .collect();
    assert_eq!(codes, [("EUR", 0.365), ("USD", 0.39274)]);
    assert_eq!(
        m.ignored,
        [("a currencyCode that is not an ISO 4217 code", 1)]
    );
}

#[test]
fn azure_files_pages_price_v1_v2_and_pay_as_you_go() {
    let files = |product: &str, sku: &str, meter: &str, price: f64, unit: &str| {
        let mut i = item(meter, "westeurope", price, unit);
        i.service_name = "Storage".into();
        i.product_name = product.into();
        i.sku_name = sku.into();
        i
    };
    let v2 = "Azure Files Provisioned v2";
    let mut paid_iops = files(
        v2,
        "SSD LRS",
        "SSD LRS Provisioned IOPS",
        0.000037,
        "1/Hour",
    );
    paid_iops.tier_minimum = 3000.0;
    let m = map(
        &[
            files(
                v2,
                "SSD LRS",
                "SSD LRS Provisioned Storage",
                0.000137,
                "1 GiB/Hour",
            ),
            files(v2, "SSD LRS", "SSD LRS Provisioned IOPS", 0.0, "1/Hour"),
            paid_iops,
            files(
                v2,
                "SSD ZRS",
                "SSD ZRS Provisioned Throughput MiBPS",
                0.00007,
                "1/Hour",
            ),
            files(
                "Premium Files",
                "Premium LRS",
                "Premium LRS Provisioned",
                0.16,
                "1 GiB/Month",
            ),
            files(
                "Files v2",
                "Hot LRS",
                "Hot LRS Data Stored",
                0.0255,
                "1 GB/Month",
            ),
            files(
                "Files v2",
                "Standard GRS",
                "GRS Write Operations",
                0.03,
                "10K",
            ),
            files(
                "Files v2",
                "Cool LRS",
                "Cool LRS Data Retrieval",
                0.01,
                "1 GB",
            ),
            files("Files v2", "Hot LRS", "Hot LRS Something New", 0.01, "1 GB"),
        ],
        730.0,
    );
    let got: Vec<(&str, f64)> = m
        .rows
        .iter()
        .map(|r| (r.key.item.as_str(), r.price))
        .collect();
    assert_eq!(
        got,
        [
            ("hdd_payg_cool_retrieval", 0.01),
            ("hdd_payg_grs_write", 0.03),
            ("hdd_payg_hot", 0.0255),
            ("ssd_v1", 0.16),
            ("ssd_v2", 0.10001),
            ("ssd_v2_iops", 0.02701),
            ("ssd_v2_zrs_throughput", 0.0511),
        ]
    );
    assert_eq!(m.ignored.iter().map(|(_, n)| n).sum::<usize>(), 2);
}

#[test]
fn what_the_book_does_not_hold_is_counted_as_ignored() {
    let mut reservation = item("Ultra Capacity", "eastus", 0.0005, "1 GiB/Hour");
    reservation.kind = "Reservation".into();
    let m = map(
        &[
            reservation,
            item("Standard Capacity", "", 0.0002, "1 GiB/Hour"),
            item("Standard Capacity", "eastus", 0.0, "1 GiB/Hour"),
            item("Standard Capacity", "marsnorth", 0.0002, "1 GiB/Hour"),
        ],
        730.0,
    );
    assert!(m.rows.is_empty());
    assert_eq!(m.ignored.iter().map(|(_, n)| n).sum::<usize>(), 4);
}

#[test]
fn an_item_at_a_price_no_row_can_hold_is_refused_with_its_reason() {
    let mut huge = item("Ultra Capacity", "eastus", 1e308, "1 GiB/Hour");
    huge.index = 3;
    let m = map(
        &[
            huge,
            item("Premium Capacity", "eastus", 2e6, "1 GiB/Month"),
            item(
                "Cross Region Replication Minutes",
                "eastus",
                1e7,
                "1 GiB/Hour",
            ),
            item("Standard Capacity", "eastus", 0.000202, "1 GiB/Hour"),
        ],
        730.0,
    );
    assert_eq!(m.rows.len(), 1, "only Standard is a row: {m:?}");
    assert!(m.ignored.is_empty());
    let refused: Vec<(usize, &str)> = m
        .refused
        .iter()
        .map(|r| (r.index, r.meter.as_str()))
        .collect();
    assert_eq!(
        refused,
        [
            (3, "Ultra Capacity"),
            (0, "Premium Capacity"),
            (0, "Cross Region Replication Minutes")
        ]
    );
    let reason = &m.refused[0].reason;
    assert!(
        reason.starts_with("retailPrice 1e308 per 1 GiB/Hour is out of range: a price is 0 to"),
        "{reason}"
    );
}

#[test]
fn avs_hosts_by_sku_name() {
    let mut host = item("AV36P Node", "westeurope", 10.96, "1 Hour");
    host.service_name = "Azure VMware Solution".into();
    host.product_name = "Azure VMware Solution".into();
    let mut byol = host.clone();
    byol.meter_name = "AV36P VCF BYOL Node".into();
    byol.retail_price = 8.2;
    let m = map(&[host, byol], 730.0);
    let mut rows: Vec<(&str, f64)> = m
        .rows
        .iter()
        .map(|r| (r.key.item.as_str(), r.price))
        .collect();
    rows.sort_by(|a, b| a.0.cmp(b.0));
    assert_eq!(rows, [("AV36P", 10.96), ("AV36P_byol", 8.2)]);
}

#[test]
fn the_latest_effective_date_wins() {
    let old = item("Ultra Capacity", "eastus", 0.0006, "1 GiB/Hour");
    let mut new = item("Ultra Capacity", "eastus", 0.000538, "1 GiB/Hour");
    new.effective_start = "2026-01-01".into();
    let m = map(&[new.clone(), old.clone()], 730.0);
    assert_eq!(price(&m, "ultra"), 0.39274);
    let m = map(&[old, new], 730.0);
    assert_eq!(price(&m, "ultra"), 0.39274);
}
