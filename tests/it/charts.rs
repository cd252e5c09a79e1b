//! Charts, sweeps, layouts and comparison: SVG structure, PNG size, the 4 x 20 vs
//! 20 x 4 TiB layout question, comparison deltas, and the chart routes.

use crate::helpers::{sample_scenario, spawn_app};
use quick_xml::Reader;
use quick_xml::events::Event;
use serde_json::{Value, json};
use volplan::engine::sweep::{self, Better};
use volplan::engine::{Evaluation, Scenario, evaluate};
use volplan::report::charts::{self, Chart, ChartName, LatencyRun};

fn scenario(v: Value) -> Scenario {
    serde_json::from_value(v).expect("scenario JSON")
}

/// The contract's AVS example: 4 x 20 TiB Ultra on 4 AV36 hosts.
fn avs() -> Scenario {
    scenario(sample_scenario())
}

/// One E104id_v5 VM on an ANF Ultra large volume, NFSv3 (published nconnect series).
fn scale_up(io_kib: f64, access: &str) -> Scenario {
    let mut v = sample_scenario();
    v["name"] = json!("E104id_v5 scale-up");
    v["workload"]["io_size_kib"] = json!(io_kib);
    v["workload"]["access"] = json!(access);
    v["workload"]["capacity_tib"] = json!(101);
    v["workload"]["target_mibps"] = json!(5000);
    v["storage"]["volume_kind"] = json!("large");
    v["storage"]["volumes"] = json!([{ "count": 1, "quota_tib": 101, "throughput_mibps": null }]);
    v["clients"]["vm_size"] = json!("Standard_E104id_v5");
    v["clients"]["avs"] = Value::Null;
    scenario(v)
}

fn smb() -> Scenario {
    scenario(json!({
        "name": "Azure Files SMB multichannel",
        "workload": { "io_size_kib": 64, "read_pct": 100, "threads": 8, "queue_depth": 8, "capacity_tib": 10 },
        "storage": { "service": "azure_files", "level": "ssd_v1", "volumes": [{ "count": 1, "quota_tib": 10 }] },
        "clients": { "vm_size": "Standard_D32s_v3", "protocol": "smb3", "smb_multichannel": true, "smb_channels": 4 }
    }))
}

/// The `<title>` and every `<text>` of an SVG, after checking it parses as XML.
fn svg_texts(svg: &str) -> (String, Vec<String>) {
    let mut reader = Reader::from_str(svg);
    let mut title = String::new();
    let mut texts: Vec<String> = Vec::new();
    let mut current: Option<&'static str> = None;
    let mut root_seen = false;
    loop {
        let piece = match reader.read_event().expect("SVG is well-formed XML") {
            Event::Start(e) => {
                let qname = e.name();
                let name: &str = qname.as_ref();
                if !root_seen {
                    assert_eq!(name, "svg", "root element is <svg>");
                    root_seen = true;
                }
                current = match name {
                    "title" => Some("title"),
                    "text" => {
                        texts.push(String::new());
                        Some("text")
                    }
                    _ => None,
                };
                continue;
            }
            Event::End(_) => {
                current = None;
                continue;
            }
            Event::Text(t) => t.xml10_content().into_owned(),
            Event::GeneralRef(r) => match r.resolve_char_ref().expect("char ref") {
                Some(c) => c.to_string(),
                None => quick_xml::escape::resolve_xml_entity(&r.xml10_content())
                    .expect("a predefined entity")
                    .to_owned(),
            },
            Event::Eof => break,
            _ => continue,
        };
        match current {
            Some("title") => title.push_str(&piece),
            Some(_) => texts.last_mut().expect("open text").push_str(&piece),
            None => {}
        }
    }
    assert!(root_seen, "an <svg> element");
    (
        title,
        texts.into_iter().map(|t| t.trim().to_owned()).collect(),
    )
}

/// Tick labels: texts that are plain numbers (thousands separators, optional % sign).
fn numeric_labels(texts: &[String]) -> usize {
    texts
        .iter()
        .filter(|t| {
            let t = t.trim_end_matches('%').replace(',', "");
            !t.is_empty() && t.parse::<f64>().is_ok()
        })
        .count()
}

fn check_svg(svg: &str, units: &[&str]) -> Vec<String> {
    let (title, texts) = svg_texts(svg);
    assert!(!title.trim().is_empty(), "the SVG has a <title>");
    assert!(svg.contains("role=\"img\""));
    assert!(!svg.contains("style="), "no style attributes (CSP)");
    assert!(!svg.contains("<script"), "no script");
    for unit in units {
        assert!(
            texts.iter().any(|t| t.contains(unit)),
            "an axis title with the unit {unit}: {texts:?}"
        );
    }
    assert!(
        numeric_labels(&texts) >= 5,
        "at least five tick labels: {texts:?}"
    );
    texts
}

fn binding_name(e: &Evaluation) -> &'static str {
    e.limits
        .iter()
        .find(|l| l.id == e.binding)
        .expect("the binding limit is listed")
        .label
        .name
}

