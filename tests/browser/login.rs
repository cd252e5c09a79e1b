//! Team mode in the browser: a page asks for the login, the login form leads back to
//! it, and Log out ends the session.

use super::{Res, js};
use fantoccini::{Client, Locator};

/// Opens the planner with `alice` (password `alice-password`) in the database: the
/// login page comes first, then the planner itself, then Log out returns to the login.
pub async fn login_journey(c: &Client, base: &str) -> Res {
    c.goto(&format!("{base}/scenarios/new")).await?;
    c.wait()
        .for_element(Locator::Css("form.login-form"))
        .await?;
    let url = c.current_url().await?;
    assert_eq!(url.path(), "/login", "{url}");
    assert_eq!(url.query(), Some("next=%2Fscenarios%2Fnew"));

    c.find(Locator::Css("#login-user"))
        .await?
        .send_keys("alice")
        .await?;
    c.find(Locator::Css("#login-password"))
        .await?
        .send_keys("wrong-password")
        .await?;
    c.find(Locator::Css("form.login-form button[type=submit]"))
        .await?
        .click()
        .await?;
    c.wait().for_element(Locator::Css("p.problem")).await?;
    assert_eq!(c.current_url().await?.path(), "/login");

    c.find(Locator::Css("#login-password"))
        .await?
        .send_keys("alice-password")
        .await?;
    c.find(Locator::Css("form.login-form button[type=submit]"))
        .await?
        .click()
        .await?;
    c.wait().for_element(Locator::Css("#planner")).await?;
    assert_eq!(c.current_url().await?.path(), "/scenarios/new");
    c.wait().for_element(Locator::Css("#kpi-mibps")).await?;
    let header = js(c, "document.querySelector('.signed-in').textContent").await?;
    assert!(header.as_str().unwrap_or("").contains("alice"), "{header}");

    c.find(Locator::Css(".signed-in button"))
        .await?
        .click()
        .await?;
    c.wait()
        .for_element(Locator::Css("form.login-form"))
        .await?;
    c.goto(&format!("{base}/")).await?;
    c.wait()
        .for_element(Locator::Css("form.login-form"))
        .await?;
    assert_eq!(c.current_url().await?.path(), "/login", "logged out");
    Ok(())
}
