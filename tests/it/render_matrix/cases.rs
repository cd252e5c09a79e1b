//! The scenarios of the render matrix: the starter templates, the boundary scenarios
//! (the largest estates the API accepts, the smallest and largest workloads) and one
//! scenario per class of Unicode text a name may hold; and the names it refuses.

use crate::helpers::sample_scenario;
use serde_json::{Value, json};
use volplan::engine::scenario::{MAX_AVS_HOSTS, MAX_VOLUMES};

/// One scenario to save and render.
pub struct Case {
    /// What the case covers, for failure messages.
    pub label: String,
    pub scenario: Value,
    /// The currency every money figure of its reports is in.
    pub currency: &'static str,
    /// True when the book in force prices it, so its reports must show money.
    pub priced: bool,
}

impl Case {
    fn new(label: &str, scenario: Value) -> Case {
        Case {
            label: label.to_owned(),
            scenario,
            currency: "USD",
            priced: false,
        }
    }

    /// The same scenario priced in euros (from the prices of [`EUR_SHEET`]).
    pub fn in_euros(mut self) -> Case {
        self.scenario["pricing"] = json!({ "currency": "EUR" });
        self.label.push_str(" in EUR");
        self.currency = "EUR";
        self.priced = true;
        self
    }

    /// Volumes in all groups.
    pub fn volume_count(&self) -> u64 {
        self.scenario["storage"]["volumes"]
            .as_array()
            .map_or(0, |groups| {
                groups.iter().filter_map(|g| g["count"].as_u64()).sum()
            })
    }

    /// The scenario's name, as the reports must show it.
    pub fn name(&self) -> &str {
        self.scenario["name"].as_str().unwrap_or_default()
    }
}

/// A price sheet in euros for every service and level of the starter templates, in
/// each service's reference region (where a scenario without a region is priced).
pub const EUR_SHEET: &str = "service,level,region,meter,unit,price,currency,valid_as_of,source
anf,standard,eastus,capacity,GiB-month,0.136,EUR,2026-06-01,negotiated rates
anf,premium,eastus,capacity,GiB-month,0.272,EUR,2026-06-01,negotiated rates
anf,ultra,eastus,capacity,GiB-month,0.363,EUR,2026-06-01,negotiated rates
avs,AV36,eastus,host,hour,7.9,EUR,2026-06-01,negotiated rates
azure_files,ssd_v1,swedencentral,capacity,GiB-month,0.16,EUR,2026-06-01,negotiated rates
gcnv,extreme,us-central1,capacity,GiB-month,0.33,EUR,2026-06-01,negotiated rates
";

/// Every starter template, as the home page offers it.
pub fn templates() -> Vec<Case> {
    volplan::web::scenario_templates::TEMPLATES
        .iter()
        .map(|t| {
            let scenario = serde_json::to_value(t.scenario()).expect("a template serialises");
            Case::new(&format!("template {}", t.key), scenario)
        })
        .collect()
}

/// An ANF scenario without AVS: `clients` VMs of `vm_size` over NFSv3.
fn anf(name: &str, level: &str, volumes: Value, capacity_tib: f64) -> Value {
    let mut s = sample_scenario();
    s["name"] = json!(name);
    s["workload"]["capacity_tib"] = json!(capacity_tib);
    s["workload"]["read_pct"] = json!(80);
    s["workload"]["access"] = json!("random");
    s["storage"]["level"] = json!(level);
    s["storage"]["volumes"] = volumes;
    s["clients"]["avs"] = Value::Null;
    s["clients"]["count"] = json!(16);
    s["clients"]["vm_size"] = json!("Standard_D16s_v5");
    s
}

/// The contract's AVS example with `datastores` x `quota_tib` TiB on `hosts` AV36 hosts.
fn avs(name: &str, datastores: u32, quota_tib: f64, hosts: u32) -> Value {
    let mut s = sample_scenario();
    s["name"] = json!(name);
    s["workload"]["capacity_tib"] = json!(f64::from(datastores) * quota_tib);
    s["storage"]["volumes"] = json!([{ "count": datastores, "quota_tib": quota_tib }]);
    s["clients"]["avs"]["hosts"] = json!(hosts);
    s
}

