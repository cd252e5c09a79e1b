//! What a price book row can price: every service's levels, meters and host SKUs, each
//! with its label and unit. The rows of the book, an import, a price sheet and a price
//! entered by hand all name one of these.
//!
//! Azure Files and GCNV items are written `<level>[_<redundancy>][_<meter>][_<term>]`:
//! LRS, capacity and pay as you go carry no suffix (`ssd_v2`, `ssd_v2_iops`,
//! `ssd_v2_zrs_throughput`, `flex_throughput_1y`), so a level's capacity row is named
//! by the level's own key, as the engine looks it up.

use crate::engine::catalog;
use crate::engine::price_key::PricedService;
use crate::engine::scenario::{Level, Service};
use crate::engine::trace::Num;
use std::sync::LazyLock;

/// One kind of row: a service's level, meter or host SKU, and its unit.
#[derive(Debug, Clone)]
pub struct Item {
    pub service: PricedService,
    pub key: String,
    pub label: String,
    pub unit: &'static str,
}

/// The ANF meters of the book: key, label, unit.
const ANF_ITEMS: [(&str, &str, &str); 11] = [
    ("standard", "Standard capacity", "GiB-month"),
    ("premium", "Premium capacity", "GiB-month"),
    ("ultra", "Ultra capacity", "GiB-month"),
    ("flexible_capacity", "Flexible capacity", "GiB-month"),
    (
        "flexible_throughput",
        "Flexible throughput above the 128 MiB/s included",
        "MiB/s-month",
    ),
    ("cool_capacity", "Cool tier capacity", "GiB-month"),
    ("cool_transfer", "Cool tier data read back", "GiB"),
    ("backup", "Backup", "GiB-month"),
    (
        "crr_10min",
        "Cross-region replication every 10 minutes",
        "GiB",
    ),
    ("crr_hourly", "Cross-region replication hourly", "GiB"),
    ("crr_daily", "Cross-region replication daily", "GiB"),
];

/// The meters of Azure Files pay as you go: suffix, label, unit.
const PAYG_METERS: [(&str, &str, &str); 8] = [
    ("", "data stored", "GiB-month"),
    ("_snapshots", "snapshots", "GiB-month"),
    ("_metadata", "metadata at rest", "GiB-month"),
    ("_read", "read operations", "10k operations"),
    ("_write", "write operations", "10k operations"),
    ("_list", "list operations", "10k operations"),
    ("_other", "other operations", "10k operations"),
    ("_retrieval", "data read back", "GiB"),
];

/// A meter of a level: item suffix, words, unit.
type Meter = (&'static str, String, &'static str);

/// A commitment term's suffix and words.
pub const TERMS: [(&str, &str); 2] = [("_1y", "1-year commitment"), ("_3y", "3-year commitment")];

/// The Azure Files items: provisioned v1, v2 (storage, IOPS and throughput above what a
/// share includes) and pay as you go (three tiers, data, snapshots, metadata,
/// operations and data read back), each in its redundancies.
fn files_items(out: &mut Vec<Item>) {
    let f = &catalog::catalog().services.azure_files;
    let v1 = [
        ("", "capacity".to_owned(), "GiB-month"),
        ("_snapshots", "snapshots".to_owned(), "GiB-month"),
    ];
    let v2 = |included_iops: f64, included_mibps: f64, assumed: &str| {
        [
            ("", "storage".to_owned(), "GiB-month"),
            (
                "_iops",
                format!("IOPS above the {} included{assumed}", Num(included_iops, 0)),
                "IOPS-month",
            ),
            (
                "_throughput",
                format!(
                    "throughput above the {} MiB/s included{assumed}",
                    Num(included_mibps, 0)
                ),
                "MiB/s-month",
            ),
        ]
    };
    let payg = PAYG_METERS.map(|(s, l, u)| (s, l.to_owned(), u));
    let levels: [(&str, &str, &[&str], &[Meter]); 6] = [
        ("ssd_v1", "SSD provisioned v1", &["lrs", "zrs"], &v1),
        (
            "ssd_v2",
            "SSD provisioned v2",
            &["lrs", "zrs"],
            &v2(f.ssd_v2.min_iops, f.ssd_v2.min_mibps, ""),
        ),
        (
            "hdd_v2",
            "HDD provisioned v2",
            &["lrs", "zrs", "grs", "gzrs"],
            &v2(f.hdd_v2.min_iops, f.hdd_v2.min_mibps, " (assumed)"),
        ),
        (
            "hdd_payg",
            "HDD pay-as-you-go, transaction optimized",
            &["lrs", "zrs", "grs", "gzrs"],
            &payg,
        ),
        (
            "hdd_payg_hot",
            "HDD pay-as-you-go, hot",
            &["lrs", "zrs", "grs", "gzrs"],
            &payg,
        ),
        (
            "hdd_payg_cool",
            "HDD pay-as-you-go, cool",
            &["lrs", "zrs", "grs", "gzrs"],
            &payg,
        ),
    ];
    for (level, name, redundancies, meters) in levels {
        for r in redundancies {
            let infix = if *r == "lrs" {
                String::new()
            } else {
                format!("_{r}")
            };
            for (suffix, label, unit) in meters {
                out.push(Item {
                    service: PricedService::AzureFiles,
                    key: format!("{level}{infix}{suffix}"),
                    label: format!("{name} {label} ({})", r.to_ascii_uppercase()),
                    unit,
                });
            }
        }
    }
}

