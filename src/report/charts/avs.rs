//! The AVS plan's charts: each datastore's fill and throughput use, and the monthly
//! cost of vSAN only against ANF datastores on each purchase term.

use super::axis::{Linear, Span};
use super::legend::{LegendItem, draw_key_row, key_row_height};
use super::style::{DrawResult, FONT, OI_BLACK, OI_BLUE, OI_GREEN, OI_ORANGE, caption_style, mesh};
use super::{Chart, ChartTable, Kind};
use crate::avs::AvsPlan;
use crate::avs::tco::Tco;
use crate::format::{money, money_tick, num, pct, tick};
use crate::report::escape;
use crate::report::summary;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One datastore's bars.
#[derive(Debug, Clone)]
pub(super) struct Datastore {
    name: String,
    fill_pct: f64,
    /// Throughput demand as a share of the datastore's QoS, %.
    use_pct: f64,
    used_tib: f64,
    quota_tib: f64,
    demand_mibps: f64,
    qos_mibps: f64,
}

#[derive(Debug, Clone)]
pub(super) struct Fill {
    datastores: Vec<Datastore>,
}

/// One bar of the TCO chart: an option on a term, hosts and storage a month.
#[derive(Debug, Clone)]
pub(super) struct CostBar {
    option: &'static str,
    term: &'static str,
    hosts: f64,
    storage: f64,
}

#[derive(Debug, Clone)]
pub(super) struct TcoData {
    bars: Vec<CostBar>,
    currency: &'static str,
}

pub(super) fn fill(p: &AvsPlan) -> Chart {
    let datastores = p
        .datastores
        .iter()
        .map(|d| Datastore {
            name: escape::plain(&d.name),
            fill_pct: d.fill_pct,
            use_pct: if d.qos_mibps > 0.0 {
                d.demand_mibps / d.qos_mibps * 100.0
            } else {
                0.0
            },
            used_tib: d.used_tib,
            quota_tib: d.quota_tib,
            demand_mibps: d.demand_mibps,
            qos_mibps: d.qos_mibps,
        })
        .collect();
    Chart {
        title: "Datastore fill and throughput use".to_owned(),
        summary: summary::avs::fill_caption(p),
        size: (780, 420),
        measured: Vec::new(),
        kind: Kind::AvsFill(Fill { datastores }),
    }
}

pub(super) fn tco(t: &Tco) -> Chart {
    let mut bars = Vec::new();
    for term in crate::avs::PurchaseTerm::ALL {
        for (option, o) in [("vSAN only", &t.vsan_only), ("ANF datastores", &t.with_anf)] {
            bars.push(CostBar {
                option,
                term: term.display(),
                hosts: o.hosts_monthly.at(term),
                storage: o.anf_monthly.at(term),
            });
        }
    }
    Chart {
        title: "Monthly cost by purchase term: vSAN only against ANF datastores".to_owned(),
        summary: summary::avs::tco_caption(),
        size: (780, 400),
        measured: Vec::new(),
        kind: Kind::AvsTco(TcoData {
            bars,
            currency: "USD",
        }),
    }
}

pub(super) fn draw_fill<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &Fill,
) -> DrawResult<DB> {
    let n = d.datastores.len().max(1);
    let y = Linear::from_zero(
        d.datastores
            .iter()
            .flat_map(|s| [s.fill_pct, s.use_pct])
            .chain([100.0]),
        1.05,
        6,
    );
    let body = root.titled("Datastore fill and throughput use", caption_style())?;
    let items = vec![
        LegendItem::swatch("capacity used of the datastore's quota", OI_BLUE),
        LegendItem::swatch("throughput used of the datastore's QoS", OI_ORANGE),
        LegendItem::line("100 %", OI_BLACK, true),
    ];
    let (key, body) = body.split_vertically(key_row_height(&body, &items)?);
    draw_key_row(&key, &items)?;
    let x = Linear::slots(n);
    let mut chart = ChartBuilder::on(&body)
        .margin(12)
        .margin_right(24)
        .x_label_area_size(if n <= 16 { 64 } else { 48 })
        .y_label_area_size(64)
        .build_cartesian_2d(x.range(), y.range())?;
    // Every datastore named up to 16; beyond, every k-th so the names stay legible.
    let every = n.div_ceil(16).max(1);
    let names: Vec<&str> = d.datastores.iter().map(|s| s.name.as_str()).collect();
    mesh(&mut chart, 11)
        .disable_x_mesh()
        .x_labels(n.min(50))
        .y_labels(y.labels)
        .x_label_formatter(&|v| {
            let i = v.round();
            if (v - i).abs() > 1e-6 || i < 0.0 || !(i as usize).is_multiple_of(every) {
                return String::new();
            }
            names
                .get(i as usize)
                .map_or_else(String::new, |s| (*s).to_owned())
        })
        .y_label_formatter(&|v| format!("{}%", tick(*v)))
        .x_desc("Datastore")
        .y_desc("Share used (%)")
        .draw()?;
    let w = 0.4;
    for (i, s) in d.datastores.iter().enumerate() {
        let x0 = i as f64 - w;
        chart.draw_series([
            Rectangle::new(
                [(x0, 0.0), (x0 + w * 0.95, y.at(s.fill_pct))],
                OI_BLUE.filled(),
            ),
            Rectangle::new(
                [(i as f64, 0.0), (i as f64 + w * 0.95, y.at(s.use_pct))],
                OI_ORANGE.filled(),
            ),
        ])?;
    }
    chart.draw_series(std::iter::once(DashedPathElement::new(
        vec![(x.lo, 100.0), (x.hi, 100.0)],
        6,
        4,
        OI_BLACK.stroke_width(1),
    )))?;
    Ok(())
}

