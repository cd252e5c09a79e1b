//! The benchmark that verifies a scenario: a fio job file (Linux, NFS) or a DiskSpd command
//! line (Windows, SMB), with the mount options to use. The result imports back into volplan
//! (`volplan import`, or the planner's drop zone) for measured against predicted.
//!
//! The job keeps the scenario's concurrency exactly: fio runs `threads` clones of one job
//! with `iodepth = queue_depth`, spread over the volumes (fio assigns a `:`-separated
//! directory list round-robin to the clones); DiskSpd runs the threads per target file.

use crate::engine::evaluate;
use crate::engine::scenario::{
    Access, Files, NfsClient, Placement, Protocol, Scenario, Sec, Service, SmbSecurity,
};
use crate::engine::source::Source;
use serde::{Deserialize, Serialize};

/// The benchmark tool of a test plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlanTool {
    /// fio job file, for Linux clients (NFS).
    Fio,
    /// DiskSpd command line, for Windows clients (SMB).
    Diskspd,
}

impl PlanTool {
    /// File name to save the plan under.
    pub fn file_name(self) -> &'static str {
        match self {
            PlanTool::Fio => "volplan-test.fio",
            PlanTool::Diskspd => "volplan-test.ps1",
        }
    }
}

/// Seconds of measurement after the warm-up.
pub const RUNTIME_S: u32 = 120;
/// Seconds of warm-up that are not measured.
pub const WARMUP_S: u32 = 15;

/// Whose words a plan is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Voice {
    /// volplan's: its name on the mount points, job and files, and the step that
    /// imports the result back into it.
    Volplan,
    /// A customer's copy: speaks of the sizing, not of the tool that made it, names its
    /// mount points, job and files `bench`, and has no import step.
    Neutral,
}

impl Voice {
    /// The name of the mount points, the job and its files.
    fn name(self) -> &'static str {
        match self {
            Voice::Volplan => "volplan",
            Voice::Neutral => "bench",
        }
    }

    /// Who predicts the figures.
    fn predictor(self) -> &'static str {
        match self {
            Voice::Volplan => "volplan",
            Voice::Neutral => "the sizing",
        }
    }

    /// The plan's first line, before the scenario's name.
    fn title(self) -> &'static str {
        match self {
            Voice::Volplan => "# volplan test plan for",
            Voice::Neutral => "# Test plan for",
        }
    }
}

/// The test plan for `tool` as text, in volplan's words.
pub fn plan(s: &Scenario, tool: PlanTool) -> String {
    plan_in(s, tool, Voice::Volplan)
}

/// The test plan for `tool` as text, in `voice`'s words.
pub fn plan_in(s: &Scenario, tool: PlanTool, voice: Voice) -> String {
    match tool {
        PlanTool::Fio => fio_job_in(s, voice),
        PlanTool::Diskspd => diskspd_script_in(s, voice),
    }
}

/// Total volumes of the scenario.
fn volume_count(s: &Scenario) -> u32 {
    s.storage
        .volumes
        .iter()
        .map(|v| v.count)
        .fold(0u32, u32::saturating_add)
        .max(1)
}

/// The mount point of volume `i` (1-based) on Linux.
fn mount_point(i: u32, voice: Voice) -> String {
    format!("/mnt/{}{i}", voice.name())
}

/// Block size as fio and DiskSpd write it: `64k`, or bytes when not a whole KiB.
fn block_size(kib: f64) -> String {
    if kib.fract() == 0.0 {
        format!("{}k", kib as u64)
    } else {
        format!("{}", (kib * 1024.0).round() as u64)
    }
}

/// File size per job in GiB: half the capacity spread over all jobs, 1..64 GiB, so the
/// working set is real but the files fit.
fn file_gib(s: &Scenario) -> u64 {
    let jobs = f64::from(s.workload.threads) * f64::from(s.clients.count.max(1));
    let gib = s.workload.capacity_tib * 1024.0 * 0.5 / jobs.max(1.0);
    gib.floor().clamp(1.0, 64.0) as u64
}

