//! The manual's links: every relative link and image in README.md and docs/ names a
//! file that exists and, with a `#fragment`, a heading of that page; every page of
//! docs/ is listed in its index. Links inside code are not links and are not checked.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every Markdown file under docs/.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut dirs = vec![root().join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("docs/ exists") {
            let path = entry.expect("a docs entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
}

/// The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces
/// as hyphens, a repeated heading numbered `-1`, `-2`, ...
fn anchors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut heading: Option<String> = None;
    for event in Parser::new_ext(text, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let title = heading.take().unwrap_or_default();
                let slug: String = title
                    .to_lowercase()
                    .chars()
                    .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
                    .map(|c| if c == ' ' { '-' } else { c })
                    .collect();
                let n = seen.entry(slug.clone()).or_insert(0);
                out.push(if *n == 0 { slug } else { format!("{slug}-{n}") });
                *n += 1;
            }
            _ => {}
        }
    }
    out
}

/// The destinations of a page's links and images.
fn links(text: &str) -> Vec<String> {
    Parser::new_ext(text, Options::ENABLE_TABLES)
        .filter_map(|event| match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                Some(dest_url.to_string())
            }
            _ => None,
        })
        .collect()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_relative_link_resolves() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = read(&page);
        let shown = page
            .strip_prefix(root())
            .unwrap_or(&page)
            .display()
            .to_string();
        for dest in links(&text) {
            if dest.contains("://") || dest.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = dest.split_once('#').unwrap_or((&dest, ""));
            let target = if path.is_empty() {
                page.clone()
            } else {
                page.parent().expect("a page's folder").join(path)
            };
            if !target.exists() {
                broken.push(format!("{shown}: {dest} (no such file)"));
            } else if !fragment.is_empty()
                && target.extension().is_some_and(|e| e == "md")
                && !anchors(&read(&target)).iter().any(|a| a == fragment)
            {
                broken.push(format!("{shown}: {dest} (no such heading)"));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_docs_index_lists_every_page() {
    let index = links(&read(&root().join("docs/README.md")));
    let missing: Vec<String> = pages()
        .iter()
        .filter(|p| p.parent() == Some(&root().join("docs")))
        .filter_map(|p| p.file_name()?.to_str().map(str::to_owned))
        .filter(|name| name != "README.md" && !index.iter().any(|l| l == name))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/README.md does not list {missing:?}"
    );
}

#[test]
fn anchors_follow_github() {
    assert_eq!(
        anchors("# Host check (DNS rebinding)\n## `volplan` CLI\n## Notes\n## Notes\n"),
        [
            "host-check-dns-rebinding",
            "volplan-cli",
            "notes",
            "notes-1"
        ]
    );
}
