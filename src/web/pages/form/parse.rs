//! Form pairs -> [`Scenario`] in one pass: every input is read, an input that does not
//! parse gets a message and a stand-in (the blank scenario's value), and the scenario
//! so built is checked once by the engine, which reports every wrong field. So every
//! message comes in one round, and what was typed is kept.

use super::{FormState, GroupNames, MAX_GROUPS, default_avs};
use crate::engine::meta::Meta;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{
    Avs, Clients, CoolAccess, Pricing, Scenario, Storage, Term, VolumeGroup, Workload,
};
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, HashMap};

/// Inputs whose stand-in would change what the others mean (a level of another
/// service, options of another protocol): with one of them unreadable, the engine's
/// checks of the rest would mislead, so they wait.
const NO_STAND_IN: [&str; 3] = ["storage.service", "storage.level", "clients.protocol"];

/// Reads the submitted pairs; returns the form as typed and, when every field
/// parses and validates, the scenario.
pub fn parse(pairs: &[(String, String)], prices: &PriceBook) -> (FormState, Option<Scenario>) {
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
        stand_ins: FormState::from_scenario(&super::blank()),
        prices,
    };
    let scenario = p.scenario(&group_idx);
    let form = p.form;
    let scenario = (!form.has_errors()).then_some(scenario);
    (form, scenario)
}

/// `storage.volumes[3].count` -> 3.
pub(super) fn group_index(name: &str) -> Option<usize> {
    let rest = name.strip_prefix("storage.volumes[")?;
    let end = rest.find(']')?;
    rest[..end].parse().ok()
}

struct Parser<'b> {
    form: FormState,
    /// The book in force: a scenario is checked against its regions and currencies.
    prices: &'b PriceBook,
    /// The blank scenario's inputs: what an unreadable input stands in with.
    stand_ins: FormState,
}