#[test]
fn ceilings_svg_names_every_limit_and_marks_the_binding_one() {
    for s in [avs(), scale_up(256.0, "sequential"), smb()] {
        let e = evaluate(&s).expect("evaluates");
        let svg = charts::svg(
            ChartName::Ceilings,
            &s,
            &e,
            volplan::engine::pricing::book(),
        )
        .expect("svg");
        let texts = check_svg(&svg, &["MiB/s"]);
        assert!(texts.iter().any(|t| t.contains("binding")), "{texts:?}");
        assert!(
            texts.iter().any(|t| t.contains(binding_name(&e))),
            "{texts:?}"
        );
        assert!(
            texts.iter().any(|t| t.contains("KiB")),
            "IO size in the axis title"
        );
        let table = charts::table(
            ChartName::Ceilings,
            &s,
            &e,
            volplan::engine::pricing::book(),
        )
        .expect("table");
        let finite = e.limits.iter().filter(|l| l.mibps.is_finite()).count();
        assert_eq!(table.rows.len(), finite);
        assert_eq!(
            table
                .rows
                .iter()
                .filter(|r| r[0].contains("(binding)"))
                .count(),
            1
        );
    }
}

#[test]
fn ceilings_svg_draws_the_target() {
    let s = scale_up(256.0, "sequential");
    let e = evaluate(&s).expect("evaluates");
    let svg = charts::svg(
        ChartName::Ceilings,
        &s,
        &e,
        volplan::engine::pricing::book(),
    )
    .expect("svg");
    let (_, texts) = svg_texts(&svg);
    assert!(
        texts.iter().any(|t| t.contains("target 5,000 MiB/s")),
        "{texts:?}"
    );
}

#[test]
fn io_size_svg_has_both_panels_and_the_scenario_marked() {
    let s = avs();
    let e = evaluate(&s).expect("evaluates");
    let svg =
        charts::svg(ChartName::IoSize, &s, &e, volplan::engine::pricing::book()).expect("svg");
    let texts = check_svg(&svg, &["MiB/s", "IOPS", "KiB"]);
    assert!(
        texts.iter().any(|t| t.contains("scenario: 64 KiB")),
        "{texts:?}"
    );
    assert!(
        texts.iter().any(|t| t.contains(binding_name(&e))),
        "binding ceiling in the legend"
    );
    let table =
        charts::table(ChartName::IoSize, &s, &e, volplan::engine::pricing::book()).expect("table");
    assert_eq!(table.rows.len(), 9);
    assert!(table.rows.iter().any(|r| r[0] == "64 (scenario)"));
}

#[test]
fn io_size_sweep_is_consistent_with_evaluate() {
    let s = avs();
    let sw = sweep::io_size(&s, volplan::engine::pricing::book()).expect("sweep");
    let e = evaluate(&s).expect("evaluates");
    let own = sw
        .points
        .iter()
        .find(|p| p.io_size_kib == 64.0)
        .expect("64 KiB");
    assert!((own.throughput_mibps - e.throughput_mibps).abs() < 1e-6);
    for p in &sw.points {
        assert!(
            (p.throughput_mibps - p.iops * p.io_size_kib / 1024.0).abs()
                < 1e-6 * p.throughput_mibps.max(1.0)
        );
    }
    // Larger IOs move more bytes: 1 MiB never gives less throughput than 4 KiB.
    assert!(sw.points.last().unwrap().throughput_mibps >= sw.points[0].throughput_mibps);
    assert!(sw.ceilings.iter().any(|c| c.id == "volume_qos"));
}

#[test]
fn scaling_svg_shows_published_points_where_they_match() {
    // AVS at 8 KiB on one host with four VMs: the 1/2/4 datastores series of that setup.
    let mut s = avs();
    s.workload.io_size_kib = 8.0;
    let a = s.clients.avs.as_mut().expect("AVS");
    (a.hosts, a.vms_per_host) = (1, 4);
    let e = evaluate(&s).expect("evaluates");
    let svg =
        charts::svg(ChartName::Scaling, &s, &e, volplan::engine::pricing::book()).expect("svg");
    let texts = check_svg(&svg, &["IOPS", "datastores"]);
    assert!(
        texts.iter().any(|t| t.contains("Published: 1 AVS host")),
        "{texts:?}"
    );
    let table =
        charts::table(ChartName::Scaling, &s, &e, volplan::engine::pricing::book()).expect("table");
    assert_eq!(table.rows.len(), 32);
    assert!(
        table
            .notes
            .iter()
            .any(|n| n.contains("Azure NetApp Files datastore performance benchmarks")),
        "the published page by its title: {:?}",
        table.notes
    );
    // Four hosts are not the one-host test: no published series beside the design.
    let mut four = s.clone();
    four.clients.avs.as_mut().expect("AVS").hosts = 4;
    let e = evaluate(&four).expect("evaluates");
    let texts = check_svg(
        &charts::svg(
            ChartName::Scaling,
            &four,
            &e,
            volplan::engine::pricing::book(),
        )
        .expect("svg"),
        &["IOPS"],
    );
    assert!(!texts.iter().any(|t| t.contains("Published")), "{texts:?}");

    // One VM, NFS, 256 KiB: nconnect 1..16 and the E104id_v5 series.
    let s = scale_up(256.0, "sequential");
    let e = evaluate(&s).expect("evaluates");
    let svg =
        charts::svg(ChartName::Scaling, &s, &e, volplan::engine::pricing::book()).expect("svg");
    let texts = check_svg(&svg, &["MiB/s", "nconnect"]);
    assert!(texts.iter().any(|t| t.contains("E104id_v5")), "{texts:?}");

    // SMB: channels 1..4, no published series.
    let s = smb();
    let e = evaluate(&s).expect("evaluates");
    let sw = sweep::scaling(&s, volplan::engine::pricing::book()).expect("sweep");
    assert_eq!(sw.points.len(), 4);
    assert!(sw.published.is_empty());
    let svg =
        charts::svg(ChartName::Scaling, &s, &e, volplan::engine::pricing::book()).expect("svg");
    let texts = check_svg(&svg, &["MiB/s", "SMB"]);
    assert!(!texts.iter().any(|t| t.contains("Published")));
}

