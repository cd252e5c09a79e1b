//! Two app instances on one database (PostgreSQL in a team deployment; also two
//! processes on one SQLite file): concurrent writers through both lose nothing and
//! revision numbers stay unique and gapless.

use crate::helpers::{TestApp, named, spawn_app};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

const WRITERS_PER_INSTANCE: usize = 8;
const SAVES: usize = 12;

/// One acknowledged write: the revision the server answered and the name it saved.
struct Ack {
    revision: i64,
    name: String,
}

/// `WRITERS_PER_INSTANCE` writers on `app`, each saving `SAVES` revisions of the shared
/// scenario `shared` and creating one scenario of its own.
fn writers(
    app: &Arc<TestApp>,
    instance: usize,
    shared: i64,
    tasks: &mut tokio::task::JoinSet<(Vec<Ack>, i64, String)>,
) {
    for w in 0..WRITERS_PER_INSTANCE {
        let app = app.clone();
        tasks.spawn(async move {
            let mut acks = Vec::new();
            for n in 0..SAVES {
                let name = format!("instance {instance} writer {w} save {n}");
                let res = app
                    .put_json(&format!("/api/v1/scenarios/{shared}"), &named(&name))
                    .await;
                assert_eq!(res.status(), 200, "{name}");
                let saved: Value = res.json().await.unwrap();
                acks.push(Ack {
                    revision: saved["revision"].as_i64().unwrap(),
                    name,
                });
            }
            let own = format!("own of instance {instance} writer {w}");
            let id = app.create(&named(&own)).await;
            (acks, id, own)
        });
    }
}

#[tokio::test]
async fn two_instances_with_eight_writers_each_lose_nothing() {
    let first = Arc::new(spawn_app().await);
    let second = Arc::new(first.second_instance().await);
    let shared = first.create(&named("shared")).await;

    let mut tasks = tokio::task::JoinSet::new();
    writers(&first, 0, shared, &mut tasks);
    writers(&second, 1, shared, &mut tasks);
    let mut acked: BTreeMap<i64, String> = BTreeMap::new();
    let mut own = Vec::new();
    while let Some(done) = tasks.join_next().await {
        let (acks, id, name) = done.expect("writer finished");
        for a in acks {
            let earlier = acked.insert(a.revision, a.name);
            assert!(
                earlier.is_none(),
                "revision {} acknowledged twice",
                a.revision
            );
        }
        own.push((id, name));
    }

    // Gapless: revision 1 is the create, then exactly one number per acknowledged save.
    let total = (2 * WRITERS_PER_INSTANCE * SAVES) as i64;
    assert_eq!(
        acked.keys().copied().collect::<Vec<_>>(),
        (2..=total + 1).collect::<Vec<_>>()
    );
    // Every acknowledged save is stored under its number, seen alike by both instances.
    for app in [&first, &second] {
        let revs = app
            .get_json(&format!("/api/v1/scenarios/{shared}/revisions"))
            .await;
        let stored: BTreeMap<i64, String> = revs
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["number"].as_i64().unwrap(),
                    r["name"].as_str().unwrap().to_owned(),
                )
            })
            .filter(|(n, _)| *n > 1)
            .collect();
        assert_eq!(stored, acked, "{}", app.base);
        let newest = app.get_json(&format!("/api/v1/scenarios/{shared}")).await;
        assert_eq!(newest["name"], acked[&(total + 1)].as_str());
    }
    // The scenarios each writer created exist once, with distinct ids.
    let list = second.get_json("/api/v1/scenarios").await;
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    let mut ids: Vec<i64> = own.iter().map(|(id, _)| *id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 2 * WRITERS_PER_INSTANCE);
    for (id, name) in &own {
        assert_eq!(names.iter().filter(|n| *n == name).count(), 1, "{name}");
        let got = first.get_json(&format!("/api/v1/scenarios/{id}")).await;
        assert_eq!(got["name"], name.as_str());
    }
}
