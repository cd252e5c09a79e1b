//! What decides the answer: the scenario's neighbours within plausible ranges (VMDKs
//! per VM, placement, IO size, hosts, datastores or volumes, clients, nconnect, level),
//! each evaluated with the engine, and the ones that flip a target or the
//! recommendation (or, without targets, move the throughput by a tenth or more).
//!
//! A neighbour is one [`Change`] of one input; the same changes drive the "what
//! decides it" of comparisons and layouts, where a change flips which one wins.

use super::mechanism;
use super::words::{capitalised, count_x, level};
use super::{Sensitivity, TargetKind, Verdict};
use crate::engine::evaluation::Evaluation;
use crate::engine::plan::quota_range;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{Level, MAX_AVS_HOSTS, Placement, Protocol, Scenario, Service};
use crate::format::{capacity, mibps, monthly, num, signed_pct};
use crate::measure::calibrate::evaluate_as;
use serde_json::{Value, json};

/// A throughput change without targets that counts as deciding, in percent.
const MOVES_PCT: f64 = 10.0;

/// Most items a sensitivity strip lists.
pub const MAX_ITEMS: usize = 5;

/// IO sizes a workload plausibly has instead of its own, KiB.
const IO_SIZES: [f64; 3] = [8.0, 64.0, 256.0];

/// One input set to one value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Change {
    VmdksPerVm(u32),
    Placement(Placement),
    Hosts(u32),
    AvsNconnect(u32),
    /// The same total capacity over this many volumes (one group).
    Volumes(u32),
    Clients(u32),
    Nconnect(u32),
    IoSize(f64),
    Level(Level),
}

impl Change {
    /// The Scenario field it sets.
    pub fn input(self) -> &'static str {
        match self {
            Change::VmdksPerVm(_) => "clients.avs.vmdks_per_vm",
            Change::Placement(_) => "clients.avs.placement",
            Change::Hosts(_) => "clients.avs.hosts",
            Change::AvsNconnect(_) => "clients.avs.nconnect",
            Change::Volumes(_) => "storage.volumes",
            Change::Clients(_) => "clients.count",
            Change::Nconnect(_) => "clients.nconnect",
            Change::IoSize(_) => "workload.io_size_kib",
            Change::Level(_) => "storage.level",
        }
    }

    /// The value it sets, as JSON (the volume count for `storage.volumes`).
    pub fn value(self) -> Value {
        match self {
            Change::VmdksPerVm(n)
            | Change::Hosts(n)
            | Change::AvsNconnect(n)
            | Change::Volumes(n)
            | Change::Clients(n)
            | Change::Nconnect(n) => json!(n),
            Change::Placement(p) => serde_json::to_value(p).unwrap_or(Value::Null),
            Change::IoSize(k) => json!(k),
            Change::Level(l) => json!(l.key()),
        }
    }

    /// "with 5 VMDKs per VM", "at 8 KiB", "with 16 x 5 TiB datastores" (for `s`).
    pub fn phrase(self, s: &Scenario) -> String {
        match self {
            Change::VmdksPerVm(n) => {
                format!("with {n} VMDK{} per VM", if n == 1 { "" } else { "s" })
            }
            Change::Placement(Placement::Spread) => "with spread placement".to_owned(),
            Change::Placement(Placement::Dedicated) => "with dedicated placement".to_owned(),
            Change::Placement(Placement::Single) => "with every VMDK on one datastore".to_owned(),
            Change::Hosts(1) => "with one host".to_owned(),
            Change::Hosts(n) => format!("with {n} hosts"),
            Change::AvsNconnect(n) => format!(
                "with {n} connection{} per datastore",
                if n == 1 { "" } else { "s" }
            ),
            Change::Volumes(n) => format!(
                "with {} {}",
                count_x(n, s.storage.total_quota_tib() / f64::from(n.max(1))),
                super::words::volume_noun(s, true)
            ),
            Change::Clients(n) => format!("with {n} client VM{}", if n == 1 { "" } else { "s" }),
            Change::Nconnect(n) => format!("with nconnect {n}"),
            Change::IoSize(k) => format!("at {} KiB", num(k, 1)),
            Change::Level(l) => format!("at {}", level(s.storage.service, l)),
        }
    }

    /// `s` with the change made; `None` where the input does not apply.
    pub fn apply(self, s: &Scenario) -> Option<Scenario> {
        let mut v = s.clone();
        match self {
            Change::VmdksPerVm(n) => v.clients.avs.as_mut()?.vmdks_per_vm = n,
            Change::Placement(p) => v.clients.avs.as_mut()?.placement = p,
            Change::Hosts(n) => {
                let a = v.clients.avs.as_mut()?;
                a.hosts = n;
                if let Some(c) = a.cluster_hosts.as_mut() {
                    *c = (*c).max(n);
                }
            }
            Change::AvsNconnect(n) => v.clients.avs.as_mut()?.nconnect = n,
            Change::Volumes(n) => {
                if v.storage.volumes.len() != 1 {
                    return None;
                }
                let total = v.storage.total_quota_tib();
                let g = &mut v.storage.volumes[0];
                let per = f64::from(n);
                g.throughput_mibps = g.throughput_mibps.map(|t| t * f64::from(g.count) / per);
                g.iops = g.iops.map(|i| i * f64::from(g.count) / per);
                g.quota_tib = total / per;
                g.count = n;
                v.storage.pool_tib = None;
            }
            Change::Clients(n) => {
                if v.clients.avs.is_some() {
                    return None;
                }
                v.clients.count = n;
            }
            Change::Nconnect(n) => {
                if v.clients.avs.is_some() || !v.clients.protocol.is_nfs() {
                    return None;
                }
                v.clients.nconnect = n;
            }
            Change::IoSize(k) => v.workload.io_size_kib = k,
            Change::Level(l) => {
                v.storage.set_level(l);
                v.storage.pool_tib = None;
            }
        }
        (v != *s).then_some(v)
    }
}

