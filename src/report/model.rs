//! The sizing report as data: everything every format shows, built once from a
//! scenario and its evaluation.
//!
//! Each output format (HTML, PDF, Markdown, CSV, XLSX, JSON) is a pure function of a
//! [`Report`], so the formats cannot disagree about a number. The model holds no clock:
//! the caller passes the date (see [`today_utc`]).

use super::charts;
use super::latency;
use super::sources::{self, Document};
use super::summary;
use crate::engine::advice::Severity;
use crate::engine::evaluation::SizingBasis;
use crate::engine::field_error::FieldErrors;
use crate::engine::meta::Meta;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{
    Access, Files, Level, NfsClient, Placement, Protocol, Qos, Replication, Service, VolumeKind,
};
use crate::engine::trace::{Exact, Num, Sig};
use crate::engine::{Evaluation, Scenario, sweep};
use crate::measure::testplan::{self, PlanTool};
use crate::prices::reprice::CostSnapshot;
use std::fmt;

/// One row of the inputs table.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRow {
    /// Workload, Storage, Clients or AVS.
    pub section: &'static str,
    pub label: String,
    /// The value as shown, with separators ("20", "Azure NetApp Files", "none").
    pub value: String,
    /// The unit beside the value, empty when there is none.
    pub unit: &'static str,
    /// The number itself, for spreadsheets; `None` for words.
    pub number: Option<f64>,
}

/// One headline figure.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// Stable key, e.g. `throughput_mibps` (used as the CSV key).
    pub key: &'static str,
    pub label: &'static str,
    /// `None` when there is no figure (a level without a list price).
    pub value: Option<f64>,
    pub unit: &'static str,
    /// Decimals of the spreadsheet cell's number format.
    pub decimals: usize,
    /// How the report writes it, the way the planner page does.
    pub shown: Shown,
}

/// How a headline figure is written, in every report format as on the planner page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// Rates and counts the page rounds to significant digits ([`Sig`]).
    Sig,
    /// Milliseconds to three significant digits ([`latency::ms`]).
    Ms,
    /// The figure's own decimals: money, capacity, connection counts.
    Decimals,
}

impl Figure {
    /// The value as the planner page writes it, or "n/a".
    pub fn text(&self) -> String {
        match (self.value, self.shown) {
            (Some(v), Shown::Sig) => sig(v),
            (Some(v), Shown::Ms) => latency::ms(v),
            (Some(v), Shown::Decimals) => Num(v, self.decimals).to_string(),
            (None, _) => NOT_PRICED.to_owned(),
        }
    }
}

/// A headline figure in prose or a headline box: 3-4 significant digits ([`Sig`]).
pub fn sig(v: f64) -> String {
    Sig(v).to_string()
}

/// A rate or count in a table or a limit's sentence, exact to the unit ([`Exact`]).
pub fn exact(v: f64) -> String {
    Exact(v).to_string()
}

/// A capacity in TiB, to two decimals as the planner writes quotas and pools.
pub fn tib(v: f64) -> String {
    Num(v, 2).to_string()
}

/// Shown where the catalog has no list price.
pub const NOT_PRICED: &str = "n/a";

/// A monthly price with two decimals, or "n/a" without a list price.
pub fn money(v: Option<f64>) -> String {
    match v {
        Some(x) => Num(x, 2).to_string(),
        None => NOT_PRICED.to_owned(),
    }
}

/// Whether the scenario meets its targets.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetLine {
    pub met: bool,
    /// e.g. "Target 12,000 MiB/s: met with 5% headroom."
    pub text: String,
}

/// The limit that binds, in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    pub id: &'static str,
    pub label: String,
    pub mibps: f64,
    pub iops: f64,
    /// One sentence: which limit, its value and why it binds.
    pub sentence: String,
}

/// One limit with its headroom and provenance.
#[derive(Debug, Clone, PartialEq)]
pub struct LimitRow {
    pub id: &'static str,
    pub label: String,
    pub scope: &'static str,
    pub applies: &'static str,
    pub mibps: f64,
    pub iops: f64,
    pub headroom_pct: f64,
    pub binding: bool,
    pub assumption: bool,
    /// Where the limit comes from, with public document titles.
    pub source: String,
}

/// Reverse sizing for one level.
#[derive(Debug, Clone, PartialEq)]
pub struct SizingRow {
    /// Service and level as the vendor writes them.
    pub name: String,
    pub level: &'static str,
    pub quota_tib: f64,
    pub pool_tib: f64,
    pub throughput_mibps: Option<f64>,
    pub monthly_usd: Option<f64>,
    pub meets: bool,
    pub cheapest: bool,
    /// True for the level the scenario uses.
    pub current: bool,
}

/// One piece of advice.
#[derive(Debug, Clone, PartialEq)]
pub struct AdviceRow {
    pub code: &'static str,
    pub severity: &'static str,
    pub message: String,
}

/// One scenario in the comparison section.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareRow {
    pub id: Option<i64>,
    pub name: String,
    /// Service and level as the vendor writes them.
    pub storage: String,
    pub throughput_mibps: f64,
    pub iops: f64,
    pub binding: &'static str,
    pub binding_label: String,
    pub monthly_usd: Option<f64>,
    pub met: bool,
}

/// One volume layout in the layouts section: the same capacity split over `count` volumes.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutRow {
    pub count: u32,
    pub quota_tib: f64,
    pub throughput_mibps: f64,
    pub iops: f64,
    pub connections: u64,
    pub binding: &'static str,
    pub binding_label: String,
    pub monthly_usd: Option<f64>,
    pub met: bool,
}

/// The benchmark that verifies the scenario, as preformatted text for every format.
#[derive(Debug, Clone, PartialEq)]
pub struct TestPlan {
    /// The fio job file (Linux, NFS), with how to mount, run and import it.
    pub fio: String,
    /// The DiskSpd command line (Windows, SMB), with how to run and import it.
    pub diskspd: String,
    /// The mount options (NFS), the SMB client setup, or on AVS the ESXi datastore setup.
    pub mount_options: String,
    /// How the scenario is reached: NFS from Linux, SMB from Windows, or AVS datastores.
    pub path: PlanPath,
}

