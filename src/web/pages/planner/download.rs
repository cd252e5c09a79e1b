//! The planner's Scenario JSON downloads: of the form as typed and of a saved scenario.

use super::*;

/// A file name from a scenario name: `SAP HANA on ANF` -> `sap-hana-on-anf.json`.
pub(super) fn file_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-');
    let out: String = out.chars().take(80).collect();
    if out.is_empty() {
        "scenario.json".into()
    } else {
        format!("{out}.json")
    }
}

fn json_download(scenario: &Scenario) -> Result<Response, PageError> {
    let mut s = scenario.clone();
    s.id = None;
    let body = serde_json::to_string_pretty(&s)
        .map_err(|e| PageError::Internal(format!("scenario JSON: {e}")))?;
    let disposition = format!("attachment; filename=\"{}\"", file_name(&s.name));
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        body + "\n",
    )
        .into_response())
}

/// `POST /scenarios/scenario.json`: the form as a Scenario JSON file.
pub async fn download_form(
    State(st): State<AppState>,
    user: CurrentUser,
    axum::Form(pairs): Pairs,
) -> Result<Response, PageError> {
    let id = form_id(&pairs);
    let (form, scenario) = form::parse(&pairs, &st.book());
    match scenario {
        Some(s) => json_download(&s),
        None => {
            invalid_page(
                &st,
                &user,
                form,
                id,
                "Not downloaded: fix the marked inputs first.",
            )
            .await
        }
    }
}

/// `GET /scenarios/{id}/scenario.json`: the newest revision as a Scenario JSON file.
pub async fn download_saved(
    State(st): State<AppState>,
    user: CurrentUser,
    Path(raw): Path<String>,
) -> Result<Response, PageError> {
    let id = parse_id(&raw)?;
    let stored = access::stored_scenario(&st.db, &user, id).await?;
    json_download(&stored.scenario)
}
