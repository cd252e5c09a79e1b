//! AVS host counts: vSAN only (CPU, memory and storage drivers) against hosts with ANF
//! datastores (CPU and memory only), with the AVS TCO estimator's method and
//! constants (design: avs-tco.md, prices/avs-hosts.json), each adjustable.

use serde::{Deserialize, Serialize};

pub use crate::engine::host_specs::{HOSTS, HostSpec, spec};

/// vSAN storage policy and its capacity overhead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StoragePolicy {
    /// RAID-0, no protection: 0 %.
    Raid0,
    /// RAID-1 FTT1 mirror: 50 %.
    Raid1,
    /// RAID-5 erasure coding, FTT1: 25 %.
    Raid5,
    /// RAID-6 erasure coding, FTT2: 33 % (the estimator's default).
    #[default]
    Raid6,
}

impl StoragePolicy {
    /// Capacity overhead, %.
    pub fn overhead_pct(self) -> f64 {
        match self {
            StoragePolicy::Raid0 => 0.0,
            StoragePolicy::Raid1 => 50.0,
            StoragePolicy::Raid5 => 25.0,
            StoragePolicy::Raid6 => 33.0,
        }
    }
}

/// The sizing constants; the defaults are the estimator's.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, default)]
pub struct HostModel {
    /// vCPUs per physical core (consolidation ratio).
    #[schema(minimum = 0.1, maximum = 64)]
    pub vcpu_per_core: f64,
    /// CPU demand per vCPU, MHz.
    #[schema(minimum = 1, maximum = 10000)]
    pub mhz_per_vcpu: f64,
    /// Highest CPU use planned per host, %.
    #[schema(minimum = 1, maximum = 100)]
    pub cpu_max_pct: f64,
    /// Share of host RAM that VMs may use, %.
    #[schema(minimum = 1, maximum = 100)]
    pub memory_max_pct: f64,
    pub storage_policy: StoragePolicy,
    /// vSAN on-disk format efficiency, %.
    #[schema(minimum = 1, maximum = 100)]
    pub ondisk_pct: f64,
    /// vSAN slack space kept free, %.
    #[schema(minimum = 0, maximum = 99)]
    pub slack_pct: f64,
    /// Deduplication and compression ratio.
    #[schema(minimum = 1, maximum = 10)]
    pub dedup: f64,
    /// Spare hosts per cluster for maintenance and failure (N+1; a stretched cluster
    /// keeps this many on each site, N+2).
    #[schema(minimum = 0, maximum = 16)]
    pub spare_hosts: u32,
    /// CPU the first cluster reserves for the management appliances, GHz (0 = none).
    #[schema(minimum = 0, maximum = 1000)]
    pub management_cpu_ghz: f64,
    /// Memory the first cluster reserves for the management appliances, GB (0 = none).
    #[schema(minimum = 0, maximum = 4096)]
    pub management_memory_gb: f64,
}

impl Default for HostModel {
    fn default() -> Self {
        HostModel {
            vcpu_per_core: 4.0,
            mhz_per_vcpu: 600.0,
            cpu_max_pct: 70.0,
            memory_max_pct: 80.0,
            storage_policy: StoragePolicy::Raid6,
            ondisk_pct: 90.0,
            slack_pct: 25.0,
            dedup: 1.2,
            spare_hosts: 1,
            management_cpu_ghz: MANAGEMENT_CPU_GHZ,
            management_memory_gb: MANAGEMENT_MEMORY_GB,
        }
    }
}

/// Where Microsoft's host rules come from: Learn, Azure VMware Solution, "Minimum
/// initial host deployment" (`azure-vmware/includes/hosts-minimum-initial-deployment-statement.md`,
/// ms.date 2025-04-02), included in "Azure VMware Solution private cloud and cluster
/// concepts".
pub const RULES_SOURCE: &str = "Microsoft Learn, Azure VMware Solution private cloud and cluster concepts, minimum initial host deployment (2025-04-02)";

/// CPU of cluster 1's MGMT-ResourcePool (vCenter Server, NSX Manager cluster, NSX
/// Edges, HCX and other add-ons): "reserve 46 GHz CPU and 171.88-GB memory, which you
/// can't change" ([`RULES_SOURCE`]).
pub const MANAGEMENT_CPU_GHZ: f64 = 46.0;
/// Memory of the same reservation, GB.
pub const MANAGEMENT_MEMORY_GB: f64 = 171.88;

/// Hosts per cluster: 3 to 16 ([`RULES_SOURCE`]: "The minimum number of hosts per
/// cluster and the initial deployment is three"; up to 16 per cluster).
pub const MIN_CLUSTER: u32 = 3;
pub const MAX_CLUSTER: u32 = 16;
/// Sites of a stretched cluster: two availability zones, hosts split evenly, at least 3
/// on each (VMware Tech Zone, "vSAN Stretched Clusters for Azure VMware Solution").
pub const STRETCHED_SITES: u32 = 2;

