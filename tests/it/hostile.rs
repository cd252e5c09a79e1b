//! 2,000 deterministic hostile bodies against the JSON endpoints: every answer is a 4xx
//! with the contract's error body, never a 5xx, and the server keeps serving.

use crate::helpers::{TestApp, assert_error_body, sample_scenario, spawn_app};
use reqwest::Method;
use serde_json::{Value, json};
use std::sync::Arc;

const CASES: usize = 2000;
const PARALLEL: usize = 8;

/// xorshift64*: small, fast and the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// One request: method, path, content type and raw body.
struct Case {
    method: Method,
    path: String,
    content_type: Option<&'static str>,
    body: Vec<u8>,
    what: String,
}

/// Paths (JSON pointers) of every leaf and container of `v`.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                pointers(child, format!("{at}/{k}"), out);
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                pointers(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    if !at.is_empty() {
        out.push(at);
    }
}

/// A value that is wrong (type or range) for the field whose value is `original`.
/// (`null` is never used: it is valid for the optional fields.)
fn hostile_value(rng: &mut Rng, original: &Value) -> Value {
    let deep = (0..200).fold(json!(1), |acc, _| Value::Array(vec![acc]));
    let candidates = [
        json!("not a number"),
        json!(true),
        json!([]),
        json!({"nested": {"deeper": [1, 2, 3]}}),
        json!(-1),
        json!(-1e308),
        json!(1e308),
        json!(18_446_744_073_709_551_615u64),
        json!(-9_223_372_036_854_775_808i64),
        json!(4_294_967_296u64),
        json!("\u{0}\u{202e}<script>alert(1)</script>"),
        json!("x".repeat(20_000)),
        deep,
    ];
    loop {
        let v = rng.pick(&candidates).clone();
        // Another string or bool may be valid (a name, a flag); everything else is not.
        let same_kind = matches!(
            (&v, original),
            (Value::String(_), Value::String(_)) | (Value::Bool(_), Value::Bool(_))
        );
        if !same_kind {
            return v;
        }
    }
}

/// Fields the scenario cannot do without.
const REQUIRED: &[&str] = &[
    "/workload",
    "/storage",
    "/clients",
    "/workload/io_size_kib",
    "/workload/read_pct",
    "/workload/capacity_tib",
    "/storage/service",
    "/storage/level",
    "/storage/volumes",
    "/storage/volumes/0/quota_tib",
    "/clients/protocol",
    "/clients/avs/hosts",
];

/// Number tokens that are not JSON numbers or do not fit an f64.
const BAD_TOKENS: &[&str] = &[
    "NaN",
    "Infinity",
    "-Infinity",
    "1e400",
    "-1e400",
    "0x10",
    "+1",
    "01",
    ".5",
    "1e",
    "--1",
    "1.",
    "undefined",
    "'1'",
    "1_000",
];

