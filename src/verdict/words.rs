//! How the verdict writes its figures: money, shares, capacities and layouts, with the
//! engine's number formatting ([`Num`], [`Sig`]) so every statement rounds alike.

use crate::engine::scenario::{Level, Scenario, Service};
use crate::engine::trace::{Exact, Num};

/// A money amount, whole units from 100 up, cents below: "$14,446", "$12.50"; other
/// currencies by their code ("EUR 14,446").
pub fn money(v: f64, currency: &str) -> String {
    let n = if v.abs() >= 100.0 {
        Num(v.abs(), 0).to_string()
    } else {
        format!("{:.2}", v.abs())
    };
    let sign = if v < 0.0 && !n.trim_start_matches(['0', '.']).is_empty() {
        "-"
    } else {
        ""
    };
    match currency {
        "USD" => format!("{sign}${n}"),
        c => format!("{sign}{c} {n}"),
    }
}

/// A monthly amount: "$14,446/month", or "no list price".
pub fn monthly(v: Option<f64>, currency: &str) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{}/month", money(v, currency)),
        _ => "no list price".to_owned(),
    }
}

/// A rate, whole MiB/s from 10 up so that two close figures stay apart: "4,337 MiB/s",
/// "10,189 MiB/s", "6.25 MiB/s".
pub fn mibps(v: f64) -> String {
    format!("{} MiB/s", Exact(v))
}

/// A share in percent with a sign: "+8.4 %", "-20 %"; whole percent from 10 up.
pub fn signed_pct(v: f64) -> String {
    let decimals = if v.abs() >= 10.0 { 0 } else { 1 };
    let sign = if v > 0.0 { "+" } else { "" };
    format!("{sign}{} %", Num(v, decimals))
}

/// A share in percent without a sign: "8.4 %".
pub fn pct(v: f64) -> String {
    let decimals = if v.abs() >= 10.0 { 0 } else { 1 };
    format!("{} %", Num(v.abs(), decimals))
}

/// A capacity: "50 TiB", "1.25 TiB".
pub fn tib(v: f64) -> String {
    format!("{} TiB", Num(v, 2))
}

/// Milliseconds with three significant digits: "4.7 ms", "0.312 ms", "12.6 ms".
pub fn ms(v: f64) -> String {
    format!("{} ms", ms_figure(v))
}

/// The figure of [`ms`] without its unit: `3.47`, `0.312`, `12.4`, `125`.
pub fn ms_figure(v: f64) -> String {
    let decimals = match v.abs() {
        a if a >= 100.0 => 0,
        a if a >= 10.0 => 1,
        a if a >= 1.0 => 2,
        _ => 3,
    };
    Num(v, decimals).to_string()
}

/// A service level as the vendor writes it: "Flexible", "SSD provisioned v2".
pub fn level(service: Service, level: Level) -> &'static str {
    level.display(service)
}

/// What one volume is called for a scenario: "datastore", "share" or "volume".
pub fn volume_noun(s: &Scenario, plural: bool) -> &'static str {
    match (s.clients.avs.is_some(), s.storage.service, plural) {
        (true, _, false) => "datastore",
        (true, _, true) => "datastores",
        (false, Service::AzureFiles, false) => "share",
        (false, Service::AzureFiles, true) => "shares",
        (false, _, false) => "volume",
        (false, _, true) => "volumes",
    }
}

/// The volumes as laid out: "4 x 20 TiB", "1 x 50 TiB + 2 x 1 TiB".
pub fn layout(s: &Scenario) -> String {
    s.storage
        .volumes
        .iter()
        .map(|g| count_x(g.count, g.quota_tib))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// "4 x 20 TiB".
pub fn count_x(count: u32, quota_tib: f64) -> String {
    format!("{count} x {}", tib(quota_tib))
}

/// "1 client VM", "4 client VMs".
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", Num(n as f64, 0), if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_read_as_people_write_them() {
        assert_eq!(money(14_446.2, "USD"), "$14,446");
        assert_eq!(money(-7_214.4, "USD"), "-$7,214");
        assert_eq!(money(12.5, "USD"), "$12.50");
        assert_eq!(money(0.001, "USD"), "$0.00");
        assert_eq!(money(-0.001, "USD"), "$0.00");
        assert_eq!(money(300_000.0, "EUR"), "EUR 300,000");
        assert_eq!(monthly(None, "USD"), "no list price");
        assert_eq!(signed_pct(8.43), "+8.4 %");
        assert_eq!(signed_pct(-20.01), "-20 %");
        assert_eq!(pct(-20.01), "20 %");
        assert_eq!(ms(4.6871), "4.69 ms");
        assert_eq!(ms(12.56), "12.6 ms");
        assert_eq!(mibps(4_337.2), "4,337 MiB/s");
        assert_eq!(count_x(20, 4.0), "20 x 4 TiB");
        assert_eq!(plural(1, "host", "hosts"), "1 host");
    }
}