/// Mount options for one volume of the scenario, as `mount -o` takes them.
///
/// With Oracle Direct NFS the kernel mounts stay (the database finds its files through
/// them) with the options of the published ANF Oracle tests and Oracle's datafile
/// options, and without nconnect: Direct NFS opens its own connections.
pub fn mount_options(s: &Scenario) -> String {
    let c = &s.clients;
    let vers = match c.protocol {
        Protocol::Nfsv3 => "vers=3",
        Protocol::Nfsv41 => "vers=4.1",
        Protocol::Smb3 => return smb_mount_options(s),
    };
    let dnfs = c.nfs_client == NfsClient::Dnfs;
    let mut o = if dnfs {
        vec!["rw", "bg", "hard", vers, "proto=tcp"]
    } else {
        vec!["rw", "hard", vers, "proto=tcp"]
    };
    if s.storage.service != Service::AzureFiles {
        o.push("rsize=262144");
        o.push("wsize=262144");
    }
    let sec = format!("sec={}", c.sec.key());
    if c.protocol == Protocol::Nfsv41 || c.sec != Sec::Sys {
        o.push(&sec);
    }
    if dnfs {
        o.push("actimeo=0");
        o.push("timeo=600");
    }
    let mut out = o.join(",");
    if c.nconnect > 1 && !dnfs {
        out.push_str(&format!(",nconnect={}", c.nconnect));
    }
    out
}

/// Where the mount options of an Oracle Direct NFS plan come from.
pub const DNFS_MOUNT_SOURCE: Source =
    Source::documented("LEARN-ANF/performance-oracle-multiple-volumes")
        .dated("05/04/2023")
        .section("all volumes mounted rw,hard,rsize=262144,wsize=262144,sec=sys,vers=3,tcp; Oracle's options for datafiles on NFS add bg, actimeo=0 and timeo=600");

/// How to switch Direct NFS on (LEARN-ANF solutions-benefits-azure-netapp-files-oracle-database).
pub const DNFS_ENABLE: &str = "cd $ORACLE_HOME/rdbms/lib && make -f ins_rdbms.mk dnfs_on";

/// An `oranfstab` for the scenario's volumes: one `server` entry per storage endpoint
/// (ANF gives each volume its mount IP address; volumes that share an address go under
/// one entry), its `path`, the NFS version and security, and one `export`/`mount` pair
/// per volume, the mount being the kernel mount point of the same volume.
/// `names(i)` gives volume i's (1-based) endpoint address, export path and mount point.
pub fn oranfstab(s: &Scenario, names: impl Fn(u32) -> (String, String, String)) -> String {
    let volumes = volume_count(s);
    let version = match s.clients.protocol {
        Protocol::Nfsv41 => "nfsv4.1",
        _ => "nfsv3",
    };
    let mut t = String::new();
    for i in 1..=volumes.min(MAX_ORANFSTAB_ENTRIES) {
        let (path, export, mount) = names(i);
        t.push_str(&format!("server: anf-endpoint-{i}\n"));
        t.push_str(&format!("path: {path}\n"));
        t.push_str(&format!("nfs_version: {version}\n"));
        if s.clients.sec != Sec::Sys {
            t.push_str(&format!("security_default: {}\n", s.clients.sec.key()));
        }
        t.push_str(&format!("export: {export} mount: {mount}\n"));
        t.push('\n');
    }
    if volumes > MAX_ORANFSTAB_ENTRIES {
        t.push_str(&format!("# ... likewise up to volume {volumes}\n"));
    }
    t
}

/// Volumes written out in full in an `oranfstab` example.
const MAX_ORANFSTAB_ENTRIES: u32 = 16;

