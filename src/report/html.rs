//! The report as one self-contained HTML file: inline CSS and SVG charts, a print
//! stylesheet, every text escaped by askama (a hostile scenario name shows as text).

use super::model::{ChartSvg, Report, ReportError, exact, money, tib};
use crate::engine::trace::Num;
use askama::Template;

/// The `Content-Security-Policy` to serve the report with: it needs its inline style and
/// inline SVG, and nothing else (no script, no fetches).
pub const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

#[derive(Template)]
#[template(path = "report/report.html")]
struct Page<'a> {
    r: &'a Report,
    cost_line: String,
    charts: &'a [ChartSvg],
}

impl Page<'_> {
    /// A number with thousands separators and at most `decimals` decimals.
    fn num(&self, v: &f64, decimals: usize) -> String {
        Num(*v, decimals).to_string()
    }

    /// A table's rate or count, exact to the unit ([`exact`]).
    fn exact(&self, v: &f64) -> String {
        exact(*v)
    }

    /// A capacity in TiB ([`tib`]).
    fn tib(&self, v: &f64) -> String {
        tib(*v)
    }

    /// A monthly price, or "n/a" without a list price.
    fn money(&self, v: &Option<f64>) -> String {
        money(*v)
    }
}

/// The cost paragraph shared by the HTML, PDF, Markdown and Excel reports: the total,
/// the region, currency, price date and price book with its source, every line, and for
/// a saved scenario the cost it was saved with.
pub fn cost_line(r: &Report) -> String {
    let c = &r.evaluation.cost;
    let mut text = format!(
        "Monthly cost {} {} in {} for {} TiB billed ({} {} per MiB/s), list prices as of {}, {} hours per month (price book {}: {}).",
        money(c.monthly_usd),
        c.currency,
        c.region,
        Num(c.billed_tib, 3),
        money(c.usd_per_mibps),
        c.currency,
        c.price_date,
        Num(c.hours_per_month, 1),
        c.price_book.id,
        c.price_book.source
    );
    for l in &c.lines {
        let price = l.unit_price.map_or_else(
            || "no public price".to_owned(),
            |u| format!("{} {}", Num(u, 5), c.currency),
        );
        text.push_str(&format!(
            " {}: {} {} at {} = {} {}.",
            l.item,
            Num(l.quantity, 2),
            l.unit,
            price,
            money(l.monthly),
            c.currency
        ));
    }
    if let Some(once) = c.one_time {
        text.push_str(&format!(
            " One-time lines {} {}, so the first month {} {}.",
            money(Some(once)),
            c.currency,
            money(c.monthly_usd.map(|m| m + once)),
            c.currency
        ));
    }
    if let Some(saved) = r.saved_cost_sentence() {
        text.push(' ');
        text.push_str(&saved);
    }
    text
}

/// Writes the HTML report with the given charts (in report order).
pub fn render_with(r: &Report, charts: &[ChartSvg]) -> Result<String, ReportError> {
    Page {
        r,
        cost_line: cost_line(r),
        charts,
    }
    .render()
    .map_err(|e| ReportError::Html(e.to_string()))
}

/// Writes the HTML report with its charts.
pub fn render(r: &Report) -> Result<String, ReportError> {
    let charts = super::model::chart_svgs(r)?;
    render_with(r, &charts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::fixture;

    #[test]
    fn hostile_name_is_text() {
        let (mut s, e) = fixture::example();
        s.name = "<script>alert(1)</script>".to_owned();
        let html = render_with(&Report::build(&s, &e, "2026-01-02"), &[]).unwrap();
        assert!(!html.contains("<script>"));
        assert!(
            html.contains("&#60;script&#62;alert(1)&#60;/script&#62;")
                || html.contains("&lt;script&gt;")
        );
        assert!(html.contains("◆ binding"));
        assert!(html.contains("@media print"));
        assert!(html.contains("<pre class=\"plan\">"));
        assert!(html.contains("--output-format=json"));
        assert!(
            !html.contains("\\<server>"),
            "the DiskSpd targets are escaped"
        );
    }
}
