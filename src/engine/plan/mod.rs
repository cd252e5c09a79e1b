//! A validated scenario resolved against the catalog: the typed values the model uses.
//!
//! Parse, don't validate: once a [`Plan`] exists, every value is in range, every
//! catalog key resolved and every service rule (volume sizes, pool size) holds.

use super::catalog::{self, AvsHost, VmSize};
use super::field_error::{Checks, FieldError, FieldErrors, closest, did_you_mean};
use super::host_specs;
use super::licence::Licensing;
use super::model::Params;
use super::pricing::{self, AnfPrices, HostPrice, PriceBook};
use super::scenario::{
    Access, Assurance, Avs, Clients, CoolAccess, DataProtection, Files, Level, NfsClient,
    Placement, Protocol, Qos, Replication, Scenario, Sec, Service, SmbSecurity, Storage, Term,
    VolumeGroup, VolumeKind,
};
use super::source::{Source, SourceKind};
use super::units::mbps_to_mibps;

mod checks;

use checks::{check_regions, check_volumes, priced_in, resolve_avs, resolve_vm, trim};

/// The volumes of a plan: the scenario's groups, or N volumes of one quota (sizing,
/// layouts), the first `busy` of them assigned `busy_mibps` each and the others `mibps`
/// (the busiest volumes of an uneven placement come first, [`Distribution::tiers`]).
///
/// [`Distribution::tiers`]: super::distribution::Distribution::tiers
#[derive(Debug, Clone, Copy)]
pub enum Volumes<'a> {
    Groups(&'a [VolumeGroup]),
    Uniform {
        count: u32,
        quota_tib: f64,
        mibps: Option<f64>,
        iops: Option<f64>,
        busy: u32,
        busy_mibps: Option<f64>,
    },
}

/// One volume group as the model sees it.
#[derive(Debug, Clone, Copy)]
pub struct Group {
    pub count: u32,
    pub quota_tib: f64,
    pub mibps: Option<f64>,
    pub iops: Option<f64>,
}

impl Volumes<'_> {
    /// Number of groups.
    pub fn groups(&self) -> usize {
        match self {
            Volumes::Groups(g) => g.len(),
            Volumes::Uniform { count, busy, .. } => 1 + usize::from(*busy > 0 && busy < count),
        }
    }

    /// Group `i`.
    pub fn group(&self, i: usize) -> Group {
        match *self {
            Volumes::Groups(g) => Group {
                count: g[i].count,
                quota_tib: g[i].quota_tib,
                mibps: g[i].throughput_mibps,
                iops: g[i].iops,
            },
            Volumes::Uniform {
                count,
                quota_tib,
                mibps,
                iops,
                busy,
                busy_mibps,
            } => {
                let split = busy > 0 && busy < count;
                let (count, mibps) = match (split, i) {
                    (false, _) => (count, mibps),
                    (true, 0) => (busy, busy_mibps),
                    (true, _) => (count - busy, mibps),
                };
                Group {
                    count,
                    quota_tib,
                    mibps,
                    iops,
                }
            }
        }
    }

    /// All groups.
    pub fn iter(&self) -> impl Iterator<Item = Group> + '_ {
        (0..self.groups()).map(|i| self.group(i))
    }

    /// The group that volume number `v` (0-based) belongs to.
    pub fn group_of(&self, v: u32) -> Group {
        let mut seen = 0;
        for g in self.iter() {
            seen += g.count;
            if v < seen {
                return g;
            }
        }
        self.group(self.groups() - 1)
    }
}

/// A network cap with its provenance.
#[derive(Debug, Clone, Copy)]
pub struct Cap {
    pub mibps: f64,
    pub source: Source,
    pub assumption: bool,
}

