//! Server configuration: flags and environment, with the contract's defaults.

use crate::web::auth::{AuthSettings, Role};
use axum::http::HeaderName;
use clap::Parser;
use std::net::{IpAddr, SocketAddr};
use url::Url;

/// Where the server listens when nothing else is said.
pub const DEFAULT_BIND: &str = "127.0.0.1:8080";
/// The database when nothing else is said: `volplan.db` in the working directory.
pub const DEFAULT_DATABASE_URL: &str = "sqlite:volplan.db";
/// Most connections served at once when nothing else is said.
pub const DEFAULT_MAX_CONNECTIONS: u32 = 1024;
/// Most connections from one client address when nothing else is said.
pub const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS: u32 = 256;

/// Settings of `volplan serve`; each flag also reads an environment variable.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(
    name = "volplan serve",
    after_help = "With no user in the database the server is single-user: it listens on \
                  the loopback address unless told otherwise, and binding to any other \
                  address (0.0.0.0, a LAN address) refuses to start without \
                  --allow-unauthenticated. Once a user exists (`volplan users add`) or \
                  --auth-proxy-header is set, every request needs a session, an API \
                  token or the proxy's header, and any address may be bound. Requests \
                  whose Host is not 127.0.0.1, localhost, [::1] or the bind address \
                  (with the port), a name in --allowed-hosts or the host of \
                  --public-url get 421."
)]
pub struct Config {
    /// Address and port to listen on. A non-loopback address needs a user (team mode),
    /// --auth-proxy-header or --allow-unauthenticated.
    #[arg(long, env = "VOLPLAN_BIND", default_value = DEFAULT_BIND, value_name = "ADDR:PORT")]
    pub bind: String,
    /// The database: SQLite as `sqlite:PATH`, `sqlite://PATH` or a plain file path
    /// (created on start), or PostgreSQL as `postgres://USER:PASSWORD@HOST:PORT/DB` (the
    /// database must exist; several instances may share it). Migrated on start.
    #[arg(long = "database-url", env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL, value_name = "URL")]
    pub database_url: String,
    /// More host names (comma-separated, `name` or `name:port`) that clients may use in
    /// the Host header; others get 421. A name without a port matches any port.
    #[arg(
        long = "allowed-hosts",
        env = "VOLPLAN_ALLOWED_HOSTS",
        value_delimiter = ',',
        value_name = "HOST[:PORT],..."
    )]
    pub allowed_hosts: Vec<String>,
    /// The URL users reach the server at (e.g. behind a reverse proxy,
    /// `https://volplan.example.com`): its host is allowed and its origin counts as the
    /// server's own for state-changing requests.
    #[arg(long = "public-url", env = "VOLPLAN_PUBLIC_URL", value_name = "URL")]
    pub public_url: Option<String>,
    /// Serve a non-loopback address with no user in the database: anyone who can reach
    /// the port can read, change and delete every scenario.
    #[arg(
        long = "allow-unauthenticated",
        env = "VOLPLAN_ALLOW_UNAUTHENTICATED",
        value_parser = clap::builder::BoolishValueParser::new(),
        action = clap::ArgAction::SetTrue
    )]
    pub allow_unauthenticated: bool,
    /// Most client connections served at once; more wait to be accepted.
    #[arg(long = "max-connections", env = "VOLPLAN_MAX_CONNECTIONS", default_value_t = DEFAULT_MAX_CONNECTIONS, value_parser = clap::value_parser!(u32).range(1..=1_000_000), value_name = "N")]
    pub max_connections: u32,
    /// Most connections from one client address, more are closed at once; of those
    /// still without their first request's headers after a second, a quarter at most.
    /// Behind a reverse proxy every client has the proxy's address: raise it to
    /// --max-connections.
    #[arg(long = "max-connections-per-address", env = "VOLPLAN_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, value_parser = clap::value_parser!(u32).range(1..=1_000_000), value_name = "N")]
    pub max_connections_per_address: u32,
    /// Most renders (page charts, charts, reports) at once, and uploads read at once
    /// (default: the number of cores, at most 4); more wait up to 20 s, then get 503.
    #[arg(long = "render-concurrency", env = "VOLPLAN_RENDER_CONCURRENCY", value_parser = clap::value_parser!(u32).range(1..=256), value_name = "N")]
    pub render_concurrency: Option<u32>,
    /// Log lines on standard error as `text` (for people) or `json` (one object per
    /// line, for a log collector).
    #[arg(long = "log-format", env = "VOLPLAN_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, value_name = "FORMAT")]
    pub log_format: LogFormat,
    /// Single sign-on: the request header in which a trusted reverse proxy names the
    /// logged-in user (e.g. `X-Forwarded-User`). Believed only from --auth-proxy-from.
    #[arg(
        long = "auth-proxy-header",
        env = "VOLPLAN_AUTH_PROXY_HEADER",
        value_name = "NAME"
    )]
    pub auth_proxy_header: Option<String>,
    /// The reverse proxies' IP addresses (comma-separated): the header is ignored from
    /// any other peer.
    #[arg(
        long = "auth-proxy-from",
        env = "VOLPLAN_AUTH_PROXY_FROM",
        value_delimiter = ',',
        value_name = "ADDR,..."
    )]
    pub auth_proxy_from: Vec<String>,
    /// The role of a proxy user who has no account: viewer, editor or admin. Without it
    /// such users get 403 until an admin adds them.
    #[arg(long = "auth-proxy-default-role", env = "VOLPLAN_AUTH_PROXY_DEFAULT_ROLE", value_parser = ["viewer", "editor", "admin"], value_name = "ROLE")]
    pub auth_proxy_default_role: Option<String>,
}

