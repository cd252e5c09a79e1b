//! The scenario's inputs as the report lists them (only those that apply: no VM size
//! or nconnect for AVS, no pool for Azure Files), and its storage in one line.

use crate::engine::Scenario;
use crate::engine::scenario::{
    Access, Files, NfsClient, Placement, Protocol, Qos, Replication, Service, VolumeKind,
};
use crate::format::Num;
use crate::report::summary::storage_name;
use crate::verdict::words::volume_noun;

/// One row of the inputs table.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRow {
    /// Workload, Storage, Clients, AVS, Pricing or Data protection.
    pub section: &'static str,
    pub label: String,
    /// The value as shown, with separators ("20", "Azure NetApp Files", "none").
    pub value: String,
    /// The unit beside the value, empty when there is none.
    pub unit: &'static str,
    /// The number itself, for spreadsheets; `None` for words.
    pub number: Option<f64>,
}

fn yes_no(b: bool) -> String {
    crate::format::yes_no(b).to_owned()
}

fn row(section: &'static str, label: &str, value: String, unit: &'static str) -> InputRow {
    InputRow {
        section,
        label: label.to_owned(),
        value,
        unit,
        number: None,
    }
}

fn num_row(
    section: &'static str,
    label: &str,
    v: f64,
    decimals: usize,
    unit: &'static str,
) -> InputRow {
    InputRow {
        section,
        label: label.to_owned(),
        value: Num(v, decimals).to_string(),
        unit,
        number: Some(v),
    }
}

/// The scenario's inputs as label/value/unit rows, only those that apply.
pub fn input_rows(s: &Scenario) -> Vec<InputRow> {
    let w = &s.workload;
    let mut rows = vec![
        num_row("Workload", "IO size", w.io_size_kib, 2, "KiB"),
        num_row("Workload", "Reads", w.read_pct, 2, "%"),
        row(
            "Workload",
            "Access",
            match w.access {
                Access::Sequential => "sequential",
                Access::Random => "random",
            }
            .to_owned(),
            "",
        ),
        num_row("Workload", "Threads per client", w.threads.into(), 0, ""),
        num_row(
            "Workload",
            "Queue depth per thread",
            w.queue_depth.into(),
            0,
            "",
        ),
        row(
            "Workload",
            "Files",
            match w.files {
                Files::Many => "many files",
                Files::One => "one file",
            }
            .to_owned(),
            "",
        ),
        row("Workload", "Metadata heavy", yes_no(w.metadata_heavy), ""),
        num_row("Workload", "Capacity needed", w.capacity_tib, 3, "TiB"),
    ];
    if s.storage.service != Service::AzureFiles {
        rows.push(num_row(
            "Workload",
            "Reads from the storage cache",
            w.cached_read_pct,
            1,
            "%",
        ));
    }
    for (label, v, unit) in [
        ("Target throughput", w.target_mibps, "MiB/s"),
        ("Target IOPS", w.target_iops, "IOPS"),
        ("Target latency", w.target_latency_ms, "ms"),
        ("Load lasts", w.duration_s, "s"),
    ] {
        if let Some(x) = v {
            rows.push(num_row("Workload", label, x, 2, unit));
        }
    }

    let st = &s.storage;
    rows.push(row(
        "Storage",
        "Service",
        st.service.display().to_owned(),
        "",
    ));
    rows.push(row(
        "Storage",
        "Service level",
        st.level.display(st.service).to_owned(),
        "",
    ));
    if st.service == Service::Anf {
        let qos = match st.qos {
            Qos::Auto => "auto",
            Qos::Manual => "manual",
        };
        rows.push(row("Storage", "QoS", qos.to_owned(), ""));
        let kind = match st.volume_kind {
            VolumeKind::Regular => "regular",
            VolumeKind::Large => "large",
            VolumeKind::Breakthrough => "large, breakthrough mode",
        };
        rows.push(row("Storage", "Volume type", kind.to_owned(), ""));
        if let Some(cool) = &st.cool_access {
            rows.push(num_row(
                "Storage",
                "Cool tier: share of data",
                cool.cool_data_pct,
                1,
                "%",
            ));
            rows.push(num_row(
                "Storage",
                "Cool tier: share of reads",
                cool.cool_read_pct,
                1,
                "%",
            ));
            if let Some(pct) = cool.retrieved_pct_per_month {
                rows.push(num_row(
                    "Storage",
                    "Cool tier: data read back per month",
                    pct,
                    1,
                    "%",
                ));
            }
        }
    }
    for (i, g) in st.volumes.iter().enumerate() {
        let label = if st.volumes.len() > 1 {
            format!("Volumes (group {})", i + 1)
        } else {
            "Volumes".to_owned()
        };
        let mut value = format!("{} x {}", g.count, Num(g.quota_tib, 3));
        let mut unit = "TiB";
        if let Some(t) = g.throughput_mibps {
            value = format!("{value} TiB at {} MiB/s", Num(t, 2));
            unit = "";
        }
        if let Some(iops) = g.iops {
            if unit.is_empty() {
                value = format!("{value}, {} IOPS", Num(iops, 0));
            } else {
                value = format!("{value} TiB at {} IOPS", Num(iops, 0));
                unit = "";
            }
        }
        rows.push(InputRow {
            section: "Storage",
            label,
            value,
            unit,
            number: None,
        });
    }
    match st.pool_tib {
        _ if st.service == Service::AzureFiles => {}
        Some(p) => rows.push(num_row("Storage", "Capacity pool", p, 3, "TiB")),
        None => rows.push(row(
            "Storage",
            "Capacity pool",
            "smallest valid".to_owned(),
            "",
        )),
    }

    let c = &s.clients;
    // AVS: the hosts are the clients; VM size, nconnect and NFS security are ESXi's.
    let avs = c.avs.is_some();
    if !avs {
        rows.push(num_row("Clients", "Clients", c.count.into(), 0, ""));
        if let Some(vm) = &c.vm_size {
            rows.push(row("Clients", "VM size", vm.clone(), ""));
        }
        if let Some(e) = c.egress_mibps {
            rows.push(num_row("Clients", "Egress per client", e, 2, "MiB/s"));
        }
        if let Some(i) = c.ingress_mibps {
            rows.push(num_row("Clients", "Ingress per client", i, 2, "MiB/s"));
        }
    }
    let protocol = match c.protocol {
        Protocol::Nfsv3 => "NFSv3",
        Protocol::Nfsv41 => "NFSv4.1",
        Protocol::Smb3 => "SMB 3",
    };
    rows.push(row("Clients", "Protocol", protocol.to_owned(), ""));
    if avs {
        // ESXi mounts the datastores: the clients' NFS settings do not apply.
    } else if c.protocol.is_nfs() {
        if c.nfs_client == NfsClient::Dnfs {
            rows.push(row(
                "Clients",
                "NFS client",
                "Oracle Direct NFS (dNFS)".to_owned(),
                "",
            ));
        } else {
            rows.push(num_row("Clients", "nconnect", c.nconnect.into(), 0, ""));
        }
        rows.push(row("Clients", "NFS security", c.sec.key().to_owned(), ""));
    } else {
        rows.push(row(
            "Clients",
            "SMB security",
            c.smb_security.key().to_owned(),
            "",
        ));
        rows.push(row(
            "Clients",
            "SMB multichannel",
            yes_no(c.smb_multichannel),
            "",
        ));
        if c.smb_multichannel {
            rows.push(num_row(
                "Clients",
                "SMB channels",
                c.smb_channels.into(),
                0,
                "",
            ));
        }
    }
    pricing_rows(s, &mut rows);
    if let Some(a) = &c.avs {
        rows.push(num_row(
            "AVS",
            "Hosts in the cluster",
            a.cluster_size().into(),
            0,
            "",
        ));
        rows.push(num_row(
            "AVS",
            "Hosts running the VMs",
            a.hosts.into(),
            0,
            "",
        ));
        rows.push(row("AVS", "Host SKU", a.host_sku.clone(), ""));
        rows.push(num_row("AVS", "VMs per host", a.vms_per_host.into(), 0, ""));
        rows.push(num_row("AVS", "VMDKs per VM", a.vmdks_per_vm.into(), 0, ""));
        let placement = match a.placement {
            Placement::Spread => "spread over all datastores",
            Placement::Dedicated => "one datastore per VM",
            Placement::Single => "all on the first datastore",
        };
        rows.push(row("AVS", "VMDK placement", placement.to_owned(), ""));
        rows.push(num_row(
            "AVS",
            "Connections per datastore",
            a.nconnect.into(),
            0,
            "",
        ));
    }
    rows
}

