//! What the code deploys: pools and volumes with their names, levels, sizes and the
//! throughput assigned to each volume, built from a scenario, an estate plan or an AVS
//! plan (the engine resolves each scenario, so a manual-QoS volume without an assigned
//! throughput gets what the engine gives it).

use super::ExportError;
use super::profile;
use crate::avs::AvsPlan;
use crate::engine::catalog;
use crate::engine::plan::Plan;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{Level, Protocol, Qos, Scenario, Service, VolumeKind};
use crate::engine::service::anf;
use crate::estate::{EstatePlan, EstateRequest};

/// Pools and volumes to deploy.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// The plan's name (the account is named after it).
    pub name: String,
    /// What the code was written from, cited in its comments ("saved scenario 12,
    /// revision 3").
    pub source: String,
    /// Azure region of the ANF pools (the location variable's default).
    pub region: String,
    /// Google Cloud region of the GCNV pools.
    pub gcp_region: String,
    pub pools: Vec<PoolSpec>,
    /// Workloads the code leaves out, each with the reason (Azure Files shares).
    pub left_out: Vec<String>,
}

/// One capacity pool (ANF) or storage pool (GCNV).
#[derive(Debug, Clone, PartialEq)]
pub struct PoolSpec {
    pub name: String,
    pub service: Service,
    pub level: Level,
    pub qos: Qos,
    /// Provisioned size, TiB.
    pub size_tib: f64,
    /// ANF Flexible: the pool's throughput, MiB/s.
    pub pool_mibps: Option<f64>,
    pub volumes: Vec<VolumeSpec>,
}

/// One volume.
#[derive(Debug, Clone, PartialEq)]
pub struct VolumeSpec {
    pub name: String,
    pub quota_tib: f64,
    /// The throughput assigned to the volume (manual QoS, Flexible, GCNV custom
    /// performance), MiB/s; `None` under auto QoS.
    pub mibps: Option<f64>,
    pub protocol: Protocol,
    pub kind: VolumeKind,
    /// The AVS cluster (0-based) that mounts it as a datastore.
    pub avs_cluster: Option<u32>,
    /// The workload it serves, as a tag ([`profile`]).
    pub profile: Option<String>,
}

impl Layout {
    /// Whether any pool is on `service`.
    pub fn has(&self, service: Service) -> bool {
        self.pools.iter().any(|p| p.service == service)
    }

    /// How many AVS clusters the volumes are attached to.
    pub fn avs_clusters(&self) -> u32 {
        self.pools
            .iter()
            .flat_map(|p| &p.volumes)
            .filter_map(|v| v.avs_cluster)
            .map(|c| c + 1)
            .max()
            .unwrap_or(0)
    }
}

/// A name the clouds accept: lowercase letters, digits and dashes, starting with a
/// letter, at most `max` characters.
pub fn name(text: &str, max: usize) -> String {
    let mut out = crate::report::model::slug(text);
    if !out.starts_with(|c: char| c.is_ascii_lowercase()) {
        out.insert_str(0, "v-");
    }
    out.truncate(max);
    out.trim_end_matches('-').to_owned()
}

fn regions(book: &PriceBook, region: Option<&str>) -> (String, String) {
    let azure = region.map_or_else(
        || book.reference_region(Service::Anf).to_owned(),
        str::to_owned,
    );
    let gcp = region.map_or_else(
        || book.reference_region(Service::Gcnv).to_owned(),
        str::to_owned,
    );
    (azure, gcp)
}

/// The layout of one scenario: one pool named after it.
pub fn of_scenario(s: &Scenario, source: &str, book: &PriceBook) -> Result<Layout, ExportError> {
    let (region, gcp_region) = regions(book, s.region.as_deref());
    let mut layout = Layout {
        name: s.name.clone(),
        source: source.to_owned(),
        region,
        gcp_region,
        pools: Vec::new(),
        left_out: Vec::new(),
    };
    let avs = s.clients.avs.as_ref().map(|_| 0);
    match pool_of(s, &name(&s.name, 40), avs, book)? {
        Some(p) => layout.pools.push(p),
        None => layout.left_out.push(left_out(&s.name)),
    }
    Ok(layout)
}

fn left_out(name: &str) -> String {
    format!(
        "{name}: Azure Files shares are not written as code here (only Azure NetApp Files and Google Cloud NetApp Volumes)"
    )
}

