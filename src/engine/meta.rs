//! Who a scenario is for (contract: `meta`): customer, project, author and notes, printed
//! on every report. The engine never reads them.

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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::field_error::{Checks, FieldErrors};

    fn validate(m: Meta) -> Result<(), FieldErrors> {
        let mut c = Checks::default();
        m.check_into(&mut c);
        c.finish()
    }

    fn meta(customer: &str, notes: &str) -> Meta {
        Meta {
            customer: customer.to_owned(),
            notes: notes.to_owned(),
            ..Meta::default()
        }
    }

    #[test]
    fn lengths_are_counted_in_characters() {
        assert!(validate(meta(&"é".repeat(200), "")).is_ok());
        let e = validate(meta(&"é".repeat(201), "")).unwrap_err();
        assert_eq!(e.first().field, "meta.customer");
        assert!(e.first().message.contains("201"), "{e}");
        assert!(validate(meta("", &"x".repeat(4000))).is_ok());
        assert_eq!(
            validate(meta("", &"x".repeat(4001)))
                .unwrap_err()
                .first()
                .field,
            "meta.notes"
        );
    }

    #[test]
    fn notes_keep_line_breaks_but_names_do_not() {
        assert!(validate(meta("", "line one\nline two\tend")).is_ok());
        assert_eq!(
            validate(meta("a\nb", "")).unwrap_err().first().field,
            "meta.customer"
        );
        assert_eq!(
            validate(meta("", "bell\u{7}")).unwrap_err().first().field,
            "meta.notes"
        );
        assert!(validate(meta("a\u{FFFF}", "")).is_err());
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
