//! Field errors: what is wrong with an input, field by field, and the checks that find
//! them. A check never stops at the first error: [`Checks`] collects every error of one
//! input so that a form marks every wrong field and an API client fixes them in one
//! round trip (contract, third additions: a 422 lists every field error at once).

use super::trace::Given;
use std::fmt;

/// A value that fails validation: the field path and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct FieldError {
    /// Dotted path, e.g. `workload.io_size_kib` or `storage.volumes[0].quota_tib`.
    pub field: String,
    /// A sentence saying what is wrong and what to enter instead.
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }

    /// The same error with its field under `prefix` (`scenarios[2]`, `counts[0]`).
    pub fn within(self, prefix: &str) -> Self {
        let field = match self.field.as_str() {
            "" => prefix.to_owned(),
            f if f.starts_with('[') => format!("{prefix}{f}"),
            f => format!("{prefix}.{f}"),
        };
        Self { field, ..self }
    }
}

/// Every field error of one input, in the order the fields were checked; never empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldErrors(Vec<FieldError>);

impl FieldErrors {
    /// The first error (what old clients read as `error` and `field`).
    pub fn first(&self) -> &FieldError {
        &self.0[0]
    }

    /// Every error, first to last.
    pub fn iter(&self) -> impl Iterator<Item = &FieldError> {
        self.0.iter()
    }

    /// How many fields are wrong.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Always false: there is at least one error.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The errors, owned.
    pub fn into_vec(self) -> Vec<FieldError> {
        self.0
    }

    /// Every error with its field under `prefix` (see [`FieldError::within`]).
    pub fn within(self, prefix: &str) -> Self {
        Self(self.0.into_iter().map(|e| e.within(prefix)).collect())
    }

    /// Every error changed by `f`.
    pub fn map(self, f: impl FnMut(FieldError) -> FieldError) -> Self {
        Self(self.0.into_iter().map(f).collect())
    }

    /// Every error's message with `context` before it (`4 volumes of 2 TiB: ...`), its
    /// field replaced by `field`.
    pub fn about(self, field: &str, context: &str) -> Self {
        Self(
            self.0
                .into_iter()
                .map(|e| FieldError::new(field, format!("{context}: {}", e.message)))
                .collect(),
        )
    }
}

impl From<FieldError> for FieldErrors {
    fn from(e: FieldError) -> Self {
        Self(vec![e])
    }
}

impl fmt::Display for FieldErrors {
    /// Every error, `field: message`, separated by semicolons.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for FieldErrors {}

/// The smallest rate, IOPS or latency target a scenario may give (in its unit).
pub const MIN_RATE: f64 = 0.001;

/// Most errors one answer lists: past them an input (an inventory of 100,000 VMs, say)
/// is wrong throughout, and the rest are counted in one last error.
pub const MAX_ERRORS: usize = 100;

/// Collects the errors of one input's checks: up to [`MAX_ERRORS`], the rest counted.
#[derive(Debug, Default)]
pub struct Checks(Vec<FieldError>, usize);

impl Checks {
    /// Records an error.
    pub fn push(&mut self, e: FieldError) {
        if self.0.len() < MAX_ERRORS {
            self.0.push(e);
        } else {
            self.1 += 1;
        }
    }

    /// Records the error of `r`, if any.
    pub fn check(&mut self, r: Result<(), FieldError>) {
        if let Err(e) = r {
            self.0.push(e);
        }
    }

    /// Records every error of `r`, if any.
    pub fn extend(&mut self, r: Result<(), FieldErrors>) {
        if let Err(e) = r {
            e.0.into_iter().for_each(|e| self.push(e));
        }
    }

    /// True when no error is recorded (yet).
    pub fn is_clean(&self) -> bool {
        self.0.is_empty()
    }

    /// True when an error is recorded for `field` or a field below it.
    pub fn has(&self, field: &str) -> bool {
        self.0.iter().any(|e| {
            e.field == field
                || e.field
                    .strip_prefix(field)
                    .is_some_and(|rest| rest.starts_with(['.', '[']))
        })
    }

    /// `Ok` when nothing was recorded, else every error (past [`MAX_ERRORS`], how many
    /// more there are, as the last one).
    pub fn finish(mut self) -> Result<(), FieldErrors> {
        if self.1 > 0 {
            self.0.push(FieldError::new(
                "",
                format!(
                    "and {} more errors past these {MAX_ERRORS}: correct these and send it again",
                    self.1
                ),
            ));
        }
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(FieldErrors(self.0))
        }
    }

