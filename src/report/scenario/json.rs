//! The engineer edition of the report as JSON for automation: the scenario, its
//! evaluation, the catalog version and the generation date, the verification test plan,
//! the cost a saved revision was saved with, plus the comparison and layouts when asked
//! for. (The customer edition's JSON is the document's: [`crate::report::doc::json`].)

use crate::report::ReportError;
use crate::report::model::Report;
use serde_json::{Value, json};

/// Writes the JSON report (pretty-printed, UTF-8).
pub fn render(r: &Report) -> Result<Vec<u8>, ReportError> {
    let mut doc = json!({
        "scenario": r.scenario,
        "evaluation": r.evaluation,
        "catalog_version": r.catalog_version,
        "generated": r.date,
        "test_plan": {
            "fio": r.test_plan.fio,
            "diskspd": r.test_plan.diskspd,
            "mount_options": r.test_plan.mount_options,
        },
    });
    if let Some(saved) = &r.saved_cost {
        doc["saved_cost"] = json!({
            "revision": saved.revision, "saved_at": saved.saved_at, "cost": saved.cost,
        });
    }
    if let Some(c) = &r.comparison {
        doc["comparison"] = Value::Array(
            c.rows
                .iter()
                .map(|c| {
                    json!({
                        "id": c.id, "name": c.name, "storage": c.storage,
                        "throughput_mibps": c.throughput_mibps, "iops": c.iops,
                        "binding": c.binding, "monthly": c.monthly, "currency": c.currency, "met": c.met,
                    })
                })
                .collect(),
        );
    }
    if let Some(l) = &r.layouts {
        doc["layouts"] = Value::Array(
            l.rows
                .iter()
                .map(|l| {
                    json!({
                        "count": l.count, "quota_tib": l.quota_tib,
                        "throughput_mibps": l.throughput_mibps, "iops": l.iops,
                        "connections": l.connections, "binding": l.binding,
                        "monthly": l.monthly, "met": l.met,
                    })
                })
                .collect(),
        );
    }
    let mut out = serde_json::to_vec_pretty(&doc).map_err(|e| ReportError::Json(e.to_string()))?;
    out.push(b'\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixture;

    #[test]
    fn has_the_four_contract_keys() {
        let (s, e) = fixture::example();
        let r = Report::build(&s, &e, crate::engine::pricing::book(), "2026-01-02")
            .with_comparison(&[(s.clone(), e.clone())], crate::engine::pricing::book());
        let v: Value = serde_json::from_slice(&render(&r).unwrap()).unwrap();
        assert_eq!(v["scenario"]["name"], "AVS 4 x 20 TiB Ultra");
        assert_eq!(v["evaluation"]["binding"], e.binding);
        assert_eq!(v["generated"], "2026-01-02");
        assert!(v["catalog_version"].is_string());
        assert_eq!(v["comparison"].as_array().unwrap().len(), 2);
        assert!(v.get("layouts").is_none());
        let fio = v["test_plan"]["fio"].as_str().unwrap();
        assert!(fio.contains("--output-format=json"), "{fio}");
        assert!(
            v["test_plan"]["diskspd"]
                .as_str()
                .unwrap()
                .contains("-Rxml")
        );
        assert!(v["test_plan"]["mount_options"].is_string());
    }
}
