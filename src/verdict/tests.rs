//! The verdict on the cases that used to be concluded wrongly, and properties that every
//! claim agrees with the figures it summarises.

use super::*;
use crate::engine::pricing::book;
use crate::engine::scenario::{Level, Qos};
use crate::engine::{Scenario, evaluate};
use proptest::prelude::*;
use serde_json::json;

fn scenario(v: serde_json::Value) -> Scenario {
    serde_json::from_value(v).expect("test scenario parses")
}

/// The mission's AVS example: 4 hosts x 4 VMs x `vmdks` VMDKs, spread, on `count` x
/// `80 / count` TiB Ultra datastores.
fn avs(count: u32, vmdks: u32) -> Scenario {
    scenario(json!({
        "name": format!("{count} datastores"),
        "workload": {"io_size_kib": 64, "read_pct": 70, "access": "random", "threads": 8,
                     "queue_depth": 16, "capacity_tib": 80},
        "storage": {"service": "anf", "level": "ultra",
                    "volumes": [{"count": count, "quota_tib": 80.0 / f64::from(count)}]},
        "clients": {"count": 4, "protocol": "nfsv3",
                    "avs": {"hosts": 4, "vms_per_host": 4, "vmdks_per_vm": vmdks, "placement": "spread"}}
    }))
}

fn judged(s: &Scenario) -> Verdict {
    let e = evaluate(s).unwrap();
    evaluation(s, &e, book())
}

#[test]
fn the_scenarios_own_row_gives_the_scenarios_own_figures() {
    // Azure Files shares of a fractional GiB: the sizing rounds each quota up a GiB, yet
    // the row of the provisioning as entered gives the scenario's own cost and rate.
    let s = scenario(json!({
        "workload": {"io_size_kib": 8, "read_pct": 95, "access": "random", "threads": 7,
                     "queue_depth": 16, "capacity_tib": 261.21243390104803},
        "storage": {"service": "azure_files", "level": "ssd_v1",
                    "volumes": [{"count": 4, "quota_tib": 65.30310847526201}]},
        "clients": {"count": 18, "vm_size": "L48s_v3", "protocol": "smb3",
                    "smb_multichannel": true}
    }));
    let e = evaluate(&s).unwrap();
    let v = evaluation(&s, &e, book());
    let own = v
        .sizing
        .iter()
        .find(|r| r.level == s.storage.level)
        .expect("the level as entered has a row");
    assert_eq!(own.monthly, e.cost.monthly);
    assert_eq!(own.throughput_mibps, Some(e.throughput_mibps));
}

#[test]
fn twenty_small_datastores_name_the_imbalance() {
    let v = judged(&avs(20, 4));
    assert!(
        v.binding
            .contains("busiest of 20 datastores, which holds 4 of 64 VMDKs"),
        "{}",
        v.binding
    );
    assert!(
        v.binding.contains("4 hold 4 each, 16 hold 3 each"),
        "{}",
        v.binding
    );
    assert!(v.statements.contains(&v.binding));
    // Spreading the 64 VMDKs evenly (16 datastores) is what decides it.
    assert!(
        v.sensitivity
            .iter()
            .any(|x| x.input == "clients.avs.vmdks_per_vm" || x.input == "storage.volumes"),
        "{:?}",
        v.sensitivity
    );
}

#[test]
fn four_by_twenty_beats_twenty_by_four_until_five_vmdks_per_vm() {
    for vmdks in [4, 5] {
        let (a, b) = (avs(4, vmdks), avs(20, vmdks));
        let (ea, eb) = (evaluate(&a).unwrap(), evaluate(&b).unwrap());
        let entries = [
            compare::Entry {
                name: "4 x 20 TiB",
                scenario: &a,
                evaluation: &ea,
            },
            compare::Entry {
                name: "20 x 4 TiB",
                scenario: &b,
                evaluation: &eb,
            },
        ];
        let v = compare::compare(&entries, book());
        if vmdks == 4 {
            assert!(
                v.statements[0].starts_with("4 x 20 TiB beats"),
                "{:?}",
                v.statements
            );
            // What decides it: one more VMDK per VM evens the load, and the gap closes.
            let flip = v
                .sensitivity
                .iter()
                .find(|x| x.input == "clients.avs.vmdks_per_vm")
                .expect("VMDKs per VM decide it");
            assert!(
                flip.statement.starts_with("With 5 VMDKs per VM, they tie"),
                "{}",
                flip.statement
            );
        } else {
            // 80 VMDKs spread evenly: both reach the same QoS within the model's
            // precision, so neither is called the winner.
            assert!(
                v.statements[0].starts_with("No clear winner"),
                "{:?}",
                v.statements
            );
            assert_eq!(v.best, None);
        }
    }
}