fn smb_mount_options(s: &Scenario) -> String {
    let channels = if s.clients.smb_multichannel {
        format!(
            "SMB 3 with multichannel on ({} channels): Set-SmbClientConfiguration -EnableMultiChannel $true; check with Get-SmbMultichannelConnection",
            s.clients.smb_channels
        )
    } else {
        "SMB 3, multichannel off as planned (one channel per share)".to_owned()
    };
    match s.clients.smb_security {
        SmbSecurity::None => channels,
        SmbSecurity::Signing => format!(
            "{channels}. SMB signing as planned: Set-SmbClientConfiguration -RequireSecuritySignature $true; check that Get-SmbConnection shows Signed True"
        ),
        SmbSecurity::Encryption => format!(
            "{channels}. SMB encryption as planned: turn on SMB3 encryption for the share (on ANF the volume's SMB3 protocol encryption setting); check that Get-SmbConnection shows Encrypted True"
        ),
    }
}

/// The expected result, as a comment line, when the scenario evaluates. Throughput does
/// not depend on prices, so the scenario is evaluated in the compiled book's currency
/// (its own may be priced only by prices stored in the database).
fn expectation(s: &Scenario, prefix: &str, voice: Voice) -> String {
    let unpriced = Scenario {
        pricing: Default::default(),
        ..s.clone()
    };
    match evaluate(&unpriced) {
        Ok(ev) => {
            let name = ev
                .limits
                .iter()
                .find(|l| l.id == ev.binding)
                .map_or(ev.binding, |l| l.label.name);
            format!(
                "{prefix} {} predicts {:.0} MiB/s ({:.0} IOPS) in total, bound by {name}.\n",
                voice.predictor(),
                ev.throughput_mibps,
                ev.iops
            )
        }
        Err(e) => format!(
            "{prefix} {} cannot predict this scenario yet: {e}\n",
            voice.predictor()
        ),
    }
}

/// The fio `rw=` value and, for mixes, `rwmixread=`.
fn fio_rw(s: &Scenario) -> (String, Option<u32>) {
    let r = s.workload.read_pct.round().clamp(0.0, 100.0) as u32;
    let random = s.workload.access == Access::Random;
    let rw = match (r, random) {
        (100, false) => "read",
        (100, true) => "randread",
        (0, false) => "write",
        (0, true) => "randwrite",
        (_, false) => "rw",
        (_, true) => "randrw",
    };
    (rw.to_owned(), (r != 0 && r != 100).then_some(r))
}

/// The Direct NFS part of the fio plan: `oranfstab`, switching Direct NFS on, checking it
/// is used, and how the fio run relates to the database's own IO.
fn dnfs_steps(s: &Scenario, voice: Voice) -> String {
    let mut t = String::new();
    t.push_str(
        "#    Oracle Direct NFS instead of nconnect: write $ORACLE_HOME/dbs/oranfstab (or /etc/oranfstab), one\n\
         #    server entry per storage endpoint (put the volumes' IP addresses and export paths in):\n",
    );
    let names = |i: u32| {
        (
            format!("<ip-of-volume-{i}>"),
            format!("/<volume-{i}>"),
            mount_point(i, voice),
        )
    };
    for line in oranfstab(s, names).lines() {
        if line.is_empty() {
            t.push_str("#\n");
        } else {
            t.push_str(&format!("#      {line}\n"));
        }
    }
    if s.clients.sec != Sec::Sys {
        t.push_str(
            "#    With Kerberos the server names in oranfstab must be the endpoints' fully qualified names.\n",
        );
    }
    let predictor = voice.predictor();
    t.push_str(&format!(
        "#    Switch Direct NFS on and restart the database: {DNFS_ENABLE}\n\
         #    Check it is used: SELECT svrname, dirname FROM v$dnfs_servers; and the connections in v$dnfs_channels.\n\
         #    Apply the Direct NFS patches of Oracle Support note 1495104.1 (data integrity).\n\
         # fio runs through the kernel client, not Direct NFS: it approximates the database's IO (bs, read share,\n\
         # threads x iodepth as planned) over one connection per mount, so where connections bind it measures\n\
         # less than {predictor} predicts for Direct NFS. Measure the database's own path with SLOB2 (as in the\n\
         # published ANF Oracle tests) or Oracle's orion ($ORACLE_HOME/bin/orion -run oltp), and compare its\n\
         # IOPS and MiB/s (AWR load profile) with the prediction.\n"
    ));
    t
}

