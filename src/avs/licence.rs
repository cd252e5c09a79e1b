//! The AVS plan's VCF licensing in words: the price per core and its basis (the types
//! and checks are the engine's, [`crate::engine::licence`]).

pub use crate::engine::licence::{AddOn, LIST_PRICE_PER_CORE_YEAR, Licensing, Vcf};
use serde::Serialize;

/// Where [`LIST_PRICE_PER_CORE_YEAR`] comes from, as the page and reports state it.
pub const LIST_PRICE_SOURCE: &str = "assumed public list figure of about $350 per core per year (VMware Cloud Foundation licensing guide, atonementlicensing.com, 2026); Broadcom publishes no price list, so enter your own price";

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
    /// The price per core and its basis.
    pub fn terms(&self, currency: &str) -> LicenceTerms {
        let vcf = self.vcf_per_core_year();
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
                (self.per_core_year(), basis)
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

#[cfg(test)]
mod tests {
    use super::*;

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
