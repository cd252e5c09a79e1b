//! Monthly and 1/3/5-year cost of vSAN only against hosts with ANF datastores: hosts x
//! price per host-hour x 730 (pay as you go or reserved: the `VCF BYOL` rates with
//! portable VCF, the licence-included rates and the estimator's default discounts
//! otherwise), plus every host's physical cores x the VCF price per core per year / 12
//! (portable only; [`super::licence`]), plus the ANF pools (the engine's cost lines of
//! every cluster on each term; reserved capacity at the price book's size bands).

use super::hosts::HostCount;
use super::licence::{LicenceTerms, Licensing};
use super::request::Context;
use crate::engine::pricing::{HostPrice, ReservedDiscounts};
use crate::engine::scenario::{Level, Term};
use serde::Serialize;

/// A figure at pay as you go and on each reservation term.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, utoipa::ToSchema)]
pub struct Rates {
    pub payg: f64,
    pub reserved_1y: f64,
    pub reserved_3y: f64,
}

impl Rates {
    /// The figure at purchase term `term`.
    pub fn at(&self, term: super::PurchaseTerm) -> f64 {
        match term {
            super::PurchaseTerm::Payg => self.payg,
            super::PurchaseTerm::OneYear => self.reserved_1y,
            super::PurchaseTerm::ThreeYears => self.reserved_3y,
        }
    }
}

/// The total over a number of years: pay as you go, and reserved for the term that
/// fits (five years at the three-year rate, as the estimator does).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
pub struct YearTotal {
    pub years: u32,
    pub payg: f64,
    pub reserved: f64,
}

/// The cost of one option.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct OptionCost {
    /// The host count (when expanding, `hosts` includes the existing ones and `bought`
    /// is what this option buys and prices).
    #[schema(value_type = Object)]
    pub hosts: HostCount,
    /// Per host-hour, of the hosts bought.
    pub host_hour: Rates,
    pub hosts_monthly: Rates,
    /// Physical cores of the hosts bought: what portable VCF must cover.
    pub cores: u32,
    /// VCF (and add-ons) on those cores per month: cores x price per core per year / 12,
    /// the same on every term (0 with VCF included).
    pub licence_monthly: Rates,
    /// ANF datastore capacity, TiB, and its level (none with vSAN only).
    pub anf_tib: f64,
    pub anf_level: Option<Level>,
    pub anf_monthly: Rates,
    pub monthly: Rates,
    pub totals: Vec<YearTotal>,
}

/// What the existing hosts of an expanded private cloud cost a month.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct ExistingCost {
    pub hosts: u32,
    pub host_sku: String,
    pub licensing: Licensing,
    pub cores: u32,
    /// Null when the price book has no price for their SKU under their licensing in
    /// the region.
    pub hosts_monthly: Option<Rates>,
    /// Their cores x the VCF price per core per year / 12 (portable), else 0.
    pub licence_monthly: Rates,
}

fn existing(ctx: &Context, hosts: &HostCount) -> Option<ExistingCost> {
    let e = ctx.existing.as_ref()?;
    let n = hosts.expansion.map_or(0, |x| x.existing);
    let cores = n * e.spec.cores;
    let hours = f64::from(n) * ctx.book.hours_per_month;
    let monthly = |r: Rates| Rates {
        payg: r.payg * hours,
        reserved_1y: r.reserved_1y * hours,
        reserved_3y: r.reserved_3y * hours,
    };
    Some(ExistingCost {
        hosts: n,
        host_sku: e.spec.sku.to_owned(),
        licensing: e.licensing,
        cores,
        hosts_monthly: e
            .host_price
            .map(|p| monthly(hourly(p, ctx.book.avs_reserved_discount_pct))),
        licence_monthly: flat(f64::from(cores) * e.per_core_year / 12.0),
    })
}