pub(super) fn draw_tco<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &TcoData,
) -> DrawResult<DB> {
    let n = d.bars.len().max(1);
    let x = Linear::from_zero(d.bars.iter().map(|b| b.hosts + b.storage), 1.25, 6);
    let body = root.titled("Monthly cost by purchase term", caption_style())?;
    let items = vec![
        LegendItem::swatch("AVS hosts", OI_BLUE),
        LegendItem::swatch("ANF datastores (storage)", OI_GREEN),
    ];
    let (key, body) = body.split_vertically(key_row_height(&body, &items)?);
    draw_key_row(&key, &items)?;
    let y = Linear::slots(n);
    let currency = d.currency;
    let mut chart = ChartBuilder::on(&body)
        .margin(12)
        .margin_right(24)
        .x_label_area_size(44)
        .y_label_area_size(200)
        .build_cartesian_2d(x.range(), y.range())?;
    mesh(&mut chart, 12)
        .disable_y_mesh()
        .x_labels(x.labels)
        .y_labels(n)
        .x_label_formatter(&|v| money_tick(*v, currency))
        .y_label_formatter(&|_| String::new())
        .x_desc(format!("Cost a month ({currency})"))
        .draw()?;
    let name_style =
        TextStyle::from((FONT, 12).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
    let value_style =
        TextStyle::from((FONT, 12).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    let area = chart.plotting_area();
    for (i, b) in d.bars.iter().enumerate() {
        let row = (n - 1 - i) as f64;
        let (h, total) = (x.at(b.hosts), x.at(b.hosts + b.storage));
        area.draw(&Rectangle::new(
            [(0.0, row - 0.34), (h, row + 0.34)],
            OI_BLUE.filled(),
        ))?;
        if b.storage > 0.0 {
            area.draw(&Rectangle::new(
                [(h, row - 0.34), (total, row + 0.34)],
                OI_GREEN.filled(),
            ))?;
        }
        for (k, line) in [b.option, b.term].iter().enumerate() {
            area.draw(
                &(EmptyElement::at((0.0, row))
                    + Text::new(
                        (*line).to_owned(),
                        (-8, -7 + 14 * k as i32),
                        name_style.clone(),
                    )),
            )?;
        }
        area.draw(
            &(EmptyElement::at((total, row))
                + Text::new(
                    money(b.hosts + b.storage, currency),
                    (5, 0),
                    value_style.clone(),
                )),
        )?;
    }
    Ok(())
}

pub(super) fn fill_table(title: &str, d: &Fill) -> ChartTable {
    ChartTable {
        caption: title.to_owned(),
        headers: [
            "Datastore",
            "Used TiB",
            "Quota TiB",
            "Fill",
            "Demand MiB/s",
            "QoS MiB/s",
            "Throughput used",
        ]
        .map(str::to_owned)
        .to_vec(),
        rows: d
            .datastores
            .iter()
            .map(|s| {
                vec![
                    s.name.clone(),
                    num(s.used_tib, 2),
                    num(s.quota_tib, 2),
                    pct(s.fill_pct, 0),
                    num(s.demand_mibps, 0),
                    num(s.qos_mibps, 0),
                    pct(s.use_pct, 0),
                ]
            })
            .collect(),
        notes: Vec::new(),
    }
}

pub(super) fn tco_table(title: &str, d: &TcoData) -> ChartTable {
    ChartTable {
        caption: title.to_owned(),
        headers: [
            "Option",
            "Term",
            "Hosts a month",
            "Storage a month",
            "Total a month",
        ]
        .map(str::to_owned)
        .to_vec(),
        rows: d
            .bars
            .iter()
            .map(|b| {
                vec![
                    b.option.to_owned(),
                    b.term.to_owned(),
                    money(b.hosts, d.currency),
                    money(b.storage, d.currency),
                    money(b.hosts + b.storage, d.currency),
                ]
            })
            .collect(),
        notes: Vec::new(),
    }
}
