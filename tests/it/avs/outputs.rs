//! A saved AVS plan in every format (PDF, Markdown, HTML, CSV, XLSX, JSON): each reads
//! back, JSON is the API's answer, anonymised plans name nothing of the file, unknown
//! inventories are 404s and no choice the page accepts is a 500; hostile inventory
//! bodies are 4xx, never 5xx.

use super::{Dialect, rvtools};
use crate::helpers::{FORM_TOKEN, TestApp, assert_error_body, spawn_app};
use calamine::{DataType, Reader};
use serde_json::{Value, json};

const FORMATS: [&str; 6] = ["pdf", "md", "html", "csv", "xlsx", "json"];

/// Uploads `file` (binary) on the AVS page as `name`, anonymised or not; the plan's path.
pub(crate) async fn upload(app: &TestApp, name: &str, file: &[u8], anonymise: bool) -> String {
    let boundary = "volplanAvsBoundary";
    let mut body = Vec::new();
    body.extend(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
             Content-Type: application/octet-stream\r\n\r\n"
        )
        .bytes(),
    );
    body.extend(file);
    body.extend(b"\r\n");
    let mut fields = vec![("csrf", FORM_TOKEN)];
    if anonymise {
        fields.push(("anonymise", "1"));
    }
    for (k, v) in fields {
        body.extend(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n")
                .bytes(),
        );
    }
    body.extend(format!("--{boundary}--\r\n").bytes());
    let res = app
        .send_form(
            "/avs",
            &format!("multipart/form-data; boundary={boundary}"),
            body,
        )
        .await;
    assert_eq!(
        res.status(),
        303,
        "{}",
        res.text().await.unwrap_or_default()
    );
    res.headers()["location"].to_str().unwrap().to_owned()
}

/// Every text of every sheet of a workbook, one cell a line.
pub(super) fn xlsx_text(bytes: &[u8]) -> (Vec<String>, String) {
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(bytes.to_vec())).expect("xlsx");
    let names = book.sheet_names();
    let mut text = String::new();
    for n in &names {
        for row in book.worksheet_range(n).unwrap().rows() {
            for c in row {
                text += &c.to_string();
                text.push('\n');
            }
        }
    }
    (names, text)
}

