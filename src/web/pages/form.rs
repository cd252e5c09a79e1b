//! The planner form: HTML form fields (all strings) <-> [`Scenario`].
//!
//! Inputs are named by their Scenario JSON path (`workload.io_size_kib`,
//! `storage.volumes[0].quota_tib`), so an engine [`FieldError`] lands on the
//! input it names. Parsing collects one message per field instead of stopping
//! at the first, and keeps what was typed so nothing is lost on a re-render.

use crate::engine::FieldError;
use crate::engine::advice::{Advice, Severity};
use crate::engine::meta::Meta;
use crate::engine::scenario::{
    Avs, Clients, CoolAccess, Pricing, Scenario, Storage, Term, VolumeGroup, Workload,
};
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, HashMap};

/// Largest number of volume groups the form accepts (the engine allows 1,024 volumes).
const MAX_GROUPS: usize = 64;

/// What the form shows: the values as typed, a message per invalid field and a
/// warning per field the evaluation warns about.
#[derive(Debug, Clone, Default)]
pub struct FormState {
    values: HashMap<String, String>,
    errors: BTreeMap<String, String>,
    warnings: BTreeMap<String, String>,
    /// Indices of the volume groups, in order (`storage.volumes[i]`).
    pub groups: Vec<GroupNames>,
}

/// Input names of one volume group, precomputed for the template.
#[derive(Debug, Clone)]
pub struct GroupNames {
    /// Position, from 1, as shown to the user.
    pub number: usize,
    pub count: String,
    pub quota_tib: String,
    pub throughput_mibps: String,
    pub iops: String,
}

impl GroupNames {
    fn new(i: usize) -> Self {
        let p = format!("storage.volumes[{i}]");
        Self {
            number: i + 1,
            count: format!("{p}.count"),
            quota_tib: format!("{p}.quota_tib"),
            throughput_mibps: format!("{p}.throughput_mibps"),
            iops: format!("{p}.iops"),
        }
    }
}

/// Formats a number for an input: `64`, `3.2`, no separators (they are accepted back).
fn num(v: f64) -> String {
    format!("{v}")
}

fn opt_num(v: Option<f64>) -> String {
    v.map(num).unwrap_or_default()
}

/// The JSON name of a serde enum value (`"nfsv4.1"`, `"ssd_v1"`).
fn key<T: serde::Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

fn flag(b: bool) -> String {
    if b { "on".into() } else { String::new() }
}

