//! The layering of `../shared/design/architecture.md`, held against the code: each
//! top-level module (a room) may import only the rooms below it in [`LAYERS`], so no
//! two rooms import each other and the engine imports no other room. Imports are read
//! from the source as `crate::ROOM` paths; test code (`tests.rs` files, `#[cfg(test)]`
//! modules) is left out, as it may reach across rooms to check them together.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The rooms from the top down: a room may import only rooms after it.
const LAYERS: [&str; 19] = [
    "main",
    "lib",
    "alloc",
    "cli",
    "web",
    "iac",
    "report",
    "store",
    "live",
    "verdict",
    "estate",
    "avs",
    "measure",
    "mounts",
    "prices",
    "inventory",
    "model_fit",
    "format",
    "engine",
];

/// One forbidden import: `from` imports `to` at `file`.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Violation {
    file: String,
    from: String,
    to: String,
}

/// The room a source path (relative to `src/`) belongs to: `engine/plan.rs` -> engine.
fn room(rel: &str) -> String {
    let first = rel.split('/').next().unwrap_or(rel);
    first.strip_suffix(".rs").unwrap_or(first).to_owned()
}

fn rank(room: &str) -> Option<usize> {
    LAYERS.iter().position(|r| *r == room)
}

/// The code of a file without its test modules (`#[cfg(test)] mod NAME { ... }` to
/// the end of the file, where the crate keeps them).
fn without_tests(text: &str) -> &str {
    let mut at = 0;
    while let Some(i) = text[at..].find("#[cfg(test)]") {
        let start = at + i;
        let rest = text[start + "#[cfg(test)]".len()..].trim_start();
        let rest = rest.strip_prefix("pub(crate) ").unwrap_or(rest);
        if rest.starts_with("mod ") && rest.split(['{', ';']).next().is_some() {
            let decl = &rest[..rest.find(['{', ';']).unwrap_or(rest.len())];
            if rest[decl.len()..].starts_with('{') {
                return &text[..start];
            }
        }
        at = start + 1;
    }
    text
}

/// The modules a file declares as test-only (`#[cfg(test)] mod NAME;`).
fn test_modules(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("#[cfg(test)]") {
        rest = &rest[i + "#[cfg(test)]".len()..];
        let decl = rest.trim_start();
        let decl = decl.strip_prefix("pub(crate) ").unwrap_or(decl);
        if let Some(name) = decl.strip_prefix("mod ")
            && let Some(end) = name.find(';')
            && !name[..end].contains('{')
        {
            out.push(name[..end].trim().to_owned());
        }
    }
    out
}

/// The files among `files` (path relative to `src/`, text) that hold only test code:
/// `tests.rs`, anything under a `tests/` folder, and modules declared
/// `#[cfg(test)] mod NAME;`.
fn test_files(files: &[(String, String)]) -> BTreeSet<String> {
    let mut test_only: BTreeSet<String> = BTreeSet::new();
    for (rel, text) in files {
        let dir = match rel.rsplit_once('/') {
            Some((d, "mod.rs")) => d.to_owned(),
            Some((d, f)) => format!("{d}/{}", f.trim_end_matches(".rs")),
            None => rel.trim_end_matches(".rs").to_owned(),
        };
        for m in test_modules(text) {
            test_only.insert(format!("{dir}/{m}.rs"));
            test_only.insert(format!("{dir}/{m}/"));
        }
    }
    files
        .iter()
        .filter(|(rel, _)| {
            rel.ends_with("/tests.rs")
                || rel.contains("/tests/")
                || test_only
                    .iter()
                    .any(|t| rel == t || (t.ends_with('/') && rel.starts_with(t.as_str())))
        })
        .map(|(rel, _)| rel.clone())
        .collect()
}

/// The source files under `src/` that are not test code, each without its test
/// modules: (path relative to `src/`, code).
pub fn production_code() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &root, &mut files);
    let tests = test_files(&files);
    files
        .into_iter()
        .filter(|(rel, _)| !tests.contains(rel))
        .map(|(rel, text)| {
            let code = without_tests(&text).to_owned();
            (rel, code)
        })
        .collect()
}