/// The GCNV items: each level's capacity, Flex throughput and IOPS above what a pool
/// includes, each also under a 1- and 3-year commitment; replication and backup.
fn gcnv_items(out: &mut Vec<Item>) {
    let flex = &catalog::catalog().services.gcnv.flex;
    let mut priced = Vec::new();
    for &level in Level::of(Service::Gcnv) {
        let name = level.display(Service::Gcnv);
        priced.push((
            level.key().to_owned(),
            format!("{name} capacity"),
            "GiB-month",
        ));
        if level == Level::Flex {
            priced.push((
                "flex_throughput".to_owned(),
                format!(
                    "Flex throughput above the {} MiB/s included",
                    flex.default_mibps
                ),
                "MiB/s-month",
            ));
            priced.push((
                "flex_iops".to_owned(),
                format!("Flex IOPS above the {} included", Num(flex.default_iops, 0)),
                "IOPS-month",
            ));
        }
    }
    for (key, label, unit) in priced {
        for (suffix, term) in [("", "")].into_iter().chain(TERMS) {
            out.push(Item {
                service: PricedService::Gcnv,
                key: format!("{key}{suffix}"),
                label: if term.is_empty() {
                    label.clone()
                } else {
                    format!("{label}, {term}")
                },
                unit,
            });
        }
    }
    for (key, label, unit) in [
        (
            "crr_10min",
            "Replication every 10 minutes, data transferred",
            "GiB",
        ),
        ("crr_hourly", "Replication hourly, data transferred", "GiB"),
        ("crr_daily", "Replication daily, data transferred", "GiB"),
        (
            "backup",
            "Backup, per GiB of the source volume",
            "GiB-month",
        ),
        ("backup_storage", "Backup storage", "GiB-month"),
    ] {
        out.push(Item {
            service: PricedService::Gcnv,
            key: key.to_owned(),
            label: label.to_owned(),
            unit,
        });
    }
}

static ITEMS: LazyLock<Vec<Item>> = LazyLock::new(|| {
    let mut out: Vec<Item> = ANF_ITEMS
        .iter()
        .map(|&(key, label, unit)| Item {
            service: PricedService::Anf,
            key: key.to_owned(),
            label: label.to_owned(),
            unit,
        })
        .collect();
    for h in &catalog::catalog().services.avs_hosts {
        out.push(Item {
            service: PricedService::Avs,
            key: h.sku.clone(),
            label: format!("{} host, pay as you go", h.sku),
            unit: "host-hour",
        });
        out.push(Item {
            service: PricedService::Avs,
            key: format!("{}{BYOL_SUFFIX}", h.sku),
            label: format!(
                "{} host without VMware licences (VCF BYOL), pay as you go",
                h.sku
            ),
            unit: "host-hour",
        });
    }
    files_items(&mut out);
    gcnv_items(&mut out);
    out
});

/// The suffix of an AVS host item priced without VMware Cloud Foundation (`AV36P_byol`):
/// the `VCF BYOL` meters, for portable VCF.
pub const BYOL_SUFFIX: &str = "_byol";

/// Every kind of row, ANF first.
pub fn items() -> &'static [Item] {
    &ITEMS
}

/// The item `key` of `service`.
pub fn item(service: PricedService, key: &str) -> Option<&'static Item> {
    items()
        .iter()
        .find(|i| i.service == service && i.key == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_of_a_service_is_an_item_and_keys_are_unique() {
        for service in [Service::AzureFiles, Service::Gcnv] {
            for &level in Level::of(service) {
                assert!(item(service.into(), level.key()).is_some(), "{level:?}");
            }
        }
        let mut keys: Vec<_> = items().iter().map(|i| (i.service, &i.key)).collect();
        let n = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), n);
        let iops = item(PricedService::AzureFiles, "ssd_v2_iops").unwrap();
        assert_eq!(iops.unit, "IOPS-month");
        assert!(iops.label.contains("3,000 included"), "{}", iops.label);
        assert!(item(PricedService::Gcnv, "flex_throughput_3y").is_some());
        assert!(item(PricedService::AzureFiles, "hdd_payg_cool_zrs_write").is_some());
    }
}
