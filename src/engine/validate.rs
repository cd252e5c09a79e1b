//! The Scenario's own checks: every range the contract states and the service rules,
//! each error naming its field. Nothing here needs the catalog's sizes or the price
//! book; resolving a [`Plan`](super::plan::Plan) adds those checks (VM sizes, host
//! SKUs, regions, volume sizes per level) to the same list.

use super::field_error::{Checks, FieldError};
use super::meta::{MAX_META_CHARS, MAX_NOTES_CHARS, Meta};
use super::scenario::{
    Level, MAX_AVS_HOSTS, MAX_HOST_SKU_CHARS, MAX_QUOTA_TIB, MAX_REGION_CHARS, MAX_VM_SIZE_CHARS,
    MAX_VOLUMES, MIN_AVS_HOSTS, NfsClient, Protocol, Qos, Replication, Scenario, Sec, Service,
    SmbSecurity, Term, VolumeKind,
};

/// Longest name of a scenario, in characters.
pub const MAX_NAME_CHARS: usize = 200;

impl Scenario {
    /// Records the errors of every range and rule of the contract that the scenario
    /// alone decides in `c`, in the order of the fields (`engine::check` adds those
    /// of the catalog and the price book).
    pub fn check_into(&self, c: &mut Checks) {
        c.text("name", &self.name, MAX_NAME_CHARS, false);
        if let Some(m) = &self.meta {
            m.check_into(c);
        }
        self.check_text(c);
        self.check_workload(c);
        self.check_storage(c);
        self.check_clients(c);
        self.check_rules(c);
        self.check_pricing(c);
        self.check_data_protection(c);
    }

    /// The lengths and characters of the free-text fields other than the name, before
    /// any later check looks them up (and quotes them).
    fn check_text(&self, c: &mut Checks) {
        let cl = &self.clients;
        let fields = [
            ("region", self.region.as_deref(), MAX_REGION_CHARS),
            ("clients.vm_size", cl.vm_size.as_deref(), MAX_VM_SIZE_CHARS),
            (
                "clients.avs.host_sku",
                cl.avs.as_ref().map(|a| a.host_sku.as_str()),
                MAX_HOST_SKU_CHARS,
            ),
            (
                "pricing.currency",
                self.pricing.as_ref().map(|p| p.currency.as_str()),
                3,
            ),
            (
                "data_protection.replication_region",
                self.data_protection
                    .as_ref()
                    .and_then(|d| d.replication_region.as_deref()),
                MAX_REGION_CHARS,
            ),
        ];
        for (field, value, max) in fields {
            if let Some(v) = value {
                c.text(field, v, max, false);
            }
        }
    }

    fn check_workload(&self, c: &mut Checks) {
        let w = &self.workload;
        c.range("workload.io_size_kib", w.io_size_kib, 0.5, 16384.0, "KiB");
        c.range("workload.read_pct", w.read_pct, 0.0, 100.0, "%");
        c.range(
            "workload.cached_read_pct",
            w.cached_read_pct,
            0.0,
            100.0,
            "%",
        );
        c.range_u("workload.threads", w.threads, 1, 1024);
        c.range_u("workload.queue_depth", w.queue_depth, 1, 1024);
        // Capacity is a target like the rates: the volumes must hold it, so 0 is no
        // capacity at all (saved scenarios with 0 are read as their volumes' quota,
        // `Scenario::upgrade`).
        if w.capacity_tib.is_finite() && w.capacity_tib <= 0.0 {
            c.push(FieldError::new(
                "workload.capacity_tib",
                format!(
                    "give the capacity the workload stores, above 0 TiB (the volumes must hold it), not {}",
                    super::trace::Given(w.capacity_tib)
                ),
            ));
        } else {
            c.above_zero("workload.capacity_tib", w.capacity_tib, 1_000_000.0, "TiB");
        }
        c.rate(
            "workload.target_mibps",
            w.target_mibps,
            10_000_000.0,
            "MiB/s",
        );
        c.rate(
            "workload.target_iops",
            w.target_iops,
            1_000_000_000.0,
            "IOPS",
        );
        c.rate(
            "workload.target_latency_ms",
            w.target_latency_ms,
            100_000.0,
            "ms",
        );
        if let Some(d) = w.duration_s {
            c.range("workload.duration_s", d, 1.0, 1e9, "s");
        }
    }

