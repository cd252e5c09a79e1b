//! The inventory as volplan reads it: the VMs that move, the ones left out with the
//! reason, and a summary (contract: the answer of `POST /api/v1/avs/inventory`).

use crate::engine::FieldError;
use crate::engine::field_error::is_noncharacter;
use crate::engine::field_error::text;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Most VMs one inventory may hold.
pub const MAX_VMS: usize = 100_000;
/// Most disks one VM may hold.
pub const MAX_DISKS_PER_VM: usize = 256;
/// Longest name kept (VM, cluster, host, datastore, disk), in characters.
pub const MAX_NAME: usize = 200;
/// Longest sentence of a summary (a warning, the capacity unit), in characters.
pub const MAX_SENTENCE: usize = 1000;
/// Longest key of a summary (`source`, `dialect`, a reason), in characters.
pub const MAX_KEY: usize = 32;

/// An imported inventory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Inventory {
    /// The VMs to place, in the order of the file.
    pub vms: Vec<Vm>,
    /// The VMs left out, with the reason.
    #[serde(default)]
    pub excluded: Vec<Excluded>,
    #[serde(default)]
    pub summary: Summary,
}

/// One VM to move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Vm {
    /// The VM's name (or its anonymised stand-in).
    #[schema(max_length = 200)]
    pub vm: String,
    #[serde(default)]
    pub powerstate: PowerState,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 200)]
    pub cluster: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 200)]
    pub host: Option<String>,
    /// The datastore of the VM's configuration file today (`vInfo` `Path`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 200)]
    pub datastore: Option<String>,
    #[serde(default)]
    pub vcpus: u32,
    #[serde(default)]
    pub memory_mib: f64,
    /// Capacity the VM's disks are provisioned with, MiB.
    #[serde(default)]
    pub provisioned_mib: f64,
    /// Capacity the VM uses on its datastores today, MiB.
    #[serde(default)]
    pub in_use_mib: f64,
    /// Space used inside the guest's partitions (`vPartition`), MiB, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guest_used_mib: Option<f64>,
    #[serde(default)]
    pub disks: Vec<Disk>,
    /// Peak IOPS, from a performance file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iops: Option<f64>,
    /// Peak MiB/s, from a performance file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mibps: Option<f64>,
    /// What keeps the VM from moving to an NFS datastore as it is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<Flag>,
}

/// One virtual disk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Disk {
    /// The disk's label (`Hard disk 1`).
    #[schema(max_length = 200)]
    pub disk: String,
    /// The datastore the disk sits on today (`vDisk` `Disk Path`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 200)]
    pub datastore: Option<String>,
    pub capacity_mib: f64,
    /// A raw device mapping.
    #[serde(default)]
    pub rdm: bool,
    /// A multi-writer (shared) disk.
    #[serde(default)]
    pub shared: bool,
}

/// Power state (`vInfo` `Powerstate`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PowerState {
    #[default]
    PoweredOn,
    PoweredOff,
    Suspended,
}

/// What cannot move to an NFS datastore as it is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    /// A raw device mapping: an NFS datastore holds no RDMs.
    Rdm,
    /// A multi-writer shared disk: not supported on NFS datastores.
    SharedDisk,
}

impl Flag {
    /// A sentence for the flag.
    pub fn describe(self) -> &'static str {
        match self {
            Flag::Rdm => "raw device mapping: convert to a VMDK or keep on block storage",
            Flag::SharedDisk => {
                "multi-writer shared disk: not supported on NFS datastores; redesign the cluster disks"
            }
        }
    }
}

/// A VM left out of the plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Excluded {
    #[schema(max_length = 200)]
    pub vm: String,
    pub reason: Reason,
}

/// Why a VM is left out.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// A vSphere Cluster Services system VM (`vCLS-*`): AVS runs its own.
    Vcls,
    Template,
    /// A Site Recovery Manager placeholder.
    SrmPlaceholder,
    /// Powered off, and powered-off VMs were left out by choice.
    PoweredOff,
}

impl Reason {
    /// The JSON name.
    pub fn key(self) -> &'static str {
        match self {
            Reason::Vcls => "vcls",
            Reason::Template => "template",
            Reason::SrmPlaceholder => "srm_placeholder",
            Reason::PoweredOff => "powered_off",
        }
    }
}

