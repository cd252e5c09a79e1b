//! `GET /layouts`: the datastore layout explorer.
//!
//! One capacity split into 1, 2, 4, ... volumes (AVS datastores): the same price,
//! since billing is by capacity pool, and different performance, since QoS is per
//! volume and every volume is its own set of flows. Opens with the 4 x 20 TiB vs
//! 20 x 4 TiB Ultra AVS example. The statements are the verdict's
//! ([`crate::verdict::layouts`]), as the layouts API answers them.

use super::table_file::{Table, TableFile, TableFormat};
use super::{PageError, render};
use crate::engine::scenario::{Level, Placement};
use crate::engine::sweep::{self, Layout, MAX_LAYOUT_COUNT};
use crate::engine::{FieldError, FieldErrors, Scenario};
use crate::format::Num;
use crate::report::charts::Chart;
use crate::store::{self, StoreError};
use crate::web::access;
use crate::web::auth::CurrentUser;
use crate::web::charts::ChartBlock;
use crate::web::render_pool::Turn;
use crate::web::scenario_templates;
use crate::web::state::AppState;
use askama::Template;
use axum::extract::{Query, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

mod inputs;
mod view;

pub use inputs::LayoutsQuery;
pub(super) use inputs::*;
use view::view;

/// Counts swept when the user gives none.
pub const DEFAULT_COUNTS: [u32; 8] = [1, 2, 4, 8, 16, 20, 32, 64];

/// The starter template the explorer and the what-if page open with.
pub(super) const EXAMPLE: &str = "avs-datastores";

/// The count the example's own 4 x 20 TiB is set beside when the user picks none: its
/// template compares 4 x 20 TiB with 20 x 4 TiB.
const EXAMPLE_VERSUS: u32 = 20;

struct RowView {
    count: u32,
    tib_each: String,
    mibps: String,
    iops: String,
    qos: String,
    per_client: String,
    monthly: String,
    /// Why the row gets its result (the verdict's).
    cause: String,
    suggested: bool,
    /// One of the two layouts the verdict sets side by side.
    highlight: bool,
    /// "20 x 4 TiB", for the link's accessible name.
    name: String,
    /// The planner with this layout: the saved base as an unsaved edit, or a new one.
    use_href: String,
}

struct Explored {
    unit: &'static str,
    /// "datastore" or "volume".
    one: &'static str,
    client: &'static str,
    rows: Vec<RowView>,
    chart: Option<ChartBlock>,
    /// The verdict's statements, in reading order.
    statements: Vec<String>,
    /// What decides which of the two layouts set side by side wins.
    deciders: Vec<String>,
}

#[derive(Template)]
#[template(path = "pages/layouts.html")]
struct LayoutsPage {
    /// The page's query (`?base=...`), for the downloads of what it shows.
    query: String,
    bases: Vec<Opt>,
    total_tib: String,
    levels: Vec<Opt>,
    /// `None` when the base scenario has no AVS hosts.
    hosts: Option<String>,
    counts: String,
    /// The count set beside the base scenario's own.
    versus: Vec<Opt>,
    /// AVS only: VMs per host, VMDKs per VM and their placement.
    avs: Option<AvsFields>,
    io_size_kib: String,
    read_pct: String,
    errors: Vec<FieldError>,
    result: Option<Explored>,
}

/// The AVS controls as shown.
struct AvsFields {
    vms_per_host: String,
    vmdks_per_vm: String,
    placements: Vec<Opt>,
}

impl LayoutsPage {
    fn error(&self, field: &str) -> Option<&str> {
        field_error(&self.errors, field)
    }
}

/// The message of the first error on `field`, for the tool pages' forms.
pub(super) fn field_error<'a>(errors: &'a [FieldError], field: &str) -> Option<&'a str> {
    errors
        .iter()
        .find(|e| e.field == field)
        .map(|e| e.message.as_str())
}

/// The errors a tool page shows when its base scenario cannot be evaluated, or those
/// of its own inputs (`own`) as they are.
pub(super) fn tool_errors(e: FieldErrors, own: &[&str]) -> Vec<FieldError> {
    e.into_vec()
        .into_iter()
        .map(|e| {
            if own.iter().any(|f| e.field.starts_with(f)) {
                e
            } else {
                FieldError::new(
                    "base",
                    format!("the base scenario cannot be evaluated: {e}"),
                )
            }
        })
        .collect()
}

