//! An Azure Resource Graph result in, the estate of what exists out.
//!
//! The rows are those of the query in `docs/live.md`: capacity pools
//! (`microsoft.netapp/netappaccounts/capacitypools`: `serviceLevel`, `qosType`, `size`
//! in bytes, `customThroughputMibps` of a Flexible pool) and volumes
//! (`.../capacitypools/volumes`: `usageThreshold` in bytes, `throughputMibps`,
//! `isLargeVolume`, `protocolTypes`), as the ARM properties name them. Accepted: the
//! `az graph query -o json` answer (`{"data": [...]}`), the REST answer in either
//! result format (`data` as rows or as `{"columns", "rows"}`), a bare array of rows,
//! rows with the raw `properties` object, and the portal's CSV download.

use super::LiveError;
use crate::engine::scenario::{Level, Qos};
use crate::estate::EstateRequest;
use serde_json::{Map, Value, json};

/// Most rows one result may carry.
pub const MAX_ROWS: usize = 10_000;

const POOL: &str = "microsoft.netapp/netappaccounts/capacitypools";
const VOLUME: &str = "microsoft.netapp/netappaccounts/capacitypools/volumes";
const TIB: f64 = 1_099_511_627_776.0;

/// A capacity pool as found.
#[derive(Debug, Clone, PartialEq)]
pub struct LivePool {
    /// `account/pool`.
    pub name: String,
    pub level: Level,
    pub qos: Qos,
    pub size_tib: f64,
    pub location: String,
}

/// A volume as found.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveVolume {
    /// The volume's own name (the last part of `account/pool/volume`).
    pub name: String,
    /// `account/pool`.
    pub pool: String,
    pub quota_tib: f64,
    /// Manual QoS: the throughput assigned to it, MiB/s.
    pub throughput_mibps: Option<f64>,
    pub large: bool,
    pub protocol: &'static str,
}

/// The pools and volumes of a result.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub pools: Vec<LivePool>,
    pub volumes: Vec<LiveVolume>,
}

/// Reads a Resource Graph result (JSON or CSV).
pub fn parse(text: &str) -> Result<Found, LiveError> {
    let text = text.trim_start_matches('\u{feff}');
    let rows = match text.trim_start().chars().next() {
        Some('{') | Some('[') => {
            let v: Value = serde_json::from_str(text)
                .map_err(|e| LiveError::new("data", format!("not valid JSON: {e}")))?;
            json_rows(v)?
        }
        Some(_) => csv_rows(text)?,
        None => return Err(LiveError::new("data", "the Resource Graph result is empty")),
    };
    if rows.len() > MAX_ROWS {
        return Err(LiveError::new(
            "data",
            format!("more than {MAX_ROWS} rows; query one subscription at a time"),
        ));
    }
    found(&rows)
}

fn json_rows(v: Value) -> Result<Vec<Map<String, Value>>, LiveError> {
    let data = match v {
        Value::Object(mut o) => o.remove("data").ok_or_else(|| {
            LiveError::new("data", "not a Resource Graph result: no `data` member")
        })?,
        array => array,
    };
    match data {
        Value::Array(rows) => rows
            .into_iter()
            .enumerate()
            .map(|(i, r)| match r {
                Value::Object(o) => Ok(o),
                _ => Err(LiveError::new(
                    format!("data[{i}]"),
                    "a row is not an object",
                )),
            })
            .collect(),
        Value::Object(mut table) => {
            let columns: Vec<String> = table
                .remove("columns")
                .and_then(|c| c.as_array().cloned())
                .unwrap_or_default()
                .iter()
                .map(|c| {
                    c.get("name")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned()
                })
                .collect();
            let rows = table.remove("rows").and_then(|r| r.as_array().cloned());
            let rows =
                rows.ok_or_else(|| LiveError::new("data.rows", "a table result without `rows`"))?;
            Ok(rows
                .into_iter()
                .map(|r| {
                    columns
                        .iter()
                        .cloned()
                        .zip(r.as_array().cloned().unwrap_or_default())
                        .collect()
                })
                .collect())
        }
        _ => Err(LiveError::new("data", "`data` is neither rows nor a table")),
    }
}