/// What the file held and what was kept.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// `rvtools`, `live_optics` or `csv`.
    #[serde(default)]
    #[schema(max_length = 32)]
    pub source: String,
    /// How capacities were labelled: `MiB` (RVTools 4.x), `MB` (RVTools 3.x),
    /// `prefixed` (CSV export headers such as `vInfoInUse`).
    #[serde(default)]
    #[schema(max_length = 32)]
    pub dialect: String,
    /// The unit the capacity figures were read in, as a sentence: RVTools 4.x `MiB`;
    /// RVTools 3.x `MB`, which are vSphere's binary megabytes and read as MiB (1 MB =
    /// 1 MiB, the same figures 4.x labels MiB); `GB`/`GiB` and `TB`/`TiB` times 1024
    /// and 1024²; unlabelled CSV-export headers as MiB.
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub capacity_unit: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 200)]
    pub rvtools_version: Option<String>,
    /// VM rows read.
    #[serde(default)]
    pub rows: u32,
    #[serde(default)]
    pub included: u32,
    #[serde(default)]
    pub excluded: u32,
    /// Excluded VMs by reason key.
    #[serde(default)]
    #[schema(schema_with = counts_by_key)]
    pub excluded_by_reason: BTreeMap<String, u32>,
    /// Powered-off VMs kept (when they are included by choice).
    #[serde(default)]
    pub powered_off_included: u32,
    #[serde(default)]
    pub suspended: u32,
    /// Totals of the included VMs.
    #[serde(default)]
    pub vcpus: u64,
    #[serde(default)]
    pub memory_gib: f64,
    #[serde(default)]
    pub provisioned_tib: f64,
    #[serde(default)]
    pub in_use_tib: f64,
    #[serde(default)]
    pub disks: u32,
    #[serde(default)]
    pub rdm_disks: u32,
    #[serde(default)]
    pub shared_disks: u32,
    /// Included VMs with at least one flag.
    #[serde(default)]
    pub flagged_vms: u32,
    /// Included VMs with performance figures, and their sums.
    #[serde(default)]
    pub with_performance: u32,
    #[serde(default)]
    pub iops: f64,
    #[serde(default)]
    pub mibps: f64,
    /// VMs whose performance file gave several samples, and the percentile of them
    /// each took (null when no VM had a series).
    #[serde(default)]
    pub series_vms: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 100)]
    pub percentile: Option<u8>,
    /// Today's hosts (`vHost`), their cores, and vCPUs per core across them.
    #[serde(default)]
    pub hosts: u32,
    #[serde(default)]
    pub host_cores: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vcpu_per_core: Option<f64>,
    #[serde(default)]
    pub clusters: u32,
    /// Today's datastores (`vDatastore`).
    #[serde(default)]
    pub datastores: u32,
    #[serde(default)]
    pub anonymised: bool,
    /// What could not be read, or was read with an assumption.
    #[serde(default)]
    #[schema(schema_with = sentences)]
    pub warnings: Vec<String>,
}

/// The schema of `excluded_by_reason`: counts by keys of at most [`MAX_KEY`] characters.
fn counts_by_key() -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .property_names(Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .max_length(Some(MAX_KEY)),
        ))
        .additional_properties(Some(
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(0)),
        ))
        .build()
}

/// The schema of `warnings`: sentences of at most [`MAX_SENTENCE`] characters.
fn sentences() -> utoipa::openapi::schema::Array {
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
    ArrayBuilder::new()
        .items(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .max_length(Some(MAX_SENTENCE)),
        )
        .build()
}

