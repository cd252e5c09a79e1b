//! Monthly cost at list prices, line by line: ANF bills the capacity pool by region
//! (Flexible: capacity plus throughput above the 128 MiB/s included; cool data at the
//! cool rate, out of the hot pool; reserved capacity by size band), AVS the cluster's
//! hosts, Azure Files the provisioned share, GCNV the pool; a discount applies to all.

use super::catalog;
use super::cost_line::line;
pub use super::cost_line::{CostLine, MAX_LINES};
use super::licence::Licensing;
use super::plan::Plan;
use super::pricing::AnfPrices;
use super::scenario::{DataProtection, Level, Replication, Service, Term};
use super::units::GIB_PER_TIB;
use arrayvec::ArrayVec;

/// Share of the data a replication transfer moves: 0.65, "Replication transfer costs
/// are based on a 35% storage efficiency rating" (ANF calculator, Azure/azure-netapp-files
/// `docs/calc/calc.js` @ 690ed71, 2025-04-25: `volume_in_gb * rate * .65`).
pub const CRR_TRANSFER_EFFICIENCY: f64 = 0.65;

/// Days of changes one month of replication moves: 31 (the same calculator's
/// incremental cost, `volume_in_gb * (change_rate/100) * rate * .65 * 31`).
pub const CRR_DAYS_PER_MONTH: f64 = 31.0;

/// Days of changes each backup kept holds: 1 (the same calculator: its "daily (30x)"
/// column bills `monthly_delta / 30 * 30`, its "weekly (4x)" column
/// `monthly_delta / 30 * 4`, with `monthly_delta` = 30 days of changes).
pub const BACKUP_DELTA_DAYS_PER_COPY: f64 = 1.0;

/// The item of the AVS hosts line.
pub const AVS_HOSTS: &str = "AVS hosts";

/// The item of the portable VCF line: every physical core of the hosts.
pub const VCF_LICENCES: &str = "VMware Cloud Foundation (portable, per core)";

/// True for the AVS lines (hosts and their VCF), the ones that are not storage.
pub fn is_avs_line(l: &CostLine) -> bool {
    l.item == AVS_HOSTS || l.item == VCF_LICENCES
}

/// The cost line of cool data read back (`storage.cool_access.retrieved_pct_per_month`).
pub const COOL_RETRIEVAL: &str = "Cool tier retrieval";

/// The price of a plan, borrowing from the plan's price book, in its currency.
#[derive(Debug, Clone, PartialEq)]
pub struct Price<'b> {
    /// The sum of the monthly lines; None when a line has no price.
    pub monthly: Option<f64>,
    /// The sum of the one-time lines (initial backup and replication); None without
    /// one or when one has no price.
    pub one_time: Option<f64>,
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

/// A line charged once, with how.
fn one_time(
    item: &'static str,
    quantity: f64,
    unit: &'static str,
    unit_price: Option<f64>,
    note: &'static str,
) -> CostLine {
    CostLine {
        one_time: true,
        note: Some(note),
        ..line(item, quantity, unit, unit_price)
    }
}

/// Monthly cost of the plan, from the plan's price book.
pub fn price<'b>(p: &Plan<'b>) -> Price<'b> {
    let mut lines = ArrayVec::new();
    let basis = cost_lines(p, &mut lines);
    let mut once = lines.iter().filter(|l| l.one_time).peekable();
    let one_time = once
        .peek()
        .is_some()
        .then(|| once.map(|l| l.monthly).sum())
        .flatten();
    Price {
        monthly: monthly_sum(&lines),
        one_time,
        billed_tib: basis.billed_tib,
        cool_tib: basis.cool_tib,
        hours_per_month: basis.hours_per_month,
        price_date: basis.price_date,
        region: p.rates.region,
        lines,
        assumption: basis.assumption,
    }
}

/// The plan's monthly cost alone, as [`price`] sums it: what a sizing row shows.
pub fn monthly(p: &Plan) -> Option<f64> {
    let mut lines = ArrayVec::new();
    cost_lines(p, &mut lines);
    monthly_sum(&lines)
}

/// The sum of the monthly lines; None when a line has no price. Storage lines
/// without a price leave the cost unknown; an AVS host SKU without a public price in
/// the region leaves its line empty and the cost storage-only.
fn monthly_sum(lines: &[CostLine]) -> Option<f64> {
    lines
        .iter()
        .filter(|l| !l.one_time && (l.item != AVS_HOSTS || l.monthly.is_some()))
        .map(|l| l.monthly)
        .sum()
}

