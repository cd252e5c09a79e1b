//! VMware Cloud Foundation (VCF) licensing of AVS hosts.
//!
//! Since 1 November 2025 new AVS hosts come without VCF (Microsoft Learn, "Use portable
//! VMware Cloud Foundation (VCF) on Azure VMware Solution",
//! `azure-vmware/vmware-cloud-foundations-license-portability`, ms.date 2025-11-04): the
//! customer buys VCF from Broadcom and applies it per host, covering every physical
//! core. Hosts are then billed at the `VCF BYOL` rate and the cores at the customer's
//! price per core per year (plus add-ons such as the vDefend Firewall, per core). Hosts
//! on a licence-included reserved instance keep the licence-included rate until the
//! reservation ends.

use crate::engine::field_error::Checks;
use crate::engine::scenario::FieldError;
use serde::{Deserialize, Serialize};

/// How the hosts' VCF is licensed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Licensing {
    /// The customer's own VCF subscription (every new deployment since 1 November 2025):
    /// hosts at the `VCF BYOL` rate plus cores x the price per core.
    #[default]
    Portable,
    /// VCF included in the host price: only hosts on an existing licence-included
    /// reserved instance, until it ends.
    Included,
}

impl Licensing {
    /// "portable VCF", "VCF included".
    pub fn display(self) -> &'static str {
        match self {
            Licensing::Portable => "portable VCF",
            Licensing::Included => "VCF included",
        }
    }
}

/// A VCF add-on bought per core (e.g. the vDefend Firewall).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AddOn {
    #[schema(max_length = 60)]
    pub name: String,
    /// Price per core per year in the plan's currency.
    #[schema(minimum = 0, maximum = 100000)]
    pub price_per_core_year: f64,
}

/// The plan's VCF licensing (contract: request `vcf`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Vcf {
    #[serde(default)]
    pub licensing: Licensing,
    /// The customer's VCF price per core per year (portable); null = the public list
    /// figure [`LIST_PRICE_PER_CORE_YEAR`].
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100000)]
    pub price_per_core_year: Option<f64>,
    /// The end of the licence-included reserved instance (`included`), `YYYY-MM-DD`.
    #[serde(default)]
    #[schema(max_length = 10, example = "2027-08-30")]
    pub included_until: Option<String>,
    /// Add-ons priced per core per year (portable).
    #[serde(default)]
    #[schema(max_items = 8)]
    pub add_ons: Vec<AddOn>,
}

/// The VCF price per core per year used when the request gives none, USD: a public
/// list figure, not a Broadcom price sheet (Broadcom publishes none). Source: "VMware
/// Cloud Foundation Licensing", atonementlicensing.com (2026: "a 2026 list price near
/// $350 per core per year", discounted deals at roughly $185 to $275).
pub const LIST_PRICE_PER_CORE_YEAR: f64 = 350.0;

/// Where [`LIST_PRICE_PER_CORE_YEAR`] comes from, as the page and reports state it.
pub const LIST_PRICE_SOURCE: &str = "assumed public list figure of about $350 per core per year (VMware Cloud Foundation licensing guide, atonementlicensing.com, 2026); Broadcom publishes no price list, so enter your own price";

/// Most add-ons a plan lists.
const MAX_ADD_ONS: usize = 8;

/// What the plan's licensing costs per core, and in words.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct LicenceTerms {
    pub licensing: Licensing,
    /// VCF plus add-ons per core per year (0 when included).
    pub per_core_year: f64,
    /// VCF alone per core per year, and whether it is the user's figure.
    pub vcf_per_core_year: f64,
    pub user_price: bool,
    pub included_until: Option<String>,
    /// Where the price comes from (the user, or the stated public figure).
    pub basis: String,
}

