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

/// The statement: the runs, and what moved or that nothing did.
pub fn statement(note: &CalibrationNote) -> String {
    let moved = moved(note);
    if moved.is_empty() {
        format!(
            "{}: no model parameter moved by {MOVED_PCT}% or more; the measurements agree with the published fit.",
            title(note)
        )
    } else {
        format!(
            "{}: the figures start from them; {}.",
            title(note),
            moved.join("; ")
        )
    }
}