impl FormState {
    /// The form filled in from a scenario.
    pub fn from_scenario(s: &Scenario) -> Self {
        let mut v = HashMap::new();
        let mut set = |k: &str, val: String| {
            v.insert(k.to_owned(), val);
        };
        set("name", s.name.clone());
        let w = &s.workload;
        set("workload.io_size_kib", num(w.io_size_kib));
        set("workload.read_pct", num(w.read_pct));
        set("workload.access", key(&w.access));
        set("workload.threads", w.threads.to_string());
        set("workload.queue_depth", w.queue_depth.to_string());
        set("workload.files", key(&w.files));
        set("workload.metadata_heavy", flag(w.metadata_heavy));
        set("workload.capacity_tib", num(w.capacity_tib));
        set("workload.target_mibps", opt_num(w.target_mibps));
        set("workload.target_iops", opt_num(w.target_iops));
        set("workload.target_latency_ms", opt_num(w.target_latency_ms));
        let st = &s.storage;
        set("storage.service", st.service.key().to_owned());
        set("storage.level", st.level.key().to_owned());
        set("storage.qos", key(&st.qos));
        set("storage.volume_kind", key(&st.volume_kind));
        set("storage.pool_tib", opt_num(st.pool_tib));
        set("storage.cool_access", flag(st.cool_access.is_some()));
        let cool = st.cool_access.unwrap_or(DEFAULT_COOL);
        set("storage.cool_access.cool_data_pct", num(cool.cool_data_pct));
        set("storage.cool_access.cool_read_pct", num(cool.cool_read_pct));
        set(
            "storage.cool_access.retrieved_pct_per_month",
            opt_num(cool.retrieved_pct_per_month),
        );
        let mut groups = Vec::new();
        for (i, g) in st.volumes.iter().enumerate() {
            let n = GroupNames::new(i);
            set(&n.count, g.count.to_string());
            set(&n.quota_tib, num(g.quota_tib));
            set(&n.throughput_mibps, opt_num(g.throughput_mibps));
            set(&n.iops, opt_num(g.iops));
            groups.push(n);
        }
        if groups.is_empty() {
            groups.push(GroupNames::new(0));
        }
        let c = &s.clients;
        set("clients.count", c.count.to_string());
        set("clients.vm_size", c.vm_size.clone().unwrap_or_default());
        set("clients.egress_mibps", opt_num(c.egress_mibps));
        set("clients.ingress_mibps", opt_num(c.ingress_mibps));
        set("clients.protocol", c.protocol.key().to_owned());
        set("clients.nconnect", c.nconnect.to_string());
        set("clients.smb_multichannel", flag(c.smb_multichannel));
        set("clients.smb_channels", c.smb_channels.to_string());
        set("clients.nfs_client", key(&c.nfs_client));
        set("clients.sec", c.sec.key().to_owned());
        set("clients.smb_security", c.smb_security.key().to_owned());
        set("clients.avs", flag(c.avs.is_some()));
        set("region", s.region.clone().unwrap_or_default());
        let meta = s.meta.clone().unwrap_or_default();
        set("meta.customer", meta.customer);
        set("meta.project", meta.project);
        set("meta.author", meta.author);
        set("meta.notes", meta.notes);
        if let Some(p) = &s.pricing {
            set("pricing.discount_pct", num(p.discount_pct));
            set("pricing.reservation", p.reservation.key().to_owned());
        }
        if let Some(d) = &s.data_protection {
            set(
                "data_protection",
                serde_json::to_string(d).expect("data protection serialises"),
            );
        }
        let avs = c.avs.clone().unwrap_or_else(default_avs);
        set("clients.avs.hosts", avs.hosts.to_string());
        set(
            "clients.avs.cluster_hosts",
            avs.cluster_hosts.map(|n| n.to_string()).unwrap_or_default(),
        );
        set("clients.avs.host_sku", avs.host_sku.clone());
        set("clients.avs.vms_per_host", avs.vms_per_host.to_string());
        set("clients.avs.vmdks_per_vm", avs.vmdks_per_vm.to_string());
        set("clients.avs.placement", key(&avs.placement));
        set("clients.avs.nconnect", avs.nconnect.to_string());
        Self {
            values: v,
            errors: BTreeMap::new(),
            warnings: BTreeMap::new(),
            groups,
        }
    }

    /// The value of an input as typed (empty when absent).
    pub fn value(&self, name: &str) -> &str {
        self.values.get(name).map(String::as_str).unwrap_or("")
    }

    /// True when a select has this option chosen.
    pub fn is(&self, name: &str, option: &str) -> bool {
        self.value(name) == option
    }

    /// True when a checkbox is ticked.
    pub fn checked(&self, name: &str) -> bool {
        !self.value(name).is_empty()
    }

    /// The message for an invalid input.
    pub fn error(&self, name: &str) -> Option<&str> {
        self.errors.get(name).map(String::as_str)
    }

    /// Every message, by input name (for the summary above the results).
    pub fn errors(&self) -> &BTreeMap<String, String> {
        &self.errors
    }

    /// True when any input is invalid.
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    /// Records a message for an input (the first message per input wins).
    pub fn add_error(&mut self, field: &str, message: impl Into<String>) {
        self.errors
            .entry(field.to_owned())
            .or_insert_with(|| message.into());
    }

    /// Records an engine validation error against the input it names.
    pub fn add_field_error(&mut self, e: &FieldError) {
        self.add_error(&e.field, form_message(e));
    }

    /// The warning for an input.
    pub fn warning(&self, name: &str) -> Option<&str> {
        self.warnings.get(name).map(String::as_str)
    }

    /// Every warning, by input name.
    pub fn warnings(&self) -> &BTreeMap<String, String> {
        &self.warnings
    }

    /// Records the evaluation's warnings that name a field against the input that shows
    /// it: the field's own, or the region's for the data protection settings (the form
    /// carries them as JSON, and they depend on the region). Two on one input are joined.
    pub fn add_warnings(&mut self, advice: &[Advice]) {
        for a in advice {
            let Some(field) = a.field.filter(|_| a.severity == Severity::Warn) else {
                continue;
            };
            let input = if field.starts_with("data_protection") {
                "region"
            } else {
                field
            };
            let text = a.message.to_string();
            self.warnings
                .entry(input.to_owned())
                .and_modify(|w| {
                    w.push(' ');
                    w.push_str(&text);
                })
                .or_insert(text);
        }
    }

