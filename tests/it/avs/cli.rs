//! `volplan avs plan` takes every plan choice as a flag: the stretched cluster, the
//! existing private cloud, the per-VM assumptions and the VCF licensing; a wrong one
//! exits 2 naming the field.

use serde_json::Value;
use std::process::Command;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/avs/azure-migrate-import.csv"
);

fn volplan(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_volplan"))
        .args(["avs", "plan", FIXTURE])
        .args(args)
        .output()
        .expect("runs")
}

#[test]
fn every_plan_choice_is_a_flag() {
    let out = volplan(&[
        "--stretched",
        "--existing-hosts",
        "6",
        "--existing-vcf",
        "portable",
        "--read-pct",
        "60",
        "--io-size-kib",
        "32",
        "--outstanding-per-vm",
        "16",
        "--vcf-price-per-core-year",
        "300",
        "--vcf-add-on",
        "vDefend Firewall=60",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let p: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The default host and region: AV36P in East US, priced without VMware licences.
    assert_eq!(
        (p["host_sku"].as_str(), p["region"].as_str()),
        (Some("AV36P"), Some("eastus"))
    );
    assert_eq!(p["tco"]["hosts_priced"], true);
    // Three small VMs need one host per site; the existing 6 (3 per site) leave 5
    // free places on each site's half of a 16-host cluster, so one joins on each.
    let h = &p["tco"]["with_anf"]["hosts"];
    assert_eq!(
        (h["hosts"].as_u64(), h["bought"].as_u64()),
        (Some(8), Some(2))
    );
    assert_eq!(h["stretched"], true);
    // VCF 300 + the add-on 60 per core per year.
    assert_eq!(p["tco"]["licence"]["per_core_year"], 360.0);
    // The existing hosts at the VCF BYOL rate (8.20 x 730 x 6 = 35,916.00) and their
    // 216 cores x 360 / 12 = 6,480.00 of VCF.
    let e = &p["tco"]["existing"];
    assert!((e["hosts_monthly"]["payg"].as_f64().unwrap() - 35_916.0).abs() < 1e-6);
    assert!((e["licence_monthly"]["payg"].as_f64().unwrap() - 6_480.0).abs() < 1e-6);
    let given = |name: &str| {
        p["assumptions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["name"] == name)
            .map(|a| {
                (
                    a["value"].as_f64().unwrap(),
                    a["source"].as_str().unwrap().to_owned(),
                )
            })
    };
    assert_eq!(given("Read share"), Some((60.0, "user".to_owned())));
    assert_eq!(given("IO size"), Some((32.0, "user".to_owned())));
    assert_eq!(
        given("IOs in flight per VM"),
        Some((16.0, "user".to_owned()))
    );
}

#[test]
fn a_wrong_flag_exits_2_naming_the_field() {
    let out = volplan(&["--existing-hosts", "2", "--read-pct", "120"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("existing.hosts"), "{err}");
    assert!(err.contains("read_pct"), "{err}");
    let out = volplan(&["--vcf-add-on", "Firewall"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("NAME=PRICE"));
}
