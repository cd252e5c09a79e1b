//! Migration versions only grow: `migrations/RELEASED` lists every version in the order
//! it was released, each greater than the one before, and both migration folders (SQLite
//! and PostgreSQL) hold exactly those versions under the same file names. A migration
//! numbered below a released one would run before it on a new database but after it on
//! every existing one.

use std::collections::BTreeSet;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The `.sql` file names of one folder.
fn files(dir: &str) -> BTreeSet<String> {
    std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sql"))
        .collect()
}

fn version(file: &str) -> String {
    file.split('_').next().unwrap().to_owned()
}

/// The released versions, in release order.
fn released() -> Vec<u64> {
    std::fs::read_to_string(root().join("migrations/RELEASED"))
        .expect("migrations/RELEASED")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.parse().unwrap_or_else(|_| panic!("not a version: {l}")))
        .collect()
}

/// The first version of `list` that is not greater than the one before it.
fn first_out_of_order(list: &[u64]) -> Option<u64> {
    list.windows(2).find(|w| w[1] <= w[0]).map(|w| w[1])
}

#[test]
fn every_migration_is_released_in_increasing_order_in_both_folders() {
    let sqlite = files("migrations");
    let postgres = files("migrations/postgres");
    assert_eq!(sqlite, postgres, "the same migration files in both folders");
    let list = released();
    assert_eq!(
        first_out_of_order(&list),
        None,
        "a migration version must be greater than every released one: take the last \
         version in migrations/RELEASED and add one (see docs/development.md)"
    );
    let on_disk: BTreeSet<u64> = sqlite.iter().map(|f| version(f).parse().unwrap()).collect();
    let listed: BTreeSet<u64> = list.iter().copied().collect();
    assert_eq!(
        on_disk, listed,
        "every migration file is listed in migrations/RELEASED, and every listed one exists"
    );
}

#[test]
fn a_version_below_a_released_one_is_out_of_order() {
    assert_eq!(
        first_out_of_order(&[1, 20261221000000, 20261204093000]),
        Some(20261204093000)
    );
    assert_eq!(first_out_of_order(&[1, 2, 3]), None);
    assert_eq!(first_out_of_order(&[1, 2, 2]), Some(2));
}