/// 50 TiB on one volume that must give 3,000 MiB/s at 2 ms or less.
fn fifty_at_two_ms(level: &str) -> Scenario {
    scenario(json!({
        "name": "50 TiB at 2 ms",
        "workload": {"io_size_kib": 64, "read_pct": 100, "access": "sequential", "threads": 16,
                     "queue_depth": 16, "capacity_tib": 50, "target_mibps": 3000,
                     "target_latency_ms": 2},
        "storage": {"service": "anf", "level": level, "volumes": [{"count": 1, "quota_tib": 50}]},
        "clients": {"count": 4, "vm_size": "Standard_E32s_v5", "protocol": "nfsv3", "nconnect": 4}
    }))
}

#[test]
fn the_latency_target_is_named_when_it_is_the_one_that_fails() {
    let s = fifty_at_two_ms("ultra");
    let e = evaluate(&s).unwrap();
    let v = evaluation(&s, &e, book());
    let rate = v
        .targets
        .iter()
        .find(|t| t.target == TargetKind::Throughput)
        .unwrap();
    assert!(rate.met, "{}", rate.statement);
    let latency = v
        .targets
        .iter()
        .find(|t| t.target == TargetKind::Latency)
        .unwrap();
    assert!(!latency.met);
    assert!(
        latency.statement.contains("above the 2 ms target"),
        "{}",
        latency.statement
    );
    // No row meets both; the statement says the rate is reached and the latency is not.
    if v.recommendation.is_none() {
        let none = v
            .statements
            .iter()
            .find(|t| t.starts_with("No level meets every target"))
            .expect("says no level meets");
        assert!(none.contains("2 ms per IO at 3,000 MiB/s"), "{none}");
        assert!(!none.contains("No level meets 3,000 MiB/s"), "{none}");
    }
    let ultra = v.sizing.iter().find(|r| r.level == Level::Ultra).unwrap();
    if !ultra.meets {
        assert!(ultra.statement.contains("but takes"), "{}", ultra.statement);
    }
}

#[test]
fn a_capacity_shortfall_is_a_missed_target_with_advice() {
    let s = scenario(json!({
        "name": "500 TiB on 10",
        "workload": {"io_size_kib": 64, "read_pct": 70, "capacity_tib": 500},
        "storage": {"service": "anf", "level": "premium", "volumes": [{"count": 1, "quota_tib": 10}]},
        "clients": {"count": 2, "vm_size": "Standard_D16s_v5", "protocol": "nfsv3", "nconnect": 4}
    }));
    let e = evaluate(&s).unwrap();
    assert!(!e.targets.met && !e.targets.capacity_met);
    assert!(e.advice.iter().any(|a| a.code == "capacity_short"));
    let v = evaluation(&s, &e, book());
    assert_eq!(v.targets[0].target, TargetKind::Capacity);
    assert!(!v.targets[0].met);
    assert_eq!(
        v.targets[0].statement,
        "Capacity: 10 TiB provisioned for 500 TiB needed: 490 TiB short."
    );
}

#[test]
fn flexible_with_auto_qos_is_refused_and_saved_ones_read_as_manual() {
    let mut s = fifty_at_two_ms("flexible");
    let e = crate::engine::check(&s, crate::engine::pricing::book()).unwrap_err();
    assert_eq!(e.first().field, "storage.qos");
    s.upgrade();
    assert_eq!(s.storage.qos, Qos::Manual);
    crate::engine::check(&s, crate::engine::pricing::book()).unwrap();
    let mut zero = avs(4, 4);
    zero.workload.capacity_tib = 0.0;
    assert_eq!(
        crate::engine::check(&zero, crate::engine::pricing::book())
            .unwrap_err()
            .first()
            .field,
        "workload.capacity_tib"
    );
    zero.upgrade();
    assert_eq!(zero.workload.capacity_tib, 80.0);
}

#[test]
fn the_recommendation_applied_is_what_it_says() {
    let mut s = fifty_at_two_ms("premium");
    s.workload.target_latency_ms = None;
    let v = judged(&s);
    let r = v.recommendation.expect("a level meets 3,000 MiB/s");
    let mut applied = s.clone();
    r.apply_to(&mut applied);
    let e = evaluate(&applied).unwrap();
    assert!(e.targets.met, "{}", r.statement);
    assert_eq!(e.cost.monthly, r.monthly);
    assert!(
        r.statement
            .starts_with("Cheapest that meets every target: "),
        "{}",
        r.statement
    );
    // Applied, it is the recommendation as entered.
    let again = judged(&applied).recommendation.unwrap();
    assert!(again.current, "{}", again.statement);
}

