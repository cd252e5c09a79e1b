//! The advice's words: each finding of [`crate::engine::advice`] (a code and the
//! figures it cites) as the sentence the planner, the reports and the API print.

mod region;

use crate::engine::advice::{Change, Message, Try};
use crate::format::Num;
use std::fmt;

/// A change the `target_unreachable` advice tried, as the advice names it.
fn change(c: Option<Change>) -> &'static str {
    match c {
        None => "",
        Some(Change::MoreVolumes) => "twice the volumes",
        Some(Change::MoreDatastores) => "twice the datastores",
        Some(Change::MoreHosts) => "twice the hosts (up to 16)",
        Some(Change::MoreVmdks) => "four times the VMDKs per VM",
        Some(Change::MoreClients) => "twice the client VMs",
        Some(Change::SmbChannels) => "SMB multichannel with 4 channels",
        Some(Change::MostConnections) => "nconnect=16",
        Some(Change::DeeperQueue) => "four times the queue depth",
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Message::AvsPlacement => f.write_str(
                "All VMDKs sit on the first datastore: spread VMs and VMDKs over the datastores (placement spread) to use every flow; stripe file systems across them and snapshot striped disks together (xfs_freeze, VSS).",
            ),
            Message::LargeVolume => f.write_str(
                "The regular-volume ceiling binds (4,500 MiB/s at 100 % read, less with writes): spread the load over more volumes, or use a large volume (50 TiB or more, up to 12,800 MiB/s).",
            ),
            Message::SpreadFiles => f.write_str(
                "A single file binds (per-file limits of Azure Files): spread the work over more files.",
            ),
            Message::SmbMultichannelHdd => f.write_str(
                "SMB multichannel works on SSD shares only: on this HDD share it is ignored and each client uses one connection.",
            ),
            Message::SmbMultichannelOff => f.write_str(
                "Single-threaded small IO loses about 10 % with SMB multichannel on (little parallelism to spread): turn it off for this workload, or add threads.",
            ),
            Message::SmbMultichannel => f.write_str(
                "Turn SMB multichannel on (up to 4 channels, SMB 3.1.1, no extra cost): multi-threaded work over many files gains 2x-4x in IOPS and throughput; use RSS-capable NICs (RSS 4 or 8).",
            ),
            Message::MetadataCaching => f.write_str(
                "Enable metadata caching on this SSD share (no extra cost): metadata latency drops 30 % or more and available IOPS and throughput rise more than 60 % for create/open/close/delete-heavy work.",
            ),
            Message::Handles => f.write_str(
                "Azure Files allows 2,000 open handles per file or directory (10,000 with the HigherHandlesCountOnSmb preview on SSD SMB shares) and 10,000 on the root directory: check the clients stay below.",
            ),
            Message::RsizeWsize => f.write_str(
                "Mount with rsize=262144,wsize=262144 (256 KiB): larger values are negotiated up to 1 MiB but raise latency and lower throughput on ANF; larger IOs are split into 256 KiB requests.",
            ),
            Message::PriceAssumption => f.write_str(
                "Assumption: the price is indicative (unconfirmed or derived from documented examples, or missing from the catalog); check the vendor's pricing page.",
            ),
            Message::CoolReads {
                cool_read_pct,
                mibps,
                hot_mibps,
            } => write!(
                f,
                "{}% of the reads come from the cool tier, which holds the workload at {} MiB/s; with every read hot it would reach {} MiB/s and meet the targets. Keep the working set hot (a longer coolness period, or cool access off for this volume), or size for the cool tier's rate.",
                Num(cool_read_pct, 1),
                Num(mibps, 0),
                Num(hot_mibps, 0)
            ),
            Message::AvsHostsUnpriced { sku, region } => write!(
                f,
                "The price book has no public {sku} host price for {region}: the monthly cost covers the storage only; choose a region or a host SKU that has a price to see the hosts' cost."
            ),
            Message::CoolRetrieval {
                usd_per_gib,
                cool_tib,
            } => write!(
                f,
                "{} TiB sit in the cool tier at the cool rate; reading cool data back costs {} USD per GiB, not in the monthly cost: give \"Cool data read back per month\" to price it.",
                Num(cool_tib, 2),
                Num(usd_per_gib, 3)
            ),
            Message::TargetsMissed {
                mibps,
                target_mibps,
                iops,
                target_iops,
                latency_ms,
                target_latency_ms,
                binding,
                sizable,
            } => {
                let rate_met = target_mibps.is_none_or(|t| mibps >= t * (1.0 - 1e-9))
                    && target_iops.is_none_or(|t| iops >= t * (1.0 - 1e-9));
                if let (true, Some(t), Some(l)) = (rate_met, target_latency_ms, latency_ms) {
                    return write!(
                        f,
                        "Latency target missed: {} ms per IO at the target rate against {} ms. The rate itself is reached ({} MiB/s achievable); the IOs queue at {binding} near its ceiling, so provision headroom above the target rate.{}",
                        Num(l, 2),
                        Num(t, 2),
                        Num(mibps, 0),
                        if sizable {
                            " The sizing table shows a level and quota that meet both."
                        } else {
                            ""
                        }
                    );
                }
                f.write_str("Targets missed: ")?;
                let mut sep = "";
                if let Some(t) = target_mibps {
                    write!(f, "{} of {} MiB/s", Num(mibps, 0), Num(t, 0))?;
                    sep = ", ";
                }
                if let Some(t) = target_iops {
                    write!(f, "{sep}{} of {} IOPS", Num(iops, 0), Num(t, 0))?;
                    sep = ", ";
                }
                if let Some(t) = target_latency_ms {
                    match latency_ms {
                        Some(l) => {
                            write!(f, "{sep}{} ms per IO against {} ms", Num(l, 2), Num(t, 2))?
                        }
                        None => write!(
                            f,
                            "{sep}latency target {} ms at a rate out of reach",
                            Num(t, 2)
                        )?,
                    }
                }
                write!(f, ". Bound by {binding}")?;
                if sizable {
                    f.write_str("; see the sizing table for a level and quota that meet them.")
                } else {
                    f.write_str(".")
                }
            }
            Message::AvsIdleDatastores {
                loaded,
                total,
                vms,
                vmdks_per_vm,
                dedicated,
            } => {
                let units = if dedicated {
                    format!(
                        "{vms} VM{} placed one per datastore",
                        if vms == 1 { "" } else { "s" }
                    )
                } else {
                    format!(
                        "{vms} VM{} with {vmdks_per_vm} VMDK{} each",
                        if vms == 1 { "" } else { "s" },
                        if vmdks_per_vm == 1 { "" } else { "s" }
                    )
                };
                write!(
                    f,
                    "{loaded} of {total} datastores carry load: {units}. The idle ones add capacity but no NFS flows; add VMDKs per VM (striped with LVM, Storage Spaces or ASM) or VMs to use them, or use fewer, larger datastores."
                )
            }
            Message::TargetUnreachable {
                need_mibps,
                latency,
                as_is,
                tried,
                too_big,
            } => {
                if let Some((cap, n, largest)) = too_big {
                    write!(
                        f,
                        "No level holds the {} TiB needed in {n} volume{} of at most {} TiB each: add volumes, or use large volumes.",
                        Num(cap, 2),
                        if n == 1 { "" } else { "s" },
                        Num(largest, 0)
                    )?;
                    if as_is.meets {
                        return Ok(());
                    }
                    f.write_str(" ")?;
                }
                if let Some((target, floor)) = latency.filter(|(t, fl)| t < fl) {
                    return write!(
                        f,
                        "No sizing meets {} ms per IO: the round trip without any queueing is already {} ms on this service. Place the clients in the volume's zone (proximity placement), or use a service with a shorter round trip.",
                        Num(target, 2),
                        Num(floor, 2)
                    );
                }
                // The rate is reached at the best level, so the latency target is the
                // one that fails: say so, with the latency at the target rate.
                match (latency, as_is.latency_ms) {
                    (Some((target, _)), Some(l)) if as_is.mibps >= need_mibps * (1.0 - 1e-9) => {
                        write!(
                            f,
                            "No level meets {} ms per IO at {} MiB/s with this layout: at the best level and the largest volume it reaches {} MiB/s, but takes {} ms per IO at {} MiB/s, where the IOs queue near the ceiling.",
                            Num(target, 2),
                            Num(need_mibps, 0),
                            Num(as_is.mibps, 0),
                            Num(l, 2),
                            Num(need_mibps, 0)
                        )?;
                    }
                    _ => write!(
                        f,
                        "No level meets {} MiB/s with this layout, even at the largest volume (it reaches {} MiB/s).",
                        Num(need_mibps, 0),
                        Num(as_is.mibps, 0)
                    )?,
                }
                let shown = |t: &Try| match (latency, t.latency_ms) {
                    (Some(_), Some(l)) => format!("{} MiB/s, {} ms", Num(t.mibps, 0), Num(l, 2)),
                    _ => format!("{} MiB/s", Num(t.mibps, 0)),
                };
                let meets: Vec<&Try> = tried
                    .iter()
                    .filter(|t| t.what.is_some() && t.meets)
                    .collect();
                if meets.is_empty() {
                    let best = tried
                        .iter()
                        .filter(|t| t.what.is_some())
                        .max_by(|a, b| a.mibps.total_cmp(&b.mibps));
                    if let Some(t) = best {
                        write!(
                            f,
                            " No single change tried meets every target; the best, {}, gives {}: combine changes, or use another service.",
                            change(t.what),
                            shown(t)
                        )?;
                    }
                    Ok(())
                } else {
                    f.write_str(" What would meet it:")?;
                    for (i, t) in meets.iter().enumerate() {
                        write!(
                            f,
                            "{} {} ({})",
                            if i == 0 { "" } else { ";" },
                            change(t.what),
                            shown(t)
                        )?;
                    }
                    f.write_str(".")
                }
            }
            Message::CapacityShort {
                have_tib,
                need_tib,
                max_quota_tib,
            } => write!(
                f,
                "The volumes hold {} TiB, {} TiB short of the {} TiB the workload stores: raise the quotas or add volumes (one volume of this kind holds up to {} TiB); the sizing table sizes every level for the capacity.",
                Num(have_tib, 2),
                Num(need_tib - have_tib, 2),
                Num(need_tib, 2),
                Num(max_quota_tib, 0)
            ),
            Message::Nconnect {
                current,
                suggested,
                now_mibps,
                then_mibps,
            } => write!(
                f,
                "Mount with nconnect={suggested} (now {current}): the connection ceiling rises from {} to {} MiB/s. nconnect=4 is best in most environments, up to 16 per endpoint (ANF Linux mount options); check the client's distribution supports it.",
                Num(now_mibps, 0),
                Num(then_mibps, 0)
            ),
            Message::VmSize {
                name,
                azure,
                mbps,
                mibps,
                next_mibps,
            } => {
                let prefix = if azure { "Standard_" } else { "" };
                write!(
                    f,
                    "The client VM binds. {prefix}{name} ({} Mbps = {} MiB/s per VM) lifts it; the next limit is then about {} MiB/s. Writes count against VM egress; reads are not metered.",
                    Num(mbps, 0),
                    Num(mibps, 0),
                    Num(next_mibps, 0)
                )
            }
            Message::SpreadClients {
                binding,
                storage_headroom_pct,
            } => write!(
                f,
                "The client side binds ({binding}) while storage has {}% headroom: spread the load over more clients (Azure Files SMB performance guidance).",
                Num(storage_headroom_pct, 0)
            ),
            Message::AvsDatastores { count } => write!(
                f,
                "Start AVS with at least 4 datastores (now {count}): each datastore is one NFS flow per host, so performance scales with hosts x datastores. Spread VMs and VMDKs over datastores and stripe file systems across VMDKs (LVM, Storage Spaces, MSSQL filegroups, Oracle ASM); backup and DR software must then snapshot all striped disks together (xfs_freeze, VSS)."
            ),
            Message::SessionSlots { wanted } => write!(
                f,
                "NFSv4.1 allows 180 outstanding requests per session on ANF but Linux defaults to 64: raise it with `options nfs max_session_slots=180` in /etc/modprobe.d (reboot); the workload wants {} in flight per session. One connection is still capped at 128, so use nconnect >= 2.",
                Num(wanted, 0)
            ),
            Message::SlotTable { per_connection } => write!(
                f,
                "{} outstanding IOs per connection exceed the 128 the server accepts: set sunrpc.tcp_max_slot_table_entries=128 and add connections (nconnect) instead; keep the environment below 10,000 slots per endpoint.",
                Num(per_connection, 0)
            ),
            Message::Burst {
                burst_iops,
                baseline_iops,
            } => write!(
                f,
                "The share can burst to {} IOPS above its {} IOPS baseline while credits last (best effort); size on the baseline.",
                Num(burst_iops, 0),
                Num(baseline_iops, 0)
            ),
            Message::RegionLacks { feature, region } => {
                region::write_lacks(f, feature, region)
            }
            Message::ReplicationPair { from, to } => region::write_pair(f, from, to),
            Message::RegionUnlisted { name } => region::write_unlisted(f, name),
            Message::Assumption { what, source } => {
                f.write_str(&assumption(what, &source.to_string()))
            }
        }
    }
}

