//! What the layouts page shows for a sweep: the verdict's statements and what decides
//! them, the table with each layout's figures and the verdict's "why", a link that
//! opens each layout in the planner, and the chart. The words come from
//! [`crate::verdict::layouts`]; nothing here concludes anything of its own.

use super::*;
use crate::verdict::layouts::LayoutsVerdict;
use crate::web::share;

/// The page's view of a sweep of `s` (each layout `total / count` per volume) and its
/// verdict; `base` is the saved scenario the layouts apply to (none for the example).
pub(super) fn view(
    s: &Scenario,
    total: f64,
    layouts: &[Layout],
    verdict: LayoutsVerdict,
    base: Option<i64>,
) -> Explored {
    let avs = s.clients.avs.is_some();
    let rows = sweep::layout_rows(layouts);
    let suggested = sweep::suggest_layout(&rows);
    let pair = verdict.pair.unwrap_or_default();
    let row_views = rows
        .iter()
        .zip(verdict.why)
        .enumerate()
        .map(|(i, (r, why))| {
            let variant = sweep::layout_variant(s, r.count, total);
            RowView {
                count: r.count,
                tib_each: Num(r.quota_tib, 3).to_string(),
                mibps: Num(r.throughput_mibps, 0).to_string(),
                iops: Num(r.iops, 0).to_string(),
                qos: r
                    .qos_per_volume_mibps
                    .map_or_else(|| "n/a".to_owned(), |q| Num(q, 1).to_string()),
                per_client: r.connections_per_client.to_string(),
                monthly: crate::format::money_or(r.monthly, r.currency),
                cause: why,
                suggested: Some(i) == suggested,
                highlight: verdict.pair.is_some() && pair.contains(&i),
                name: crate::verdict::words::count_x(r.count, r.quota_tib),
                use_href: match base {
                    Some(id) => share::link_at(&format!("/scenarios/{id}"), &variant),
                    None => share::link(&variant),
                },
            }
        })
        .collect();
    let chart = Chart::layouts(&rows, suggested);
    let chart = match ChartBlock::new("chart-layouts", &chart, Vec::new()) {
        Ok(b) => Some(b),
        Err(e) => {
            tracing::error!(error = %e, "layouts chart failed");
            None
        }
    };
    Explored {
        unit: if avs { "datastores" } else { "volumes" },
        one: if avs { "datastore" } else { "volume" },
        client: if avs { "host" } else { "client" },
        rows: row_views,
        chart,
        statements: verdict.set.statements,
        deciders: verdict
            .set
            .sensitivity
            .into_iter()
            .map(|x| x.statement)
            .collect(),
    }
}
