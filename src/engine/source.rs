//! Where a limit, a model parameter or a price comes from, as data: the public document
//! (a key into the register `catalog/documents.json`), its date, the part of it cited,
//! and what kind of figure it is. The public citation is written from these fields in
//! one place ([`Source`]'s `Display`); working notes (design-note sections, review
//! flags, file names) sit in `note`, which the engineer edition and the API's typed
//! `provenance` carry and no customer document does.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::sync::LazyLock;
use utoipa::ToSchema;

/// What a figure rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// Stated by the document (a QoS formula, a maximum, a list price): the model never
    /// predicts more.
    Documented,
    /// A parameter of the joint fit to published measurements.
    Fitted,
    /// Fitted, but every published test that bears on it was held by its clients: the
    /// published figures are lower bounds on it.
    LowerBound,
    /// Worked out from what a document states (its examples, another of its figures).
    Derived,
    /// No document states it: a planning assumption.
    Assumption,
}

impl SourceKind {
    /// Fitted to measurements (a lower bound included) rather than stated.
    pub fn is_fitted(self) -> bool {
        matches!(self, SourceKind::Fitted | SourceKind::LowerBound)
    }
}

/// A figure's source, borrowed from the catalog or the code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = Provenance)]
pub struct Source {
    /// Key of the public document in the register (`LEARN-ANF/<page>`, `GCNV/<path>`);
    /// empty when no document states the figure.
    pub document: &'static str,
    /// The document's date as it prints it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<&'static str>,
    /// The part of the document cited, or what the figure is when no document is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<&'static str>,
    pub kind: SourceKind,
    /// A working note (the design notes' section, a review flag, a file): in the
    /// engineer edition and the API's `provenance`, never in a customer document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'static str>,
}

impl Source {
    /// A figure stated by `document`.
    pub const fn documented(document: &'static str) -> Source {
        Source {
            document,
            date: None,
            section: None,
            kind: SourceKind::Documented,
            note: None,
        }
    }

    /// This source at the document's `date`.
    pub const fn dated(self, date: &'static str) -> Source {
        Source {
            date: Some(date),
            ..self
        }
    }

    /// This source cited for `section`.
    pub const fn section(self, section: &'static str) -> Source {
        Source {
            section: Some(section),
            ..self
        }
    }

    /// This source as a figure of `kind`.
    pub const fn kind(self, kind: SourceKind) -> Source {
        Source { kind, ..self }
    }

    /// This source with a working note.
    pub const fn note(self, note: &'static str) -> Source {
        Source {
            note: Some(note),
            ..self
        }
    }

    /// A figure no document states, described by `what`.
    pub const fn undocumented(what: &'static str, kind: SourceKind) -> Source {
        Source {
            document: "",
            date: None,
            section: Some(what),
            kind,
            note: None,
        }
    }

    /// The public document cited, if any.
    pub fn public_document(&self) -> Option<&'static Document> {
        document(self.document)
    }
}

/// The public citation: the document's title and date, the part cited, and the kind
/// when the figure is not simply stated.
impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let title = self.public_document().map(|d| d.title.as_str());
        match (title, self.date) {
            (Some(t), Some(d)) => write!(f, "{t} ({d})")?,
            (Some(t), None) => f.write_str(t)?,
            (None, _) => {}
        }
        if let Some(s) = self.section {
            if title.is_some() {
                f.write_str(": ")?;
            }
            f.write_str(s)?;
        }
        match self.kind {
            SourceKind::Documented => Ok(()),
            SourceKind::Fitted => f.write_str(" (fitted)"),
            SourceKind::LowerBound => {
                f.write_str(" (fitted; the published figures are lower bounds on it)")
            }
            SourceKind::Derived => f.write_str(" (derived)"),
            SourceKind::Assumption => f.write_str(" (assumption)"),
        }
    }
}

/// A source in an answer: the public citation, the kind, and the source as data.
#[derive(Debug, Serialize, ToSchema)]
pub struct Cited {
    /// The public citation: the document's title and date and the part cited.
    pub source: String,
    pub kind: SourceKind,
    /// The source as data: the document's key, date, part cited and kind.
    pub provenance: Source,
}

/// Serialises `s` as [`Cited`]'s fields (for a flattened source).
pub fn cited<S: serde::Serializer>(s: &Source, ser: S) -> Result<S::Ok, S::Error> {
    Cited {
        source: s.to_string(),
        kind: s.kind,
        provenance: *s,
    }
    .serialize(ser)
}

