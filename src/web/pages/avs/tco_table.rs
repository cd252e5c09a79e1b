//! The AVS page's hosts and TCO table: a row per option (hosts by driver, cores, VCF,
//! monthly at every term, totals at the verdict's term) and the difference row, so
//! every figure of the cost headline is in the table.

use super::AvsPage;
use crate::avs::{self, PurchaseTerm};
use crate::format;

/// A row of the hosts and TCO table, its figures formatted.
pub struct OptionRow {
    pub name: &'static str,
    /// "4", or "6 (2 added)" when a private cloud is expanded.
    pub hosts: String,
    pub cpu: u32,
    pub memory: u32,
    pub storage: String,
    pub driver: &'static str,
    /// Physical cores the hosts carry (what portable VCF must cover).
    pub cores: u32,
    /// VCF per month, then monthly at pay as you go, 1 and 3 years reserved, then the
    /// 1, 3 and 5-year totals at the plan's term; "no host price" where the hosts are
    /// all the figure would hold.
    pub money: Vec<String>,
}

impl AvsPage {
    /// The two rows of the TCO table. Without a host price the vSAN-only costs are
    /// missing and the ANF option's are its datastores' alone (the page says so above
    /// the table).
    pub fn options(&self) -> Vec<OptionRow> {
        let Some(p) = &self.plan else {
            return Vec::new();
        };
        let t = &p.tco;
        let row = |name, o: &avs::tco::OptionCost, priced: bool| {
            let h = &o.hosts;
            let payg = self.term() == PurchaseTerm::Payg;
            let figures = [
                o.licence_monthly.payg,
                o.monthly.payg,
                o.monthly.reserved_1y,
                o.monthly.reserved_3y,
            ]
            .into_iter()
            .chain(
                o.totals
                    .iter()
                    .map(|y| if payg { y.payg } else { y.reserved }),
            );
            OptionRow {
                name,
                hosts: h.shown(),
                cpu: h.drivers.cpu,
                memory: h.drivers.memory,
                storage: h.drivers.storage.map_or("-".to_owned(), |s| s.to_string()),
                driver: h.driver_name(),
                cores: o.cores,
                money: figures
                    .map(|v| {
                        if priced {
                            format::money(v, t.currency)
                        } else {
                            "no host price".to_owned()
                        }
                    })
                    .collect(),
            }
        };
        vec![
            row("vSAN only", &t.vsan_only, t.hosts_priced),
            row("With ANF datastores", &t.with_anf, true),
        ]
    }

    /// The difference row under the options: hosts and cores fewer, then the differences
    /// of the options' figures column by column (None without a host price).
    pub fn saving_row(&self) -> Option<(i64, i64, Vec<String>)> {
        let p = self.plan.as_ref()?;
        let t = &p.tco;
        if !t.hosts_priced {
            return None;
        }
        let (a, w) = (&t.vsan_only, &t.with_anf);
        let payg = self.term() == PurchaseTerm::Payg;
        let money = [
            t.saving.licence_monthly.payg,
            a.monthly.payg - w.monthly.payg,
            a.monthly.reserved_1y - w.monthly.reserved_1y,
            a.monthly.reserved_3y - w.monthly.reserved_3y,
        ]
        .into_iter()
        .chain(
            t.saving
                .totals
                .iter()
                .map(|y| if payg { y.payg } else { y.reserved }),
        )
        .map(|v| format::money(v, t.currency))
        .collect();
        Some((t.saving.hosts, t.saving.cores, money))
    }

    /// The purchase term the plan was judged at.
    fn term(&self) -> PurchaseTerm {
        self.verdict
            .as_ref()
            .map_or(PurchaseTerm::default(), |v| v.term)
    }

    /// What the 1, 3 and 5-year totals are.
    pub fn totals_note(&self) -> &'static str {
        if self.term() == PurchaseTerm::Payg {
            "Totals are at pay as you go, the term the verdict follows"
        } else {
            "Totals are reserved (1 year at the 1-year rate, 3 and 5 years at the 3-year rate)"
        }
    }

    /// The hint of the VCF price: the default it falls back to.
    pub fn vcf_price_hint(&self) -> String {
        format!(
            "Your Broadcom price; empty = the {}",
            avs::licence::LIST_PRICE_SOURCE
        )
    }
}
