//! The advice rules: each looks at the plan and its limits and may add one piece of
//! advice with a stable code. Sources: domain.md sections 3 to 6, service-limits 2 and 6.

use super::{Advice, Message, Severity};
use crate::engine::catalog;
use crate::engine::connections::{self, multichannel_active};
use crate::engine::cost::Price;
use crate::engine::evaluation::{Sizing, Targets};
use crate::engine::limits::{LimitSet, RawLimit, Scope};
use crate::engine::model_step::{Core, core};
use crate::engine::plan::Plan;
use crate::engine::scenario::{Files, Level, NfsClient, Protocol, Service, VolumeKind};
use crate::engine::service::azure_files::{self, is_ssd};
use crate::engine::targets::judged_latency;
use crate::engine::units::mbps_to_mibps;

/// Runs every rule; the result is ordered warn, info, assumption. `sizing` is the
/// per-level table when the evaluation has one.
pub fn advise(
    p: &Plan,
    c: &Core,
    price: &Price,
    targets: &Targets,
    sizing: Option<&[Sizing]>,
) -> Vec<Advice> {
    let mut out = Vec::with_capacity(8);
    let mut add = |code: &'static str, severity: Severity, message: Message| {
        out.push(Advice {
            code,
            severity,
            field: None,
            message,
        });
    };
    if !targets.capacity_met {
        let (_, max_quota_tib, _) = p.quota_range();
        add(
            "capacity_short",
            Severity::Warn,
            Message::CapacityShort {
                have_tib: p.total_quota_tib,
                need_tib: p.capacity_tib,
                max_quota_tib,
            },
        );
    }
    let perf_met = targets.rate_met() && targets.latency_met != Some(false);
    if !perf_met {
        // Without a sizing table (a layouts row) nothing is claimed about other levels.
        let sizable = sizing.is_some_and(|rows| rows.iter().any(|r| r.meets));
        add(
            "targets_missed",
            Severity::Warn,
            Message::TargetsMissed {
                mibps: c.total,
                target_mibps: p.target_mibps,
                iops: c.iops(p),
                target_iops: p.target_iops,
                latency_ms: judged_latency(p, c.latency_ms(), c.latency_at_target_ms(p)),
                target_latency_ms: p.target_latency_ms,
                binding: c.binding.label,
                sizable,
            },
        );
        if sizing.is_some() && !sizable {
            add(
                "target_unreachable",
                Severity::Warn,
                super::reach::what_would_meet(p),
            );
        }
    }
    if let Some(m) = vm_size(p, c) {
        add("vm_size", Severity::Info, m);
    }
    if let Some(m) = spread_clients(p, c) {
        add("spread_clients", Severity::Info, m);
    }
    if let Some(m) = nconnect(p, c) {
        add("nconnect", Severity::Info, m);
    }
    smb_rules(p, &mut add);
    if let Some(a) = p.avs {
        if c.dist.used < p.n_volumes {
            add(
                "avs_idle_datastores",
                Severity::Info,
                Message::AvsIdleDatastores {
                    loaded: c.dist.used,
                    total: p.n_volumes,
                    vms: a.hosts * a.vms_per_host,
                    vmdks_per_vm: a.vmdks_per_vm,
                    dedicated: a.placement == crate::engine::scenario::Placement::Dedicated,
                },
            );
        }
        if p.n_volumes < 4 {
            add(
                "avs_datastores",
                Severity::Warn,
                Message::AvsDatastores { count: p.n_volumes },
            );
        } else if a.placement == crate::engine::scenario::Placement::Single {
            add("avs_placement", Severity::Info, Message::AvsPlacement);
        }
    }
    if c.binding.id == "volume_max" && p.service == Service::Anf && p.kind == VolumeKind::Regular {
        add("large_volume", Severity::Info, Message::LargeVolume);
    }
    if matches!(c.binding.id, "file" | "file_iops") {
        add("spread_files", Severity::Info, Message::SpreadFiles);
    }
    if p.service == Service::AzureFiles && p.level == Level::SsdV1 && c.binding.id == "service_iops"
    {
        let gib = p.volumes.group(0).quota_tib * 1024.0;
        add(
            "burst",
            Severity::Info,
            Message::Burst {
                burst_iops: azure_files::v1_burst_iops(gib),
                baseline_iops: azure_files::v1_iops(gib),
            },
        );
    }
    nfs_rules(p, &mut add);
    cost_rules(p, c, price, targets, &mut add);
    assumptions(c, price, &mut add);
    if let Some(region) = p.rates.anf_key {
        super::region_features::advise(p, region, &mut out);
    }
    out.sort_by_key(|a| a.severity);
    out
}