    /// Adds an empty volume group at the end (the no-JavaScript "Add volume group").
    pub fn add_group(&mut self) {
        if self.groups.len() < MAX_GROUPS {
            self.groups.push(GroupNames::new(self.groups.len()));
        }
    }
}

/// The cool-tier shares shown (hidden by the page) while cool access is off.
const DEFAULT_COOL: CoolAccess = CoolAccess {
    cool_data_pct: 80.0,
    cool_read_pct: 10.0,
    retrieved_pct_per_month: None,
};

/// The AVS values shown (greyed by the page) while AVS is off.
fn default_avs() -> Avs {
    Avs {
        hosts: 3,
        host_sku: "AV36".into(),
        vms_per_host: 1,
        vmdks_per_vm: 1,
        placement: Default::default(),
        nconnect: 1,
        cluster_hosts: None,
    }
}

/// Reads the submitted pairs; returns the form as typed and, when every field
/// parses and validates, the scenario.
pub fn parse(pairs: &[(String, String)]) -> (FormState, Option<Scenario>) {
    let (mut form, scenario) = parse_once(pairs);
    if scenario.is_none() {
        more_errors(&mut form);
    }
    (form, scenario)
}

/// Rounds of [`more_errors`]; each finds at least one more invalid input.
const PROBE_ROUNDS: usize = 16;

/// Inputs whose stand-in would change what the others mean (a level of another
/// service, options of another protocol): with one of them invalid, no probing.
const NO_STAND_IN: [&str; 3] = ["storage.service", "storage.level", "clients.protocol"];

/// The messages behind the first ones, so that all come in one round: the ranges are
/// checked on a whole scenario and the check stops at the first bad field, so every
/// invalid input gets the new scenario's value as a stand-in and the rest is checked
/// again, until nothing new turns up.
fn more_errors(form: &mut FormState) {
    let defaults = FormState::from_scenario(&super::planner::blank());
    let mut probe = form.values.clone();
    for _ in 0..PROBE_ROUNDS {
        for name in form.errors.keys() {
            if NO_STAND_IN.contains(&name.as_str()) || !probe.contains_key(name) {
                return;
            }
            let like = match group_index(name) {
                Some(i) => name.replacen(&format!("[{i}]"), "[0]", 1),
                None => name.clone(),
            };
            let stand_in = defaults.values.get(&like).cloned().unwrap_or_default();
            probe.insert(name.clone(), stand_in);
        }
        let pairs: Vec<(String, String)> =
            probe.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        let (next, scenario) = parse_once(&pairs);
        let new: Vec<(String, String)> = next
            .errors
            .into_iter()
            .filter(|(k, _)| !form.errors.contains_key(k))
            .collect();
        if scenario.is_some() || new.is_empty() {
            return;
        }
        form.errors.extend(new);
    }
}

/// One pass over the pairs: format errors of every input, then the first range error
/// when all of them parse.
fn parse_once(pairs: &[(String, String)]) -> (FormState, Option<Scenario>) {
    let mut values = HashMap::new();
    for (k, v) in pairs {
        // A repeated name keeps its first value, like a browser's FormData.get().
        values.entry(k.clone()).or_insert_with(|| v.clone());
    }
    let mut group_idx: Vec<usize> = values
        .keys()
        .filter_map(|k| group_index(k))
        .filter(|&i| i < MAX_GROUPS)
        .collect();
    group_idx.sort_unstable();
    group_idx.dedup();
    let mut p = Parser {
        form: FormState {
            values,
            errors: BTreeMap::new(),
            warnings: BTreeMap::new(),
            groups: Vec::new(),
        },
    };
    let scenario = p.scenario(&group_idx);
    (p.form, scenario)
}

/// `storage.volumes[3].count` -> 3.
fn group_index(name: &str) -> Option<usize> {
    let rest = name.strip_prefix("storage.volumes[")?;
    let end = rest.find(']')?;
    rest[..end].parse().ok()
}

struct Parser {
    form: FormState,
}

impl Parser {
    fn raw(&self, name: &str) -> Option<&str> {
        self.form.values.get(name).map(|s| s.trim())
    }

    /// A required number.
    fn f64(&mut self, name: &str) -> Option<f64> {
        match self.raw(name) {
            None | Some("") => {
                self.form.add_error(name, "enter a number");
                None
            }
            Some(s) => {
                let r = parse_number(s);
                r.map_err(|m| self.form.add_error(name, m)).ok()
            }
        }
    }

