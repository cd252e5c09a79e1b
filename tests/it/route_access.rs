//! Every route of the web layer declares who may call it where it is registered
//! (`web::auth::access`): each `.route(...)` and `.routes(...)` call carries one of the
//! declarations, read from the source with comments and test code left out.

use std::path::Path;

const DECLARATIONS: [&str; 5] = [
    ".public()",
    ".compute()",
    ".read_write()",
    ".admin_writes()",
    ".admin()",
];

/// The `.route(...)` and `.routes(...)` calls in `text` without a declaration.
fn undeclared(text: &str) -> Vec<String> {
    let code: String = text
        .split("#[cfg(test)]")
        .next()
        .unwrap_or(text)
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    for opener in [".route(", ".routes("] {
        let mut from = 0;
        while let Some(at) = code[from..].find(opener) {
            let start = from + at;
            let mut depth = 0usize;
            let mut end = start + opener.len() - 1;
            for (i, c) in code[end..].char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            end += i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let call = &code[start..end];
            if !DECLARATIONS.iter().any(|d| call.contains(d)) {
                out.push(call.split_whitespace().collect::<Vec<_>>().join(" "));
            }
            from = end.max(start + 1);
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_route_declares_who_may_call_it() {
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web");
    let mut files = Vec::new();
    rust_files(&web, &mut files);
    let mut missing = Vec::new();
    let mut routes = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).expect("source");
        routes += text.matches(".route(").count() + text.matches(".routes(").count();
        for call in undeclared(&text) {
            missing.push(format!("{}: {call}", f.display()));
        }
    }
    assert!(
        routes > 50,
        "the web layer registers its routes ({routes} found)"
    );
    assert!(
        missing.is_empty(),
        "routes without an access declaration:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_check_finds_an_undeclared_route() {
    let text = r#"
        Router::new()
            .route("/a", get(a).read_write())
            .route("/b", get(b))
            .routes(routes!(c).compute())
            .routes(routes!(d))
    "#;
    assert_eq!(
        undeclared(text),
        [r#".route("/b", get(b))"#, ".routes(routes!(d))"]
    );
}
