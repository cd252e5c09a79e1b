//! Labels that carry a limit's formula, formatted only when shown.
//!
//! The engine computes numbers; text is produced lazily by `Display`, so an
//! evaluation allocates nothing for its explanations until it is rendered.

use arrayvec::ArrayString;
use serde::{Serialize, Serializer};
use std::fmt::{self, Write as _};

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
    /// A per-volume ceiling `each` (from `quota_tib x rate` when `rate > 0`) on the
    /// busiest of `of` unequally loaded volumes: it holds `on_busiest` of `units`
    /// (VMDKs or VMs), so the total it allows is `each x units / on_busiest`.
    Busiest {
        each: f64,
        quota_tib: f64,
        rate: f64,
        of: u32,
        on_busiest: u64,
        units: u64,
        unit: &'static str,
    },
}

/// Formats a number with thousands separators and at most `decimals` decimals,
/// trimming trailing zeros ("12,800", "6.25").
pub struct Num(pub f64, pub usize);

impl Num {
    /// Writes the number to `w`.
    pub fn write_to<W: fmt::Write + ?Sized>(&self, w: &mut W) -> fmt::Result {
        let Num(v, decimals) = *self;
        if !v.is_finite() {
            return w.write_str("unlimited");
        }
        let decimals = decimals.min(MAX_DECIMALS);
        let scale = 10u64.pow(decimals as u32);
        // Whole units of the last decimal; saturates far beyond any figure shown.
        let units = (v.abs() * scale as f64).round() as u64;
        let mut frac = units % scale;
        let mut width = decimals;
        while width > 0 && frac.is_multiple_of(10) {
            frac /= 10;
            width -= 1;
        }
        if v < 0.0 && units > 0 {
            w.write_char('-')?;
        }
        write_grouped(w, units / scale)?;
        if width > 0 {
            write!(w, ".{frac:0width$}")?;
        }
        Ok(())
    }
}

/// Most decimals [`Num`] writes (more would overflow the integer it rounds to).
const MAX_DECIMALS: usize = 9;

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// Writes a whole number in plain digits.
pub fn write_int<W: fmt::Write + ?Sized>(w: &mut W, n: u64) -> fmt::Result {
    write!(w, "{n}")
}

/// Writes `n` with a `,` between groups of three digits.
fn write_grouped<W: fmt::Write + ?Sized>(w: &mut W, n: u64) -> fmt::Result {
    let mut digits = ArrayString::<20>::new();
    write!(digits, "{n}")?;
    let head = match digits.len() % 3 {
        0 => 3,
        r => r,
    };
    w.write_str(&digits[..head])?;
    for at in (head..digits.len()).step_by(3) {
        w.write_char(',')?;
        w.write_str(&digits[at..at + 3])?;
    }
    Ok(())
}

/// A number as a message quotes what was given: as written when it is ordinary
/// (`0.1`, `16384`), in exponent form when huge or tiny (`1e308`, `5e-324`), and
/// `not a number` or `infinite` when it is neither: never hundreds of digits.
pub struct Given(pub f64);