/// How `volplan serve` writes its log lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line (`timestamp`, `level`, `fields`, `target`, `span`s).
    Json,
}

/// Why the configuration cannot be served.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error(
        "refusing to listen on {0}: it is not a loopback address and the database has no \
         user, so anyone who reaches it could read, change and delete every scenario. Add \
         a user first (`volplan users add NAME --role admin`, the password on standard \
         input), set --auth-proxy-header, bind to 127.0.0.1 (the default), or pass \
         --allow-unauthenticated (VOLPLAN_ALLOW_UNAUTHENTICATED=true) if the network in \
         front of it is trusted"
    )]
    Unauthenticated(SocketAddr),
    #[error("--auth-proxy-header `{0}` is not a valid header name")]
    ProxyHeader(String),
    #[error("--auth-proxy-from entry `{0}` is not an IP address")]
    ProxyFrom(String),
    #[error(
        "--auth-proxy-header needs --auth-proxy-from: the addresses of the proxies whose \
         header is believed"
    )]
    ProxyWithoutAddresses,
    #[error("--public-url `{0}` is not an http:// or https:// URL with a host")]
    PublicUrl(String),
    #[error("--allowed-hosts entry `{0}` is not a host name or host:port")]
    AllowedHost(String),
}

impl Config {
    /// The configuration with no flags: environment variables, else the defaults.
    pub fn from_env() -> Self {
        Self::parse_from(["volplan serve"])
    }

    /// Checks that `addr` (where the server did bind) may be served with this
    /// configuration: a non-loopback address needs authentication (`authenticated`: a
    /// user exists or a proxy header is configured) or `--allow-unauthenticated`.
    pub fn check_exposure(&self, addr: SocketAddr, authenticated: bool) -> Result<(), ConfigError> {
        if !addr.ip().is_loopback() && !self.allow_unauthenticated && !authenticated {
            return Err(ConfigError::Unauthenticated(addr));
        }
        Ok(())
    }

