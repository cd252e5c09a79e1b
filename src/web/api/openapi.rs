//! The OpenAPI 3.1 document and the JSON Schemas served beside it.
//!
//! The API routes describe themselves (`#[utoipa::path]`, bodies from the Rust types'
//! `ToSchema`); this module adds what utoipa's router does not see: the report and
//! chart downloads, the document and schema endpoints themselves, a `default` error
//! response on every operation (the guards can answer 403, 405, 408, 413, 415, 421 and
//! 503 anywhere), and links from a created scenario to the operations on it, which
//! stateful clients follow.

use serde_json::{Map, Value, json};

/// The JSON Schema dialect of OpenAPI 3.1 and of the schema endpoints.
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

const REF_PREFIX: &str = "#/components/schemas/";

fn error_ref() -> Value {
    json!({ "$ref": format!("{REF_PREFIX}ErrorBody") })
}

/// `default` response of an API operation: the contract's error body.
fn api_default() -> Value {
    json!({
        "description": "Any other refusal or failure: 403 cross-site request, 405 method, 408 too slow, 413 body over 1 MiB, 415 content type or charset, 421 foreign Host, 503 busy; always the error body",
        "content": { "application/json": { "schema": error_ref() } }
    })
}

/// `default` response of a page-side download: JSON for clients, HTML for browsers.
fn page_default() -> Value {
    json!({
        "description": "An error: the error body, or an HTML page for clients that ask for text/html (and for forms)",
        "content": {
            "application/json": { "schema": error_ref() },
            "text/html": { "schema": { "type": "string" } }
        }
    })
}

fn id_param() -> Value {
    json!({ "name": "id", "in": "path", "required": true, "description": "Scenario id",
            "schema": { "type": "integer", "format": "int64" } })
}

fn chart_params() -> Vec<Value> {
    vec![
        json!({ "name": "name", "in": "path", "required": true,
                "description": "ceilings (every limit as a bar), io-size (against IO size), scaling (against flows), latency (against load)",
                "schema": { "type": "string", "enum": ["ceilings", "io-size", "scaling", "latency"] } }),
        json!({ "name": "format", "in": "path", "required": true,
                "schema": { "type": "string", "enum": ["svg", "png"] } }),
        json!({ "name": "w", "in": "query", "required": false,
                "description": "PNG width in pixels (200 to 4000; default the chart's own)",
                "schema": { "type": "integer", "minimum": 200, "maximum": 4000 } }),
        json!({ "name": "h", "in": "query", "required": false,
                "description": "PNG height in pixels (150 to 4000)",
                "schema": { "type": "integer", "minimum": 150, "maximum": 4000 } }),
    ]
}

fn chart_ok() -> Value {
    json!({
        "description": "The chart",
        "content": {
            "image/svg+xml": { "schema": { "type": "string" } },
            "image/png": { "schema": { "type": "string", "contentMediaType": "image/png" } }
        }
    })
}