    /// An optional number: empty means none.
    fn opt_f64(&mut self, name: &str) -> Result<Option<f64>, ()> {
        match self.raw(name) {
            None | Some("") => Ok(None),
            Some(s) => match parse_number(s) {
                Ok(v) => Ok(Some(v)),
                Err(m) => {
                    self.form
                        .add_error(name, format!("{m}, or leave it empty for none"));
                    Err(())
                }
            },
        }
    }

    /// A whole number, or none when empty.
    fn opt_u32(&mut self, name: &str) -> Result<Option<u32>, ()> {
        match self.raw(name) {
            None | Some("") => Ok(None),
            Some(_) => self.u32(name, 0).map(Some).ok_or(()),
        }
    }

    /// A whole number; absent inputs take the Scenario default.
    fn u32(&mut self, name: &str, default: u32) -> Option<u32> {
        match self.raw(name) {
            None => Some(default),
            Some("") => {
                self.form.add_error(name, "enter a whole number");
                None
            }
            Some(s) => {
                let cleaned = strip_separators(s);
                match cleaned.as_deref().map(str::parse::<u32>) {
                    Ok(Ok(v)) => Some(v),
                    _ => {
                        self.form
                            .add_error(name, format!("enter a whole number, not \"{s}\""));
                        None
                    }
                }
            }
        }
    }

    /// A choice from a select; absent inputs take `default`.
    fn choice<T: DeserializeOwned + Clone>(&mut self, name: &str, default: Option<T>) -> Option<T> {
        match self.raw(name) {
            None | Some("") => {
                if default.is_none() {
                    self.form.add_error(name, "choose one of the options");
                }
                default
            }
            Some(s) => match serde_json::from_value(serde_json::Value::String(s.to_owned())) {
                Ok(v) => Some(v),
                Err(_) => {
                    self.form
                        .add_error(name, format!("\"{s}\" is not one of the options"));
                    None
                }
            },
        }
    }

    fn checkbox(&self, name: &str) -> bool {
        self.raw(name).is_some_and(|v| !v.is_empty())
    }

    fn text(&self, name: &str) -> Option<String> {
        self.raw(name).filter(|s| !s.is_empty()).map(str::to_owned)
    }

    fn scenario(&mut self, group_idx: &[usize]) -> Option<Scenario> {
        let name = self
            .text("name")
            .unwrap_or_else(|| "Untitled scenario".to_owned());
        let workload = self.workload();
        let storage = self.storage(group_idx);
        let clients = self.clients();
        let region = self.text("region");
        let pricing = self.pricing();
        let data_protection = self.json("data_protection");
        let meta = self.meta();
        let scenario = Scenario {
            id: None,
            name,
            workload: workload?,
            storage: storage?,
            clients: clients?,
            region,
            pricing: pricing?,
            data_protection: data_protection?,
            meta,
        };
        if self.form.has_errors() {
            return None;
        }
        match crate::engine::check(&scenario) {
            Ok(()) => Some(scenario),
            Err(e) => {
                self.form.add_field_error(&e);
                None
            }
        }
    }

    /// Customer, project, author and notes; none when all are empty.
    fn meta(&self) -> Option<Meta> {
        let field = |name: &str| self.raw(name).unwrap_or("").trim().to_owned();
        let meta = Meta {
            customer: field("meta.customer"),
            project: field("meta.project"),
            author: field("meta.author"),
            notes: self.raw("meta.notes").unwrap_or("").trim_end().to_owned(),
        };
        (!meta.is_empty()).then_some(meta)
    }

    fn workload(&mut self) -> Option<Workload> {
        let io = self.f64("workload.io_size_kib");
        let read = self.f64("workload.read_pct");
        let access = self.choice("workload.access", Some(Default::default()));
        let threads = self.u32("workload.threads", 1);
        let qd = self.u32("workload.queue_depth", 1);
        let files = self.choice("workload.files", Some(Default::default()));
        let meta = self.checkbox("workload.metadata_heavy");
        let cap = self.f64("workload.capacity_tib");
        let tm = self.opt_f64("workload.target_mibps");
        let ti = self.opt_f64("workload.target_iops");
        let tl = self.opt_f64("workload.target_latency_ms");
        Some(Workload {
            io_size_kib: io?,
            read_pct: read?,
            access: access?,
            threads: threads?,
            queue_depth: qd?,
            files: files?,
            metadata_heavy: meta,
            capacity_tib: cap?,
            target_mibps: tm.ok()?,
            target_iops: ti.ok()?,
            target_latency_ms: tl.ok()?,
        })
    }

