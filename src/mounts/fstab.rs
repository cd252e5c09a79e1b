//! The recommended fstab.

use super::parse::{GroupKey, Opts, Parsed, Version, is_krb5};
use super::{Distro, NCONNECT_MAX, RWSIZE_MAX, Support, TIMEO_TCP, Workload};
use std::collections::{HashMap, HashSet};

pub(super) fn recommended_rwsize(workload: Option<Workload>) -> u64 {
    if workload == Some(Workload::SasGrid) {
        65_536
    } else {
        RWSIZE_MAX
    }
}

/// Per endpoint: the first mount and the nconnect the recommended fstab gives it.
pub(super) struct Plan {
    /// First line per endpoint, in mount order.
    pub(super) first: Vec<(GroupKey, usize)>,
    /// `None`: no nconnect (Kerberos, or a release without support).
    pub(super) nconnect: HashMap<GroupKey, Option<u32>>,
}

impl Plan {
    pub(super) fn new(
        parsed: &[(usize, Parsed, Opts)],
        distro: Option<Distro>,
        workload: Option<Workload>,
    ) -> Plan {
        let mut first = Vec::new();
        let mut seen = HashSet::new();
        let mut nconnect = HashMap::new();
        for (line, p, o) in parsed {
            let key = (p.host.clone(), recommended_version(&o.version));
            if seen.insert(key.clone()) {
                first.push((key, *line));
            }
        }
        for (key, _) in &first {
            let members: Vec<&Opts> = parsed
                .iter()
                .filter(|(_, p, o)| p.host == key.0 && recommended_version(&o.version) == key.1)
                .map(|(_, _, o)| o)
                .collect();
            let krb5 = members.iter().any(|o| is_krb5(&o.sec));
            let unsupported = distro.is_some_and(|d| {
                matches!(d.nconnect_support(key.1 != Version::V3), Support::No(_))
            });
            let value = if krb5 || unsupported {
                None
            } else {
                let asked = members
                    .iter()
                    .filter_map(|o| o.nconnect)
                    .filter(|n| (2..=NCONNECT_MAX).contains(n))
                    .max();
                Some(asked.unwrap_or_else(|| workload.map_or(4, Workload::nconnect)))
            };
            nconnect.insert(key.clone(), value);
        }
        Plan { first, nconnect }
    }

    pub(super) fn fstab(
        &self,
        parsed: &[(usize, Parsed, Opts)],
        workload: Option<Workload>,
    ) -> String {
        let mut out = String::new();
        for (line, p, o) in parsed {
            let version = recommended_version(&o.version);
            let key = (p.host.clone(), version.clone());
            let is_first = self.first.iter().any(|(k, l)| *k == key && l == line);
            let nconnect = if is_first {
                self.nconnect.get(&key).copied().flatten()
            } else {
                None
            };
            let opts = recommended_options(p, o, &version, nconnect, workload);
            out.push_str(&format!(
                "{} {} nfs {} 0 0\n",
                p.spec,
                p.path,
                opts.join(",")
            ));
        }
        out
    }
}

/// NFSv4 without a minor version, or no version at all (the client tries NFSv4
/// first), is pinned to 4.1, the NFSv4 the services serve.
pub(super) fn recommended_version(v: &Version) -> Version {
    match v {
        Version::V4(None) | Version::Negotiated => Version::V4(Some(1)),
        v => v.clone(),
    }
}

/// Options the recommended fstab decides; any other option is kept as written.
const MANAGED: [&str; 33] = [
    "rw",
    "ro",
    "hard",
    "soft",
    "softerr",
    "vers",
    "nfsvers",
    "minorversion",
    "rsize",
    "wsize",
    "timeo",
    "nconnect",
    "noatime",
    "atime",
    "relatime",
    "strictatime",
    "_netdev",
    "nocto",
    "cto",
    "actimeo",
    "acregmin",
    "acregmax",
    "acdirmin",
    "acdirmax",
    "noac",
    "ac",
    "tcp",
    "udp",
    "rdma",
    "proto",
    "sec",
    "defaults",
    "nodiratime",
];

const CACHE_KEYS: [&str; 8] = [
    "nocto", "cto", "actimeo", "acregmin", "acregmax", "acdirmin", "acdirmax", "noac",
];

fn recommended_options(
    p: &Parsed,
    o: &Opts,
    version: &Version,
    nconnect: Option<u32>,
    workload: Option<Workload>,
) -> Vec<String> {
    let mut out: Vec<String> = vec![if o.ro { "ro" } else { "rw" }.into(), "hard".into()];
    match version {
        Version::V3 => out.push("vers=3".into()),
        Version::V4(m) => {
            out.push("vers=4".into());
            out.push(format!("minorversion={}", m.unwrap_or(1)));
        }
        Version::Other(v) => out.push(format!("vers={v}")),
        Version::Negotiated => {}
    }
    let size = recommended_rwsize(workload);
    out.push(format!("rsize={size}"));
    out.push(format!("wsize={size}"));
    if *version == Version::V3 {
        out.push("tcp".into());
    }
    out.push(format!("timeo={TIMEO_TCP}"));
    if let Some(n) = nconnect {
        out.push(format!("nconnect={n}"));
    }
    out.push("noatime".into());
    out.push("_netdev".into());
    match workload {
        Some(w) if w.suggested_actimeo().is_some() => {
            if w.suggests_nocto() {
                out.push("nocto".into());
            }
            out.push(format!(
                "actimeo={}",
                w.suggested_actimeo().unwrap_or_default()
            ));
        }
        Some(Workload::SharedRw) => {}
        _ => {
            for (k, v) in p
                .opts
                .iter()
                .filter(|(k, _)| CACHE_KEYS.contains(&k.as_str()))
            {
                let item = match v {
                    Some(v) => format!("{k}={v}"),
                    None => k.clone(),
                };
                if !out.contains(&item) {
                    out.push(item);
                }
            }
        }
    }
    if o.sec != "sys" {
        out.push(format!("sec={}", o.sec));
    }
    for (k, v) in p
        .opts
        .iter()
        .filter(|(k, _)| !MANAGED.contains(&k.as_str()))
    {
        let item = match v {
            Some(v) => format!("{k}={v}"),
            None => k.clone(),
        };
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}
