//! The checks catch what the providers reject: each case breaks one definition.

use super::{check_bicep, check_commands, check_terraform};
use crate::iac::bicep::REF;
use crate::iac::commands::{Arg, Command};
use serde_json::json;

const HEAD: &str = r#"
provider "azurerm" {
  features {}
}
variable "rg" {
  type = string
}
variable "clients" {
  type = list(string)
}
data "azurerm_subnet" "s" {
  name = "s"
  virtual_network_name = "v"
  resource_group_name = var.rg
}
"#;

fn volume(extra: &str) -> String {
    format!(
        r#"{HEAD}
resource "azurerm_netapp_volume" "v" {{
  name = "data-1"
  location = "westeurope"
  resource_group_name = var.rg
  account_name = "acct"
  pool_name = "pool-1"
  volume_path = "data-1"
  service_level = "Premium"
  subnet_id = data.azurerm_subnet.s.id
  storage_quota_in_gb = 1024
{extra}
}}
"#
    )
}

/// The one problem `extra` causes in an otherwise valid volume, which must name `says`.
fn one(extra: &str, says: &str) {
    let found = check_terraform(&volume(extra));
    assert!(
        found.len() == 1 && found[0].contains(says),
        "{extra}: expected one problem naming {says:?}, got {found:?}"
    );
}

#[test]
fn a_valid_volume_passes_and_each_broken_definition_is_named() {
    let ok = "  protocols = [\"NFSv4.1\"]\n  throughput_in_mibps = 12.5\n  export_policy_rule {\n    rule_index = 1\n    allowed_clients = var.clients\n    protocol = [\"NFSv4.1\"]\n    unix_read_write = true\n  }";
    assert_eq!(check_terraform(&volume(ok)), Vec::<String>::new());
    one(
        "  storage_quota_in_gb2 = 5",
        "unknown argument storage_quota_in_gb2",
    );
    one("  protocols = \"NFSv3\"", "expects set");
    one("  protocols = [\"NFSv5\"]", "is not one of");
    one("  large_volume_enabled = \"yes\"", "expects bool");
    one("  throughput_in_mibps = 0.5", "outside");
    one(
        "  network_features = var.clients",
        "expression of type list",
    );
    one(
        "  export_policy_rule {\n    rule_index = 1\n    allowed_clients = var.clients\n    protocols_enabled = [\"NFSv3\"]\n  }",
        "unknown argument protocols_enabled",
    );
    one(
        "  export_policy_rule {\n    rule_index = 1\n  }",
        "required argument allowed_clients missing",
    );
    one(
        "  export_policy_rule {\n    rule_index = 9\n    allowed_clients = var.clients\n  }",
        "rule_index: 9 is outside 1..5",
    );
    one(
        "  data_protection_snapshot_policy {\n    snapshot_policy_id = \"x\"\n  }\n  data_protection_snapshot_policy {\n    snapshot_policy_id = \"y\"\n  }",
        "2 data_protection_snapshot_policy blocks",
    );
    one("  snapshot_policy {\n  }", "unknown block snapshot_policy");
    one(
        "  timeouts {\n    create = \"1h\"\n  }",
        "arguments are not in provider_schemas.json",
    );
    // Above 100 TiB only as a large volume; a large volume from 50 TiB.
    let big = volume("").replace("= 1024", "= 103424");
    assert!(
        check_terraform(&big).iter().any(|p| p.contains("102400")),
        "{:?}",
        check_terraform(&big)
    );
    let small_large = volume("  large_volume_enabled = true");
    assert!(
        check_terraform(&small_large)
            .iter()
            .any(|p| p.contains("51200"))
    );
    let bad_name = volume("").replace("name = \"data-1\"", "name = \"1data\"");
    assert!(
        check_terraform(&bad_name)
            .iter()
            .any(|p| p.contains("does not match"))
    );
    let missing = volume("").replace("  volume_path = \"data-1\"\n", "");
    assert!(
        check_terraform(&missing)
            .iter()
            .any(|p| p.contains("required argument volume_path missing"))
    );
    assert!(
        check_terraform("resource \"x\" {")
            .iter()
            .any(|p| p.contains("does not parse"))
    );
    let no_provider = volume("").replace("provider \"azurerm\" {\n  features {}\n}", "");
    assert!(
        check_terraform(&no_provider)
            .iter()
            .any(|p| p.contains("provider block is required"))
    );
    let no_features = volume("").replace("  features {}\n", "");
    assert!(
        check_terraform(&no_features)
            .iter()
            .any(|p| p.contains("0 features blocks"))
    );
}