/// The plausible neighbours of `s`, one input at a time; `layouts` leaves out the
/// volume count (a layouts sweep varies it already).
pub fn changes(s: &Scenario, layouts: bool) -> Vec<Change> {
    let mut out = Vec::new();
    let n: u32 = s.storage.volumes.iter().map(|g| g.count).sum();
    match &s.clients.avs {
        Some(a) => {
            out.push(Change::VmdksPerVm((a.vmdks_per_vm + 1).min(256)));
            if a.vmdks_per_vm > 1 {
                out.push(Change::VmdksPerVm(a.vmdks_per_vm - 1));
            }
            for p in [Placement::Spread, Placement::Dedicated] {
                if a.placement != p {
                    out.push(Change::Placement(p));
                }
            }
            if a.hosts > 1 {
                out.push(Change::Hosts(a.hosts - 1));
            }
            if a.hosts < MAX_AVS_HOSTS {
                out.push(Change::Hosts(a.hosts + 1));
            }
            if a.hosts > 2 {
                out.push(Change::Hosts(1));
            }
            out.push(Change::AvsNconnect(if a.nconnect == 1 { 4 } else { 1 }));
            if !layouts && s.storage.volumes.len() == 1 {
                let units = match a.placement {
                    Placement::Spread => a.hosts * a.vms_per_host * a.vmdks_per_vm,
                    Placement::Dedicated => a.hosts * a.vms_per_host,
                    Placement::Single => 1,
                };
                // The nearest count that spreads the units evenly, when this one does not.
                if units % n != 0
                    && let Some(d) = (1..=units.min(64))
                        .filter(|d| units % d == 0)
                        .min_by_key(|d| d.abs_diff(n))
                {
                    out.push(Change::Volumes(d));
                }
            }
        }
        None => {
            out.push(Change::Clients(
                s.clients.count.saturating_mul(2).min(100_000),
            ));
            if s.clients.count > 1 {
                out.push(Change::Clients(s.clients.count / 2));
            }
            if s.clients.protocol.is_nfs() && s.clients.protocol != Protocol::Smb3 {
                let c = s.clients.nconnect;
                if c < 4 {
                    out.push(Change::Nconnect(4));
                } else if c < 16 {
                    out.push(Change::Nconnect((c * 2).min(16)));
                }
            }
        }
    }
    if !layouts && s.storage.volumes.len() == 1 {
        if n > 1 {
            out.push(Change::Volumes(n / 2));
        }
        let (lo, _, _) = quota_range(s.storage.service, s.storage.level, s.storage.volume_kind);
        if s.storage.total_quota_tib() / f64::from(n * 2) >= lo {
            out.push(Change::Volumes(n * 2));
        }
    }
    for k in IO_SIZES {
        if (k - s.workload.io_size_kib).abs() > 1e-9 {
            out.push(Change::IoSize(k));
        }
    }
    let levels: Vec<Level> = Level::of(s.storage.service)
        .iter()
        .copied()
        .filter(|l| !matches!(l, Level::Flexible | Level::Flex))
        .collect();
    if let Some(i) = levels.iter().position(|l| *l == s.storage.level) {
        if i > 0 {
            out.push(Change::Level(levels[i - 1]));
        }
        if i + 1 < levels.len() {
            out.push(Change::Level(levels[i + 1]));
        }
    }
    if s.storage.service == Service::AzureFiles {
        out.retain(|c| !matches!(c, Change::Level(_)));
    }
    let mut seen = Vec::with_capacity(out.len());
    out.retain(|c| {
        let new = !seen.contains(c);
        seen.push(*c);
        new
    });
    out
}