/// The tool page's messages quoted as prose, as every form's are
/// ([`prose_quotes`](crate::web::pages::form::prose_quotes)).
pub(super) fn in_prose(errors: &mut [FieldError]) {
    for e in errors {
        e.message = crate::web::pages::form::prose_quotes(&e.message);
    }
}

/// 200 for a tool page without errors, 422 with them.
pub(super) fn page_status(errors: &[FieldError]) -> StatusCode {
    if errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    }
}

/// `GET /layouts`.
pub async fn page(
    State(st): State<AppState>,
    user: CurrentUser,
    RawQuery(raw): RawQuery,
    Query(q): Query<LayoutsQuery>,
) -> Result<Response, PageError> {
    let (status, mut page) = build(&st, &user, q).await?;
    page.query = raw.map(|r| format!("?{r}")).unwrap_or_default();
    render(status, &page)
}

/// `GET /layouts.csv`: the table the page shows, as CSV.
pub async fn csv(
    State(st): State<AppState>,
    user: CurrentUser,
    Query(q): Query<LayoutsQuery>,
) -> Result<Response, PageError> {
    download(&st, &user, q, TableFormat::Csv).await
}

/// `GET /layouts.md`: the verdict and the table the page shows, as Markdown.
pub async fn markdown(
    State(st): State<AppState>,
    user: CurrentUser,
    Query(q): Query<LayoutsQuery>,
) -> Result<Response, PageError> {
    download(&st, &user, q, TableFormat::Markdown).await
}

