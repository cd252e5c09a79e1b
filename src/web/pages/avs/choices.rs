//! The AVS options form: the choices in the address as typed, read into a plan request
//! with a message beside every choice that does not read, and the region and host
//! lists it offers (regions grouped by whether they price AVS hosts, each host marked
//! where the chosen region has no price for it).

use crate::avs::licence::Licensing;
use crate::avs::{self, PlanRequest, PurchaseTerm};
use crate::engine::FieldErrors;
use crate::engine::pricing::PriceBook;
use crate::engine::scenario::{Level, Service};
use crate::inventory::{CapacityBasis, Inventory};
use crate::web::pages::form::FormState;
use serde::Deserialize;

/// The plan choices, as the options form sends them (every field optional).
#[derive(Debug, Default, Clone, Deserialize)]
pub struct PlanQuery {
    pub host_sku: Option<String>,
    pub region: Option<String>,
    pub level: Option<String>,
    pub datastores: Option<String>,
    pub growth_pct: Option<String>,
    /// Share of each datastore kept free, %.
    pub free_space_pct: Option<String>,
    pub unit: Option<String>,
    pub basis: Option<String>,
    pub nconnect: Option<String>,
    /// The purchase term the TCO verdict follows: `payg`, `1y` or `3y` (default).
    pub term: Option<String>,
    /// VCF licensing: `portable` (default) or `included`; the VCF price per core per
    /// year; the licence-included reservation's end date.
    pub vcf: Option<String>,
    pub vcf_price: Option<String>,
    pub vcf_until: Option<String>,
    /// A stretched cluster (`yes`), and the per-VM figures where the inventory has none.
    pub stretched: Option<String>,
    pub read_pct: Option<String>,
    /// A buffer on every VM's IOPS and MiB/s.
    pub comfort_factor: Option<String>,
    pub io_size_kib: Option<String>,
    pub outstanding_per_vm: Option<String>,
    pub default_iops_per_vm: Option<String>,
    pub default_mibps_per_vm: Option<String>,
    /// ISO 4217 code the plan is priced in (`currency`; USD by default).
    pub currency: Option<String>,
    /// The private cloud to expand: its hosts (empty = a new private cloud), their SKU
    /// (empty = the plan's) and their VCF licensing.
    pub existing_hosts: Option<String>,
    pub existing_sku: Option<String>,
    pub existing_vcf: Option<String>,
    pub q: Option<String>,
    /// `customer` (default) or `engineer`: who a download is for.
    pub edition: Option<String>,
}

impl PlanQuery {
    /// The choices of the options form, by input name (the plan request's field names).
    fn choices(&self) -> [(&'static str, &Option<String>); 24] {
        [
            ("region", &self.region),
            ("host_sku", &self.host_sku),
            ("level", &self.level),
            ("datastores", &self.datastores),
            ("growth_pct", &self.growth_pct),
            ("free_space_pct", &self.free_space_pct),
            ("unit", &self.unit),
            ("basis", &self.basis),
            ("term", &self.term),
            ("nconnect", &self.nconnect),
            ("vcf", &self.vcf),
            ("vcf_price", &self.vcf_price),
            ("vcf_until", &self.vcf_until),
            ("stretched", &self.stretched),
            ("read_pct", &self.read_pct),
            ("comfort_factor", &self.comfort_factor),
            ("io_size_kib", &self.io_size_kib),
            ("outstanding_per_vm", &self.outstanding_per_vm),
            ("default_iops_per_vm", &self.default_iops_per_vm),
            ("default_mibps_per_vm", &self.default_mibps_per_vm),
            ("currency", &self.currency),
            ("existing_hosts", &self.existing_hosts),
            ("existing_sku", &self.existing_sku),
            ("existing_vcf", &self.existing_vcf),
        ]
    }

    /// True when the options form was sent (any choice given): a missing region is
    /// then an error beside it, not the first visit's question.
    pub fn submitted(&self) -> bool {
        self.choices()
            .iter()
            .any(|(_, v)| v.as_deref().is_some_and(|v| !v.trim().is_empty()))
    }

    /// The choices as a query string, for the downloads and the save form.
    pub fn query_string(&self) -> String {
        let mut s = form_urlencoded::Serializer::new(String::new());
        for (k, v) in self.choices() {
            if let Some(v) = v.as_deref().filter(|v| !v.trim().is_empty()) {
                s.append_pair(k, v);
            }
        }
        s.finish()
    }

    /// The form as typed (and the search).
    pub fn form(&self) -> FormState {
        FormState::of_values(
            self.choices()
                .into_iter()
                .chain([("q", &self.q)])
                .filter_map(|(k, v)| v.clone().map(|v| (k.to_owned(), v))),
        )
    }
}

/// The inputs of the options form by name (the plan request's field names), with
/// their labels.
const LABELS: [(&str, &str); 24] = [
    ("region", "Region"),
    ("host_sku", "Host"),
    ("level", "Datastore level"),
    ("datastores", "Datastores"),
    ("growth_pct", "Growth"),
    ("free_space_pct", "Free space"),
    ("unit", "Place"),
    ("basis", "Size on"),
    ("term", "Hosts bought"),
    ("nconnect", "nconnect"),
    ("vcf", "VMware licences"),
    ("vcf_price", "VCF per core per year"),
    ("vcf_until", "Included until"),
    ("stretched", "Stretched cluster"),
    ("read_pct", "Read share"),
    ("comfort_factor", "Comfort factor"),
    ("io_size_kib", "IO size"),
    ("outstanding_per_vm", "IOs in flight per VM"),
    ("default_iops_per_vm", "IOPS per VM without figures"),
    ("default_mibps_per_vm", "MiB/s per VM without figures"),
    ("currency", "Currency"),
    ("existing_hosts", "Existing hosts"),
    ("existing_sku", "Existing hosts' SKU"),
    ("existing_vcf", "Existing hosts' licences"),
];

/// The label of input `name`; `None` when the form has no such input (a plan error
/// naming it shows above the form).
pub fn label(name: &str) -> Option<&'static str> {
    LABELS.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
}

