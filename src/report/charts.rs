//! Server-side charts: SVG for pages (inlined), PNG for downloads, and the data
//! table shown beside each chart for screen readers.
//!
//! All plotters code of the crate lives here. Text is measured with the
//! embedded DejaVu Sans (registered once), so SVG and PNG lay out the same and
//! no system font is needed. Colours are the Okabe-Ito palette (safe for
//! colour-blind readers); colour never carries meaning alone: the binding
//! limit is also labelled "binding", series are also told apart by markers.

use crate::engine::model::curve::CurvePoint;
use crate::engine::scenario::Access;
use crate::engine::sweep::{
    self, Axis, Better, IoSizeSweep, LayoutRow, Metric, MetricRow, ScalingSweep,
};
use crate::engine::trace::{Exact, Num};
use crate::engine::units::iops_to_mibps;
use crate::engine::{Evaluation, FieldErrors, Scenario};
use crate::measure::{MeasuredPoint, Measurement};
use crate::report::latency;
use plotters::coord::Shift;
use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontStyle, register_font};
use std::fmt;
use std::str::FromStr;
use std::sync::Once;

const FONT: &str = "sans-serif";

/// Okabe-Ito colours.
const OI_BLACK: RGBColor = RGBColor(0x00, 0x00, 0x00);
const OI_ORANGE: RGBColor = RGBColor(0xE6, 0x9F, 0x00);
const OI_SKY: RGBColor = RGBColor(0x56, 0xB4, 0xE9);
const OI_GREEN: RGBColor = RGBColor(0x00, 0x9E, 0x73);
const OI_YELLOW: RGBColor = RGBColor(0xF0, 0xE4, 0x42);
const OI_BLUE: RGBColor = RGBColor(0x00, 0x72, 0xB2);
const OI_VERMILLION: RGBColor = RGBColor(0xD5, 0x5E, 0x00);
const OI_PURPLE: RGBColor = RGBColor(0xCC, 0x79, 0xA7);
const GRID: RGBColor = RGBColor(0xDD, 0xDD, 0xDD);

/// Series colours in the order they are used (yellow last: weakest on white).
const SERIES: [RGBColor; 7] = [
    OI_BLUE,
    OI_ORANGE,
    OI_GREEN,
    OI_PURPLE,
    OI_SKY,
    OI_VERMILLION,
    OI_YELLOW,
];

/// The latency chart's line is drawn through this many loads, evenly from 0 to 100 %.
const LINE_STEPS: u32 = 25;

/// In the ceilings chart, limits above this multiple of the achievable figure
/// (or the target) are drawn off scale.
const OFF_SCALE: f64 = 5.0;

static FONTS: Once = Once::new();

