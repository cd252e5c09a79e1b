//! Terraform HCL (parsed by `hcl-rs`) against the providers' schemas: each resource and
//! data source, its arguments and nested blocks.

use super::{Found, Known, SCHEMAS, check};
use hcl::{Body, Expression, TraversalOperator};
use serde_json::Value;
use std::collections::BTreeMap;

/// The resources, data sources and variables of a file, to type references by.
struct Context {
    /// Resource label (`azurerm_netapp_pool.p`, `data.azurerm_subnet.s`) to its type key
    /// in the schemas (`azurerm_netapp_pool`, `data.azurerm_subnet`).
    kinds: BTreeMap<String, String>,
    /// Variable name to its declared type expression (`string`, `list(string)`).
    vars: BTreeMap<String, String>,
}

/// A type expression as text: `string`, `list(string)`.
fn type_text(e: &Expression) -> String {
    match e {
        Expression::Variable(v) => v.as_str().to_owned(),
        Expression::FuncCall(f) => format!(
            "{}({})",
            f.name.name.as_str(),
            f.args.first().map(type_text).unwrap_or_default()
        ),
        _ => "any".to_owned(),
    }
}

/// The schema type of a Terraform type expression text.
fn schema_type(t: &str) -> String {
    let head = t.split('(').next().unwrap_or(t);
    match head {
        "list" | "set" | "tuple" => "list",
        "map" | "object" => "map",
        "string" | "number" | "bool" => head,
        _ => "any",
    }
    .to_owned()
}

impl Context {
    /// What is known of expression `e`.
    fn known(&self, e: &Expression) -> Known {
        match e {
            Expression::Null => Known::Unknown,
            Expression::Bool(_) | Expression::Number(_) | Expression::String(_) => {
                Known::Value(literal(e).unwrap_or(Value::Null))
            }
            Expression::Array(_) | Expression::Object(_) => match literal(e) {
                Some(v) => Known::Value(v),
                None if matches!(e, Expression::Array(_)) => Known::Type("list".to_owned()),
                None => Known::Type("map".to_owned()),
            },
            Expression::TemplateExpr(_) => Known::Type("string".to_owned()),
            Expression::Traversal(t) => self.reference(&t.expr, &t.operators),
            Expression::Parenthesis(inner) => self.known(inner),
            _ => Known::Unknown,
        }
    }

    /// The type of `root.ops...`: a variable (its declared type, an index taking the
    /// element type) or another resource's argument (its schema type; `id` a string).
    fn reference(&self, root: &Expression, ops: &[TraversalOperator]) -> Known {
        let Expression::Variable(root) = root else {
            return Known::Unknown;
        };
        let names: Vec<&str> = ops
            .iter()
            .map(|o| match o {
                TraversalOperator::GetAttr(a) => a.as_str(),
                TraversalOperator::Index(_) | TraversalOperator::LegacyIndex(_) => "[]",
                _ => "*",
            })
            .collect();
        let unknown = Known::Unknown;
        match (root.as_str(), names.as_slice()) {
            ("var", [name, rest @ ..]) => {
                let Some(mut t) = self.vars.get(*name).cloned() else {
                    return unknown;
                };
                for op in rest {
                    match (
                        *op,
                        t.strip_prefix("list(").or_else(|| t.strip_prefix("set(")),
                    ) {
                        ("[]", Some(inner)) => t = inner.trim_end_matches(')').to_owned(),
                        _ => return unknown,
                    }
                }
                Known::Type(schema_type(&t))
            }
            ("data", [kind, label, attr]) => self.attribute(&format!("data.{kind}.{label}"), attr),
            (kind, [label, attr]) => self.attribute(&format!("{kind}.{label}"), attr),
            _ => unknown,
        }
    }

    fn attribute(&self, resource: &str, attr: &str) -> Known {
        let Some(kind) = self.kinds.get(resource) else {
            return Known::Unknown;
        };
        match SCHEMAS["terraform"][kind]["arguments"][attr]["type"].as_str() {
            Some(t) => Known::Type(schema_type(t)),
            None if attr == "id" => Known::Type("string".to_owned()),
            None => Known::Unknown,
        }
    }