    fn check_storage(&self, c: &mut Checks) {
        let s = &self.storage;
        if !Level::of(s.service).contains(&s.level) {
            let names: Vec<&str> = Level::of(s.service).iter().map(|l| l.key()).collect();
            c.push(FieldError::new(
                "storage.level",
                format!(
                    "{} offers the levels {}; `{}` is not one of them",
                    s.service.display(),
                    names.join(", "),
                    s.level.key()
                ),
            ));
        }
        if s.volumes.is_empty() {
            c.push(FieldError::new(
                "storage.volumes",
                "needs at least one volume group, e.g. [{\"count\": 1, \"quota_tib\": 4}]",
            ));
        }
        let mut total = 0u32;
        for (i, v) in s.volumes.iter().enumerate() {
            let at = |f: &str| format!("storage.volumes[{i}].{f}");
            c.range_u(&at("count"), v.count, 1, MAX_VOLUMES);
            c.range(&at("quota_tib"), v.quota_tib, 0.001, MAX_QUOTA_TIB, "TiB");
            c.rate(
                &at("throughput_mibps"),
                v.throughput_mibps,
                1_000_000.0,
                "MiB/s",
            );
            c.rate(&at("iops"), v.iops, 10_000_000.0, "IOPS");
            total = total.saturating_add(v.count);
        }
        if total > MAX_VOLUMES && !c.has("storage.volumes") {
            c.push(FieldError::new(
                "storage.volumes",
                format!("at most {MAX_VOLUMES} volumes in all; these groups add up to {total}"),
            ));
        }
        if let Some(p) = s.pool_tib {
            c.range("storage.pool_tib", p, 1.0, MAX_QUOTA_TIB * 8.0, "TiB");
        }
        if let Some(cool) = &s.cool_access {
            let pct = |c: &mut Checks, f: &str, v: f64, hi: f64| {
                c.range(&format!("storage.cool_access.{f}"), v, 0.0, hi, "%");
            };
            pct(c, "cool_data_pct", cool.cool_data_pct, 100.0);
            pct(c, "cool_read_pct", cool.cool_read_pct, 100.0);
            if let Some(r) = cool.retrieved_pct_per_month {
                pct(c, "retrieved_pct_per_month", r, 1000.0);
            }
        }
    }

    fn check_clients(&self, c: &mut Checks) {
        let cl = &self.clients;
        c.range_u("clients.count", cl.count, 1, 100_000);
        c.rate(
            "clients.egress_mibps",
            cl.egress_mibps,
            1_000_000.0,
            "MiB/s",
        );
        c.rate(
            "clients.ingress_mibps",
            cl.ingress_mibps,
            1_000_000.0,
            "MiB/s",
        );
        c.range_u("clients.nconnect", cl.nconnect, 1, 16);
        c.range_u("clients.smb_channels", cl.smb_channels, 1, 4);
        let Some(a) = &cl.avs else { return };
        if let Some(n) = a.cluster_hosts
            && !(MIN_AVS_HOSTS..=MAX_AVS_HOSTS).contains(&n)
        {
            c.push(FieldError::new(
                "clients.avs.cluster_hosts",
                format!("an AVS cluster has {MIN_AVS_HOSTS} to {MAX_AVS_HOSTS} hosts, not {n}"),
            ));
        }
        let cluster = a.cluster_size();
        if a.hosts == 0 || a.hosts > cluster.min(MAX_AVS_HOSTS) {
            c.push(FieldError::new(
                "clients.avs.hosts",
                format!(
                    "an AVS cluster has {MIN_AVS_HOSTS} to {MAX_AVS_HOSTS} hosts, and 1 to all of them run the workload (cluster_hosts: {}); got {}",
                    cluster.min(MAX_AVS_HOSTS),
                    a.hosts
                ),
            ));
        }
        if let Some(v) = &a.vcf {
            let currency = self.pricing.as_ref().map_or("USD", |p| p.currency.as_str());
            v.check(c, "clients.avs.vcf", currency);
        }
        c.range_u("clients.avs.vms_per_host", a.vms_per_host, 1, 1024);
        c.range_u("clients.avs.vmdks_per_vm", a.vmdks_per_vm, 1, 256);
        if a.nconnect != 1 && a.nconnect != 4 {
            c.push(FieldError::new(
                "clients.avs.nconnect",
                format!(
                    "AVS hosts mount a datastore with 1 connection, or 4 with nconnect; got {}",
                    a.nconnect
                ),
            ));
        }
    }

