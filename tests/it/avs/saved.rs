//! An AVS plan's cluster saved as a scenario answers the plan's question: the scenario
//! page prints the monthly cost the plan gives on its purchase term and licensing (with
//! portable VCF a licence line of every core at the plan's price), in its currency, and
//! its capacity keeps the plan's free space.

use crate::helpers::spawn_app;
use serde_json::Value;

#[tokio::test]
async fn a_saved_cluster_prints_the_plans_monthly_cost_on_its_term() {
    let app = spawn_app().await;
    let csv = super::vinfo_csv();
    let res = app
        .post_multipart(
            "/avs",
            &[("file", Some("RVTools_tabvInfo.csv"), csv.as_str())],
        )
        .await;
    assert_eq!(res.status(), 303);
    let path = res.headers()["location"].to_str().unwrap().to_owned();
    for (term, key, vcf) in [
        ("3y", "reserved_3y", "included"),
        ("payg", "payg", "included"),
        ("payg", "payg", "portable&vcf_price=410"),
        ("3y", "reserved_3y", "portable"),
    ] {
        let q =
            format!("region=eastus&host_sku=AV36P&level=ultra&growth_pct=10&term={term}&vcf={vcf}");
        let plan = app
            .get_json(&format!("{path}/plan.json?{q}&edition=engineer"))
            .await;
        assert_eq!(plan["clusters"].as_array().unwrap().len(), 1, "{plan}");
        assert_eq!(
            plan["tco"]["hosts_priced"], true,
            "AV36P is priced in East US, with and without licences"
        );
        let planned = plan["tco"]["with_anf"]["monthly"][key].as_f64().unwrap();
        let saved = app.post_pairs(&format!("{path}/save?{q}"), &[]).await;
        assert_eq!(saved.status(), 303);
        let to = saved.headers()["location"].to_str().unwrap().to_owned();
        let id = to.trim_start_matches("/scenarios/");
        let s = app.get_json(&format!("/api/v1/scenarios/{id}")).await;
        let s = s.get("scenario").unwrap_or(&s).clone();
        let wanted = if term == "payg" { "none" } else { term };
        assert_eq!(s["pricing"]["reservation"], wanted, "{s}");
        assert_eq!(s["pricing"]["currency"], plan["tco"]["currency"]);
        let quota: f64 = s["storage"]["volumes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["quota_tib"].as_f64().unwrap() * v["count"].as_f64().unwrap())
            .sum();
        // The capacity holds the VMs' use with 20 % of each datastore kept free.
        let capacity = s["workload"]["capacity_tib"].as_f64().unwrap();
        assert!(
            capacity <= quota + 1e-9 && capacity > 0.0,
            "{capacity} {quota}"
        );
        let e: Value = app
            .post_json("/api/v1/evaluate", &s)
            .await
            .json()
            .await
            .unwrap();
        let monthly = e["cost"]["monthly_usd"].as_f64().unwrap();
        assert!(
            (monthly - planned).abs() < 0.005,
            "{term} {vcf}: the scenario costs {monthly}, the plan {planned}: {s} {}",
            e["cost"]
        );
        // The licence line: every core at the plan's price per core per year / 12.
        let licence = e["cost"]["lines"].as_array().unwrap().iter().find(|l| {
            l["item"]
                .as_str()
                .unwrap()
                .starts_with("VMware Cloud Foundation")
        });
        let planned_licence = plan["tco"]["with_anf"]["licence_monthly"][key]
            .as_f64()
            .unwrap();
        if vcf == "included" {
            assert!(licence.is_none(), "{}", e["cost"]);
            assert_eq!(planned_licence, 0.0);
            assert_eq!(s["clients"]["avs"]["vcf"]["licensing"], "included");
        } else {
            let l = licence.unwrap_or_else(|| panic!("a licence line: {}", e["cost"]));
            let cores = plan["tco"]["with_anf"]["cores"].as_f64().unwrap();
            assert_eq!(l["quantity"].as_f64().unwrap(), cores, "{l}");
            let per_core = if vcf == "portable" { 350.0 } else { 410.0 };
            let by_hand = cores * per_core / 12.0;
            assert!(
                (l["monthly"].as_f64().unwrap() - by_hand).abs() < 0.005,
                "{l}"
            );
            assert!(
                (planned_licence - by_hand).abs() < 0.005,
                "{planned_licence}"
            );
            assert_eq!(s["clients"]["avs"]["vcf"]["licensing"], "portable");
        }
        for row in e["sizing"].as_array().unwrap() {
            if row["meets"] == true {
                assert!(
                    row["quota_tib"].as_f64().unwrap() >= capacity - 1e-9,
                    "{row}"
                );
            }
        }
        // The scenario page prints the plan's figure.
        let page = app.get_text(&to).await;
        let printed = page
            .split("<dd id=\"kpi-monthly\">")
            .nth(1)
            .and_then(|t| t.split("</dd>").next())
            .expect("the monthly figure");
        let figure = volplan::format::money(planned, "USD");
        assert!(printed.contains(&figure), "{printed} vs {figure}");
    }
    app.stop().await;
}