#[test]
fn nconnect_model_rises_like_the_published_series() {
    let s = scale_up(256.0, "sequential");
    let sw = sweep::scaling(&s, volplan::engine::pricing::book()).expect("sweep");
    let at = |n: u32| {
        sw.points
            .iter()
            .find(|p| p.n == n)
            .unwrap()
            .throughput_mibps
    };
    assert!(
        at(8) > at(1) * 2.0,
        "nconnect 8 well above 1: {} vs {}",
        at(8),
        at(1)
    );
    assert!(at(16) >= at(8) * 0.99, "no drop after 8");
}

#[test]
fn pngs_decode_at_the_requested_size() {
    let s = avs();
    let e = evaluate(&s).expect("evaluates");
    for name in ChartName::ALL {
        for (w, h) in [(800, 450), (1200, 700)] {
            let bytes =
                charts::png(name, &s, &e, volplan::engine::pricing::book(), (w, h)).expect("png");
            let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
            let reader = decoder.read_info().expect("a PNG");
            let info = reader.info();
            assert_eq!((info.width, info.height), (w, h), "{name}");
        }
    }
    let err = charts::png(
        ChartName::Ceilings,
        &s,
        &e,
        volplan::engine::pricing::book(),
        (10, 10),
    )
    .unwrap_err();
    assert!(err.to_string().contains("200 x 150"));
}

#[test]
fn hostile_names_are_escaped_in_svg() {
    let mut s = avs();
    s.name = "<script>alert(1)</script> & \"x\"".to_owned();
    let e = evaluate(&s).expect("evaluates");
    for name in ChartName::ALL {
        let svg = charts::svg(name, &s, &e, volplan::engine::pricing::book()).expect("svg");
        assert!(!svg.contains("<script>"));
        let (title, _) = svg_texts(&svg);
        assert!(title.contains("<script>alert(1)</script>"), "{title}");
    }
}

#[test]
fn layouts_4_x_20_and_20_x_4_cost_the_same_and_differ_in_qos_and_flows() {
    // The layout explorer's example: 80 TiB Ultra on 4 AV36 hosts, 4 VMs per host.
    let s = volplan::web::scenario_templates::find("avs-datastores")
        .expect("the AVS example")
        .scenario();
    let layouts =
        sweep::layouts(&s, 80.0, &[4, 20], volplan::engine::pricing::book()).expect("layouts");
    let rows = sweep::layout_rows(&layouts);
    let (four, twenty) = (&rows[0], &rows[1]);
    assert_eq!((four.count, twenty.count), (4, 20));
    assert!((four.quota_tib - 20.0).abs() < 1e-9 && (twenty.quota_tib - 4.0).abs() < 1e-9);
    assert_eq!(
        four.monthly_usd, twenty.monthly_usd,
        "billing is by capacity pool"
    );
    let q4 = four.qos_per_volume_mibps.expect("volume QoS");
    let q20 = twenty.qos_per_volume_mibps.expect("volume QoS");
    assert!((q4 - 2560.0).abs() < 1e-6, "{q4}");
    assert!((q20 - 512.0).abs() < 1e-6, "{q20}");
    assert!(twenty.connections > four.connections);
    assert!(twenty.connections_per_client > four.connections_per_client);
}

#[test]
fn layout_suggestion_is_the_smallest_count_near_the_best() {
    let s = avs();
    let counts = [1, 2, 4, 8, 16, 20, 32, 64];
    let rows = sweep::layout_rows(
        &sweep::layouts(&s, 80.0, &counts, volplan::engine::pricing::book()).expect("layouts"),
    );
    let i = sweep::suggest_layout(&rows).expect("a suggestion");
    let best = rows.iter().map(|r| r.throughput_mibps).fold(0.0, f64::max);
    assert!(rows[i].throughput_mibps >= best * 0.95);
    assert!(rows[..i].iter().all(|r| r.throughput_mibps < best * 0.95));
    let chart = Chart::layouts(&rows, Some(i));
    let svg = chart.svg().expect("svg");
    let texts = check_svg(&svg, &["MiB/s", "Connections per host", "Datastores"]);
    assert!(
        texts.iter().any(|t| t.starts_with("Suggested:")),
        "{texts:?}"
    );
    assert_eq!(chart.table().rows.len(), counts.len());
}

