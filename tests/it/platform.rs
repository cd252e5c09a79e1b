//! Platform features over HTTP: the service rules (422 with the field, nothing saved),
//! and what dNFS, Kerberos, SMB security, cool access and breakthrough mode do.

use crate::helpers::{assert_error_body, sample_scenario, spawn_app};
use serde_json::{Value, json};

/// An ANF NFS scenario on one VM (no AVS).
fn nfs() -> Value {
    let mut s = sample_scenario();
    s["clients"]["avs"] = Value::Null;
    s["clients"]["protocol"] = json!("nfsv4.1");
    s
}

/// `s` with each dotted path set to its value.
fn with(mut s: Value, edits: &[(&str, Value)]) -> Value {
    for (path, v) in edits {
        let mut at = &mut s;
        for key in path.split('.') {
            at = &mut at[key];
        }
        *at = v.clone();
    }
    s
}

#[tokio::test]
async fn each_service_rule_is_422_with_its_field_and_saves_nothing() {
    let app = spawn_app().await;
    let files = || {
        with(
            nfs(),
            &[
                ("storage.service", json!("azure_files")),
                ("storage.level", json!("ssd_v1")),
            ],
        )
    };
    let smb = || with(nfs(), &[("clients.protocol", json!("smb3"))]);
    let cases = [
        (
            with(files(), &[("clients.protocol", json!("nfsv3"))]),
            "clients.protocol",
        ),
        (
            with(
                sample_scenario(),
                &[
                    ("storage.service", json!("gcnv")),
                    ("storage.level", json!("premium")),
                ],
            ),
            "clients.avs",
        ),
        (
            with(
                sample_scenario(),
                &[("clients.avs.cluster_hosts", json!(2))],
            ),
            "clients.avs.cluster_hosts",
        ),
        (
            with(sample_scenario(), &[("clients.avs.hosts", json!(17))]),
            "clients.avs.hosts",
        ),
        (
            with(smb(), &[("clients.sec", json!("krb5"))]),
            "clients.sec",
        ),
        (
            with(
                nfs(),
                &[
                    ("clients.protocol", json!("nfsv3")),
                    ("clients.sec", json!("krb5p")),
                ],
            ),
            "clients.sec",
        ),
        (
            with(files(), &[("clients.sec", json!("krb5"))]),
            "clients.sec",
        ),
        (
            with(nfs(), &[("clients.smb_security", json!("signing"))]),
            "clients.smb_security",
        ),
        (
            with(smb(), &[("clients.nfs_client", json!("dnfs"))]),
            "clients.nfs_client",
        ),
        (
            with(
                files(),
                &[(
                    "storage.cool_access",
                    json!({"cool_data_pct": 50, "cool_read_pct": 10}),
                )],
            ),
            "storage.cool_access",
        ),
        (
            with(files(), &[("storage.volume_kind", json!("breakthrough"))]),
            "storage.volume_kind",
        ),
        (
            with(
                nfs(),
                &[(
                    "storage.cool_access",
                    json!({"cool_data_pct": 120, "cool_read_pct": 10}),
                )],
            ),
            "storage.cool_access.cool_data_pct",
        ),
    ];
    for (body, field) in &cases {
        for path in ["/api/v1/evaluate", "/api/v1/scenarios"] {
            let res = app.post_json(path, body).await;
            assert_eq!(res.status(), 422, "{path} {field}: {body}");
            assert_error_body(&res.json().await.unwrap(), Some(field));
        }
    }
    let list: Value = app.get("/api/v1/scenarios").await.json().await.unwrap();
    assert_eq!(list, json!([]));
}

async fn evaluate(app: &crate::helpers::TestApp, s: &Value) -> Value {
    let res = app.post_json("/api/v1/evaluate", s).await;
    assert_eq!(res.status(), 200, "{s}");
    res.json().await.unwrap()
}

fn limit<'a>(e: &'a Value, id: &str) -> Option<&'a Value> {
    e["limits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == id)
}

#[tokio::test]
async fn kerberos_smb_security_cool_access_and_dnfs_show_in_the_evaluation() {
    let app = spawn_app().await;
    let sys = evaluate(&app, &nfs()).await;
    let krb5p = evaluate(&app, &with(nfs(), &[("clients.sec", json!("krb5p"))])).await;
    assert!(krb5p["throughput_mibps"].as_f64() < sys["throughput_mibps"].as_f64());
    assert!(krb5p["latency_ms"].as_f64() > sys["latency_ms"].as_f64());
    let security = limit(&krb5p, "security").expect("a Kerberos limit");
    assert!(
        security["label"].as_str().unwrap().contains("15 %"),
        "{security}"
    );

    let signed = with(
        nfs(),
        &[
            ("clients.protocol", json!("smb3")),
            ("clients.smb_security", json!("signing")),
        ],
    );
    let signed = evaluate(&app, &signed).await;
    let signing = limit(&signed, "smb_signing").expect("an SMB signing limit");
    assert_eq!(signing["mibps"], json!(250.0));

    let target = ("workload.target_mibps", json!(6000));
    let cool = with(
        nfs(),
        &[
            target.clone(),
            (
                "storage.cool_access",
                json!({"cool_data_pct": 60, "cool_read_pct": 100}),
            ),
        ],
    );
    let e = evaluate(&app, &cool).await;
    assert!(limit(&e, "cool_tier").is_some());
    assert_eq!(e["cost"]["cool_tib"], json!(48.0));
    let codes: Vec<&str> = e["advice"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"cool_retrieval"), "{codes:?}");
    let hot = evaluate(&app, &with(nfs(), &[target])).await;
    assert!(e["cost"]["monthly_usd"].as_f64() < hot["cost"]["monthly_usd"].as_f64());

    let dnfs = evaluate(&app, &with(nfs(), &[("clients.nfs_client", json!("dnfs"))])).await;
    assert_eq!(dnfs["flows"]["per_client"], json!(652));
    assert!(dnfs["throughput_mibps"].as_f64() >= sys["throughput_mibps"].as_f64());

    let btm = with(
        nfs(),
        &[
            ("storage.volume_kind", json!("breakthrough")),
            ("storage.volumes", json!([{"count": 1, "quota_tib": 100}])),
        ],
    );
    let e = evaluate(&app, &btm).await;
    let max = limit(&e, "volume_max").unwrap();
    assert!(
        max["label"].as_str().unwrap().starts_with("Breakthrough"),
        "{max}"
    );
}

/// The scenario as stored after saving `s`.
async fn saved(app: &crate::helpers::TestApp, s: &Value) -> Value {
    let id = app.create(s).await;
    let res = app.get(&format!("/api/v1/scenarios/{id}")).await;
    res.json().await.unwrap()
}

#[tokio::test]
async fn the_new_fields_survive_a_save() {
    let app = spawn_app().await;
    let s = with(
        nfs(),
        &[
            ("clients.sec", json!("krb5i")),
            ("clients.nfs_client", json!("dnfs")),
            (
                "storage.cool_access",
                json!({"cool_data_pct": 30, "cool_read_pct": 5}),
            ),
        ],
    );
    let back = saved(&app, &s).await;
    assert_eq!(back["clients"]["sec"], json!("krb5i"));
    assert_eq!(back["clients"]["nfs_client"], json!("dnfs"));
    assert_eq!(back["storage"]["cool_access"]["cool_read_pct"], json!(5.0));
    let avs = with(
        sample_scenario(),
        &[("clients.avs.cluster_hosts", json!(6))],
    );
    let back = saved(&app, &avs).await;
    assert_eq!(back["clients"]["avs"]["cluster_hosts"], json!(6));
}
