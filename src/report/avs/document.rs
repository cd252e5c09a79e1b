//! The AVS plan as a document for its edition.

use super::{MAX_PLACEMENT, PlanDoc, options, placement_rows, unit_name};
use crate::avs::AvsPlan;
use crate::engine::scenario::Service;
use crate::engine::source::Source;
use crate::format::{count, date_words, num, signed_money, yes_no};
use crate::report::charts::Chart;
use crate::report::doc::{Block, Bullet, Cell, Doc, Mark, Row, Table, num_col, text_col};
use crate::report::summary::cost::region_name;
use crate::report::{Edition, sources};
use crate::verdict::avs::Cheaper;
use crate::verdict::avs::driver;

/// Public documents behind the plan: the datastore pages and the evaluation's limits.
fn documents(p: &AvsPlan) -> Vec<(String, String)> {
    const PAGES: [Source; 3] = [
        Source::documented("LEARN-ANF/attach-azure-netapp-files-to-azure-vmware-solution-hosts"),
        Source::documented("LEARN-ANF/performance-azure-vmware-solution-datastore"),
        Source::documented("LEARN-ANF/performance-benchmarks-azure-vmware-solution"),
    ];
    sources::documents(
        PAGES
            .into_iter()
            .chain(p.evaluation.limits.iter().map(|l| l.source)),
    )
    .into_iter()
    .map(|d| (d.title, d.url))
    .collect()
}

