//! The estate request (contract: `POST /api/v1/estate/optimize`) and its validation.

use super::pool::{ALL_TYPES, PoolType};
use crate::engine::field_error::{Checks, FieldErrors};
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{FieldError, Level, Pricing, Scenario, Service, Term};
use serde::{Deserialize, Serialize};

/// Most workloads in one estate.
pub const MAX_WORKLOADS: usize = 200;

/// Longest timeline, years.
pub const MAX_YEARS: u32 = 5;

/// The currency an estate is priced in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EstatePricing {
    /// ISO 4217 code: every figure comes from the price book's list in it alone.
    #[serde(default = "usd")]
    #[schema(max_length = 3)]
    pub currency: String,
}

fn usd() -> String {
    "USD".to_owned()
}

/// The request: the workloads, the region, and how they grow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EstateRequest {
    /// How the estate is priced (`pricing.currency`); absent = USD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pricing: Option<EstatePricing>,
    /// A name for the estate (reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub workloads: Vec<Scenario>,
    /// Azure region of the estate (ANF pools, Azure Files); null = the price book's
    /// reference region. It replaces each workload's own region.
    #[serde(default)]
    pub region: Option<String>,
    /// Google Cloud region for GCNV workloads and options; null = the workload's own,
    /// else the price book's reference region.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gcp_region: Option<String>,
    /// Length of the timeline, 1..5 years.
    #[serde(default = "three")]
    pub years: u32,
    /// Capacity growth of every workload, % per year (compounded monthly).
    #[serde(default)]
    pub growth_pct_per_year: f64,
    /// Throughput growth, % per year; null = as capacity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throughput_growth_pct_per_year: Option<f64>,
    /// Per-workload growth that replaces the estate's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub growth: Vec<WorkloadGrowth>,
    /// ANF levels the pools may use; null = all four.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub levels: Option<Vec<Level>>,
    /// Discount off ANF list prices, %.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub discount_pct: f64,
    /// ANF reserved capacity (`none`, `1y`, `3y`): each pool pays its size band's
    /// discount off the list price (the book's bands, 100 TiB and 1 PiB).
    #[serde(default, skip_serializing_if = "is_no_term")]
    pub reservation: Term,
    /// One-month service-level changes to place on the timeline.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub what_if: Vec<WhatIf>,
    /// A re-plan (workloads moving to another level or pool) happens only when it saves
    /// more than this a month, USD.
    #[serde(default = "migration_threshold")]
    pub migration_threshold_usd_month: f64,
    /// A workload that moved stays put at least this many months; a move the estate
    /// would reverse later is made only when it saves more than two moves cost, each
    /// the threshold over this dwell.
    #[serde(default = "min_dwell")]
    pub min_dwell_months: u32,
    /// Capacity pools the NetApp account may hold (25 unless raised by request).
    #[serde(default = "max_pools")]
    pub max_pools: u32,
    /// Pools are resized every this many months, each time for the demand at the end
    /// of the period (3 = quarterly).
    #[serde(default = "resize_every")]
    pub resize_every_months: u32,
}

fn migration_threshold() -> f64 {
    DEFAULT_MIGRATION_THRESHOLD_USD_MONTH
}

fn min_dwell() -> u32 {
    DEFAULT_MIN_DWELL_MONTHS
}

fn max_pools() -> u32 {
    DEFAULT_MAX_POOLS
}

fn resize_every() -> u32 {
    DEFAULT_RESIZE_EVERY_MONTHS
}

/// Saving a month below which the estate is not re-planned, USD.
pub const DEFAULT_MIGRATION_THRESHOLD_USD_MONTH: f64 = 100.0;
/// Months a workload stays after a move.
pub const DEFAULT_MIN_DWELL_MONTHS: u32 = 6;
/// Capacity pools per NetApp account by default (service-limits: 25, more by request).
pub const DEFAULT_MAX_POOLS: u32 = 25;
/// Months between planned pool resizes.
pub const DEFAULT_RESIZE_EVERY_MONTHS: u32 = 3;

fn three() -> u32 {
    3
}

fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

fn is_no_term(t: &Term) -> bool {
    *t == Term::None
}

/// How one workload grows: % per year, or its capacity month by month.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkloadGrowth {
    /// Index in `workloads`.
    pub workload: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity_pct_per_year: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throughput_pct_per_year: Option<f64>,
    /// Total capacity (TiB) from month 0 on; the last value holds after the table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity_tib_by_month: Option<Vec<f64>>,
}

/// One workload moved to another ANF level for one month.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WhatIf {
    pub workload: usize,
    pub level: Level,
    /// Month of the timeline, from 0.
    pub month: u32,
}

/// Most growth a year, %.
const MAX_GROWTH_PCT: f64 = 1000.0;

fn pct(field: String, v: f64, hi: f64) -> Result<(), FieldError> {
    if v.is_finite() && (0.0..=hi).contains(&v) {
        Ok(())
    } else {
        Err(FieldError::new(
            field,
            format!(
                "must be a number from 0 to {hi} %, not {}",
                crate::format::given(v)
            ),
        ))
    }
}

