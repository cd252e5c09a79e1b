//! Client distributions and the nconnect minimum releases.

use std::fmt;

/// A Linux distribution family with a documented nconnect minimum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Red Hat Enterprise Linux and its rebuilds (CentOS, Rocky, Alma, Oracle Linux).
    Rhel,
    /// SUSE Linux Enterprise Server (openSUSE Leap 15.x maps to SLES 15 SP x).
    Sles,
    Ubuntu,
}

/// A client distribution and release. For SLES, `minor` is the service pack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Distro {
    pub family: Family,
    pub major: u32,
    pub minor: u32,
}

/// Whether a release supports nconnect for an NFS version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    Yes,
    /// Below the documented minimum, which the string names.
    No(&'static str),
    /// The document states no minimum.
    Unstated,
}

const FAMILY_NAMES: [(&str, Family); 15] = [
    ("red hat enterprise linux", Family::Rhel),
    ("redhat", Family::Rhel),
    ("red hat", Family::Rhel),
    ("rhel", Family::Rhel),
    ("centos", Family::Rhel),
    ("rocky", Family::Rhel),
    ("almalinux", Family::Rhel),
    ("alma", Family::Rhel),
    ("oracle linux", Family::Rhel),
    ("ol", Family::Rhel),
    ("opensuse leap", Family::Sles),
    ("sles", Family::Sles),
    ("sle", Family::Sles),
    ("suse", Family::Sles),
    ("ubuntu", Family::Ubuntu),
];

impl Distro {
    /// Parses `rhel 8.2`, `RHEL8.3`, `sles 15 sp1`, `SLES15SP2`, `sles 12-sp4`,
    /// `ubuntu 18.04`; the error says what is accepted.
    pub fn parse(text: &str) -> Result<Distro, String> {
        let lower = text.trim().to_ascii_lowercase();
        let (family, rest) = FAMILY_NAMES
            .iter()
            .find_map(|(name, fam)| lower.strip_prefix(name).map(|rest| (*fam, rest)))
            .ok_or_else(|| {
                format!(
                    "`{}` is not a known distribution; write rhel, sles or ubuntu and the release, e.g. `rhel 8.3`, `sles 15 sp2`, `ubuntu 20.04`",
                    text.trim()
                )
            })?;
        let rest =
            rest.trim_start_matches(|c: char| c.is_ascii_alphabetic() && family == Family::Sles);
        let numbers: Vec<u32> = rest
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse::<u32>().unwrap_or(u32::MAX))
            .collect();
        let Some(&major) = numbers.first() else {
            return Err(format!(
                "`{}` has no release number; add it, e.g. `rhel 8.3`, `sles 15 sp2`, `ubuntu 20.04`",
                text.trim()
            ));
        };
        if major == u32::MAX || major > 1000 {
            return Err(format!(
                "`{}`: the release number is out of range",
                text.trim()
            ));
        }
        let minor = numbers.get(1).copied().unwrap_or(0).min(1000);
        Ok(Distro {
            family,
            major,
            minor,
        })
    }

    /// nconnect support for NFSv3 (`v41 = false`) or NFSv4.1 (`v41 = true`),
    /// from the minimum-release table of the ANF mount-options page.
    pub fn nconnect_support(self, v41: bool) -> Support {
        let at_least = |m: u32, n: u32| (self.major, self.minor) >= (m, n);
        match (self.family, v41) {
            (Family::Rhel, _) if at_least(8, 3) => Support::Yes,
            (Family::Rhel, _) => Support::No("RHEL 8.3"),
            (Family::Sles, false) if (self.major == 12 && self.minor >= 4) || at_least(15, 1) => {
                Support::Yes
            }
            (Family::Sles, false) => Support::No("SLES 12 SP4 or SLES 15 SP1"),
            (Family::Sles, true) if at_least(15, 2) => Support::Yes,
            (Family::Sles, true) => Support::No("SLES 15 SP2"),
            (Family::Ubuntu, false) if at_least(18, 4) => Support::Yes,
            (Family::Ubuntu, false) => Support::No("Ubuntu 18.04"),
            (Family::Ubuntu, true) => Support::Unstated,
        }
    }
}

impl fmt::Display for Distro {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.family {
            Family::Rhel => write!(f, "RHEL {}.{}", self.major, self.minor),
            Family::Sles if self.minor == 0 => write!(f, "SLES {}", self.major),
            Family::Sles => write!(f, "SLES {} SP{}", self.major, self.minor),
            Family::Ubuntu => write!(f, "Ubuntu {}.{:02}", self.major, self.minor),
        }
    }
}
