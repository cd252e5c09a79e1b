//! The published series the model is fitted to (`tests/fixtures/series.json`), and what
//! the model predicts for each point.

use crate::engine::client;
use crate::engine::limits::LimitSet;
use crate::engine::model::Params;
use crate::engine::model_step::core;
use crate::engine::plan::Plan;
use crate::engine::range::{Basis, Grounds};
use crate::engine::scenario::Scenario;
use serde::Deserialize;

/// How far inside a calibration band the fit aims (2 %).
const BAND_MARGIN: f64 = 1.02;

/// The fixture file.
#[derive(Debug, Deserialize)]
pub struct SeriesFile {
    pub about: String,
    pub series: Vec<Series>,
    /// Published figures the scenario format cannot express yet.
    #[serde(default)]
    pub not_expressible: Vec<NotExpressible>,
}

/// One published test or figure group; withheld as a whole in cross-validation.
#[derive(Debug, Deserialize)]
pub struct Series {
    pub id: String,
    pub source: String,
    /// The source document's id: series of one document share a setup (and its bias),
    /// so leave-one-document-out withholds them together.
    pub document: String,
    pub about: String,
    pub points: Vec<SeriesPoint>,
}

/// What a published figure needs that the format lacks.
#[derive(Debug, Deserialize)]
pub struct NotExpressible {
    pub id: String,
    pub figure: String,
    pub needs: String,
}

/// What a point measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    ThroughputMibps,
    Iops,
    LatencyMs,
    /// Latency at `load_pct` percent of the achievable rate, on the model's curve.
    CurveLatencyMs,
    /// The MiB/s of the limit named by `limit` (a documented ceiling, not a run).
    LimitMibps,
}

/// A one-sided figure ("above 2.7 GiB/s", "at most the egress cap").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    Min,
    Max,
}

/// One published figure as a scenario.
#[derive(Debug, Deserialize)]
pub struct SeriesPoint {
    pub id: String,
    pub about: String,
    pub scenario: Scenario,
    pub metric: Metric,
    /// The published figure (a ratio when `versus` is given).
    pub value: f64,
    /// The point is the ratio of the metric for `scenario` over `versus`.
    #[serde(default)]
    pub versus: Option<Scenario>,
    /// With `versus`: the point is the difference `scenario - versus` (an added
    /// latency), not the ratio.
    #[serde(default)]
    pub difference: bool,
    /// Average the metric over read shares 0, 25, 50, 75 and 100 %.
    #[serde(default)]
    pub mixes: bool,
    #[serde(default)]
    pub bound: Option<Bound>,
    /// With `bound: max`, the lower end of a range statement ("single-millisecond
    /// latency, < 2 ms": at least 1, at most 2).
    #[serde(default)]
    pub at_least: Option<f64>,
    #[serde(default)]
    pub load_pct: Option<f64>,
    /// The calibration band of a `calibration.json` case, as a tolerance in percent.
    #[serde(default)]
    pub tol_pct: Option<f64>,
    /// The calibration band as `[min, max]` (either may be null).
    #[serde(default)]
    pub band: Option<[Option<f64>; 2]>,
    /// The limit id for `limit_mibps`.
    #[serde(default)]
    pub limit: Option<String>,
    #[serde(default)]
    pub derived: Option<String>,
}

impl SeriesFile {
    /// Parses the fixture and checks every scenario resolves.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut f: SeriesFile =
            serde_json::from_str(text).map_err(|e| format!("series file: {e}"))?;
        // Points written before Flexible required manual QoS keep their meaning.
        for p in f.series.iter_mut().flat_map(|s| s.points.iter_mut()) {
            p.scenario.upgrade();
            if let Some(v) = p.versus.as_mut() {
                v.upgrade();
            }
        }
        let params = Params::start();
        for s in &f.series {
            for p in &s.points {
                for sc in std::iter::once(&p.scenario).chain(p.versus.as_ref()) {
                    Plan::resolve_with(sc, &params, crate::engine::pricing::book())
                        .map_err(|e| format!("series {} point {}: {e}", s.id, p.id))?;
                }
                if p.metric == Metric::CurveLatencyMs && p.load_pct.is_none() {
                    return Err(format!("point {}: curve_latency_ms needs load_pct", p.id));
                }
                if p.metric == Metric::LimitMibps && p.limit.is_none() {
                    return Err(format!("point {}: limit_mibps needs limit", p.id));
                }
            }
        }
        Ok(f)
    }

    /// Number of points.
    pub fn points(&self) -> usize {
        self.series.iter().map(|s| s.points.len()).sum()
    }

    /// The source documents in order of first appearance, each with the indices of
    /// its series.
    pub fn documents(&self) -> Vec<(String, Vec<usize>)> {
        let mut out: Vec<(String, Vec<usize>)> = Vec::new();
        for (i, s) in self.series.iter().enumerate() {
            match out.iter_mut().find(|(d, _)| *d == s.document) {
                Some((_, v)) => v.push(i),
                None => out.push((s.document.clone(), vec![i])),
            }
        }
        out
    }
}

