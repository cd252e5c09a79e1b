//! The planner's saves: a new scenario, a copy, a new revision, a restored revision and
//! a change of who sees it.

use super::*;

/// `POST /scenarios`: save a new scenario.
pub async fn save_new(
    State(st): State<AppState>,
    user: CurrentUser,
    axum::Form(pairs): Pairs,
) -> Result<Response, PageError> {
    let (form, scenario) = form::parse(&pairs, &st.book());
    let Some(scenario) = scenario else {
        let status = "Not saved: fix the marked inputs first.";
        return invalid_page(&st, &user, form, None, status).await;
    };
    let id = create(&st, &user, &scenario, form_visibility(&pairs)).await?;
    Ok(Redirect::to(&format!("/scenarios/{id}?saved=1")).into_response())
}

/// `POST /scenarios/copy`: save the form as a new scenario, under the name typed for it
/// or, when the name is the saved scenario's own, named "... (copy)".
pub async fn save_copy(
    State(st): State<AppState>,
    user: CurrentUser,
    axum::Form(pairs): Pairs,
) -> Result<Response, PageError> {
    let id = form_id(&pairs);
    let (form, scenario) = form::parse(&pairs, &st.book());
    let Some(mut scenario) = scenario else {
        return invalid_page(
            &st,
            &user,
            form,
            id,
            "Copy not saved: fix the marked inputs first.",
        )
        .await;
    };
    let source_name = match id {
        Some(id) => access::stored_scenario(&st.db, &user, id)
            .await
            .ok()
            .map(|s| s.scenario.name),
        None => None,
    };
    let renamed = source_name.is_some_and(|n| n != scenario.name);
    if !renamed && !scenario.name.ends_with("(copy)") {
        scenario.name = format!("{} (copy)", scenario.name);
        scenario.name = scenario.name.chars().take(200).collect();
    }
    scenario.id = None;
    let new_id = create(&st, &user, &scenario, form_visibility(&pairs)).await?;
    Ok(Redirect::to(&format!("/scenarios/{new_id}?saved=1")).into_response())
}

/// `POST /scenarios/{id}`: save the form as a new revision.
pub async fn save(
    State(st): State<AppState>,
    user: CurrentUser,
    Path(raw): Path<String>,
    axum::Form(pairs): Pairs,
) -> Result<Response, PageError> {
    let id = parse_id(&raw)?;
    let (form, scenario) = form::parse(&pairs, &st.book());
    let Some(mut scenario) = scenario else {
        return invalid_page(
            &st,
            &user,
            form,
            Some(id),
            "Not saved: fix the marked inputs first.",
        )
        .await;
    };
    scenario.id = None;
    let rev = match store::update_scenario_by(&st.db, id, &scenario, actor(&user)).await {
        // A full history keeps the inputs on the page, with what to do.
        Err(store::StoreError::Full(why)) => {
            let status = format!("Not saved: {why}.");
            return invalid_page(&st, &user, form, Some(id), &status).await;
        }
        saved => saved?,
    };
    Ok(Redirect::to(&format!("/scenarios/{id}?saved={rev}")).into_response())
}

/// `POST /scenarios/{id}/revisions/{n}/restore`: copy revision n into a new revision.
pub async fn restore(
    State(st): State<AppState>,
    user: CurrentUser,
    Path((raw, n)): Path<(String, String)>,
) -> Result<Response, PageError> {
    let id = parse_id(&raw)?;
    let n: i64 = n
        .parse()
        .map_err(|_| PageError::NotFound(format!("There is no revision \"{n}\".")))?;
    access::scenario(&st.db, &user, id).await?;
    store::restore_revision_by(&st.db, id, n, actor(&user))
        .await
        .map_err(no_revision(id, n))?;
    Ok(Redirect::to(&format!("/scenarios/{id}?restored={n}")).into_response())
}

/// The visibility chosen on the form (`visibility=private`), shared otherwise.
fn form_visibility(pairs: &[(String, String)]) -> Visibility {
    pairs
        .iter()
        .find(|(k, _)| k == "visibility")
        .map_or(Visibility::Shared, |(_, v)| Visibility::of_key(v))
}

/// Saves a new scenario owned by the user.
async fn create(
    st: &AppState,
    user: &CurrentUser,
    scenario: &Scenario,
    visibility: Visibility,
) -> Result<i64, PageError> {
    let created = store::activity::Action::Created;
    Ok(store::create_scenario_by(&st.db, scenario, actor(user), visibility, created).await?)
}

/// `POST /scenarios/{id}/visibility`: make the scenario private or shared (its owner
/// and admins only).
pub async fn set_visibility(
    State(st): State<AppState>,
    user: CurrentUser,
    Path(raw): Path<String>,
    axum::Form(pairs): Pairs,
) -> Result<Response, PageError> {
    let id = parse_id(&raw)?;
    let visibility = match pairs.iter().find(|(k, _)| k == "visibility") {
        Some((_, v)) if v == "shared" || v == "private" => Visibility::of_key(v),
        _ => {
            return Err(PageError::BadRequest(
                "Choose who sees the scenario: shared or private.".into(),
            ));
        }
    };
    match store::set_visibility(&st.db, id, visibility, actor(&user)).await? {
        Some(_) => Ok(Redirect::to(&format!("/scenarios/{id}?visibility=1")).into_response()),
        None => Err(PageError::Status {
            status: StatusCode::FORBIDDEN,
            message: "Only the scenario's owner or an admin may change who sees it.".into(),
        }),
    }
}