/// What the VMs need from the hosts.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Demand {
    pub vcpus: f64,
    pub memory_gib: f64,
    /// Storage vSAN must hold, TiB (0 with ANF datastores).
    pub storage_tib: f64,
}

/// Hosts each driver needs, before the spares.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Drivers {
    pub cpu: u32,
    pub memory: u32,
    /// Null with ANF datastores (storage does not drive the count).
    pub storage: Option<u32>,
}

/// What the VMs need of one host SKU, before spares and clusters.
pub(super) struct Need {
    pub drivers: Drivers,
    /// The largest driver, and which it is (`cpu`, `memory`, `storage`).
    pub need: u32,
    pub binding: &'static str,
    /// The largest driver without the management reservation.
    pub without_management: u32,
    pub cpu_mhz: f64,
    pub memory_gib: f64,
    pub usable_tib: f64,
}

/// A host count and how it was reached.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
pub struct HostCount {
    pub hosts: u32,
    pub clusters: u32,
    /// Hosts each driver needs, the management reservation included, before spares
    /// (per site when stretched).
    pub drivers: Drivers,
    /// Hosts the first cluster's management reservation adds to the count (0 when it
    /// fits in the hosts the VMs need anyway).
    pub management_hosts: u32,
    /// Spare hosts in all: one per cluster (N+1), one per site when stretched (N+2).
    pub spares: u32,
    /// A stretched cluster: every site holds the whole workload, so hosts double.
    pub stretched: bool,
    /// `cpu`, `memory`, `storage` or `minimum` (3 hosts per cluster).
    pub binding: &'static str,
    /// Hosts bought: all of them for a new private cloud, those added to the existing
    /// ones when expanding.
    pub bought: u32,
    /// The existing private cloud expanded, if so (its hosts are part of `hosts`).
    pub expansion: Option<Expansion>,
    /// Capacity per host behind the drivers.
    pub cpu_mhz_per_host: f64,
    pub memory_gib_per_host: f64,
    pub vsan_usable_tib_per_host: f64,
}

impl HostCount {
    /// What drives the count, in words: "CPU", "memory", "storage" or "the 3-host
    /// minimum".
    pub fn driver_name(&self) -> &'static str {
        match self.binding {
            "cpu" => "CPU",
            "memory" => "memory",
            "storage" => "storage",
            _ => "the 3-host minimum",
        }
    }

    /// The count as tables show it: "4", or "10 (6 added)" when a private cloud is
    /// expanded.
    pub fn shown(&self) -> String {
        match self.expansion {
            Some(_) => format!("{} ({} added)", self.hosts, self.bought),
            None => self.hosts.to_string(),
        }
    }
}

impl HostModel {
    /// Usable vSAN TiB per host: raw GB x on-disk x (1 - slack) x (1 - policy) / 1024 x
    /// dedup (about 8.14 for AV36 with the defaults).
    pub fn vsan_usable_tib(&self, h: &HostSpec) -> f64 {
        h.vsan_raw_gb * self.ondisk_pct / 100.0 * (100.0 - self.slack_pct) / 100.0
            * (100.0 - self.storage_policy.overhead_pct())
            / 100.0
            / 1024.0
            * self.dedup
    }

    /// Hosts for `d` on `h`; `with_storage` = vSAN holds the storage (vSAN only);
    /// `stretched` = a stretched cluster over two sites.
    ///
    /// Microsoft's rules ([`RULES_SOURCE`]): cluster 1 reserves the management
    /// appliances' CPU and memory outright (on top of the VMs' demand at the planned
    /// use), each driver is rounded up, and the largest is what the VMs need; every
    /// cluster keeps `spare_hosts` for a host's failure (N+1 by vSphere HA admission
    /// control) and has 3 to 16 hosts, so more clusters hold more hosts. A
    /// stretched cluster keeps the whole workload on each of its two sites (vSAN site
    /// mirroring; N+2 admission control): each site is counted as one cluster and the
    /// count doubles.
    pub fn count(&self, h: &HostSpec, d: Demand, with_storage: bool, stretched: bool) -> HostCount {
        let n = self.need(h, d, with_storage, true);
        let (need, mut binding) = (n.need, n.binding);
        let spare = self.spare_hosts;
        // Clusters (per site when stretched): the fewest whose 16 hosts each hold what
        // the VMs need plus each cluster's spares.
        let sites = if stretched { STRETCHED_SITES } else { 1 };
        let room = (MAX_CLUSTER / sites).saturating_sub(spare).max(1);
        let clusters = need.div_ceil(room).max(1);
        let mut hosts = need + clusters * spare;
        if hosts < MIN_CLUSTER * clusters {
            hosts = MIN_CLUSTER * clusters;
            binding = "minimum";
        }
        HostCount {
            hosts: hosts * sites,
            clusters,
            drivers: n.drivers,
            management_hosts: need - n.without_management.min(need),
            spares: clusters * spare * sites,
            stretched,
            binding,
            expansion: None,
            bought: hosts * sites,
            cpu_mhz_per_host: n.cpu_mhz,
            memory_gib_per_host: n.memory_gib,
            vsan_usable_tib_per_host: n.usable_tib,
        }
    }

