//! The form's words: what an input is called on the page, and an engine message
//! rewritten in those words.

use super::parse::group_index;
use crate::engine::FieldError;

/// What an input is called on the page, for messages (`storage.volumes[1].quota_tib` ->
/// "Group 2: quota each").
pub fn field_label(name: &str) -> String {
    if let Some(i) = group_index(name) {
        let what = match name.rsplit('.').next() {
            Some("count") => "count",
            Some("quota_tib") => "quota each",
            Some("throughput_mibps") => "throughput each",
            Some("iops") => "IOPS each",
            _ => "volumes",
        };
        return format!("Volume group {}: {what}", i + 1);
    }
    let label = match name {
        "name" => "Scenario name",
        "region" => "Region",
        "workload.io_size_kib" => "IO size",
        "workload.read_pct" => "Reads",
        "workload.access" => "Access",
        "workload.threads" => "Threads",
        "workload.queue_depth" => "Queue depth",
        "workload.files" => "Files",
        "workload.metadata_heavy" => "Metadata heavy",
        "workload.cached_read_pct" => "Reads from the storage cache",
        "workload.capacity_tib" => "Capacity needed",
        "workload.target_mibps" => "Target throughput",
        "workload.target_iops" => "Target IOPS",
        "workload.target_latency_ms" => "Target latency",
        "workload.duration_s" => "Load lasts",
        "workload.confidence" => "Size for",
        "storage" => "Storage",
        "storage.service" => "Service",
        "storage.level" => "Service level",
        "storage.qos" => "QoS type",
        "storage.fixed_count" => "Keep the number of volumes",
        "storage.volume_kind" => "Volume type",
        "storage.pool_tib" => "Capacity pool",
        "storage.cool_access" => "Cool access",
        "storage.cool_access.cool_data_pct" => "Data on the cool tier",
        "storage.cool_access.cool_read_pct" => "Reads from the cool tier",
        "storage.cool_access.retrieved_pct_per_month" => "Cool data read back per month",
        "storage.volumes" => "Volumes",
        "clients" => "Clients",
        "clients.count" => "Client VMs",
        "clients.vm_size" => "VM size",
        "clients.egress_mibps" => "Egress limit override",
        "clients.ingress_mibps" => "Ingress limit override",
        "clients.protocol" => "Protocol",
        "clients.nconnect" => "nconnect",
        "clients.smb_multichannel" => "SMB multichannel",
        "clients.smb_channels" => "SMB channels",
        "clients.nfs_client" => "NFS client",
        "clients.sec" => "NFS security",
        "clients.smb_security" => "SMB security",
        "clients.avs" => "AVS",
        "clients.avs.hosts" => "AVS hosts running the VMs",
        "clients.avs.cluster_hosts" => "AVS hosts in the cluster",
        "clients.avs.nconnect" => "Connections per datastore",
        "clients.avs.host_sku" => "AVS host type",
        "clients.avs.vms_per_host" => "VMs per host",
        "clients.avs.vmdks_per_vm" => "VMDKs per VM",
        "clients.avs.placement" => "VMDK placement",
        "clients.avs.vcf" => "VMware licensing",
        "pricing" => "Pricing",
        "pricing.currency" => "Currency",
        "pricing.discount_pct" => "Discount",
        "pricing.reservation" => "Reservation",
        "meta.customer" => "Customer",
        "meta.project" => "Project",
        "meta.author" => "Author",
        "meta.notes" => "Notes",
        "data_protection" => "Data protection",
        other => return words(other),
    };
    label.to_owned()
}

/// A field the form has no label for, in words: "data_protection.snapshot_reserve_pct"
/// -> "Data protection, snapshot reserve %".
fn words(name: &str) -> String {
    let unit = |w: &str| -> String {
        match w {
            "pct" => "%".to_owned(),
            "tib" => "TiB".to_owned(),
            "gib" => "GiB".to_owned(),
            "kib" => "KiB".to_owned(),
            "mibps" => "MiB/s".to_owned(),
            "iops" => "IOPS".to_owned(),
            "ms" => "ms".to_owned(),
            "avs" => "AVS".to_owned(),
            "smb" => "SMB".to_owned(),
            "nfs" => "NFS".to_owned(),
            other => other.to_owned(),
        }
    };
    let text = name
        .split('.')
        .map(|part| {
            let (word, index) = match part.split_once('[') {
                Some((w, rest)) => (w, rest.trim_end_matches(']').parse::<usize>().ok()),
                None => (part, None),
            };
            let mut words: Vec<String> = word
                .split('_')
                .filter(|w| !w.is_empty())
                .map(unit)
                .collect();
            if let Some(i) = index {
                words.push((i + 1).to_string());
            }
            words.join(" ")
        })
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(", ");
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => "Scenario".to_owned(),
    }
}

/// An engine message in the form's words: the inputs by their labels, not by the
/// API's field names, and quoted as prose quotes (“westeurop”), not in backticks.
pub(super) fn form_message(e: &FieldError) -> String {
    if e.field == "clients.vm_size" {
        let how = "choose one from the VM size list (start typing to search, e.g. Standard_E32s_v5 for Azure or n2-standard-32 for Google Cloud), or leave VM size empty and give the “Egress limit override” in MiB/s";
        let typed = e
            .message
            .split('`')
            .nth(1)
            .filter(|_| e.message.starts_with('`'));
        return match typed {
            Some(name) => format!("“{name}” is not a VM size volplan knows: {how}"),
            None => format!("VM size is needed to know the client's network limit: {how}"),
        };
    }
    let mut m = prose_quotes(&e.message);
    for (api, input) in [
        ("egress_mibps", "clients.egress_mibps"),
        ("ingress_mibps", "clients.ingress_mibps"),
    ] {
        m = m.replace(api, &format!("“{}”", field_label(input)));
    }
    m
}

/// A message as a page prints it: the API quotes what it refuses between backticks, a
/// page quotes as prose does (“westeurop”). Every message a form shows goes through it.
pub fn prose_quotes(message: &str) -> String {
    message
        .split('`')
        .enumerate()
        .map(|(i, part)| match i {
            0 => part.to_owned(),
            i if i % 2 == 1 => format!("“{part}"),
            _ => format!("”{part}"),
        })
        .collect()
}