/// Registers the embedded DejaVu Sans faces with plotters (cheap after the first call).
pub fn init_fonts() {
    FONTS.call_once(|| {
        // The bytes are a valid TTF compiled into the binary; failure is impossible at run time.
        let _ = register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

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

    /// The name used in URLs.
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

/// The data behind a chart, as a table.
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
    Ceilings(CeilingsData),
    IoSize(IoSizeSweep),
    Scaling(ScalingSweep),
    Latency(LatencyData),
    Compare(CompareData),
    Layouts(LayoutsData),
}

#[derive(Debug, Clone)]
struct Bar {
    name: &'static str,
    label: String,
    applies: &'static str,
    mibps: f64,
    iops: f64,
    headroom_pct: f64,
    source: &'static str,
    assumption: bool,
    binding: bool,
}

#[derive(Debug, Clone)]
struct CeilingsData {
    bars: Vec<Bar>,
    achievable_mibps: f64,
    /// (label, MiB/s) of the targets.
    targets: Vec<(String, f64)>,
    io_kib: f64,
}

#[derive(Debug, Clone)]
struct LatencyData {
    /// The model's curve, load rising to the achievable rate (the last point): the
    /// markers and the data table.
    curve: Vec<CurvePoint>,
    /// (IOPS, ms) of the same curve at [`LINE_STEPS`] loads, for a smooth line.
    line: Vec<(f64, f64)>,
    io_kib: f64,
    /// (label, IOPS) of the rate targets.
    target_rates: Vec<(String, f64)>,
    target_latency_ms: Option<f64>,
    /// (IOPS, ms): the latency at the target rate, when it is in reach.
    at_target: Option<(f64, f64)>,
    /// Measured runs with a latency, at the scenario's IO size (drawn) or not (listed).
    runs: Vec<LatencyRun>,
}

/// A measured run as the latency chart places it: its load and the mean latency the
/// benchmark tool reported.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyRun {
    pub label: String,
    pub io_size_kib: f64,
    pub iops: f64,
    pub mibps: f64,
    pub latency_ms: f64,
}

impl LatencyRun {
    /// The run's point; `None` when the tool reported no latency.
    pub fn of(m: &Measurement) -> Option<LatencyRun> {
        let latency_ms = m.latency_mean_ms.filter(|l| l.is_finite() && *l > 0.0)?;
        (m.iops.is_finite() && m.iops > 0.0).then(|| LatencyRun {
            label: m.label.clone(),
            io_size_kib: m.io_size_kib,
            iops: m.iops,
            mibps: m.mibps,
            latency_ms,
        })
    }

    /// True when the run used the IO size the curve is drawn for (within 1%), so its
    /// IOPS and latency compare with the curve.
    fn comparable(&self, io_kib: f64) -> bool {
        (self.io_size_kib / io_kib - 1.0).abs() <= 0.01
    }

    /// True when the run is drawn: it is [comparable](Self::comparable) and its point
    /// lies within the largest axis ([`AXIS_CEILING`]); plotters' pixel arithmetic
    /// overflows on a point beyond it (a run stored at 1e308 IOPS), which is listed in
    /// the data table only.
    fn drawn(&self, io_kib: f64) -> bool {
        self.comparable(io_kib) && self.iops <= AXIS_CEILING && self.latency_ms <= AXIS_CEILING
    }
}

#[derive(Debug, Clone)]
struct CompareData {
    names: Vec<String>,
    rows: Vec<MetricRow>,
}

#[derive(Debug, Clone)]
struct LayoutsData {
    rows: Vec<LayoutRow>,
    suggested: Option<usize>,
}

/// Renders a chart of a scenario as an SVG string.
pub fn svg(
    name: ChartName,
    scenario: &Scenario,
    evaluation: &Evaluation,
) -> Result<String, ChartError> {
    Chart::of(name, scenario, evaluation)?.svg()
}

/// Renders a chart of a scenario as PNG bytes of the given size.
pub fn png(
    name: ChartName,
    scenario: &Scenario,
    evaluation: &Evaluation,
    size: (u32, u32),
) -> Result<Vec<u8>, ChartError> {
    Chart::of(name, scenario, evaluation)?.png(size)
}

/// The data table of a chart of a scenario.
pub fn table(
    name: ChartName,
    scenario: &Scenario,
    evaluation: &Evaluation,
) -> Result<ChartTable, ChartError> {
    Ok(Chart::of(name, scenario, evaluation)?.table())
}

fn mix_text(s: &Scenario) -> String {
    let access = match s.workload.access {
        Access::Sequential => "sequential",
        Access::Random => "random",
    };
    format!(
        "{} KiB {access}, {}% read",
        Num(s.workload.io_size_kib, 1),
        Num(s.workload.read_pct, 0)
    )
}

impl Chart {
    /// Prepares a chart of a scenario (the sweeps evaluate variants of it).
    pub fn of(
        name: ChartName,
        scenario: &Scenario,
        evaluation: &Evaluation,
    ) -> Result<Chart, ChartError> {
        Ok(match name {
            ChartName::Ceilings => Chart::ceilings(scenario, evaluation),
            ChartName::IoSize => Chart::io_size(scenario, sweep::io_size(scenario)?),
            ChartName::Scaling => Chart::scaling(scenario, sweep::scaling(scenario)?),
            ChartName::Latency => Chart::latency(scenario, evaluation),
        })
    }

    fn ceilings(s: &Scenario, e: &Evaluation) -> Chart {
        let binding_idx = e
            .limits
            .iter()
            .enumerate()
            .filter(|(_, l)| l.id == e.binding)
            .min_by(|a, b| a.1.mibps.total_cmp(&b.1.mibps))
            .map(|(i, _)| i);
        let mut bars: Vec<Bar> = e
            .limits
            .iter()
            .enumerate()
            .filter(|(_, l)| l.mibps.is_finite() && l.mibps >= 0.0)
            .map(|(i, l)| Bar {
                name: l.label.name,
                label: l.label.to_string(),
                applies: l.applies.key(),
                mibps: l.mibps,
                iops: l.iops,
                headroom_pct: l.headroom_pct,
                source: l.source,
                assumption: l.assumption,
                binding: Some(i) == binding_idx,
            })
            .collect();
        bars.sort_by(|a, b| b.binding.cmp(&a.binding).then(a.mibps.total_cmp(&b.mibps)));
        let io = s.workload.io_size_kib;
        let mut targets = Vec::new();
        if let Some(t) = s.workload.target_mibps {
            targets.push((format!("target {} MiB/s", Num(t, 0)), t));
        }
        if let Some(t) = s.workload.target_iops {
            targets.push((format!("target {} IOPS", Num(t, 0)), t * io / 1024.0));
        }
        let summary = match bars.iter().find(|b| b.binding) {
            Some(b) => {
                let next = bars
                    .iter()
                    .filter(|x| !x.binding)
                    .map(|x| x.mibps)
                    .fold(f64::NAN, f64::min);
                let load = binding_idx
                    .and_then(|i| e.limits.get(i))
                    .map(|l| latency::binding_load(l, e.latency_ms))
                    .filter(|t| !t.is_empty())
                    .unwrap_or_else(|| format!("achievable {} MiB/s", Num(e.throughput_mibps, 0)));
                let mut text = format!(
                    "Bound by {} at {} MiB/s ({} IOPS); {load}.",
                    b.name,
                    Num(b.mibps, 0),
                    Num(b.iops, 0),
                );
                if next.is_finite() && b.mibps > 0.0 {
                    let above = (next / b.mibps - 1.0) * 100.0;
                    // Under half a percent rounds to "0% higher": say it is a tie.
                    if above < 0.5 {
                        text.push_str(
                            " The next ceiling ties with it: both must rise to gain anything.",
                        );
                    } else {
                        text.push_str(&format!(" The next ceiling is {}% higher.", Num(above, 0)));
                    }
                }
                text
            }
            None => format!("Achievable {} MiB/s.", Num(e.throughput_mibps, 0)),
        };
        let h = (110 + 40 * bars.len() as u32).max(240);
        Chart {
            title: format!("Ceilings of {} ({})", s.name, mix_text(s)),
            summary,
            size: (780, h),
            measured: Vec::new(),
            kind: Kind::Ceilings(CeilingsData {
                bars,
                achievable_mibps: e.throughput_mibps,
                targets,
                io_kib: io,
            }),
        }
    }

    fn io_size(s: &Scenario, sw: IoSizeSweep) -> Chart {
        let first = sw.points.first();
        let last = sw.points.last();
        let own = sw
            .points
            .iter()
            .find(|p| p.io_size_kib == sw.scenario_io_kib);
        let summary = match (first, last, own) {
            (Some(f), Some(l), Some(o)) => format!(
                "Achievable throughput goes from {} MiB/s ({} IOPS) at {} KiB to {} MiB/s ({} IOPS) at {} KiB; at the scenario's {} KiB it is {} MiB/s ({} IOPS).",
                Num(f.throughput_mibps, 0),
                Num(f.iops, 0),
                Num(f.io_size_kib, 1),
                Num(l.throughput_mibps, 0),
                Num(l.iops, 0),
                Num(l.io_size_kib, 1),
                Num(o.io_size_kib, 1),
                Num(o.throughput_mibps, 0),
                Num(o.iops, 0)
            ),
            _ => "No IO sizes were evaluated.".to_owned(),
        };
        Chart {
            title: format!("Throughput and IOPS against IO size: {}", s.name),
            summary,
            size: (860, 640),
            measured: Vec::new(),
            kind: Kind::IoSize(sw),
        }
    }

    fn scaling(s: &Scenario, sw: ScalingSweep) -> Chart {
        let unit = sw.metric.unit();
        let f = sw.points.first().map(|p| p.value(sw.metric)).unwrap_or(0.0);
        let l = sw.points.last().map(|p| p.value(sw.metric)).unwrap_or(0.0);
        let cur = sw
            .points
            .iter()
            .find(|p| p.n == sw.current)
            .map(|p| p.value(sw.metric));
        let mut summary = format!(
            "From {} to {} ({}) the achievable figure goes from {} to {} {unit}",
            sw.points.first().map_or(1, |p| p.n),
            sw.points.last().map_or(1, |p| p.n),
            sw.axis.short(),
            Num(f, 0),
            Num(l, 0)
        );
        match cur {
            Some(c) => summary.push_str(&format!(
                "; the scenario uses {} ({} {unit}).",
                sw.current,
                Num(c, 0)
            )),
            None => summary.push('.'),
        }
        if !sw.skipped.is_empty() {
            summary.push_str(&format!(
                " {} {} left out: {}.",
                sw.axis.short(),
                runs(&sw.skipped),
                sw.skipped_reason.as_deref().unwrap_or("no valid layout")
            ));
        }
        if !sw.published.is_empty() {
            summary.push_str(
                " Published measurements are shown as markers, with the model at the same setup as a dashed line.",
            );
        }
        Chart {
            title: format!(
                "Scaling with {}: {} ({})",
                sw.axis.short(),
                s.name,
                mix_text(s)
            ),
            summary,
            size: (780, 440),
            measured: Vec::new(),
            kind: Kind::Scaling(sw),
        }
    }

    fn latency(s: &Scenario, e: &Evaluation) -> Chart {
        let curve: Vec<CurvePoint> = e
            .latency_curve
            .points()
            .filter(|p| p.iops.is_finite() && p.latency_ms.is_finite())
            .collect();
        // Never falling as load rises, like the curve's own points.
        let mut last = 0.0_f64;
        let line = (1..=LINE_STEPS)
            .map(|i| {
                let pct = 100.0 * f64::from(i) / f64::from(LINE_STEPS);
                last = e.latency_curve.latency_ms_at(pct).max(last);
                (e.iops * pct / 100.0, last)
            })
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .collect();
        let io = s.workload.io_size_kib;
        let mut target_rates = Vec::new();
        if let Some(t) = s.workload.target_mibps {
            target_rates.push((format!("target {} MiB/s", Num(t, 0)), t * 1024.0 / io));
        }
        if let Some(t) = s.workload.target_iops {
            target_rates.push((format!("target {} IOPS", Num(t, 0)), t));
        }
        let at_target = latency::target_iops(s).zip(e.latency_at_target_ms);
        let mut summary = format!(
            "The model's latency per IO as load rises to the achievable {} IOPS, where it is {} ms{}",
            Num(e.iops, 0),
            latency::ms(e.latency_ms),
            latency::shape(&curve)
        );
        let marked: Vec<&str> = [
            (!target_rates.is_empty()).then_some("the target rate (dotted)"),
            s.workload
                .target_latency_ms
                .map(|_| "the target latency (dashed)"),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !marked.is_empty() {
            summary.push_str(&format!(" Green lines mark {}.", marked.join(" and ")));
        }
        Chart {
            title: format!("Latency against load: {} ({})", s.name, mix_text(s)),
            summary,
            size: (780, 460),
            measured: Vec::new(),
            kind: Kind::Latency(LatencyData {
                curve,
                line,
                io_kib: io,
                target_rates,
                target_latency_ms: s.workload.target_latency_ms,
                at_target,
                runs: Vec::new(),
            }),
        }
    }

    /// A grouped bar chart of a comparison: each metric as a percentage of the first scenario.
    pub fn compare(names: &[String], rows: &[MetricRow]) -> Chart {
        let summary = match rows.iter().find(|r| r.key == "throughput") {
            Some(r) => {
                let best: Vec<&str> = r
                    .best
                    .iter()
                    .zip(names)
                    .filter(|(b, _)| **b)
                    .map(|(_, n)| n.as_str())
                    .collect();
                if best.is_empty() {
                    format!(
                        "{} scenarios compared; their throughput is the same.",
                        names.len()
                    )
                } else {
                    format!(
                        "{} scenarios compared; highest throughput: {}.",
                        names.len(),
                        best.join(", ")
                    )
                }
            }
            None => format!("{} scenarios compared.", names.len()),
        };
        Chart {
            title: "Scenarios compared (percent of the first)".to_owned(),
            summary,
            size: (780, 440),
            measured: Vec::new(),
            kind: Kind::Compare(CompareData {
                names: names.to_vec(),
                rows: rows.to_vec(),
            }),
        }
    }

    /// Throughput, per-datastore QoS and connections per host against the datastore count.
    pub fn layouts(rows: &[LayoutRow], suggested: Option<usize>) -> Chart {
        let summary = match suggested.and_then(|i| rows.get(i)) {
            Some(r) => format!(
                "{} datastores of {} TiB reach {} MiB/s, within 5% of the best layout; more datastores add connections, not throughput.",
                r.count,
                Num(r.quota_tib, 2),
                Num(r.throughput_mibps, 0)
            ),
            None => "No layouts were evaluated.".to_owned(),
        };
        Chart {
            title: "Datastore layouts: same capacity, different counts".to_owned(),
            summary,
            size: (780, 440),
            measured: Vec::new(),
            kind: Kind::Layouts(LayoutsData {
                rows: rows.to_vec(),
                suggested,
            }),
        }
    }

    /// The same chart with measured runs beside the model: a dotted line at each run's
    /// MiB/s (ceilings), crosses at its IO size (io-size) or its flows (scaling). Other
    /// charts are returned unchanged.
    pub fn with_measured(mut self, points: &[MeasuredPoint]) -> Chart {
        let usable: Vec<MeasuredPoint> = points
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
        let n = usable.len();
        self.summary.push_str(&format!(
            " {n} measured run{} shown in purple.",
            if n == 1 { " is" } else { "s are" }
        ));
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
        let drawn = runs.iter().filter(|r| r.drawn(d.io_kib)).count();
        if drawn > 0 {
            self.summary.push_str(&format!(
                " {drawn} measured run{} shown in purple.",
                if drawn == 1 { " is" } else { "s are" }
            ));
        }
        d.runs = runs.to_vec();
        self
    }

    /// The same chart drawn at another size (pixels), e.g. narrower for a side column.
    pub fn with_size(mut self, size: (u32, u32)) -> Chart {
        self.size = size;
        self
    }

    /// The chart's title (also the SVG `<title>`).
    pub fn title(&self) -> &str {
        &self.title
    }

    /// One or two sentences saying what the chart shows.
    pub fn summary(&self) -> &str {
        &self.summary
    }

    /// The size the SVG is drawn at, in pixels.
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// Renders the chart as an SVG document with a `<title>` and `<desc>`, ready to inline.
    pub fn svg(&self) -> Result<String, ChartError> {
        init_fonts();
        let mut out = String::with_capacity(32 * 1024);
        {
            let root = super::svg_writer::SvgWriter::new(&mut out, self.size).into_drawing_area();
            self.draw(&root).map_err(ChartError::Draw)?;
        }
        let out = if out.contains('\u{2026}') {
            add_full_texts(&out, &self.table(), &self.joined_names())
        } else {
            out
        };
        Ok(add_title(&out, &self.title, &self.summary))
    }

    /// The chart as the PDF draws it: its primitives in chart pixels, no SVG.
    pub fn record(&self) -> Result<super::pdf_chart::Recorded, ChartError> {
        init_fonts();
        let mut out = super::pdf_chart::Recorded::default();
        {
            let root = super::pdf_chart::Recorder::new(&mut out, self.size).into_drawing_area();
            self.draw(&root).map_err(ChartError::Draw)?;
        }
        Ok(out)
    }

    /// The SVG for inlining in a page: as [`Chart::svg`], but as wide as its
    /// container (`width="100%"`, height from the view box) instead of fixed pixels.
    pub fn svg_inline(&self) -> Result<String, ChartError> {
        let svg = self.svg()?;
        let fixed = format!("width=\"{}\" height=\"{}\"", self.size.0, self.size.1);
        Ok(svg.replacen(&fixed, "width=\"100%\"", 1))
    }

    /// Renders the chart as PNG bytes of the given size.
    pub fn png(&self, (w, h): (u32, u32)) -> Result<Vec<u8>, ChartError> {
        if !(200..=4000).contains(&w) || !(150..=4000).contains(&h) {
            return Err(ChartError::Size(w, h));
        }
        init_fonts();
        let mut rgb = vec![0u8; (w as usize) * (h as usize) * 3];
        {
            let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
            self.draw(&root).map_err(ChartError::Draw)?;
        }
        let mut bytes = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut bytes, w, h);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            let mut writer = enc
                .write_header()
                .map_err(|e| ChartError::Draw(e.to_string()))?;
            writer
                .write_image_data(&rgb)
                .map_err(|e| ChartError::Draw(e.to_string()))?;
        }
        Ok(bytes)
    }

    /// Draws the chart on any plotters backend.
    pub(crate) fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), String> {
        let r = match &self.kind {
            Kind::Ceilings(d) => draw_ceilings(root, d, &self.measured),
            Kind::IoSize(d) => draw_io_size(root, d, &self.measured),
            Kind::Scaling(d) => draw_scaling(root, d, &self.measured),
            Kind::Latency(d) => draw_latency(root, d),
            Kind::Compare(d) => draw_compare(root, d),
            Kind::Layouts(d) => draw_layouts(root, d),
        };
        r.and_then(|_| root.present()).map_err(|e| e.to_string())
    }

    /// Series names the chart joins (io-size ceilings that draw the same line), which
    /// the data table lists one by one.
    fn joined_names(&self) -> Vec<String> {
        match &self.kind {
            Kind::IoSize(d) => coinciding(&d.ceilings)
                .into_iter()
                .filter(|(names, _)| names.len() > 1)
                .map(|(names, _)| names.join(" = "))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The data behind the chart.
    pub fn table(&self) -> ChartTable {
        let mut table = self.model_table();
        table.notes.extend(self.measured.iter().map(|p| {
            format!(
                "Measured “{}”: {} MiB/s, {} IOPS at {} KiB, {}% read, {} flows, {} IOs in flight.",
                p.label,
                Num(p.mibps, 1),
                Num(p.iops, 0),
                Num(p.io_size_kib, 1),
                Num(p.read_pct, 0),
                p.flows,
                p.outstanding
            )
        }));
        table
    }

    fn model_table(&self) -> ChartTable {
        match &self.kind {
            Kind::Ceilings(d) => ceilings_table(&self.title, d),
            Kind::IoSize(d) => io_size_table(&self.title, d),
            Kind::Scaling(d) => scaling_table(&self.title, d),
            Kind::Latency(d) => latency_table(&self.title, d),
            Kind::Compare(d) => compare_table(&self.title, d),
            Kind::Layouts(d) => layouts_table(&self.title, d),
        }
    }
}

fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    super::svg_writer::escape(&mut out, s);
    out
}

