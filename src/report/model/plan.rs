//! The benchmark that verifies the scenario, as every report format prints it.

use crate::engine::Scenario;
use crate::measure::testplan::{self, PlanTool, Voice};
use crate::report::Edition;

/// The benchmark that verifies the scenario, as preformatted text for every format.
#[derive(Debug, Clone, PartialEq)]
pub struct TestPlan {
    /// The fio job file (Linux, NFS), with how to mount, run and import it.
    pub fio: String,
    /// The DiskSpd command line (Windows, SMB), with how to run and import it.
    pub diskspd: String,
    /// The fio job and the DiskSpd plan in the customer's words (see [`Voice::Neutral`]).
    pub customer_fio: String,
    pub customer_diskspd: String,
    /// The mount options (NFS), the SMB client setup, or on AVS the ESXi datastore setup.
    pub mount_options: String,
    /// How the scenario is reached: NFS from Linux, SMB from Windows, or AVS datastores.
    pub path: PlanPath,
}

/// Which parts of the test plan apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanPath {
    /// Linux clients over NFS: fio and mount options.
    Nfs,
    /// Windows clients over SMB: DiskSpd and the SMB client setup.
    Smb,
    /// AVS guest VMs on NFS datastores: fio in the guests, the datastores on ESXi.
    Avs,
}

/// A part of the plan: its title, the language of its text and the text.
pub struct Part<'a> {
    pub title: &'static str,
    pub lang: &'static str,
    pub text: &'a str,
}

impl TestPlan {
    /// The section's title in every format.
    pub const TITLE: &'static str = "Verification test plan";

    /// The plan for a scenario.
    pub fn of(s: &Scenario) -> TestPlan {
        let path = if s.clients.avs.is_some() {
            PlanPath::Avs
        } else if s.clients.protocol.is_nfs() {
            PlanPath::Nfs
        } else {
            PlanPath::Smb
        };
        TestPlan {
            fio: testplan::plan(s, PlanTool::Fio),
            diskspd: testplan::plan(s, PlanTool::Diskspd),
            customer_fio: testplan::plan_in(s, PlanTool::Fio, Voice::Neutral),
            customer_diskspd: testplan::plan_in(s, PlanTool::Diskspd, Voice::Neutral),
            mount_options: match path {
                PlanPath::Avs => testplan::esxi_datastore_setup(s),
                _ => testplan::mount_options(s),
            },
            path,
        }
    }

    /// [`TestPlan::TITLE`], for templates.
    pub fn title(&self) -> &'static str {
        Self::TITLE
    }

    /// How to use the plan, in one sentence naming the tool that applies.
    pub fn note(&self, edition: Edition) -> &'static str {
        match (edition, self.path) {
            (Edition::Customer, _) => {
                "Run this benchmark after provisioning, discard the first run as warm-up, and compare the second run with the figures of this report."
            }
            (Edition::Engineer, PlanPath::Smb) => {
                "Run this benchmark after provisioning, discard the first run as warm-up, and import the XML result of the second run into volplan to see measured against predicted."
            }
            (Edition::Engineer, _) => {
                "Run this benchmark after provisioning, discard the first run as warm-up, and import the JSON result of the second run into volplan to see measured against predicted."
            }
        }
    }

    /// The parts that apply in `edition`'s words, in report order: DiskSpd only for
    /// SMB, the ESXi datastore setup instead of mount options for AVS.
    pub fn parts(&self, edition: Edition) -> Vec<Part<'_>> {
        fn part<'t>(title: &'static str, lang: &'static str, text: &'t str) -> Part<'t> {
            Part { title, lang, text }
        }
        let (fio, diskspd) = match edition {
            Edition::Engineer => (&self.fio, &self.diskspd),
            Edition::Customer => (&self.customer_fio, &self.customer_diskspd),
        };
        match self.path {
            PlanPath::Nfs => vec![
                part("fio job file (Linux, NFS)", "ini", fio),
                part("Mount options", "text", &self.mount_options),
            ],
            PlanPath::Smb => vec![
                part("DiskSpd command line (Windows, SMB)", "powershell", diskspd),
                part("SMB client setup", "text", &self.mount_options),
            ],
            PlanPath::Avs => vec![
                part("ESXi datastore setup", "text", &self.mount_options),
                part("fio job file (in the guest VMs)", "ini", fio),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixture;

    #[test]
    fn the_customer_plan_names_no_tool_and_keeps_the_job() {
        let (s, _) = fixture::example();
        let plan = TestPlan::of(&s);
        let text = &plan.customer_fio;
        assert!(!text.contains("volplan"), "{text}");
        let job = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| !l.trim_start().starts_with('#'))
                .map(|l| l.replace("volplan", "bench"))
                .collect()
        };
        assert_eq!(
            job(text),
            job(&plan.fio),
            "the job is the same but for its names"
        );
        assert!(!text.contains("Import") && plan.fio.contains("volplan import"));
        let parts = plan.parts(Edition::Customer);
        assert!(parts.iter().any(|p| p.text == plan.customer_fio));
    }
}
