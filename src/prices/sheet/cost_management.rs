//! A Cost Management price sheet as Azure exports it (the `PriceSheet` dataset, or the
//! price sheet downloaded from the billing account): the Enterprise Agreement column
//! set (`MeterId, MeterName, MeterCategory, MeterSubCategory, MeterRegion, Product,
//! UnitOfMeasure, UnitPrice, CurrencyCode, EffectiveStartDate, PriceType, ...`) and the
//! Microsoft Customer Agreement one (the same names in camel case, `currency` for the
//! currency, and the billing account's columns). Columns are found by name, in any
//! order and case; columns the book does not need are ignored.
//!
//! Each line of the services the book prices (`MeterCategory` "Azure NetApp Files",
//! "Storage", "Azure VMware Solution") becomes a Retail Prices API item and takes the
//! same rules to a row of the book (`prices::retail::meters`): the product is the part
//! of `Product` before the first " - " (`MeterSubCategory` without one), the SKU the
//! part after it; `UnitPrice` (the agreement's price) per `UnitOfMeasure` (a unit of
//! "100 GiB/Month" divides the price by 100); `MeterRegion` an Azure region's name,
//! its billing label ("EU West") or its `armRegionName`. Every other line is left
//! alone. A bad cell of a priced service's line (a price that is not a number, a date
//! that is not one, a currency outside ISO 4217) is named with its row and column, as
//! for volplan's own sheet.

use super::{BadRows, MAX_ERRORS};
use crate::engine::field_error::{FieldError, FieldErrors};
use crate::engine::regions;
use crate::prices::retail::date_part;
use crate::prices::retail::{RetailItem, meters};
use crate::prices::rows::{Override, check_currency};

/// The billing labels of Azure regions as price sheets and the Retail Prices API's
/// `location` write them, with their `armRegionName` (the `location` and
/// `armRegionName` pairs of the Retail Prices API snapshot in Azure/azure-netapp-files
/// `docs/calc/beta/pricing-data.json` @ 5bd1556, 2026-01-29).
const BILLING_LABELS: [(&str, &str); 99] = [
    ("AU Central", "australiacentral"),
    ("Australia Central", "australiacentral"),
    ("AU Central 2", "australiacentral2"),
    ("Australia Central 2", "australiacentral2"),
    ("AU East", "australiaeast"),
    ("Australia East", "australiaeast"),
    ("AU Southeast", "australiasoutheast"),
    ("Australia Southeast", "australiasoutheast"),
    ("BR South", "brazilsouth"),
    ("Brazil South", "brazilsouth"),
    ("BR Southeast", "brazilsoutheast"),
    ("Brazil Southeast", "brazilsoutheast"),
    ("CA Central", "canadacentral"),
    ("Canada Central", "canadacentral"),
    ("CA East", "canadaeast"),
    ("Canada East", "canadaeast"),
    ("Central India", "centralindia"),
    ("IN Central", "centralindia"),
    ("Central US", "centralus"),
    ("US Central", "centralus"),
    ("AP East", "eastasia"),
    ("East Asia", "eastasia"),
    ("East US", "eastus"),
    ("US East", "eastus"),
    ("East US 2", "eastus2"),
    ("US East 2", "eastus2"),
    ("FR Central", "francecentral"),
    ("France Central", "francecentral"),
    ("FR South", "francesouth"),
    ("DE North", "germanynorth"),
    ("Germany North", "germanynorth"),
    ("DE West Central", "germanywestcentral"),
    ("Germany West Central", "germanywestcentral"),
    ("IL Central", "israelcentral"),
    ("Israel Central", "israelcentral"),
    ("IT North", "italynorth"),
    ("Italy North", "italynorth"),
    ("JA East", "japaneast"),
    ("Japan East", "japaneast"),
    ("JA West", "japanwest"),
    ("Japan West", "japanwest"),
    ("KR Central", "koreacentral"),
    ("Korea Central", "koreacentral"),
    ("KR South", "koreasouth"),
    ("Korea South", "koreasouth"),
    ("MY West", "malaysiawest"),
    ("MX Central", "mexicocentral"),
    ("Mexico Central", "mexicocentral"),
    ("NZ North", "newzealandnorth"),
    ("North Central US", "northcentralus"),
    ("US North Central", "northcentralus"),
    ("EU North", "northeurope"),
    ("North Europe", "northeurope"),
    ("NO East", "norwayeast"),
    ("Norway East", "norwayeast"),
    ("NO West", "norwaywest"),
    ("Norway West", "norwaywest"),
    ("QA Central", "qatarcentral"),
    ("Qatar Central", "qatarcentral"),
    ("South Africa North", "southafricanorth"),
    ("ZA North", "southafricanorth"),
    ("South Central US", "southcentralus"),
    ("US South Central", "southcentralus"),
    ("AP Southeast", "southeastasia"),
    ("SouthEast Asia", "southeastasia"),
    ("Southeast Asia", "southeastasia"),
    ("IN South", "southindia"),
    ("South India", "southindia"),
    ("ES Central", "spaincentral"),
    ("Spain Central", "spaincentral"),
    ("SE Central", "swedencentral"),
    ("Sweden Central", "swedencentral"),
    ("SE South", "swedensouth"),
    ("Sweden South", "swedensouth"),
    ("CH North", "switzerlandnorth"),
    ("Switzerland North", "switzerlandnorth"),
    ("CH West", "switzerlandwest"),
    ("Switzerland West", "switzerlandwest"),
    ("AE Central", "uaecentral"),
    ("UAE Central", "uaecentral"),
    ("AE North", "uaenorth"),
    ("UAE North", "uaenorth"),
    ("UK South", "uksouth"),
    ("UK West", "ukwest"),
    ("US Gov AZ", "usgovarizona"),
    ("US Gov Arizona", "usgovarizona"),
    ("US Gov TX", "usgovtexas"),
    ("US Gov Texas", "usgovtexas"),
    ("US Gov Virginia", "usgovvirginia"),
    ("US West Central", "westcentralus"),
    ("West Central US", "westcentralus"),
    ("EU West", "westeurope"),
    ("West Europe", "westeurope"),
    ("US West", "westus"),
    ("West US", "westus"),
    ("US West 2", "westus2"),
    ("West US 2", "westus2"),
    ("US West 3", "westus3"),
    ("West US 3", "westus3"),
];