/// The inputs that decide the verdict `v` of `s` (evaluation `e`).
pub fn sensitivity(
    s: &Scenario,
    e: &Evaluation,
    v: &Verdict,
    prices: &PriceBook,
) -> Vec<Sensitivity> {
    let has_targets = super::targets::has_targets(s);
    let rec_level = v.recommendation.as_ref().map(|r| r.level);
    // (rank: flips first, then by how much the throughput moves; the item)
    let mut found: Vec<(bool, f64, Sensitivity)> = Vec::new();
    for c in changes(s, false) {
        let Some(n) = c.apply(s) else { continue };
        let ev = if has_targets {
            evaluate_as(&n, prices, e.calibration.as_ref(), true)
        } else {
            evaluate_as(&n, prices, e.calibration.as_ref(), false)
        };
        let Ok(ev) = ev else { continue };
        let phrase = capitalised(&c.phrase(s));
        let moved = (ev.throughput_mibps / e.throughput_mibps - 1.0) * 100.0;
        let flips: Vec<String> = v
            .targets
            .iter()
            .filter_map(|t| {
                let now = met(&ev, t.target)?;
                (now != t.met).then(|| {
                    format!(
                        "the {} target is {}",
                        t.target.noun(),
                        if now { "met" } else { "missed" }
                    )
                })
            })
            .collect();
        let new_row = ev.sizing.iter().find(|r| r.cheapest);
        let new_rec = new_row.map(|r| r.level);
        let rec_flip = has_targets && new_rec != rec_level;
        let figures = format!(
            "{} ({}); {}",
            mibps(ev.throughput_mibps),
            signed_pct(moved),
            mechanism::cause(&ev)
        );
        let statement = if !flips.is_empty() {
            format!("{phrase}, {}: {figures}.", flips.join(" and "))
        } else if rec_flip {
            match new_row {
                Some(r) => format!(
                    "{phrase}, the cheapest level that meets every target is {} at {} ({}); as entered: {figures}.",
                    level(s.storage.service, r.level),
                    capacity(r.quota_tib),
                    monthly(r.monthly, ev.cost.currency)
                ),
                None => format!("{phrase}, no level meets every target: {figures}."),
            }
        } else if !has_targets && moved.abs() >= MOVES_PCT {
            format!("{phrase}: {figures}.")
        } else {
            continue;
        };
        found.push((
            !flips.is_empty() || rec_flip,
            moved,
            Sensitivity {
                input: c.input().to_owned(),
                value: c.value(),
                statement,
            },
        ));
    }
    // Flips first; then what would help (largest gain first) and what would hurt
    // (largest loss first), at most three gains while there are losses to show.
    let by_size = |a: &(bool, f64, Sensitivity), b: &(bool, f64, Sensitivity)| {
        b.1.abs().total_cmp(&a.1.abs())
    };
    let (flips, rest): (Vec<_>, Vec<_>) = found.into_iter().partition(|x| x.0);
    let (mut gains, mut losses): (Vec<_>, Vec<_>) = rest.into_iter().partition(|x| x.1 > 0.0);
    gains.sort_by(by_size);
    losses.sort_by(by_size);
    let room = MAX_ITEMS.saturating_sub(flips.len());
    let keep_gains = gains.len().min(3).max(room.saturating_sub(losses.len()));
    let mut out: Vec<Sensitivity> = flips.into_iter().map(|x| x.2).collect();
    out.extend(gains.into_iter().take(keep_gains).map(|x| x.2));
    out.extend(losses.into_iter().map(|x| x.2));
    out.truncate(MAX_ITEMS);
    out
}

/// Whether `e` meets target `kind`; `None` when it has no such target.
fn met(e: &Evaluation, kind: TargetKind) -> Option<bool> {
    let t = &e.targets;
    match kind {
        TargetKind::Capacity => Some(t.capacity_met),
        TargetKind::Throughput => t.mibps_met(),
        TargetKind::Iops => t.iops_met(),
        TargetKind::Latency => t.latency_met,
    }
}
