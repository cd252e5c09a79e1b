//! The OpenAPI document is complete and strict, and the JSON Schemas beside it are
//! standalone draft 2020-12 documents of the server's own types.

use crate::helpers::{sample_scenario, spawn_app};
use serde_json::{Value, json};
use std::collections::HashSet;

fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(r) => doc
            .pointer(r.trim_start_matches('#'))
            .unwrap_or_else(|| panic!("{r} resolves")),
        None => schema,
    }
}

/// The properties of an object schema, with those of every `allOf` part (how a
/// flattened field is documented).
fn properties(doc: &Value, schema: &Value) -> serde_json::Map<String, Value> {
    let schema = resolve(doc, schema);
    let mut out = schema["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    for part in schema["allOf"].as_array().into_iter().flatten() {
        out.extend(properties(doc, part));
    }
    out
}

#[tokio::test]
async fn every_route_is_documented_once_with_parameters_in_place() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    let paths = doc["paths"].as_object().unwrap();
    for path in [
        "/api/openapi.json",
        "/api/v1/schema/scenario.json",
        "/api/v1/schema/evaluation.json",
        "/scenarios/{id}/report.{format}",
        "/scenarios/{id}/charts/{name}.{format}",
        "/charts/{name}.{format}",
        "/api/v1/scenarios/{id}/testplan",
        "/api/v1/measurements/scenario",
    ] {
        assert!(paths.contains_key(path), "{path}");
    }
    let mut ids = HashSet::new();
    for (path, item) in paths {
        for (method, op) in item.as_object().unwrap() {
            let id = op["operationId"]
                .as_str()
                .unwrap_or_else(|| panic!("{method} {path}"));
            assert!(ids.insert(id.to_owned()), "operationId {id} repeats");
            assert!(
                op["responses"]["default"].is_object(),
                "{method} {path}: default"
            );
            for p in op["parameters"].as_array().into_iter().flatten() {
                let name = p["name"].as_str().unwrap();
                let in_path = path.contains(&format!("{{{name}}}"));
                assert_eq!(
                    p["in"],
                    if in_path { "path" } else { "query" },
                    "{method} {path} {name}"
                );
            }
        }
    }
    // The queries that were once declared as path parameters.
    let query_names: HashSet<&str> = paths
        .values()
        .flat_map(|i| i.as_object().unwrap().values())
        .flat_map(|op| op["parameters"].as_array().into_iter().flatten())
        .filter(|p| p["in"] == "query")
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    for q in [
        "q", "limit", "offset", "tool", "run", "base", "w", "h", "paper",
    ] {
        assert!(query_names.contains(q), "{q} in: query");
    }
}

