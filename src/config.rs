//! Server configuration: flags and environment, with the contract's defaults.

use clap::Parser;

/// Where the server listens when nothing else is said.
pub const DEFAULT_BIND: &str = "127.0.0.1:8080";
/// The database when nothing else is said: `volplan.db` in the working directory.
pub const DEFAULT_DATABASE_URL: &str = "sqlite:volplan.db";

/// Settings of `volplan serve`; each flag also reads an environment variable.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(name = "volplan serve")]
pub struct Config {
    /// Address and port to listen on.
    #[arg(long, env = "VOLPLAN_BIND", default_value = DEFAULT_BIND, value_name = "ADDR:PORT")]
    pub bind: String,
    /// SQLite database: `sqlite:PATH`, `sqlite://PATH` or a plain file path; created and
    /// migrated on start.
    #[arg(long = "database-url", env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL, value_name = "URL")]
    pub database_url: String,
}

impl Config {
    /// The configuration with no flags: environment variables, else the defaults.
    pub fn from_env() -> Self {
        Self::parse_from(["volplan serve"])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_override_defaults() {
        let c = Config::parse_from(["serve", "--bind", "0.0.0.0:9000", "--database-url", "x.db"]);
        assert_eq!(c.bind, "0.0.0.0:9000");
        assert_eq!(c.database_url, "x.db");
    }
}