/// What a price states beside its lines.
struct Basis<'b> {
    billed_tib: f64,
    cool_tib: f64,
    hours_per_month: f64,
    price_date: &'b str,
    assumption: bool,
}

/// Puts the plan's cost lines, after discount, into `lines` (empty before).
fn cost_lines<'b>(p: &Plan<'b>, lines: &mut ArrayVec<CostLine, MAX_LINES>) -> Basis<'b> {
    let book = p.prices;
    let s = &catalog::catalog().services;
    let mut assumption = false;
    let (billed_tib, cool, hours, date) = match p.service {
        Service::Anf => {
            let rates = p
                .rates
                .anf
                .expect("an ANF region is checked against the price book");
            let cool = cool_tib(p);
            // Cool data does not count toward the hot pool size (cost model page).
            let hot = (p.pool_tib - cool).max(s.anf.pool.min_tib.min(p.pool_tib));
            anf_lines(p, rates, hot, cool, lines);
            if let Some(d) = p.protection {
                protection_lines(p, d, rates, lines);
            }
            (hot, cool, book.hours_per_month, &*book.date)
        }
        Service::AzureFiles | Service::Gcnv => {
            let b = super::cost_files_gcnv::lines(p, lines);
            assumption = b.assumption;
            (b.billed_tib, 0.0, book.hours_per_month, b.price_date)
        }
    };
    if let Some(a) = p.avs {
        let hour = p
            .rates
            .avs_host
            .map(|h| h.hour(p.reservation, book.avs_reserved_discount_pct));
        assumption |= p.reservation != Term::None;
        lines.push(line(
            AVS_HOSTS,
            f64::from(a.cluster_hosts),
            "host-month",
            hour.map(|h| h * book.hours_per_month),
        ));
        // Portable VCF covers every core of every host, at the price per core per year
        // (as the AVS plan prices it); without a host price the cost is storage-only.
        if a.licensing == Licensing::Portable && hour.is_some() {
            lines.push(line(
                VCF_LICENCES,
                f64::from(a.cluster_hosts * a.cores_per_host),
                "core-month",
                Some(a.licence_per_core_year / 12.0),
            ));
        }
    }
    let keep = 1.0 - p.discount_pct / 100.0;
    for l in lines.iter_mut() {
        l.unit_price = l.unit_price.map(|u| u * keep);
        l.monthly = l.monthly.map(|m| m * keep);
    }
    Basis {
        billed_tib,
        cool_tib: cool,
        hours_per_month: hours,
        price_date: date,
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
        Level::Standard => rates.standard,
        Level::Premium => rates.premium,
        Level::Flexible => rates.flexible_capacity,
        _ => rates.ultra,
    }
}

