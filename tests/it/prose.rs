//! One voice: every sentence a user reads that states a conclusion or advice is worded
//! in `src/verdict/` (figures by `src/format.rs`, which holds no sentence). The check reads every string literal
//! of the non-test code and refuses one of four or more words that starts with a
//! capital letter anywhere else, unless [`ALLOWED`] names it and says why.

use crate::architecture::production_code;

/// Where sentences may be written, and why. An entry is a file (or a folder ending in
/// `/`), optionally with the start of the one literal it allows.
const ALLOWED: &[(&str, Option<&str>, &str)] = &[
    ("verdict/", None, "the verdict words every conclusion"),
    // Input validation and errors: the message says what to fix, naming the field.
    ("engine/validate.rs", None, "validation: what to fix"),
    ("engine/scenario.rs", None, "service names"),
    ("avs/request.rs", None, "validation: what to fix"),
    (
        "web/page_error.rs",
        None,
        "error pages: what failed, what to do",
    ),
    ("web/guard.rs", None, "request errors"),
    ("web/share.rs", None, "share link errors: what to fix"),
    (
        "web/reports.rs",
        None,
        "report download errors: what to fix",
    ),
    ("web/limits.rs", None, "the HTTP methods served"),
    (
        "web/pages/",
        None,
        "fixed page labels, form hints, save notices, input errors",
    ),
    ("web/api/", None, "API errors and OpenAPI descriptions"),
    ("store/", None, "SQL statements and storage errors"),
    // Command line and server: help texts and metric descriptions.
    ("main.rs", None, "command-line help"),
    ("web/config.rs", None, "command-line help"),
    ("web/metrics.rs", None, "metric help texts"),
    (
        "web/scenario_templates.rs",
        None,
        "the templates' names and descriptions",
    ),
    // The engine's catalog: what a limit, parameter or cost line is called, its source.
    ("engine/model/", None, "parameter names and their sources"),
    ("engine/service/", None, "limit labels and their sources"),
    ("engine/client.rs", None, "limit labels and their sources"),
    ("engine/avs.rs", None, "limit labels and their sources"),
    ("engine/cost.rs", None, "cost line names"),
    (
        "engine/cost_files_gcnv.rs",
        None,
        "cost line names and their assumption",
    ),
    ("engine/sweep/", None, "chart series and row labels"),
    ("avs/hosts.rs", None, "a source title"),
    ("avs/assumptions.rs", None, "an assumption's name"),
    ("avs/licence.rs", None, "the licence terms as priced"),
    (
        "avs/scenario.rs",
        None,
        "names and notes of the scenarios an AVS plan makes",
    ),
    (
        "model_fit/range_widths.rs",
        None,
        "the header of the widths file it writes",
    ),
    // Import and export: units, formats and generated code.
    ("inventory/", None, "the units and rows an import read"),
    ("live/inventory.rs", None, "the live estate's name"),
    ("measure/mod.rs", None, "result format names"),
    (
        "measure/testplan.rs",
        None,
        "the test plan's script text and its source",
    ),
    (
        "iac/",
        None,
        "generated Terraform and Bicep descriptions and export errors",
    ),
    ("prices/", None, "price import: meter names and what to fix"),
    ("estate/reach.rs", None, "a cloud's VM family name"),
    ("estate/request.rs", None, "an estate's default name"),
    // Reports and charts: titles, headings, table headers, axis titles and legends.
    (
        "report/charts/",
        None,
        "chart titles, axes, legends and table headers",
    ),
    ("report/model/inputs.rs", None, "the inputs' labels"),
    (
        "report/model/plan.rs",
        None,
        "the test plan's part titles and how to use it",
    ),
    (
        "report/model/mod.rs",
        None,
        "what the sizing table sizes for",
    ),
    (
        "report/scenario/",
        None,
        "report headings, table headers and the header line",
    ),
    (
        "report/avs/",
        None,
        "report headings, table headers and the price dates",
    ),
    ("report/estate/", None, "report headings and table headers"),
    ("report/doc/", None, "document layout labels"),
    (
        "report/summary/mod.rs",
        None,
        "the provenance note (the typed sources replace it)",
    ),
    (
        "report/summary/cost.rs",
        None,
        "the cost and the price lists it used",
    ),
    // Findings still worded where they are found.
    (
        "mounts/",
        None,
        "the mount checker's findings and their sources",
    ),
    ("estate/growth.rs", None, "the resize schedule's events"),
    ("estate/allocate.rs", None, "a Flexible pool's allocation"),
];

