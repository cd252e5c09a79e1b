//! The AVS page: upload an inventory, see what was kept, and the plan for the choices
//! in the address (region, host SKU, level, datastores, growth, free space): host
//! counts, TCO, datastores, the VM-to-datastore table with search, charts; save the
//! plan's clusters as scenarios.
//!
//! Parsing and planning are the inventory module's and the engine's; this module reads
//! the request ([`choices`]), calls them, and shapes the figures for the template. The
//! forms are the planner's components: every wrong choice gets its message beside it,
//! all in one round, and keeps what was typed.

mod choices;
mod code;
mod tco_table;

pub use code::code;

pub use choices::PlanQuery;

use super::form::FormState;
use super::form::parts::{Part, parts};
use super::{PageError, parse_id, render};
use crate::avs::{self, AvsPlan, PurchaseTerm};
use crate::engine::scenario::Service;
use crate::format;
use crate::inventory::{self, CapacityBasis, Inventory, Options};
use crate::report::avs as report_avs;
use crate::report::charts::Chart;
use crate::report::{Edition, Format, RenderOptions};
use crate::store;
use crate::store::today_utc;
use crate::verdict::avs::AvsVerdict;
use crate::web::render_pool::Turn;
use crate::web::state::AppState;
use crate::web::uploads::Uploader;
use askama::Template;
use axum::extract::{Multipart, Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use choices::{HostOption, RegionOption};

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
    /// Both forms as typed, with a message beside each wrong input (the upload's too).
    pub form: FormState,
    pub id: i64,
    pub origin: String,
    pub inventory: Option<Inventory>,
    pub plan: Option<AvsPlan>,
    /// The plan's verdict at the chosen term: the headline and what the page says
    /// about the cost.
    pub verdict: Option<AvsVerdict>,
    /// An error of the plan that names no input of the form (the inventory's).
    pub plan_error: String,
    /// The choices as a query string, for the downloads and the save form.
    pub query_string: String,
    pub hosts: Vec<HostOption>,
    /// Regions with AVS host prices, and the others (hosts planned, cost missing).
    pub regions_priced: Vec<RegionOption>,
    pub regions_unpriced: Vec<RegionOption>,
    /// The currencies of the book in force (and the one typed), for `currency`.
    pub currencies: Vec<String>,
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
            form: FormState::default(),
            id: 0,
            origin: String::new(),
            inventory: None,
            plan: None,
            verdict: None,
            plan_error: String::new(),
            query_string: String::new(),
            hosts: Vec::new(),
            regions_priced: Vec::new(),
            regions_unpriced: Vec::new(),
            currencies: Vec::new(),
            rows: Vec::new(),
            matching: 0,
            fill_chart: String::new(),
            tco_chart: String::new(),
            basis: CapacityBasis::InUse,
        }
    }

    /// The verdict's first statement: what was planned and whether it meets the
    /// targets.
    pub fn headline(&self) -> &str {
        self.verdict
            .as_ref()
            .and_then(|v| v.statements.first())
            .map_or("", String::as_str)
    }

    /// The verdict's statements after the headline and the cost statement.
    pub fn details(&self) -> Vec<&str> {
        self.verdict.as_ref().map_or_else(Vec::new, |v| {
            v.statements
                .iter()
                .skip(1)
                .filter(|s| **s != v.statement)
                .map(String::as_str)
                .collect()
        })
    }

    /// The plan's level as users read it ("Ultra").
    pub fn level(&self) -> &'static str {
        self.plan
            .as_ref()
            .map_or("", |p| p.level.display(Service::Anf))
    }

    /// The plan's region as every page names it ("West Europe (westeurope)").
    pub fn region(&self) -> String {
        self.plan.as_ref().map_or_else(String::new, |p| {
            crate::engine::pricing::region_label(&p.region)
        })
    }

    /// The choices as hidden fields of the search form.
    pub fn hidden(&self) -> Vec<(String, String)> {
        form_urlencoded::parse(self.query_string.as_bytes())
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect()
    }

    /// The level's options.
    pub fn levels(&self) -> Vec<(&'static str, &'static str)> {
        choices::levels()
    }

    /// The purchase terms, the usual one (3 years reserved) first.
    pub fn terms(&self) -> Vec<(&'static str, &'static str)> {
        PurchaseTerm::ALL
            .iter()
            .rev()
            .map(|t| (t.key(), t.display()))
            .collect()
    }

    /// Whether host `sku` is the one chosen (typed in any case).
    pub fn is_host(&self, sku: &str) -> bool {
        self.form.value("host_sku").trim().eq_ignore_ascii_case(sku)
    }

    /// A region typed that the list does not hold: shown as typed, beside its message.
    pub fn stray_region(&self) -> Option<&str> {
        let typed = self.form.value("region");
        let listed = self
            .regions_priced
            .iter()
            .chain(&self.regions_unpriced)
            .any(|r| r.key == typed);
        (!typed.is_empty() && !listed).then_some(typed)
    }

    /// A host typed that the list does not hold, shown as typed.
    pub fn stray_host(&self) -> Option<&str> {
        let typed = self.form.value("host_sku");
        let listed = self.hosts.iter().any(|h| self.is_host(h.sku));
        (!typed.trim().is_empty() && !listed).then_some(typed)
    }

    /// The label of an options input.
    pub fn label(&self, name: &str) -> &'static str {
        choices::label(name).unwrap_or_default()
    }

    /// Every message of the forms, "Growth: must be ...", for a download or a save
    /// that cannot be made.
    fn problems(&self) -> String {
        let mut all: Vec<String> = self
            .form
            .errors()
            .iter()
            .map(|(field, m)| format!("{}: {m}", choices::label(field).unwrap_or(field)))
            .collect();
        if !self.plan_error.is_empty() {
            all.push(self.plan_error.clone());
        }
        all.join("; ")
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

async fn read_upload(mp: Multipart, form: &mut FormState) -> Option<Upload> {
    let mut up = Upload {
        file: Vec::new(),
        origin: "an uploaded file".to_owned(),
        performance: Vec::new(),
        opts: Options::default(),
    };
    let parts = match parts(mp).await {
        Ok(p) => p,
        Err(e) => {
            form.add_error(
                "file",
                format!("the upload could not be read ({e}); try again"),
            );
            return None;
        }
    };
    for Part {
        name,
        file_name,
        bytes,
    } in parts
    {
        if name == "file"
            && let Some(n) = file_name
        {
            up.origin = n;
        }
        match name.as_str() {
            "file" => up.file = bytes.to_vec(),
            "performance" => up.performance = bytes.to_vec(),
            "include_powered_off" => up.opts.include_powered_off = true,
            "anonymise" => up.opts.anonymise = true,
            "percentile" => {
                form.default_value("percentile", &String::from_utf8_lossy(&bytes));
            }
            _ => {}
        }
    }
    if let Some(p) = form.whole("percentile") {
        match inventory::perf::chosen(Some(p)) {
            Ok(p) => up.opts.percentile = Some(p),
            Err(e) => form.add_error("percentile", e.message),
        }
    }
    // The boxes stay as they were ticked.
    for (name, on) in [
        ("include_powered_off", up.opts.include_powered_off),
        ("anonymise", up.opts.anonymise),
    ] {
        form.default_value(name, if on { "on" } else { "" });
    }
    if up.file.is_empty() {
        form.add_error(
            "file",
            "choose an RVTools export (.xlsx or its vInfo .csv), then Import",
        );
        return None;
    }
    if form.error("percentile").is_some() {
        return None;
    }
    Some(up)
}

/// `POST /avs`: imports the uploaded inventory and shows its plan.
pub async fn upload(
    State(st): State<AppState>,
    who: Uploader,
    mp: Multipart,
) -> Result<Response, PageError> {
    let mut page = AvsPage::empty();
    let Some(up) = read_upload(mp, &mut page.form).await else {
        return render(StatusCode::BAD_REQUEST, &page);
    };
    // An anonymised inventory keeps no file name either: it may name the customer.
    let origin = if up.opts.anonymise {
        "an anonymised inventory".to_owned()
    } else {
        up.origin
    };
    let parsed = who
        .parse(&st, "inventory import", move || {
            let perf = (!up.performance.is_empty()).then_some(up.performance.as_slice());
            inventory::import(&up.file, perf, up.opts).map(|inv| (inv, origin))
        })
        .await?;
    let (inv, origin) = match parsed {
        Ok(x) => x,
        Err(e) => {
            let field = if e.field().is_some_and(|f| f.starts_with("performance")) {
                "performance"
            } else {
                "file"
            };
            page.form
                .add_error(field, format!("not imported: {}", e.message));
            return render(StatusCode::UNPROCESSABLE_ENTITY, &page);
        }
    };
    let id = store::avs::add_inventory(&st.db, &origin, &inv).await?;
    Ok(Redirect::to(&format!("/avs/{id}")).into_response())
}

/// What a request wants of the choices.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Asked {
    /// The page: without any choice (the first visit) it asks for the region.
    Page,
    /// A plan (a download, a save): a missing region is an error.
    Plan,
}