/// The pool of scenario `s` named `base`, its volumes `base-vNN`; `None` for Azure
/// Files.
fn pool_of(
    s: &Scenario,
    base: &str,
    avs: Option<u32>,
    book: &PriceBook,
) -> Result<Option<PoolSpec>, ExportError> {
    if s.storage.service == Service::AzureFiles {
        return Ok(None);
    }
    let plan = Plan::resolve_in(s, book).map_err(|e| ExportError(format!("{}: {e}", s.name)))?;
    let assigned = s.storage.service == Service::Anf
        && (s.storage.qos == Qos::Manual || s.storage.level == Level::Flexible);
    let tag = profile::encode(s);
    let mut volumes = Vec::new();
    for g in plan.volumes.iter() {
        let mibps = if assigned {
            Some(anf::volume_qos_mibps(&plan, g))
        } else {
            g.mibps
        };
        for _ in 0..g.count {
            volumes.push(VolumeSpec {
                name: format!("{base}-v{:02}", volumes.len() + 1),
                quota_tib: g.quota_tib,
                mibps,
                protocol: s.clients.protocol,
                kind: s.storage.volume_kind,
                avs_cluster: avs,
                profile: tag.clone(),
            });
        }
    }
    // A Flexible pool provisions what its volumes are assigned, at least its minimum.
    let flex_min = catalog::catalog().services.anf.flexible.pool_min_mibps;
    let pool_mibps = (s.storage.service == Service::Anf && s.storage.level == Level::Flexible)
        .then(|| {
            volumes
                .iter()
                .filter_map(|v| v.mibps)
                .sum::<f64>()
                .max(flex_min)
        });
    Ok(Some(PoolSpec {
        name: format!("{base}-pool"),
        service: s.storage.service,
        level: s.storage.level,
        qos: if s.storage.level == Level::Flexible {
            Qos::Manual
        } else {
            s.storage.qos
        },
        size_tib: plan.pool_tib,
        pool_mibps,
        volumes,
    }))
}

/// The layout of an estate plan: its ANF pools with each workload's volumes, a storage
/// pool per GCNV workload.
pub fn of_estate(
    plan: &EstatePlan,
    req: &EstateRequest,
    source: &str,
    book: &PriceBook,
) -> Result<Layout, ExportError> {
    let (region, _) = regions(book, req.region.as_deref());
    let (_, gcp_region) = regions(book, req.gcp_region.as_deref());
    let base = name(&plan.name, 30);
    let mut layout = Layout {
        name: plan.name.clone(),
        source: source.to_owned(),
        region,
        gcp_region,
        pools: Vec::new(),
        left_out: Vec::new(),
    };
    for pool in &plan.pools {
        let mut spec = PoolSpec {
            name: format!("{base}-pool{}", pool.id + 1),
            service: Service::Anf,
            level: pool.level,
            qos: pool.qos,
            size_tib: pool.size_tib,
            pool_mibps: (pool.level == Level::Flexible).then_some(pool.mibps),
            volumes: Vec::new(),
        };
        for a in plan.assignments.iter().filter(|a| a.pool == Some(pool.id)) {
            let s = &req.workloads[a.workload];
            let mut w = s.clone();
            w.storage.service = Service::Anf;
            w.storage.set_level(a.level);
            w.storage.qos = pool.qos;
            w.storage.volume_kind = a.volume_kind;
            w.storage.volumes = a.volumes.clone();
            w.storage.pool_tib = None;
            let wname = name(&a.name, 24);
            let avs = s.clients.avs.as_ref().map(|_| 0);
            if let Some(p) = pool_of(
                &w,
                &format!("{base}-{}-w{}", wname, a.workload + 1),
                avs,
                book,
            )? {
                spec.volumes.extend(p.volumes);
            }
        }
        layout.pools.push(spec);
    }
    for a in plan.assignments.iter().filter(|a| a.pool.is_none()) {
        let s = &req.workloads[a.workload];
        match a.service {
            Service::Gcnv => {
                let mut w = s.clone();
                w.storage.level = a.level;
                w.storage.volumes = a.volumes.clone();
                w.storage.pool_tib = None;
                w.region = req.gcp_region.clone().or(w.region);
                let base = format!("{base}-{}-w{}", name(&a.name, 24), a.workload + 1);
                if let Some(p) = pool_of(&w, &base, None, book)? {
                    layout.pools.push(p);
                }
            }
            Service::AzureFiles => layout.left_out.push(left_out(&a.name)),
            Service::Anf => layout.left_out.push(format!(
                "{}: no pool holds it in this plan, so it has no code",
                a.name
            )),
        }
    }
    Ok(layout)
}

/// The layout of an AVS plan: a pool per cluster, its datastores named as planned and
/// attached to the cluster.
pub fn of_avs(
    plan: &AvsPlan,
    name_: &str,
    source: &str,
    book: &PriceBook,
) -> Result<Layout, ExportError> {
    let (region, gcp_region) = regions(book, Some(&plan.region));
    let base = name(name_, 30);
    let mut layout = Layout {
        name: name_.to_owned(),
        source: source.to_owned(),
        region,
        gcp_region,
        pools: Vec::new(),
        left_out: Vec::new(),
    };
    for (i, s) in plan.scenarios.iter().enumerate() {
        let cluster = u32::try_from(i).unwrap_or(u32::MAX);
        let Some(mut pool) = pool_of(s, &format!("{base}-c{}", i + 1), Some(cluster), book)? else {
            continue;
        };
        let names = plan.datastores.iter().filter(|d| d.cluster == cluster + 1);
        for (v, d) in pool.volumes.iter_mut().zip(names) {
            v.name = name(&d.name, 60);
        }
        layout.pools.push(pool);
    }
    Ok(layout)
}
