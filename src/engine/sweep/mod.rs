//! Sweeps and comparisons: one scenario evaluated over a range of one input
//! (IO size, connections, datastore layout, service level for part of a
//! month), and several evaluations set side by side.
//!
//! Pure functions over [`evaluate_in`](crate::engine::evaluate_in), each priced
//! from the book it is given (the server's book in force): the charts, pages and
//! reports draw what these return, so every figure on a chart comes from the same
//! model and prices as the planner's headline.

mod compare;
mod io_size;
mod layouts;
mod scaling;
mod what_if;

pub use compare::*;
pub use io_size::*;
pub use layouts::*;
pub use scaling::*;
pub use what_if::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::{Level, Scenario};
    use compare::numeric_row;

    fn scenario() -> Scenario {
        serde_json::from_str(
            r#"{"name":"t","workload":{"io_size_kib":48,"read_pct":100,"capacity_tib":80},
            "storage":{"service":"anf","level":"ultra","volumes":[{"count":4,"quota_tib":20}]},
            "clients":{"protocol":"nfsv3","avs":{"hosts":4}}}"#,
        )
        .expect("scenario")
    }

    #[test]
    fn io_sizes_include_the_scenarios_own() {
        let sizes = io_sizes_for(&scenario());
        assert_eq!(sizes.len(), 10);
        assert!(sizes.windows(2).all(|w| w[0] < w[1]));
        assert!(sizes.contains(&48.0));
    }

    #[test]
    fn layout_splits_capacity_evenly() {
        let s = with_layout(&scenario(), 20, 80.0);
        assert_eq!(s.storage.volumes.len(), 1);
        assert_eq!(s.storage.volumes[0].count, 20);
        assert!((s.storage.volumes[0].quota_tib - 4.0).abs() < 1e-12);
        assert!((total_quota_tib(&s) - 80.0).abs() < 1e-9);
    }

    #[test]
    fn axis_follows_the_clients() {
        let mut s = scenario();
        assert_eq!(Axis::of(&s), Axis::Datastores);
        assert_eq!(Axis::Datastores.current(&s), 4);
        s.clients.avs = None;
        assert_eq!(Axis::of(&s), Axis::Nconnect);
        s.clients.protocol = crate::engine::scenario::Protocol::Smb3;
        assert_eq!(Axis::of(&s), Axis::SmbChannels);
        assert_eq!(Axis::SmbChannels.current(&s), 1);
        let m = Axis::SmbChannels.apply(&s, 3);
        assert!(m.clients.smb_multichannel);
        assert_eq!(m.clients.smb_channels, 3);
    }

    #[test]
    fn published_series_only_where_the_scenario_matches() {
        let s = scenario();
        let avs = published_for(&s, Axis::Datastores, Metric::Iops);
        assert_eq!(avs.len(), 2);
        assert!(published_for(&s, Axis::Datastores, Metric::Mibps).is_empty());
        let mut vm = s.clone();
        vm.clients.avs = None;
        assert_eq!(published_for(&vm, Axis::Nconnect, Metric::Mibps).len(), 1);
        vm.storage.service = crate::engine::scenario::Service::Gcnv;
        assert!(published_for(&vm, Axis::Nconnect, Metric::Mibps).is_empty());
        // +76% and +163% over one datastore, as published.
        let p = PUBLISHED[0].points;
        assert!((p[1].1 / p[0].1 - 1.76).abs() < 1e-9);
        assert!((p[2].1 / p[0].1 - 2.63).abs() < 1e-9);
    }

    #[test]
    fn published_setups_are_valid_scenarios() {
        for p in PUBLISHED {
            for &(n, _) in p.points {
                let s = p.setup.scenario(n, 50.0);
                crate::engine::check(&s, crate::engine::pricing::book()).expect("valid setup");
                assert_eq!(Axis::of(&s), p.axis);
                assert_eq!(p.axis.current(&s), n);
            }
        }
    }

    #[test]
    fn layouts_reject_bad_input() {
        let s = scenario();
        let book = crate::engine::pricing::book();
        assert_eq!(
            layouts(&s, 0.0, &[1], book).unwrap_err().first().field,
            "total_tib"
        );
        // Any scenario's own total quota is a total to lay out (1,024 x 2,048 TiB).
        use crate::engine::scenario::MAX_TOTAL_TIB;
        let at_most = layouts(&s, MAX_TOTAL_TIB, &[1024], book).err();
        assert_ne!(
            at_most.map(|e| e.first().field.clone()).as_deref(),
            Some("total_tib")
        );
        assert_eq!(
            layouts(&s, MAX_TOTAL_TIB * 1.01, &[1024], book)
                .unwrap_err()
                .first()
                .field,
            "total_tib"
        );
        assert_eq!(
            layouts(&s, 80.0, &[], book).unwrap_err().first().field,
            "counts"
        );
        assert!(
            layouts(&s, 80.0, &[0], crate::engine::pricing::book())
                .unwrap_err()
                .first()
                .field
                .starts_with("counts")
        );
        assert!(
            layouts(&s, 80.0, &[2000], crate::engine::pricing::book())
                .unwrap_err()
                .first()
                .field
                .starts_with("counts")
        );
    }

    #[test]
    fn what_if_rejects_days_beyond_a_month() {
        let s = scenario();
        assert_eq!(
            what_if(&s, Level::Ultra, 0.0, crate::engine::pricing::book())
                .unwrap_err()
                .first()
                .field,
            "days"
        );
        assert_eq!(
            what_if(&s, Level::Ultra, 31.0, crate::engine::pricing::book())
                .unwrap_err()
                .first()
                .field,
            "days"
        );
    }

    fn row(count: u32, mibps: f64) -> LayoutRow {
        LayoutRow {
            count,
            quota_tib: 80.0 / f64::from(count),
            throughput_mibps: mibps,
            iops: mibps * 16.0,
            qos_per_volume_mibps: Some(10240.0 / f64::from(count)),
            connections_per_client: u64::from(count),
            connections: u64::from(count) * 4,
            monthly_usd: Some(1000.0),
            monthly: Some(1000.0),
            currency: "USD",
            binding: "volume_qos",
        }
    }

    #[test]
    fn suggestion_is_the_smallest_count_near_the_best() {
        let rows = vec![
            row(1, 2000.0),
            row(2, 4000.0),
            row(4, 9800.0),
            row(8, 10240.0),
            row(16, 10240.0),
        ];
        assert_eq!(suggest_layout(&rows), Some(2));
        assert_eq!(suggest_layout(&[]), None);
    }

    #[test]
    fn numeric_rows_have_deltas_against_the_first_and_mark_the_best() {
        let r = numeric_row(
            "t",
            "T",
            "MiB/s",
            Better::Higher,
            vec![Some(100.0), Some(150.0), Some(50.0)],
        );
        assert_eq!(r.deltas[0], Some((0.0, Some(0.0))));
        assert_eq!(r.deltas[1], Some((50.0, Some(50.0))));
        assert_eq!(r.deltas[2], Some((-50.0, Some(-50.0))));
        assert_eq!(r.best, vec![false, true, false]);
        let c = numeric_row("c", "C", "USD", Better::Lower, vec![Some(0.0), Some(10.0)]);
        assert_eq!(c.deltas[1], Some((10.0, None)));
        assert_eq!(c.best, vec![true, false]);
        let same = numeric_row("s", "S", "USD", Better::Lower, vec![Some(5.0), Some(5.0)]);
        assert_eq!(same.best, vec![false, false]);
        let n = numeric_row("n", "N", "", Better::Neither, vec![Some(1.0), Some(2.0)]);
        assert_eq!(n.best, vec![false, false]);
    }
}