#[test]
fn compare_deltas_are_against_the_first() {
    let a = avs();
    let mut b = avs();
    b.storage.level = volplan::engine::scenario::Level::Premium;
    let mut c = avs();
    c.clients.avs.as_mut().unwrap().hosts = 8;
    let evals: Vec<Evaluation> = [&a, &b, &c].iter().map(|s| evaluate(s).unwrap()).collect();
    let refs: Vec<&Evaluation> = evals.iter().collect();
    let rows = sweep::compare(&refs);
    let keys: Vec<&str> = rows.iter().map(|r| r.key).collect();
    assert_eq!(
        keys,
        [
            "throughput",
            "iops",
            "latency",
            "binding",
            "connections",
            "monthly_usd",
            "usd_per_mibps"
        ]
    );
    let thr = &rows[0];
    for (j, e) in evals.iter().enumerate() {
        let (abs, pct) = thr.deltas[j].expect("delta");
        assert!((abs - (e.throughput_mibps - evals[0].throughput_mibps)).abs() < 1e-9);
        let want = (e.throughput_mibps / evals[0].throughput_mibps - 1.0) * 100.0;
        assert!((pct.unwrap() - want).abs() < 1e-9);
    }
    assert_eq!(thr.deltas[0], Some((0.0, Some(0.0))));
    // The best throughput is the highest one.
    let best = evals.iter().map(|e| e.throughput_mibps).fold(0.0, f64::max);
    for (j, e) in evals.iter().enumerate() {
        let distinct = evals
            .iter()
            .any(|x| x.throughput_mibps != evals[0].throughput_mibps);
        assert_eq!(thr.best[j], distinct && e.throughput_mibps == best);
    }
    // Premium costs less than Ultra for the same capacity: the lower cost is the best one.
    let cost = rows.iter().find(|r| r.key == "monthly_usd").unwrap();
    assert_eq!(cost.better, Better::Lower);
    if let (Some(u), Some(p)) = (evals[0].cost.monthly_usd, evals[1].cost.monthly_usd) {
        assert!(p < u);
        assert!(cost.best[1]);
        assert!(cost.deltas[1].unwrap().0 < 0.0);
    }
    let latency = rows.iter().find(|r| r.key == "latency").unwrap();
    assert_eq!(latency.better, Better::Lower);
    let binding = rows.iter().find(|r| r.key == "binding").unwrap();
    assert_eq!(binding.text.len(), 3);
    let names: Vec<String> = ["Ultra", "Premium", "8 hosts"].map(String::from).to_vec();
    let chart = Chart::compare(&names, &rows);
    let texts = check_svg(&chart.svg().expect("svg"), &["%"]);
    assert!(
        texts.iter().any(|t| t == "Premium"),
        "legend names the scenarios: {texts:?}"
    );
    let table = chart.table();
    assert_eq!(table.headers.len(), 4);
    assert!(table.rows[0][1..].iter().any(|c| c.contains("(best)")));
}

#[test]
fn what_if_prorates_the_higher_level() {
    let mut s = avs();
    s.storage.level = volplan::engine::scenario::Level::Premium;
    let w = sweep::what_if(
        &s,
        volplan::engine::scenario::Level::Ultra,
        15.2,
        volplan::engine::pricing::book(),
    )
    .expect("what-if");
    assert!(w.changed.throughput_mibps >= w.base.throughput_mibps);
    if let (Some(b), Some(c), Some(m)) =
        (w.base.cost.monthly_usd, w.changed.cost.monthly_usd, w.month)
    {
        assert!(
            (m - (b + c) / 2.0).abs() < 1e-6,
            "half a month at each level"
        );
        assert!(w.extra.unwrap() > 0.0);
    }
    let bad = sweep::what_if(
        &s,
        volplan::engine::scenario::Level::Extreme,
        5.0,
        volplan::engine::pricing::book(),
    )
    .unwrap_err();
    assert_eq!(bad.first().field, "level");
}

/// The `s` value of a share link for this Scenario JSON.
fn share(s: &Value) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(serde_json::to_vec(s).unwrap())
}

#[tokio::test]
async fn saved_scenario_charts_are_served_as_svg_and_png() {
    let app = spawn_app().await;
    let id = app.create(&sample_scenario()).await;
    for name in ["ceilings", "io-size", "scaling", "latency"] {
        let res = app.get(&format!("/scenarios/{id}/charts/{name}.svg")).await;
        assert_eq!(res.status(), 200, "{name}");
        let ct = res.headers()["content-type"].to_str().unwrap().to_owned();
        assert!(ct.starts_with("image/svg+xml"), "{ct}");
        svg_texts(&res.text().await.unwrap());
        let res = app
            .get(&format!("/scenarios/{id}/charts/{name}.png?w=640&h=400"))
            .await;
        assert_eq!(res.status(), 200);
        assert_eq!(res.headers()["content-type"], "image/png");
        let bytes = res.bytes().await.unwrap();
        let reader = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        assert_eq!((reader.info().width, reader.info().height), (640, 400));
    }
    let res = app
        .get(&format!("/scenarios/{id}/charts/ceilings.png?w=10"))
        .await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("200 x 150"));
    // A size left empty is a mistake to name, not the default (the schema says integer).
    let res = app
        .get(&format!("/scenarios/{id}/charts/ceilings.png?w=&h="))
        .await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("whole number of pixels"),
        "{body}"
    );
}

