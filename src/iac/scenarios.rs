//! The scenarios a layout describes: one per pool, its volumes grouped where quota and
//! throughput are the same, evaluated for the workload its volumes carry
//! ([`profile`]) or the default.

use super::layout::Layout;
use super::profile;
use crate::engine::scenario::{Scenario, Service, Storage, VolumeGroup};

/// One scenario per pool of `layout`.
pub fn scenarios(layout: &Layout) -> Vec<Scenario> {
    layout
        .pools
        .iter()
        .map(|p| {
            let tag = p.volumes.iter().find_map(|v| v.profile.as_deref());
            let (mut workload, mut clients) = tag.map_or_else(profile::default, profile::decode);
            if let Some(v) = p.volumes.first() {
                clients.protocol = v.protocol;
            }
            let mut groups: Vec<VolumeGroup> = Vec::new();
            for v in &p.volumes {
                match groups.last_mut() {
                    Some(g)
                        if g.quota_tib == v.quota_tib
                            && g.throughput_mibps == v.mibps
                            && g.count < 1024 =>
                    {
                        g.count += 1;
                    }
                    _ => groups.push(VolumeGroup {
                        count: 1,
                        quota_tib: v.quota_tib,
                        throughput_mibps: v.mibps,
                        iops: None,
                    }),
                }
            }
            if tag.is_none() {
                workload.capacity_tib = 0.0;
            }
            let region = match p.service {
                Service::Gcnv => &layout.gcp_region,
                _ => &layout.region,
            };
            let mut s = Scenario {
                id: None,
                name: p.name.chars().take(200).collect(),
                workload,
                storage: Storage {
                    service: p.service,
                    level: p.level,
                    qos: p.qos,
                    volume_kind: p.volumes.first().map(|v| v.kind).unwrap_or_default(),
                    fixed_count: false,
                    volumes: groups,
                    pool_tib: Some(p.size_tib).filter(|t| *t > 0.0),
                    cool_access: None,
                },
                clients,
                region: (!region.is_empty()).then(|| region.clone()),
                pricing: None,
                data_protection: None,
                meta: None,
            };
            s.upgrade();
            s
        })
        .collect()
}
