//! Expanding an existing private cloud (the plan's `existing`): its hosts keep running
//! their own workloads, so the inventory's VMs need hosts of their own, but the
//! existing clusters already hold the management reservation (cluster 1), a spare each
//! (N+1) and the 3-host minimum. Added hosts of the same SKU first fill the existing
//! clusters' free places (up to 16 hosts per cluster); the rest, and every host of
//! another SKU (a cluster holds one host type), go to new clusters of 3 to 16 hosts,
//! each with its spare. Only the added hosts are bought; the existing ones are priced
//! by their own licensing, apart, as they cost the same whichever option is chosen
//! ([`super::hosts::RULES_SOURCE`]).

use super::hosts::{self, Demand, HostCount, HostModel, HostSpec, MAX_CLUSTER, MIN_CLUSTER};
use super::licence::Licensing;
use crate::engine::field_error::Checks;
use crate::engine::scenario::FieldError;
use serde::{Deserialize, Serialize};

/// Most clusters a private cloud has (Learn, "Tutorial: deploy an Azure VMware Solution
/// private cloud": "The maximum number of clusters per private cloud is 12").
pub const MAX_CLUSTERS: u32 = 12;

/// The private cloud the plan expands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Existing {
    /// Hosts it runs today (both sites together when stretched).
    #[schema(minimum = 3, maximum = 192)]
    pub hosts: u32,
    /// Their SKU; null = the plan's `host_sku`.
    #[serde(default)]
    #[schema(max_length = 32)]
    pub host_sku: Option<String>,
    /// How their VMware Cloud Foundation is licensed: `included` (a licence-included
    /// reservation) or `portable`; it prices the existing hosts, the plan's `vcf` the
    /// added ones.
    #[serde(default)]
    pub licensing: Licensing,
}

impl Existing {
    /// Checks the fields into `c` (named `existing.*`) against the plan's `stretched`.
    pub fn check(&self, c: &mut Checks, stretched: bool) {
        let sites = if stretched { hosts::STRETCHED_SITES } else { 1 };
        let most = MAX_CLUSTERS * MAX_CLUSTER;
        if self.hosts < MIN_CLUSTER * sites || self.hosts > most {
            c.push(FieldError::new(
                "existing.hosts",
                format!(
                    "must be a whole number from {} to {most} (3 to 16 hosts per cluster{}, at most {MAX_CLUSTERS} clusters), not {}",
                    MIN_CLUSTER * sites,
                    if stretched { " on each site" } else { "" },
                    self.hosts
                ),
            ));
        } else if stretched && !self.hosts.is_multiple_of(sites) {
            c.push(FieldError::new(
                "existing.hosts",
                format!(
                    "a stretched private cloud has as many hosts on each of its 2 sites: an even number, not {}",
                    self.hosts
                ),
            ));
        }
        if let Some(s) = &self.host_sku
            && hosts::spec(s).is_none()
        {
            c.push(FieldError::new(
                "existing.host_sku",
                format!(
                    "`{}` is not an AVS host SKU; use one of {}",
                    s.chars()
                        .filter(|c| !c.is_control())
                        .take(32)
                        .collect::<String>(),
                    hosts::HOSTS.map(|h| h.sku).join(", ")
                ),
            ));
        }
    }