impl Parser<'_> {
    fn raw(&self, name: &str) -> Option<&str> {
        self.form.values.get(name).map(|s| s.trim())
    }

    /// The blank scenario's value of input `name` (group inputs: the first group's).
    fn stand_in(&self, name: &str) -> &str {
        let like = match group_index(name) {
            Some(i) => name.replacen(&format!("[{i}]"), "[0]", 1),
            None => name.to_owned(),
        };
        self.stand_ins.value(&like)
    }

    /// A required number.
    fn f64(&mut self, name: &str) -> f64 {
        let parsed = match self.raw(name) {
            None | Some("") => Err("enter a number".to_owned()),
            Some(s) => parse_number(s),
        };
        parsed.unwrap_or_else(|m| {
            self.form.add_error(name, m);
            parse_number(self.stand_in(name)).unwrap_or(1.0)
        })
    }

    /// An optional number: empty means none (and so does an unreadable one, with its
    /// message).
    fn opt_f64(&mut self, name: &str) -> Option<f64> {
        let s = self.raw(name).filter(|s| !s.is_empty())?;
        parse_number(s)
            .map_err(|m| {
                self.form
                    .add_error(name, format!("{m}, or leave it empty for none"))
            })
            .ok()
    }

    /// A whole number, or none when empty.
    fn opt_u32(&mut self, name: &str) -> Option<u32> {
        self.raw(name).filter(|s| !s.is_empty())?;
        Some(self.u32(name, 0))
    }

    /// A whole number; absent inputs take the Scenario default.
    fn u32(&mut self, name: &str, default: u32) -> u32 {
        let parsed = match self.raw(name) {
            None => Ok(default),
            Some("") => Err("enter a whole number".to_owned()),
            Some(s) => match strip_separators(s).as_deref().map(str::parse::<u32>) {
                Ok(Ok(v)) => Ok(v),
                _ => Err(format!("enter a whole number, not \"{s}\"")),
            },
        };
        parsed.unwrap_or_else(|m| {
            self.form.add_error(name, m);
            self.stand_in(name).parse().unwrap_or(default)
        })
    }

    /// A choice from a select; absent inputs take `default` (required without one).
    fn choice<T: DeserializeOwned>(&mut self, name: &str, default: Option<T>) -> T {
        let read = |s: &str| serde_json::from_value(serde_json::Value::String(s.to_owned()));
        let message = match (self.raw(name), default) {
            (None | Some(""), Some(d)) => return d,
            (None | Some(""), None) => "choose one of the options".to_owned(),
            (Some(s), _) => match read(s) {
                Ok(v) => return v,
                Err(_) => format!("\"{s}\" is not one of the options"),
            },
        };
        self.form.add_error(name, message);
        read(self.stand_in(name)).expect("the blank scenario sets every choice")
    }

    fn checkbox(&self, name: &str) -> bool {
        self.raw(name).is_some_and(|v| !v.is_empty())
    }

    fn text(&self, name: &str) -> Option<String> {
        self.raw(name).filter(|s| !s.is_empty()).map(str::to_owned)
    }

    /// Every input read into a scenario (with stand-ins), then the engine's checks of
    /// it, unless a choice that the others depend on is unreadable.
    fn scenario(&mut self, group_idx: &[usize]) -> Scenario {
        let scenario = Scenario {
            id: None,
            name: self
                .text("name")
                .unwrap_or_else(|| "Untitled scenario".to_owned()),
            workload: self.workload(),
            storage: self.storage(group_idx),
            clients: self.clients(),
            region: self
                .text("region")
                .map(|r| crate::engine::pricing::region_key(&r).map_or(r, str::to_owned)),
            pricing: self.pricing(),
            data_protection: self.json("data_protection"),
            meta: self.meta(),
        };
        let depended_on = NO_STAND_IN.iter().any(|f| self.form.error(f).is_some());
        if !depended_on && let Err(errors) = crate::engine::check(&scenario, self.prices) {
            self.form.add_field_errors(&errors);
        }
        scenario
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

    fn workload(&mut self) -> Workload {
        Workload {
            io_size_kib: self.f64("workload.io_size_kib"),
            read_pct: self.f64("workload.read_pct"),
            access: self.choice("workload.access", Some(Default::default())),
            threads: self.u32("workload.threads", 1),
            queue_depth: self.u32("workload.queue_depth", 1),
            files: self.choice("workload.files", Some(Default::default())),
            metadata_heavy: self.checkbox("workload.metadata_heavy"),
            cached_read_pct: self.opt_f64("workload.cached_read_pct").unwrap_or_default(),
            capacity_tib: self.f64("workload.capacity_tib"),
            target_mibps: self.opt_f64("workload.target_mibps"),
            target_iops: self.opt_f64("workload.target_iops"),
            target_latency_ms: self.opt_f64("workload.target_latency_ms"),
            duration_s: self.opt_f64("workload.duration_s"),
            confidence: self.choice("workload.confidence", Some(Default::default())),
        }
    }

    fn storage(&mut self, group_idx: &[usize]) -> Storage {
        let service = self.choice("storage.service", None);
        let level = self.choice("storage.level", None);
        let qos = self.choice("storage.qos", Some(Default::default()));
        let volume_kind = self.choice("storage.volume_kind", Some(Default::default()));
        let pool_tib = self.opt_f64("storage.pool_tib");
        let cool_access = self.checkbox("storage.cool_access").then(|| CoolAccess {
            cool_data_pct: self.f64("storage.cool_access.cool_data_pct"),
            cool_read_pct: self.f64("storage.cool_access.cool_read_pct"),
            retrieved_pct_per_month: self.opt_f64("storage.cool_access.retrieved_pct_per_month"),
        });
        let mut volumes = Vec::new();
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
            volumes.push(VolumeGroup {
                count: self.u32(&n.count, 1),
                quota_tib: self.f64(&n.quota_tib),
                throughput_mibps: self.opt_f64(&n.throughput_mibps),
                iops: self.opt_f64(&n.iops),
            });
            self.form.groups.push(n);
        }
        if self.form.groups.is_empty() {
            self.form.groups.push(GroupNames::new(0));
            self.form.add_error(
                "storage.volumes",
                "add at least one volume group with a count and a quota",
            );
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
        Storage {
            service,
            level,
            qos,
            volume_kind,
            fixed_count: self.checkbox("storage.fixed_count"),
            volumes,
            pool_tib,
            cool_access,
        }
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
    /// keeps as they are); none when absent, empty or unreadable (with its message).
    fn json<T: DeserializeOwned>(&mut self, name: &str) -> Option<T> {
        let s = self.raw(name).filter(|s| !s.is_empty() && *s != "null")?;
        serde_json::from_str(s)
            .map_err(|e| {
                self.form
                    .add_error(name, format!("not valid settings: {e}"))
            })
            .ok()
    }

    /// The pricing inputs; none when the form leaves them at their defaults (USD, no
    /// discount, pay as you go). The currency is read as typed (upper-cased); the
    /// engine's checks name a code that is not one.
    fn pricing(&mut self) -> Option<Pricing> {
        let discount = self.opt_f64("pricing.discount_pct");
        let reservation = self.choice("pricing.reservation", Some(Term::None));
        let currency = self
            .text("pricing.currency")
            .map_or_else(|| "USD".to_owned(), |c| c.to_ascii_uppercase());
        if discount.is_none() && reservation == Term::None && currency == "USD" {
            return None;
        }
        Some(Pricing {
            currency,
            discount_pct: discount.unwrap_or(0.0),
            reservation,
        })
    }

    fn clients(&mut self) -> Clients {
        let avs = self.checkbox("clients.avs").then(|| {
            let d = default_avs();
            Avs {
                hosts: self.u32("clients.avs.hosts", d.hosts),
                host_sku: self.text("clients.avs.host_sku").unwrap_or(d.host_sku),
                vms_per_host: self.u32("clients.avs.vms_per_host", 1),
                vmdks_per_vm: self.u32("clients.avs.vmdks_per_vm", 1),
                placement: self.choice("clients.avs.placement", Some(Default::default())),
                nconnect: self.u32("clients.avs.nconnect", 1),
                cluster_hosts: self.opt_u32("clients.avs.cluster_hosts"),
                vcf: self.json("clients.avs.vcf"),
            }
        });
        Clients {
            count: self.u32("clients.count", 1),
            vm_size: self.text("clients.vm_size"),
            egress_mibps: self.opt_f64("clients.egress_mibps"),
            ingress_mibps: self.opt_f64("clients.ingress_mibps"),
            protocol: self.choice("clients.protocol", None),
            nconnect: self.u32("clients.nconnect", 1),
            smb_multichannel: self.checkbox("clients.smb_multichannel"),
            smb_channels: self.u32("clients.smb_channels", 4),
            avs,
            nfs_client: self.choice("clients.nfs_client", Some(Default::default())),
            sec: self.choice("clients.sec", Some(Default::default())),
            smb_security: self.choice("clients.smb_security", Some(Default::default())),
        }
    }
}

/// Accepts `1024`, `1,024`, `1 024`, `0.5`; rejects a decimal comma (`1,5`) with a hint.
pub(super) fn parse_number(s: &str) -> Result<f64, String> {
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