impl EstateRequest {
    /// The ISO 4217 code the estate is priced in (USD without `pricing`).
    pub fn currency(&self) -> &str {
        self.pricing.as_ref().map_or("USD", |p| p.currency.as_str())
    }

    /// A request for `workloads` with every other field at its default.
    pub fn new(workloads: Vec<Scenario>) -> EstateRequest {
        EstateRequest {
            pricing: None,
            name: None,
            workloads,
            region: None,
            gcp_region: None,
            years: three(),
            growth_pct_per_year: 0.0,
            throughput_growth_pct_per_year: None,
            growth: Vec::new(),
            levels: None,
            discount_pct: 0.0,
            reservation: Term::None,
            what_if: Vec::new(),
            migration_threshold_usd_month: DEFAULT_MIGRATION_THRESHOLD_USD_MONTH,
            min_dwell_months: DEFAULT_MIN_DWELL_MONTHS,
            max_pools: DEFAULT_MAX_POOLS,
            resize_every_months: DEFAULT_RESIZE_EVERY_MONTHS,
        }
    }

    /// Checks the request's own fields, reporting every wrong one at once (each
    /// workload is checked when it is planned), and returns the Azure region it is
    /// priced in.
    pub fn validate(&self, prices: &PriceBook) -> Result<String, FieldErrors> {
        let mut c = Checks::default();
        if self.workloads.is_empty() {
            c.push(FieldError::new(
                "workloads",
                format!("an estate holds 1 to {MAX_WORKLOADS} workloads; add one"),
            ));
        } else if self.workloads.len() > MAX_WORKLOADS {
            c.push(FieldError::new(
                "workloads",
                format!(
                    "this estate would have {} workloads; one estate holds at most \
                     {MAX_WORKLOADS}: remove some, or plan the rest as a second estate",
                    self.workloads.len()
                ),
            ));
        }
        if let Some(n) = &self.name {
            c.text("name", n, 200, false);
        }
        for (field, r) in [("region", &self.region), ("gcp_region", &self.gcp_region)] {
            if let Some(r) = r {
                c.text(field, r, crate::engine::scenario::MAX_REGION_CHARS, false);
            }
        }
        let region = match self.region.as_deref().map(str::trim) {
            None | Some("") => Some(prices.reference_region(Service::Anf).to_owned()),
            Some(r) => crate::engine::pricing::region_key(r)
                .and_then(|key| prices.anf(key))
                .map(|(k, _)| k.to_owned()),
        };
        if region.is_none() && !c.has("region") {
            let r = self.region.as_deref().unwrap_or_default().trim();
            c.push(FieldError::new(
                "region",
                crate::engine::pricing::unknown_anf_region(r),
            ));
        }
        if !(1..=MAX_YEARS).contains(&self.years) {
            c.push(FieldError::new(
                "years",
                format!(
                    "the timeline runs 1 to {MAX_YEARS} years; got {}",
                    self.years
                ),
            ));
        }
        c.check(pct(
            "growth_pct_per_year".into(),
            self.growth_pct_per_year,
            MAX_GROWTH_PCT,
        ));
        if let Some(t) = self.throughput_growth_pct_per_year {
            c.check(pct(
                "throughput_growth_pct_per_year".into(),
                t,
                MAX_GROWTH_PCT,
            ));
        }
        c.check(pct("discount_pct".into(), self.discount_pct, 100.0));
        if !(self.migration_threshold_usd_month.is_finite()
            && (0.0..=1e9).contains(&self.migration_threshold_usd_month))
        {
            c.push(FieldError::new(
                "migration_threshold_usd_month",
                format!(
                    "must be 0 or more USD a month (0 re-plans whenever it saves anything), not {}",
                    crate::format::given(self.migration_threshold_usd_month)
                ),
            ));
        }
        if self.min_dwell_months > 60 {
            c.push(FieldError::new(
                "min_dwell_months",
                format!("must be 0 to 60 months, not {}", self.min_dwell_months),
            ));
        }
        if !(1..=500).contains(&self.max_pools) {
            c.push(FieldError::new(
                "max_pools",
                format!(
                    "an account holds 1 to 500 capacity pools (25 by default); got {}",
                    self.max_pools
                ),
            ));
        }
        if !(1..=12).contains(&self.resize_every_months) {
            c.push(FieldError::new(
                "resize_every_months",
                format!(
                    "resize every 1 to 12 months (3 = quarterly); got {}",
                    self.resize_every_months
                ),
            ));
        }
        self.check_growth(&mut c);
        self.check_levels(&mut c);
        c.finish()?;
        Ok(region.expect("a missing region is a recorded error"))
    }

