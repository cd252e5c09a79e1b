//! Cost in words: what the prices are (in plain words for a customer, with the price
//! book for an engineer), the cost paragraph with its lines, the cost a saved revision
//! was saved with.

use crate::engine::evaluation::Sizing;
use crate::engine::price_key::PricedService;
use crate::engine::price_lists::PriceList;
use crate::engine::scenario::Service;
use crate::engine::{Evaluation, Scenario, regions};
use crate::format::{date_words, money, money_or, not_priced_in, num, unit_price};
use crate::prices::reprice::CostSnapshot;
use crate::report::Edition;

/// Whether a sizing row is for the scenario's own service and level.
pub fn is_current(s: &Scenario, z: &Sizing) -> bool {
    z.service == s.storage.service && z.level == s.storage.level
}

/// The cloud whose list prices price `service`.
fn cloud(service: Service) -> &'static str {
    match service {
        Service::Gcnv => "Google Cloud",
        _ => "Azure",
    }
}

/// A region as its cloud writes it ("West Europe"), or its id when unknown.
pub fn region_name(id: &str) -> String {
    regions::get(id).map_or_else(|| id.to_owned(), |r| r.name.clone())
}

/// What the prices are, in plain words, one clause per price list the cost uses
/// (service and region): "Azure list prices for West Europe as of 29 January 2026", or
/// for prices the user stored "EUR prices from price sheet: EA 2026 for West Europe as of
/// 1 November 2026", each with its own date; the engineer edition adds each list's
/// source and the price book's id.
pub fn price_basis(e: &Evaluation, edition: Edition) -> String {
    let c = &e.cost;
    let many = c.price_lists.len() > 1;
    let mut parts: Vec<String> = c
        .price_lists
        .iter()
        .map(|l| list_words(l, many, edition))
        .collect();
    if parts.is_empty() {
        let service = e.sizing.first().map_or(Service::Anf, |z| z.service);
        parts.push(format!(
            "{} list prices for {} as of {}",
            cloud(service),
            region_name(&c.region),
            date_words(&c.price_date)
        ));
    }
    let mut text = parts.join("; ");
    if edition == Edition::Engineer {
        text.push_str(&format!(" (price book {})", c.price_book.id));
    }
    text
}

/// One price list in words (see [`price_basis`]).
fn list_words(l: &PriceList, name_service: bool, edition: Edition) -> String {
    let cloud = match l.service {
        PricedService::Gcnv => "Google Cloud",
        _ => "Azure",
    };
    let region = region_name(&l.region);
    let mut text = if name_service {
        format!("{}: ", l.service.display())
    } else {
        String::new()
    };
    if l.rows == 0 {
        text.push_str(&format!(
            "no {} price for {region} in the price book",
            l.currency
        ));
        return text;
    }
    if l.stored {
        text.push_str(&format!(
            "{} prices from {} for {region} as of {}",
            l.currency,
            l.source,
            date_words(&l.as_of)
        ));
    } else {
        text.push_str(&format!(
            "{cloud} list prices for {region} as of {}",
            date_words(&l.as_of)
        ));
        if edition == Edition::Engineer {
            text.push_str(&format!(" ({})", l.source));
        }
    }
    if l.missing > 0 {
        text.push_str(&format!(
            ", {} of its prices missing in {} (those lines are unpriced)",
            l.missing, l.currency
        ));
    }
    text
}

/// The note under a cost: the price lists, the hours of a month, the currency, and what
/// the prices are before: "indicative list prices before discounts and taxes" only for
/// public list prices without a discount (a stored enterprise sheet or a discount is
/// not a list price).
pub fn price_note(e: &Evaluation, edition: Edition) -> String {
    let c = &e.cost;
    let own = c.price_lists.iter().any(|l| l.stored);
    let kind = if c.discount_pct > 0.0 {
        format!(
            "after the {} % discount, before taxes",
            num(c.discount_pct, 2)
        )
    } else if own {
        "your own prices, before taxes".to_owned()
    } else {
        "indicative list prices before discounts and taxes".to_owned()
    };
    format!(
        "{}; {} hours per month, {}; {kind}.",
        price_basis(e, edition),
        num(c.hours_per_month, 0),
        c.currency
    )
}

