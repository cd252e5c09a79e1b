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
    Plan(Box<PlanArgs>),
}

/// Options of `volplan avs plan`.
#[derive(Debug, Clone, clap::Args)]
pub struct PlanArgs {
    /// The inventory: RVTools xlsx (or its vInfo CSV), a Live Optics workbook, or a CSV
    /// of VMs; - for standard input.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// AV36, AV36P, AV48, AV52 or AV64.
    #[arg(long, default_value = avs::DEFAULT_HOST_SKU)]
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
    /// The licence-included reservation's end, YYYY-MM-DD (with --vcf included).
    #[arg(long, value_name = "DATE")]
    pub vcf_included_until: Option<String>,
    /// A VCF add-on priced per core per year, NAME=PRICE (e.g. "vDefend Firewall=60");
    /// repeat for more.
    #[arg(long = "vcf-add-on", value_name = "NAME=PRICE")]
    pub vcf_add_ons: Vec<String>,
    /// A stretched cluster over two availability zones (N+2, the hosts double).
    #[arg(long)]
    pub stretched: bool,
    /// Expand an existing private cloud of this many hosts (their own workloads stay on
    /// them): only the added hosts are bought.
    #[arg(long, value_name = "N")]
    pub existing_hosts: Option<u32>,
    /// The existing hosts' SKU; default --host-sku.
    #[arg(long, value_name = "SKU", requires = "existing_hosts")]
    pub existing_host_sku: Option<String>,
    /// The existing hosts' VMware licensing: included (default) or portable.
    #[arg(long, value_name = "LICENSING", default_value = "included")]
    pub existing_vcf: String,
    /// Read share of the IOs, %; default 70.
    #[arg(long, default_value_t = avs::DEFAULT_READ_PCT)]
    pub read_pct: f64,
    /// IO size, KiB; default the inventory's MiB/s / IOPS, else 64.
    #[arg(long)]
    pub io_size_kib: Option<f64>,
    /// IOs each VM keeps in flight; default 8.
    #[arg(long, default_value_t = avs::DEFAULT_OUTSTANDING)]
    pub outstanding_per_vm: u32,
    /// IOPS and MiB/s of a VM the inventory gives no figures for; default 0.
    #[arg(long)]
    pub default_iops_per_vm: Option<f64>,
    #[arg(long)]
    pub default_mibps_per_vm: Option<f64>,
    /// ISO 4217 code the plan is priced in; default USD.
    #[arg(long, default_value = "USD")]
    pub currency: String,
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
    /// Where the performance figures are a series (several rows per VM), the
    /// percentile of each VM's samples: 1 to 100, default 95.
    #[arg(long, value_name = "P")]
    pub percentile: Option<u32>,
    /// A buffer on every VM's IOPS and MiB/s (1 to 5; default 1, none).
    #[arg(long, default_value_t = 1.0)]
    pub comfort_factor: f64,
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

/// An add-on written NAME=PRICE.
fn add_on(a: &str) -> Result<avs::licence::AddOn, String> {
    let (name, price) = a
        .rsplit_once('=')
        .ok_or_else(|| format!("--vcf-add-on: `{a}` is not NAME=PRICE"))?;
    let price_per_core_year = price
        .trim()
        .parse()
        .map_err(|_| format!("--vcf-add-on: `{price}` is not a price per core per year"))?;
    Ok(avs::licence::AddOn {
        name: name.trim().to_owned(),
        price_per_core_year,
    })
}

/// The plan of `args` as pretty JSON.
pub fn plan(args: &PlanArgs) -> Result<String, String> {
    let bytes = read(&args.file)?;
    let opts = Options {
        include_powered_off: args.include_powered_off,
        anonymise: args.anonymise,
        percentile: Some(inventory::perf::chosen(args.percentile).map_err(|e| e.to_string())?),
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
        inventory::perf::merge(&mut inv, &read(p)?, opts.percentile())
            .map_err(|e| format!("{p}: {e}"))?;
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
    req.vcf.included_until = args.vcf_included_until.clone();
    req.vcf.add_ons = args
        .vcf_add_ons
        .iter()
        .map(|a| add_on(a))
        .collect::<Result<_, _>>()?;
    req.stretched = args.stretched;
    req.existing = args
        .existing_hosts
        .map(|hosts| {
            Ok::<_, String>(avs::existing::Existing {
                hosts,
                host_sku: args.existing_host_sku.clone(),
                licensing: choice("existing-vcf", &args.existing_vcf)?,
            })
        })
        .transpose()?;
    req.read_pct = args.read_pct;
    req.io_size_kib = args.io_size_kib;
    req.outstanding_per_vm = args.outstanding_per_vm;
    req.default_iops_per_vm = args.default_iops_per_vm;
    req.default_mibps_per_vm = args.default_mibps_per_vm;
    req.currency = args.currency.trim().to_ascii_uppercase();
    req.comfort_factor = args.comfort_factor;
    let plan = avs::plan(&req, pricing::book()).map_err(|e| e.to_string())?;
    let judged = crate::verdict::avs::judge(plan, req.term);
    serde_json::to_string_pretty(&judged).map_err(|e| format!("cannot write the plan: {e}"))
}
