//! The admins' token API: list, create (the secret once), revoke.

use crate::accounts::{add_token, add_user, get_with_token, post_with_token};
use crate::helpers::spawn_app;
use reqwest::StatusCode;
use reqwest::header::AUTHORIZATION;
use serde_json::{Value, json};

#[tokio::test]
async fn admins_create_list_and_revoke_tokens_over_the_api() {
    let app = spawn_app().await;
    add_user(&app, "root", "root-password", "admin").await;
    add_user(&app, "ed", "ed-password", "editor").await;
    let admin = add_token(&app, "admin-cli", "root").await;
    let editor = add_token(&app, "ed-cli", "ed").await;

    let res = get_with_token(&app, &editor, "/api/v1/tokens").await;
    assert_eq!(
        res.status(),
        StatusCode::FORBIDDEN,
        "an editor may not even list them"
    );
    let res = post_with_token(
        &app,
        &editor,
        "/api/v1/tokens",
        &json!({"name": "x", "user": "ed"}),
    )
    .await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);

    let res = post_with_token(
        &app,
        &admin,
        "/api/v1/tokens",
        &json!({"name": "reports", "user": "ed"}),
    )
    .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let made: Value = res.json().await.unwrap();
    let token = made["token"].as_str().unwrap().to_owned();
    assert_eq!(made["user"], "ed");
    let res = get_with_token(&app, &token, "/api/v1/scenarios").await;
    assert_eq!(res.status(), StatusCode::OK, "the new token acts as ed");

    let res = post_with_token(
        &app,
        &admin,
        "/api/v1/tokens",
        &json!({"name": "reports", "user": "ed"}),
    )
    .await;
    assert_eq!(res.status(), StatusCode::CONFLICT);
    let res = post_with_token(
        &app,
        &admin,
        "/api/v1/tokens",
        &json!({"name": "z", "user": "nobody"}),
    )
    .await;
    assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(res.json::<Value>().await.unwrap()["field"], "user");
    let res = post_with_token(
        &app,
        &admin,
        "/api/v1/tokens",
        &json!({"name": "a b", "user": "ed"}),
    )
    .await;
    assert_eq!(res.json::<Value>().await.unwrap()["field"], "name");

    let list: Value = get_with_token(&app, &admin, "/api/v1/tokens")
        .await
        .json()
        .await
        .unwrap();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["admin-cli", "ed-cli", "reports"]);
    assert!(
        !list.to_string().contains(&token),
        "secrets are never listed"
    );

    let res = app
        .client
        .delete(app.url("/api/v1/tokens/reports"))
        .header(AUTHORIZATION, format!("Bearer {admin}"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    let res = get_with_token(&app, &token, "/api/v1/scenarios").await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    let res = app
        .client
        .delete(app.url("/api/v1/tokens/reports"))
        .header(AUTHORIZATION, format!("Bearer {admin}"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}
