//! "New scenario from this result": the workload a measurement describes.

use super::against_predicted::variant;
use super::{Measurement, Tool};
use crate::engine::scenario::{
    Access, Clients, Files, Level, Protocol, Qos, Scenario, Service, Storage, VolumeGroup,
    VolumeKind, Workload,
};

/// Capacity assumed when there is no base scenario, in TiB.
const DEFAULT_CAPACITY_TIB: f64 = 4.0;
/// Client size assumed when there is no base scenario (the contract's example size).
const DEFAULT_VM_SIZE: &str = "Standard_E32s_v5";

/// A scenario whose workload is the measured one: IO size, read share, access, threads and
/// queue depth per client, and the number of clients; the measured MiB/s and IOPS become
/// the targets, so the reverse sizing shows what delivers them.
///
/// Storage and clients come from `base`; without one, one 4 TiB ANF Premium volume and
/// `Standard_E32s_v5` clients are assumed (NFSv3, or SMB 3 with multichannel for DiskSpd,
/// which runs on Windows) and should be edited.
pub fn scenario_from(m: &Measurement, base: Option<&Scenario>) -> Scenario {
    let base = base.cloned().unwrap_or_else(|| default_base(m.tool));
    let mut s = variant(&base, m);
    s.id = None;
    s.name = name_for(m, &base);
    if m.access.is_none() {
        s.workload.access = if m.io_size_kib <= 16.0 {
            Access::Random
        } else {
            Access::Sequential
        };
    }
    let round = |x: f64| (x * 10.0).round() / 10.0;
    s.workload.io_size_kib = round(s.workload.io_size_kib).clamp(0.5, 16384.0);
    s.workload.read_pct = m.read_pct.round().clamp(0.0, 100.0);
    s.workload.target_mibps = (m.mibps > 0.0).then(|| round(m.mibps).clamp(0.1, 10_000_000.0));
    s.workload.target_iops = (m.iops > 0.0).then(|| m.iops.round().clamp(1.0, 1_000_000_000.0));
    s
}

fn name_for(m: &Measurement, base: &Scenario) -> String {
    let what = format!("measured {} `{}`", m.tool.display(), m.label);
    let name = if base.name.is_empty() || base.name == "Untitled scenario" {
        format!("From {what}")
    } else {
        format!("{}: {what}", base.name)
    };
    name.chars().take(200).collect()
}

fn default_base(tool: Tool) -> Scenario {
    let smb = tool == Tool::Diskspd;
    Scenario {
        id: None,
        name: String::new(),
        workload: Workload {
            io_size_kib: 64.0,
            read_pct: 100.0,
            access: Access::Sequential,
            threads: 1,
            queue_depth: 1,
            files: Files::Many,
            metadata_heavy: false,
            cached_read_pct: 0.0,
            capacity_tib: DEFAULT_CAPACITY_TIB,
            target_mibps: None,
            target_iops: None,
            target_latency_ms: None,
            duration_s: None,
            confidence: Default::default(),
        },
        storage: Storage {
            service: Service::Anf,
            level: Level::Premium,
            qos: Qos::Auto,
            volume_kind: VolumeKind::Regular,
            fixed_count: false,
            volumes: vec![VolumeGroup {
                count: 1,
                quota_tib: DEFAULT_CAPACITY_TIB,
                throughput_mibps: None,
                iops: None,
            }],
            pool_tib: None,
            cool_access: None,
        },
        clients: Clients {
            count: 1,
            vm_size: Some(DEFAULT_VM_SIZE.to_owned()),
            egress_mibps: None,
            ingress_mibps: None,
            protocol: if smb { Protocol::Smb3 } else { Protocol::Nfsv3 },
            nconnect: 1,
            smb_multichannel: smb,
            smb_channels: 4,
            avs: None,
            nfs_client: Default::default(),
            sec: Default::default(),
            smb_security: Default::default(),
        },
        region: None,
        pricing: None,
        data_protection: None,
        meta: None,
    }
}