/// The string literals of Rust `code`, comments left out: plain, byte and raw strings;
/// char literals and lifetimes are stepped over.
fn literals(code: &str) -> Vec<String> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = code[i..].find('\n').map_or(b.len(), |n| i + n);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = code[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
            }
            b'\'' => {
                // A char literal ('x', '\n', '"'), else a lifetime.
                if b.get(i + 1) == Some(&b'\\') {
                    i = code[i + 2..].find('\'').map_or(b.len(), |n| i + 2 + n + 1);
                } else if let Some(c) = code[i + 1..].chars().next()
                    && code[i + 1 + c.len_utf8()..].starts_with('\'')
                {
                    i += 1 + c.len_utf8() + 1;
                } else {
                    i += 1;
                }
            }
            b'r' if !ident_before(b, i) && matches!(b.get(i + 1), Some(b'"' | b'#')) => {
                let hashes = b[i + 1..].iter().take_while(|c| **c == b'#').count();
                let open = i + 1 + hashes;
                if b.get(open) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let close = format!("\"{}", "#".repeat(hashes));
                let end = code[open + 1..]
                    .find(&close)
                    .map_or(b.len(), |n| open + 1 + n);
                out.push(code[open + 1..end].to_owned());
                i = end + close.len();
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                out.push(code[i + 1..j.min(b.len())].to_owned());
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// Whether the byte before `i` continues an identifier (so `r` is not a raw prefix).
fn ident_before(b: &[u8], i: usize) -> bool {
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

/// Whether a literal reads as a sentence: a capital letter and another letter first,
/// four or more words.
fn is_sentence(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(
        (chars.next(), chars.next()),
        (Some(a), Some(b)) if a.is_ascii_uppercase() && b.is_alphabetic()
    ) && text.split_whitespace().count() >= 4
}

/// The sentences of `files` that [`ALLOWED`] does not name: (file, literal).
fn unplaced(files: &[(String, String)]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (rel, code) in files {
        for lit in literals(code).into_iter().filter(|l| is_sentence(l)) {
            let allowed = ALLOWED.iter().any(|(place, start, _)| {
                (rel == place || (place.ends_with('/') && rel.starts_with(place)))
                    && start.is_none_or(|s| lit.starts_with(s))
            });
            if !allowed {
                out.push((rel.clone(), lit));
            }
        }
    }
    out
}

#[test]
fn every_sentence_that_concludes_is_worded_in_the_verdict() {
    let files = production_code();
    assert!(files.len() > 100, "read the sources ({})", files.len());
    let found = unplaced(&files);
    assert!(
        found.is_empty(),
        "sentences written outside src/verdict/: word them there (a typed finding the verdict words), or name the file in ALLOWED with why: {found:#?}"
    );
    // Each exception still holds a sentence, so the list does not outlive its reason.
    let stale: Vec<&str> = ALLOWED
        .iter()
        .filter(|(place, start, _)| {
            !files.iter().any(|(rel, code)| {
                (rel == place || (place.ends_with('/') && rel.starts_with(place)))
                    && literals(code)
                        .iter()
                        .any(|l| is_sentence(l) && start.is_none_or(|s| l.starts_with(s)))
            })
        })
        .map(|(place, _, _)| *place)
        .collect();
    assert!(
        stale.is_empty(),
        "ALLOWED names places without a sentence: {stale:?}"
    );
}

#[test]
fn the_check_reads_literals_as_the_compiler_does() {
    let code = r##"
        // "A comment is not a literal here"
        /* "Nor is one in a block comment" */
        fn f<'a>(x: &'a str) -> char { let q = '"'; let e = '\''; q }
        let s = "The volumes hold less than the workload stores.";
        let r = r#"Raw strings "quoted" are read too"#;
        let short = "Three words only";
        let lower = "a sentence that starts in lower case";
        let escaped = "He said \"no\" and left the room";
    "##;
    let found: Vec<String> = literals(code)
        .into_iter()
        .filter(|l| is_sentence(l))
        .collect();
    assert_eq!(
        found,
        [
            "The volumes hold less than the workload stores.",
            "Raw strings \"quoted\" are read too",
            "He said \\\"no\\\" and left the room",
        ]
    );
    let files = [(
        "engine/advice/rules.rs".to_owned(),
        "fn f() { \"Mount with nconnect=4 to lift it\" }".to_owned(),
    )];
    assert_eq!(unplaced(&files).len(), 1, "the engine words no advice");
    let files = [(
        "verdict/advice/mod.rs".to_owned(),
        "fn f() { \"Mount with nconnect=4 to lift it\" }".to_owned(),
    )];
    assert!(unplaced(&files).is_empty());
}
