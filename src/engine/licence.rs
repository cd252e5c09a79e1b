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

use super::field_error::{Checks, FieldError};
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

/// VCF licensing of AVS hosts (the AVS plan's `vcf`, a scenario's `clients.avs.vcf`).
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

/// The VCF price per core per year used when none is given, USD: a public list figure,
/// not a Broadcom price sheet (Broadcom publishes none). Source: "VMware Cloud Foundation
/// Licensing", atonementlicensing.com (2026: "a 2026 list price near $350 per core per
/// year", discounted deals at roughly $185 to $275).
pub const LIST_PRICE_PER_CORE_YEAR: f64 = 350.0;

/// Most add-ons a plan lists.
const MAX_ADD_ONS: usize = 8;

/// Highest price per core per year accepted.
const MAX_PRICE: f64 = 100_000.0;

impl Vcf {
    /// Checks every field into `c`, naming each under `prefix` (`vcf`,
    /// `clients.avs.vcf`); `currency` is the plan's or scenario's. The list figure
    /// [`LIST_PRICE_PER_CORE_YEAR`] is in US dollars and is never converted: portable
    /// licensing in another currency needs the user's own price.
    pub fn check(&self, c: &mut Checks, prefix: &str, currency: &str) {
        const UNIT: &str = "per core per year";
        if self.licensing == Licensing::Portable
            && self.price_per_core_year.is_none()
            && !currency.trim().eq_ignore_ascii_case("USD")
        {
            let currency = currency.trim().to_ascii_uppercase();
            c.push(FieldError::new(
                format!("{prefix}.price_per_core_year"),
                format!(
                    "the VCF list figure of about $350 per core per year is in US dollars and \
                     prices in {currency} are never converted: enter your VCF price per core per \
                     year in {currency}, or choose licences included"
                ),
            ));
        }
        if let Some(v) = self.price_per_core_year {
            c.range(
                &format!("{prefix}.price_per_core_year"),
                v,
                0.0,
                MAX_PRICE,
                UNIT,
            );
        }
        if let Some(d) = &self.included_until
            && !is_date(d)
        {
            c.push(FieldError::new(
                format!("{prefix}.included_until"),
                "must be a date written YYYY-MM-DD (the licence-included reservation's end)",
            ));
        }
        if self.add_ons.len() > MAX_ADD_ONS {
            c.push(FieldError::new(
                format!("{prefix}.add_ons"),
                format!("at most {MAX_ADD_ONS} add-ons"),
            ));
        }
        for (i, a) in self.add_ons.iter().enumerate() {
            c.text(&format!("{prefix}.add_ons[{i}].name"), &a.name, 60, false);
            c.range(
                &format!("{prefix}.add_ons[{i}].price_per_core_year"),
                a.price_per_core_year,
                0.0,
                MAX_PRICE,
                UNIT,
            );
        }
    }

    /// The VCF price per core per year: the given one, else the list figure.
    pub fn vcf_per_core_year(&self) -> f64 {
        self.price_per_core_year.unwrap_or(LIST_PRICE_PER_CORE_YEAR)
    }

    /// What each core costs a year: VCF plus add-ons when portable, 0 when included.
    pub fn per_core_year(&self) -> f64 {
        match self.licensing {
            Licensing::Included => 0.0,
            Licensing::Portable => {
                self.vcf_per_core_year()
                    + self
                        .add_ons
                        .iter()
                        .map(|a| a.price_per_core_year)
                        .sum::<f64>()
            }
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
        v.check(&mut c, "vcf", "USD");
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
    fn the_dollar_list_figure_is_never_taken_as_another_currency() {
        let portable = Vcf::default();
        let checked = |v: &Vcf, currency: &str| {
            let mut c = Checks::default();
            v.check(&mut c, "vcf", currency);
            c.finish()
        };
        assert!(checked(&portable, "USD").is_ok());
        let e = checked(&portable, "EUR").unwrap_err();
        let e = e.iter().next().unwrap();
        assert_eq!(e.field, "vcf.price_per_core_year");
        assert!(e.message.contains("in EUR"), "{}", e.message);
        // The user's own price, or licences included, is priced in any currency.
        let own = Vcf {
            price_per_core_year: Some(320.0),
            ..Vcf::default()
        };
        assert!(checked(&own, "EUR").is_ok());
        let included = Vcf {
            licensing: Licensing::Included,
            ..Vcf::default()
        };
        assert!(checked(&included, "EUR").is_ok());
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
        assert_eq!(v.per_core_year(), 400.0);
        v.licensing = Licensing::Included;
        assert_eq!(v.per_core_year(), 0.0);
    }
}
