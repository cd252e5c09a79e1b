//! The compiled book's Azure Files and GCNV rows against the public excerpts they come
//! from (`tools/data/public-prices/`), and the docs' coverage table against the book.

use serde_json::Value;
use std::collections::BTreeSet;
use volplan::engine::pricing;
use volplan::engine::scenario::{Level, Service};
use volplan::prices::rows::{PriceRow, PricedService};

fn repo_file(path: &str) -> String {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// The figures an excerpt states: (region, book item, price per unit and month).
fn excerpt_figures(source: &Value, text: &str) -> Vec<(String, String, f64)> {
    let mut out = Vec::new();
    if source["service"] == "azure_files" {
        // Markdown tables: `| Hot LRS | Hot LRS Data Stored | 1 GB/Month | 0.0287 | 0.0255 |`
        // under a header naming the regions (`retailPrice eastus`).
        let mut regions: Vec<String> = Vec::new();
        for line in text.lines() {
            let cells: Vec<&str> = line
                .trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect();
            if cells[0] == "skuName" {
                regions = cells[3..]
                    .iter()
                    .map(|c| c.trim_start_matches("retailPrice ").to_owned())
                    .collect();
                continue;
            }
            let mut sku = cells[0].split(' ');
            let (Some(tier), Some(redundancy)) = (sku.next(), sku.next()) else {
                continue;
            };
            let level = match tier {
                "Hot" => "hdd_payg_hot",
                "Cool" => "hdd_payg_cool",
                "Standard" => "hdd_payg",
                "Premium" => "ssd_v1",
                _ => continue,
            };
            assert_eq!(cells.get(2), Some(&"1 GB/Month"), "{line}");
            let item = match redundancy {
                "LRS" => level.to_owned(),
                r => format!("{level}_{}", r.to_ascii_lowercase()),
            };
            for (region, price) in regions.iter().zip(&cells[3..]) {
                out.push((region.clone(), item.clone(), price.parse().unwrap()));
            }
        }
    } else {
        // The pricing page's on-demand price per GiB-hour, at the book's 730 hours.
        let page: Value = serde_json::from_str(text).unwrap();
        let hours = pricing::book().hours_per_month;
        for (region, row) in page["storage"]["gcve"].as_object().unwrap() {
            for (level, hourly) in row["gcnv"].as_object().unwrap() {
                let monthly = (hourly.as_f64().unwrap() * hours * 1e6).round() / 1e6;
                out.push((region.clone(), level.clone(), monthly));
            }
        }
    }
    out
}

#[test]
fn every_excerpted_figure_is_the_books_row_with_its_source_and_date() {
    let sources: Value =
        serde_json::from_str(&repo_file("tools/data/public-prices/sources.json")).unwrap();
    let book = pricing::book();
    let rows = book.rows();
    for source in sources.as_array().unwrap() {
        let text = repo_file(&format!(
            "tools/data/public-prices/{}",
            source["file"].as_str().unwrap()
        ));
        let figures = excerpt_figures(source, &text);
        assert!(
            figures.len() >= 28,
            "{}: {} figures",
            source["file"],
            figures.len()
        );
        let service = if source["service"] == "gcnv" {
            PricedService::Gcnv
        } else {
            PricedService::AzureFiles
        };
        let repo = source["repository"].as_str().unwrap();
        let mut cited = 0;
        for (region, item, price) in &figures {
            let row = rows
                .iter()
                .find(|r| r.service == service && &r.region == region && &r.item == item)
                .unwrap_or_else(|| panic!("no {service:?} {region} {item} in the book"));
            assert!(
                (row.price - price).abs() <= 1e-6,
                "{region} {item}: book {} source {price}",
                row.price
            );
            assert_eq!(row.currency, "USD");
            // A row the catalog's reference rate prices (us-central1 Standard, from
            // Google's own page) keeps that source; every other one cites the excerpt's.
            let reference = service == PricedService::Gcnv
                && region == book.reference_region(Service::Gcnv)
                && item == Level::Standard.key();
            if !reference {
                assert!(row.source.contains(repo), "{region} {item}: {}", row.source);
                assert_eq!(
                    row.as_of,
                    source["date"].as_str().unwrap(),
                    "{region} {item}"
                );
                assert!(
                    row.provisional,
                    "{region} {item}: a secondary source is provisional"
                );
                cited += 1;
            }
        }
        assert!(cited + 1 >= figures.len(), "{cited} of {}", figures.len());
    }
}

#[test]
fn every_azure_files_and_gcnv_row_cites_a_source_and_a_date() {
    for r in pricing::book().rows() {
        if matches!(r.service, PricedService::AzureFiles | PricedService::Gcnv) {
            assert!(
                r.source.len() > 10,
                "{} {}: {:?}",
                r.region,
                r.item,
                r.source
            );
            let d = r.as_of.as_bytes();
            assert!(
                d.len() == 10 && d[4] == b'-' && d[7] == b'-',
                "{} {}: {:?}",
                r.region,
                r.item,
                r.as_of
            );
        }
    }
}

/// The coverage line of one region, as `docs/prices.md` writes it: service, region,
/// the levels whose capacity is priced, the number of rows and their dates.
fn coverage_line(service: Service, rows: &[&PriceRow]) -> String {
    let levels: Vec<&str> = Level::of(service)
        .iter()
        .filter(|l| rows.iter().any(|r| r.item == l.key()))
        .map(|l| l.display(service))
        .collect();
    let dates: BTreeSet<&str> = rows.iter().map(|r| r.as_of.as_str()).collect();
    format!(
        "| {} | {} ({}) | {} | {} | {} |",
        service.display(),
        rows[0].region_name,
        rows[0].region,
        if levels.is_empty() {
            "none".to_owned()
        } else {
            levels.join(", ")
        },
        rows.len(),
        dates.into_iter().collect::<Vec<_>>().join(", ")
    )
}

#[test]
fn the_docs_coverage_table_is_the_books() {
    let rows = pricing::book().rows();
    let mut expected = Vec::new();
    for (service, priced) in [
        (Service::AzureFiles, PricedService::AzureFiles),
        (Service::Gcnv, PricedService::Gcnv),
    ] {
        let of: Vec<&PriceRow> = rows.iter().filter(|r| r.service == priced).collect();
        let regions: BTreeSet<&str> = of.iter().map(|r| r.region.as_str()).collect();
        for region in regions {
            let here: Vec<&PriceRow> = of.iter().copied().filter(|r| r.region == region).collect();
            expected.push(coverage_line(service, &here));
        }
    }
    let doc = repo_file("docs/prices.md");
    let table = doc
        .split("### Azure Files and GCNV by region")
        .nth(1)
        .expect("docs/prices.md has the coverage section");
    // Each table line up to its last column (the source, in words).
    let written: Vec<String> = table
        .lines()
        .skip_while(|l| !l.starts_with("| service"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            format!("| {} |", cells[..cells.len().saturating_sub(1)].join(" | "))
        })
        .collect();
    assert_eq!(
        written,
        expected,
        "the table's lines should be:\n{}",
        expected.join("\n")
    );
}
