//! What would meet a target that no level reaches with the scenario's layout: each
//! change is evaluated with the whole model at the best level and largest volume, and
//! judged by every target (the rate and, when one is set, the latency at that rate), so
//! the advice names the target that really fails.

use super::{Change, Message, Try, UNREACHABLE_TRIES};
use crate::engine::limits::LimitSet;
use crate::engine::model_step::core;
use crate::engine::plan::{Plan, quota_range};
use crate::engine::scenario::{Level, Protocol};
use crate::engine::targets::{judged_latency, target_iops, targets};
use crate::engine::units::iops_to_mibps;

/// `p` at its service's best level with `count` volumes at the largest quota: the
/// achievable MiB/s, the latency the latency target is judged by, and whether it meets
/// the rate and latency targets.
fn best(p: &Plan, count: u32) -> Try {
    let level = *Level::of(p.service)
        .iter()
        .rev()
        .find(|l| !matches!(l, Level::Flexible | Level::Flex))
        .unwrap_or(&p.level);
    let (_, hi, _) = quota_range(p.service, level, p.kind);
    let mut alt = *p;
    alt.set_uniform(level, count, hi, None, None);
    let mut set = LimitSet::default();
    let c = core(&alt, &mut set);
    let latency_ms = judged_latency(&alt, c.latency_ms(), c.latency_at_target_ms(&alt));
    let t = targets(&alt, c.total, latency_ms);
    let rate_met = t.rate_met();
    Try {
        what: None,
        mibps: c.total,
        latency_ms,
        meets: rate_met && t.latency_met != Some(false),
    }
}

/// Tries more volumes, more clients (or AVS hosts), more VMDKs per VM, and more
/// outstanding IOs, one at a time; `as_is` is the scenario's own layout at the best level.
pub fn what_would_meet(p: &Plan) -> Message {
    let need = target_iops(p).map_or(0.0, |i| iops_to_mibps(i, p.io_kib));
    let n = p.n_volumes.max(1);
    let named = |what: Change, t: Try| Try {
        what: Some(what),
        ..t
    };
    let mut tried = [Try::default(); UNREACHABLE_TRIES];
    tried[0] = named(
        if p.avs.is_some() {
            Change::MoreDatastores
        } else {
            Change::MoreVolumes
        },
        best(p, n * 2),
    );
    let mut more = *p;
    if let Some(mut a) = p.avs {
        // An AVS cluster has at most 16 hosts (contract; service-limits AVS).
        a.hosts = (a.hosts * 2).min(16);
        more.avs = Some(a);
        more.clients = a.hosts * a.vms_per_host;
        tried[1] = named(Change::MoreHosts, best(&more, n));
        let mut wide = *p;
        a = p.avs.expect("AVS plan");
        // The scenario format's own bounds (Scenario::validate).
        a.vmdks_per_vm = (a.vmdks_per_vm * 4).min(256);
        wide.avs = Some(a);
        tried[2] = named(Change::MoreVmdks, best(&wide, n));
    } else {
        more.clients = p.clients.saturating_mul(2);
        tried[1] = named(Change::MoreClients, best(&more, n));
        let mut conn = *p;
        if p.protocol == Protocol::Smb3 {
            conn.smb_multichannel = true;
            conn.smb_channels = 4;
            tried[2] = named(Change::SmbChannels, best(&conn, n));
        } else {
            // nconnect allows up to 16 connections per endpoint (domain.md 6).
            conn.nconnect = 16;
            tried[2] = named(Change::MostConnections, best(&conn, n));
        }
    }
    let mut deep = *p;
    // At most the format's queue depth (Scenario::validate).
    deep.queue_depth = (p.queue_depth * 4).min(1024);
    tried[3] = named(Change::DeeperQueue, best(&deep, n));
    let latency = p.target_latency_ms.map(|t| {
        let mut set = LimitSet::default();
        (t, core(p, &mut set).network.unloaded_s() * 1000.0)
    });
    // The capacity alone may not fit the volumes at any level.
    let largest = Level::of(p.service)
        .iter()
        .map(|&l| quota_range(p.service, l, p.kind).1)
        .fold(0.0, f64::max);
    let too_big =
        (p.capacity_tib / f64::from(n) > largest + 1e-9).then_some((p.capacity_tib, n, largest));
    Message::TargetUnreachable {
        need_mibps: need,
        latency,
        as_is: best(p, n),
        tried,
        too_big,
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{Scenario, evaluate};

    fn scenario(json: &str) -> Scenario {
        serde_json::from_str(json).expect("test scenario parses")
    }

    #[test]
    fn one_large_volume_cannot_reach_20000_but_two_could() {
        // The count is the user's: sizing keeps one volume, and neither a regular nor a
        // large one (12,800 MiB/s at most) carries 20,000 MiB/s.
        let s = scenario(
            r#"{"workload": {"io_size_kib": 64, "read_pct": 100, "threads": 16, "queue_depth": 32,
                "capacity_tib": 60, "target_mibps": 20000},
                "storage": {"service": "anf", "level": "premium", "volume_kind": "large",
                "volumes": [{"count": 1, "quota_tib": 60}], "fixed_count": true},
                "clients": {"count": 8, "egress_mibps": 100000, "ingress_mibps": 100000,
                "protocol": "nfsv3", "nconnect": 8}}"#,
        );
        let ev = evaluate(&s).unwrap();
        let a = ev
            .advice
            .iter()
            .find(|a| a.code == "target_unreachable")
            .expect("target_unreachable fires");
        let text = a.message.to_string();
        assert!(text.contains("twice the volumes"), "{text}");
        assert!(text.contains("What would meet it"), "{text}");
        let missed = ev
            .advice
            .iter()
            .find(|a| a.code == "targets_missed")
            .unwrap();
        assert!(!missed.message.to_string().contains("sizing table"));
        // A latency below the round trip says so instead.
        let mut s = s;
        s.workload.target_mibps = Some(100.0);
        s.workload.target_latency_ms = Some(0.05);
        let ev = evaluate(&s).unwrap();
        let a = ev
            .advice
            .iter()
            .find(|a| a.code == "target_unreachable")
            .unwrap();
        assert!(
            a.message
                .to_string()
                .contains("round trip without any queueing"),
            "{}",
            a.message
        );
    }

    #[test]
    fn idle_datastores_are_named_with_the_reason() {
        let s = scenario(
            r#"{"workload": {"io_size_kib": 8, "read_pct": 70, "access": "random", "threads": 4,
                "queue_depth": 16, "capacity_tib": 80},
                "storage": {"service": "anf", "level": "ultra", "volumes": [{"count": 20, "quota_tib": 4}]},
                "clients": {"protocol": "nfsv3",
                "avs": {"hosts": 4, "vms_per_host": 1, "vmdks_per_vm": 1, "placement": "spread"}}}"#,
        );
        let ev = evaluate(&s).unwrap();
        assert_eq!(ev.flows.datastores, Some(20));
        assert_eq!(ev.flows.loaded_datastores, Some(4));
        let a = ev
            .advice
            .iter()
            .find(|a| a.code == "avs_idle_datastores")
            .expect("avs_idle_datastores fires");
        assert!(
            a.message
                .to_string()
                .starts_with("4 of 20 datastores carry load: 4 VMs with 1 VMDK each"),
            "{}",
            a.message
        );
    }
}
