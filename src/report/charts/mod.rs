//! Every chart of the product, drawn one way: each chart has one plotters `draw`, and
//! that draw serves every output. plotters' SVG backend writes the SVG that pages
//! inline, the HTML report embeds, the Markdown report carries as a data URI and the
//! PDF layouter places as vectors (through usvg and krilla-svg, chart text kept as
//! text); its bitmap backend writes the PNG downloads and the workbook's images.
//!
//! All plotters code of the crate lives in this module. Text is measured with the
//! embedded DejaVu Sans, so every output lays out alike and no system font is needed.
//! Colour never carries meaning alone: the binding limit is also labelled "binding",
//! series also differ by markers and dashes. Every range and value goes through
//! [`axis`] first, so no data can make a draw loop or fail.

mod avs;
pub mod axis;
mod ceilings;
mod compare;
mod estate;
mod io_size;
mod latency;
mod layouts;
mod legend;
mod live;
mod live_time;
mod scaling;
pub mod style;

pub use latency::LatencyRun;
pub use style::init_fonts;

use crate::engine::pricing::PriceBook;
use crate::engine::scenario::Access;
use crate::engine::sweep;
use crate::engine::{Evaluation, FieldErrors, Scenario};
use crate::format::num;
use crate::measure::MeasuredPoint;
use crate::report::escape;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::fmt;
use std::str::FromStr;

/// The charts of one scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChartName {
    Ceilings,
    IoSize,
    Scaling,
    Latency,
}

impl ChartName {
    /// Every chart of a scenario, in page order.
    pub const ALL: [ChartName; 4] = [
        ChartName::Ceilings,
        ChartName::IoSize,
        ChartName::Scaling,
        ChartName::Latency,
    ];

    /// The name used in URLs (`/scenarios/{id}/charts/{key}.svg`).
    pub fn key(self) -> &'static str {
        match self {
            ChartName::Ceilings => "ceilings",
            ChartName::IoSize => "io-size",
            ChartName::Scaling => "scaling",
            ChartName::Latency => "latency",
        }
    }
}

impl FromStr for ChartName {
    type Err = ChartError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ChartName::ALL
            .into_iter()
            .find(|n| n.key() == s)
            .ok_or_else(|| ChartError::Unknown(s.chars().take(40).collect()))
    }
}

impl fmt::Display for ChartName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// Why a chart could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    #[error("unknown chart `{0}`: the charts are ceilings, io-size, scaling and latency")]
    Unknown(String),
    /// The scenario (or a swept variant of it) failed validation.
    #[error("{0}")]
    Scenario(#[from] FieldErrors),
    #[error("the image size must be from 200 x 150 to 4000 x 4000 pixels, not {0} x {1}")]
    Size(u32, u32),
    #[error("the chart could not be drawn: {0}")]
    Draw(String),
}

/// The data behind a chart, as a table (shown beside it for readers who cannot see it).
#[derive(Debug, Clone, PartialEq)]
pub struct ChartTable {
    pub caption: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Sources and assumptions behind the figures.
    pub notes: Vec<String>,
}

/// A chart ready to draw: its data, title and one-sentence summary.
#[derive(Debug, Clone)]
pub struct Chart {
    title: String,
    summary: String,
    size: (u32, u32),
    kind: Kind,
    /// Measured runs drawn beside the model (ceilings, io-size and scaling charts).
    measured: Vec<MeasuredPoint>,
}

#[derive(Debug, Clone)]
enum Kind {
    Ceilings(ceilings::Data),
    IoSize(sweep::IoSizeSweep),
    Scaling(scaling::Data),
    Latency(latency::Data),
    Compare(compare::Data),
    Layouts(layouts::Data),
    AvsFill(avs::Fill),
    AvsTco(avs::TcoData),
    Timeline(estate::Data),
    LiveDemand(live::Data),
    LiveOverTime(live_time::Data),
}

