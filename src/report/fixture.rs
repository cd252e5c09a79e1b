//! Example scenarios, plans and estates for the unit tests of the report writers: the
//! contract's example scenario with its evaluation, an AVS plan and an estate. The tests
//! assert structure and wording, not the engine's figures.

use crate::avs::{AvsPlan, PlaceUnit, PlanRequest, plan};
use crate::engine::pricing::book;
use crate::engine::{Evaluation, Scenario, evaluate};
use crate::estate::{EstatePlan, EstateRequest, optimize};
use crate::inventory::{Disk, Flag, Inventory, PowerState, Summary, Vm};

pub const SCENARIO: &str = r#"{
  "name": "AVS 4 x 20 TiB Ultra",
  "workload": { "io_size_kib": 64, "read_pct": 100, "access": "sequential", "threads": 8,
    "queue_depth": 16, "files": "many", "metadata_heavy": false, "capacity_tib": 80,
    "target_mibps": 8000, "target_iops": null },
  "storage": { "service": "anf", "level": "ultra", "qos": "auto", "volume_kind": "regular",
    "volumes": [ { "count": 4, "quota_tib": 20, "throughput_mibps": null } ], "pool_tib": null },
  "clients": { "count": 1, "vm_size": "Standard_E32s_v5", "egress_mibps": null,
    "ingress_mibps": null, "protocol": "nfsv3", "nconnect": 1, "smb_multichannel": false,
    "smb_channels": 4, "avs": { "hosts": 4, "host_sku": "AV36", "vms_per_host": 1,
    "vmdks_per_vm": 1, "placement": "dedicated" } }
}"#;

/// The scenario and the engine's evaluation of it.
pub fn example() -> (Scenario, Evaluation) {
    let s: Scenario = serde_json::from_str(SCENARIO).expect("fixture scenario");
    let e = evaluate(&s).expect("the fixture scenario evaluates");
    (s, e)
}

/// A VM of `tib` TiB in use on `disks` disks, with `perf` MiB/s (and 16 IOPS per MiB/s)
/// when measured; `flagged` gives its first disk an RDM flag. Its cluster's name holds
/// markup.
pub fn vm(name: String, tib: f64, disks: usize, perf: Option<f64>, flagged: bool) -> Vm {
    let mib = tib * 1_048_576.0;
    Vm {
        vm: name,
        powerstate: PowerState::PoweredOn,
        cluster: Some("<b>Cluster & Co</b>".to_owned()),
        host: None,
        datastore: None,
        vcpus: 4,
        memory_mib: 16384.0,
        provisioned_mib: mib * 1.5,
        in_use_mib: mib,
        guest_used_mib: None,
        disks: (0..disks)
            .map(|k| Disk {
                disk: format!("Hard disk {}", k + 1),
                datastore: None,
                capacity_mib: mib * 1.5 / disks as f64,
                rdm: flagged && k == 0,
                shared: false,
            })
            .collect(),
        iops: perf.map(|m| m * 16.0),
        mibps: perf,
        flags: if flagged { vec![Flag::Rdm] } else { vec![] },
    }
}

/// An inventory of `vms`, with a warning that holds a formula and markup.
pub fn inventory(vms: Vec<Vm>) -> Inventory {
    let mut inv = Inventory {
        vms,
        excluded: vec![],
        summary: Summary {
            capacity_unit: "MiB (RVTools 4.x headers)".to_owned(),
            warnings: vec!["=HYPERLINK(\"x\") <script>".to_owned()],
            ..Summary::default()
        },
    };
    inv.total();
    inv
}

/// An inventory of `n` VMs of two disks each and its plan in West US 2, disks placed.
pub fn avs_plan(n: usize) -> (Inventory, AvsPlan) {
    let inv = inventory(
        (0..n)
            .map(|i| vm(format!("vm{i}"), 0.5, 2, Some(10.0), false))
            .collect(),
    );
    let mut req = PlanRequest::new(inv.clone());
    // Priced with portable VCF (the default): AV36P has a VCF BYOL rate in East US.
    req.host_sku = "AV36P".to_owned();
    req.region = Some("eastus".to_owned());
    req.unit = PlaceUnit::Disk;
    let p = plan(&req, book()).expect("the example inventory plans");
    (inv, p)
}

/// An estate of three ANF workloads in East US over two years, with hostile names.
pub fn estate_plan() -> EstatePlan {
    let w = |name: &str, quota: f64, mibps: f64| {
        serde_json::json!({
            "name": name,
            "workload": {"io_size_kib": 256, "read_pct": 70, "capacity_tib": quota,
                         "target_mibps": null, "target_iops": null},
            "storage": {"service": "anf", "level": "ultra", "qos": "manual",
                        "volumes": [{"count": 1, "quota_tib": quota, "throughput_mibps": mibps}]},
            "clients": {"count": 2, "vm_size": "Standard_E32s_v5", "protocol": "nfsv4.1"}
        })
    };
    let req: EstateRequest = serde_json::from_value(serde_json::json!({
        "name": "<b>SAP</b> & =cmd|'/c calc'!A1",
        "workloads": [w("=data", 4.0, 704.0), w("log <i>", 0.5, 256.0), w("shared", 1.0, 64.0)],
        "region": "eastus", "years": 2, "growth_pct_per_year": 30, "levels": ["ultra"]
    }))
    .expect("the example estate parses");
    optimize(&req, book()).expect("the example estate plans")
}
