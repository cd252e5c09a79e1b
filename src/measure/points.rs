//! Measured runs as the charts draw them, beside the predicted curves.

use super::Measurement;
use crate::engine::scenario::{Protocol, Scenario};
use serde::Serialize;

/// One measured run placed on the charts: `io-size` (x = IO size), `scaling` (x = flows)
/// and `ceilings` (a mark at its MiB/s).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeasuredPoint {
    pub label: String,
    pub io_size_kib: f64,
    pub read_pct: f64,
    pub mibps: f64,
    pub iops: f64,
    /// The `scaling` chart's x for the scenario the run was measured against: nconnect
    /// (NFS), SMB channels (1 without multichannel) or AVS datastores.
    pub flows: u32,
    /// IOs in flight across all clients.
    pub outstanding: u32,
}

/// Places a run measured against `scenario` (the revision it was uploaded with).
pub fn measured_point(m: &Measurement, scenario: &Scenario) -> MeasuredPoint {
    let c = &scenario.clients;
    let flows = if c.avs.is_some() {
        scenario
            .storage
            .volumes
            .iter()
            .map(|v| v.count)
            .fold(0u32, u32::saturating_add)
    } else if c.protocol == Protocol::Smb3 {
        if c.smb_multichannel {
            c.smb_channels
        } else {
            1
        }
    } else {
        c.nconnect
    };
    MeasuredPoint {
        label: m.label.clone(),
        io_size_kib: m.io_size_kib,
        read_pct: m.read_pct,
        mibps: m.mibps,
        iops: m.iops,
        flows: flows.max(1),
        outstanding: m.outstanding,
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::measure::Tool;

    /// A plain 64 KiB read run, for the tests of this module and its siblings.
    pub(in crate::measure) fn run() -> Measurement {
        Measurement {
            tool: Tool::Fio,
            label: "r".to_owned(),
            iops: 1000.0,
            mibps: 62.5,
            read_pct: 100.0,
            io_size_kib: 64.0,
            threads: 1,
            queue_depth: 4,
            outstanding: 4,
            clients: 1,
            latency_mean_ms: Some(4.0),
            latency_p50_ms: None,
            latency_p99_ms: None,
            read_iops: 1000.0,
            write_iops: 0.0,
            read_mibps: 62.5,
            write_mibps: 0.0,
            access: None,
            runtime_s: 60.0,
        }
    }

    fn scenario(clients: serde_json::Value) -> Scenario {
        serde_json::from_value(serde_json::json!({
            "workload": { "io_size_kib": 64, "read_pct": 100, "capacity_tib": 4 },
            "storage": { "service": "anf", "level": "premium",
                         "volumes": [ { "count": 3, "quota_tib": 2 } ] },
            "clients": clients
        }))
        .unwrap()
    }

    #[test]
    fn flows_follow_the_scaling_axis() {
        let nfs = scenario(
            serde_json::json!({ "protocol": "nfsv3", "nconnect": 8, "vm_size": "Standard_E32s_v5" }),
        );
        assert_eq!(measured_point(&run(), &nfs).flows, 8);
        let smb = scenario(
            serde_json::json!({ "protocol": "smb3", "smb_multichannel": true, "smb_channels": 4, "vm_size": "Standard_E32s_v5" }),
        );
        assert_eq!(measured_point(&run(), &smb).flows, 4);
        let single =
            scenario(serde_json::json!({ "protocol": "smb3", "vm_size": "Standard_E32s_v5" }));
        assert_eq!(measured_point(&run(), &single).flows, 1);
        let avs = scenario(serde_json::json!({ "protocol": "nfsv3", "avs": { "hosts": 4 } }));
        let p = measured_point(&run(), &avs);
        assert_eq!((p.flows, p.mibps, p.io_size_kib), (3, 62.5, 64.0));
    }
}