/// Path items of the routes outside `/api` and of the document endpoints.
fn extra_paths() -> Vec<(&'static str, Value)> {
    let report = json!({
        "get": {
            "tags": ["reports"], "operationId": "report",
            "summary": "The sizing report of a saved scenario in one format",
            "parameters": [
                id_param(),
                { "name": "format", "in": "path", "required": true,
                  "schema": { "type": "string", "enum": ["html", "md", "pdf", "csv", "xlsx", "json"] } },
                { "name": "compare", "in": "query", "required": false,
                  "description": "Comma-separated ids of up to 15 saved scenarios to compare with (digits, commas and spaces only)",
                  "schema": { "type": "string", "maxLength": crate::web::reports::MAX_OPTION_CHARS, "pattern": "^[\\s,0-9]*$" } },
                { "name": "layouts", "in": "query", "required": false,
                  "description": "Comma-separated volume counts for a layouts section, e.g. 1,2,4,8",
                  "schema": { "type": "string", "maxLength": crate::web::reports::MAX_OPTION_CHARS } },
                { "name": "paper", "in": "query", "required": false,
                  "description": "PDF paper: a4 (default, also when empty) or letter, in any case",
                  "schema": { "type": "string", "pattern": "^([aA]4|[lL][eE][tT][tT][eE][rR])?$" } },
                { "name": "download", "in": "query", "required": false,
                  "description": "1, true or yes to download the HTML report instead of opening it (anything else opens it)",
                  "schema": { "type": "string", "maxLength": crate::web::reports::MAX_DOWNLOAD_CHARS } },
                { "name": "edition", "in": "query", "required": false,
                  "description": "Who the report is for: customer (default, also when empty: no file paths, commits, internal ids or series names; prices in plain words; sources as an appendix) or engineer (everything, with the model trace, the fitted parameters and the price book's id and source), in any case",
                  "schema": { "type": "string", "pattern": "^([cC][uU][sS][tT][oO][mM][eE][rR]|[eE][nN][gG][iI][nN][eE][eE][rR])?$" } }
            ],
            "responses": {
                "200": { "description": "The report",
                  "content": {
                    "text/html": { "schema": { "type": "string" } },
                    "text/markdown": { "schema": { "type": "string" } },
                    "application/pdf": { "schema": { "type": "string", "contentMediaType": "application/pdf" } },
                    "text/csv": { "schema": { "type": "string" } },
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": { "schema": { "type": "string" } },
                    "application/json": { "schema": { "anyOf": [
                        { "$ref": format!("{REF_PREFIX}CustomerReport") },
                        { "type": "object", "description": "The engineer edition: the scenario, its evaluation, the catalog version, the generation date, the test plan, and the saved cost, the comparison and the layouts when present" }
                    ] } }
                  } },
                "400": { "description": "A bad option, or a saved scenario that no longer validates", "content": { "text/html": { "schema": { "type": "string" } } } },
                "404": { "description": "No such scenario", "content": { "text/html": { "schema": { "type": "string" } } } },
                "422": { "description": "An option the report cannot use (paper, edition, layouts, compare): the page says what to send", "content": { "text/html": { "schema": { "type": "string" } } } },
                "503": { "description": "Too many renders at once, or one that took too long; try again", "content": { "text/html": { "schema": { "type": "string" } } } },
                "default": page_default()
            }
        }
    });
    // The same report of unsaved inputs: `s` instead of an id, no comparison or layouts.
    let mut unsaved_report = report.clone();
    let op = &mut unsaved_report["get"];
    op["operationId"] = json!("unsaved_report");
    op["summary"] = json!(
        "The sizing report of unsaved inputs (a share link's `s`), as the planner's Download menu offers while the form has unsaved changes"
    );
    if let Some(params) = op["parameters"].as_array_mut() {
        params.retain(|p| !matches!(p["name"].as_str(), Some("id" | "compare" | "layouts")));
        params.push(json!({ "name": "s", "in": "query", "required": true,
            "description": "The scenario as a share link encodes it: base64url of the Scenario JSON",
            "schema": { "type": "string", "maxLength": crate::web::share::MAX_LEN } }));
    }
    if let Some(responses) = op["responses"].as_object_mut() {
        responses.remove("404");
        responses.insert("422".into(), json!({ "description": "A damaged share link, inputs that do not validate, or an option the report cannot use: the page says what to fix", "content": { "text/html": { "schema": { "type": "string" } } } }));
    }
    let mut saved_params = vec![id_param()];
    saved_params.extend(chart_params());
    let saved_chart = json!({
        "get": {
            "tags": ["charts"], "operationId": "saved_chart",
            "summary": "A chart of a saved scenario, with its measured runs",
            "parameters": saved_params,
            "responses": {
                "200": chart_ok(),
                "404": { "description": "No such scenario", "content": { "application/json": { "schema": error_ref() } } },
                "422": { "description": "A size out of range, or a scenario that no longer validates", "content": { "application/json": { "schema": error_ref() } } },
                "503": { "description": "Too many renders at once, or one that took too long; try again", "content": { "application/json": { "schema": error_ref() } } },
                "default": page_default()
            }
        }
    });
    let mut shared_params = chart_params();
    shared_params.push(json!({ "name": "s", "in": "query", "required": true,
        "description": "The share-link encoding of an unsaved scenario (the `s` of a /plan link)",
        "schema": { "type": "string", "maxLength": crate::web::share::MAX_LEN } }));
    let unsaved_chart = json!({
        "get": {
            "tags": ["charts"], "operationId": "shared_chart",
            "summary": "A chart of an unsaved scenario from a share link",
            "parameters": shared_params,
            "responses": {
                "200": chart_ok(),
                "422": { "description": "A share parameter that does not decode, or a size out of range", "content": { "application/json": { "schema": error_ref() } } },
                "default": page_default()
            }
        },
        "post": {
            "tags": ["charts"], "operationId": "posted_chart",
            "summary": "A chart of an unsaved scenario sent as the body",
            "parameters": chart_params(),
            "requestBody": { "required": true,
                "content": { "application/json": { "schema": { "$ref": format!("{REF_PREFIX}Scenario") } } } },
            "responses": {
                "200": chart_ok(),
                "422": { "description": "A value fails validation; `field` names it", "content": { "application/json": { "schema": error_ref() } } },
                "default": page_default()
            }
        }
    });
    let schema_op = |op: &str, what: &str| {
        json!({ "get": {
            "tags": ["schema"], "operationId": op,
            "summary": format!("The JSON Schema (draft 2020-12) of {what}, generated from the server's types"),
            "responses": {
                "200": { "description": "A JSON Schema document",
                         "content": { "application/schema+json": { "schema": { "type": "object" } } } },
                "default": api_default()
            }
        } })
    };
    vec![
        ("/scenarios/{id}/report.{format}", report),
        ("/plan/report.{format}", unsaved_report),
        ("/scenarios/{id}/charts/{name}.{format}", saved_chart),
        ("/charts/{name}.{format}", unsaved_chart),
        (
            "/api/openapi.json",
            json!({ "get": {
                "tags": ["schema"], "operationId": "openapi",
                "summary": "This OpenAPI 3.1 document",
                "responses": {
                    "200": { "description": "The document", "content": { "application/json": { "schema": { "type": "object" } } } },
                    "default": api_default()
                }
            } }),
        ),
        (
            "/api/v1/schema/scenario.json",
            schema_op("scenario_schema", "a Scenario"),
        ),
        (
            "/api/v1/schema/evaluation.json",
            schema_op("evaluation_schema", "an Evaluation"),
        ),
    ]
}

