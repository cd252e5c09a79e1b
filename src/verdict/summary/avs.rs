//! An AVS plan's words around its verdict: the charts' captions. The executive summary, the cheaper option on each term,
//! the break-even and what drives the hosts are the verdict's ([`crate::verdict::avs`]).

use crate::avs::AvsPlan;
use crate::format::{count, pct};

/// The fill chart's caption.
pub fn fill_caption(p: &AvsPlan) -> String {
    let fullest = p
        .datastores
        .iter()
        .map(|d| d.fill_pct)
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let busiest = p
        .datastores
        .iter()
        .filter(|d| d.qos_mibps > 0.0)
        .map(|d| d.demand_mibps / d.qos_mibps * 100.0)
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    format!(
        "{} datastore{}: the fullest holds {} of its quota, the busiest uses {} of its QoS throughput.",
        count(p.datastores.len() as u64),
        if p.datastores.len() == 1 { "" } else { "s" },
        pct(fullest, 0),
        pct(busiest, 0)
    )
}

/// The TCO chart's caption: what it draws (which option is cheaper is the verdict's to
/// say, beside it).
pub fn tco_caption() -> String {
    "Hosts and storage a month for both options on each purchase term: pay as you go, 1-year and 3-year reserved.".to_owned()
}