/// Which parts of the test plan apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanPath {
    /// Linux clients over NFS: fio and mount options.
    Nfs,
    /// Windows clients over SMB: DiskSpd and the SMB client setup.
    Smb,
    /// AVS guest VMs on NFS datastores: fio in the guests, the datastores on ESXi.
    Avs,
}

impl TestPlan {
    /// The section's title in every format.
    pub const TITLE: &'static str = "Verification test plan";

    /// The plan for a scenario.
    pub fn of(s: &Scenario) -> TestPlan {
        let path = if s.clients.avs.is_some() {
            PlanPath::Avs
        } else if s.clients.protocol.is_nfs() {
            PlanPath::Nfs
        } else {
            PlanPath::Smb
        };
        TestPlan {
            fio: testplan::plan(s, PlanTool::Fio),
            diskspd: testplan::plan(s, PlanTool::Diskspd),
            mount_options: match path {
                PlanPath::Avs => testplan::esxi_datastore_setup(s),
                _ => testplan::mount_options(s),
            },
            path,
        }
    }

    /// [`TestPlan::TITLE`], for templates.
    pub fn title(&self) -> &'static str {
        Self::TITLE
    }

    /// How to use the plan, in one sentence naming the tool that applies.
    pub fn note(&self) -> &'static str {
        match self.path {
            PlanPath::Smb => {
                "Run this benchmark after provisioning, discard the first run as warm-up, and import the XML result of the second run into volplan to see measured against predicted."
            }
            _ => {
                "Run this benchmark after provisioning, discard the first run as warm-up, and import the JSON result of the second run into volplan to see measured against predicted."
            }
        }
    }

    /// The parts that apply, as (title, text), in report order: DiskSpd only for SMB,
    /// the ESXi datastore setup instead of mount options for AVS.
    pub fn parts(&self) -> Vec<(&'static str, &str)> {
        match self.path {
            PlanPath::Nfs => vec![
                ("fio job file (Linux, NFS)", self.fio.as_str()),
                ("Mount options", self.mount_options.as_str()),
            ],
            PlanPath::Smb => vec![
                ("DiskSpd command line (Windows, SMB)", self.diskspd.as_str()),
                ("SMB client setup", self.mount_options.as_str()),
            ],
            PlanPath::Avs => vec![
                ("ESXi datastore setup", self.mount_options.as_str()),
                ("fio job file (in the guest VMs)", self.fio.as_str()),
            ],
        }
    }
}

/// The charts of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChartKind {
    Ceilings,
    IoSize,
    Scaling,
    Latency,
}

impl ChartKind {
    /// All charts, in report order.
    pub const ALL: [ChartKind; 4] = [
        ChartKind::Ceilings,
        ChartKind::Latency,
        ChartKind::IoSize,
        ChartKind::Scaling,
    ];

    /// The chart's name in URLs (`/scenarios/{id}/charts/{key}.svg`).
    pub fn key(self) -> &'static str {
        match self {
            ChartKind::Ceilings => "ceilings",
            ChartKind::IoSize => "io-size",
            ChartKind::Scaling => "scaling",
            ChartKind::Latency => "latency",
        }
    }

    /// The name the chart renderer uses.
    pub fn chart_name(self) -> charts::ChartName {
        match self {
            ChartKind::Ceilings => charts::ChartName::Ceilings,
            ChartKind::IoSize => charts::ChartName::IoSize,
            ChartKind::Scaling => charts::ChartName::Scaling,
            ChartKind::Latency => charts::ChartName::Latency,
        }
    }

    /// The chart's caption.
    pub fn title(self) -> &'static str {
        match self {
            ChartKind::Ceilings => "Ceilings: every limit, the binding one marked",
            ChartKind::IoSize => "Achievable throughput and IOPS against IO size",
            ChartKind::Scaling => "Achievable throughput against the number of flows",
            ChartKind::Latency => "Latency per IO against load, the scenario's point marked",
        }
    }
}

/// The cost a saved revision was saved with.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedCost {
    pub revision: i64,
    /// The save's date (YYYY-MM-DD, UTC).
    pub saved_at: String,
    /// `None` for a revision saved before costs were kept.
    pub cost: Option<CostSnapshot>,
}

/// The whole report.
#[derive(Debug, Clone)]
pub struct Report {
    /// The scenario's name.
    pub title: String,
    /// Customer, project, author and notes, when given.
    pub meta: Option<Meta>,
    /// The executive summary: recommendation, targets and what binds.
    pub summary: Vec<String>,
    /// Every public document the limits cite, once each.
    pub sources: Vec<Document>,
    /// Where the figures come from, in a sentence (fitted limits said as such).
    pub provenance: String,
    /// Service, level and volumes in one line.
    pub subtitle: String,
    /// Date the report was generated (YYYY-MM-DD, UTC).
    pub date: String,
    /// Version (date) of the limits catalog the numbers come from.
    pub catalog_version: &'static str,
    /// Date of the price snapshot.
    pub price_date: String,
    pub inputs: Vec<InputRow>,
    pub headline: Vec<Figure>,
    pub targets: Option<TargetLine>,
    pub binding: Binding,
    /// Latency in words: at the achievable load, where it doubles, at the target rate,
    /// and the latency target's verdict (the curve is `evaluation.latency_curve`).
    pub latency: String,
    /// Every limit, lowest first.
    pub limits: Vec<LimitRow>,
    pub sizing: Vec<SizingRow>,
    /// What the per-level sizing sizes for, in a sentence.
    pub sizing_basis: &'static str,
    pub advice: Vec<AdviceRow>,
    /// Every number that rests on something other than a document.
    pub assumptions: Vec<String>,
    pub charts: Vec<ChartKind>,
    /// Other scenarios side by side with this one (this one first), when asked for.
    pub comparison: Option<Vec<CompareRow>>,
    /// The same capacity over different volume counts, when asked for.
    pub layouts: Option<Vec<LayoutRow>>,
    /// For a saved scenario: the cost its revision was saved with.
    pub saved_cost: Option<SavedCost>,
    /// The benchmark that verifies the scenario.
    pub test_plan: TestPlan,
    /// The inputs, kept for the JSON format and the charts.
    pub scenario: Scenario,
    /// The engine's answer, kept for the JSON format and the charts.
    pub evaluation: Evaluation,
}