#[tokio::test]
async fn unknown_ids_names_and_formats_are_404() {
    let app = spawn_app().await;
    let id = app.create(&sample_scenario()).await;
    for path in [
        "/scenarios/999/charts/ceilings.svg".to_owned(),
        "/scenarios/abc/charts/ceilings.svg".to_owned(),
        format!("/scenarios/{id}/charts/pie.svg"),
        format!("/scenarios/{id}/charts/latencies.svg"),
        format!("/scenarios/{id}/charts/ceilings.gif"),
        format!("/scenarios/{id}/charts/latency.gif"),
        format!("/scenarios/{id}/charts/ceilings"),
    ] {
        let res = app.get(&path).await;
        assert_eq!(res.status(), 404, "{path}");
        let body: Value = res.json().await.expect("JSON error body");
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{path}"
        );
        assert!(body["field"].is_null());
    }
    let res = app
        .client
        .get(app.url("/scenarios/999/charts/ceilings.svg"))
        .header("accept", "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    assert!(res.text().await.unwrap().contains("<html"));
}

#[tokio::test]
async fn unsaved_scenarios_get_charts_by_post_and_share_link() {
    let app = spawn_app().await;
    let res = app
        .post_json("/charts/io-size.svg", &sample_scenario())
        .await;
    assert_eq!(res.status(), 200);
    svg_texts(&res.text().await.unwrap());
    let mut bad = sample_scenario();
    bad["workload"]["threads"] = json!(0);
    let res = app.post_json("/charts/ceilings.svg", &bad).await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["field"], "workload.threads");
    let res = app
        .get(&format!(
            "/charts/scaling.svg?s={}",
            share(&sample_scenario())
        ))
        .await;
    assert_eq!(res.status(), 200);
    let res = app.get("/charts/scaling.svg?s=!!!").await;
    assert_eq!(res.status(), 422);
}

#[tokio::test]
async fn layouts_page_opens_with_the_example_and_explains_it() {
    let app = spawn_app().await;
    let res = app.get("/layouts").await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("id=\"layouts-table\""));
    assert!(html.contains("<svg"));
    assert!(html.contains("id=\"layouts-verdict\""));
    assert!(html.contains("Use this layout"));
    let res = app.get("/layouts?counts=4%2C+x").await;
    assert_eq!(res.status(), 422);
    assert!(
        res.text()
            .await
            .unwrap()
            .contains("“x” is not a count of volumes")
    );
    let res = app.get("/layouts?total_tib=-3").await;
    assert_eq!(res.status(), 422);
    let res = app.get("/layouts?base=999").await;
    assert_eq!(res.status(), 404);
}

#[tokio::test]
async fn compare_page_sets_scenarios_side_by_side() {
    let app = spawn_app().await;
    let a = app.create(&sample_scenario()).await;
    let mut premium = sample_scenario();
    premium["name"] = json!("Premium variant");
    premium["storage"]["level"] = json!("premium");
    let b = app.create(&premium).await;
    let res = app.get("/compare").await;
    assert_eq!(res.status(), 200);
    assert!(res.text().await.unwrap().contains("Premium variant"));
    let res = app
        .get(&format!(
            "/compare?id={a}&id={b}&s={}",
            share(&sample_scenario())
        ))
        .await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("id=\"compare-table\""));
    assert!(html.contains("<svg"));
    assert!(html.contains("best</span>"));
    assert!(html.contains("shared link"));
    let res = app.get(&format!("/compare?id={a}")).await;
    assert_eq!(res.status(), 422);
    assert!(res.text().await.unwrap().contains("Choose 2 to 6"));
}

#[tokio::test]
async fn whatif_page_prorates_the_busy_days() {
    let app = spawn_app().await;
    let res = app.get("/whatif").await;
    assert_eq!(res.status(), 200);
    let html = res.text().await.unwrap();
    assert!(html.contains("id=\"whatif-table\""));
    assert!(html.contains("Ultra for 10 of 30.4 days"));
    let res = app
        .get("/whatif?base=example&from=premium&level=ultra&days=40")
        .await;
    assert_eq!(res.status(), 422);
    let res = app
        .get("/whatif?base=example&from=premium&level=extreme&days=5")
        .await;
    assert_eq!(res.status(), 422);
}

#[tokio::test]
async fn planner_results_show_the_ceilings_chart() {
    let app = spawn_app().await;
    let id = app.create(&sample_scenario()).await;
    let html = app
        .get(&format!("/scenarios/{id}"))
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("id=\"chart-ceilings\""));
    assert!(html.contains(&format!("/scenarios/{id}/charts/ceilings.png")));
    assert!(html.contains("id=\"chart-latency\""));
    assert!(html.contains(&format!("/scenarios/{id}/charts/latency.svg")));
    assert!(
        !html.contains("<svg width=\"640\""),
        "the inline chart scales to its column"
    );
}