    /// Hosts each driver needs for `d` on `h` before the spares (with cluster 1's
    /// management reservation when `management`), the largest and which it is.
    pub(super) fn need(
        &self,
        h: &HostSpec,
        d: Demand,
        with_storage: bool,
        management: bool,
    ) -> Need {
        let host_mhz = f64::from(h.cores) * h.clock_mhz;
        let cpu_mhz = host_mhz * self.cpu_max_pct / 100.0;
        let mem = h.ram_gb * self.memory_max_pct / 100.0;
        let usable = self.vsan_usable_tib(h);
        let up = |x: f64| {
            if x.is_finite() {
                x.ceil().max(0.0) as u32
            } else {
                0
            }
        };
        // In host units: the VMs at the planned use, the reservation at full size.
        let cpu_vms = d.vcpus * self.mhz_per_vcpu / self.vcpu_per_core / cpu_mhz;
        let mem_vms = d.memory_gib / mem;
        let (mgmt_cpu, mgmt_mem) = if management {
            (
                self.management_cpu_ghz * 1000.0 / host_mhz,
                self.management_memory_gb / h.ram_gb,
            )
        } else {
            (0.0, 0.0)
        };
        let cpu = up(cpu_vms + mgmt_cpu);
        let memory = up(mem_vms + mgmt_mem);
        let storage = with_storage.then(|| up(d.storage_tib / usable));
        let (mut need, mut binding) = (cpu, "cpu");
        if memory > need {
            (need, binding) = (memory, "memory");
        }
        if let Some(s) = storage.filter(|s| *s > need) {
            (need, binding) = (s, "storage");
        }
        Need {
            drivers: Drivers {
                cpu,
                memory,
                storage,
            },
            need,
            binding,
            without_management: up(cpu_vms).max(up(mem_vms)).max(storage.unwrap_or(0)),
            cpu_mhz,
            memory_gib: mem,
            usable_tib: usable,
        }
    }

    /// The first constant out of range, with its field name.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let checks = [
            ("vcpu_per_core", self.vcpu_per_core, 0.1, 64.0),
            ("mhz_per_vcpu", self.mhz_per_vcpu, 1.0, 10_000.0),
            ("cpu_max_pct", self.cpu_max_pct, 1.0, 100.0),
            ("memory_max_pct", self.memory_max_pct, 1.0, 100.0),
            ("ondisk_pct", self.ondisk_pct, 1.0, 100.0),
            ("slack_pct", self.slack_pct, 0.0, 99.0),
            ("dedup", self.dedup, 1.0, 10.0),
        ];
        for (name, v, lo, hi) in checks {
            if !(v.is_finite() && v >= lo && v <= hi) {
                return Err((
                    name,
                    format!(
                        "must be a number from {lo} to {hi}, not {}",
                        crate::format::given(v)
                    ),
                ));
            }
        }
        for (name, v, hi) in [
            ("management_cpu_ghz", self.management_cpu_ghz, 1000.0),
            ("management_memory_gb", self.management_memory_gb, 4096.0),
        ] {
            if !(v.is_finite() && (0.0..=hi).contains(&v)) {
                return Err((
                    name,
                    format!(
                        "must be a number from 0 to {hi}, not {}",
                        crate::format::given(v)
                    ),
                ));
            }
        }
        if self.spare_hosts > MAX_CLUSTER {
            return Err((
                "spare_hosts",
                format!("must be at most {MAX_CLUSTER}, not {}", self.spare_hosts),
            ));
        }
        Ok(())
    }
}