/// Gives every label shortened with "…" its full text as a tooltip (a `<title>` inside
/// the `<text>`), taken from the names the chart joins and the data table's headers
/// and row names, where the full text is also shown.
fn add_full_texts(svg: &str, table: &ChartTable, joined: &[String]) -> String {
    let full: Vec<String> = joined
        .iter()
        .chain(&table.headers)
        .chain(table.rows.iter().filter_map(|r| r.first()))
        .map(|t| xml_escape(t.trim_end_matches(" (binding)")))
        .collect();
    let mut out = String::with_capacity(svg.len() + 256);
    let mut rest = svg;
    while let Some(at) = rest.find("</text>") {
        let (head, tail) = rest.split_at(at);
        out.push_str(head);
        let shown = head[head.rfind('>').map_or(0, |i| i + 1)..].trim();
        if let Some(prefix) = shown.strip_suffix('\u{2026}')
            && let Some(f) = full.iter().find(|f| {
                // A wrapped label's second line continues the text after a space.
                !prefix.is_empty()
                    && f.len() > prefix.len()
                    && (f.starts_with(prefix) || f.contains(&format!(" {prefix}")))
            })
        {
            out.push_str(&format!("<title>{f}</title>"));
        }
        out.push_str("</text>");
        rest = &tail["</text>".len()..];
    }
    out.push_str(rest);
    out
}

/// Inserts `role="img"`, a class and `<title>`/`<desc>` right after the opening `<svg>` tag.
fn add_title(svg: &str, title: &str, desc: &str) -> String {
    let head = format!(
        "<title>{}</title>\n<desc>{}</desc>\n",
        xml_escape(title),
        xml_escape(desc)
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

/// Tick label: thousands separators, decimals only for small values.
fn tick(v: f64) -> String {
    let d = if v.abs() < 10.0 && v != v.trunc() {
        2
    } else {
        0
    };
    Num(v, d).to_string()
}

/// Key points for a log axis: 1-2-5 steps when the range is narrow, decades when wide.
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo.is_normal() && hi.is_finite() && lo > 0.0 && hi >= lo) {
        return Vec::new();
    }
    let decades = (hi / lo).log10();
    let steps: &[f64] = if decades <= 1.5 {
        &[1.0, 1.5, 2.0, 3.0, 5.0, 7.0]
    } else if decades <= 2.5 {
        &[1.0, 2.0, 5.0]
    } else if decades <= 4.5 {
        &[1.0, 3.0]
    } else {
        &[1.0]
    };
    let mut out = Vec::new();
    let mut p = 10f64.powf(lo.log10().floor());
    while p > 0.0 && p <= hi {
        for m in steps {
            let v = p * m;
            if v >= lo && v <= hi {
                out.push(v);
            }
        }
        p *= 10.0;
    }
    out
}

/// Smallest value an axis shows: anything below is drawn on the axis floor.
const AXIS_FLOOR: f64 = 1e-6;
/// Largest value an axis shows (a latency at a subnormal rate is near 1e308, and
/// rounding it up to a tick would overflow).
const AXIS_CEILING: f64 = 1e300;
/// Most decades a log axis spans below its largest value.
const LOG_DECADES: f64 = 1e9;

/// Pads a positive range for a log axis. Values below [`AXIS_FLOOR`] (a
/// subnormal egress gives rates near 1e-320) and more than [`LOG_DECADES`]
/// below the largest value are left below the axis.
fn log_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for v in values.filter(|v| (AXIS_FLOOR..=AXIS_CEILING).contains(v)) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (1.0, 10.0);
    }
    let lo = lo.max(hi / LOG_DECADES);
    // Round outwards to the next 1-2-5 value so the axis starts and ends on a tick.
    let down = |v: f64| {
        let p = 10f64.powf(v.log10().floor());
        [5.0, 2.0, 1.0]
            .iter()
            .map(|m| m * p)
            .find(|x| *x <= v)
            .unwrap_or(p)
    };
    let up = |v: f64| {
        let p = 10f64.powf(v.log10().floor());
        [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * p)
            .find(|x| *x >= v)
            .unwrap_or(10.0 * p)
    };
    let (lo, hi) = (down(lo * 0.95), up(hi * 1.05));
    if hi / lo < 10.0 {
        (down(lo / 2.0), hi)
    } else {
        (lo, hi)
    }
}

/// A linear axis from 0: the end rounded up to a 1-2-5 step and the number of
/// labels, so plotters draws `target` or so ticks and never fewer than five.
fn nice_axis(max: f64, target: usize) -> (f64, usize) {
    let max = if max.is_finite() && max >= AXIS_FLOOR {
        max.min(AXIS_CEILING)
    } else {
        1.0
    };
    let raw = max / (target.max(5) - 1) as f64;
    let p = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * p);
    let steps = ((max / step).ceil() as usize).max(4);
    (steps as f64 * step, steps + 1)
}

/// Characters per line of a ceilings chart row name.
const LABEL_LINE: usize = 30;

/// A label in at most two lines of about `n` characters, broken at a space; only a
/// label two lines cannot hold is shortened with "…" (its full text is in the tooltip
/// and the data table).
fn wrap_label(s: &str, n: usize) -> Vec<String> {
    if s.chars().count() <= n {
        return vec![s.to_owned()];
    }
    let cut = s
        .char_indices()
        .take(n + 1)
        .filter(|(_, c)| *c == ' ')
        .map(|(i, _)| i)
        .last()
        .filter(|i| *i > 0)
        .unwrap_or_else(|| s.char_indices().nth(n).map_or(s.len(), |(i, _)| i));
    let (first, rest) = s.split_at(cut);
    vec![first.trim_end().to_owned(), truncate(rest.trim_start(), n)]
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_owned()
    } else {
        let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn caption_style() -> TextStyle<'static> {
    (FONT, 18)
        .into_font()
        .style(FontStyle::Bold)
        .color(&OI_BLACK)
}

fn draw_ceilings<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &CeilingsData,
    measured: &[MeasuredPoint],
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let n = d.bars.len().max(1);
    let names: Vec<Vec<String>> = d
        .bars
        .iter()
        .map(|b| {
            let lower = b.name.to_lowercase();
            let r = match b.applies {
                "read" if !lower.contains("read") => " (reads)",
                "write" if !lower.contains("write") => " (writes)",
                _ => "",
            };
            wrap_label(&format!("{}{r}", b.name), LABEL_LINE)
        })
        .collect();
    let label_w = names
        .iter()
        .flat_map(|l| l.iter().map(|s| s.chars().count()))
        .max()
        .unwrap_or(8) as u32
        * 7
        + 18;
    // Limits far above the achievable figure and the targets run off the scale
    // (drawn broken, value in the label) so the ones that matter stay readable.
    let base = d
        .targets
        .iter()
        .map(|t| t.1)
        .chain(measured.iter().map(|m| m.mibps))
        .chain([d.achievable_mibps])
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let cap = if base > 0.0 {
        base * OFF_SCALE
    } else {
        f64::INFINITY
    };
    let xmax = d
        .bars
        .iter()
        .map(|b| b.mibps)
        .filter(|v| *v <= cap)
        .chain([base])
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let ticks_wanted = (root.dim_in_pixel().0 / 90) as usize;
    let (xmax, x_ticks) = nice_axis(xmax * 1.05, ticks_wanted.clamp(5, 9));
    let body = root.titled("Ceilings: every limit in MiB/s", caption_style())?;
    let (key, body) = body.split_vertically(28);
    let mut items = vec![
        LegendItem::swatch("binding limit", OI_VERMILLION),
        LegendItem::swatch("other limits", OI_BLUE),
        LegendItem::line(
            format!("achievable {} MiB/s", Num(d.achievable_mibps, 0)),
            OI_BLACK,
            true,
        ),
    ];
    items.extend(
        d.targets
            .iter()
            .map(|(l, _)| LegendItem::dotted(l.clone(), OI_GREEN)),
    );
    if !measured.is_empty() {
        items.push(LegendItem::dotted("measured runs", OI_PURPLE));
    }
    draw_key_row(&key, &items)?;
    let mut chart = ChartBuilder::on(&body)
        .margin(12)
        .margin_right(36)
        .x_label_area_size(48)
        .y_label_area_size(label_w.clamp(110, 280))
        .build_cartesian_2d(0.0..xmax, -0.5..n as f64 - 0.5)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .light_line_style(WHITE)
        .bold_line_style(GRID)
        .x_labels(x_ticks)
        .y_labels(n)
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|_| String::new())
        .x_desc(format!(
            "Ceiling (MiB/s at {} KiB IO size)",
            Num(d.io_kib, 1)
        ))
        .y_desc("Limit")
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .draw()?;

    // Row names beside the axis, top row first, wrapped onto a second line rather
    // than cut.
    let name_style =
        TextStyle::from((FONT, 13).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
    for (i, lines) in names.iter().enumerate() {
        let y = (n - 1 - i) as f64;
        let top = -(lines.len() as i32 - 1) * 8;
        for (k, line) in lines.iter().enumerate() {
            chart.plotting_area().draw(
                &(EmptyElement::at((0.0, y))
                    + Text::new(line.clone(), (-8, top + k as i32 * 16), name_style.clone())),
            )?;
        }
    }
    let area = chart.plotting_area();
    let (px, _) = area.get_pixel_range();
    let width_px = f64::from((px.end - px.start).max(1));
    let px_per_unit = width_px / xmax;
    // Value labels are drawn last, each on a box of its background, so the achievable,
    // target and measured lines stop short of them instead of running through.
    let mut labels = Vec::with_capacity(d.bars.len());
    for (i, b) in d.bars.iter().enumerate() {
        let y = (n - 1 - i) as f64;
        let colour = if b.binding { OI_VERMILLION } else { OI_BLUE };
        let off_scale = b.mibps > xmax;
        let end = b.mibps.min(xmax);
        area.draw(&Rectangle::new(
            [(0.0, y - 0.32), (end, y + 0.32)],
            colour.filled(),
        ))?;
        if off_scale {
            // A white double slash near the end marks the broken bar.
            for dx in [18.0, 26.0] {
                let x0 = xmax - dx / px_per_unit;
                area.draw(&PathElement::new(
                    vec![(x0, y - 0.4), (x0 + 6.0 / px_per_unit, y + 0.4)],
                    WHITE.stroke_width(3),
                ))?;
            }
        }
        let mut text = format!("{} MiB/s, {} IOPS", Num(b.mibps, 0), Num(b.iops, 0));
        if b.binding {
            text.push_str(", binding");
        }
        if off_scale {
            text.push_str(" (off scale)");
        }
        if b.assumption {
            text.push_str(" (assumption)");
        }
        let weight = if b.binding {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        };
        let font = (FONT, 13).into_font().style(weight);
        let (tw, _) = area.estimate_text_size(&text, &TextStyle::from(font.clone()))?;
        let bar_px = end * px_per_unit;
        let outside = bar_px + 6.0 + f64::from(tw) < width_px;
        let text_w = (f64::from(tw) + 6.0) / px_per_unit;
        let (x, colour, anchor, back, span) = if outside {
            let x = end + 5.0 / px_per_unit;
            (
                x,
                OI_BLACK,
                HPos::Left,
                WHITE,
                (x - 3.0 / px_per_unit, x + text_w),
            )
        } else {
            let pad = if off_scale { 34.0 } else { 5.0 };
            let x = end - pad / px_per_unit;
            (
                x,
                WHITE,
                HPos::Right,
                colour,
                (x - text_w, x + 3.0 / px_per_unit),
            )
        };
        let style = font.color(&colour).pos(Pos::new(anchor, VPos::Center));
        labels.push((text, (x, y), style, back, span));
    }
    let (bottom, top) = (-0.5, n as f64 - 0.5);
    let line = |x: f64, colour: RGBColor| {
        DashedPathElement::new(vec![(x, bottom), (x, top)], 6, 4, colour.stroke_width(2))
    };
    if d.achievable_mibps.is_finite() {
        area.draw(&line(d.achievable_mibps, OI_BLACK))?;
    }
    for (_, v) in &d.targets {
        area.draw(&DashedPathElement::new(
            vec![(*v, bottom), (*v, top)],
            2,
            3,
            OI_GREEN.stroke_width(3),
        ))?;
    }
    for m in measured.iter().filter(|m| m.mibps <= xmax) {
        area.draw(&DashedPathElement::new(
            vec![(m.mibps, bottom), (m.mibps, top)],
            2,
            3,
            OI_PURPLE.stroke_width(3),
        ))?;
    }
    for (text, (x, y), style, back, (x0, x1)) in labels {
        area.draw(&Rectangle::new(
            [(x0.max(0.0), y - 0.3), (x1.min(xmax), y + 0.3)],
            back.filled(),
        ))?;
        area.draw(&Text::new(text, (x, y), style))?;
    }
    Ok(())
}