impl Inventory {
    /// The free-text fields within their lengths and without control characters (or
    /// Unicode noncharacters): an inventory sent back to be planned or given figures is
    /// checked before its names are used or quoted. The field paths start at
    /// `inventory`, as the requests that carry one name it.
    pub fn check_text(&self) -> Result<(), FieldError> {
        let name = |field: String, v: &str| {
            if v.trim().is_empty() {
                return Err(FieldError::new(field, "must not be empty"));
            }
            text(&field, v, MAX_NAME, false)
        };
        for (i, v) in self.vms.iter().enumerate() {
            let f = |n: &str| format!("inventory.vms[{i}].{n}");
            name(f("vm"), &v.vm)?;
            for (n, s) in [
                ("cluster", &v.cluster),
                ("host", &v.host),
                ("datastore", &v.datastore),
            ] {
                if let Some(s) = s {
                    name(f(n), s)?;
                }
            }
            for (k, d) in v.disks.iter().enumerate() {
                name(f(&format!("disks[{k}].disk")), &d.disk)?;
                if let Some(ds) = &d.datastore {
                    name(f(&format!("disks[{k}].datastore")), ds)?;
                }
            }
        }
        for (i, e) in self.excluded.iter().enumerate() {
            name(format!("inventory.excluded[{i}].vm"), &e.vm)?;
        }
        let s = &self.summary;
        let f = |n: &str| format!("inventory.summary.{n}");
        text(&f("source"), &s.source, MAX_KEY, false)?;
        text(&f("dialect"), &s.dialect, MAX_KEY, false)?;
        text(&f("capacity_unit"), &s.capacity_unit, MAX_SENTENCE, false)?;
        if let Some(v) = &s.rvtools_version {
            text(&f("rvtools_version"), v, MAX_NAME, false)?;
        }
        for key in s.excluded_by_reason.keys() {
            text(&f("excluded_by_reason"), key, MAX_KEY, false)?;
        }
        for (i, w) in s.warnings.iter().enumerate() {
            text(&f(&format!("warnings[{i}]")), w, MAX_SENTENCE, false)?;
        }
        Ok(())
    }
}

impl Vm {
    /// Capacity for sizing on `basis`, MiB.
    pub fn capacity_mib(&self, basis: CapacityBasis) -> f64 {
        match basis {
            CapacityBasis::InUse => self.in_use_mib,
            CapacityBasis::Provisioned => self.provisioned_mib.max(self.in_use_mib),
        }
    }
}

/// Which capacity a plan sizes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CapacityBasis {
    /// What the VMs use on their datastores today (thin disks on NFS grow into it).
    #[default]
    InUse,
    /// What their disks are provisioned with.
    Provisioned,
}

impl Inventory {
    /// Recomputes the included-VM totals of the summary from the VMs.
    pub fn total(&mut self) {
        let s = &mut self.summary;
        s.included = self.vms.len() as u32;
        s.excluded = self.excluded.len() as u32;
        s.excluded_by_reason.clear();
        for e in &self.excluded {
            *s.excluded_by_reason
                .entry(e.reason.key().to_owned())
                .or_default() += 1;
        }
        s.powered_off_included = 0;
        s.suspended = 0;
        s.vcpus = 0;
        s.disks = 0;
        s.rdm_disks = 0;
        s.shared_disks = 0;
        s.flagged_vms = 0;
        s.with_performance = 0;
        let (mut mem, mut prov, mut used, mut iops, mut mibps) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for v in &self.vms {
            match v.powerstate {
                PowerState::PoweredOff => s.powered_off_included += 1,
                PowerState::Suspended => s.suspended += 1,
                PowerState::PoweredOn => {}
            }
            s.vcpus += u64::from(v.vcpus);
            mem += v.memory_mib;
            prov += v.provisioned_mib;
            used += v.in_use_mib;
            s.disks += v.disks.len() as u32;
            s.rdm_disks += v.disks.iter().filter(|d| d.rdm).count() as u32;
            s.shared_disks += v.disks.iter().filter(|d| d.shared).count() as u32;
            s.flagged_vms += u32::from(!v.flags.is_empty());
            if v.iops.is_some() || v.mibps.is_some() {
                s.with_performance += 1;
                iops += v.iops.unwrap_or(0.0);
                mibps += v.mibps.unwrap_or(0.0);
            }
        }
        s.memory_gib = mem / 1024.0;
        s.provisioned_tib = prov / MIB_PER_TIB;
        s.in_use_tib = used / MIB_PER_TIB;
        s.iops = iops;
        s.mibps = mibps;
        // A warning quotes what the file holds (a sheet name, a header): kept within
        // the length an inventory sent back may carry.
        for w in &mut s.warnings {
            if let Some((cut, _)) = w.char_indices().nth(MAX_SENTENCE - 1) {
                w.truncate(cut);
                w.push('…');
            }
            w.retain(|c| !c.is_control() && !is_noncharacter(c));
        }
    }
}

/// MiB in a TiB.
pub const MIB_PER_TIB: f64 = 1024.0 * 1024.0;
