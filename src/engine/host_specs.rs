//! AVS host SKUs' physical specifications: cores, clock, memory and raw vSAN capacity
//! (what host counts and per-core VCF licences are computed from).

use serde::Serialize;

/// One host SKU's specification.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
pub struct HostSpec {
    pub sku: &'static str,
    /// Physical cores and their base clock.
    pub cores: u32,
    pub clock_mhz: f64,
    pub ram_gb: f64,
    /// Raw vSAN capacity tier, GB (the estimator's `rawcap_GB`).
    pub vsan_raw_gb: f64,
}

/// The SKUs with their specifications (Microsoft Learn host table, 2023-11 and newer;
/// raw vSAN capacity as the estimator counts it: AV36 1,920 GB x 8, AV36P 3,200 x 6,
/// AV52 6,400 x 6, AV64 Gen 1 15.36 TB, AV48 25.6 TB).
pub const HOSTS: [HostSpec; 5] = [
    HostSpec {
        sku: "AV36",
        cores: 36,
        clock_mhz: 2300.0,
        ram_gb: 576.0,
        vsan_raw_gb: 15360.0,
    },
    HostSpec {
        sku: "AV36P",
        cores: 36,
        clock_mhz: 2600.0,
        ram_gb: 768.0,
        vsan_raw_gb: 19200.0,
    },
    HostSpec {
        sku: "AV52",
        cores: 52,
        clock_mhz: 2700.0,
        ram_gb: 1536.0,
        vsan_raw_gb: 38400.0,
    },
    HostSpec {
        sku: "AV64",
        cores: 64,
        clock_mhz: 2800.0,
        ram_gb: 1024.0,
        vsan_raw_gb: 15360.0,
    },
    HostSpec {
        sku: "AV48",
        cores: 48,
        clock_mhz: 2600.0,
        ram_gb: 1024.0,
        vsan_raw_gb: 25600.0,
    },
];

/// The specification of `sku` (case-insensitive).
pub fn spec(sku: &str) -> Option<&'static HostSpec> {
    HOSTS
        .iter()
        .find(|h| h.sku.eq_ignore_ascii_case(sku.trim()))
}