#[test]
fn measured_runs_are_drawn_beside_the_model() {
    use volplan::measure::MeasuredPoint;
    let s = avs();
    let e = evaluate(&s).expect("evaluates");
    let run = MeasuredPoint {
        label: "fio seq read".to_owned(),
        io_size_kib: 64.0,
        read_pct: 100.0,
        mibps: 7_900.0,
        iops: 126_400.0,
        flows: 4,
        outstanding: 512,
    };
    for name in [ChartName::Ceilings, ChartName::IoSize, ChartName::Scaling] {
        let chart = Chart::of(name, &s, &e, volplan::engine::pricing::book())
            .expect("chart")
            .with_measured(std::slice::from_ref(&run));
        assert!(
            chart.summary().contains("1 measured run is shown"),
            "{name}"
        );
        let texts = check_svg(&chart.svg().expect("svg"), &["MiB/s"]);
        assert!(
            texts
                .iter()
                .any(|t| t.to_lowercase().starts_with("measured runs")),
            "{name}: {texts:?}"
        );
        let table = chart.table();
        assert!(
            table
                .notes
                .iter()
                .any(|n| n.contains("fio seq read") && n.contains("7,900"))
        );
    }
    // Charts without a place for runs are unchanged; the latency chart needs a latency.
    let latency = Chart::of(ChartName::Latency, &s, &e, volplan::engine::pricing::book())
        .expect("chart")
        .with_measured(std::slice::from_ref(&run));
    assert!(!latency.summary().contains("measured"));
    let rows = sweep::compare(&[&e, &e]);
    let chart = Chart::compare(&["a".into(), "b".into()], &rows).with_measured(&[run]);
    assert!(!chart.summary().contains("measured"));
}

/// An AVS scenario with a throughput target and a latency target.
fn avs_with_latency_target(ms: f64) -> Scenario {
    let mut s = avs();
    s.workload.target_mibps = Some(8_000.0);
    s.workload.target_latency_ms = Some(ms);
    s
}

#[test]
fn latency_svg_is_labelled_and_marks_the_point_and_the_targets() {
    let s = avs_with_latency_target(5.0);
    let e = evaluate(&s).expect("evaluates");
    let svg =
        charts::svg(ChartName::Latency, &s, &e, volplan::engine::pricing::book()).expect("svg");
    let texts = check_svg(&svg, &["ms", "IOPS", "MiB/s", "KiB"]);
    let has = |needle: &str| texts.iter().any(|t| t.contains(needle));
    assert!(
        has("achievable: "),
        "the operating point is labelled: {texts:?}"
    );
    assert!(has("target 8,000 MiB/s"), "the target rate: {texts:?}");
    assert!(has("target 5 ms"), "the target latency: {texts:?}");
    assert!(
        has("ms at the target"),
        "latency at the target rate: {texts:?}"
    );
    let (title, _) = svg_texts(&svg);
    assert!(title.starts_with("Latency against load"), "{title}");

    let table =
        charts::table(ChartName::Latency, &s, &e, volplan::engine::pricing::book()).expect("table");
    let curve: Vec<_> = e.latency_curve.points().collect();
    assert_eq!(table.rows.len(), curve.len());
    assert_eq!(table.rows.last().unwrap()[0], "100 (achievable)");
    assert!(
        table
            .notes
            .iter()
            .any(|n| n.starts_with("Target latency: 5 ms"))
    );
    let chart =
        Chart::of(ChartName::Latency, &s, &e, volplan::engine::pricing::book()).expect("chart");
    assert!(
        chart.summary().ends_with(
            "Green lines mark the target rate (dotted) and the target latency (dashed)."
        ),
        "{}",
        chart.summary()
    );
}

#[test]
fn latency_chart_draws_for_every_kind_of_scenario() {
    // No target, AVS and not, Azure Files SMB, every template (one has a curve that stays
    // flat up to the achievable load).
    let mut scenarios = vec![avs(), scale_up(8.0, "random"), smb()];
    scenarios[0].workload.target_mibps = None;
    scenarios.extend(
        volplan::web::scenario_templates::TEMPLATES
            .iter()
            .map(|t| t.scenario()),
    );
    for s in scenarios {
        let e = evaluate(&s).expect("evaluates");
        let chart =
            Chart::of(ChartName::Latency, &s, &e, volplan::engine::pricing::book()).expect("chart");
        check_svg(&chart.svg().expect("svg"), &["ms", "IOPS"]);
        chart.png((640, 420)).expect("png");
        assert!(
            chart.summary().starts_with("The model's latency per IO"),
            "{}",
            s.name
        );
    }
}

