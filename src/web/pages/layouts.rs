//! `GET /layouts`: the datastore layout explorer.
//!
//! One capacity split into 1, 2, 4, ... volumes (AVS datastores): the same price,
//! since billing is by capacity pool, and different performance, since QoS is per
//! volume and every volume is its own set of flows. Opens with the 4 x 20 TiB vs
//! 20 x 4 TiB Ultra AVS example.

use super::table_file::{Table, TableFile, TableFormat};
use super::{PageError, render};
use crate::engine::scenario::{Level, Placement};
use crate::engine::sweep::{self, Layout, LayoutRow};
use crate::engine::{Evaluation, FieldError, FieldErrors, Scenario};
use crate::report::charts::Chart;
use crate::report::format::Num;
use crate::store::{self, StoreError};
use crate::web::AppState;
use crate::web::access;
use crate::web::auth::CurrentUser;
use crate::web::charts::ChartBlock;
use crate::web::render_pool::Turn;
use crate::web::scenario_templates;
use askama::Template;
use axum::extract::{Query, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

/// Counts swept when the user gives none.
pub const DEFAULT_COUNTS: [u32; 8] = [1, 2, 4, 8, 16, 20, 32, 64];

/// The starter template the explorer and the what-if page open with.
pub(super) const EXAMPLE: &str = "avs-datastores";

/// The form's values, as typed (parsed below, so a bad value gets a message).
#[derive(Debug, Default, Deserialize)]
pub struct LayoutsQuery {
    base: Option<String>,
    total_tib: Option<String>,
    level: Option<String>,
    hosts: Option<String>,
    counts: Option<String>,
    vms_per_host: Option<String>,
    vmdks_per_vm: Option<String>,
    placement: Option<String>,
    io_size_kib: Option<String>,
    read_pct: Option<String>,
}

/// The query value of `raw`, trimmed, when one is given.
fn given(raw: &Option<String>) -> Option<&str> {
    raw.as_deref().map(str::trim).filter(|t| !t.is_empty())
}

/// A number from `lo` to `hi` (thousands separators allowed), or a message naming `field`.
fn bounded(field: &str, raw: &str, lo: f64, hi: f64, what: &str) -> Result<f64, FieldError> {
    raw.replace(',', "")
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && (lo..=hi).contains(v))
        .ok_or_else(|| {
            FieldError::new(
                field,
                format!(
                    "`{raw}` is not {what}; give {} to {}",
                    Num(lo, 1),
                    Num(hi, 0)
                ),
            )
        })
}

/// A whole number from `lo` to `hi`.
fn whole(field: &str, raw: &str, lo: u32, hi: u32, what: &str) -> Result<u32, FieldError> {
    raw.parse::<u32>()
        .ok()
        .filter(|v| (lo..=hi).contains(v))
        .ok_or_else(|| {
            FieldError::new(
                field,
                format!("`{raw}` is not {what}; give a whole number from {lo} to {hi}"),
            )
        })
}

/// The placements, the given one selected.
fn placement_options(selected: Placement) -> Vec<Opt> {
    [
        (Placement::Spread, "spread", "Spread: round-robin over all"),
        (Placement::Dedicated, "dedicated", "Dedicated: one per VM"),
        (Placement::Single, "single", "Single: all on the first"),
    ]
    .into_iter()
    .map(|(p, value, label)| Opt {
        value: value.to_owned(),
        label: label.to_owned(),
        selected: p == selected,
    })
    .collect()
}

/// Applies the workload and AVS fields of the query to the base scenario.
fn apply_overrides(q: &LayoutsQuery, s: &mut Scenario, errors: &mut Vec<FieldError>) {
    if let Some(raw) = given(&q.io_size_kib) {
        match bounded("io_size_kib", raw, 0.5, 16384.0, "an IO size") {
            Ok(v) => s.workload.io_size_kib = v,
            Err(e) => errors.push(e),
        }
    }
    if let Some(raw) = given(&q.read_pct) {
        match bounded("read_pct", raw, 0.0, 100.0, "a read share") {
            Ok(v) => s.workload.read_pct = v,
            Err(e) => errors.push(e),
        }
    }
    let Some(avs) = s.clients.avs.as_mut() else {
        return;
    };
    if let Some(raw) = given(&q.vms_per_host) {
        match whole("vms_per_host", raw, 1, 1024, "a VM count") {
            Ok(v) => avs.vms_per_host = v,
            Err(e) => errors.push(e),
        }
    }
    if let Some(raw) = given(&q.vmdks_per_vm) {
        match whole("vmdks_per_vm", raw, 1, 256, "a VMDK count") {
            Ok(v) => avs.vmdks_per_vm = v,
            Err(e) => errors.push(e),
        }
    }
    if let Some(raw) = given(&q.placement) {
        match raw {
            "spread" => avs.placement = Placement::Spread,
            "dedicated" => avs.placement = Placement::Dedicated,
            "single" => avs.placement = Placement::Single,
            _ => errors.push(FieldError::new(
                "placement",
                format!("`{raw}` is not a placement; choose one from the list"),
            )),
        }
    }
}