/// Cost and cool access: whether the cool reads cost the targets, the retrieval price,
/// and lines the price book cannot price.
fn cost_rules(
    p: &Plan,
    c: &Core,
    price: &Price,
    targets: &Targets,
    add: &mut impl FnMut(&'static str, Severity, Message),
) {
    if let Some(cool) = p.cool
        && !targets.met
        && cool.cool_read_pct > 0.0
    {
        let mut hot = *p;
        hot.cool = Some(crate::engine::scenario::CoolAccess {
            cool_read_pct: 0.0,
            ..cool
        });
        let mut set = LimitSet::default();
        let h = core(&hot, &mut set);
        let latency = judged_latency(&hot, h.latency_ms(), h.latency_at_target_ms(&hot));
        if crate::engine::targets::targets(&hot, h.total, latency).met {
            add(
                "cool_reads",
                Severity::Warn,
                Message::CoolReads {
                    cool_read_pct: cool.cool_read_pct,
                    mibps: c.total,
                    hot_mibps: h.total,
                },
            );
        }
    }
    if let Some(a) = p.avs
        && price
            .lines
            .iter()
            .any(|l| l.item == crate::engine::cost::AVS_HOSTS && l.monthly.is_none())
    {
        add(
            "avs_hosts_unpriced",
            Severity::Info,
            Message::AvsHostsUnpriced {
                sku: a.host.sku.as_str(),
                // AVS datastores are ANF volumes: the region is one of the book's.
                region: p.rates.anf_key.unwrap_or("its region"),
            },
        );
    }
    if price.cool_tib > 0.0 && p.cool.is_some_and(|c| c.retrieved_pct_per_month.is_none()) {
        add(
            "cool_retrieval",
            Severity::Info,
            Message::CoolRetrieval {
                // The region's price, the catalog's where the book has none.
                usd_per_gib: p.rates.anf.and_then(|r| r.cool_transfer).unwrap_or(
                    catalog::catalog()
                        .services
                        .anf
                        .cool_tier
                        .retrieval_usd_per_gib,
                ),
                cool_tib: price.cool_tib,
            },
        );
    }
}

fn is_client_side(l: &RawLimit) -> bool {
    matches!(
        l.scope,
        Scope::Client | Scope::Connection | Scope::Workload | Scope::Vm | Scope::Host
    )
}

fn vm_size(p: &Plan, c: &Core) -> Option<Message> {
    if !matches!(c.binding.id, "client_egress" | "client_ingress") || p.avs.is_some() {
        return None;
    }
    let next = c.next_total(p, |l| l.scope == Scope::Client);
    let share = if c.binding.id == "client_egress" {
        1.0 - p.r
    } else {
        p.r
    };
    let needed = if next.is_finite() {
        next * share / f64::from(p.clients)
    } else {
        c.binding.mibps / f64::from(p.clients) * 2.0
    };
    let cloud = p.vm.map_or("azure", |v| v.cloud.as_str());
    let current = p.egress.map_or(0.0, |e| e.mibps);
    let pick = catalog::vm_sizes()
        .iter()
        .filter(|v| v.cloud == cloud && mbps_to_mibps(v.egress_mbps) > current)
        .filter(|v| mbps_to_mibps(v.egress_mbps) >= needed)
        .min_by(|a, b| {
            a.egress_mbps
                .total_cmp(&b.egress_mbps)
                .then(a.vcpu.cmp(&b.vcpu))
        })
        .or_else(|| {
            catalog::vm_sizes()
                .iter()
                .filter(|v| v.cloud == cloud && mbps_to_mibps(v.egress_mbps) > current)
                .max_by(|a, b| a.egress_mbps.total_cmp(&b.egress_mbps))
        })?;
    let mibps = mbps_to_mibps(pick.egress_mbps);
    Some(Message::VmSize {
        name: pick.name.as_str(),
        azure: pick.cloud == "azure",
        mbps: pick.egress_mbps,
        mibps,
        next_mibps: next.min(mibps * f64::from(p.clients) / share.max(1e-9)),
    })
}

fn spread_clients(p: &Plan, c: &Core) -> Option<Message> {
    if !is_client_side(c.binding) || c.binding.id == "client_egress" && p.avs.is_none() {
        return None;
    }
    let storage = c.next_total(p, is_client_side);
    let headroom = (storage / c.total - 1.0) * 100.0;
    // Advice trigger, not a catalog figure: spreading only pays when storage has
    // clearly more room than the clients (20 %, the "unexplained gap" margin).
    (headroom >= 20.0 && storage.is_finite()).then_some(Message::SpreadClients {
        binding: c.binding.label.name,
        storage_headroom_pct: headroom,
    })
}

fn nconnect(p: &Plan, c: &Core) -> Option<Message> {
    // nconnect=4 is "best in most environments" (domain.md 6): suggest up to it.
    // Oracle Direct NFS opens its own connections: nconnect does not apply.
    if !p.protocol.is_nfs() || p.avs.is_some() || p.nconnect >= 4 || p.nfs_client == NfsClient::Dnfs
    {
        return None;
    }
    let suggested = if p.service == Service::Gcnv { 8 } else { 4 };
    let now = connection_ceiling(p, c)?;
    // The same ceiling with the suggested connections (not the whole model's total,
    // which another limit may hold below the ceiling it starts from).
    let mut alt = *p;
    alt.nconnect = suggested;
    let then = connection_ceiling(&alt, &core(&alt, &mut LimitSet::default()))?;
    if then <= now {
        return None;
    }
    let binding_is_conn = matches!(
        c.binding.id,
        "connection" | "connection_bytes" | "concurrency"
    );
    (binding_is_conn || p.nconnect == 1).then_some(Message::Nconnect {
        current: p.nconnect,
        suggested,
        now_mibps: now,
        then_mibps: then,
    })
}

/// The connection ceiling of plan `p`: the lowest per-connection limit as a total at
/// its mix, MiB/s.
fn connection_ceiling(p: &Plan, c: &Core) -> Option<f64> {
    c.limits
        .iter()
        .filter(|l| matches!(l.id, "connection" | "connection_bytes"))
        .map(|l| l.total_at(p.r))
        .reduce(f64::min)
}

fn smb_rules(p: &Plan, add: &mut impl FnMut(&'static str, Severity, Message)) {
    if p.protocol != Protocol::Smb3 {
        return;
    }
    let small = p.io_kib <= catalog::catalog().services.azure_files.smb.small_io_kib;
    if p.smb_multichannel && !connections::supports_multichannel(p) {
        add(
            "smb_multichannel_hdd",
            Severity::Warn,
            Message::SmbMultichannelHdd,
        );
    }
    if multichannel_active(p) && p.threads == 1 && small {
        add(
            "smb_multichannel_off",
            Severity::Info,
            Message::SmbMultichannelOff,
        );
    } else if !p.smb_multichannel && p.threads > 1 && connections::supports_multichannel(p) {
        add("smb_multichannel", Severity::Info, Message::SmbMultichannel);
    }
    if p.service == Service::AzureFiles && p.metadata_heavy && is_ssd(p.level) {
        add("metadata_caching", Severity::Info, Message::MetadataCaching);
    }
    if p.service == Service::AzureFiles
        && (p.files == Files::One || p.metadata_heavy)
        // Warn at half the 2,000-handle soft limit per file or directory.
        && u64::from(p.clients) * u64::from(p.threads) > u64::from(catalog::catalog().services.azure_files.handles_per_file / 2)
    {
        add("handles", Severity::Info, Message::Handles);
    }
}

fn nfs_rules(p: &Plan, add: &mut impl FnMut(&'static str, Severity, Message)) {
    if !p.protocol.is_nfs() {
        return;
    }
    let slots = &catalog::catalog().model.slots;
    let want = f64::from(p.threads) * f64::from(p.queue_depth);
    // The 180 slots per session and the rsize/wsize findings are ANF's published
    // figures; the messages name ANF, so they are given for ANF only.
    let anf = p.service == Service::Anf;
    if anf
        && p.protocol == Protocol::Nfsv41
        && want / f64::from(p.n_volumes) > slots.nfsv41_session_default
    {
        add(
            "session_slots",
            Severity::Info,
            Message::SessionSlots {
                wanted: want / f64::from(p.n_volumes),
            },
        );
    }
    if p.protocol == Protocol::Nfsv3 && p.avs.is_none() {
        let per_conn = want / connections::connections_per_client(p) as f64;
        if per_conn > slots.nfsv3_per_connection {
            add(
                "slot_table",
                Severity::Info,
                Message::SlotTable {
                    per_connection: per_conn,
                },
            );
        }
    }
    // Large sequential IO is where rsize/wsize matter (buffered IO uses them).
    if anf && p.io_kib > 64.0 {
        add("rsize_wsize", Severity::Info, Message::RsizeWsize);
    }
}

fn assumptions(c: &Core, price: &Price, add: &mut impl FnMut(&'static str, Severity, Message)) {
    let mut seen: [Option<crate::engine::source::Source>; 8] = [None; 8];
    let mut n = 0;
    for l in c.limits.iter().filter(|l| l.assumption) {
        if n < seen.len() && !seen[..n].contains(&Some(l.source)) {
            seen[n] = Some(l.source);
            n += 1;
            add(
                "assumption",
                Severity::Assumption,
                Message::Assumption {
                    what: l.label.name,
                    source: l.source,
                },
            );
        }
    }
    if price.assumption {
        add("assumption", Severity::Assumption, Message::PriceAssumption);
    }
}
