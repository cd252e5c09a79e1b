//! The committed model parameters are what the joint fit over the published series
//! gives, and the fit meets its accuracy targets.

use volplan::engine::catalog;
use volplan::model_fit::series::SeriesFile;
use volplan::model_fit::{errors, fit, median, same_params};

fn series() -> SeriesFile {
    SeriesFile::parse(include_str!("../fixtures/series.json")).expect("series.json parses")
}

#[test]
fn committed_parameters_are_the_fit() {
    let file = series();
    let f = fit(&file, &[]);
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
        assert!(
            !s.document.trim().is_empty(),
            "{} names no source document",
            s.id
        );
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

#[test]
fn every_banded_point_lies_in_its_band() {
    // The calibration cases and the platform features' published figures (dNFS F3/F5,
    // Kerberos I1/I2/I3, SMB signing H4, cool access J1/J2/J4/J5, breakthrough E3/BT30/D3)
    // carry bands: an absolute figure +-15 %, a ratio +-30 %, as calibration.json does.
    let file = series();
    let params = &catalog::catalog().model.params;
    let mut banded = Vec::new();
    for s in &file.series {
        for p in &s.points {
            let Some((lo, hi)) = p.band() else { continue };
            let got = p.predict(params);
            assert!(
                lo.is_none_or(|l| got >= l) && hi.is_none_or(|h| got <= h),
                "{} {}: {got} outside [{lo:?}, {hi:?}]",
                s.id,
                p.id
            );
            banded.push(p.id.as_str());
        }
    }
    for id in [
        "F3", "F5", "I1-seq", "I1-rr", "I3-seq", "I3-rw", "H4-on", "J1-cool", "J2-cool", "J4-cool",
        "J5-cool", "E3-R", "E3-W", "BT30-R", "BT30-W", "I2-seq", "D3-top", "D3-2880",
    ] {
        assert!(banded.contains(&id), "{id} has no band");
    }
}