impl Vcf {
    /// Checks every field into `c`, naming each (`vcf.price_per_core_year`, ...).
    pub fn check(&self, c: &mut Checks) {
        let price = |c: &mut Checks, field: String, v: f64| {
            if !(v.is_finite() && (0.0..=100_000.0).contains(&v)) {
                c.push(FieldError::new(
                    field,
                    format!(
                        "must be a price per core per year from 0 to 100000, not {}",
                        crate::format::given(v)
                    ),
                ));
            }
        };
        if let Some(v) = self.price_per_core_year {
            price(c, "vcf.price_per_core_year".into(), v);
        }
        if let Some(d) = &self.included_until
            && !is_date(d)
        {
            c.push(FieldError::new(
                "vcf.included_until",
                "must be a date written YYYY-MM-DD (the licence-included reservation's end)",
            ));
        }
        if self.add_ons.len() > MAX_ADD_ONS {
            c.push(FieldError::new(
                "vcf.add_ons",
                format!("at most {MAX_ADD_ONS} add-ons"),
            ));
        }
        for (i, a) in self.add_ons.iter().enumerate() {
            c.text(&format!("vcf.add_ons[{i}].name"), &a.name, 60, false);
            price(
                c,
                format!("vcf.add_ons[{i}].price_per_core_year"),
                a.price_per_core_year,
            );
        }
    }

    /// The price per core and its basis.
    pub fn terms(&self, currency: &str) -> LicenceTerms {
        let vcf = self.price_per_core_year.unwrap_or(LIST_PRICE_PER_CORE_YEAR);
        let add: f64 = self.add_ons.iter().map(|a| a.price_per_core_year).sum();
        let money = |v: f64| crate::format::money(v, currency);
        let (per_core_year, basis) = match self.licensing {
            Licensing::Included => (
                0.0,
                match &self.included_until {
                    Some(d) => format!(
                        "VCF included in the host price until the licence-included reservation ends on {d}; after it the hosts need portable VCF"
                    ),
                    None => "VCF included in the host price (an existing licence-included reservation); after it ends the hosts need portable VCF".to_owned(),
                },
            ),
            Licensing::Portable => {
                let mut basis = match self.price_per_core_year {
                    Some(v) => format!("portable VCF at your price of {} per core per year", money(v)),
                    None => format!("portable VCF at an {LIST_PRICE_SOURCE}"),
                };
                for a in &self.add_ons {
                    basis.push_str(&format!(
                        "; {} at {} per core per year",
                        a.name,
                        money(a.price_per_core_year)
                    ));
                }
                (vcf + add, basis)
            }
        };
        LicenceTerms {
            licensing: self.licensing,
            per_core_year,
            vcf_per_core_year: vcf,
            user_price: self.price_per_core_year.is_some(),
            included_until: self.included_until.clone(),
            basis,
        }
    }
}

/// True for a real calendar date written `YYYY-MM-DD`.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let n = |r: std::ops::Range<usize>| s.get(r).and_then(|t| t.parse::<u16>().ok());
    match (n(0..4), n(5..7), n(8..10)) {
        (Some(y), Some(m), Some(d)) => time::Month::try_from(m as u8)
            .and_then(|m| time::Date::from_calendar_date(i32::from(y), m, d as u8))
            .is_ok(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_name_every_wrong_field() {
        let v = Vcf {
            licensing: Licensing::Portable,
            price_per_core_year: Some(-1.0),
            included_until: Some("2027-02-30".into()),
            add_ons: vec![AddOn {
                name: "vDefend Firewall".into(),
                price_per_core_year: f64::NAN,
            }],
        };
        let mut c = Checks::default();
        v.check(&mut c);
        let e = c.finish().unwrap_err();
        let fields: Vec<&str> = e.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "vcf.price_per_core_year",
                "vcf.included_until",
                "vcf.add_ons[0].price_per_core_year"
            ]
        );
    }

    #[test]
    fn portable_adds_add_ons_and_included_costs_nothing_per_core() {
        let mut v = Vcf {
            add_ons: vec![AddOn {
                name: "vDefend Firewall".into(),
                price_per_core_year: 50.0,
            }],
            ..Vcf::default()
        };
        assert_eq!(v.terms("USD").per_core_year, 400.0);
        assert!(v.terms("USD").basis.contains("assumed public list figure"));
        v.licensing = Licensing::Included;
        v.included_until = Some("2027-08-30".into());
        let t = v.terms("USD");
        assert_eq!(t.per_core_year, 0.0);
        assert!(t.basis.contains("2027-08-30"));
    }
}
