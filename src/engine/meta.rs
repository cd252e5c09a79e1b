//! Who a scenario is for (contract: `meta`): customer, project, author and notes, printed
//! on every report. The engine never reads them.

use super::scenario::{FieldError, is_noncharacter};
use serde::{Deserialize, Serialize};

/// Longest customer, project or author, in characters.
pub const MAX_META_CHARS: usize = 200;
/// Longest notes, in characters.
pub const MAX_NOTES_CHARS: usize = 4000;

/// Customer, project, author and free notes of a scenario.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    #[serde(default)]
    #[schema(max_length = 200)]
    pub customer: String,
    #[serde(default)]
    #[schema(max_length = 200)]
    pub project: String,
    #[serde(default)]
    #[schema(max_length = 200)]
    pub author: String,
    /// Free text; line breaks allowed.
    #[serde(default)]
    #[schema(max_length = 4000)]
    pub notes: String,
}

impl Meta {
    /// True when every field is empty.
    pub fn is_empty(&self) -> bool {
        self.customer.is_empty()
            && self.project.is_empty()
            && self.author.is_empty()
            && self.notes.is_empty()
    }

    /// Checks the lengths and characters of every field.
    pub fn validate(&self) -> Result<(), FieldError> {
        for (field, value) in [
            ("meta.customer", &self.customer),
            ("meta.project", &self.project),
            ("meta.author", &self.author),
        ] {
            text(field, value, MAX_META_CHARS, false)?;
        }
        text("meta.notes", &self.notes, MAX_NOTES_CHARS, true)
    }
}

/// At most `max` characters, no control characters (but line breaks and tabs where
/// `multiline`), no Unicode noncharacters: the check of every free-text field.
pub(crate) fn text(field: &str, v: &str, max: usize, multiline: bool) -> Result<(), FieldError> {
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
            "must not contain Unicode noncharacters (U+FFFE, U+FFFF and the like)",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(customer: &str, notes: &str) -> Meta {
        Meta {
            customer: customer.to_owned(),
            notes: notes.to_owned(),
            ..Meta::default()
        }
    }

    #[test]
    fn lengths_are_counted_in_characters() {
        assert!(meta(&"é".repeat(200), "").validate().is_ok());
        let e = meta(&"é".repeat(201), "").validate().unwrap_err();
        assert_eq!(e.field, "meta.customer");
        assert!(e.message.contains("201"), "{}", e.message);
        assert!(meta("", &"x".repeat(4000)).validate().is_ok());
        assert_eq!(
            meta("", &"x".repeat(4001)).validate().unwrap_err().field,
            "meta.notes"
        );
    }

    #[test]
    fn notes_keep_line_breaks_but_names_do_not() {
        assert!(meta("", "line one\nline two\tend").validate().is_ok());
        assert_eq!(
            meta("a\nb", "").validate().unwrap_err().field,
            "meta.customer"
        );
        assert_eq!(
            meta("", "bell\u{7}").validate().unwrap_err().field,
            "meta.notes"
        );
        assert!(meta("a\u{FFFF}", "").validate().is_err());
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let bad: Result<Meta, _> = serde_json::from_str(r#"{"customr": "x"}"#);
        assert!(bad.is_err());
        let ok: Meta = serde_json::from_str(r#"{"customer": "Contoso"}"#).unwrap();
        assert_eq!(ok.customer, "Contoso");
        assert!(!ok.is_empty());
        assert!(Meta::default().is_empty());
    }
}