/// The cost paragraph: the total, what the prices are, every line, the one-time lines,
/// and for a saved scenario the cost it was saved with.
pub fn paragraph(
    e: &Evaluation,
    edition: Edition,
    saved: Option<(i64, &str, Option<&CostSnapshot>)>,
) -> String {
    let c = &e.cost;
    let cur = c.currency;
    let mut text = format!(
        "Monthly cost {} for {} TiB billed ({} per MiB/s); {}, {} hours per month.",
        money_or(c.monthly, cur),
        num(c.billed_tib, 3),
        money_or(c.per_mibps, cur),
        price_basis(e, edition),
        num(c.hours_per_month, 1),
    );
    for l in &c.lines {
        let price = l
            .unit_price
            .map_or_else(|| not_priced_in(cur), |u| unit_price(u, cur));
        text.push_str(&format!(
            " {}: {} {} at {} = {}.",
            l.item,
            num(l.quantity, 2),
            l.unit,
            price,
            money_or(l.monthly, cur)
        ));
    }
    if let Some(once) = c.one_time {
        text.push_str(&format!(
            " One-time lines {}, so the first month {}.",
            money(once, cur),
            money_or(c.monthly.map(|m| m + once), cur)
        ));
    }
    if let Some((revision, saved_at, snapshot)) = saved {
        text.push(' ');
        text.push_str(&saved_sentence(e, edition, revision, saved_at, snapshot));
    }
    text
}

/// The cost a saved revision was saved with, beside today's.
pub fn saved_sentence(
    e: &Evaluation,
    edition: Edition,
    revision: i64,
    saved_at: &str,
    snapshot: Option<&CostSnapshot>,
) -> String {
    let c = &e.cost;
    let Some(s) = snapshot else {
        return format!(
            "Revision {revision} was saved {} before costs were kept with each save (not stored); the cost above is priced with today's prices.",
            date_words(saved_at)
        );
    };
    let today = match (c.monthly, s.monthly) {
        (Some(t), Some(b)) if (t - b).abs() < 0.005 => "the same today".to_owned(),
        (Some(t), Some(b)) => format!(
            "today's prices give {} ({}{})",
            money(t, c.currency),
            if t > b { "+" } else { "-" },
            money((t - b).abs(), c.currency)
        ),
        (t, _) => format!("today's prices give {}", money_or(t, c.currency)),
    };
    let basis = match edition {
        Edition::Customer => format!("prices as of {}", date_words(&s.price_date)),
        Edition::Engineer => format!(
            "price book {} (prices as of {}, {})",
            s.price_book.id, s.price_book.date, s.price_book.source
        ),
    };
    format!(
        "Revision {revision} was saved {} with {basis}: {} a month in {}; {today}.",
        date_words(saved_at),
        money_or(s.monthly, &s.currency),
        region_name(&s.region)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixture;

    #[test]
    fn prices_read_in_plain_words_for_a_customer() {
        let (_, e) = fixture::example();
        let customer = price_basis(&e, Edition::Customer);
        // One clause per price list, each with its own date: the example's AV36 hosts
        // have no public price in East US.
        assert_eq!(
            customer,
            "Azure NetApp Files: Azure list prices for East US as of 29 January 2026; Azure VMware Solution: no USD price for East US in the price book"
        );
        assert!(!customer.contains(".json") && !customer.contains("commit"));
        let engineer = price_basis(&e, Edition::Engineer);
        assert!(engineer.contains(&*e.cost.price_book.id), "{engineer}");
        let text = paragraph(&e, Edition::Customer, None);
        assert_eq!(text.matches("list prices").count(), 1, "{text}");
    }
}
