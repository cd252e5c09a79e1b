//! The planner form: HTML form fields (all strings) <-> [`Scenario`].
//!
//! Inputs are named by their Scenario JSON path (`workload.io_size_kib`,
//! `storage.volumes[0].quota_tib`), so an engine [`FieldError`] lands on the
//! input it names. Parsing collects one message per field instead of stopping
//! at the first, and keeps what was typed so nothing is lost on a re-render.

mod labels;
mod parse;
pub mod parts;

pub use labels::{field_label, prose_quotes};
pub use parse::parse;

use crate::engine::FieldErrors;
use crate::engine::advice::{Advice, Severity};
use crate::engine::scenario::{Avs, CoolAccess, Scenario};
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
        set("workload.cached_read_pct", num(w.cached_read_pct));
        set("workload.capacity_tib", num(w.capacity_tib));
        set("workload.target_mibps", opt_num(w.target_mibps));
        set("workload.target_iops", opt_num(w.target_iops));
        set("workload.target_latency_ms", opt_num(w.target_latency_ms));
        set("workload.duration_s", opt_num(w.duration_s));
        set("workload.confidence", w.confidence.key().to_owned());
        let st = &s.storage;
        set("storage.service", st.service.key().to_owned());
        set("storage.level", st.level.key().to_owned());
        set("storage.qos", key(&st.qos));
        set("storage.volume_kind", key(&st.volume_kind));
        set("storage.fixed_count", flag(st.fixed_count));
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
        set(
            "pricing.currency",
            s.pricing
                .as_ref()
                .map_or_else(|| "USD".to_owned(), |p| p.currency.clone()),
        );
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
        if let Some(v) = &avs.vcf {
            set(
                "clients.avs.vcf",
                serde_json::to_string(v).expect("VCF licensing serialises"),
            );
        }
        Self {
            values: v,
            errors: BTreeMap::new(),
            warnings: BTreeMap::new(),
            groups,
        }
    }

    /// A form of the values as typed, by input name (a tool page's form: AVS, estates).
    /// A repeated name keeps its first value, as a browser's `FormData.get()`.
    pub fn of_values(values: impl IntoIterator<Item = (String, String)>) -> Self {
        let mut form = Self::default();
        for (k, v) in values {
            form.values.entry(k).or_insert(v);
        }
        form
    }

    /// Shows `value` in input `name` when nothing was typed there.
    pub fn default_value(&mut self, name: &str, value: &str) {
        self.values
            .entry(name.to_owned())
            .or_insert_with(|| value.to_owned());
    }

    /// Input `name` read as a number: none when empty; one that does not read gets its
    /// message beside the input and counts as none.
    pub fn number(&mut self, name: &str) -> Option<f64> {
        let typed = self.value(name).trim();
        if typed.is_empty() {
            return None;
        }
        parse::parse_number(typed)
            .map_err(|m| self.add_error(name, m))
            .ok()
    }

    /// Input `name` read as a whole number, like [`FormState::number`].
    pub fn whole(&mut self, name: &str) -> Option<u32> {
        let v = self.number(name)?;
        if v.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&v) {
            Some(v as u32)
        } else {
            let typed = self.value(name).trim().to_owned();
            self.add_error(name, format!("enter a whole number, not \"{typed}\""));
            None
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

    /// Records a message for an input (the first message per input wins), quoted as
    /// prose ([`labels::prose_quotes`]).
    pub fn add_error(&mut self, field: &str, message: impl Into<String>) {
        self.errors
            .entry(field.to_owned())
            .or_insert_with(|| labels::prose_quotes(&message.into()));
    }

    /// Records the engine's validation errors, each against the input it names.
    pub fn add_field_errors(&mut self, errors: &FieldErrors) {
        for e in errors.iter() {
            self.add_error(&e.field, labels::form_message(e));
        }
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
        vcf: None,
    }
}

/// The scenario a blank planner starts from.
pub fn blank() -> Scenario {
    serde_json::from_value(serde_json::json!({
        "name": "Untitled scenario",
        "workload": { "io_size_kib": 64, "read_pct": 70, "access": "random", "threads": 8,
                      "queue_depth": 16, "capacity_tib": 10 },
        "storage": { "service": "anf", "level": "premium",
                     "volumes": [{ "count": 1, "quota_tib": 10 }] },
        "clients": { "count": 2, "vm_size": "Standard_D16s_v5", "protocol": "nfsv3",
                     "nconnect": 4 }
    }))
    .unwrap_or_else(|e| panic!("the blank scenario is valid JSON: {e}"))
}

#[cfg(test)]
mod tests;
