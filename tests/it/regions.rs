//! Region feature checks over HTTP: a scenario that asks its region for what the ANF
//! region map says it lacks gets a warning naming the field (not a refusal), and the
//! regions list says what each region offers.

use crate::helpers::{sample_scenario, spawn_app};
use serde_json::{Value, json};

/// One 80 TiB Premium volume of `kind` on one VM in `region`.
fn volume_in(region: &str, kind: &str) -> Value {
    let mut s = sample_scenario();
    s["clients"]["avs"] = Value::Null;
    s["storage"]["level"] = json!("premium");
    s["storage"]["volume_kind"] = json!(kind);
    s["storage"]["volumes"] = json!([{"count": 1, "quota_tib": 80}]);
    s["region"] = json!(region);
    s
}

/// The region advice of an evaluation (status 200).
async fn region_advice(app: &crate::helpers::TestApp, s: &Value) -> Vec<Value> {
    let res = app.post_json("/api/v1/evaluate", s).await;
    assert_eq!(res.status(), 200, "{s}");
    let e: Value = res.json().await.unwrap();
    e["advice"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["code"].as_str().unwrap().starts_with("region_"))
        .cloned()
        .collect()
}

#[tokio::test]
async fn breakthrough_where_the_region_lacks_it_is_a_warning_on_the_field() {
    let app = spawn_app().await;
    let advice = region_advice(&app, &volume_in("southindia", "breakthrough")).await;
    assert_eq!(advice.len(), 1, "{advice:?}");
    let a = &advice[0];
    assert_eq!(a["code"], json!("region_feature"));
    assert_eq!(a["severity"], json!("warn"));
    assert_eq!(a["field"], json!("storage.volume_kind"));
    let text = a["message"].as_str().unwrap();
    assert!(
        text.contains("not offered in South India") && text.contains("ANF region map, 2026-05-08"),
        "{text}"
    );
    // The same volume where large volumes are offered: no warning.
    assert!(
        region_advice(&app, &volume_in("westeurope", "breakthrough"))
            .await
            .is_empty()
    );
    // Large volumes alone in South India: the same field, its own sentence.
    let large = region_advice(&app, &volume_in("southindia", "large")).await;
    assert_eq!(large[0]["field"], json!("storage.volume_kind"));
    assert!(
        large[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("Large volumes are not offered in South India")
    );
}

#[tokio::test]
async fn replication_to_a_region_that_is_not_a_pair_is_a_warning() {
    let app = spawn_app().await;
    let mut s = volume_in("westeurope", "regular");
    s["data_protection"] = json!({"replication": "hourly", "replication_region": "eastus"});
    let advice = region_advice(&app, &s).await;
    assert_eq!(advice.len(), 1, "{advice:?}");
    assert_eq!(
        advice[0]["field"],
        json!("data_protection.replication_region")
    );
    s["data_protection"]["replication_region"] = json!("northeurope");
    assert!(region_advice(&app, &s).await.is_empty());
}

#[tokio::test]
async fn regions_list_what_each_region_offers() {
    let app = spawn_app().await;
    let list: Value = app.get("/api/v1/regions").await.json().await.unwrap();
    let find = |key: &str| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|r| r["region"] == key)
            .unwrap_or_else(|| panic!("{key} listed"))
            .clone()
    };
    let east = find("eastus");
    // What is priced there, as before.
    assert_eq!(east["features"]["flexible"], json!(true));
    let offered = &east["offered"];
    assert_eq!(offered["flexible"], json!(true));
    assert_eq!(offered["large_volumes"], json!(true));
    assert_eq!(offered["breakthrough"], Value::Null);
    assert_eq!(offered["cool_access"], json!(true));
    assert_eq!(offered["avs_datastore"], json!(true));
    assert!(
        offered["replication_regions"]
            .as_array()
            .unwrap()
            .contains(&json!("westus"))
    );
    assert_eq!(offered["as_of"], json!("2026-05-08"));
    let south_india = find("southindia");
    assert_eq!(south_india["offered"]["large_volumes"], json!(false));
    assert_eq!(south_india["offered"]["breakthrough"], json!(false));
    let nz = find("newzealandnorth");
    assert_eq!(nz["offered"]["flexible"], json!(false));
    // Priced, but not in the region data: nothing claimed.
    assert_eq!(find("mexicocentral")["offered"], Value::Null);
}