/// A scenario made invalid in one of several ways (as a JSON value or as raw text).
fn hostile_scenario(rng: &mut Rng) -> (String, Result<Value, Vec<u8>>) {
    let mut s = sample_scenario();
    let mut ptrs = Vec::new();
    pointers(&s, String::new(), &mut ptrs);
    match rng.below(8) {
        0..=2 => {
            let p = rng.pick(&ptrs).clone();
            let original = s.pointer(&p).cloned().unwrap_or(Value::Null);
            let v = hostile_value(rng, &original);
            *s.pointer_mut(&p).unwrap() = v;
            (format!("replace {p}"), Ok(s))
        }
        3 => {
            let objects: Vec<&String> = ptrs
                .iter()
                .filter(|p| s.pointer(p).is_some_and(Value::is_object))
                .collect();
            let p = if rng.below(4) == 0 {
                String::new()
            } else {
                (*rng.pick(&objects)).clone()
            };
            let target = if p.is_empty() {
                &mut s
            } else {
                s.pointer_mut(&p).unwrap()
            };
            target["unknown_field_x"] = json!(1);
            (format!("unknown field in {p:?}"), Ok(s))
        }
        4 => {
            let p = *rng.pick(REQUIRED);
            let (parent, key) = p.rsplit_once('/').unwrap();
            let parent = if parent.is_empty() {
                &mut s
            } else {
                s.pointer_mut(parent).unwrap()
            };
            if let Some(m) = parent.as_object_mut() {
                m.remove(key);
            }
            (format!("remove {p}"), Ok(s))
        }
        5 => {
            let text = s.to_string();
            let token = *rng.pick(BAD_TOKENS);
            let numbers: Vec<usize> = text
                .char_indices()
                .filter(|&(i, c)| c.is_ascii_digit() && text.as_bytes()[i - 1] == b':')
                .map(|(i, _)| i)
                .collect();
            let at = *rng.pick(&numbers);
            let end = at + text[at..].find([',', '}']).unwrap();
            let raw = format!("{}{token}{}", &text[..at], &text[end..]);
            (format!("token {token}"), Err(raw.into_bytes()))
        }
        6 => {
            let text = s.to_string();
            let cut = rng.below(text.len());
            (
                format!("truncated at {cut}"),
                Err(text.as_bytes()[..cut].to_vec()),
            )
        }
        _ => {
            let p = rng.pick(&ptrs).clone();
            let depth = 10_000;
            let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            let text = s.to_string();
            let v = s.pointer(&p).unwrap().to_string();
            let raw = text.replacen(&format!(":{v}"), &format!(":{nested}"), 1);
            let raw = if raw == text { nested } else { raw };
            (format!("{depth} deep at {p}"), Err(raw.into_bytes()))
        }
    }
}

fn raw(v: &Result<Value, Vec<u8>>) -> Vec<u8> {
    match v {
        Ok(v) => serde_json::to_vec(v).unwrap(),
        Err(b) => b.clone(),
    }
}

/// Embeds a hostile scenario (raw) into an envelope's text.
fn wrap(prefix: &str, inner: &[u8], suffix: &str) -> Vec<u8> {
    let mut out = prefix.as_bytes().to_vec();
    out.extend_from_slice(inner);
    out.extend_from_slice(suffix.as_bytes());
    out
}

fn build_cases(put_path: &str) -> Vec<Case> {
    let mut rng = Rng(0x5EED_F00D_u64);
    let good = serde_json::to_vec(&sample_scenario()).unwrap();
    let mut cases = Vec::with_capacity(CASES);
    for i in 0..CASES {
        let endpoint = i % 5;
        let (path, method) = match endpoint {
            0 => ("/api/v1/evaluate".to_owned(), Method::POST),
            1 => ("/api/v1/compare".to_owned(), Method::POST),
            2 => ("/api/v1/layouts".to_owned(), Method::POST),
            3 => ("/api/v1/scenarios".to_owned(), Method::POST),
            _ => (put_path.to_owned(), Method::PUT),
        };
        let mut content_type = Some("application/json");
        let (what, body) = match i % 25 {
            // Whole-body hostility, the same for every endpoint.
            5 => ("empty".to_owned(), Vec::new()),
            10 => {
                let n = rng.below(512);
                (
                    "random bytes".to_owned(),
                    (0..n).map(|_| rng.next() as u8).collect(),
                )
            }
            15 if i % 250 == 15 => {
                let mut big = b"{\"name\":\"".to_vec();
                big.resize(2 << 20, b'x');
                big.extend_from_slice(b"\"}");
                ("2 MiB".to_owned(), big)
            }
            20 => {
                content_type = *rng.pick(&[
                    None,
                    Some("text/plain"),
                    Some("application/xml"),
                    Some("multipart/form-data"),
                ]);
                ("wrong content type".to_owned(), good.clone())
            }
            _ => {
                let (what, scenario) = hostile_scenario(&mut rng);
                let inner = raw(&scenario);
                let body = match endpoint {
                    1 => match rng.below(6) {
                        0 => serde_json::to_vec(&json!({"scenarios": []})).unwrap(),
                        1 => serde_json::to_vec(&json!({"scenarios": vec![sample_scenario(); 17]}))
                            .unwrap(),
                        2 => serde_json::to_vec(&json!({"scenarios": sample_scenario()})).unwrap(),
                        _ => wrap("{\"scenarios\":[", &wrap("", &good, ","), "")
                            .into_iter()
                            .chain(inner)
                            .chain(*b"]}")
                            .collect(),
                    },
                    2 => match rng.below(6) {
                        0 => wrap(
                            "{\"scenario\":",
                            &good,
                            &format!(
                                ",\"total_tib\":80,\"counts\":[{}]}}",
                                rng.pick(&[
                                    "0",
                                    "-1",
                                    "1025",
                                    "4294967296",
                                    "1.5",
                                    "\"4\"",
                                    "null"
                                ])
                            ),
                        ),
                        1 => wrap(
                            "{\"scenario\":",
                            &good,
                            &format!(
                                ",\"total_tib\":{},\"counts\":[1,2]}}",
                                rng.pick(&["0", "-80", "1e308", "\"80\"", "null", "[]"])
                            ),
                        ),
                        2 => wrap(
                            "{\"scenario\":",
                            &good,
                            &format!(
                                ",\"total_tib\":80,\"counts\":[{}]}}",
                                vec!["1"; 257].join(",")
                            ),
                        ),
                        _ => wrap(
                            "{\"scenario\":",
                            &inner,
                            ",\"total_tib\":80,\"counts\":[1,2,4]}",
                        ),
                    },
                    _ => inner,
                };
                (what, body)
            }
        };
        cases.push(Case {
            method,
            path,
            content_type,
            body,
            what,
        });
    }
    cases
}