#[tokio::test]
async fn bodies_have_full_schemas_with_ranges_and_enums() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let schemas = &doc["components"]["schemas"];
    let evaluate = &doc["paths"]["/api/v1/evaluate"]["post"];
    let request = resolve(
        &doc,
        &evaluate["requestBody"]["content"]["application/json"]["schema"],
    );
    assert_eq!(request["additionalProperties"], false);
    let workload = resolve(&doc, &request["properties"]["workload"]);
    assert_eq!(workload["properties"]["io_size_kib"]["minimum"], 0.5);
    assert_eq!(workload["properties"]["io_size_kib"]["maximum"], 16384.0);
    assert_eq!(workload["properties"]["threads"]["maximum"], 1024);
    let duration = &workload["properties"]["duration_s"];
    assert_eq!(duration["minimum"].as_f64(), Some(1.0), "{duration}");
    assert_eq!(duration["maximum"].as_f64(), Some(1e9), "{duration}");
    let level = &schemas["Level"]["enum"];
    assert!(level.as_array().unwrap().iter().any(|l| l == "ssd_v2"));
    let protocol = &schemas["Protocol"]["enum"];
    assert!(protocol.as_array().unwrap().iter().any(|p| p == "nfsv4.1"));
    let answer = properties(
        &doc,
        &evaluate["responses"]["200"]["content"]["application/json"]["schema"],
    );
    for field in [
        "throughput_mibps",
        "binding",
        "limits",
        "latency_curve",
        "cost",
        "verdict",
    ] {
        assert!(answer[field].is_object(), "Evaluation.{field}");
    }
    // The verdict object of the contract: targets, recommendation, sensitivity and
    // statements, each target naming what decides it.
    let verdict = properties(&doc, &answer["verdict"]);
    for field in ["targets", "recommendation", "sensitivity", "statements"] {
        assert!(verdict.contains_key(field), "Verdict.{field}: {verdict:?}");
    }
    let target = properties(&doc, &verdict["targets"]["items"]);
    for field in ["target", "met", "margin_pct", "decided_by", "statement"] {
        assert!(target.contains_key(field), "TargetVerdict.{field}");
    }
    let kinds = &schemas["TargetKind"]["enum"];
    assert_eq!(kinds, &json!(["capacity", "throughput", "iops", "latency"]));
    assert!(schemas["Scope"]["enum"].as_array().unwrap().len() >= 8);
    let error = &schemas["ErrorBody"];
    assert!(error["properties"]["error"].is_object() && error["properties"]["field"].is_object());
    // A u32 count states the range serde reads, not int32's 2^31 - 1.
    let with_performance = &schemas["Summary"]["properties"]["with_performance"];
    assert_eq!(with_performance["format"], "int64");
    assert_eq!(with_performance["maximum"], u64::from(u32::MAX));
    // A value of any JSON type says no type (a number is not an "object").
    for (schema, field) in [
        ("Sensitivity", "value"),
        ("Change", "before"),
        ("Change", "after"),
    ] {
        let p = &schemas[schema]["properties"][field];
        assert!(
            p.is_object() && p.get("type").is_none(),
            "{schema}.{field}: {p}"
        );
    }
}

#[tokio::test]
async fn the_schema_endpoints_are_standalone_draft_2020_12() {
    let app = spawn_app().await;
    for (path, title, field) in [
        ("/api/v1/schema/scenario.json", "Scenario", "workload"),
        ("/api/v1/schema/evaluation.json", "Evaluation", "limits"),
    ] {
        let res = app.get(path).await;
        assert_eq!(res.status(), 200);
        assert!(
            res.headers()["content-type"]
                .to_str()
                .unwrap()
                .contains("schema+json")
        );
        let schema: Value = res.json().await.unwrap();
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        assert_eq!(schema["title"], title);
        assert!(schema["properties"][field].is_object());
        // Every reference points inside the document.
        let text = schema.to_string();
        assert!(!text.contains("#/components/"), "{path}");
        for r in text.split("\"$ref\":\"").skip(1) {
            let target = r.split('"').next().unwrap();
            assert!(
                schema.pointer(target.trim_start_matches('#')).is_some(),
                "{path}: {target}"
            );
        }
    }
    // The sample scenario names only fields the schema has.
    let schema: Value = app
        .get("/api/v1/schema/scenario.json")
        .await
        .json()
        .await
        .unwrap();
    for key in sample_scenario().as_object().unwrap().keys() {
        assert!(schema["properties"][key].is_object(), "{key}");
    }
}

/// The schemas below `schema` (properties, items, map values and keys, alternatives),
/// each with the path it is reached by; `seen` stops at a `$ref` already walked.
fn walk<'a>(
    doc: &'a Value,
    schema: &'a Value,
    path: String,
    seen: &mut HashSet<String>,
    out: &mut Vec<(String, &'a Value)>,
) {
    if let Some(r) = schema["$ref"].as_str()
        && !seen.insert(r.to_owned())
    {
        return;
    }
    let schema = resolve(doc, schema);
    out.push((path.clone(), schema));
    if let Some(props) = schema["properties"].as_object() {
        for (k, v) in props {
            walk(doc, v, format!("{path}.{k}"), seen, out);
        }
    }
    for key in ["items", "additionalProperties", "propertyNames"] {
        if schema[key].is_object() {
            walk(doc, &schema[key], format!("{path}[{key}]"), seen, out);
        }
    }
    for key in ["oneOf", "anyOf", "allOf", "prefixItems"] {
        for (i, v) in schema[key].as_array().into_iter().flatten().enumerate() {
            walk(doc, v, format!("{path}/{key}[{i}]"), seen, out);
        }
    }
}

