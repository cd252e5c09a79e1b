//! The engineer edition's appendix: the model trace behind the figures (every limit with
//! its id, formula and the catalog's own source; the flows; the cost lines with the price
//! book; the fitted model parameters).

use crate::engine::catalog;
use crate::engine::model::params::INFO;
use crate::format::{num, unit_price};
use crate::report::doc::{Block, Cell, Row, Table, num_col, text_col};
use crate::report::model::Report;

/// Appends the model trace to an engineer's report.
pub fn append(r: &Report, b: &mut Vec<Block>) {
    let e = &r.evaluation;
    b.push(Block::Heading("Model trace".into()));
    b.push(Block::Note(format!(
        "Catalog {}; price book {} (prices as of {}): {}.",
        r.catalog_version, e.cost.price_book.id, e.cost.price_book.date, e.cost.price_book.source
    )));
    b.push(Block::Subheading("Limits as evaluated".into()));
    b.push(Block::Table(Table {
        name: "Trace limits".into(),
        columns: vec![
            text_col("Id", 1.4),
            text_col("Limit and formula", 3.0),
            text_col("Scope", 0.8),
            num_col("MiB/s", 1.0),
            num_col("IOPS", 1.0),
            text_col("Catalog source", 3.0),
        ],
        rows: e
            .limits
            .iter()
            .map(|l| {
                Row::new(vec![
                    l.id.into(),
                    l.label.to_string().into(),
                    l.scope.key().into(),
                    Cell::num(l.mibps, 2),
                    Cell::num(l.iops, 0),
                    crate::report::sources::cite(&l.source, crate::report::Edition::Engineer)
                        .into(),
                ])
            })
            .collect(),
    }));
    let f = &e.flows;
    let mut flows = vec![
        format!(
            "{} TCP connections, {} per client",
            f.connections, f.per_client
        ),
        format!("{} IOs in flight after slot limits", num(f.outstanding, 1)),
    ];
    if let (Some(d), Some(l)) = (f.datastores, f.loaded_datastores) {
        flows.push(format!("{l} of {d} datastores carry load"));
    }
    b.push(Block::Para(format!("Flows: {}.", flows.join("; "))));
    b.push(Block::Subheading("Cost lines".into()));
    let cur = e.cost.currency;
    b.push(Block::Table(Table {
        name: "Trace cost".into(),
        columns: vec![
            text_col("Item", 3.0),
            num_col("Quantity", 1.2),
            text_col("Unit", 1.2),
            num_col("Unit price", 1.3),
            num_col("Amount", 1.3),
        ],
        rows: e
            .cost
            .lines
            .iter()
            .map(|l| {
                Row::new(vec![
                    l.item.into(),
                    Cell::num(l.quantity, 3),
                    l.unit.into(),
                    l.unit_price
                        .map_or_else(|| "no public price".into(), |u| unit_price(u, cur).into()),
                    Cell::money(l.monthly, cur),
                ])
            })
            .collect(),
    }));
    b.push(Block::Subheading("Fitted model parameters".into()));
    let params = catalog::catalog().model.params.to_vec();
    b.push(Block::Table(Table {
        name: "Trace parameters".into(),
        columns: vec![
            text_col("Parameter", 1.6),
            num_col("Value", 1.0),
            text_col("Unit", 0.8),
            text_col("Meaning", 4.0),
        ],
        rows: INFO
            .iter()
            .zip(params)
            .map(|(i, v)| {
                Row::new(vec![
                    i.name.into(),
                    Cell::num(v, 6),
                    i.unit.into(),
                    i.about.into(),
                ])
            })
            .collect(),
    }));
}
