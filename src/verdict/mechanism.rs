//! What binds and by which mechanism: the binding limit with its formula and how close
//! the workload runs to it, and on AVS how the VMDK placement loads the datastores
//! (the busiest one caps the cluster when the VMDKs do not divide evenly).

use super::words::plural;
use crate::engine::evaluation::{Evaluation, Limit};
use crate::engine::limits::{Applies, Scope};
use crate::engine::scenario::{Placement, Scenario};
use crate::engine::trace::Formula;
use crate::format::{exact, num};

/// The binding limit of an evaluation, if it has a row.
pub fn binding_limit(e: &Evaluation) -> Option<&Limit> {
    e.limits.iter().find(|l| l.id == e.binding)
}

/// The name of the binding limit ("Volume QoS"), or its id when it has no limit row.
pub fn binding_name(e: &Evaluation) -> String {
    binding_limit(e).map_or_else(|| e.binding.to_owned(), |l| l.label.name.to_owned())
}

/// "Bound by Volume QoS: 4 x 20 TiB x 128 MiB/s per TiB = 10,240 MiB/s; the workload
/// runs at 99.5 % of it." with, on AVS, how the datastores are loaded.
pub fn binding(s: &Scenario, e: &Evaluation) -> String {
    let Some(l) = binding_limit(e) else {
        return format!("Bound by {}.", e.binding);
    };
    let which = match l.applies {
        Applies::Read if s.workload.read_pct < 100.0 => " for reads",
        Applies::Write if s.workload.read_pct > 0.0 => " for writes",
        _ => "",
    };
    let formula = l.label.formula.to_string();
    let mut out = if formula.is_empty() {
        format!("Bound by {}: {} MiB/s{which}", l.label.name, exact(l.mibps))
    } else {
        format!(
            "Bound by {}: {formula} = {} MiB/s{which}",
            l.label.name,
            exact(l.mibps)
        )
    };
    let share = 100.0 / (1.0 + l.headroom_pct / 100.0);
    if share.is_finite() && share > 0.0 {
        out.push_str(&format!(
            "; the workload runs at {}% of it",
            num(share.min(100.0), 1)
        ));
    }
    out.push('.');
    if let Some(load) = datastore_load(s) {
        out.push(' ');
        out.push_str(&load);
    }
    out
}

/// A short cause for comparisons and layouts: the binding limit with its value and, on
/// AVS where it is a per-datastore ceiling, how the datastores share the load: "the
/// busiest of 20 datastores holds 4 of 64 VMDKs, so Volume QoS caps it at 8,192
/// MiB/s", "16 of 20 datastores carry load, so ...", "the load spreads evenly over all
/// 20 datastores, so ...", or "Volume QoS caps it at 10,240 MiB/s".
pub fn cause(e: &Evaluation) -> String {
    let Some(l) = binding_limit(e) else {
        return format!("bound by {}", e.binding);
    };
    let caps = format!("{} caps it at {} MiB/s", l.label.name, num(l.mibps, 0));
    let per_datastore = matches!(l.scope, Scope::Volume | Scope::Datastore);
    match (
        l.label.formula,
        e.flows.datastores,
        e.flows.loaded_datastores,
    ) {
        (
            Formula::Busiest {
                of,
                on_busiest,
                units,
                unit,
                ..
            },
            _,
            _,
        ) if on_busiest > 1 => {
            format!(
                "the busiest of {of} datastores holds {on_busiest} of {units} {unit}, so {caps}"
            )
        }
        (_, Some(total), Some(loaded)) if per_datastore && loaded < total => format!(
            "{loaded} of {total} datastores {} load, so {caps}",
            if loaded == 1 { "carries" } else { "carry" }
        ),
        (_, Some(2), Some(_)) if per_datastore => {
            format!("the load spreads evenly over both datastores, so {caps}")
        }
        (_, Some(total), Some(_)) if per_datastore && total > 2 => {
            format!("the load spreads evenly over all {total} datastores, so {caps}")
        }
        _ => caps,
    }
}

