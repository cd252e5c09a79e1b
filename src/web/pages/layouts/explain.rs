//! The words under the layouts table: why each layout gets its result, and why cost is
//! flat while performance is not.

use super::*;

/// The name of the binding limit of an evaluation (its id when it has no limit row).
pub(in crate::web::pages) fn binding_name(e: &Evaluation) -> String {
    e.limits
        .iter()
        .find(|x| x.id == e.binding)
        .map_or_else(|| e.binding.to_owned(), |x| x.label.name.to_owned())
}

/// Why one layout gets its result: how many of its datastores carry load (AVS) and the
/// limit that binds, with its value.
pub(super) fn cause(e: &Evaluation, count: u32, unit: &str) -> String {
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
pub(super) fn explain(
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
            crate::format::money(c, currency),
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
            monthly: crate::format::money_or(r.monthly, r.currency),
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
