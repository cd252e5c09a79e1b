//! Latency against load: the model's curve from light load up to the achievable rate,
//! computed when it is read (serialised or charted), not during `evaluate`.

use super::network::{Network, Point};
use crate::engine::units::iops_to_mibps;
use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};

/// The loads (percent of the achievable rate) at which the curve is given; a chart
/// that wants more points asks [`LatencyCurve::latency_ms_at`].
pub const LOAD_PCT: [f64; 11] = [
    10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 100.0,
];

/// One point of the curve.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
pub struct CurvePoint {
    pub load_pct: f64,
    pub iops: f64,
    pub mibps: f64,
    pub latency_ms: f64,
}

/// The network and operating point a curve is drawn from.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyCurve {
    pub network: Network,
    /// Outstanding IOs at the achievable load.
    pub outstanding: f64,
    /// Achievable IOPS (100 %).
    pub iops: f64,
    /// Mean latency at the achievable load, in ms.
    pub latency_ms: f64,
    pub io_kib: f64,
}

impl LatencyCurve {
    /// Latency in ms at `load_pct` percent of the achievable rate.
    pub fn latency_ms_at(&self, load_pct: f64) -> f64 {
        if load_pct >= 100.0 {
            return self.latency_ms;
        }
        let x = self.iops * load_pct.max(0.0) / 100.0;
        let top = Point {
            iops: self.iops,
            latency_s: self.latency_ms / 1000.0,
        };
        self.network
            .latency_below(x, self.outstanding, top)
            .map_or(self.latency_ms, |s| (s * 1000.0).min(self.latency_ms))
    }

    /// The points at [`LOAD_PCT`]; latency never falls as load rises.
    pub fn points(&self) -> impl Iterator<Item = CurvePoint> + '_ {
        let mut last = 0.0_f64;
        LOAD_PCT.iter().map(move |&pct| {
            let iops = self.iops * pct / 100.0;
            let latency_ms = self.latency_ms_at(pct).max(last);
            last = latency_ms;
            CurvePoint {
                load_pct: pct,
                iops,
                mibps: iops_to_mibps(iops, self.io_kib),
                latency_ms,
            }
        })
    }
}

impl Serialize for LatencyCurve {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(LOAD_PCT.len()))?;
        for p in self.points() {
            seq.serialize_element(&p)?;
        }
        seq.end()
    }
}
