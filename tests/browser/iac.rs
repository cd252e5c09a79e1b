//! The plan as code from the planner: a saved manual-QoS scenario's Download menu offers
//! Terraform, Bicep, az and gcloud; the Terraform it links assigns each volume its
//! throughput; the open menu is drawn into the documentation (`docs/iac.png`).

use super::{Res, js, save_scenario, wait_for};
use fantoccini::{Client, Locator};
use std::path::Path;

pub async fn iac_journey(c: &Client, base: &str) -> Res {
    let scenario = serde_json::json!({
        "name": "SAP data volumes",
        "workload": { "io_size_kib": 64, "read_pct": 70, "access": "random",
                      "threads": 8, "queue_depth": 16, "capacity_tib": 16,
                      "target_mibps": 1200 },
        "storage": { "service": "anf", "level": "premium", "qos": "manual",
                     "volumes": [ { "count": 2, "quota_tib": 8, "throughput_mibps": 600 } ] },
        "clients": { "count": 4, "vm_size": "Standard_E32s_v5", "protocol": "nfsv3", "nconnect": 4 }
    });
    let id = save_scenario(base, &scenario).await?;
    c.set_window_size(1280, 1040).await?;
    c.goto(&format!("{base}/scenarios/{id}")).await?;
    c.wait().for_element(Locator::Css("#verdict")).await?;
    c.find(Locator::XPath(
        "//details[contains(@class,'menu')]/summary[normalize-space()='Download']",
    ))
    .await?
    .click()
    .await?;
    wait_for(
        c,
        "!!document.querySelector('a[href$=\"/export/terraform\"]') && document.querySelector('a[href$=\"/export/terraform\"]').offsetParent !== null",
        "the code entries of the Download menu",
    )
    .await?;
    for format in ["terraform", "bicep", "azcli", "gcloud"] {
        let found = js(
            c,
            &format!(
                "!!document.querySelector('a[href=\"/api/v1/scenarios/{id}/export/{format}\"]')"
            ),
        )
        .await?;
        assert_eq!(found, serde_json::json!(true), "{format} offered");
    }
    let tf = reqwest::get(format!("{base}/api/v1/scenarios/{id}/export/terraform"))
        .await?
        .text()
        .await?;
    assert!(tf.contains("resource \"azurerm_netapp_volume\""), "{tf}");
    assert_eq!(tf.matches("throughput_in_mibps = 600").count(), 2, "{tf}");
    assert!(tf.contains("qos_type = \"Manual\""), "{tf}");
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    std::fs::write(docs.join("iac.png"), c.screenshot().await?)?;
    Ok(())
}
