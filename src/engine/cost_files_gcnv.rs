//! The cost lines of Azure Files and Google Cloud NetApp Volumes, from the rows of the
//! price book (`prices::items` names them):
//!
//! * Azure Files provisioned v2 bills each share's storage, and the IOPS and throughput
//!   it is provisioned above what a share includes (SSD: the first 3,000 IOPS and
//!   100 MiB/s are zero-priced, as the eastus2 source says; HDD: the level's minimum,
//!   500 IOPS and 60 MiB/s, assumed the same way); v1 the provisioned capacity; pay as
//!   you go (transaction optimized) the data stored, operations billed on top.
//! * GCNV bills the pool's capacity at the level's rate; a Flex pool with custom
//!   performance also its throughput above the 64 MiB/s and IOPS above the 1,024 a pool
//!   includes. A 1- or 3-year commitment takes the book's committed price of a row, or
//!   the on-demand one less GCNV's committed-use discount.

use super::catalog;
use super::cost_line::{CostLine, MAX_LINES, line};
use super::plan::Plan;
use super::pricing::PriceBook;
use super::scenario::{Level, Service, Term};
use super::service::{azure_files, gcnv};
use super::units::GIB_PER_TIB;
use arrayvec::ArrayVec;

/// What the lines state beside themselves: TiB billed, the date of the capacity price
/// and whether a price is provisional or assumed.
pub struct Basis<'b> {
    pub billed_tib: f64,
    pub price_date: &'b str,
    pub assumption: bool,
}

/// The price of `item` in the plan's region, with its date and whether it is
/// provisional; `None` where the book has none.
fn rate<'b>(p: &Plan<'b>, item: &str) -> Option<(f64, Option<&'b str>, bool)> {
    let book: &'b PriceBook = p.prices;
    let (r, prov) = book.rate(p.service, p.rates.region, item)?;
    Some((
        r,
        prov.map(|v| v.as_of.as_str()),
        prov.is_some_and(|v| v.assumption),
    ))
}

/// A GCNV row under the plan's commitment: the committed price where the book has
/// one, else the on-demand one less the committed-use discount.
fn committed<'b>(p: &Plan<'b>, item: &str) -> Option<(f64, Option<&'b str>, bool)> {
    let (suffix, pct) = match p.reservation {
        Term::None => return rate(p, item),
        Term::OneYear => ("_1y", p.prices.gcnv_commitment_discount_pct.one_year),
        Term::ThreeYears => ("_3y", p.prices.gcnv_commitment_discount_pct.three_years),
    };
    rate(p, &format!("{item}{suffix}"))
        .or_else(|| rate(p, item).map(|(r, d, a)| (r * (1.0 - pct / 100.0), d, a)))
}

/// Puts the plan's Azure Files or GCNV lines into `lines`.
pub fn lines<'b>(p: &Plan<'b>, lines: &mut ArrayVec<CostLine, MAX_LINES>) -> Basis<'b> {
    let mut assumption = false;
    let mut date = None;
    let mut push = |l: CostLine, r: Option<(f64, Option<&'b str>, bool)>| {
        // A row without a price leaves the cost unknown: said as an assumption, too.
        assumption |= r.is_none_or(|(_, _, a)| a);
        date = date.or(r.and_then(|(_, d, _)| d));
        lines.push(l);
    };
    let billed_tib = if p.service == Service::Gcnv {
        let capacity = committed(p, p.level.key());
        push(
            line(
                "Storage pool capacity",
                p.pool_tib * GIB_PER_TIB,
                "GiB-month",
                capacity.map(|r| r.0),
            ),
            capacity,
        );
        if p.level == Level::Flex {
            let flex = &catalog::catalog().services.gcnv.flex;
            let (mibps, iops) = gcnv::flex_pool(p);
            let r = committed(p, "flex_throughput");
            push(
                line(
                    "Flex throughput above the 64 MiB/s included",
                    (mibps - flex.default_mibps).max(0.0),
                    "MiB/s-month",
                    r.map(|r| r.0),
                ),
                r,
            );
            let r = committed(p, "flex_iops");
            push(
                CostLine {
                    note: Some(
                        "the pool's IOPS above the 1,024 included: those provisioned, else 16 per MiB/s above 64",
                    ),
                    ..line(
                        "Flex IOPS above the 1,024 included",
                        (iops - flex.default_iops).max(0.0),
                        "IOPS-month",
                        r.map(|r| r.0),
                    )
                },
                r,
            );
        }
        p.pool_tib
    } else {
        files_lines(p, &mut push)
    };
    let s = &catalog::catalog().services;
    let catalog_date = if p.service == Service::Gcnv {
        &s.gcnv.price_date
    } else {
        &s.azure_files.price_date
    };
    Basis {
        billed_tib,
        price_date: date.unwrap_or(catalog_date),
        assumption,
    }
}