    fn storage(&mut self, group_idx: &[usize]) -> Option<Storage> {
        let service = self.choice("storage.service", None);
        let level = self.choice("storage.level", None);
        let qos = self.choice("storage.qos", Some(Default::default()));
        let kind = self.choice("storage.volume_kind", Some(Default::default()));
        let pool = self.opt_f64("storage.pool_tib");
        let cool = if self.checkbox("storage.cool_access") {
            let data = self.f64("storage.cool_access.cool_data_pct");
            let reads = self.f64("storage.cool_access.cool_read_pct");
            let retrieved = self
                .opt_f64("storage.cool_access.retrieved_pct_per_month")
                .ok();
            data.zip(reads).zip(retrieved).map(
                |((cool_data_pct, cool_read_pct), retrieved_pct_per_month)| {
                    Some(CoolAccess {
                        cool_data_pct,
                        cool_read_pct,
                        retrieved_pct_per_month,
                    })
                },
            )
        } else {
            Some(None)
        };
        let mut volumes = Vec::new();
        let mut ok = true;
        for &i in group_idx {
            let n = GroupNames::new(i);
            let blank = [&n.count, &n.quota_tib, &n.throughput_mibps, &n.iops]
                .iter()
                .all(|k| self.raw(k).is_none_or(str::is_empty));
            if blank {
                // An empty row added by "Add volume group" and left empty: drop it.
                continue;
            }
            // Keep the submitted index so messages land on the inputs as typed.
            let count = self.u32(&n.count, 1);
            let quota = self.f64(&n.quota_tib);
            let tput = self.opt_f64(&n.throughput_mibps);
            let iops = self.opt_f64(&n.iops);
            self.form.groups.push(n);
            match (count, quota, tput, iops) {
                (Some(count), Some(quota_tib), Ok(throughput_mibps), Ok(iops)) => {
                    volumes.push(VolumeGroup {
                        count,
                        quota_tib,
                        throughput_mibps,
                        iops,
                    })
                }
                _ => ok = false,
            }
        }
        if self.form.groups.is_empty() {
            self.form.groups.push(GroupNames::new(0));
            self.form.add_error(
                "storage.volumes",
                "add at least one volume group with a count and a quota",
            );
            return None;
        }
        // Renumber so the scenario's volumes[i] matches the i-th row shown.
        if self
            .form
            .groups
            .iter()
            .enumerate()
            .any(|(i, g)| g.number != i + 1)
        {
            self.renumber_groups();
        }
        if !ok {
            return None;
        }
        Some(Storage {
            service: service?,
            level: level?,
            qos: qos?,
            volume_kind: kind?,
            volumes,
            pool_tib: pool.ok()?,
            cool_access: cool?,
        })
    }

    /// Moves the values (and messages) of sparse group indices to 0..n.
    fn renumber_groups(&mut self) {
        let old = std::mem::take(&mut self.form.groups);
        for (i, g) in old.into_iter().enumerate() {
            let src = GroupNames::new(g.number - 1);
            let dst = GroupNames::new(i);
            for (s, d) in [
                (&src.count, &dst.count),
                (&src.quota_tib, &dst.quota_tib),
                (&src.throughput_mibps, &dst.throughput_mibps),
                (&src.iops, &dst.iops),
            ] {
                if let Some(v) = self.form.values.remove(s) {
                    self.form.values.insert(d.clone(), v);
                }
                if let Some(e) = self.form.errors.remove(s) {
                    self.form.errors.insert(d.clone(), e);
                }
            }
            self.form.groups.push(dst);
        }
    }

    /// A field the page carries as JSON (settings edited through the API that the form
    /// keeps as they are); none when absent or empty.
    fn json<T: DeserializeOwned>(&mut self, name: &str) -> Option<Option<T>> {
        match self.raw(name) {
            None | Some("") | Some("null") => Some(None),
            Some(s) => match serde_json::from_str(s) {
                Ok(v) => Some(Some(v)),
                Err(e) => {
                    self.form
                        .add_error(name, format!("not valid settings: {e}"));
                    None
                }
            },
        }
    }