/// AVS placement resolved.
#[derive(Debug, Clone, Copy)]
pub struct AvsPlan {
    /// Hosts whose VMs run the workload.
    pub hosts: u32,
    /// Hosts in the cluster (3 to 16).
    pub cluster_hosts: u32,
    /// Connections per host per datastore (1, or 4 with nconnect).
    pub nconnect: u32,
    pub vms_per_host: u32,
    pub vmdks_per_vm: u32,
    pub placement: Placement,
    pub host: &'static AvsHost,
    /// How VCF is licensed, and what it costs per core per year (0 when included).
    pub licensing: Licensing,
    pub licence_per_core_year: f64,
    /// Physical cores per host (what portable VCF covers).
    pub cores_per_host: u32,
}

/// Everything the model needs, typed and resolved.
#[derive(Debug, Clone, Copy)]
pub struct Plan<'a> {
    pub service: Service,
    pub level: Level,
    pub qos: Qos,
    pub kind: VolumeKind,
    pub volumes: Volumes<'a>,
    /// Total number of volumes (datastores, shares).
    pub n_volumes: u32,
    /// Whether reverse sizing keeps `n_volumes` (`storage.fixed_count`).
    pub fixed_count: bool,
    pub total_quota_tib: f64,
    pub pool_tib: f64,
    pub io_kib: f64,
    /// Read fraction 0..1.
    pub r: f64,
    pub access: Access,
    pub threads: u32,
    pub queue_depth: u32,
    pub files: Files,
    pub metadata_heavy: bool,
    /// Share of reads served from the storage's cache (0-1).
    pub cached: f64,
    pub capacity_tib: f64,
    pub target_mibps: Option<f64>,
    pub target_iops: Option<f64>,
    /// Client VMs (for AVS: hosts x VMs per host).
    pub clients: u32,
    pub vm: Option<&'static VmSize>,
    pub egress: Option<Cap>,
    pub ingress: Option<Cap>,
    pub protocol: Protocol,
    pub nconnect: u32,
    pub smb_multichannel: bool,
    pub smb_channels: u32,
    pub avs: Option<AvsPlan>,
    /// Target mean latency per IO at the target rate, ms.
    pub target_latency_ms: Option<f64>,
    /// How long the load lasts, s (`None`: sustained).
    pub duration_s: Option<f64>,
    /// Whether targets are judged at the central estimate or the likely range's low end.
    pub confidence: Assurance,
    pub nfs_client: NfsClient,
    pub sec: Sec,
    pub smb_security: SmbSecurity,
    /// ANF cool access: shares of data and of reads in the cool tier.
    pub cool: Option<CoolAccess>,
    /// The region prices come from (null = the service's reference region).
    pub region: Option<&'a str>,
    /// Discount off list prices, %.
    pub discount_pct: f64,
    pub reservation: Term,
    /// Snapshots, backup and replication (ANF).
    pub protection: Option<&'a DataProtection>,
    /// The performance model's parameters (the committed fit, or a candidate during
    /// `volplan calibrate`).
    pub params: &'a Params,
    /// The price book the cost comes from (the compiled one, or the book in force).
    pub prices: &'a PriceBook,
    /// The entries of `prices` the cost reads, looked up once: the region and the AVS
    /// host stay the same across the levels reverse sizing prices.
    pub rates: Rates<'a>,
}

/// The price book entries a plan's cost reads.
#[derive(Debug, Clone, Copy)]
pub struct Rates<'a> {
    /// The region priced: the plan's, or the service's reference region.
    pub region: &'a str,
    /// ANF's prices in that region (ANF plans in a region the book prices).
    pub anf: Option<&'a AnfPrices>,
    /// The AVS host SKU's price there, if the book has one: the `VCF BYOL` rate with
    /// portable VCF, the licence-included rate otherwise.
    pub avs_host: Option<&'a HostPrice>,
    /// The region as the compiled book's ANF key ([`pricing::anf_region`]), for the
    /// advice that names it: `None` outside ANF's regions.
    pub anf_key: Option<&'static str>,
}