/// The largest estates the API accepts, and the extremes of the workload.
///
/// Every figure of the issue is within what `Scenario::validate` accepts (1,024
/// volumes is `MAX_VOLUMES`, 16 hosts `MAX_AVS_HOSTS`, a volume quota goes to 2,048
/// TiB), so none is reduced.
pub fn boundaries() -> Vec<Case> {
    let volumes = MAX_VOLUMES;
    let mut smb = anf(
        "1,024 Azure Files shares over SMB",
        "ssd_v1",
        json!([{ "count": volumes, "quota_tib": 1 }]),
        1024.0,
    );
    smb["storage"]["service"] = json!("azure_files");
    smb["clients"]["protocol"] = json!("smb3");
    smb["clients"]["smb_multichannel"] = json!(true);

    // 16 groups of 64 volumes, 1 to 16 TiB each, manual QoS with a throughput per group.
    let groups: Vec<Value> = (1..=16)
        .map(|i| json!({ "count": 64, "quota_tib": i, "throughput_mibps": 64 * i }))
        .collect();
    let mut sixteen = anf(
        "16 volume groups of 64 volumes",
        "premium",
        json!(groups),
        64.0 * 136.0,
    );
    sixteen["storage"]["qos"] = json!("manual");

    let mut datastores = avs("AVS 16 hosts x 64 datastores", 64, 4.0, MAX_AVS_HOSTS);
    datastores["clients"]["avs"]["vms_per_host"] = json!(16);
    datastores["clients"]["avs"]["vmdks_per_vm"] = json!(8);
    datastores["clients"]["avs"]["placement"] = json!("spread");
    datastores["clients"]["avs"]["nconnect"] = json!(4);

    let mut large = anf(
        "1,024 TiB in one large volume",
        "ultra",
        json!([{ "count": 1, "quota_tib": 1024 }]),
        1024.0,
    );
    large["storage"]["volume_kind"] = json!("large");
    large["workload"]["access"] = json!("sequential");
    large["workload"]["io_size_kib"] = json!(256);

    vec![
        Case::new(
            "1,024 volumes",
            anf(
                "1,024 volumes",
                "premium",
                json!([{ "count": volumes, "quota_tib": 1 }]),
                1024.0,
            ),
        ),
        Case::new("1,024 SMB shares", smb),
        Case::new("16 volume groups", sixteen),
        Case::new("AVS 16 hosts x 64 datastores", datastores),
        Case::new("1,024 TiB", large),
        Case::new("8 x 20 TiB AVS", avs("AVS 8 x 20 TiB Ultra", 8, 20.0, 4)),
        Case::new("smallest workload", smallest()),
        Case::new("largest workload", largest()),
        Case::new("smallest rates", smallest_rates()),
    ]
}

/// The smallest network limits the schema accepts (0.001 MiB/s each way) on GCNV Flex
/// over SMB: every rate is near zero.
fn smallest_rates() -> Value {
    json!({
        "name": "Smallest rates",
        "workload": { "io_size_kib": 0.5, "read_pct": 0.001, "capacity_tib": 0.001 },
        "storage": { "service": "gcnv", "level": "flex", "volumes": [{ "count": 1, "quota_tib": 0.001 }] },
        "clients": { "protocol": "smb3", "egress_mibps": 0.001, "ingress_mibps": 0.001 }
    })
}

/// Every lower bound of the contract at once (a capacity just above 0); the volume is
/// ANF's smallest (50 GiB).
fn smallest() -> Value {
    json!({
        "name": "Smallest",
        "workload": { "io_size_kib": 0.5, "read_pct": 0, "access": "random", "threads": 1,
                      "queue_depth": 1, "capacity_tib": 0.001 },
        "storage": { "service": "anf", "level": "standard",
                     "volumes": [{ "count": 1, "quota_tib": 0.048828125 }] },
        "clients": { "count": 1, "vm_size": "Standard_D2s_v5", "protocol": "nfsv3" }
    })
}

