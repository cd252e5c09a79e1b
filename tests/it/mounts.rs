//! Mount advisor: `POST /api/v1/advise/mounts`, `volplan advise-mounts` and the `/advisor` page.

use crate::helpers::{sample_scenario, spawn_app};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Stdio};

/// Scenario 2 of the ANF mount-options page: the first mount has no nconnect.
const SCENARIO_2: &str = "mount -t nfs -o rw,hard,rsize=262144,wsize=262144,vers=3,tcp 10.10.10.10:/volume1 /mnt/volume1\n\
mount -t nfs -o rw,hard,rsize=262144,wsize=262144,vers=3,tcp,nconnect=8 10.10.10.10:/volume2 /mnt/volume2\n";

fn findings_with<'a>(body: &'a Value, code: &str) -> Vec<&'a Value> {
    body["findings"]
        .as_array()
        .expect("findings array")
        .iter()
        .filter(|f| f["code"] == code)
        .collect()
}

#[tokio::test]
async fn contract_example_round_trip() {
    let app = spawn_app().await;
    let req = json!({
        "text": "mount 10.10.10.10:/volume1 /mnt/volume1 -o nconnect=8\nmount 10.10.10.10:/volume2 /mnt/volume2 -o nconnect=4\n",
        "distro": "rhel 8.4",
        "workload": "eda"
    });
    let res = app.post_json("/api/v1/advise/mounts", &req).await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    let m = &body["mounts"][0];
    for key in [
        "line",
        "endpoint",
        "export",
        "path",
        "protocol",
        "requested_nconnect",
        "effective_nconnect",
    ] {
        assert!(m.get(key).is_some(), "mount has {key}: {m}");
    }
    assert_eq!(m["line"], 1);
    assert_eq!(m["endpoint"], "10.10.10.10");
    assert_eq!(m["export"], "/volume1");
    assert_eq!(m["path"], "/mnt/volume1");
    assert_eq!(m["requested_nconnect"], 8);
    assert_eq!(m["effective_nconnect"], 8);
    assert_eq!(body["mounts"][1]["effective_nconnect"], 8);

    let ignored = findings_with(&body, "nconnect_ignored");
    assert_eq!(ignored.len(), 1, "{body}");
    assert_eq!(ignored[0]["severity"], "warn");
    assert_eq!(ignored[0]["line"], 2);
    assert!(ignored[0]["message"].as_str().unwrap().contains("line 1"));
    assert_eq!(findings_with(&body, "actimeo_suggestion").len(), 2);
    for f in body["findings"].as_array().unwrap() {
        assert!(
            ["warn", "info", "error"].contains(&f["severity"].as_str().unwrap()),
            "{f}"
        );
        assert!(f["line"].is_null() || f["line"].is_u64(), "{f}");
    }

    let fstab = body["fstab"].as_str().unwrap();
    let lines: Vec<&str> = fstab.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].starts_with("10.10.10.10:/volume1 /mnt/volume1 nfs "),
        "{fstab}"
    );
    assert!(
        lines[0].contains("nconnect=8") && lines[0].contains("actimeo=600"),
        "{fstab}"
    );
    assert!(!lines[1].contains("nconnect"), "{fstab}");
}

#[tokio::test]
async fn scenario_2_reports_the_ignored_nconnect() {
    let app = spawn_app().await;
    let res = app
        .post_json("/api/v1/advise/mounts", &json!({ "text": SCENARIO_2 }))
        .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    let effective: Vec<&Value> = body["mounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["effective_nconnect"])
        .collect();
    assert_eq!(effective, [&json!(1), &json!(1)]);
    assert!(body["mounts"][0]["requested_nconnect"].is_null());
    assert_eq!(findings_with(&body, "nconnect_ignored")[0]["line"], 2);
}

#[tokio::test]
async fn bad_json_is_400_and_bad_fields_are_422() {
    let app = spawn_app().await;
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/advise/mounts",
            Some("application/json"),
            b"{\"text\": \"mount".to_vec(),
        )
        .await;
    assert_eq!(res.status(), 400);
    let body: Value = res.json().await.unwrap();
    assert!(
        body["error"].is_string() && body["field"].is_null(),
        "{body}"
    );

    for (req, field) in [
        (json!({ "text": "mount h:/a /a", "typo": 1 }), "typo"),
        (
            json!({ "text": "mount h:/a /a", "workload": "hpc" }),
            "workload",
        ),
        (
            json!({ "text": "mount h:/a /a", "distro": "windows 11" }),
            "distro",
        ),
        (json!({ "text": " \n " }), "text"),
        (json!({ "distro": "rhel 8.3" }), "text"),
    ] {
        let res = app.post_json("/api/v1/advise/mounts", &req).await;
        assert_eq!(res.status(), 422, "{req}");
        let body: Value = res.json().await.unwrap();
        let got = body["field"].as_str().unwrap_or("");
        assert!(
            got == field || (field == "text" && got.is_empty()),
            "{req}: {body}"
        );
        assert!(!body["error"].as_str().unwrap().is_empty());
    }

    // An array of the fields in order is not the documented object.
    let res = app
        .post_json("/api/v1/advise/mounts", &json!(["mount h:/a /a"]))
        .await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert!(
        body["error"].as_str().unwrap().contains("JSON object"),
        "{body}"
    );
}