#[tokio::test]
async fn hostile_bodies_get_4xx_and_the_server_stays_up() {
    let app = Arc::new(spawn_app().await);
    let id = app.create(&sample_scenario()).await;
    let put_path = format!("/api/v1/scenarios/{id}");
    let cases = build_cases(&put_path);
    assert_eq!(cases.len(), CASES);
    assert!(
        cases.iter().any(|c| c.body.len() > 2_000_000),
        "includes 2 MiB bodies"
    );
    assert!(
        cases.iter().any(|c| c.what.contains("10000 deep")),
        "includes deep nesting"
    );

    let cases = Arc::new(cases);
    let mut workers = tokio::task::JoinSet::new();
    for w in 0..PARALLEL {
        let (app, cases) = (app.clone(), cases.clone());
        workers.spawn(async move {
            let mut failures = Vec::new();
            for (i, case) in cases.iter().enumerate().skip(w).step_by(PARALLEL) {
                let res = send(&app, case).await;
                let status = res.status().as_u16();
                let text = res.text().await.unwrap_or_default();
                let ok = (400..500).contains(&status)
                    && serde_json::from_str::<Value>(&text).is_ok_and(|b| {
                        std::panic::catch_unwind(|| assert_error_body(&b, b["field"].as_str()))
                            .is_ok()
                    });
                if !ok {
                    failures.push(format!(
                        "case {i} ({} {} {}): {status} {}",
                        case.method,
                        case.path,
                        case.what,
                        text.chars().take(300).collect::<String>()
                    ));
                }
            }
            failures
        });
    }
    let mut failures = Vec::new();
    while let Some(done) = workers.join_next().await {
        failures.extend(done.expect("worker ran"));
    }
    assert!(
        failures.is_empty(),
        "{} of {CASES} hostile bodies were not a 4xx with the error body:\n{}",
        failures.len(),
        failures.join("\n")
    );

    let res = app.get("/healthz").await;
    assert_eq!(res.status(), 200);
    let list: Value = app.get("/api/v1/scenarios").await.json().await.unwrap();
    assert_eq!(
        list.as_array().unwrap().len(),
        1,
        "no hostile body was saved"
    );
    assert_eq!(
        list[0]["revision"], 1,
        "no hostile body changed the saved scenario"
    );
    assert_eq!(
        app.create(&sample_scenario()).await,
        id + 1,
        "the server still saves"
    );
}

async fn send(app: &TestApp, case: &Case) -> reqwest::Response {
    let mut req = app
        .client
        .request(case.method.clone(), app.url(&case.path))
        .body(case.body.clone());
    if let Some(ct) = case.content_type {
        req = req.header(reqwest::header::CONTENT_TYPE, ct);
    }
    req.send().await.expect("the server answers")
}