/// The version (review date) of the limits catalog behind every figure.
pub fn catalog_version() -> &'static str {
    crate::engine::catalog::version()
}

/// Service and level as the vendor writes them, e.g. "Azure NetApp Files Ultra".
pub fn storage_name(service: Service, level: Level) -> String {
    format!("{} {}", service.display(), level.display(service))
}

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.to_owned()
}

fn row(section: &'static str, label: &str, value: String, unit: &'static str) -> InputRow {
    InputRow {
        section,
        label: label.to_owned(),
        value,
        unit,
        number: None,
    }
}

fn num_row(
    section: &'static str,
    label: &str,
    v: f64,
    decimals: usize,
    unit: &'static str,
) -> InputRow {
    InputRow {
        section,
        label: label.to_owned(),
        value: Num(v, decimals).to_string(),
        unit,
        number: Some(v),
    }
}

/// The scenario's inputs as label/value/unit rows, only those that apply.
pub fn input_rows(s: &Scenario) -> Vec<InputRow> {
    let w = &s.workload;
    let mut rows = vec![
        num_row("Workload", "IO size", w.io_size_kib, 2, "KiB"),
        num_row("Workload", "Reads", w.read_pct, 2, "%"),
        row(
            "Workload",
            "Access",
            match w.access {
                Access::Sequential => "sequential",
                Access::Random => "random",
            }
            .to_owned(),
            "",
        ),
        num_row("Workload", "Threads per client", w.threads.into(), 0, ""),
        num_row(
            "Workload",
            "Queue depth per thread",
            w.queue_depth.into(),
            0,
            "",
        ),
        row(
            "Workload",
            "Files",
            match w.files {
                Files::Many => "many files",
                Files::One => "one file",
            }
            .to_owned(),
            "",
        ),
        row("Workload", "Metadata heavy", yes_no(w.metadata_heavy), ""),
        num_row("Workload", "Capacity needed", w.capacity_tib, 3, "TiB"),
    ];
    for (label, v, unit) in [
        ("Target throughput", w.target_mibps, "MiB/s"),
        ("Target IOPS", w.target_iops, "IOPS"),
        ("Target latency", w.target_latency_ms, "ms"),
    ] {
        if let Some(x) = v {
            rows.push(num_row("Workload", label, x, 2, unit));
        }
    }

    let st = &s.storage;
    rows.push(row(
        "Storage",
        "Service",
        st.service.display().to_owned(),
        "",
    ));
    rows.push(row(
        "Storage",
        "Service level",
        st.level.display(st.service).to_owned(),
        "",
    ));
    if st.service == Service::Anf {
        let qos = match st.qos {
            Qos::Auto => "auto",
            Qos::Manual => "manual",
        };
        rows.push(row("Storage", "QoS", qos.to_owned(), ""));
        let kind = match st.volume_kind {
            VolumeKind::Regular => "regular",
            VolumeKind::Large => "large",
            VolumeKind::Breakthrough => "large, breakthrough mode",
        };
        rows.push(row("Storage", "Volume type", kind.to_owned(), ""));
        if let Some(cool) = &st.cool_access {
            rows.push(num_row(
                "Storage",
                "Cool tier: share of data",
                cool.cool_data_pct,
                1,
                "%",
            ));
            rows.push(num_row(
                "Storage",
                "Cool tier: share of reads",
                cool.cool_read_pct,
                1,
                "%",
            ));
            if let Some(pct) = cool.retrieved_pct_per_month {
                rows.push(num_row(
                    "Storage",
                    "Cool tier: data read back per month",
                    pct,
                    1,
                    "%",
                ));
            }
        }
    }
    for (i, g) in st.volumes.iter().enumerate() {
        let label = if st.volumes.len() > 1 {
            format!("Volumes (group {})", i + 1)
        } else {
            "Volumes".to_owned()
        };
        let mut value = format!("{} x {}", g.count, Num(g.quota_tib, 3));
        let mut unit = "TiB";
        if let Some(t) = g.throughput_mibps {
            value = format!("{value} TiB at {} MiB/s", Num(t, 2));
            unit = "";
        }
        if let Some(iops) = g.iops {
            if unit.is_empty() {
                value = format!("{value}, {} IOPS", Num(iops, 0));
            } else {
                value = format!("{value} TiB at {} IOPS", Num(iops, 0));
                unit = "";
            }
        }
        rows.push(InputRow {
            section: "Storage",
            label,
            value,
            unit,
            number: None,
        });
    }
    match st.pool_tib {
        _ if st.service == Service::AzureFiles => {}
        Some(p) => rows.push(num_row("Storage", "Capacity pool", p, 3, "TiB")),
        None => rows.push(row(
            "Storage",
            "Capacity pool",
            "smallest valid".to_owned(),
            "",
        )),
    }

    let c = &s.clients;
    // AVS: the hosts are the clients; VM size, nconnect and NFS security are ESXi's.
    let avs = c.avs.is_some();
    if !avs {
        rows.push(num_row("Clients", "Clients", c.count.into(), 0, ""));
        if let Some(vm) = &c.vm_size {
            rows.push(row("Clients", "VM size", vm.clone(), ""));
        }
        if let Some(e) = c.egress_mibps {
            rows.push(num_row("Clients", "Egress per client", e, 2, "MiB/s"));
        }
        if let Some(i) = c.ingress_mibps {
            rows.push(num_row("Clients", "Ingress per client", i, 2, "MiB/s"));
        }
    }
    let protocol = match c.protocol {
        Protocol::Nfsv3 => "NFSv3",
        Protocol::Nfsv41 => "NFSv4.1",
        Protocol::Smb3 => "SMB 3",
    };
    rows.push(row("Clients", "Protocol", protocol.to_owned(), ""));
    if avs {
        // ESXi mounts the datastores: the clients' NFS settings do not apply.
    } else if c.protocol.is_nfs() {
        if c.nfs_client == NfsClient::Dnfs {
            rows.push(row(
                "Clients",
                "NFS client",
                "Oracle Direct NFS (dNFS)".to_owned(),
                "",
            ));
        } else {
            rows.push(num_row("Clients", "nconnect", c.nconnect.into(), 0, ""));
        }
        rows.push(row("Clients", "NFS security", c.sec.key().to_owned(), ""));
    } else {
        rows.push(row(
            "Clients",
            "SMB security",
            c.smb_security.key().to_owned(),
            "",
        ));
        rows.push(row(
            "Clients",
            "SMB multichannel",
            yes_no(c.smb_multichannel),
            "",
        ));
        if c.smb_multichannel {
            rows.push(num_row(
                "Clients",
                "SMB channels",
                c.smb_channels.into(),
                0,
                "",
            ));
        }
    }
    pricing_rows(s, &mut rows);
    if let Some(a) = &c.avs {
        rows.push(num_row(
            "AVS",
            "Hosts in the cluster",
            a.cluster_size().into(),
            0,
            "",
        ));
        rows.push(num_row(
            "AVS",
            "Hosts running the VMs",
            a.hosts.into(),
            0,
            "",
        ));
        rows.push(row("AVS", "Host SKU", a.host_sku.clone(), ""));
        rows.push(num_row("AVS", "VMs per host", a.vms_per_host.into(), 0, ""));
        rows.push(num_row("AVS", "VMDKs per VM", a.vmdks_per_vm.into(), 0, ""));
        let placement = match a.placement {
            Placement::Spread => "spread over all datastores",
            Placement::Dedicated => "one datastore per VM",
            Placement::Single => "all on the first datastore",
        };
        rows.push(row("AVS", "VMDK placement", placement.to_owned(), ""));
        rows.push(num_row(
            "AVS",
            "Connections per datastore",
            a.nconnect.into(),
            0,
            "",
        ));
    }
    rows
}

