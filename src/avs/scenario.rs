//! A cluster of a layout as a Scenario: what the engine evaluates for the plan, and
//! what **Save as scenarios** stores, priced and sized as the plan is.

use super::Work;
use super::request::{self, PlanRequest};
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{
    Access, Avs, Clients, Files, Level, Placement, Pricing, Protocol, Qos, Scenario, Service,
    Storage, VolumeGroup, VolumeKind, Workload,
};

/// The scenario of one cluster of a layout.
#[allow(clippy::too_many_arguments)]
pub(super) fn scenario(
    req: &PlanRequest,
    ctx: &request::Context,
    w: &Work,
    level: Level,
    cluster: u32,
    hosts: u32,
    vms: u32,
    capacity_tib: f64,
    mibps: f64,
    iops: f64,
    quotas: impl Iterator<Item = (f64, Option<f64>)>,
) -> Scenario {
    let volumes: Vec<VolumeGroup> = quotas
        .map(|(q, mibps)| VolumeGroup {
            count: 1,
            quota_tib: q,
            throughput_mibps: mibps,
            iops: None,
        })
        .collect();
    let n = volumes.len();
    // The capacity the datastores provide: what the VMs use with growth and the plan's
    // free space kept on top (so reverse sizing answers the plan's question), rounded up
    // to the GiB; a cluster of empty VMs needs the smallest datastores (capacity is
    // above 0).
    let capacity_tib = capacity_tib / (1.0 - req.free_space_pct / 100.0);
    let capacity_tib = if capacity_tib > 0.0 {
        ((capacity_tib * 1024.0) - 1e-6).ceil() / 1024.0
    } else {
        volumes.iter().map(|v| v.quota_tib).sum()
    };
    Scenario {
        id: None,
        meta: None,
        name: format!(
            "AVS cluster {cluster}: {n} {} datastores, {hosts} {} hosts",
            level.key(),
            ctx.spec.sku
        ),
        workload: Workload {
            io_size_kib: w.targets.io_size_kib,
            read_pct: w.targets.read_pct,
            access: Access::Random,
            threads: 1,
            queue_depth: req.outstanding_per_vm,
            files: Files::Many,
            metadata_heavy: false,
            cached_read_pct: 0.0,
            capacity_tib,
            target_mibps: (mibps > 0.0).then(|| mibps.ceil()),
            target_iops: (iops > 0.0 && mibps <= 0.0).then(|| iops.ceil()),
            target_latency_ms: None,
            duration_s: None,
            confidence: Default::default(),
        },
        storage: Storage {
            service: Service::Anf,
            level,
            qos: if level == Level::Flexible {
                Qos::Manual
            } else {
                Qos::Auto
            },
            volume_kind: VolumeKind::Regular,
            fixed_count: false,
            volumes,
            pool_tib: None,
            cool_access: None,
        },
        clients: Clients {
            count: 1,
            vm_size: None,
            egress_mibps: None,
            ingress_mibps: None,
            protocol: Protocol::Nfsv3,
            nconnect: 1,
            smb_multichannel: false,
            smb_channels: 4,
            avs: Some(Avs {
                hosts,
                host_sku: ctx.spec.sku.to_owned(),
                vms_per_host: vms.div_ceil(hosts.max(1)).clamp(1, 1024),
                vmdks_per_vm: w.vmdks_per_vm,
                placement: Placement::Dedicated,
                nconnect: req.nconnect,
                cluster_hosts: Some(hosts),
                vcf: Some(req.vcf.clone()),
            }),
            nfs_client: Default::default(),
            sec: Default::default(),
            smb_security: Default::default(),
        },
        region: Some(ctx.region.clone()),
        // Priced from the plan's list: its currency, no discount, pay as you go.
        pricing: (ctx.book.currency != "USD").then(|| Pricing {
            currency: ctx.book.currency.to_owned(),
            discount_pct: 0.0,
            reservation: crate::engine::scenario::Term::None,
        }),
        data_protection: None,
    }
}

/// The plan's cluster scenarios as saved: priced on the plan's purchase term in the
/// book's currency (hosts at the term's rate under the plan's licensing, portable VCF
/// per core, datastores at reserved capacity), with a note of what their capacity
/// holds, so a saved cluster costs what the plan says.
pub(super) fn as_planned(req: &PlanRequest, book: &PriceBook, scenarios: &mut [Scenario]) {
    for s in scenarios {
        s.pricing = Some(Pricing {
            currency: book.currency.to_owned(),
            discount_pct: 0.0,
            reservation: req.term.reservation(),
        });
        let notes = format!(
            "From an AVS plan: the capacity is what the VMs use{} with {} % of each datastore kept free; hosts ({}) and datastores are priced {}{}.",
            if req.growth_pct > 0.0 {
                format!(" grown by {} %", crate::format::num(req.growth_pct, 1))
            } else {
                String::new()
            },
            crate::format::num(req.free_space_pct, 1),
            req.vcf.licensing.display(),
            req.term.display(),
            if req.existing.is_some() {
                "; the hosts include those of the private cloud it expands, priced as the added ones (the plan prices them apart)"
            } else {
                ""
            }
        );
        s.meta = Some(crate::engine::meta::Meta {
            notes,
            ..Default::default()
        });
    }
}
