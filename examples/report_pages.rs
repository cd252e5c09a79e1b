//! Writes the customer edition of the four example reports (a scenario's sizing, the
//! same with two scenarios compared, an AVS plan and an estate) as PDF into the
//! directory given, for `tools/report_pages.sh` to turn into the page images of `docs/`.
//!
//! `cargo run --example report_pages -- OUT_DIR [engineer]`

use std::path::Path;
use volplan::avs as avs_plan;
use volplan::engine::{self, Scenario, pricing};
use volplan::estate::{self, EstateRequest};
use volplan::inventory::{self, CapacityBasis, Options};
use volplan::report::avs::PlanDoc;
use volplan::report::model::Report;
use volplan::report::{self, Edition, Format, RenderOptions};
use volplan::web::scenario_templates::TEMPLATES;

/// The date printed on the examples, so regenerated pages differ only where the
/// reports do.
const DATE: &str = "2026-01-15";

/// The contract's example scenario, with who it is for.
fn example() -> Scenario {
    let text = include_str!("../tests/fixtures/report/contract.json");
    let mut v: serde_json::Value = serde_json::from_str(text).expect("contract.json");
    v["meta"] = serde_json::json!({
        "customer": "Contoso Rendering Ltd",
        "project": "Render farm refresh 2027",
        "author": "Dana Architect",
        "notes": "Sized for the spring release."
    });
    serde_json::from_value(v).expect("the contract's scenario")
}

/// A vSphere inventory of 60 VMs as an RVTools vInfo CSV.
fn vinfo() -> String {
    let mut s = "VM,Powerstate,Template,CPUs,Memory,Provisioned MiB,In Use MiB\n".to_owned();
    for i in 0..60u32 {
        let (cpus, mem, gib) = match i % 4 {
            0 => (8, 65_536, 2_048),
            1 => (4, 16_384, 400),
            2 => (16, 131_072, 4_096),
            _ => (2, 8_192, 120),
        };
        s += &format!(
            "app-{i:03},poweredOn,False,{cpus},{mem},{},{}\n",
            gib * 1024 * 3 / 2,
            gib * 1024
        );
    }
    s
}

/// Each VM's IOPS and MiB/s, as a performance CSV.
fn perf() -> String {
    let mut s = "VM,IOPS,MiB/s\n".to_owned();
    for i in 0..60u32 {
        let mibps = [40, 8, 120, 2][i as usize % 4];
        s += &format!("app-{i:03},{},{mibps}\n", mibps * 16);
    }
    s
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let out = args
        .next()
        .ok_or("usage: report_pages OUT_DIR [engineer]")?;
    let edition = match args.next().as_deref() {
        Some("engineer") => Edition::Engineer,
        _ => Edition::Customer,
    };
    let out = Path::new(&out);
    std::fs::create_dir_all(out).map_err(|e| e.to_string())?;
    let opts = RenderOptions {
        edition,
        ..RenderOptions::default()
    };
    let write = |name: &str, bytes: Vec<u8>| {
        std::fs::write(out.join(name), bytes).map_err(|e| format!("{name}: {e}"))
    };

    let s = example();
    let e = engine::evaluate(&s).map_err(|e| e.to_string())?;
    let r = Report::build(&s, &e, volplan::engine::pricing::book(), DATE);
    write(
        "scenario.pdf",
        report::render(&r, Format::Pdf, opts).map_err(|e| e.to_string())?,
    )?;

    let others: Vec<(Scenario, engine::Evaluation)> = ["anf-large-volume", "gcnv-nconnect-16"]
        .iter()
        .filter_map(|k| TEMPLATES.iter().find(|t| t.key == *k))
        .map(|t| {
            let s = t.scenario();
            let e = engine::evaluate(&s).expect("a template evaluates");
            (s, e)
        })
        .collect();
    let compared = Report::build(&s, &e, volplan::engine::pricing::book(), DATE)
        .with_comparison(&others, volplan::engine::pricing::book())
        .with_layouts(&[1, 2, 4, 8], pricing::book())
        .map_err(|e| e.to_string())?;
    write(
        "compare.pdf",
        report::render(&compared, Format::Pdf, opts).map_err(|e| e.to_string())?,
    )?;

    let mut inv =
        inventory::parse(vinfo().as_bytes(), Options::default()).map_err(|e| e.message)?;
    inventory::perf::merge(
        &mut inv,
        perf().as_bytes(),
        inventory::perf::DEFAULT_PERCENTILE,
    )
    .map_err(|e| e.to_string())?;
    let mut req = avs_plan::PlanRequest::new(inv.clone());
    req.region = Some("northeurope".to_owned());
    req.growth_pct = 20.0;
    let plan = avs_plan::plan(&req, pricing::book()).map_err(|e| e.to_string())?;
    let verdict = volplan::verdict::avs::verdict(&plan, Default::default());
    let doc = PlanDoc {
        origin: "vinfo.csv",
        inventory: &inv,
        basis: CapacityBasis::InUse,
        plan: &plan,
        date: DATE,
        verdict: &verdict,
    };
    write(
        "avs.pdf",
        report::avs::render(&doc, Format::Pdf, opts).map_err(|e| e.to_string())?,
    )?;

    let request = EstateRequest {
        name: Some("Contoso estate".to_owned()),
        workloads: ["sap-hana", "oracle-dnfs", "anf-large-volume"]
            .iter()
            .filter_map(|k| TEMPLATES.iter().find(|t| t.key == *k))
            .map(|t| t.scenario())
            .collect(),
        region: Some("eastus".to_owned()),
        years: 3,
        growth_pct_per_year: 30.0,
        ..serde_json::from_str(r#"{"workloads": []}"#).map_err(|e| e.to_string())?
    };
    let p = estate::optimize(&request, pricing::book()).map_err(|e| e.to_string())?;
    write(
        "estate.pdf",
        report::estate::render(
            &p,
            &volplan::verdict::estate::verdict(&p, &request).statements,
            Format::Pdf,
            opts,
            DATE,
        )
        .map_err(|e| e.to_string())?,
    )?;
    Ok(())
}
