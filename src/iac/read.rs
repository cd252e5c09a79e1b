//! Code read back: Terraform HCL (parsed by `hcl-rs`), `terraform show -json` (state
//! or plan) and ARM deployment JSON (native NetApp resources, or the Azure Verified
//! Module's `capacityPools` parameter) into the [`Layout`] they deploy.

use super::layout::{Layout, PoolSpec, VolumeSpec};
use super::profile;
use crate::engine::scenario::{Level, Protocol, Qos, Service, VolumeKind};
use serde_json::{Map, Value};

/// Why code could not be read (a 422 naming what to send).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct ReadError(pub String);

/// One resource: its type, its label (Terraform) and its arguments as JSON (a
/// reference such as `azurerm_netapp_pool.p.name` as that text).
struct Res {
    kind: String,
    label: String,
    args: Map<String, Value>,
}

/// Reads Terraform HCL, `terraform show -json` or an ARM deployment.
pub fn read(text: &str) -> Result<Layout, ReadError> {
    let trimmed = text.trim_start();
    let layout = if trimmed.starts_with('{') {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| ReadError(format!("the body looks like JSON but does not parse: {e}")))?;
        if v.get("format_version").is_some()
            || v.get("planned_values").is_some()
            || v.get("values").is_some()
        {
            terraform(show_json(&v))
        } else {
            arm(&v)
        }
    } else {
        let body = hcl::parse(text).map_err(|e| {
            ReadError(format!(
                "the body is neither JSON (terraform show -json, an ARM deployment) nor Terraform HCL: {}",
                brief(&e.to_string())
            ))
        })?;
        terraform(hcl_resources(&body)?)
    };
    if layout.pools.is_empty() {
        return Err(ReadError(
            "no NetApp pool found: send Terraform with azurerm_netapp_pool or google_netapp_storage_pool resources, terraform show -json of them, or an ARM deployment with Microsoft.NetApp capacity pools".to_owned(),
        ));
    }
    Ok(layout)
}

/// A parse error without the quoted source line (which may be the whole body): where
/// and what, at most 300 characters.
fn brief(error: &str) -> String {
    let lines: Vec<&str> = error
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("-->") || l.starts_with('='))
        .map(|l| l.trim_start_matches(['-', '>', '=', ' ']))
        .collect();
    let text = if lines.is_empty() {
        error.to_owned()
    } else {
        lines.join(": ")
    };
    text.chars().take(300).collect()
}

fn hcl_value(e: &hcl::Expression) -> Value {
    match e {
        hcl::Expression::Null => Value::Null,
        hcl::Expression::Bool(b) => Value::Bool(*b),
        hcl::Expression::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        hcl::Expression::String(s) => Value::String(s.clone()),
        hcl::Expression::Array(a) => Value::Array(a.iter().map(hcl_value).collect()),
        hcl::Expression::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.to_string().trim_matches('"').to_owned(), hcl_value(v)))
                .collect(),
        ),
        hcl::Expression::TemplateExpr(t) => match t.as_ref() {
            hcl::TemplateExpr::QuotedString(s) => Value::String(s.clone()),
            other => Value::String(other.to_string()),
        },
        // `toset([...])` and the like hold the collection they convert.
        hcl::Expression::FuncCall(f)
            if f.args.len() == 1
                && ["toset", "tolist", "tomap"].contains(&f.name.name.as_str()) =>
        {
            hcl_value(&f.args[0])
        }
        other => Value::String(other.to_string()),
    }
}

/// Most instances one `count` or `for_each` block is read as.
const MAX_INSTANCES: usize = 1024;

/// Most resource instances one Terraform file is read as.
const MAX_RESOURCES: usize = 20_000;

/// The instances a resource's `count` or `for_each` declares, each as the words that
/// stand for it (`count.index`, `each.key`, `each.value`) and what they are; one
/// instance without either, or when the collection cannot be resolved.
fn instances(args: &Map<String, Value>) -> Vec<Vec<(&'static str, Value)>> {
    if let Some(n) = args.get("count").and_then(Value::as_f64) {
        let n = n.max(0.0).min(MAX_INSTANCES as f64) as usize;
        return (0..n)
            .map(|i| vec![("count.index", Value::from(i))])
            .collect();
    }
    let each = |k: Value, v: Value| vec![("each.key", k), ("each.value", v)];
    match args.get("for_each") {
        Some(Value::Array(items)) => items
            .iter()
            .take(MAX_INSTANCES)
            .map(|x| each(x.clone(), x.clone()))
            .collect(),
        Some(Value::Object(map)) => map
            .iter()
            .take(MAX_INSTANCES)
            .map(|(k, v)| each(Value::String(k.clone()), v.clone()))
            .collect(),
        _ => vec![Vec::new()],
    }
}