/// A choice from a select: `None` for the empty option, else one of `options` by key; a
/// value that is none of them gets its message.
fn pick<T: Copy>(form: &mut FormState, name: &str, options: &[(&str, T)]) -> Option<T> {
    let typed = form.value(name).trim();
    if typed.is_empty() {
        return None;
    }
    let found = options
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(typed))
        .map(|(_, v)| *v);
    if found.is_none() {
        let message = format!("\"{typed}\" is not one of the options");
        form.add_error(name, message);
    }
    found
}

/// The datastore levels offered, by key.
const LEVELS: [(&str, Level); 4] = [
    ("standard", Level::Standard),
    ("premium", Level::Premium),
    ("ultra", Level::Ultra),
    ("flexible", Level::Flexible),
];

/// Reads the form into a plan request for `inv`, first showing the request's defaults
/// where nothing was typed. Every choice that does not read gets its message beside
/// its input and the request's default in its place, so that the plan's own checks can
/// report the others in the same round. A missing region is an error once the form was
/// sent (`submitted`): the page never prices in a region the user did not choose.
pub fn read(inv: Inventory, form: &mut FormState, submitted: bool) -> PlanRequest {
    let mut r = PlanRequest::new(inv);
    for (name, value) in [
        ("host_sku", r.host_sku.clone()),
        ("unit", "vm".to_owned()),
        ("basis", "in_use".to_owned()),
        ("term", r.term.key().to_owned()),
        ("nconnect", r.nconnect.to_string()),
        ("growth_pct", r.growth_pct.to_string()),
        ("free_space_pct", r.free_space_pct.to_string()),
        ("currency", r.currency.clone()),
    ] {
        form.default_value(name, &value);
    }
    let host = form.value("host_sku").trim();
    if !host.is_empty() {
        r.host_sku = host.to_owned();
    }
    let region = form.value("region").trim();
    if !region.is_empty() {
        r.region = Some(region.to_owned());
    } else if submitted {
        form.add_error(
            "region",
            "choose the region the hosts run in: it sets the prices and which hosts are offered",
        );
    }
    r.level = pick(form, "level", &LEVELS);
    r.datastores = form.whole("datastores");
    if let Some(g) = form.number("growth_pct") {
        r.growth_pct = g;
    }
    if let Some(f) = form.number("free_space_pct") {
        r.free_space_pct = f;
    }
    r.unit = pick(
        form,
        "unit",
        &[("vm", avs::PlaceUnit::Vm), ("disk", avs::PlaceUnit::Disk)],
    )
    .unwrap_or(r.unit);
    r.capacity_basis = pick(
        form,
        "basis",
        &[
            ("in_use", CapacityBasis::InUse),
            ("provisioned", CapacityBasis::Provisioned),
        ],
    )
    .unwrap_or(r.capacity_basis);
    let terms = PurchaseTerm::ALL.map(|t| (t.key(), t));
    r.term = pick(form, "term", &terms).unwrap_or(r.term);
    if let Some(n) = form.whole("nconnect") {
        r.nconnect = n;
    }
    r.vcf.licensing = pick(
        form,
        "vcf",
        &[
            ("portable", Licensing::Portable),
            ("included", Licensing::Included),
        ],
    )
    .unwrap_or(r.vcf.licensing);
    r.vcf.price_per_core_year = form.number("vcf_price");
    let until = form.value("vcf_until").trim();
    r.vcf.included_until = (!until.is_empty()).then(|| until.to_owned());
    r.stretched = pick(form, "stretched", &[("no", false), ("yes", true)]).unwrap_or(false);
    if let Some(v) = form.number("read_pct") {
        r.read_pct = v;
    }
    if let Some(v) = form.number("comfort_factor") {
        r.comfort_factor = v;
    }
    r.io_size_kib = form.number("io_size_kib");
    if let Some(n) = form.whole("outstanding_per_vm") {
        r.outstanding_per_vm = n;
    }
    r.default_iops_per_vm = form.number("default_iops_per_vm");
    r.default_mibps_per_vm = form.number("default_mibps_per_vm");
    r.currency = form.value("currency").trim().to_ascii_uppercase();
    r.existing = read_existing(form);
    r
}

