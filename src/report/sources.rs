//! Sources as a reader sees them: the public citation the engine writes from a typed
//! [`Source`] (document title, date, the part cited, the kind), the working note added
//! for an engineer only, and each public document once with its address.

use crate::engine::source::{self, Source};
use crate::report::Edition;

pub use crate::engine::source::Document;

/// `s` as `edition` shows it: the public citation for a customer; for an engineer the
/// citation, the document's key and the working note.
pub fn cite(s: &Source, edition: Edition) -> String {
    match edition {
        Edition::Customer => s.to_string(),
        Edition::Engineer => {
            let mut text = s.to_string();
            if !s.document.is_empty() {
                text.push_str(&format!(" [{}]", s.document));
            }
            if let Some(note) = s.note {
                text.push_str(&format!(" [{note}]"));
            }
            text
        }
    }
}

/// Every public document `sources` cite, once each, in order of first mention.
pub fn documents(sources: impl IntoIterator<Item = Source>) -> Vec<Document> {
    source::documents(sources).into_iter().cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::source::SourceKind;

    #[test]
    fn a_customer_reads_the_citation_and_an_engineer_the_note_too() {
        let s = Source::documented("LEARN-VM/dv5-dsv5-series").note("service-limits 5.2");
        assert_eq!(
            cite(&s, Edition::Customer),
            "Azure VM sizes: Dv5 and Dsv5-series"
        );
        assert_eq!(
            cite(&s, Edition::Engineer),
            "Azure VM sizes: Dv5 and Dsv5-series [LEARN-VM/dv5-dsv5-series] [service-limits 5.2]"
        );
    }

    #[test]
    fn documents_are_listed_once_with_their_address() {
        let levels = Source::documented("LEARN-ANF/azure-netapp-files-service-levels");
        let docs = documents([
            levels.dated("01/29/2026"),
            levels.section("min 128 MiB/s"),
            Source::documented("GCNV/discover/service-levels"),
            Source::undocumented("an assumption", SourceKind::Assumption),
        ]);
        assert_eq!(docs.len(), 2);
        assert_eq!(
            docs[0].url,
            "https://learn.microsoft.com/azure/azure-netapp-files/azure-netapp-files-service-levels"
        );
        assert_eq!(docs[0].title, "Service levels for Azure NetApp Files");
        assert_eq!(
            docs[1].url,
            "https://docs.cloud.google.com/netapp/volumes/docs/discover/service-levels"
        );
    }

    /// A limit's kind is its source's: the provenance sentence lists the fitted limits
    /// by kind, so rewriting every source's text (to words that once meant "fitted", or
    /// to none) changes nothing, while changing a kind does.
    #[test]
    fn a_limit_is_fitted_by_its_kind_never_by_its_text() {
        let (_, e) = crate::report::fixture::example();
        let fitted: Vec<&str> = e
            .limits
            .iter()
            .filter(|l| l.source.kind.is_fitted())
            .map(|l| l.label.name)
            .collect();
        assert!(!fitted.is_empty() && fitted.len() < e.limits.len());
        let sentence = crate::report::summary::provenance(&e);
        for name in &fitted {
            assert!(sentence.contains(name), "{name} in {sentence}");
        }
        for text in [
            "fitted, measured, calibration",
            "",
            "LEARN-ANF/large-volumes",
        ] {
            let mut renamed = e.clone();
            for l in &mut renamed.limits {
                l.source = Source {
                    document: text,
                    section: Some(text),
                    note: Some(text),
                    date: Some(text),
                    ..l.source
                };
            }
            assert_eq!(crate::report::summary::provenance(&renamed), sentence);
            let kinds = |e: &crate::engine::Evaluation| {
                e.limits.iter().map(|l| l.source.kind).collect::<Vec<_>>()
            };
            assert_eq!(kinds(&renamed), kinds(&e));
        }
        let mut documented = e.clone();
        for l in &mut documented.limits {
            l.source = l.source.kind(SourceKind::Documented);
        }
        let none = crate::report::summary::provenance(&documented);
        assert!(fitted.iter().all(|name| !none.contains(name)), "{none}");
    }
}
