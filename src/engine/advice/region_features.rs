//! Region feature checks: an ANF scenario that asks its region for what the region data
//! says it lacks (the Flexible level, large volumes or breakthrough mode, cool access,
//! AVS datastores, a replication pair) gets a warning naming the field and the nearest
//! regions that offer it. A warning, not a refusal: the data can lag the service.

use super::{Advice, Message, Severity};
use crate::engine::plan::Plan;
use crate::engine::pricing;
use crate::engine::regions::{self, Feature};
use crate::engine::scenario::{Level, Replication, Service, VolumeKind};
use arrayvec::ArrayVec;

/// Code of the warnings.
const CODE: &str = "region_feature";
/// Code of the note that the region data does not list the scenario's region.
const UNLISTED: &str = "region_unlisted";
/// The field of a replication pair warning.
const REPLICATION_FIELD: &str = "data_protection.replication_region";

/// Adds the checks of plan `p`, priced in `region` (the price book's key), to `out`.
pub fn advise(p: &Plan, region: &'static str, out: &mut Vec<Advice>) {
    if p.service != Service::Anf {
        return;
    }
    let features = asked(p);
    let pair = replication_to(p);
    if features.is_empty() && pair.is_none() {
        return;
    }
    let Some(r) = regions::get(region) else {
        out.push(Advice {
            code: UNLISTED,
            severity: Severity::Info,
            field: Some("region"),
            message: Message::RegionUnlisted {
                name: name_of(region),
            },
        });
        return;
    };
    let warn = |field, message| Advice {
        code: CODE,
        severity: Severity::Warn,
        field: Some(field),
        message,
    };
    for feature in features {
        if r.offers(feature) == Some(false) {
            out.push(warn(
                feature.field(),
                Message::RegionLacks { feature, region: r },
            ));
        }
    }
    if let Some(to) = pair
        && !r.replicates_to(to)
    {
        out.push(warn(
            REPLICATION_FIELD,
            Message::ReplicationPair {
                from: r,
                to: name_of(to),
            },
        ));
    }
}

/// The region features the plan asks for.
fn asked(p: &Plan) -> ArrayVec<Feature, 4> {
    let mut out = ArrayVec::new();
    if p.level == Level::Flexible {
        out.push(Feature::Flexible);
    }
    match p.kind {
        VolumeKind::Regular => {}
        VolumeKind::Large => out.push(Feature::LargeVolumes),
        VolumeKind::Breakthrough => out.push(Feature::Breakthrough),
    }
    if p.cool.is_some() {
        out.push(Feature::CoolAccess);
    }
    if p.avs.is_some() {
        out.push(Feature::AvsDatastore);
    }
    out
}

/// The price book's key of the region the plan replicates to, if it replicates.
fn replication_to(p: &Plan) -> Option<&'static str> {
    let d = p.protection?;
    if d.replication == Replication::None {
        return None;
    }
    pricing::anf_region(d.replication_region.as_deref()?)
}