/// The private cloud to expand, when its hosts are given.
fn read_existing(form: &mut FormState) -> Option<avs::existing::Existing> {
    let hosts = form.whole("existing_hosts")?;
    let sku = form.value("existing_sku").trim();
    let host_sku = (!sku.is_empty()).then(|| sku.to_owned());
    let licensing = pick(
        form,
        "existing_vcf",
        &[
            ("included", Licensing::Included),
            ("portable", Licensing::Portable),
        ],
    )
    .unwrap_or(Licensing::Included);
    Some(avs::existing::Existing {
        hosts,
        host_sku,
        licensing,
    })
}

/// Puts the plan's errors beside the inputs they name; the others (the inventory's)
/// are returned as one sentence for the top of the form.
pub fn place_errors(form: &mut FormState, errors: &FieldErrors) -> String {
    let mut rest = Vec::new();
    for e in errors.iter() {
        // The request's licensing fields are the form's `vcf_*` inputs.
        let input = match e.field.as_str() {
            "vcf.licensing" => "vcf",
            "vcf.price_per_core_year" => "vcf_price",
            "vcf.included_until" => "vcf_until",
            "existing.hosts" => "existing_hosts",
            "existing.host_sku" => "existing_sku",
            "existing.licensing" => "existing_vcf",
            f => f,
        };
        if label(input).is_some() {
            form.add_error(input, e.message.clone());
        } else {
            rest.push(e.to_string());
        }
    }
    rest.join("; ")
}

/// A region of the list: its key, as every page names it, and its bare name.
pub struct RegionOption {
    pub key: String,
    pub label: String,
    pub name: String,
}

/// The regions the plan can price, those with AVS host prices first: the hosts of a
/// region without them are planned, their cost marked missing.
pub fn regions(book: &PriceBook, licensing: Licensing) -> (Vec<RegionOption>, Vec<RegionOption>) {
    let (priced, unpriced): (Vec<_>, Vec<_>) =
        book.regions().into_iter().partition(|r| match licensing {
            Licensing::Portable => book.avs_byol.contains_key(r.region),
            Licensing::Included => r.features.avs,
        });
    let option = |r: crate::engine::pricing::RegionInfo<'_>| RegionOption {
        key: r.region.to_owned(),
        label: book.region_label(r.region),
        name: r.name.to_owned(),
    };
    (
        priced.into_iter().map(option).collect(),
        unpriced.into_iter().map(option).collect(),
    )
}

/// A host SKU of the list.
pub struct HostOption {
    pub sku: &'static str,
    /// "AV36: 36 cores, 576 GB": what it is, shown where it has a price.
    pub label: String,
    /// "AV48 — no price in West Europe" where the chosen region has none, else empty.
    pub unpriced: String,
    /// Unpriced and not the current choice: offered but not choosable.
    pub disabled: bool,
    /// The regions that price it licence-included, and without VMware licences (VCF
    /// BYOL), space-separated (the page's script marks the list again when the region
    /// or the licensing changes).
    pub priced_in: String,
    pub priced_in_byol: String,
}

/// The host SKUs, each marked where `region` (a region of the book) has no price for
/// it; `chosen` stays choosable so that its plan, hosts without a cost, can be shown.
pub fn hosts(
    book: &PriceBook,
    region: Option<&str>,
    chosen: &str,
    licensing: Licensing,
) -> Vec<HostOption> {
    let key = region.map(|r| r.trim().to_ascii_lowercase());
    let known = key.as_deref().filter(|r| book.anf(r).is_some());
    let marks = known.map(|r| avs::skus_in(book, r, licensing));
    let regions =
        |table: &std::collections::BTreeMap<String, crate::engine::pricing::AvsRegion>,
         sku: &str| {
            table
                .iter()
                .filter(|(_, r)| r.hosts.contains_key(sku))
                .map(|(k, _)| k.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
    avs::hosts::HOSTS
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let priced = marks.as_ref().is_none_or(|m| m[i].1);
            let unpriced = match known {
                Some(r) if !priced => format!("{} — no price in {}", h.sku, book.region_name(r)),
                _ => String::new(),
            };
            HostOption {
                sku: h.sku,
                label: format!(
                    "{}: {} cores, {} GB",
                    h.sku,
                    h.cores,
                    crate::format::num(h.ram_gb, 0)
                ),
                disabled: !priced && !h.sku.eq_ignore_ascii_case(chosen),
                unpriced,
                priced_in: regions(&book.avs, h.sku),
                priced_in_byol: regions(&book.avs_byol, h.sku),
            }
        })
        .collect()
}

/// The levels a plan may be fixed at, by key and display name (the form offers the
/// cheapest that meets the targets before them).
pub fn levels() -> Vec<(&'static str, &'static str)> {
    LEVELS
        .iter()
        .map(|(k, l)| (*k, l.display(Service::Anf)))
        .collect()
}
