//! The published measurements of `tests/fixtures/calibration.json` (a copy of
//! `shared/design/calibration.json`), checked exactly as `check_cases.py` checks the CLI.

use serde_json::Value;
use volplan::engine::{self, Scenario};

fn scenario(v: &Value, read_pct: Option<f64>) -> Scenario {
    let mut v = v.clone();
    if let Some(r) = read_pct {
        v["workload"]["read_pct"] = r.into();
    }
    serde_json::from_value(v).expect("calibration scenario parses")
}

fn metric(ev: &engine::Evaluation, name: &str) -> f64 {
    if let Some(id) = name.strip_prefix("limit:") {
        return ev
            .limits
            .iter()
            .find(|l| l.id == id)
            .unwrap_or_else(|| panic!("no limit {id}"))
            .mibps;
    }
    let json = serde_json::to_value(ev).unwrap();
    json[name]
        .as_f64()
        .unwrap_or_else(|| panic!("no metric {name}"))
}

fn value(s: &Value, name: &str, mixes: bool) -> f64 {
    if !mixes {
        return metric(&engine::evaluate(&scenario(s, None)).unwrap(), name);
    }
    let reads = [0.0, 25.0, 50.0, 75.0, 100.0];
    reads
        .iter()
        .map(|&r| metric(&engine::evaluate(&scenario(s, Some(r))).unwrap(), name))
        .sum::<f64>()
        / reads.len() as f64
}

#[test]
fn calibration_cases_are_reproduced_within_their_bands() {
    let file: Value = serde_json::from_str(include_str!("../fixtures/calibration.json")).unwrap();
    let cases = file["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 26);
    let mut report = Vec::new();
    let mut passed = 0;
    for c in cases {
        let id = c["id"].as_str().unwrap();
        let e = &c["expect"];
        let name = e["metric"].as_str().unwrap();
        let mixes = c["mixes"].as_bool().unwrap_or(false);
        let a = value(&c["scenario"], name, mixes);
        let (got, lo, hi) = if let Some(v) = c.get("versus") {
            let b = value(v, name, mixes);
            let ratio = e["ratio"].as_f64().unwrap();
            let tol = e["tol_pct"].as_f64().unwrap_or(0.0) / 100.0;
            (
                a / b,
                e["min_ratio"].as_f64().unwrap_or(ratio * (1.0 - tol)),
                e["max_ratio"].as_f64().unwrap_or(ratio * (1.0 + tol)),
            )
        } else if let Some(v) = e["value"].as_f64() {
            let tol = e["tol_pct"].as_f64().unwrap() / 100.0;
            (a, v * (1.0 - tol), v * (1.0 + tol))
        } else {
            (
                a,
                e["min"].as_f64().unwrap_or(f64::NEG_INFINITY),
                e["max"].as_f64().unwrap_or(f64::INFINITY),
            )
        };
        let mut good = lo <= got && got <= hi;
        if let Some(b) = e["binding"].as_str() {
            good &= engine::evaluate(&scenario(&c["scenario"], None))
                .unwrap()
                .binding
                == b;
        }
        passed += usize::from(good);
        report.push(format!(
            "{} {id}: {got:.6} want [{lo:.6}..{hi:.6}]",
            if good { "PASS" } else { "FAIL" }
        ));
    }
    assert_eq!(passed, cases.len(), "calibration:\n{}", report.join("\n"));
}