/// Serialises sources as their public citations.
pub fn citations<S: serde::Serializer>(sources: &[Source], ser: S) -> Result<S::Ok, S::Error> {
    ser.collect_seq(sources.iter().map(ToString::to_string))
}

/// A source as the catalog's JSON files hold it; [`SourceEntry::get`] lends it as a
/// [`Source`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceEntry {
    pub document: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    pub kind: SourceKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl SourceEntry {
    /// The entry as a [`Source`] (catalog entries live as long as the program).
    pub fn get(&'static self) -> Source {
        Source {
            document: &self.document,
            date: self.date.as_deref(),
            section: self.section.as_deref(),
            kind: self.kind,
            note: self.note.as_deref(),
        }
    }
}

/// A public document a source cites.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    /// The title as its publisher writes it.
    pub title: String,
    pub url: String,
}

/// The register of public documents, by key.
static DOCUMENTS: LazyLock<HashMap<String, Document>> = LazyLock::new(|| {
    serde_json::from_str(include_str!("catalog/documents.json")).expect("documents.json is valid")
});

/// The registered document of `key` (none for an empty or unknown key).
pub fn document(key: &str) -> Option<&'static Document> {
    DOCUMENTS.get(key)
}

/// Every public document `sources` cite, once each, in order of first mention.
pub fn documents(sources: impl IntoIterator<Item = Source>) -> Vec<&'static Document> {
    let mut out: Vec<&'static Document> = Vec::new();
    for d in sources.into_iter().filter_map(|s| s.public_document()) {
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_citation_is_written_from_the_fields_without_the_note() {
        let s = Source::documented("LEARN-ANF/azure-netapp-files-service-levels")
            .dated("01/29/2026")
            .section("min 128 MiB/s per pool")
            .note("service-limits 1.2");
        assert_eq!(
            s.to_string(),
            "Service levels for Azure NetApp Files (01/29/2026): min 128 MiB/s per pool"
        );
        let fitted = Source::undocumented("the back end's time per op", SourceKind::Fitted);
        assert_eq!(fitted.to_string(), "the back end's time per op (fitted)");
        let json = serde_json::to_value(s).expect("JSON");
        assert_eq!(json["kind"], "documented");
        assert_eq!(
            json["document"],
            "LEARN-ANF/azure-netapp-files-service-levels"
        );
    }

    #[test]
    fn an_unregistered_key_is_never_printed() {
        let s = Source::documented("LEARN-ANF/no-such-page")
            .dated("2026")
            .section("a figure");
        assert_eq!(s.to_string(), "a figure");
    }

    /// Every source object in the catalog's files, with the file's name.
    fn catalog_sources() -> Vec<(&'static str, serde_json::Value)> {
        fn walk(v: &serde_json::Value, out: &mut Vec<serde_json::Value>) {
            match v {
                serde_json::Value::Object(m) if m.contains_key("document") => {
                    out.push(v.clone());
                }
                serde_json::Value::Object(m) => m.values().for_each(|v| walk(v, out)),
                serde_json::Value::Array(a) => a.iter().for_each(|v| walk(v, out)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        for (name, text) in [
            ("services.json", crate::engine::catalog::SERVICES_JSON),
            ("vm_sizes.json", crate::engine::catalog::VM_SIZES_JSON),
            ("model.json", crate::engine::catalog::MODEL_JSON),
        ] {
            let mut found = Vec::new();
            walk(&serde_json::from_str(text).expect("JSON"), &mut found);
            out.extend(found.into_iter().map(|v| (name, v)));
        }
        out
    }

    #[test]
    fn every_catalog_source_cites_a_registered_document_and_keeps_its_notes_apart() {
        let sources = catalog_sources();
        assert!(sources.len() > 100, "{}", sources.len());
        for (file, v) in sources {
            let s: SourceEntry = serde_json::from_value(v.clone()).expect("a source entry");
            assert!(
                s.document.is_empty() || document(&s.document).is_some(),
                "{file}: {} is not in documents.json",
                s.document
            );
            let public = [s.date.as_deref(), s.section.as_deref()];
            for text in public.into_iter().flatten() {
                for note in [
                    "service-limits",
                    "domain.md",
                    "UNCONFIRMED",
                    ".json",
                    "LEARN-",
                ] {
                    assert!(!text.contains(note), "{file}: {note} in {v}");
                }
            }
        }
    }
}