    /// Per-workload growth: each names a workload, its rates and monthly capacities in
    /// range.
    fn check_growth(&self, c: &mut Checks) {
        let n = self.workloads.len();
        let months = (self.years.clamp(1, MAX_YEARS) * 12) as usize;
        for (i, g) in self.growth.iter().enumerate() {
            if g.workload >= n {
                c.push(FieldError::new(
                    format!("growth[{i}].workload"),
                    format!("name a workload by its index, 0 to {}", n.saturating_sub(1)),
                ));
            }
            if let Some(v) = g.capacity_pct_per_year {
                c.check(pct(
                    format!("growth[{i}].capacity_pct_per_year"),
                    v,
                    MAX_GROWTH_PCT,
                ));
            }
            if let Some(v) = g.throughput_pct_per_year {
                c.check(pct(
                    format!("growth[{i}].throughput_pct_per_year"),
                    v,
                    MAX_GROWTH_PCT,
                ));
            }
            if let Some(t) = &g.capacity_tib_by_month {
                let field = format!("growth[{i}].capacity_tib_by_month");
                if t.is_empty() || t.len() > months + 1 {
                    c.push(FieldError::new(
                        field,
                        format!("give 1 to {} monthly capacities", months + 1),
                    ));
                } else if let Some(v) = t
                    .iter()
                    .find(|v| !(v.is_finite() && **v > 0.0 && **v <= 1e6))
                {
                    c.push(FieldError::new(
                        field,
                        format!("each capacity is above 0 and at most 1,000,000 TiB; got {v}"),
                    ));
                }
            }
        }
    }

    /// The levels the pools may use, and the one-month what-ifs.
    fn check_levels(&self, c: &mut Checks) {
        if let Some(levels) = &self.levels {
            if levels.is_empty() {
                c.push(FieldError::new(
                    "levels",
                    "name at least one ANF level, or leave it null for all",
                ));
            }
            if let Some(l) = levels.iter().find(|l| !Level::of(Service::Anf).contains(l)) {
                c.push(FieldError::new(
                    "levels",
                    format!(
                        "`{}` is not an ANF level; use standard, premium, ultra or flexible",
                        l.key()
                    ),
                ));
            }
        }
        let n = self.workloads.len();
        let months = self.years.clamp(1, MAX_YEARS) * 12;
        for (i, w) in self.what_if.iter().enumerate() {
            if w.workload >= n || self.workloads[w.workload].storage.service != Service::Anf {
                c.push(FieldError::new(
                    format!("what_if[{i}].workload"),
                    "name an Azure NetApp Files workload by its index",
                ));
            }
            if !Level::of(Service::Anf).contains(&w.level) {
                c.push(FieldError::new(
                    format!("what_if[{i}].level"),
                    "use standard, premium, ultra or flexible",
                ));
            }
            if w.month >= months {
                c.push(FieldError::new(
                    format!("what_if[{i}].month"),
                    format!("the timeline has months 0 to {}", months - 1),
                ));
            }
        }
    }

    /// The workloads with the estate's regions in place of their own.
    pub fn placed_workloads(&self, region: &str) -> Vec<Scenario> {
        self.workloads
            .iter()
            .map(|w| {
                let mut w = w.clone();
                w.id = None;
                // Priced in the estate's currency, whatever each was saved in.
                let p = w.pricing.get_or_insert_with(|| Pricing {
                    currency: String::new(),
                    discount_pct: 0.0,
                    reservation: Term::None,
                });
                p.currency = self.currency().to_owned();
                match w.storage.service {
                    Service::Gcnv => {
                        if let Some(g) = &self.gcp_region {
                            w.region = Some(g.clone());
                        }
                    }
                    _ => w.region = Some(region.to_owned()),
                }
                w
            })
            .collect()
    }

    /// Pool types the request lets the pools use.
    pub fn allowed(&self) -> u8 {
        match &self.levels {
            None => ALL_TYPES,
            Some(ls) => ls.iter().fold(0, |m, &l| m | PoolType::of_level(l)),
        }
    }

    /// The estate's name, or one made from its size.
    pub fn display_name(&self) -> String {
        self.name
            .clone()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| format!("Estate of {} workloads", self.workloads.len()))
    }

    /// The month a pool resize at month `m` sizes for: the last month of its period.
    pub fn horizon(&self, m: u32) -> u32 {
        let every = self.resize_every_months.max(1);
        (m - m % every + every - 1).min(self.years * 12 - 1)
    }

    /// Capacity and throughput factors of workload `w` at month `m` against month 0;
    /// `base_tib` is its month-0 capacity.
    pub fn factors(&self, w: usize, m: u32, base_tib: f64) -> (f64, f64) {
        let own = self.growth.iter().rev().find(|g| g.workload == w);
        let years = f64::from(m) / 12.0;
        let grow = |pct: f64| (1.0 + pct / 100.0).powf(years);
        let cap_pct = own
            .and_then(|g| g.capacity_pct_per_year)
            .unwrap_or(self.growth_pct_per_year);
        let fc = match own.and_then(|g| g.capacity_tib_by_month.as_ref()) {
            Some(t) if base_tib > 0.0 => t[(m as usize).min(t.len() - 1)] / base_tib,
            _ => grow(cap_pct),
        };
        let tp_pct = own
            .and_then(|g| g.throughput_pct_per_year)
            .or(self.throughput_growth_pct_per_year);
        let ft = match tp_pct {
            Some(p) => grow(p),
            None if own.is_some_and(|g| g.capacity_tib_by_month.is_some()) => fc,
            None => grow(cap_pct),
        };
        (fc, ft)
    }
}
