//! The compare page's input rows: every input of every scenario side by side, the rows
//! where the scenarios differ marked, and the storage named as the vendors write it.

use crate::engine::Scenario;
use crate::engine::scenario::{Level, Service};
use crate::report::model::input_rows;
use crate::report::summary::storage_name;

/// One input across the scenarios.
pub struct InputRowView {
    pub section: &'static str,
    pub label: String,
    /// The value per scenario ("-" where the input does not apply), and whether it
    /// differs from the baseline's (the first).
    pub values: Vec<(String, bool)>,
    /// True when the scenarios do not all have the same value.
    pub differs: bool,
}

/// Shown where an input does not apply to a scenario.
pub const NOT_APPLICABLE: &str = "-";

/// The inputs of `scenarios` as rows, in the order they first appear.
pub fn rows(scenarios: &[Scenario]) -> Vec<InputRowView> {
    let per: Vec<Vec<(String, String, &'static str)>> = scenarios
        .iter()
        .map(|s| {
            input_rows(s)
                .into_iter()
                .map(|r| {
                    let value = if r.unit.is_empty() {
                        r.value
                    } else {
                        format!("{} {}", r.value, r.unit)
                    };
                    (format!("{}\u{1f}{}", r.section, r.label), value, r.section)
                })
                .collect()
        })
        .collect();
    let mut keys: Vec<(String, &'static str, String)> = Vec::new();
    for rows in &per {
        for (key, _, section) in rows {
            if !keys.iter().any(|(k, _, _)| k == key) {
                let label = key.split('\u{1f}').nth(1).unwrap_or(key).to_owned();
                keys.push((key.clone(), section, label));
            }
        }
    }
    keys.into_iter()
        .map(|(key, section, label)| {
            let values: Vec<String> = per
                .iter()
                .map(|rows| {
                    rows.iter()
                        .find(|(k, _, _)| *k == key)
                        .map_or_else(|| NOT_APPLICABLE.to_owned(), |(_, v, _)| v.clone())
                })
                .collect();
            let differs = values.windows(2).any(|w| w[0] != w[1]);
            let values = values
                .iter()
                .map(|v| (v.clone(), *v != values[0]))
                .collect();
            InputRowView {
                section,
                label,
                values,
                differs,
            }
        })
        .collect()
}

/// Service and level keys as the vendor writes them ("Azure NetApp Files Ultra"); the
/// keys themselves when they are not known.
pub fn vendor_name(service: &str, level: &str) -> String {
    let parse = |key: &str| serde_json::Value::String(key.to_owned());
    match (
        serde_json::from_value::<Service>(parse(service)),
        serde_json::from_value::<Level>(parse(level)),
    ) {
        (Ok(s), Ok(l)) => storage_name(s, l),
        _ => format!("{service} {level}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::scenario_templates;

    #[test]
    fn rows_mark_the_inputs_that_differ() {
        let a = scenario_templates::find("avs-datastores")
            .unwrap()
            .scenario();
        let mut b = a.clone();
        b.storage.level = Level::Premium;
        let rows = rows(&[a.clone(), b]);
        let level = rows.iter().find(|r| r.label == "Service level").unwrap();
        assert!(level.differs);
        assert_eq!(
            level.values,
            [("Ultra".to_owned(), false), ("Premium".to_owned(), true)]
        );
        let io = rows.iter().find(|r| r.label == "IO size").unwrap();
        assert!(!io.differs);
        let mut nfs = a.clone();
        nfs.clients.avs = None;
        let rows = super::rows(&[a, nfs]);
        let hosts = rows.iter().find(|r| r.label == "VMs per host").unwrap();
        assert_eq!(hosts.values[1], (NOT_APPLICABLE.to_owned(), true));
        assert!(hosts.differs);
    }

    #[test]
    fn vendor_names_replace_keys() {
        assert_eq!(vendor_name("anf", "ultra"), "Azure NetApp Files Ultra");
        assert_eq!(
            vendor_name("azure_files", "ssd_v2"),
            "Azure Files SSD provisioned v2"
        );
        assert_eq!(vendor_name("x", "y"), "x y");
    }
}
