//! Azure Retail Prices API pages in, price book rows out.
//!
//! Pure (no I/O). [`parse`] reads one page as the API answers it
//! (`{"Items": [...], "NextPageLink": ..., "Count": ...}`) or a merged array of items,
//! and checks the documented fields of every item; a malformed item is refused with its
//! index and field (`Items[3].retailPrice`). [`meters`] maps the items to rows of the
//! price book with the rules `tools/price_book.py` builds the compiled book with, and
//! [`diff`] compares them with a book: what an import would add or change.
//!
//! Fields the documentation does not list (`savingsPlan`, `effectiveEndDate`, ...) and
//! envelope fields other than `Items` are accepted and ignored: the API adds fields over
//! time.

pub mod diff;
pub mod meters;

pub use diff::{ImportOutcome, ImportPlan, PlannedRow, plan};

use serde_json::{Map, Value};

/// Most items one import may hold (the whole ANF list is about 1,100).
pub const MAX_ITEMS: usize = 100_000;

/// One Retail Prices API item, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct RetailItem {
    /// Position in the page or array (0-based), for messages.
    pub index: usize,
    pub currency: String,
    /// `retailPrice`: the list price per `unit`.
    pub retail_price: f64,
    /// `armRegionName`; empty for global meters.
    pub region: String,
    /// `location`, the region's display name (`US East`).
    pub location: String,
    /// The date part (YYYY-MM-DD) of `effectiveStartDate`.
    pub effective_start: String,
    pub meter_id: String,
    pub meter_name: String,
    pub product_name: String,
    pub sku_name: String,
    pub arm_sku_name: String,
    pub service_name: String,
    /// `unitOfMeasure`, e.g. `1 GiB/Hour`.
    pub unit: String,
    /// `type`: `Consumption`, `Reservation` or `DevTestConsumption`.
    pub kind: String,
    pub tier_minimum: f64,
    /// `isPrimaryMeterRegion` (true when absent).
    pub primary: bool,
}

/// Why a file is not a Retail Prices API page: the field (`Items[3].retailPrice`, or
/// null for the whole document) and a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetailError {
    pub field: Option<String>,
    pub message: String,
}

impl std::fmt::Display for RetailError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{field}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for RetailError {}

fn whole(message: impl Into<String>) -> RetailError {
    RetailError {
        field: None,
        message: message.into(),
    }
}

/// Parses JSON bytes as a page or a merged array of items.
pub fn parse_bytes(bytes: &[u8]) -> Result<Vec<RetailItem>, RetailError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let doc: Value = serde_json::from_slice(bytes).map_err(|e| {
        let m = e.to_string();
        whole(format!(
            "not JSON ({}); save the Retail Prices API answer as it comes, e.g. curl 'https://prices.azure.com/api/retail/prices?$filter=...' > page.json",
            m.split(" at line ").next().unwrap_or(&m)
        ))
    })?;
    parse(&doc)
}

/// Reads one page (`{"Items": [...]}`) or a merged array of items.
pub fn parse(doc: &Value) -> Result<Vec<RetailItem>, RetailError> {
    let (items, prefix) = match doc {
        Value::Array(items) => (items, ""),
        Value::Object(page) => match page.get("Items") {
            Some(Value::Array(items)) => (items, "Items"),
            Some(_) => {
                return Err(RetailError {
                    field: Some("Items".to_owned()),
                    message: "`Items` must be the array of price items".to_owned(),
                });
            }
            None => {
                return Err(whole(
                    "not a Retail Prices API page: an object needs `Items`, the array of price items (or send the merged array of items itself)",
                ));
            }
        },
        _ => {
            return Err(whole(
                "not a Retail Prices API page: send the page object (`{\"Items\": [...]}`) or an array of items",
            ));
        }
    };
    if items.len() > MAX_ITEMS {
        return Err(whole(format!(
            "{} items; an import takes at most {MAX_ITEMS} (filter the query by service, e.g. serviceName eq 'Azure NetApp Files')",
            items.len()
        )));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, v)| item(i, v, prefix))
        .collect()
}

/// The fields of one item, with its path for messages.
struct Fields<'v> {
    map: &'v Map<String, Value>,
    path: String,
}