/// How the VMDK placement loads the datastores of an AVS scenario: "64 VMDKs
/// round-robin over 20 datastores: 4 hold 4 each, 16 hold 3 each; the busiest sets the
/// pace." `None` without AVS.
pub fn datastore_load(s: &Scenario) -> Option<String> {
    let a = s.clients.avs.as_ref()?;
    let n = u64::from(s.storage.volume_count());
    let vms = u64::from(a.hosts) * u64::from(a.vms_per_host);
    let ds = |k: u64| plural(k, "datastore", "datastores");
    let (units, what) = match a.placement {
        Placement::Single => {
            return Some(if n == 1 {
                "Every VMDK sits on the one datastore.".to_owned()
            } else {
                format!(
                    "Every VMDK sits on the first datastore; the other {} carry no load.",
                    ds(n - 1)
                )
            });
        }
        Placement::Spread => (
            vms * u64::from(a.vmdks_per_vm),
            format!(
                "{} round-robin over {}",
                plural(vms * u64::from(a.vmdks_per_vm), "VMDK", "VMDKs"),
                ds(n)
            ),
        ),
        Placement::Dedicated => (
            vms,
            format!(
                "{}, all of each VM's VMDKs on one datastore, dealt in turn over {}",
                plural(vms, "VM", "VMs"),
                ds(n)
            ),
        ),
    };
    let unit = if a.placement == Placement::Dedicated {
        ("VM", "VMs")
    } else {
        ("VMDK", "VMDKs")
    };
    let (base, rem) = (units / n, units % n);
    let text = if base == 0 {
        format!(
            "{what}: {} {} one each, the other {} carry no load.",
            num(rem as f64, 0),
            if rem == 1 { "holds" } else { "hold" },
            num((n - rem) as f64, 0)
        )
    } else if rem == 0 {
        format!(
            "{what}: each holds {}, an even load.",
            plural(base, unit.0, unit.1)
        )
    } else {
        format!(
            "{what}: {} {} {} each, {} {} {} each; the busiest sets the pace for all.",
            num(rem as f64, 0),
            if rem == 1 { "holds" } else { "hold" },
            base + 1,
            num((n - rem) as f64, 0),
            if n - rem == 1 { "holds" } else { "hold" },
            base
        )
    };
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn avs(count: u32, quota: f64, vmdks: u32) -> Scenario {
        serde_json::from_value(serde_json::json!({
            "workload": {"io_size_kib": 64, "read_pct": 70, "access": "random", "threads": 8,
                         "queue_depth": 16, "capacity_tib": 80},
            "storage": {"service": "anf", "level": "ultra",
                        "volumes": [{"count": count, "quota_tib": quota}]},
            "clients": {"protocol": "nfsv3",
                        "avs": {"hosts": 4, "vms_per_host": 4, "vmdks_per_vm": vmdks, "placement": "spread"}}
        }))
        .unwrap()
    }

    #[test]
    fn unequal_vmdks_name_the_busiest_datastore() {
        let s = avs(20, 4.0, 4);
        let e = crate::engine::evaluate(&s).unwrap();
        let text = binding(&s, &e);
        assert!(
            text.contains("busiest of 20 datastores, which holds 4 of 64 VMDKs"),
            "{text}"
        );
        assert!(text.contains("= 8,192 MiB/s"), "{text}");
        assert!(
            text.contains("64 VMDKs round-robin over 20 datastores: 4 hold 4 each, 16 hold 3 each"),
            "{text}"
        );
        assert!(!text.contains("16 x 4 TiB"), "{text}");
        assert!(cause(&e).starts_with("the busiest of 20 datastores holds 4 of 64 VMDKs"));
        let even = avs(20, 4.0, 5);
        let e = crate::engine::evaluate(&even).unwrap();
        assert_eq!(
            cause(&e),
            "the load spreads evenly over all 20 datastores, so Volume QoS caps it at 10,240 MiB/s"
        );
        assert!(
            datastore_load(&even)
                .unwrap()
                .ends_with("each holds 4 VMDKs, an even load."),
            "{:?}",
            datastore_load(&even)
        );
    }

    #[test]
    fn idle_datastores_are_named_not_a_busiest_of_one() {
        for (placement, starts) in [
            (
                Placement::Dedicated,
                "16 of 20 datastores carry load, so Volume QoS caps it at",
            ),
            (Placement::Single, "1 of 20 datastores carries load, so"),
        ] {
            let mut s = avs(20, 4.0, 4);
            s.clients.avs.as_mut().unwrap().placement = placement;
            let text = cause(&crate::engine::evaluate(&s).unwrap());
            assert!(text.starts_with(starts), "{text}");
        }
    }
}
