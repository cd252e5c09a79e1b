//! Share links: `/plan?s=<base64url of the Scenario JSON>`, opened without saving anything.

use crate::engine::Scenario;
use base64::Engine;
use base64::engine::general_purpose::{URL_SAFE_NO_PAD, URL_SAFE_NO_PAD_INDIFFERENT};

/// Longest `s` accepted: about 4 KiB of JSON (a real scenario is well under 2 KiB). A
/// URL holds at most 65,534 bytes (hyper's limit, answered 414 with no body), and a
/// character of `s` takes up to 12 bytes percent-encoded, so any `s` up to this length
/// reaches the handler and gets its own message.
pub const MAX_LEN: usize = 5_400;

/// The share link of a scenario (its id is left out: the link is not the saved copy).
pub fn link(scenario: &Scenario) -> String {
    link_at("/plan", scenario)
}

/// `path?s=...`: the page at `path` opened with `scenario`'s inputs (the share link at
/// `/plan`; a saved scenario's page `/scenarios/{id}` takes them as an unsaved edit).
pub fn link_at(path: &str, scenario: &Scenario) -> String {
    let mut s = scenario.clone();
    s.id = None;
    match serde_json::to_vec(&s) {
        Ok(json) => format!("{path}?s={}", URL_SAFE_NO_PAD.encode(json)),
        Err(_) => "/scenarios/new".into(),
    }
}

/// Why a share link cannot be opened; the text tells the user what to do.
#[derive(Debug, thiserror::Error)]
pub enum ShareError {
    #[error(
        "This link has no scenario in it: it should end in ?s= followed by the encoded scenario."
    )]
    Missing,
    #[error("This link is too long to be a scenario ({0} characters; at most 5,400).")]
    TooLong(usize),
    #[error(
        "This link is damaged: the part after ?s= is not base64url. Copy the whole link again."
    )]
    NotBase64,
    #[error("This link is damaged: it does not decode to text. Copy the whole link again.")]
    NotText,
    #[error("This link does not hold a valid scenario: {0}")]
    NotScenario(String),
}

/// Decodes `s`; the scenario is returned even if its values fail validation,
/// so the planner can show it with the fields marked.
pub fn decode(s: Option<&str>) -> Result<Scenario, ShareError> {
    let s = s
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or(ShareError::Missing)?;
    if s.len() > MAX_LEN {
        return Err(ShareError::TooLong(s.len()));
    }
    let bytes = URL_SAFE_NO_PAD_INDIFFERENT
        .decode(s)
        .map_err(|_| ShareError::NotBase64)?;
    let text = String::from_utf8(bytes).map_err(|_| ShareError::NotText)?;
    let de = &mut serde_json::Deserializer::from_str(&text);
    let mut scenario: Scenario = serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        let inner = inner.split(" at line ").next().unwrap_or(&inner).to_owned();
        ShareError::NotScenario(if path == "." {
            inner
        } else {
            format!("{path}: {inner}")
        })
    })?;
    scenario.id = None;
    // Links made before the capacity and Flexible QoS rules open as they meant.
    scenario.upgrade();
    Ok(scenario)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::scenario_templates::TEMPLATES;

    #[test]
    fn links_round_trip() {
        for t in TEMPLATES {
            let s = t.scenario();
            let url = link(&s);
            let back = decode(url.strip_prefix("/plan?s=")).unwrap();
            assert_eq!(back, s);
        }
    }

    #[test]
    fn bad_links_say_what_is_wrong() {
        assert!(matches!(decode(None), Err(ShareError::Missing)));
        assert!(matches!(decode(Some("%%%")), Err(ShareError::NotBase64)));
        assert!(matches!(decode(Some("_w")), Err(ShareError::NotText)));
        let not_scenario = URL_SAFE_NO_PAD.encode(br#"{"name": 3}"#);
        assert!(matches!(
            decode(Some(&not_scenario)),
            Err(ShareError::NotScenario(_))
        ));
    }
}