/// Renders a chart of a scenario as an SVG string (sweeps priced from `prices`).
pub fn svg(
    name: ChartName,
    scenario: &Scenario,
    evaluation: &Evaluation,
    prices: &PriceBook,
) -> Result<String, ChartError> {
    Chart::of(name, scenario, evaluation, prices)?.svg()
}

/// Renders a chart of a scenario as PNG bytes of the given size.
pub fn png(
    name: ChartName,
    scenario: &Scenario,
    evaluation: &Evaluation,
    prices: &PriceBook,
    size: (u32, u32),
) -> Result<Vec<u8>, ChartError> {
    Chart::of(name, scenario, evaluation, prices)?.png(size)
}

/// The data table of a chart of a scenario.
pub fn table(
    name: ChartName,
    scenario: &Scenario,
    evaluation: &Evaluation,
    prices: &PriceBook,
) -> Result<ChartTable, ChartError> {
    Ok(Chart::of(name, scenario, evaluation, prices)?.table())
}

/// The workload in a few words, for chart titles: "64 KiB sequential, 100% read".
fn mix_text(s: &Scenario) -> String {
    let access = match s.workload.access {
        Access::Sequential => "sequential",
        Access::Random => "random",
    };
    format!(
        "{} KiB {access}, {}% read",
        num(s.workload.io_size_kib, 1),
        num(s.workload.read_pct, 0)
    )
}

/// A name as a chart draws it (no control characters).
fn name(s: &Scenario) -> String {
    escape::plain(&s.name).replace(['\n', '\t'], " ")
}

/// "1 measured run is" / "3 measured runs are".
fn runs_shown(n: usize, of: usize) -> String {
    if n < of {
        return format!(" The newest {n} of {of} measured runs are shown in purple.");
    }
    format!(
        " {n} measured run{} shown in purple.",
        if n == 1 { " is" } else { "s are" }
    )
}

/// Most measured runs the ceilings chart draws (the newest): each is a dotted line the
/// height of the chart.
pub const MAX_CEILING_RUNS: usize = 16;

impl Chart {
    /// Prepares a chart of a scenario and its evaluation; the sweeps evaluate variants
    /// of it priced from `prices`, the book the evaluation was priced from (the book in
    /// force), so a scenario in any currency the book holds draws every chart.
    pub fn of(
        name: ChartName,
        scenario: &Scenario,
        evaluation: &Evaluation,
        prices: &PriceBook,
    ) -> Result<Chart, ChartError> {
        Ok(match name {
            ChartName::Ceilings => ceilings::chart(scenario, evaluation),
            ChartName::IoSize => io_size::chart(scenario, sweep::io_size(scenario, prices)?),
            ChartName::Scaling => scaling::chart(scenario, sweep::scaling(scenario, prices)?),
            ChartName::Latency => latency::chart(scenario, evaluation),
        })
    }

    /// A grouped bar chart of a comparison: each metric as a percentage of the first scenario.
    pub fn compare(names: &[String], rows: &[sweep::MetricRow]) -> Chart {
        compare::chart(names, rows)
    }

    /// Throughput, per-datastore QoS and connections per host against the datastore count.
    pub fn layouts(rows: &[sweep::LayoutRow], suggested: Option<usize>) -> Chart {
        layouts::chart(rows, suggested)
    }

    /// Each datastore of an AVS plan: capacity used of its quota and throughput used of
    /// its QoS.
    pub fn avs_fill(plan: &crate::avs::AvsPlan) -> Chart {
        avs::fill(plan)
    }

    /// Monthly cost of vSAN only against ANF datastores on each purchase term, hosts and
    /// storage stacked.
    pub fn avs_tco(tco: &crate::avs::tco::Tco) -> Chart {
        avs::tco(tco)
    }

    /// Each measured volume's P50, P95 and largest demand beside its QoS throughput.
    pub fn live_demand(answer: &crate::live::estate::LiveAnswer) -> Chart {
        live::chart(answer)
    }

