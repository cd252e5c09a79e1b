//! Little's law: IOPS <= outstanding IOs / latency.

/// The IOPS ceiling that `outstanding` IOs in flight allow at `latency_ms` per IO.
pub fn iops_ceiling(outstanding: f64, latency_ms: f64) -> f64 {
    outstanding / (latency_ms / 1000.0)
}

/// The concurrency needed to reach `iops` at `latency_ms` (`concurrency = rate x latency`).
pub fn needed_outstanding(iops: f64, latency_ms: f64) -> f64 {
    iops * latency_ms / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anf_worked_examples() {
        // LEARN-ANF concurrency page: 55 outstanding at 0.5 ms = 110,000 IOPS.
        assert_eq!(iops_ceiling(55.0, 0.5), 110_000.0);
        assert_eq!(needed_outstanding(400_000.0, 2.0), 800.0);
        // 1 thread, queue depth 1 at 0.5 ms cannot exceed 2,000 IOPS (domain.md 1).
        assert_eq!(iops_ceiling(1.0, 0.5), 2_000.0);
        // EDA farm: 16,000 ops/s at 10 ms needs 160.
        assert_eq!(needed_outstanding(16_000.0, 10.0), 160.0);
    }
}