/// Region, pricing and data protection rows of the inputs table.
fn pricing_rows(s: &Scenario, rows: &mut Vec<InputRow>) {
    let region = s
        .region
        .as_deref()
        .unwrap_or("reference region of the price book");
    rows.push(row("Pricing", "Region", region.to_owned(), ""));
    if let Some(p) = &s.pricing {
        rows.push(row("Pricing", "Currency", p.currency.clone(), ""));
        rows.push(num_row("Pricing", "Discount", p.discount_pct, 2, "%"));
        rows.push(row(
            "Pricing",
            "Reservation",
            p.reservation.key().to_owned(),
            "",
        ));
    }
    let Some(d) = &s.data_protection else { return };
    rows.push(num_row(
        "Data protection",
        "Snapshot reserve",
        d.snapshot_reserve_pct,
        1,
        "%",
    ));
    rows.push(num_row(
        "Data protection",
        "Daily change",
        d.daily_change_pct,
        2,
        "%",
    ));
    if let Some(b) = d.backup {
        rows.push(row(
            "Data protection",
            "Backups kept",
            format!(
                "{} daily, {} weekly, {} monthly",
                b.daily, b.weekly, b.monthly
            ),
            "",
        ));
    }
    if let Some(r) = &d.replication_region {
        let every = match d.replication {
            Replication::None => "none",
            Replication::TenMinutes => "every 10 minutes",
            Replication::Hourly => "hourly",
            Replication::Daily => "daily",
        };
        rows.push(row(
            "Data protection",
            "Replication",
            format!("{every} to {r}"),
            "",
        ));
    }
}

/// The scenario's storage in one line: "Azure NetApp Files Ultra, 4 x 20 TiB".
fn subtitle(s: &Scenario) -> String {
    let groups: Vec<String> = s
        .storage
        .volumes
        .iter()
        .map(|g| format!("{} x {} TiB", g.count, Num(g.quota_tib, 3)))
        .collect();
    let noun = if s.clients.avs.is_some() {
        "datastores"
    } else if s.storage.service == Service::AzureFiles {
        "shares"
    } else {
        "volumes"
    };
    format!(
        "{}, {} {}",
        storage_name(s.storage.service, s.storage.level),
        groups.join(" + "),
        noun
    )
}

fn headline(e: &Evaluation) -> Vec<Figure> {
    let f = |key, label, value: f64, unit, decimals, shown| Figure {
        key,
        label,
        value: Some(value),
        unit,
        decimals,
        shown,
    };
    vec![
        f(
            "throughput_mibps",
            "Throughput",
            e.throughput_mibps,
            "MiB/s",
            1,
            Shown::Sig,
        ),
        f("iops", "IOPS", e.iops, "IOPS", 0, Shown::Sig),
        f("read_mibps", "Reads", e.read_mibps, "MiB/s", 1, Shown::Sig),
        f(
            "write_mibps",
            "Writes",
            e.write_mibps,
            "MiB/s",
            1,
            Shown::Sig,
        ),
        f(
            "latency_ms",
            "Latency per IO",
            e.latency_ms,
            "ms",
            3,
            Shown::Ms,
        ),
        f(
            "connections",
            "TCP connections",
            e.flows.connections as f64,
            "",
            0,
            Shown::Decimals,
        ),
        Figure {
            key: "monthly_usd",
            label: "Monthly cost",
            value: e.cost.monthly_usd,
            unit: "USD",
            decimals: 2,
            shown: Shown::Decimals,
        },
        f(
            "billed_tib",
            "Billed capacity",
            e.cost.billed_tib,
            "TiB",
            2,
            Shown::Decimals,
        ),
        Figure {
            key: "usd_per_mibps",
            label: "Cost per MiB/s",
            value: e.cost.usd_per_mibps,
            unit: "USD/month",
            decimals: 2,
            shown: Shown::Decimals,
        },
    ]
}

fn targets(s: &Scenario, e: &Evaluation) -> Option<TargetLine> {
    let w = &s.workload;
    let mut parts = Vec::new();
    if let Some(t) = w.target_mibps {
        parts.push(target_part(t, "MiB/s", e.targets.mibps_headroom_pct));
    }
    if let Some(t) = w.target_iops {
        parts.push(target_part(t, "IOPS", e.targets.iops_headroom_pct));
    }
    if let Some((_, verdict)) = latency::target_verdict(s, e) {
        parts.push(verdict);
    }
    if parts.is_empty() {
        return None;
    }
    let verdict = if e.targets.met {
        "Targets met"
    } else {
        "Targets missed"
    };
    Some(TargetLine {
        met: e.targets.met,
        text: format!("{verdict}: {}.", parts.join("; ")),
    })
}