#[tokio::test]
async fn every_free_text_input_has_a_max_length() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let is_string = |s: &Value| {
        s["type"] == "string"
            || s["type"]
                .as_array()
                .is_some_and(|t| t.iter().any(|t| t == "string"))
    };
    // An anchored pattern without repetition bounds the length too (`paper`).
    let bounded_pattern = |s: &Value| {
        s["pattern"]
            .as_str()
            .is_some_and(|p| p.starts_with('^') && p.ends_with('$') && !p.contains(['*', '+', '{']))
    };
    let (mut unbounded, mut checked) = (Vec::new(), 0);
    for (route, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let mut inputs: Vec<(String, &Value)> = Vec::new();
            for p in op["parameters"].as_array().into_iter().flatten() {
                inputs.push((format!("{}", p["name"]), &p["schema"]));
            }
            for (mime, content) in op["requestBody"]["content"]
                .as_object()
                .into_iter()
                .flatten()
            {
                if mime.contains("json") {
                    inputs.push(("body".to_owned(), &content["schema"]));
                }
            }
            for (name, schema) in inputs {
                let mut found = Vec::new();
                walk(&doc, schema, name, &mut HashSet::new(), &mut found);
                for (path, s) in found.into_iter().filter(|(_, s)| is_string(s)) {
                    checked += 1;
                    if s["maxLength"].is_null()
                        && s["enum"].is_null()
                        && s["const"].is_null()
                        && !bounded_pattern(s)
                    {
                        unbounded.push(format!("{method} {route} {path}"));
                    }
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} text inputs found");
    assert!(unbounded.is_empty(), "{unbounded:#?}");
}

#[tokio::test]
async fn measurements_are_typed_and_fixed_sets_are_enums() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let schemas = &doc["components"]["schemas"];
    let paths = &doc["paths"];
    // The runs of a scenario: an array of typed runs, each with its measurement and
    // comparison, and the page headers.
    let list = &paths["/api/v1/scenarios/{id}/measurements"]["get"];
    let ok = &list["responses"]["200"];
    let body = &ok["content"]["application/json"]["schema"];
    assert_eq!(body["type"], "array", "{body}");
    let run = properties(&doc, &body["items"]);
    for field in ["id", "revision", "format", "measurement", "comparison"] {
        assert!(run.contains_key(field), "MeasurementView.{field}: {run:?}");
    }
    for header in ["X-Total-Count", "Link"] {
        assert!(ok["headers"][header].is_object(), "{header}");
    }
    let params: Vec<&str> = list["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(params, ["id", "limit", "offset"]);
    let measurement = properties(&doc, &run["measurement"]);
    for field in [
        "tool",
        "label",
        "iops",
        "mibps",
        "io_size_kib",
        "latency_mean_ms",
    ] {
        assert!(measurement.contains_key(field), "Measurement.{field}");
    }
    assert_eq!(
        schemas["Tool"]["enum"],
        json!(["fio", "diskspd", "elbencho", "azure_monitor"])
    );
    assert_eq!(
        schemas["Format"]["enum"],
        json!(["fio_json", "diskspd_xml", "elbencho_csv", "azure_monitor"])
    );
    assert!(schemas["GapClass"]["enum"].as_array().unwrap().len() == 7);
    let comparison = properties(&doc, &schemas["Comparison"]);
    for field in ["ratio", "class", "sentence", "predicted_mibps", "scenario"] {
        assert!(comparison.contains_key(field), "Comparison.{field}");
    }
    for (path, method) in [
        ("/api/v1/measurements/parse", "post"),
        ("/api/v1/scenarios/{id}/measurements", "post"),
    ] {
        let op = &paths[path][method]["responses"];
        let answer = op["200"]["content"]["application/json"]["schema"]
            .as_object()
            .or(op["201"]["content"]["application/json"]["schema"].as_object())
            .unwrap();
        let answer = properties(&doc, &Value::Object(answer.clone()));
        assert!(answer.contains_key("measurements"), "{path}: {answer:?}");
    }
    // Parameters the server reads from a fixed set are enums, or a pattern for ids.
    let param = |path: &str, name: &str| -> Value {
        let op = &paths[path]["get"]["parameters"];
        let p = op
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("{path} {name}"));
        resolve(&doc, &p["schema"]).clone()
    };
    let enum_of = |s: &Value| -> Value {
        s.get("enum")
            .cloned()
            .or_else(|| {
                s["oneOf"]
                    .as_array()
                    .and_then(|a| a.iter().find_map(|v| resolve(&doc, v).get("enum").cloned()))
            })
            .unwrap_or(Value::Null)
    };
    let tool = param("/api/v1/scenarios/{id}/testplan", "tool");
    assert_eq!(enum_of(&tool), json!(["fio", "diskspd"]), "{tool}");
    let service = param("/api/v1/prices", "service");
    assert_eq!(
        enum_of(&service),
        json!(["anf", "avs", "azure_files", "gcnv"]),
        "{service}"
    );
    let compare = param("/scenarios/{id}/report.{format}", "compare");
    assert_eq!(compare["pattern"], "^[\\s,0-9]*$");
    // And the server refuses what the schema does not allow.
    let id = app.create(&crate::helpers::sample_scenario()).await;
    for path in [
        format!("/api/v1/scenarios/{id}/testplan?tool=FIO"),
        format!("/api/v1/scenarios/{id}/testplan?tool="),
        "/api/v1/prices?service=".to_owned(),
        "/api/v1/prices?service=%20anf".to_owned(),
    ] {
        assert_eq!(app.get(&path).await.status(), 422, "{path}");
    }
    let res = app
        .get(&format!("/scenarios/{id}/report.json?compare=%2B{id}"))
        .await;
    assert_eq!(res.status(), 404);
}