/// Region, pricing and data protection rows of the inputs table.
fn pricing_rows(s: &Scenario, rows: &mut Vec<InputRow>) {
    let region = s.region.as_deref().map_or_else(
        || "reference region of the price book".to_owned(),
        |id| {
            let name = crate::report::summary::cost::region_name(id);
            if name == id {
                name
            } else {
                format!("{name} ({id})")
            }
        },
    );
    rows.push(row("Pricing", "Region", region, ""));
    if let Some(p) = &s.pricing {
        rows.push(row("Pricing", "Currency", p.currency.clone(), ""));
        rows.push(num_row("Pricing", "Discount", p.discount_pct, 2, "%"));
        rows.push(row(
            "Pricing",
            "Reservation",
            p.reservation.key().to_owned(),
            "",
        ));
    }
    let Some(d) = &s.data_protection else { return };
    rows.push(num_row(
        "Data protection",
        "Snapshot reserve",
        d.snapshot_reserve_pct,
        1,
        "%",
    ));
    rows.push(num_row(
        "Data protection",
        "Daily change",
        d.daily_change_pct,
        2,
        "%",
    ));
    if let Some(b) = d.backup {
        rows.push(row(
            "Data protection",
            "Backups kept",
            format!(
                "{} daily, {} weekly, {} monthly",
                b.daily, b.weekly, b.monthly
            ),
            "",
        ));
    }
    if let Some(r) = &d.replication_region {
        let every = match d.replication {
            Replication::None => "none",
            Replication::TenMinutes => "every 10 minutes",
            Replication::Hourly => "hourly",
            Replication::Daily => "daily",
        };
        rows.push(row(
            "Data protection",
            "Replication",
            format!("{every} to {r}"),
            "",
        ));
    }
}

/// The scenario's storage in one line: "Azure NetApp Files Ultra, 4 x 20 TiB volumes".
pub fn subtitle(s: &Scenario) -> String {
    let groups: Vec<String> = s
        .storage
        .volumes
        .iter()
        .map(|g| format!("{} x {} TiB", g.count, Num(g.quota_tib, 3)))
        .collect();
    format!(
        "{}, {} {}",
        storage_name(s.storage.service, s.storage.level),
        groups.join(" + "),
        volume_noun(s, true)
    )
}