/// The region `key` as the region data names it, else as the price book does.
fn name_of(key: &'static str) -> &'static str {
    regions::get(key)
        .map(|r| r.name.as_str())
        .unwrap_or_else(|| pricing::book().region_name(key))
}

#[cfg(test)]
mod tests {
    use crate::engine::advice::{Advice, Severity};
    use crate::engine::{Scenario, evaluate};
    use serde_json::json;

    /// An ANF scenario in `region` with `storage` fields and `extra` top-level fields.
    fn region_advice(
        region: &str,
        storage: serde_json::Value,
        extra: serde_json::Value,
    ) -> Vec<Advice> {
        let mut s = json!({
            "region": region,
            "workload": {"io_size_kib": 64, "read_pct": 70, "capacity_tib": 80},
            "storage": {"service": "anf", "level": "premium",
                        "volumes": [{"count": 1, "quota_tib": 80}]},
            "clients": {"count": 2, "vm_size": "Standard_E32s_v5", "protocol": "nfsv3"}
        });
        for (k, v) in storage.as_object().unwrap() {
            s["storage"][k] = v.clone();
        }
        for (k, v) in extra.as_object().unwrap() {
            s[k] = v.clone();
        }
        let s: Scenario = serde_json::from_value(s).expect("test scenario parses");
        evaluate(&s)
            .expect("evaluates")
            .advice
            .into_iter()
            .filter(|a| a.code.starts_with("region_"))
            .collect()
    }

    fn fields(advice: &[Advice]) -> Vec<&'static str> {
        advice.iter().filter_map(|a| a.field).collect()
    }

    #[test]
    fn breakthrough_where_there_are_no_large_volumes_warns_on_the_volume_kind() {
        let a = region_advice(
            "southindia",
            json!({"volume_kind": "breakthrough"}),
            json!({}),
        );
        assert_eq!(fields(&a), ["storage.volume_kind"]);
        assert_eq!(
            (a[0].code, a[0].severity),
            ("region_feature", Severity::Warn)
        );
        let text = a[0].message.to_string();
        assert!(
            text.starts_with("Breakthrough mode volumes are not offered in South India")
                && text.contains("(ANF region map, 2026-05-08)")
                && text.contains("Regions near it with large volumes: Central India, "),
            "{text}"
        );
        // Large volumes there: breakthrough mode's regions are not published, no warning.
        assert!(
            region_advice(
                "westeurope",
                json!({"volume_kind": "breakthrough"}),
                json!({})
            )
            .is_empty()
        );
        assert!(region_advice("southindia", json!({}), json!({})).is_empty());
    }

    #[test]
    fn flexible_large_volumes_and_avs_datastores() {
        let mut a = region_advice(
            "newzealandnorth",
            json!({"level": "flexible", "qos": "manual", "volume_kind": "large",
                   "volumes": [{"count": 4, "quota_tib": 50, "throughput_mibps": 1000}]}),
            json!({}),
        );
        assert_eq!(fields(&a), ["storage.level", "storage.volume_kind"]);
        let text = a.remove(0).message.to_string();
        assert!(
            text.starts_with("The Flexible service level is not offered in New Zealand North (ANF region map, 2026-05-08). Regions near it that offer it: Australia East, "),
            "{text}"
        );
        let a = region_advice(
            "uaenorth",
            json!({"volumes": [{"count": 4, "quota_tib": 20}]}),
            json!({"clients": {"count": 1, "protocol": "nfsv3", "avs": {"hosts": 3}}}),
        );
        assert_eq!(fields(&a), ["clients.avs"]);
        let text = a[0].message.to_string();
        assert!(
            text.starts_with("Azure NetApp Files datastores for AVS are not offered in UAE North"),
            "{text}"
        );
    }

    #[test]
    fn cool_access_is_offered_in_every_listed_region() {
        let cool = json!({"cool_access": {"cool_data_pct": 80, "cool_read_pct": 5}});
        for region in crate::engine::regions::map().regions.keys() {
            assert!(
                region_advice(region, cool.clone(), json!({})).is_empty(),
                "{region}"
            );
        }
    }

    #[test]
    fn replication_to_a_region_that_is_not_a_partner() {
        let to = |r: &str| json!({"data_protection": {"replication": "hourly", "replication_region": r}});
        let a = region_advice("westeurope", json!({}), to("eastus"));
        assert_eq!(fields(&a), ["data_protection.replication_region"]);
        assert_eq!(
            a[0].message.to_string(),
            "Cross-region replication from West Europe to East US is not a supported region pair (ANF region map, 2026-05-08); West Europe replicates to Germany West Central, France Central, North Europe, Sweden Central and Qatar Central."
        );
        assert!(region_advice("westeurope", json!({}), to("northeurope")).is_empty());
        let none = region_advice("southafricanorth", json!({}), to("westeurope"));
        assert!(
            none[0]
                .message
                .to_string()
                .ends_with(": South Africa North has no replication partner region.")
        );
    }

    #[test]
    fn a_region_the_data_does_not_list_is_not_checked() {
        let a = region_advice("mexicocentral", json!({"volume_kind": "large"}), json!({}));
        assert_eq!(fields(&a), ["region"]);
        assert_eq!(
            (a[0].code, a[0].severity),
            ("region_unlisted", Severity::Info)
        );
        assert!(
            a[0].message
                .to_string()
                .starts_with("Mexico Central is not in the ANF region map data (2026-05-08)")
        );
        // Nothing asked, nothing said.
        assert!(region_advice("mexicocentral", json!({}), json!({})).is_empty());
    }

    #[test]
    fn other_services_are_not_checked_against_the_anf_data() {
        let s: Scenario = serde_json::from_value(json!({
            "region": "newzealandnorth",
            "workload": {"io_size_kib": 64, "read_pct": 70, "capacity_tib": 10},
            "storage": {"service": "gcnv", "level": "premium", "volume_kind": "large",
                        "volumes": [{"count": 1, "quota_tib": 20}]},
            "clients": {"count": 2, "vm_size": "Standard_E32s_v5", "protocol": "nfsv3"}
        }))
        .unwrap();
        let ev = evaluate(&s).unwrap();
        assert!(ev.advice.iter().all(|a| !a.code.starts_with("region_")));
    }
}