/// The fio job file that verifies the scenario, with how to mount, run and import it.
pub fn fio_job(s: &Scenario) -> String {
    fio_job_in(s, Voice::Volplan)
}

/// [`fio_job`] in `voice`'s words.
fn fio_job_in(s: &Scenario, voice: Voice) -> String {
    let w = &s.workload;
    let c = &s.clients;
    let volumes = volume_count(s);
    let mut t = String::new();
    t.push_str(&format!("{} \"{}\"\n", voice.title(), one_line(&s.name)));
    t.push_str(&expectation(s, "#", voice));
    t.push_str("#\n");
    let mut step = 0;
    let mut next = || {
        step += 1;
        step
    };
    if let Some(avs) = &c.avs {
        t.push_str(&format!(
            "# {}. vSphere mounts the {volumes} volume(s) as NFS datastores on every host (see the ESXi datastore\n\
             #    setup). In each guest VM, give each VMDK placed as planned ({}) a file system and mount the\n\
             #    VMDKs at {}, {}, ... in the order of their datastores.\n",
            next(),
            placement_words(avs.placement),
            mount_point(1, voice),
            mount_point(2, voice)
        ));
    } else if c.protocol.is_nfs() {
        let dnfs = c.nfs_client == NfsClient::Dnfs;
        if dnfs {
            t.push_str(&format!(
                "# {}. On each of the {} database server(s), keep a kernel NFS mount of every volume: Oracle Direct NFS\n\
                 #    finds the database files through them and then opens its own connections (no nconnect).\n\
                 #    Mount options ({DNFS_MOUNT_SOURCE}): {}\n",
                next(),
                c.count,
                mount_options(s)
            ));
        } else {
            t.push_str(&format!(
                "# {}. On each of the {} client(s), mount every volume (mount options: {}):\n",
                next(),
                c.count,
                mount_options(s)
            ));
        }
        for i in 1..=volumes.min(4) {
            t.push_str(&format!(
                "#    sudo mkdir -p {mp} && sudo mount -t nfs -o {o} <server>:/<volume-{i}> {mp}\n",
                mp = mount_point(i, voice),
                o = mount_options(s)
            ));
        }
        if volumes > 4 {
            t.push_str(&format!(
                "#    ... likewise up to {}\n",
                mount_point(volumes, voice)
            ));
        }
        if dnfs {
            t.push_str(&dnfs_steps(s, voice));
        } else if c.sec != Sec::Sys && c.nconnect > 1 {
            t.push_str(&format!(
                "#    Kerberos ({}): nconnect is not recommended with sec=krb5, krb5i or krb5p (ANF Linux mount options);\n\
                 #    the prediction uses nconnect={} as planned.\n",
                c.sec.key(),
                c.nconnect
            ));
        }
        if c.sec != Sec::Sys {
            t.push_str(&format!(
                "#    sec={} needs the client joined to the Kerberos realm (krb5.keytab, rpc.gssd running) before the mounts.\n",
                c.sec.key()
            ));
        }
    } else {
        t.push_str(
            "# The scenario uses SMB: fio on Linux would not test it; use the DiskSpd plan instead.\n",
        );
    }
    t.push_str(&format!(
        "# {}. Run on all {} at the same time, twice; keep the second run (the first warms up):\n",
        next(),
        machines(s)
    ));
    t.push_str("#    fio --output-format=json --output=result-$(hostname).json job.fio\n");
    if voice == Voice::Volplan {
        t.push_str(&format!(
            "# {}. Import: volplan import result-*.json --scenario scenario.json\n",
            next()
        ));
    }
    if w.threads < volumes {
        t.push_str(&format!(
            "# Note: {} thread(s) for {volumes} volumes: only {} volume(s) get IO; raise workload.threads.\n",
            w.threads, w.threads
        ));
    }
    if w.metadata_heavy {
        t.push_str("# Note: the workload is metadata-heavy; this job measures data IO only.\n");
    }
    let (rw, mix) = fio_rw(s);
    t.push('\n');
    t.push_str("[global]\n");
    t.push_str("ioengine=libaio\n");
    t.push_str("direct=1\n");
    t.push_str("randrepeat=0\n");
    t.push_str("time_based=1\n");
    t.push_str(&format!("runtime={RUNTIME_S}\n"));
    t.push_str(&format!("ramp_time={WARMUP_S}\n"));
    t.push_str("group_reporting=1\n");
    t.push_str(&format!("bs={}\n", block_size(w.io_size_kib)));
    t.push_str(&format!("rw={rw}\n"));
    if let Some(r) = mix {
        t.push_str(&format!("rwmixread={r}\n"));
    }
    t.push_str(&format!("iodepth={}\n", w.queue_depth));
    t.push_str(&format!("size={}g\n", file_gib(s)));
    if w.files == Files::One {
        t.push_str(&format!("filename_format={}-shared.dat\n", voice.name()));
    }
    t.push('\n');
    t.push_str(&format!("[{}]\n", voice.name()));
    t.push_str(&format!("numjobs={}\n", w.threads));
    let dirs: Vec<String> = (1..=volumes).map(|i| mount_point(i, voice)).collect();
    t.push_str(&format!("directory={}\n", dirs.join(":")));
    t
}