/// The plan as a document for `edition`.
pub fn document(doc: &PlanDoc, edition: Edition) -> Doc {
    let (p, s) = (doc.plan, &doc.inventory.summary);
    let t = &p.tco;
    // The totals follow the verdict's term: pay as you go, or reserved.
    let payg = doc.verdict.term == crate::avs::PurchaseTerm::Payg;
    let mut b = vec![
        Block::Heading("Executive summary".into()),
        Block::Summary(doc.verdict.statements.clone()),
    ];

    b.push(Block::Heading("Cost by purchase term".into()));
    if !doc.verdict.terms.is_empty() {
        b.push(Block::Table(Table {
            name: "Cost by term".into(),
            columns: vec![
                text_col("Purchase term", 1.4),
                num_col("vSAN only a month", 1.3),
                num_col("ANF datastores a month", 1.4),
                num_col("Difference", 1.2),
                num_col("Hosts saved", 1.2),
                num_col("Licences saved", 1.2),
                num_col("Datastores", 1.2),
                text_col("Cheaper", 1.1),
            ],
            rows: doc
                .verdict
                .terms
                .iter()
                .map(|x| {
                    Row::marked(
                        vec![
                            x.term.display().into(),
                            Cell::money(Some(x.vsan_only_monthly), t.currency),
                            Cell::money(Some(x.with_anf_monthly), t.currency),
                            signed_money(x.with_anf_monthly - x.vsan_only_monthly, t.currency)
                                .into(),
                            Cell::money(Some(t.saving.hosts_monthly.at(x.term)), t.currency),
                            Cell::money(Some(t.saving.licence_monthly.at(x.term)), t.currency),
                            Cell::money(Some(-t.saving.storage_monthly.at(x.term)), t.currency),
                            x.cheaper.display().into(),
                        ],
                        if x.cheaper == Cheaper::WithAnf {
                            Mark::Best
                        } else {
                            Mark::None
                        },
                    )
                })
                .collect(),
        }));
    }
    b.push(Block::Table(Table {
        name: "Totals".into(),
        columns: vec![
            text_col("Period", 1.2),
            num_col("vSAN only", 1.4),
            num_col("ANF datastores", 1.4),
            num_col("Saving", 1.4),
        ],
        rows: t
            .vsan_only
            .totals
            .iter()
            .zip(&t.with_anf.totals)
            .map(|(a, w)| {
                let (x, y) = if payg {
                    (a.payg, w.payg)
                } else {
                    (a.reserved, w.reserved)
                };
                Row::new(vec![
                    format!(
                        "{} year{}, {}",
                        a.years,
                        if a.years == 1 { "" } else { "s" },
                        if payg { "pay as you go" } else { "reserved" }
                    )
                    .into(),
                    Cell::money(Some(x), t.currency),
                    Cell::money(Some(y), t.currency),
                    Cell::money(Some(x - y), t.currency),
                ])
            })
            .collect(),
    }));
    b.push(Block::Chart(Box::new(Chart::avs_tco(t))));
    b.push(Block::Note(format!(
        "AVS host prices as of {}, Azure NetApp Files prices as of {}, {} hours a month; {}; {}. VMware licences: {}.",
        date_words(&t.host_price_date),
        date_words(&t.anf_price_date),
        num(t.hours_per_month, 0),
        if payg {
            "totals at pay as you go, the term the verdict follows"
        } else {
            "totals over 1 year at the 1-year rate, 3 and 5 years at the 3-year rate"
        },
        t.note,
        t.licence.basis
    )));

    b.push(Block::Heading("Hosts".into()));
    b.push(Block::Table(Table {
        name: "Hosts".into(),
        columns: vec![
            text_col("Option", 1.6),
            num_col("Hosts", 0.8),
            num_col("For CPU", 0.9),
            num_col("For memory", 0.9),
            num_col("For storage", 0.9),
            text_col("Driven by", 1.4),
            num_col("Cores", 0.8),
            num_col("Hosts a month", 1.3),
            num_col("VCF a month", 1.2),
        ],
        rows: options(p)
            .iter()
            .map(|(name, o)| {
                let h = &o.hosts;
                Row::new(vec![
                    (*name).into(),
                    match h.expansion {
                        Some(_) => h.shown().into(),
                        None => Cell::num(f64::from(h.hosts), 0),
                    },
                    Cell::num(f64::from(h.drivers.cpu), 0),
                    Cell::num(f64::from(h.drivers.memory), 0),
                    h.drivers
                        .storage
                        .map_or_else(|| "-".into(), |x| Cell::num(f64::from(x), 0)),
                    h.driver_name().into(),
                    Cell::num(f64::from(o.cores), 0),
                    Cell::money(Some(o.hosts_monthly.payg), t.currency),
                    Cell::money(Some(o.licence_monthly.payg), t.currency),
                ])
            })
            .collect(),
    }));
    b.push(Block::Para(format!(
        "vSAN only: {}. With ANF datastores: {}.",
        driver(&t.vsan_only.hosts),
        driver(&t.with_anf.hosts)
    )));

    b.push(Block::Heading("Datastore layout".into()));
    b.push(Block::Chart(Box::new(Chart::avs_fill(p))));
    b.push(Block::Table(Table {
        name: "Datastores".into(),
        columns: vec![
            text_col("Datastore", 1.6),
            num_col("Cluster", 0.7),
            num_col("Quota TiB", 1.0),
            num_col("Used TiB", 1.0),
            num_col("Fill", 0.8),
            num_col("VMs", 0.7),
            num_col("MiB/s", 0.9),
            num_col("QoS MiB/s", 1.0),
        ],
        rows: p
            .datastores
            .iter()
            .map(|d| {
                Row::new(vec![
                    d.name.clone().into(),
                    Cell::num(f64::from(d.cluster), 0),
                    Cell::num(d.quota_tib, 2),
                    Cell::num(d.used_tib, 2),
                    Cell::pct(d.fill_pct, 0),
                    Cell::num(f64::from(d.vms), 0),
                    Cell::num(d.demand_mibps, 0),
                    Cell::num(d.qos_mibps, 0),
                ])
            })
            .collect(),
    }));

    b.push(Block::Heading("Clusters as evaluated".into()));
    b.push(Block::Table(Table {
        name: "Clusters".into(),
        columns: vec![
            num_col("Cluster", 0.7),
            num_col("Hosts", 0.7),
            num_col("Datastores", 0.9),
            num_col("VMs", 0.7),
            num_col("Achievable MiB/s", 1.2),
            text_col("Bound by", 2.2),
            num_col("Headroom", 0.9),
            text_col("Targets met", 0.8),
        ],
        rows: p
            .clusters
            .iter()
            .map(|c| {
                Row::new(vec![
                    Cell::num(f64::from(c.cluster), 0),
                    Cell::num(f64::from(c.hosts), 0),
                    Cell::num(f64::from(c.datastores), 0),
                    Cell::num(f64::from(c.vms), 0),
                    Cell::exact(c.throughput_mibps),
                    p.limit_name(c.binding).into(),
                    c.mibps_headroom_pct
                        .map_or_else(|| "-".into(), |h| Cell::pct(h, 0)),
                    yes_no(c.met).into(),
                ])
            })
            .collect(),
    }));

    b.push(Block::Heading("Assumptions per VM".into()));
    b.push(Block::Table(Table {
        name: "Assumptions".into(),
        columns: vec![
            text_col("Figure", 3.0),
            num_col("Value", 1.2),
            text_col("Source", 1.0),
        ],
        rows: p
            .assumptions
            .iter()
            .map(|a| {
                Row::new(vec![
                    a.name.as_str().into(),
                    a.shown().into(),
                    a.source.display().into(),
                ])
            })
            .collect(),
    }));

    b.push(Block::Heading("Inventory".into()));
    let excluded: Vec<String> = s
        .excluded_by_reason
        .iter()
        .map(|(k, v)| format!("{} {k}", count(u64::from(*v))))
        .collect();
    b.push(Block::Para(format!(
        "{} VMs kept of {} rows read{}; {} TiB in use, {} TiB provisioned, {} vCPUs, {} GiB of memory; {} disks, {} RDM and {} shared.{}",
        count(u64::from(s.included)),
        count(u64::from(s.rows)),
        if excluded.is_empty() {
            String::new()
        } else {
            format!(", {} left out ({})", count(u64::from(s.excluded)), excluded.join(", "))
        },
        num(s.in_use_tib, 1),
        num(s.provisioned_tib, 1),
        count(s.vcpus),
        num(s.memory_gib, 0),
        count(u64::from(s.disks)),
        count(u64::from(s.rdm_disks)),
        count(u64::from(s.shared_disks)),
        if s.anonymised { " Names are anonymised." } else { "" }
    )));
    let notes: Vec<Bullet> = s
        .warnings
        .iter()
        .chain(&p.warnings)
        .map(|w| Bullet::plain(w.clone()))
        .collect();
    if !notes.is_empty() {
        b.push(Block::Bullets(notes));
    }

    b.push(Block::Heading(format!(
        "{} and their datastores",
        if unit_name(p) == "disks" {
            "VM disks"
        } else {
            "VMs"
        }
    )));
    let rows = placement_rows(doc);
    let more = rows.len().saturating_sub(MAX_PLACEMENT);
    b.push(Block::Table(Table {
        name: "Placement".into(),
        columns: vec![
            text_col("VM", 1.8),
            text_col("Disk", 1.2),
            text_col("Datastore", 1.4),
            num_col("TiB", 0.8),
            num_col("MiB/s", 0.8),
            text_col("Flags", 1.0),
        ],
        rows: rows
            .iter()
            .take(MAX_PLACEMENT)
            .map(|r| {
                Row::new(vec![
                    r.vm.into(),
                    r.disk.unwrap_or("all").into(),
                    r.datastore.into(),
                    Cell::num(r.tib, 2),
                    r.mibps.map_or_else(|| "-".into(), |m| Cell::num(m, 1)),
                    r.flags.join(", ").into(),
                ])
            })
            .collect(),
    }));
    if more > 0 {
        b.push(Block::Note(format!(
            "{} more rows: the full placement is in the plan's CSV, XLSX and JSON files.",
            count(more as u64)
        )));
    }

    b.push(Block::Heading("Sources".into()));
    b.push(Block::Links(documents(p)));
    if edition == Edition::Engineer {
        trace(doc, &mut b);
    }

    let level = p.level.display(Service::Anf);
    Doc {
        kind: "AVS plan",
        title: "Azure VMware Solution with Azure NetApp Files datastores".to_owned(),
        subtitle: format!(
            "{} {level} datastore{}, {} {} hosts in {}",
            count(p.datastores.len() as u64),
            if p.datastores.len() == 1 { "" } else { "s" },
            t.with_anf.hosts.hosts,
            p.host_sku,
            region_name(&p.region)
        ),
        meta: vec![
            ("Inventory", doc.origin.to_owned()),
            ("Date", date_words(doc.date)),
        ],
        dateline: format!(
            "Azure list prices for {} as of {}.",
            region_name(&p.region),
            date_words(&t.anf_price_date)
        ),
        blocks: b,
        footer: match edition {
            Edition::Customer => format!("AVS plan · {}", date_words(doc.date)),
            Edition::Engineer => format!(
                "volplan AVS plan · {} candidate layouts evaluated · {}",
                p.candidates.len(),
                doc.date
            ),
        },
    }
}

