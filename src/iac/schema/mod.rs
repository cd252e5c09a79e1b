//! The providers' own definitions of every resource, module parameter and command the
//! exported code uses (`provider_schemas.json`, which names its sources and commits),
//! and the checks that written code follows them: no unknown argument or block, every
//! required one present, each literal of the right type, within the allowed values,
//! range and name pattern, and the providers' cross-argument rules. A value that is an
//! expression is checked by type where its type is known (a variable's declared type,
//! another resource's argument). `tools/check_terraform.py` makes the same checks from
//! the same file on what an independent HCL parser reads.

mod terraform;

use super::commands::{Arg, Command};
use regex::Regex;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::LazyLock;
pub use terraform::check_terraform;

static SCHEMAS: LazyLock<Value> = LazyLock::new(|| {
    serde_json::from_str(include_str!("provider_schemas.json"))
        .unwrap_or_else(|e| panic!("provider_schemas.json is valid JSON: {e}"))
});

/// Every name pattern of the schemas, compiled once.
static PATTERNS: LazyLock<BTreeMap<String, Regex>> = LazyLock::new(|| {
    fn walk(v: &Value, out: &mut BTreeMap<String, Regex>) {
        match v {
            Value::Object(o) => {
                if let Some(p) = o.get("pattern").and_then(Value::as_str) {
                    let re = Regex::new(p)
                        .unwrap_or_else(|e| panic!("pattern {p} is a valid regex: {e}"));
                    out.insert(p.to_owned(), re);
                }
                o.values().for_each(|x| walk(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out = BTreeMap::new();
    walk(&SCHEMAS, &mut out);
    out
});

/// What is known of a value in the code.
#[derive(Debug, Clone)]
enum Known {
    /// A literal.
    Value(Value),
    /// An expression of this type (`string`, `number`, `bool`, `list`, `map`).
    Type(String),
    /// An expression of unknown type.
    Unknown,
}

/// One block (or module object, or command) to check: its arguments and nested blocks.
struct Found {
    args: Vec<(String, Known)>,
    blocks: Vec<(String, Found)>,
}

fn number(v: &Value) -> Option<f64> {
    v.as_f64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
}

/// The class a type belongs to: conversions work within a class (and string to bool or
/// number), never across.
fn class(t: &str) -> &str {
    match t {
        "list" | "set" => "list",
        "map" | "object" => "map",
        "any" => "any",
        _ => "scalar",
    }
}

/// Problems of `known` against the argument `spec`, named `what`.
fn check_value(what: &str, spec: &Value, known: &Known, out: &mut Vec<String>) {
    let want = spec["type"].as_str().unwrap_or("any");
    let v = match known {
        Known::Unknown => return,
        Known::Type(t) => {
            let (a, b) = (class(t), class(want));
            if a != b && a != "any" && b != "any"
                || (t == "bool" && want != "bool" && want != "string")
            {
                out.push(format!(
                    "{what}: expects {want}, given an expression of type {t}"
                ));
            }
            return;
        }
        Known::Value(v) => v,
    };
    let ok = match (want, v) {
        ("any", _) => true,
        ("string", Value::String(s)) => {
            !spec["numeric"].as_bool().unwrap_or(false) || s.parse::<f64>().is_ok()
        }
        ("string", Value::Number(_) | Value::Bool(_)) => true,
        ("integer", _) => number(v).is_some_and(|n| n.fract() == 0.0),
        ("number", _) => number(v).is_some(),
        ("bool", Value::Bool(_)) => true,
        ("bool", Value::String(s)) => s == "true" || s == "false",
        ("list" | "set", Value::Array(_)) | ("map" | "object", Value::Object(_)) => true,
        _ => false,
    };
    if !ok {
        out.push(format!("{what}: expects {want}, given {v}"));
        return;
    }
    if let Some(allowed) = spec["allowed"].as_array() {
        let same = |a: &Value| a == v || number(a).zip(number(v)).is_some_and(|(x, y)| x == y);
        if !allowed.iter().any(same) {
            out.push(format!(
                "{what}: {v} is not one of {}",
                Value::Array(allowed.clone())
            ));
        }
    }
    let outside = |n: f64| {
        spec["min"].as_f64().is_some_and(|m| n < m) || spec["max"].as_f64().is_some_and(|m| n > m)
    };
    if number(v).is_some_and(outside) && !v.is_boolean() {
        out.push(format!(
            "{what}: {v} is outside {}..{}",
            spec["min"], spec["max"]
        ));
    }
    if let (Some(p), Value::String(s)) = (spec["pattern"].as_str(), v)
        && !PATTERNS.get(p).is_some_and(|re| re.is_match(s))
    {
        out.push(format!("{what}: {s:?} does not match {p}"));
    }
    if spec["arguments"].is_object() {
        check(what, spec, &object_found(v), &[], out);
        return;
    }
    let items: Vec<&Value> = match v {
        Value::Array(a) => a.iter().collect(),
        Value::Object(o) => o.values().collect(),
        _ => return,
    };
    let count = items.len() as f64;
    if spec["min_items"].as_f64().is_some_and(|m| count < m)
        || spec["max_items"].as_f64().is_some_and(|m| count > m)
    {
        out.push(format!(
            "{what}: {} items, allowed {}..{}",
            items.len(),
            spec["min_items"],
            spec["max_items"]
        ));
    }
    if spec["items"].is_object() {
        for (i, item) in items.into_iter().enumerate() {
            let known = Known::Value(item.clone());
            check_value(&format!("{what}[{i}]"), &spec["items"], &known, out);
        }
    }
}

/// The literal of argument `name` in `found`, or its default when absent.
fn literal<'a>(found: &'a Found, spec: &'a Value, name: &str) -> Option<&'a Value> {
    match found.args.iter().find(|(k, _)| k == name) {
        Some((_, Known::Value(v))) => Some(v),
        Some(_) => None,
        None => spec["arguments"][name].get("default"),
    }
}

/// Whether condition `c` (`{argument, present | equals}`) holds; `None` when the value
/// is not known.
fn holds(found: &Found, spec: &Value, c: &Value) -> Option<bool> {
    let name = c["argument"].as_str()?;
    let present = found.args.iter().any(|(k, _)| k == name);
    if let Some(p) = c["present"].as_bool() {
        return Some(present == p);
    }
    let v = literal(found, spec, name)?;
    let want = &c["equals"];
    Some(v == want || v.as_array().is_some_and(|a| a.contains(want)))
}

/// Every problem of `found` against `spec` (`{arguments, blocks, rules}`), each naming
/// `what`.
fn check(what: &str, spec: &Value, found: &Found, extra: &[&str], out: &mut Vec<String>) {
    let args = &spec["arguments"];
    for (k, v) in &found.args {
        match args.get(k) {
            Some(a) => check_value(&format!("{what}.{k}"), a, v, out),
            None if extra.contains(&k.as_str()) => {}
            None => out.push(format!("{what}: unknown argument {k}")),
        }
    }
    for (k, a) in args.as_object().into_iter().flatten() {
        if a["required"].as_bool() == Some(true) && !found.args.iter().any(|(n, _)| n == k) {
            out.push(format!("{what}: required argument {k} missing"));
        }
    }
    let blocks = &spec["blocks"];
    for (k, b) in blocks.as_object().into_iter().flatten() {
        let n = found.blocks.iter().filter(|(name, _)| name == k).count() as f64;
        if b["min_items"].as_f64().is_some_and(|m| n < m)
            || b["max_items"].as_f64().is_some_and(|m| n > m)
        {
            out.push(format!(
                "{what}: {n} {k} blocks, allowed {}..{}",
                b["min_items"], b["max_items"]
            ));
        }
    }
    for (k, inner) in &found.blocks {
        match blocks.get(k) {
            Some(b) if b["arguments"].is_null() => out.push(format!(
                "{what}: block {k} is used but its arguments are not in provider_schemas.json"
            )),
            Some(b) => check(&format!("{what}.{k}"), b, inner, &[], out),
            None if extra.contains(&k.as_str()) => {}
            None => out.push(format!("{what}: unknown block {k}")),
        }
    }
    for rule in spec["rules"].as_array().into_iter().flatten() {
        if holds(found, spec, &rule["if"]) != Some(true) {
            continue;
        }
        let then = &rule["then"];
        let name = then["argument"].as_str().unwrap_or_default();
        let mut narrowed = args[name].clone();
        for key in ["min", "max"] {
            if let Some(m) = then.get(key) {
                narrowed[key] = m.clone();
            }
        }
        if let Some(e) = then.get("equals") {
            narrowed["allowed"] = Value::Array(vec![e.clone()]);
        }
        let when = format!("when {}", rule["if"]);
        match found.args.iter().find(|(k, _)| k == name) {
            Some((_, v)) => check_value(&format!("{what}.{name} ({when})"), &narrowed, v, out),
            None if then["present"].as_bool() == Some(true) || then.get("equals").is_some() => {
                out.push(format!("{what}: {name} is required {when}"));
            }
            None => {}
        }
    }
}

/// The type a Bicep parameter reference is resolved to, after the reference.
const TYPED: &str = "\u{0}typed:";

/// `v` with every parameter reference replaced by the type its `param` line declares
/// (a reference to an undeclared parameter is a problem).
fn resolve(v: &Value, declared: &BTreeMap<String, String>, out: &mut Vec<String>) -> Value {
    match v {
        Value::String(s) => match s.strip_prefix(super::bicep::REF) {
            Some(name) => match declared.get(name) {
                Some(t) => Value::String(format!("{TYPED}{t}")),
                None => {
                    out.push(format!("parameter {name} is used but not declared"));
                    Value::Null
                }
            },
            None => v.clone(),
        },
        Value::Array(a) => Value::Array(a.iter().map(|x| resolve(x, declared, out)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), resolve(x, declared, out)))
                .collect(),
        ),
        _ => v.clone(),
    }
}

/// The members of a JSON object (resolved Bicep parameters) as found.
fn object_found(v: &Value) -> Found {
    let known = |x: &Value| match x.as_str().and_then(|s| s.strip_prefix(TYPED)) {
        Some(t) => Known::Type(t.to_owned()),
        None if x.is_null() => Known::Unknown,
        None => Known::Value(x.clone()),
    };
    Found {
        args: v
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, x)| (k.clone(), known(x)))
            .collect(),
        blocks: Vec::new(),
    }
}

/// Every problem of the Verified Module's parameters `params` in the Bicep file `text`
/// (whose `param NAME TYPE` lines declare what the parameters refer to).
pub fn check_bicep(params: &Value, text: &str) -> Vec<String> {
    let declared: BTreeMap<String, String> = text
        .lines()
        .filter_map(|l| {
            let mut words = l.strip_prefix("param ")?.split_whitespace();
            let (name, t) = (words.next()?, words.next()?);
            let t = match t {
                "int" => "integer",
                "array" => "list",
                "object" => "map",
                other => other,
            };
            Some((name.to_owned(), t.to_owned()))
        })
        .collect();
    let spec = &SCHEMAS["bicep"];
    let mut out = Vec::new();
    let params = resolve(params, &declared, &mut out);
    check(
        "account",
        &spec["account"],
        &object_found(&params),
        &[],
        &mut out,
    );
    for (i, p) in params["capacityPools"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let what = format!("capacityPools[{i}]");
        check(
            &what,
            &spec["capacityPool"],
            &object_found(p),
            &[],
            &mut out,
        );
        for (j, v) in p["volumes"].as_array().into_iter().flatten().enumerate() {
            let what = format!("{what}.volumes[{j}]");
            check(&what, &spec["volume"], &object_found(v), &[], &mut out);
        }
    }
    out
}

/// Every problem of `commands`: a command without a published definition, an unknown
/// option, a required one missing, a value of the wrong type or outside the allowed
/// values or range, a flag given a value or an option without one.
pub fn check_commands(commands: &[Command]) -> Vec<String> {
    let mut out = Vec::new();
    for c in commands {
        let words: Vec<&str> = c.words.iter().map(String::as_str).collect();
        let Some((name, spec)) = (1..=words.len())
            .rev()
            .map(|n| words[..n].join(" "))
            .find_map(|n| SCHEMAS["cli"].get(&n).map(|s| (n, s)))
        else {
            out.push(format!("{}: no published option list", words.join(" ")));
            continue;
        };
        let spec = serde_json::json!({
            "arguments": spec["options"], "rules": spec["rules"]
        });
        let mut args = Vec::new();
        for (k, v) in &c.options {
            let t = spec["arguments"][k]["type"].as_str().unwrap_or("string");
            let known = match v {
                None if t == "flag" => Known::Unknown,
                None => {
                    out.push(format!("{name} {k}: needs a value"));
                    continue;
                }
                Some(_) if t == "flag" => {
                    out.push(format!("{name} {k}: is a flag and takes no value"));
                    continue;
                }
                Some(Arg::Shell(_)) => Known::Type("string".to_owned()),
                Some(Arg::Text(s)) => Known::Value(match t {
                    "list" => {
                        Value::Array(s.split(',').map(|x| Value::String(x.to_owned())).collect())
                    }
                    _ => Value::String(s.clone()),
                }),
            };
            args.push((k.clone(), known));
        }
        check(
            &name,
            &spec,
            &Found {
                args,
                blocks: Vec::new(),
            },
            &[],
            &mut out,
        );
    }
    out
}

#[cfg(test)]
mod tests;
