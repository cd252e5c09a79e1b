//! The AVS page: upload an inventory, see what was kept, and the plan for the choices
//! in the address (host SKU, region, level, datastores, growth): host counts, TCO,
//! datastores, the VM-to-datastore table with search, charts; save the plan's clusters
//! as scenarios.
//!
//! Parsing and planning are the inventory module's and the engine's; this module reads
//! the request, calls them, and shapes the figures for the template.

use super::{PageError, parse_id, render};
use crate::avs::{self, AvsPlan, PlaceUnit, PlanRequest, PurchaseTerm};
use crate::engine::scenario::Level;
use crate::format;
use crate::inventory::{self, CapacityBasis, Inventory, Options};
use crate::report::avs as report_avs;
use crate::report::charts::Chart;
use crate::report::{Edition, Format, RenderOptions};
use crate::store;
use crate::store::today_utc;
use crate::verdict::avs::AvsVerdict;
use crate::web::AppState;
use crate::web::render_pool::Turn;
use askama::Template;
use axum::extract::{Multipart, Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

/// The plan choices, as the options form sends them (every field optional).
#[derive(Debug, Default, Clone, Deserialize)]
pub struct PlanQuery {
    pub host_sku: Option<String>,
    pub region: Option<String>,
    pub level: Option<String>,
    pub datastores: Option<String>,
    pub growth_pct: Option<String>,
    pub unit: Option<String>,
    pub basis: Option<String>,
    pub nconnect: Option<String>,
    /// The purchase term the TCO verdict follows: `payg`, `1y` or `3y` (default).
    pub term: Option<String>,
    pub q: Option<String>,
    /// `customer` (default) or `engineer`: who a download is for.
    pub edition: Option<String>,
}

/// Most VM rows the page lists at once (the search narrows them).
const MAX_ROWS: usize = 500;

/// A row of the VM-to-datastore table.
pub struct VmRow {
    pub vm: String,
    pub disk: String,
    pub datastore: String,
    pub tib: String,
    pub mibps: String,
    pub flags: String,
}

#[derive(Template)]
#[template(path = "pages/avs.html")]
pub struct AvsPage {
    pub error: String,
    pub id: i64,
    pub origin: String,
    pub inventory: Option<Inventory>,
    pub plan: Option<AvsPlan>,
    /// The plan's verdict at the chosen term (what the page says about the cost).
    pub verdict: Option<AvsVerdict>,
    pub plan_error: String,
    pub query: PlanQuery,
    /// The choices as a query string, for the PDF link and the save form.
    pub query_string: String,
    pub skus: Vec<&'static str>,
    pub regions: Vec<(String, String)>,
    pub rows: Vec<VmRow>,
    pub matching: usize,
    pub fill_chart: String,
    pub tco_chart: String,
    /// The capacity the plan sized on.
    pub basis: CapacityBasis,
}

impl AvsPage {
    fn empty() -> AvsPage {
        AvsPage {
            error: String::new(),
            id: 0,
            origin: String::new(),
            inventory: None,
            plan: None,
            verdict: None,
            plan_error: String::new(),
            query: PlanQuery::default(),
            query_string: String::new(),
            skus: avs::hosts::HOSTS.iter().map(|h| h.sku).collect(),
            regions: Vec::new(),
            rows: Vec::new(),
            matching: 0,
            fill_chart: String::new(),
            tco_chart: String::new(),
            basis: CapacityBasis::InUse,
        }
    }

    /// The two options of the TCO table.
    pub fn options(&self) -> Vec<(&'static str, &avs::tco::OptionCost)> {
        self.plan.as_ref().map_or_else(Vec::new, |p| {
            vec![
                ("vSAN only", &p.tco.vsan_only),
                ("With ANF datastores", &p.tco.with_anf),
            ]
        })
    }

    /// The choices as hidden fields of the search form.
    pub fn hidden(&self) -> Vec<(String, String)> {
        form_urlencoded::parse(self.query_string.as_bytes())
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect()
    }

    /// Whether option `v` of select `field` is the chosen one.
    pub fn chosen(&self, field: &str, v: &str) -> bool {
        let q = &self.query;
        let cur = match field {
            "host_sku" => q.host_sku.as_deref().unwrap_or("AV36"),
            "region" => self.plan.as_ref().map_or("", |p| p.region.as_str()),
            "level" => q.level.as_deref().unwrap_or(""),
            "unit" => q.unit.as_deref().unwrap_or("vm"),
            "basis" => q.basis.as_deref().unwrap_or("in_use"),
            "nconnect" => q.nconnect.as_deref().unwrap_or("1"),
            "term" => self.verdict.as_ref().map_or("3y", |v| v.term.key()),
            _ => "",
        };
        cur.eq_ignore_ascii_case(v)
    }
}

/// `GET /avs`: the upload form.
pub async fn page() -> Result<Response, PageError> {
    render(StatusCode::OK, &AvsPage::empty())
}

/// The upload form's fields.
struct Upload {
    file: Vec<u8>,
    origin: String,
    performance: Vec<u8>,
    opts: Options,
}

async fn read_upload(mut mp: Multipart) -> Result<Upload, String> {
    let mut up = Upload {
        file: Vec::new(),
        origin: "an uploaded file".to_owned(),
        performance: Vec::new(),
        opts: Options::default(),
    };
    loop {
        let field = match mp.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) => return Err(format!("The upload could not be read ({e}). Try again.")),
        };
        let name = field.name().unwrap_or("").to_owned();
        if name == "file"
            && let Some(n) = field.file_name()
        {
            let n: String = n.chars().filter(|c| !c.is_control()).take(120).collect();
            if !n.is_empty() {
                up.origin = n;
            }
        }
        let bytes = field
            .bytes()
            .await
            .map_err(|e| format!("The upload could not be read ({e}). Try again."))?;
        match name.as_str() {
            "file" => up.file = bytes.to_vec(),
            "performance" => up.performance = bytes.to_vec(),
            "include_powered_off" => up.opts.include_powered_off = true,
            "anonymise" => up.opts.anonymise = true,
            _ => {}
        }
    }
    if up.file.is_empty() {
        return Err("Choose an RVTools export (.xlsx or its vInfo .csv), then Import.".to_owned());
    }
    Ok(up)
}