    /// The pricing inputs; none when the form leaves them at their defaults.
    fn pricing(&mut self) -> Option<Option<Pricing>> {
        let discount = self.opt_f64("pricing.discount_pct");
        let reservation = self.choice("pricing.reservation", Some(Term::None));
        let discount = discount.ok()?;
        let reservation = reservation?;
        if discount.is_none() && reservation == Term::None {
            return Some(None);
        }
        Some(Some(Pricing {
            currency: "USD".to_owned(),
            discount_pct: discount.unwrap_or(0.0),
            reservation,
        }))
    }

    fn clients(&mut self) -> Option<Clients> {
        let count = self.u32("clients.count", 1);
        let vm_size = self.text("clients.vm_size");
        let egress = self.opt_f64("clients.egress_mibps");
        let ingress = self.opt_f64("clients.ingress_mibps");
        let protocol = self.choice("clients.protocol", None);
        let nconnect = self.u32("clients.nconnect", 1);
        let multichannel = self.checkbox("clients.smb_multichannel");
        let channels = self.u32("clients.smb_channels", 4);
        let nfs_client = self.choice("clients.nfs_client", Some(Default::default()));
        let sec = self.choice("clients.sec", Some(Default::default()));
        let smb_security = self.choice("clients.smb_security", Some(Default::default()));
        let avs = if self.checkbox("clients.avs") {
            let hosts = self.u32("clients.avs.hosts", 3);
            let host_sku = self
                .text("clients.avs.host_sku")
                .unwrap_or_else(|| "AV36".into());
            let vms = self.u32("clients.avs.vms_per_host", 1);
            let vmdks = self.u32("clients.avs.vmdks_per_vm", 1);
            let placement = self.choice("clients.avs.placement", Some(Default::default()));
            let avs_nconnect = self.u32("clients.avs.nconnect", 1);
            let cluster_hosts = self.opt_u32("clients.avs.cluster_hosts");
            Some(Avs {
                hosts: hosts?,
                host_sku,
                vms_per_host: vms?,
                vmdks_per_vm: vmdks?,
                placement: placement?,
                nconnect: avs_nconnect?,
                cluster_hosts: cluster_hosts.ok()?,
            })
        } else {
            None
        };
        Some(Clients {
            count: count?,
            vm_size,
            egress_mibps: egress.ok()?,
            ingress_mibps: ingress.ok()?,
            protocol: protocol?,
            nconnect: nconnect?,
            smb_multichannel: multichannel,
            smb_channels: channels?,
            avs,
            nfs_client: nfs_client?,
            sec: sec?,
            smb_security: smb_security?,
        })
    }
}

/// What an input is called on the page, for messages (`storage.volumes[1].quota_tib` ->
/// "Group 2: quota each").
pub fn field_label(name: &str) -> String {
    if let Some(i) = group_index(name) {
        let what = match name.rsplit('.').next() {
            Some("count") => "count",
            Some("quota_tib") => "quota each",
            Some("throughput_mibps") => "throughput each",
            Some("iops") => "IOPS each",
            _ => "volumes",
        };
        return format!("Volume group {}: {what}", i + 1);
    }
    let label = match name {
        "name" => "Scenario name",
        "workload.io_size_kib" => "IO size",
        "workload.read_pct" => "Reads",
        "workload.access" => "Access",
        "workload.threads" => "Threads",
        "workload.queue_depth" => "Queue depth",
        "workload.files" => "Files",
        "workload.metadata_heavy" => "Metadata heavy",
        "workload.capacity_tib" => "Capacity needed",
        "workload.target_mibps" => "Target throughput",
        "workload.target_iops" => "Target IOPS",
        "workload.target_latency_ms" => "Target latency",
        "storage" => "Storage",
        "storage.service" => "Service",
        "storage.level" => "Service level",
        "storage.qos" => "QoS type",
        "storage.volume_kind" => "Volume type",
        "storage.pool_tib" => "Capacity pool",
        "storage.cool_access" => "Cool access",
        "storage.cool_access.cool_data_pct" => "Data on the cool tier",
        "storage.cool_access.cool_read_pct" => "Reads from the cool tier",
        "storage.cool_access.retrieved_pct_per_month" => "Cool data read back per month",
        "storage.volumes" => "Volumes",
        "clients" => "Clients",
        "clients.count" => "Client VMs",
        "clients.vm_size" => "VM size",
        "clients.egress_mibps" => "Egress limit override",
        "clients.ingress_mibps" => "Ingress limit override",
        "clients.protocol" => "Protocol",
        "clients.nconnect" => "nconnect",
        "clients.smb_multichannel" => "SMB multichannel",
        "clients.smb_channels" => "SMB channels",
        "clients.nfs_client" => "NFS client",
        "clients.sec" => "NFS security",
        "clients.smb_security" => "SMB security",
        "clients.avs" => "AVS",
        "clients.avs.hosts" => "AVS hosts running the VMs",
        "clients.avs.cluster_hosts" => "AVS hosts in the cluster",
        "clients.avs.nconnect" => "Connections per datastore",
        "clients.avs.host_sku" => "AVS host type",
        "clients.avs.vms_per_host" => "VMs per host",
        "clients.avs.vmdks_per_vm" => "VMDKs per VM",
        "clients.avs.placement" => "VMDK placement",
        other => other,
    };
    label.to_owned()
}