/// Links from `create_scenario`'s answer to the operations on the new scenario.
fn scenario_links() -> Value {
    let to = |op: &str| json!({ "operationId": op, "parameters": { "id": "$response.body#/id" } });
    json!({
        "GetScenario": to("get_scenario"),
        "UpdateScenario": to("update_scenario"),
        "DeleteScenario": to("delete_scenario"),
        "ListRevisions": to("list_revisions"),
        "ListMeasurements": to("list_measurements"),
        "Testplan": to("testplan"),
        "Report": to("report"),
        "Reprice": to("reprice_scenario"),
        "GetVisibility": to("get_visibility"),
        "SetVisibility": to("set_visibility"),
        "RestoreFirst": { "operationId": "restore_revision",
                          "parameters": { "id": "$response.body#/id", "n": "1" } },
    })
}

/// Offers the catalog's names for the fields that take a catalog key: generated clients
/// and fuzzers then pick real VM sizes and AVS hosts, and any other string stays allowed
/// by the schema (the server answers 422 naming the field for one it does not know).
fn catalog_keys(doc: &mut Value) {
    use crate::engine::scenario::{MAX_HOST_SKU_CHARS, MAX_VM_SIZE_CHARS};
    let vm: Vec<Value> = crate::engine::catalog::vm_sizes()
        .iter()
        .map(|v| Value::String(v.display_name()))
        .collect();
    let hosts: Vec<Value> = crate::engine::catalog::catalog()
        .services
        .avs_hosts
        .iter()
        .map(|h| Value::String(h.sku.clone()))
        .collect();
    let keys = |names: Vec<Value>, what: &str, nullable: bool, max: usize| {
        let mut other = json!({ "type": "string", "maxLength": max, "description": format!("Any other {what}: 422 unless the catalog has it (names match case-insensitively, `Standard_` optional)") });
        if nullable {
            other["type"] = json!(["string", "null"]);
        }
        json!({ "anyOf": [ { "enum": names }, other ] })
    };
    if let Some(p) = doc.pointer_mut("/components/schemas/Clients/properties/vm_size") {
        let description = p.get("description").cloned();
        *p = keys(vm, "VM size", true, MAX_VM_SIZE_CHARS);
        if let Some(d) = description {
            p["description"] = d;
        }
    }
    if let Some(p) = doc.pointer_mut("/components/schemas/Avs/properties/host_sku") {
        *p = keys(hosts, "AVS host SKU", false, MAX_HOST_SKU_CHARS);
    }
}