    /// The service rules of the contract: which protocol, security and AVS settings a
    /// service offers.
    fn check_rules(&self, c: &mut Checks) {
        let (st, cl) = (&self.storage, &self.clients);
        if st.service == Service::Anf && st.level == Level::Flexible && st.qos == Qos::Auto {
            c.push(FieldError::new(
                "storage.qos",
                "Flexible capacity pools use manual QoS only: choose manual and give each volume its throughput (MiB/s), or choose Standard, Premium or Ultra for auto QoS",
            ));
        }
        let service = st.service.display();
        let mut anf_only = |field: &str, feature: &str| {
            c.push(FieldError::new(
                field,
                format!("{feature} is an Azure NetApp Files feature, not one of {service}"),
            ))
        };
        if cl.avs.is_some() && st.service != Service::Anf {
            anf_only(
                "clients.avs",
                "AVS datastores on file volumes (set avs to null or choose anf)",
            );
        }
        if st.cool_access.is_some() && st.service != Service::Anf {
            anf_only(
                "storage.cool_access",
                "Cool access (set cool_access to null)",
            );
        }
        if st.volume_kind == VolumeKind::Breakthrough && st.service != Service::Anf {
            anf_only(
                "storage.volume_kind",
                "Breakthrough mode (use regular or large)",
            );
        }
        if st.service == Service::AzureFiles && cl.protocol == Protocol::Nfsv3 {
            c.push(FieldError::new(
                "clients.protocol",
                "Azure Files NFS shares speak NFSv4.1 only; choose nfsv4.1 (or smb3)",
            ));
        } else if cl.protocol == Protocol::Smb3 && cl.avs.is_some() {
            c.push(FieldError::new(
                "clients.protocol",
                "AVS datastores are NFSv3 only; choose nfsv3 or turn AVS off",
            ));
        }
        if cl.sec != Sec::Sys {
            let why = if !cl.protocol.is_nfs() {
                "Kerberos flavours apply to NFS mounts; with smb3 use sys here and smb_security for signing or encryption".to_owned()
            } else if st.service == Service::AzureFiles {
                "Azure Files NFS shares do not offer Kerberos mounts (they secure traffic with encryption in transit); use sys".to_owned()
            } else if cl.protocol == Protocol::Nfsv3 {
                format!(
                    "{service} offers Kerberos ({}) on NFSv4.1 volumes only; choose nfsv4.1 or sec sys",
                    cl.sec.key()
                )
            } else {
                String::new()
            };
            if !why.is_empty() {
                c.push(FieldError::new("clients.sec", why));
            }
        }
        if cl.smb_security != SmbSecurity::None && cl.protocol.is_nfs() {
            c.push(FieldError::new(
                "clients.smb_security",
                "SMB signing and encryption apply to SMB shares; with NFS use none here and sec for Kerberos",
            ));
        }
        if cl.nfs_client == NfsClient::Dnfs && (!cl.protocol.is_nfs() || cl.avs.is_some()) {
            c.push(FieldError::new(
                "clients.nfs_client",
                "Oracle Direct NFS runs in a database server against its own NFS volumes (not over smb3, not on AVS datastores); use kernel",
            ));
        }
    }