    /// One measured volume's P50, P95 and largest demand per day (or hour) beside its
    /// QoS throughput; None when the export's times could not be read.
    pub fn live_over_time(volume: &crate::live::estate::VolumeAnswer) -> Option<Chart> {
        live_time::chart(volume)
    }

    /// An estate's monthly cost over its timeline, with the resize schedule marked.
    pub fn estate_timeline(plan: &crate::estate::EstatePlan) -> Chart {
        estate::chart(plan)
    }

    /// The same chart with measured runs beside the model: a dotted line at each run's
    /// MiB/s (ceilings, the newest [`MAX_CEILING_RUNS`]), crosses at its IO size (io-size)
    /// or its flows (scaling). Other charts are returned unchanged.
    pub fn with_measured(mut self, points: &[MeasuredPoint]) -> Chart {
        let mut usable: Vec<MeasuredPoint> = points
            .iter()
            .filter(|p| p.mibps.is_finite() && p.mibps > 0.0 && p.iops.is_finite())
            .cloned()
            .collect();
        if usable.is_empty()
            || !matches!(
                self.kind,
                Kind::Ceilings(_) | Kind::IoSize(_) | Kind::Scaling(_)
            )
        {
            return self;
        }
        let of = usable.len();
        if matches!(self.kind, Kind::Ceilings(_)) {
            usable.drain(..of.saturating_sub(MAX_CEILING_RUNS));
        }
        self.summary.push_str(&runs_shown(usable.len(), of));
        self.measured = usable;
        self
    }

    /// The latency chart with measured runs beside the curve: a cross at each run's IOPS
    /// and latency when it used the scenario's IO size; runs at other IO sizes are listed
    /// in the data table only. Other charts are returned unchanged.
    pub fn with_measured_latency(mut self, runs: &[LatencyRun]) -> Chart {
        let Kind::Latency(d) = &mut self.kind else {
            return self;
        };
        let drawn = runs.iter().filter(|r| r.comparable(d.io_kib)).count();
        if drawn > 0 {
            self.summary.push_str(&runs_shown(drawn, drawn));
        }
        d.runs = runs.to_vec();
        self
    }

    /// The same chart drawn at another size (pixels), e.g. narrower for a side column.
    pub fn with_size(mut self, size: (u32, u32)) -> Chart {
        self.size = (size.0.clamp(200, 4000), size.1.clamp(150, 4000));
        self
    }

    /// The chart's title (also the SVG `<title>`).
    pub fn title(&self) -> &str {
        &self.title
    }

    /// One or two sentences saying what the chart shows (also the SVG `<desc>`).
    pub fn summary(&self) -> &str {
        &self.summary
    }

    /// The size the chart is drawn at, in pixels.
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// The chart as an SVG document with `role="img"`, a `<title>` and a `<desc>`.
    pub fn svg(&self) -> Result<String, ChartError> {
        init_fonts();
        let mut out = String::with_capacity(48 * 1024);
        {
            let root = SVGBackend::with_string(&mut out, self.size).into_drawing_area();
            self.draw(&root)?;
        }
        Ok(accessible(&out, &self.title, &self.summary))
    }

    /// The SVG for inlining in a page: as [`Chart::svg`], but as wide as its container
    /// (`width="100%"`, the height from the view box) instead of fixed pixels.
    pub fn svg_inline(&self) -> Result<String, ChartError> {
        let svg = self.svg()?;
        let fixed = format!("width=\"{}\" height=\"{}\"", self.size.0, self.size.1);
        Ok(svg.replacen(&fixed, "width=\"100%\"", 1))
    }