fn target_part(target: f64, unit: &str, headroom: Option<f64>) -> String {
    match headroom {
        Some(h) if h >= 0.0 => format!("{} {unit} with {}% headroom", Num(target, 2), Num(h, 1)),
        Some(h) => format!("{} {unit}, {}% short", Num(target, 2), Num(-h, 1)),
        None => format!("{} {unit}", Num(target, 2)),
    }
}

/// AVS: how many datastores carry load, and why ("4 of 20 datastores carry load: 4
/// VMs with 1 VMDK each."), from the evaluation's flows and its advice.
pub fn datastores_sentence(e: &Evaluation) -> Option<String> {
    let (total, loaded) = (e.flows.datastores?, e.flows.loaded_datastores?);
    if loaded >= total {
        return Some(if total == 1 {
            "The one datastore carries the load.".to_owned()
        } else {
            format!("All {total} datastores carry load.")
        });
    }
    let idle = e.advice.iter().find(|a| a.code == "avs_idle_datastores")?;
    let text = idle.message.to_string();
    let first = text
        .split_inclusive(". ")
        .next()
        .unwrap_or(&text)
        .trim_end();
    Some(first.to_owned())
}

fn binding(s: &Scenario, e: &Evaluation, limits: &[LimitRow]) -> Binding {
    let Some(b) = limits.iter().find(|l| l.binding) else {
        return Binding {
            id: e.binding,
            label: e.binding.to_owned(),
            mibps: e.throughput_mibps,
            iops: e.iops,
            sentence: format!(
                "Bound by {}: {} MiB/s.",
                e.binding,
                exact(e.throughput_mibps)
            ),
        };
    };
    let w = &s.workload;
    let io = Num(w.io_size_kib, 2);
    let mut sentence = format!(
        "Bound by {} = {} MiB/s ({} IOPS at {io} KiB)",
        b.label,
        exact(b.mibps),
        exact(b.iops)
    );
    let load = e
        .limits
        .iter()
        .find(|l| l.id == b.id)
        .map(|l| latency::binding_load(l, e.latency_ms))
        .unwrap_or_default();
    if !load.is_empty() {
        sentence.push_str(&format!("; the workload {load}"));
    }
    sentence.push_str(". ");
    let why = match b.applies {
        "read" if w.read_pct < 100.0 => format!(
            "It caps reads, which are {}% of the IO, so it holds the total to {} MiB/s",
            Num(w.read_pct, 1),
            sig(e.throughput_mibps)
        ),
        "write" if w.read_pct > 0.0 => format!(
            "It caps writes, which are {}% of the IO, so it holds the total to {} MiB/s",
            Num(100.0 - w.read_pct, 1),
            sig(e.throughput_mibps)
        ),
        _ => format!(
            "It is the lowest of the {} ceilings at {}% reads",
            limits.len(),
            Num(w.read_pct, 1)
        ),
    };
    sentence.push_str(&why);
    // How far the next ceiling sits above the binding one, at this mix.
    let above = |next: &LimitRow| {
        ((1.0 + next.headroom_pct / 100.0) / (1.0 + b.headroom_pct / 100.0) - 1.0) * 100.0
    };
    match limits.iter().find(|l| !l.binding) {
        Some(next) if above(next) < 0.05 => sentence.push_str(&format!(
            "; {} is just as low, so both must rise to gain anything.",
            next.label
        )),
        Some(next) => sentence.push_str(&format!(
            "; the next, {}, allows {}% more.",
            next.label,
            Num(above(next), 1)
        )),
        None => sentence.push('.'),
    }
    if let Some(d) = datastores_sentence(e) {
        sentence.push(' ');
        sentence.push_str(&d);
    }
    Binding {
        id: b.id,
        label: b.label.clone(),
        mibps: b.mibps,
        iops: b.iops,
        sentence,
    }
}

fn limit_rows(e: &Evaluation) -> Vec<LimitRow> {
    let mut rows: Vec<LimitRow> = e
        .limits
        .iter()
        .map(|l| LimitRow {
            id: l.id,
            label: l.label.to_string(),
            scope: l.scope.key(),
            applies: l.applies.key(),
            mibps: l.mibps,
            iops: l.iops,
            headroom_pct: l.headroom_pct,
            binding: l.id == e.binding,
            assumption: l.assumption,
            source: sources::public(l.source),
        })
        .collect();
    // Binding first, then by headroom: the reader sees what binds next.
    rows.sort_by(|a, b| {
        b.binding
            .cmp(&a.binding)
            .then(a.headroom_pct.total_cmp(&b.headroom_pct))
    });
    rows
}

/// Where the figures come from: published limits, and which ones are fitted to
/// published measurements rather than stated by a document.
fn provenance(e: &Evaluation) -> String {
    let fitted: Vec<&str> = e
        .limits
        .iter()
        .filter(|l| {
            let s = l.source.to_ascii_lowercase();
            s.contains("fitted") || s.contains("measured") || s.contains("calibration")
        })
        .map(|l| l.label.name)
        .collect();
    if fitted.is_empty() {
        "Every limit is a published figure or a formula from a published document; none is flagged as unconfirmed.".to_owned()
    } else {
        format!(
            "Limits are published figures or formulas from published documents, except {}, fitted to published benchmark measurements: a model of the measured behaviour, not a documented limit.",
            fitted.join(", ")
        )
    }
}

/// The engine's own assumption notes first, then every assumption-flagged limit and the
/// price snapshot that no note already names, so nothing is listed twice.
fn assumptions(e: &Evaluation) -> Vec<String> {
    let mut out: Vec<String> = e
        .advice
        .iter()
        .filter(|a| a.severity == Severity::Assumption)
        .map(|a| a.message.to_string())
        .collect();
    let covered = |out: &[String], what: &str| out.iter().any(|m| m.contains(what));
    for l in e.limits.iter().filter(|l| l.assumption) {
        if !covered(&out, l.label.name) {
            out.push(format!(
                "{}: rests on an UNCONFIRMED or fitted catalog value ({}).",
                l.label,
                sources::public(l.source)
            ));
        }
    }
    if e.cost.assumption && !covered(&out, "price") {
        out.push(format!(
            "Prices (snapshot {}, {} hours per month) include UNCONFIRMED or derived list prices.",
            e.cost.price_date,
            Num(e.cost.hours_per_month, 1)
        ));
    }
    out
}

