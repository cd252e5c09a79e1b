//! The words of the region feature warnings: what the region lacks, the nearest
//! regions that offer it, and the replication pairs, dated by the region data.

use crate::engine::regions::{self, Feature, Region};
use std::fmt;

/// Regions named as alternatives in a warning.
const NEARBY: usize = 3;

/// The feature as the subject of a sentence, and whether it is plural.
fn label(feature: Feature) -> (&'static str, bool) {
    match feature {
        Feature::Flexible => ("The Flexible service level", false),
        Feature::LargeVolumes => ("Large volumes", true),
        Feature::Breakthrough => ("Breakthrough mode volumes", true),
        Feature::CoolAccess => ("Cool access", false),
        Feature::AvsDatastore => ("Azure NetApp Files datastores for AVS", true),
    }
}

/// "A", "A and B", "A, B and C".
fn write_names<'r>(
    f: &mut fmt::Formatter<'_>,
    names: impl ExactSizeIterator<Item = &'r Region>,
) -> fmt::Result {
    let n = names.len();
    for (i, r) in names.enumerate() {
        let sep = match i {
            0 => "",
            _ if i + 1 == n => " and ",
            _ => ", ",
        };
        write!(f, "{sep}{}", r.name)?;
    }
    Ok(())
}

/// The text of [`Message::RegionLacks`].
pub(super) fn write_lacks(
    f: &mut fmt::Formatter<'_>,
    feature: Feature,
    here: &'static Region,
) -> fmt::Result {
    let date = regions::map().date.as_str();
    let (what, plural) = label(feature);
    let name = here.name.as_str();
    // Breakthrough mode is a mode of large volumes: a region with them may offer it.
    let (look_for, lead) = if feature == Feature::Breakthrough {
        write!(
            f,
            "{what} are not offered in {name}: breakthrough mode is a mode of large volumes, which the region does not offer (ANF region map, {date})."
        )?;
        (Feature::LargeVolumes, "Regions near it with large volumes")
    } else {
        let verb = if plural { "are" } else { "is" };
        write!(
            f,
            "{what} {verb} not offered in {name} (ANF region map, {date})."
        )?;
        let lead = if plural {
            "Regions near it that offer them"
        } else {
            "Regions near it that offer it"
        };
        (feature, lead)
    };
    let alternatives = regions::nearest(here, |_, r| r.offers(look_for) == Some(true));
    if !alternatives.is_empty() {
        write!(f, " {lead}: ")?;
        write_names(f, alternatives.into_iter().take(NEARBY))?;
        f.write_str(".")?;
    }
    f.write_str(
        " The map can lag the service: confirm in the Azure portal before you change the plan.",
    )
}

/// The text of [`Message::ReplicationPair`].
pub(super) fn write_pair(
    f: &mut fmt::Formatter<'_>,
    from: &'static Region,
    to: &str,
) -> fmt::Result {
    let date = regions::map().date.as_str();
    let a = from.name.as_str();
    write!(
        f,
        "Cross-region replication from {a} to {to} is not a supported region pair (ANF region map, {date})"
    )?;
    if from.replication.is_empty() {
        return write!(f, ": {a} has no replication partner region.");
    }
    write!(f, "; {a} replicates to ")?;
    write_names(
        f,
        regions::nearest(from, |k, _| from.replicates_to(k)).into_iter(),
    )?;
    f.write_str(".")
}

/// The text of [`Message::RegionUnlisted`].
pub(super) fn write_unlisted(f: &mut fmt::Formatter<'_>, name: &'static str) -> fmt::Result {
    write!(
        f,
        "{name} is not in the ANF region map data ({}): whether it offers what this scenario asks for (the Flexible level, large volumes, cool access, AVS datastores, replication pairs) is not checked.",
        regions::map().date
    )
}