/// The AVS plan documents its VMware licensing: the request's `vcf`, the answer's cores
/// and licence cost per option and the verdict's saving by part; a scenario's AVS hosts
/// document theirs.
#[tokio::test]
async fn the_avs_plan_documents_vcf_licensing() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let op = &doc["paths"]["/api/v1/avs/plan"]["post"];
    let request = properties(
        &doc,
        &op["requestBody"]["content"]["application/json"]["schema"],
    );
    let vcf = properties(&doc, &request["vcf"]);
    for field in [
        "licensing",
        "price_per_core_year",
        "included_until",
        "add_ons",
    ] {
        assert!(vcf.contains_key(field), "vcf.{field}: {vcf:?}");
    }
    assert_eq!(
        resolve(&doc, &vcf["licensing"])["enum"],
        json!(["portable", "included"])
    );
    let option = &doc["components"]["schemas"]["OptionCost"]["properties"];
    assert!(option["cores"].is_object() && option["licence_monthly"].is_object());
    let saving = &doc["components"]["schemas"]["Saving"]["properties"];
    assert!(saving["licence_monthly"].is_object() && saving["cores"].is_object());
    let verdict = &doc["components"]["schemas"]["AvsVerdict"]["properties"];
    assert!(verdict["split"].is_object(), "{verdict}");
    // The plan lists its assumptions, each with its source; the request takes a
    // stretched cluster and the management reservation.
    let plan = &doc["components"]["schemas"]["AvsPlan"]["properties"];
    assert!(plan["assumptions"].is_object(), "{plan}");
    let assumption = &doc["components"]["schemas"]["Assumption"]["properties"];
    for field in ["name", "value", "unit", "source"] {
        assert!(assumption[field].is_object(), "{field}: {assumption}");
    }
    assert_eq!(
        resolve(&doc, &assumption["source"])["enum"],
        json!(["inventory", "default", "user"])
    );
    assert!(request["stretched"].is_object(), "{request:?}");
    // Expanding a private cloud: the request's `existing`, the answer's existing hosts.
    let existing = properties(&doc, &request["existing"]["oneOf"][0]);
    for field in ["hosts", "host_sku", "licensing"] {
        assert!(
            existing.contains_key(field),
            "existing.{field}: {existing:?}"
        );
    }
    let tco = &doc["components"]["schemas"]["Tco"]["properties"];
    assert!(tco["existing"].is_object(), "{tco}");
    let cost = &doc["components"]["schemas"]["ExistingCost"]["properties"];
    for field in [
        "hosts",
        "host_sku",
        "licensing",
        "cores",
        "hosts_monthly",
        "licence_monthly",
    ] {
        assert!(cost[field].is_object(), "{field}: {cost}");
    }
    let hosts = &doc["components"]["schemas"]["HostModel"]["properties"];
    assert!(hosts["management_memory_gb"].is_object(), "{hosts}");
    // A scenario's AVS hosts carry the same licensing (null: VCF included).
    let avs = properties(&doc, &json!({"$ref": "#/components/schemas/Avs"}));
    let scenario_vcf = properties(&doc, &avs["vcf"]["oneOf"][0]);
    assert!(
        avs["vcf"]["oneOf"][0]["description"]
            .as_str()
            .is_some_and(|d| d.contains("Null = VCF included")),
        "{avs:?}"
    );
    assert!(scenario_vcf.contains_key("price_per_core_year"), "{avs:?}");
    app.stop().await;
}