#[tokio::test]
async fn the_endpoint_is_in_the_openapi_document() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    assert!(
        doc["paths"]["/api/v1/advise/mounts"]["post"].is_object(),
        "advise/mounts is documented"
    );
}

/// Runs `volplan advise-mounts` with `input` on stdin.
fn cli(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_volplan"))
        .arg("advise-mounts")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("volplan runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_reads_a_json_request_and_plain_mount_lines() {
    let req = json!({ "text": SCENARIO_2, "distro": "rhel 8.4", "workload": "web_small" });
    let (code, out, err) = cli(&["-"], &req.to_string());
    assert_eq!(code, 0, "{err}");
    let json_answer: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(findings_with(&json_answer, "nconnect_ignored").len(), 1);
    assert!(
        json_answer["fstab"]
            .as_str()
            .unwrap()
            .contains("actimeo=10")
    );

    // The same lines as a plain file, with the options given as flags.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mounts.txt");
    std::fs::write(&path, SCENARIO_2).unwrap();
    let (code, out, err) = cli(
        &[
            path.to_str().unwrap(),
            "--distro",
            "rhel 8.4",
            "--workload",
            "web_small",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let text_answer: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        text_answer, json_answer,
        "both input forms give the same answer"
    );
}

#[test]
fn cli_bad_input_exits_2_with_a_message() {
    for (args, input, needle) in [
        (vec!["-"], r#"{"text": "mount h:/a /a", "typo": 1}"#, "typo"),
        (
            vec!["-"],
            r#"{"text": "mount h:/a /a", "workload": "hpc"}"#,
            "workload",
        ),
        (vec!["-"], "[1, 2]", "not an object"),
        (vec!["-"], "", "text"),
        (vec!["-", "--workload", "hpc"], "mount h:/a /a", "workload"),
        (vec!["-", "--distro", "plan9"], "mount h:/a /a", "distro"),
        (vec!["/nonexistent/mounts.txt"], "", "cannot read"),
    ] {
        let (code, out, err) = cli(&args, input);
        assert_eq!(code, 2, "{args:?} {input}: {out}");
        assert!(out.is_empty());
        assert!(err.contains(needle), "{args:?} {input}: {err}");
    }
}

/// An HTML form body, as a browser sends it.
fn form_body(pairs: &[(&str, &str)]) -> Vec<u8> {
    let enc = |s: &str| {
        s.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                    (b as char).to_string()
                }
                b' ' => "+".to_owned(),
                _ => format!("%{b:02X}"),
            })
            .collect::<String>()
    };
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
        .into_bytes()
}

async fn post_form(app: &crate::helpers::TestApp, pairs: &[(&str, &str)]) -> reqwest::Response {
    let mut pairs = pairs.to_vec();
    pairs.push(("csrf", crate::helpers::FORM_TOKEN));
    app.send_form(
        "/advisor",
        "application/x-www-form-urlencoded",
        form_body(&pairs),
    )
    .await
}

#[tokio::test]
async fn page_checks_a_plan_without_javascript() {
    let app = spawn_app().await;
    let res = app.get("/advisor").await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("<textarea")
            && html.contains("name=\"distro\"")
            && html.contains("name=\"workload\"")
    );
    assert!(html.contains("Get-SmbClientConfiguration") && html.contains("Get-NetAdapterRss"));

    let res = post_form(
        &app,
        &[
            ("text", SCENARIO_2),
            ("distro", "rhel 8.2"),
            ("workload", "eda"),
        ],
    )
    .await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(
        html.contains("data-code=\"nconnect_ignored\""),
        "ignored warning shown"
    );
    assert!(html.contains("data-code=\"nconnect_unsupported_distro\""));
    assert!(html.contains("id=\"fstab\""));
    assert!(html.contains("sunrpc.tcp_max_slot_table_entries = 128"));
    assert!(html.contains("read_ahead_kb"));
    assert!(!html.contains("<script>"), "no inline script (CSP)");

    let res = post_form(&app, &[("text", "mount h:/a /a"), ("distro", "windows 11")]).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("is not a known distribution"));
    assert!(html.contains("mount h:/a /a"), "the pasted text is kept");
}

