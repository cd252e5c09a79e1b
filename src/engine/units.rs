//! Unit conversions, in one place.

/// Bytes in one MiB.
const MIB: f64 = 1_048_576.0;
/// GiB in one TiB.
pub const GIB_PER_TIB: f64 = 1024.0;

/// Decimal megabits per second to MiB/s: `Mbps x 10^6 / 8 / 2^20` (service-limits, conventions).
pub fn mbps_to_mibps(mbps: f64) -> f64 {
    mbps * 1e6 / 8.0 / MIB
}

/// Decimal gigabits per second to MiB/s.
pub fn gbps_to_mibps(gbps: f64) -> f64 {
    mbps_to_mibps(gbps * 1000.0)
}

/// MiB/s at IO size `kib` to IOPS: `IOPS = MiB/s x 1024 / KiB` (domain.md 1).
pub fn mibps_to_iops(mibps: f64, kib: f64) -> f64 {
    mibps * 1024.0 / kib
}

/// IOPS at IO size `kib` to MiB/s: `MiB/s = KiB x IOPS / 1024` (domain.md 1).
pub fn iops_to_mibps(iops: f64, kib: f64) -> f64 {
    iops * kib / 1024.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mbps_convert_exactly() {
        // Standard_D32s_v3: 16,000 Mbps = 1,907.35 MiB/s (~1.86 GiB/s, domain.md 3).
        assert!((mbps_to_mibps(16_000.0) - 1907.3486).abs() < 1e-3);
        assert!((gbps_to_mibps(100.0) - 11920.929).abs() < 1e-3);
    }

    #[test]
    fn iops_and_mibps_round_trip() {
        assert_eq!(iops_to_mibps(163_840.0, 64.0), 10_240.0);
        assert_eq!(mibps_to_iops(10_240.0, 64.0), 163_840.0);
    }
}