/// An engine message in the form's words: the inputs by their labels, not by the
/// API's field names.
fn form_message(e: &FieldError) -> String {
    if e.field == "clients.vm_size" {
        let how = "choose one from the VM size list (start typing to search, e.g. Standard_E32s_v5 for Azure or n2-standard-32 for Google Cloud), or leave VM size empty and give the “Egress limit override” in MiB/s";
        let typed = e
            .message
            .split('`')
            .nth(1)
            .filter(|_| e.message.starts_with('`'));
        return match typed {
            Some(name) => format!("“{name}” is not a VM size volplan knows: {how}"),
            None => format!("VM size is needed to know the client's network limit: {how}"),
        };
    }
    let mut m = e.message.clone();
    for (api, input) in [
        ("egress_mibps", "clients.egress_mibps"),
        ("ingress_mibps", "clients.ingress_mibps"),
    ] {
        m = m.replace(api, &format!("“{}”", field_label(input)));
    }
    m
}

/// Accepts `1024`, `1,024`, `1 024`, `0.5`; rejects a decimal comma (`1,5`) with a hint.
fn parse_number(s: &str) -> Result<f64, String> {
    let cleaned = strip_separators(s)
        .map_err(|()| format!("\"{s}\" is not a number: use a point for decimals, e.g. 1.5"))?;
    match cleaned.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("enter a number, not \"{s}\"")),
    }
}