    /// How a server bound to `addr` authenticates: the proxy header and its addresses,
    /// and whether the session cookie is `Secure` (an https public URL, or no public URL
    /// and a loopback address, which browsers treat as secure).
    pub fn auth_settings(&self, addr: SocketAddr) -> Result<AuthSettings, ConfigError> {
        let proxy_header = match self.auth_proxy_header.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(name) => Some(
                HeaderName::from_bytes(name.as_bytes())
                    .map_err(|_| ConfigError::ProxyHeader(name.to_owned()))?,
            ),
        };
        let proxy_from = self
            .auth_proxy_from
            .iter()
            .map(|a| a.trim())
            .filter(|a| !a.is_empty())
            .map(|a| {
                a.parse::<IpAddr>()
                    .map_err(|_| ConfigError::ProxyFrom(a.to_owned()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if proxy_header.is_some() && proxy_from.is_empty() {
            return Err(ConfigError::ProxyWithoutAddresses);
        }
        let secure_cookies = match self.public_origin()? {
            Some(origin) => origin.scheme == "https",
            None => addr.ip().is_loopback(),
        };
        Ok(AuthSettings {
            proxy_header,
            proxy_from,
            proxy_default_role: self
                .auth_proxy_default_role
                .as_deref()
                .and_then(Role::parse),
            open_without_users: addr.ip().is_loopback() || self.allow_unauthenticated,
            secure_cookies,
        })
    }

    /// The public URL's origin (`scheme://host[:port]`, lower case), if one is set.
    pub fn public_origin(&self) -> Result<Option<Origin>, ConfigError> {
        match self.public_url.as_deref().map(str::trim) {
            None | Some("") => Ok(None),
            Some(url) => Origin::parse(url)
                .map(Some)
                .ok_or_else(|| ConfigError::PublicUrl(url.to_owned())),
        }
    }

    /// The Host header values the server answers, for a server bound to `addr`.
    pub fn host_set(&self, addr: SocketAddr) -> Result<HostSet, ConfigError> {
        let mut set = HostSet::for_bind(addr);
        for entry in self.allowed_hosts.iter().map(|h| h.trim()) {
            if entry.is_empty() {
                continue;
            }
            let (name, port) =
                split_host(entry).ok_or_else(|| ConfigError::AllowedHost(entry.to_owned()))?;
            set.names
                .push((name, port.map_or(PortRule::Any, PortRule::Is)));
        }
        if let Some(origin) = self.public_origin()? {
            let rule = if origin.port == origin.default_port() {
                PortRule::IsOrNone(origin.port)
            } else {
                PortRule::Is(origin.port)
            };
            set.names.push((origin.host, rule));
        }
        Ok(set)
    }
}

/// A web origin: scheme, host and port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub scheme: String,
    /// Lower case; an IPv6 address keeps its brackets.
    pub host: String,
    pub port: u16,
}

impl Origin {
    /// Parses `http://host[:port][/path]` or `https://...` (without user or password);
    /// `None` for anything else.
    pub fn parse(url: &str) -> Option<Origin> {
        let url = Url::parse(url).ok()?;
        let scheme = url.scheme();
        if !matches!(scheme, "http" | "https")
            || !url.username().is_empty()
            || url.password().is_some()
        {
            return None;
        }
        Some(Origin {
            scheme: scheme.to_owned(),
            host: url.host_str()?.to_owned(),
            port: url.port_or_known_default()?,
        })
    }

    pub fn default_port(&self) -> u16 {
        if self.scheme == "https" { 443 } else { 80 }
    }
}

/// Splits `host[:port]` (`[::1]:8080` for IPv6) into a lower-case host and the port.
pub fn split_host(text: &str) -> Option<(String, Option<u16>)> {
    let text = text.trim();
    let (host, port) = if let Some(rest) = text.strip_prefix('[') {
        let (inner, after) = rest.split_once(']')?;
        inner.parse::<std::net::Ipv6Addr>().ok()?;
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':')?.parse().ok()?),
        };
        (format!("[{inner}]"), port)
    } else {
        match text.rsplit_once(':') {
            Some((h, p)) => (h.to_owned(), Some(p.parse().ok()?)),
            None => (text.to_owned(), None),
        }
    };
    let ok = !host.is_empty()
        && (host.starts_with('[')
            || host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b'_'));
    ok.then(|| (host.to_ascii_lowercase(), port))
}

/// The Host header values a server answers (everything else gets 421).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostSet {
    /// The port the server listens on.
    port: u16,
    /// Bound to 0.0.0.0 or [::]: any IP-address Host with the server's port is ours
    /// (an address cannot be rebound by DNS).
    any_ip: bool,
    /// Names (and addresses) with the port they must come with.
    names: Vec<(String, PortRule)>,
}

/// The port a Host header must name for a host name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PortRule {
    /// Any port, or none.
    Any,
    /// Exactly this port.
    Is(u16),
    /// This port, or none (the scheme's default).
    IsOrNone(u16),
}

impl HostSet {
    /// `localhost`, `127.0.0.1`, `[::1]` and the bound address, each with the port.
    pub fn for_bind(addr: SocketAddr) -> HostSet {
        let port = addr.port();
        let mut names: Vec<(String, PortRule)> = ["localhost", "127.0.0.1", "[::1]"]
            .iter()
            .map(|h| ((*h).to_owned(), PortRule::Is(port)))
            .collect();
        if !addr.ip().is_unspecified() {
            names.push((host_text(addr.ip()), PortRule::Is(port)));
        }
        HostSet {
            port,
            any_ip: addr.ip().is_unspecified(),
            names,
        }
    }

    /// Whether a request with this `Host` header value is for this server.
    /// The address the server is bound to, as a page names it (`127.0.0.1:8080`;
    /// `localhost:8080` when bound to every address).
    pub fn bound(&self) -> String {
        let name = self.names.get(3).map_or("localhost", |(n, _)| n.as_str());
        format!("{name}:{}", self.port)
    }

    pub fn allows(&self, host: &str) -> bool {
        let Some((name, port)) = split_host(host) else {
            return false;
        };
        let name = name.trim_end_matches('.').to_owned();
        if self.any_ip
            && port == Some(self.port)
            && name
                .trim_start_matches('[')
                .trim_end_matches(']')
                .parse::<IpAddr>()
                .is_ok()
        {
            return true;
        }
        self.names.iter().any(|(n, rule)| {
            *n == name
                && match *rule {
                    PortRule::Any => true,
                    PortRule::Is(p) => port == Some(p),
                    PortRule::IsOrNone(p) => port.is_none_or(|q| q == p),
                }
        })
    }
}

