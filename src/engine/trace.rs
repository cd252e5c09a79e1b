//! Labels that carry a limit's formula, formatted only when shown.
//!
//! The engine computes numbers; text is produced lazily by `Display`, so an
//! evaluation allocates nothing for its explanations until it is rendered.

use std::fmt;

/// A limit's name and the formula that produced its value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Label {
    pub name: &'static str,
    pub formula: Formula,
}

/// The arithmetic behind a limit, with the numbers that went into it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Formula {
    /// No formula beyond the catalog value.
    None,
    /// `count x quota TiB x rate MiB/s per TiB`.
    QuotaRate {
        count: u32,
        quota_tib: f64,
        rate: f64,
    },
    /// A catalog value in MiB/s, with a short qualifier.
    Mibps { value: f64, what: &'static str },
    /// A catalog value in IOPS, with a short qualifier.
    Iops { value: f64, what: &'static str },
    /// `n x value MiB/s` (n identical things, each capped).
    Times {
        n: u64,
        each: f64,
        what: &'static str,
    },
    /// Connections aggregated with the scalability model.
    Connections {
        n: u64,
        per_flow_mibps: f64,
        factor: f64,
    },
    /// `n` hosts sharing one datastore, aggregated with the scalability model.
    Hosts {
        n: u64,
        per_flow_mibps: f64,
        factor: f64,
    },
    /// Little's law: outstanding IOs / latency.
    Little { outstanding: f64, latency_ms: f64 },
    /// A share of another ceiling: `pct % of the <of> (<value> MiB/s)`.
    Share {
        pct: f64,
        of: &'static str,
        value: f64,
    },
    /// A fixed sentence.
    Text(&'static str),
}

/// Formats a number with thousands separators and at most `decimals` decimals,
/// trimming trailing zeros ("12,800", "6.25").
pub struct Num(pub f64, pub usize);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Num(v, decimals) = *self;
        if !v.is_finite() {
            return f.write_str("unlimited");
        }
        let scale = 10f64.powi(decimals as i32);
        let rounded = (v.abs() * scale).round() / scale;
        let int = rounded.trunc() as u64;
        let mut frac = ((rounded - rounded.trunc()) * scale).round() as u64;
        let mut width = decimals;
        while width > 0 && frac.is_multiple_of(10) {
            frac /= 10;
            width -= 1;
        }
        if v < 0.0 && (int > 0 || frac > 0) {
            f.write_str("-")?;
        }
        // The integer part with thousands separators, built in a stack buffer (labels
        // format many numbers; no allocation per number).
        let mut buf = [0u8; 27];
        let mut at = buf.len();
        let mut rest = int;
        let mut count = 0;
        loop {
            if count > 0 && count % 3 == 0 {
                at -= 1;
                buf[at] = b',';
            }
            at -= 1;
            buf[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            count += 1;
            if rest == 0 {
                break;
            }
        }
        f.write_str(std::str::from_utf8(&buf[at..]).expect("ASCII digits"))?;
        if width > 0 {
            write!(f, ".{frac:0width$}")?;
        }
        Ok(())
    }
}

/// A headline figure, the one rounding every page uses for it: the whole number up to
/// 9,999, else 3 significant digits ("8,921", "164,000", "64.3", "0.123").
pub struct Sig(pub f64);

impl fmt::Display for Sig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if !v.is_finite() || v == 0.0 {
            return Num(v, 0).fmt(f);
        }
        let mag = v.abs().log10().floor() as i32;
        if (3..4).contains(&mag) {
            return Num(v, 0).fmt(f);
        }
        let decimals = (2 - mag).max(0) as usize;
        let scale = 10f64.powi(mag - 2);
        Num((v / scale).round() * scale, decimals).fmt(f)
    }
}

/// A table figure, exact to the unit: whole units from 10 up ("10,001"), two decimals
/// below ("6.25").
pub struct Exact(pub f64);

impl fmt::Display for Exact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Num(self.0, if self.0.abs() < 10.0 { 2 } else { 0 }).fmt(f)
    }
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Formula::None => Ok(()),
            Formula::QuotaRate {
                count,
                quota_tib,
                rate,
            } => {
                if count > 1 {
                    write!(f, "{count} x ")?;
                }
                write!(
                    f,
                    "{} TiB x {} MiB/s per TiB",
                    Num(quota_tib, 4),
                    Num(rate, 2)
                )
            }
            Formula::Mibps { value, what } => write!(f, "{} MiB/s {what}", Num(value, 2)),
            Formula::Iops { value, what } => write!(f, "{} IOPS {what}", Num(value, 0)),
            Formula::Times { n, each, what } => {
                write!(f, "{n} x {} MiB/s {what}", Num(each, 1))
            }
            Formula::Connections {
                n,
                per_flow_mibps,
                factor,
            } => write!(
                f,
                "{n} connections x {} MiB/s, scaling efficiency {}%",
                Num(per_flow_mibps, 0),
                Num(factor * 100.0, 0)
            ),
            Formula::Hosts {
                n,
                per_flow_mibps,
                factor,
            } => {
                let hosts = if n == 1 { "host" } else { "hosts" };
                write!(
                    f,
                    "{n} {hosts} x {} MiB/s per flow, scaling efficiency {}%",
                    Num(per_flow_mibps, 0),
                    Num(factor * 100.0, 0)
                )
            }
            Formula::Little {
                outstanding,
                latency_ms,
            } => write!(
                f,
                "{} outstanding IOs / {} ms",
                Num(outstanding, 0),
                Num(latency_ms, 3)
            ),
            Formula::Share { pct, of, value } => {
                write!(f, "{} % of the {of}, {} MiB/s", Num(pct, 1), Num(value, 0))
            }
            Formula::Text(t) => f.write_str(t),
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)?;
        if !matches!(self.formula, Formula::None) {
            write!(f, " ({})", self.formula)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn headlines_have_three_or_four_digits_and_tables_the_unit() {
        use super::{Exact, Sig};
        for (v, want) in [
            (163_840.0, "164,000"),
            (10_240.0, "10,200"),
            (8_921.4, "8,921"),
            (999.6, "1,000"),
            (64.25, "64.3"),
            (0.1234, "0.123"),
            (0.0, "0"),
            (f64::INFINITY, "unlimited"),
        ] {
            assert_eq!(Sig(v).to_string(), want, "{v}");
        }
        assert_eq!(Exact(10_000.7).to_string(), "10,001");
        assert_eq!(Exact(6.254).to_string(), "6.25");
    }

    use super::*;

    #[test]
    fn numbers_get_separators_and_trimmed_decimals() {
        assert_eq!(Num(12800.0, 2).to_string(), "12,800");
        assert_eq!(Num(6.25, 2).to_string(), "6.25");
        assert_eq!(Num(1234567.891, 1).to_string(), "1,234,567.9");
        assert_eq!(Num(0.5, 0).to_string(), "1");
        assert_eq!(Num(f64::INFINITY, 0).to_string(), "unlimited");
    }

    #[test]
    fn label_shows_the_formula() {
        let l = Label {
            name: "Volume QoS",
            formula: Formula::QuotaRate {
                count: 4,
                quota_tib: 20.0,
                rate: 128.0,
            },
        };
        assert_eq!(l.to_string(), "Volume QoS (4 x 20 TiB x 128 MiB/s per TiB)");
    }
}
