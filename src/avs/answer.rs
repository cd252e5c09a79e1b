//! What an AVS plan answers: the datastores, where each VM's disks go, the clusters
//! with their host counts, the candidate layouts and the TCO.

use super::request::PlaceUnit;
use super::{assumptions, tco};
use crate::engine::evaluation::Evaluation;
use crate::engine::scenario::{Level, Scenario};
use serde::Serialize;

/// One planned datastore.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Datastore {
    pub name: String,
    /// The cluster (1-based) that mounts it.
    pub cluster: u32,
    pub quota_tib: f64,
    /// Capacity the placed VMs use today, and with the growth headroom.
    pub used_tib: f64,
    pub with_growth_tib: f64,
    /// Used today / quota, %.
    pub fill_pct: f64,
    pub vms: u32,
    pub demand_mibps: f64,
    pub demand_iops: f64,
    /// The datastore's QoS throughput at its level and quota (Flexible: assigned).
    pub qos_mibps: f64,
}

/// Where one VM (or disk) goes.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Placed {
    pub vm: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disk: Option<String>,
    pub datastore: String,
}

/// One cluster's share of the layout and the engine's verdict on it.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct ClusterPlan {
    pub cluster: u32,
    pub hosts: u32,
    pub datastores: u32,
    pub vms: u32,
    pub met: bool,
    pub binding: &'static str,
    pub throughput_mibps: f64,
    pub mibps_headroom_pct: Option<f64>,
    pub iops_headroom_pct: Option<f64>,
}

/// A layout the search tried.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Candidate {
    pub level: Level,
    pub datastores: u32,
    /// Why it cannot be built (a datastore over the size or throughput limit), if so.
    pub infeasible: Option<String>,
    pub met: bool,
    /// ANF monthly at pay-as-you-go, USD.
    pub anf_monthly: Option<f64>,
    pub binding: Option<&'static str>,
}

/// The targets the layout is evaluated against.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
pub struct PlanTargets {
    pub mibps: f64,
    pub iops: f64,
    pub io_size_kib: f64,
    pub read_pct: f64,
}

/// The answer of a plan.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct AvsPlan {
    pub host_sku: String,
    pub region: String,
    pub level: Level,
    pub unit: PlaceUnit,
    pub datastores: Vec<Datastore>,
    pub placement: Vec<Placed>,
    /// The engine's evaluation of the cluster with the least headroom.
    #[schema(value_type = Object)]
    pub evaluation: Evaluation,
    /// Every cluster's scenario as evaluated (save them as scenarios): priced on the
    /// plan's purchase term (`pricing.reservation`) in the book's currency, its capacity
    /// the VMs' use with growth and the plan's free space, so a saved cluster costs what
    /// the plan says.
    #[schema(value_type = Vec<Object>)]
    pub scenarios: Vec<Scenario>,
    pub clusters: Vec<ClusterPlan>,
    pub targets: PlanTargets,
    /// Whether every cluster's evaluation meets the targets.
    pub met: bool,
    pub candidates: Vec<Candidate>,
    pub tco: tco::Tco,
    pub warnings: Vec<String>,
    /// Every per-VM figure that filled a gap or kept a default (read share, IO size,
    /// IOs in flight, IOPS, MiB/s), with its value and source.
    pub assumptions: Vec<assumptions::Assumption>,
}

impl AvsPlan {
    /// A limit as users read it ("Volume QoS"), from the id a cluster names
    /// (`volume_qos`): the evaluation's label for it, else the id in words.
    pub fn limit_name(&self, id: &str) -> String {
        self.evaluation
            .limits
            .iter()
            .find(|l| l.id == id)
            .map_or_else(|| id.replace('_', " "), |l| l.label.name.to_owned())
    }
}
