//! The planner's Re-price button: a saved revision's stored cost beside today's, line
//! by line, as a panel of the planner (the page's script asks for the fragment) or as a
//! page of its own without JavaScript. Nothing is saved.

use super::view::usd;
use super::{PageError, parse_id, render};
use crate::prices::reprice::{LineChange, RepriceLine};
use crate::web::api::reprice::{RepriceAnswer, RepriceError, reprice_revision};
use crate::web::auth::CurrentUser;
use crate::web::state::AppState;
use askama::Template;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// One line of the comparison.
pub struct LineView {
    pub item: String,
    pub stored: String,
    pub today: String,
    /// The unit price and quantity today (or stored, for a removed line).
    pub detail: String,
    pub difference: String,
    pub change: &'static str,
    pub class: &'static str,
}

/// The comparison as the panel and the page show it.
pub struct RepriceView {
    pub id: i64,
    pub revision: i64,
    pub name: String,
    pub saved_at: String,
    /// False for a revision saved before costs were kept.
    pub has_stored: bool,
    pub stored_book: String,
    pub today_book: String,
    pub region: String,
    pub currency: String,
    pub stored_total: String,
    pub today_total: String,
    pub difference: String,
    pub lines: Vec<LineView>,
}

/// "+$12.34", "-$5.00", "±$0.00" (the formatter's); empty without a figure.
fn signed(v: Option<f64>) -> String {
    v.filter(|v| v.is_finite())
        .map_or_else(String::new, |d| crate::format::signed_money(d, "USD"))
}

fn line(l: &RepriceLine) -> LineView {
    let amount = |s: &Option<crate::prices::reprice::SnapshotLine>| match s {
        Some(s) => usd(s.monthly),
        None => "not stored".to_owned(),
    };
    let shown = l.today.as_ref().or(l.stored.as_ref());
    let detail = shown.map_or_else(String::new, |s| {
        let price = s.unit_price.map_or_else(
            || "no public price".to_owned(),
            |u| crate::format::unit_price(u, "USD"),
        );
        format!("{} {} at {price}", super::view::sig3(s.quantity), s.unit)
    });
    let (change, class) = match l.change {
        LineChange::Unchanged => ("unchanged", "same"),
        LineChange::Changed => ("changed", "changed"),
        LineChange::Added => ("new since", "changed"),
        LineChange::Removed => ("no longer applies", "changed"),
        LineChange::NotStored => ("not stored", "same"),
    };
    LineView {
        item: l.item.clone(),
        stored: match l.change {
            LineChange::Added => "none".to_owned(),
            _ => amount(&l.stored),
        },
        today: match l.change {
            LineChange::Removed => "none".to_owned(),
            _ => amount(&l.today),
        },
        detail,
        difference: signed(l.difference),
        change,
        class,
    }
}

impl From<&RepriceAnswer> for RepriceView {
    fn from(a: &RepriceAnswer) -> Self {
        let r = &a.repricing;
        let book =
            |b: &crate::engine::evaluation::PriceBookRef| format!("{} (as of {})", b.id, b.date);
        RepriceView {
            id: a.id,
            revision: a.revision,
            name: a.name.clone(),
            saved_at: super::view::short_time(&a.saved_at),
            has_stored: r.stored.is_some(),
            stored_book: r
                .stored
                .as_ref()
                .map_or_else(|| "not stored".to_owned(), |s| book(&s.price_book)),
            today_book: book(&r.today.price_book),
            region: r.today.region.clone(),
            currency: r.today.currency.clone(),
            stored_total: r
                .stored
                .as_ref()
                .map_or_else(|| "not stored".to_owned(), |s| usd(s.monthly)),
            today_total: usd(r.today.monthly),
            difference: match (r.difference, r.difference_pct) {
                (Some(d), Some(p)) => format!("{} ({:+.1}%)", signed(Some(d)), p),
                (d, _) => signed(d),
            },
            lines: r.lines.iter().map(line).collect(),
        }
    }
}

#[derive(Template)]
#[template(path = "pages/reprice.html")]
struct RepricePage {
    x: RepriceView,
}

#[derive(Template)]
#[template(path = "components/reprice.html")]
struct RepriceFragment {
    x: RepriceView,
}

impl From<RepriceError> for PageError {
    fn from(e: RepriceError) -> Self {
        match e {
            RepriceError::NotFound(m) => PageError::NotFound(format!("There is {m}.")),
            RepriceError::Invalid { .. } => PageError::Status {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                message: format!("{e}; open the revision in the planner and fix it."),
            },
            RepriceError::Store(s) => s.into(),
        }
    }
}

/// `POST /scenarios/{id}/reprice`: the newest revision re-priced. A request that
/// accepts JSON (the planner's script) gets `{"html": fragment}`, others the page.
pub async fn reprice(
    State(st): State<AppState>,
    user: CurrentUser,
    Path(raw): Path<String>,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    let id = parse_id(&raw)?;
    let answer = reprice_revision(&st, &user, id, None).await?;
    let x = RepriceView::from(&answer);
    let wants_json = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("application/json"));
    if wants_json {
        let html = RepriceFragment { x }.render()?;
        return Ok(Json(serde_json::json!({ "html": html })).into_response());
    }
    render(StatusCode::OK, &RepricePage { x })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_carry_their_sign() {
        assert_eq!(signed(Some(12.345)), "+$12.35");
        assert_eq!(signed(Some(-5.0)), "-$5.00");
        assert_eq!(signed(Some(0.001)), "±$0.00");
        assert_eq!(signed(None), "");
    }
}
