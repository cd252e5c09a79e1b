//! `az netappfiles` and `gcloud netapp` commands as a shell script: each command is a
//! list of words ([`az_commands`], [`gcloud_commands`]; the tests check their options
//! against the CLIs' lists) quoted with `shlex`, the unknowns left as shell variables.

use super::layout::{Layout, PoolSpec, VolumeSpec};
use super::terraform::{
    anf_level, anf_protocol, gcnv_level, gcnv_protocol, gib, has_nfs, header, mibps, nothing,
    pool_mibps,
};
use super::{ExportError, profile};
use crate::engine::scenario::{Level, Protocol, Qos, Service};

/// One command: its words, then `(option, value)` pairs (a value of `None` is a flag).
#[derive(Debug, Clone, PartialEq)]
pub struct Command {
    pub words: Vec<String>,
    pub options: Vec<(String, Option<Arg>)>,
}

/// An option's value: literal text (quoted) or a shell expression (written as is).
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Text(String),
    Shell(String),
}

fn text(s: impl Into<String>) -> Option<Arg> {
    Some(Arg::Text(s.into()))
}

fn shell(s: &str) -> Option<Arg> {
    Some(Arg::Shell(s.to_owned()))
}

fn cmd(words: &str, options: Vec<(&str, Option<Arg>)>) -> Command {
    Command {
        words: words.split(' ').map(str::to_owned).collect(),
        options: options
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
    }
}

/// The `az` commands of `layout`'s ANF pools.
pub fn az_commands(layout: &Layout) -> Result<Vec<Command>, ExportError> {
    let pools: Vec<&PoolSpec> = layout
        .pools
        .iter()
        .filter(|p| p.service == Service::Anf)
        .collect();
    if pools.is_empty() {
        return Err(ExportError(if layout.pools.is_empty() {
            nothing(layout)
        } else {
            "the az CLI deploys Azure NetApp Files and this plan has only Google Cloud NetApp Volumes pools: export gcloud".to_owned()
        }));
    }
    let account = super::layout::name(&layout.name, 60);
    let rg = || shell("\"$RESOURCE_GROUP\"");
    let loc = || shell("\"$LOCATION\"");
    let mut out = vec![cmd(
        "az netappfiles account create",
        vec![
            ("--resource-group", rg()),
            ("--location", loc()),
            ("--account-name", text(&account)),
        ],
    )];
    for p in pools {
        let mut pool = cmd(
            "az netappfiles pool create",
            vec![
                ("--resource-group", rg()),
                ("--location", loc()),
                ("--account-name", text(&account)),
                ("--pool-name", text(&p.name)),
                ("--size", text(format!("{}", p.size_tib.round() as u64))),
                ("--service-level", text(anf_level(p.level))),
                (
                    "--qos-type",
                    text(if p.qos == Qos::Manual || p.level == Level::Flexible {
                        "Manual"
                    } else {
                        "Auto"
                    }),
                ),
            ],
        );
        if let Some(m) = p.pool_mibps {
            pool.options.push((
                "--custom-throughput-mibps".to_owned(),
                text(pool_mibps(p, m).to_string()),
            ));
        }
        out.push(pool);
        for v in &p.volumes {
            out.push(az_volume(&account, p, v));
            if let Some(c) = v.avs_cluster {
                out.push(cmd(
                    "az vmware datastore netapp-volume create",
                    vec![
                        ("--name", text(&v.name)),
                        ("--resource-group", shell("\"$AVS_RESOURCE_GROUP\"")),
                        ("--private-cloud", shell("\"$AVS_PRIVATE_CLOUD\"")),
                        ("--cluster", shell(&format!("\"$AVS_CLUSTER_{}\"", c + 1))),
                        (
                            "--volume-id",
                            shell(&format!(
                                "\"/subscriptions/$SUBSCRIPTION_ID/resourceGroups/$RESOURCE_GROUP/providers/Microsoft.NetApp/netAppAccounts/{account}/capacityPools/{}/volumes/{}\"",
                                p.name, v.name
                            )),
                        ),
                    ],
                ));
            }
        }
    }
    Ok(out)
}

