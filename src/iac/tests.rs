//! Every starter template, an estate of them and an AVS plan written in every format,
//! checked against the published argument lists, and read back to the same pools.

use super::layout::{Layout, of_avs, of_estate, of_scenario};
use super::{Format, bicep, commands, export, read, scenarios, schema};
use crate::engine::plan::Plan;
use crate::engine::pricing::book;
use crate::engine::same;
use crate::engine::scenario::{Scenario, Service};
use crate::engine::service::anf;
use crate::estate::{self, EstateRequest};
use crate::web::scenario_templates::TEMPLATES;

fn layouts() -> Vec<Layout> {
    let mut out: Vec<Layout> = TEMPLATES
        .iter()
        .map(|t| of_scenario(&t.scenario(), "saved scenario 1, revision 1", book()).unwrap())
        .collect();
    let req = EstateRequest::new(TEMPLATES.iter().map(|t| t.scenario()).collect());
    let plan = estate::optimize(&req, book()).unwrap();
    out.push(of_estate(&plan, &req, "estate 1, revision 1", book()).unwrap());
    out.push(of_avs(&avs_plan(), "AVS plan", "an AVS plan", book()).unwrap());
    out
}

/// 120 VMs of 2 TiB and 20 MiB/s each in West US 2 on ANF datastores.
fn avs_plan() -> crate::avs::AvsPlan {
    use crate::inventory::{Inventory, PowerState, Summary, Vm};
    let vms = (0..120)
        .map(|i| Vm {
            vm: format!("vm{i:03}"),
            powerstate: PowerState::PoweredOn,
            cluster: None,
            host: None,
            datastore: None,
            vcpus: 4,
            memory_mib: 16_384.0,
            provisioned_mib: 3.0 * 1_048_576.0,
            in_use_mib: 2.0 * 1_048_576.0,
            guest_used_mib: None,
            disks: vec![],
            iops: Some(500.0),
            mibps: Some(20.0),
            flags: vec![],
        })
        .collect();
    let mut inv = Inventory {
        vms,
        excluded: vec![],
        summary: Summary::default(),
    };
    inv.total();
    let mut req = crate::avs::PlanRequest::new(inv);
    req.region = Some("westus2".to_owned());
    crate::avs::plan(&req, book()).unwrap()
}

#[test]
fn an_estate_and_an_avs_plan_read_back_with_their_pools_and_volumes() {
    for l in layouts().into_iter().rev().take(2) {
        let text = export(&l, Format::Terraform).unwrap();
        let back = read::read(&text).unwrap();
        let count = |l: &Layout| {
            l.pools
                .iter()
                .map(|p| (p.name.clone(), p.level, p.volumes.len()))
                .collect::<Vec<_>>()
        };
        assert_eq!(count(&back), count(&l), "{}", l.name);
        for (a, b) in l
            .pools
            .iter()
            .flat_map(|p| &p.volumes)
            .zip(back.pools.iter().flat_map(|p| &p.volumes))
        {
            assert_eq!(a.name, b.name);
            assert!(same::same(a.quota_tib, b.quota_tib) && a.mibps.is_some() == b.mibps.is_some());
        }
        let avs = l.avs_clusters() > 0;
        assert_eq!(
            text.contains("azurerm_vmware_netapp_volume_attachment"),
            avs,
            "{}",
            l.name
        );
    }
}

#[test]
fn every_template_estate_and_avs_plan_writes_terraform_the_providers_accept() {
    for l in layouts() {
        if l.pools.is_empty() {
            let e = export(&l, Format::Terraform).unwrap_err();
            assert!(e.0.contains("Azure Files"), "{e}");
            continue;
        }
        let text = export(&l, Format::Terraform).unwrap();
        assert_eq!(
            schema::check_terraform(&text),
            Vec::<String>::new(),
            "{}:\n{text}",
            l.name
        );
        assert!(text.contains(&l.source), "{} cites its plan", l.name);
    }
}