fn host_text(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
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
        assert!(!c.allow_unauthenticated);
        assert_eq!(c.max_connections, DEFAULT_MAX_CONNECTIONS);
        assert_eq!(c.log_format, LogFormat::Text);
        let c = Config::parse_from(["serve", "--log-format", "json"]);
        assert_eq!(c.log_format, LogFormat::Json);
        assert!(Config::try_parse_from(["serve", "--log-format", "xml"]).is_err());
    }

    #[test]
    fn non_loopback_needs_the_flag() {
        let c = Config::parse_from(["serve"]);
        let lan: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let lo: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        assert!(c.check_exposure(lo, false).is_ok());
        let e = c.check_exposure(lan, false).unwrap_err().to_string();
        assert!(e.contains("--allow-unauthenticated"), "{e}");
        assert!(e.contains("volplan users add"), "{e}");
        assert!(
            c.check_exposure(lan, true).is_ok(),
            "team mode may bind anywhere"
        );
        let c = Config::parse_from(["serve", "--allow-unauthenticated"]);
        assert!(c.check_exposure(lan, false).is_ok());
    }

    #[test]
    fn proxy_and_cookie_settings() {
        let lo: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let lan: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let a = Config::parse_from(["serve"]).auth_settings(lo).unwrap();
        assert!(a.secure_cookies && a.open_without_users && a.proxy_header.is_none());
        let a = Config::parse_from(["serve"]).auth_settings(lan).unwrap();
        assert!(!a.secure_cookies && !a.open_without_users);
        let c = Config::parse_from(["serve", "--public-url", "http://volplan.lan"]);
        assert!(!c.auth_settings(lo).unwrap().secure_cookies);
        let c = Config::parse_from(["serve", "--public-url", "https://volplan.example.com"]);
        assert!(c.auth_settings(lan).unwrap().secure_cookies);
        let c = Config::parse_from([
            "serve",
            "--auth-proxy-header",
            "X-Forwarded-User",
            "--auth-proxy-from",
            "10.0.0.5, ::1",
            "--auth-proxy-default-role",
            "viewer",
        ]);
        let a = c.auth_settings(lan).unwrap();
        assert_eq!(a.proxy_header.unwrap().as_str(), "x-forwarded-user");
        assert_eq!(a.proxy_from.len(), 2);
        assert_eq!(a.proxy_default_role, Some(Role::Viewer));
        let c = Config::parse_from(["serve", "--auth-proxy-header", "X-User"]);
        assert_eq!(
            c.auth_settings(lo).unwrap_err(),
            ConfigError::ProxyWithoutAddresses
        );
        let c = Config::parse_from([
            "serve",
            "--auth-proxy-header",
            "X-User",
            "--auth-proxy-from",
            "proxy",
        ]);
        assert!(matches!(
            c.auth_settings(lo),
            Err(ConfigError::ProxyFrom(_))
        ));
        assert!(Config::try_parse_from(["serve", "--auth-proxy-default-role", "root"]).is_err());
    }

    #[test]
    fn hosts_of_a_loopback_server() {
        let c = Config::parse_from([
            "serve",
            "--allowed-hosts",
            "plan.example.com,other.example:9000",
            "--public-url",
            "https://volplan.example.org/app",
        ]);
        let set = c.host_set("127.0.0.1:8080".parse().unwrap()).unwrap();
        for ok in [
            "localhost:8080",
            "LOCALHOST:8080",
            "127.0.0.1:8080",
            "[::1]:8080",
            "plan.example.com",
            "plan.example.com:1234",
            "other.example:9000",
            "volplan.example.org",
            "volplan.example.org:443",
        ] {
            assert!(set.allows(ok), "{ok}");
        }
        for bad in [
            "attacker.example:8080",
            "localhost:8081",
            "localhost",
            "other.example",
            "10.0.0.1:8080",
            "",
            "a b",
            "volplan.example.org:8443",
        ] {
            assert!(!set.allows(bad), "{bad}");
        }
    }

    #[test]
    fn any_address_bind_takes_ip_hosts() {
        let set = HostSet::for_bind("0.0.0.0:8080".parse().unwrap());
        assert!(set.allows("192.0.2.7:8080"));
        assert!(set.allows("[2001:db8::1]:8080"));
        assert!(!set.allows("192.0.2.7:9090"));
        assert!(!set.allows("rebind.example:8080"));
    }

    #[test]
    fn origins_parse() {
        assert_eq!(
            Origin::parse("http://localhost:8080"),
            Some(Origin {
                scheme: "http".into(),
                host: "localhost".into(),
                port: 8080
            })
        );
        assert_eq!(Origin::parse("https://x.example/").unwrap().port, 443);
        assert!(Origin::parse("null").is_none());
        assert!(Origin::parse("ftp://x").is_none());
        let bad = Config::parse_from(["serve", "--public-url", "volplan"]);
        assert!(bad.public_origin().is_err());
    }
}