/// One option of a select.
pub(super) struct Opt {
    pub value: String,
    pub label: String,
    pub selected: bool,
}

/// The base scenario: a saved one (`base=<id>`) or the AVS example.
pub(super) async fn base_scenario(
    st: &AppState,
    user: &CurrentUser,
    base: Option<&str>,
) -> Result<(Scenario, String), PageError> {
    match base
        .map(str::trim)
        .filter(|b| !b.is_empty() && *b != "example")
    {
        Some(raw) => {
            let id = raw.parse::<i64>().map_err(|_| {
                PageError::BadRequest(format!(
                    "`{raw}` is not a saved scenario; choose one from the list."
                ))
            })?;
            match access::stored_scenario(&st.db, user, id).await {
                Ok(stored) => Ok((stored.scenario, id.to_string())),
                Err(StoreError::NotFound) => Err(PageError::NotFound(format!(
                    "There is no saved scenario #{id}."
                ))),
                Err(e) => Err(e.into()),
            }
        }
        None => {
            let t = scenario_templates::find(EXAMPLE)
                .ok_or_else(|| PageError::Internal("the AVS example template is missing".into()))?;
            Ok((t.scenario(), "example".to_owned()))
        }
    }
}

/// The base choices: the example, then every saved scenario.
pub(super) async fn base_options(
    st: &AppState,
    user: &CurrentUser,
    selected: &str,
) -> Result<Vec<Opt>, PageError> {
    let mut out = vec![Opt {
        value: "example".into(),
        label: "Example: AVS 4 x 20 TiB Ultra, 4 AV36 hosts".into(),
        selected: selected == "example",
    }];
    for s in store::list_scenarios_for(&st.db, None, access::actor(user)).await? {
        let value = s.id.to_string();
        out.push(Opt {
            selected: value == selected,
            label: format!("#{} {}", s.id, s.name),
            value,
        });
    }
    Ok(out)
}

/// The levels of the scenario's service, the given one selected.
pub(super) fn level_options(s: &Scenario, selected: Level) -> Vec<Opt> {
    Level::of(s.storage.service)
        .iter()
        .map(|l| Opt {
            value: l.key().to_owned(),
            label: l.display(s.storage.service).to_owned(),
            selected: *l == selected,
        })
        .collect()
}

/// Parses a level key of the scenario's service.
pub(super) fn parse_level(s: &Scenario, raw: &str) -> Result<Level, FieldError> {
    Level::of(s.storage.service)
        .iter()
        .copied()
        .find(|l| l.key() == raw.trim())
        .ok_or_else(|| {
            FieldError::new(
                "level",
                format!(
                    "`{}` is not a level of {}; choose one from the list",
                    raw.trim(),
                    s.storage.service.display()
                ),
            )
        })
}

/// Parses "1, 2, 4 8" into counts.
fn parse_counts(raw: &str) -> Result<Vec<u32>, FieldError> {
    let counts: Result<Vec<u32>, _> = raw
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<u32>().map_err(|_| {
                FieldError::new(
                    "counts",
                    format!("`{t}` is not a whole number; give counts like 1, 2, 4, 8"),
                )
            })
        })
        .collect();
    let counts = counts?;
    if counts.is_empty() {
        return Err(FieldError::new(
            "counts",
            "give at least one count, e.g. 4, 20",
        ));
    }
    Ok(counts)
}

struct RowView {
    count: u32,
    tib_each: String,
    mibps: String,
    iops: String,
    qos: String,
    per_client: String,
    monthly: String,
    /// Why the row gets its result: loaded datastores and the binding limit.
    cause: String,
    suggested: bool,
    /// The 4 and 20 of the mission's example.
    highlight: bool,
}