#[tokio::test]
async fn every_format_of_a_saved_plan_reads_back_and_json_is_the_apis_answer() {
    let app = spawn_app().await;
    let bytes = rvtools(Dialect::Mib);
    let path = upload(&app, "rvtools.xlsx", &bytes, false).await;
    let q = "region=westus2&growth_pct=20&unit=disk&vcf=included";

    // The API's answer for the same inventory and choices.
    let res = app
        .send_raw(
            reqwest::Method::POST,
            "/api/v1/avs/inventory",
            Some("application/octet-stream"),
            bytes,
        )
        .await;
    let inv: Value = res.json().await.unwrap();
    let api: Value = app
        .post_json(
            "/api/v1/avs/plan",
            &json!({"inventory": inv, "region": "westus2", "growth_pct": 20, "unit": "disk",
                    "host_sku": "AV36P", "vcf": {"licensing": "included"}}),
        )
        .await
        .json()
        .await
        .unwrap();
    let placed = api["placement"].as_array().unwrap();
    let datastores = api["datastores"].as_array().unwrap().len();
    assert_eq!(
        placed.len(),
        7,
        "three VMs of two disks, one of none: {api}"
    );

    // The engineer edition's JSON is the API's answer; the customer's is the document.
    let json = app
        .get(&format!("{path}/plan.json?{q}&edition=engineer"))
        .await;
    assert_eq!(json.status(), 200);
    assert_eq!(json.headers()["content-type"], "application/json");
    assert_eq!(json.json::<Value>().await.unwrap(), api);
    let customer: Value = app.get_json(&format!("{path}/plan.json?{q}")).await;
    assert_eq!(customer["edition"], "customer");

    let csv = app.get(&format!("{path}/plan.csv?{q}")).await;
    assert_eq!(csv.status(), 200);
    assert!(
        csv.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .starts_with("attachment")
    );
    let body = csv.bytes().await.unwrap();
    let mut reader = csv::Reader::from_reader(&body[..]);
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(header, volplan::report::avs::CSV_COLUMNS);
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let ds_rows: Vec<_> = records.iter().filter(|r| &r[0] == "datastore").collect();
    let vm_rows: Vec<_> = records.iter().filter(|r| &r[0] == "placement").collect();
    assert_eq!(ds_rows.len(), datastores);
    assert_eq!(vm_rows.len(), placed.len());
    for (r, p) in vm_rows.iter().zip(placed) {
        assert_eq!(&r[col("vm")], p["vm"].as_str().unwrap());
        assert_eq!(&r[col("disk")], p["disk"].as_str().unwrap_or(""));
        assert_eq!(&r[col("datastore")], p["datastore"].as_str().unwrap());
    }
    let quota: f64 = ds_rows
        .iter()
        .map(|r| r[col("quota_tib")].parse::<f64>().unwrap())
        .sum();
    let api_quota: f64 = api["datastores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["quota_tib"].as_f64().unwrap())
        .sum();
    assert!((quota - api_quota).abs() < 1e-3, "{quota} {api_quota}");
    // db01's RDM disk is flagged on its rows.
    assert!(
        vm_rows
            .iter()
            .any(|r| &r[col("vm")] == "db01" && r[col("flags")].contains("RDM"))
    );

    let xlsx = app.get(&format!("{path}/plan.xlsx?{q}")).await;
    assert_eq!(xlsx.status(), 200);
    assert_eq!(
        xlsx.headers()["content-type"],
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    );
    let bytes = xlsx.bytes().await.unwrap();
    let (sheets, text) = xlsx_text(&bytes);
    assert_eq!(
        sheets,
        [
            "Summary",
            "Hosts and TCO",
            "Datastores",
            "Assumptions",
            "Placement"
        ]
    );
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(bytes.to_vec())).unwrap();
    assert_eq!(
        book.worksheet_range("Placement").unwrap().rows().count(),
        placed.len() + 1
    );
    assert_eq!(
        book.worksheet_range("Datastores").unwrap().rows().count(),
        datastores + 1
    );
    let tco = book.worksheet_range("Hosts and TCO").unwrap();
    let hosts = tco.get_value((2, 1)).and_then(|c| c.as_f64()).unwrap();
    assert_eq!(
        hosts,
        api["tco"]["with_anf"]["hosts"]["hosts"].as_f64().unwrap()
    );
    assert!(text.contains("MiB (RVTools 4.x headers)"), "{text}");

    let html = app.get(&format!("{path}/plan.html?{q}")).await;
    assert_eq!(html.status(), 200);
    assert_eq!(html.headers()["content-type"], "text/html; charset=utf-8");
    assert!(
        !html.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("script-src")
    );
    let page = html.text().await.unwrap();
    let doc = roxmltree::Document::parse_with_options(
        &page,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        },
    )
    .expect("the HTML report is well-formed");
    let table_rows = |id: &str| {
        doc.descendants()
            .find(|n| n.attribute("id") == Some(id))
            .map_or(0, |t| {
                t.descendants().filter(|n| n.has_tag_name("tr")).count()
            })
    };
    assert_eq!(table_rows("placement-table"), placed.len() + 1);
    assert_eq!(table_rows("datastores-table"), datastores + 1);
    assert_eq!(table_rows("hosts-table"), 3);
    assert_eq!(
        table_rows("cost-by-term-table"),
        4,
        "a row per purchase term"
    );
    assert!(page.contains("@media print") && !page.contains("<script"));

    // The page links every format with its choices.
    let shown = app.get_text(&format!("{path}?{q}")).await;
    for f in FORMATS {
        let href = format!("href=\"{path}/plan.{f}?region=westus2&");
        assert!(shown.contains(&href), "no link to {f}: {href}");
    }
    app.stop().await;
}