impl Report {
    /// Builds the report of one scenario; `today` is the generation date (YYYY-MM-DD).
    pub fn build(s: &Scenario, e: &Evaluation, today: &str) -> Report {
        let limits = limit_rows(e);
        let sizing: Vec<SizingRow> = e
            .sizing
            .iter()
            .map(|z| SizingRow {
                name: storage_name(z.service, z.level),
                level: z.level.key(),
                quota_tib: z.quota_tib,
                pool_tib: z.pool_tib,
                throughput_mibps: z.throughput_mibps,
                monthly_usd: z.monthly_usd,
                meets: z.meets,
                cheapest: z.cheapest,
                current: z.service == s.storage.service && z.level == s.storage.level,
            })
            .collect();
        let advice = e
            .advice
            .iter()
            .filter(|a| a.severity != Severity::Assumption)
            .map(|a| AdviceRow {
                code: a.code,
                severity: a.severity.key(),
                message: a.message.to_string(),
            })
            .collect();
        let sizing_basis = match e.sizing.first().map(|z| z.basis) {
            Some(SizingBasis::Current) => {
                "No targets are set: each level is sized for the capacity and the throughput this scenario achieves now."
            }
            _ => "Each level is sized for the capacity and the targets.",
        };
        let targets = targets(s, e);
        let binding = binding(s, e, &limits);
        let summary = summary::sentences(s, e, &sizing, &limits, &binding, targets.as_ref());
        Report {
            sizing_basis,
            title: s.name.clone(),
            meta: s.meta.clone().filter(|m| !m.is_empty()),
            summary,
            sources: sources::documents(e.limits.iter().map(|l| l.source)),
            provenance: provenance(e),
            subtitle: subtitle(s),
            date: today.to_owned(),
            catalog_version: catalog_version(),
            price_date: e.cost.price_date.clone(),
            inputs: input_rows(s),
            headline: headline(e),
            targets,
            binding,
            latency: latency::summary(s, e),
            assumptions: assumptions(e),
            limits,
            sizing,
            advice,
            charts: ChartKind::ALL.to_vec(),
            comparison: None,
            layouts: None,
            saved_cost: None,
            test_plan: TestPlan::of(s),
            scenario: s.clone(),
            evaluation: e.clone(),
        }
    }

    /// Adds a comparison of this scenario (first) with `others`, each with its evaluation.
    pub fn with_comparison(mut self, others: &[(Scenario, Evaluation)]) -> Report {
        let mut rows = vec![compare_row(&self.scenario, &self.evaluation)];
        rows.extend(others.iter().map(|(s, e)| compare_row(s, e)));
        self.comparison = Some(rows);
        self
    }

    /// Adds the layouts section: the scenario's total quota over each count of volumes,
    /// as the layouts API sweeps it, priced from `prices`.
    pub fn with_layouts(
        mut self,
        counts: &[u32],
        prices: &PriceBook,
    ) -> Result<Report, FieldErrors> {
        let total = sweep::total_quota_tib(&self.scenario);
        let layouts = sweep::layouts(&self.scenario, total, counts, prices)?;
        self.layouts = Some(
            layouts
                .iter()
                .map(|l| LayoutRow {
                    count: l.count,
                    quota_tib: l.quota_tib,
                    throughput_mibps: l.evaluation.throughput_mibps,
                    iops: l.evaluation.iops,
                    connections: l.evaluation.flows.connections,
                    binding: l.evaluation.binding,
                    binding_label: binding_label(&l.evaluation),
                    monthly_usd: l.evaluation.cost.monthly_usd,
                    met: l.evaluation.targets.met,
                })
                .collect(),
        );
        Ok(self)
    }

    /// Adds the cost the saved revision `revision` (saved at `saved_at`) was saved with;
    /// `None` for a revision saved before costs were kept.
    pub fn with_saved_cost(
        mut self,
        revision: i64,
        saved_at: &str,
        cost: Option<CostSnapshot>,
    ) -> Report {
        self.saved_cost = Some(SavedCost {
            revision,
            saved_at: saved_at.get(..10).unwrap_or(saved_at).to_owned(),
            cost,
        });
        self
    }

    /// The saved cost in a sentence beside today's, for every format.
    pub fn saved_cost_sentence(&self) -> Option<String> {
        let saved = self.saved_cost.as_ref()?;
        let c = &self.evaluation.cost;
        Some(match &saved.cost {
            None => format!(
                "Revision {} was saved {} before costs were kept with each save (not stored); the cost above is priced with today's price book.",
                saved.revision, saved.saved_at
            ),
            Some(s) => {
                let today = match (c.monthly, s.monthly) {
                    (Some(t), Some(b)) if (t - b).abs() < 0.005 => "the same today".to_owned(),
                    (Some(t), Some(b)) => format!(
                        "today's price book gives {} {} ({}{} {})",
                        money(Some(t)),
                        c.currency,
                        if t > b { "+" } else { "-" },
                        money(Some((t - b).abs())),
                        c.currency
                    ),
                    (t, _) => format!("today's price book gives {} {}", money(t), c.currency),
                };
                format!(
                    "Revision {} was saved {} with price book {} (prices as of {}, {}): {} {} a month in {}; {today}.",
                    saved.revision,
                    saved.saved_at,
                    s.price_book.id,
                    s.price_book.date,
                    s.price_book.source,
                    money(s.monthly),
                    s.currency,
                    s.region
                )
            }
        })
    }

    /// A file name stem for downloads, from the title ("avs-4-x-20-tib-ultra").
    pub fn slug(&self) -> String {
        slug(&self.title)
    }

    /// The headline figure with this key.
    pub fn figure(&self, key: &str) -> Option<&Figure> {
        self.headline.iter().find(|f| f.key == key)
    }
}

fn binding_label(e: &Evaluation) -> String {
    e.limits
        .iter()
        .find(|l| l.id == e.binding)
        .map(|l| l.label.to_string())
        .unwrap_or_else(|| e.binding.to_owned())
}

fn compare_row(s: &Scenario, e: &Evaluation) -> CompareRow {
    CompareRow {
        id: s.id,
        name: s.name.clone(),
        storage: storage_name(s.storage.service, s.storage.level),
        throughput_mibps: e.throughput_mibps,
        iops: e.iops,
        binding: e.binding,
        binding_label: binding_label(e),
        monthly_usd: e.cost.monthly_usd,
        met: e.targets.met,
    }
}

