//! A scenario calibrated to its own measurements: how many runs it was refitted to and
//! which model parameters moved, as every page, report and API answer states it.

use crate::engine::evaluation::CalibrationNote;
use crate::format::{sig, signed_pct};

/// Parameters that moved by less than this share (%) are not listed.
const MOVED_PCT: f64 = 1.0;

/// "Calibrated to 3 measured runs".
pub fn title(note: &CalibrationNote) -> String {
    if note.measurements == 1 {
        "Calibrated to 1 measured run".to_owned()
    } else {
        format!("Calibrated to {} measured runs", note.measurements)
    }
}

/// One line per parameter that moved by 1 % or more, the largest move first: "Time per
/// request on one connection: 12.3 to 10.1 µs (-17.9%)".
pub fn moved(note: &CalibrationNote) -> Vec<String> {
    note.parameters
        .iter()
        .filter(|p| (p.after / p.before - 1.0).abs() * 100.0 >= MOVED_PCT)
        .map(|p| {
            format!(
                "{}: {} to {} {} ({})",
                p.about,
                sig(p.before),
                sig(p.after),
                p.unit,
                signed_pct((p.after / p.before - 1.0) * 100.0)
            )
        })
        .collect()
}

/// How the runs compare with a prediction: "15% below", "8% above", or "within 1% of"
/// (the one rule for the same).
fn gap(pct: f64) -> String {
    if pct.abs() <= crate::engine::same::SAME_PCT {
        format!("within {}% of", crate::engine::same::SAME_PCT)
    } else if pct < 0.0 {
        format!("{} below", pct_words(-pct))
    } else {
        format!("{} above", pct_words(pct))
    }
}

/// A percentage in whole numbers ("15%").
fn pct_words(v: f64) -> String {
    crate::format::pct(v, 0)
}

/// The statement: how far the runs lay from the published fit, what moved (or that
/// nothing did, and why the figures then stay the published fit's) and how far the
/// refitted model lies from the runs.
pub fn statement(note: &CalibrationNote) -> String {
    let moved = moved(note);
    let (subject, verb) = if note.measurements == 1 {
        ("your run", "is")
    } else {
        ("your runs", "are")
    };
    let mut s = title(note);
    s.push_str(": ");
    if let Some(p) = note.measured_vs_published_pct {
        s.push_str(&format!("{subject} {verb} {} the published fit; ", gap(p)));
    }
    if moved.is_empty() {
        let agree = note
            .measured_vs_published_pct
            .is_none_or(|p| p.abs() <= crate::engine::same::SAME_PCT);
        if agree {
            s.push_str(&format!(
                "no model parameter moved by {MOVED_PCT}% or more; the measurements agree with the published fit."
            ));
        } else {
            s.push_str(&format!(
                "no parameter of this scenario's IO path (connections, client path, round trip) moved by {MOVED_PCT}% or more: what sets its prediction is not refitted (the storage or a documented limit), so the figures stay the published fit's."
            ));
        }
    } else {
        s.push_str(&format!(
            "the figures start from them; {}",
            moved.join("; ")
        ));
        if let Some(r) = note.measured_vs_refitted_pct {
            s.push_str(&format!("; {subject} {verb} {} the refitted model", gap(r)));
        }
        s.push('.');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::evaluation::MovedParameter;

    fn note(published: Option<f64>, moved_to: f64) -> CalibrationNote {
        CalibrationNote {
            measurements: 1,
            parameters: vec![MovedParameter {
                name: "client_read_a_us".into(),
                about: "Client path: time per read".into(),
                unit: "µs".into(),
                before: 10.0,
                after: moved_to,
            }],
            measured_vs_published_pct: published,
            measured_vs_refitted_pct: published.map(|p| p / 5.0),
        }
    }

    #[test]
    fn a_run_below_the_fit_names_the_gap_and_what_moved() {
        let s = statement(&note(Some(-15.0), 11.9));
        assert!(s.contains("your run is 15% below the published fit"), "{s}");
        assert!(
            s.contains("Client path: time per read: 10 to 11.9 µs (+19"),
            "{s}"
        );
        assert!(s.contains("3% below the refitted model"), "{s}");
        assert!(!s.contains("agree"), "{s}");
    }

    #[test]
    fn a_gap_nothing_explains_is_not_called_agreement() {
        let s = statement(&note(Some(-15.0), 10.0));
        assert!(s.contains("15% below the published fit"), "{s}");
        assert!(s.contains("not refitted"), "{s}");
        assert!(!s.contains("agree"), "{s}");
        let s = statement(&note(Some(0.5), 10.0));
        assert!(s.contains("agree with the published fit"), "{s}");
    }
}
