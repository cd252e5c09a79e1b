//! The committed model parameters are what the joint fit over the published series
//! gives, and the fit meets its accuracy targets.

use volplan::calibrate::series::SeriesFile;
use volplan::calibrate::{errors, fit, median, same_params};
use volplan::engine::catalog;

fn series() -> SeriesFile {
    SeriesFile::parse(include_str!("../fixtures/series.json")).expect("series.json parses")
}

#[test]
fn committed_parameters_are_the_fit() {
    let file = series();
    let f = fit(&file, None);
    if let Err(e) = same_params(&f.params, &catalog::catalog().model.params, 1e-6) {
        panic!(
            "src/engine/catalog/model.json is not the fit of tests/fixtures/series.json ({e}); run `cargo run --release -- calibrate --write src/engine/catalog/model.json` and commit it"
        );
    }
    let errs = errors(&file, &f.params, None);
    let med = median(errs.iter().map(|e| e.error.abs()));
    assert!(med <= 0.10, "in-sample median error {:.1}%", med * 100.0);
}

#[test]
fn every_point_cites_a_published_source() {
    let file = series();
    assert!(file.points() >= 100, "{} points", file.points());
    for s in &file.series {
        assert!(!s.source.trim().is_empty(), "{} has no source", s.id);
        for p in &s.points {
            assert!(
                !p.id.trim().is_empty() && p.value > 0.0,
                "{}: {}",
                s.id,
                p.id
            );
        }
    }
}
