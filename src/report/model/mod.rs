//! A scenario's sizing report as data: everything every format shows, built once from
//! a scenario and its evaluation (and, when asked for, other scenarios to compare with
//! and volume layouts), so the formats cannot disagree about a number. Its conclusions
//! are the verdict's ([`crate::verdict`]), printed as they are; its other words come
//! from [`crate::report::summary`]. The writers are elsewhere, and the model holds no
//! clock: the caller passes the date (see [`today_utc`]).

mod inputs;
mod plan;
mod rows;

pub use inputs::{InputRow, input_rows, subtitle};
pub use plan::{PlanPath, TestPlan};
pub use rows::{
    AdviceRow, Binding, CompareRow, Figure, LayoutRow, LimitRow, Shown, SizingRow, TargetLine,
};

use crate::engine::evaluation::SizingBasis;
use crate::engine::meta::Meta;
use crate::engine::pricing::PriceBook;
use crate::engine::sweep;
use crate::engine::{Evaluation, FieldErrors, Scenario};
use crate::prices::reprice::CostSnapshot;
use crate::report::charts::{Chart, ChartName};
use crate::report::sources::{self, Document};
use crate::report::{Edition, summary};
use crate::verdict::{self, SetVerdict, Verdict};

/// The cost a saved revision was saved with.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedCost {
    pub revision: i64,
    /// The save's date (YYYY-MM-DD, UTC).
    pub saved_at: String,
    /// `None` for a revision saved before costs were kept.
    pub cost: Option<CostSnapshot>,
}

/// Other scenarios set beside the report's.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// This scenario first, then the others.
    pub rows: Vec<CompareRow>,
    /// The others with their evaluations, for the chart.
    pub others: Vec<(Scenario, Evaluation)>,
    /// The verdict on the scenarios together.
    pub verdict: SetVerdict,
}

/// The same capacity over different volume counts.
#[derive(Debug, Clone)]
pub struct Layouts {
    pub rows: Vec<LayoutRow>,
    /// The same layouts as the layouts chart draws them.
    pub sweep: Vec<sweep::LayoutRow>,
    /// The verdict on the layouts, with why each gets its result.
    pub verdict: verdict::layouts::LayoutsVerdict,
}

/// The whole report.
#[derive(Debug, Clone)]
pub struct Report {
    /// The scenario's name.
    pub title: String,
    /// Customer, project, author and notes, when given.
    pub meta: Option<Meta>,
    /// Every public document the limits cite, once each.
    pub sources: Vec<Document>,
    /// Service, level and volumes in one line.
    pub subtitle: String,
    /// Date the report was generated (YYYY-MM-DD, UTC).
    pub date: String,
    /// Version (date) of the limits catalog the numbers come from.
    pub catalog_version: &'static str,
    /// Date of the price snapshot.
    pub price_date: String,
    pub inputs: Vec<InputRow>,
    pub headline: Vec<Figure>,
    /// Each target the scenario sets, met or missed (the verdict's statements).
    pub targets: Vec<TargetLine>,
    pub binding: Binding,
    /// Latency in words: the verdict's headline latency, then how the curve rises (the
    /// curve is `evaluation.latency_curve`).
    pub latency: String,
    /// The verdict on the scenario: every conclusion the report states.
    pub verdict: Verdict,
    /// Every limit, binding first, then by headroom.
    pub limits: Vec<LimitRow>,
    pub sizing: Vec<SizingRow>,
    /// What the per-level sizing sizes for, in a sentence.
    pub sizing_basis: &'static str,
    pub advice: Vec<AdviceRow>,
    /// The scenario's charts, prepared once for every format (the sweeps priced from
    /// the report's book); one whose sweep cannot be evaluated is left out of all.
    pub charts: Vec<(ChartName, Chart)>,
    /// Other scenarios side by side with this one (this one first), when asked for.
    pub comparison: Option<Comparison>,
    /// The same capacity over different volume counts, when asked for.
    pub layouts: Option<Layouts>,
    /// For a saved scenario: the cost its revision was saved with.
    pub saved_cost: Option<SavedCost>,
    /// The benchmark that verifies the scenario.
    pub test_plan: TestPlan,
    /// The inputs, kept for the JSON format and the charts.
    pub scenario: Scenario,
    /// The engine's answer, kept for the JSON format and the charts.
    pub evaluation: Evaluation,
}