impl fmt::Display for Given {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v.is_nan() {
            f.write_str("not a number")
        } else if v.is_infinite() {
            f.write_str(if v > 0.0 {
                "infinite"
            } else {
                "minus infinite"
            })
        } else if v == 0.0 || (1e-3..1e9).contains(&v.abs()) {
            write!(f, "{v}")
        } else {
            write!(f, "{v:e}")
        }
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

impl Formula {
    /// Writes the formula to `w`, piece by piece.
    pub fn write_to<W: fmt::Write + ?Sized>(&self, w: &mut W) -> fmt::Result {
        match *self {
            Formula::None => Ok(()),
            Formula::QuotaRate {
                count,
                quota_tib,
                rate,
            } => {
                if count > 1 {
                    write_int(w, u64::from(count))?;
                    w.write_str(" x ")?;
                }
                Num(quota_tib, 4).write_to(w)?;
                w.write_str(" TiB x ")?;
                Num(rate, 2).write_to(w)?;
                w.write_str(" MiB/s per TiB")
            }
            Formula::Mibps { value, what } => {
                Num(value, 2).write_to(w)?;
                w.write_str(" MiB/s ")?;
                w.write_str(what)
            }
            Formula::Iops { value, what } => {
                Num(value, 0).write_to(w)?;
                w.write_str(" IOPS ")?;
                w.write_str(what)
            }
            Formula::Times { n, each, what } => {
                write_int(w, n)?;
                w.write_str(" x ")?;
                Num(each, 1).write_to(w)?;
                w.write_str(" MiB/s ")?;
                w.write_str(what)
            }
            Formula::Connections {
                n,
                per_flow_mibps,
                factor,
            } => {
                write_int(w, n)?;
                w.write_str(" connections x ")?;
                Num(per_flow_mibps, 0).write_to(w)?;
                w.write_str(" MiB/s")?;
                efficiency(w, factor)
            }
            Formula::Hosts {
                n,
                per_flow_mibps,
                factor,
            } => {
                write_int(w, n)?;
                w.write_str(if n == 1 { " host x " } else { " hosts x " })?;
                Num(per_flow_mibps, 0).write_to(w)?;
                w.write_str(" MiB/s per flow")?;
                efficiency(w, factor)
            }
            Formula::Little {
                outstanding,
                latency_ms,
            } => {
                Num(outstanding, 0).write_to(w)?;
                w.write_str(" outstanding IOs / ")?;
                Num(latency_ms, 3).write_to(w)?;
                w.write_str(" ms")
            }
            Formula::Share { pct, of, value } => {
                Num(pct, 1).write_to(w)?;
                w.write_str(" % of the ")?;
                w.write_str(of)?;
                w.write_str(", ")?;
                Num(value, 0).write_to(w)?;
                w.write_str(" MiB/s")
            }
            Formula::Text(t) => w.write_str(t),
            Formula::Busiest {
                each,
                quota_tib,
                rate,
                of,
                on_busiest,
                units,
                unit,
            } => {
                if rate > 0.0 {
                    Num(quota_tib, 4).write_to(w)?;
                    w.write_str(" TiB x ")?;
                    Num(rate, 2).write_to(w)?;
                    w.write_str(" MiB/s per TiB = ")?;
                }
                Num(each, 1).write_to(w)?;
                w.write_str(" MiB/s on the busiest of ")?;
                write_int(w, u64::from(of))?;
                w.write_str(" datastores, which holds ")?;
                write_int(w, on_busiest)?;
                w.write_str(" of ")?;
                write_int(w, units)?;
                w.write_char(' ')?;
                w.write_str(unit)?;
                w.write_str(": ")?;
                Num(each, 1).write_to(w)?;
                w.write_str(" x ")?;
                write_int(w, units)?;
                w.write_str(" / ")?;
                write_int(w, on_busiest)
            }
        }
    }
}

/// `, scaling efficiency N%` of the scalability model's factor.
fn efficiency<W: fmt::Write + ?Sized>(w: &mut W, factor: f64) -> fmt::Result {
    w.write_str(", scaling efficiency ")?;
    Num(factor * 100.0, 0).write_to(w)?;
    w.write_str("%")
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

impl Label {
    /// Writes the name and, when there is one, the formula in brackets.
    pub fn write_to<W: fmt::Write + ?Sized>(&self, w: &mut W) -> fmt::Result {
        w.write_str(self.name)?;
        if !matches!(self.formula, Formula::None) {
            w.write_str(" (")?;
            self.formula.write_to(w)?;
            w.write_str(")")?;
        }
        Ok(())
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// Room for a label's text on the stack: the longest name and formula take about 130
/// bytes; a longer label is written through `Display` instead.
const LABEL_BYTES: usize = 256;

/// A label serialises as its text, built on the stack and handed over whole.
impl Serialize for Label {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut text = ArrayString::<LABEL_BYTES>::new();
        match self.write_to(&mut text) {
            Ok(()) => s.serialize_str(&text),
            Err(_) => s.collect_str(self),
        }
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
        let json = serde_json::to_string(&l).unwrap();
        assert_eq!(json, "\"Volume QoS (4 x 20 TiB x 128 MiB/s per TiB)\"");
    }

    #[test]
    fn decimals_keep_their_leading_zeros() {
        assert_eq!(Num(1.05, 2).to_string(), "1.05");
        assert_eq!(Num(0.007, 3).to_string(), "0.007");
        assert_eq!(Num(-2.5, 1).to_string(), "-2.5");
    }

    #[test]
    fn a_label_longer_than_the_stack_buffer_serialises_whole() {
        let long: &'static str = "x".repeat(LABEL_BYTES + 40).leak();
        let l = Label {
            name: "Note",
            formula: Formula::Text(long),
        };
        let json = serde_json::to_string(&l).unwrap();
        assert_eq!(json, format!("\"Note ({long})\""));
    }
}