/// `POST /avs`: imports the uploaded inventory and shows its plan.
pub async fn upload(State(st): State<AppState>, mp: Multipart) -> Result<Response, PageError> {
    let mut page = AvsPage::empty();
    let up = match read_upload(mp).await {
        Ok(u) => u,
        Err(msg) => {
            page.error = msg;
            return render(StatusCode::BAD_REQUEST, &page);
        }
    };
    // An anonymised inventory keeps no file name either: it may name the customer.
    let origin = if up.opts.anonymise {
        "an anonymised inventory".to_owned()
    } else {
        up.origin
    };
    let parsed = st
        .renders
        .run("inventory import", Turn::Answer, move || {
            let perf = (!up.performance.is_empty()).then_some(up.performance.as_slice());
            inventory::import(&up.file, perf, up.opts).map(|inv| (inv, origin))
        })
        .await?;
    let (inv, origin) = match parsed {
        Ok(x) => x,
        Err(e) => {
            page.error = format!("The file was not imported: {}", e.message);
            return render(StatusCode::UNPROCESSABLE_ENTITY, &page);
        }
    };
    let id = store::avs::add_inventory(&st.db, &origin, &inv).await?;
    Ok(Redirect::to(&format!("/avs/{id}")).into_response())
}

/// The plan request for an inventory and the page's choices; a choice that does not
/// read is a sentence saying which.
fn request(inv: Inventory, q: &PlanQuery) -> Result<PlanRequest, String> {
    let mut r = PlanRequest::new(inv);
    let text = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    if let Some(s) = text(&q.host_sku) {
        r.host_sku = s;
    }
    r.region = text(&q.region);
    r.level = match text(&q.level) {
        None => None,
        Some(l) => Some(
            serde_json::from_value::<Level>(serde_json::Value::String(l.to_ascii_lowercase()))
                .map_err(|_| format!("Level `{l}` is not standard, premium, ultra or flexible."))?,
        ),
    };
    if let Some(n) = text(&q.datastores) {
        r.datastores = Some(
            n.parse()
                .map_err(|_| format!("Datastores must be a whole number, not `{n}`."))?,
        );
    }
    if let Some(g) = text(&q.growth_pct) {
        r.growth_pct = g
            .parse()
            .map_err(|_| format!("Growth must be a number of %, not `{g}`."))?;
    }
    r.unit = if text(&q.unit).as_deref() == Some("disk") {
        PlaceUnit::Disk
    } else {
        PlaceUnit::Vm
    };
    r.capacity_basis = if text(&q.basis).as_deref() == Some("provisioned") {
        CapacityBasis::Provisioned
    } else {
        CapacityBasis::InUse
    };
    if let Some(n) = text(&q.nconnect) {
        r.nconnect = n
            .parse()
            .map_err(|_| format!("nconnect must be 1 or 4, not `{n}`."))?;
    }
    if let Some(t) = text(&q.term) {
        r.term = PurchaseTerm::ALL
            .into_iter()
            .find(|k| k.key().eq_ignore_ascii_case(&t))
            .ok_or_else(|| format!("Term must be payg, 1y or 3y, not `{t}`."))?;
    }
    Ok(r)
}