fn az_volume(account: &str, p: &PoolSpec, v: &VolumeSpec) -> Command {
    let mut c = cmd(
        "az netappfiles volume create",
        vec![
            ("--resource-group", shell("\"$RESOURCE_GROUP\"")),
            ("--location", shell("\"$LOCATION\"")),
            ("--account-name", text(account)),
            ("--pool-name", text(&p.name)),
            ("--volume-name", text(&v.name)),
            ("--service-level", text(anf_level(p.level))),
            ("--usage-threshold", text(gib(v.quota_tib).to_string())),
            ("--file-path", text(&v.name)),
            ("--vnet", shell("\"$VNET\"")),
            ("--subnet", shell("\"$SUBNET\"")),
            ("--protocol-types", text(anf_protocol(v.protocol))),
        ],
    );
    let mut add = |k: &str, a: Option<Arg>| c.options.push((k.to_owned(), a));
    if let Some(m) = v.mibps {
        add("--throughput-mibps", text(mibps(m).to_string()));
    }
    if v.kind.is_large() {
        add("--is-large-volume", text("true"));
    }
    if v.avs_cluster.is_some() {
        add("--avs-data-store", text("Enabled"));
    }
    if let Some(t) = &v.profile {
        add("--tags", text(format!("{}={t}", profile::TAG)));
    }
    if v.protocol != Protocol::Smb3 {
        // The export policy's first rule: the clients that mount it, read-write.
        add("--rule-index", text("1"));
        add("--allowed-clients", shell("\"$NFS_ALLOWED_CLIENTS\""));
        add("--unix-read-write", text("true"));
        add("--has-root-access", text("true"));
    }
    c
}

/// The `gcloud` commands of `layout`'s GCNV pools.
pub fn gcloud_commands(layout: &Layout) -> Result<Vec<Command>, ExportError> {
    let pools: Vec<&PoolSpec> = layout
        .pools
        .iter()
        .filter(|p| p.service == Service::Gcnv)
        .collect();
    if pools.is_empty() {
        return Err(ExportError(if layout.pools.is_empty() {
            nothing(layout)
        } else {
            "gcloud deploys Google Cloud NetApp Volumes and this plan has only Azure NetApp Files pools: export azcli, bicep or terraform".to_owned()
        }));
    }
    let loc = || shell("\"$GCP_LOCATION\"");
    let mut out = Vec::new();
    for p in pools {
        let mut pool = cmd("gcloud netapp storage-pools create", vec![]);
        pool.words.push(p.name.clone());
        pool.options = vec![
            ("--location".to_owned(), loc()),
            (
                "--service-level".to_owned(),
                text(gcnv_level(p.level).to_lowercase()),
            ),
            ("--capacity".to_owned(), text(gib(p.size_tib).to_string())),
            ("--network".to_owned(), shell("\"name=$GCP_NETWORK\"")),
        ];
        if p.qos == Qos::Manual {
            pool.options.push(("--qos-type".to_owned(), text("manual")));
        }
        out.push(pool);
        for v in &p.volumes {
            let mut c = cmd("gcloud netapp volumes create", vec![]);
            c.words.push(v.name.clone());
            let mut opts = vec![
                ("--location", loc()),
                ("--storage-pool", text(&p.name)),
                ("--capacity", text(gib(v.quota_tib).to_string())),
                (
                    "--protocols",
                    text(gcnv_protocol(v.protocol).to_lowercase()),
                ),
                ("--share-name", text(&v.name)),
            ];
            if let Some(m) = v.mibps {
                opts.push(("--throughput-mibps", text(mibps(m).to_string())));
            }
            if v.kind.is_large() {
                opts.push(("--large-capacity", text("true")));
            }
            if let Some(t) = &v.profile {
                opts.push(("--description", text(format!("{}: {t}", profile::TAG))));
            }
            if v.protocol != Protocol::Smb3 {
                // One rule, `;` between its keys so the clients keep their commas.
                let version = if v.protocol == Protocol::Nfsv3 {
                    "nfsv3"
                } else {
                    "nfsv4"
                };
                opts.push((
                    "--export-policy",
                    shell(&format!("\"^;^access-type=READ_WRITE;allowed-clients=$NFS_ALLOWED_CLIENTS;has-root-access=true;{version}=true\"")),
                ));
            }
            c.options = opts.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
            out.push(c);
        }
    }
    Ok(out)
}