/// Snapshot reserve, backup and cross-region replication, as the ANF calculator
/// (`docs/calc/calc.js`) prices one volume of the data (`used`, GiB) with daily change
/// rate `c`:
///
/// * the reserve is pool capacity at the level's rate;
/// * replication: an initial transfer `used × 0.65` GiB at the source region's rate,
///   charged once ("Initial Transfer Cost"), then `used × c × 0.65 × 31` GiB a month
///   ("Incremental Cost");
/// * backup: the full copy `used` GiB at the backup rate (the calculator's "Initial
///   Backup Cost"), billed every month it is kept, since backup storage is priced per
///   GiB-month, plus one day's changes per backup kept, `used × c × (daily + weekly +
///   monthly)` GiB a month (the calculator's "daily (30x)" column bills 30 days of
///   changes, its "weekly (4x)" column 4); the first month equals the calculator's;
/// * a replica pool of the same size and level in the destination region.
///
/// The one-time lines are flagged [`CostLine::one_time`] and stay out of the monthly
/// sum; with them it is the calculator's "Cost First Month".
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
        let kept = f64::from(b.daily + b.weekly + b.monthly);
        if kept > 0.0 {
            lines.push(CostLine {
                note: Some(
                    "stored every month it is kept, at the per-GiB-month backup rate (the ANF calculator shows it once, as Initial Backup Cost)",
                ),
                ..line("Backup, full copy (stored)", used_gib, "GiB-month", rates.backup)
            });
            lines.push(line(
                "Backup, retained daily changes",
                used_gib * change * kept * BACKUP_DELTA_DAYS_PER_COPY,
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
    lines.push(one_time(
        "Cross-region replication, initial transfer (one-time)",
        used_gib * CRR_TRANSFER_EFFICIENCY,
        "GiB replicated",
        rate,
        "charged once, in the first month: the data × 0.65 (ANF calculator: Initial Transfer Cost)",
    ));
    lines.push(line(
        "Cross-region replication, daily changes",
        used_gib * change * CRR_DAYS_PER_MONTH * CRR_TRANSFER_EFFICIENCY,
        "GiB replicated",
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
                rate.map(|r| r * reserved(level.key())),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::evaluate::evaluate;
    use crate::engine::scenario::Scenario;

    /// One 10 TiB Premium volume in East US holding 10 TiB, with `protection`.
    fn cost_of(protection: &str) -> crate::engine::evaluation::Cost {
        let s: Scenario = serde_json::from_str(&format!(
            r#"{{"name":"t","workload":{{"io_size_kib":64,"read_pct":70,"capacity_tib":10}},
            "storage":{{"service":"anf","level":"premium","volumes":[{{"count":1,"quota_tib":10}}]}},
            "clients":{{"protocol":"nfsv3","vm_size":"Standard_E32s_v5"}},"region":"eastus","data_protection":{protection}}}"#
        ))
        .expect("scenario");
        evaluate(&s).expect("evaluates").cost
    }

    fn find<'a>(c: &'a crate::engine::evaluation::Cost, item: &str) -> &'a CostLine {
        c.lines
            .iter()
            .find(|l| l.item.starts_with(item))
            .unwrap_or_else(|| panic!("no {item} line in {:?}", c.lines))
    }

    fn near(a: Option<f64>, b: f64) {
        let a = a.expect("priced");
        assert!((a - b).abs() < 1e-6, "{a} != {b}");
    }

    #[test]
    fn replication_and_daily_backup_as_the_anf_calculator() {
        // ANF calculator (docs/calc/calc.js) by hand, East US, 10,240 GiB, 1 % a day:
        // hourly CRR 0.12 $/GiB: initial 10,240 × 0.65 = 6,656 GiB → 798.72 (once);
        // incremental 10,240 × 0.01 × 0.65 × 31 = 2,063.36 GiB → 247.6032 a month.
        // Backup 0.05 $/GiB-month, daily (30x): initial 10,240 → 512.00 (the
        // calculator's once; stored, so billed each month here); incremental
        // 10,240 × 0.01 × 30 = 3,072 GiB → 153.60 a month.
        let c = cost_of(
            r#"{"daily_change_pct":1,"backup":{"daily":30},"replication":"hourly","replication_region":"westus"}"#,
        );
        let init = find(&c, "Cross-region replication, initial transfer");
        assert!(init.one_time && init.note.is_some());
        near(Some(init.quantity), 6656.0);
        near(init.unit_price, 0.12);
        near(init.monthly, 798.72);
        let inc = find(&c, "Cross-region replication, daily changes");
        assert!(!inc.one_time);
        near(Some(inc.quantity), 2063.36);
        near(inc.monthly, 247.6032);
        let full = find(&c, "Backup, full copy");
        assert!(!full.one_time && full.note.is_some());
        near(full.monthly, 512.0);
        let kept = find(&c, "Backup, retained daily changes");
        near(Some(kept.quantity), 3072.0);
        near(kept.monthly, 153.6);
        // Source and replica pools: 10 TiB Premium, 0.29419 $/GiB-month in East and
        // West US alike.
        let pool = 10240.0 * 0.29419;
        near(find(&c, "Replica pool capacity").monthly, pool);
        near(c.monthly, pool + 247.6032 + 512.0 + 153.6 + pool);
        // The calculator's "Cost First Month" is the month plus the one-time lines.
        near(c.one_time, 798.72);
    }

    #[test]
    fn weekly_backups_hold_one_day_of_changes_each() {
        // The calculator's weekly (4x) column: 10,240 × 0.01 × 30 / 30 × 4 = 409.6 GiB
        // → 20.48 a month; other retentions add one day of changes per backup kept.
        let c = cost_of(r#"{"daily_change_pct":1,"backup":{"weekly":4}}"#);
        near(find(&c, "Backup, retained daily changes").monthly, 20.48);
        let c = cost_of(r#"{"daily_change_pct":2,"backup":{"daily":7,"weekly":4,"monthly":3}}"#);
        near(
            Some(find(&c, "Backup, retained daily changes").quantity),
            10240.0 * 0.02 * 14.0,
        );
        // No backup kept, no replication: no protection lines and nothing one-time.
        let c = cost_of(r#"{"daily_change_pct":1,"backup":{}}"#);
        assert!(c.lines.iter().all(|l| !l.item.starts_with("Backup")));
        assert_eq!(c.one_time, None);
    }
}