fn csv_rows(text: &str) -> Result<Vec<Map<String, Value>>, LiveError> {
    let mut r = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = r
        .headers()
        .map_err(|e| LiveError::new("data", format!("cannot read the CSV header: {e}")))?
        .clone();
    let mut out = Vec::new();
    for (i, row) in r.records().enumerate() {
        let row = row.map_err(|e| LiveError::new("data", format!("row {}: {e}", i + 2)))?;
        out.push(
            headers
                .iter()
                .zip(row.iter())
                .map(|(h, c)| (h.to_owned(), Value::String(c.to_owned())))
                .collect(),
        );
        if out.len() > MAX_ROWS {
            break;
        }
    }
    Ok(out)
}

/// A row's field: the projected column, else the raw `properties` member (any case).
fn field<'a>(row: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    let pick = |o: &'a Map<String, Value>| {
        o.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
            .filter(|v| !v.is_null() && v.as_str() != Some(""))
    };
    pick(row).or_else(|| {
        row.get("properties")
            .and_then(Value::as_object)
            .and_then(pick)
    })
}

fn text(row: &Map<String, Value>, name: &str) -> Option<String> {
    field(row, name).map(|v| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}

fn number(row: &Map<String, Value>, i: usize, name: &str) -> Result<Option<f64>, LiveError> {
    let Some(v) = field(row, name) else {
        return Ok(None);
    };
    let n = match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    match n {
        Some(n) if n.is_finite() && n >= 0.0 => Ok(Some(n)),
        _ => Err(LiveError::new(
            format!("data[{i}].{name}"),
            format!(
                "`{}` is not a size or rate",
                v.to_string().chars().take(40).collect::<String>()
            ),
        )),
    }
}

fn level(s: &str) -> Option<Level> {
    match s.to_ascii_lowercase().as_str() {
        "standard" => Some(Level::Standard),
        "premium" => Some(Level::Premium),
        "ultra" => Some(Level::Ultra),
        "flexible" => Some(Level::Flexible),
        _ => None,
    }
}

fn found(rows: &[Map<String, Value>]) -> Result<Found, LiveError> {
    let mut pools = Vec::new();
    let mut volumes = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let kind = text(row, "type").unwrap_or_default().to_ascii_lowercase();
        let name = text(row, "name").unwrap_or_default();
        let at = |f: &str| format!("data[{i}].{f}");
        if kind == POOL {
            let lv = text(row, "serviceLevel").unwrap_or_default();
            let level = super::level_or(&lv, level(&lv), &at("serviceLevel"))?;
            let size = number(row, i, "size")?
                .ok_or_else(|| LiveError::new(at("size"), "a capacity pool without its size"))?;
            let qos = match text(row, "qosType")
                .unwrap_or_default()
                .to_ascii_lowercase()
                .as_str()
            {
                "manual" => Qos::Manual,
                _ if level == Level::Flexible => Qos::Manual,
                _ => Qos::Auto,
            };
            pools.push(LivePool {
                name,
                level,
                qos,
                size_tib: size / TIB,
                location: text(row, "location").unwrap_or_default(),
            });
        } else if kind == VOLUME {
            let parts: Vec<&str> = name.split('/').collect();
            let (pool, short) = match parts.as_slice() {
                [a, p, v] => (format!("{a}/{p}"), (*v).to_owned()),
                _ => (String::new(), name.clone()),
            };
            let quota = number(row, i, "usageThreshold")?.ok_or_else(|| {
                LiveError::new(
                    at("usageThreshold"),
                    "a volume without its quota (usageThreshold)",
                )
            })?;
            let protocols = text(row, "protocolTypes")
                .unwrap_or_default()
                .to_ascii_lowercase();
            volumes.push(LiveVolume {
                name: short,
                pool,
                quota_tib: quota / TIB,
                throughput_mibps: number(row, i, "throughputMibps")?.filter(|t| *t > 0.0),
                large: text(row, "isLargeVolume").is_some_and(|b| b.eq_ignore_ascii_case("true")),
                protocol: if protocols.contains("cifs") {
                    "smb"
                } else if protocols.contains("nfsv4.1") {
                    "nfsv4.1"
                } else {
                    "nfsv3"
                },
            });
        }
    }
    if volumes.is_empty() {
        return Err(LiveError::new(
            "data",
            "no ANF volume (type microsoft.netapp/netappaccounts/capacitypools/volumes) in the result; run the query in the documentation",
        ));
    }
    Ok(Found { pools, volumes })
}

