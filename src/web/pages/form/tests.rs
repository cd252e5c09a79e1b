use super::parse::{parse, parse_number};
use super::*;
use crate::web::scenario_templates::TEMPLATES;

fn pairs(form: &FormState) -> Vec<(String, String)> {
    form.values
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

#[test]
fn every_template_survives_the_form_round_trip() {
    for t in TEMPLATES {
        let s = t.scenario();
        let form = FormState::from_scenario(&s);
        // Browsers do not send unticked checkboxes.
        let sent: Vec<_> = pairs(&form)
            .into_iter()
            .filter(|(k, v)| {
                !(v.is_empty()
                    && matches!(
                        k.as_str(),
                        "clients.avs"
                            | "clients.smb_multichannel"
                            | "workload.metadata_heavy"
                            | "storage.cool_access"
                            | "storage.fixed_count"
                    ))
            })
            .collect();
        let (back, parsed) = parse(&sent, crate::engine::pricing::book());
        assert!(!back.has_errors(), "{}: {:?}", t.key, back.errors());
        assert_eq!(parsed.as_ref(), Some(&s), "{}", t.key);
    }
}

#[test]
fn platform_fields_survive_the_form_round_trip() {
    use crate::engine::scenario::{CoolAccess, Protocol, Sec, SmbSecurity, VolumeKind};
    let oracle = crate::web::scenario_templates::find("oracle-dnfs").unwrap();
    let mut secured = oracle.scenario();
    secured.storage.volume_kind = VolumeKind::Breakthrough;
    // Breakthrough volumes start at 2,400 GiB: the 1 TiB log volumes grow.
    secured.storage.volumes[1].quota_tib = 4.0;
    secured.storage.cool_access = Some(CoolAccess {
        cool_data_pct: 60.0,
        cool_read_pct: 5.0,
        retrieved_pct_per_month: Some(15.0),
    });
    secured.clients.protocol = Protocol::Nfsv41;
    secured.clients.sec = Sec::Krb5;
    secured.workload.cached_read_pct = 40.0;
    let mut avs = find_template("avs-datastores");
    if let Some(a) = avs.clients.avs.as_mut() {
        a.cluster_hosts = Some(12);
    }
    let mut smb = find_template("azure-files-smb-multichannel");
    smb.clients.smb_security = SmbSecurity::Encryption;
    for s in [secured, avs, smb] {
        crate::engine::check(&s, crate::engine::pricing::book()).unwrap();
        let form = FormState::from_scenario(&s);
        // Browsers send no unticked checkbox; empty inputs mean none.
        let sent: Vec<_> = pairs(&form)
            .into_iter()
            .filter(|(_, v)| !v.is_empty())
            .collect();
        let (back, parsed) = parse(&sent, crate::engine::pricing::book());
        assert!(!back.has_errors(), "{}: {:?}", s.name, back.errors());
        assert_eq!(parsed.as_ref(), Some(&s), "{}", s.name);
    }
}

fn find_template(key: &str) -> Scenario {
    crate::web::scenario_templates::find(key)
        .unwrap()
        .scenario()
}

#[test]
fn empty_and_bad_numbers_get_a_message_per_field() {
    let s = TEMPLATES[0].scenario();
    let mut sent = pairs(&FormState::from_scenario(&s));
    for (k, v) in sent.iter_mut() {
        match k.as_str() {
            "workload.io_size_kib" => *v = String::new(),
            "workload.threads" => *v = "many".into(),
            "storage.volumes[0].quota_tib" => *v = "1,5".into(),
            _ => {}
        }
    }
    let (form, parsed) = parse(&sent, crate::engine::pricing::book());
    assert!(parsed.is_none());
    assert_eq!(form.error("workload.io_size_kib"), Some("enter a number"));
    assert!(
        form.error("workload.threads")
            .unwrap()
            .contains("whole number")
    );
    assert!(
        form.error("storage.volumes[0].quota_tib")
            .unwrap()
            .contains("point")
    );
    // What was typed is kept.
    assert_eq!(form.value("workload.threads"), "many");
}

#[test]
fn validation_errors_land_on_the_named_input() {
    let s = TEMPLATES[0].scenario();
    let mut sent = pairs(&FormState::from_scenario(&s));
    for (k, v) in sent.iter_mut() {
        if k == "workload.read_pct" {
            *v = "140".into();
        }
    }
    let (form, parsed) = parse(&sent, crate::engine::pricing::book());
    assert!(parsed.is_none());
    assert!(
        form.error("workload.read_pct")
            .unwrap()
            .contains("0 to 100")
    );
}

#[test]
fn separators_are_accepted_and_blank_groups_dropped() {
    assert_eq!(parse_number("1,024").unwrap(), 1024.0);
    assert_eq!(parse_number("1 024.5").unwrap(), 1024.5);
    assert_eq!(parse_number("0.5").unwrap(), 0.5);
    assert!(parse_number("NaN").is_err());
    assert!(parse_number("inf").is_err());
    assert!(parse_number("12,34").is_err());

    let s = TEMPLATES[1].scenario();
    let mut sent = pairs(&FormState::from_scenario(&s));
    sent.push(("storage.volumes[7].count".into(), String::new()));
    sent.push(("storage.volumes[7].quota_tib".into(), String::new()));
    let (form, parsed) = parse(&sent, crate::engine::pricing::book());
    assert_eq!(parsed.unwrap().storage.volumes.len(), 2);
    assert_eq!(form.groups.len(), 2);
}

#[test]
fn sparse_groups_are_renumbered() {
    let s = TEMPLATES[0].scenario();
    let mut sent: Vec<_> = pairs(&FormState::from_scenario(&s))
        .into_iter()
        .filter(|(k, _)| !k.starts_with("storage.volumes"))
        .collect();
    sent.push(("storage.volumes[2].count".into(), "20".into()));
    sent.push(("storage.volumes[2].quota_tib".into(), "4".into()));
    let (form, parsed) = parse(&sent, crate::engine::pricing::book());
    let parsed = parsed.unwrap();
    assert_eq!(parsed.storage.volumes[0].count, 20);
    assert_eq!(form.value("storage.volumes[0].count"), "20");
}

#[test]
fn a_tool_form_reads_numbers_and_keeps_what_was_typed() {
    let mut form = FormState::of_values([
        ("growth".to_owned(), "1,000".to_owned()),
        ("count".to_owned(), "2.5".to_owned()),
        ("free".to_owned(), "abc".to_owned()),
        ("growth".to_owned(), "7".to_owned()),
    ]);
    form.default_value("free", "20");
    form.default_value("years", "3");
    assert_eq!(form.number("growth"), Some(1000.0), "the first of a name");
    assert_eq!(form.number("empty"), None);
    assert!(!form.has_errors());
    assert_eq!(form.whole("count"), None);
    assert_eq!(form.number("free"), None);
    assert_eq!(form.whole("years"), Some(3));
    assert!(form.error("count").unwrap().contains("whole number"));
    assert!(form.error("free").unwrap().contains("\"abc\""));
    assert_eq!(form.value("free"), "abc", "what was typed stays");
}
