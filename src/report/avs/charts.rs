//! The AVS page's two charts as inline SVG: each datastore's fill and throughput (used
//! against quota, demand against QoS), and the monthly cost of vSAN only against ANF
//! datastores, hosts and storage stacked.

use crate::avs::AvsPlan;
use crate::avs::tco::Tco;
/// Text escaped for SVG markup.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Datastore fill (%) and throughput use (%) as paired bars, one pair per datastore.
pub fn fill(p: &AvsPlan) -> String {
    let n = p.datastores.len().max(1);
    let bar = (640.0 / n as f64).clamp(4.0, 40.0);
    let width = (bar * n as f64 + 80.0).max(320.0);
    let (h, top) = (180.0, 20.0);
    let mut s = format!(
        r#"<svg class="avs-chart" role="img" viewBox="0 0 {width:.0} 240" width="{width:.0}" height="240" xmlns="http://www.w3.org/2000/svg"><title>Datastore fill and throughput use</title>"#
    );
    for pct in [0, 50, 100] {
        let y = top + h - h * f64::from(pct) / 100.0;
        s += &format!(
            r##"<line x1="40" x2="{width:.0}" y1="{y:.1}" y2="{y:.1}" stroke="#d0d7de"/><text x="4" y="{:.1}" font-size="10">{pct} %</text>"##,
            y + 3.0
        );
    }
    for (i, d) in p.datastores.iter().enumerate() {
        let x = 44.0 + i as f64 * bar;
        let fill = (d.fill_pct / 100.0).clamp(0.0, 1.0) * h;
        let thr = if d.qos_mibps > 0.0 {
            (d.demand_mibps / d.qos_mibps).clamp(0.0, 1.0) * h
        } else {
            0.0
        };
        let w = (bar / 2.0 - 1.0).max(1.0);
        s += &format!(
            r##"<rect x="{x:.1}" y="{:.1}" width="{w:.1}" height="{fill:.1}" fill="#0969da"><title>{}: {:.0} % full</title></rect>"##,
            top + h - fill,
            esc(&d.name),
            d.fill_pct
        );
        s += &format!(
            r##"<rect x="{:.1}" y="{:.1}" width="{w:.1}" height="{thr:.1}" fill="#bf8700"><title>{}: {:.0} of {:.0} MiB/s</title></rect>"##,
            x + w + 1.0,
            top + h - thr,
            esc(&d.name),
            d.demand_mibps,
            d.qos_mibps
        );
    }
    s += r##"<rect x="44" y="222" width="10" height="10" fill="#0969da"/><text x="58" y="231" font-size="11">capacity used of quota</text><rect x="210" y="222" width="10" height="10" fill="#bf8700"/><text x="224" y="231" font-size="11">MiB/s of the datastore's QoS</text></svg>"##;
    s
}

/// Monthly cost of each option at pay as you go and reserved 3 years, hosts and ANF
/// stacked.
pub fn tco(t: &Tco) -> String {
    let bars = [
        (
            "vSAN only, PAYG",
            t.vsan_only.hosts_monthly.payg,
            t.vsan_only.anf_monthly.payg,
        ),
        (
            "vSAN only, 3 y",
            t.vsan_only.hosts_monthly.reserved_3y,
            t.vsan_only.anf_monthly.reserved_3y,
        ),
        (
            "ANF datastores, PAYG",
            t.with_anf.hosts_monthly.payg,
            t.with_anf.anf_monthly.payg,
        ),
        (
            "ANF datastores, 3 y",
            t.with_anf.hosts_monthly.reserved_3y,
            t.with_anf.anf_monthly.reserved_3y,
        ),
    ];
    let max = bars.iter().map(|b| b.1 + b.2).fold(1.0, f64::max);
    let mut s = String::from(
        r#"<svg class="avs-chart" role="img" viewBox="0 0 640 200" width="640" height="200" xmlns="http://www.w3.org/2000/svg"><title>Monthly cost: vSAN only against ANF datastores</title>"#,
    );
    for (i, (label, hosts, anf)) in bars.iter().enumerate() {
        let y = 10.0 + i as f64 * 40.0;
        let wh = hosts / max * 400.0;
        let wa = anf / max * 400.0;
        s += &format!(
            r##"<text x="0" y="{:.1}" font-size="11">{}</text><rect x="150" y="{y:.1}" width="{wh:.1}" height="24" fill="#0969da"><title>hosts {:.0} USD</title></rect><rect x="{:.1}" y="{y:.1}" width="{wa:.1}" height="24" fill="#1a7f37"><title>ANF {:.0} USD</title></rect><text x="{:.1}" y="{:.1}" font-size="11">{:.0} USD</text>"##,
            y + 16.0,
            esc(label),
            hosts,
            150.0 + wh,
            anf,
            155.0 + wh + wa,
            y + 16.0,
            hosts + anf
        );
    }
    s += r##"<rect x="150" y="176" width="10" height="10" fill="#0969da"/><text x="164" y="185" font-size="11">hosts</text><rect x="220" y="176" width="10" height="10" fill="#1a7f37"/><text x="234" y="185" font-size="11">ANF datastores</text></svg>"##;
    s
}