#[test]
fn bicep_and_commands_use_only_the_published_parameters() {
    let mut wrote = [0; 3];
    for l in layouts() {
        if let Ok(p) = bicep::params(&l) {
            let text = export(&l, Format::Bicep).unwrap();
            assert_eq!(
                schema::check_bicep(&p, &text),
                Vec::<String>::new(),
                "{}",
                l.name
            );
            wrote[0] += 1;
        }
        if let Ok(c) = commands::az_commands(&l) {
            assert_eq!(
                schema::check_commands(&c),
                Vec::<String>::new(),
                "{}",
                l.name
            );
            let script = export(&l, Format::Azcli).unwrap();
            assert!(
                shlex::split(&script.replace("\\\n", " ")).is_some(),
                "{script}"
            );
            wrote[1] += 1;
        }
        if let Ok(c) = commands::gcloud_commands(&l) {
            assert_eq!(
                schema::check_commands(&c),
                Vec::<String>::new(),
                "{}",
                l.name
            );
            export(&l, Format::Gcloud).unwrap();
            wrote[2] += 1;
        }
    }
    assert!(
        wrote.iter().all(|&n| n >= 2),
        "each format written for several plans: {wrote:?}"
    );
}

/// Each volume's throughput as the engine sees it.
fn per_volume(s: &Scenario) -> Vec<(f64, f64)> {
    let plan = Plan::resolve(s).unwrap();
    plan.volumes
        .iter()
        .flat_map(|g| {
            let m = match s.storage.service {
                Service::Anf => anf::volume_qos_mibps(&plan, g),
                _ => g.mibps.unwrap_or(0.0),
            };
            std::iter::repeat_n((g.quota_tib, m), g.count as usize)
        })
        .collect()
}

#[test]
fn a_template_exported_and_read_back_is_the_same_scenario() {
    for t in TEMPLATES {
        let s = t.scenario();
        if s.storage.service == Service::AzureFiles {
            continue;
        }
        let l = of_scenario(&s, "saved scenario 1, revision 1", book()).unwrap();
        let text = export(&l, Format::Terraform).unwrap();
        let back = scenarios::scenarios(&read::read(&text).unwrap());
        assert_eq!(back.len(), 1, "{}", t.key);
        let b = &back[0];
        assert_eq!(
            (b.storage.service, b.storage.level, b.storage.volume_kind),
            (s.storage.service, s.storage.level, s.storage.volume_kind),
            "{}",
            t.key
        );
        assert_eq!(b.storage.qos, l.pools[0].qos, "{}", t.key);
        assert_eq!(
            Plan::resolve(b).unwrap().pool_tib,
            Plan::resolve(&s).unwrap().pool_tib,
            "{}",
            t.key
        );
        let (x, y) = (per_volume(&s), per_volume(b));
        assert_eq!(x.len(), y.len(), "{}", t.key);
        for ((qa, ma), (qb, mb)) in x.iter().zip(&y) {
            assert!(
                (qa - qb).abs() / qa < 0.001,
                "{}: quota {qa} read back as {qb}",
                t.key
            );
            assert!(
                same::same(*ma, *mb),
                "{}: {ma} MiB/s read back as {mb}",
                t.key
            );
        }
        assert_eq!(
            b.workload,
            {
                let mut w = s.workload.clone();
                w.files = b.workload.files;
                w.metadata_heavy = b.workload.metadata_heavy;
                w.cached_read_pct = b.workload.cached_read_pct;
                w.confidence = b.workload.confidence;
                w
            },
            "{}: the workload travels in the tag",
            t.key
        );
    }
}

/// A volume group read back: count, quota TiB, MiB/s.
type Group = (u32, f64, Option<f64>);

