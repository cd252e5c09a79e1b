//! The scenario list: one page at a time with the number of matches, searched by name,
//! service or level, of the scenarios an actor may see.

use super::super::access::{Actor, visible_sql};
use super::super::{Db, StoreError};
use super::{ScenarioSummary, binding_label, decode};

/// One line of a page of the scenario list, with the binding limit stored at save.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ListedScenario {
    pub id: i64,
    pub name: String,
    pub service: String,
    pub level: String,
    pub updated_at: String,
    pub revision: i64,
    /// The binding limit's label (or why there is none); `None` only for rows saved
    /// before the column existed, until [`list_page`] fills them in.
    pub binding: Option<String>,
    pub owner: Option<String>,
    pub visibility: String,
}

impl From<ListedScenario> for ScenarioSummary {
    fn from(l: ListedScenario) -> Self {
        ScenarioSummary {
            id: l.id,
            name: l.name,
            service: l.service,
            level: l.level,
            updated_at: l.updated_at,
            revision: l.revision,
            owner: l.owner,
            visibility: l.visibility,
        }
    }
}

/// One page of the scenario list and how many scenarios match in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioPage {
    pub items: Vec<ListedScenario>,
    pub total: i64,
}

#[derive(sqlx::FromRow)]
struct PageRow {
    #[sqlx(flatten)]
    item: ListedScenario,
    total: i64,
}

/// The scenarios `by` may see, most recently saved first; `search` keeps those whose
/// name, service or level contains it (ignoring case: ASCII letters on SQLite, all on
/// PostgreSQL).
pub async fn list_scenarios_for(
    pool: &Db,
    search: Option<&str>,
    by: Actor<'_>,
) -> Result<Vec<ScenarioSummary>, StoreError> {
    let pattern = like_pattern(search);
    let sql = format!(
        "SELECT id, name, service, level, updated_at, revision, owner, visibility FROM scenarios
         WHERE {} AND {}
         ORDER BY touched DESC",
        matches_sql(1),
        visible_sql(2, 3)
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(pattern)
        .bind(by.user)
        .bind(by.all_flag())
        .fetch_all(pool)
        .await?)
}

/// Most rows one page of the list may have.
pub const MAX_PAGE: u32 = 500;

/// One page of the list, most recently saved first, with the number of matches, in one
/// query (served by the `scenarios_list` covering index); `search` as in
/// [`list_scenarios_for`], of the scenarios `by` may see. Rows saved before the binding
/// column get it computed and stored.
pub async fn list_page(
    pool: &Db,
    search: Option<&str>,
    limit: u32,
    offset: u64,
    by: Actor<'_>,
) -> Result<ScenarioPage, StoreError> {
    // Both statements walk the covering index newest first and stop after the page; the
    // count is an uncorrelated subquery, run once.
    let search = search.map(str::trim).filter(|q| !q.is_empty());
    let sql = match search {
        None => format!(
            "SELECT id, name, service, level, updated_at, revision, binding, owner, visibility,
                    (SELECT COUNT(*) FROM scenarios WHERE {visible}) AS total
             FROM scenarios
             WHERE {visible}
             ORDER BY touched DESC
             LIMIT $1 OFFSET $2",
            visible = visible_sql(3, 4)
        ),
        Some(_) => format!(
            "SELECT id, name, service, level, updated_at, revision, binding, owner, visibility,
                    (SELECT COUNT(*) FROM scenarios WHERE {matches} AND {visible}) AS total
             FROM scenarios
             WHERE {matches} AND {visible}
             ORDER BY touched DESC
             LIMIT $1 OFFSET $2",
            matches = matches_sql(3),
            visible = visible_sql(4, 5)
        ),
    };
    let mut query = sqlx::query_as::<_, PageRow>(sqlx::AssertSqlSafe(sql))
        .bind(i64::from(limit.min(MAX_PAGE)))
        .bind(i64::try_from(offset).unwrap_or(i64::MAX));
    if search.is_some() {
        query = query.bind(like_pattern(search));
    }
    let rows = query
        .bind(by.user)
        .bind(by.all_flag())
        .fetch_all(pool)
        .await?;
    let total = match rows.first() {
        Some(r) => r.total,
        // Past the end: the page is empty, the count still says how many there are.
        None if offset > 0 => {
            let sql = format!(
                "SELECT COUNT(*) FROM scenarios WHERE {} AND {}",
                matches_sql(1),
                visible_sql(2, 3)
            );
            let (n,): (i64,) = sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(like_pattern(search))
                .bind(by.user)
                .bind(by.all_flag())
                .fetch_one(pool)
                .await?;
            n
        }
        None => 0,
    };
    let mut items: Vec<ListedScenario> = rows.into_iter().map(|r| r.item).collect();
    let mut book = None;
    for item in items.iter_mut().filter(|i| i.binding.is_none()) {
        if book.is_none() {
            book = Some(crate::store::prices::book_in_force(pool).await?);
        }
        let book = book.as_ref().expect("loaded above");
        item.binding = Some(backfill_binding(pool, item.id, item.revision, book).await?);
    }
    Ok(ScenarioPage { items, total })
}

/// Computes and stores the binding label of a row saved before the column existed.
async fn backfill_binding(
    pool: &Db,
    id: i64,
    revision: i64,
    book: &crate::engine::pricing::PriceBook,
) -> Result<String, StoreError> {
    let (body,): (String,) = sqlx::query_as("SELECT body FROM scenarios WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await?;
    let label = binding_label(&decode(id, &body)?, book);
    sqlx::query(
        "UPDATE scenarios SET binding = $3 WHERE id = $1 AND revision = $2 AND binding IS NULL",
    )
    .bind(id)
    .bind(revision)
    .bind(&label)
    .execute(pool)
    .await?;
    Ok(label)
}

fn like_pattern(search: Option<&str>) -> String {
    match search.map(str::trim) {
        Some(q) if !q.is_empty() => format!("%{}%", escape_like(q)),
        _ => "%".to_owned(),
    }
}

/// The search condition on bind `$n` (a [`like_pattern`]): name, service or level
/// contains it, ignoring case (ASCII letters on SQLite, all on PostgreSQL).
fn matches_sql(n: usize) -> String {
    format!(
        "(LOWER(name) LIKE LOWER(${n}) ESCAPE '\\' OR LOWER(service) LIKE LOWER(${n}) ESCAPE '\\' \
         OR LOWER(level) LIKE LOWER(${n}) ESCAPE '\\')"
    )
}

/// Makes `%`, `_` and `\` match themselves in a LIKE pattern.
fn escape_like(q: &str) -> String {
    let mut out = String::with_capacity(q.len());
    for c in q.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape_like;

    #[test]
    fn like_wildcards_match_literally() {
        assert_eq!(escape_like("50%_a\\b"), "50\\%\\_a\\\\b");
        assert_eq!(escape_like("plain"), "plain");
    }
}