impl<'a> Rates<'a> {
    /// The entries of `book` for `service` in `region` (the reference region when
    /// `None`) and the AVS host `sku` under its licensing.
    fn of(
        book: &'a PriceBook,
        service: Service,
        region: Option<&'a str>,
        sku: Option<(&str, Licensing)>,
    ) -> Self {
        let region = region.unwrap_or(book.reference_region(service));
        Self {
            region,
            anf: match service {
                Service::Anf => book.anf(region).map(|(_, r)| r),
                _ => None,
            },
            avs_host: sku.and_then(|(sku, licensing)| match licensing {
                Licensing::Included => book.avs_host(region, sku),
                Licensing::Portable => book.avs_byol_host(region, sku),
            }),
            anf_key: pricing::anf_region(region),
        }
    }
}

impl<'a> Plan<'a> {
    /// Resolves a scenario (already range-checked by [`Scenario::validate`]) with the
    /// committed model parameters and the compiled price book.
    pub fn resolve(s: &'a Scenario) -> Result<Self, FieldErrors> {
        Self::resolve_in(s, pricing::book())
    }

    /// Resolves a scenario with the committed model parameters, priced from `prices`.
    pub fn resolve_in(s: &'a Scenario, prices: &'a PriceBook) -> Result<Self, FieldErrors> {
        Self::resolve_with(s, &catalog::catalog().model.params, prices)
    }

    /// Resolves a scenario with the model parameters `params`, priced from `prices`.
    pub fn resolve_with(
        s: &'a Scenario,
        params: &'a Params,
        prices: &'a PriceBook,
    ) -> Result<Self, FieldErrors> {
        let st = &s.storage;
        let volumes = Volumes::Groups(&st.volumes);
        let c = &s.clients;
        let mut checks = Checks::default();
        s.check_into(&mut checks);
        let vm = resolve_vm(c, &mut checks);
        let avs = c.avs.as_ref().and_then(|a| resolve_avs(a, &mut checks));
        if vm.is_none()
            && c.egress_mibps.is_none()
            && c.avs.is_none()
            && !checks.has("clients.vm_size")
        {
            checks.push(FieldError::new(
                "clients.vm_size",
                "name a VM size (e.g. Standard_E32s_v5) or give egress_mibps, so the client's network limit is known",
            ));
        }
        check_regions(s, &mut checks);
        if !checks.has("storage") {
            check_volumes(st, &mut checks);
        }
        let prices = priced_in(s, prices, &mut checks);
        checks.finish()?;
        let prices = prices.expect("a currency without a book is an error above");
        let egress = match (c.egress_mibps, vm) {
            (Some(m), _) => Some(Cap {
                mibps: m,
                source: Source::undocumented(
                    "the client egress given in the scenario",
                    SourceKind::Documented,
                ),
                assumption: false,
            }),
            (None, Some(v)) => Some(Cap {
                mibps: mbps_to_mibps(v.egress_mbps),
                source: v.source.get(),
                assumption: false,
            }),
            (None, None) => None,
        };
        let ingress = match (c.ingress_mibps, vm) {
            (Some(m), _) => Some(Cap {
                mibps: m,
                source: Source::undocumented(
                    "the client ingress given in the scenario",
                    SourceKind::Documented,
                ),
                assumption: false,
            }),
            (
                None,
                Some(VmSize {
                    nic_gbps: Some(g),
                    source,
                    ..
                }),
            ) => Some(Cap {
                mibps: mbps_to_mibps(g * 1000.0),
                source: source.get(),
                assumption: false,
            }),
            _ => None,
        };
        let n_volumes: u32 = st.volumes.iter().map(|v| v.count).sum();
        let total_quota_tib: f64 = st
            .volumes
            .iter()
            .map(|v| v.count as f64 * v.quota_tib)
            .sum();
        let mut plan = Plan {
            service: st.service,
            level: st.level,
            qos: st.qos,
            kind: st.volume_kind,
            volumes,
            n_volumes,
            fixed_count: st.fixed_count,
            total_quota_tib,
            pool_tib: 0.0,
            io_kib: s.workload.io_size_kib,
            r: s.workload.read_pct / 100.0,
            access: s.workload.access,
            threads: s.workload.threads,
            queue_depth: s.workload.queue_depth,
            files: s.workload.files,
            metadata_heavy: s.workload.metadata_heavy,
            cached: s.workload.cached_read_pct / 100.0,
            capacity_tib: s.workload.capacity_tib,
            target_mibps: s.workload.target_mibps,
            target_iops: s.workload.target_iops,
            clients: avs.map_or(c.count, |a| a.hosts * a.vms_per_host),
            vm,
            egress,
            ingress,
            protocol: c.protocol,
            nconnect: c.nconnect,
            smb_multichannel: c.smb_multichannel,
            smb_channels: c.smb_channels,
            avs,
            target_latency_ms: s.workload.target_latency_ms,
            duration_s: s.workload.duration_s,
            confidence: s.workload.confidence,
            nfs_client: c.nfs_client,
            sec: c.sec,
            smb_security: c.smb_security,
            cool: st.cool_access,
            region: s.region.as_deref(),
            discount_pct: s.pricing.as_ref().map_or(0.0, |p| p.discount_pct),
            reservation: s.pricing.as_ref().map_or(Term::None, |p| p.reservation),
            protection: s.data_protection.as_ref(),
            params,
            prices,
            rates: Rates::of(
                prices,
                st.service,
                s.region.as_deref(),
                avs.map(|a| (a.host.sku.as_str(), a.licensing)),
            ),
        };
        plan.pool_tib = plan.resolve_pool(st.pool_tib)?;
        Ok(plan)
    }