async fn download(
    st: &AppState,
    user: &CurrentUser,
    q: LayoutsQuery,
    format: TableFormat,
) -> Result<Response, PageError> {
    let (_, page) = build(st, user, q).await?;
    let Some(r) = page.result else {
        let messages: Vec<&str> = page.errors.iter().map(|e| e.message.as_str()).collect();
        return Err(PageError::Status {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: messages.join(" "),
        });
    };
    let file = TableFile {
        title: format!("Datastore layouts, {} TiB in total", page.total_tib),
        text: r
            .statements
            .iter()
            .cloned()
            .chain(r.deciders.iter().map(|d| format!("What decides it: {d}")))
            .collect(),
        tables: vec![Table {
            caption: format!("Layouts by {} count", r.one),
            headers: [
                capitalize(r.unit).as_str(),
                "TiB each",
                "MiB/s",
                "IOPS",
                &format!("QoS per {} (MiB/s)", r.one),
                &format!("Connections per {}", r.client),
                "Monthly",
                "Why",
                "Suggested",
            ]
            .map(str::to_owned)
            .to_vec(),
            rows: r
                .rows
                .iter()
                .map(|row| {
                    vec![
                        row.count.to_string(),
                        row.tib_each.clone(),
                        row.mibps.clone(),
                        row.iops.clone(),
                        row.qos.clone(),
                        row.per_client.clone(),
                        row.monthly.clone(),
                        row.cause.clone(),
                        if row.suggested { "yes" } else { "" }.to_owned(),
                    ]
                })
                .collect(),
        }],
    };
    file.response(format, "layouts")
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The page for a query: its inputs as typed, their messages and the layouts.
async fn build(
    st: &AppState,
    user: &CurrentUser,
    q: LayoutsQuery,
) -> Result<(StatusCode, LayoutsPage), PageError> {
    let (mut s, selected) = base_scenario(st, user, q.base.as_deref()).await?;
    let mut errors: Vec<FieldError> = Vec::new();

    let total = match q
        .total_tib
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        None => Ok(sweep::total_quota_tib(&s)),
        Some(t) => t
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v > 0.0)
            .ok_or_else(|| {
                FieldError::new(
                    "total_tib",
                    format!("`{t}` is not a capacity; give TiB above 0, e.g. 80"),
                )
            }),
    };
    let total = total.unwrap_or_else(|e| {
        errors.push(e);
        sweep::total_quota_tib(&s)
    });
    if let Some(raw) = q.level.as_deref().filter(|t| !t.trim().is_empty()) {
        match parse_level(&s, raw) {
            Ok(l) => s.storage.set_level(l),
            Err(e) => errors.push(e),
        }
    }
    if let (Some(raw), Some(avs)) = (
        q.hosts.as_deref().map(str::trim).filter(|t| !t.is_empty()),
        s.clients.avs.as_mut(),
    ) {
        match raw.parse::<u32>() {
            Ok(h) if (1..=96).contains(&h) => avs.hosts = h,
            _ => errors.push(FieldError::new(
                "hosts",
                format!("`{raw}` is not a host count; give 1 to 96"),
            )),
        }
    }
    apply_overrides(&q, &mut s, &mut errors);
    let counts_text = q
        .counts
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .unwrap_or_else(|| DEFAULT_COUNTS.map(|c| c.to_string()).join(", "));
    let counts = parse_counts(&counts_text).unwrap_or_else(|e| {
        errors.push(e);
        DEFAULT_COUNTS.to_vec()
    });

    let base_id = selected.parse::<i64>().ok();
    let versus = match given(&q.versus) {
        Some(raw) => whole("versus", raw, 1, 1024, "a count")
            .map(Some)
            .unwrap_or_else(|e| {
                errors.push(e);
                None
            }),
        None => base_id.is_none().then_some(EXAMPLE_VERSUS),
    };
    let versus_options = std::iter::once(Opt {
        value: String::new(),
        label: "The suggested count, else the fastest".to_owned(),
        selected: versus.is_none(),
    })
    .chain(counts.iter().map(|c| Opt {
        value: c.to_string(),
        label: c.to_string(),
        selected: versus == Some(*c),
    }))
    .collect();

    let mut result = None;
    if errors.is_empty() {
        let scenario = s.clone();
        let prices = st.book();
        let outcome = st
            .renders
            .run("layouts page", Turn::Answer, move || {
                crate::engine::check(&scenario, &prices)?;
                let layouts = sweep::layouts(&scenario, total, &counts, &prices)?;
                let verdict =
                    crate::verdict::layouts::layouts(&scenario, total, &layouts, versus, &prices);
                Ok::<_, FieldErrors>(view(&scenario, total, &layouts, verdict, base_id))
            })
            .await?;
        match outcome {
            Ok(r) => result = Some(r),
            Err(e) => {
                // `counts[3]` is the counts input's.
                let e = e.map(|e| match e.field.starts_with("counts[") {
                    true => FieldError::new("counts", e.message),
                    false => e,
                });
                errors.extend(tool_errors(e, &["counts", "total_tib"]));
            }
        }
    }
    in_prose(&mut errors);
    let status = page_status(&errors);
    let page = LayoutsPage {
        query: String::new(),
        bases: base_options(st, user, &selected).await?,
        // What was typed stays in its input, beside a message that quotes it.
        total_tib: given(&q.total_tib)
            .map_or_else(|| Num(total, 3).to_string().replace(',', ""), str::to_owned),
        levels: level_options(&s, s.storage.level),
        hosts: s
            .clients
            .avs
            .as_ref()
            .map(|a| given(&q.hosts).map_or_else(|| a.hosts.to_string(), str::to_owned)),
        counts: counts_text,
        versus: versus_options,
        avs: s.clients.avs.as_ref().map(|a| AvsFields {
            vms_per_host: given(&q.vms_per_host)
                .map_or_else(|| a.vms_per_host.to_string(), str::to_owned),
            vmdks_per_vm: given(&q.vmdks_per_vm)
                .map_or_else(|| a.vmdks_per_vm.to_string(), str::to_owned),
            placements: placement_options(a.placement),
        }),
        io_size_kib: given(&q.io_size_kib)
            .map_or_else(|| Num(s.workload.io_size_kib, 2).to_string(), str::to_owned),
        read_pct: given(&q.read_pct)
            .map_or_else(|| Num(s.workload.read_pct, 2).to_string(), str::to_owned),
        errors,
        result,
    };
    Ok((status, page))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_parse_with_commas_or_spaces() {
        assert_eq!(parse_counts("1, 2,4  8").unwrap(), vec![1, 2, 4, 8]);
        assert_eq!(parse_counts("4 x").unwrap_err().field, "counts");
        assert_eq!(parse_counts(" , ").unwrap_err().field, "counts");
    }
}