/// Parses a comma-separated list of volume counts ("1,2,4,8").
pub fn parse_counts(text: &str) -> Result<Vec<u32>, String> {
    let counts: Result<Vec<u32>, String> = text
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<u32>()
                .ok()
                .filter(|n| (1..=1024).contains(n))
                .ok_or_else(|| format!("`{t}` is not a volume count from 1 to 1024"))
        })
        .collect();
    let counts = counts?;
    if counts.is_empty() || counts.len() > 256 {
        return Err("give 1 to 256 volume counts separated by commas, e.g. 1,2,4,8".to_owned());
    }
    Ok(counts)
}

/// A lowercase ASCII file-name stem: letters and digits joined by single dashes.
pub fn slug(title: &str) -> String {
    let mut out = String::new();
    for ch in title.chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
        if out.len() >= 60 {
            break;
        }
    }
    let out = out.trim_end_matches('-').to_owned();
    if out.is_empty() {
        "scenario".to_owned()
    } else {
        out
    }
}

/// The civil date (YYYY-MM-DD, proleptic Gregorian) of a Unix timestamp in seconds.
pub fn civil_date(unix_secs: i64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let z = unix_secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// Today's date in UTC, for the web and command-line layers.
pub fn today_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    civil_date(secs)
}

/// A chart drawn for a report: SVG markup (the renderer escapes its text), title and summary.
#[derive(Debug, Clone)]
pub struct ChartSvg {
    pub kind: ChartKind,
    pub title: String,
    pub summary: String,
    pub svg: String,
    /// The data behind the chart, for readers who cannot see it.
    pub table: charts::ChartTable,
}

/// Draws the report's charts as SVG, in report order.
pub fn chart_svgs(r: &Report) -> Result<Vec<ChartSvg>, ReportError> {
    r.charts
        .iter()
        .map(|&kind| {
            let err = |e: charts::ChartError| ReportError::Chart(kind.key(), e.to_string());
            let chart =
                charts::Chart::of(kind.chart_name(), &r.scenario, &r.evaluation).map_err(err)?;
            Ok(ChartSvg {
                kind,
                title: chart.title().to_owned(),
                summary: chart.summary().to_owned(),
                svg: chart.svg().map_err(err)?,
                table: chart.table(),
            })
        })
        .collect()
}

/// Paper size of the PDF.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paper {
    #[default]
    A4,
    Letter,
}

impl Paper {
    /// Parses `a4` or `letter` (any case).
    pub fn parse(text: &str) -> Result<Paper, String> {
        match text.to_ascii_lowercase().as_str() {
            "a4" => Ok(Paper::A4),
            "letter" => Ok(Paper::Letter),
            other => Err(format!("paper must be a4 or letter, not `{other}`")),
        }
    }

    /// Width and height in PDF points.
    pub fn size_pt(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.28, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }
}

/// An output format of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Html,
    Md,
    Pdf,
    Csv,
    Xlsx,
    Json,
}

impl Format {
    /// Every format, in the order menus list them.
    pub const ALL: [Format; 6] = [
        Format::Html,
        Format::Pdf,
        Format::Xlsx,
        Format::Csv,
        Format::Md,
        Format::Json,
    ];

    /// Parses a file extension (`html`, `md`, `pdf`, `csv`, `xlsx`, `json`).
    pub fn from_ext(ext: &str) -> Option<Format> {
        Some(match ext {
            "html" => Format::Html,
            "md" => Format::Md,
            "pdf" => Format::Pdf,
            "csv" => Format::Csv,
            "xlsx" => Format::Xlsx,
            "json" => Format::Json,
            _ => return None,
        })
    }

    /// The file extension.
    pub fn ext(self) -> &'static str {
        match self {
            Format::Html => "html",
            Format::Md => "md",
            Format::Pdf => "pdf",
            Format::Csv => "csv",
            Format::Xlsx => "xlsx",
            Format::Json => "json",
        }
    }

    /// The HTTP content type.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Html => "text/html; charset=utf-8",
            Format::Md => "text/markdown; charset=utf-8",
            Format::Pdf => "application/pdf",
            Format::Csv => "text/csv; charset=utf-8",
            Format::Xlsx => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            Format::Json => "application/json",
        }
    }

    /// A name for menus ("PDF", "Excel workbook").
    pub fn label(self) -> &'static str {
        match self {
            Format::Html => "HTML report",
            Format::Md => "Markdown",
            Format::Pdf => "PDF report",
            Format::Csv => "CSV",
            Format::Xlsx => "Excel workbook",
            Format::Json => "JSON",
        }
    }
}

/// Why a report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("chart {0}: {1}")]
    Chart(&'static str, String),
    #[error("PDF: {0}")]
    Pdf(String),
    #[error("XLSX: {0}")]
    Xlsx(String),
    #[error("CSV: {0}")]
    Csv(String),
    #[error("JSON: {0}")]
    Json(String),
    #[error("HTML: {0}")]
    Html(String),
}

/// Options that only some formats use.
#[derive(Debug, Clone, Copy, Default)]
pub struct RenderOptions {
    pub paper: Paper,
}