/// The services whose lines are read (`MeterCategory`).
const CATEGORIES: [&str; 3] = ["Azure NetApp Files", "Storage", "Azure VMware Solution"];

/// A column name as compared: lower case without spaces or underscores.
fn norm(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// True when a header (normalised names) is a Cost Management price sheet's.
pub(super) fn is_export(names: &[String]) -> bool {
    let has = |n: &str| names.iter().any(|x| norm(x) == n);
    has("metername") && has("unitprice") && has("metercategory")
}

/// The columns read, each by its accepted names (EA first, then MCA).
const WANTED: [(&str, &[&str]); 11] = [
    ("MeterName", &["metername"]),
    ("MeterCategory", &["metercategory"]),
    ("MeterSubCategory", &["metersubcategory"]),
    ("MeterRegion", &["meterregion"]),
    ("Product", &["product", "productname"]),
    ("UnitOfMeasure", &["unitofmeasure"]),
    ("UnitPrice", &["unitprice"]),
    (
        "CurrencyCode",
        &["currencycode", "currency", "billingcurrency"],
    ),
    ("EffectiveStartDate", &["effectivestartdate"]),
    ("PriceType", &["pricetype"]),
    ("TierMinimumUnits", &["tierminimumunits"]),
];

/// Columns without which no line can be read.
const REQUIRED: [&str; 6] = [
    "MeterName",
    "MeterCategory",
    "MeterRegion",
    "UnitOfMeasure",
    "UnitPrice",
    "EffectiveStartDate",
];

/// The `armRegionName` of a `MeterRegion`: an Azure region's key, its name or its
/// billing label; `None` when it names none.
fn region_key(text: &str) -> Option<String> {
    let t = text.trim();
    let key = norm(t);
    if regions::get(&key).is_some() {
        return Some(key);
    }
    BILLING_LABELS
        .iter()
        .find(|(label, _)| label.eq_ignore_ascii_case(t))
        .map(|(_, k)| (*k).to_owned())
        .or_else(|| {
            regions::map()
                .regions
                .iter()
                .find(|(_, r)| r.name.eq_ignore_ascii_case(t))
                .map(|(k, _)| k.clone())
        })
}

/// `(price per one unit, unit)`: "100 GiB/Month" at 5.00 is 0.05 per "1 GiB/Month".
fn per_one(price: f64, unit: &str) -> (f64, String) {
    let u = unit.trim();
    let digits: String = u.chars().take_while(|c| c.is_ascii_digit()).collect();
    let rest = u[digits.len()..].trim_start();
    match digits.parse::<f64>() {
        Ok(n) if n > 1.0 => {
            let rest = rest
                .strip_prefix(['K', 'k'])
                .map_or(rest.to_owned(), |r| format!("K{r}"));
            ((price / n * 1e9).round() / 1e9, format!("1 {rest}"))
        }
        _ => (price, u.to_owned()),
    }
}

/// Reads an export (its header `names`, already checked by [`is_export`]; `errors` the
/// lines already found bad) into prices to store, priced in the book's units (`hours` per month), dated by each line's
/// `EffectiveStartDate` (checked against `today`).
pub(super) fn parse(
    reader: &mut csv::Reader<&[u8]>,
    names: &[String],
    mut errors: BadRows,
    hours: f64,
    today: &str,
) -> Result<Vec<Override>, FieldErrors> {
    let normed: Vec<String> = names.iter().map(|n| norm(n)).collect();
    let index: Vec<Option<usize>> = WANTED
        .iter()
        .map(|(_, accepted)| {
            accepted
                .iter()
                .find_map(|a| normed.iter().position(|n| n == a))
        })
        .collect();
    let missing: Vec<&str> = WANTED
        .iter()
        .zip(&index)
        .filter(|((name, _), i)| i.is_none() && REQUIRED.contains(name))
        .map(|((name, _), _)| *name)
        .collect();
    if !missing.is_empty() {
        return Err(FieldError::new(
            "header",
            format!(
                "a Cost Management price sheet needs the column(s) {}; export the whole PriceSheet dataset or keep those columns",
                missing.join(", ")
            ),
        )
        .into());
    }
    let col = |name: &str| {
        WANTED
            .iter()
            .position(|(n, _)| *n == name)
            .and_then(|i| index[i])
    };
    let mut items = Vec::new();
    for (n, record) in reader.records().enumerate() {
        let row = n + 1;
        if errors.count >= MAX_ERRORS {
            break;
        }
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                errors.whole(row, format!("not CSV ({e})"));
                break;
            }
        };
        let cell = |name: &str| col(name).and_then(|i| record.get(i)).unwrap_or("");
        if !CATEGORIES.contains(&cell("MeterCategory")) {
            continue;
        }
        let price = match cell("UnitPrice").parse::<f64>() {
            Ok(p) if p.is_finite() && p >= 0.0 => p,
            _ => {
                errors.push(
                    row,
                    "UnitPrice",
                    format!(
                        "`{}` is not a price; the export writes it as a number such as 0.25",
                        super::clip(cell("UnitPrice"))
                    ),
                );
                continue;
            }
        };
        let Some(start) = date_part(cell("EffectiveStartDate")) else {
            errors.push(
                row,
                "EffectiveStartDate",
                format!(
                    "`{}` is not a date; the export writes YYYY-MM-DD or an ISO 8601 time",
                    super::clip(cell("EffectiveStartDate"))
                ),
            );
            continue;
        };
        if let Err(m) = super::checks::as_of(&start, today) {
            errors.push(row, "EffectiveStartDate", m);
            continue;
        }
        let currency = match col("CurrencyCode").map(|_| cell("CurrencyCode")) {
            Some(c) => match check_currency(c) {
                Ok(code) => code,
                Err(e) => {
                    errors.push(row, "CurrencyCode", e.message);
                    continue;
                }
            },
            None => "USD",
        };
        let product = cell("Product");
        let (product_name, sku_name) = match product.split_once(" - ") {
            Some((p, rest)) => (p, rest.split(" - ").next().unwrap_or("")),
            None if !cell("MeterSubCategory").is_empty() => (cell("MeterSubCategory"), product),
            None => (cell("MeterCategory"), product),
        };
        let (price, unit) = per_one(price, cell("UnitOfMeasure"));
        let kind = match cell("PriceType") {
            "" => "Consumption",
            k => k,
        };
        items.push(RetailItem {
            index: row,
            currency: currency.to_owned(),
            retail_price: price,
            region: region_key(cell("MeterRegion")).unwrap_or_default(),
            location: cell("MeterRegion").to_owned(),
            effective_start: start,
            meter_id: String::new(),
            meter_name: cell("MeterName").to_owned(),
            product_name: product_name.to_owned(),
            sku_name: sku_name.to_owned(),
            arm_sku_name: String::new(),
            service_name: cell("MeterCategory").to_owned(),
            unit,
            kind: kind.to_owned(),
            tier_minimum: cell("TierMinimumUnits").parse().unwrap_or(0.0),
            primary: true,
        });
    }
    errors.checks.finish()?;
    let mapped = meters::map_from(&items, hours, "Cost Management price sheet");
    if let Some(r) = mapped.refused.first() {
        return Err(FieldError::new(
            format!("rows[{}].UnitPrice", r.index),
            format!("row {}, UnitPrice: {}", r.index, r.reason),
        )
        .into());
    }
    if mapped.rows.is_empty() {
        return Err(FieldError::new(
            "header",
            "the price sheet has no price the book holds: keep the lines whose MeterCategory is Azure NetApp Files, Storage (Azure Files) or Azure VMware Solution",
        )
        .into());
    }
    Ok(mapped
        .rows
        .into_iter()
        .map(|r| Override {
            key: r.key,
            price: r.price,
            currency: r.currency,
            region_name: r.region_name,
            as_of: r.effective_start,
            source: r.source,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_are_read_by_label_name_or_key() {
        assert_eq!(region_key("EU West").as_deref(), Some("westeurope"));
        assert_eq!(region_key("West Europe").as_deref(), Some("westeurope"));
        assert_eq!(region_key("eastus").as_deref(), Some("eastus"));
        assert_eq!(region_key("US East").as_deref(), Some("eastus"));
        assert_eq!(region_key("Atlantis"), None);
    }

    fn read(name: &str) -> Result<Vec<Override>, FieldErrors> {
        let path = format!(
            "{}/tests/fixtures/prices/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let bytes = std::fs::read(path).expect("fixture");
        crate::prices::sheet::parse(&bytes, 730.0, "2026-12-06")
    }

    fn got(rows: &[Override]) -> Vec<(&str, &str, f64, &str, &str)> {
        rows.iter()
            .map(|r| {
                (
                    r.key.region.as_str(),
                    r.key.item.as_str(),
                    r.price,
                    r.currency.as_str(),
                    r.as_of.as_str(),
                )
            })
            .collect()
    }

    #[test]
    fn an_ea_export_in_euros_prices_the_rows_it_holds() {
        let rows = read("pricesheet-ea-eur.csv").unwrap();
        assert_eq!(
            got(&rows),
            [
                ("westeurope", "backup", 0.055, "EUR", "2026-11-01"),
                ("westeurope", "premium", 0.24528, "EUR", "2026-11-01"),
                ("westeurope", "standard", 0.12264, "EUR", "2026-11-01"),
                ("westeurope", "ultra", 0.32704, "EUR", "2026-11-01"),
                ("westeurope", "hdd_payg_hot", 0.026, "EUR", "2026-11-01"),
            ]
        );
        assert!(
            rows.iter()
                .all(|r| r.source.starts_with("Cost Management price sheet: ")),
            "{rows:?}"
        );
    }

    #[test]
    fn an_mca_export_reads_its_own_columns() {
        let rows = read("pricesheet-mca-eur.csv").unwrap();
        assert_eq!(
            got(&rows),
            [
                ("westeurope", "premium", 0.2482, "EUR", "2026-10-01"),
                ("westeurope", "AV36P", 10.05, "EUR", "2026-10-01"),
            ]
        );
    }

    #[test]
    fn bad_cells_of_priced_lines_are_named_and_others_left_alone() {
        let head = "MeterName,MeterCategory,MeterRegion,UnitOfMeasure,UnitPrice,CurrencyCode,EffectiveStartDate\n";
        let body = format!(
            "{head}Premium Capacity,Azure NetApp Files,EU West,1 GiB/Hour,cheap,EUR,2026-11-01\n\
             Premium Capacity,Azure NetApp Files,EU West,1 GiB/Hour,0.0003,EURO,2026-11-01\n\
             Ultra Capacity,Azure NetApp Files,EU West,1 GiB/Hour,0.0004,EUR,someday\n\
             D2 v3,Virtual Machines,EU West,1 Hour,n/a,EUR,never\n"
        );
        let e = crate::prices::sheet::parse(body.as_bytes(), 730.0, "2026-12-06").unwrap_err();
        let fields: Vec<&str> = e.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "rows[1].UnitPrice",
                "rows[2].CurrencyCode",
                "rows[3].EffectiveStartDate"
            ]
        );
        let e = crate::prices::sheet::parse(
            b"MeterName,MeterCategory,UnitPrice\nPremium Capacity,Azure NetApp Files,1\n",
            730.0,
            "2026-12-06",
        )
        .unwrap_err();
        assert!(e.first().message.contains("MeterRegion"), "{e:?}");
    }

    #[test]
    fn a_unit_of_many_is_priced_per_one() {
        assert_eq!(
            per_one(5.0, "100 GiB/Month"),
            (0.05, "1 GiB/Month".to_owned())
        );
        assert_eq!(per_one(0.2, "1 GiB/Hour"), (0.2, "1 GiB/Hour".to_owned()));
    }
}
