//! Bicep that deploys the ANF pools through the Azure Verified Module for NetApp
//! accounts (`avm/res/net-app/net-app-account`): the module's parameters are built as
//! JSON ([`params`], which the tests check against the module's parameter list) and
//! printed as a Bicep object. No crate writes Bicep, so the printer is here: strings in
//! single quotes with `\` and `'` escaped and `${` kept literal.

use super::layout::Layout;
use super::terraform::{anf_level, anf_protocol, gib, has_nfs, header, mibps, nothing};
use super::{ExportError, profile};
use crate::engine::scenario::{Level, Protocol, Qos, Service};
use serde_json::{Value, json};

/// The module version the parameters follow (its CHANGELOG: 0.12.3).
pub const MODULE: &str = "br/public:avm/res/net-app/net-app-account:0.12.3";

/// A string value printed as a reference to the Bicep parameter of that name.
pub const REF: &str = "\u{0}param:";

/// Bicep for `layout`'s ANF pools.
pub fn write(layout: &Layout) -> Result<String, ExportError> {
    let params = params(layout)?;
    let mut out = String::new();
    for line in header(layout) {
        out.push_str(&format!("// {line}\n"));
    }
    for p in layout.pools.iter().filter(|p| p.service == Service::Gcnv) {
        out.push_str(&format!(
            "// Left out: {} is a Google Cloud NetApp Volumes pool (export gcloud or terraform).\n",
            p.name
        ));
    }
    out.push_str("\ntargetScope = 'resourceGroup'\n\n");
    out.push_str("@description('Azure region of the NetApp account, pools and volumes')\n");
    out.push_str(&format!(
        "param location string = {}\n\n",
        string(&layout.region)
    ));
    out.push_str(
        "@description('Resource ID of a subnet delegated to Microsoft.NetApp/volumes')\nparam subnetResourceId string\n\n",
    );
    // The module (0.12.3) passes -1 on to Azure as zone "-1" rather than no zone, so the
    // zone is the deployer's choice.
    out.push_str(
        "@description('Availability zone of the volumes: 1, 2 or 3 (-1, meant as no zone, reaches Azure as zone -1 in module 0.12.3)')\n@allowed([\n  -1\n  1\n  2\n  3\n])\nparam availabilityZone int\n\n",
    );
    if has_nfs(layout, &[Service::Anf]) {
        out.push_str(
            "@description('Addresses or CIDRs of the clients that mount the NFS volumes, comma-separated (their export policy)')\nparam nfsAllowedClients string\n\n",
        );
    }
    out.push_str(&format!(
        "module netAppAccount '{MODULE}' = {{\n  name: 'netAppAccount'\n  params: "
    ));
    print(&mut out, &params, 1);
    out.push_str("\n}\n");
    Ok(out)
}

/// The module's parameters: the account, its capacity pools and their volumes.
pub fn params(layout: &Layout) -> Result<Value, ExportError> {
    let anf: Vec<_> = layout
        .pools
        .iter()
        .filter(|p| p.service == Service::Anf)
        .collect();
    if anf.is_empty() {
        return Err(ExportError(if layout.pools.is_empty() {
            nothing(layout)
        } else {
            "Bicep deploys Azure NetApp Files and this plan has only Google Cloud NetApp Volumes pools: export gcloud or terraform".to_owned()
        }));
    }
    if let Some(p) = anf.iter().find(|p| p.level == Level::Flexible) {
        return Err(ExportError(format!(
            "pool {} is Flexible, which the Azure Verified Module ({MODULE}) does not offer: export terraform instead",
            p.name
        )));
    }
    let pools: Vec<Value> = anf
        .iter()
        .map(|p| {
            let volumes: Vec<Value> = p
                .volumes
                .iter()
                .map(|v| {
                    let mut vol = json!({
                        "name": v.name,
                        "availabilityZone": format!("{REF}availabilityZone"),
                        "serviceLevel": anf_level(p.level),
                        "creationToken": v.name,
                        "usageThreshold": gib(v.quota_tib) * (1 << 30),
                        "protocolTypes": [anf_protocol(v.protocol)],
                        "subnetResourceId": format!("{REF}subnetResourceId"),
                    });
                    if let Some(m) = v.mibps {
                        // The module takes whole MiB/s; the plan's figure rounded down
                        // never assigns more than the pool's budget.
                        vol["throughputMibps"] = json!(mibps(m).floor() as u64);
                    }
                    if v.kind.is_large() {
                        vol["isLargeVolume"] = json!(true);
                    }
                    if let Some(t) = &v.profile {
                        vol["tags"] = json!({ profile::TAG: t });
                    }
                    if v.protocol != Protocol::Smb3 {
                        vol["exportPolicy"] = export_policy(v.protocol);
                    }
                    vol
                })
                .collect();
            json!({
                "name": p.name,
                "serviceLevel": anf_level(p.level),
                "size": p.size_tib.round() as u64,
                "qosType": if p.qos == Qos::Manual { "Manual" } else { "Auto" },
                "volumes": volumes,
            })
        })
        .collect();
    Ok(json!({
        "name": super::layout::name(&layout.name, 60),
        "location": format!("{REF}location"),
        "capacityPools": pools,
    }))
}

/// An NFS volume's export policy: one rule, the clients of `nfsAllowedClients`
/// read-write with root access over the volume's protocol (the module requires every
/// protocol and Kerberos flag of a rule).
fn export_policy(p: Protocol) -> Value {
    json!({"rules": [{
        "ruleIndex": 1,
        "allowedClients": format!("{REF}nfsAllowedClients"),
        "nfsv3": p == Protocol::Nfsv3,
        "nfsv41": p == Protocol::Nfsv41,
        "unixReadOnly": false,
        "unixReadWrite": true,
        "hasRootAccess": true,
        "kerberos5ReadOnly": false,
        "kerberos5ReadWrite": false,
        "kerberos5iReadOnly": false,
        "kerberos5iReadWrite": false,
        "kerberos5pReadOnly": false,
        "kerberos5pReadWrite": false,
    }]})
}

/// A Bicep string literal.
fn string(s: &str) -> String {
    let escaped = s
        .replace('\\', "\\\\")
        .replace('\'', "\\'")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
        .replace('\t', "\\t")
        .replace("${", "\\${");
    format!("'{escaped}'")
}

/// Whether `k` can be written as a bare object key.
fn bare(k: &str) -> bool {
    k.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn print(out: &mut String, v: &Value, depth: usize) {
    let pad = "  ".repeat(depth + 1);
    let end = "  ".repeat(depth);
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => match s.strip_prefix(REF) {
            Some(param) => out.push_str(param),
            None => out.push_str(&string(s)),
        },
        Value::Array(items) => {
            out.push_str("[\n");
            for item in items {
                out.push_str(&pad);
                print(out, item, depth + 1);
                out.push('\n');
            }
            out.push_str(&end);
            out.push(']');
        }
        Value::Object(map) => {
            out.push_str("{\n");
            for (k, item) in map {
                out.push_str(&pad);
                if bare(k) {
                    out.push_str(k);
                } else {
                    out.push_str(&string(k));
                }
                out.push_str(": ");
                print(out, item, depth + 1);
                out.push('\n');
            }
            out.push_str(&end);
            out.push('}');
        }
    }
}