#[test]
fn pools_follow_the_providers_rules_on_flexible_throughput_and_google_enums() {
    let pool = |extra: &str| {
        format!(
            "provider \"azurerm\" {{\n  features {{}}\n}}\nresource \"azurerm_netapp_pool\" \"p\" {{\n  name = \"pool-1\"\n  location = \"westeurope\"\n  resource_group_name = \"rg\"\n  account_name = \"acct\"\n  service_level = \"Flexible\"\n  size_in_tb = 4\n{extra}\n}}\n"
        )
    };
    let ok = check_terraform(&pool(
        "  qos_type = \"Manual\"\n  custom_throughput_mibps = 400",
    ));
    assert_eq!(ok, Vec::<String>::new());
    let fractional = check_terraform(&pool(
        "  qos_type = \"Manual\"\n  custom_throughput_mibps = 400.5",
    ));
    assert!(
        fractional.iter().any(|p| p.contains("expects integer")),
        "{fractional:?}"
    );
    let auto = check_terraform(&pool("  custom_throughput_mibps = 400"));
    assert!(
        auto.iter().any(|p| p.contains("qos_type is required when")),
        "{auto:?}"
    );
    let google = "resource \"google_netapp_storage_pool\" \"p\" {\n  name = \"p\"\n  location = \"us-east4\"\n  network = \"n\"\n  service_level = \"Premium\"\n  capacity_gib = \"2 TiB\"\n}\n";
    let found = check_terraform(google);
    assert!(
        found
            .iter()
            .any(|p| p.contains("\"Premium\" is not one of")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|p| p.contains("capacity_gib: expects string")),
        "{found:?}"
    );
}

#[test]
fn module_parameters_and_command_options_are_checked_by_type_values_and_range() {
    let params = json!({
        "name": "acct",
        "location": format!("{REF}location"),
        "tags": format!("{REF}subnet"),
        "capacityPools": [{
            "name": "p", "size": 4096, "serviceLevel": "Flexible", "qosType": "Manual",
            "volumes": [{"name": "v", "availabilityZone": 4, "usageThreshold": 1.5,
                         "subnetResourceId": "s", "protocolTypes": ["NFSv4"], "throughput": 5,
                         "exportPolicy": {"rules": [{"ruleIndex": 1, "nfsv3": "yes"}]}},
                        {"name": "w", "availabilityZone": 1, "usageThreshold": 1_099_511_627_776_u64,
                         "subnetResourceId": "s", "protocolTypes": format!("{REF}location")}]
        }]
    });
    let found = check_bicep(&params, "param location string\n");
    for says in [
        "size: 4096 is outside",
        "serviceLevel: \"Flexible\" is not one of",
        "availabilityZone: 4 is not one of",
        "usageThreshold: expects integer",
        "protocolTypes[0]: \"NFSv4\" is not one of",
        "unknown argument throughput",
        "exportPolicy.rules[0]: required argument nfsv41 missing",
        "exportPolicy.rules[0].nfsv3: expects bool",
        "parameter subnet is used but not declared",
        "volumes[1].protocolTypes: expects list, given an expression of type string",
    ] {
        assert!(found.iter().any(|p| p.contains(says)), "{says}: {found:?}");
    }
    let text = |s: &str| Some(Arg::Text(s.to_owned()));
    let volume = Command {
        words: "az netappfiles volume create"
            .split(' ')
            .map(str::to_owned)
            .collect(),
        options: vec![
            (
                "--resource-group".to_owned(),
                Some(Arg::Shell("\"$RG\"".to_owned())),
            ),
            ("--location".to_owned(), text("westeurope")),
            ("--account-name".to_owned(), text("acct")),
            ("--pool-name".to_owned(), text("pool-1")),
            ("--volume-name".to_owned(), text("v1")),
            ("--file-path".to_owned(), text("v1")),
            ("--subnet".to_owned(), text("s")),
            ("--usage-threshold".to_owned(), text("20")),
            ("--protocol-types".to_owned(), text("NFSv4.1")),
            ("--is-large-volume".to_owned(), None),
        ],
    };
    let found = check_commands(&[volume]);
    for says in [
        "usage-threshold: \"20\" is outside",
        "--allowed-clients is required",
        "--is-large-volume: needs a value",
    ] {
        assert!(found.iter().any(|p| p.contains(says)), "{says}: {found:?}");
    }
}