/// Checks `value` against `schema` for the keywords the server's own schemas use
/// (`$ref`, `type`, `properties`, `required`, `items`, `enum`, `oneOf`, `anyOf`,
/// `allOf`); the path of the first mismatch.
fn conforms(doc: &Value, schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    let schema = resolve(doc, schema);
    if let Some(all) = schema["allOf"].as_array() {
        for s in all {
            conforms(doc, s, value, at)?;
        }
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(any) = schema[key].as_array() {
            let passing = any
                .iter()
                .filter(|s| conforms(doc, s, value, at).is_ok())
                .count();
            let ok = if key == "oneOf" {
                passing == 1
            } else {
                passing >= 1
            };
            if !ok {
                return Err(format!("{at}: {passing} of the {key} match"));
            }
        }
    }
    if let Some(options) = schema["enum"].as_array()
        && !options.contains(value)
    {
        return Err(format!("{at}: {value} not in the enum"));
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let type_of = match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let fits = types.is_empty()
        || types.contains(&type_of)
        || (type_of == "integer" && types.contains(&"number"));
    if !fits {
        return Err(format!("{at}: a {type_of}, not {types:?}"));
    }
    if let Value::Object(map) = value {
        for r in schema["required"].as_array().into_iter().flatten() {
            let r = r.as_str().unwrap_or_default();
            if !map.contains_key(r) {
                return Err(format!("{at}: no {r}"));
            }
        }
        for (key, v) in map {
            if let Some(p) = schema["properties"].get(key) {
                conforms(doc, p, v, &format!("{at}.{key}"))?;
            }
        }
    }
    if let (Value::Array(items), Some(s)) = (value, schema.get("items")) {
        for (i, v) in items.iter().enumerate() {
            conforms(doc, s, v, &format!("{at}[{i}]"))?;
        }
    }
    Ok(())
}

#[tokio::test]
async fn the_customer_json_of_a_report_conforms_to_its_published_schema() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let schema = &doc["components"]["schemas"]["CustomerReport"];
    assert!(schema.is_object(), "CustomerReport in the components");
    let properties = properties(&doc, schema);
    for key in ["edition", "title", "sections"] {
        assert!(properties.contains_key(key), "{key} documented");
    }
    let report = doc.pointer("/paths/~1scenarios~1{id}~1report.{format}/get/responses/200/content/application~1json/schema").expect("the report's JSON");
    assert!(report.to_string().contains("CustomerReport"), "{report}");

    let id = app.create(&sample_scenario()).await;
    let customer: Value = app.get_json(&format!("/scenarios/{id}/report.json")).await;
    conforms(&doc, schema, &customer, "report").unwrap();
    conforms(&doc, report, &customer, "report").unwrap();
    // Every kind of block a sizing report has, each checked against its variant.
    let kinds: HashSet<&str> = customer["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["blocks"].as_array().unwrap())
        .filter_map(|b| b["type"].as_str())
        .collect();
    for kind in [
        "summary", "figures", "verdict", "table", "chart", "code", "links",
    ] {
        assert!(kinds.contains(kind), "a {kind} block in {kinds:?}");
    }
    // A wrong shape is caught: the check can fail.
    let mut broken = customer.clone();
    broken["sections"][0]["blocks"][0]["type"] = json!("no such block");
    assert!(conforms(&doc, schema, &broken, "report").is_err());
    app.stop().await;
}

/// A limit in an evaluation carries its public citation (`source`), its kind and the
/// source as data (`provenance`), each as the published schema says.
#[tokio::test]
async fn a_limit_carries_its_citation_kind_and_typed_provenance() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let limit = &doc["components"]["schemas"]["Limit"];
    let documented = properties(&doc, limit);
    for key in ["source", "kind", "provenance"] {
        assert!(documented.contains_key(key), "{key} documented: {limit}");
    }
    let provenance = properties(&doc, &documented["provenance"]);
    for key in ["document", "date", "section", "kind", "note"] {
        assert!(provenance.contains_key(key), "provenance.{key} documented");
    }
    let res = app.post_json("/api/v1/evaluate", &sample_scenario()).await;
    assert_eq!(res.status(), 200);
    let e: Value = res.json().await.unwrap();
    let limits = e["limits"].as_array().expect("limits");
    assert!(!limits.is_empty());
    for l in limits {
        conforms(&doc, limit, l, "limit").unwrap();
        assert_eq!(l["kind"], l["provenance"]["kind"], "{l}");
        let cited = l["source"].as_str().expect("a citation");
        assert!(
            !cited.contains("LEARN-") && !cited.contains("service-limits"),
            "{cited}"
        );
    }
    assert!(
        limits
            .iter()
            .any(|l| l["kind"] == "fitted" || l["kind"] == "lower_bound"),
        "the example has fitted limits"
    );
    app.stop().await;
}

#[tokio::test]
async fn the_live_answer_documents_each_volumes_demand_over_time() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let volume = &doc["components"]["schemas"]["VolumeAnswer"];
    let field = &properties(&doc, volume)["demand_over_time"];
    // Optional: a `$ref` beside null, or the reference itself.
    let over = field["oneOf"]
        .as_array()
        .and_then(|o| o.iter().find(|s| s.get("$ref").is_some()))
        .unwrap_or(field);
    let over = properties(&doc, over);
    let keys: HashSet<&str> = over.keys().map(String::as_str).collect();
    assert_eq!(keys, HashSet::from(["step", "per", "periods", "unread"]));
    let step = resolve(&doc, &over["step"]);
    assert_eq!(step["enum"], json!(["hour", "day"]), "{step}");
    let period = properties(&doc, &over["periods"]["items"]);
    let keys: HashSet<&str> = period.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        HashSet::from(["start", "p50", "p95", "max", "samples"])
    );
}
