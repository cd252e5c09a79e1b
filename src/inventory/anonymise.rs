//! Neutral stand-ins for the names that identify a customer: VMs (`vm-00001`), hosts,
//! clusters and datastores, numbered in the order they first appear, the same name
//! always getting the same stand-in.

use super::Inventory;
use std::collections::HashMap;

/// One kind of name and its stand-ins.
struct Names {
    prefix: &'static str,
    width: usize,
    seen: HashMap<String, String>,
}

impl Names {
    fn new(prefix: &'static str, width: usize) -> Names {
        Names {
            prefix,
            width,
            seen: HashMap::new(),
        }
    }

    fn get(&mut self, name: &str) -> String {
        let n = self.seen.len() + 1;
        let (prefix, width) = (self.prefix, self.width);
        self.seen
            .entry(name.to_owned())
            .or_insert_with(|| format!("{prefix}-{n:0width$}"))
            .clone()
    }

    fn replace(&mut self, name: &mut Option<String>) {
        if let Some(n) = name {
            *n = self.get(n);
        }
    }
}

/// Replaces every identifying name in the inventory.
pub fn anonymise(inv: &mut Inventory) {
    let mut vms = Names::new("vm", 5);
    let mut hosts = Names::new("host", 3);
    let mut clusters = Names::new("cluster", 2);
    let mut datastores = Names::new("datastore", 3);
    for v in &mut inv.vms {
        v.vm = vms.get(&v.vm);
        hosts.replace(&mut v.host);
        clusters.replace(&mut v.cluster);
        datastores.replace(&mut v.datastore);
        for d in &mut v.disks {
            datastores.replace(&mut d.datastore);
        }
    }
    for e in &mut inv.excluded {
        e.vm = vms.get(&e.vm);
    }
    inv.summary.anonymised = true;
}

#[cfg(test)]
mod tests {
    use crate::inventory::{Options, parse};

    #[test]
    fn names_are_replaced_consistently() {
        let csv = "VM,In Use MiB,Cluster,Path\nsap-prod-01,10,Contoso,[ds-a] x/y.vmx\nsap-prod-02,10,Contoso,[ds-a] z.vmx\nvCLS-9,1,Contoso,\n";
        let inv = parse(
            csv.as_bytes(),
            Options {
                anonymise: true,
                ..Options::default()
            },
        )
        .unwrap();
        let text = serde_json::to_string(&inv).unwrap();
        for secret in ["sap-prod", "Contoso", "ds-a", "vCLS-9"] {
            assert!(!text.contains(secret), "{secret} leaked: {text}");
        }
        assert_eq!(inv.vms[0].vm, "vm-00001");
        assert_eq!(inv.vms[1].cluster.as_deref(), Some("cluster-01"));
        assert_eq!(inv.vms[1].datastore.as_deref(), Some("datastore-001"));
        assert_eq!(inv.excluded[0].vm, "vm-00003");
        assert!(inv.summary.anonymised);
    }
}
