//! The `volplan calibrate` command: fit, print the residuals, the
//! leave-one-series-out and leave-one-document-out tables and the likely ranges,
//! optionally write `model.json`.

use super::series::SeriesFile;
use super::{
    PointError, Withheld, errors, fit, leave_one_document_out, leave_one_out, median, model_json,
    range_widths, same_params,
};
use crate::engine::catalog;
use crate::engine::model::params::INFO;
use std::fmt::Write as _;
use std::process::ExitCode;

/// Options of `volplan calibrate`.
#[derive(Debug, Clone, clap::Args)]
pub struct CalibrateArgs {
    /// The published series (run from the repository root).
    #[arg(long, default_value = super::SERIES_PATH)]
    pub series: String,
    /// Write the fitted parameters and residuals to this model.json.
    #[arg(long)]
    pub write: Option<String>,
    /// Skip the leave-one-series-out and leave-one-document-out tables (the slow part).
    #[arg(long)]
    pub no_loso: bool,
    /// Skip the leave-one-series-out table but not the leave-one-document-out one (the
    /// likely ranges come from it): about 40 % of the full run's time.
    #[arg(long)]
    pub documents_only: bool,
    /// Also print each withheld point's prediction (after the table).
    #[arg(long)]
    pub withheld_points: bool,
    /// Withhold only these series (comma-separated ids): their rows of the table, not
    /// the overall figures, likely ranges or coverage (a quick check of one change).
    #[arg(long, value_delimiter = ',')]
    pub loso_series: Vec<String>,
}

