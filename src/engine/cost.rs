//! Monthly cost at list prices, line by line: ANF bills the capacity pool by region
//! (Flexible: capacity plus throughput above the 128 MiB/s included; cool data at the
//! cool rate, out of the hot pool; reserved capacity by size band), AVS the cluster's
//! hosts, Azure Files the provisioned share, GCNV the pool; a discount applies to all.

use super::catalog;
use super::plan::Plan;
use super::pricing::AnfPrices;
use super::scenario::{DataProtection, Level, Replication, Service, Term};
use super::units::GIB_PER_TIB;
use arrayvec::ArrayVec;
use serde::Serialize;

/// Days of changes one month of replication moves: 30 (an assumption; the ANF
/// calculators charge replication per GiB replicated, design/prices/NOTES.md).
const DAYS_PER_MONTH: f64 = 30.0;

/// The item of the AVS hosts line.
pub const AVS_HOSTS: &str = "AVS hosts";

/// Most lines one cost has.
pub const MAX_LINES: usize = 12;

/// The cost line of cool data read back (`storage.cool_access.retrieved_pct_per_month`).
pub const COOL_RETRIEVAL: &str = "Cool tier retrieval";

/// One line of the monthly cost (contract: `cost.lines`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
pub struct CostLine {
    pub item: &'static str,
    pub quantity: f64,
    pub unit: &'static str,
    /// Price per unit and month after reservation and discount; null when unpriced.
    pub unit_price: Option<f64>,
    pub monthly: Option<f64>,
}

/// The price of a plan, borrowing from the plan's price book.
#[derive(Debug, Clone, PartialEq)]
pub struct Price<'b> {
    /// The sum of the lines; None when a line has no price.
    pub monthly_usd: Option<f64>,
    /// TiB billed at the hot (service level) rate.
    pub billed_tib: f64,
    /// TiB in the cool tier, billed at its own rate (ANF cool access), 0 without.
    pub cool_tib: f64,
    pub hours_per_month: f64,
    pub price_date: &'b str,
    /// The region the prices are for (the reference region of the service when the
    /// plan names none).
    pub region: &'b str,
    pub lines: ArrayVec<CostLine, MAX_LINES>,
    /// True when a price is UNCONFIRMED, derived or an estimator's default.
    pub assumption: bool,
}

/// Throughput a Flexible pool is provisioned with: what its volumes are assigned, at
/// least the 128 MiB/s included.
pub fn flexible_pool_mibps(p: &Plan) -> f64 {
    let flex = &catalog::catalog().services.anf.flexible;
    p.assigned_total()
        .unwrap_or(flex.pool_min_mibps)
        .max(flex.pool_min_mibps)
}

/// TiB of the plan's data in the ANF cool tier: the cool share of the workload's
/// capacity (or of the volumes' quota when no capacity is given), at most the pool.
pub fn cool_tib(p: &Plan) -> f64 {
    let Some(c) = p.cool else { return 0.0 };
    (used_tib(p) * c.cool_data_pct / 100.0).min(p.pool_tib)
}

/// A line at `unit_price` (before discount) for `quantity`.
fn line(
    item: &'static str,
    quantity: f64,
    unit: &'static str,
    unit_price: Option<f64>,
) -> CostLine {
    CostLine {
        item,
        quantity,
        unit,
        unit_price,
        monthly: unit_price.map(|u| u * quantity),
    }
}

/// Monthly cost of the plan, from the plan's price book.
pub fn price<'b>(p: &Plan<'b>) -> Price<'b> {
    let book = p.prices;
    let s = &catalog::catalog().services;
    let mut lines = ArrayVec::new();
    let mut assumption = false;
    let region = p.rates.region;
    let (billed_tib, cool, hours, date) = match p.service {
        Service::Anf => {
            let rates = p
                .rates
                .anf
                .expect("an ANF region is checked against the price book");
            let cool = cool_tib(p);
            // Cool data does not count toward the hot pool size (cost model page).
            let hot = (p.pool_tib - cool).max(s.anf.pool.min_tib.min(p.pool_tib));
            anf_lines(p, rates, hot, cool, &mut lines);
            if let Some(d) = p.protection {
                protection_lines(p, d, rates, &mut lines);
            }
            (hot, cool, book.hours_per_month, book.date.as_str())
        }
        Service::AzureFiles | Service::Gcnv => {
            let (item, tib, hours, catalog_date) = if p.service == Service::Gcnv {
                let g = &s.gcnv;
                (
                    "Storage pool capacity",
                    p.pool_tib,
                    g.hours_per_month,
                    &g.price_date,
                )
            } else {
                let f = &s.azure_files;
                (
                    "Provisioned share capacity",
                    p.total_quota_tib,
                    f.hours_per_month,
                    &f.price_date,
                )
            };
            let rate = book.capacity(p.service, region, p.level);
            let provenance = rate.and_then(|(_, prov)| prov);
            assumption = provenance.map_or(rate.is_none(), |prov| prov.assumption);
            lines.push(line(
                item,
                tib * GIB_PER_TIB,
                "GiB-month",
                rate.map(|(r, _)| r),
            ));
            let date = provenance.map_or(catalog_date.as_str(), |prov| prov.as_of.as_str());
            (tib, 0.0, hours, date)
        }
    };
    if let Some(a) = p.avs {
        let hour = p.rates.avs_host.and_then(|h| match p.reservation {
            Term::None => Some(h.payg_hour),
            Term::OneYear => h.ri_1y_hour,
            Term::ThreeYears => h.ri_3y_hour,
        });
        assumption |= p.reservation != Term::None;
        lines.push(line(
            AVS_HOSTS,
            f64::from(a.cluster_hosts),
            "host-month",
            hour.map(|h| h * book.hours_per_month),
        ));
    }
    let keep = 1.0 - p.discount_pct / 100.0;
    for l in &mut lines {
        l.unit_price = l.unit_price.map(|u| u * keep);
        l.monthly = l.monthly.map(|m| m * keep);
    }
    // Storage lines without a price leave the cost unknown; an AVS host SKU without a
    // public price in the region leaves its line empty and the cost storage-only.
    let monthly_usd = lines
        .iter()
        .filter(|l| l.item != AVS_HOSTS || l.monthly.is_some())
        .map(|l| l.monthly)
        .sum::<Option<f64>>();
    Price {
        monthly_usd,
        billed_tib,
        cool_tib: cool,
        hours_per_month: hours,
        price_date: date,
        region,
        lines,
        assumption,
    }
}