/// The choices as a query string.
fn query_string(q: &PlanQuery) -> String {
    let mut s = form_urlencoded::Serializer::new(String::new());
    for (k, v) in [
        ("host_sku", &q.host_sku),
        ("region", &q.region),
        ("level", &q.level),
        ("datastores", &q.datastores),
        ("growth_pct", &q.growth_pct),
        ("unit", &q.unit),
        ("basis", &q.basis),
        ("nconnect", &q.nconnect),
        ("term", &q.term),
    ] {
        if let Some(v) = v.as_deref().filter(|v| !v.trim().is_empty()) {
            s.append_pair(k, v);
        }
    }
    s.finish()
}

/// Plans inventory `id` with the choices `q`: the page's figures, or the plan's 422
/// sentence in the page.
async fn planned(st: &AppState, raw: &str, q: PlanQuery) -> Result<AvsPage, PageError> {
    let id = parse_id(raw)?;
    let (origin, inv) = store::avs::get_inventory(&st.db, id)
        .await
        .map_err(|e| match e {
            store::StoreError::NotFound => {
                PageError::NotFound(format!("There is no imported inventory {id}."))
            }
            other => other.into(),
        })?;
    let book = st.book();
    let mut page = AvsPage::empty();
    page.id = id;
    page.origin = origin;
    page.query_string = query_string(&q);
    page.regions = book
        .avs
        .iter()
        .map(|(k, r)| (k.clone(), r.name.clone()))
        .collect();
    let req = request(inv.clone(), &q);
    page.inventory = Some(inv);
    let req = match req {
        Ok(r) => r,
        Err(msg) => {
            page.plan_error = msg;
            page.query = q;
            return Ok(page);
        }
    };
    let result = tokio::task::spawn_blocking(move || avs::plan(&req, &book).map(|p| (p, req)))
        .await
        .map_err(|e| PageError::Internal(format!("plan task failed: {e}")))?;
    match result {
        Ok((plan, req)) => {
            let needle = q.q.as_deref().unwrap_or("").trim().to_lowercase();
            let today = today_utc();
            let verdict = crate::verdict::avs::verdict(&plan, req.term);
            let doc = report_avs::PlanDoc {
                origin: &page.origin,
                inventory: &req.inventory,
                basis: req.capacity_basis,
                plan: &plan,
                date: &today,
                verdict: &verdict,
            };
            let mut rows = Vec::new();
            let mut matching = 0;
            for r in report_avs::placement_rows(&doc) {
                let hit = needle.is_empty()
                    || r.vm.to_lowercase().contains(&needle)
                    || r.datastore.to_lowercase().contains(&needle);
                if !hit {
                    continue;
                }
                matching += 1;
                if rows.len() >= MAX_ROWS {
                    continue;
                }
                rows.push(VmRow {
                    vm: r.vm.to_owned(),
                    disk: r.disk.unwrap_or("all").to_owned(),
                    datastore: r.datastore.to_owned(),
                    tib: format::num(r.tib, 2),
                    mibps: r.mibps.map_or("-".to_owned(), |m| format::num(m, 1)),
                    flags: r.flags.join(", "),
                });
            }
            page.rows = rows;
            page.matching = matching;
            page.plan = Some(plan);
            page.verdict = Some(verdict);
            page.basis = req.capacity_basis;
        }
        Err(e) => page.plan_error = e.to_string(),
    }
    page.query = q;
    Ok(page)
}