/// The version (review date) of the limits catalog behind every figure.
pub fn catalog_version() -> &'static str {
    crate::engine::catalog::version()
}

impl Report {
    /// Builds the report of one scenario priced from `prices` (the book `e` was priced
    /// from); `today` is the generation date (YYYY-MM-DD).
    pub fn build(s: &Scenario, e: &Evaluation, prices: &PriceBook, today: &str) -> Report {
        let verdict = verdict::evaluation(s, e, prices);
        let sizing_basis = match e.sizing.first().map(|z| z.basis) {
            Some(SizingBasis::Current) => {
                "No targets are set: each level is sized for the capacity and the throughput this scenario achieves now."
            }
            _ => "Each level is sized for the capacity and the targets.",
        };
        Report {
            sizing_basis,
            title: s.name.clone(),
            meta: s.meta.clone().filter(|m| !m.is_empty()),
            sources: sources::documents(e.limits.iter().map(|l| l.source)),
            subtitle: subtitle(s),
            date: today.to_owned(),
            catalog_version: catalog_version(),
            price_date: e.cost.price_date.clone(),
            inputs: input_rows(s),
            headline: rows::headline(e, &verdict),
            targets: verdict
                .targets
                .iter()
                .map(|t| TargetLine {
                    met: t.met,
                    text: t.statement.clone(),
                })
                .collect(),
            binding: rows::binding(e, &verdict),
            latency: summary::latency::summary(e, &verdict),
            limits: rows::limit_rows(e),
            sizing: rows::sizing_rows(s, e, &verdict),
            advice: rows::advice_rows(e),
            charts: [
                ChartName::Ceilings,
                ChartName::Latency,
                ChartName::IoSize,
                ChartName::Scaling,
            ]
            .into_iter()
            .filter_map(|name| Some((name, Chart::of(name, s, e, prices).ok()?)))
            .collect(),
            comparison: None,
            layouts: None,
            saved_cost: None,
            test_plan: TestPlan::of(s),
            scenario: s.clone(),
            evaluation: e.clone(),
            verdict,
        }
    }

    /// The prepared chart `name`, if it could be drawn.
    pub fn chart(&self, name: ChartName) -> Option<&Chart> {
        self.charts.iter().find(|(n, _)| *n == name).map(|(_, c)| c)
    }

    /// The executive summary: the verdict's statements in its order (targets, the
    /// recommendation, what binds, latency, what decides it), then the verdicts on the
    /// comparison and the layouts asked for.
    pub fn summary(&self) -> Vec<String> {
        let mut out = verdict::report_statements(&self.verdict);
        for set in [
            self.comparison.as_ref().map(|c| &c.verdict),
            self.layouts.as_ref().map(|l| &l.verdict.set),
        ]
        .into_iter()
        .flatten()
        {
            out.extend(verdict::set_statements(set));
        }
        out
    }

    /// Adds a comparison of this scenario (first) with `others`, each with its
    /// evaluation, judged with `prices`.
    pub fn with_comparison(
        mut self,
        others: &[(Scenario, Evaluation)],
        prices: &PriceBook,
    ) -> Report {
        let mut rows = vec![rows::compare_row(&self.scenario, &self.evaluation)];
        rows.extend(others.iter().map(|(s, e)| rows::compare_row(s, e)));
        let mut all = vec![(&self.scenario, &self.evaluation)];
        all.extend(others.iter().map(|(s, e)| (s, e)));
        let entries: Vec<verdict::compare::Entry> = all
            .iter()
            .map(|(s, e)| verdict::compare::Entry {
                name: &s.name,
                scenario: s,
                evaluation: e,
            })
            .collect();
        let verdict = verdict::compare::compare(&entries, prices);
        self.comparison = Some(Comparison {
            rows,
            others: others.to_vec(),
            verdict,
        });
        self
    }

