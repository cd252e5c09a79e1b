//! Latency of several IO streams put together: IO-weighted means, and percentiles of the
//! mixture of their distributions (each known only at its percentile points).

/// The latency of one stream of IOs (one direction of one job, thread or target).
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct LatencySet {
    /// Number of IOs the figures describe (the weight).
    pub ios: f64,
    /// Mean latency in ms.
    pub mean_ms: Option<f64>,
    /// (percentile 0..100, latency in ms) points.
    pub percentiles: Vec<(f64, f64)>,
}

/// Several streams; answers questions about all their IOs together.
#[derive(Debug, Clone, Default)]
pub(super) struct LatencyMix {
    parts: Vec<LatencySet>,
}

impl LatencyMix {
    /// Adds a stream; streams without IOs are ignored.
    pub fn add(&mut self, set: LatencySet) {
        if set.ios > 0.0 && set.ios.is_finite() {
            self.parts.push(set);
        }
    }

    /// IO-weighted mean; None unless every stream with IOs has a mean.
    pub fn mean_ms(&self) -> Option<f64> {
        let mut num = 0.0;
        let mut den = 0.0;
        for p in &self.parts {
            num += p.mean_ms? * p.ios;
            den += p.ios;
        }
        (den > 0.0).then(|| num / den).filter(|v| v.is_finite())
    }

    /// The latency below which `q` percent of all IOs completed; None unless every stream
    /// with IOs has percentile points.
    pub fn quantile_ms(&self, q: f64) -> Option<f64> {
        if self.parts.is_empty() || self.parts.iter().any(|p| p.percentiles.is_empty()) {
            return None;
        }
        let cdfs: Vec<(f64, Vec<(f64, f64)>)> = self
            .parts
            .iter()
            .map(|p| (p.ios, cdf_points(&p.percentiles)))
            .collect();
        let total: f64 = cdfs.iter().map(|(w, _)| w).sum();
        let mix =
            |x: f64| -> f64 { cdfs.iter().map(|(w, pts)| w * cdf_at(pts, x)).sum::<f64>() / total };
        let mut xs: Vec<f64> = cdfs
            .iter()
            .flat_map(|(_, pts)| pts.iter().map(|(x, _)| *x))
            .collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        let mut prev_x = 0.0;
        let mut prev_f = 0.0;
        for &x in &xs {
            let f = mix(x);
            if f >= q {
                if f <= prev_f {
                    return Some(x);
                }
                return Some(prev_x + (q - prev_f) / (f - prev_f) * (x - prev_x));
            }
            prev_x = x;
            prev_f = f;
        }
        xs.last().copied()
    }
}

/// (latency, cumulative percent) points, sorted by latency, starting at (0, 0), with the
/// highest percent kept where several percentiles share one latency.
fn cdf_points(percentiles: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut pts: Vec<(f64, f64)> = percentiles
        .iter()
        .filter(|(p, x)| p.is_finite() && x.is_finite() && *x >= 0.0)
        .map(|(p, x)| (*x, p.clamp(0.0, 100.0)))
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut out: Vec<(f64, f64)> = vec![(0.0, 0.0)];
    for (x, p) in pts {
        let last = out.last_mut().expect("starts with one point");
        if x == last.0 {
            last.1 = last.1.max(p);
        } else if p >= last.1 {
            out.push((x, p));
        }
    }
    out
}

/// Cumulative percent at latency `x`, linear between points, flat after the last.
fn cdf_at(pts: &[(f64, f64)], x: f64) -> f64 {
    let mut prev = (0.0, 0.0);
    for &(px, pp) in pts {
        if x <= px {
            if px <= prev.0 {
                return pp;
            }
            return prev.1 + (x - prev.0) / (px - prev.0) * (pp - prev.1);
        }
        prev = (px, pp);
    }
    prev.1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ios: f64, mean: f64, pts: &[(f64, f64)]) -> LatencySet {
        LatencySet {
            ios,
            mean_ms: Some(mean),
            percentiles: pts.to_vec(),
        }
    }

    #[test]
    fn one_stream_returns_its_own_points() {
        let mut m = LatencyMix::default();
        m.add(set(
            100.0,
            2.0,
            &[(1.0, 0.5), (50.0, 1.8), (99.0, 6.0), (99.9, 9.0)],
        ));
        assert!((m.quantile_ms(50.0).unwrap() - 1.8).abs() < 1e-9);
        assert!((m.quantile_ms(99.0).unwrap() - 6.0).abs() < 1e-9);
        assert_eq!(m.mean_ms(), Some(2.0));
    }

    #[test]
    fn two_equal_streams_give_the_same_points() {
        let pts = [(10.0, 1.0), (50.0, 2.0), (99.0, 4.0)];
        let mut m = LatencyMix::default();
        m.add(set(10.0, 2.0, &pts));
        m.add(set(30.0, 2.0, &pts));
        assert!((m.quantile_ms(50.0).unwrap() - 2.0).abs() < 1e-9);
        assert!((m.quantile_ms(99.0).unwrap() - 4.0).abs() < 1e-9);
    }

    #[test]
    fn weights_pull_the_median() {
        // 90 % of IOs fast (median 1 ms), 10 % slow (median 10 ms): the mix median stays low.
        let mut m = LatencyMix::default();
        m.add(set(90.0, 1.0, &[(50.0, 1.0), (99.0, 2.0)]));
        m.add(set(10.0, 10.0, &[(50.0, 10.0), (99.0, 20.0)]));
        let p50 = m.quantile_ms(50.0).unwrap();
        assert!(p50 > 0.9 && p50 < 2.0, "{p50}");
        let p99 = m.quantile_ms(99.0).unwrap();
        assert!(p99 > 10.0 && p99 <= 20.0, "{p99}");
        assert!((m.mean_ms().unwrap() - 1.9).abs() < 1e-9);
    }

    #[test]
    fn missing_data_gives_none() {
        let mut m = LatencyMix::default();
        assert_eq!(m.quantile_ms(50.0), None);
        m.add(set(10.0, 1.0, &[]));
        assert_eq!(m.quantile_ms(50.0), None);
        m.add(LatencySet {
            ios: 5.0,
            mean_ms: None,
            percentiles: vec![],
        });
        assert_eq!(m.mean_ms(), None);
    }

    #[test]
    fn duplicate_values_from_histogram_buckets() {
        let mut m = LatencyMix::default();
        m.add(set(
            1.0,
            1.0,
            &[(1.0, 1.0), (5.0, 1.0), (10.0, 1.0), (50.0, 3.0)],
        ));
        let p5 = m.quantile_ms(5.0).unwrap();
        assert!(p5 <= 1.0);
        assert!((m.quantile_ms(50.0).unwrap() - 3.0).abs() < 1e-9);
    }
}