/// Removes thousands separators (`,`, `_`, spaces) when they group digits by three.
fn strip_separators(s: &str) -> Result<String, ()> {
    let s: String = s.chars().filter(|c| *c != ' ' && *c != '_').collect();
    if !s.contains(',') {
        return Ok(s);
    }
    let int_part = s.split('.').next().unwrap_or("");
    let mut parts = int_part.trim_start_matches(['-', '+']).split(',');
    let first = parts.next().unwrap_or("");
    let grouped = (1..=3).contains(&first.len())
        && parts.all(|p| p.len() == 3 && p.chars().all(|c| c.is_ascii_digit()));
    if grouped {
        Ok(s.replace(',', ""))
    } else {
        Err(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::scenario_templates::TEMPLATES;

    fn pairs(form: &FormState) -> Vec<(String, String)> {
        form.values
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    #[test]
    fn every_template_survives_the_form_round_trip() {
        for t in TEMPLATES {
            let s = t.scenario();
            let form = FormState::from_scenario(&s);
            // Browsers do not send unticked checkboxes.
            let sent: Vec<_> = pairs(&form)
                .into_iter()
                .filter(|(k, v)| {
                    !(v.is_empty()
                        && matches!(
                            k.as_str(),
                            "clients.avs"
                                | "clients.smb_multichannel"
                                | "workload.metadata_heavy"
                                | "storage.cool_access"
                        ))
                })
                .collect();
            let (back, parsed) = parse(&sent);
            assert!(!back.has_errors(), "{}: {:?}", t.key, back.errors());
            assert_eq!(parsed.as_ref(), Some(&s), "{}", t.key);
        }
    }

    #[test]
    fn platform_fields_survive_the_form_round_trip() {
        use crate::engine::scenario::{CoolAccess, Protocol, Sec, SmbSecurity, VolumeKind};
        let oracle = crate::web::scenario_templates::find("oracle-dnfs").unwrap();
        let mut secured = oracle.scenario();
        secured.storage.volume_kind = VolumeKind::Breakthrough;
        // Breakthrough volumes start at 2,400 GiB: the 1 TiB log volumes grow.
        secured.storage.volumes[1].quota_tib = 4.0;
        secured.storage.cool_access = Some(CoolAccess {
            cool_data_pct: 60.0,
            cool_read_pct: 5.0,
            retrieved_pct_per_month: Some(15.0),
        });
        secured.clients.protocol = Protocol::Nfsv41;
        secured.clients.sec = Sec::Krb5;
        let mut avs = find_template("avs-datastores");
        if let Some(a) = avs.clients.avs.as_mut() {
            a.cluster_hosts = Some(12);
        }
        let mut smb = find_template("azure-files-smb-multichannel");
        smb.clients.smb_security = SmbSecurity::Encryption;
        for s in [secured, avs, smb] {
            crate::engine::check(&s).unwrap();
            let form = FormState::from_scenario(&s);
            // Browsers send no unticked checkbox; empty inputs mean none.
            let sent: Vec<_> = pairs(&form)
                .into_iter()
                .filter(|(_, v)| !v.is_empty())
                .collect();
            let (back, parsed) = parse(&sent);
            assert!(!back.has_errors(), "{}: {:?}", s.name, back.errors());
            assert_eq!(parsed.as_ref(), Some(&s), "{}", s.name);
        }
    }

    fn find_template(key: &str) -> Scenario {
        crate::web::scenario_templates::find(key)
            .unwrap()
            .scenario()
    }

    #[test]
    fn empty_and_bad_numbers_get_a_message_per_field() {
        let s = TEMPLATES[0].scenario();
        let mut sent = pairs(&FormState::from_scenario(&s));
        for (k, v) in sent.iter_mut() {
            match k.as_str() {
                "workload.io_size_kib" => *v = String::new(),
                "workload.threads" => *v = "many".into(),
                "storage.volumes[0].quota_tib" => *v = "1,5".into(),
                _ => {}
            }
        }
        let (form, parsed) = parse(&sent);
        assert!(parsed.is_none());
        assert_eq!(form.error("workload.io_size_kib"), Some("enter a number"));
        assert!(
            form.error("workload.threads")
                .unwrap()
                .contains("whole number")
        );
        assert!(
            form.error("storage.volumes[0].quota_tib")
                .unwrap()
                .contains("point")
        );
        // What was typed is kept.
        assert_eq!(form.value("workload.threads"), "many");
    }

    #[test]
    fn validation_errors_land_on_the_named_input() {
        let s = TEMPLATES[0].scenario();
        let mut sent = pairs(&FormState::from_scenario(&s));
        for (k, v) in sent.iter_mut() {
            if k == "workload.read_pct" {
                *v = "140".into();
            }
        }
        let (form, parsed) = parse(&sent);
        assert!(parsed.is_none());
        assert!(
            form.error("workload.read_pct")
                .unwrap()
                .contains("0 to 100")
        );
    }

    #[test]
    fn separators_are_accepted_and_blank_groups_dropped() {
        assert_eq!(parse_number("1,024").unwrap(), 1024.0);
        assert_eq!(parse_number("1 024.5").unwrap(), 1024.5);
        assert_eq!(parse_number("0.5").unwrap(), 0.5);
        assert!(parse_number("NaN").is_err());
        assert!(parse_number("inf").is_err());
        assert!(parse_number("12,34").is_err());

        let s = TEMPLATES[1].scenario();
        let mut sent = pairs(&FormState::from_scenario(&s));
        sent.push(("storage.volumes[7].count".into(), String::new()));
        sent.push(("storage.volumes[7].quota_tib".into(), String::new()));
        let (form, parsed) = parse(&sent);
        assert_eq!(parsed.unwrap().storage.volumes.len(), 2);
        assert_eq!(form.groups.len(), 2);
    }

    #[test]
    fn sparse_groups_are_renumbered() {
        let s = TEMPLATES[0].scenario();
        let mut sent: Vec<_> = pairs(&FormState::from_scenario(&s))
            .into_iter()
            .filter(|(k, _)| !k.starts_with("storage.volumes"))
            .collect();
        sent.push(("storage.volumes[2].count".into(), "20".into()));
        sent.push(("storage.volumes[2].quota_tib".into(), "4".into()));
        let (form, parsed) = parse(&sent);
        let parsed = parsed.unwrap();
        assert_eq!(parsed.storage.volumes[0].count, 20);
        assert_eq!(form.value("storage.volumes[0].count"), "20");
    }
}