/// `v` with every word of `words` put in: a value that is the word becomes its value,
/// a template's `${word}` its text.
fn put_in(v: &Value, words: &[(&str, Value)]) -> Value {
    match v {
        Value::String(s) => {
            if let Some((_, x)) = words.iter().find(|(w, _)| w == s) {
                return x.clone();
            }
            let mut out = s.clone();
            for (w, x) in words {
                let text = x.as_str().map_or_else(|| x.to_string(), str::to_owned);
                out = out.replace(&format!("${{{w}}}"), &text);
            }
            Value::String(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(|x| put_in(x, words)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), put_in(x, words)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The resources of an HCL body, a `var.NAME` or `local.NAME` argument replaced by the
/// variable's default or the local's value where it has one, and a block with `count`
/// or `for_each` read as its instances (at most [`MAX_INSTANCES`] each and
/// [`MAX_RESOURCES`] in all).
fn hcl_resources(body: &hcl::Body) -> Result<Vec<Res>, ReadError> {
    let mut defaults: Map<String, Value> = body
        .blocks()
        .filter(|b| b.identifier() == "variable" && b.labels().len() == 1)
        .filter_map(|b| {
            let d = b.body().attributes().find(|a| a.key() == "default")?;
            Some((
                format!("var.{}", b.labels()[0].as_str()),
                hcl_value(d.expr()),
            ))
        })
        .collect();
    for b in body.blocks().filter(|b| b.identifier() == "locals") {
        for a in b.body().attributes() {
            defaults.insert(format!("local.{}", a.key()), hcl_value(a.expr()));
        }
    }
    let resolve = |v: Value| match v.as_str().and_then(|s| defaults.get(s)) {
        Some(d) => d.clone(),
        None => v,
    };
    let mut out = Vec::new();
    for b in body
        .blocks()
        .filter(|b| b.identifier() == "resource" && b.labels().len() == 2)
    {
        let args: Map<String, Value> = b
            .body()
            .attributes()
            .map(|a| (a.key().to_owned(), resolve(hcl_value(a.expr()))))
            .collect();
        for words in instances(&args) {
            if out.len() == MAX_RESOURCES {
                return Err(ReadError(format!(
                    "the code declares more than {} resources: send one environment at a time",
                    crate::format::count(MAX_RESOURCES as u64)
                )));
            }
            out.push(Res {
                kind: b.labels()[0].as_str().to_owned(),
                label: b.labels()[1].as_str().to_owned(),
                args: args
                    .iter()
                    .map(|(k, v)| (k.clone(), put_in(v, &words)))
                    .collect(),
            });
        }
    }
    Ok(out)
}

/// The resources of `terraform show -json` (state `values` or plan `planned_values`),
/// child modules included.
fn show_json(v: &Value) -> Vec<Res> {
    fn module(m: &Value, out: &mut Vec<Res>) {
        for r in m["resources"].as_array().into_iter().flatten() {
            out.push(Res {
                kind: r["type"].as_str().unwrap_or_default().to_owned(),
                label: r["name"].as_str().unwrap_or_default().to_owned(),
                args: r["values"].as_object().cloned().unwrap_or_default(),
            });
        }
        for c in m["child_modules"].as_array().into_iter().flatten() {
            module(c, out);
        }
    }
    let mut out = Vec::new();
    let root = v
        .get("planned_values")
        .or_else(|| v.get("values"))
        .map(|x| &x["root_module"]);
    if let Some(root) = root {
        module(root, &mut out);
    }
    out
}

static NULL: Value = Value::Null;

fn arg<'a>(a: &'a Map<String, Value>, k: &str) -> &'a Value {
    a.get(k).unwrap_or(&NULL)
}

fn num(v: &Value) -> Option<f64> {
    v.as_f64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        .filter(|x| x.is_finite())
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

fn anf_level(s: &str) -> Level {
    match s.to_ascii_lowercase().as_str() {
        "standard" | "standardzrs" => Level::Standard,
        "ultra" => Level::Ultra,
        "flexible" => Level::Flexible,
        _ => Level::Premium,
    }
}

fn gcnv_level(s: &str) -> Level {
    match s.to_ascii_uppercase().as_str() {
        "FLEX" => Level::Flex,
        "STANDARD" => Level::Standard,
        "EXTREME" => Level::Extreme,
        _ => Level::Premium,
    }
}

fn protocol(v: &Value) -> Protocol {
    let first = v
        .as_array()
        .and_then(|a| a.first())
        .map_or_else(String::new, |p| text(p).to_ascii_uppercase());
    match first.as_str() {
        "NFSV4.1" | "NFSV4" => Protocol::Nfsv41,
        "CIFS" | "SMB" => Protocol::Smb3,
        _ => Protocol::Nfsv3,
    }
}

fn qos(v: &Value) -> Qos {
    if text(v).eq_ignore_ascii_case("manual") {
        Qos::Manual
    } else {
        Qos::Auto
    }
}

fn tag_profile(tags: &Value) -> Option<String> {
    tags.get(profile::TAG)
        .and_then(Value::as_str)
        .map(str::to_owned)
}

fn empty_layout(name: &str, source: &str) -> Layout {
    Layout {
        name: name.to_owned(),
        source: source.to_owned(),
        region: String::new(),
        gcp_region: String::new(),
        pools: Vec::new(),
        left_out: Vec::new(),
    }
}

/// Which pool a volume's `pool_name` / `storage_pool` names: a reference
/// (`TYPE.LABEL.name`) or the pool's name.
fn pool_index(pools: &[(String, PoolSpec)], kind: &str, r: &Value) -> Option<usize> {
    let r = text(r);
    let by_label = r
        .strip_prefix(kind)
        .and_then(|s| s.strip_prefix('.'))
        .and_then(|s| s.split('.').next());
    pools.iter().position(|(label, p)| match by_label {
        Some(l) => label == l,
        None => p.name == r || r.ends_with(&format!("/{}", p.name)),
    })
}

fn terraform(resources: Vec<Res>) -> Layout {
    let mut layout = empty_layout("Terraform", "Terraform");
    let mut pools: Vec<(String, PoolSpec)> = Vec::new();
    for r in &resources {
        let a = &r.args;
        let pool = match r.kind.as_str() {
            "azurerm_netapp_pool" => {
                let level = anf_level(text(arg(a, "service_level")));
                PoolSpec {
                    name: text(arg(a, "name")).to_owned(),
                    service: Service::Anf,
                    level,
                    qos: if level == Level::Flexible {
                        Qos::Manual
                    } else {
                        qos(arg(a, "qos_type"))
                    },
                    size_tib: num(arg(a, "size_in_tb")).unwrap_or(0.0),
                    pool_mibps: num(arg(a, "custom_throughput_mibps")),
                    volumes: Vec::new(),
                }
            }
            "google_netapp_storage_pool" => PoolSpec {
                name: text(arg(a, "name")).to_owned(),
                service: Service::Gcnv,
                level: gcnv_level(text(arg(a, "service_level"))),
                qos: qos(arg(a, "qos_type")),
                size_tib: num(arg(a, "capacity_gib")).unwrap_or(0.0) / 1024.0,
                pool_mibps: num(arg(a, "total_throughput_mibps")),
                volumes: Vec::new(),
            },
            _ => continue,
        };
        let region = |l: &&str| {
            l.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        };
        if let Some(l) = a.get("location").and_then(Value::as_str).filter(region) {
            match pool.service {
                Service::Gcnv => layout.gcp_region = l.to_owned(),
                _ => layout.region = l.to_owned(),
            }
        }
        pools.push((r.label.clone(), pool));
    }
    for r in &resources {
        let a = &r.args;
        let (pool_kind, pool_ref, quota_gib, mibps, large, tag) = match r.kind.as_str() {
            "azurerm_netapp_volume" => (
                "azurerm_netapp_pool",
                arg(a, "pool_name"),
                num(arg(a, "storage_quota_in_gb")),
                num(arg(a, "throughput_in_mibps")),
                a.get("large_volume_enabled").and_then(Value::as_bool),
                tag_profile(arg(a, "tags")),
            ),
            "google_netapp_volume" => (
                "google_netapp_storage_pool",
                arg(a, "storage_pool"),
                num(arg(a, "capacity_gib")),
                num(arg(a, "throughput_mibps")),
                a.get("large_capacity").and_then(Value::as_bool),
                text(arg(a, "description"))
                    .strip_prefix(&format!("{}: ", profile::TAG))
                    .map(str::to_owned),
            ),
            _ => continue,
        };
        let Some(i) = pool_index(&pools, pool_kind, pool_ref) else {
            continue;
        };
        let avs = a
            .get("azure_vmware_data_store_enabled")
            .and_then(Value::as_bool)
            == Some(true);
        pools[i].1.volumes.push(VolumeSpec {
            name: text(arg(a, "name")).to_owned(),
            quota_tib: quota_gib.unwrap_or(0.0) / 1024.0,
            mibps,
            protocol: protocol(arg(a, "protocols")),
            kind: if large == Some(true) {
                VolumeKind::Large
            } else {
                VolumeKind::Regular
            },
            avs_cluster: avs.then_some(0),
            profile: tag,
        });
    }
    layout.pools = pools
        .into_iter()
        .map(|(_, p)| p)
        .filter(|p| !p.volumes.is_empty())
        .collect();
    layout
}

/// The last segment of an ARM name (`account/pool/volume`), unless it is an expression.
fn segment(name: &str, from_end: usize) -> Option<&str> {
    if name.starts_with('[') {
        return None;
    }
    name.rsplit('/').nth(from_end)
}

fn arm(v: &Value) -> Layout {
    let mut layout = empty_layout("ARM deployment", "an ARM deployment");
    let mut pools: Vec<(String, PoolSpec)> = Vec::new();
    let mut volumes: Vec<(String, VolumeSpec)> = Vec::new();
    walk(v, &mut |o| {
        let kind = o
            .get("type")
            .map(text)
            .unwrap_or_default()
            .to_ascii_lowercase();
        let props = o.get("properties").cloned().unwrap_or(Value::Null);
        let name = o.get("name").map(text).unwrap_or_default();
        if kind == "microsoft.netapp/netappaccounts/capacitypools" {
            let level = anf_level(text(&props["serviceLevel"]));
            let pool = segment(name, 0).unwrap_or("pool").to_owned();
            pools.push((
                pool.clone(),
                PoolSpec {
                    name: pool,
                    service: Service::Anf,
                    level,
                    qos: if level == Level::Flexible {
                        Qos::Manual
                    } else {
                        qos(&props["qosType"])
                    },
                    size_tib: num(&props["size"]).unwrap_or(0.0) / (1u64 << 40) as f64,
                    pool_mibps: num(&props["customThroughputMibps"]),
                    volumes: Vec::new(),
                },
            ));
            if let Some(l) = o.get("location").and_then(Value::as_str) {
                layout.region = l.to_owned();
            }
        } else if kind == "microsoft.netapp/netappaccounts/capacitypools/volumes" {
            let pool = segment(name, 1).unwrap_or_default().to_owned();
            volumes.push((
                pool,
                arm_volume(segment(name, 0).unwrap_or("volume"), &props, o.get("tags")),
            ));
        }
        if let Some(cp) = o.get("capacityPools") {
            let list = cp.get("value").unwrap_or(cp);
            for p in list.as_array().into_iter().flatten() {
                let level = anf_level(text(&p["serviceLevel"]));
                let vols = p["volumes"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|v| arm_volume(text(&v["name"]), v, v.get("tags")))
                    .collect();
                pools.push((
                    text(&p["name"]).to_owned(),
                    PoolSpec {
                        name: text(&p["name"]).to_owned(),
                        service: Service::Anf,
                        level,
                        qos: if level == Level::Flexible {
                            Qos::Manual
                        } else {
                            qos(&p["qosType"])
                        },
                        size_tib: num(&p["size"]).unwrap_or(0.0),
                        pool_mibps: num(&p["customThroughputMibps"]),
                        volumes: vols,
                    },
                ));
            }
        }
    });
    for (pool, vol) in volumes {
        if let Some((_, p)) = pools.iter_mut().find(|(n, _)| *n == pool) {
            p.volumes.push(vol);
        }
    }
    layout.pools = pools
        .into_iter()
        .map(|(_, p)| p)
        .filter(|p| !p.volumes.is_empty())
        .collect();
    layout
}

fn arm_volume(name: &str, p: &Value, tags: Option<&Value>) -> VolumeSpec {
    let large = p.get("isLargeVolume").and_then(Value::as_bool) == Some(true);
    VolumeSpec {
        name: name.to_owned(),
        quota_tib: num(&p["usageThreshold"]).unwrap_or(0.0) / (1u64 << 40) as f64,
        mibps: num(&p["throughputMibps"]),
        protocol: protocol(&p["protocolTypes"]),
        kind: if large {
            VolumeKind::Large
        } else {
            VolumeKind::Regular
        },
        avs_cluster: None,
        profile: tags.and_then(tag_profile),
    }
}

/// Calls `f` on every object in `v`, depth first.
fn walk(v: &Value, f: &mut impl FnMut(&Map<String, Value>)) {
    match v {
        Value::Object(o) => {
            f(o);
            for x in o.values() {
                walk(x, f);
            }
        }
        Value::Array(a) => {
            for x in a {
                walk(x, f);
            }
        }
        _ => {}
    }
}
