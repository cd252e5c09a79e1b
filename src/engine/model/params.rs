//! The fitted parameters of the performance model, as one flat named vector.
//!
//! `volplan calibrate` fits all of them jointly over the published series in
//! `tests/fixtures/series.json` and writes the values to `catalog/model.json`; the
//! engine reads them from there. Each parameter has a unit, a meaning, the start value
//! of the fit and its bounds (the fit works on the logarithm, so all are positive).

use serde::de::{Deserializer, Error as _};
use serde::{Deserialize, Serialize, Serializer};
use std::collections::BTreeMap;

/// What a parameter means, where the fit starts and the range it may take.
#[derive(Debug, Clone, Copy)]
pub struct Info {
    pub name: &'static str,
    pub unit: &'static str,
    pub about: &'static str,
    /// Start value of the fit: a first guess from back-of-envelope arithmetic on single
    /// published figures (for example the connection times from the single-connection
    /// rates of measurements.md B3-B7), not a fitted number.
    pub start: f64,
    pub min: f64,
    pub max: f64,
}

macro_rules! params {
    ($( $field:ident : $unit:literal, $start:literal, $min:literal, $max:literal, $about:literal; )*) => {
        /// The model's fitted parameters (see [`INFO`] for units and meaning).
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct Params {
            $( #[doc = $about] pub $field: f64, )*
        }

        /// Every parameter's description, in vector order.
        pub const INFO: &[Info] = &[
            $( Info { name: stringify!($field), unit: $unit, about: $about, start: $start, min: $min, max: $max }, )*
        ];

        impl Params {
            /// Number of parameters.
            pub const LEN: usize = INFO.len();

            /// The fit's start point.
            pub fn start() -> Self {
                Self { $( $field: $start, )* }
            }

            /// The parameters as a vector, in [`INFO`] order.
            pub fn to_vec(&self) -> Vec<f64> {
                vec![$( self.$field, )*]
            }

            /// Parameters from a vector in [`INFO`] order.
            pub fn from_slice(v: &[f64]) -> Self {
                let mut it = v.iter().copied();
                Self { $( $field: it.next().expect("one value per parameter"), )* }
            }
        }
    };
}

params! {
    // One connection's request and byte times from the single-connection rates of
    // measurements B3-B6: 67,000 4 KiB reads (1e6 / 67,000 = 14.9 µs), ~1,000 MiB/s of
    // 256 KiB reads (4,000 x 256 KiB: 0.98 µs/KiB), 45,000 4 KiB writes (22.2 µs),
    // ~1,650 MiB/s of 256 KiB writes (0.59 µs/KiB).
    conn_read_a_us: "µs", 14.9, 1.0, 200.0,
        "NFS TCP connection: time per read RPC (request processing, one at a time per connection)";
    conn_read_b_us_per_kib: "µs/KiB", 0.98, 0.05, 10.0,
        "NFS TCP connection: time per KiB read on its byte stream";
    conn_write_a_us: "µs", 22.2, 1.0, 200.0,
        "NFS TCP connection: time per write RPC (request processing, one at a time per connection)";
    conn_write_b_us_per_kib: "µs/KiB", 0.59, 0.05, 10.0,
        "NFS TCP connection: time per KiB written on its byte stream";
    client_read_a_us: "vCPU-µs", 130.0, 1.0, 2000.0,
        "Client read path (NFS client and virtual NIC processing): vCPU time per read";
    client_read_b_us_per_kib: "vCPU-µs/KiB", 6.8, 0.05, 100.0,
        "Client read path: vCPU time per KiB read";
    client_write_a_us: "vCPU-µs", 180.0, 1.0, 2000.0,
        "Client write path (page cache, writeback, transmit): vCPU time per write";
    client_write_b_us_per_kib: "vCPU-µs/KiB", 14.6, 0.05, 100.0,
        "Client write path: vCPU time per KiB written";
    // Oracle Direct NFS is the database's own NFS client in user space: it skips the
    // kernel NFS client's per-RPC work (the per-KiB copy remains). From F3: 850,000 8 KiB
    // reads on 104 vCPUs is 122 µs of vCPU per read; less the first guess's 8 x 6.8 µs
    // per KiB that leaves 68 µs per read, 0.52 of the kernel client's 130 µs.
    dnfs_op_factor: "1", 0.52, 0.05, 2.0,
        "Oracle Direct NFS: its per-op client path time as a share of the kernel NFS client's";
    // The SMB client's request processing, from H4: 875 MiB/s of 64 KiB reads on one
    // channel is 14,000 requests of 71 µs each on the one CPU the channel is steered to.
    smb_client_read_a_us: "vCPU-µs", 71.0, 1.0, 2000.0,
        "SMB client: vCPU time per read request (an SMB channel's request time and the client path's per-op part)";
    smb_client_write_a_us: "vCPU-µs", 90.0, 1.0, 2000.0,
        "SMB client: vCPU time per write request";
    smb_read_b_us_per_kib: "µs/KiB", 0.8, 0.05, 20.0,
        "SMB channel: time per KiB read on its byte stream (fitted to Azure Files SMB; ANF and GCNV SMB share it)";
    smb_write_b_us_per_kib: "µs/KiB", 1.0, 0.05, 20.0,
        "SMB channel: time per KiB written on its byte stream";
    smb_usl_read_sigma: "1", 0.2, 0.000001, 0.9,
        "SMB multichannel contention (Universal Scalability Law sigma) for reads";
    smb_usl_write_sigma: "1", 0.05, 0.000001, 0.9,
        "SMB multichannel contention (Universal Scalability Law sigma) for writes";
    // Azure Files NFS (NFSv4.1): ~20 clients without nconnect reach the 10 GiB/s of the
    // largest share, ~512 MiB/s of 1 MiB reads on one connection (1.9 µs/KiB); nconnect=4
    // gains 2-4x at 4 KiB under a ~46,000 IOPS burst budget: at most ~46,000 4 KiB IOs on
    // one connection (21.7 µs).
    files_nfs_conn_a_us: "µs", 21.7, 1.0, 500.0,
        "Azure Files NFS connection: time per request (one at a time per connection)";
    files_nfs_conn_b_us_per_kib: "µs/KiB", 1.9, 0.05, 20.0,
        "Azure Files NFS connection: time per KiB on its byte stream";
    // A regular volume's back end from the benchmarks without cache (A2: 388,000 4 KiB
    // reads and 120,000 writes; A5: 3,600 and 2,400 MiB/s of 64 KiB): 2.58 and 17.36 µs
    // per read, 8.33 and 26.04 µs per write, so a per-op and a per-KiB part each.
    anf_regular_read_a_us: "µs", 1.59, 0.01, 100.0,
        "ANF regular volume back end: time per read, fixed part (one volume; the service IOPS table's op part)";
    anf_regular_read_b_us_per_kib: "µs/KiB", 0.246, 0.001, 10.0,
        "ANF regular volume back end: time per KiB read";
    anf_regular_write_a_us: "µs", 7.15, 0.01, 200.0,
        "ANF regular volume back end: time per write, fixed part";
    anf_regular_write_b_us_per_kib: "µs/KiB", 0.295, 0.001, 10.0,
        "ANF regular volume back end: time per KiB written";
    // Large volume: 709,000 8 KiB reads (C3, 1.41 µs) and 12,761 MiB/s of 256 KiB reads
    // (C1, 19.6 µs), both lower bounds (clients and QoS); writes 474,000 8 KiB (E2) and
    // 8,518 MiB/s of 256 KiB (C2).
    anf_large_read_a_us: "µs", 0.82, 0.005, 100.0,
        "ANF large volume back end: time per read, fixed part";
    anf_large_read_b_us_per_kib: "µs/KiB", 0.073, 0.0005, 10.0,
        "ANF large volume back end: time per KiB read";
    anf_large_write_a_us: "µs", 1.23, 0.005, 200.0,
        "ANF large volume back end: time per write, fixed part";
    anf_large_write_b_us_per_kib: "µs/KiB", 0.110, 0.0005, 10.0,
        "ANF large volume back end: time per KiB written";
    // Breakthrough mode, 30 x E32s_v5: ~54,000 MiB/s of 256 KiB reads and 4,333,761 8 KiB
    // reads (client-bound: lower bounds), 32,637 MiB/s and 1,500,000 IOPS of writes.
    anf_bt_read_a_us: "µs", 0.08, 0.001, 100.0,
        "ANF breakthrough-mode volume back end: time per read, fixed part";
    anf_bt_read_b_us_per_kib: "µs/KiB", 0.018, 0.0001, 10.0,
        "ANF breakthrough-mode volume back end: time per KiB read";
    anf_bt_write_a_us: "µs", 0.44, 0.001, 200.0,
        "ANF breakthrough-mode volume back end: time per write, fixed part";
    anf_bt_write_b_us_per_kib: "µs/KiB", 0.028, 0.0001, 10.0,
        "ANF breakthrough-mode volume back end: time per KiB written";
    // A read the storage serves from its cache skips the media: A7 measures 64 KiB reads
    // on the same volume at ~4,500 MiB/s with the data set re-read (A4) against ~3,600
    // without (A5), and A1/A2 460,000 against 388,000 4 KiB reads: about 0.8 of the time.
    cache_read_factor: "1", 0.8, 0.05, 1.0,
        "Back end time of a read served from the storage's cache, as a share of one read from its media (every volume kind)";
    anf_delay_ms: "ms", 0.3, 0.05, 2.0,
        "ANF round trip without queueing (network, protocol and storage service time)";
    // One KiB on a 25 Gbit/s path is 8,192 bits / 25e9 = 0.33 µs.
    delay_per_kib_ms: "ms/KiB", 0.00033, 0.00001, 0.05,
        "Round-trip time added per KiB of IO (storage-side transfer), every service";
    // GCNV's expected-performance page gives its volume a latency of 0.5 ms (the figure
    // of its measure-performance page's fio run); less a small IO's connection time and
    // transfer (~0.03 ms), 0.47 ms.
    gcnv_delay_ms: "ms", 0.47, 0.05, 5.0,
        "GCNV round trip without queueing";
    files_ssd_delay_ms: "ms", 1.5, 0.2, 10.0,
        "Azure Files SSD round trip without queueing";
    storage_servers: "servers per volume", 50.0, 1.0, 5000.0,
        "Parallel servers behind one volume's ceilings: sets how sharply latency knees near a storage ceiling";
    anf_meta_ops_regular: "ops/s", 50000.0, 5000.0, 1000000.0,
        "ANF regular volume: operation rate of a metadata-heavy mix (EDA-like)";
    anf_meta_ops_large: "ops/s", 800000.0, 50000.0, 10000000.0,
        "ANF large volume: operation rate of a metadata-heavy mix (EDA-like)";
    anf_meta_ops_breakthrough: "ops/s", 2000000.0, 100000.0, 20000000.0,
        "ANF large volume in breakthrough mode: operation rate of a metadata-heavy mix (EDA-like)";
    // J1: 16 reads in flight at ~400 MiB/s cool (1,600 x 256 KiB: 10.0 ms each) against
    // ~1,180 MiB/s hot (3.4 ms): a cool read adds ~6.6 ms, ~2.6 ms of it per KiB.
    cool_seq_a_ms: "ms", 4.0, 0.1, 200.0,
        "ANF cool tier: time of one sequential cool read, fixed part (read-ahead hides most of it)";
    // J5: 256 random reads in flight at ~280 MiB/s (1,120 x 256 KiB) with all 240 of
    // the tier's retrievals busy: 240 / 1,120 = 214 ms each, ~2.6 ms of it per KiB.
    cool_rand_a_ms: "ms", 212.0, 0.5, 2000.0,
        "ANF cool tier: time of one random cool read, fixed part";
    cool_b_ms_per_kib: "ms/KiB", 0.01, 0.0001, 5.0,
        "ANF cool tier: time per KiB of a cool read";
    // The article gives two figures for 16 jobs of sequential cool reads: ~1,742 MiB/s
    // (J4) and 6.5 x J1's ~400 = ~2,600 MiB/s (J2); the first guess is their geometric
    // mean, ~2,130 MiB/s.
    cool_mibps_per_volume: "MiB/s", 2130.0, 50.0, 50000.0,
        "ANF cool tier: transfer rate of one volume's cool tier";
    avs_flow_a_us: "µs", 8.0, 0.5, 200.0,
        "AVS datastore flow (one ESXi NFS connection): time per 8 KiB-class op, fixed part";
    avs_flow_b_us_per_kib: "µs/KiB", 0.33, 0.01, 10.0,
        "AVS datastore flow: time per KiB";
    avs_write_factor: "1", 1.5, 1.0, 4.0,
        "AVS: cost of a write relative to a read on flows, hosts and VMs";
    avs_host_a_us: "µs", 1.6, 0.1, 100.0,
        "AVS host NFS stack: time per op, fixed part";
    avs_host_b_us_per_kib: "µs/KiB", 0.32, 0.01, 10.0,
        "AVS host NFS stack: time per KiB";
    avs_vm_a_us: "µs", 4.6, 0.1, 100.0,
        "AVS guest VM (16 vCPU) storage path: time per op, fixed part";
    avs_vm_b_us_per_kib: "µs/KiB", 0.28, 0.01, 10.0,
        "AVS guest VM storage path: time per KiB";
    avs_path_a_us: "µs", 1.1, 0.05, 50.0,
        "AVS cluster to ANF network path (ExpressRoute with FastPath), shared by all hosts: time per op, fixed part";
    avs_path_b_us_per_kib: "µs/KiB", 0.075, 0.001, 5.0,
        "AVS cluster to ANF network path: time per KiB";
    avs_ds_sigma: "1", 0.1, 0.000001, 0.9,
        "AVS: contention between one host's datastore flows (USL sigma)";
    avs_ds_kappa: "1", 0.02, 0.000001, 0.5,
        "AVS: coherency cost between one host's datastore flows (USL kappa)";
    avs_hosts_sigma: "1", 0.23, 0.000001, 0.9,
        "AVS: contention between hosts sharing one datastore (USL sigma)";
}

impl Default for Params {
    fn default() -> Self {
        Self::start()
    }
}

impl Serialize for Params {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let map: BTreeMap<&str, f64> = INFO
            .iter()
            .zip(self.to_vec())
            .map(|(i, v)| (i.name, v))
            .collect();
        map.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Params {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<String, f64>::deserialize(d)?;
        let mut v = Vec::with_capacity(Params::LEN);
        for i in INFO {
            v.push(
                *map.get(i.name)
                    .ok_or_else(|| D::Error::custom(format!("missing parameter {}", i.name)))?,
            );
        }
        if let Some(extra) = map.keys().find(|k| !INFO.iter().any(|i| i.name == *k)) {
            return Err(D::Error::custom(format!("unknown parameter {extra}")));
        }
        Ok(Params::from_slice(&v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_values_lie_within_bounds() {
        for i in INFO {
            assert!(i.min < i.start && i.start < i.max, "{}", i.name);
        }
    }

    #[test]
    fn round_trips_through_json() {
        let p = Params::start();
        let json = serde_json::to_string(&p).unwrap();
        let back: Params = serde_json::from_str(&json).unwrap();
        assert_eq!(p, back);
        assert!(serde_json::from_str::<Params>("{}").is_err());
    }
}