/// An assumption behind a value, with its source as the reader sees it.
pub fn assumption(what: &str, source: &str) -> String {
    format!("Assumption: {what} rests on {source}.")
}

/// A limit whose value rests on an assumption, with its source as the reader sees it.
pub fn limit_assumption(limit: &impl fmt::Display, source: &str) -> String {
    format!("{limit}: rests on an unconfirmed or fitted catalog value ({source}).")
}

/// Prices that rest on assumptions: the price basis in words and the hours per month.
pub fn price_assumption(basis: &str, hours_per_month: f64) -> String {
    format!(
        "Prices ({basis}, {} hours per month) include unconfirmed or derived list prices.",
        Num(hours_per_month, 1)
    )
}

#[cfg(test)]
mod tests {
    use crate::engine::advice::Message;
    use crate::engine::{Scenario, evaluate};
    use crate::format::Num;

    /// The connection ceiling of an evaluation: the lowest per-connection limit as a
    /// total at its mix, MiB/s.
    fn connection_ceiling(s: &Scenario) -> f64 {
        let ev = evaluate(s).unwrap();
        ev.limits
            .iter()
            .filter(|l| matches!(l.id, "connection" | "connection_bytes"))
            .map(|l| ev.throughput_mibps * (1.0 + l.headroom_pct / 100.0))
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    fn nconnect_advice_cites_the_connection_ceiling_before_and_after() {
        // Eight clients on one connection each, held by one small volume far below the
        // connection ceiling: the ceiling rises with nconnect, the achievable rate not.
        let mut s: Scenario = serde_json::from_str(
            r#"{"workload": {"io_size_kib": 64, "read_pct": 100, "threads": 16, "queue_depth": 32,
                "capacity_tib": 4},
                "storage": {"service": "anf", "level": "premium", "volumes": [{"count": 1, "quota_tib": 4}]},
                "clients": {"count": 8, "vm_size": "Standard_E32s_v5", "protocol": "nfsv3", "nconnect": 1}}"#,
        )
        .unwrap();
        let ev = evaluate(&s).unwrap();
        let advice = ev.advice.iter().find(|a| a.code == "nconnect").unwrap();
        let Message::Nconnect {
            current,
            suggested,
            now_mibps,
            then_mibps,
        } = advice.message
        else {
            panic!("{:?}", advice.message)
        };
        assert_eq!((current, suggested), (1, 4));
        let now = connection_ceiling(&s);
        s.clients.nconnect = 4;
        let then = connection_ceiling(&s);
        assert!(then > now && ev.throughput_mibps < now, "{now} {then}");
        assert!((now_mibps / now - 1.0).abs() < 1e-6, "{now_mibps} {now}");
        assert!(
            (then_mibps / then - 1.0).abs() < 1e-6,
            "{then_mibps} {then}"
        );
        assert!(
            advice.message.to_string().starts_with(&format!(
                "Mount with nconnect=4 (now 1): the connection ceiling rises from {} to {} MiB/s. ",
                Num(now, 0),
                Num(then, 0)
            )),
            "{}",
            advice.message
        );
    }
}
