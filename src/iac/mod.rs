//! Infrastructure as code, both ways: a plan (scenario, estate or AVS plan) written as
//! Terraform, Bicep or CLI commands, and such code read back into the scenarios it
//! describes.
//!
//! Every format goes through one [`Layout`]: the accounts' pools and volumes as they are
//! deployed (names, level, QoS, sizes, the throughput assigned to each volume). The
//! writers ([`terraform`], [`bicep`], [`commands`]) turn a layout into text; the
//! reader ([`read`]) turns Terraform HCL, `terraform show -json` or an ARM deployment
//! back into a layout, and [`scenarios`] into the Scenarios the engine evaluates.
//! Terraform is built and parsed with `hcl-rs`; JSON with `serde_json`.

pub mod bicep;
pub mod commands;
pub mod evaluate;
pub mod layout;
pub mod profile;
pub mod read;
pub mod scenarios;
#[cfg(test)]
mod schema;
pub mod terraform;
#[cfg(test)]
mod tests;

pub use layout::{Layout, PoolSpec, VolumeSpec};

/// The code formats a plan is exported in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Terraform HCL (`azurerm` and `google` providers).
    Terraform,
    /// Bicep calling the Azure Verified Module for NetApp accounts.
    Bicep,
    /// `az netappfiles` commands.
    Azcli,
    /// `gcloud netapp` commands.
    Gcloud,
}

impl Format {
    /// Every format, in the order the menus show them.
    pub const ALL: [Format; 4] = [
        Format::Terraform,
        Format::Bicep,
        Format::Azcli,
        Format::Gcloud,
    ];

    /// The format named in a URL or on the command line.
    pub fn parse(key: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.key() == key)
    }

    /// The URL and command-line name.
    pub fn key(self) -> &'static str {
        match self {
            Format::Terraform => "terraform",
            Format::Bicep => "bicep",
            Format::Azcli => "azcli",
            Format::Gcloud => "gcloud",
        }
    }

    /// The menu label.
    pub fn label(self) -> &'static str {
        match self {
            Format::Terraform => "Terraform",
            Format::Bicep => "Bicep",
            Format::Azcli => "Azure CLI",
            Format::Gcloud => "gcloud CLI",
        }
    }

    /// The download's file extension.
    pub fn ext(self) -> &'static str {
        match self {
            Format::Terraform => "tf",
            Format::Bicep => "bicep",
            Format::Azcli | Format::Gcloud => "sh",
        }
    }
}

/// Why a layout cannot be written in a format (a 422 naming what to change).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct ExportError(pub String);

/// The layout written in `format`.
pub fn export(layout: &Layout, format: Format) -> Result<String, ExportError> {
    match format {
        Format::Terraform => terraform::write(layout),
        Format::Bicep => bicep::write(layout),
        Format::Azcli => commands::azcli(layout),
        Format::Gcloud => commands::gcloud(layout),
    }
}