struct Explored {
    unit: &'static str,
    /// "datastore" or "volume".
    one: &'static str,
    client: &'static str,
    rows: Vec<RowView>,
    chart: Option<ChartBlock>,
    verdict: String,
    cost_text: String,
    perf_text: String,
    pair: Option<String>,
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

/// 200 for a tool page without errors, 422 with them.
pub(super) fn page_status(errors: &[FieldError]) -> StatusCode {
    if errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    }
}

/// The name of the binding limit of an evaluation (its id when it has no limit row).
pub(super) fn binding_name(e: &Evaluation) -> String {
    e.limits
        .iter()
        .find(|x| x.id == e.binding)
        .map_or_else(|| e.binding.to_owned(), |x| x.label.name.to_owned())
}

/// Why one layout gets its result: how many of its datastores carry load (AVS) and the
/// limit that binds, with its value.
fn cause(e: &Evaluation, count: u32, unit: &str) -> String {
    let limit = e.limits.iter().find(|x| x.id == e.binding);
    let bound = match limit {
        Some(l) => format!("{} caps it at {} MiB/s", l.label.name, Num(l.mibps, 0)),
        None => format!("bound by {}", e.binding),
    };
    let tie = limit.and_then(|b| {
        e.limits
            .iter()
            .filter(|x| x.id != b.id)
            .find(|x| (x.mibps - b.mibps).abs() <= 0.0005 * b.mibps.max(1.0))
    });
    let bound = match tie {
        Some(t) => format!("{bound}, tied with {}", t.label.name),
        None => bound,
    };
    match (e.flows.loaded_datastores, e.flows.datastores) {
        (Some(loaded), Some(total)) if loaded < total => {
            format!("{loaded} of {count} {unit} carry load; {bound}")
        }
        (Some(_), Some(_)) => format!("all {count} {unit} carry load; {bound}"),
        _ => bound,
    }
}