#[test]
fn measured_latencies_are_drawn_at_the_scenario_io_size() {
    let s = avs();
    let e = evaluate(&s).expect("evaluates");
    let run = |label: &str, io_size_kib: f64| LatencyRun {
        label: label.to_owned(),
        io_size_kib,
        iops: 120_000.0,
        mibps: 120_000.0 * io_size_kib / 1024.0,
        latency_ms: 4.2,
    };
    let chart = Chart::of(ChartName::Latency, &s, &e, volplan::engine::pricing::book())
        .expect("chart")
        .with_measured_latency(&[run("fio 64k", 64.0), run("fio 4k", 4.0)]);
    assert!(
        chart
            .summary()
            .contains("1 measured run is shown in purple")
    );
    let texts = check_svg(&chart.svg().expect("svg"), &["ms"]);
    assert!(texts.iter().any(|t| t == "measured runs"), "{texts:?}");
    let notes = chart.table().notes;
    assert!(
        notes
            .iter()
            .any(|n| n.contains("fio 64k") && n.contains("4.2 ms"))
    );
    assert!(
        notes
            .iter()
            .any(|n| n.contains("fio 4k") && n.contains("not drawn")),
        "{notes:?}"
    );
    // Other charts ignore latency runs.
    let ceilings = Chart::of(
        ChartName::Ceilings,
        &s,
        &e,
        volplan::engine::pricing::book(),
    )
    .expect("chart")
    .with_measured_latency(&[run("fio 64k", 64.0)]);
    assert!(!ceilings.summary().contains("measured"));
}

#[tokio::test]
async fn the_latency_chart_of_a_saved_scenario_shows_its_measured_runs() {
    let app = spawn_app().await;
    let id = app.create(&sample_scenario()).await;
    let res = app.import_run(id, "fio-3.36-single-job.json").await;
    assert_eq!(res.status(), 201);
    let res = app
        .get(&format!("/scenarios/{id}/charts/latency.svg"))
        .await;
    assert_eq!(res.status(), 200);
    let svg = res.text().await.unwrap();
    let (_, texts) = svg_texts(&svg);
    assert!(texts.iter().any(|t| t == "measured runs"), "{texts:?}");
    assert!(svg.contains("1 measured run is shown"));
    let res = app
        .get(&format!("/scenarios/{id}/charts/latency.png"))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "image/png");
    let html = app
        .get(&format!("/scenarios/{id}"))
        .await
        .text()
        .await
        .unwrap();
    assert!(
        html.contains("seqread-64k"),
        "the planner's latency table lists the run"
    );
}

/// One `<text>` of an SVG: where it is anchored, how, its font size and content.
struct TextBox {
    x: f64,
    y: f64,
    anchor: String,
    size: f64,
    rotated: bool,
    text: String,
    /// A `<title>` inside: the tooltip with the full text.
    tooltip: bool,
}

