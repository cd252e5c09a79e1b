//! The plausible ranges of a measured run: a figure outside them (an overflow in the
//! file, `1e308` IOPS, a test time of `5e-324` s) is a damaged or forged file, refused
//! before it is stored, charted or compared.
//!
//! The bounds are far beyond any real system (a billion IOPS, about 95 TiB/s, an hour of
//! latency, three years of run time), so they refuse only what cannot be measured.

use super::Measurement;
use crate::engine::field_error::{Checks, FieldError, FieldErrors};
use crate::format::given;

/// Most IOPS of one run, all clients together.
pub const MAX_IOPS: f64 = 1e9;
/// Most MiB/s of one run, all clients together.
pub const MAX_MIBPS: f64 = 1e8;
/// Largest average IO, in KiB (1 GiB).
pub const MAX_IO_SIZE_KIB: f64 = 1_048_576.0;
/// Longest latency, in ms (an hour).
pub const MAX_LATENCY_MS: f64 = 3.6e6;
/// Longest run, in seconds (about three years).
pub const MAX_RUNTIME_S: f64 = 1e8;

/// Checks every figure of `m` against its range; every one outside it, named by its
/// field (`iops`).
pub fn check(m: &Measurement) -> Result<(), FieldErrors> {
    let required = [
        ("iops", m.iops, MAX_IOPS, "IOPS"),
        ("read_iops", m.read_iops, MAX_IOPS, "IOPS"),
        ("write_iops", m.write_iops, MAX_IOPS, "IOPS"),
        ("mibps", m.mibps, MAX_MIBPS, "MiB/s"),
        ("read_mibps", m.read_mibps, MAX_MIBPS, "MiB/s"),
        ("write_mibps", m.write_mibps, MAX_MIBPS, "MiB/s"),
        ("read_pct", m.read_pct, 100.0, "%"),
        ("io_size_kib", m.io_size_kib, MAX_IO_SIZE_KIB, "KiB"),
        ("runtime_s", m.runtime_s, MAX_RUNTIME_S, "s"),
    ];
    let latencies = [
        ("latency_mean_ms", m.latency_mean_ms),
        ("latency_p50_ms", m.latency_p50_ms),
        ("latency_p99_ms", m.latency_p99_ms),
    ]
    .into_iter()
    .filter_map(|(field, v)| v.map(|v| (field, v, MAX_LATENCY_MS, "ms")));
    let mut checks = Checks::default();
    for (field, v, max, unit) in required.into_iter().chain(latencies) {
        if !(0.0..=max).contains(&v) {
            checks.push(FieldError::new(
                field,
                format!(
                    "run `{}`: {field} is {}, outside 0 to {} {unit}: the file's figures are \
                     damaged (an overflow, or a test time of almost nothing); run the test again",
                    m.label.chars().take(60).collect::<String>(),
                    given(v),
                    given(max)
                ),
            ));
        }
    }
    checks.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::points::tests::run;

    /// Spoils one figure of a run.
    type Spoil = fn(&mut Measurement);

    #[test]
    fn a_real_run_is_within_range() {
        assert_eq!(check(&run()), Ok(()));
    }

    #[test]
    fn huge_negative_and_non_finite_figures_name_their_field() {
        let cases: [(Spoil, &str, &str); 5] = [
            (|m| m.iops = 1e308, "iops", "1e308"),
            (|m| m.write_mibps = f64::INFINITY, "write_mibps", "infinite"),
            (|m| m.read_pct = -1.0, "read_pct", "-1"),
            (
                |m| m.latency_p99_ms = Some(f64::NAN),
                "latency_p99_ms",
                "not a number",
            ),
            (|m| m.runtime_s = 5e8, "runtime_s", "500000000"),
        ];
        for (spoil, field, shown) in cases {
            let mut m = run();
            spoil(&mut m);
            let e = check(&m).unwrap_err();
            let e = e.first();
            assert_eq!(e.field, field);
            assert!(e.message.contains(shown), "{}", e.message);
            assert!(e.message.contains("run `r`"), "{}", e.message);
        }
    }

    #[test]
    fn every_figure_out_of_range_is_named() {
        let mut m = run();
        (m.iops, m.mibps, m.runtime_s) = (1e308, f64::NAN, 5e8);
        let fields: Vec<String> = check(&m)
            .unwrap_err()
            .iter()
            .map(|e| e.field.clone())
            .collect();
        assert_eq!(fields, ["iops", "mibps", "runtime_s"]);
    }

    #[test]
    fn the_bounds_themselves_are_accepted() {
        let mut m = run();
        (m.iops, m.read_iops, m.mibps, m.read_mibps) = (MAX_IOPS, MAX_IOPS, MAX_MIBPS, MAX_MIBPS);
        (m.io_size_kib, m.runtime_s) = (MAX_IO_SIZE_KIB, MAX_RUNTIME_S);
        m.latency_mean_ms = Some(MAX_LATENCY_MS);
        assert_eq!(check(&m), Ok(()));
    }
}