impl Fields<'_> {
    fn err(&self, field: &str, message: impl Into<String>) -> RetailError {
        RetailError {
            field: Some(format!("{}.{field}", self.path)),
            message: message.into(),
        }
    }

    /// A string field of at most [`MAX_TEXT_CHARS`]; `required` ones must be present
    /// and not null.
    fn text(&self, field: &str, required: bool) -> Result<String, RetailError> {
        match self.map.get(field) {
            Some(Value::String(s)) if s.chars().nth(MAX_TEXT_CHARS).is_some() => Err(self.err(
                field,
                format!("`{field}` is at most {MAX_TEXT_CHARS} characters"),
            )),
            Some(Value::String(s)) => Ok(s.clone()),
            None | Some(Value::Null) if !required => Ok(String::new()),
            None | Some(Value::Null) => Err(self.err(field, format!("`{field}` is missing"))),
            Some(other) => Err(self.err(
                field,
                format!("`{field}` must be a string, not {}", kind(other)),
            )),
        }
    }

    /// A number field, at least 0.
    fn amount(&self, field: &str, required: bool) -> Result<f64, RetailError> {
        match self.map.get(field) {
            Some(Value::Number(n)) => {
                let v = n
                    .as_f64()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| self.err(field, format!("`{field}` is not a finite number")))?;
                if v < 0.0 {
                    return Err(self.err(
                        field,
                        format!(
                            "`{field}` must be 0 or more, not {}",
                            crate::format::given(v)
                        ),
                    ));
                }
                Ok(v)
            }
            None | Some(Value::Null) if !required => Ok(0.0),
            None | Some(Value::Null) => Err(self.err(field, format!("`{field}` is missing"))),
            Some(other) => Err(self.err(
                field,
                format!("`{field}` must be a number, not {}", kind(other)),
            )),
        }
    }

    fn flag(&self, field: &str) -> Result<bool, RetailError> {
        match self.map.get(field) {
            Some(Value::Bool(b)) => Ok(*b),
            None | Some(Value::Null) => Ok(true),
            Some(other) => Err(self.err(
                field,
                format!("`{field}` must be true or false, not {}", kind(other)),
            )),
        }
    }
}

/// The JSON type of a value, for messages.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Longest string field of an item, in characters (the API's are names of tens).
pub const MAX_TEXT_CHARS: usize = 200;

/// The string fields of the documented list every item must have.
pub const REQUIRED_TEXT: [&str; 7] = [
    "currencyCode",
    "armRegionName",
    "meterName",
    "serviceName",
    "unitOfMeasure",
    "type",
    "effectiveStartDate",
];

/// The optional string fields of the documented list, type-checked when present
/// (null counts as absent).
pub const OPTIONAL_TEXT: [&str; 10] = [
    "location",
    "meterId",
    "productId",
    "skuId",
    "serviceId",
    "serviceFamily",
    "reservationTerm",
    "productName",
    "skuName",
    "armSkuName",
];

/// The optional number fields, at least 0 when present.
pub const OPTIONAL_AMOUNTS: [&str; 2] = ["unitPrice", "tierMinimumUnits"];

fn item(index: usize, v: &Value, prefix: &str) -> Result<RetailItem, RetailError> {
    let path = format!("{prefix}[{index}]");
    let Value::Object(map) = v else {
        return Err(RetailError {
            field: Some(path),
            message: format!("each item must be an object, not {}", kind(v)),
        });
    };
    let f = Fields { map, path };
    for field in REQUIRED_TEXT {
        f.text(field, true)?;
    }
    for field in OPTIONAL_TEXT {
        f.text(field, false)?;
    }
    for field in OPTIONAL_AMOUNTS {
        f.amount(field, false)?;
    }
    let effective = f.text("effectiveStartDate", true)?;
    let effective_start = date_part(&effective).ok_or_else(|| {
        f.err(
            "effectiveStartDate",
            format!(
                "`{}` is not a date (YYYY-MM-DD, optionally with a time)",
                clip(&effective)
            ),
        )
    })?;
    Ok(RetailItem {
        index,
        currency: f.text("currencyCode", true)?,
        retail_price: f.amount("retailPrice", true)?,
        region: f.text("armRegionName", true)?,
        location: f.text("location", false)?,
        effective_start,
        meter_id: f.text("meterId", false)?,
        meter_name: f.text("meterName", true)?,
        product_name: f.text("productName", false)?,
        sku_name: f.text("skuName", false)?,
        arm_sku_name: f.text("armSkuName", false)?,
        service_name: f.text("serviceName", true)?,
        unit: f.text("unitOfMeasure", true)?,
        kind: f.text("type", true)?,
        tier_minimum: f.amount("tierMinimumUnits", false)?,
        primary: f.flag("isPrimaryMeterRegion")?,
    })
}

/// The pattern `effectiveStartDate` follows (also in the OpenAPI document): a date,
/// then anything (the API writes `2019-05-28T00:00:00Z`).
pub const DATE_PATTERN: &str = "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])";

