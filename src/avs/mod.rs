//! AVS from the inventory: how many hosts vSAN alone needs and how many with ANF
//! datastores, how to lay the VMs out over the datastores, and what each option costs
//! (contract: `POST /api/v1/avs/plan`).
//!
//! The layout search packs the VMs (or their disks) onto N datastores for each N it
//! tries, sizes each datastore's quota for its capacity with growth headroom and for its
//! throughput at the level, and evaluates every candidate with the engine
//! ([`crate::engine::evaluate`]: flows per host, host and path ceilings); the cheapest
//! candidate that meets the targets wins unless the level or N is fixed.

pub mod answer;
pub mod assumptions;
pub mod existing;
pub mod hosts;
pub mod layout;
pub mod licence;
mod request;
mod scenario;
pub mod tco;
#[cfg(test)]
mod tests;

pub use answer::{AvsPlan, Candidate, ClusterPlan, Datastore, Placed, PlanTargets};
pub use request::{
    DEFAULT_COMFORT_FACTOR, DEFAULT_FREE_SPACE_PCT, DEFAULT_HOST_SKU, DEFAULT_OUTSTANDING,
    DEFAULT_READ_PCT, PlaceUnit, PlanRequest, PurchaseTerm, host_price, skus_in,
};

use crate::engine::evaluate::evaluate_without_sizing;
use crate::engine::evaluation::Evaluation;
use crate::engine::field_error::FieldErrors;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{FieldError, Level, Scenario, Term};
use crate::inventory::model::MIB_PER_TIB;
use hosts::{Demand, HostCount};
use layout::{Item, Packing};
use scenario::{as_planned, scenario};

/// Datastores per cluster unless the request says otherwise: the engine's one figure,
/// with its source ([`crate::engine::solve::MAX_DATASTORES_PER_CLUSTER`]).
pub const DEFAULT_MAX_DATASTORES: u32 = crate::engine::solve::MAX_DATASTORES_PER_CLUSTER;

/// Most re-evaluations of a Flexible datastore set whose assigned MiB/s fell short
/// (each raises them by the shortfall, so one or two usually suffice).
const FLEXIBLE_STEPS: usize = 3;

/// Levels the search always tries, cheapest first (Flexible where it is priced).
const LEVELS: [Level; 3] = [Level::Standard, Level::Premium, Level::Ultra];

/// What the VMs ask of the layout, before packing.
struct Work {
    items: Vec<Item>,
    order: Vec<u32>,
    targets: PlanTargets,
    vmdks_per_vm: u32,
}

/// A candidate that packs within the limits.
struct Built {
    level: Level,
    n: u32,
    packing: Packing,
    quotas: Vec<f64>,
    /// The MiB/s assigned to each datastore (Flexible, manual QoS).
    assigned: Option<Vec<f64>>,
    scenarios: Vec<Scenario>,
    evals: Vec<Evaluation>,
    anf_monthly: f64,
    met: bool,
    /// The smallest headroom across clusters (achievable / target - 1).
    worst: f64,
}