/// The engineer edition's appendix: the candidates tried, the limit ids, the inventory's
/// columns.
fn trace(doc: &PlanDoc, b: &mut Vec<Block>) {
    let (p, s) = (doc.plan, &doc.inventory.summary);
    b.push(Block::Heading("Plan trace".into()));
    b.push(Block::Note(format!(
        "Inventory {} ({}; capacities in {}); level {}; cheapest binding ids: {}; saving drivers: {}.",
        s.source,
        s.dialect,
        s.capacity_unit,
        p.level.key(),
        p.clusters
            .iter()
            .map(|c| c.binding)
            .collect::<Vec<_>>()
            .join(", "),
        p.tco.saving.drivers
    )));
    b.push(Block::Table(Table {
        name: "Candidates".into(),
        columns: vec![
            text_col("Level", 1.0),
            num_col("Datastores", 1.0),
            text_col("Met", 0.6),
            num_col("ANF a month", 1.3),
            text_col("Why not", 3.0),
        ],
        rows: p
            .candidates
            .iter()
            .map(|c| {
                Row::new(vec![
                    c.level.key().into(),
                    Cell::num(f64::from(c.datastores), 0),
                    yes_no(c.met).into(),
                    Cell::money(c.anf_monthly, p.tco.currency),
                    c.infeasible.clone().unwrap_or_default().into(),
                ])
            })
            .collect(),
    }));
}