/// `YYYY-MM-DD` at the start of `s` ([`DATE_PATTERN`]), as written there.
pub(crate) fn date_part(s: &str) -> Option<String> {
    let b = s.as_bytes();
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let digits = |r: std::ops::Range<usize>| {
        b[r.clone()]
            .iter()
            .all(u8::is_ascii_digit)
            .then(|| b[r].iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0')))
    };
    let (_, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    ((1..=12).contains(&month) && (1..=31).contains(&day)).then(|| s[..10].to_owned())
}

/// A value shortened for a message.
fn clip(s: &str) -> String {
    let short: String = s.chars().filter(|c| !c.is_control()).take(40).collect();
    if short.chars().count() < s.chars().count() {
        format!("{short}...")
    } else {
        short
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn standard() -> Value {
        json!({
            "currencyCode": "USD", "tierMinimumUnits": 0.0, "retailPrice": 0.000202,
            "unitPrice": 0.000202, "armRegionName": "eastus", "location": "US East",
            "effectiveStartDate": "2019-05-28T00:00:00Z",
            "meterId": "5c82a6d9-c23b-42b4-b0ba-201062adf09a", "meterName": "Standard Capacity",
            "productId": "DZH318Z0BXV9", "skuId": "DZH318Z0BXV9/001M",
            "productName": "Azure NetApp Files", "skuName": "Standard",
            "serviceName": "Azure NetApp Files", "serviceId": "DZH3147RZ57L",
            "serviceFamily": "Storage", "unitOfMeasure": "1 GiB/Hour", "type": "Consumption",
            "isPrimaryMeterRegion": true, "armSkuName": ""
        })
    }

    #[test]
    fn a_page_and_an_array_of_items() {
        let page = json!({"BillingCurrency": "USD", "Items": [standard()], "NextPageLink": null, "Count": 1});
        let items = parse(&page).unwrap();
        assert_eq!(items.len(), 1);
        let i = &items[0];
        assert_eq!(
            (
                i.region.as_str(),
                i.meter_name.as_str(),
                i.effective_start.as_str()
            ),
            ("eastus", "Standard Capacity", "2019-05-28")
        );
        assert_eq!(i.retail_price, 0.000202);
        assert!(i.primary);
        assert_eq!(parse(&json!([standard(), standard()])).unwrap().len(), 2);
    }

    #[test]
    fn a_malformed_item_is_named_with_its_index_and_field() {
        let mut bad = standard();
        bad["retailPrice"] = json!("cheap");
        let e = parse(&json!({"Items": [standard(), bad]})).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("Items[1].retailPrice"));
        assert!(e.message.contains("a string"), "{e}");
        let mut neg = standard();
        neg["retailPrice"] = json!(-1);
        assert_eq!(
            parse(&json!([neg])).unwrap_err().field.as_deref(),
            Some("[0].retailPrice")
        );
        let mut no_meter = standard();
        no_meter.as_object_mut().unwrap().remove("meterName");
        assert_eq!(
            parse(&json!([no_meter])).unwrap_err().field.as_deref(),
            Some("[0].meterName")
        );
        let mut date = standard();
        date["effectiveStartDate"] = json!("2019-13-01");
        assert_eq!(
            parse(&json!([date])).unwrap_err().field.as_deref(),
            Some("[0].effectiveStartDate")
        );
        assert_eq!(
            parse(&json!([1])).unwrap_err().field.as_deref(),
            Some("[0]")
        );
    }

    #[test]
    fn other_documents_are_refused_whole() {
        assert!(parse(&json!({"items": []})).unwrap_err().field.is_none());
        assert!(parse(&json!("x")).unwrap_err().field.is_none());
        assert_eq!(
            parse(&json!({"Items": {}})).unwrap_err().field.as_deref(),
            Some("Items")
        );
        let e = parse_bytes(b"{\"Items\": [").unwrap_err();
        assert!(e.message.starts_with("not JSON"), "{e}");
        assert!(!e.message.contains(" at line "), "{e}");
    }

    #[test]
    fn dates() {
        assert_eq!(
            date_part("2025-09-01T00:00:00Z").as_deref(),
            Some("2025-09-01")
        );
        assert_eq!(date_part("2025-09-01").as_deref(), Some("2025-09-01"));
        for bad in [
            "2025-9-01",
            "2025-00-01",
            "2025-01-32",
            "yesterday",
            "",
            "2025-01-0x",
        ] {
            assert_eq!(date_part(bad), None, "{bad}");
        }
    }
}
