//! The plausible ranges of an inventory's figures: a capacity of `1e308` MiB, a negative or
//! `NaN` IOPS figure is a damaged or mistyped file (or body), refused with a 422 that
//! names the figure, where it is (the sheet, row and VM of a file; the field of a
//! body) and the range, never read as 0 or stored. The check is the benchmark
//! imports' (`measure::plausible`): [`Checks`] collects every figure out of
//! range, numbers quoted through [`format::given`].
//!
//! The bounds are far beyond any real VM (about 9.3 PiB of disk, 64 TiB of memory, ten
//! million IOPS), so they refuse only what cannot be.

use super::Inventory;
use super::model::MAX_VMS;
use crate::engine::field_error::{Checks, FieldError, FieldErrors};
use crate::format;

/// One kind of figure and its range, from 0 to `max` in `unit`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bound {
    pub max: f64,
    pub unit: &'static str,
}

/// A VM's or a disk's capacity (provisioned, in use, in the guest), MiB: about 9.3 PiB.
pub const CAPACITY_MIB: Bound = Bound {
    max: 1e10,
    unit: "MiB",
};
/// A VM's memory, MiB: 64 TiB.
pub const MEMORY_MIB: Bound = Bound {
    max: 64.0 * 1024.0 * 1024.0,
    unit: "MiB",
};
/// A VM's vCPUs.
pub const VCPUS: Bound = Bound {
    max: 4096.0,
    unit: "vCPUs",
};
/// A host's cores.
pub const CORES: Bound = Bound {
    max: 4096.0,
    unit: "cores",
};
/// A VM's IOPS.
pub const IOPS: Bound = Bound {
    max: 1e7,
    unit: "IOPS",
};
/// A VM's throughput, MiB/s.
pub const MIBPS: Bound = Bound {
    max: 1e6,
    unit: "MiB/s",
};

impl Bound {
    /// The same bound in a column's own unit: `per` of this bound's unit make one `unit`
    /// (1,024 MiB in a GB column).
    pub fn in_unit(self, per: f64, unit: &'static str) -> Bound {
        Bound {
            max: self.max / per,
            unit,
        }
    }

    /// The bound of a total over every VM of an inventory.
    fn total(self) -> Bound {
        Bound {
            max: self.max * MAX_VMS as f64,
            unit: self.unit,
        }
    }

    /// Records in `checks` the error of `v` at `field` when outside 0 to `max`; `what`
    /// says which figure it is and where (``vInfo row 14, VM `web01`: `In Use MiB` ``).
    /// Whether `v` is within the range.
    pub fn check(self, checks: &mut Checks, field: &str, what: &str, v: f64) -> bool {
        if v.is_finite() && (0.0..=self.max).contains(&v) {
            return true;
        }
        checks.push(FieldError::new(
            field,
            format!(
                "{what} is {}, outside 0 to {} {}: a damaged or mistyped figure; correct it \
                 and import again",
                format::given(v),
                format::num(self.max, 2),
                self.unit
            ),
        ));
        false
    }
}

/// A name as a message quotes it: at most 60 characters, without control characters
/// or backticks.
pub fn quoted(name: &str) -> String {
    let kept: String = name
        .chars()
        .filter(|c| !c.is_control() && *c != '`')
        .take(60)
        .collect();
    format!("`{kept}`")
}

/// Every figure of an inventory sent back in a body (to be planned or given
/// performance figures), each out of range named by its field under `inventory`.
pub fn check(inv: &Inventory) -> Result<(), FieldErrors> {
    let mut c = Checks::default();
    for (i, v) in inv.vms.iter().enumerate() {
        let at = |name: &str| format!("inventory.vms[{i}].{name}");
        let vm = quoted(&v.vm);
        let mut figure = |b: Bound, name: &str, x: f64| {
            b.check(&mut c, &at(name), &format!("VM {vm}: {name}"), x)
        };
        figure(MEMORY_MIB, "memory_mib", v.memory_mib);
        figure(CAPACITY_MIB, "provisioned_mib", v.provisioned_mib);
        figure(CAPACITY_MIB, "in_use_mib", v.in_use_mib);
        figure(VCPUS, "vcpus", f64::from(v.vcpus));
        for (name, x) in [
            (
                "guest_used_mib",
                v.guest_used_mib.map(|x| (CAPACITY_MIB, x)),
            ),
            ("iops", v.iops.map(|x| (IOPS, x))),
            ("mibps", v.mibps.map(|x| (MIBPS, x))),
        ] {
            if let Some((b, x)) = x {
                figure(b, name, x);
            }
        }
        for (k, d) in v.disks.iter().enumerate() {
            CAPACITY_MIB.check(
                &mut c,
                &at(&format!("disks[{k}].capacity_mib")),
                &format!("VM {vm}, disk {}: capacity_mib", quoted(&d.disk)),
                d.capacity_mib,
            );
        }
    }
    let s = &inv.summary;
    let tib = CAPACITY_MIB.in_unit(1024.0 * 1024.0, "TiB").total();
    for (name, b, x) in [
        (
            "memory_gib",
            MEMORY_MIB.in_unit(1024.0, "GiB").total(),
            s.memory_gib,
        ),
        ("provisioned_tib", tib, s.provisioned_tib),
        ("in_use_tib", tib, s.in_use_tib),
        ("iops", IOPS.total(), s.iops),
        ("mibps", MIBPS.total(), s.mibps),
        ("vcpu_per_core", VCPUS, s.vcpu_per_core.unwrap_or(0.0)),
    ] {
        b.check(
            &mut c,
            &format!("inventory.summary.{name}"),
            &format!("the summary's {name}"),
            x,
        );
    }
    c.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{Options, parse};

    fn inventory() -> Inventory {
        let csv = "VM,Provisioned MiB,In Use MiB,IOPS,MiB/s\nweb01,1024,512,300,12.5\n";
        parse(csv.as_bytes(), Options::default()).unwrap()
    }

    #[test]
    fn a_real_inventory_is_within_range() {
        assert_eq!(check(&inventory()), Ok(()));
    }

    #[test]
    fn every_figure_out_of_range_is_named_with_its_vm_and_range() {
        let mut inv = inventory();
        inv.vms[0].in_use_mib = 1e308;
        inv.vms[0].memory_mib = -1.0;
        inv.vms[0].iops = Some(f64::NAN);
        let e = check(&inv).unwrap_err();
        let fields: Vec<&str> = e.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "inventory.vms[0].memory_mib",
                "inventory.vms[0].in_use_mib",
                "inventory.vms[0].iops"
            ]
        );
        let m = &e.iter().nth(1).unwrap().message;
        assert!(m.starts_with("VM `web01`: in_use_mib is 1e308"), "{m}");
        assert!(m.contains("outside 0 to 10,000,000,000 MiB"), "{m}");
        assert!(
            e.first().message.contains("is -1,"),
            "{}",
            e.first().message
        );
        assert!(e.iter().nth(2).unwrap().message.contains("not a number"));
    }

    #[test]
    fn the_bounds_themselves_are_accepted() {
        let mut inv = inventory();
        inv.vms[0].in_use_mib = CAPACITY_MIB.max;
        inv.vms[0].memory_mib = MEMORY_MIB.max;
        inv.vms[0].iops = Some(IOPS.max);
        inv.total();
        assert_eq!(check(&inv), Ok(()));
    }

    #[test]
    fn names_are_quoted_short() {
        assert_eq!(quoted(&"x".repeat(500)), format!("`{}`", "x".repeat(60)));
        assert_eq!(quoted("a`b\n"), "`ab`");
    }
}
