//! The `volplan` command: web server (default) and command-line tools.

#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// mimalloc: the server allocates small buffers on every request from several worker
/// threads, where glibc's allocator spends measurable time on its arena locks.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "volplan",
    version,
    about = "Capacity planning and sizing for cloud file storage"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the web UI and JSON API (the default without a subcommand).
    Serve(volplan::web::config::Config),
    /// Read one Scenario JSON (FILE or - for stdin) and print its Evaluation JSON with
    /// its verdict; --statements prints the verdict's statements as text instead.
    Evaluate {
        /// Scenario JSON file, or - for standard input.
        file: String,
        /// Print the verdict's statements (targets, recommendation, what binds, the
        /// latency, what decides it), one per line.
        #[arg(long)]
        statements: bool,
    },
    /// Write the sizing report of one Scenario JSON (FILE or - for stdin) as HTML,
    /// Markdown, PDF, CSV, XLSX or JSON.
    Report(volplan::cli::ReportArgs),
    /// Read benchmark results (fio JSON, DiskSpd XML, elbencho CSV) and print the
    /// measurements; with --scenario, measured against predicted and the reason for the gap.
    Import(volplan::cli::ImportArgs),
    /// Check a Linux NFS mount plan and print the advice JSON (effective nconnect,
    /// findings, recommended fstab). FILE (or - for stdin) holds the request JSON or
    /// plain fstab lines / mount commands.
    AdviseMounts {
        /// Request JSON or mount lines, or - for standard input.
        file: String,
        /// Client distribution and release, e.g. "rhel 8.2" (overrides the request's).
        #[arg(long)]
        distro: Option<String>,
        /// eda, web_small, web_large, database, sas_grid or shared_rw (overrides the request's).
        #[arg(long)]
        workload: Option<String>,
    },
    /// Write a Scenario JSON (FILE or - for stdin) as code: terraform, bicep, azcli or
    /// gcloud.
    Export(volplan::cli::iac::ExportArgs),
    /// Infrastructure as code: `volplan iac check FILE` evaluates the NetApp pools that
    /// Terraform, `terraform show -json` or an ARM deployment creates.
    #[command(subcommand)]
    Iac(volplan::cli::iac::IacCommand),
    /// Plan an estate: pools, QoS allocation, best service per workload, growth.
    #[command(subcommand)]
    Estate(volplan::cli::estate::EstateCommand),
    /// The price book of a database: import Azure Retail Prices API pages.
    #[command(subcommand)]
    Prices(volplan::cli::prices::PricesCommand),
    /// AVS from the inventory: `volplan avs plan FILE` prints the host counts, the
    /// datastore layout and the TCO as JSON.
    #[command(subcommand)]
    Avs(volplan::cli::avs::AvsCommand),
    /// Refit the performance model's parameters jointly over the published series
    /// (tests/fixtures/series.json) and print the residuals and the
    /// leave-one-series-out and leave-one-document-out tables.
    Calibrate(volplan::model_fit::run::CalibrateArgs),
    /// Copy the SQLite database (online, while the server runs) to a new file PATH.
    Backup(volplan::cli::backup::BackupArgs),
    /// Team mode: the users who log in, with their roles (viewer, editor, admin).
    #[command(subcommand)]
    Users(volplan::cli::users::UsersCommand),
    /// API tokens for scripts: `Authorization: Bearer TOKEN` acts as the token's user.
    #[command(subcommand)]
    Tokens(volplan::cli::tokens::TokensCommand),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Evaluate { file, statements }) => volplan::cli::evaluate(&file, statements),
        Some(Command::Report(args)) => volplan::cli::report(&args),
        Some(Command::Import(args)) => volplan::cli::import(&args),
        Some(Command::AdviseMounts {
            file,
            distro,
            workload,
        }) => volplan::cli::advise_mounts(&file, distro, workload.as_deref()),
        Some(Command::Calibrate(args)) => volplan::model_fit::run::run(&args),
        Some(Command::Prices(cmd)) => volplan::cli::prices::run(&cmd),
        Some(Command::Export(args)) => volplan::cli::iac::export(&args),
        Some(Command::Iac(cmd)) => volplan::cli::iac::run(&cmd),
        Some(Command::Estate(cmd)) => volplan::cli::estate::run(&cmd),
        Some(Command::Avs(cmd)) => volplan::cli::avs::run(&cmd),
        Some(Command::Backup(args)) => volplan::cli::backup::run(&args),
        Some(Command::Users(cmd)) => volplan::cli::users::run(&cmd),
        Some(Command::Tokens(cmd)) => volplan::cli::tokens::run(&cmd),
        Some(Command::Serve(config)) => serve(config),
        None => serve(volplan::web::config::Config::from_env()),
    }
}

/// Runs the server with logs on stderr as text or JSON lines (`RUST_LOG` overrides the
/// `info` default).
fn serve(config: volplan::web::config::Config) -> ExitCode {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match config.log_format {
        volplan::web::config::LogFormat::Text => logs
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init(),
        volplan::web::config::LogFormat::Json => logs.json().with_current_span(false).init(),
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let served = runtime.block_on(volplan::web::run(config));
    // A render given up after its timeout may still run on a blocking thread: the
    // process ends without waiting for it.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("{e}");
            ExitCode::FAILURE
        }
    }
}