/// TiB of data the volumes hold: the workload's capacity, or the quota without one.
fn used_tib(p: &Plan) -> f64 {
    if p.capacity_tib > 0.0 {
        p.capacity_tib.min(p.total_quota_tib)
    } else {
        p.total_quota_tib
    }
}

/// The level's capacity rate in a region's prices (Flexible: its capacity rate).
fn level_rate(p: &Plan, rates: &AnfPrices) -> Option<f64> {
    match p.level {
        Level::Standard => Some(rates.standard),
        Level::Premium => Some(rates.premium),
        Level::Flexible => rates.flexible_capacity,
        _ => Some(rates.ultra),
    }
}

/// Snapshot reserve, backup and cross-region replication, as the ANF calculator
/// prices them: the reserve is pool capacity at the level's rate; a backup holds the
/// data once plus each day's changes over the longest retention; replication moves
/// each day's changes (30 days a month) at the source region's rate and keeps a
/// replica pool of the same size and level in the destination region.
fn protection_lines(
    p: &Plan,
    d: &DataProtection,
    rates: &AnfPrices,
    lines: &mut ArrayVec<CostLine, MAX_LINES>,
) {
    let used_gib = used_tib(p) * GIB_PER_TIB;
    let change = d.daily_change_pct / 100.0;
    if d.snapshot_reserve_pct > 0.0 {
        lines.push(line(
            "Snapshot reserve (pool capacity)",
            p.total_quota_tib * GIB_PER_TIB * d.snapshot_reserve_pct / 100.0,
            "GiB-month",
            level_rate(p, rates),
        ));
    }
    if let Some(b) = d.backup {
        let days = f64::from(b.daily.max(7 * b.weekly).max(30 * b.monthly));
        if days > 0.0 {
            lines.push(line(
                "Backup (full copy and retained daily changes)",
                used_gib * (1.0 + change * days),
                "GiB-month",
                rates.backup,
            ));
        }
    }
    let rate = match d.replication {
        Replication::None => return,
        Replication::TenMinutes => rates.crr_10min,
        Replication::Hourly => rates.crr_hourly,
        Replication::Daily => rates.crr_daily,
    };
    lines.push(line(
        "Cross-region replication transfer (daily changes)",
        used_gib * change * DAYS_PER_MONTH,
        "GiB",
        rate,
    ));
    let replica = d
        .replication_region
        .as_deref()
        .and_then(|r| p.prices.anf(r))
        .and_then(|(_, r)| level_rate(p, r));
    lines.push(line(
        "Replica pool capacity (destination region)",
        p.pool_tib * GIB_PER_TIB,
        "GiB-month",
        replica,
    ));
}

/// ANF capacity, Flexible throughput and cool-tier lines.
fn anf_lines(
    p: &Plan,
    rates: &AnfPrices,
    hot_tib: f64,
    cool_tib: f64,
    lines: &mut ArrayVec<CostLine, MAX_LINES>,
) {
    let gib = hot_tib * GIB_PER_TIB;
    let reserved = |level: &str| match p.reservation {
        Term::None => 1.0,
        t => p
            .prices
            .reservation_discount_pct(level, t.key(), p.pool_tib)
            .map_or(1.0, |d| 1.0 - d / 100.0),
    };
    match p.level {
        Level::Flexible => {
            let flex = &catalog::catalog().services.anf.flexible;
            lines.push(line(
                "Flexible pool capacity",
                gib,
                "GiB-month",
                rates.flexible_capacity,
            ));
            let extra = (flexible_pool_mibps(p) - flex.pool_min_mibps).max(0.0);
            lines.push(line(
                "Flexible throughput above the 128 MiB/s included",
                extra,
                "MiB/s-month",
                rates.flexible_throughput,
            ));
        }
        level => {
            let (item, rate) = match level {
                Level::Standard => ("Standard pool capacity", rates.standard),
                Level::Premium => ("Premium pool capacity", rates.premium),
                _ => ("Ultra pool capacity", rates.ultra),
            };
            lines.push(line(
                item,
                gib,
                "GiB-month",
                Some(rate * reserved(level.key())),
            ));
        }
    }
    if cool_tib > 0.0 {
        // Cool-tier data is not covered by reservations (cost model page).
        lines.push(line(
            "Cool tier capacity",
            cool_tib * GIB_PER_TIB,
            "GiB-month",
            rates.cool_capacity,
        ));
        if let Some(pct) = p.cool.and_then(|c| c.retrieved_pct_per_month) {
            // Reading cool data back is billed per GiB transferred (cost model page).
            lines.push(line(
                COOL_RETRIEVAL,
                cool_tib * GIB_PER_TIB * pct / 100.0,
                "GiB read back",
                rates.cool_transfer,
            ));
        }
    }
}
