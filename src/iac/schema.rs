//! The published argument lists of every resource, module parameter and command the
//! exported code uses (`arguments.json`, with its sources and dates), and the checks
//! that a written file uses only known arguments and gives every required one.

use super::commands::Command;
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::LazyLock;

static ARGUMENTS: LazyLock<Value> = LazyLock::new(|| {
    serde_json::from_str(include_str!("arguments.json"))
        .unwrap_or_else(|e| panic!("arguments.json is valid JSON: {e}"))
});

fn names(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// What is wrong with `present` against the list `spec` (`{"required", "optional"}`),
/// each problem naming `what`.
fn against(
    what: &str,
    spec: &Value,
    present: &BTreeSet<String>,
    extra: &BTreeSet<String>,
) -> Vec<String> {
    let required = names(&spec["required"]);
    let optional = names(&spec["optional"]);
    let mut out = Vec::new();
    for p in present {
        if !required.contains(p) && !optional.contains(p) && !extra.contains(p) {
            out.push(format!("{what}: unknown argument {p}"));
        }
    }
    for r in &required {
        if !present.contains(r) {
            out.push(format!("{what}: required argument {r} missing"));
        }
    }
    out
}

/// Every problem of Terraform `text`: it does not parse, a resource or data source has
/// no published list, or a block uses an unknown argument or lacks a required one.
pub fn check_terraform(text: &str) -> Vec<String> {
    let body = match hcl::parse(text) {
        Ok(b) => b,
        Err(e) => return vec![format!("does not parse: {e}")],
    };
    let meta = names(&ARGUMENTS["terraform_meta"]);
    let mut out = Vec::new();
    for b in body.blocks() {
        let kind = match (b.identifier(), b.labels()) {
            ("resource", [t, _]) => t.as_str().to_owned(),
            ("data", [t, _]) => format!("data.{}", t.as_str()),
            _ => continue,
        };
        let Some(spec) = ARGUMENTS["terraform"].get(&kind) else {
            out.push(format!("{kind}: no published argument list"));
            continue;
        };
        let present: BTreeSet<String> = b
            .body()
            .attributes()
            .map(|a| a.key().to_owned())
            .chain(b.body().blocks().map(|x| x.identifier().to_owned()))
            .collect();
        out.extend(against(&kind, spec, &present, &meta));
    }
    out
}

/// Every problem of the Verified Module's parameters `params`.
pub fn check_bicep(params: &Value) -> Vec<String> {
    let spec = &ARGUMENTS["bicep"];
    let keys = |v: &Value| -> BTreeSet<String> {
        v.as_object()
            .into_iter()
            .flat_map(|o| o.keys().cloned())
            .collect()
    };
    let none = BTreeSet::new();
    let mut out = against("account", &spec["account"], &keys(params), &none);
    for p in params["capacityPools"].as_array().into_iter().flatten() {
        out.extend(against(
            "capacityPool",
            &spec["capacityPool"],
            &keys(p),
            &none,
        ));
        let levels = names(&spec["capacityPool"]["serviceLevel"]);
        if let Some(l) = p["serviceLevel"].as_str().filter(|l| !levels.contains(*l)) {
            out.push(format!("capacityPool: serviceLevel {l} not offered"));
        }
        for v in p["volumes"].as_array().into_iter().flatten() {
            out.extend(against("volume", &spec["volume"], &keys(v), &none));
        }
    }
    out
}

/// Every problem of `commands`: a command without a published list, an unknown option
/// or a required one missing.
pub fn check_commands(commands: &[Command]) -> Vec<String> {
    let none = BTreeSet::new();
    let mut out = Vec::new();
    for c in commands {
        let words: Vec<&str> = c.words.iter().map(String::as_str).collect();
        let Some((name, spec)) = (1..=words.len())
            .rev()
            .map(|n| words[..n].join(" "))
            .find_map(|n| ARGUMENTS["cli"].get(&n).map(|s| (n, s)))
        else {
            out.push(format!("{}: no published option list", words.join(" ")));
            continue;
        };
        let present: BTreeSet<String> = c.options.iter().map(|(k, _)| k.clone()).collect();
        out.extend(against(&name, spec, &present, &none));
    }
    out
}