fn draw_io_size<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &IoSizeSweep,
    measured: &[MeasuredPoint],
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let root = root.titled("Throughput and IOPS against IO size", caption_style())?;
    let (plots, legend) = root.split_horizontally(root.dim_in_pixel().0 as i32 - 230);
    let (top, bottom) = plots.split_vertically(plots.dim_in_pixel().1 as i32 * 56 / 100);
    let xs: Vec<f64> = d.points.iter().map(|p| p.io_size_kib).collect();
    let (xlo, xhi) = (
        xs.first().copied().unwrap_or(4.0) * 0.85,
        xs.last().copied().unwrap_or(1024.0) * 1.15,
    );
    let shown: Vec<&MeasuredPoint> = measured
        .iter()
        .filter(|m| m.io_size_kib >= xlo && m.io_size_kib <= xhi)
        .collect();

    // Upper panel: MiB/s, achievable and every ceiling.
    let (ylo, yhi) = log_range(
        d.points
            .iter()
            .map(|p| p.throughput_mibps)
            .chain(
                d.ceilings
                    .iter()
                    .flat_map(|c| c.mibps.iter().flatten().copied()),
            )
            .chain(shown.iter().map(|m| m.mibps)),
    );
    let mut chart = io_size_panel(
        &top,
        &xs,
        (xlo, xhi),
        (ylo, yhi),
        "Throughput (MiB/s, log scale)",
    )?;
    let mut legend_items = vec![LegendItem::line("Achievable MiB/s", OI_BLACK, false)];
    for (i, (names, mibps)) in coinciding(&d.ceilings).into_iter().enumerate() {
        let style = SeriesStyle::of(i);
        let pts: Vec<(f64, f64)> = xs
            .iter()
            .zip(mibps)
            .filter_map(|(x, v)| v.filter(|v| v.is_finite() && *v > 0.0).map(|v| (*x, v)))
            .collect();
        chart.draw_series(DashedLineSeries::new(
            pts.clone(),
            style.dash,
            style.gap,
            style.colour.stroke_width(2),
        ))?;
        style.draw_markers(&mut chart, &pts)?;
        legend_items.push(LegendItem::new(
            truncate(&names.join(" = "), 28),
            style.colour,
            Sample::Series(i),
        ));
    }
    let achieved: Vec<(f64, f64)> = d
        .points
        .iter()
        .map(|p| (p.io_size_kib, p.throughput_mibps))
        .collect();
    chart.draw_series(LineSeries::new(achieved.clone(), OI_BLACK.stroke_width(3)))?;
    chart.draw_series(
        achieved
            .iter()
            .map(|p| Circle::new(*p, 4, OI_BLACK.filled())),
    )?;
    let own = d.scenario_io_kib;
    // The scenario's own IO size, dotted across a panel from `lo` to `hi`.
    let scenario_line = |lo: f64, hi: f64| {
        DashedLineSeries::new(
            vec![(own, lo), (own, hi)],
            2,
            3,
            OI_VERMILLION.stroke_width(3),
        )
    };
    chart.draw_series(scenario_line(ylo, yhi))?;
    chart.draw_series(std::iter::once(Text::new(
        format!("scenario: {} KiB", Num(own, 1)),
        (own * 1.04, yhi * 0.95),
        (FONT, 12)
            .into_font()
            .color(&OI_VERMILLION)
            .pos(Pos::new(HPos::Left, VPos::Top)),
    )))?;

    chart.draw_series(
        shown
            .iter()
            .map(|m| Cross::new((m.io_size_kib, m.mibps), 6, OI_PURPLE.stroke_width(3))),
    )?;

    // Lower panel: IOPS.
    let (ilo, ihi) = log_range(
        d.points
            .iter()
            .map(|p| p.iops)
            .chain(shown.iter().map(|m| m.iops)),
    );
    let mut chart = io_size_panel(&bottom, &xs, (xlo, xhi), (ilo, ihi), "IOPS (log scale)")?;
    let iops: Vec<(f64, f64)> = d.points.iter().map(|p| (p.io_size_kib, p.iops)).collect();
    chart.draw_series(
        shown
            .iter()
            .filter(|m| m.iops >= ilo && m.iops <= ihi)
            .map(|m| Cross::new((m.io_size_kib, m.iops), 6, OI_PURPLE.stroke_width(3))),
    )?;
    chart.draw_series(LineSeries::new(iops.clone(), OI_BLUE.stroke_width(3)))?;
    chart.draw_series(
        iops.iter()
            .map(|p| TriangleMarker::new(*p, 5, OI_BLUE.filled())),
    )?;
    chart.draw_series(scenario_line(ilo, ihi))?;
    legend_items.push(LegendItem::line(
        "Achievable IOPS (lower panel)",
        OI_BLUE,
        false,
    ));
    legend_items.push(LegendItem::dotted("Scenario's IO size", OI_VERMILLION));
    if !shown.is_empty() {
        legend_items.push(LegendItem::cross("Measured runs", OI_PURPLE));
    }
    draw_legend(&legend, &legend_items)
}

/// The coordinates of an io-size panel: log-scale IO size across, a log-scale figure up.
type LogLog = Cartesian2d<WithKeyPoints<LogCoord<f64>>, WithKeyPoints<LogCoord<f64>>>;

/// One panel of the io-size chart with its grid and axis titles drawn: IO size (KiB) at
/// the key points `xs` across `x`, and the range `y` up with `y_desc` as its title.
fn io_size_panel<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    xs: &[f64],
    (xlo, xhi): (f64, f64),
    (ylo, yhi): (f64, f64),
    y_desc: &str,
) -> Result<ChartContext<'a, DB, LogLog>, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut chart = ChartBuilder::on(area)
        .margin(8)
        .margin_right(20)
        .x_label_area_size(40)
        .y_label_area_size(78)
        .build_cartesian_2d(
            (xlo..xhi).log_scale().with_key_points(xs.to_vec()),
            (ylo..yhi).log_scale().with_key_points(log_ticks(ylo, yhi)),
        )?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .bold_line_style(GRID)
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick(*v))
        .x_desc("IO size (KiB, log scale)")
        .y_desc(y_desc)
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .draw()?;
    Ok(chart)
}

/// Ceilings that draw the same line (within 0.1 % at every IO size) as one series,
/// named together, so that none hides behind another.
fn coinciding(ceilings: &[sweep::Ceiling]) -> Vec<(Vec<&'static str>, &[Option<f64>])> {
    let same = |a: &[Option<f64>], b: &[Option<f64>]| {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| match (x, y) {
                (Some(x), Some(y)) => (x - y).abs() <= 0.001 * x.abs().max(y.abs()),
                (None, None) => true,
                _ => false,
            })
    };
    let mut out: Vec<(Vec<&'static str>, &[Option<f64>])> = Vec::new();
    for c in ceilings {
        match out.iter_mut().find(|(_, m)| same(m, &c.mibps)) {
            Some((names, _)) => names.push(c.name),
            None => out.push((vec![c.name], &c.mibps)),
        }
    }
    out
}

/// The look of the i-th ceiling of the io-size chart: colour and dash pattern together
/// differ for the first 21 series (7 colours x 3 patterns), and each has a marker as
/// well, so similar colours (orange, vermillion, yellow) never also share a pattern.
#[derive(Debug, Clone, Copy, PartialEq)]
struct SeriesStyle {
    colour: RGBColor,
    dash: u32,
    gap: u32,
    marker: usize,
}

impl SeriesStyle {
    /// Long dashes, short dashes, dots.
    const PATTERNS: [(u32, u32); 3] = [(10, 4), (4, 3), (2, 3)];
    /// The first pattern of each colour of [`SERIES`]: orange, vermillion and yellow
    /// each get their own, and vermillion is not dotted like the scenario's line (for
    /// its first two series).
    const FIRST_PATTERN: [usize; 7] = [0, 1, 2, 2, 1, 0, 2];