/// The Azure Files lines through `push`; the TiB billed.
fn files_lines<'b>(
    p: &Plan<'b>,
    push: &mut impl FnMut(CostLine, Option<(f64, Option<&'b str>, bool)>),
) -> f64 {
    let gib = p.total_quota_tib * GIB_PER_TIB;
    match p.level {
        Level::SsdV2 | Level::HddV2 => {
            let f = &catalog::catalog().services.azure_files;
            let v2 = if p.level == Level::SsdV2 {
                &f.ssd_v2
            } else {
                &f.hdd_v2
            };
            let (mut mibps, mut iops) = (0.0, 0.0);
            for g in p.volumes.iter() {
                let (m, i) = azure_files::share_limits(p.level, g);
                let n = f64::from(g.count);
                mibps += n * (m - v2.min_mibps).max(0.0);
                iops += n * (i - v2.min_iops).max(0.0);
            }
            let key = p.level.key();
            let storage = rate(p, key);
            push(
                line(
                    "Provisioned share storage",
                    gib,
                    "GiB-month",
                    storage.map(|r| r.0),
                ),
                storage,
            );
            let hdd = p.level == Level::HddV2;
            let note = hdd.then_some(
                "HDD v2 is assumed to include its minimum per share (500 IOPS, 60 MiB/s) as SSD v2 includes 3,000 IOPS and 100 MiB/s",
            );
            for (suffix, item, quantity, unit) in [
                (
                    "_iops",
                    "Provisioned IOPS above those included",
                    iops,
                    "IOPS-month",
                ),
                (
                    "_throughput",
                    "Provisioned throughput above that included",
                    mibps,
                    "MiB/s-month",
                ),
            ] {
                let r = rate(p, &format!("{key}{suffix}"));
                push(
                    CostLine {
                        note,
                        ..line(item, quantity, unit, r.map(|r| r.0))
                    },
                    r.map(|(v, d, a)| (v, d, a || hdd)),
                );
            }
            p.total_quota_tib
        }
        Level::HddPayg => {
            let used = if p.capacity_tib > 0.0 {
                p.capacity_tib.min(p.total_quota_tib)
            } else {
                p.total_quota_tib
            };
            let r = rate(p, "hdd_payg");
            push(
                CostLine {
                    note: Some(
                        "transaction optimized, data stored; operations are billed on top per 10,000 (the Prices page lists them)",
                    ),
                    ..line(
                        "Data stored",
                        used * GIB_PER_TIB,
                        "GiB-month",
                        r.map(|r| r.0),
                    )
                },
                r,
            );
            used
        }
        _ => {
            let r = rate(p, p.level.key());
            push(
                line(
                    "Provisioned share capacity",
                    gib,
                    "GiB-month",
                    r.map(|r| r.0),
                ),
                r,
            );
            p.total_quota_tib
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::evaluate::evaluate;
    use crate::engine::evaluation::Cost;
    use crate::engine::scenario::Scenario;

    fn cost(storage: &str, region: &str, pricing: &str) -> Cost {
        let s: Scenario = serde_json::from_str(&format!(
            r#"{{"name":"t","workload":{{"io_size_kib":64,"read_pct":70,"capacity_tib":4}},
            "storage":{storage},"clients":{{"protocol":"nfsv4.1","vm_size":"Standard_E32s_v5"}},
            "region":"{region}","pricing":{pricing}}}"#
        ))
        .expect("scenario");
        evaluate(&s).expect("evaluates").cost
    }

    fn amount(c: &Cost, item: &str) -> (f64, f64) {
        let l = c
            .lines
            .iter()
            .find(|l| l.item.starts_with(item))
            .unwrap_or_else(|| panic!("no {item} line in {:?}", c.lines));
        (l.quantity, l.monthly.expect("priced"))
    }

    fn near(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-6 * b.abs().max(1.0), "{a} != {b}");
    }

    #[test]
    fn azure_files_ssd_v2_in_eastus2_bills_storage_and_what_is_provisioned_above_the_baseline() {
        // prices-provisional.json, eastus2: 0.000137 per GiB-hour, 0.000037 per
        // IOPS-hour, 0.000054 per MiB/s-hour (x 730); the first 3,000 IOPS and 100 MiB/s
        // of each share are zero-priced. Two 2 TiB shares at 10,000 IOPS and 400 MiB/s.
        let c = cost(
            r#"{"service":"azure_files","level":"ssd_v2","volumes":[{"count":2,"quota_tib":2,"iops":10000,"throughput_mibps":400}]}"#,
            "eastus2",
            r#"{"currency":"USD"}"#,
        );
        let (gib, storage) = amount(&c, "Provisioned share storage");
        near(gib, 4096.0);
        near(storage, 4096.0 * 0.10001);
        let (iops, iops_cost) = amount(&c, "Provisioned IOPS");
        near(iops, 2.0 * 7000.0);
        near(iops_cost, 14_000.0 * 0.02701);
        let (mibps, mibps_cost) = amount(&c, "Provisioned throughput");
        near(mibps, 2.0 * 300.0);
        near(mibps_cost, 600.0 * 0.03942);
        near(c.monthly.unwrap(), storage + iops_cost + mibps_cost);
        assert_eq!(c.monthly_usd, c.monthly);
        assert!(c.assumption, "provisional prices are an assumption");
        assert_eq!(c.price_date, "2026-09-19");
    }

    #[test]
    fn gcnv_flex_custom_performance_in_us_central1_on_demand_and_committed() {
        // prices-provisional.json, us-central1: capacity 0.000144, throughput 0.002192,
        // IOPS 0.000023 per hour (x 730); 1-year 0.000122 / 0.001863 / 0.000020. A
        // 10 TiB pool at 512 MiB/s and 20,000 IOPS: 448 MiB/s and 18,976 IOPS above
        // the 64 MiB/s and 1,024 IOPS included.
        let storage = r#"{"service":"gcnv","level":"flex","volumes":[{"count":1,"quota_tib":10,"throughput_mibps":512,"iops":20000}]}"#;
        let c = cost(storage, "us-central1", r#"{"currency":"USD"}"#);
        let (gib, capacity) = amount(&c, "Storage pool capacity");
        near(gib, 10240.0);
        near(capacity, 10240.0 * 0.10512);
        let (mibps, throughput) = amount(&c, "Flex throughput");
        near(mibps, 448.0);
        near(throughput, 448.0 * 1.60016);
        let (iops, iops_cost) = amount(&c, "Flex IOPS");
        near(iops, 18_976.0);
        near(iops_cost, 18_976.0 * 0.01679);
        near(c.monthly.unwrap(), capacity + throughput + iops_cost);
        let y1 = cost(storage, "us-central1", r#"{"reservation":"1y"}"#);
        near(amount(&y1, "Storage pool capacity").1, 10240.0 * 0.08906);
        near(amount(&y1, "Flex throughput").1, 448.0 * 1.35999);
        near(amount(&y1, "Flex IOPS").1, 18_976.0 * 0.0146);
    }

    #[test]
    fn a_commitment_without_a_committed_price_takes_the_committed_use_discount() {
        // GCNV Standard in us-central1 has only its on-demand price: 3 years is 20 % off.
        let storage =
            r#"{"service":"gcnv","level":"standard","volumes":[{"count":1,"quota_tib":4}]}"#;
        let on_demand = amount(&cost(storage, "us-central1", "null"), "Storage pool").1;
        let y3 = amount(
            &cost(storage, "us-central1", r#"{"reservation":"3y"}"#),
            "Storage pool",
        )
        .1;
        near(y3, on_demand * 0.8);
    }
}