    /// A number from `lo` to `hi` (in `unit`).
    pub fn range(&mut self, field: &str, v: f64, lo: f64, hi: f64, unit: &str) {
        if !(v.is_finite() && v >= lo && v <= hi) {
            self.push(FieldError::new(
                field,
                format!(
                    "must be a number from {} to {} {unit}, not {}",
                    Given(lo),
                    Given(hi),
                    Given(v)
                ),
            ));
        }
    }

    /// A number above 0 and at most `hi` (in `unit`).
    pub fn above_zero(&mut self, field: &str, v: f64, hi: f64, unit: &str) {
        if !(v.is_finite() && v > 0.0 && v <= hi) {
            self.push(FieldError::new(
                field,
                format!(
                    "must be a number above 0 and at most {} {unit}, not {}",
                    Given(hi),
                    Given(v)
                ),
            ));
        }
    }

    /// A whole number from `lo` to `hi`.
    pub fn range_u(&mut self, field: &str, v: u32, lo: u32, hi: u32) {
        if !(lo..=hi).contains(&v) {
            self.push(FieldError::new(
                field,
                format!("must be a whole number from {lo} to {hi}, not {v}"),
            ));
        }
    }

    /// Null, or a rate from [`MIN_RATE`] to `hi` (in `unit`): a smaller rate is no
    /// rate anything can be measured in, and would leave the figures derived from it
    /// (headroom, cost per MiB/s, latency) no longer numbers.
    pub fn rate(&mut self, field: &str, v: Option<f64>, hi: f64, unit: &str) {
        match v {
            Some(x) if !(x.is_finite() && (MIN_RATE..=hi).contains(&x)) => {
                self.push(FieldError::new(
                    field,
                    format!(
                        "must be from {MIN_RATE} to {} {unit}, or null for none; got {}",
                        Given(hi),
                        Given(x)
                    ),
                ))
            }
            _ => {}
        }
    }

    /// Text of at most `max` characters without control characters (but line breaks
    /// and tabs where `multiline`) or Unicode noncharacters ([`text`]).
    pub fn text(&mut self, field: &str, v: &str, max: usize, multiline: bool) {
        self.check(text(field, v, max, multiline));
    }
}

/// Text of at most `max` characters without control characters (but line breaks and
/// tabs where `multiline`) or Unicode noncharacters: the check of every free-text
/// field, for the inputs that stop at their first error.
pub fn text(field: &str, v: &str, max: usize, multiline: bool) -> Result<(), FieldError> {
    // A text of at most `max` bytes has at most `max` characters: count only longer.
    if v.len() > max && v.chars().count() > max {
        return Err(FieldError::new(
            field,
            format!(
                "must be at most {max} characters long, not {}",
                v.chars().count()
            ),
        ));
    }
    let allowed = |c: char| multiline && matches!(c, '\n' | '\r' | '\t');
    if v.chars().any(|c| c.is_control() && !allowed(c)) {
        let what = if multiline {
            "must not contain control characters other than line breaks and tabs"
        } else {
            "must not contain control characters (tabs, line breaks, NUL and the like)"
        };
        return Err(FieldError::new(field, what));
    }
    if v.chars().any(is_noncharacter) {
        return Err(FieldError::new(
            field,
            "must not contain Unicode noncharacters (U+FFFE, U+FFFF, U+FDD0 to U+FDEF and the like): they are not text, and SVG, XLSX and PDF cannot carry them",
        ));
    }
    Ok(())
}

/// The 66 code points Unicode reserves as never being text: U+FDD0 to U+FDEF and the
/// last two of every plane (U+FFFE, U+FFFF, U+1FFFE, ... U+10FFFF). XML, and with it
/// SVG and XLSX, does not allow U+FFFE and U+FFFF.
pub fn is_noncharacter(c: char) -> bool {
    let u = u32::from(c);
    (0xFDD0..=0xFDEF).contains(&u) || u & 0xFFFE == 0xFFFE
}

/// The names in `known` closest to `given` (case and `_`/`-` ignored), best first, as
/// "did you mean" suggestions: at most three, each within a third of its length.
pub fn closest<'k>(given: &str, known: impl IntoIterator<Item = &'k str>) -> Vec<&'k str> {
    let norm = |s: &str| -> String {
        s.chars()
            .filter(|c| !matches!(c, '_' | '-' | ' '))
            .flat_map(char::to_lowercase)
            .collect()
    };
    let g = norm(given);
    let mut scored: Vec<(usize, &str)> = known
        .into_iter()
        .map(|k| (strsim::levenshtein(&g, &norm(k)), k))
        .filter(|(d, k)| *d <= (k.chars().count() / 3).max(1))
        .collect();
    scored.sort_by_key(|&(d, k)| (d, k));
    scored.dedup_by_key(|(_, k)| *k);
    scored.into_iter().take(3).map(|(_, k)| k).collect()
}