    fn of(i: usize) -> Self {
        let n = SERIES.len();
        let pattern = (Self::FIRST_PATTERN[i % n] + i / n) % Self::PATTERNS.len();
        let (dash, gap) = Self::PATTERNS[pattern];
        SeriesStyle {
            colour: SERIES[i % SERIES.len()],
            dash,
            gap,
            marker: (i / n + i) % 4,
        }
    }

    /// Draws the marker (circle, triangle, square or cross) at each of `pts`.
    fn draw_markers<DB: DrawingBackend>(
        &self,
        chart: &mut ChartContext<'_, DB, LogLog>,
        pts: &[(f64, f64)],
    ) -> DrawResult<DB> {
        let c = self.colour;
        match self.marker {
            0 => chart.draw_series(pts.iter().map(|p| Circle::new(*p, 3, c.filled())))?,
            1 => chart.draw_series(pts.iter().map(|p| TriangleMarker::new(*p, 4, c.filled())))?,
            2 => chart
                .draw_series(pts.iter().map(|p| {
                    EmptyElement::at(*p) + Rectangle::new([(-3, -3), (3, 3)], c.filled())
                }))?,
            _ => chart.draw_series(pts.iter().map(|p| Cross::new(*p, 4, c.stroke_width(2))))?,
        };
        Ok(())
    }

    /// The legend sample: the pattern with the marker in its middle.
    fn draw_sample<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        (x, y): (i32, i32),
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let c = self.colour;
        area.draw(&DashedPathElement::new(
            vec![(x, y), (x + 26, y)],
            self.dash,
            self.gap,
            c.stroke_width(2),
        ))?;
        let m = (x + 13, y);
        match self.marker {
            0 => area.draw(&Circle::new(m, 3, c.filled())),
            1 => area.draw(&TriangleMarker::new(m, 4, c.filled())),
            2 => area.draw(&Rectangle::new(
                [(m.0 - 3, y - 3), (m.0 + 3, y + 3)],
                c.filled(),
            )),
            _ => area.draw(&Cross::new(m, 4, c.stroke_width(2))),
        }
    }
}

/// How a legend entry is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sample {
    Solid,
    Dashed,
    Dotted,
    Swatch,
    Cross,
    Dot,
    Triangle,
    /// The i-th ceiling's [`SeriesStyle`].
    Series(usize),
}

/// One legend entry: a sample in the series' colour and style, and its name.
struct LegendItem {
    name: String,
    colour: RGBColor,
    sample: Sample,
}

impl LegendItem {
    fn new(name: impl Into<String>, colour: RGBColor, sample: Sample) -> Self {
        LegendItem {
            name: name.into(),
            colour,
            sample,
        }
    }
    fn line(name: impl Into<String>, colour: RGBColor, dashed: bool) -> Self {
        let sample = if dashed {
            Sample::Dashed
        } else {
            Sample::Solid
        };
        LegendItem::new(name, colour, sample)
    }
    fn dotted(name: impl Into<String>, colour: RGBColor) -> Self {
        LegendItem::new(name, colour, Sample::Dotted)
    }
    fn cross(name: impl Into<String>, colour: RGBColor) -> Self {
        LegendItem::new(name, colour, Sample::Cross)
    }
    fn swatch(name: impl Into<String>, colour: RGBColor) -> Self {
        LegendItem::new(name, colour, Sample::Swatch)
    }
    fn dot(name: impl Into<String>, colour: RGBColor) -> Self {
        LegendItem::new(name, colour, Sample::Dot)
    }
    fn triangle(name: impl Into<String>, colour: RGBColor) -> Self {
        LegendItem::new(name, colour, Sample::Triangle)
    }

    /// Draws the sample at (x, y) (its left middle) and the name after it; returns the
    /// x where the next entry of a row may start.
    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        x: i32,
        y: i32,
    ) -> Result<i32, DrawingAreaErrorKind<DB::ErrorType>> {
        let c = self.colour;
        match self.sample {
            Sample::Solid => area.draw(&PathElement::new(
                vec![(x, y), (x + 26, y)],
                c.stroke_width(3),
            ))?,
            Sample::Dashed => area.draw(&DashedPathElement::new(
                vec![(x, y), (x + 26, y)],
                6,
                3,
                c.stroke_width(2),
            ))?,
            Sample::Dotted => area.draw(&DashedPathElement::new(
                vec![(x, y), (x + 26, y)],
                2,
                3,
                c.stroke_width(3),
            ))?,
            Sample::Swatch => area.draw(&Rectangle::new(
                [(x + 6, y - 6), (x + 20, y + 6)],
                c.filled(),
            ))?,
            Sample::Cross => area.draw(&Cross::new((x + 13, y), 6, c.stroke_width(3)))?,
            Sample::Dot => area.draw(&Circle::new((x + 13, y), 6, c.filled()))?,
            Sample::Triangle => area.draw(&TriangleMarker::new((x + 13, y), 6, c.filled()))?,
            Sample::Series(i) => SeriesStyle::of(i).draw_sample(area, (x, y))?,
        }
        let style = TextStyle::from((FONT, 12).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
        let (w, _) = area.estimate_text_size(&self.name, &style)?;
        area.draw(&Text::new(self.name.clone(), (x + 32, y), style))?;
        Ok(x + 32 + w as i32 + 18)
    }
}

/// A legend in its own area, one entry per line, under a "Legend" heading.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[LegendItem],
) -> DrawResult<DB> {
    let heading = TextStyle::from((FONT, 13).into_font().style(FontStyle::Bold));
    area.draw(&Text::new("Legend", (8, 12), heading))?;
    for (i, item) in items.iter().enumerate() {
        item.draw(area, 8, 40 + i as i32 * 20)?;
    }
    Ok(())
}

/// The height a key row needs at the width of `area`: 20 px per line as
/// [`draw_key_row`] wraps it, and a little room below.
fn key_row_height<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[LegendItem],
) -> Result<i32, DrawingAreaErrorKind<DB::ErrorType>> {
    let w = area.dim_in_pixel().0 as i32;
    let style = TextStyle::from((FONT, 12).into_font());
    let (mut x, mut lines) = (16, 1);
    for item in items {
        let (tw, _) = area.estimate_text_size(&item.name, &style)?;
        if x > 16 && x + 50 + tw as i32 > w {
            lines += 1;
            x = 16;
        }
        x += 32 + tw as i32 + 18;
    }
    Ok(6 + 20 * lines)
}

/// A legend as one row across the top of a chart.
fn draw_key_row<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[LegendItem],
) -> DrawResult<DB> {
    let (w, h) = area.dim_in_pixel();
    let rows = ((h as i32) / 20).max(1);
    let style = TextStyle::from((FONT, 12).into_font());
    let (mut x, mut row) = (16, 0);
    for item in items {
        // Wrap to the next row when the entry would run past the right edge.
        let (tw, _) = area.estimate_text_size(&item.name, &style)?;
        if x > 16 && x + 50 + tw as i32 > w as i32 && row + 1 < rows {
            row += 1;
            x = 16;
        }
        x = item.draw(area, x, 12 + row * 20)?;
    }
    Ok(())
}

/// What the scaling chart counts along its axis, for its title.
fn axis_noun(a: Axis) -> &'static str {
    match a {
        Axis::Nconnect => "connections (nconnect)",
        Axis::SmbChannels => "SMB channels",
        Axis::Datastores => "datastores",
    }
}

