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
}