/// Scenario `s` (a series point's, checked when the file was parsed) resolved under
/// `params`, priced in the compiled book as the published cases are.
pub fn plan<'a>(s: &'a Scenario, params: &'a Params) -> Plan<'a> {
    Plan::resolve_with(s, params, crate::engine::pricing::book())
        .expect("checked when the file was parsed")
}

/// The metric of one scenario under `params`.
fn metric(s: &Scenario, p: &SeriesPoint, params: &Params) -> f64 {
    let (m, load_pct) = (p.metric, p.load_pct);
    let plan = plan(s, params);
    let mut set = LimitSet::default();
    let c = core(&plan, &mut set);
    match m {
        Metric::ThroughputMibps => c.total,
        Metric::Iops => c.iops(&plan),
        Metric::LatencyMs => c.latency_ms(),
        Metric::CurveLatencyMs => c
            .latency_curve(&plan, 0.0)
            .latency_ms_at(load_pct.unwrap_or(100.0)),
        Metric::LimitMibps => set
            .iter()
            .find(|l| Some(l.id) == p.limit.as_deref())
            .map_or(f64::NAN, |l| l.mibps),
    }
}

/// The metric, averaged over mixes where the point says so.
fn value(s: &Scenario, p: &SeriesPoint, params: &Params) -> f64 {
    if !p.mixes {
        return metric(s, p, params);
    }
    let mut s = s.clone();
    let mut sum = 0.0;
    for r in [0.0, 25.0, 50.0, 75.0, 100.0] {
        s.workload.read_pct = r;
        sum += metric(&s, p, params);
    }
    sum / 5.0
}

/// What a point's likely range rests on under a parameter vector.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointGrounds {
    /// The class of its binding resource; `None` for a latency figure.
    pub class: Option<Basis>,
    /// Assumed or lower-bound ceilings (and an assumed round trip, for latency) that
    /// widen its range.
    pub assumptions: usize,
}

impl SeriesPoint {
    /// What this point's likely range rests on under `params` (its scenario's, for a
    /// ratio or a difference).
    pub fn grounds(&self, params: &Params) -> PointGrounds {
        let plan = plan(&self.scenario, params);
        let mut set = LimitSet::default();
        let c = core(&plan, &mut set);
        let g = Grounds::of(&plan, c.limits, c.binding, c.total);
        match self.metric {
            Metric::LatencyMs | Metric::CurveLatencyMs => PointGrounds {
                class: None,
                assumptions: g.assumptions.len() + usize::from(client::delay(&plan).2),
            },
            _ => PointGrounds {
                class: Some(g.class),
                assumptions: g.assumptions.len(),
            },
        }
    }

    /// What the model predicts for this point under `params`.
    pub fn predict(&self, params: &Params) -> f64 {
        let a = value(&self.scenario, self, params);
        match &self.versus {
            Some(v) if self.difference => a - value(v, self, params),
            Some(v) => a / value(v, self, params),
            None => a,
        }
    }

    /// The point's calibration band `(min, max)`, either end open; `None` without one.
    pub fn band(&self) -> Option<(Option<f64>, Option<f64>)> {
        match (self.tol_pct, self.band) {
            (Some(t), _) => Some((
                Some(self.value * (1.0 - t / 100.0)),
                Some(self.value * (1.0 + t / 100.0)),
            )),
            (None, Some([lo, hi])) => Some((lo, hi)),
            (None, None) => None,
        }
    }

    /// How far (in log terms) a prediction lies outside the point's calibration band;
    /// 0 inside it or without a band.
    pub fn band_violation(&self, predicted: f64) -> f64 {
        let (lo, hi) = self.band().unwrap_or((None, None));
        // Aim 2 % inside the band so that a fit on its edge still passes the check.
        let x = predicted.max(1e-300);
        let below = lo.map_or(0.0, |l| (l * BAND_MARGIN / x).ln().max(0.0));
        let above = hi.map_or(0.0, |h| (x * BAND_MARGIN / h).ln().max(0.0));
        below + above
    }

    /// The log error of a prediction: `ln(predicted / published)`, or 0 when a bound
    /// (or a range) holds.
    pub fn log_error(&self, predicted: f64) -> f64 {
        let x = predicted.max(1e-300);
        let e = (x / self.value).ln();
        match self.bound {
            Some(Bound::Min) => e.min(0.0),
            Some(Bound::Max) => {
                let below = self.at_least.map_or(0.0, |lo| (x / lo).ln().min(0.0));
                e.max(0.0) + below
            }
            None => e,
        }
    }
}