fn draw_scaling<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &ScalingSweep,
    measured: &[MeasuredPoint],
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let metric = d.metric;
    let max_n = d.points.last().map_or(1, |p| p.n).max(2);
    let value = |m: &MeasuredPoint| match metric {
        Metric::Mibps => m.mibps,
        Metric::Iops => m.iops,
    };
    let shown: Vec<(f64, f64)> = measured
        .iter()
        .filter(|m| (1..=max_n).contains(&m.flows))
        .map(|m| (f64::from(m.flows), value(m)))
        .filter(|(_, v)| v.is_finite())
        .collect();
    let ymax = d
        .points
        .iter()
        .map(|p| p.value(metric))
        .chain(d.published.iter().flat_map(|c| {
            c.series
                .points
                .iter()
                .map(|p| p.1)
                .chain(c.model.iter().map(|p| p.1))
        }))
        .chain(shown.iter().map(|p| p.1))
        .fold(0.0, f64::max);
    let (ymax, y_ticks) = nice_axis(ymax * 1.05, 7);
    // The title names the quantity along the axis.
    let caption = format!(
        "Achievable {} against the number of {}",
        metric.unit(),
        axis_noun(d.axis)
    );
    let root = root.titled(&caption, caption_style())?;
    // The key sits above the plot, never over its points.
    let marker_colours = [OI_VERMILLION, OI_GREEN, OI_PURPLE, OI_ORANGE];
    let mut items = vec![LegendItem::line("Model, this scenario", OI_BLUE, false)];
    for (i, c) in d.published.iter().enumerate() {
        let colour = marker_colours[i % marker_colours.len()];
        items.push(LegendItem::line(
            "Model at the published setup",
            colour,
            true,
        ));
        items.push(if i % 2 == 0 {
            LegendItem::triangle(c.series.label, colour)
        } else {
            LegendItem::cross(c.series.label, colour)
        });
    }
    if (1..=max_n).contains(&d.current) {
        items.push(LegendItem::line(
            format!("Scenario: {} = {}", d.axis.short(), d.current),
            OI_BLACK,
            true,
        ));
    }
    if !shown.is_empty() {
        items.push(LegendItem::cross(
            "Measured runs (this scenario)",
            OI_PURPLE,
        ));
    }
    let key_height = key_row_height(&root, &items)?;
    let (key, plot) = root.split_vertically(key_height);
    draw_key_row(&key, &items)?;
    let mut chart = ChartBuilder::on(&plot)
        .margin(12)
        .margin_right(30)
        .x_label_area_size(48)
        .y_label_area_size(84)
        .build_cartesian_2d(0.5..f64::from(max_n) + 0.5, 0.0..ymax)?;
    let x_labels = (max_n as usize).min(16);
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .bold_line_style(GRID)
        .x_labels(x_labels)
        .y_labels(y_ticks)
        .x_label_formatter(&|v| {
            if v.fract().abs() < 1e-9 {
                tick(*v)
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|v| tick(*v))
        .x_desc(d.axis.title())
        .y_desc(format!("Achievable ({})", metric.unit()))
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .draw()?;
    let model: Vec<(f64, f64)> = d
        .points
        .iter()
        .map(|p| (f64::from(p.n), p.value(metric)))
        .collect();
    chart.draw_series(LineSeries::new(model.clone(), OI_BLUE.stroke_width(3)))?;
    chart.draw_series(model.iter().map(|p| Circle::new(*p, 4, OI_BLUE.filled())))?;
    for (i, c) in d.published.iter().enumerate() {
        let s = c.series;
        let colour = marker_colours[i % marker_colours.len()];
        // The model at the measured setup, so markers and curve compare like for like.
        let at_setup: Vec<(f64, f64)> = c.model.iter().map(|(n, v)| (f64::from(*n), *v)).collect();
        chart.draw_series(DashedLineSeries::new(
            at_setup,
            6,
            4,
            colour.stroke_width(2),
        ))?;
        let pts: Vec<(f64, f64)> = s.points.iter().map(|(n, v)| (f64::from(*n), *v)).collect();
        if i % 2 == 0 {
            chart.draw_series(
                pts.iter()
                    .map(|p| TriangleMarker::new(*p, 7, colour.filled())),
            )?;
        } else {
            chart.draw_series(
                pts.iter()
                    .map(|p| Cross::new(*p, 6, colour.stroke_width(3))),
            )?;
        }
    }
    let cur = f64::from(d.current);
    if (1..=max_n).contains(&d.current) {
        chart.draw_series(DashedLineSeries::new(
            vec![(cur, 0.0), (cur, ymax)],
            5,
            4,
            OI_BLACK.stroke_width(1),
        ))?;
    }
    chart.draw_series(
        shown
            .iter()
            .map(|p| Cross::new(*p, 6, OI_PURPLE.stroke_width(3))),
    )?;
    Ok(())
}

fn draw_latency<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &LatencyData,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let drawn: Vec<&LatencyRun> = d.runs.iter().filter(|r| r.drawn(d.io_kib)).collect();
    let finite_max =
        |it: &mut dyn Iterator<Item = f64>| it.filter(|v| v.is_finite()).fold(0.0, f64::max);
    let xmax = finite_max(
        &mut d
            .curve
            .iter()
            .map(|p| p.iops)
            .chain(d.target_rates.iter().map(|t| t.1))
            .chain(drawn.iter().map(|r| r.iops)),
    );
    // The load axis ends just past the furthest point, not on a round number, so the
    // curve fills the width; plotters picks round tick values inside it.
    // Below one IOPS (a subnormal network limit gives 1e-300) the axis shows 0 to 1:
    // plotters cannot place ticks on a range that narrow. Above [`AXIS_CEILING`] (a
    // run stored at 1e308 IOPS) it ends there: plotters' tick steps overflow to
    // infinity on a wider range and never end.
    let xmax = if xmax >= 1.0 {
        (xmax * 1.06).min(AXIS_CEILING)
    } else {
        1.0
    };
    let x_ticks = ((root.dim_in_pixel().0 / 100) as usize).clamp(5, 8);
    // Latency on a linear scale from 0, where the knee reads as the bend from flat to
    // steep; the labels and the data table give the small values.
    let ymax = finite_max(
        &mut d
            .curve
            .iter()
            .map(|p| p.latency_ms)
            .chain(d.target_latency_ms)
            .chain(d.at_target.map(|a| a.1))
            .chain(drawn.iter().map(|r| r.latency_ms)),
    );
    let (ymax, y_ticks) = nice_axis(ymax * 1.12, 6);
    let achievable = d.curve.last();

    let body = root.titled("Latency per IO against load", caption_style())?;
    let mut items = vec![LegendItem::line(
        "model: latency at each load",
        OI_BLUE,
        false,
    )];
    if let Some(p) = achievable {
        items.push(LegendItem::dot(
            format!("achievable: {} ms", latency::ms(p.latency_ms)),
            OI_VERMILLION,
        ));
    }
    items.extend(
        d.target_rates
            .iter()
            .map(|(l, _)| LegendItem::dotted(l.clone(), OI_GREEN)),
    );
    if let Some(t) = d.target_latency_ms {
        items.push(LegendItem::line(
            format!("target {} ms", latency::ms(t)),
            OI_GREEN,
            true,
        ));
    }
    if !drawn.is_empty() {
        items.push(LegendItem::cross("measured runs", OI_PURPLE));
    }
    let (key, body) = body.split_vertically(key_row_height(&body, &items)?);
    draw_key_row(&key, &items)?;

    let mut chart = ChartBuilder::on(&body)
        .margin(12)
        .margin_right(30)
        .x_label_area_size(44)
        .top_x_label_area_size(44)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..xmax, 0.0..ymax)?
        .set_secondary_coord(0.0..iops_to_mibps(xmax, d.io_kib), 0.0..ymax);
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .bold_line_style(GRID)
        .x_labels(x_ticks)
        .y_labels(y_ticks)
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick(*v))
        .x_desc(format!("Load (IOPS at {} KiB)", Num(d.io_kib, 1)))
        .y_desc("Latency per IO (ms)")
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 14))
        .draw()?;
    chart
        .configure_secondary_axes()
        .x_labels(x_ticks)
        .x_label_formatter(&|v| tick(*v))
        .x_desc("Load (MiB/s)")
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 14))
        .draw()?;

    // Labels sit a fixed share of the axes away from their point, above and to the left
    // of points on the curve (where a rising or flat curve leaves room).
    let (dx, dy) = (xmax * 0.012, ymax * 0.025);
    let label = |text: String, at: (f64, f64), colour: RGBColor, pos: Pos| {
        Text::new(text, at, (FONT, 12).into_font().color(&colour).pos(pos))
    };
    for (_, x) in &d.target_rates {
        chart.draw_series(DashedLineSeries::new(
            vec![(*x, 0.0), (*x, ymax)],
            2,
            3,
            OI_GREEN.stroke_width(3),
        ))?;
    }
    if let Some(t) = d.target_latency_ms {
        chart.draw_series(DashedLineSeries::new(
            vec![(0.0, t), (xmax, t)],
            7,
            4,
            OI_GREEN.stroke_width(2),
        ))?;
    }
    chart.draw_series(LineSeries::new(d.line.clone(), OI_BLUE.stroke_width(3)))?;
    chart.draw_series(
        d.curve
            .iter()
            .map(|p| Circle::new((p.iops, p.latency_ms), 3, OI_BLUE.filled())),
    )?;
    if let Some(k) = latency::knee(&d.curve).filter(|k| k.load_pct < 100.0) {
        let at = (k.iops, k.latency_ms);
        chart.draw_series(std::iter::once(Circle::new(
            at,
            7,
            OI_BLACK.stroke_width(2),
        )))?;
        chart.draw_series(std::iter::once(label(
            format!("latency doubled ({}% load)", Num(k.load_pct, 0)),
            (at.0 + dx, at.1 - dy),
            OI_BLACK,
            Pos::new(HPos::Left, VPos::Top),
        )))?;
    }
    if let Some((x, y)) = d.at_target {
        chart.draw_series(std::iter::once(TriangleMarker::new(
            (x, y),
            7,
            OI_GREEN.filled(),
        )))?;
        chart.draw_series(std::iter::once(label(
            format!("{} ms at the target", latency::ms(y)),
            (x - dx, y + dy),
            OI_BLACK,
            Pos::new(HPos::Right, VPos::Bottom),
        )))?;
    }
    chart.draw_series(
        drawn
            .iter()
            .map(|r| Cross::new((r.iops, r.latency_ms), 6, OI_PURPLE.stroke_width(3))),
    )?;
    if let Some(p) = achievable {
        let at = (p.iops, p.latency_ms);
        chart.draw_series(std::iter::once(Circle::new(at, 6, OI_VERMILLION.filled())))?;
        chart.draw_series(std::iter::once(label(
            format!(
                "achievable: {} IOPS, {} ms",
                Num(p.iops, 0),
                latency::ms(p.latency_ms)
            ),
            (at.0 - dx, at.1 + dy),
            OI_VERMILLION,
            Pos::new(HPos::Right, VPos::Bottom),
        )))?;
    }
    Ok(())
}

fn draw_compare<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &CompareData,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let rows: Vec<&MetricRow> = d.rows.iter().filter(|r| r.text.is_empty()).collect();
    let groups = rows.len().max(1);
    let n = d.names.len().max(1);
    let pct = |r: &MetricRow, j: usize| -> Option<f64> {
        let first = r.values.first().copied().flatten()?;
        let v = r.values.get(j).copied().flatten()?;
        (first > 0.0 && v.is_finite() && first.is_finite()).then(|| v / first * 100.0)
    };
    let ymax = rows
        .iter()
        .flat_map(|r| (0..n).filter_map(|j| pct(r, j)))
        .fold(100.0, f64::max)
        * 1.1;
    let (ymax, y_ticks) = nice_axis(ymax, 7);
    // The arrow says which way is better; the table says it in words.
    let labels: Vec<String> = rows
        .iter()
        .map(|r| {
            let arrow = match r.better {
                Better::Higher => " \u{2191}",
                Better::Lower => " \u{2193}",
                Better::Neither => "",
            };
            format!("{}{arrow}", r.label)
        })
        .collect();
    let root = root.titled("Each metric as % of the first scenario", caption_style())?;
    // The key sits above the bars, never over them.
    let items: Vec<LegendItem> = d
        .names
        .iter()
        .enumerate()
        .map(|(j, name)| LegendItem::swatch(truncate(name, 32), SERIES[j % SERIES.len()]))
        .collect();
    let key_height = key_row_height(&root, &items)?;
    let (key, plot) = root.split_vertically(key_height);
    draw_key_row(&key, &items)?;
    let mut chart = ChartBuilder::on(&plot)
        .margin(12)
        .margin_right(24)
        .x_label_area_size(56)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5..groups as f64 - 0.5, 0.0..ymax)?;
    // Groups sit on whole numbers; ticks between groups stay blank.
    let group_name = |v: &f64| -> String {
        if (v - v.round()).abs() > 1e-6 || *v < -0.1 {
            return String::new();
        }
        labels
            .get(v.round() as usize)
            .map(|s| truncate(s, 22))
            .unwrap_or_default()
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(WHITE)
        .bold_line_style(GRID)
        .x_labels(groups)
        .y_labels(y_ticks)
        .x_label_formatter(&group_name)
        .y_label_formatter(&|v| format!("{}%", tick(*v)))
        .x_desc("Metric")
        .y_desc("Percent of the first scenario (%)")
        .label_style((FONT, 11))
        .axis_desc_style((FONT, 14))
        .draw()?;
    let w = 0.8 / n as f64;
    for j in 0..n {
        let colour = SERIES[j % SERIES.len()];
        let bars: Vec<Rectangle<(f64, f64)>> = rows
            .iter()
            .enumerate()
            .filter_map(|(g, r)| {
                let v = pct(r, j)?;
                let x0 = g as f64 - 0.4 + j as f64 * w;
                Some(Rectangle::new(
                    [(x0, 0.0), (x0 + w * 0.92, v)],
                    colour.filled(),
                ))
            })
            .collect();
        chart.draw_series(bars)?;
    }
    chart.draw_series(std::iter::once(DashedPathElement::new(
        vec![(-0.5, 100.0), (groups as f64 - 0.5, 100.0)],
        5,
        4,
        OI_BLACK.stroke_width(1),
    )))?;
    Ok(())
}

