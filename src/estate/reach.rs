//! Which services a workload's clients can reach: the cloud they run in decides.
//!
//! AVS hosts mount Azure NetApp Files datastores; Azure VMs reach Azure NetApp Files
//! and Azure Files; Google Compute Engine machine types reach Google Cloud NetApp
//! Volumes. The cloud of a VM size is the catalog's (`vm_sizes.json`, `cloud`); a
//! workload without a VM size the catalog knows runs in the cloud of its own service.

use crate::engine::catalog;
use crate::engine::scenario::{Scenario, Service};

/// Where a workload's clients run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clients {
    /// Azure VMware Solution hosts (datastores are ANF volumes).
    Avs,
    Azure,
    Google,
}

impl Clients {
    /// The clients of `w`.
    pub fn of(w: &Scenario) -> Clients {
        if w.clients.avs.is_some() {
            return Clients::Avs;
        }
        let known = w
            .clients
            .vm_size
            .as_deref()
            .and_then(catalog::vm_size)
            .map(|v| v.cloud.as_str());
        match known {
            Some("gce") => Clients::Google,
            Some(_) => Clients::Azure,
            None if w.storage.service == Service::Gcnv => Clients::Google,
            None => Clients::Azure,
        }
    }

    /// The services these clients reach.
    pub fn services(self) -> &'static [Service] {
        match self {
            Clients::Avs => &[Service::Anf],
            Clients::Azure => &[Service::Anf, Service::AzureFiles],
            Clients::Google => &[Service::Gcnv],
        }
    }

    /// Whether these clients reach `service`.
    pub fn reach(self, service: Service) -> bool {
        self.services().contains(&service)
    }

    /// The clients in words: "AVS hosts", "Azure VMs (Standard_M128s)".
    pub fn describe(self, w: &Scenario) -> String {
        let size = w
            .clients
            .vm_size
            .as_deref()
            .map(|v| catalog::vm_size(v).map_or_else(|| v.to_owned(), |s| s.display_name()));
        let what = match self {
            Clients::Avs => return "AVS hosts".to_owned(),
            Clients::Azure => "Azure VMs",
            Clients::Google => "Google Compute Engine VMs",
        };
        match size {
            Some(s) => format!("{what} ({s})"),
            None => what.to_owned(),
        }
    }
}

/// Why `w`'s clients cannot use `service`, when they cannot.
pub fn unreachable(w: &Scenario, service: Service) -> Option<String> {
    let c = Clients::of(w);
    (!c.reach(service)).then(|| {
        format!(
            "its clients, {}, cannot reach {}",
            c.describe(w),
            service.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::scenario_templates;

    fn template(key: &str) -> Scenario {
        scenario_templates::find(key).unwrap().scenario()
    }

    #[test]
    fn the_vm_size_says_which_cloud_and_so_which_services() {
        let hana = template("sap-hana");
        assert_eq!(Clients::of(&hana), Clients::Azure);
        assert!(unreachable(&hana, Service::Gcnv).is_some());
        assert!(unreachable(&hana, Service::AzureFiles).is_none());
        let gcnv = template("gcnv-nconnect-16");
        assert_eq!(Clients::of(&gcnv), Clients::Google);
        assert_eq!(Clients::of(&gcnv).services(), [Service::Gcnv]);
        let avs = template("avs-datastores");
        assert_eq!(Clients::of(&avs).services(), [Service::Anf]);
        // A Google machine type on an ANF scenario: its clients are in Google Cloud.
        let mut odd = hana.clone();
        odd.clients.vm_size = Some("n2-standard-32".into());
        assert_eq!(
            unreachable(&odd, Service::Anf).unwrap(),
            "its clients, Google Compute Engine VMs (n2-standard-32), cannot reach Azure NetApp Files"
        );
    }
}
