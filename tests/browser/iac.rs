//! The plan as code, both ways. Out: a saved manual-QoS scenario's Download menu offers
//! Terraform, Bicep, az and gcloud; the Terraform it links assigns each volume its
//! throughput; the open menu is drawn into the documentation (`docs/code-out.png`).
//! In: that Terraform uploaded on the Check code page answers with the API's
//! statements (`docs/code-in.png`), and the page fits a phone.

use super::widths::{FITS, OVERFLOW};
use super::{Res, free_port, js, save_scenario, wait_for};
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
    std::fs::write(docs.join("code-out.png"), c.screenshot().await?)?;
    Ok(())
}

pub async fn code_in_journey(c: &Client, base: &str) -> Res {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("src/web/scenario_templates/sap-hana.json"))?;
    let mut scenario: serde_json::Value = serde_json::from_str(&text)?;
    scenario["storage"]["qos"] = serde_json::json!("manual");
    scenario["storage"]["volumes"][0]["throughput_mibps"] = serde_json::json!(300);
    let id = save_scenario(base, &scenario).await?;
    let tf = reqwest::get(format!("{base}/api/v1/scenarios/{id}/export/terraform"))
        .await?
        .text()
        .await?;
    let answer: serde_json::Value = reqwest::Client::new()
        .post(format!("{base}/api/v1/iac/evaluate?max_monthly=3000"))
        .header("content-type", "application/octet-stream")
        .body(tf.clone())
        .send()
        .await?
        .json()
        .await?;
    let file = std::env::temp_dir().join(format!("volplan-main-{}.tf", free_port()));
    std::fs::write(&file, &tf)?;
    c.set_window_size(1280, 1400).await?;
    c.goto(&format!("{base}/iac")).await?;
    c.find(Locator::Css("#f-code"))
        .await?
        .send_keys(&file.display().to_string())
        .await?;
    c.find(Locator::Css("#f-max"))
        .await?
        .send_keys("3000")
        .await?;
    // Sent from the keyboard: Enter on the focused button.
    c.find(Locator::Css("#iac-check button[type=submit]"))
        .await?
        .send_keys("\u{E007}")
        .await?;
    let shown = wait_for(c, "!!document.getElementById('iac-verdict')", "the verdict").await;
    let _ = std::fs::remove_file(&file);
    shown?;
    let verdict = js(c, "document.getElementById('iac-verdict').innerText").await?;
    let verdict = verdict.as_str().unwrap_or_default();
    for s in answer["statements"].as_array().into_iter().flatten() {
        let s = s.as_str().unwrap_or_default();
        assert!(verdict.contains(s), "{s} in {verdict}");
    }
    assert!(
        verdict.contains("within the ceiling of $3,000.00/month"),
        "{verdict}"
    );
    let kept = js(c, "document.getElementById('f-text').value").await?;
    assert_eq!(
        kept.as_str(),
        Some(tf.as_str()),
        "the code is kept in the text box"
    );
    std::fs::write(root.join("docs/code-in.png"), c.screenshot().await?)?;
    c.set_window_size(390, 900).await?;
    if wait_for(c, FITS, "no sideways scrolling at 390 px")
        .await
        .is_err()
    {
        return Err(format!(
            "the Check code page scrolls sideways at 390 px: {}",
            js(c, OVERFLOW).await?
        )
        .into());
    }
    Ok(())
}