fn draw_layouts<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &LayoutsData,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let counts: Vec<f64> = d.rows.iter().map(|r| f64::from(r.count)).collect();
    let (cmin, cmax) = counts.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), c| {
        (lo.min(*c), hi.max(*c))
    });
    let (cmin, cmax) = if cmin.is_finite() {
        (cmin, cmax.max(cmin * 2.0))
    } else {
        (1.0, 2.0)
    };
    let (ymax, y_ticks) = nice_axis(
        d.rows
            .iter()
            .flat_map(|r| [Some(r.throughput_mibps), r.qos_per_volume_mibps])
            .flatten()
            .fold(0.0, f64::max)
            * 1.1,
        7,
    );
    let (cmax_conn, conn_ticks) = nice_axis(
        d.rows
            .iter()
            .map(|r| r.connections_per_client as f64)
            .fold(0.0, f64::max)
            .max(4.0)
            * 1.1,
        6,
    );
    let body = root.titled(
        "Datastore count against throughput and connections",
        caption_style(),
    )?;
    let mut items = vec![
        LegendItem::line("Achievable MiB/s", OI_BLUE, false),
        LegendItem::line("QoS per datastore (MiB/s)", OI_ORANGE, true),
        LegendItem::line("Connections per host (right axis)", OI_GREEN, false),
    ];
    if let Some(r) = d.suggested.and_then(|i| d.rows.get(i)) {
        items.push(LegendItem::dotted(
            format!("Suggested: {} datastores", r.count),
            OI_BLACK,
        ));
    }
    let (key, body) = body.split_vertically(key_row_height(&body, &items)?);
    draw_key_row(&key, &items)?;
    let mut chart = ChartBuilder::on(&body)
        .margin(12)
        .x_label_area_size(48)
        .y_label_area_size(78)
        .right_y_label_area_size(70)
        .build_cartesian_2d(
            (cmin / 1.3..cmax * 1.3)
                .log_scale()
                .with_key_points(counts.clone()),
            0.0..ymax,
        )?
        .set_secondary_coord(
            (cmin / 1.3..cmax * 1.3)
                .log_scale()
                .with_key_points(counts.clone()),
            0.0..cmax_conn,
        );
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .bold_line_style(GRID)
        .y_labels(y_ticks)
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick(*v))
        .x_desc("Datastores (count, same total capacity; log scale)")
        .y_desc("MiB/s")
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 14))
        .draw()?;
    chart
        .configure_secondary_axes()
        .y_labels(conn_ticks)
        .y_label_formatter(&|v| tick(*v))
        .y_desc("Connections per host (count)")
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 14))
        .draw()?;
    let thr: Vec<(f64, f64)> = d
        .rows
        .iter()
        .map(|r| (f64::from(r.count), r.throughput_mibps))
        .collect();
    chart
        .draw_series(LineSeries::new(thr.clone(), OI_BLUE.stroke_width(3)))?
        .label("Achievable MiB/s")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], OI_BLUE.stroke_width(3)));
    chart.draw_series(thr.iter().map(|p| Circle::new(*p, 4, OI_BLUE.filled())))?;
    let qos: Vec<(f64, f64)> = d
        .rows
        .iter()
        .filter_map(|r| r.qos_per_volume_mibps.map(|q| (f64::from(r.count), q)))
        .collect();
    if !qos.is_empty() {
        chart
            .draw_series(DashedLineSeries::new(
                qos.clone(),
                7,
                4,
                OI_ORANGE.stroke_width(3),
            ))?
            .label("QoS per datastore (MiB/s)")
            .legend(|(x, y)| {
                DashedPathElement::new(vec![(x, y), (x + 22, y)], 6, 3, OI_ORANGE.stroke_width(3))
            });
        chart.draw_series(
            qos.iter()
                .map(|p| TriangleMarker::new(*p, 5, OI_ORANGE.filled())),
        )?;
    }
    let conn: Vec<(f64, f64)> = d
        .rows
        .iter()
        .map(|r| (f64::from(r.count), r.connections_per_client as f64))
        .collect();
    chart
        .draw_secondary_series(LineSeries::new(conn.clone(), OI_GREEN.stroke_width(2)))?
        .label("Connections per host (right axis)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], OI_GREEN.stroke_width(2)));
    chart.draw_secondary_series(conn.iter().map(|p| {
        Rectangle::new(
            [(p.0 / 1.03, p.1), (p.0 * 1.03, p.1)],
            OI_GREEN.stroke_width(6),
        )
    }))?;
    if let Some(r) = d.suggested.and_then(|i| d.rows.get(i)) {
        let x = f64::from(r.count);
        chart.draw_series(DashedLineSeries::new(
            vec![(x, 0.0), (x, ymax)],
            2,
            3,
            OI_BLACK.stroke_width(3),
        ))?;
    }
    Ok(())
}

fn pct_text(v: f64) -> String {
    if v.is_finite() {
        format!("{}%", Num(v, 0))
    } else {
        "unlimited".to_owned()
    }
}

fn ceilings_table(title: &str, d: &CeilingsData) -> ChartTable {
    let rows = d
        .bars
        .iter()
        .map(|b| {
            let mut name = b.label.clone();
            if b.binding {
                name.push_str(" (binding)");
            }
            if b.assumption {
                name.push_str(" (assumption)");
            }
            vec![
                name,
                b.applies.to_owned(),
                Num(b.mibps, 1).to_string(),
                Num(b.iops, 0).to_string(),
                pct_text(b.headroom_pct),
                b.source.to_owned(),
            ]
        })
        .collect();
    let mut notes = vec![format!("Achievable: {} MiB/s.", Num(d.achievable_mibps, 1))];
    notes.extend(
        d.targets
            .iter()
            .map(|(l, v)| format!("{l}: {} MiB/s at this IO size.", Num(*v, 1))),
    );
    ChartTable {
        caption: title.to_owned(),
        headers: ["Limit", "Applies to", "MiB/s", "IOPS", "Headroom", "Source"]
            .map(str::to_owned)
            .to_vec(),
        rows,
        notes,
    }
}

fn io_size_table(title: &str, d: &IoSizeSweep) -> ChartTable {
    let mut headers: Vec<String> = [
        "IO size (KiB)",
        "Achievable MiB/s",
        "Achievable IOPS",
        "Binding",
    ]
    .map(str::to_owned)
    .to_vec();
    headers.extend(d.ceilings.iter().map(|c| format!("{} (MiB/s)", c.name)));
    let rows = d
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut row = vec![
                if p.io_size_kib == d.scenario_io_kib {
                    format!("{} (scenario)", Num(p.io_size_kib, 1))
                } else {
                    Num(p.io_size_kib, 1).to_string()
                },
                Num(p.throughput_mibps, 1).to_string(),
                Num(p.iops, 0).to_string(),
                p.binding.to_owned(),
            ];
            row.extend(d.ceilings.iter().map(|c| {
                c.mibps
                    .get(i)
                    .copied()
                    .flatten()
                    .map_or_else(|| "n/a".to_owned(), |v| Num(v, 1).to_string())
            }));
            row
        })
        .collect();
    ChartTable {
        caption: title.to_owned(),
        headers,
        rows,
        notes: vec!["Each ceiling is converted to MiB/s at the IO size of its row.".to_owned()],
    }
}

/// Ascending counts as runs: `[1, 2, 3, 7, 30, 31]` -> "1-3, 7, 30-31".
fn runs(counts: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < counts.len() {
        let mut j = i;
        while j + 1 < counts.len() && counts[j + 1] == counts[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            counts[i].to_string()
        } else {
            format!("{}-{}", counts[i], counts[j])
        });
        i = j + 1;
    }
    out.join(", ")
}

fn scaling_table(title: &str, d: &ScalingSweep) -> ChartTable {
    let unit = d.metric.unit();
    let mut headers = vec![
        d.axis.short().to_owned(),
        "Achievable MiB/s".to_owned(),
        "Achievable IOPS".to_owned(),
        "Connections".to_owned(),
    ];
    for c in &d.published {
        headers.push(format!("{} ({unit})", c.series.label));
        headers.push(format!("Model at that setup ({unit})"));
    }
    let rows = d
        .points
        .iter()
        .map(|p| {
            let mut row = vec![
                if p.n == d.current {
                    format!("{} (scenario)", p.n)
                } else {
                    p.n.to_string()
                },
                Num(p.throughput_mibps, 1).to_string(),
                Num(p.iops, 0).to_string(),
                p.connections.to_string(),
            ];
            let at = |pts: &[(u32, f64)]| {
                pts.iter()
                    .find(|(n, _)| *n == p.n)
                    .map_or_else(String::new, |(_, v)| Num(*v, 0).to_string())
            };
            for c in &d.published {
                row.push(at(c.series.points));
                row.push(at(&c.model));
            }
            row
        })
        .collect();
    ChartTable {
        caption: title.to_owned(),
        headers,
        rows,
        notes: d
            .published
            .iter()
            .map(|c| format!("{}: {}.", c.series.label, c.series.source))
            .collect(),
    }
}

fn latency_table(title: &str, d: &LatencyData) -> ChartTable {
    let knee = latency::knee(&d.curve).map(|k| k.load_pct);
    let rows = d
        .curve
        .iter()
        .map(|p| {
            let mut load = Num(p.load_pct, 0).to_string();
            if p.load_pct >= 100.0 {
                load.push_str(" (achievable)");
            } else if Some(p.load_pct) == knee {
                load.push_str(" (latency doubled)");
            }
            vec![
                load,
                Num(p.iops, 0).to_string(),
                Num(p.mibps, 1).to_string(),
                Num(p.latency_ms, 3).to_string(),
            ]
        })
        .collect();
    let mut notes: Vec<String> = d
        .target_rates
        .iter()
        .map(|(l, iops)| format!("{l}: {} IOPS at this IO size.", Num(*iops, 0)))
        .collect();
    match (d.at_target, d.target_rates.is_empty()) {
        (Some((_, ms)), _) => notes.push(format!(
            "Latency at the target rate: {} ms per IO.",
            Num(ms, 3)
        )),
        (None, false) => notes.push("The target rate is above the achievable rate.".to_owned()),
        (None, true) => {}
    }
    if let Some(t) = d.target_latency_ms {
        notes.push(format!("Target latency: {} ms per IO.", Num(t, 3)));
    }
    notes.extend(d.runs.iter().map(|r| {
        let mut note = format!(
            "Measured “{}”: {} IOPS, {} MiB/s at {} KiB, latency {} ms per IO",
            r.label,
            Num(r.iops, 0),
            Num(r.mibps, 1),
            Num(r.io_size_kib, 1),
            Num(r.latency_ms, 3)
        );
        if !r.comparable(d.io_kib) {
            note.push_str(&format!(
                " (not drawn: the curve is for {} KiB)",
                Num(d.io_kib, 1)
            ));
        } else if !r.drawn(d.io_kib) {
            note.push_str(" (not drawn: beyond the largest axis)");
        }
        note.push('.');
        note
    }));
    ChartTable {
        caption: title.to_owned(),
        headers: ["Load (% of achievable)", "IOPS", "MiB/s", "Latency (ms)"]
            .map(str::to_owned)
            .to_vec(),
        rows,
        notes,
    }
}

