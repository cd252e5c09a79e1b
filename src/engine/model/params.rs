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
        "Client read path (NFS/SMB client and virtual NIC processing): vCPU time per read";
    client_read_b_us_per_kib: "vCPU-µs/KiB", 6.8, 0.05, 100.0,
        "Client read path: vCPU time per KiB read";
    client_write_a_us: "vCPU-µs", 180.0, 1.0, 2000.0,
        "Client write path (page cache, writeback, transmit): vCPU time per write";
    client_write_b_us_per_kib: "vCPU-µs/KiB", 14.6, 0.05, 100.0,
        "Client write path: vCPU time per KiB written";
    smb_read_b_us_per_kib: "µs/KiB", 0.8, 0.05, 20.0,
        "SMB channel: time per KiB read on its byte stream (its request time is the client path's per-op vCPU time)";
    smb_write_b_us_per_kib: "µs/KiB", 1.0, 0.05, 20.0,
        "SMB channel: time per KiB written on its byte stream";
    smb_usl_read_sigma: "1", 0.2, 0.000001, 0.9,
        "SMB multichannel contention (Universal Scalability Law sigma) for reads";
    smb_usl_write_sigma: "1", 0.05, 0.000001, 0.9,
        "SMB multichannel contention (Universal Scalability Law sigma) for writes";
    anf_delay_ms: "ms", 0.3, 0.05, 2.0,
        "ANF round trip without queueing (network, protocol and storage service time)";
    delay_per_kib_ms: "ms/KiB", 0.002, 0.00001, 0.05,
        "Round-trip time added per KiB of IO (storage-side transfer), every service";
    gcnv_delay_ms: "ms", 0.45, 0.05, 5.0,
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