    /// Adds the layouts section: the scenario's total quota over each count of volumes,
    /// as the layouts API sweeps it, priced from `prices`.
    pub fn with_layouts(
        mut self,
        counts: &[u32],
        prices: &PriceBook,
    ) -> Result<Report, FieldErrors> {
        let total = sweep::total_quota_tib(&self.scenario);
        let layouts = sweep::layouts(&self.scenario, total, counts, prices)?;
        let verdict = verdict::layouts::layouts(&self.scenario, total, &layouts, None, prices);
        self.layouts = Some(Layouts {
            rows: layouts
                .iter()
                .zip(&verdict.why)
                .map(|(l, why)| LayoutRow {
                    count: l.count,
                    quota_tib: l.quota_tib,
                    throughput_mibps: l.evaluation.throughput_mibps,
                    iops: l.evaluation.iops,
                    connections: l.evaluation.flows.connections,
                    binding: l.evaluation.binding,
                    binding_label: verdict::mechanism::binding_name(&l.evaluation),
                    why: why.clone(),
                    monthly: l.evaluation.cost.monthly,
                    met: l.evaluation.targets.met,
                })
                .collect(),
            sweep: sweep::layout_rows(&layouts),
            verdict,
        });
        Ok(self)
    }

    /// Adds the cost the saved revision `revision` (saved at `saved_at`) was saved with;
    /// `None` for a revision saved before costs were kept.
    pub fn with_saved_cost(
        mut self,
        revision: i64,
        saved_at: &str,
        cost: Option<CostSnapshot>,
    ) -> Report {
        self.saved_cost = Some(SavedCost {
            revision,
            saved_at: saved_at.get(..10).unwrap_or(saved_at).to_owned(),
            cost,
        });
        self
    }

    /// The cost paragraph as `edition` words it, with the saved cost.
    pub fn cost_paragraph(&self, edition: crate::report::Edition) -> String {
        let saved = self
            .saved_cost
            .as_ref()
            .map(|c| (c.revision, c.saved_at.as_str(), c.cost.as_ref()));
        summary::cost::paragraph(&self.evaluation, edition, saved)
    }

    /// A file name stem for downloads, from the title ("avs-4-x-20-tib-ultra").
    pub fn slug(&self) -> String {
        slug(&self.title)
    }

    /// What the likely ranges beside the headline figures are (the verdict's sentence),
    /// with the sources of its assumptions as `edition` shows them.
    pub fn range_basis(&self, edition: Edition) -> String {
        verdict::targets::ranges(&self.evaluation.confidence, |s| edition.source(s))
    }

    /// The headline figure with this key.
    pub fn figure(&self, key: &str) -> Option<&Figure> {
        self.headline.iter().find(|f| f.key == key)
    }
}

/// Parses a comma-separated list of volume counts ("1,2,4,8").
pub fn parse_counts(text: &str) -> Result<Vec<u32>, String> {
    let counts: Result<Vec<u32>, String> = text
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<u32>()
                .ok()
                .filter(|n| (1..=1024).contains(n))
                .ok_or_else(|| format!("`{t}` is not a volume count from 1 to 1024"))
        })
        .collect();
    let counts = counts?;
    if counts.is_empty() || counts.len() > 256 {
        return Err("give 1 to 256 volume counts separated by commas, e.g. 1,2,4,8".to_owned());
    }
    Ok(counts)
}