/// " Did you mean `a` or `b`?" for the suggestions, or nothing without any.
pub fn did_you_mean(suggestions: &[&str]) -> String {
    match suggestions {
        [] => String::new(),
        [one] => format!(" Did you mean {one}?"),
        [rest @ .., last] => format!(" Did you mean {} or {last}?", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noncharacters_are_the_66_reserved_code_points() {
        let all = (0..=0x10FFFF)
            .filter_map(char::from_u32)
            .filter(|&c| is_noncharacter(c))
            .count();
        assert_eq!(all, 66);
        for c in [
            '\u{FDD0}',
            '\u{FDEF}',
            '\u{FFFE}',
            '\u{FFFF}',
            '\u{1FFFE}',
            '\u{10FFFF}',
        ] {
            assert!(is_noncharacter(c), "{:X}", u32::from(c));
        }
        for c in [
            '\u{FDCF}',
            '\u{FDF0}',
            '\u{FFFD}',
            '\u{E000}',
            '\u{10000}',
            'a',
        ] {
            assert!(!is_noncharacter(c), "{:X}", u32::from(c));
        }
    }

    #[test]
    fn checks_collect_every_error_in_order() {
        let mut c = Checks::default();
        c.range("a", 5.0, 0.0, 1.0, "x");
        c.range_u("b", 0, 1, 4);
        c.rate("c", Some(1e-300), 10.0, "y");
        c.rate("d", None, 10.0, "y");
        c.text("e", "ok", 10, false);
        let e = c.finish().unwrap_err();
        let fields: Vec<&str> = e.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["a", "b", "c"]);
        assert_eq!(e.first().field, "a");
        assert_eq!(e.len(), 3);
        assert!(e.to_string().starts_with("a: must be") && e.to_string().contains("; c: "));
    }

    #[test]
    fn huge_and_non_finite_numbers_are_quoted_short() {
        let mut c = Checks::default();
        c.range("a", 1e308, 0.0, 1.0, "x");
        c.range("b", f64::NAN, 0.0, 1.0, "x");
        c.above_zero("c", f64::NEG_INFINITY, 1.0, "x");
        c.rate("d", Some(-1e300), 10.0, "y");
        let e = c.finish().unwrap_err();
        let m: Vec<&str> = e.iter().map(|e| e.message.as_str()).collect();
        assert!(m[0].ends_with("not 1e308"), "{}", m[0]);
        assert!(m[1].ends_with("not not a number"), "{}", m[1]);
        assert!(m[2].ends_with("not minus infinite"), "{}", m[2]);
        assert!(m[3].ends_with("got -1e300"), "{}", m[3]);
        assert!(m.iter().all(|m| m.len() < 100), "{m:?}");
    }

    #[test]
    fn past_the_most_errors_the_rest_are_counted() {
        let mut c = Checks::default();
        for i in 0..MAX_ERRORS + 7 {
            c.range(&format!("v[{i}]"), -1.0, 0.0, 1.0, "x");
        }
        let e = c.finish().unwrap_err();
        assert_eq!(e.len(), MAX_ERRORS + 1);
        let last = e.iter().last().unwrap();
        assert_eq!(last.field, "");
        assert!(
            last.message.starts_with("and 7 more errors"),
            "{}",
            last.message
        );
    }

    #[test]
    fn has_matches_a_field_and_the_fields_below_it() {
        let mut c = Checks::default();
        c.push(FieldError::new("storage.volumes[0].quota_tib", "x"));
        assert!(c.has("storage.volumes"));
        assert!(c.has("storage.volumes[0].quota_tib"));
        assert!(!c.has("storage.volume"));
        assert!(!c.has("clients"));
    }

    #[test]
    fn suggestions_are_close_names_only() {
        let known = ["westeurope", "westus", "eastus", "northeurope"];
        assert_eq!(closest("westeurop", known), ["westeurope"]);
        assert_eq!(closest("West-Europe", known), ["westeurope"]);
        assert!(closest("mars", known).is_empty());
        assert_eq!(did_you_mean(&["a", "b", "c"]), " Did you mean a, b or c?");
        assert_eq!(did_you_mean(&[]), "");
    }
}