impl Found {
    /// The pool a volume sits in.
    pub fn pool_of(&self, v: &LiveVolume) -> Option<&LivePool> {
        self.pools
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(&v.pool))
    }

    /// The estate of what exists: one workload per volume, named as the volume, on its
    /// pool's level and QoS with its quota (and throughput under manual QoS); the
    /// workload is a default mix until metrics say otherwise.
    pub fn estate(&self, region: Option<String>) -> Result<EstateRequest, LiveError> {
        let mut workloads = Vec::with_capacity(self.volumes.len());
        for (i, v) in self.volumes.iter().enumerate() {
            let pool = self.pool_of(v).ok_or_else(|| {
                LiveError::new(
                    format!("volumes[{i}]"),
                    format!(
                        "the volume {} sits in the pool `{}`, which the result does not list",
                        v.name, v.pool
                    ),
                )
            })?;
            workloads.push(super::volume_scenario(pool, v, None));
        }
        let location = self.pools.first().map(|p| p.location.clone());
        Ok(EstateRequest {
            name: Some(format!(
                "Live estate ({} pools, {} volumes)",
                self.pools.len(),
                workloads.len()
            )),
            workloads,
            region: region.or(location.filter(|l| !l.is_empty())),
            ..serde_json::from_value(json!({"workloads": []}))
                .expect("an estate request with no workloads has every default")
        })
    }
}

/// Client VMs a live volume is assumed to serve (the export does not say): enough
/// that the model's ceiling is the storage's, not a client's network.
pub const CLIENTS: u32 = 4;
/// Their size.
pub const CLIENT_VM: &str = "Standard_E32s_v5";

/// The scenario fields of a volume, for [`super::volume_scenario`].
pub(super) fn scenario_json(pool: &LivePool, v: &LiveVolume) -> Value {
    let level = serde_json::to_value(pool.level).unwrap_or(Value::Null);
    let qos = serde_json::to_value(pool.qos).unwrap_or(Value::Null);
    json!({
        "name": v.name,
        "workload": {
            "io_size_kib": 64, "read_pct": 70, "access": "random", "threads": 8,
            "queue_depth": 16, "files": "many", "metadata_heavy": false,
            "capacity_tib": v.quota_tib, "target_mibps": null, "target_iops": null
        },
        "storage": {
            "service": "anf", "level": level, "qos": qos,
            "volume_kind": if v.large { "large" } else { "regular" },
            "volumes": [{"count": 1, "quota_tib": v.quota_tib,
                         "throughput_mibps": if pool.qos == Qos::Manual { json!(v.throughput_mibps) } else { Value::Null }}],
            "pool_tib": null
        },
        "clients": {
            "count": CLIENTS, "vm_size": CLIENT_VM, "egress_mibps": null, "ingress_mibps": null,
            "protocol": v.protocol, "nconnect": 1, "smb_multichannel": false,
            "smb_channels": 4, "avs": null
        },
        "meta": {"customer": "", "project": pool.name, "author": "",
                 "notes": format!("{} pool of {:.2} TiB, {} QoS", level.as_str().unwrap_or(""), pool.size_tib, qos.as_str().unwrap_or(""))}
    })
}
