//! One rule for "gives the same": two throughputs (or IOPS, or latencies) within
//! [`SAME_PCT`] of each other are the same, everywhere a figure is set against another
//! (sizing's "what this scenario gives", compare, layouts, estates and the verdict's
//! words). The model's figures are not sharper than that, so a smaller gap is never
//! called a win, a shortfall or a saving.

/// Figures within this share of each other are the same, %.
pub const SAME_PCT: f64 = 1.0;

/// Whether `a` and `b` are the same: they differ by at most [`SAME_PCT`] of the larger
/// (and float noise, so that [`least_reaching`] reaches).
pub fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= SAME_PCT / 100.0 * a.abs().max(b.abs()) * (1.0 + 1e-12)
}

/// Whether the rate `got` gives what `want` asks: more, or the same.
pub fn reaches(got: f64, want: f64) -> bool {
    got >= want || same(got, want)
}

/// The least rate that [`reaches`] `want`: what a search must at least achieve.
pub fn least_reaching(want: f64) -> f64 {
    want * (1.0 - SAME_PCT / 100.0)
}

/// Whether a rate `pct` % above (negative: below) its target reaches it.
pub fn headroom_reaches(pct: f64) -> bool {
    reaches(1.0 + pct / 100.0, 1.0)
}

/// Whether the latency `got` stays within the bound `limit`: less, or the same.
pub fn within(got: f64, limit: f64) -> bool {
    got <= limit || same(got, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_percent_of_the_larger() {
        assert!(same(1291.0, 1287.6));
        assert!(same(100.0, 99.0));
        assert!(!same(100.0, 98.9));
        assert!(reaches(1287.6, 1291.0));
        assert!(reaches(2000.0, 1291.0));
        assert!(!reaches(1270.0, 1291.0));
        assert!(within(1.504, 1.5));
        assert!(within(1.0, 1.5));
        assert!(!within(1.52, 1.5));
        assert!(same(0.0, 0.0));
        assert!(reaches(least_reaching(1291.0), 1291.0));
        assert!(!reaches(least_reaching(1291.0) - 1e-6, 1291.0));
    }
}