/// Plans inventory `id` with the choices `q`: the page's figures, or the messages
/// beside the choices that are wrong. Without a region (the first visit) the page asks
/// for one and plans nothing.
async fn planned(
    st: &AppState,
    raw: &str,
    q: PlanQuery,
    asked: Asked,
) -> Result<AvsPage, PageError> {
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
    page.query_string = q.query_string();
    page.form = q.form();
    let sent = asked == Asked::Plan || q.submitted();
    let req = choices::read(inv.clone(), &mut page.form, sent);
    (page.regions_priced, page.regions_unpriced) = choices::regions(&book, req.vcf.licensing);
    page.hosts = choices::hosts(
        &book,
        req.region.as_deref(),
        &req.host_sku,
        req.vcf.licensing,
    );
    page.currencies = book.currency_options(&req.currency);
    page.inventory = Some(inv);
    if req.region.is_none() {
        return Ok(page);
    }
    if page.form.has_errors() {
        // The plan's own checks of the other choices, in the same round.
        if let Err(e) = req.resolve(&book) {
            page.plan_error = choices::place_errors(&mut page.form, &e);
        }
        return Ok(page);
    }
    let result = tokio::task::spawn_blocking(move || avs::plan(&req, &book).map(|p| (p, req)))
        .await
        .map_err(|e| PageError::Internal(format!("plan task failed: {e}")))?;
    match result {
        Ok((plan, req)) => {
            let needle = page.form.value("q").trim().to_lowercase();
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
        Err(e) => page.plan_error = choices::place_errors(&mut page.form, &e),
    }
    Ok(page)
}

/// `GET /avs/{id}`: the inventory and its plan for the choices in the address.
pub async fn show(
    State(st): State<AppState>,
    Path(raw): Path<String>,
    Query(q): Query<PlanQuery>,
) -> Result<Response, PageError> {
    let mut page = planned(&st, &raw, q, Asked::Page).await?;
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
    let status = if page.form.has_errors() || !page.plan_error.is_empty() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
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
    let page = planned(&st, &raw, q, Asked::Plan).await?;
    let message = page.problems();
    let Some(plan) = page.plan else {
        return Err(PageError::Status {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message,
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
    let page = planned(&st, &raw, q, Asked::Plan).await?;
    let message = page.problems();
    let (Some(plan), Some(verdict), Some(inv)) = (page.plan, page.verdict, page.inventory) else {
        return Err(PageError::Status {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message,
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
