//! Monthly cost at indicative list prices: ANF bills the capacity pool (plus Flexible
//! throughput above the 128 MiB/s baseline), Azure Files the provisioned share, GCNV the pool.

use super::catalog;
use super::plan::Plan;
use super::scenario::{Level, Service};
use super::service::anf;
use super::units::GIB_PER_TIB;

/// The price of a plan.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Price {
    /// None when the catalog has no list price for the level.
    pub monthly_usd: Option<f64>,
    /// TiB billed at the hot (service level) rate.
    pub billed_tib: f64,
    /// TiB in the cool tier, billed at its own rate (ANF cool access), 0 without.
    pub cool_tib: f64,
    pub hours_per_month: f64,
    pub price_date: &'static str,
    /// True when the price is UNCONFIRMED or derived.
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
    let data = if p.capacity_tib > 0.0 {
        p.capacity_tib.min(p.total_quota_tib)
    } else {
        p.total_quota_tib
    };
    (data * c.cool_data_pct / 100.0).min(p.pool_tib)
}

/// Monthly cost of the plan.
pub fn price(p: &Plan) -> Price {
    let s = &catalog::catalog().services;
    match p.service {
        Service::Anf => {
            let hours = s.anf.hours_per_month;
            let cool_tib = cool_tib(p);
            // Cool data does not count toward the hot pool size (cost model page).
            let hot_tib = (p.pool_tib - cool_tib).max(s.anf.pool.min_tib.min(p.pool_tib));
            let gib = hot_tib * GIB_PER_TIB;
            let cool_usd = cool_tib * GIB_PER_TIB * s.anf.cool_tier.usd_per_gib_month;
            let (monthly, assumption) = if p.level == Level::Flexible {
                let f = &s.anf.flexible;
                let extra = (flexible_pool_mibps(p) - f.pool_min_mibps).max(0.0);
                (
                    Some(gib * f.usd_per_gib_month + extra * f.usd_per_mibps_month),
                    true,
                )
            } else {
                (
                    anf::level(p.level)
                        .usd_per_gib_hour
                        .map(|r| gib * r * hours),
                    false,
                )
            };
            Price {
                monthly_usd: monthly.map(|m| m + cool_usd),
                billed_tib: hot_tib,
                cool_tib,
                hours_per_month: hours,
                price_date: s.anf.price_date.as_str(),
                assumption,
            }
        }
        Service::AzureFiles => {
            let f = &s.azure_files;
            let gib = p.total_quota_tib * GIB_PER_TIB;
            let monthly = match p.level {
                Level::SsdV1 => f.ssd_v1.usd_per_gib_month.map(|r| gib * r),
                _ => None,
            };
            Price {
                monthly_usd: monthly,
                billed_tib: p.total_quota_tib,
                cool_tib: 0.0,
                hours_per_month: f.hours_per_month,
                price_date: f.price_date.as_str(),
                assumption: true,
            }
        }
        Service::Gcnv => {
            let g = &s.gcnv;
            let rate = super::service::gcnv::level(p.level).usd_per_gib_hour;
            Price {
                monthly_usd: rate.map(|r| p.pool_tib * GIB_PER_TIB * r * g.hours_per_month),
                billed_tib: p.pool_tib,
                cool_tib: 0.0,
                hours_per_month: g.hours_per_month,
                price_date: g.price_date.as_str(),
                assumption: rate.is_none(),
            }
        }
    }
}