/// Runs the command; exit 2 when the series file cannot be read.
pub fn run(args: &CalibrateArgs) -> ExitCode {
    let file = match std::fs::read_to_string(&args.series)
        .map_err(|e| format!("cannot read {}: {e}", args.series))
        .and_then(|t| SeriesFile::parse(&t))
    {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let full = fit(&file, &[]);
    let errs = errors(&file, &full.params, None);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "joint fit: {} parameters, {} series, {} points, {} iterations, cost {:.6}",
        INFO.len(),
        file.series.len(),
        file.points(),
        full.iterations,
        full.cost
    );
    let _ = writeln!(out, "\nparameters:");
    for (i, v) in INFO.iter().zip(full.params.to_vec()) {
        let _ = writeln!(
            out,
            "  {:<26} {:>14.6} {:<20} {}",
            i.name, v, i.unit, i.about
        );
    }
    let _ = writeln!(out, "\nresiduals (in sample):");
    for e in &errs {
        push_residual(&mut out, e);
    }
    let abs = || errs.iter().map(|e| e.error.abs());
    let _ = writeln!(
        out,
        "\nin sample: median |error| {:.1}%, worst {:.1}% over {} points",
        median(abs()) * 100.0,
        abs().fold(0.0, f64::max) * 100.0,
        errs.len()
    );
    match same_params(&full.params, &catalog::catalog().model.params, 1e-6) {
        Ok(()) => out.push_str("committed model.json matches this fit\n"),
        Err(e) => {
            let _ = writeln!(out, "committed model.json differs from this fit ({e})");
        }
    }
    let mut likely = None;
    if !args.loso_series.is_empty() {
        let mut only = Vec::new();
        for id in &args.loso_series {
            match file.series.iter().position(|s| &s.id == id) {
                Some(i) => only.push(i),
                None => {
                    eprintln!("error: no series {id} in {}", args.series);
                    return ExitCode::from(2);
                }
            }
        }
        let rows = leave_one_out(&file, &full.params, Some(&only));
        out.push('\n');
        out.push_str(&loso_table(&rows));
        if args.withheld_points {
            out.push_str("\nresiduals (withheld):\n");
            for e in rows.iter().flat_map(|r| &r.errors) {
                push_residual(&mut out, e);
            }
        }
    } else if !args.no_loso {
        let rows = if args.documents_only {
            Vec::new()
        } else {
            leave_one_out(&file, &full.params, None)
        };
        if !rows.is_empty() {
            out.push('\n');
            out.push_str(&loso_table(&rows));
        }
        let docs = leave_one_document_out(&file, &full.params);
        let r = range_widths::ranges(&file, &full.params, &docs);
        out.push('\n');
        out.push_str(&lodo_table(&docs, &r));
        out.push_str(
            "\nlikely ranges (80 % intervals by binding resource, leave-one-document-out):\n\n",
        );
        out.push_str(&range_widths::table(&r));
        likely = Some(r);
        if args.withheld_points {
            out.push_str("\nresiduals (series withheld):\n");
            for e in rows.iter().flat_map(|r| &r.errors) {
                push_residual(&mut out, e);
            }
            out.push_str("\nresiduals (document withheld):\n");
            for e in docs.iter().flat_map(|r| &r.errors) {
                push_residual(&mut out, e);
            }
        }
    }
    print!("{out}");
    if let Some(path) = &args.write {
        let current = catalog::MODEL_JSON;
        match model_json(current, &full.params, &errs, likely.as_ref())
            .and_then(|t| std::fs::write(path, t).map_err(|e| format!("cannot write {path}: {e}")))
        {
            Ok(()) => eprintln!("wrote {path}"),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// One line of a residual listing.
fn push_residual(out: &mut String, e: &PointError) {
    let _ = writeln!(
        out,
        "  {:<42} {:<14} published {:>12.6} predicted {:>12.6} {:>+7.1}%",
        e.series,
        e.point,
        e.published,
        e.predicted,
        e.error * 100.0
    );
}

/// The leave-one-document-out table as Markdown, with the overall figures below it:
/// the median error, the document furthest off (its points' geometric mean factor)
/// and the coverage of the document-withheld points by the ranges the other
/// documents set.
pub fn lodo_table(rows: &[Withheld], r: &crate::engine::catalog::Ranges) -> String {
    let mut out = String::from(
        "| withheld document | points | median error in sample | median error withheld | worst withheld | document off by |\n|---|---:|---:|---:|---:|---:|\n",
    );
    for w in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {:.1}% | {:.1}% | {:.1}% | {:.2}x |",
            w.series,
            w.points,
            w.in_sample_median * 100.0,
            w.median * 100.0,
            w.worst * 100.0,
            w.factor()
        );
    }
    let all = rows
        .iter()
        .flat_map(|w| w.errors.iter().map(|e| e.error.abs()));
    let worst = rows.iter().max_by(|a, b| a.factor().total_cmp(&b.factor()));
    let c = r.coverage;
    let _ = writeln!(
        out,
        "\ndocument withheld: median |error| {:.1}% over {} points; worst document {} off by {:.2}x; {} of {} points ({:.1}%) inside the 80 % range the other documents set",
        median(all) * 100.0,
        c.points,
        worst.map_or("-", |w| w.series.as_str()),
        worst.map_or(1.0, Withheld::factor),
        c.inside,
        c.points,
        f64::from(c.inside) * 100.0 / f64::from(c.points.max(1))
    );
    out
}

/// The leave-one-series-out table as Markdown, with the overall figures below it.
pub fn loso_table(rows: &[Withheld]) -> String {
    let mut out = String::from(
        "| withheld series | points | median error in sample | median error withheld | worst withheld |\n|---|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {:.1}% | {:.1}% | {:.1}% |",
            r.series,
            r.points,
            r.in_sample_median * 100.0,
            r.median * 100.0,
            r.worst * 100.0
        );
    }
    let all: Vec<f64> = rows
        .iter()
        .flat_map(|r| r.errors.iter().map(|e| e.error.abs()))
        .collect();
    let worst_ratio = rows
        .iter()
        .flat_map(|r| r.errors.iter())
        .map(|e| {
            let q = 1.0 + e.error;
            q.max(1.0 / q.max(1e-12))
        })
        .fold(1.0, f64::max);
    let _ = writeln!(
        out,
        "\nwithheld: median |error| {:.1}%, worst {:.1}% over {} points; largest factor off {:.2}x",
        median(all.iter().copied()) * 100.0,
        all.iter().copied().fold(0.0, f64::max) * 100.0,
        all.len(),
        worst_ratio
    );
    out
}
