//! Which Azure NetApp Files features each Azure region offers: the Flexible service
//! level, large volumes (and so breakthrough mode), cool access, datastores for AVS and
//! the cross-region replication pairs. Compiled in from `catalog/regions.json`, built by
//! `tools/region_features.py` from the ANF region map's data checked in under
//! `tools/data/anf-region-map/`. A region the data does not list is unknown: nothing is
//! claimed about it.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// The region data as compiled in.
pub const REGIONS_JSON: &str = include_str!("catalog/regions.json");

/// The ANF region map's data, by Azure region (`armRegionName`). The file also names
/// its source (repository, path, commit) for the reader.
#[derive(Debug, Deserialize)]
pub struct RegionMap {
    /// Date of the data (the commit that last changed it).
    pub date: String,
    pub regions: BTreeMap<String, Region>,
}

/// What one region offers.
#[derive(Debug, PartialEq, Deserialize)]
pub struct Region {
    /// The region as Azure writes it ("West Europe").
    pub name: String,
    /// Longitude and latitude, degrees.
    pub location: [f64; 2],
    pub flexible: bool,
    pub large_volumes: bool,
    pub cool_access: bool,
    /// Azure NetApp Files volumes as AVS datastores.
    pub avs_datastore: bool,
    /// The regions its volumes replicate to (each pair works both ways).
    pub replication: Vec<String>,
}

/// A feature a scenario can ask of its region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    Flexible,
    LargeVolumes,
    /// A large volume in breakthrough mode.
    Breakthrough,
    CoolAccess,
    AvsDatastore,
}

impl Feature {
    /// The Scenario field that asks for it.
    pub fn field(self) -> &'static str {
        match self {
            Feature::Flexible => "storage.level",
            Feature::LargeVolumes | Feature::Breakthrough => "storage.volume_kind",
            Feature::CoolAccess => "storage.cool_access",
            Feature::AvsDatastore => "clients.avs",
        }
    }
}

impl Region {
    /// Whether the region offers `f`; `None` when the data cannot say. Breakthrough
    /// mode's regions are not published (a preview by request): a region without large
    /// volumes lacks it, of the others nothing is known.
    pub fn offers(&self, f: Feature) -> Option<bool> {
        match f {
            Feature::Flexible => Some(self.flexible),
            Feature::LargeVolumes => Some(self.large_volumes),
            Feature::Breakthrough => (!self.large_volumes).then_some(false),
            Feature::CoolAccess => Some(self.cool_access),
            Feature::AvsDatastore => Some(self.avs_datastore),
        }
    }

    /// Whether volumes replicate from this region to `region`.
    pub fn replicates_to(&self, region: &str) -> bool {
        self.replication.iter().any(|r| r == region)
    }

    /// Great-circle distance to `other`, km.
    fn distance_km(&self, other: &Region) -> f64 {
        const EARTH_RADIUS_KM: f64 = 6371.0;
        let [lon1, lat1] = self.location.map(f64::to_radians);
        let [lon2, lat2] = other.location.map(f64::to_radians);
        let h = ((lat2 - lat1) / 2.0).sin().powi(2)
            + lat1.cos() * lat2.cos() * ((lon2 - lon1) / 2.0).sin().powi(2);
        2.0 * EARTH_RADIUS_KM * h.sqrt().asin()
    }
}

static MAP: LazyLock<RegionMap> =
    LazyLock::new(|| serde_json::from_str(REGIONS_JSON).expect("regions.json is valid"));

/// The compiled-in region data.
pub fn map() -> &'static RegionMap {
    &MAP
}

/// The region `key`, if the data lists it.
pub fn get(key: &str) -> Option<&'static Region> {
    map().regions.get(key)
}

/// The regions other than `from` that pass `keep`, nearest first.
pub fn nearest(from: &Region, keep: impl Fn(&str, &Region) -> bool) -> Vec<&'static Region> {
    let mut found: Vec<(f64, &'static Region)> = map()
        .regions
        .iter()
        .filter(|(k, r)| !std::ptr::eq(*r, from) && keep(k, r))
        .map(|(_, r)| (from.distance_km(r), r))
        .collect();
    found.sort_by(|a, b| a.0.total_cmp(&b.0));
    found.into_iter().map(|(_, r)| r).collect()
}

/// What ANF offers in a region, as the regions list shows it (`offered`).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RegionOffer {
    pub flexible: bool,
    pub large_volumes: bool,
    /// False where there are no large volumes; null elsewhere (breakthrough mode's
    /// regions are not published).
    pub breakthrough: Option<bool>,
    pub cool_access: bool,
    /// Azure NetApp Files volumes as AVS datastores.
    pub avs_datastore: bool,
    /// The regions volumes replicate to.
    pub replication_regions: Vec<&'static str>,
    /// Date of the region data.
    pub as_of: &'static str,
}

/// What ANF offers in `key`; `None` when the region data does not list it.
pub fn offer(key: &str) -> Option<RegionOffer> {
    let r = get(key)?;
    Some(RegionOffer {
        flexible: r.flexible,
        large_volumes: r.large_volumes,
        breakthrough: r.offers(Feature::Breakthrough),
        cool_access: r.cool_access,
        avs_datastore: r.avs_datastore,
        replication_regions: r.replication.iter().map(String::as_str).collect(),
        as_of: map().date.as_str(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_of_listed_and_unlisted_regions() {
        let m = map();
        assert_eq!(m.regions.len(), 48);
        assert_eq!(m.date, "2026-05-08");
        let east = get("eastus").unwrap();
        assert_eq!(east.name, "East US");
        for f in [
            Feature::Flexible,
            Feature::LargeVolumes,
            Feature::CoolAccess,
            Feature::AvsDatastore,
        ] {
            assert_eq!(east.offers(f), Some(true), "{f:?}");
        }
        // Large volumes there, breakthrough mode's regions unpublished: unknown.
        assert_eq!(east.offers(Feature::Breakthrough), None);
        assert!(east.replicates_to("westus") && !east.replicates_to("westeurope"));
        // In the price book but not in the region data.
        assert!(get("mexicocentral").is_none() && offer("westcentralus").is_none());
    }

    #[test]
    fn regions_that_lack_a_feature() {
        let nz = get("newzealandnorth").unwrap();
        assert_eq!(nz.offers(Feature::Flexible), Some(false));
        assert_eq!(nz.offers(Feature::LargeVolumes), Some(false));
        let south_india = offer("southindia").unwrap();
        assert!(!south_india.large_volumes);
        assert_eq!(south_india.breakthrough, Some(false));
        assert!(!get("uaenorth").unwrap().avs_datastore);
        assert!(get("southafricanorth").unwrap().replication.is_empty());
    }

    #[test]
    fn every_pair_is_listed_from_both_ends() {
        for (k, r) in &map().regions {
            for other in &r.replication {
                assert!(get(other).unwrap().replicates_to(k), "{k} -> {other}");
            }
        }
    }

    #[test]
    fn nearest_regions_come_first() {
        let south_india = get("southindia").unwrap();
        let near = nearest(south_india, |_, r| r.large_volumes);
        assert_eq!(near[0].name, "Central India");
        assert!(
            near.iter()
                .all(|r| r.large_volumes && r.name != "South India")
        );
        let west_europe = get("westeurope").unwrap();
        let partners = nearest(west_europe, |k, _| west_europe.replicates_to(k));
        assert_eq!(partners.len(), 5);
        // Amsterdam to Frankfurt is shorter than to Dublin.
        assert_eq!(partners[0].name, "Germany West Central");
        assert_eq!(partners[1].name, "France Central");
    }
}