/// A lowercase ASCII file-name stem: letters and digits joined by single dashes.
pub fn slug(title: &str) -> String {
    let mut out = String::new();
    for ch in title.chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
        if out.len() >= 60 {
            break;
        }
    }
    let out = out.trim_end_matches('-').to_owned();
    if out.is_empty() {
        "scenario".to_owned()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::evaluate;
    use crate::engine::scenario::{Level, Protocol, Service};
    use crate::measure::testplan;
    use crate::report::fixture;
    use crate::report::{Format, Paper};

    #[test]
    fn slugs_are_safe_file_names() {
        assert_eq!(slug("AVS 4 x 20 TiB Ultra"), "avs-4-x-20-tib-ultra");
        assert_eq!(slug("<script>alert(1)</script>"), "script-alert-1-script");
        assert_eq!(slug("../../etc/passwd"), "etc-passwd");
        assert_eq!(slug("\"; \r\n"), "scenario");
        assert!(slug(&"x".repeat(500)).len() <= 60);
    }

    #[test]
    fn counts_parse_or_explain() {
        assert_eq!(parse_counts("1, 2,4,8").unwrap(), vec![1, 2, 4, 8]);
        assert!(parse_counts("0").unwrap_err().contains("`0`"));
        assert!(parse_counts("a").is_err());
        assert!(parse_counts("").is_err());
    }

    #[test]
    fn every_assumption_is_listed_once() {
        for t in crate::web::scenario_templates::TEMPLATES {
            let s = t.scenario();
            let e = crate::engine::evaluate(&s).expect("template evaluates");
            let assumptions = summary::assumptions(&e, crate::report::Edition::Customer);
            let mut seen = std::collections::HashSet::new();
            assert!(assumptions.iter().all(|a| seen.insert(a)), "{}", t.key);
            for l in e.limits.iter().filter(|l| l.assumption) {
                assert!(
                    assumptions.iter().any(|a| a.contains(l.label.name)),
                    "{}: {} is flagged but not listed",
                    t.key,
                    l.label.name
                );
            }
        }
    }

    #[test]
    fn test_plan_holds_the_fio_job_and_the_diskspd_command() {
        let (s, e) = fixture::example();
        let r = Report::build(&s, &e, crate::engine::pricing::book(), "2026-01-02");
        assert!(r.test_plan.fio.contains("--output-format=json"));
        assert!(r.test_plan.fio.contains("direct=1"));
        assert!(r.test_plan.diskspd.contains("-Rxml"));
        // AVS: the datastores are set up on ESXi; no Linux mount line, no DiskSpd.
        assert_eq!(
            r.test_plan.mount_options,
            testplan::esxi_datastore_setup(&s)
        );
        let titles: Vec<&str> = r
            .test_plan
            .parts(Edition::Engineer)
            .iter()
            .map(|p| p.title)
            .collect();
        assert_eq!(
            titles,
            ["ESXi datastore setup", "fio job file (in the guest VMs)"]
        );
        let mut nfs = s.clone();
        nfs.clients.avs = None;
        let r = Report::build(
            &nfs,
            &evaluate(&nfs).unwrap(),
            crate::engine::pricing::book(),
            "2026-01-02",
        );
        assert_eq!(r.test_plan.mount_options, testplan::mount_options(&nfs));
        assert!(r.test_plan.mount_options.contains("vers=3"));
        assert!(
            r.test_plan
                .parts(Edition::Engineer)
                .iter()
                .all(|p| !p.title.contains("DiskSpd"))
        );
        let mut smb = nfs;
        smb.storage.service = Service::AzureFiles;
        smb.storage.level = Level::SsdV1;
        smb.clients.protocol = Protocol::Smb3;
        let plan = TestPlan::of(&smb);
        assert_eq!(
            plan.parts(Edition::Engineer)[0].title,
            "DiskSpd command line (Windows, SMB)"
        );
        assert_eq!(plan.parts(Edition::Engineer).len(), 2);
    }

    #[test]
    fn formats_round_trip_their_extension() {
        for f in Format::ALL {
            assert_eq!(Format::from_ext(f.ext()), Some(f));
        }
        assert_eq!(Format::from_ext("exe"), None);
        assert_eq!(Paper::parse("Letter").unwrap(), Paper::Letter);
        assert!(Paper::parse("a3").is_err());
    }
}