#[tokio::test]
async fn anonymised_plans_name_nothing_of_the_file_in_any_format() {
    let app = spawn_app().await;
    let path = upload(&app, "Contoso_RVTools.xlsx", &rvtools(Dialect::Mib), true).await;
    let secrets = [
        "Contoso",
        "web01",
        "db01",
        "sql-node1",
        "app-susp",
        "Cluster-Prod",
        "esx01",
        "ds-a",
        "vCLS-4c1f",
        "tmpl-win2022",
        "old-erp",
    ];
    for f in FORMATS {
        let res = app
            .get(&format!("{path}/plan.{f}?region=westus2&unit=disk"))
            .await;
        assert_eq!(res.status(), 200, "{f}");
        let bytes = res.bytes().await.unwrap();
        let text = match f {
            "xlsx" => xlsx_text(&bytes).1,
            "pdf" => {
                // The PDF sets the Markdown's lines; its text is glyph ids. It loads.
                let doc = lopdf::Document::load_mem(&bytes).expect("PDF");
                assert!(!doc.get_pages().is_empty());
                String::new()
            }
            _ => String::from_utf8(bytes.to_vec()).unwrap(),
        };
        for s in secrets {
            assert!(!text.contains(s), "{s} leaked in {f}");
        }
        if f != "pdf" {
            assert!(text.contains("vm-00001"), "{f} lists the stand-ins");
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn an_unknown_inventory_is_a_404_in_every_format() {
    let app = spawn_app().await;
    for f in FORMATS {
        for id in ["999999", "0", "abc"] {
            let res = app.get(&format!("/avs/{id}/plan.{f}?region=westus2")).await;
            assert_eq!(res.status(), 404, "{id} {f}");
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn no_choice_the_page_accepts_is_a_500_in_any_format() {
    let app = spawn_app().await;
    let path = upload(&app, "rvtools.xlsx", &rvtools(Dialect::Mib), false).await;
    let choices = [
        "",
        "region=westus2&level=standard",
        "region=westus2&level=premium&datastores=1",
        "region=westus2&level=ultra&datastores=64&nconnect=4",
        "region=westus2&datastores=4096&unit=disk&basis=provisioned",
        "host_sku=AV64&growth_pct=1000",
        "host_sku=AV52&region=westus2&growth_pct=0.5",
        "region=eastus",
        "level=flexible",
        "datastores=abc",
        "datastores=0",
        "growth_pct=-1",
        "nconnect=3",
        "host_sku=AV99",
    ];
    for q in choices {
        let page = app.get(&format!("{path}?{q}")).await.status();
        assert!(page == 200 || page == 422, "page {q}: {page}");
        // Without any choice the page asks for the region; a download needs one.
        let want = if q.is_empty() { 422 } else { page.as_u16() };
        for f in FORMATS {
            let status = app.get(&format!("{path}/plan.{f}?{q}")).await.status();
            assert_eq!(status, want, "{f} with {q}");
        }
    }
    app.stop().await;
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[tokio::test]
async fn hostile_inventory_bodies_are_4xx_never_5xx() {
    let app = spawn_app().await;
    let xlsx = rvtools(Dialect::Mib);
    let csv = super::vinfo_csv().into_bytes();
    let mut rng = Rng(0x5eed_1234_abcd_0042);
    let mut bodies: Vec<Vec<u8>> = vec![Vec::new(), b"PK\x03\x04".to_vec(), vec![0; 64]];
    for _ in 0..12 {
        let n = rng.below(400);
        bodies.push((0..n).map(|_| rng.next() as u8).collect());
        bodies.push(xlsx[..rng.below(xlsx.len())].to_vec());
        let mut mutated = xlsx.clone();
        for _ in 0..1 + rng.below(6) {
            let i = rng.below(mutated.len());
            mutated[i] = rng.next() as u8;
        }
        bodies.push(mutated);
        let mut c = csv[..1 + rng.below(csv.len() - 1)].to_vec();
        let i = rng.below(c.len());
        c[i] = rng.next() as u8;
        bodies.push(c);
    }
    let mut refused = 0;
    for body in bodies {
        let res = app
            .send_raw(
                reqwest::Method::POST,
                "/api/v1/avs/inventory",
                Some("application/octet-stream"),
                body.clone(),
            )
            .await;
        let status = res.status().as_u16();
        assert!(status == 200 || (400..500).contains(&status), "{status}");
        if status != 200 {
            refused += 1;
            let err: Value = res.json().await.unwrap();
            let field = err["field"]
                .as_str()
                .expect("the error names a sheet")
                .to_owned();
            assert!(!field.is_empty(), "{err}");
            assert_error_body(&err, Some(&field));
        }
    }
    assert!(
        refused > 20,
        "most of the hostile bodies are refused: {refused}"
    );
    app.stop().await;
}