/// The words under the table: why cost is flat and performance is not.
fn explain(
    s: &Scenario,
    total: f64,
    layouts: &[Layout],
    rows: &[LayoutRow],
    suggested: Option<usize>,
) -> Explored {
    let avs = s.clients.avs.is_some();
    let (unit, client) = if avs {
        ("datastores", "host")
    } else {
        ("volumes", "client")
    };
    let level = s.storage.level.display(s.storage.service);
    let costs: Vec<Option<f64>> = rows.iter().map(|r| r.monthly).collect();
    let currency = rows.first().map_or("USD", |r| r.currency);
    let same_cost = costs.windows(2).all(|w| match (w[0], w[1]) {
        (Some(a), Some(b)) => (a - b).abs() <= 0.005 * a.abs().max(1.0),
        (None, None) => true,
        _ => false,
    });
    let cost_text = match (same_cost, costs.first().copied().flatten()) {
        (true, Some(c)) => format!(
            "Every layout costs {} a month: {} bills the provisioned capacity of the capacity pool ({} TiB {level}), not the number of {unit} it is split into.",
            crate::report::format::money(c, currency),
            s.storage.service.display(),
            Num(total, 2)
        ),
        (true, None) => format!(
            "The catalog has no list price for {level}; the capacity, and so the bill, is the same for every layout."
        ),
        (false, _) => format!(
            "The monthly cost differs between layouts: {} does not bill this level by pool capacity alone.",
            s.storage.service.display()
        ),
    };
    let qos: Vec<String> = rows
        .iter()
        .filter(|r| r.count == 4 || r.count == 20)
        .filter_map(|r| {
            r.qos_per_volume_mibps
                .map(|q| format!("{} MiB/s for {} TiB", Num(q, 0), Num(r.quota_tib, 2)))
        })
        .collect();
    let (c_lo, c_hi) = (
        rows.first().map_or(0, |r| r.connections_per_client),
        rows.last().map_or(0, |r| r.connections_per_client),
    );
    let mut perf_text = format!(
        "Performance is not the same. Each of the {unit} has its own QoS ceiling, its quota times the level's rate{}, so work that does not spread evenly over all {unit} meets a smaller ceiling.",
        if qos.is_empty() {
            String::new()
        } else {
            format!(" ({})", qos.join(", "))
        }
    );
    if avs {
        perf_text.push_str(&format!(
            " And each AVS host mounts every datastore over its own NFS connection, so the flows per host grow with the count ({c_lo} to {c_hi} here), each flow with its own ceiling and diminishing returns."
        ));
    } else {
        perf_text.push_str(&format!(
            " And each client opens its own connections to every volume ({c_lo} to {c_hi} per client here)."
        ));
    }
    let pair = {
        let find = |n: u32| layouts.iter().zip(rows).find(|(l, _)| l.count == n);
        match (find(4), find(20)) {
            (Some((l4, r4)), Some((l20, r20))) => Some(format!(
                "4 x {} TiB: {} MiB/s, bound by {}. 20 x {} TiB: {} MiB/s, bound by {}.",
                Num(r4.quota_tib, 2),
                Num(r4.throughput_mibps, 0),
                binding_name(&l4.evaluation),
                Num(r20.quota_tib, 2),
                Num(r20.throughput_mibps, 0),
                binding_name(&l20.evaluation)
            )),
            _ => None,
        }
    };
    let best = rows.iter().map(|r| r.throughput_mibps).fold(0.0, f64::max);
    let verdict = match suggested.and_then(|i| rows.get(i)) {
        Some(r) => format!(
            "Suggested: {} {unit} of {} TiB, the smallest count within 5% of the best throughput ({} of {} MiB/s).",
            r.count,
            Num(r.quota_tib, 2),
            Num(r.throughput_mibps, 0),
            Num(best, 0)
        ),
        None => "No layout could be suggested.".to_owned(),
    };
    let row_views = layouts
        .iter()
        .zip(rows)
        .enumerate()
        .map(|(i, (l, r))| RowView {
            count: r.count,
            tib_each: Num(r.quota_tib, 3).to_string(),
            mibps: Num(r.throughput_mibps, 0).to_string(),
            iops: Num(r.iops, 0).to_string(),
            qos: r
                .qos_per_volume_mibps
                .map_or_else(|| "n/a".to_owned(), |q| Num(q, 1).to_string()),
            per_client: r.connections_per_client.to_string(),
            monthly: crate::report::format::money_or(r.monthly, r.currency),
            cause: cause(&l.evaluation, r.count, unit),
            suggested: Some(i) == suggested,
            highlight: r.count == 4 || r.count == 20,
        })
        .collect();
    let chart = Chart::layouts(rows, suggested);
    let chart = match ChartBlock::new("chart-layouts", &chart, Vec::new()) {
        Ok(b) => Some(b),
        Err(e) => {
            tracing::error!(error = %e, "layouts chart failed");
            None
        }
    };
    Explored {
        unit,
        one: if avs { "datastore" } else { "volume" },
        client,
        rows: row_views,
        chart,
        verdict,
        cost_text,
        perf_text,
        pair,
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
        text: [&r.verdict, &r.cost_text, &r.perf_text]
            .into_iter()
            .chain(r.pair.as_ref())
            .filter(|t| !t.is_empty())
            .cloned()
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

    let mut result = None;
    if errors.is_empty() {
        let scenario = s.clone();
        let prices = st.book();
        let outcome = st
            .renders
            .run("layouts page", Turn::Answer, move || {
                crate::engine::check(&scenario, &prices)?;
                let layouts = sweep::layouts(&scenario, total, &counts, &prices)?;
                let rows = sweep::layout_rows(&layouts);
                let suggested = sweep::suggest_layout(&rows);
                Ok::<_, FieldErrors>(explain(&scenario, total, &layouts, &rows, suggested))
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

    #[test]
    fn the_example_explains_cost_and_performance() {
        let s = scenario_templates::find(EXAMPLE).unwrap().scenario();
        let layouts = sweep::layouts(&s, 80.0, &[4, 20], crate::engine::pricing::book()).unwrap();
        let rows = sweep::layout_rows(&layouts);
        let x = explain(&s, 80.0, &layouts, &rows, sweep::suggest_layout(&rows));
        assert!(x.cost_text.contains("capacity pool"), "{}", x.cost_text);
        assert!(
            x.perf_text.contains("2,560 MiB/s for 20 TiB"),
            "{}",
            x.perf_text
        );
        assert!(
            x.perf_text.contains("512 MiB/s for 4 TiB"),
            "{}",
            x.perf_text
        );
        assert!(x.pair.unwrap().starts_with("4 x 20 TiB"));
        assert!(x.verdict.starts_with("Suggested:"));
    }
}