fn compare_table(title: &str, d: &CompareData) -> ChartTable {
    let mut headers = vec!["Metric".to_owned()];
    headers.extend(d.names.iter().cloned());
    let rows = d
        .rows
        .iter()
        .map(|r| {
            let mut row = vec![if r.unit.is_empty() {
                r.label.to_owned()
            } else {
                format!("{} ({})", r.label, r.unit)
            }];
            for j in 0..d.names.len() {
                let mut cell = match (r.values.get(j).copied().flatten(), r.text.get(j)) {
                    (Some(v), _) => {
                        let mut c = Exact(v).to_string();
                        if let Some(Some((_, Some(p)))) = r.deltas.get(j)
                            && j > 0
                        {
                            c.push_str(&format!(
                                " ({}{}%)",
                                if *p >= 0.0 { "+" } else { "" },
                                Num(*p, 1)
                            ));
                        }
                        c
                    }
                    (None, Some(t)) => t.clone(),
                    (None, None) => String::new(),
                };
                if r.best.get(j).copied().unwrap_or(false) {
                    cell.push_str(" (best)");
                }
                row.push(cell);
            }
            row
        })
        .collect();
    ChartTable {
        caption: title.to_owned(),
        headers,
        rows,
        notes: vec!["Percentages are against the first scenario.".to_owned()],
    }
}

fn layouts_table(title: &str, d: &LayoutsData) -> ChartTable {
    let rows = d
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            vec![
                if Some(i) == d.suggested {
                    format!("{} (suggested)", r.count)
                } else {
                    r.count.to_string()
                },
                Num(r.quota_tib, 3).to_string(),
                Num(r.throughput_mibps, 1).to_string(),
                Num(r.iops, 0).to_string(),
                r.qos_per_volume_mibps
                    .map_or_else(|| "n/a".to_owned(), |q| Num(q, 1).to_string()),
                r.connections_per_client.to_string(),
                r.monthly_usd
                    .map_or_else(|| "no list price".to_owned(), |c| Num(c, 2).to_string()),
            ]
        })
        .collect();
    ChartTable {
        caption: title.to_owned(),
        headers: [
            "Datastores",
            "TiB each",
            "MiB/s",
            "IOPS",
            "QoS per datastore (MiB/s)",
            "Connections per host",
            "Monthly cost (USD)",
        ]
        .map(str::to_owned)
        .to_vec(),
        rows,
        notes: vec!["Billing is by capacity pool, so every count costs the same.".to_owned()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_print() {
        for n in ChartName::ALL {
            assert_eq!(n.key().parse::<ChartName>().unwrap(), n);
        }
        let err = "pie".parse::<ChartName>().unwrap_err();
        assert!(
            err.to_string()
                .contains("ceilings, io-size, scaling and latency")
        );
    }

    #[test]
    fn log_ticks_give_at_least_five_labels() {
        for (lo, hi) in [(100.0, 1000.0), (1.0, 1e6), (50.0, 20_000.0), (2.0, 50.0)] {
            let t = log_ticks(lo, hi);
            assert!(t.len() >= 5, "{lo}..{hi}: {t:?}");
            assert!(t.iter().all(|v| *v >= lo && *v <= hi));
        }
        let (lo, hi) = log_range([120.0, 10_240.0].into_iter());
        assert!(lo <= 120.0 && hi >= 10_240.0);
    }

    proptest::proptest! {
        /// Any positive values (subnormal to huge) give a finite log axis with a
        /// bounded number of ticks, and a linear axis that covers the largest.
        #[test]
        fn axes_are_finite_for_any_values(
            vals in proptest::collection::vec(proptest::num::f64::POSITIVE | proptest::num::f64::SUBNORMAL, 1..8),
        ) {
            let (lo, hi) = log_range(vals.iter().copied());
            proptest::prop_assert!(lo.is_normal() && hi.is_finite() && hi > lo, "{lo}..{hi}");
            proptest::prop_assert!(log_ticks(lo, hi).len() <= 400);
            let max = vals.iter().copied().fold(0.0, f64::max);
            let (end, n) = nice_axis(max, 7);
            proptest::prop_assert!(end.is_finite() && (5..=11).contains(&n), "{max}: {end} {n}");
            proptest::prop_assert!(end >= max.min(AXIS_CEILING) || max < AXIS_FLOOR);
        }
    }

    /// A network limit in MiB/s: the smallest positive double, other subnormals, the
    /// smallest normal, tiny, ordinary and far beyond any NIC.
    fn tiny_to_huge() -> impl proptest::strategy::Strategy<Value = f64> {
        proptest::prop_oneof![
            proptest::strategy::Just(5e-324),
            proptest::num::f64::POSITIVE | proptest::num::f64::SUBNORMAL,
            proptest::strategy::Just(f64::MIN_POSITIVE),
            1e-300f64..1e-3,
            1.0f64..1e5,
            1e5f64..1e12,
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]

        /// Every chart draws for any scenario the engine evaluates, with client
        /// network limits from subnormal to far above any NIC.
        #[test]
        fn every_chart_draws_for_any_scenario(
            s in crate::engine::properties::arb_scenario(),
            egress in proptest::option::of(tiny_to_huge()),
            ingress in proptest::option::of(tiny_to_huge()),
        ) {
            let mut s = s;
            s.clients.egress_mibps = egress;
            s.clients.ingress_mibps = ingress;
            if let Ok(e) = crate::engine::evaluate(&s) {
                for name in ChartName::ALL {
                    let svg = svg(name, &s, &e);
                    proptest::prop_assert!(svg.is_ok(), "{name}: {svg:?}");
                }
            }
        }
    }

    /// A measured figure: the extremes of f64 (the smallest subnormal, the smallest
    /// normal, the largest double) and values from tiny to far beyond any range a file
    /// may hold, as a run stored before its figures were checked could hold them.
    fn measured_extreme() -> impl proptest::strategy::Strategy<Value = f64> {
        proptest::prop_oneof![
            proptest::strategy::Just(5e-324),
            proptest::strategy::Just(f64::MIN_POSITIVE),
            proptest::strategy::Just(1e308),
            proptest::strategy::Just(f64::MAX),
            proptest::num::f64::POSITIVE,
            1.0f64..1e6,
        ]
    }

    proptest::proptest! {
        // A chart that never ends is a failure after 20 s: shrink only a few steps.
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 24,
            max_shrink_iters: 16,
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// Every chart draws, within seconds, with measured runs at the extremes of f64
        /// beside the model: each axis stays finite and bounded whatever the data, so no
        /// tick computation can loop.
        #[test]
        fn every_chart_draws_with_measured_runs_at_the_extremes(
            s in crate::engine::properties::arb_scenario(),
            runs in proptest::collection::vec(
                (
                    measured_extreme(),
                    measured_extreme(),
                    measured_extreme(),
                    measured_extreme(),
                    proptest::prelude::any::<bool>(),
                    proptest::prelude::any::<u32>(),
                ),
                1..4,
            ),
        ) {
            let Ok(e) = crate::engine::evaluate(&s) else { return Ok(()) };
            let io_kib = s.workload.io_size_kib;
            let points: Vec<MeasuredPoint> = runs
                .iter()
                .map(|&(iops, mibps, io, _, same_io, n)| MeasuredPoint {
                    label: "run".to_owned(),
                    io_size_kib: if same_io { io_kib } else { io },
                    read_pct: 50.0,
                    mibps,
                    iops,
                    flows: n,
                    outstanding: n,
                })
                .collect();
            let latency: Vec<LatencyRun> = runs
                .iter()
                .map(|&(iops, mibps, io, ms, same_io, _)| LatencyRun {
                    label: "run".to_owned(),
                    io_size_kib: if same_io { io_kib } else { io },
                    iops,
                    mibps,
                    latency_ms: ms,
                })
                .collect();
            for name in ChartName::ALL {
                let chart = Chart::of(name, &s, &e)
                    .expect("an evaluated scenario charts")
                    .with_measured(&points)
                    .with_measured_latency(&latency);
                let (done, drawn) = std::sync::mpsc::channel();
                std::thread::spawn(move || done.send(chart.svg().map(|_| ())));
                let drawn = drawn.recv_timeout(std::time::Duration::from_secs(20));
                proptest::prop_assert!(
                    matches!(drawn, Ok(Ok(()))),
                    "{name} with {runs:?}: {drawn:?}"
                );
            }
        }
    }

    #[test]
    fn subnormal_values_give_a_finite_axis() {
        for vals in [vec![5e-324, 1e-300], vec![5e-324, 6.0], vec![1e-310]] {
            let (lo, hi) = log_range(vals.into_iter());
            assert!(lo.is_normal() && hi > lo, "{lo}..{hi}");
            assert!(!log_ticks(lo, hi).is_empty());
        }
        assert!(log_ticks(0.0, 10.0).is_empty());
        assert!(log_ticks(5e-324, 10.0).is_empty());
        let (end, n) = nice_axis(5e-324, 7);
        assert!(end.is_finite() && end > 0.0 && (5..=11).contains(&n));
        let (end, _) = nice_axis(1.12e308, 5);
        assert!(end.is_finite(), "{end}");
    }

    #[test]
    fn nice_axes_have_five_to_ten_ticks() {
        for max in [0.5, 7.0, 18_400.0, 177_250.0, 1.0e6, 123.0] {
            for target in [5, 7, 9] {
                let (end, n) = nice_axis(max, target);
                assert!(end >= max, "{max}: {end}");
                assert!((5..=11).contains(&n), "{max} {target}: {n}");
            }
        }
        assert_eq!(nice_axis(18_400.0, 7), (20_000.0, 5));
    }

    #[test]
    fn io_size_series_differ_in_colour_and_pattern() {
        let styles: Vec<SeriesStyle> = (0..21).map(SeriesStyle::of).collect();
        for (i, a) in styles.iter().enumerate() {
            for b in &styles[i + 1..] {
                assert!(
                    a.colour != b.colour || (a.dash, a.gap) != (b.dash, b.gap),
                    "{a:?} and {b:?}"
                );
            }
        }
        // Orange, vermillion and yellow look alike: each has its own pattern, and no
        // vermillion series of the first 14 is dotted like the scenario's IO size.
        let warm: Vec<(u32, u32)> = styles[..7]
            .iter()
            .filter(|s| [OI_ORANGE, OI_VERMILLION, OI_YELLOW].contains(&s.colour))
            .map(|s| (s.dash, s.gap))
            .collect();
        assert_eq!(warm.len(), 3);
        assert!(warm[0] != warm[1] && warm[1] != warm[2] && warm[0] != warm[2]);
        assert!(
            styles[..14]
                .iter()
                .all(|s| s.colour != OI_VERMILLION || (s.dash, s.gap) != (2, 3))
        );
    }

    #[test]
    fn title_is_escaped_and_inserted() {
        let svg = "<svg width=\"10\" height=\"10\">\n<rect/>\n</svg>";
        let out = add_title(svg, "a <b> & c", "d");
        assert!(out.starts_with("<svg width=\"10\" height=\"10\" role=\"img\" class=\"chart\">\n<title>a &lt;b&gt; &amp; c</title>"));
        assert!(out.contains("<desc>d</desc>\n<rect/>"));
    }
}
