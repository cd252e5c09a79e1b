//! Starter scenarios offered on the home page ("New from template").
//!
//! Each template is a Scenario JSON file beside this module, so it can be read,
//! diffed and copied into the API or the CLI as it is.

use crate::engine::Scenario;

/// One starter scenario.
#[derive(Debug, Clone, Copy)]
pub struct StarterTemplate {
    /// URL key: `/scenarios/new?template=KEY`.
    pub key: &'static str,
    /// The scenario's name, shown in the list.
    pub name: &'static str,
    /// One sentence on what the template shows.
    pub summary: &'static str,
    json: &'static str,
}

impl StarterTemplate {
    /// The template as a scenario. The files are checked by the unit tests below,
    /// so a parse failure here means the binary was built from a broken file.
    pub fn scenario(&self) -> Scenario {
        serde_json::from_str(self.json).unwrap_or_else(|e| {
            panic!(
                "starter template {} is not valid Scenario JSON: {e}",
                self.key
            )
        })
    }
}

/// Every starter template, in the order shown on the home page.
pub const TEMPLATES: &[StarterTemplate] = &[
    StarterTemplate {
        key: "avs-datastores",
        name: "AVS 4 x 20 TiB vs 20 x 4 TiB datastores",
        summary: "Azure VMware Solution, 4 AV36P hosts on Azure NetApp Files Ultra datastores; \
                  change the volume group to 20 x 4 TiB to compare.",
        json: include_str!("scenario_templates/avs-datastores.json"),
    },
    StarterTemplate {
        key: "sap-hana",
        name: "SAP HANA on ANF",
        summary: "HANA data (3.2 TiB) and log (2 TiB) volumes on Azure NetApp Files Ultra \
                  over NFSv4.1, against the 400 MB/s data read KPI.",
        json: include_str!("scenario_templates/sap-hana.json"),
    },
    StarterTemplate {
        key: "oracle-dnfs",
        name: "Oracle on ANF (dNFS)",
        summary: "An Oracle database on one E104ids_v5 over Oracle Direct NFS (NFSv3): 4 data, \
                  2 log and 1 archive Azure NetApp Files Ultra volumes with manual QoS, 8 KiB \
                  random OLTP at 70 % reads against 250,000 IOPS.",
        json: include_str!("scenario_templates/oracle-dnfs.json"),
    },
    StarterTemplate {
        key: "azure-files-smb-multichannel",
        name: "Azure Files SMB multichannel on D32s_v3",
        summary: "A 10 TiB SSD provisioned v1 share read over SMB 3 with multichannel \
                  (4 channels) from one D32s_v3.",
        json: include_str!("scenario_templates/azure-files-smb-multichannel.json"),
    },
    StarterTemplate {
        key: "gcnv-nconnect-16",
        name: "GCNV with nconnect 16",
        summary: "A 20 TiB Google Cloud NetApp Volumes Extreme volume read from one \
                  n2-standard-32 over NFSv3 with nconnect=16.",
        json: include_str!("scenario_templates/gcnv-nconnect-16.json"),
    },
    StarterTemplate {
        key: "anf-large-volume",
        name: "ANF large volume scale-out",
        summary: "One 101 TiB Ultra large volume read at 256 KiB by 12 E32s_v5 VMs, \
                  as in the published scale-out measurement.",
        json: include_str!("scenario_templates/anf-large-volume.json"),
    },
];

/// The template with this key, if any.
pub fn find(key: &str) -> Option<&'static StarterTemplate> {
    TEMPLATES.iter().find(|t| t.key == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_is_a_valid_scenario_named_as_listed() {
        for t in TEMPLATES {
            let s = t.scenario();
            assert_eq!(s.name, t.name, "{}", t.key);
            crate::engine::check(&s, crate::engine::pricing::book())
                .unwrap_or_else(|e| panic!("template {} fails validation: {e}", t.key));
        }
    }

    /// The AVS template opens priced: its region prices its host SKU licence-included
    /// (the template's hosts, `vcf` null) and without VMware licences, so the hosts'
    /// line has a cost and no advice says a price is missing; with portable VCF a
    /// licence line prices every core.
    #[test]
    fn the_avs_template_prices_its_hosts() {
        let mut s = find("avs-datastores").expect("listed").scenario();
        let book = crate::engine::pricing::book();
        let region = s
            .region
            .as_deref()
            .unwrap_or(book.reference_region(crate::engine::scenario::Service::Anf));
        let sku = s
            .clients
            .avs
            .as_ref()
            .expect("an AVS template")
            .host_sku
            .clone();
        assert!(book.avs_host(region, &sku).is_some(), "{sku} in {region}");
        let ev = crate::engine::evaluate(&s).expect("evaluates");
        assert!(ev.advice.iter().all(|a| a.code != "avs_hosts_unpriced"));
        assert!(ev.cost.monthly_usd.is_some_and(|m| m > 0.0));
        assert!(
            ev.cost
                .lines
                .iter()
                .all(|l| l.item != crate::engine::cost::VCF_LICENCES)
        );
        assert!(
            book.avs_byol_host(region, &sku).is_some(),
            "{sku} in {region}"
        );
        s.clients.avs.as_mut().expect("AVS").vcf = Some(Default::default());
        let ev = crate::engine::evaluate(&s).expect("evaluates");
        assert!(ev.advice.iter().all(|a| a.code != "avs_hosts_unpriced"));
        let licence = ev
            .cost
            .lines
            .iter()
            .find(|l| l.item == crate::engine::cost::VCF_LICENCES)
            .expect("a licence line");
        // 4 AV36P hosts x 36 cores at $350 per core per year: $4,200.00 a month.
        assert_eq!(licence.quantity, 144.0);
        assert!((licence.monthly.unwrap() - 4_200.0).abs() < 1e-9);
        assert!(ev.cost.monthly_usd.is_some_and(|m| m > 0.0));
    }

    #[test]
    fn the_oracle_template_evaluates_over_direct_nfs_and_its_reports_show_the_dnfs_plan() {
        use crate::engine::scenario::{NfsClient, Protocol};
        let t = find("oracle-dnfs").expect("the Oracle template is listed");
        let s = t.scenario();
        assert_eq!(s.clients.nfs_client, NfsClient::Dnfs);
        assert_eq!(s.clients.protocol, Protocol::Nfsv3);
        assert_eq!(s.storage.volumes.len(), 3, "data, log and archive groups");
        let ev = crate::engine::evaluate(&s).expect("the Oracle template evaluates");
        assert!(ev.targets.met, "meets its IOPS target: {}", ev.iops);
        assert!(
            ev.advice.iter().all(|a| a.code != "nconnect"),
            "no nconnect advice with Direct NFS"
        );
        let report = crate::report::model::Report::build(
            &s,
            &ev,
            crate::engine::pricing::book(),
            "2026-01-02",
        );
        let md = String::from_utf8(
            crate::report::render(
                &report,
                crate::report::Format::Md,
                crate::report::RenderOptions::default(),
            )
            .expect("the report renders"),
        )
        .expect("Markdown is UTF-8");
        for expect in [
            "oranfstab",
            "nfs_version: nfsv3",
            "make -f ins_rdbms.mk dnfs_on",
            "actimeo=0",
            "SLOB2",
        ] {
            assert!(md.contains(expect), "the report's test plan shows {expect}");
        }
        assert!(!report.test_plan.mount_options.contains("nconnect"));
    }

    #[test]
    fn keys_are_unique_and_found() {
        for t in TEMPLATES {
            assert_eq!(find(t.key).map(|f| f.name), Some(t.name));
        }
        assert!(find("no-such-template").is_none());
    }
}