/// The scenarios `text` reads back to, as (level, qos, pool TiB, groups).
fn pools(text: &str) -> Vec<(String, String, f64, Vec<Group>)> {
    scenarios::scenarios(&read::read(text).unwrap())
        .iter()
        .map(|s| {
            (
                s.storage.level.key().to_owned(),
                format!("{:?}", s.storage.qos),
                s.storage.pool_tib.unwrap(),
                s.storage
                    .volumes
                    .iter()
                    .map(|g| (g.count, g.quota_tib, g.throughput_mibps))
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn terraform_show_json_and_arm_deployments_read_as_the_same_pools() {
    // A manual-QoS Ultra pool of 10 TiB: two 4 TiB volumes at 500 and 300 MiB/s.
    let hcl = r#"
resource "azurerm_netapp_pool" "p" {
  name = "db-pool"
  location = "westeurope"
  resource_group_name = "rg"
  account_name = "acct"
  service_level = "Ultra"
  size_in_tb = 10
  qos_type = "Manual"
}
resource "azurerm_netapp_volume" "data" {
  name = "data"
  pool_name = azurerm_netapp_pool.p.name
  storage_quota_in_gb = 4096
  throughput_in_mibps = 500
  protocols = ["NFSv4.1"]
}
resource "azurerm_netapp_volume" "log" {
  name = "log"
  pool_name = "db-pool"
  storage_quota_in_gb = 4096
  throughput_in_mibps = 300
}
"#;
    let want = vec![(
        "ultra".to_owned(),
        "Manual".to_owned(),
        10.0,
        vec![(1, 4.0, Some(500.0)), (1, 4.0, Some(300.0))],
    )];
    assert_eq!(pools(hcl), want);
    let show = serde_json::json!({
        "format_version": "1.2",
        "planned_values": {"root_module": {"child_modules": [{"resources": [
            {"type": "azurerm_netapp_pool", "name": "p", "values": {"name": "db-pool", "service_level": "Ultra", "size_in_tb": 10, "qos_type": "Manual", "location": "westeurope"}},
            {"type": "azurerm_netapp_volume", "name": "data", "values": {"name": "data", "pool_name": "db-pool", "storage_quota_in_gb": 4096, "throughput_in_mibps": 500, "protocols": ["NFSv4.1"]}},
            {"type": "azurerm_netapp_volume", "name": "log", "values": {"name": "log", "pool_name": "db-pool", "storage_quota_in_gb": 4096, "throughput_in_mibps": 300}}
        ]}]}}
    });
    assert_eq!(pools(&show.to_string()), want);
    let tib = 1u64 << 40;
    let arm = serde_json::json!({
        "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
        "resources": [
            {"type": "Microsoft.NetApp/netAppAccounts/capacityPools", "name": "acct/db-pool", "location": "westeurope",
             "properties": {"serviceLevel": "Ultra", "size": 10 * tib, "qosType": "Manual"}},
            {"type": "Microsoft.NetApp/netAppAccounts/capacityPools/volumes", "name": "acct/db-pool/data",
             "properties": {"usageThreshold": 4 * tib, "throughputMibps": 500, "protocolTypes": ["NFSv4.1"]}},
            {"type": "Microsoft.NetApp/netAppAccounts/capacityPools/volumes", "name": "acct/db-pool/log",
             "properties": {"usageThreshold": 4 * tib, "throughputMibps": 300}}
        ]
    });
    assert_eq!(pools(&arm.to_string()), want);
}

#[test]
fn bicep_parameters_in_a_compiled_deployment_read_back_as_the_plan() {
    for t in TEMPLATES {
        let s = t.scenario();
        let l = of_scenario(&s, "saved scenario 1, revision 1", book()).unwrap();
        let Ok(params) = bicep::params(&l) else {
            continue;
        };
        // What `az bicep build` puts in the module's nested deployment.
        let arm = serde_json::json!({"resources": [{
            "type": "Microsoft.Resources/deployments", "name": "netAppAccount",
            "properties": {"parameters": {"capacityPools": {"value": params["capacityPools"]}}}
        }]});
        let from_bicep = pools(&arm.to_string());
        let from_terraform = pools(&export(&l, Format::Terraform).unwrap());
        assert_eq!(from_bicep.len(), 1, "{}", t.key);
        let (a, b) = (&from_bicep[0], &from_terraform[0]);
        assert_eq!((&a.0, &a.1, a.2), (&b.0, &b.1, b.2), "{}", t.key);
        for (x, y) in a.3.iter().zip(&b.3) {
            assert_eq!((x.0, x.1), (y.0, y.1), "{}", t.key);
            // Bicep takes whole MiB/s.
            assert_eq!(x.2.is_some(), y.2.is_some());
            assert!(
                x.2.zip(y.2).is_none_or(|(p, q)| (p - q).abs() < 1.0),
                "{}",
                t.key
            );
        }
    }
}

#[test]
fn code_that_is_not_netapp_code_says_what_to_send() {
    let deep = format!("a = {}{}", "[".repeat(5000), "]".repeat(5000));
    for (text, says) in [
        ("resource \"x\" {\n  a = \n}\n", "line 2"),
        (deep.as_str(), "nesting depth"),
        ("{\"resources\": []}", "no NetApp pool found"),
        ("{\"format_version\": \"1.2\"}", "no NetApp pool found"),
        ("{not json", "does not parse"),
    ] {
        let e = read::read(text).unwrap_err();
        assert!(e.0.contains(says) && e.0.len() < 500, "{e}");
    }
    let many: String = (0..201)
        .map(|i| format!("resource \"google_netapp_storage_pool\" \"p{i}\" {{\n name = \"p{i}\"\n service_level = \"PREMIUM\"\n capacity_gib = 2048\n}}\nresource \"google_netapp_volume\" \"v{i}\" {{\n name = \"v{i}\"\n storage_pool = google_netapp_storage_pool.p{i}.name\n capacity_gib = 1024\n}}\n"))
        .collect();
    match super::evaluate::check(&many, book(), None) {
        Err(super::evaluate::Refused::Unreadable(m)) => assert!(m.contains("at most 200"), "{m}"),
        other => panic!("201 pools: {:?}", other.map(|a| a.scenarios.len())),
    }
}

#[test]
fn the_growth_against_a_baseline_is_stated_and_judged() {
    let t = TEMPLATES.iter().find(|t| t.key == "sap-hana").unwrap();
    let code = export(
        &of_scenario(&t.scenario(), "a test", book()).unwrap(),
        Format::Terraform,
    )
    .unwrap();
    let answer = || super::evaluate::check(&code, book(), None).unwrap();
    let monthly = answer().monthly.unwrap();
    // 25 % over a baseline, against 20 % and 30 % allowed.
    let baseline = Some(monthly / 1.25);
    for (allowed, over) in [(Some(20.0), true), (Some(30.0), false), (None, false)] {
        let mut a = answer();
        a.grown(baseline, allowed);
        let g = a.growth.as_ref().unwrap();
        assert!((g.increase_pct.unwrap() - 25.0).abs() < 1e-9);
        assert_eq!(g.over, over, "{allowed:?}");
        assert_eq!(a.statements.last(), Some(&g.statement));
        assert!(g.statement.contains("(+25%)"), "{}", g.statement);
    }
    // A baseline without a price: stated, never over.
    let mut a = answer();
    a.grown(None, Some(0.0));
    let g = a.growth.unwrap();
    assert!(!g.over && g.increase_pct.is_none());
    assert!(
        g.statement.contains("cannot be compared"),
        "{}",
        g.statement
    );
    // From nothing to something: an unlimited increase, over any allowed one.
    assert!(crate::verdict::iac::increase_pct(10.0, 0.0).is_infinite());
    assert_eq!(crate::verdict::iac::increase_pct(0.0, 0.0), 0.0);
}

/// The interpreter with python-hcl2 (`VOLPLAN_PYTHON`, else `python3`); `None` when it
/// cannot import it, unless `VOLPLAN_REQUIRE_HCL2` is set (then the test fails).
fn python_with_hcl2() -> Option<String> {
    let python = std::env::var("VOLPLAN_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let imports = std::process::Command::new(&python)
        .args(["-c", "import hcl2"])
        .output()
        .is_ok_and(|o| o.status.success());
    if imports {
        return Some(python);
    }
    assert!(
        std::env::var_os("VOLPLAN_REQUIRE_HCL2").is_none(),
        "VOLPLAN_REQUIRE_HCL2 is set but {python} cannot import hcl2 (pip install python-hcl2==8.1.4; VOLPLAN_PYTHON names the interpreter)"
    );
    eprintln!("python-hcl2 is not installed: skipping the independent parse (.ci/run installs it)");
    None
}

#[test]
fn an_independent_hcl_parser_reads_every_terraform_file_as_the_providers_define_it() {
    let Some(python) = python_with_hcl2() else {
        return;
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (i, l) in layouts()
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.pools.is_empty())
    {
        let path = dir.path().join(format!("{i}.tf"));
        std::fs::write(&path, export(l, Format::Terraform).unwrap()).unwrap();
        files.push(path);
    }
    let run = |files: &[std::path::PathBuf]| {
        let out = std::process::Command::new(&python)
            .arg(root.join("tools/check_terraform.py"))
            .arg(root.join("src/iac/schema/provider_schemas.json"))
            .args(files)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.code(), text)
    };
    let (code, text) = run(&files);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains(&format!("{} files", files.len())), "{text}");
    // A file that breaks a definition fails both checks: azurerm 4 names the export
    // rule's protocols `protocol`, and a Flexible pool's throughput is whole MiB/s.
    let estate = std::fs::read_to_string(&files[files.len() - 2]).unwrap();
    let broken: String = estate
        .replacen("protocol = [", "protocols_enabled = [", 1)
        .lines()
        .map(
            |l| match l.trim().strip_prefix("custom_throughput_mibps = ") {
                Some(_) => "  custom_throughput_mibps = 400.5\n".to_owned(),
                None => format!("{l}\n"),
            },
        )
        .collect();
    let bad = dir.path().join("broken.tf");
    std::fs::write(&bad, &broken).unwrap();
    let (code, text) = run(&[bad]);
    assert_eq!(code, Some(1), "{text}");
    let rust = schema::check_terraform(&broken);
    for says in [
        "unknown argument protocols_enabled",
        "expects integer, given 400.5",
    ] {
        assert!(text.contains(says), "{says}: {text}");
        assert!(rust.iter().any(|p| p.contains(says)), "{says}: {rust:?}");
    }
}

#[test]
fn count_and_for_each_read_as_their_instances() {
    let code = r#"
variable "quota_gb" {
  type    = number
  default = 4096
}
locals {
  logs = { log1 = 1024, log2 = 2048 }
}
resource "azurerm_netapp_pool" "p" {
  name                = "pool1"
  location            = "eastus"
  resource_group_name = "rg"
  account_name        = "acct"
  service_level       = "Premium"
  size_in_tb          = 16
  qos_type            = "Manual"
}
resource "azurerm_netapp_volume" "data" {
  count               = 3
  name                = "data${count.index}"
  pool_name           = azurerm_netapp_pool.p.name
  storage_quota_in_gb = var.quota_gb
  throughput_in_mibps = 64
}
resource "azurerm_netapp_volume" "log" {
  for_each            = local.logs
  name                = "${each.key}-vol"
  pool_name           = azurerm_netapp_pool.p.name
  storage_quota_in_gb = each.value
  throughput_in_mibps = 32
}
resource "azurerm_netapp_volume" "scratch" {
  for_each            = toset(["s1"])
  name                = each.key
  pool_name           = azurerm_netapp_pool.p.name
  storage_quota_in_gb = 1024
  throughput_in_mibps = 16
}
"#;
    let layout = read::read(code).unwrap();
    let volumes: Vec<(String, f64, Option<f64>)> = layout.pools[0]
        .volumes
        .iter()
        .map(|v| (v.name.clone(), v.quota_tib, v.mibps))
        .collect();
    let want = [
        ("data0", 4.0, 64.0),
        ("data1", 4.0, 64.0),
        ("data2", 4.0, 64.0),
        ("log1-vol", 1.0, 32.0),
        ("log2-vol", 2.0, 32.0),
        ("s1", 1.0, 16.0),
    ];
    assert_eq!(volumes.len(), want.len(), "{volumes:?}");
    for (got, (name, tib, mibps)) in volumes.iter().zip(want) {
        assert_eq!((got.0.as_str(), got.1, got.2), (name, tib, Some(mibps)));
    }
}

#[test]
fn a_count_past_the_bounds_is_read_no_further() {
    let block = |i: usize| {
        format!(
            "resource \"azurerm_netapp_volume\" \"v{i}\" {{\n  count = 1000000000\n  name = \"v\"\n  pool_name = azurerm_netapp_pool.p.name\n  storage_quota_in_gb = 100\n}}\n"
        )
    };
    let pool = "resource \"azurerm_netapp_pool\" \"p\" {\n  name = \"p\"\n  service_level = \"Premium\"\n  size_in_tb = 4\n}\n";
    // One block: its first 1,024 instances.
    let one = read::read(&format!("{pool}{}", block(0))).unwrap();
    assert_eq!(one.pools[0].volumes.len(), 1024);
    // Many: refused with what to do, before the instances pile up.
    let many: String = (0..30).map(block).collect();
    let e = read::read(&format!("{pool}{many}")).unwrap_err();
    assert!(e.0.contains("more than 20,000 resources"), "{}", e.0);
}
