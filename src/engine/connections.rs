//! How many connections and SMB channels a plan opens: NFS `nconnect` per volume, SMB
//! multichannel, Oracle Direct NFS and AVS hosts per datastore (contract: `flows`).

use super::plan::Plan;
use super::scenario::{NfsClient, Protocol, Service};
use super::service::azure_files::is_ssd;

/// SMB channels one client opens to one share: `smb_channels` with multichannel, else 1.
/// Multichannel needs SSD shares on Azure Files (LEARN-FILES/smb-performance).
pub fn smb_channels(p: &Plan) -> u32 {
    if multichannel_active(p) {
        p.smb_channels
    } else {
        1
    }
}

/// True when SMB multichannel is on and the share supports it.
pub fn multichannel_active(p: &Plan) -> bool {
    p.protocol == Protocol::Smb3 && p.smb_multichannel && supports_multichannel(p)
}

/// Azure Files offers multichannel on SSD shares only; ANF and GCNV SMB always.
pub fn supports_multichannel(p: &Plan) -> bool {
    p.service != Service::AzureFiles || is_ssd(p.level)
}

/// Connections one client opens across all volumes (contract: flows.connections).
/// An AVS host mounts every datastore, with one connection each (or `nconnect`),
/// whether or not its VMs use it; the performance model counts only the flows that
/// carry load.
pub fn connections_per_client(p: &Plan) -> u64 {
    if let Some(a) = p.avs {
        // hosts x datastores x nconnect in all (one or four per datastore).
        return u64::from(p.n_volumes) * u64::from(a.nconnect.max(1));
    }
    let per_volume = match p.protocol {
        Protocol::Smb3 => smb_channels(p),
        _ if p.nfs_client == NfsClient::Dnfs => dnfs_connections_per_volume(p),
        _ => p.nconnect,
    };
    u64::from(p.n_volumes) * u64::from(per_volume)
}

/// Connections one Oracle database opens under Direct NFS (LEARN-ANF
/// solutions-benefits-azure-netapp-files-oracle-database: "650 distinct network
/// connections"; performance-oracle-multiple-volumes: "hundreds of unique connections
/// per endpoint", rising and falling with load).
pub const DNFS_CONNECTIONS: u32 = 650;

/// Direct NFS connections to each volume: the database's connections spread over its
/// volumes, at least one each.
pub fn dnfs_connections_per_volume(p: &Plan) -> u32 {
    DNFS_CONNECTIONS.div_ceil(p.n_volumes.max(1)).max(1)
}

/// Total connections between clients (or AVS hosts) and storage.
pub fn connections(p: &Plan) -> u64 {
    let clients = p.avs.map_or(p.clients, |a| a.hosts);
    u64::from(clients) * connections_per_client(p)
}