#[test]
fn the_headline_latency_is_at_the_target_rate_and_names_the_concurrency() {
    let v = judged(&fifty_at_two_ms("ultra"));
    assert!(v.latency.at_target);
    assert!(
        v.latency
            .statement
            .contains("at the target rate (3,000 MiB/s)"),
        "{}",
        v.latency.statement
    );
    assert!(
        v.latency
            .statement
            .contains("16 threads x 16 queue depth x 4 clients"),
        "{}",
        v.latency.statement
    );
}

/// Every "costs $X/month less|more" claim of `text`, with the name nearest before it
/// (its subject), the amount and the word.
fn cost_claims<'a>(text: &str, names: [&'a str; 2]) -> Vec<(&'a str, f64, &'static str)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = text[at..].find("costs $") {
        let start = at + i + "costs $".len();
        let rest = &text[start..];
        let end = rest.find("/month ").unwrap_or(rest.len());
        let amount: f64 = rest[..end].replace(',', "").parse().unwrap_or(f64::NAN);
        let word = if rest[end..].starts_with("/month less") {
            "less"
        } else if rest[end..].starts_with("/month more") {
            "more"
        } else {
            ""
        };
        let before = &text[..at + i];
        let subject = names
            .iter()
            .copied()
            .max_by_key(|n| before.rfind(n).map_or(-1, |p| p as i64))
            .unwrap();
        if !word.is_empty() {
            out.push((subject, amount, word));
        }
        at = start;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whatever two scenarios are compared, each "costs $X/month less" or "more" names
    /// the difference of their monthly figures, in the direction of the figures, and
    /// "the same cost" means the same figure.
    #[test]
    fn a_cost_claim_agrees_with_the_figures(
        levels in (0usize..3, 0usize..3),
        counts in (1u32..9, 1u32..9),
        quota in 1.0f64..40.0,
        target in prop::option::of(100.0f64..6000.0),
    ) {
        let level = |i: usize| ["standard", "premium", "ultra"][i];
        let make = |l: usize, n: u32| {
            let mut s = scenario(json!({
                "name": format!("{} x {n}", level(l)),
                "workload": {"io_size_kib": 64, "read_pct": 70, "threads": 8, "queue_depth": 16,
                             "capacity_tib": quota},
                "storage": {"service": "anf", "level": level(l),
                            "volumes": [{"count": n, "quota_tib": quota}]},
                "clients": {"count": 4, "vm_size": "Standard_E32s_v5", "protocol": "nfsv3", "nconnect": 4}
            }));
            s.workload.target_mibps = target;
            s
        };
        let (a, b) = (make(levels.0, counts.0), make(levels.1, counts.1));
        let (ea, eb) = (evaluate(&a).unwrap(), evaluate(&b).unwrap());
        let names = ["Alpha", "Bravo"];
        let entries = [
            compare::Entry { name: names[0], scenario: &a, evaluation: &ea },
            compare::Entry { name: names[1], scenario: &b, evaluation: &eb },
        ];
        let v = compare::compare(&entries, book());
        let text = &v.statements[0];
        let cost = |n: &str| if n == names[0] { ea.cost.monthly.unwrap() } else { eb.cost.monthly.unwrap() };
        let (ma, mb) = (cost(names[0]), cost(names[1]));
        for (subject, amount, word) in cost_claims(text, names) {
            let other = if subject == names[0] { names[1] } else { names[0] };
            let diff = cost(subject) - cost(other);
            match word {
                "less" => prop_assert!(diff < 0.0, "{text}"),
                _ => prop_assert!(diff > 0.0, "{text}"),
            }
            // Whole dollars from $100 up, cents below.
            prop_assert!((amount - diff.abs()).abs() <= 0.51, "{text}: {amount} vs {}", diff.abs());
        }
        if text.contains("the same cost") {
            prop_assert!((ma - mb).abs() <= 0.005, "{text}");
        }
        if let (Some(best), Some(_)) = (v.best, target) {
            let (bw, bo) = if best == 0 { (&ea, &eb) } else { (&eb, &ea) };
            if bw.targets.met && bo.targets.met {
                prop_assert!(bw.cost.monthly <= bo.cost.monthly, "{text}");
            }
        }
    }
}

