//! The store against a real database (a SQLite file, or PostgreSQL with
//! `VOLPLAN_TEST_POSTGRES`): file creation, WAL, history, errors.

use crate::helpers::{fresh_database, named, sample_scenario};
use volplan::engine::Scenario;
use volplan::store::activity::Action;
use volplan::store::{self, Actor, StoreError, Visibility};

/// Single-user mode: the actor who sees and may change everything.
const ME: Actor<'static> = Actor::SINGLE_USER;

async fn create(pool: &store::Db, s: &Scenario) -> Result<i64, StoreError> {
    store::create_scenario_by(pool, s, ME, Visibility::Shared, Action::Created).await
}

fn scenario(name: &str) -> Scenario {
    serde_json::from_value(named(name)).expect("sample parses")
}

async fn fresh() -> (tempfile::TempDir, volplan::store::Db) {
    fresh_database().await
}

#[tokio::test]
async fn connect_creates_folder_file_and_uses_wal() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a/b/volplan.db");
    let pool = store::connect(&format!("sqlite://{}", file.display()))
        .await
        .unwrap();
    assert!(file.exists());
    let (mode,): (String,) = sqlx::query_as("PRAGMA journal_mode")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(mode, "wal");
    let (fk,): (i64,) = sqlx::query_as("PRAGMA foreign_keys")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(fk, 1);
    pool.close().await;
    // A second start on the same file finds the migrations applied.
    let again = store::connect(file.to_str().unwrap()).await.unwrap();
    assert!(
        store::list_scenarios_for(&again, None, ME)
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn in_memory_database_works() {
    let pool = store::connect("sqlite::memory:").await.unwrap();
    let id = create(&pool, &scenario("mem")).await.unwrap();
    assert_eq!(
        store::get_scenario(&pool, id).await.unwrap().scenario.name,
        "mem"
    );
}

#[tokio::test]
async fn save_get_update_and_history() {
    let (_dir, pool) = fresh().await;
    let mut s = scenario("one");
    s.id = Some(999); // ignored on create
    let id = create(&pool, &s).await.unwrap();
    assert_ne!(id, 999);
    let got = store::get_scenario(&pool, id).await.unwrap();
    assert_eq!(got.id, id);
    assert_eq!(got.revision, 1);
    assert_eq!(got.scenario.id, Some(id));
    assert_eq!(got.scenario.name, "one");
    assert_eq!(got.created_at, got.updated_at);

    assert_eq!(
        store::update_scenario_by(&pool, id, &scenario("two"), ME)
            .await
            .unwrap(),
        2
    );
    let revs = store::list_revisions(&pool, id).await.unwrap();
    assert_eq!(
        revs.iter().map(|r| r.number).collect::<Vec<_>>(),
        vec![2, 1]
    );
    assert_eq!(store::get_revision(&pool, id, 1).await.unwrap().name, "one");
    assert_eq!(
        store::restore_revision_by(&pool, id, 1, ME).await.unwrap(),
        3
    );
    let got = store::get_scenario(&pool, id).await.unwrap();
    assert_eq!((got.revision, got.scenario.name.as_str()), (3, "one"));

    let list = store::list_scenarios_for(&pool, Some("ONE"), ME)
        .await
        .unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(
        (
            list[0].service.as_str(),
            list[0].level.as_str(),
            list[0].revision
        ),
        ("anf", "ultra", 3)
    );
    assert_eq!(
        store::list_scenarios_for(&pool, Some("ultra"), ME)
            .await
            .unwrap()
            .len(),
        1,
        "search covers the level"
    );
    assert_eq!(
        store::list_scenarios_for(&pool, Some("  "), ME)
            .await
            .unwrap()
            .len(),
        1,
        "blank search lists all"
    );
}

#[tokio::test]
async fn missing_rows_are_not_found() {
    let (_dir, pool) = fresh().await;
    let s = scenario("x");
    assert!(matches!(
        store::get_scenario(&pool, 1).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store::update_scenario_by(&pool, 1, &s, ME).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store::delete_scenario_by(&pool, 1, ME).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store::list_revisions(&pool, 1).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store::get_revision(&pool, 1, 1).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store::restore_revision_by(&pool, 1, 1, ME).await,
        Err(StoreError::NotFound)
    ));

    let id = create(&pool, &s).await.unwrap();
    assert!(matches!(
        store::get_revision(&pool, id, 2).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store::restore_revision_by(&pool, id, 0, ME).await,
        Err(StoreError::NotFound)
    ));
    assert_eq!(
        store::get_scenario(&pool, id).await.unwrap().revision,
        1,
        "failed restore changed nothing"
    );
}

#[tokio::test]
async fn delete_removes_the_history() {
    let (_dir, pool) = fresh().await;
    let id = create(&pool, &scenario("gone")).await.unwrap();
    store::update_scenario_by(&pool, id, &scenario("gone 2"), ME)
        .await
        .unwrap();
    store::delete_scenario_by(&pool, id, ME).await.unwrap();
    let (left,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM scenario_revisions")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(left, 0);
}

#[tokio::test]
async fn unreadable_json_is_corrupt_not_a_panic() {
    let (_dir, pool) = fresh().await;
    let id = create(&pool, &scenario("ok")).await.unwrap();
    sqlx::query("UPDATE scenarios SET body = '{not json' WHERE id = $1")
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
    assert!(matches!(
        store::get_scenario(&pool, id).await,
        Err(StoreError::Corrupt(_))
    ));
}

#[tokio::test]
async fn stored_json_round_trips_exactly() {
    let (_dir, pool) = fresh().await;
    let s: Scenario = serde_json::from_value(sample_scenario()).unwrap();
    let id = create(&pool, &s).await.unwrap();
    let mut back = store::get_scenario(&pool, id).await.unwrap().scenario;
    back.id = None;
    assert_eq!(back, s);
}