/// What ANF datastores cost.
#[derive(Debug, Clone, PartialEq)]
pub struct AnfShare {
    pub level: Level,
    pub tib: f64,
    /// Monthly on each term: the engine's cost lines of every cluster (reserved
    /// capacity at each pool's size band).
    pub monthly: Rates,
}

/// The saving of ANF datastores over vSAN only.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Saving {
    pub hosts: i64,
    /// Cores fewer to license with ANF datastores.
    pub cores: i64,
    /// The monthly saving split: hosts, VCF licences, and storage (vSAN only has none
    /// beyond its hosts, so this is minus the ANF datastores' cost); the three add up to
    /// the difference of the options' monthly totals.
    pub hosts_monthly: Rates,
    pub licence_monthly: Rates,
    pub storage_monthly: Rates,
    pub monthly_payg: f64,
    pub pct_payg: f64,
    pub totals: Vec<YearTotal>,
    /// A sentence on what drives the difference (worded by the verdict).
    #[serde(serialize_with = "crate::engine::limits::as_display")]
    #[schema(value_type = String)]
    pub drivers: Drivers,
}

/// What drives the difference: each option's host count and the ANF datastores' share,
/// worded by the verdict (`verdict::avs`).
#[derive(Debug, Clone, PartialEq)]
pub struct Drivers {
    pub vsan_only: HostCount,
    pub with_anf: HostCount,
    pub anf_tib: f64,
    pub anf_level: Level,
    pub anf_monthly_payg: f64,
    pub currency: &'static str,
}

/// The comparison.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Tco {
    pub region: String,
    pub region_name: String,
    pub host_sku: String,
    /// Date of the AVS host prices, and of the ANF prices.
    pub host_price_date: String,
    pub anf_price_date: String,
    pub hours_per_month: f64,
    /// The currency of every figure (the price book's, `USD` for the compiled one).
    pub currency: &'static str,
    /// False when the price book has no price for the host SKU in the region: the host
    /// figures are then 0 and every total leaves the hosts out.
    pub hosts_priced: bool,
    /// How VCF is licensed, its price per core and the basis of that price.
    pub licence: LicenceTerms,
    pub vsan_only: OptionCost,
    pub with_anf: OptionCost,
    /// The existing hosts of an expanded private cloud, priced by their own licensing:
    /// the same whichever option is chosen, so outside both options' totals and the
    /// saving (null for a new private cloud).
    pub existing: Option<ExistingCost>,
    pub saving: Saving,
    pub note: &'static str,
}

/// What the reserved host rates are, by licensing.
const NOTE_INCLUDED: &str = "reserved host rates are the AVS TCO estimator's default discounts (1 year 43 %, 3 and 5 years 50 %), not list prices";
const NOTE_PORTABLE: &str = "host rates are the VCF BYOL list rates (hosts without VMware licences); the VCF subscription is priced per core per year on every term";

/// Years the totals are given for.
pub const YEARS: [u32; 3] = [1, 3, 5];

fn totals(m: Rates) -> Vec<YearTotal> {
    YEARS
        .iter()
        .map(|&y| YearTotal {
            years: y,
            payg: m.payg * 12.0 * f64::from(y),
            reserved: if y == 1 { m.reserved_1y } else { m.reserved_3y } * 12.0 * f64::from(y),
        })
        .collect()
}

fn add(a: Rates, b: Rates) -> Rates {
    Rates {
        payg: a.payg + b.payg,
        reserved_1y: a.reserved_1y + b.reserved_1y,
        reserved_3y: a.reserved_3y + b.reserved_3y,
    }
}

fn sub(a: Rates, b: Rates) -> Rates {
    Rates {
        payg: a.payg - b.payg,
        reserved_1y: a.reserved_1y - b.reserved_1y,
        reserved_3y: a.reserved_3y - b.reserved_3y,
    }
}

fn flat(v: f64) -> Rates {
    Rates {
        payg: v,
        reserved_1y: v,
        reserved_3y: v,
    }
}