    /// Re-points this plan at another level with N identical volumes and the smallest
    /// pool for them (sizing works on one copy of the plan this way).
    pub fn set_uniform(
        &mut self,
        level: Level,
        count: u32,
        quota_tib: f64,
        mibps: Option<f64>,
        iops: Option<f64>,
    ) {
        self.set_split(level, count, quota_tib, (0, None), mibps, iops);
    }

    /// As [`Plan::set_uniform`], the first `busy.0` volumes assigned `busy.1` MiB/s
    /// each instead of `mibps`.
    pub fn set_split(
        &mut self,
        level: Level,
        count: u32,
        quota_tib: f64,
        busy: (u32, Option<f64>),
        mibps: Option<f64>,
        iops: Option<f64>,
    ) {
        self.level = level;
        self.volumes = Volumes::Uniform {
            count,
            quota_tib,
            mibps,
            iops,
            busy: busy.0,
            busy_mibps: busy.1,
        };
        self.n_volumes = count;
        self.total_quota_tib = count as f64 * quota_tib;
        self.pool_tib = self.smallest_pool();
    }

    /// Per-volume size range in TiB for this service, level and volume kind.
    pub fn quota_range(&self) -> (f64, f64, Source) {
        quota_range(self.service, self.level, self.kind)
    }

    /// The smallest valid pool for the volumes, in TiB (billed capacity).
    pub fn smallest_pool(&self) -> f64 {
        let c = &catalog::catalog().services;
        match self.service {
            Service::Anf => {
                let need = self.total_quota_tib.max(c.anf.pool.min_tib);
                let flex_need = if self.level == Level::Flexible {
                    self.assigned_total().unwrap_or(0.0) / c.anf.flexible.pool_max_mibps_per_tib
                } else {
                    0.0
                };
                (need.max(flex_need) - 1e-9).ceil().max(c.anf.pool.min_tib)
            }
            Service::AzureFiles => self.total_quota_tib,
            Service::Gcnv => {
                // Pool minimum: Flex 1 TiB, Standard/Premium/Extreme 2 TiB (GCNV service levels).
                let min = if self.level == Level::Flex { 1.0 } else { 2.0 };
                self.total_quota_tib.max(min)
            }
        }
    }

    /// Sum of the throughput assigned to volumes, if any is assigned.
    pub fn assigned_total(&self) -> Option<f64> {
        let mut any = false;
        let mut total = 0.0;
        for g in self.volumes.iter() {
            if let Some(m) = g.mibps {
                any = true;
                total += m * g.count as f64;
            }
        }
        any.then_some(total)
    }