/// The body of `POST /api/v1/prices/import`: a Retail Prices API page or an array of
/// its items, with exactly the checks the parser makes (other fields are allowed).
fn retail_import_schema() -> Value {
    use crate::prices::retail::{
        DATE_PATTERN, MAX_ITEMS, MAX_TEXT_CHARS, OPTIONAL_AMOUNTS, OPTIONAL_TEXT, REQUIRED_TEXT,
    };
    let mut properties = Map::new();
    for f in REQUIRED_TEXT {
        properties.insert(
            f.into(),
            json!({ "type": "string", "maxLength": MAX_TEXT_CHARS }),
        );
    }
    for f in OPTIONAL_TEXT {
        properties.insert(
            f.into(),
            json!({ "type": ["string", "null"], "maxLength": MAX_TEXT_CHARS }),
        );
    }
    for f in OPTIONAL_AMOUNTS {
        properties.insert(
            f.into(),
            json!({ "type": ["number", "null"], "minimum": 0 }),
        );
    }
    properties.insert(
        "retailPrice".into(),
        json!({ "type": "number", "minimum": 0, "description": "List price per unitOfMeasure" }),
    );
    properties.insert(
        "effectiveStartDate".into(),
        json!({ "type": "string", "pattern": DATE_PATTERN, "maxLength": MAX_TEXT_CHARS, "description": "A date, e.g. 2025-09-01T00:00:00Z" }),
    );
    properties.insert(
        "isPrimaryMeterRegion".into(),
        json!({ "type": ["boolean", "null"] }),
    );
    let mut required: Vec<&str> = REQUIRED_TEXT.to_vec();
    required.push("retailPrice");
    let item = json!({
        "type": "object",
        "description": "One Retail Prices API item (documented fields; others are ignored)",
        "required": required,
        "properties": properties,
    });
    let items = json!({ "type": "array", "items": item, "maxItems": MAX_ITEMS });
    json!({ "oneOf": [
        { "type": "object", "description": "One page as the API answers it",
          "required": ["Items"],
          "properties": { "Items": items.clone(),
                          "NextPageLink": { "description": "The next page's URL (not followed)" } } },
        items,
    ] })
}

