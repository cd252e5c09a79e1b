//! The plan's properties over generated inventories, and a worked TCO example by hand.

use super::licence::Licensing;
use super::{PlanRequest, plan};
use crate::engine::evaluate;
use crate::engine::pricing::book;
use crate::engine::scenario::Level;
use crate::inventory::{Inventory, PowerState, Summary, Vm};
use proptest::prelude::*;

fn vm(i: usize, vcpus: u32, mem_gib: f64, tib: f64, perf: Option<(f64, f64)>) -> Vm {
    Vm {
        vm: format!("vm{i:05}"),
        powerstate: PowerState::PoweredOn,
        cluster: None,
        host: None,
        datastore: None,
        vcpus,
        memory_mib: mem_gib * 1024.0,
        provisioned_mib: tib * 1_048_576.0 * 1.5,
        in_use_mib: tib * 1_048_576.0,
        guest_used_mib: None,
        disks: vec![],
        iops: perf.map(|p| p.0),
        mibps: perf.map(|p| p.1),
        flags: vec![],
    }
}

fn inventory(vms: Vec<Vm>) -> Inventory {
    let mut inv = Inventory {
        vms,
        excluded: vec![],
        summary: Summary::default(),
    };
    inv.total();
    inv
}

fn request(vms: Vec<Vm>, sku: &str) -> PlanRequest {
    let mut r = PlanRequest::new(inventory(vms));
    r.host_sku = sku.to_owned();
    r.region = Some("westus2".to_owned());
    r
}