/// Plans the inventory of `req`, priced from `book`'s list in the request's currency.
pub fn plan(req: &PlanRequest, book: &PriceBook) -> Result<AvsPlan, FieldErrors> {
    let book = book.for_currency(&req.currency, "currency")?;
    let ctx = req.resolve(book)?;
    let inv = &req.inventory;
    let g = 1.0 + req.growth_pct / 100.0;
    let demand = Demand {
        vcpus: inv.vms.iter().map(|v| f64::from(v.vcpus)).sum(),
        memory_gib: inv.vms.iter().map(|v| v.memory_mib).sum::<f64>() / 1024.0,
        storage_tib: inv
            .vms
            .iter()
            .map(|v| v.capacity_mib(req.capacity_basis))
            .sum::<f64>()
            / MIB_PER_TIB
            * g,
    };
    let (model, existing) = (&req.hosts, req.existing.as_ref());
    let count = |with_storage| {
        existing::count_in(
            model,
            ctx.spec,
            existing,
            demand,
            with_storage,
            req.stretched,
        )
    };
    let (vsan, anf_hosts) = (count(true), count(false));
    let work = work(req);
    let mut candidates = Vec::new();
    let mut best: Option<Built> = None;
    let flexible = flexible_offered(&ctx);
    if req.level == Some(Level::Flexible) && !flexible {
        return Err(FieldError::new(
            "level",
            format!(
                "the price book has no Flexible prices in {}, or the region does not offer the \
                 level; plan at standard, premium or ultra",
                ctx.region_name
            ),
        )
        .into());
    }
    let levels: Vec<Level> = match req.level {
        Some(l) => vec![l],
        None if flexible => [LEVELS.as_slice(), &[Level::Flexible]].concat(),
        None => LEVELS.to_vec(),
    };
    for n in counts(req, &work, anf_hosts.clusters) {
        let packing = layout::pack(&work.items, &work.order, n);
        for &level in &levels {
            let c = build(req, &ctx, &work, &anf_hosts, level, n, &packing);
            match c {
                Err(why) => candidates.push(Candidate {
                    level,
                    datastores: n,
                    infeasible: Some(why),
                    met: false,
                    anf_monthly: None,
                    binding: None,
                }),
                Ok(b) => {
                    candidates.push(Candidate {
                        level,
                        datastores: n,
                        infeasible: None,
                        met: b.met,
                        anf_monthly: Some(b.anf_monthly),
                        binding: b.evals.first().map(|e| e.binding),
                    });
                    if best.as_ref().is_none_or(|x| better(&b, x)) {
                        best = Some(b);
                    }
                }
            }
        }
    }
    let Some(b) = best else {
        let why = candidates
            .iter()
            .find_map(|c| c.infeasible.clone())
            .unwrap_or_default();
        return Err(FieldError::new(
            if req.datastores.is_some() {
                "datastores"
            } else {
                "inventory"
            },
            format!(
                "no layout fits the datastore limits: {why}; allow more datastores (`max_datastores`), \
                 place disks rather than VMs (`unit`: `disk`), or fix a higher level"
            ),
        ).into());
    };
    Ok(finish(req, ctx, work, vsan, anf_hosts, b, candidates))
}

/// Whether `a` is a better choice than `b`: meeting the targets first, then the cheaper,
/// then fewer datastores; among those that miss, the one with the most headroom.
fn better(a: &Built, b: &Built) -> bool {
    match (a.met, b.met) {
        (true, false) => true,
        (false, true) => false,
        (true, true) => {
            a.anf_monthly < b.anf_monthly - 1e-9
                || ((a.anf_monthly - b.anf_monthly).abs() <= 1e-9 && a.n < b.n)
        }
        (false, false) => a.worst > b.worst + 1e-12,
    }
}

/// The items to place and the targets.
fn work(req: &PlanRequest) -> Work {
    let inv = &req.inventory;
    let mut items = Vec::new();
    let mut disks = 0usize;
    let (mut mibps, mut iops) = (0.0, 0.0);
    for (i, v) in inv.vms.iter().enumerate() {
        let tib = v.capacity_mib(req.capacity_basis) / MIB_PER_TIB;
        let cf = req.comfort_factor;
        let m = v.mibps.or(req.default_mibps_per_vm).unwrap_or(0.0) * cf;
        let o = v.iops.or(req.default_iops_per_vm).unwrap_or(0.0) * cf;
        mibps += m;
        iops += o;
        disks += v.disks.len().max(1);
        let sized: f64 = v.disks.iter().map(|d| d.capacity_mib).sum();
        if req.unit == PlaceUnit::Disk && v.disks.len() > 1 && sized > 0.0 {
            for (k, d) in v.disks.iter().enumerate() {
                let share = d.capacity_mib / sized;
                items.push(Item {
                    vm: i,
                    disk: Some(k),
                    tib: tib * share,
                    mibps: m * share,
                    iops: o * share,
                });
            }
        } else {
            items.push(Item {
                vm: i,
                disk: None,
                tib,
                mibps: m,
                iops: o,
            });
        }
    }
    // The figures the saved scenarios carry: whole KiB, whole MiB/s and IOPS (rounded
    // up), as a user would enter them.
    let io_size_kib = req.io_size_kib.unwrap_or(if mibps > 0.0 && iops > 0.0 {
        (mibps * 1024.0 / iops).clamp(4.0, 1024.0).round()
    } else {
        64.0
    });
    let (mibps, iops) = (mibps.ceil(), iops.ceil());
    let order = layout::order(&items);
    let vms = inv.vms.len().max(1);
    Work {
        items,
        order,
        targets: PlanTargets {
            mibps,
            iops,
            io_size_kib,
            read_pct: req.read_pct,
        },
        vmdks_per_vm: (disks.div_ceil(vms) as u32).clamp(1, 256),
    }
}