#[tokio::test]
async fn page_prefills_the_mounts_of_a_scenario() {
    let app = spawn_app().await;
    let mut s = sample_scenario();
    s["clients"]["avs"] = Value::Null;
    s["clients"]["protocol"] = json!("nfsv4.1");
    s["clients"]["nconnect"] = json!(4);
    let from = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&s).unwrap());
    let res = app.get(&format!("/advisor?from={from}")).await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    for i in 0..4 {
        assert!(
            html.contains(&format!("10.0.0.{}:/volume{}", 4 + i, i + 1)),
            "volume {i}"
        );
    }
    assert!(html.contains("vers=4.1,nconnect=4"));
    assert!(html.contains("max_session_slots=180"));

    let res = app.get("/advisor?from=not-base64!").await;
    assert_eq!(res.status(), 400);
}

#[tokio::test]
async fn planner_inputs_with_errors_do_not_open_a_plan() {
    let app = spawn_app().await;
    let res = app
        .send_form(
            "/advisor/from-plan",
            "application/x-www-form-urlencoded",
            form_body(&[
                ("name", "x"),
                ("workload.io_size_kib", "big"),
                ("csrf", crate::helpers::FORM_TOKEN),
            ]),
        )
        .await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.unwrap();
    assert!(html.contains("fix the marked inputs in the planner first"));
}

/// The text between `start` and the next `end` after it.
fn between<'a>(html: &'a str, start: &str, end: &str) -> &'a str {
    let rest = html
        .split(start)
        .nth(1)
        .unwrap_or_else(|| panic!("no {start}"));
    rest.split(end).next().unwrap_or_default()
}

#[tokio::test]
async fn advisor_counts_what_it_lists_and_writes_what_it_suggests() {
    let app = spawn_app().await;
    let text = "10.0.0.4:/v1 /mnt/v1 nfs rw,hard 0 0\n\
                10.0.0.4:/v2 /mnt/v2 nfs rw,hard 0 0\n\
                10.0.0.4:/v3 /mnt/v3 nfs rw,hard,vers=3 0 0\n\
                10.0.0.5:/v4 /mnt/v4 nfs rw 0 0";
    let res = post_form(&app, &[("text", text), ("workload", "eda")]).await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    let summary = between(&html, "id=\"advisor-summary\">", "</p>");
    let listed = |sev: &str| html.matches(&format!("<li class=\"sev-{sev}\"")).count();
    for (sev, word) in [
        ("error", "error"),
        ("warn", "warning"),
        ("info", "suggestion"),
    ] {
        let n = listed(sev);
        let said = if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        };
        assert!(summary.contains(&said), "{summary}: {n} {sev} listed");
    }
    assert!(listed("info") > 0);

    // The fstab: one line per mount, the first one whole, a version wherever one is
    // suggested.
    assert!(html.contains("data-code=\"vers_missing\""));
    let fstab = between(
        &html,
        "<pre id=\"fstab\" class=\"config\" aria-labelledby=\"h-fstab\"><code>",
        "</code>",
    );
    let lines: Vec<&str> = fstab
        .split("<span class=\"line\">")
        .skip(1)
        .map(|l| l.trim_end_matches("</span>").trim_end())
        .collect();
    assert_eq!(lines.len(), 4, "{fstab}");
    assert!(lines[0].starts_with("10.0.0.4:/v1 /mnt/v1 nfs "), "{fstab}");
    for l in &lines {
        assert!(l.contains("vers="), "{l}");
    }
    // Linux mounts: no Windows checklist.
    assert!(!html.contains("Get-SmbClientConfiguration"));
}

#[tokio::test]
async fn advisor_gives_esxi_steps_for_an_avs_scenario() {
    let app = spawn_app().await;
    let from = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&sample_scenario()).unwrap());
    let res = app.get(&format!("/advisor?from={from}")).await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    let steps = between(
        &html,
        "<pre id=\"esxi\" class=\"config\" aria-labelledby=\"h-esxi\"><code>",
        "</code>",
    );
    assert!(
        steps.contains("NFS datastore") && steps.contains("esxcli storage nfs list"),
        "{steps}"
    );
    let pasted = between(&html, "aria-describedby=\"e-text h-text\">", "</textarea>");
    assert!(
        !pasted.contains("nconnect") && !pasted.contains("mount"),
        "{pasted}"
    );
    assert!(
        !html.contains("Get-SmbClientConfiguration"),
        "no Windows checklist for AVS"
    );
}