/// `GET /avs/{id}`: the inventory and its plan for the choices in the address.
pub async fn show(
    State(st): State<AppState>,
    Path(raw): Path<String>,
    Query(q): Query<PlanQuery>,
) -> Result<Response, PageError> {
    let mut page = planned(&st, &raw, q).await?;
    if let Some(plan) = page.plan.clone() {
        let charts = st
            .renders
            .run("AVS chart", Turn::Extra, move || {
                let inline = |c: Chart| {
                    c.svg_inline().unwrap_or_else(|e| {
                        tracing::error!(error = %e, "AVS chart failed");
                        String::new()
                    })
                };
                (
                    inline(Chart::avs_fill(&plan)),
                    inline(Chart::avs_tco(&plan.tco)),
                )
            })
            .await;
        // Busy or slow: the page shows its tables without the charts.
        match charts {
            Ok((fill, tco)) => (page.fill_chart, page.tco_chart) = (fill, tco),
            Err(e) => tracing::warn!("AVS page without charts: {e}"),
        }
    }
    let status = if page.plan_error.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    render(status, &page)
}

/// `POST /avs/{id}/save?...`: saves each cluster's evaluated scenario; back to the list.
pub async fn save(
    State(st): State<AppState>,
    user: crate::web::auth::CurrentUser,
    Path(raw): Path<String>,
    Query(q): Query<PlanQuery>,
) -> Result<Response, PageError> {
    let page = planned(&st, &raw, q).await?;
    let Some(plan) = page.plan else {
        return Err(PageError::Status {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: page.plan_error,
        });
    };
    let mut first = None;
    for s in &plan.scenarios {
        let by = crate::web::access::actor(&user);
        let shared = store::Visibility::Shared;
        let id = store::create_scenario_by(&st.db, s, by, shared, store::activity::Action::Created)
            .await?;
        first.get_or_insert(id);
    }
    let to = first.map_or_else(|| "/".to_owned(), |id| format!("/scenarios/{id}"));
    Ok(Redirect::to(&to).into_response())
}

/// The plan of inventory `id` with the choices `q` in `format`, as a download (the HTML
/// page shows in the browser, printable).
async fn download(
    st: AppState,
    raw: String,
    q: PlanQuery,
    format: Format,
) -> Result<Response, PageError> {
    let edition = Edition::parse(q.edition.as_deref().unwrap_or(""))
        .map_err(|e| PageError::BadRequest(format!("The {e}.")))?;
    let page = planned(&st, &raw, q).await?;
    let (Some(plan), Some(verdict), Some(inv)) = (page.plan, page.verdict, page.inventory) else {
        return Err(PageError::Status {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: page.plan_error,
        });
    };
    let (origin, basis) = (page.origin, page.basis);
    let bytes = st
        .renders
        .run("report", Turn::Answer, move || {
            let today = today_utc();
            let doc = report_avs::PlanDoc {
                origin: &origin,
                inventory: &inv,
                basis,
                plan: &plan,
                date: &today,
                verdict: &verdict,
            };
            let opts = RenderOptions {
                edition,
                ..RenderOptions::default()
            };
            report_avs::render(&doc, format, opts)
        })
        .await?
        .map_err(|e| PageError::Internal(e.to_string()))?;
    let disposition = if format == Format::Html {
        "inline; filename=\"volplan-avs-plan.html\"".to_owned()
    } else {
        format!("attachment; filename=\"volplan-avs-plan.{}\"", format.ext())
    };
    let mut response = (
        [
            (header::CONTENT_TYPE, format.content_type().to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        bytes,
    )
        .into_response();
    if format == Format::Html {
        // The page carries its own inline style and SVG, and no script.
        response.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(crate::report::CSP),
        );
    }
    Ok(response)
}

macro_rules! downloads {
    ($($(#[$doc:meta])* $name:ident => $format:expr;)*) => {$(
        $(#[$doc])*
        pub async fn $name(
            State(st): State<AppState>,
            Path(raw): Path<String>,
            Query(q): Query<PlanQuery>,
        ) -> Result<Response, PageError> {
            download(st, raw, q, $format).await
        }
    )*};
}

downloads! {
    /// `GET /avs/{id}/plan.pdf?...`: the plan as a PDF.
    pdf => Format::Pdf;
    /// `GET /avs/{id}/plan.md?...`: the plan as Markdown.
    markdown => Format::Md;
    /// `GET /avs/{id}/plan.html?...`: the plan as a printable HTML page.
    html => Format::Html;
    /// `GET /avs/{id}/plan.csv?...`: the datastores and the placement as CSV.
    csv => Format::Csv;
    /// `GET /avs/{id}/plan.xlsx?...`: the plan as an Excel workbook.
    xlsx => Format::Xlsx;
    /// `GET /avs/{id}/plan.json?...`: the plan as `POST /api/v1/avs/plan` answers it.
    json => Format::Json;
}
