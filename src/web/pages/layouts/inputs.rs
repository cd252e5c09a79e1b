//! The layout explorer's inputs as typed: each read with its own message, and the
//! scenario they override.

use super::*;

/// The form's values, as typed (parsed below, so a bad value gets a message).
#[derive(Debug, Default, Deserialize)]
pub struct LayoutsQuery {
    pub(super) base: Option<String>,
    pub(super) total_tib: Option<String>,
    pub(super) level: Option<String>,
    pub(super) hosts: Option<String>,
    pub(super) counts: Option<String>,
    /// The count set beside the base scenario's own (empty: the suggested one).
    pub(super) versus: Option<String>,
    pub(super) vms_per_host: Option<String>,
    pub(super) vmdks_per_vm: Option<String>,
    pub(super) placement: Option<String>,
    pub(super) io_size_kib: Option<String>,
    pub(super) read_pct: Option<String>,
}

/// The query value of `raw`, trimmed, when one is given.
pub(in crate::web::pages) fn given(raw: &Option<String>) -> Option<&str> {
    raw.as_deref().map(str::trim).filter(|t| !t.is_empty())
}

/// A number from `lo` to `hi` (thousands separators allowed), or a message naming `field`.
pub(in crate::web::pages) fn bounded(
    field: &str,
    raw: &str,
    lo: f64,
    hi: f64,
    what: &str,
) -> Result<f64, FieldError> {
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
pub(in crate::web::pages) fn whole(
    field: &str,
    raw: &str,
    lo: u32,
    hi: u32,
    what: &str,
) -> Result<u32, FieldError> {
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
pub(in crate::web::pages) fn placement_options(selected: Placement) -> Vec<Opt> {
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
pub(in crate::web::pages) fn apply_overrides(
    q: &LayoutsQuery,
    s: &mut Scenario,
    errors: &mut Vec<FieldError>,
) {
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
pub(in crate::web::pages) struct Opt {
    pub value: String,
    pub label: String,
    pub selected: bool,
}

/// The base scenario: a saved one (`base=<id>`) or the AVS example.
pub(in crate::web::pages) async fn base_scenario(
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
pub(in crate::web::pages) async fn base_options(
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
pub(in crate::web::pages) fn level_options(s: &Scenario, selected: Level) -> Vec<Opt> {
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
pub(in crate::web::pages) fn parse_level(s: &Scenario, raw: &str) -> Result<Level, FieldError> {
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

/// Parses "1, 2, 4 8" into counts; every token that is not a count from 1 to
/// [`MAX_LAYOUT_COUNT`] is named in one message.
pub(in crate::web::pages) fn parse_counts(raw: &str) -> Result<Vec<u32>, FieldError> {
    let mut counts = Vec::new();
    let mut bad = Vec::new();
    for t in raw
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
    {
        match t.parse::<u32>() {
            Ok(n) if (1..=MAX_LAYOUT_COUNT).contains(&n) => counts.push(n),
            _ => bad.push(format!("`{}`", t.chars().take(20).collect::<String>())),
        }
    }
    if !bad.is_empty() {
        let (what, them) = match bad.len() {
            1 => ("is not a count", "it"),
            _ => ("are not counts", "them"),
        };
        let named = match bad.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => bad.join(""),
        };
        return Err(FieldError::new(
            "counts",
            format!(
                "{named} {what} of volumes; give {them} as whole numbers from 1 to {MAX_LAYOUT_COUNT}, like 1, 2, 4, 8"
            ),
        ));
    }
    if counts.is_empty() {
        return Err(FieldError::new(
            "counts",
            "give at least one count, e.g. 4, 20",
        ));
    }
    Ok(counts)
}