/// Every forbidden import among `files` (path relative to `src/`, text).
fn violations(files: &[(String, String)]) -> Vec<Violation> {
    let tests = test_files(files);
    let mut out = Vec::new();
    for (rel, text) in files {
        if tests.contains(rel) {
            continue;
        }
        let from = room(rel);
        let code = without_tests(text);
        for (i, _) in code.match_indices("crate::") {
            let to: String = code[i + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if to.is_empty() || to == from {
                continue;
            }
            let allowed = matches!((rank(&from), rank(&to)), (Some(a), Some(b)) if a < b);
            if !allowed {
                out.push(Violation {
                    file: rel.clone(),
                    from: from.clone(),
                    to,
                });
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

pub fn sources(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sources(&p, root, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&p).unwrap()));
        }
    }
}

/// The files outside the engine that may reach the compiled price book directly, and
/// why. Everything else prices with the book it is given: the server's book in force
/// (`AppState::book`), so a scenario in a currency only stored prices hold evaluates,
/// charts and reports alike.
const COMPILED_BOOK_ALLOWED: [(&str, &str); 8] = [
    (
        "cli.rs",
        "the command line has no database and prices with the compiled book",
    ),
    (
        "cli/",
        "the command line has no database and prices with the compiled book",
    ),
    (
        "store/prices.rs",
        "builds the book in force on the compiled book",
    ),
    (
        "model_fit/series.rs",
        "checks the published calibration cases, priced in the compiled book's currency",
    ),
    ("prices/rows.rs", "dates the compiled book's own rows"),
    (
        "web/pages/planner/mod.rs",
        "lists the ANF regions, which every book in force shares",
    ),
    (
        "web/pages/prices.rs",
        "tells the compiled book's rows from stored ones",
    ),
    (
        "measure/testplan.rs",
        "prints the expected throughput, which no price changes, in the compiled book's currency",
    ),
];

/// How code reaches the compiled book: the book itself and the engine's conveniences
/// that evaluate with it.
const COMPILED_BOOK_PATHS: [&str; 6] = [
    "pricing::book()",
    "pricing::book;",
    "engine::evaluate(",
    "engine::evaluate;",
    "evaluate::evaluate(",
    "Plan::resolve(",
];

/// The non-test places outside the engine that reach the compiled book without leave:
/// (file, what).
fn compiled_book_uses(files: &[(String, String)]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (rel, text) in files {
        if room(rel) == "engine"
            || rel.ends_with("/tests.rs")
            || rel.contains("/tests/")
            || rel == "report/fixture.rs"
            || COMPILED_BOOK_ALLOWED.iter().any(|(allowed, _)| {
                rel == allowed || (allowed.ends_with('/') && rel.starts_with(allowed))
            })
        {
            continue;
        }
        let code = without_tests(text);
        for path in COMPILED_BOOK_PATHS {
            if code.contains(path) {
                out.push((rel.clone(), path.to_owned()));
            }
        }
        // `use crate::engine::{Scenario, evaluate};`
        for (i, _) in code.match_indices("engine::{") {
            let group = &code[i + "engine::{".len()..];
            let group = &group[..group.find('}').unwrap_or(group.len())];
            if group.split(',').any(|item| item.trim() == "evaluate") {
                out.push((rel.clone(), "engine::{evaluate}".to_owned()));
            }
        }
    }
    out
}

#[test]
fn outside_the_engine_prices_come_from_the_book_in_force() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &root, &mut files);
    let found = compiled_book_uses(&files);
    assert!(
        found.is_empty(),
        "code that prices with the compiled book instead of the book in force it is given (pass the book, e.g. `state.book()`, and use `evaluate_in`): {found:#?}"
    );
    // The check sees each way in, and leaves test code alone.
    let file = |rel: &str, text: &str| (rel.to_owned(), text.to_owned());
    let reached = compiled_book_uses(&[
        file("web/charts.rs", "let e = engine::evaluate(&s);\n"),
        file(
            "report/model/mod.rs",
            "use crate::engine::{Scenario, evaluate};\n",
        ),
        file("measure/compare.rs", "f(crate::engine::pricing::book());\n"),
        file(
            "verdict/mod.rs",
            "#[cfg(test)]\nmod tests {\n fn t() { pricing::book(); }\n}\n",
        ),
        file(
            "engine/sweep/io_size.rs",
            "evaluate_in(s, pricing::book())\n",
        ),
    ]);
    let files: Vec<&str> = reached.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(
        files,
        ["web/charts.rs", "report/model/mod.rs", "measure/compare.rs"]
    );
}

#[test]
fn rooms_import_only_the_rooms_below_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &root, &mut files);
    assert!(files.len() > 100, "read the sources ({})", files.len());
    for (rel, _) in &files {
        assert!(
            rank(&room(rel)).is_some(),
            "{rel}: the room {} is not in the layering; add it to LAYERS and to architecture.md",
            room(rel)
        );
    }
    let found = violations(&files);
    assert!(found.is_empty(), "imports against the layering: {found:#?}");
}

#[test]
fn the_check_refuses_an_engine_that_imports_upward_and_rooms_that_import_each_other() {
    let file = |rel: &str, text: &str| (rel.to_owned(), text.to_owned());
    let engine_up = [
        file("engine/plan.rs", "use crate::web::AppState;\n"),
        file("engine/cost.rs", "fn f() { crate::report::render(); }\n"),
        file("engine/mod.rs", "use crate::store::Db;\n"),
    ];
    let found = violations(&engine_up);
    let to: Vec<&str> = found.iter().map(|v| v.to.as_str()).collect();
    assert_eq!(to, ["report", "store", "web"]);

    let mutual = [
        file("estate/mod.rs", "use crate::avs::plan;\n"),
        file("avs/mod.rs", "use crate::estate::optimize;\n"),
    ];
    let found = violations(&mutual);
    assert_eq!(
        found.len(),
        1,
        "one of the two directions is against the layering"
    );
    assert_eq!(
        (found[0].from.as_str(), found[0].to.as_str()),
        ("avs", "estate")
    );

    // Test code may reach across rooms.
    let tests = [
        file("engine/tests.rs", "use crate::web::AppState;\n"),
        file(
            "engine/cost.rs",
            "fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::report::x;\n}\n",
        ),
        file("engine/mod.rs", "#[cfg(test)]\nmod properties;\n"),
        file("engine/properties.rs", "use crate::web::x;\n"),
    ];
    assert_eq!(violations(&tests), []);
}