/// The SVG's width and its `<text>` elements (tooltips inside them left out).
fn text_boxes(svg: &str) -> (f64, Vec<TextBox>) {
    let mut reader = Reader::from_str(svg);
    let mut width = 0.0;
    let mut boxes: Vec<TextBox> = Vec::new();
    let mut in_text = false;
    loop {
        match reader.read_event().expect("SVG is well-formed XML") {
            Event::Start(e) => {
                let attr = |name: &str| {
                    e.attributes()
                        .flatten()
                        .find(|a| a.key.as_ref() == name)
                        .map(|a| a.value.to_string())
                };
                match e.name().as_ref() {
                    "svg" => {
                        width = attr("viewBox")
                            .and_then(|v| v.split(' ').nth(2).map(str::to_owned))
                            .and_then(|w| w.parse().ok())
                            .expect("a view box")
                    }
                    "text" => {
                        let num = |n: &str| attr(n).and_then(|v| v.parse().ok()).unwrap_or(0.0);
                        boxes.push(TextBox {
                            x: num("x"),
                            y: num("y"),
                            anchor: attr("text-anchor").unwrap_or_else(|| "start".into()),
                            size: num("font-size"),
                            rotated: attr("transform").is_some(),
                            text: String::new(),
                            tooltip: false,
                        });
                        in_text = true;
                    }
                    "title" if in_text => {
                        if let Some(b) = boxes.last_mut() {
                            b.tooltip = true;
                        }
                        in_text = false;
                    }
                    _ => in_text = false,
                }
            }
            Event::End(e) if e.name().as_ref() == "text" => in_text = false,
            Event::Text(t) if in_text => {
                if let Some(b) = boxes.last_mut() {
                    b.text.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(r) if in_text => {
                let c = match r.resolve_char_ref().expect("char ref") {
                    Some(c) => c.to_string(),
                    None => quick_xml::escape::resolve_xml_entity(&r.xml10_content())
                        .expect("a predefined entity")
                        .to_owned(),
                };
                if let Some(b) = boxes.last_mut() {
                    b.text.push_str(&c);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    (width, boxes)
}

/// Every chart of the scenarios that show each kind of series.
fn every_chart_svg() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (label, s) in [
        ("avs", avs()),
        ("scale-up", scale_up(256.0, "sequential")),
        ("smb", smb()),
    ] {
        let e = evaluate(&s).expect("evaluates");
        for name in [
            ChartName::Ceilings,
            ChartName::IoSize,
            ChartName::Scaling,
            ChartName::Latency,
        ] {
            let svg = charts::svg(name, &s, &e, volplan::engine::pricing::book()).expect("svg");
            out.push((format!("{label} {name}"), svg));
        }
    }
    out
}

#[test]
fn chart_labels_stay_inside_and_shortened_ones_carry_their_full_text() {
    for (what, svg) in every_chart_svg() {
        let (width, boxes) = text_boxes(&svg);
        for b in boxes
            .iter()
            .filter(|b| !b.rotated && !b.text.trim().is_empty())
        {
            // DejaVu Sans averages about 0.55 em a character; 0.6 em errs wide.
            let w = b.text.trim().chars().count() as f64 * b.size * 0.6;
            let (left, right) = match b.anchor.as_str() {
                "middle" => (b.x - w / 2.0, b.x + w / 2.0),
                "end" => (b.x - w, b.x),
                _ => (b.x, b.x + w),
            };
            assert!(
                left >= -1.0 && right <= width + 1.0,
                "{what}: “{}” runs from {left:.0} to {right:.0} px of {width}",
                b.text
            );
        }
        for b in boxes.iter().filter(|b| b.text.trim().ends_with('\u{2026}')) {
            assert!(
                b.tooltip,
                "{what}: “{}” is shortened without its full text as a tooltip",
                b.text.trim()
            );
        }
    }
}

#[test]
fn io_size_chart_names_every_ceiling() {
    let s = avs();
    let e = evaluate(&s).expect("evaluates");
    let svg =
        charts::svg(ChartName::IoSize, &s, &e, volplan::engine::pricing::book()).expect("svg");
    let (_, boxes) = text_boxes(&svg);
    let sw = sweep::io_size(&s, volplan::engine::pricing::book()).expect("sweep");
    // Legend names wrap onto further lines, whole: read the text as one.
    let all: Vec<&str> = boxes.iter().map(|b| b.text.trim()).collect();
    let all = all.join(" ");
    for c in &sw.ceilings {
        // Named in the legend, alone or with the ceilings drawn on the same line.
        assert!(all.contains(c.name), "{} in the legend: {all}", c.name);
    }
}

#[test]
fn scaling_titles_name_the_axis_and_the_key_sits_above_the_plot() {
    for (s, noun) in [
        (avs(), "datastores"),
        (scale_up(256.0, "sequential"), "connections"),
        (smb(), "SMB channels"),
    ] {
        let e = evaluate(&s).expect("evaluates");
        let svg =
            charts::svg(ChartName::Scaling, &s, &e, volplan::engine::pricing::book()).expect("svg");
        let (_, boxes) = text_boxes(&svg);
        assert!(
            boxes
                .iter()
                .any(|b| b.text.contains(&format!("against the number of {noun}"))),
            "the title says {noun}"
        );
        let key = boxes
            .iter()
            .find(|b| b.text.trim() == "Model, this scenario")
            .expect("the model in the key");
        let top_tick = boxes
            .iter()
            .filter(|b| b.text.trim().replace(',', "").parse::<f64>().is_ok())
            .map(|b| b.y)
            .fold(f64::INFINITY, f64::min);
        assert!(key.y < top_tick, "the key is above the plot");
    }
}

#[test]
fn ceiling_values_sit_on_their_own_box_over_the_lines() {
    for s in [avs(), scale_up(256.0, "sequential"), smb()] {
        let e = evaluate(&s).expect("evaluates");
        let svg = charts::svg(
            ChartName::Ceilings,
            &s,
            &e,
            volplan::engine::pricing::book(),
        )
        .expect("svg");
        // The achievable line is drawn before the value labels, and each label on a
        // box of its background, so the line stops short of the text.
        let achievable = svg
            .rfind("stroke=\"#000000\" stroke-width=\"2\"")
            .expect("the line");
        let mut labels = 0;
        for (at, _) in svg.match_indices("<text") {
            let text = &svg[at..svg[at..].find("</text>").map_or(svg.len(), |e| at + e)];
            if !text.contains(" MiB/s, ") {
                continue;
            }
            labels += 1;
            assert!(at > achievable, "a value label under the achievable line");
            let before = svg[..at].trim_end();
            let last = &before[before.rfind('<').expect("an element before")..];
            assert!(last.starts_with("<rect"), "no box behind {text}");
        }
        assert_eq!(
            labels,
            e.limits.iter().filter(|l| l.mibps.is_finite()).count()
        );
    }
}

/// A share link up to its longest, in the widest characters, still reaches the handler
/// (a URL over 65,534 bytes would be refused by the HTTP layer with no body), and one
/// past it is refused with a message.
#[tokio::test]
async fn the_longest_share_link_gets_an_answer_with_a_message() {
    let app = spawn_app().await;
    let max = volplan::web::share::MAX_LEN;
    for (n, what) in [(max, "the longest"), (max + 1, "one past the longest")] {
        let s = "😍".repeat(n);
        let res = app
            .get(&format!("/charts/ceilings.svg?w=800&h=600&s={s}"))
            .await;
        let status = res.status().as_u16();
        assert!(
            (400..500).contains(&status) && status != 414 && status != 431,
            "{what}: {status}"
        );
        let body: Value = res
            .json()
            .await
            .unwrap_or_else(|e| panic!("{what}: JSON body ({e})"));
        assert!(
            body["error"].as_str().is_some_and(|m| !m.is_empty()),
            "{what}: {body}"
        );
    }
}
