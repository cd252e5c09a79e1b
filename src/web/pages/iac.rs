//! The "Check code" page: upload or paste Terraform HCL, `terraform show -json` or an
//! ARM deployment, with an optional monthly budget; the page answers what `POST
//! /api/v1/iac/evaluate` answers (the statements, each pool's reach, likely range,
//! cost and targets, each pool's verdict). Nothing is saved; the code sent comes back
//! in the text box, so an error loses nothing.
//!
//! Reading and judging are [`crate::iac::evaluate`]'s; the sentences are the verdict's.

use super::form::parts::parts;
use super::form::prose_quotes;
use super::{PageError, render};
use crate::format;
use crate::iac::evaluate::{self, Answer, Refused};
use crate::web::state::AppState;
use crate::web::uploads::Uploader;
use askama::Template;
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::response::Response;

/// One pool of the code, its figures formatted.
pub struct Pool {
    pub name: String,
    pub reaches: String,
    pub likely: String,
    pub monthly: String,
    pub targets: String,
    pub met: bool,
    pub statements: Vec<String>,
}

impl Pool {
    fn of(answer: &Answer) -> Vec<Pool> {
        answer
            .scenarios
            .iter()
            .zip(&answer.evaluations)
            .map(|(s, j)| {
                let e = &j.evaluation;
                let v = &j.verdict;
                let missed = v.targets.iter().filter(|t| !t.met).count();
                Pool {
                    name: s.name.clone(),
                    reaches: format::mibps(e.throughput_mibps),
                    likely: format!("{} MiB/s", format::range(e.throughput_mibps_range)),
                    monthly: format::monthly(e.cost.monthly, e.cost.currency),
                    targets: match (v.targets.len(), missed) {
                        (0, _) => "none set".to_owned(),
                        (n, 0) => format!("{n} of {n} met"),
                        (n, m) => format!("{} of {n} met", n - m),
                    },
                    met: missed == 0,
                    statements: v.statements.clone(),
                }
            })
            .collect()
    }
}

#[derive(Template, Default)]
#[template(path = "pages/iac.html")]
pub struct IacPage {
    /// The code as sent (the file's text or the pasted text).
    pub text: String,
    /// The budget as typed.
    pub max_monthly: String,
    pub code_error: Option<String>,
    pub max_error: Option<String>,
    /// The answer's statements (every pool, unassigned throughput, the total).
    pub statements: Vec<String>,
    pub pools: Vec<Pool>,
    pub met: bool,
    pub over_budget: bool,
}

/// `GET /iac`: the empty form.
pub async fn page() -> Result<Response, PageError> {
    render(StatusCode::OK, &IacPage::default())
}

/// What the form sent: the file (may be empty), the pasted text, the budget.
struct Sent {
    file: Vec<u8>,
    text: String,
    max_monthly: String,
}

async fn read(mp: Multipart) -> Result<Sent, String> {
    let mut sent = Sent {
        file: Vec::new(),
        text: String::new(),
        max_monthly: String::new(),
    };
    let parts = parts(mp)
        .await
        .map_err(|e| format!("The upload could not be read ({e}). Try again."))?;
    for p in parts {
        match p.name.as_str() {
            "code" => sent.file = p.bytes.to_vec(),
            "text" => sent.text = p.text(),
            "max_monthly" => sent.max_monthly = p.text().trim().to_owned(),
            _ => {}
        }
    }
    Ok(sent)
}

/// The budget typed: empty is none; anything but a cost above 0 is the field's error.
fn budget(raw: &str) -> Result<Option<f64>, String> {
    if raw.is_empty() {
        return Ok(None);
    }
    raw.replace(',', "")
        .trim_start_matches('$')
        .parse::<f64>()
        .ok()
        .filter(|m| m.is_finite() && *m > 0.0)
        .map(Some)
        .ok_or_else(|| {
            format!(
                "Enter a monthly cost above 0 (such as 15000), or leave it empty; “{}” is not one.",
                raw.chars().take(40).collect::<String>()
            )
        })
}

/// `POST /iac`: reads the code (the file, else the text), evaluates it and shows the
/// answer, or the form with the error beside its field and the code kept.
pub async fn check(
    State(st): State<AppState>,
    who: Uploader,
    mp: Multipart,
) -> Result<Response, PageError> {
    let sent = match read(mp).await {
        Ok(s) => s,
        Err(e) => {
            let page = IacPage {
                code_error: Some(e),
                ..IacPage::default()
            };
            return render(StatusCode::BAD_REQUEST, &page);
        }
    };
    let mut page = IacPage {
        max_monthly: sent.max_monthly,
        text: sent.text,
        ..IacPage::default()
    };
    if !sent.file.iter().all(u8::is_ascii_whitespace) {
        match String::from_utf8(sent.file) {
            Ok(t) => page.text = t,
            Err(_) => page.code_error = Some(
                "The file is not UTF-8 text: choose the code as Terraform or the JSON wrote it."
                    .to_owned(),
            ),
        }
    } else if page.text.trim().is_empty() {
        page.code_error = Some("Choose a file or paste the code.".to_owned());
    }
    let max = budget(&page.max_monthly).map_err(|e| page.max_error = Some(e));
    let (Ok(max), None) = (max, &page.code_error) else {
        return render(StatusCode::UNPROCESSABLE_ENTITY, &page);
    };
    let book = st.book();
    let text = page.text.clone();
    let answered = who
        .parse(&st, "code", move || evaluate::check(&text, &book, max))
        .await?;
    match answered {
        Ok(a) => {
            page.pools = Pool::of(&a);
            page.statements = a.statements;
            page.met = a.met;
            page.over_budget = a.over_budget;
            render(StatusCode::OK, &page)
        }
        Err(refused) => {
            let message = match refused {
                Refused::Unreadable(m) => m,
                Refused::Invalid(es) => es
                    .iter()
                    .map(|e| e.message.as_str())
                    .collect::<Vec<_>>()
                    .join("; "),
            };
            page.code_error = Some(format!("Not read: {}", prose_quotes(&message)));
            render(StatusCode::UNPROCESSABLE_ENTITY, &page)
        }
    }
}
