//! Advice rules from the source documents, each with a stable code.

pub mod mounts;
pub mod rules;

use super::limits::as_display;
use super::trace::{Label, Num};
use serde::Serialize;
use std::fmt;

/// How much a piece of advice matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
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
#[derive(Debug, Clone, Serialize)]
pub struct Advice {
    /// Stable code, e.g. `nconnect`.
    pub code: &'static str,
    pub severity: Severity,
    /// The advice and its reason, formatted when shown.
    #[serde(serialize_with = "as_display")]
    pub message: Message,
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
        binding: Label,
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
    /// A value rests on an assumption.
    Assumption {
        what: &'static str,
        source: &'static str,
    },
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Message::Text(t) => f.write_str(t),
            Message::TargetsMissed {
                mibps,
                target_mibps,
                iops,
                target_iops,
                binding,
            } => {
                f.write_str("Targets missed: ")?;
                if let Some(t) = target_mibps {
                    write!(f, "{} of {} MiB/s", Num(mibps, 0), Num(t, 0))?;
                }
                if let Some(t) = target_iops {
                    if target_mibps.is_some() {
                        f.write_str(", ")?;
                    }
                    write!(f, "{} of {} IOPS", Num(iops, 0), Num(t, 0))?;
                }
                write!(
                    f,
                    ". Bound by {binding}; see the sizing table for a level and quota that meet them."
                )
            }
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
            Message::Assumption { what, source } => {
                write!(f, "Assumption: {what} rests on {source}.")
            }
        }
    }
}
