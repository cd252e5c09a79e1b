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
    /// Spare hosts for maintenance and failure (N+1).
    #[schema(minimum = 0, maximum = 16)]
    pub spare_hosts: u32,
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
        }
    }
}

/// Hosts per cluster: 3 to 16.
pub const MIN_CLUSTER: u32 = 3;
pub const MAX_CLUSTER: u32 = 16;

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

/// A host count and how it was reached.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
pub struct HostCount {
    pub hosts: u32,
    pub clusters: u32,
    pub drivers: Drivers,
    /// `cpu`, `memory`, `storage` or `minimum` (3 hosts per cluster).
    pub binding: &'static str,
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

    /// Hosts for `d` on `h`; `with_storage` = vSAN holds the storage (vSAN only).
    ///
    /// Each driver is rounded up; the largest, plus the spares, is the count, at least
    /// 3 hosts per cluster of at most 16.
    pub fn count(&self, h: &HostSpec, d: Demand, with_storage: bool) -> HostCount {
        let cpu_mhz = f64::from(h.cores) * h.clock_mhz * self.cpu_max_pct / 100.0;
        let mem = h.ram_gb * self.memory_max_pct / 100.0;
        let usable = self.vsan_usable_tib(h);
        let up = |x: f64| {
            if x.is_finite() {
                x.ceil().max(0.0) as u32
            } else {
                0
            }
        };
        let cpu = up(d.vcpus * self.mhz_per_vcpu / self.vcpu_per_core / cpu_mhz);
        let memory = up(d.memory_gib / mem);
        let storage = with_storage.then(|| up(d.storage_tib / usable));
        let (mut need, mut binding) = (cpu, "cpu");
        if memory > need {
            (need, binding) = (memory, "memory");
        }
        if let Some(s) = storage.filter(|s| *s > need) {
            (need, binding) = (s, "storage");
        }
        let mut hosts = need + self.spare_hosts;
        let clusters = hosts.div_ceil(MAX_CLUSTER).max(1);
        if hosts < MIN_CLUSTER * clusters {
            hosts = MIN_CLUSTER * clusters;
            binding = "minimum";
        }
        HostCount {
            hosts,
            clusters,
            drivers: Drivers {
                cpu,
                memory,
                storage,
            },
            binding,
            cpu_mhz_per_host: cpu_mhz,
            memory_gib_per_host: mem,
            vsan_usable_tib_per_host: usable,
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
        if self.spare_hosts > MAX_CLUSTER {
            return Err((
                "spare_hosts",
                format!("must be at most {MAX_CLUSTER}, not {}", self.spare_hosts),
            ));
        }
        Ok(())
    }
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
        let c = HostModel::default().count(spec("AV36").unwrap(), Demand::default(), true);
        assert_eq!((c.hosts, c.clusters, c.binding), (3, 1, "minimum"));
    }

    #[test]
    fn more_than_sixteen_hosts_make_more_clusters() {
        let d = Demand {
            vcpus: 0.0,
            memory_gib: 460.8 * 20.0,
            storage_tib: 0.0,
        };
        let c = HostModel::default().count(spec("AV36").unwrap(), d, false);
        assert_eq!(c.drivers.memory, 20);
        assert_eq!((c.hosts, c.clusters), (21, 2));
    }
}