/// Whether the search may try Flexible in the request's region: the price book prices
/// its capacity and throughput there, and the region map does not say it lacks it.
fn flexible_offered(ctx: &request::Context) -> bool {
    let priced = ctx
        .book
        .anf(&ctx.region)
        .is_some_and(|(_, r)| r.flexible_capacity.is_some() && r.flexible_throughput.is_some());
    let offered = crate::engine::regions::get(&ctx.region)
        .is_none_or(|r| r.offers(crate::engine::regions::Feature::Flexible) != Some(false));
    priced && offered
}

/// The datastore counts to try.
fn counts(req: &PlanRequest, w: &Work, clusters: u32) -> Vec<u32> {
    let max = req.max_datastores * clusters;
    if let Some(n) = req.datastores {
        return vec![n.max(clusters).min(max)];
    }
    let regular = &crate::engine::catalog::catalog()
        .services
        .anf
        .regular_volume;
    let total: f64 = w.items.iter().map(|i| i.tib).sum::<f64>() * (1.0 + req.growth_pct / 100.0);
    let lo = ((total / regular.max_tib).ceil() as u32)
        .max(clusters)
        .clamp(1, max);
    let mut out: Vec<u32> = (lo..=(lo + 15).min(max)).collect();
    let mut n = lo.next_power_of_two().max(32);
    while n <= max {
        if !out.contains(&n) {
            out.push(n);
        }
        n *= 2;
    }
    if !out.contains(&max) {
        out.push(max);
    }
    out
}

/// Hosts of cluster `c` of `clusters` sharing `hosts`.
fn cluster_hosts(hosts: u32, clusters: u32, c: u32) -> u32 {
    hosts / clusters + u32::from(c < hosts % clusters)
}

/// Sizes, checks and evaluates one candidate.
fn build(
    req: &PlanRequest,
    ctx: &request::Context,
    w: &Work,
    hc: &HostCount,
    level: Level,
    n: u32,
    packing: &Packing,
) -> Result<Built, String> {
    let anf = &crate::engine::catalog::catalog().services.anf;
    let lv = anf_level(level);
    // Flexible: the quota holds the capacity and each datastore is assigned its MiB/s
    // (whole MiB/s, rounded up); the other levels' quota also buys the throughput.
    let flexible = level == Level::Flexible;
    let per_tib = if flexible { 0.0 } else { lv.mibps_per_tib };
    let quotas: Vec<f64> = packing
        .bins
        .iter()
        .map(|b| {
            layout::quota_tib(
                b,
                req.growth_pct,
                req.free_space_pct,
                per_tib,
                anf.regular_volume.min_tib,
            )
        })
        .collect();
    // A datastore without performance figures gets its share of the throughput the
    // Flexible pool includes (128 MiB/s by quota), never a token 1 MiB/s.
    let total_quota: f64 = quotas.iter().sum();
    let mut assigned: Option<Vec<f64>> = flexible.then(|| {
        packing
            .bins
            .iter()
            .zip(&quotas)
            .map(|(b, q)| {
                let demand = if b.mibps > 0.0 {
                    b.mibps
                } else {
                    anf.flexible.pool_min_mibps * q / total_quota.max(1e-9)
                };
                demand.ceil().max(anf.manual_qos.min_mibps)
            })
            .collect()
    });
    if let Some((d, q)) = quotas
        .iter()
        .enumerate()
        .find(|(_, q)| **q > anf.regular_volume.max_tib)
    {
        return Err(format!(
            "datastore {} would need {q:.1} TiB, above the {} TiB of a regular volume",
            d + 1,
            anf.regular_volume.max_tib
        ));
    }
    if let Some((d, b)) = packing
        .bins
        .iter()
        .enumerate()
        .find(|(_, b)| b.mibps > lv.regular_max_mibps)
    {
        return Err(format!(
            "datastore {} would carry {:.0} MiB/s, above the {} MiB/s of one {} volume",
            d + 1,
            b.mibps,
            lv.regular_max_mibps,
            level.key()
        ));
    }
    let clusters = hc.clusters;
    let mut scenarios = Vec::with_capacity(clusters as usize);
    let mut evals = Vec::with_capacity(clusters as usize);
    let (mut anf_monthly, mut met, mut worst) = (0.0, true, f64::INFINITY);
    for c in 0..clusters {
        let mine: Vec<usize> = (0..n as usize)
            .filter(|d| *d as u32 % clusters == c)
            .collect();
        let used: f64 = mine.iter().map(|&d| packing.bins[d].tib).sum();
        let mibps: f64 = mine.iter().map(|&d| packing.bins[d].mibps).sum();
        let iops: f64 = mine.iter().map(|&d| packing.bins[d].iops).sum();
        let vms: u32 = mine.iter().map(|&d| packing.bins[d].items).sum();
        let h = cluster_hosts(hc.hosts, clusters, c);
        let build_one = |assigned: &Option<Vec<f64>>| {
            let s = scenario(
                req,
                ctx,
                w,
                level,
                c + 1,
                h,
                vms,
                used * (1.0 + req.growth_pct / 100.0),
                mibps,
                iops,
                mine.iter()
                    .map(|&d| (quotas[d], assigned.as_ref().map(|a| a[d]))),
            );
            let e = evaluate_without_sizing(&s, ctx.book).map_err(|e| e.to_string())?;
            Ok::<_, String>((s, e))
        };
        let (mut s, mut e) = build_one(&assigned)?;
        // Flexible: what the engine achieves on the assigned MiB/s can fall short of it;
        // assign more in proportion (with the margin reverse sizing buys provisioned
        // rates with), within a volume's ceiling, and evaluate again.
        for _ in 0..FLEXIBLE_STEPS {
            let Some(a) = assigned.as_mut() else { break };
            if e.targets.met || e.throughput_mibps <= 0.0 || mibps <= 0.0 {
                break;
            }
            let factor = mibps / e.throughput_mibps * (1.0 + crate::engine::solve::RATE_MARGIN);
            for &d in &mine {
                a[d] = (a[d] * factor).ceil().min(lv.regular_max_mibps);
            }
            (s, e) = build_one(&assigned)?;
        }
        anf_monthly += anf_cost(&e);
        met &= e.targets.met;
        let head = [e.targets.mibps_headroom_pct, e.targets.iops_headroom_pct]
            .into_iter()
            .flatten()
            .fold(f64::INFINITY, f64::min);
        worst = worst.min(head);
        scenarios.push(s);
        evals.push(e);
    }
    Ok(Built {
        level,
        n,
        packing: packing.clone(),
        quotas,
        assigned,
        scenarios,
        evals,
        anf_monthly,
        met,
        worst,
    })
}

