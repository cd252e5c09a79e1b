//! Terraform HCL for the `azurerm` and `google` providers, built as `hcl-rs` blocks
//! and printed by its formatter (comments, which `hcl-rs` bodies do not hold, go
//! between the blocks).

use super::layout::{Layout, PoolSpec, VolumeSpec};
use super::{ExportError, profile};
use crate::engine::scenario::{Level, Protocol, Qos, Service};
use hcl::{Block, Body, Expression};

/// Terraform for `layout`.
pub fn write(layout: &Layout) -> Result<String, ExportError> {
    if layout.pools.is_empty() {
        return Err(ExportError(nothing(layout)));
    }
    let mut out = String::new();
    for line in header(layout) {
        out.push_str(&format!("# {line}\n"));
    }
    out.push('\n');
    let mut blocks = vec![providers(layout)];
    if layout.has(Service::Anf) {
        // azurerm requires its `features` block.
        blocks.push(
            Block::builder("provider")
                .add_label("azurerm")
                .add_block(Block::builder("features").build())
                .build(),
        );
    }
    blocks.extend(variables(layout));
    if layout.has(Service::Anf) {
        blocks.push(subnet());
        blocks.push(
            Block::builder("resource")
                .add_labels(["azurerm_netapp_account", "account"])
                .add_attribute(("name", super::layout::name(&layout.name, 60)))
                .add_attribute(("location", var("location")))
                .add_attribute(("resource_group_name", var("resource_group_name")))
                .build(),
        );
    }
    for b in blocks {
        push(&mut out, &[], b)?;
    }
    for pool in &layout.pools {
        let about = pool_comment(layout, pool);
        match pool.service {
            Service::Anf => {
                push(&mut out, &about, anf_pool(pool))?;
                for v in &pool.volumes {
                    push(&mut out, &[], anf_volume(pool, v))?;
                    if let Some(c) = v.avs_cluster {
                        push(&mut out, &[], attachment(v, c))?;
                    }
                }
            }
            Service::Gcnv => {
                push(&mut out, &about, gcnv_pool(pool))?;
                for v in &pool.volumes {
                    push(&mut out, &[], gcnv_volume(pool, v))?;
                }
            }
            Service::AzureFiles => {}
        }
    }
    Ok(out)
}

/// What a file says first: the plan it comes from and what it leaves out.
pub fn header(layout: &Layout) -> Vec<String> {
    let mut lines = vec![
        format!("{}: written by volplan from {}.", layout.name, layout.source),
        "Pools, volumes, quotas and each volume's throughput are the plan's; the network and resource group are variables.".to_owned(),
    ];
    lines.extend(layout.left_out.iter().map(|l| format!("Left out: {l}.")));
    lines
}

/// The message when a layout has no pool to write.
pub fn nothing(layout: &Layout) -> String {
    match layout.left_out.first() {
        Some(why) => format!("nothing to write as code: {why}"),
        None => "nothing to write as code: the plan has no pools".to_owned(),
    }
}

fn pool_comment(layout: &Layout, p: &PoolSpec) -> Vec<String> {
    let qos = match (p.level, p.qos) {
        (Level::Flexible, _) => "Flexible",
        (_, Qos::Manual) => "manual QoS",
        (_, Qos::Auto) => "auto QoS",
    };
    vec![format!(
        "{}: {} volumes, {qos}, as planned in {}.",
        p.name,
        p.volumes.len(),
        layout.source
    )]
}

fn push(out: &mut String, comments: &[String], block: Block) -> Result<(), ExportError> {
    for c in comments {
        out.push_str(&format!("# {c}\n"));
    }
    let body = Body::builder().add_block(block).build();
    let text = hcl::to_string(&body).map_err(|e| ExportError(format!("cannot write HCL: {e}")))?;
    // One blank line after each block, whether it ends with a nested block or not.
    out.push_str(text.trim_end());
    out.push_str("\n\n");
    Ok(())
}