/// An inventory of `n` VMs with performance figures (vCPUs, GiB, TiB, IOPS, MiB/s).
fn inventory(vms: &[(u32, f64, f64, f64, f64)]) -> crate::inventory::Inventory {
    use crate::inventory::{Inventory, PowerState, Summary, Vm};
    let mut inv = Inventory {
        vms: vms
            .iter()
            .enumerate()
            .map(|(i, &(vcpus, gib, tib, iops, mibps))| Vm {
                vm: format!("vm{i:04}"),
                powerstate: PowerState::PoweredOn,
                cluster: None,
                host: None,
                datastore: None,
                vcpus,
                memory_mib: gib * 1024.0,
                provisioned_mib: tib * 1_048_576.0,
                in_use_mib: tib * 1_048_576.0,
                guest_used_mib: None,
                disks: vec![],
                iops: Some(iops),
                mibps: Some(mibps),
                flags: vec![],
            })
            .collect(),
        excluded: vec![],
        summary: Summary::default(),
    };
    inv.total();
    inv
}

/// The TCO table's monthly figure and total over the term's years, per option.
fn table(t: &crate::avs::tco::OptionCost, term: crate::avs::PurchaseTerm) -> (f64, f64) {
    use crate::avs::PurchaseTerm::*;
    let y = |years: u32| t.totals.iter().find(|x| x.years == years).unwrap();
    match term {
        Payg => (t.monthly.payg, y(3).payg),
        OneYear => (t.monthly.reserved_1y, y(1).reserved),
        ThreeYears => (t.monthly.reserved_3y, y(3).reserved),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// In every region that prices the host and at every term, the AVS headline names
    /// the option the table shows cheaper, by the table's difference a month and over
    /// the term, and never a negative saving.
    #[test]
    fn the_avs_headline_agrees_with_its_table_in_every_region_and_term(
        vms in prop::collection::vec((1u32..24, 8.0f64..192.0, 0.05f64..6.0, 10.0f64..2000.0, 0.5f64..40.0), 2..40),
        region in 0usize..64,
    ) {
        use crate::avs::{PlanRequest, PurchaseTerm};
        let regions: Vec<&String> = book().avs.keys().filter(|r| book().anf(r).is_some()).collect();
        let region = regions[region % regions.len()].clone();
        let mut req = PlanRequest::new(inventory(&vms));
        req.region = Some(region.clone());
        let plan = crate::avs::plan(&req, book()).unwrap();
        for term in PurchaseTerm::ALL {
            let v = avs::verdict(&plan, term);
            prop_assert!(!v.statement.contains("-$"), "{region}: {}", v.statement);
            if !plan.tco.hosts_priced {
                prop_assert!(v.statement.starts_with("No host cost"), "{}", v.statement);
                continue;
            }
            let (vm, vt) = table(&plan.tco.vsan_only, term);
            let (am, at) = table(&plan.tco.with_anf, term);
            let chosen = v.terms.iter().find(|t| t.term == term).unwrap();
            prop_assert_eq!(&chosen.statement, &v.statement);
            match chosen.cheaper {
                avs::Cheaper::WithAnf => prop_assert!(am < vm && v.statement.contains("ANF datastores save")),
                avs::Cheaper::VsanOnly => prop_assert!(vm < am && v.statement.contains("vSAN only is cheaper")),
                avs::Cheaper::Neither => prop_assert!((vm - am).abs() <= 0.01),
            }
            prop_assert!((chosen.monthly_difference - (vm - am).abs()).abs() < 1e-6);
            prop_assert!((chosen.total_difference - (vt - at).abs()).abs() < 1e-3 * vt.abs().max(1.0));
            prop_assert!(v.statement.contains(&crate::format::money(chosen.monthly_difference, "USD")), "{}", v.statement);
            prop_assert!(v.statement.contains(&crate::format::money(chosen.total_difference, "USD")), "{}", v.statement);
        }
    }
}

#[test]
fn a_region_without_a_host_price_still_plans_the_hosts() {
    use crate::avs::PlanRequest;
    let b = book();
    let Some(region) = b
        .anf
        .keys()
        .find(|r| b.avs_host(r, "AV36").is_none())
        .cloned()
    else {
        return;
    };
    let mut req = PlanRequest::new(inventory(&[(8, 64.0, 2.0, 500.0, 20.0); 6]));
    req.region = Some(region);
    let plan = crate::avs::plan(&req, b).unwrap();
    assert!(!plan.tco.hosts_priced);
    assert!(plan.tco.with_anf.hosts.hosts >= 3);
    let v = avs::verdict(&plan, crate::avs::PurchaseTerm::ThreeYears);
    assert!(v.statement.starts_with("No host cost"), "{}", v.statement);
}

/// A latency target between the central estimate and the likely range's high end: met at
/// the central estimate only, which the statement says; with 90 % confidence it counts
/// as missed, and the cheapest row sized for it meets at the high end.
#[test]
fn a_latency_target_is_judged_at_the_likely_ranges_high_end() {
    // 1,000 MiB/s on 16 TiB Premium, from clients that never bind: the latency at that
    // rate is the volume's queueing, which more quota shortens.
    let mut s = scenario(json!({
        "name": "1,000 MiB/s on 16 TiB",
        "workload": {"io_size_kib": 64, "read_pct": 100, "access": "sequential", "threads": 16,
                     "queue_depth": 32, "capacity_tib": 16, "target_mibps": 1000},
        "storage": {"service": "anf", "level": "premium", "volumes": [{"count": 1, "quota_tib": 16}]},
        "clients": {"count": 8, "egress_mibps": 100000, "ingress_mibps": 100000,
                    "protocol": "nfsv3", "nconnect": 8}
    }));
    let e = evaluate(&s).unwrap();
    // Judged at the target rate, spread as at the achievable load.
    let central = e.latency_at_target_ms.unwrap();
    let high = central * e.latency_ms_range[1] / e.latency_ms;
    assert!(high > central * 1.05, "{:?}", e.latency_ms_range);
    s.workload.target_latency_ms = Some((central * high).sqrt());
    let e = evaluate(&s).unwrap();
    assert_eq!(e.targets.latency_met, Some(true));
    let at_high = e.targets.latency_high_ms.unwrap();
    assert!((at_high / high - 1.0).abs() < 1e-9, "{at_high} {high}");
    assert!(e.targets.met && !e.targets.met_at_low_end);
    let latency = |v: &Verdict| {
        v.targets
            .iter()
            .find(|t| t.target == TargetKind::Latency)
            .unwrap()
            .clone()
    };
    let l = latency(&evaluation(&s, &e, book()));
    assert!(l.met, "{}", l.statement);
    assert!(
        l.statement
            .contains("met at the central estimate only: the likely range's high end, "),
        "{}",
        l.statement
    );

    s.workload.confidence = crate::engine::scenario::Assurance::P90;
    let e = evaluate(&s).unwrap();
    assert!(!e.targets.met);
    let l = latency(&evaluation(&s, &e, book()));
    assert!(
        !l.met && l.statement.contains("so it counts as missed"),
        "{}",
        l.statement
    );
    let row = e
        .sizing
        .iter()
        .find(|r| r.cheapest)
        .unwrap_or_else(|| panic!("no row meets: {:?}", e.sizing));
    let applied = row.applied_to(&s);
    let a = evaluate(&applied).unwrap();
    assert!(a.targets.met, "{:?} {:?}", applied.storage, a.targets);
    let l = latency(&evaluation(&applied, &a, book()));
    assert!(
        l.met
            && l.statement
                .contains("met at the likely range's high end too"),
        "{}",
        l.statement
    );
}

#[test]
fn runs_at_a_plans_ceiling_say_whether_they_were_kept_and_why_not() {
    use super::live::{RunsKept, Versus, actuals, versus};
    let volumes = ["data-1".to_owned()];
    let v = |kept| {
        versus(&Versus {
            workload: "data",
            volumes: &volumes,
            planned_mibps: 400.0,
            planned_is_target: true,
            p95_mibps: 500.0,
            difference_pct: 25.0,
            latency: None,
            ceiling_intervals: Some(4),
            kept,
        })
    };
    assert_eq!(
        v(RunsKept::Stored),
        "data (volume data-1) runs 25% above plan: 500 MiB/s at P95 against the 400 MiB/s target. \
         It ran at the plan's ceiling for 4 intervals: kept with the scenario as a measured run for calibration."
    );
    assert!(v(RunsKept::Estate).ends_with("a measured run for calibration, not kept."));
    let last = |kept| {
        actuals(&["data"], &[], &[], 2, kept)
            .statements
            .pop()
            .unwrap()
    };
    assert_eq!(
        last(RunsKept::Stored),
        "2 runs at the plan's ceiling kept with the scenario's measured runs; calibrate it to learn from them."
    );
    assert!(last(RunsKept::Estate).contains("save the workload as a scenario"));
    assert!(last(RunsKept::OlderRevision).contains("only the newest revision of a scenario"));
}
