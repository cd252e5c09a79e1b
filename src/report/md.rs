//! The report as Markdown: headings and tables for a wiki; charts linked, not embedded.

use super::latency;
use super::model::{Report, TestPlan, exact, money, tib};
use crate::engine::trace::Num;
use std::fmt::Write;

/// Escapes text for Markdown: punctuation that would start markup is backslash-escaped,
/// line breaks become spaces, so a scenario name cannot inject links, HTML or table cells.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' | '!' | '~' => {
                out.push('\\');
                out.push(ch);
            }
            '&' => out.push_str("&amp;"),
            '\r' | '\n' | '\t' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A code fence longer than any run of backticks in `text`, so the text cannot close it.
pub fn fence(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for ch in text.chars() {
        run = if ch == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat((longest + 1).max(3))
}

fn pct(v: f64) -> String {
    format!("{}%", Num(v, 1))
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// Writes the Markdown report.
pub fn render(r: &Report) -> String {
    let mut o = String::new();
    // Writing to a String cannot fail.
    let _ = write_report(&mut o, r);
    o
}

fn write_report(o: &mut String, r: &Report) -> std::fmt::Result {
    writeln!(o, "# {}\n", escape(&r.title))?;
    writeln!(o, "{}\n", escape(&r.subtitle))?;
    writeln!(
        o,
        "Generated {} · Catalog {} · Prices as of {}\n",
        r.date,
        escape(r.catalog_version),
        escape(&r.price_date)
    )?;
    if let Some(m) = &r.meta {
        for (label, value) in [
            ("Customer", &m.customer),
            ("Project", &m.project),
            ("Prepared by", &m.author),
        ] {
            if !value.is_empty() {
                writeln!(o, "- {label}: {}", escape(value))?;
            }
        }
        writeln!(o)?;
    }

    writeln!(o, "## Executive summary\n")?;
    for p in &r.summary {
        writeln!(o, "{}\n", escape(p))?;
    }
    if let Some(m) = r.meta.as_ref().filter(|m| !m.notes.is_empty()) {
        writeln!(o, "### Notes\n")?;
        for line in m.notes.lines() {
            writeln!(o, "> {}", escape(line))?;
        }
        writeln!(o)?;
    }

    writeln!(o, "## Results\n")?;
    writeln!(o, "| Figure | Value | Unit |\n|---|---:|---|")?;
    for f in &r.headline {
        writeln!(o, "| {} | {} | {} |", f.label, f.text(), f.unit)?;
    }
    writeln!(o)?;
    if let Some(t) = &r.targets {
        writeln!(o, "**{}**\n", escape(&t.text))?;
    }

    writeln!(o, "## Bound by\n")?;
    writeln!(o, "{}\n", escape(&r.binding.sentence))?;

    writeln!(o, "## Latency\n")?;
    writeln!(o, "{}\n", escape(&r.latency))?;
    writeln!(
        o,
        "| Load (% of achievable) | IOPS | MiB/s | Latency ms |\n|---:|---:|---:|---:|"
    )?;
    for p in r.evaluation.latency_curve.points() {
        writeln!(
            o,
            "| {} | {} | {} | {} |",
            Num(p.load_pct, 0),
            exact(p.iops),
            exact(p.mibps),
            latency::ms(p.latency_ms)
        )?;
    }
    writeln!(o)?;

    writeln!(o, "## Limits\n")?;
    writeln!(
        o,
        "| Limit | Applies to | MiB/s | IOPS | Headroom | Source |\n|---|---|---:|---:|---:|---|"
    )?;
    for l in &r.limits {
        let mut name = escape(&l.label);
        if l.binding {
            name = format!("**{name}** (binding)");
        }
        if l.assumption {
            name.push_str(" (assumption)");
        }
        writeln!(
            o,
            "| {name} | {} | {} | {} | {} | {} |",
            l.applies,
            exact(l.mibps),
            exact(l.iops),
            pct(l.headroom_pct),
            escape(&l.source)
        )?;
    }
    writeln!(o)?;

    writeln!(o, "## Cost and sizing\n")?;
    writeln!(o, "{}\n", escape(&super::html::cost_line(r)))?;
    if !r.sizing.is_empty() {
        writeln!(o, "{}\n", r.sizing_basis)?;
        writeln!(
            o,
            "| Level | Quota TiB | Pool TiB | Throughput MiB/s | Monthly USD | Meets targets |\n|---|---:|---:|---:|---:|---|"
        )?;
        for z in &r.sizing {
            let mut name = escape(&z.name);
            if z.cheapest {
                name = format!("**{name}** (cheapest)");
            }
            if z.current {
                name.push_str(" (this scenario)");
            }
            let tp = z
                .throughput_mibps
                .map(exact)
                .unwrap_or_else(|| "-".to_owned());
            writeln!(
                o,
                "| {name} | {} | {} | {tp} | {} | {} |",
                tib(z.quota_tib),
                tib(z.pool_tib),
                money(z.monthly_usd),
                yes(z.meets)
            )?;
        }
        writeln!(o)?;
    }

    writeln!(o, "## Advice\n")?;
    if r.advice.is_empty() {
        writeln!(o, "No advice for this scenario.\n")?;
    } else {
        for a in &r.advice {
            writeln!(
                o,
                "- **{}** `{}`: {}",
                a.severity,
                a.code,
                escape(&a.message)
            )?;
        }
        writeln!(o)?;
    }

    writeln!(o, "## Assumptions\n")?;
    writeln!(o, "{}\n", escape(&r.provenance))?;
    if !r.assumptions.is_empty() {
        for a in &r.assumptions {
            writeln!(o, "- {}", escape(a))?;
        }
        writeln!(o)?;
    }

    if !r.sources.is_empty() {
        writeln!(o, "## Sources\n")?;
        for (i, d) in r.sources.iter().enumerate() {
            writeln!(o, "{}. {}: <{}>", i + 1, escape(&d.title), d.url)?;
        }
        writeln!(o)?;
    }

    writeln!(o, "## Inputs\n")?;
    writeln!(o, "| Section | Input | Value | Unit |\n|---|---|---|---|")?;
    for i in &r.inputs {
        writeln!(
            o,
            "| {} | {} | {} | {} |",
            i.section,
            escape(&i.label),
            escape(&i.value),
            i.unit
        )?;
    }
    writeln!(o)?;

    if let Some(rows) = &r.comparison {
        writeln!(o, "## Comparison\n")?;
        writeln!(
            o,
            "| Scenario | Storage | MiB/s | IOPS | Bound by | Monthly USD | Targets met |\n|---|---|---:|---:|---|---:|---|"
        )?;
        for c in rows {
            writeln!(
                o,
                "| {} | {} | {} | {} | {} | {} | {} |",
                escape(&c.name),
                escape(&c.storage),
                exact(c.throughput_mibps),
                exact(c.iops),
                escape(&c.binding_label),
                money(c.monthly_usd),
                yes(c.met)
            )?;
        }
        writeln!(o)?;
    }

    if let Some(rows) = &r.layouts {
        writeln!(o, "## Volume layouts\n")?;
        writeln!(
            o,
            "| Volumes | Quota TiB each | MiB/s | IOPS | Connections | Bound by | Monthly USD | Targets met |\n|---:|---:|---:|---:|---:|---|---:|---|"
        )?;
        for l in rows {
            writeln!(
                o,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                l.count,
                tib(l.quota_tib),
                exact(l.throughput_mibps),
                exact(l.iops),
                l.connections,
                escape(&l.binding_label),
                money(l.monthly_usd),
                yes(l.met)
            )?;
        }
        writeln!(o)?;
    }

    writeln!(o, "## {}\n", TestPlan::TITLE)?;
    writeln!(o, "{}\n", r.test_plan.note())?;
    for (title, text) in r.test_plan.parts() {
        let lang = if title.starts_with("fio") {
            "ini"
        } else if title.starts_with("DiskSpd") {
            "powershell"
        } else {
            "text"
        };
        let fence = fence(text);
        writeln!(o, "### {title}\n")?;
        writeln!(o, "{fence}{lang}\n{}\n{fence}\n", text.trim_end())?;
    }

    if let Some(id) = r.scenario.id {
        writeln!(o, "## Charts\n")?;
        for c in &r.charts {
            writeln!(
                o,
                "- [{}](/scenarios/{id}/charts/{}.svg)",
                c.title(),
                c.key()
            )?;
        }
        writeln!(o)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::fixture;

    #[test]
    fn escapes_markup_in_names() {
        assert_eq!(escape("<b>|x|</b>"), "\\<b\\>\\|x\\|\\</b\\>");
        assert_eq!(escape("a\nb"), "a b");
        assert_eq!(escape("[x](javascript:1)"), "\\[x\\](javascript:1)");
    }

    #[test]
    fn report_has_sections_and_binding_limit() {
        let (s, e) = fixture::example();
        let md = render(&Report::build(&s, &e, "2026-01-02"));
        for h in [
            "# AVS 4 x 20 TiB Ultra",
            "## Results",
            "## Bound by",
            "## Latency",
            "## Limits",
            "## Inputs",
        ] {
            assert!(md.contains(h), "missing {h}");
        }
        let r = Report::build(&s, &e, "2026-01-02");
        let bound = format!("**{}** (binding)", escape(&r.binding.label));
        assert!(md.contains(&bound), "binding limit marked: {bound}");
        assert_eq!(md.matches("(binding)").count(), 1);
        assert!(!md.contains("## Charts"), "no id: no chart links");
        assert!(md.contains("## Verification test plan"));
        assert!(md.contains("```ini\n# volplan test plan"));
        assert!(md.contains("--output-format=json"));
    }

    #[test]
    fn fences_outlast_backticks_in_the_text() {
        assert_eq!(fence("plain"), "```");
        assert_eq!(fence("a ``` b ```` c"), "`````");
        let (mut s, e) = fixture::example();
        s.name = "x\n```\n# injected".to_owned();
        let md = render(&Report::build(&s, &e, "2026-01-02"));
        assert!(md.contains("````ini\n"), "a longer fence around the job");
        assert!(
            !md.contains("\n# injected"),
            "the name stays inside the block"
        );
    }
}
