//! The workload a volume serves, carried in the code as one tag (Azure) or the
//! description (GCNV), so code read back is evaluated for the same workload and
//! clients: `io_size_kib=64&read_pct=70&...`, form-encoded, at most 256 characters
//! (Azure's limit for a tag value). Code without it is evaluated for [`default`].

use crate::engine::scenario::{Access, Clients, Scenario, Workload};

/// The tag's key.
pub const TAG: &str = "volplan-workload";

/// Longest tag value Azure accepts.
const MAX: usize = 256;

/// The profile of `s`, or `None` when it does not fit a tag.
pub fn encode(s: &Scenario) -> Option<String> {
    let w = &s.workload;
    let c = &s.clients;
    let mut out = form_urlencoded::Serializer::new(String::new());
    let access = match w.access {
        Access::Random => "random",
        Access::Sequential => "sequential",
    };
    out.append_pair("io_size_kib", &w.io_size_kib.to_string())
        .append_pair("read_pct", &w.read_pct.to_string())
        .append_pair("access", access)
        .append_pair("threads", &w.threads.to_string())
        .append_pair("queue_depth", &w.queue_depth.to_string())
        .append_pair("capacity_tib", &w.capacity_tib.to_string())
        .append_pair("clients", &c.count.to_string())
        .append_pair("nconnect", &c.nconnect.to_string());
    for (k, v) in [
        ("target_mibps", w.target_mibps),
        ("target_iops", w.target_iops),
        ("target_latency_ms", w.target_latency_ms),
        ("egress_mibps", c.egress_mibps),
    ] {
        if let Some(v) = v {
            out.append_pair(k, &v.to_string());
        }
    }
    if let Some(vm) = &c.vm_size {
        out.append_pair("vm_size", vm);
    }
    if let Some(a) = &c.avs {
        out.append_pair("avs_hosts", &a.hosts.to_string())
            .append_pair("avs_host_sku", &a.host_sku)
            .append_pair("vms_per_host", &a.vms_per_host.to_string())
            .append_pair("vmdks_per_vm", &a.vmdks_per_vm.to_string());
    }
    let text = out.finish();
    (text.len() <= MAX).then_some(text)
}

/// The workload and clients a profile describes, on top of [`default`]; a value that
/// does not read is left at the default.
pub fn decode(text: &str) -> (Workload, Clients) {
    let (mut w, mut c) = default();
    for (k, v) in form_urlencoded::parse(text.as_bytes()) {
        let num = v.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0);
        let whole = v.parse::<u32>().ok().filter(|&x| x >= 1);
        match &*k {
            "io_size_kib" => w.io_size_kib = num.unwrap_or(w.io_size_kib),
            "read_pct" => w.read_pct = num.unwrap_or(w.read_pct),
            "access" if v == "sequential" => w.access = Access::Sequential,
            "access" if v == "random" => w.access = Access::Random,
            "threads" => w.threads = whole.unwrap_or(w.threads),
            "queue_depth" => w.queue_depth = whole.unwrap_or(w.queue_depth),
            "capacity_tib" => w.capacity_tib = num.unwrap_or(w.capacity_tib),
            "target_mibps" => w.target_mibps = num,
            "target_iops" => w.target_iops = num,
            "target_latency_ms" => w.target_latency_ms = num,
            "clients" => c.count = whole.unwrap_or(c.count),
            "nconnect" => c.nconnect = whole.unwrap_or(c.nconnect),
            "egress_mibps" => c.egress_mibps = num,
            "vm_size" => c.vm_size = Some(v.into_owned()),
            "avs_hosts" => avs(&mut c).hosts = whole.unwrap_or(1),
            "avs_host_sku" => avs(&mut c).host_sku = v.into_owned(),
            "vms_per_host" => avs(&mut c).vms_per_host = whole.unwrap_or(1),
            "vmdks_per_vm" => avs(&mut c).vmdks_per_vm = whole.unwrap_or(1),
            _ => {}
        }
    }
    if c.avs.is_some() {
        c.vm_size = None;
    }
    (w, c)
}

fn avs(c: &mut Clients) -> &mut crate::engine::scenario::Avs {
    c.avs.get_or_insert_with(|| {
        serde_json::from_value(serde_json::json!({ "hosts": 1 }))
            .unwrap_or_else(|e| panic!("the default AVS clients are valid: {e}"))
    })
}

/// The workload code without a profile is evaluated for: 64 KiB random IO, 70 %
/// reads, 8 threads x 16 deep on two Standard_D16s_v5 clients with nconnect 4 (what a
/// new scenario starts from in the planner); its capacity is what the volumes hold.
pub fn default() -> (Workload, Clients) {
    let s: Scenario = serde_json::from_value(serde_json::json!({
        "workload": { "io_size_kib": 64, "read_pct": 70, "access": "random", "threads": 8,
                      "queue_depth": 16, "capacity_tib": 0 },
        "storage": { "service": "anf", "level": "premium",
                     "volumes": [{ "count": 1, "quota_tib": 1 }] },
        "clients": { "count": 2, "vm_size": "Standard_D16s_v5", "protocol": "nfsv3",
                     "nconnect": 4 }
    }))
    .unwrap_or_else(|e| panic!("the default workload is valid Scenario JSON: {e}"));
    (s.workload, s.clients)
}