    /// The region's spelling and the pricing adjustments (whether the price book has
    /// the region is for resolving the plan to say).
    fn check_pricing(&self, c: &mut Checks) {
        if let Some(r) = &self.region
            && !c.has("region")
            && !well_formed_region(r)
        {
            c.push(FieldError::new(
                "region",
                "give the region as its armRegionName (eastus, westeurope) or GCP name (us-central1): lowercase letters, digits and dashes",
            ));
        }
        let Some(p) = &self.pricing else { return };
        // Whether the book has prices in that currency is for resolving the plan to say.
        if !c.has("pricing.currency") && super::price_key::currency_code(&p.currency).is_none() {
            c.push(FieldError::new(
                "pricing.currency",
                "give the currency as its ISO 4217 code, three capital letters such as USD or EUR",
            ));
        }
        c.range("pricing.discount_pct", p.discount_pct, 0.0, 100.0, "%");
        if p.reservation != Term::None && self.storage.service == Service::AzureFiles {
            c.push(FieldError::new(
                "pricing.reservation",
                "Azure Files has no reserved capacity in the price book; use none",
            ));
        }
    }

    /// Data protection: ranges, ANF only, and a replication region other than the
    /// scenario's (whether the book prices it is for resolving the plan to say).
    fn check_data_protection(&self, c: &mut Checks) {
        let Some(d) = &self.data_protection else {
            return;
        };
        if self.storage.service != Service::Anf {
            c.push(FieldError::new(
                "data_protection",
                format!(
                    "snapshot reserve, backup and replication are priced for Azure NetApp Files only, not for {}; set data_protection to null",
                    self.storage.service.display()
                ),
            ));
            return;
        }
        c.range(
            "data_protection.snapshot_reserve_pct",
            d.snapshot_reserve_pct,
            0.0,
            100.0,
            "%",
        );
        c.range(
            "data_protection.daily_change_pct",
            d.daily_change_pct,
            0.0,
            100.0,
            "%",
        );
        if let Some(b) = &d.backup {
            c.range_u("data_protection.backup.daily", b.daily, 0, 1019);
            c.range_u("data_protection.backup.weekly", b.weekly, 0, 1019);
            c.range_u("data_protection.backup.monthly", b.monthly, 0, 1019);
        }
        match (d.replication, d.replication_region.as_deref()) {
            (Replication::None, _) => {}
            (_, None) => c.push(FieldError::new(
                "data_protection.replication_region",
                "name the region the volumes replicate to (an ANF region, e.g. westus)",
            )),
            (_, Some(r)) if Some(r) == self.region.as_deref() => c.push(FieldError::new(
                "data_protection.replication_region",
                "cross-region replication needs another region than the scenario's",
            )),
            _ => {}
        }
    }
}

impl Meta {
    /// Records the lengths and characters of every field that are wrong.
    pub fn check_into(&self, c: &mut Checks) {
        for (field, value) in [
            ("meta.customer", &self.customer),
            ("meta.project", &self.project),
            ("meta.author", &self.author),
        ] {
            c.text(field, value, MAX_META_CHARS, false);
        }
        c.text("meta.notes", &self.notes, MAX_NOTES_CHARS, true);
    }
}

/// A region name as Azure (`armRegionName`) and GCP spell them: 1 to 40 lowercase
/// letters, digits and dashes.
pub fn well_formed_region(r: &str) -> bool {
    !r.is_empty()
        && r.len() <= MAX_REGION_CHARS
        && r.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}