/// Writes the report in one format.
pub fn render(
    report: &Report,
    format: Format,
    opts: RenderOptions,
) -> Result<Vec<u8>, ReportError> {
    match format {
        Format::Html => super::html::render(report).map(String::into_bytes),
        Format::Md => Ok(super::md::render(report).into_bytes()),
        Format::Pdf => super::pdf::render(report, opts.paper),
        Format::Csv => super::csv::render(report),
        Format::Xlsx => super::xlsx::render(report),
        Format::Json => super::json::render(report),
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.ext())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::evaluate;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(951_782_400), "2000-02-29");
        assert_eq!(civil_date(1_796_083_200), "2026-12-01");
        assert_eq!(civil_date(-86_400), "1969-12-31");
    }

    #[test]
    fn slugs_are_safe_file_names() {
        assert_eq!(slug("AVS 4 x 20 TiB Ultra"), "avs-4-x-20-tib-ultra");
        assert_eq!(slug("<script>alert(1)</script>"), "script-alert-1-script");
        assert_eq!(slug("../../etc/passwd"), "etc-passwd");
        assert_eq!(slug("\"; \r\n"), "scenario");
        assert!(slug(&"x".repeat(500)).len() <= 60);
    }

    #[test]
    fn counts_parse_or_explain() {
        assert_eq!(parse_counts("1, 2,4,8").unwrap(), vec![1, 2, 4, 8]);
        assert!(parse_counts("0").unwrap_err().contains("`0`"));
        assert!(parse_counts("a").is_err());
        assert!(parse_counts("").is_err());
    }

    #[test]
    fn every_assumption_is_listed_once() {
        for t in crate::web::scenario_templates::TEMPLATES {
            let s = t.scenario();
            let e = crate::engine::evaluate(&s).expect("template evaluates");
            let r = Report::build(&s, &e, "2026-01-02");
            let mut seen = std::collections::HashSet::new();
            assert!(r.assumptions.iter().all(|a| seen.insert(a)), "{}", t.key);
            for l in e.limits.iter().filter(|l| l.assumption) {
                assert!(
                    r.assumptions.iter().any(|a| a.contains(l.label.name)),
                    "{}: {} is flagged but not listed",
                    t.key,
                    l.label.name
                );
            }
        }
    }

    #[test]
    fn test_plan_holds_the_fio_job_and_the_diskspd_command() {
        let (s, e) = fixture::example();
        let r = Report::build(&s, &e, "2026-01-02");
        assert!(r.test_plan.fio.contains("--output-format=json"));
        assert!(r.test_plan.fio.contains("direct=1"));
        assert!(r.test_plan.diskspd.contains("-Rxml"));
        // AVS: the datastores are set up on ESXi; no Linux mount line, no DiskSpd.
        assert_eq!(
            r.test_plan.mount_options,
            testplan::esxi_datastore_setup(&s)
        );
        let titles: Vec<&str> = r.test_plan.parts().iter().map(|p| p.0).collect();
        assert_eq!(
            titles,
            ["ESXi datastore setup", "fio job file (in the guest VMs)"]
        );
        let mut nfs = s.clone();
        nfs.clients.avs = None;
        let r = Report::build(&nfs, &evaluate(&nfs).unwrap(), "2026-01-02");
        assert_eq!(r.test_plan.mount_options, testplan::mount_options(&nfs));
        assert!(r.test_plan.mount_options.contains("vers=3"));
        assert!(r.test_plan.parts().iter().all(|p| !p.0.contains("DiskSpd")));
        let mut smb = nfs;
        smb.storage.service = Service::AzureFiles;
        smb.storage.level = Level::SsdV1;
        smb.clients.protocol = Protocol::Smb3;
        let plan = TestPlan::of(&smb);
        assert_eq!(plan.parts()[0].0, "DiskSpd command line (Windows, SMB)");
        assert_eq!(plan.parts().len(), 2);
    }

    #[test]
    fn formats_round_trip_their_extension() {
        for f in Format::ALL {
            assert_eq!(Format::from_ext(f.ext()), Some(f));
        }
        assert_eq!(Format::from_ext("exe"), None);
        assert_eq!(Paper::parse("Letter").unwrap(), Paper::Letter);
        assert!(Paper::parse("a3").is_err());
    }
}

/// The contract's example scenario (with a throughput target) and its evaluation, for
/// the formats' unit tests; they assert structure, not the engine's figures.
#[cfg(test)]
pub(crate) mod fixture {
    use crate::engine::{Evaluation, Scenario, evaluate};

    pub const SCENARIO: &str = r#"{
      "name": "AVS 4 x 20 TiB Ultra",
      "workload": { "io_size_kib": 64, "read_pct": 100, "access": "sequential", "threads": 8,
        "queue_depth": 16, "files": "many", "metadata_heavy": false, "capacity_tib": 80,
        "target_mibps": 8000, "target_iops": null },
      "storage": { "service": "anf", "level": "ultra", "qos": "auto", "volume_kind": "regular",
        "volumes": [ { "count": 4, "quota_tib": 20, "throughput_mibps": null } ], "pool_tib": null },
      "clients": { "count": 1, "vm_size": "Standard_E32s_v5", "egress_mibps": null,
        "ingress_mibps": null, "protocol": "nfsv3", "nconnect": 1, "smb_multichannel": false,
        "smb_channels": 4, "avs": { "hosts": 4, "host_sku": "AV36", "vms_per_host": 1,
        "vmdks_per_vm": 1, "placement": "dedicated" } }
    }"#;

    /// The scenario and the engine's evaluation of it.
    pub fn example() -> (Scenario, Evaluation) {
        let s: Scenario = serde_json::from_str(SCENARIO).expect("fixture scenario");
        let e = evaluate(&s).expect("the fixture scenario evaluates");
        (s, e)
    }
}

#[cfg(test)]
mod datastore_tests {
    use super::datastores_sentence;
    use crate::engine::{Scenario, evaluate};

    #[test]
    fn the_binding_sentence_says_how_many_datastores_carry_load() {
        let mut s: Scenario = serde_json::from_str(
            r#"{"workload": {"io_size_kib": 8, "read_pct": 70, "access": "random", "threads": 4,
                "queue_depth": 16, "capacity_tib": 80},
                "storage": {"service": "anf", "level": "ultra", "volumes": [{"count": 20, "quota_tib": 4}]},
                "clients": {"protocol": "nfsv3",
                "avs": {"hosts": 4, "vms_per_host": 1, "vmdks_per_vm": 1, "placement": "spread"}}}"#,
        )
        .unwrap();
        let e = evaluate(&s).unwrap();
        assert_eq!(
            datastores_sentence(&e).unwrap(),
            "4 of 20 datastores carry load: 4 VMs with 1 VMDK each."
        );
        s.clients.avs.as_mut().unwrap().vmdks_per_vm = 5;
        let e = evaluate(&s).unwrap();
        assert_eq!(
            datastores_sentence(&e).unwrap(),
            "All 20 datastores carry load."
        );
        s.clients.avs = None;
        s.clients.vm_size = Some("Standard_D8s_v5".into());
        assert!(datastores_sentence(&evaluate(&s).unwrap()).is_none());
    }
}
