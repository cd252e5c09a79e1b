//! Who may see a scenario or an estate: its owner and visibility, and the SQL condition
//! every read by id goes through ([`super::resource::Resource::access`]).
//!
//! A `shared` scenario is seen by every user; a `private` one only by its owner and by
//! actors who see everything (admins, and single-user mode). To everyone else a
//! private scenario does not exist: the store answers `NotFound`.

use serde::{Deserialize, Serialize};

/// Who makes a change or asks to see something.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Actor<'a> {
    /// The signed-in user's name; `None` in single-user mode.
    pub user: Option<&'a str>,
    /// Sees (and may change) every scenario, private ones too: admins and single-user mode.
    pub sees_all: bool,
}

impl Actor<'_> {
    /// Single-user mode: nobody signed in, everything visible, nothing attributed.
    pub const SINGLE_USER: Actor<'static> = Actor {
        user: None,
        sees_all: true,
    };

    /// The bind for `$all` in [`VISIBLE`]: 1 when the actor sees everything.
    pub(crate) fn all_flag(&self) -> i64 {
        i64::from(self.sees_all)
    }
}

/// Who may see a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Every user sees it; editors may change it.
    #[default]
    Shared,
    /// Only its owner and admins see it.
    Private,
}

impl Visibility {
    /// The key as the database and the API spell it.
    pub fn key(self) -> &'static str {
        match self {
            Visibility::Shared => "shared",
            Visibility::Private => "private",
        }
    }

    /// The visibility of a stored key; anything but `private` reads as shared.
    pub fn of_key(key: &str) -> Visibility {
        if key == "private" {
            Visibility::Private
        } else {
            Visibility::Shared
        }
    }
}

/// The SQL condition "the actor may see this row", on a row with `owner` and
/// `visibility` columns; binds `$U` (the user) and `$A` ([`Actor::all_flag`]), which
/// the caller replaces with its own parameter numbers through [`visible_sql`].
const VISIBLE: &str = "(visibility = 'shared' OR owner = $U OR $A = 1)";

/// [`VISIBLE`] with the user bound as parameter `user` and the flag as `all`.
pub(crate) fn visible_sql(user: usize, all: usize) -> String {
    VISIBLE
        .replace("$U", &format!("${user}"))
        .replace("$A", &format!("${all}"))
}

/// Who owns a scenario and who may see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Ownership {
    /// The user who created it; null when it was created in single-user mode.
    pub owner: Option<String>,
    pub visibility: Visibility,
}

impl Ownership {
    /// True when `actor` may change the visibility: the owner, or one who sees all.
    pub fn may_change_visibility(&self, actor: Actor<'_>) -> bool {
        actor.sees_all || (actor.user.is_some() && self.owner.as_deref() == actor.user)
    }
}
