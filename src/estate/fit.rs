//! Where each workload fits best on its own: the workload sized on every level of
//! each service its clients reach (ANF and Azure Files from Azure VMs, GCNV from Google
//! Cloud machine types, ANF datastores from AVS hosts: [`super::reach`]) in the estate's
//! regions (the engine's reverse sizing),
//! each option with the constraint that binds it, options that cannot meet the
//! workload with why, and the cheapest that meets it. The levels of a service that have
//! no list price in the region are one row, not a row each: they cannot be compared.

use super::reach::Clients;
use super::request::EstateRequest;
use crate::engine::evaluate::{evaluate_in, evaluate_without_sizing};
use crate::engine::evaluation::{Evaluation, Sizing};
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{Level, Protocol, Qos, Scenario, Service, VolumeKind};
use serde::Serialize;

/// One service and level for one workload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FitOption {
    pub service: Service,
    pub level: Level,
    pub region: Option<String>,
    pub meets: bool,
    pub monthly: Option<f64>,
    /// Total quota the option provisions, TiB.
    pub quota_tib: f64,
    /// Throughput it provisions, where provisioned apart from capacity.
    pub throughput_mibps: Option<f64>,
    /// The limit that binds this option, and its label.
    pub binding: Option<&'static str>,
    pub binding_label: Option<String>,
    /// Why the option cannot serve the workload.
    pub why_not: Option<String>,
    /// The cheapest option that meets the workload.
    pub best: bool,
    /// The other levels of the service this row stands for: those without a list price
    /// in the region, collapsed into one row.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unpriced_levels: Vec<Level>,
}

impl FitOption {
    /// The option as a table names it: "Azure Files SSD provisioned v2", or "Azure
    /// Files, 3 levels" for a row of unpriced levels.
    pub fn label(&self) -> String {
        if self.unpriced_levels.is_empty() {
            format!(
                "{} {}",
                self.service.display(),
                self.level.display(self.service)
            )
        } else {
            format!(
                "{}, {} levels",
                self.service.display(),
                self.unpriced_levels.len() + 1
            )
        }
    }

    /// True for a row the price book cannot price (and nothing else rules out).
    fn unpriced(&self) -> bool {
        self.monthly.is_none() && self.binding.is_some()
    }
}

/// Collapses the unpriced options of each service into one row that names them.
fn collapse_unpriced(options: Vec<FitOption>) -> Vec<FitOption> {
    let mut out: Vec<FitOption> = Vec::with_capacity(options.len());
    for o in options {
        let group = out
            .iter_mut()
            .find(|g| g.service == o.service && g.unpriced() && o.unpriced());
        match group {
            Some(g) => g.unpriced_levels.push(o.level),
            None => out.push(o),
        }
    }
    for g in out.iter_mut().filter(|g| !g.unpriced_levels.is_empty()) {
        let names: Vec<&str> = std::iter::once(g.level)
            .chain(g.unpriced_levels.iter().copied())
            .map(|l| l.display(g.service))
            .collect();
        let region = g.region.as_deref().unwrap_or("the region");
        g.why_not = Some(format!(
            "no list price for {} in {}: import or enter one on the Prices page",
            names.join(", "),
            crate::engine::pricing::region_label(region)
        ));
        // Without a price the row cannot be chosen, whatever its levels would reach.
        g.meets = false;
        g.binding = None;
        g.binding_label = None;
        g.quota_tib = 0.0;
        g.throughput_mibps = None;
    }
    out
}

/// Every option of one workload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fit {
    pub workload: usize,
    pub name: String,
    pub options: Vec<FitOption>,
}

/// The fit of every workload.
pub fn fit_all(workloads: &[Scenario], req: &EstateRequest, prices: &PriceBook) -> Vec<Fit> {
    workloads
        .iter()
        .enumerate()
        .map(|(i, w)| fit(i, w, req, prices))
        .collect()
}

/// The options of workload `i`.
fn fit(i: usize, w: &Scenario, req: &EstateRequest, prices: &PriceBook) -> Fit {
    let mut options = Vec::new();
    for &service in Clients::of(w).services() {
        let v = variant(w, service, req);
        match evaluate_in(&v, prices) {
            Ok(e) => {
                for row in &e.sizing {
                    options.push(option(&v, &e, row, prices));
                }
            }
            Err(f) => options.extend(Level::of(service).iter().map(|&level| FitOption {
                service,
                level,
                region: v.region.clone(),
                meets: false,
                monthly: None,
                quota_tib: 0.0,
                throughput_mibps: None,
                binding: None,
                binding_label: None,
                why_not: Some(f.to_string()),
                best: false,
                unpriced_levels: Vec::new(),
            })),
        }
    }
    let mut options = collapse_unpriced(options);
    let best = options
        .iter()
        .enumerate()
        .filter(|(_, o)| o.meets)
        .filter_map(|(i, o)| o.monthly.map(|m| (i, m)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|x| x.0);
    if let Some(b) = best {
        options[b].best = true;
    }
    Fit {
        workload: i,
        name: w.name.clone(),
        options,
    }
}

/// The workload on `service` at its first level, ready for reverse sizing.
fn variant(w: &Scenario, service: Service, req: &EstateRequest) -> Scenario {
    let mut v = w.clone();
    let st = &mut v.storage;
    st.service = service;
    st.level = Level::of(service)[0];
    st.qos = Qos::Auto;
    st.pool_tib = None;
    st.volume_kind = match (service, st.volume_kind) {
        (Service::Anf, k) => k,
        (Service::Gcnv, VolumeKind::Regular) | (Service::AzureFiles, _) => VolumeKind::Regular,
        (Service::Gcnv, _) => VolumeKind::Large,
    };
    for g in &mut st.volumes {
        g.throughput_mibps = None;
        g.iops = None;
    }
    if service != Service::Anf {
        st.cool_access = None;
        v.data_protection = None;
    }
    if service == Service::AzureFiles && v.clients.protocol == Protocol::Nfsv3 {
        v.clients.protocol = Protocol::Nfsv41;
    }
    if service == Service::Gcnv {
        v.region = req.gcp_region.clone().or_else(|| {
            (w.storage.service == Service::Gcnv)
                .then(|| w.region.clone())
                .flatten()
        });
    }
    v
}

/// One sizing row with its binding limit from an evaluation of the sized volumes.
fn option(v: &Scenario, e: &Evaluation, row: &Sizing, prices: &PriceBook) -> FitOption {
    let sized = row.applied_to(v);
    let region = Some(e.cost.region.clone());
    let (binding, label, why) = match evaluate_without_sizing(&sized, prices) {
        Ok(s) => {
            let label = s
                .limits
                .iter()
                .find(|l| l.id == s.binding)
                .map(|l| l.label.to_string());
            let why = (!row.meets).then(|| match &label {
                Some(l) => format!(
                    "reaches {:.0} MiB/s at most, held by {l}",
                    s.throughput_mibps
                ),
                None => format!("reaches {:.0} MiB/s at most", s.throughput_mibps),
            });
            (Some(s.binding), label, why)
        }
        Err(f) => (None, None, Some(f.to_string())),
    };
    let why = why.or_else(|| {
        row.monthly.is_none().then(|| {
            format!(
                "no list price for this level in {}",
                crate::engine::pricing::region_label(&e.cost.region)
            )
        })
    });
    FitOption {
        service: row.service,
        level: row.level,
        region,
        meets: row.meets,
        monthly: row.monthly,
        quota_tib: row.quota_tib,
        throughput_mibps: row.throughput_mibps,
        binding,
        binding_label: label,
        why_not: why,
        best: false,
        unpriced_levels: Vec::new(),
    }
}