/// VMs: vCPUs, memory GiB, TiB in use, and IOPS / MiB/s (or none).
fn vms_strategy(max: usize) -> impl Strategy<Value = Vec<Vm>> {
    prop::collection::vec(
        (
            1u32..32,
            1.0f64..256.0,
            0.01f64..8.0,
            prop::option::of((1.0f64..3000.0, 0.1f64..60.0)),
        ),
        1..max,
    )
    .prop_map(|v| {
        v.into_iter()
            .enumerate()
            .map(|(i, (c, m, t, p))| vm(i, c, m, t, p))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_vm_is_placed_once_within_capacity_and_the_layout_meets_its_targets(
        vms in vms_strategy(60),
        growth in 0.0f64..50.0,
    ) {
        let n = vms.len();
        let mut req = request(vms, "AV36");
        req.growth_pct = growth;
        let p = plan(&req, book()).unwrap();
        // Every included VM exactly once, on a datastore of the layout.
        prop_assert_eq!(p.placement.len(), n);
        let mut names: Vec<&str> = p.placement.iter().map(|x| x.vm.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        prop_assert_eq!(names.len(), n);
        for x in &p.placement {
            prop_assert!(p.datastores.iter().any(|d| d.name == x.datastore));
        }
        prop_assert_eq!(p.datastores.iter().map(|d| d.vms).sum::<u32>() as usize, n);
        // No datastore over its quota with the growth headroom.
        for d in &p.datastores {
            prop_assert!(d.with_growth_tib <= d.quota_tib + 1e-9, "{:?}", d);
            prop_assert!(d.demand_mibps <= d.qos_mibps + 1e-6, "{:?}", d);
        }
        // The engine's own evaluation of each cluster's layout meets the targets.
        prop_assert!(p.met, "{:?}", p.warnings);
        let want: f64 = req.inventory.vms.iter().filter_map(|v| v.mibps).sum();
        let mut asked = 0.0;
        for s in &p.scenarios {
            let e = evaluate(s).unwrap();
            prop_assert!(e.targets.met, "{} binds at {}", s.name, e.binding);
            asked += s.workload.target_mibps.unwrap_or(0.0);
        }
        // Each cluster asks its share rounded up to the whole MiB/s.
        let n = p.scenarios.len() as f64;
        prop_assert!(asked >= want - 1e-6 && asked <= want + n, "{asked} for {want}");
    }

    #[test]
    fn more_vms_never_lower_the_vsan_only_host_count(
        vms in vms_strategy(80),
        extra in vms_strategy(20),
    ) {
        let base = plan(&request(vms.clone(), "AV36"), book()).unwrap();
        let mut more = vms;
        let k = more.len();
        more.extend(extra.into_iter().enumerate().map(|(i, mut v)| {
            v.vm = format!("extra{}", k + i);
            v
        }));
        let bigger = plan(&request(more, "AV36"), book()).unwrap();
        prop_assert!(bigger.tco.vsan_only.hosts.hosts >= base.tco.vsan_only.hosts.hosts);
        prop_assert!(bigger.tco.with_anf.hosts.hosts >= base.tco.with_anf.hosts.hosts);
    }
}

/// 200 VMs of 4 vCPUs, 16 GiB and 1 TiB in use, on 2 Standard datastores in West US 2.
fn worked(sku: &str) -> super::AvsPlan {
    let vms = (0..200).map(|i| vm(i, 4, 16.0, 1.0, None)).collect();
    let mut req = request(vms, sku);
    req.level = Some(Level::Standard);
    req.datastores = Some(2);
    // The worked example fills its datastores: no free space kept. Its host rates are
    // the estimator's licence-included ones.
    req.free_space_pct = 0.0;
    req.vcf.licensing = Licensing::Included;
    plan(&req, book()).unwrap()
}

#[test]
fn worked_tco_example_av36_west_us_2() {
    let p = worked("AV36");
    let t = &p.tco;
    let v = &t.vsan_only.hosts;
    // Usable vSAN per host: 15,360 GB x 0.90 x 0.75 x 0.67 / 1024 x 1.2 = 8.1405 TiB.
    assert!((v.vsan_usable_tib_per_host - 8.1405).abs() < 1e-9);
    // Cluster 1 reserves 46 GHz and 171.88 GB for management (Learn, minimum initial
    // host deployment, 2025-04-02), counted at full size in host units.
    // CPU: 800 vCPUs x 600 MHz / 4 per core / (36 x 2,300 x 70 %) = 2.07, + 46,000 /
    // 82,800 = 0.56: 2.63 -> 3.
    // Memory: 3,200 GiB / (576 x 80 % = 460.8) = 6.94, + 171.88 / 576 = 0.30: 7.24 -> 8.
    // Storage: 200 TiB / 8.1405 = 24.57 -> 25; 15 hosts + a spare fill a cluster of
    // 16, so 2 clusters, each with its spare (N+1): 27 hosts.
    assert_eq!(
        (v.drivers.cpu, v.drivers.memory, v.drivers.storage),
        (3, 8, Some(25))
    );
    assert_eq!((v.hosts, v.clusters, v.binding), (27, 2, "storage"));
    assert_eq!((v.spares, v.management_hosts), (2, 0));
    let w = &t.with_anf.hosts;
    // With ANF: memory 8 + 1 spare = 9, the reservation adding one host (7 without).
    assert_eq!((w.hosts, w.clusters, w.binding), (9, 1, "memory"));
    assert_eq!(w.management_hosts, 1);
    // 8.36 USD per host-hour x 730 hours.
    assert!((t.vsan_only.monthly.payg - 27.0 * 8.36 * 730.0).abs() < 1e-6);
    assert!((t.vsan_only.monthly.reserved_3y - 27.0 * 4.18 * 730.0).abs() < 1e-6);
    // Two 100 TiB Standard datastores: 200 TiB x 1,024 x 0.14746 USD per GiB-month.
    let anf = 200.0 * 1024.0 * 0.14746;
    assert!(
        (t.with_anf.anf_monthly.payg - anf).abs() < 1e-6,
        "{}",
        t.with_anf.anf_monthly.payg
    );
    assert!((t.with_anf.monthly.payg - (9.0 * 8.36 * 730.0 + anf)).abs() < 1e-6);
    assert!((t.vsan_only.totals[2].payg - 27.0 * 8.36 * 730.0 * 60.0).abs() < 1e-3);
    assert_eq!(t.saving.hosts, 18);
}

#[test]
fn worked_tco_example_av64_west_us_2() {
    let p = worked("AV64");
    let t = &p.tco;
    let v = &t.vsan_only.hosts;
    // CPU: 120,000 MHz / (64 x 2,800 x 70 % = 125,440) = 0.96, + 46,000 / 179,200 =
    // 0.26: 1.21 -> 2. Memory: 3,200 / (1,024 x 80 % = 819.2) = 3.91, + 171.88 / 1,024
    // = 0.17: 4.07 -> 5. Storage as AV36 (same raw): 25, in 2 clusters, 27 hosts.
    assert_eq!(
        (v.drivers.cpu, v.drivers.memory, v.drivers.storage),
        (2, 5, Some(25))
    );
    assert_eq!(v.hosts, 27);
    assert_eq!(t.with_anf.hosts.hosts, 6);
    assert!((t.vsan_only.monthly.payg - 27.0 * 13.22 * 730.0).abs() < 1e-6);
    let anf = 200.0 * 1024.0 * 0.14746;
    assert!((t.with_anf.monthly.payg - (6.0 * 13.22 * 730.0 + anf)).abs() < 1e-6);
    assert!(t.saving.monthly_payg > 0.0);
}

#[test]
fn the_search_takes_a_higher_level_or_more_datastores_for_throughput() {
    // 40 VMs of 0.5 TiB, 50 MiB/s each: 2,000 MiB/s on 20 TiB.
    let vms: Vec<Vm> = (0..40)
        .map(|i| vm(i, 4, 16.0, 0.5, Some((800.0, 50.0))))
        .collect();
    let p = plan(&request(vms.clone(), "AV36"), book()).unwrap();
    assert!(p.met, "{:?}", p.warnings);
    let qos: f64 = p.datastores.iter().map(|d| d.qos_mibps).sum();
    assert!(qos >= 2000.0 - 1e-6, "{qos}");
    // Fixing Standard with one datastore cannot carry 2,000 MiB/s (1,600 per volume).
    let mut fixed = request(vms, "AV36");
    fixed.level = Some(Level::Standard);
    fixed.datastores = Some(1);
    let e = plan(&fixed, book()).unwrap_err();
    assert_eq!(e.first().field, "datastores");
}

#[test]
fn flexible_is_searched_where_it_is_priced_and_wins_when_it_is_cheapest() {
    // West US 2 prices Flexible below Standard per GiB: capacity-heavy datastores with
    // little throughput are cheapest on Flexible, each assigned its MiB/s.
    let (_, rates) = book().anf("westus2").unwrap();
    assert!(rates.flexible_capacity.unwrap() < rates.standard.unwrap());
    let vms: Vec<Vm> = (0..20)
        .map(|i| vm(i, 4, 16.0, 2.0, Some((200.0, 5.0))))
        .collect();
    let p = plan(&request(vms.clone(), "AV36"), book()).unwrap();
    let tried: std::collections::BTreeSet<&str> =
        p.candidates.iter().map(|c| c.level.key()).collect();
    assert!(tried.contains("flexible"), "{tried:?}");
    assert_eq!(
        p.level,
        Level::Flexible,
        "{:#?}",
        p.candidates
            .iter()
            .filter(|c| c.datastores <= 2)
            .collect::<Vec<_>>()
    );
    assert!(p.met, "{:?}", p.warnings);
    let cheapest_other = p
        .candidates
        .iter()
        .filter(|c| c.level != Level::Flexible && c.met)
        .filter_map(|c| c.anf_monthly)
        .fold(f64::INFINITY, f64::min);
    assert!(p.tco.with_anf.anf_monthly.payg < cheapest_other);
    for (d, s) in p.datastores.iter().zip(&p.scenarios[0].storage.volumes) {
        assert_eq!(s.throughput_mibps, Some(d.qos_mibps));
        assert!(d.qos_mibps >= d.demand_mibps.ceil(), "{d:?}");
        assert_eq!(d.qos_mibps, d.qos_mibps.round(), "whole MiB/s");
    }
    let e = evaluate(&p.scenarios[0]).unwrap();
    assert!(e.targets.met);

    // Mexico Central has no Flexible prices: the search leaves it out, and fixing it is
    // a 422 naming the level.
    let mut mx = request(vms, "AV36P");
    mx.region = Some("mexicocentral".to_owned());
    let p = plan(&mx, book()).unwrap();
    assert!(p.candidates.iter().all(|c| c.level != Level::Flexible));
    mx.level = Some(Level::Flexible);
    let e = plan(&mx, book()).unwrap_err();
    assert_eq!(e.first().field, "level");
    assert!(
        e.first().message.contains("Flexible prices"),
        "{}",
        e.first().message
    );
}

#[test]
fn every_wrong_choice_is_reported_at_once() {
    let mut req = request(vec![vm(0, 4, 16.0, 0.5, None)], "AV366");
    req.region = Some("westeurop".to_owned());
    req.datastores = Some(0);
    req.growth_pct = -1.0;
    req.free_space_pct = 95.0;
    req.nconnect = 3;
    let errors = plan(&req, book()).expect_err("five wrong choices");
    let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "growth_pct",
            "free_space_pct",
            "nconnect",
            "datastores",
            "host_sku",
            "region"
        ]
    );
    let said = |f: &str| {
        errors
            .iter()
            .find(|e| e.field == f)
            .unwrap()
            .message
            .clone()
    };
    assert!(
        said("region").contains("Did you mean westeurope?"),
        "{errors}"
    );
    assert!(said("host_sku").contains("Did you mean AV36"), "{errors}");
}

#[test]
fn a_region_without_the_hosts_price_plans_them_and_says_the_currency() {
    let mut req = request(vec![vm(0, 4, 16.0, 0.5, None)], "AV36");
    req.region = Some("westeurope".to_owned());
    let p = plan(&req, book()).expect("planned without a host price");
    assert!(!p.tco.hosts_priced);
    assert!(p.tco.vsan_only.hosts.hosts >= 3);
    assert_eq!(p.tco.vsan_only.monthly.payg, 0.0);
    assert!(
        p.tco.with_anf.monthly.payg > 0.0,
        "the datastores still cost"
    );
    assert_eq!(p.tco.currency, book().currency);
    assert!(
        !p.tco.saving.drivers.to_string().contains(p.level.key()),
        "the level by its name: {}",
        p.tco.saving.drivers
    );
}

/// A cluster saved as a scenario answers the plan's question: it costs what the plan
/// says on the plan's purchase term, in its currency, and its capacity keeps the plan's
/// free space, so reverse sizing never offers datastores without it.
#[test]
fn a_saved_cluster_costs_what_the_plan_says_on_its_term() {
    let vms: Vec<Vm> = (0..40)
        .map(|i| vm(i, 8, 64.0, 1.5, Some((400.0, 12.0))))
        .collect();
    for term in super::PurchaseTerm::ALL {
        let mut req = request(vms.clone(), "AV36P");
        // A saved scenario prices its hosts at the licence-included rates.
        req.vcf.licensing = Licensing::Included;
        req.term = term;
        req.growth_pct = 10.0;
        let p = plan(&req, book()).unwrap();
        assert_eq!(p.scenarios.len(), 1, "one cluster");
        let s = &p.scenarios[0];
        let pricing = s.pricing.as_ref().unwrap();
        assert_eq!(pricing.reservation, term.reservation());
        assert_eq!(pricing.currency, p.tco.currency);
        let e = crate::engine::evaluate::evaluate_in(s, book()).unwrap();
        let planned = p.tco.with_anf.monthly.at(term);
        let saved = e.cost.monthly_usd.unwrap();
        assert!(
            (saved - planned).abs() < 0.005,
            "{term:?}: the scenario costs {saved}, the plan {planned}"
        );
        // The capacity is what the VMs use with growth and 20 % of it kept free.
        let used = 40.0 * 1.5 * 1.1;
        assert!(
            (s.workload.capacity_tib - used / 0.8).abs() < 1.0 / 1024.0 + 1e-9,
            "{}",
            s.workload.capacity_tib
        );
        for row in e.sizing.iter().filter(|r| r.meets) {
            assert!(row.quota_tib >= used / 0.8 - 1e-9, "{row:?}");
        }
    }
}

/// The worked inventory on AV36P in East US with portable VCF at the default price.
#[test]
fn worked_tco_example_portable_vcf_av36p_east_us() {
    let vms = (0..200).map(|i| vm(i, 4, 16.0, 1.0, None)).collect();
    let mut req = request(vms, "AV36P");
    req.region = Some("eastus".to_owned());
    req.level = Some(Level::Standard);
    req.datastores = Some(2);
    req.free_space_pct = 0.0;
    let t = plan(&req, book()).unwrap().tco;
    assert!(t.hosts_priced);
    assert_eq!(t.licence.licensing, Licensing::Portable);
    // Memory: 3,200 GiB / (768 x 80 % = 614.4) = 5.21, + 171.88 GB of management / 768
    // = 0.22: 5.43 -> 6, + 1 spare = 7 hosts with ANF.
    // vSAN: 19,200 GB x 0.90 x 0.75 x 0.67 / 1024 x 1.2 = 10.1756 TiB per host;
    // 200 TiB / 10.1756 = 19.66 -> 20, in 2 clusters of at most 16 with a spare each:
    // 22 hosts with vSAN only.
    assert_eq!((t.vsan_only.hosts.hosts, t.with_anf.hosts.hosts), (22, 7));
    // Cores: 36 per AV36P host: 22 x 36 = 792 and 7 x 36 = 252; 540 fewer.
    assert_eq!((t.vsan_only.cores, t.with_anf.cores), (792, 252));
    assert_eq!(t.saving.cores, 540);
    // Hosts at the VCF BYOL rate, 8.20 USD per host-hour x 730 hours:
    // 22 x 8.20 x 730 = 131,692.00 and 7 x 8.20 x 730 = 41,902.00 a month.
    assert!((t.vsan_only.hosts_monthly.payg - 131_692.0).abs() < 1e-6);
    assert!((t.with_anf.hosts_monthly.payg - 41_902.0).abs() < 1e-6);
    // 3-year reserved: 3.57 x 730 = 2,606.10 per host: 22 x = 57,334.20.
    assert!((t.vsan_only.hosts_monthly.reserved_3y - 57_334.2).abs() < 1e-6);
    // VCF at 350 USD per core per year / 12: 792 x 350 / 12 = 23,100.00 and
    // 252 x 350 / 12 = 7,350.00 a month, on every term.
    assert!((t.vsan_only.licence_monthly.payg - 23_100.0).abs() < 1e-6);
    assert!((t.with_anf.licence_monthly.reserved_3y - 7_350.0).abs() < 1e-6);
    // Two 100 TiB Standard datastores: 200 x 1,024 x 0.14746 = 30,199.808 a month.
    let anf = 30_199.808;
    assert!((t.with_anf.anf_monthly.payg - anf).abs() < 1e-6);
    // Saving at pay as you go: hosts 131,692 - 41,902 = 89,790; licences 23,100 -
    // 7,350 = 15,750; storage -30,199.808; in all 75,340.192.
    let s = &t.saving;
    assert!((s.hosts_monthly.payg - 89_790.0).abs() < 1e-6);
    assert!((s.licence_monthly.payg - 15_750.0).abs() < 1e-6);
    assert!((s.storage_monthly.payg + anf).abs() < 1e-6);
    assert!((s.monthly_payg - 75_340.192).abs() < 1e-6);
    assert!((t.vsan_only.monthly.payg - t.with_anf.monthly.payg - s.monthly_payg).abs() < 1e-6);
    // Licence-included with an end date: no licence line, the licence-included rate
    // (East US AV36P 9.20 per host-hour), and the date in the basis.
    req.vcf.licensing = Licensing::Included;
    req.vcf.included_until = Some("2027-08-30".to_owned());
    let t = plan(&req, book()).unwrap().tco;
    assert_eq!(t.vsan_only.licence_monthly.payg, 0.0);
    assert!((t.with_anf.hosts_monthly.payg - 7.0 * 9.2 * 730.0).abs() < 1e-6);
    assert!(t.licence.basis.contains("2027-08-30"));
}

/// The worked inventory added to an existing private cloud of 4 AV36P hosts (VCF
/// included) in East US, the added hosts with portable VCF.
#[test]
fn worked_expansion_of_an_existing_private_cloud() {
    let vms = (0..200).map(|i| vm(i, 4, 16.0, 1.0, None)).collect();
    let mut req = request(vms, "AV36P");
    req.region = Some("eastus".to_owned());
    req.level = Some(Level::Standard);
    req.datastores = Some(2);
    req.free_space_pct = 0.0;
    req.existing = Some(super::existing::Existing {
        hosts: 4,
        host_sku: None,
        licensing: Licensing::Included,
    });
    let t = plan(&req, book()).unwrap().tco;
    // The existing cluster 1 holds the management reservation: memory 3,200 GiB /
    // 614.4 = 5.21 -> 6 hosts with ANF. Its 4 hosts leave 12 free places in a cluster
    // of 16, so the 6 join it with no spare of their own: 10 hosts, 6 bought (a new
    // private cloud would buy 7).
    let w = &t.with_anf.hosts;
    assert_eq!((w.hosts, w.bought, w.clusters, w.spares), (10, 6, 1, 0));
    assert_eq!((w.binding, w.management_hosts), ("memory", 0));
    // vSAN only: 200 TiB / 10.1756 = 19.66 -> 20; 12 fill the free places, the other 8
    // make a new cluster with its spare (9): 21 bought, 25 hosts in 2 clusters.
    let v = &t.vsan_only.hosts;
    assert_eq!((v.hosts, v.bought, v.clusters, v.spares), (25, 21, 2, 1));
    assert!(
        crate::verdict::avs::host_rules(v).contains("1 new cluster of at least 3 hosts"),
        "{}",
        crate::verdict::avs::host_rules(v)
    );
    // Only the bought hosts are priced: 21 x 8.20 x 730 = 125,706.00 and 6 x 8.20 x
    // 730 = 35,916.00 a month; their cores 756 and 216, VCF 756 x 350 / 12 = 22,050.00
    // and 216 x 350 / 12 = 6,300.00.
    assert!((t.vsan_only.hosts_monthly.payg - 125_706.0).abs() < 1e-6);
    assert!((t.with_anf.hosts_monthly.payg - 35_916.0).abs() < 1e-6);
    assert_eq!((t.vsan_only.cores, t.with_anf.cores), (756, 216));
    assert!((t.vsan_only.licence_monthly.payg - 22_050.0).abs() < 1e-6);
    assert!((t.with_anf.licence_monthly.payg - 6_300.0).abs() < 1e-6);
    assert_eq!((t.saving.hosts, t.saving.cores), (15, 540));
    // The existing 4 hosts at the licence-included rate, apart: 4 x 9.20 x 730 =
    // 26,864.00 a month at pay as you go, 4 x 4.60 x 730 = 13,432.00 at 3 years; no VCF.
    let e = t.existing.as_ref().expect("the existing hosts");
    let h = e.hosts_monthly.expect("priced");
    assert!((h.payg - 26_864.0).abs() < 1e-6);
    assert!((h.reserved_3y - 13_432.0).abs() < 1e-6);
    assert_eq!((e.cores, e.licence_monthly.payg), (144, 0.0));
    // Portable existing hosts: the VCF BYOL rate, 4 x 8.20 x 730 = 23,944.00, and
    // their 144 cores x 350 / 12 = 4,200.00 of VCF.
    req.existing.as_mut().unwrap().licensing = Licensing::Portable;
    let p = plan(&req, book()).unwrap();
    let e = p.tco.existing.as_ref().unwrap();
    assert!((e.hosts_monthly.unwrap().payg - 23_944.0).abs() < 1e-6);
    assert!((e.licence_monthly.payg - 4_200.0).abs() < 1e-6);
    let v = crate::verdict::avs::verdict(&p, crate::avs::PurchaseTerm::Payg);
    assert!(
        v.statements.iter().any(|s| s.starts_with(
            "The existing 4 AV36P hosts (portable VCF) cost $28,144.00/month at pay as you go ($4,200.00 of it VCF on 144 cores)"
        )),
        "{:#?}",
        v.statements
    );
    assert!(
        v.statements[0].contains("on 6 added AV36P hosts with ANF, against 21 added hosts"),
        "{}",
        v.statements[0]
    );
}

#[test]
fn an_existing_private_cloud_out_of_range_is_named() {
    let mut req = request(vec![vm(0, 4, 16.0, 1.0, None)], "AV36P");
    req.existing = Some(super::existing::Existing {
        hosts: 2,
        host_sku: Some("AV37".to_owned()),
        licensing: Licensing::Included,
    });
    let e = plan(&req, book()).unwrap_err();
    let fields: Vec<&str> = e.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(fields, ["existing.hosts", "existing.host_sku"]);
}