    fn resolve_pool(&self, given: Option<f64>) -> Result<f64, FieldError> {
        let smallest = self.smallest_pool();
        let Some(p) = given else {
            return Ok(smallest);
        };
        if self.service == Service::Anf && (p - p.round()).abs() > 1e-9 {
            return Err(FieldError::new(
                "storage.pool_tib",
                format!(
                    "an ANF capacity pool grows in 1 TiB steps; use a whole number such as {}",
                    p.ceil()
                ),
            ));
        }
        if p + 1e-9 < self.total_quota_tib {
            return Err(FieldError::new(
                "storage.pool_tib",
                format!(
                    "the pool ({} TiB) is smaller than the volumes' total quota ({} TiB); enlarge the pool or leave it null",
                    trim(p),
                    trim(self.total_quota_tib)
                ),
            ));
        }
        if p + 1e-9 < smallest {
            return Err(FieldError::new(
                "storage.pool_tib",
                format!(
                    "the pool must be at least {} TiB for these volumes and their assigned throughput",
                    trim(smallest)
                ),
            ));
        }
        Ok(p)
    }
}

/// The throughput an ANF volume of `kind` at `level` may be assigned, MiB/s (manual QoS
/// and Flexible): the least, the most (a large volume up to its own ceiling) and the
/// source.
pub fn assignable_mibps(level: Level, kind: VolumeKind) -> (f64, f64, Source) {
    let cat = &catalog::catalog().services.anf;
    let manual = &cat.manual_qos;
    let (max, source) = match kind {
        VolumeKind::Regular => (manual.max_mibps, manual.source.get()),
        VolumeKind::Large => (
            catalog::anf_level(level).large_max_mibps,
            cat.large_volume.source.get(),
        ),
        VolumeKind::Breakthrough => (cat.breakthrough.max_mibps, cat.breakthrough.source.get()),
    };
    (manual.min_mibps, max, source)
}

/// The GCNV page that states its volume sizes.
const GCNV_LEVELS: Source = Source::documented("GCNV/discover/service-levels");

/// Per-volume size range in TiB for a service, level and volume kind.
pub fn quota_range(service: Service, level: Level, kind: VolumeKind) -> (f64, f64, Source) {
    let c = &catalog::catalog().services;
    match (service, kind) {
        (Service::Anf, VolumeKind::Regular) => (
            c.anf.regular_volume.min_tib,
            c.anf.regular_volume.max_tib,
            c.anf.regular_volume.source.get(),
        ),
        (Service::Anf, VolumeKind::Large) => (
            c.anf.large_volume.min_tib,
            c.anf.large_volume.max_tib,
            c.anf.large_volume.source.get(),
        ),
        (Service::Anf, VolumeKind::Breakthrough) => (
            c.anf.breakthrough_volume.min_tib,
            c.anf.breakthrough_volume.max_tib,
            c.anf.breakthrough_volume.source.get(),
        ),
        (Service::AzureFiles, _) => {
            let f = &c.azure_files;
            let (lo, hi) = match level {
                Level::SsdV1 => (f.ssd_v1.min_gib, f.ssd_v1.max_gib),
                Level::SsdV2 => (f.ssd_v2.min_gib, f.ssd_v2.max_gib),
                Level::HddV2 => (f.hdd_v2.min_gib, f.hdd_v2.max_gib),
                _ => (1.0, f.hdd_payg.max_gib),
            };
            (
                lo / 1024.0,
                hi / 1024.0,
                Source::documented("LEARN-FILES/understanding-billing")
                    .note("and LEARN-FILES/storage-files-scale-targets"),
            )
        }
        (Service::Gcnv, kind) => {
            let v = &c.gcnv.volume;
            if level == Level::Flex {
                (v.flex_min_tib, v.flex_max_tib, GCNV_LEVELS)
            } else if kind == VolumeKind::Large {
                (v.large_min_tib, v.large_max_tib, GCNV_LEVELS)
            } else {
                (v.min_tib, v.max_tib, GCNV_LEVELS)
            }
        }
    }
}