    /// The chart as PNG bytes of the given size.
    pub fn png(&self, (w, h): (u32, u32)) -> Result<Vec<u8>, ChartError> {
        if !(200..=4000).contains(&w) || !(150..=4000).contains(&h) {
            return Err(ChartError::Size(w, h));
        }
        init_fonts();
        let mut rgb = vec![0u8; (w as usize) * (h as usize) * 3];
        {
            let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
            self.draw(&root)?;
        }
        let mut bytes = Vec::new();
        let mut enc = png::Encoder::new(&mut bytes, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.write_header()
            .and_then(|mut writer| writer.write_image_data(&rgb))
            .map_err(|e| ChartError::Draw(e.to_string()))?;
        Ok(bytes)
    }

    /// Draws the chart on any plotters backend: the one draw of every output.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), ChartError> {
        root.fill(&WHITE)
            .and_then(|_| match &self.kind {
                Kind::Ceilings(d) => ceilings::draw(root, d, &self.measured),
                Kind::IoSize(d) => io_size::draw(root, d, &self.measured),
                Kind::Scaling(d) => scaling::draw(root, d, &self.measured),
                Kind::Latency(d) => latency::draw(root, d),
                Kind::Compare(d) => compare::draw(root, d),
                Kind::Layouts(d) => layouts::draw(root, d),
                Kind::AvsFill(d) => avs::draw_fill(root, d),
                Kind::AvsTco(d) => avs::draw_tco(root, d),
                Kind::Timeline(d) => estate::draw(root, d),
                Kind::LiveDemand(d) => live::draw(root, d),
                Kind::LiveOverTime(d) => live_time::draw(root, d),
            })
            .and_then(|_| root.present())
            .map_err(|e| ChartError::Draw(e.to_string()))
    }

    /// The data behind the chart.
    pub fn table(&self) -> ChartTable {
        let mut table = match &self.kind {
            Kind::Ceilings(d) => ceilings::table(&self.title, d),
            Kind::IoSize(d) => io_size::table(&self.title, d),
            Kind::Scaling(d) => scaling::table(&self.title, d),
            Kind::Latency(d) => latency::table(&self.title, d),
            Kind::Compare(d) => compare::table(&self.title, d),
            Kind::Layouts(d) => layouts::table(&self.title, d),
            Kind::AvsFill(d) => avs::fill_table(&self.title, d),
            Kind::AvsTco(d) => avs::tco_table(&self.title, d),
            Kind::Timeline(d) => estate::table(&self.title, d),
            Kind::LiveDemand(d) => live::table(&self.title, d),
            Kind::LiveOverTime(d) => live_time::table(&self.title, d),
        };
        table.notes.extend(self.measured.iter().map(|p| {
            format!(
                "Measured “{}”: {} MiB/s, {} IOPS at {} KiB, {}% read, {} flows, {} IOs in flight.",
                escape::plain(&p.label),
                num(p.mibps, 1),
                num(p.iops, 0),
                num(p.io_size_kib, 1),
                num(p.read_pct, 0),
                p.flows,
                p.outstanding
            )
        }));
        table
    }

    /// The chart's alt text in one line: its title and what it shows.
    pub fn alt(&self) -> String {
        format!("{}. {}", self.title, self.summary)
    }
}

/// Inserts `role="img"`, a class, `<title>` and `<desc>` right after plotters' opening
/// `<svg>` tag: the one step the SVG backend has no hook for.
fn accessible(svg: &str, title: &str, desc: &str) -> String {
    let head = format!(
        "<title>{}</title>\n<desc>{}</desc>\n",
        escape::html(title),
        escape::html(desc)
    );
    match svg.find('>') {
        Some(end) if svg.starts_with("<svg") => {
            let mut out = String::with_capacity(svg.len() + head.len() + 32);
            out.push_str(&svg[..end]);
            out.push_str(" role=\"img\" class=\"chart\">\n");
            out.push_str(&head);
            out.push_str(svg[end + 1..].trim_start_matches('\n'));
            out
        }
        _ => svg.to_owned(),
    }
}

#[cfg(test)]
mod tests;
