//! Diminishing returns when flows are aggregated: the Universal Scalability Law.
//!
//! `X(n) = n / (1 + sigma (n - 1) + kappa n (n - 1))` times the one-flow rate, with
//! parameters fitted to published scaling series (see `catalog/model.json`). The curve
//! is made non-decreasing: more available flows never slow a client down; past the
//! peak it plateaus.

use super::catalog::Usl;

/// Speed-up of `n` flows over one flow (`n >= 1`).
pub fn speedup(usl: Usl, n: f64) -> f64 {
    let n = n.max(1.0);
    let raw = |n: f64| n / (1.0 + usl.sigma * (n - 1.0) + usl.kappa * n * (n - 1.0));
    if usl.kappa <= 0.0 {
        return raw(n);
    }
    // Before the peak n* = sqrt((1 - sigma) / kappa), i.e. while kappa n^2 <= 1 - sigma,
    // the curve rises: no square root on that (usual) path.
    if usl.kappa * n * n <= 1.0 - usl.sigma {
        return raw(n);
    }
    let peak = ((1.0 - usl.sigma) / usl.kappa).sqrt();
    raw(peak.floor().max(1.0)).max(raw(peak.ceil().min(n)))
}

/// Combines a read and a write ceiling of one shared resource at read fraction `r`:
/// time per op is the mix of read and write times, `1 / (r / R + (1 - r) / W)`.
pub fn mix(r: f64, read: f64, write: f64) -> f64 {
    1.0 / (r / read + (1.0 - r) / write)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn avs_datastore_series_is_reproduced() {
        let usl = Usl {
            sigma: 0.099090,
            kappa: 0.018637,
        };
        assert!((speedup(usl, 2.0) - 1.76).abs() < 0.01);
        assert!((speedup(usl, 4.0) - 2.63).abs() < 0.01);
        // Past the peak (~7 flows) the curve plateaus instead of falling.
        assert!(speedup(usl, 32.0) >= speedup(usl, 8.0) - 1e-9);
        assert!(speedup(usl, 8.0) >= speedup(usl, 7.0) - 1e-9);
    }

    #[test]
    fn linear_without_contention() {
        let usl = Usl {
            sigma: 0.0,
            kappa: 0.0,
        };
        assert_eq!(speedup(usl, 8.0), 8.0);
    }

    #[test]
    fn mix_is_harmonic() {
        assert_eq!(mix(1.0, 100.0, 50.0), 100.0);
        assert_eq!(mix(0.0, 100.0, 50.0), 50.0);
        assert!((mix(0.5, 100.0, 50.0) - 66.666).abs() < 0.01);
    }
}
