//! Advice rules from the source documents, each with a stable code.

pub mod reach;
pub mod region_features;
pub mod rules;

use super::limits::as_display;
use super::regions::{Feature, Region};
use super::trace::{Label, Num};
use serde::Serialize;
use std::fmt;

/// How much a piece of advice matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The scenario misses its targets or breaks a rule.
    Warn,
    /// A change that would help.
    Info,
    /// An assumption behind a number.
    Assumption,
}

impl Severity {
    /// The JSON name.
    pub fn key(self) -> &'static str {
        match self {
            Severity::Warn => "warn",
            Severity::Info => "info",
            Severity::Assumption => "assumption",
        }
    }
}

/// One piece of advice.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Advice {
    /// Stable code, e.g. `nconnect`.
    pub code: &'static str,
    pub severity: Severity,
    /// The Scenario field the advice is about, when it is about one (e.g.
    /// `storage.volume_kind`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<&'static str>,
    /// The advice and its reason, formatted when shown.
    #[serde(serialize_with = "as_display")]
    #[schema(value_type = String)]
    pub message: Message,
}

/// How many changes the `target_unreachable` advice tries.
pub const UNREACHABLE_TRIES: usize = 4;

/// One change the `target_unreachable` advice tried, at the best level and largest
/// volume.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Try {
    /// The change, e.g. "twice the volumes" (empty: not tried).
    pub what: &'static str,
    /// The achievable MiB/s.
    pub mibps: f64,
    /// The latency the latency target is judged by (at the target rate), ms; `None`
    /// when the rate is out of reach.
    pub latency_ms: Option<f64>,
    /// Whether it meets the rate and latency targets.
    pub meets: bool,
}

/// The text of a piece of advice with the numbers it cites, formatted when shown.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Message {
    /// A fixed sentence.
    Text(&'static str),
    /// Targets missed: achieved vs target and the binding limit.
    TargetsMissed {
        mibps: f64,
        target_mibps: Option<f64>,
        iops: f64,
        target_iops: Option<f64>,
        /// Latency at the target rate (or at the achievable load) and its target, ms.
        latency_ms: Option<f64>,
        target_latency_ms: Option<f64>,
        binding: Label,
        /// Whether some sizing row meets the targets.
        sizable: bool,
    },
    /// Datastores that carry no load under the VMDK placement.
    AvsIdleDatastores {
        loaded: u32,
        total: u32,
        vms: u32,
        vmdks_per_vm: u32,
        dedicated: bool,
    },
    /// No level meets the targets with this layout: which target fails, and what
    /// would meet them.
    TargetUnreachable {
        need_mibps: f64,
        /// The latency target and the round trip without queueing (ms), when a
        /// latency target is set.
        latency: Option<(f64, f64)>,
        /// The scenario's own layout at the best level and largest volume.
        as_is: Try,
        /// Changes tried, each at the best level and largest volume.
        tried: [Try; UNREACHABLE_TRIES],
        /// When the capacity does not fit the volumes at any level: the capacity (TiB),
        /// the number of volumes and the largest volume (TiB).
        too_big: Option<(f64, u32, f64)>,
    },
    /// The volumes hold less than the workload stores.
    CapacityShort {
        have_tib: f64,
        need_tib: f64,
        /// The largest volume of the scenario's kind, TiB.
        max_quota_tib: f64,
    },
    /// More nconnect would lift the connection ceiling.
    Nconnect {
        current: u32,
        suggested: u32,
        now_mibps: f64,
        then_mibps: f64,
    },
    /// A bigger VM would lift the client limit.
    VmSize {
        name: &'static str,
        azure: bool,
        mbps: f64,
        mibps: f64,
        next_mibps: f64,
    },
    /// Client-side limit with storage headroom: spread over more clients.
    SpreadClients {
        binding: &'static str,
        storage_headroom_pct: f64,
    },
    /// AVS with fewer than four datastores.
    AvsDatastores { count: u32 },
    /// NFSv4.1 session slots below the demand.
    SessionSlots { wanted: f64 },
    /// NFSv3 outstanding IOs per connection above 128.
    SlotTable { per_connection: f64 },
    /// SSD v1 bursting.
    Burst { burst_iops: f64, baseline_iops: f64 },
    /// The cool share of reads holds the workload below its targets; all hot would meet.
    CoolReads {
        cool_read_pct: f64,
        mibps: f64,
        hot_mibps: f64,
    },
    /// Cool-tier retrieval is billed per GiB read and not in the monthly cost.
    CoolRetrieval { usd_per_gib: f64, cool_tib: f64 },
    /// The AVS host SKU has no public price in the region.
    AvsHostsUnpriced {
        sku: &'static str,
        region: &'static str,
    },
    /// The region does not offer a feature the scenario asks for (region data).
    RegionLacks {
        feature: Feature,
        region: &'static Region,
    },
    /// Volumes do not replicate from this region to the one named (region data).
    ReplicationPair {
        from: &'static Region,
        to: &'static str,
    },
    /// The region data does not list the region: its features are not checked.
    RegionUnlisted {
        /// The region as the price book names it.
        name: &'static str,
    },
    /// A value rests on an assumption.
    Assumption {
        what: &'static str,
        source: crate::engine::source::Source,
    },
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Message::Text(t) => f.write_str(t),
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
                    .filter(|t| !t.what.is_empty() && t.meets)
                    .collect();
                if meets.is_empty() {
                    let best = tried
                        .iter()
                        .filter(|t| !t.what.is_empty())
                        .max_by(|a, b| a.mibps.total_cmp(&b.mibps));
                    if let Some(t) = best {
                        write!(
                            f,
                            " No single change tried meets every target; the best, {}, gives {}: combine changes, or use another service.",
                            t.what,
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
                            t.what,
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
                region_features::write_lacks(f, feature, region)
            }
            Message::ReplicationPair { from, to } => region_features::write_pair(f, from, to),
            Message::RegionUnlisted { name } => region_features::write_unlisted(f, name),
            Message::Assumption { what, source } => {
                write!(f, "Assumption: {what} rests on {source}.")
            }
        }
    }
}
