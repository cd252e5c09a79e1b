//! What changed between two revisions of a scenario: every input whose value differs,
//! named by its path in the scenario's JSON (`storage.volumes[0].quota_tib`), with its
//! value before and after.

use super::scenario::Scenario;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// One input that differs (contract: the `changes` of a revision diff).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Change {
    /// The input's path: `storage.level`, `storage.volumes[0].quota_tib`.
    pub field: String,
    /// Its value before; null when it was not set.
    #[schema(value_type = Value)]
    pub before: Value,
    /// Its value after; null when it is no longer set.
    #[schema(value_type = Value)]
    pub after: Value,
}

/// Every input of `after` that differs from `before`, in the order of the scenario's
/// JSON keys (sorted), array elements by index. The scenario's id is not an input.
pub fn diff(before: &Scenario, after: &Scenario) -> Vec<Change> {
    let mut out = Vec::new();
    walk("", &inputs(before), &inputs(after), &mut out);
    out
}

fn inputs(s: &Scenario) -> Value {
    let mut v = serde_json::to_value(s).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.remove("id");
    }
    v
}

fn walk(path: &str, a: &Value, b: &Value, out: &mut Vec<Change>) {
    if a == b {
        return;
    }
    let empty_map = Map::new();
    let object = |v: &Value| match v {
        Value::Object(m) => Some(m.clone()),
        Value::Null => Some(empty_map.clone()),
        _ => None,
    };
    let array = |v: &Value| match v {
        Value::Array(a) => Some(a.clone()),
        Value::Null => Some(Vec::new()),
        _ => None,
    };
    let nested = |v: &Value| v.is_object() || v.is_array();
    if !(nested(a) || nested(b)) {
        out.push(Change {
            field: path.to_owned(),
            before: a.clone(),
            after: b.clone(),
        });
        return;
    }
    if let (Some(x), Some(y)) = (object(a), object(b)) {
        let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
        for k in keys {
            let p = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            walk(
                &p,
                x.get(k).unwrap_or(&Value::Null),
                y.get(k).unwrap_or(&Value::Null),
                out,
            );
        }
    } else if let (Some(x), Some(y)) = (array(a), array(b)) {
        for i in 0..x.len().max(y.len()) {
            walk(
                &format!("{path}[{i}]"),
                x.get(i).unwrap_or(&Value::Null),
                y.get(i).unwrap_or(&Value::Null),
                out,
            );
        }
    } else {
        out.push(Change {
            field: path.to_owned(),
            before: a.clone(),
            after: b.clone(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::Level;

    fn sample() -> Scenario {
        serde_json::from_str(
            r#"{"name":"t","workload":{"io_size_kib":64,"read_pct":70,"capacity_tib":10},
            "storage":{"service":"anf","level":"ultra","volumes":[{"count":1,"quota_tib":10}]},
            "clients":{"protocol":"nfsv3","vm_size":"Standard_E32s_v5"},"region":"eastus"}"#,
        )
        .expect("scenario")
    }

    #[test]
    fn the_same_scenario_has_no_changes() {
        assert!(diff(&sample(), &sample()).is_empty());
    }

    #[test]
    fn changed_inputs_are_named_by_path_with_both_values() {
        let a = sample();
        let mut b = a.clone();
        b.storage.level = Level::Premium;
        b.workload.threads = a.workload.threads + 1;
        b.storage.volumes[0].quota_tib += 1.0;
        b.id = Some(7);
        let changes = diff(&a, &b);
        let fields: Vec<&str> = changes.iter().map(|c| c.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "storage.level",
                "storage.volumes[0].quota_tib",
                "workload.threads"
            ]
        );
        assert_eq!(changes[0].after, Value::from("premium"));
        assert_eq!(diff(&b, &a).len(), 3, "symmetric");
    }

    #[test]
    fn an_added_volume_group_lists_its_fields_with_null_before() {
        let a = sample();
        let mut b = a.clone();
        b.storage.volumes.push(a.storage.volumes[0].clone());
        let changes = diff(&a, &b);
        assert!(!changes.is_empty());
        assert!(
            changes
                .iter()
                .all(|c| c.field.starts_with("storage.volumes[1].") && c.before.is_null())
        );
    }
}