/// A script: the plan in comments, the variables (`NAME="${NAME:-default}"` or
/// `NAME="${NAME:?what to set}"`), then the commands.
fn script(
    layout: &Layout,
    vars: &[(String, String)],
    commands: &[Command],
) -> Result<String, ExportError> {
    let mut out = String::from("#!/bin/sh\n");
    for line in header(layout) {
        out.push_str(&format!("# {line}\n"));
    }
    out.push_str("set -eu\n\n");
    for (var, value) in vars {
        out.push_str(&format!("{var}=\"${{{var}{value}}}\"\n"));
    }
    for c in commands {
        out.push('\n');
        let words: Result<Vec<String>, ExportError> = c.words.iter().map(|w| quote(w)).collect();
        out.push_str(&words?.join(" "));
        for (k, v) in &c.options {
            out.push_str(" \\\n  ");
            out.push_str(k);
            match v {
                Some(Arg::Text(t)) => {
                    out.push(' ');
                    out.push_str(&quote(t)?);
                }
                Some(Arg::Shell(s)) => {
                    out.push(' ');
                    out.push_str(s);
                }
                None => {}
            }
        }
        out.push('\n');
    }
    Ok(out)
}

fn quote(s: &str) -> Result<String, ExportError> {
    shlex::try_quote(s)
        .map(|q| q.into_owned())
        .map_err(|e| ExportError(format!("cannot quote {s:?} for the shell: {e}")))
}

fn required(var: &str, about: &str) -> (String, String) {
    (var.to_owned(), format!(":?set {about}"))
}

/// The `az` script.
pub fn azcli(layout: &Layout) -> Result<String, ExportError> {
    let commands = az_commands(layout)?;
    let mut vars = vec![
        required("RESOURCE_GROUP", "the resource group"),
        ("LOCATION".to_owned(), format!(":-{}", layout.region)),
        required("VNET", "the virtual network"),
        required("SUBNET", "the subnet delegated to Microsoft.NetApp/volumes"),
    ];
    if has_nfs(layout, &[Service::Anf]) {
        vars.push(required(
            "NFS_ALLOWED_CLIENTS",
            "the addresses or CIDRs of the NFS clients, comma-separated",
        ));
    }
    if layout.avs_clusters() > 0 {
        vars.push(required(
            "SUBSCRIPTION_ID",
            "the subscription of the NetApp account",
        ));
        vars.push(required(
            "AVS_RESOURCE_GROUP",
            "the resource group of the AVS private cloud",
        ));
        vars.push(required("AVS_PRIVATE_CLOUD", "the AVS private cloud"));
    }
    for c in 1..=layout.avs_clusters() {
        vars.push(required(
            &format!("AVS_CLUSTER_{c}"),
            &format!("AVS cluster {c}"),
        ));
    }
    script(layout, &vars, &commands)
}

/// The `gcloud` script.
pub fn gcloud(layout: &Layout) -> Result<String, ExportError> {
    let commands = gcloud_commands(layout)?;
    let vars = [
        (
            "GCP_LOCATION".to_owned(),
            format!(":-{}", layout.gcp_region),
        ),
        required("GCP_NETWORK", "the VPC network peered with NetApp Volumes"),
    ];
    let mut vars = vars.to_vec();
    if has_nfs(layout, &[Service::Gcnv]) {
        vars.push(required(
            "NFS_ALLOWED_CLIENTS",
            "the addresses or CIDRs of the NFS clients, comma-separated",
        ));
    }
    script(layout, &vars, &commands)
}
