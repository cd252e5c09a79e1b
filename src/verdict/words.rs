//! How the verdict names things: levels, volumes, layouts and counts. Figures are
//! written by [`crate::format`], the one formatter, as everywhere else.

use crate::engine::scenario::{Level, Scenario, Service, VolumeKind};
use crate::format::{capacity, count};

/// A service level as the vendor writes it: "Flexible", "SSD provisioned v2".
pub fn level(service: Service, level: Level) -> &'static str {
    level.display(service)
}

/// What one volume is called for a scenario: "datastore", "share" or "volume".
pub fn volume_noun(s: &Scenario, plural: bool) -> &'static str {
    match (s.clients.avs.is_some(), s.storage.service, plural) {
        (true, _, false) => "datastore",
        (true, _, true) => "datastores",
        (false, Service::AzureFiles, false) => "share",
        (false, Service::AzureFiles, true) => "shares",
        (false, _, false) => "volume",
        (false, _, true) => "volumes",
    }
}

/// The volumes as laid out: "4 x 20 TiB", "1 x 50 TiB + 2 x 1 TiB" (neighbouring
/// groups of one quota, which differ only in what they are assigned, as one).
pub fn layout(s: &Scenario) -> String {
    let mut parts: Vec<(u32, f64)> = Vec::new();
    for g in &s.storage.volumes {
        match parts.last_mut() {
            Some((count, quota)) if *quota == g.quota_tib => *count += g.count,
            _ => parts.push((g.count, g.quota_tib)),
        }
    }
    parts
        .iter()
        .map(|&(count, quota)| count_x(count, quota))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The layout, naming the volume kind where it is not regular: "4 x 20 TiB",
/// "1 x 60 TiB, large volume", "2 x 60 TiB, large volumes".
pub fn layout_and_kind(s: &Scenario) -> String {
    let one = s.storage.volume_count() == 1;
    let kind = match (s.storage.volume_kind, one) {
        (VolumeKind::Regular, _) => return layout(s),
        (VolumeKind::Large, true) => "large volume",
        (VolumeKind::Large, false) => "large volumes",
        (VolumeKind::Breakthrough, true) => "large volume in breakthrough mode",
        (VolumeKind::Breakthrough, false) => "large volumes in breakthrough mode",
    };
    format!("{}, {kind}", layout(s))
}

/// "4 x 20 TiB".
pub fn count_x(count: u32, quota_tib: f64) -> String {
    format!("{count} x {}", capacity(quota_tib))
}

/// "With 5 VMDKs per VM" from "with 5 VMDKs per VM".
pub fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A message as a sentence: capitalised, ending in one full stop.
pub fn as_sentence(message: &str) -> String {
    format!("{}.", capitalised(message.trim_end_matches('.')))
}

/// "1 client VM", "4 client VMs".
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", count(n), if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_and_counts_read_as_people_write_them() {
        assert_eq!(count_x(20, 4.0), "20 x 4 TiB");
        assert_eq!(count_x(1, 1.25), "1 x 1.25 TiB");
        assert_eq!(plural(1, "host", "hosts"), "1 host");
        assert_eq!(plural(1_200, "VM", "VMs"), "1,200 VMs");
    }
}
