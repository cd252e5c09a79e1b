//! `volplan avs plan FILE`: an inventory file (RVTools xlsx or CSV, Live Optics, a CSV of
//! VMs) to the plan JSON, as `POST /api/v1/avs/inventory` then `POST /api/v1/avs/plan`.

use crate::avs::{self, PlaceUnit, PlanRequest};
use crate::engine::pricing;
use crate::engine::scenario::Level;
use crate::inventory::{self, CapacityBasis, Options};
use std::process::ExitCode;

/// The `volplan avs` commands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum AvsCommand {
    /// Plan an inventory: vSAN-only and ANF-datastore host counts, the datastore
    /// layout and the 1/3/5-year TCO, printed as JSON.
    Plan(PlanArgs),
}

/// Options of `volplan avs plan`.
#[derive(Debug, Clone, clap::Args)]
pub struct PlanArgs {
    /// The inventory: RVTools xlsx (or its vInfo CSV), a Live Optics workbook, or a CSV
    /// of VMs; - for standard input.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// AV36, AV36P, AV52 or AV64.
    #[arg(long, default_value = "AV36")]
    pub host_sku: String,
    /// Azure region (armRegionName); default the price book's reference region. A
    /// region without a price for the SKU still plans the hosts and marks their cost
    /// missing.
    #[arg(long)]
    pub region: Option<String>,
    /// VMware Cloud Foundation licensing: portable (hosts at the VCF BYOL rate plus
    /// cores x the VCF price) or included (an existing licence-included reservation).
    #[arg(long, default_value = "portable")]
    pub vcf: String,
    /// The VCF price per core per year; default the stated public list figure.
    #[arg(long)]
    pub vcf_price_per_core_year: Option<f64>,
    /// The purchase term the TCO headline follows: payg, 1y or 3y.
    #[arg(long, default_value = "3y")]
    pub term: String,
    /// Share of each datastore kept free, %.
    #[arg(long, default_value_t = avs::DEFAULT_FREE_SPACE_PCT)]
    pub free_space_pct: f64,
    /// standard, premium, ultra or flexible; default the cheapest that meets the targets.
    #[arg(long)]
    pub level: Option<String>,
    /// Number of datastores; default the cheapest count that meets everything.
    #[arg(long)]
    pub datastores: Option<u32>,
    /// Capacity headroom for growth, %.
    #[arg(long, default_value_t = 0.0)]
    pub growth_pct: f64,
    /// Place `vm`s (default) or their `disk`s.
    #[arg(long, default_value = "vm")]
    pub unit: String,
    /// Size on `in_use` (default) or `provisioned` capacity.
    #[arg(long, default_value = "in_use")]
    pub capacity_basis: String,
    /// Connections per host per datastore: 1 or 4.
    #[arg(long, default_value_t = 1)]
    pub nconnect: u32,
    /// A CSV of VM, IOPS and MiB/s to add to the inventory.
    #[arg(long, value_name = "CSV")]
    pub performance: Option<String>,
    /// Keep powered-off VMs.
    #[arg(long)]
    pub include_powered_off: bool,
    /// Replace VM, host, cluster and datastore names with neutral stand-ins.
    #[arg(long)]
    pub anonymise: bool,
}

/// Runs a `volplan avs` command; bad input exits 2.
pub fn run(cmd: &AvsCommand) -> ExitCode {
    let AvsCommand::Plan(args) = cmd;
    match plan(args) {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

fn read(file: &str) -> Result<Vec<u8>, String> {
    if file == "-" {
        use std::io::Read;
        let mut b = Vec::new();
        std::io::stdin()
            .read_to_end(&mut b)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        Ok(b)
    } else {
        std::fs::read(file).map_err(|e| format!("cannot read {file}: {e}"))
    }
}

/// A snake_case choice read through its JSON name.
fn choice<T: serde::de::DeserializeOwned>(flag: &str, v: &str) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::String(v.trim().to_ascii_lowercase()))
        .map_err(|_| format!("--{flag}: `{v}` is not one of the choices"))
}

/// The plan of `args` as pretty JSON.
pub fn plan(args: &PlanArgs) -> Result<String, String> {
    let bytes = read(&args.file)?;
    let opts = Options {
        include_powered_off: args.include_powered_off,
        anonymise: args.anonymise,
    };
    // Performance rows name the VMs as the file does: match them before anonymising.
    let mut inv = inventory::parse(
        &bytes,
        Options {
            anonymise: false,
            ..opts
        },
    )
    .map_err(|e| match e.field() {
        Some(f) => format!("{}: {f}: {}", args.file, e.message),
        None => format!("{}: {}", args.file, e.message),
    })?;
    if let Some(p) = &args.performance {
        inventory::perf::merge(&mut inv, &read(p)?).map_err(|e| format!("{p}: {e}"))?;
    }
    if opts.anonymise {
        inventory::anonymise::anonymise(&mut inv);
    }
    let mut req = PlanRequest::new(inv);
    req.host_sku = args.host_sku.clone();
    req.region = args.region.clone();
    req.level = args
        .level
        .as_deref()
        .map(|l| choice::<Level>("level", l))
        .transpose()?;
    req.datastores = args.datastores;
    req.growth_pct = args.growth_pct;
    req.unit = choice::<PlaceUnit>("unit", &args.unit)?;
    req.capacity_basis = choice::<CapacityBasis>("capacity-basis", &args.capacity_basis)?;
    req.nconnect = args.nconnect;
    req.term = choice::<avs::PurchaseTerm>("term", &args.term)?;
    req.vcf.licensing = choice::<avs::licence::Licensing>("vcf", &args.vcf)?;
    req.vcf.price_per_core_year = args.vcf_price_per_core_year;
    req.free_space_pct = args.free_space_pct;
    let plan = avs::plan(&req, pricing::book()).map_err(|e| e.to_string())?;
    let judged = crate::verdict::avs::judge(plan, req.term);
    serde_json::to_string_pretty(&judged).map_err(|e| format!("cannot write the plan: {e}"))
}