/// Completes the document utoipa built from the API routes (see the module docs).
pub fn complete(doc: &mut Value) {
    catalog_keys(doc);
    unsigned_ranges(doc);
    if let Some(body) = doc.pointer_mut(
        "/paths/~1api~1v1~1prices~1import/post/requestBody/content/application~1json/schema",
    ) {
        *body = retail_import_schema();
    }
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for (path, item) in extra_paths() {
        paths.insert(path.to_owned(), item);
    }
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        for (method, op) in item.iter_mut() {
            let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) else {
                continue;
            };
            if !responses.contains_key("default") {
                responses.insert("default".to_owned(), api_default());
            }
            // The HTTP layer's own refusals, before any handler, with no body.
            for (status, description) in TOO_LARGE {
                responses
                    .entry(status.to_owned())
                    .or_insert_with(|| json!({ "description": description }));
            }
            if path == "/api/v1/scenarios"
                && method == "post"
                && let Some(created) = responses.get_mut("201").and_then(Value::as_object_mut)
            {
                created.insert("links".to_owned(), scenario_links());
            }
        }
    }
    if let Some(tags) = doc.get_mut("tags").and_then(Value::as_array_mut) {
        tags.push(json!({ "name": "reports", "description": "Sizing reports of saved scenarios" }));
        tags.push(json!({ "name": "prices", "description": "The price book in force: its rows, CSV export and the import of Azure Retail Prices API pages" }));
        tags.push(json!({ "name": "charts", "description": "Charts as SVG or PNG" }));
        tags.push(json!({ "name": "schema", "description": "This document and the JSON Schemas of the bodies" }));
    }
}

/// What the HTTP layer answers, with no body, for a request too large to read.
const TOO_LARGE: [(&str, &str); 2] = [
    (
        "414",
        "The URL is longer than 65,534 bytes (refused before any handler, no body)",
    ),
    (
        "431",
        "The request head is larger than the server reads (refused before any handler, no body)",
    ),
];

/// utoipa writes a Rust `u32` as `format: int32, minimum: 0`, which claims an upper bound
/// of 2^31 - 1 that the server does not keep (serde reads up to 2^32 - 1). Every unsigned
/// `int32` without a stated maximum becomes `int64` with the `u32` maximum, so the
/// document states the range the server accepts.
fn unsigned_ranges(doc: &mut Value) {
    match doc {
        Value::Object(map) => {
            let unsigned_int32 = map.get("format").and_then(Value::as_str) == Some("int32")
                && map
                    .get("minimum")
                    .and_then(Value::as_i64)
                    .is_some_and(|m| m >= 0)
                && !map.contains_key("maximum");
            if unsigned_int32 {
                map.insert("format".to_owned(), json!("int64"));
                map.insert("maximum".to_owned(), json!(u32::MAX));
            }
            map.values_mut().for_each(unsigned_ranges);
        }
        Value::Array(items) => items.iter_mut().for_each(unsigned_ranges),
        _ => {}
    }
}

/// A standalone JSON Schema (draft 2020-12) for component `root` of the document: the
/// component with every schema it references under `$defs`.
pub fn json_schema(doc: &Value, root: &str, id: &str) -> Value {
    let components = doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut defs = Map::new();
    let mut todo = vec![root.to_owned()];
    while let Some(name) = todo.pop() {
        if defs.contains_key(&name) {
            continue;
        }
        let Some(schema) = components.get(&name) else {
            continue;
        };
        let mut schema = schema.clone();
        rewrite_refs(&mut schema, &mut todo);
        defs.insert(name, schema);
    }
    let mut top = defs.remove(root).unwrap_or_else(|| json!({}));
    if let Some(obj) = top.as_object_mut() {
        let mut head = Map::new();
        head.insert("$schema".into(), DRAFT_2020_12.into());
        head.insert("$id".into(), id.into());
        head.insert("title".into(), root.into());
        head.extend(std::mem::take(obj));
        if !defs.is_empty() {
            head.insert("$defs".into(), Value::Object(defs));
        }
        *obj = head;
    }
    top
}

/// Points `$ref`s at `#/$defs/...` and collects the names they reference.
fn rewrite_refs(v: &mut Value, found: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get_mut("$ref")
                && let Some(name) = r.strip_prefix(REF_PREFIX)
            {
                let name = name.to_owned();
                *r = format!("#/$defs/{name}");
                found.push(name);
            }
            for child in map.values_mut() {
                rewrite_refs(child, found);
            }
        }
        Value::Array(items) => {
            for child in items {
                rewrite_refs(child, found);
            }
        }
        _ => {}
    }
}
