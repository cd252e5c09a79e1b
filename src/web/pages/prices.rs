//! The Prices page: the price book in force, region by region, its CSV export, the
//! import of Azure Retail Prices API pages (upload, a diff of new and changed rows, then
//! accept the checked ones), the upload of a price sheet (the user's own prices as CSV,
//! `prices::sheet`) and a price entered by hand for a row without one.
//!
//! Everything stored becomes a row of the database's price book (`store::prices`) with
//! its source and date; the page reads the database on every visit, so prices stored by
//! `volplan prices import` show (and apply) at once.

use super::form::parts::parts;
use super::{PageError, render};
use crate::engine::pricing::{self, PriceBook};
use crate::engine::scenario::{Level, Service};
use crate::format::price_digits;
use crate::prices::retail::diff::RowChange;
use crate::prices::retail::{self, ImportPlan, PlannedRow};
use crate::prices::rows::{self, Override, PriceRow, PricedService, RowKey};
use crate::prices::sheet;
use crate::store;
use crate::store::activity::Action;
use crate::store::today_utc;
use crate::web::access::actor;
use crate::web::auth::CurrentUser;
use crate::web::state::AppState;
use askama::Template;
use axum::extract::{Multipart, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use serde::{Deserialize, Serialize};

/// An option of a select.
pub struct Opt {
    pub value: String,
    pub label: String,
}

/// One row of the book as the page shows it.
struct RowView {
    service: &'static str,
    label: String,
    price: String,
    currency: String,
    unit: String,
    as_of: String,
    source: String,
    stored: bool,
    provisional: bool,
}

impl From<PriceRow> for RowView {
    fn from(r: PriceRow) -> Self {
        // The compiled book's long source is said once, above the table.
        let source = if *r.source == *pricing::book().source {
            "the compiled price book (source above)".to_owned()
        } else {
            r.source
        };
        RowView {
            service: r.service.display(),
            price: price_digits(r.price),
            currency: r.currency,
            label: r.label,
            unit: r.unit,
            as_of: r.as_of,
            source,
            stored: r.stored,
            provisional: r.provisional,
        }
    }
}

/// One row of an import's diff, with the token its checkbox posts back.
struct DiffView {
    token: String,
    label: String,
    region: String,
    service: &'static str,
    change: &'static str,
    old: String,
    new: String,
    currency: String,
    unit: String,
    source: String,
}

/// An upload checked against the book, waiting to be accepted.
struct Preview {
    origin: String,
    plan: ImportPlan,
    rows: Vec<DiffView>,
}

#[derive(Template)]
#[template(path = "pages/prices.html")]
struct PricesPage {
    book_id: String,
    book_date: String,
    book_source: String,
    /// "Azure NetApp Files: 51 regions, 561 prices" per service.
    summary: Vec<String>,
    notice: String,
    upload_error: String,
    preview: Option<Preview>,
    /// The filter of the table and the rows it keeps.
    service: String,
    region: String,
    /// The region as the page names it: "West Europe (westeurope)".
    region_label: String,
    services: Vec<Opt>,
    regions: Vec<Opt>,
    rows: Vec<RowView>,
    /// The storage levels without a price in the region, as "Service Level".
    unpriced: Vec<String>,
    /// The sheet upload's error, and its notice.
    sheet_error: String,
    /// The entry form: choices, values kept after an error, and the error.
    items: Vec<Opt>,
    entry: Entry,
    entry_error: String,
    entry_field: String,
}

/// The table filter of `GET /prices`.
#[derive(Debug, Default, Deserialize)]
pub struct PricesQuery {
    service: Option<String>,
    region: Option<String>,
    /// Just stored this many imported prices.
    stored: Option<usize>,
    /// Just stored a price entered by hand for this row.
    entered: Option<String>,
}

/// The entry form's values.
#[derive(Debug, Default, Clone, Deserialize)]
pub struct Entry {
    #[serde(default)]
    item: String,
    #[serde(default)]
    region: String,
    #[serde(default)]
    price: String,
    #[serde(default)]
    currency: String,
    #[serde(default)]
    note: String,
}

impl PricesPage {
    fn new(book: &PriceBook, q: &PricesQuery) -> PricesPage {
        let service = q
            .service
            .as_deref()
            .filter(|s| PricedService::from_key(s).is_some())
            .unwrap_or("")
            .to_owned();
        let region = q
            .region
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .unwrap_or(book.reference_region.anf.as_str())
            .to_owned();
        let all = book.rows();
        let mut regions: Vec<Opt> = Vec::new();
        for r in &all {
            if !regions.iter().any(|o| o.value == r.region) {
                regions.push(Opt {
                    value: r.region.clone(),
                    label: String::new(),
                });
            }
        }
        for o in &mut regions {
            o.label = book.region_label(&o.value);
        }
        regions.sort_by(|a, b| a.label.cmp(&b.label));
        let summary = PricedService::ALL
            .iter()
            .filter_map(|&s| {
                let of: Vec<&PriceRow> = all.iter().filter(|r| r.service == s).collect();
                let mut names: Vec<&str> = of.iter().map(|r| r.region.as_str()).collect();
                names.dedup();
                (!of.is_empty()).then(|| {
                    format!(
                        "{}: {} region(s), {} price(s)",
                        s.display(),
                        names.len(),
                        of.len()
                    )
                })
            })
            .collect();
        let rows = all
            .into_iter()
            .filter(|r| r.region == region)
            .filter(|r| service.is_empty() || r.service.key() == service)
            .map(RowView::from)
            .collect();
        let unpriced = unpriced_levels(book, &region);
        PricesPage {
            region_label: book.region_label(&region),
            unpriced,
            sheet_error: String::new(),
            book_id: book.id.to_string(),
            book_date: book.date.to_string(),
            book_source: book.source.to_string(),
            summary,
            notice: notice(q),
            upload_error: String::new(),
            preview: None,
            services: PricedService::ALL
                .iter()
                .map(|s| Opt {
                    value: s.key().to_owned(),
                    label: s.display().to_owned(),
                })
                .collect(),
            service,
            region,
            regions,
            rows,
            items: rows::items()
                .iter()
                .map(|i| Opt {
                    value: format!("{}/{}", i.service.key(), i.key),
                    label: format!("{}: {} (per {})", i.service.display(), i.label, i.unit),
                })
                .collect(),
            entry: Entry::default(),
            entry_error: String::new(),
            entry_field: String::new(),
        }
    }
}

/// The storage levels of the services sold in `region` (GCP's regions are written
/// with a dash, Azure's without) that no book in force prices there.
fn unpriced_levels(book: &PriceBook, region: &str) -> Vec<String> {
    let services: &[Service] = if region.contains('-') {
        &[Service::Gcnv]
    } else {
        &[Service::Anf, Service::AzureFiles]
    };
    let books: Vec<&PriceBook> = std::iter::once(book)
        .chain(book.currencies.values())
        .collect();
    let mut out = Vec::new();
    for &service in services {
        for &level in Level::of(service) {
            let key = RowKey::level(service, region, level);
            if !books.iter().any(|b| b.get(&key).is_some()) {
                out.push(format!("{} {}", service.display(), level.display(service)));
            }
        }
    }
    out
}

fn notice(q: &PricesQuery) -> String {
    match (&q.stored, &q.entered) {
        (Some(n), _) => format!(
            "Stored {n} price(s). Costs in the planner, the API and new saves use them now."
        ),
        (None, Some(row)) => format!(
            "Stored the price of {}. Costs use it now.",
            row.chars()
                .filter(|c| !c.is_control())
                .take(120)
                .collect::<String>()
        ),
        _ => String::new(),
    }
}

/// `GET /prices`.
pub async fn page(
    State(st): State<AppState>,
    Query(q): Query<PricesQuery>,
) -> Result<Response, PageError> {
    let book = st.prices.reload(&st.db).await?;
    render(StatusCode::OK, &PricesPage::new(&book, &q))
}

/// Largest upload the page takes (the body limit of the server is 1 MiB).
const MAX_UPLOAD: usize = 1024 * 1024;

/// Reads the upload form: the file's bytes and name; `empty` says what to choose when
/// no file came.
async fn read_upload(mp: Multipart, empty: &str) -> Result<(Vec<u8>, String), String> {
    let mut upload = None;
    let parts = parts(mp)
        .await
        .map_err(|e| format!("The upload could not be read ({e}). Try again."))?;
    for p in parts.into_iter().filter(|p| p.name == "file") {
        if p.bytes.len() > MAX_UPLOAD {
            return Err("The file is over 1 MiB; split the import into pages.".to_owned());
        }
        let name = p.file_name.unwrap_or_else(|| "an uploaded file".to_owned());
        upload = Some((p.bytes.to_vec(), name));
    }
    upload
        .filter(|(b, _)| !b.is_empty())
        .ok_or_else(|| empty.to_owned())
}

/// What an accepted row's checkbox posts back.
#[derive(Debug, Serialize, Deserialize)]
struct Token {
    service: PricedService,
    region: String,
    item: String,
    price: f64,
    currency: String,
    region_name: String,
    source: String,
}

impl Token {
    fn of(r: &PlannedRow) -> Token {
        Token {
            service: r.service,
            region: r.region.clone(),
            item: r.item.clone(),
            price: r.new,
            currency: r.currency.clone(),
            region_name: r.region_name.clone(),
            source: r.source.clone(),
        }
    }
}

fn diff_view(r: &PlannedRow) -> DiffView {
    DiffView {
        token: serde_json::to_string(&Token::of(r)).unwrap_or_default(),
        label: r.label.clone(),
        region: format!("{} ({})", r.region, r.region_name),
        service: r.service.display(),
        change: match r.change {
            RowChange::Added => "new",
            RowChange::Changed => "changed",
            RowChange::Unchanged => "unchanged",
        },
        old: r.old.map_or_else(|| "none".to_owned(), price_digits),
        new: price_digits(r.new),
        currency: r.currency.clone(),
        unit: r.unit.clone(),
        source: r.source.clone(),
    }
}

/// `POST /prices/preview`: an uploaded page checked against the book, shown as a diff
/// with a checkbox per new or changed row; nothing is stored yet.
pub async fn preview(State(st): State<AppState>, mp: Multipart) -> Result<Response, PageError> {
    let book = st.prices.reload(&st.db).await?;
    let mut page = PricesPage::new(&book, &PricesQuery::default());
    let (bytes, origin) = match read_upload(
        mp,
        "Choose a Retail Prices API page (a .json file), then Check.",
    )
    .await
    {
        Ok(u) => u,
        Err(msg) => {
            page.upload_error = msg;
            return render(StatusCode::BAD_REQUEST, &page);
        }
    };
    let items = match retail::parse_bytes(&bytes) {
        Ok(items) => items,
        Err(e) => {
            page.upload_error = format!("{origin} was not imported: {e}. Nothing was stored.");
            return render(StatusCode::UNPROCESSABLE_ENTITY, &page);
        }
    };
    let plan = retail::plan(&items, &book);
    let rows = plan.accepted().map(diff_view).collect();
    page.preview = Some(Preview { origin, plan, rows });
    render(StatusCode::OK, &page)
}

/// The rows a diff's form posts back, checked again (a token is only as good as the
/// form it came in).
fn accepted_rows(pairs: &[(String, String)], as_of: &str, origin: &str) -> Vec<Override> {
    pairs
        .iter()
        .filter(|(k, _)| k == "row")
        .filter_map(|(_, v)| serde_json::from_str::<Token>(v).ok())
        .filter_map(|t| {
            let key = RowKey {
                service: t.service,
                region: t.region,
                item: t.item,
            };
            rows::check_row(&key, t.price).ok()?;
            rows::check_currency(&t.currency).ok()?;
            Some(Override {
                key,
                price: t.price,
                currency: t.currency,
                region_name: Some(t.region_name),
                as_of: as_of.to_owned(),
                source: format!("{}; imported from {origin}", t.source),
            })
        })
        .collect()
}

/// `POST /prices/accept`: stores the checked rows of a diff.
pub async fn accept(
    State(st): State<AppState>,
    user: CurrentUser,
    axum::Form(pairs): axum::Form<Vec<(String, String)>>,
) -> Result<Response, PageError> {
    let origin: String = pairs
        .iter()
        .find(|(k, _)| k == "origin")
        .map(|(_, v)| v.chars().filter(|c| !c.is_control()).take(120).collect())
        .unwrap_or_else(|| "an uploaded file".to_owned());
    let rows = accepted_rows(&pairs, &today_utc(), &origin);
    if !rows.is_empty() {
        st.prices
            .replace(store::prices::store(&st.db, &rows, actor(&user), Action::Imported).await?);
    }
    Ok(Redirect::to(&format!("/prices?stored={}", rows.len())).into_response())
}

/// `POST /prices/sheet`: a price sheet (CSV) checked line by line and stored; every bad
/// line is named beside the upload and nothing is stored.
pub async fn sheet(
    State(st): State<AppState>,
    user: CurrentUser,
    mp: Multipart,
) -> Result<Response, PageError> {
    let upload = read_upload(mp, "Choose a price sheet (a .csv file), then Store.").await;
    let parsed = upload.and_then(|(bytes, origin)| {
        sheet::parse(&bytes, st.book().hours_per_month, &today_utc())
            .map_err(|e| format!("{origin} was not stored: {e}. Nothing was stored."))
    });
    match parsed {
        Ok(rows) => {
            let (outcome, book) = store::prices::sheet(&st.db, rows, false, actor(&user)).await?;
            st.prices.replace(book);
            let n = outcome.added + outcome.changed;
            Ok(Redirect::to(&format!("/prices?stored={n}")).into_response())
        }
        Err(msg) => {
            let book = st.prices.reload(&st.db).await?;
            let mut page = PricesPage::new(&book, &PricesQuery::default());
            page.sheet_error = msg;
            render(StatusCode::UNPROCESSABLE_ENTITY, &page)
        }
    }
}

/// Most characters of the note of a price entered by hand.
const MAX_NOTE: usize = 200;

/// The entry form as a stored price, or the field and what is wrong.
fn entered(e: &Entry, as_of: &str) -> Result<Override, (&'static str, String)> {
    let (service, item) = e
        .item
        .split_once('/')
        .and_then(|(s, i)| Some((PricedService::from_key(s)?, i)))
        .ok_or(("item", "Choose what the price is for.".to_owned()))?;
    let price: f64 = e.price.trim().parse().map_err(|_| {
        (
            "price",
            format!(
                "`{}` is not a price; write it as a number, e.g. 0.25",
                e.price.trim()
            ),
        )
    })?;
    let currency = match e.currency.trim() {
        "" => "USD",
        c => rows::check_currency(c).map_err(|err| (err.field, format!("{}.", err.message)))?,
    };
    let key = RowKey {
        service,
        region: e.region.trim().to_owned(),
        item: item.to_owned(),
    };
    rows::check_row(&key, price).map_err(|err| (err.field, format!("{}.", err.message)))?;
    let note: String = e.note.chars().filter(|c| !c.is_control()).collect();
    if note.chars().count() > MAX_NOTE {
        return Err(("note", format!("Keep the note to {MAX_NOTE} characters.")));
    }
    let note = note.trim();
    Ok(Override {
        key,
        price,
        currency: currency.to_owned(),
        region_name: None,
        as_of: as_of.to_owned(),
        source: if note.is_empty() {
            "entered by hand on the Prices page".to_owned()
        } else {
            format!("entered by hand on the Prices page: {note}")
        },
    })
}

/// `POST /prices/enter`: one price entered by hand (a negotiated rate, a level without a
/// public price).
pub async fn enter(
    State(st): State<AppState>,
    user: CurrentUser,
    axum::Form(e): axum::Form<Entry>,
) -> Result<Response, PageError> {
    match entered(&e, &today_utc()) {
        Ok(o) => {
            let what = format!("{} {} in {}", o.key.service.key(), o.key.item, o.key.region);
            st.prices
                .replace(store::prices::store(&st.db, &[o], actor(&user), Action::Changed).await?);
            let to = format!(
                "/prices?entered={}",
                form_urlencoded::byte_serialize(what.as_bytes()).collect::<String>()
            );
            Ok(Redirect::to(&to).into_response())
        }
        Err((field, message)) => {
            let book = st.prices.reload(&st.db).await?;
            let mut page = PricesPage::new(&book, &PricesQuery::default());
            page.entry = e;
            page.entry_error = crate::web::pages::form::prose_quotes(&message);
            page.entry_field = field.to_owned();
            render(StatusCode::UNPROCESSABLE_ENTITY, &page)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_are_written_with_two_to_six_decimals() {
        assert_eq!(price_digits(0.14746), "0.14746");
        assert_eq!(price_digits(10.0), "10.00");
        assert_eq!(price_digits(0.2), "0.20");
        assert_eq!(price_digits(0.000273973), "0.000274");
    }

    #[test]
    fn an_entry_is_checked() {
        let e = Entry {
            item: "gcnv/premium".into(),
            region: "europe-west1".into(),
            price: "0.31".into(),
            currency: String::new(),
            note: "negotiated\n".into(),
        };
        let o = entered(&e, "2026-12-01").unwrap();
        assert_eq!((o.key.item.as_str(), o.price), ("premium", 0.31));
        assert!(o.source.ends_with(": negotiated"), "{}", o.source);
        let bad = Entry {
            price: "cheap".into(),
            ..e.clone()
        };
        assert_eq!(entered(&bad, "2026-12-01").unwrap_err().0, "price");
        let bad = Entry {
            item: "gcnv/ultra".into(),
            ..e
        };
        assert_eq!(entered(&bad, "2026-12-01").unwrap_err().0, "item");
    }
}