/// What an expansion did, part of a [`HostCount`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Expansion {
    /// Hosts there before (part of the count's `hosts`).
    pub existing: u32,
    pub existing_sku: &'static str,
    /// Their clusters.
    pub existing_clusters: u32,
    /// Added hosts that joined the existing clusters, and new clusters.
    pub joined: u32,
    pub new_clusters: u32,
    /// Whether the added hosts are of the existing hosts' SKU.
    pub same_sku: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usable_vsan_per_host_matches_the_estimator() {
        let m = HostModel::default();
        // avs-hosts.json: 8.14 (AV36, AV64), 10.176 (AV36P), 20.351 (AV52).
        for (sku, want) in [
            ("AV36", 8.14),
            ("AV64", 8.14),
            ("AV36P", 10.176),
            ("AV52", 20.351),
        ] {
            let got = m.vsan_usable_tib(spec(sku).unwrap());
            assert!((got - want).abs() < 0.005, "{sku}: {got}");
        }
    }

    #[test]
    fn a_small_estate_still_gets_three_hosts() {
        let c = HostModel::default().count(spec("AV36").unwrap(), Demand::default(), true, false);
        assert_eq!((c.hosts, c.clusters, c.binding), (3, 1, "minimum"));
    }

    /// 900 GiB of VM memory on AV36 (576 GB, 80 % usable: 460.8 per host) needs 1.95
    /// hosts, so 2 + N+1 = 3. Cluster 1's MGMT-ResourcePool reserves 171.88 GB outright
    /// (Learn, minimum initial host deployment, 2025-04-02): 171.88 / 576 = 0.30 host
    /// more, 2.25, so 3 + N+1 = 4 hosts, the reservation adding one.
    #[test]
    fn the_management_reservation_adds_a_host_to_a_three_host_memory_bound_cluster() {
        let d = Demand {
            vcpus: 0.0,
            memory_gib: 900.0,
            storage_tib: 0.0,
        };
        let av36 = spec("AV36").unwrap();
        let without = HostModel {
            management_cpu_ghz: 0.0,
            management_memory_gb: 0.0,
            ..HostModel::default()
        }
        .count(av36, d, false, false);
        assert_eq!((without.hosts, without.binding), (3, "memory"));
        assert_eq!((without.management_hosts, without.spares), (0, 1));
        let with = HostModel::default().count(av36, d, false, false);
        assert_eq!(
            (with.hosts, with.binding, with.drivers.memory),
            (4, "memory", 3)
        );
        assert_eq!(with.management_hosts, 1);
        assert!(
            crate::verdict::avs::host_rules(&with).contains("171.88 GB"),
            "{}",
            crate::verdict::avs::host_rules(&with)
        );
        assert!(
            crate::verdict::avs::host_rules(&with).contains("N+1: 1 spare host"),
            "{}",
            crate::verdict::avs::host_rules(&with)
        );
    }

    /// A stretched cluster keeps the whole workload on each of its two sites with a
    /// spare on each (Learn: "stretched clusters use an admission control policy that's
    /// based on n+2"; Tech Zone: hosts evenly across the two zones, at least 3 on
    /// each): the same demand as a 4-host cluster takes 4 hosts per site, 8 in all.
    #[test]
    fn a_stretched_cluster_doubles_per_site() {
        let d = Demand {
            vcpus: 0.0,
            memory_gib: 900.0,
            storage_tib: 0.0,
        };
        let m = HostModel::default();
        let av36 = spec("AV36").unwrap();
        let one = m.count(av36, d, false, false);
        let two = m.count(av36, d, false, true);
        assert_eq!((one.hosts, two.hosts), (4, 8));
        assert_eq!(two.spares, 2, "N+2");
        assert!(
            crate::verdict::avs::host_rules(&two).contains("4 hosts per site"),
            "{}",
            crate::verdict::avs::host_rules(&two)
        );
        // A small workload still has 3 hosts on each site.
        let small = m.count(av36, Demand::default(), false, true);
        assert_eq!((small.hosts, small.binding), (6, "minimum"));
        // A site holds at most 8 of the cluster's 16 hosts: more make more clusters.
        let big = Demand {
            memory_gib: 460.8 * 10.0,
            ..d
        };
        let c = m.count(av36, big, false, true);
        assert_eq!((c.clusters, c.hosts), (2, 2 * (11 + 2)), "{c:?}");
    }

    #[test]
    fn more_than_sixteen_hosts_make_more_clusters() {
        let d = Demand {
            vcpus: 0.0,
            memory_gib: 460.8 * 20.0,
            storage_tib: 0.0,
        };
        let c = HostModel::default().count(spec("AV36").unwrap(), d, false, false);
        // 20 hosts of VM memory + 171.88 GB of management: 21; 15 + a spare fit in a
        // cluster of 16, so 2 clusters, each with its spare (N+1 per cluster).
        assert_eq!(c.drivers.memory, 21);
        assert_eq!((c.hosts, c.clusters, c.spares), (23, 2, 2));
        assert!(
            crate::verdict::avs::host_rules(&c).contains("2 clusters"),
            "{}",
            crate::verdict::avs::host_rules(&c)
        );
    }
}
