//! The checks a scenario passes on its way to a [`Plan`](super::Plan) that need the
//! catalog or the price book: the VM size and AVS host, the regions, the volumes.

use super::*;

/// The AVS side of a scenario; `None` (with the error recorded) for an unknown or
/// malformed host SKU.
pub(super) fn resolve_avs(a: &Avs, checks: &mut Checks) -> Option<AvsPlan> {
    if checks.has("clients.avs.host_sku") {
        return None;
    }
    let Some(host) = catalog::avs_host(&a.host_sku) else {
        let skus = catalog::catalog()
            .services
            .avs_hosts
            .iter()
            .map(|h| h.sku.as_str());
        checks.push(FieldError::new(
            "clients.avs.host_sku",
            format!(
                "{} is not an AVS host SKU; use AV36, AV36P, AV52, AV64 or AV48.{}",
                quoted_prefix(&a.host_sku),
                did_you_mean(&closest(&a.host_sku, skus))
            ),
        ));
        return None;
    };
    Some(AvsPlan {
        hosts: a.hosts,
        cluster_hosts: a.cluster_size(),
        nconnect: a.nconnect,
        vms_per_host: a.vms_per_host,
        vmdks_per_vm: a.vmdks_per_vm,
        placement: a.placement,
        host,
        licensing: a.licensing(),
        licence_per_core_year: a.vcf.as_ref().map_or(0.0, |v| v.per_core_year()),
        cores_per_host: host_specs::spec(&a.host_sku).map_or(0, |s| s.cores),
    })
}

/// The client VM size from the catalog; `None` when none is named, or (with the error
/// recorded) when the catalog lacks it or the name is malformed.
pub(super) fn resolve_vm(c: &Clients, checks: &mut Checks) -> Option<&'static VmSize> {
    if checks.has("clients.vm_size") {
        return None;
    }
    let name = c
        .vm_size
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())?;
    let vm = catalog::vm_size(name);
    if vm.is_none() {
        let lower = name.to_ascii_lowercase();
        let bare = lower.strip_prefix("standard_").unwrap_or(&lower);
        let known = catalog::vm_sizes().iter().map(|v| v.name.as_str());
        let like: Vec<String> = closest(bare, known)
            .into_iter()
            .filter_map(catalog::vm_size)
            .map(|v| v.display_name())
            .collect();
        let like: Vec<&str> = like.iter().map(String::as_str).collect();
        checks.push(FieldError::new(
            "clients.vm_size",
            format!(
                "{} is not in the catalog; use an Azure size such as Standard_E32s_v5 or a GCE type such as n2-standard-32, or set egress_mibps instead.{}",
                quoted_prefix(name),
                did_you_mean(&like)
            ),
        ));
    }
    vm
}

/// The scenario's region and replication region must be ANF regions of the price book
/// when the service is ANF (the regions' features and prices are compiled in).
pub(super) fn check_regions(s: &Scenario, checks: &mut Checks) {
    let unknown = pricing::unknown_anf_region;
    if s.storage.service == Service::Anf
        && let Some(r) = s.region.as_deref()
        && !checks.has("region")
        && pricing::anf_region(r).is_none()
    {
        checks.push(FieldError::new("region", unknown(r)));
    }
    if let Some(d) = &s.data_protection
        && d.replication != Replication::None
        && let Some(r) = d.replication_region.as_deref()
        && !checks.has("data_protection")
        && pricing::anf_region(r).is_none()
    {
        checks.push(FieldError::new(
            "data_protection.replication_region",
            unknown(r),
        ));
    }
}

/// The book of the scenario's currency (`pricing.currency`, USD without one): `prices`
/// itself or its book of that currency; `None` (with the error recorded) when that
/// book has no price of the service in the region, so the cost's lines are all in one
/// currency and never mixed.
pub(super) fn priced_in<'b>(
    s: &Scenario,
    prices: &'b PriceBook,
    checks: &mut Checks,
) -> Option<&'b PriceBook> {
    let currency = s.pricing.as_ref().map_or("USD", |p| p.currency.as_str());
    if currency == prices.currency {
        return Some(prices);
    }
    if checks.has("pricing.currency") || checks.has("region") {
        return None;
    }
    let service = s.storage.service;
    let region = s
        .region
        .as_deref()
        .unwrap_or(prices.reference_region(service));
    if let Some(book) = prices
        .in_currency(currency)
        .filter(|b| b.prices_in(service, region))
    {
        return Some(book);
    }
    let have = prices.currencies_of(service, region);
    checks.push(FieldError::new(
        "pricing.currency",
        format!(
            "the price book has no {currency} prices of {} in {}; {}. Import a Retail Prices API page with currencyCode={currency} or a price sheet in {currency} on the Prices page",
            service.display(),
            prices.region_label(region),
            if have.is_empty() {
                "it has none there in any currency".to_owned()
            } else {
                format!("it has {} there", have.join(", "))
            }
        ),
    ));
    None
}

/// Each volume group's size within the range of its service, level and kind, and an
/// assigned throughput within what an ANF volume of its kind may be assigned.
pub(super) fn check_volumes(st: &Storage, checks: &mut Checks) {
    let (lo, hi, source) = quota_range(st.service, st.level, st.volume_kind);
    if st.service == Service::AzureFiles && st.volume_kind == VolumeKind::Large {
        checks.push(FieldError::new(
            "storage.volume_kind",
            "large volumes are an Azure NetApp Files and NetApp Volumes feature; use regular for Azure Files",
        ));
    }
    for (i, g) in st.volumes.iter().enumerate() {
        if g.quota_tib < lo - 1e-12 || g.quota_tib > hi + 1e-12 {
            checks.push(FieldError::new(
                format!("storage.volumes[{i}].quota_tib"),
                format!(
                    "{} {} volumes hold {} to {} TiB each ({source}); {} TiB is outside that range",
                    st.service.display(),
                    st.level.display(st.service),
                    trim(lo),
                    trim(hi),
                    trim(g.quota_tib)
                ),
            ));
        }
        let Some(m) = g.throughput_mibps.filter(|_| st.service == Service::Anf) else {
            continue;
        };
        let (min, max, source) = super::assignable_mibps(st.level, st.volume_kind);
        if m < min || m > max {
            checks.push(FieldError::new(
                format!("storage.volumes[{i}].throughput_mibps"),
                format!(
                    "an ANF {} volume is assigned {} to {} MiB/s ({source}); got {}",
                    st.volume_kind.key(),
                    min,
                    max,
                    trim(m)
                ),
            ));
        }
    }
}

/// At most the first 40 characters of a name the user typed, quoted: enough to
/// recognise it, never the whole of an over-long input.
pub(super) fn quoted_prefix(name: &str) -> String {
    match name.char_indices().nth(40) {
        Some((i, _)) => format!("`{}...`", &name[..i]),
        None => format!("`{name}`"),
    }
}

/// Formats a number for an error message without float noise.
pub(super) fn trim(v: f64) -> String {
    let s = format!("{v:.6}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}