/// Every upper bound of the workload and the clients, with targets at their maximum,
/// on 1,024 of ANF's largest volumes (1 PiB each).
fn largest() -> Value {
    json!({
        "name": "Largest",
        "workload": { "io_size_kib": 16384, "read_pct": 100, "access": "sequential",
                      "threads": 1024, "queue_depth": 1024, "capacity_tib": 1000000,
                      "target_mibps": 10000000, "target_iops": 1000000000,
                      "target_latency_ms": 100000 },
        "storage": { "service": "anf", "level": "ultra", "volume_kind": "large",
                     "volumes": [{ "count": 1024, "quota_tib": 1024 }] },
        "clients": { "count": 100000, "vm_size": "Standard_E104id_v5", "protocol": "nfsv3",
                     "nconnect": 16 }
    })
}

/// One name per class of text the API accepts (anything but control characters and
/// noncharacters, at most 200 characters).
pub fn names() -> Vec<Case> {
    let classes: [(&str, String); 14] = [
        ("Latin letters", "Ærøskøbing Łódź Straße Ñandú Œuvre".into()),
        ("Greek and Cyrillic", "Ελληνικά Κυριλλικά Кириллица Ўзбек".into()),
        (
            "combining marks",
            "e\u{301}\u{302} a\u{308}\u{330} Z\u{337}\u{322}\u{34e}a\u{334}l\u{336}g\u{338}o\u{335}".into(),
        ),
        ("CJK", "容量計画 数据存储 파일 저장소 𠀋𡈽".into()),
        ("Arabic (RTL)", "تخطيط السعة ١٢٣".into()),
        ("Hebrew (RTL) in Latin", "Volume תכנון קיבולת 20 TiB".into()),
        (
            "bidirectional controls",
            "abc\u{202e}cba\u{202c} \u{2067}شبكة\u{2069} \u{200f}x\u{200e}".into(),
        ),
        (
            "emoji",
            "📦 💾 🚀 👍🏽 1️⃣ 👩\u{200d}💻 👨\u{200d}👩\u{200d}👧\u{200d}👦 🇩🇪🇯🇵 🏳️\u{200d}🌈".into(),
        ),
        ("symbols", "∑ ∞ ≤ ≥ € £ ¥ ₿ © ® ™ ° µ ½ → ⇒ ✓ ★ ♫ ⚠ ⌘".into()),
        (
            "punctuation",
            "«quotes» „German“ ‘single’ — – … · ¿¡ § ¶ † ‡ ‰ ‼ ⁂".into(),
        ),
        (
            "whitespace and invisible characters",
            " a\u{a0}b\u{2002}c\u{2003}d\u{2009}e\u{200a}f\u{3000}g\u{202f}h\u{205f}i\u{1680}j\u{2028}k\u{2029}l\u{200b}m\u{200c}n\u{2060}o\u{feff}p\u{ad}q ".into(),
        ),
        (
            "XML, HTML, Markdown and formula syntax",
            "<b>&amp;</b> <&>\"' ]]> <!-- --> &#0; _x0041_ {{ x }} ${x} *_`|#[a](b) =1+1".into(),
        ),
        ("private use and unassigned", "\u{e000}\u{f8ff}\u{f0000} \u{378}\u{e0001}".into()),
        ("200 characters", "🚀".repeat(100) + &"é".repeat(100)),
    ];
    classes
        .into_iter()
        .map(|(class, name)| {
            let mut s = sample_scenario();
            s["name"] = json!(name);
            Case::new(&format!("name: {class}"), s)
        })
        .collect()
}

/// Names the API refuses (422 on `name`): one per refused class.
pub fn refused_names() -> Vec<(&'static str, String)> {
    vec![
        ("NUL", "bad\u{0}name".into()),
        ("tab", "a\tb".into()),
        ("line feed", "a\nb".into()),
        ("carriage return", "a\rb".into()),
        ("escape", "a\u{1b}[31mred".into()),
        ("delete", "a\u{7f}b".into()),
        ("C1 control", "a\u{85}b\u{9b}c".into()),
        ("noncharacter U+FFFE", "a\u{fffe}b".into()),
        ("noncharacter U+FFFF", "a\u{ffff}b".into()),
        ("noncharacter U+FDD0", "a\u{fdd0}b".into()),
        ("noncharacter U+10FFFF", "a\u{10ffff}b".into()),
        ("201 characters", "é".repeat(201)),
    ]
}
