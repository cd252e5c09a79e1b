//! Infrastructure as code over real HTTP: a saved scenario and a saved estate exported
//! in every format, the code read back and evaluated, and the errors that name what to
//! change; the Check code page ([`page`]) and `volplan iac check` ([`cli`]).

mod cli;
mod page;

use crate::helpers::spawn_app;
use serde_json::{Value, json};

fn template(key: &str) -> Value {
    let text = std::fs::read_to_string(format!("src/web/scenario_templates/{key}.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[tokio::test]
async fn a_saved_scenario_exports_and_its_terraform_evaluates_as_the_scenario() {
    let app = spawn_app().await;
    let mut s = template("sap-hana");
    s["storage"]["qos"] = json!("manual");
    s["storage"]["volumes"][0]["throughput_mibps"] = json!(300);
    let res = app.post_json("/api/v1/scenarios", &s).await;
    assert_eq!(res.status(), 201);
    let id = res.json::<Value>().await.unwrap()["id"].as_i64().unwrap();

    let res = app
        .get(&format!("/api/v1/scenarios/{id}/export/terraform"))
        .await;
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    let tf = res.text().await.unwrap();
    let tf_again = tf.clone();
    assert!(
        tf.contains(&format!("saved scenario {id}, revision 1")),
        "{tf}"
    );
    assert!(tf.contains("throughput_in_mibps = 300"), "{tf}");
    assert!(tf.contains("qos_type = \"Manual\""), "{tf}");
    for f in ["bicep", "azcli"] {
        let res = app.get(&format!("/api/v1/scenarios/{id}/export/{f}")).await;
        assert_eq!(res.status(), 200, "{f}");
    }
    let res = app
        .get(&format!("/api/v1/scenarios/{id}/export/gcloud"))
        .await;
    assert_eq!(res.status(), 422);
    assert!(
        res.text()
            .await
            .unwrap()
            .contains("only Azure NetApp Files")
    );
    assert_eq!(
        app.get(&format!("/api/v1/scenarios/{id}/export/pulumi"))
            .await
            .status(),
        404
    );
    assert_eq!(
        app.get("/api/v1/scenarios/999999/export/terraform")
            .await
            .status(),
        404
    );

    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/iac/evaluate?max_monthly=100",
            Some("application/octet-stream"),
            tf.into_bytes(),
        )
        .await;
    assert_eq!(res.status(), 200);
    let a: Value = res.json().await.unwrap();
    assert_eq!(a["scenarios"].as_array().unwrap().len(), 1);
    let back = &a["scenarios"][0];
    assert_eq!(back["storage"]["level"], "ultra");
    assert_eq!(back["storage"]["qos"], "manual");
    assert_eq!(back["storage"]["volumes"][0]["throughput_mibps"], 300.0);
    assert_eq!(back["workload"]["target_mibps"], 400.0);
    assert_eq!(a["over_budget"], true);
    let statements: Vec<&str> = a["statements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert!(
        statements
            .iter()
            .any(|l| l.contains("over the ceiling of $100.00/month")),
        "{statements:?}"
    );
    assert!(
        statements.iter().any(|l| l.contains("of the pool's")),
        "the unassigned budget is named: {statements:?}"
    );
    assert!(
        !a["evaluations"][0]["verdict"]["statements"]
            .as_array()
            .unwrap()
            .is_empty()
    );

    // Code with its whole configuration is larger than the 1 MiB of other bodies.
    let padded = format!("{}\n{tf_again}", "# padding\n".repeat(300_000));
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/iac/evaluate",
            Some("application/octet-stream"),
            padded.into_bytes(),
        )
        .await;
    assert_eq!(res.status(), 200);
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/iac/evaluate",
            Some("application/octet-stream"),
            vec![b'#'; 9 << 20],
        )
        .await;
    assert_eq!(res.status(), 413);
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/iac/evaluate",
            Some("application/octet-stream"),
            b"resource \"aws_s3_bucket\" \"b\" {}".to_vec(),
        )
        .await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("no NetApp pool found"));
}

#[tokio::test]
async fn a_saved_estate_exports_its_pools_and_reads_back_as_an_estate() {
    let app = spawn_app().await;
    let res = app
        .post_pairs(
            "/estates",
            &[
                ("name", "Landscape"),
                ("region", "eastus"),
                ("years", "1"),
                ("template", "sap-hana"),
                ("template", "oracle-dnfs"),
                ("template", "gcnv-nconnect-16"),
            ],
        )
        .await;
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let id = location.rsplit('/').next().unwrap();
    let tf = app
        .get_text(&format!("/api/v1/estates/{id}/export/terraform"))
        .await;
    assert!(
        tf.contains("azurerm_netapp_pool") && tf.contains("google_netapp_storage_pool"),
        "{tf}"
    );
    assert!(tf.contains(&format!("saved estate {id}, revision 1")));
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/iac/evaluate",
            Some("application/octet-stream"),
            tf.into_bytes(),
        )
        .await;
    assert_eq!(res.status(), 200);
    let a: Value = res.json().await.unwrap();
    assert!(a["scenarios"].as_array().unwrap().len() >= 2);
    assert!(a["estate"]["workloads"].is_array());
    assert_eq!(
        app.get("/api/v1/estates/999999/export/terraform")
            .await
            .status(),
        404
    );
}

#[tokio::test]
async fn an_avs_plan_exports_its_datastores_attached_to_their_cluster() {
    use crate::avs::{Dialect, rvtools};
    let app = spawn_app().await;
    let bytes = rvtools(Dialect::Mib);
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/avs/inventory",
            Some("application/octet-stream"),
            bytes.clone(),
        )
        .await;
    let inv: Value = res.json().await.unwrap();
    let body =
        json!({"inventory": inv, "region": "westus2", "level": "ultra", "host_sku": "AV36P"});
    let res = app
        .post_json("/api/v1/avs/plan/export/terraform", &body)
        .await;
    assert_eq!(res.status(), 200);
    let tf = res.text().await.unwrap();
    assert!(
        tf.contains("azurerm_vmware_netapp_volume_attachment"),
        "{tf}"
    );
    assert!(
        tf.contains("azure_vmware_data_store_enabled = true"),
        "{tf}"
    );
    assert!(tf.contains("var.vmware_cluster_ids[0]"), "{tf}");
    let res = app.post_json("/api/v1/avs/plan/export/azcli", &body).await;
    assert_eq!(res.status(), 200);
    assert!(
        res.text()
            .await
            .unwrap()
            .contains("az vmware datastore netapp-volume create")
    );
    assert_eq!(
        app.post_json("/api/v1/avs/plan/export/gcloud", &body)
            .await
            .status(),
        422
    );

    // The AVS page offers the same code for the plan in its address.
    let path = crate::avs::outputs::upload(&app, "rvtools.xlsx", &bytes, false).await;
    let page = app
        .get_text(&format!("{path}?region=westus2&level=ultra"))
        .await;
    assert!(
        page.contains("/export/terraform?"),
        "the page links the code"
    );
    let res = app
        .get(&format!(
            "{path}/export/terraform?region=westus2&level=ultra&host_sku=AV36P"
        ))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.text()
            .await
            .unwrap()
            .replace("the AVS plan of inventory rvtools.xlsx", "an AVS plan"),
        tf
    );
    assert_eq!(
        app.get(&format!("{path}/export/pulumi?region=westus2&level=ultra"))
            .await
            .status(),
        404
    );
}