    /// The existing hosts' SKU: their own, else the plan's.
    pub fn spec(&self, plan: &'static HostSpec) -> &'static HostSpec {
        self.host_sku
            .as_deref()
            .and_then(hosts::spec)
            .unwrap_or(plan)
    }
}

/// Hosts for `d` on `h`: added to the private cloud `existing` when given, else a new
/// private cloud's ([`HostModel::count`]).
pub fn count_in(
    m: &HostModel,
    h: &'static HostSpec,
    existing: Option<&Existing>,
    d: Demand,
    with_storage: bool,
    stretched: bool,
) -> HostCount {
    match existing {
        Some(e) => count(m, h, e.spec(h), e, d, with_storage, stretched),
        None => m.count(h, d, with_storage, stretched),
    }
}

/// Hosts for `d` on `h` added to the private cloud `e` (its SKU `existing`).
pub fn count(
    m: &HostModel,
    h: &'static HostSpec,
    existing: &'static HostSpec,
    e: &Existing,
    d: Demand,
    with_storage: bool,
    stretched: bool,
) -> HostCount {
    let n = m.need(h, d, with_storage, false);
    let sites = if stretched { hosts::STRETCHED_SITES } else { 1 };
    let max = MAX_CLUSTER / sites;
    let there = e.hosts / sites;
    let existing_clusters = there.div_ceil(max).max(1);
    // A cluster holds one host type: only the same SKU joins the existing clusters.
    let free = if existing.sku == h.sku {
        existing_clusters * max - there.min(existing_clusters * max)
    } else {
        0
    };
    let spare = m.spare_hosts;
    let mut binding = n.binding;
    let (joined, new_clusters, added) = if n.need <= free {
        (n.need, 0, n.need)
    } else {
        let rest = n.need - free;
        let room = max.saturating_sub(spare).max(1);
        let k = rest.div_ceil(room);
        let mut hosts = rest + k * spare;
        if hosts < MIN_CLUSTER * k {
            hosts = MIN_CLUSTER * k;
            binding = "minimum";
        }
        (free, k, free + hosts)
    };
    HostCount {
        hosts: (there + added) * sites,
        clusters: existing_clusters + new_clusters,
        drivers: n.drivers,
        management_hosts: 0,
        spares: new_clusters * spare * sites,
        stretched,
        binding,
        bought: added * sites,
        expansion: Some(hosts::Expansion {
            existing: e.hosts,
            existing_sku: existing.sku,
            existing_clusters,
            joined: joined * sites,
            new_clusters,
            same_sku: existing.sku == h.sku,
        }),
        cpu_mhz_per_host: n.cpu_mhz,
        memory_gib_per_host: n.memory_gib,
        vsan_usable_tib_per_host: n.usable_tib,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::avs::hosts::spec;

    fn existing(hosts: u32, sku: Option<&str>) -> Existing {
        Existing {
            hosts,
            host_sku: sku.map(str::to_owned),
            licensing: Licensing::Included,
        }
    }

    /// VMs that need `gib` of memory and nothing else.
    fn memory(gib: f64) -> Demand {
        Demand {
            vcpus: 0.0,
            memory_gib: gib,
            storage_tib: 0.0,
        }
    }

    /// 900 GiB of VM memory on AV36 (460.8 GB usable per host at 80 % of 576 GB) needs
    /// 1.95 hosts, so 2 (no management reservation: the existing cluster 1 holds it).
    /// An existing cluster of 4 AV36 hosts has 12 free places, so the 2 hosts join it
    /// with no spare of their own: 6 hosts, 2 bought. A new private cloud needs 4.
    #[test]
    fn added_hosts_of_the_same_sku_join_the_existing_cluster() {
        let av36 = spec("AV36").unwrap();
        let d = memory(900.0);
        let m = HostModel::default();
        let c = count(&m, av36, av36, &existing(4, None), d, false, false);
        assert_eq!((c.hosts, c.bought, c.clusters), (6, 2, 1));
        assert_eq!((c.spares, c.management_hosts, c.binding), (0, 0, "memory"));
        let rules = crate::verdict::avs::host_rules(&c);
        assert!(
            rules.contains("2 hosts added, 2 of them in the existing clusters' free places"),
            "{rules}"
        );
        assert_eq!(m.count(av36, d, false, false).hosts, 4);
    }

    /// A full cluster of 16 has no free place: 2 hosts' worth of VMs need a new cluster
    /// of 3 (2 + a spare is 3, the minimum).
    #[test]
    fn a_full_cluster_sends_the_added_hosts_to_a_new_one() {
        let av36 = spec("AV36").unwrap();
        let d = memory(900.0);
        let c = count(
            &HostModel::default(),
            av36,
            av36,
            &existing(16, None),
            d,
            false,
            false,
        );
        assert_eq!((c.hosts, c.bought, c.clusters, c.spares), (19, 3, 2, 1));
        assert!(
            crate::verdict::avs::host_rules(&c).contains("1 new cluster of at least 3 hosts"),
            "{}",
            crate::verdict::avs::host_rules(&c)
        );
    }

    /// Another SKU cannot join: AV64 hosts for an AV36P private cloud form a cluster of
    /// their own, at least 3 hosts with a spare; a small need is the minimum.
    #[test]
    fn another_sku_makes_a_new_cluster() {
        let d = memory(100.0);
        let c = count(
            &HostModel::default(),
            spec("AV64").unwrap(),
            spec("AV36P").unwrap(),
            &existing(3, Some("AV36P")),
            d,
            false,
            false,
        );
        assert_eq!(
            (c.hosts, c.bought, c.clusters, c.binding),
            (6, 3, 2, "minimum")
        );
    }

    /// Stretched: the existing 8 hosts are 4 per site; each site's cluster holds 8, so
    /// the 2 hosts per site join: 12 hosts, 4 bought.
    #[test]
    fn a_stretched_private_cloud_grows_on_both_sites() {
        let av36 = spec("AV36").unwrap();
        let d = memory(900.0);
        let c = count(
            &HostModel::default(),
            av36,
            av36,
            &existing(8, None),
            d,
            false,
            true,
        );
        assert_eq!((c.hosts, c.bought, c.clusters), (12, 4, 1));
    }

    #[test]
    fn wrong_existing_fields_are_named() {
        let mut c = Checks::default();
        existing(2, Some("AV99")).check(&mut c, false);
        existing(7, None).check(&mut c, true);
        let e = c.finish().unwrap_err();
        let fields: Vec<&str> = e.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            ["existing.hosts", "existing.host_sku", "existing.hosts"]
        );
    }
}