/// The DiskSpd command line that verifies the scenario (one client).
pub fn diskspd_command(s: &Scenario) -> String {
    diskspd_command_in(s, Voice::Volplan)
}

/// [`diskspd_command`] in `voice`'s words.
fn diskspd_command_in(s: &Scenario, voice: Voice) -> String {
    let w = &s.workload;
    let volumes = volume_count(s);
    let targets = if w.files == Files::One { 1 } else { volumes };
    let per_target = w.threads.div_ceil(targets).max(1);
    let pattern = match w.access {
        Access::Random => "-r",
        Access::Sequential => "-s",
    };
    let write = (100.0 - w.read_pct).round().clamp(0.0, 100.0) as u32;
    let size = file_gib(s);
    let mut cmd = format!(
        "diskspd -c{size}G -b{} -d{RUNTIME_S} -W{WARMUP_S} -o{} -t{per_target} {pattern} -w{write} -Sh -L -D -Rxml",
        block_size(w.io_size_kib).to_uppercase(),
        w.queue_depth
    );
    for i in 1..=targets {
        cmd.push_str(&format!(
            " \\\\<server>\\<volume-{i}>\\{}.dat",
            voice.name()
        ));
    }
    cmd.push_str(" > result-$env:COMPUTERNAME.xml");
    cmd
}

/// The DiskSpd plan: the command with how to connect, run and import it.
pub fn diskspd_script(s: &Scenario) -> String {
    diskspd_script_in(s, Voice::Volplan)
}