    fn found(&self, body: &Body) -> Found {
        Found {
            args: body
                .attributes()
                .map(|a| (a.key().to_owned(), self.known(a.expr())))
                .collect(),
            blocks: body
                .blocks()
                .map(|b| (b.identifier().to_owned(), self.found(b.body())))
                .collect(),
        }
    }
}

/// The JSON of a literal expression; `None` when any part is not literal.
fn literal(e: &Expression) -> Option<Value> {
    match e {
        Expression::Bool(b) => Some(Value::Bool(*b)),
        Expression::Number(n) => match n.as_i64() {
            Some(i) => Some(Value::from(i)),
            None => n
                .as_f64()
                .and_then(serde_json::Number::from_f64)
                .map(Value::Number),
        },
        Expression::String(s) => Some(Value::String(s.clone())),
        Expression::Array(a) => a
            .iter()
            .map(literal)
            .collect::<Option<Vec<_>>>()
            .map(Value::Array),
        Expression::Object(o) => o
            .iter()
            .map(|(k, v)| {
                let key = match k {
                    hcl::ObjectKey::Identifier(i) => i.as_str().to_owned(),
                    hcl::ObjectKey::Expression(Expression::String(s)) => s.clone(),
                    _ => return None,
                };
                Some((key, literal(v)?))
            })
            .collect::<Option<serde_json::Map<_, _>>>()
            .map(Value::Object),
        _ => None,
    }
}

/// The schema key and reference label of a `resource`, `data` or `provider` block.
fn kind(b: &hcl::Block) -> Option<(String, String)> {
    match (b.identifier(), b.labels()) {
        ("provider", [p]) => Some((
            format!("provider.{}", p.as_str()),
            format!("provider.{}", p.as_str()),
        )),
        ("resource", [t, l]) => Some((
            t.as_str().to_owned(),
            format!("{}.{}", t.as_str(), l.as_str()),
        )),
        ("data", [t, l]) => Some((
            format!("data.{}", t.as_str()),
            format!("data.{}.{}", t.as_str(), l.as_str()),
        )),
        _ => None,
    }
}

/// Every problem of Terraform `text`: it does not parse, a resource or data source has
/// no schema, or a block breaks its schema (see the module).
pub fn check_terraform(text: &str) -> Vec<String> {
    let body = match hcl::parse(text) {
        Ok(b) => b,
        Err(e) => return vec![format!("does not parse: {e}")],
    };
    let ctx = Context {
        kinds: body
            .blocks()
            .filter_map(kind)
            .map(|(k, label)| (label, k))
            .collect(),
        vars: body
            .blocks()
            .filter(|b| b.identifier() == "variable")
            .filter_map(|b| {
                let name = b.labels().first()?.as_str().to_owned();
                let t = b.body().attributes().find(|a| a.key() == "type");
                Some((
                    name,
                    t.map_or_else(|| "any".to_owned(), |a| type_text(a.expr())),
                ))
            })
            .collect(),
    };
    let meta: Vec<&str> = SCHEMAS["terraform_meta"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut out = Vec::new();
    for b in body.blocks() {
        let Some((k, label)) = kind(b) else {
            continue;
        };
        let Some(spec) = SCHEMAS["terraform"].get(&k) else {
            out.push(format!("{k}: no published schema"));
            continue;
        };
        check(&label, spec, &ctx.found(b.body()), &meta, &mut out);
    }
    // A provider whose block is required (azurerm's `features`) needs it once its
    // resources are used.
    for (key, spec) in SCHEMAS["terraform"].as_object().into_iter().flatten() {
        let Some(provider) = key.strip_prefix("provider.") else {
            continue;
        };
        let prefix = format!("{provider}_");
        let uses = ctx
            .kinds
            .values()
            .any(|k| k.trim_start_matches("data.").starts_with(&prefix));
        if spec["required"].as_bool() == Some(true) && uses && !ctx.kinds.values().any(|k| k == key)
        {
            out.push(format!(
                "{key}: the provider block is required (its resources are used)"
            ));
        }
    }
    out
}