/// A host price per hour on every term.
fn hourly(p: &HostPrice, discount_pct: ReservedDiscounts) -> Rates {
    Rates {
        payg: p.hour(Term::None, discount_pct),
        reserved_1y: p.hour(Term::OneYear, discount_pct),
        reserved_3y: p.hour(Term::ThreeYears, discount_pct),
    }
}

/// The hosts bought (all of them, or those added to an existing private cloud).
fn option(ctx: &Context, hosts: &HostCount, anf: Option<&AnfShare>) -> OptionCost {
    let book = ctx.book;
    let d = book.avs_reserved_discount_pct;
    // Without a host price the hosts count 0 and the plan says the cost is missing.
    let hour = ctx.host_price.map_or(Rates::default(), |p| hourly(p, d));
    let n = f64::from(hosts.bought) * book.hours_per_month;
    let hosts_monthly = Rates {
        payg: hour.payg * n,
        reserved_1y: hour.reserved_1y * n,
        reserved_3y: hour.reserved_3y * n,
    };
    let cores = hosts.bought * ctx.spec.cores;
    // Without a host price the plan prices the datastores alone, licences included.
    let per_core_year = if ctx.host_price.is_some() {
        ctx.licence.per_core_year
    } else {
        0.0
    };
    let licence_monthly = flat(f64::from(cores) * per_core_year / 12.0);
    let anf_monthly = anf.map_or(Rates::default(), |a| a.monthly);
    let monthly = add(add(hosts_monthly, licence_monthly), anf_monthly);
    OptionCost {
        hosts: *hosts,
        host_hour: hour,
        hosts_monthly,
        cores,
        licence_monthly,
        anf_tib: anf.map_or(0.0, |a| a.tib),
        anf_level: anf.map(|a| a.level),
        anf_monthly,
        monthly,
        totals: totals(monthly),
    }
}

/// The comparison of the two options.
pub fn tco(ctx: &Context, vsan: &HostCount, with: &HostCount, anf: AnfShare) -> Tco {
    let a = option(ctx, vsan, None);
    let b = option(ctx, with, Some(&anf));
    let monthly = a.monthly.payg - b.monthly.payg;
    let saving = Saving {
        hosts: i64::from(vsan.hosts) - i64::from(with.hosts),
        cores: i64::from(a.cores) - i64::from(b.cores),
        hosts_monthly: sub(a.hosts_monthly, b.hosts_monthly),
        licence_monthly: sub(a.licence_monthly, b.licence_monthly),
        storage_monthly: sub(a.anf_monthly, b.anf_monthly),
        monthly_payg: monthly,
        pct_payg: if a.monthly.payg > 0.0 {
            monthly / a.monthly.payg * 100.0
        } else {
            0.0
        },
        totals: a
            .totals
            .iter()
            .zip(&b.totals)
            .map(|(x, y)| YearTotal {
                years: x.years,
                payg: x.payg - y.payg,
                reserved: x.reserved - y.reserved,
            })
            .collect(),
        drivers: Drivers {
            vsan_only: *vsan,
            with_anf: *with,
            anf_tib: anf.tib,
            anf_level: anf.level,
            anf_monthly_payg: anf.monthly.payg,
            currency: ctx.book.currency,
        },
    };
    Tco {
        region: ctx.region.clone(),
        region_name: ctx.region_name.clone(),
        host_sku: ctx.spec.sku.to_owned(),
        host_price_date: ctx.host_price_date.to_owned(),
        anf_price_date: ctx.book.date.to_string(),
        hours_per_month: ctx.book.hours_per_month,
        currency: ctx.book.currency,
        hosts_priced: ctx.host_price.is_some(),
        licence: ctx.licence.clone(),
        existing: existing(ctx, with),
        vsan_only: a,
        with_anf: b,
        saving,
        note: match ctx.licence.licensing {
            Licensing::Portable => NOTE_PORTABLE,
            Licensing::Included => NOTE_INCLUDED,
        },
    }
}