/// An expression such as `var.location`.
fn expr(text: &str) -> Expression {
    text.parse()
        .unwrap_or_else(|e| panic!("{text} is a fixed, valid HCL expression: {e}"))
}

fn var(name: &str) -> Expression {
    expr(&format!("var.{name}"))
}

/// A resource label: the name with underscores.
pub fn label(name: &str) -> String {
    name.replace('-', "_")
}

fn providers(layout: &Layout) -> Block {
    let mut req = Block::builder("required_providers");
    if layout.has(Service::Anf) {
        req = req.add_attribute(("azurerm", expr(r#"{ source = "hashicorp/azurerm" }"#)));
    }
    if layout.has(Service::Gcnv) {
        req = req.add_attribute(("google", expr(r#"{ source = "hashicorp/google" }"#)));
    }
    Block::builder("terraform").add_block(req.build()).build()
}

fn variable(name: &str, about: &str, default: Option<Expression>) -> Block {
    let mut b = Block::builder("variable")
        .add_label(name)
        .add_attribute(("type", expr("string")))
        .add_attribute(("description", about));
    if let Some(d) = default {
        b = b.add_attribute(("default", d));
    }
    b.build()
}

fn variables(layout: &Layout) -> Vec<Block> {
    let mut out = Vec::new();
    if layout.has(Service::Anf) {
        out.push(variable(
            "resource_group_name",
            "Resource group of the NetApp account",
            None,
        ));
        out.push(variable(
            "location",
            "Azure region of the NetApp account, pools and volumes",
            Some(layout.region.clone().into()),
        ));
        out.push(variable(
            "virtual_network_name",
            "Virtual network the volumes join",
            None,
        ));
        out.push(variable(
            "subnet_name",
            "Subnet delegated to Microsoft.NetApp/volumes",
            None,
        ));
        out.push(variable(
            "network_resource_group_name",
            "Resource group of the virtual network",
            None,
        ));
    }
    if layout.avs_clusters() > 0 {
        out.push(
            Block::builder("variable")
                .add_label("vmware_cluster_ids")
                .add_attribute(("type", expr("list(string)")))
                .add_attribute((
                    "description",
                    "Resource IDs of the AVS clusters that mount the datastores, in the plan's cluster order",
                ))
                .build(),
        );
    }
    if has_nfs(layout, &[Service::Anf, Service::Gcnv]) {
        out.push(
            Block::builder("variable")
                .add_label("nfs_allowed_clients")
                .add_attribute(("type", expr("list(string)")))
                .add_attribute((
                    "description",
                    "Addresses or CIDRs of the clients that mount the NFS volumes (their export policy)",
                ))
                .build(),
        );
    }
    if layout.has(Service::Gcnv) {
        out.push(variable(
            "gcp_location",
            "Google Cloud region of the storage pools and volumes",
            Some(layout.gcp_region.clone().into()),
        ));
        out.push(variable(
            "gcp_network",
            "VPC network peered with NetApp Volumes: projects/PROJECT/global/networks/NETWORK",
            None,
        ));
    }
    out
}

fn subnet() -> Block {
    Block::builder("data")
        .add_labels(["azurerm_subnet", "netapp"])
        .add_attribute(("name", var("subnet_name")))
        .add_attribute(("virtual_network_name", var("virtual_network_name")))
        .add_attribute(("resource_group_name", var("network_resource_group_name")))
        .build()
}

/// ANF's name of a level.
pub fn anf_level(l: Level) -> &'static str {
    match l {
        Level::Standard => "Standard",
        Level::Premium => "Premium",
        Level::Ultra => "Ultra",
        _ => "Flexible",
    }
}

/// GCNV's name of a level.
pub fn gcnv_level(l: Level) -> &'static str {
    match l {
        Level::Flex => "FLEX",
        Level::Standard => "STANDARD",
        Level::Premium => "PREMIUM",
        _ => "EXTREME",
    }
}

/// ANF's name of a protocol.
pub fn anf_protocol(p: Protocol) -> &'static str {
    match p {
        Protocol::Nfsv3 => "NFSv3",
        Protocol::Nfsv41 => "NFSv4.1",
        Protocol::Smb3 => "CIFS",
    }
}

/// GCNV's name of a protocol.
pub fn gcnv_protocol(p: Protocol) -> &'static str {
    match p {
        Protocol::Nfsv3 => "NFSV3",
        Protocol::Nfsv41 => "NFSV4",
        Protocol::Smb3 => "SMB",
    }
}

/// Whole GiB for a quota in TiB (rounded up: never less than planned).
pub fn gib(tib: f64) -> u64 {
    // Quotas are at most 3 PiB: the product fits u64 exactly.
    ((tib * 1024.0) - 1e-6).ceil().max(1.0) as u64
}

/// A throughput as written: to 0.01 MiB/s.
pub fn mibps(m: f64) -> f64 {
    (m * 100.0).round() / 100.0
}

/// A Flexible pool's throughput `m` as the providers take it: whole MiB/s, rounded up
/// and at least what its volumes are written with.
pub fn pool_mibps(p: &PoolSpec, m: f64) -> u64 {
    let volumes: f64 = p.volumes.iter().filter_map(|v| v.mibps).map(mibps).sum();
    // Pool throughputs are at most a few 10,000 MiB/s: the value fits u64 exactly.
    (m.max(volumes) - 1e-6).ceil().max(0.0) as u64
}

/// Whether any volume of `layout` on `services` is mounted over NFS (and so needs an
/// export policy).
pub fn has_nfs(layout: &Layout, services: &[Service]) -> bool {
    layout
        .pools
        .iter()
        .filter(|p| services.contains(&p.service))
        .flat_map(|p| &p.volumes)
        .any(|v| v.protocol != Protocol::Smb3)
}

fn anf_pool(p: &PoolSpec) -> Block {
    let mut b = Block::builder("resource")
        .add_labels(["azurerm_netapp_pool", &label(&p.name)])
        .add_attribute(("name", p.name.as_str()))
        .add_attribute(("location", var("location")))
        .add_attribute(("resource_group_name", var("resource_group_name")))
        .add_attribute(("account_name", expr("azurerm_netapp_account.account.name")))
        .add_attribute(("service_level", anf_level(p.level)))
        .add_attribute(("size_in_tb", p.size_tib.round() as u64))
        .add_attribute((
            "qos_type",
            if p.qos == Qos::Manual || p.level == Level::Flexible {
                "Manual"
            } else {
                "Auto"
            },
        ));
    if let Some(m) = p.pool_mibps {
        b = b.add_attribute(("custom_throughput_mibps", pool_mibps(p, m)));
    }
    b.build()
}

fn tags(v: &VolumeSpec) -> Option<Expression> {
    let p = v.profile.as_ref()?;
    let mut obj = hcl::Object::new();
    obj.insert(
        hcl::ObjectKey::Expression(profile::TAG.into()),
        Expression::from(p.as_str()),
    );
    Some(Expression::Object(obj))
}

fn anf_volume(p: &PoolSpec, v: &VolumeSpec) -> Block {
    let mut b = Block::builder("resource")
        .add_labels(["azurerm_netapp_volume", &label(&v.name)])
        .add_attribute(("name", v.name.as_str()))
        .add_attribute(("location", var("location")))
        .add_attribute(("resource_group_name", var("resource_group_name")))
        .add_attribute(("account_name", expr("azurerm_netapp_account.account.name")))
        .add_attribute((
            "pool_name",
            expr(&format!("azurerm_netapp_pool.{}.name", label(&p.name))),
        ))
        .add_attribute(("volume_path", v.name.as_str()))
        .add_attribute(("service_level", anf_level(p.level)))
        .add_attribute(("subnet_id", expr("data.azurerm_subnet.netapp.id")))
        .add_attribute((
            "protocols",
            Expression::Array(vec![anf_protocol(v.protocol).into()]),
        ))
        .add_attribute(("storage_quota_in_gb", gib(v.quota_tib)));
    if let Some(m) = v.mibps {
        b = b.add_attribute(("throughput_in_mibps", mibps(m)));
    }
    if v.kind.is_large() {
        b = b.add_attribute(("large_volume_enabled", true));
    }
    if v.avs_cluster.is_some() {
        b = b.add_attribute(("azure_vmware_data_store_enabled", true));
    }
    if let Some(t) = tags(v) {
        b = b.add_attribute(("tags", t));
    }
    if v.protocol != Protocol::Smb3 {
        b = b.add_block(
            Block::builder("export_policy_rule")
                .add_attribute(("rule_index", 1))
                .add_attribute(("allowed_clients", var("nfs_allowed_clients")))
                .add_attribute((
                    "protocol",
                    Expression::Array(vec![anf_protocol(v.protocol).into()]),
                ))
                .add_attribute(("unix_read_write", true))
                .add_attribute(("root_access_enabled", true))
                .build(),
        );
    }
    b.build()
}

fn attachment(v: &VolumeSpec, cluster: u32) -> Block {
    Block::builder("resource")
        .add_labels(["azurerm_vmware_netapp_volume_attachment", &label(&v.name)])
        .add_attribute(("name", v.name.as_str()))
        .add_attribute((
            "netapp_volume_id",
            expr(&format!("azurerm_netapp_volume.{}.id", label(&v.name))),
        ))
        .add_attribute((
            "vmware_cluster_id",
            expr(&format!("var.vmware_cluster_ids[{cluster}]")),
        ))
        .build()
}

fn gcnv_pool(p: &PoolSpec) -> Block {
    let mut b = Block::builder("resource")
        .add_labels(["google_netapp_storage_pool", &label(&p.name)])
        .add_attribute(("name", p.name.as_str()))
        .add_attribute(("location", var("gcp_location")))
        .add_attribute(("service_level", gcnv_level(p.level)))
        .add_attribute(("capacity_gib", gib(p.size_tib)))
        .add_attribute(("network", var("gcp_network")));
    if p.qos == Qos::Manual {
        b = b.add_attribute(("qos_type", "MANUAL"));
    }
    b.build()
}

fn gcnv_volume(p: &PoolSpec, v: &VolumeSpec) -> Block {
    let mut b = Block::builder("resource")
        .add_labels(["google_netapp_volume", &label(&v.name)])
        .add_attribute(("name", v.name.as_str()))
        .add_attribute(("location", var("gcp_location")))
        .add_attribute((
            "storage_pool",
            expr(&format!(
                "google_netapp_storage_pool.{}.name",
                label(&p.name)
            )),
        ))
        .add_attribute(("capacity_gib", gib(v.quota_tib)))
        .add_attribute(("share_name", v.name.as_str()))
        .add_attribute((
            "protocols",
            Expression::Array(vec![gcnv_protocol(v.protocol).into()]),
        ));
    if let Some(m) = v.mibps {
        b = b.add_attribute(("throughput_mibps", mibps(m)));
    }
    if v.kind.is_large() {
        b = b.add_attribute(("large_capacity", true));
    }
    if let Some(p) = &v.profile {
        b = b.add_attribute(("description", format!("{}: {p}", profile::TAG)));
    }
    if v.protocol != Protocol::Smb3 {
        let version = if v.protocol == Protocol::Nfsv3 {
            "nfsv3"
        } else {
            "nfsv4"
        };
        let rule = Block::builder("rules")
            .add_attribute((
                "allowed_clients",
                expr("join(\",\", var.nfs_allowed_clients)"),
            ))
            .add_attribute(("access_type", "READ_WRITE"))
            .add_attribute(("has_root_access", "true"))
            .add_attribute((version, true))
            .build();
        b = b.add_block(Block::builder("export_policy").add_block(rule).build());
    }
    b.build()
}