/// [`diskspd_script`] in `voice`'s words.
fn diskspd_script_in(s: &Scenario, voice: Voice) -> String {
    let w = &s.workload;
    let volumes = volume_count(s);
    let targets = if w.files == Files::One { 1 } else { volumes };
    let per_target = w.threads.div_ceil(targets).max(1);
    let mut t = String::new();
    t.push_str(&format!("{} \"{}\"\n", voice.title(), one_line(&s.name)));
    t.push_str(&expectation(s, "#", voice));
    t.push_str("#\n");
    let mut step = 0;
    let mut next = || {
        step += 1;
        step
    };
    if s.clients.protocol.is_nfs() {
        t.push_str("# The scenario uses NFS: DiskSpd on Windows would test SMB; use the fio plan instead.\n");
    } else {
        t.push_str(&format!(
            "# {}. Client setup: {}\n",
            next(),
            mount_options(s)
        ));
    }
    t.push_str(&format!(
        "# {}. Run in PowerShell on all {} at the same time, twice; keep the second run.\n",
        next(),
        machines(s)
    ));
    if per_target * targets != w.threads {
        t.push_str(&format!(
            "#    -t is per target: {per_target} x {targets} target(s) = {} threads (the scenario has {}).\n",
            per_target * targets,
            w.threads
        ));
    }
    if voice == Voice::Volplan {
        t.push_str(&format!(
            "# {}. Import: volplan import result-*.xml --scenario scenario.json\n",
            next()
        ));
    }
    t.push_str(&diskspd_command_in(s, voice));
    t.push('\n');
    t
}

/// The machines that run the benchmark, counted: the clients, or on AVS the guest VMs
/// of all hosts ("2 clients", "8 guest VMs (4 hosts x 2 VMs)").
fn machines(s: &Scenario) -> String {
    match &s.clients.avs {
        Some(a) => {
            let vms = a.hosts.saturating_mul(a.vms_per_host);
            format!(
                "{vms} guest {} ({} {} x {} {})",
                plural(vms, "VM", "VMs"),
                a.hosts,
                plural(a.hosts, "host", "hosts"),
                a.vms_per_host,
                plural(a.vms_per_host, "VM", "VMs")
            )
        }
        None => {
            let n = s.clients.count;
            format!("{n} {}", plural(n, "client", "clients"))
        }
    }
}

fn plural(n: u32, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// The VMDK placement in words.
fn placement_words(p: Placement) -> &'static str {
    match p {
        Placement::Spread => "spread round-robin over all datastores",
        Placement::Dedicated => "each VM on its own datastore",
        Placement::Single => "all on the first datastore",
    }
}

/// AVS: how the datastores are attached and checked on the ESXi hosts, in place of the
/// Linux mount options (ESXi mounts the volumes, not the guests).
pub fn esxi_datastore_setup(s: &Scenario) -> String {
    let Some(a) = &s.clients.avs else {
        return mount_options(s);
    };
    let volumes = volume_count(s);
    let mut t = String::new();
    t.push_str(&format!(
        "1. Attach each of the {volumes} volume(s) to the private cloud's cluster as an NFS datastore:\n   \
         Azure portal > Azure VMware Solution > Storage > Connect Azure NetApp Files volume, or\n   \
         az vmware datastore netapp-volume create --name <datastore> --cluster <cluster> \\\n     \
         --private-cloud <private-cloud> --resource-group <group> --volume-id <volume-resource-id>\n\
         2. The volumes are NFSv3 and on the ExpressRoute gateway's network (UltraPerformance or ErGw3AZ\n   \
         with FastPath, as in the published AVS datastore tests).\n"
    ));
    if a.nconnect > 1 {
        t.push_str(&format!(
            "3. {} connections per host per datastore as planned: needs ESXi 8.0 Update 1 or later\n   \
             (esxcli storage nfs add ... --connections={}); the default is one.\n",
            a.nconnect, a.nconnect
        ));
    } else {
        t.push_str("3. One connection per host per datastore (the ESXi default, as in the published tests).\n");
    }
    t.push_str(&format!(
        "4. Place the VMDKs as planned: {} {} per host, {} {} per VM, {}; use the\n   \
         paravirtual SCSI (PVSCSI) controller in the guests.\n\
         5. Check on each host: esxcli storage nfs list shows every datastore mounted and accessible.\n",
        a.vms_per_host,
        plural(a.vms_per_host, "VM", "VMs"),
        a.vmdks_per_vm,
        plural(a.vmdks_per_vm, "VMDK", "VMDKs"),
        placement_words(a.placement)
    ));
    t
}

fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests;