/// The catalog entry of an ANF level the search uses.
fn anf_level(level: Level) -> &'static crate::engine::catalog::AnfLevel {
    let levels = &crate::engine::catalog::catalog().services.anf.levels;
    match level {
        Level::Standard => &levels.standard,
        Level::Premium => &levels.premium,
        Level::Flexible => &levels.flexible,
        _ => &levels.ultra,
    }
}

/// The monthly storage lines of an evaluation's cost (everything but the AVS hosts,
/// their VCF and the one-time lines).
pub fn anf_cost(e: &Evaluation) -> f64 {
    e.cost
        .lines
        .iter()
        .filter(|l| !crate::engine::cost::is_avs_line(l) && !l.one_time)
        .filter_map(|l| l.monthly)
        .sum()
}

/// Datastore name `n` (1-based).
fn ds_name(n: usize) -> String {
    format!("ds-{n:02}")
}

fn finish(
    req: &PlanRequest,
    ctx: request::Context,
    work: Work,
    vsan: HostCount,
    anf_hosts: HostCount,
    b: Built,
    candidates: Vec<Candidate>,
) -> AvsPlan {
    let inv = &req.inventory;
    let lv = anf_level(b.level);
    let g = 1.0 + req.growth_pct / 100.0;
    let mut b = b;
    as_planned(req, ctx.book, &mut b.scenarios);
    let mut vms_per_ds = vec![0u32; b.n as usize];
    let mut last_vm = vec![usize::MAX; b.n as usize];
    let placement: Vec<Placed> = work
        .items
        .iter()
        .zip(&b.packing.of_item)
        .map(|(it, &d)| {
            let v = &inv.vms[it.vm];
            if last_vm[d as usize] != it.vm {
                vms_per_ds[d as usize] += 1;
                last_vm[d as usize] = it.vm;
            }
            Placed {
                vm: v.vm.clone(),
                disk: it.disk.map(|k| v.disks[k].disk.clone()),
                datastore: ds_name(d as usize + 1),
            }
        })
        .collect();
    let datastores: Vec<Datastore> = b
        .packing
        .bins
        .iter()
        .zip(&b.quotas)
        .enumerate()
        .map(|(d, (bin, &q))| Datastore {
            name: ds_name(d + 1),
            cluster: d as u32 % anf_hosts.clusters + 1,
            quota_tib: q,
            used_tib: bin.tib,
            with_growth_tib: bin.tib * g,
            fill_pct: bin.tib / q * 100.0,
            vms: vms_per_ds[d],
            demand_mibps: bin.mibps,
            demand_iops: bin.iops,
            qos_mibps: b
                .assigned
                .as_ref()
                .map_or((q * lv.mibps_per_tib).min(lv.regular_max_mibps), |a| a[d]),
        })
        .collect();
    let clusters: Vec<ClusterPlan> = b
        .evals
        .iter()
        .zip(&b.scenarios)
        .enumerate()
        .map(|(c, (e, s))| ClusterPlan {
            cluster: c as u32 + 1,
            hosts: s.clients.avs.as_ref().map_or(0, |a| a.hosts),
            datastores: s.storage.volumes.len() as u32,
            vms: datastores
                .iter()
                .filter(|d| d.cluster == c as u32 + 1)
                .map(|d| d.vms)
                .sum(),
            met: e.targets.met,
            binding: e.binding,
            throughput_mibps: e.throughput_mibps,
            mibps_headroom_pct: e.targets.mibps_headroom_pct,
            iops_headroom_pct: e.targets.iops_headroom_pct,
        })
        .collect();
    let busiest = clusters
        .iter()
        .enumerate()
        .min_by(|(_, a), (_, b)| {
            let h = |c: &ClusterPlan| {
                [c.mibps_headroom_pct, c.iops_headroom_pct]
                    .into_iter()
                    .flatten()
                    .fold(f64::INFINITY, f64::min)
            };
            h(a).total_cmp(&h(b))
        })
        .map_or(0, |(i, _)| i);
    let evaluation = crate::engine::evaluate_in(&b.scenarios[busiest], ctx.book)
        .unwrap_or_else(|_| b.evals[busiest].clone());
    let anf_tib: f64 = b.quotas.iter().sum();
    // The datastores on each term: the engine's cost lines of every cluster.
    let on = |term: Term| -> f64 {
        b.scenarios
            .iter()
            .zip(&b.evals)
            .map(|(s, e)| {
                let mut s = s.clone();
                if let Some(p) = s.pricing.as_mut() {
                    p.reservation = term;
                }
                evaluate_without_sizing(&s, ctx.book).map_or_else(|_| anf_cost(e), |e| anf_cost(&e))
            })
            .sum()
    };
    let tco = tco::tco(
        &ctx,
        &vsan,
        &anf_hosts,
        tco::AnfShare {
            level: b.level,
            tib: anf_tib,
            monthly: tco::Rates {
                payg: b.anf_monthly,
                reserved_1y: on(Term::OneYear),
                reserved_3y: on(Term::ThreeYears),
            },
        },
    );
    let mut warnings = Vec::new();
    if !b.met {
        warnings.push(format!(
            "no layout the search tried meets the throughput targets; the closest is shown \
             ({} datastores at {}): add hosts, datastores, nconnect 4, or a higher level",
            b.n,
            b.level.key()
        ));
    }
    let without = inv
        .vms
        .iter()
        .filter(|v| v.mibps.is_none() && v.iops.is_none())
        .count();
    let defaulted = req.default_mibps_per_vm.is_some() || req.default_iops_per_vm.is_some();
    if work.targets.mibps <= 0.0 && work.targets.iops <= 0.0 {
        warnings.push(
            "no performance figures: the datastores are sized on capacity alone (Flexible datastores get their share of the pool's included 128 MiB/s); give a performance file or a default per VM to size the throughput".to_owned(),
        );
    } else if without > 0 && !defaulted {
        warnings.push(format!(
            "{without} of {} VMs have no performance figures and count 0 MiB/s; give a performance file or a default per VM (default_mibps_per_vm, default_iops_per_vm) for them",
            inv.vms.len()
        ));
    }
    let flagged = inv.vms.iter().filter(|v| !v.flags.is_empty()).count();
    if flagged > 0 {
        warnings.push(format!(
            "{flagged} VMs have RDMs or shared disks, which an NFS datastore cannot hold as they are; \
             they are placed, but need converting first"
        ));
    }
    AvsPlan {
        host_sku: ctx.spec.sku.to_owned(),
        region: ctx.region.clone(),
        level: b.level,
        unit: req.unit,
        datastores,
        placement,
        evaluation,
        scenarios: b.scenarios,
        clusters,
        assumptions: assumptions::assumptions(req, &work.targets),
        targets: work.targets,
        met: b.met,
        candidates,
        tco,
        warnings,
    }
}
