//! Deterministic fixtures of the live estate: the Resource Graph result of 3 pools and 9
//! volumes (committed, `tests/fixtures/live/resource-graph.json`) and Azure Monitor
//! metrics of those volumes at 5-minute grain, generated here: every volume follows a
//! working-day (or nightly) shape with a fixed pseudo-random wobble, clipped at its QoS
//! throughput, so some run at their ceiling and others far below it.

use std::fmt::Write;

/// The Resource Graph result (`az graph query ... -o json`).
pub const GRAPH: &str = include_str!("../../fixtures/live/resource-graph.json");

/// One volume's load: peak MiB/s, read share of the bytes, KiB per IO, its QoS
/// throughput (where the load is clipped), whether it peaks at night, consumed %.
pub struct Profile {
    pub name: &'static str,
    pub peak_mibps: f64,
    pub read_share: f64,
    pub io_kib: f64,
    pub qos_mibps: f64,
    pub nightly: bool,
    pub consumed_pct: f64,
}

/// The 9 volumes of the Resource Graph fixture. QoS: Premium 64 MiB/s per TiB, Ultra
/// manual as assigned, Standard 16 MiB/s per TiB.
pub const PROFILES: [Profile; 9] = [
    p("app1", 40.0, 0.7, 64.0, 128.0, false, 40.0),
    p("app2", 140.0, 0.7, 64.0, 128.0, false, 70.0),
    p("home", 30.0, 0.6, 32.0, 256.0, false, 55.0),
    p("db1", 560.0, 0.7, 8.0, 600.0, false, 80.0),
    p("db2", 100.0, 0.7, 8.0, 500.0, false, 30.0),
    p("dblog", 175.0, 0.1, 64.0, 180.0, false, 20.0),
    p("archive", 20.0, 0.9, 256.0, 128.0, false, 85.0),
    p("backup", 40.0, 0.05, 256.0, 32.0, true, 60.0),
    p("scratch", 5.0, 0.5, 64.0, 32.0, false, 10.0),
];

const fn p(
    name: &'static str,
    peak_mibps: f64,
    read_share: f64,
    io_kib: f64,
    qos_mibps: f64,
    nightly: bool,
    consumed_pct: f64,
) -> Profile {
    Profile {
        name,
        peak_mibps,
        read_share,
        io_kib,
        qos_mibps,
        nightly,
        consumed_pct,
    }
}

/// A fixed linear congruential sequence in 0..1 (no dependency, same on every machine).
struct Wobble(u64);

impl Wobble {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// One interval's read and write MiB/s of `p` at minute `m` of November 2026.
fn load(p: &Profile, minute: u32, w: &mut Wobble) -> (f64, f64) {
    let hour = (minute / 60) % 24;
    let day = minute / 1440; // 1 November 2026 is a Sunday.
    let weekday = !matches!(day % 7, 0 | 6);
    let busy = if p.nightly {
        hour < 4
    } else {
        weekday && (8..18).contains(&hour)
    };
    let shape = if busy { 1.0 } else { 0.2 };
    let total = (p.peak_mibps * shape * (0.95 + 0.1 * w.next())).min(p.qos_mibps);
    (total * p.read_share, total * (1.0 - p.read_share))
}

/// The collector CSV of `days` days of every profile named in `only` (all when empty).
pub fn collector_csv(days: u32, only: &[&str]) -> String {
    let mut out = String::from("Timestamp,ServiceLevel,QoSType,VolumeName,MetricName,Average\n");
    for (k, p) in PROFILES.iter().enumerate() {
        if !only.is_empty() && !only.contains(&p.name) {
            continue;
        }
        let (level, qos) = match k {
            0..=2 => ("Premium", "Auto"),
            3..=5 => ("Ultra", "Manual"),
            _ => ("Standard", "Auto"),
        };
        let mut w = Wobble(k as u64 + 1);
        for minute in (0..days * 1440).step_by(5) {
            let at = format!(
                "2026-11-{:02}T{:02}:{:02}:00Z",
                minute / 1440 + 1,
                (minute / 60) % 24,
                minute % 60
            );
            let (r, wr) = load(p, minute, &mut w);
            let util = (r + wr) / p.qos_mibps;
            let rows = [
                ("ReadThroughput", r * 1_048_576.0),
                ("WriteThroughput", wr * 1_048_576.0),
                ("ReadIops", r * 1024.0 / p.io_kib),
                ("WriteIops", wr * 1024.0 / p.io_kib),
                ("AverageReadLatency", 0.5 + 1.5 * util.powi(4)),
                ("AverageWriteLatency", 0.8 + 1.5 * util.powi(4)),
                ("VolumeConsumedSizePercentage", p.consumed_pct),
            ];
            for (metric, v) in rows {
                writeln!(out, "{at},{level},{qos},{},{metric},{v:.3}", p.name)
                    .expect("writing to a String");
            }
        }
    }
    out
}

/// The same load as the Azure Monitor REST answers of `az monitor metrics list`, one
/// per volume, for `days` days.
pub fn rest_json(days: u32, only: &[&str]) -> serde_json::Value {
    let csv = collector_csv(days, only);
    let mut by: std::collections::BTreeMap<(String, String), Vec<serde_json::Value>> =
        Default::default();
    for line in csv.lines().skip(1) {
        let c: Vec<&str> = line.split(',').collect();
        by.entry((c[3].to_owned(), c[4].to_owned()))
            .or_default()
            .push(serde_json::json!({"timeStamp": c[0], "average": c[5].parse::<f64>().unwrap()}));
    }
    let mut answers: std::collections::BTreeMap<String, Vec<serde_json::Value>> =
        Default::default();
    for ((volume, metric), data) in by {
        let id = format!(
            "/subscriptions/0/resourceGroups/rg-storage/providers/Microsoft.NetApp/netAppAccounts/contoso/capacityPools/p/volumes/{volume}/providers/Microsoft.Insights/metrics/{metric}"
        );
        answers.entry(volume).or_default().push(serde_json::json!({
            "id": id, "type": "Microsoft.Insights/metrics", "name": {"value": metric, "localizedValue": metric},
            "unit": "Unspecified", "timeseries": [{"metadatavalues": [], "data": data}]
        }));
    }
    serde_json::Value::Array(
        answers
            .into_values()
            .map(|value| serde_json::json!({"cost": 0, "interval": "PT5M", "namespace": "Microsoft.NetApp/netAppAccounts/capacityPools/volumes", "resourceregion": "eastus", "value": value}))
            .collect(),
    )
}
