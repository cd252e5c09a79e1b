//! Tests of the test plans: jobs, commands and their notes.

use super::*;

fn scenario(json: serde_json::Value) -> Scenario {
    serde_json::from_value(json).unwrap()
}

fn nfs() -> Scenario {
    scenario(serde_json::json!({
        "name": "Four volumes",
        "workload": { "io_size_kib": 8, "read_pct": 75, "access": "random",
                      "threads": 8, "queue_depth": 16, "capacity_tib": 8 },
        "storage": { "service": "anf", "level": "premium",
                     "volumes": [ { "count": 4, "quota_tib": 2 } ] },
        "clients": { "count": 2, "vm_size": "Standard_E32s_v5",
                     "protocol": "nfsv3", "nconnect": 4 }
    }))
}

/// The four-volume scenario over NFSv4.1 with a Kerberos flavour.
fn kerberos(sec: Sec, nconnect: u32) -> Scenario {
    let mut s = nfs();
    s.clients.protocol = Protocol::Nfsv41;
    s.clients.sec = sec;
    s.clients.nconnect = nconnect;
    s
}

fn line<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().find_map(|l| l.strip_prefix(key))
}

#[test]
fn fio_job_keeps_the_scenario() {
    let t = fio_job(&nfs());
    assert_eq!(line(&t, "bs="), Some("8k"));
    assert_eq!(line(&t, "rw="), Some("randrw"));
    assert_eq!(line(&t, "rwmixread="), Some("75"));
    assert_eq!(line(&t, "iodepth="), Some("16"));
    assert_eq!(line(&t, "numjobs="), Some("8"));
    assert_eq!(line(&t, "direct="), Some("1"));
    assert_eq!(line(&t, "randrepeat="), Some("0"));
    assert_eq!(line(&t, "time_based="), Some("1"));
    assert_eq!(line(&t, "runtime="), Some("120"));
    assert_eq!(line(&t, "ioengine="), Some("libaio"));
    assert_eq!(line(&t, "group_reporting="), Some("1"));
    assert_eq!(
        line(&t, "directory="),
        Some("/mnt/volplan1:/mnt/volplan2:/mnt/volplan3:/mnt/volplan4")
    );
    // 8 TiB x 0.5 over 16 jobs = 256 GiB, capped at 64.
    assert_eq!(line(&t, "size="), Some("64g"));
    assert!(t.contains("fio --output-format=json"));
    assert!(t.contains("nconnect=4"));
    assert!(t.contains("[global]") && t.contains("[volplan]"));
}

#[test]
fn fio_pure_reads_and_writes() {
    let mut s = nfs();
    s.workload.read_pct = 100.0;
    s.workload.access = Access::Sequential;
    s.workload.io_size_kib = 0.5;
    let t = fio_job(&s);
    assert_eq!(line(&t, "rw="), Some("read"));
    assert_eq!(line(&t, "rwmixread="), None);
    assert_eq!(line(&t, "bs="), Some("512"));
    s.workload.read_pct = 0.0;
    assert_eq!(line(&fio_job(&s), "rw="), Some("write"));
}

#[test]
fn fio_job_warns_about_idle_volumes() {
    let mut s = nfs();
    s.workload.threads = 2;
    assert!(fio_job(&s).contains("only 2 volume(s) get IO"));
}

#[test]
fn mount_options_follow_protocol_and_nconnect() {
    let mut s = nfs();
    assert_eq!(
        mount_options(&s),
        "rw,hard,vers=3,proto=tcp,rsize=262144,wsize=262144,nconnect=4"
    );
    s.clients.protocol = Protocol::Nfsv41;
    s.clients.nconnect = 1;
    assert_eq!(
        mount_options(&s),
        "rw,hard,vers=4.1,proto=tcp,rsize=262144,wsize=262144,sec=sys"
    );
    s.clients.protocol = Protocol::Smb3;
    s.clients.smb_multichannel = true;
    assert!(mount_options(&s).contains("EnableMultiChannel"));
}

#[test]
fn diskspd_command_line() {
    let mut s = nfs();
    s.clients.protocol = Protocol::Smb3;
    let cmd = diskspd_command(&s);
    for flag in [
        "-b8K", "-d120", "-o16", "-t2", "-r", "-w25", "-Sh", "-L", "-Rxml", "-c64G",
    ] {
        assert!(cmd.split(' ').any(|a| a == flag), "{flag} missing: {cmd}");
    }
    assert_eq!(cmd.matches("volplan.dat").count(), 4);
    s.workload.access = Access::Sequential;
    s.workload.files = Files::One;
    let cmd = diskspd_command(&s);
    assert!(cmd.split(' ').any(|a| a == "-s"), "{cmd}");
    assert!(cmd.split(' ').any(|a| a == "-t8"), "{cmd}");
    assert_eq!(cmd.matches("volplan.dat").count(), 1);
}

#[test]
fn diskspd_notes_rounded_threads() {
    let mut s = nfs();
    s.clients.protocol = Protocol::Smb3;
    s.workload.threads = 6;
    let t = diskspd_script(&s);
    assert!(
        t.contains("2 x 4 target(s) = 8 threads (the scenario has 6)"),
        "{t}"
    );
}

#[test]
fn dnfs_plans_say_how_direct_nfs_is_configured_instead_of_nconnect() {
    let mut s = nfs();
    s.clients.nfs_client = NfsClient::Dnfs;
    let o = mount_options(&s);
    assert_eq!(
        o,
        "rw,bg,hard,vers=3,proto=tcp,rsize=262144,wsize=262144,actimeo=0,timeo=600"
    );
    let t = fio_job(&s);
    assert!(!t.contains("nconnect=4"), "{t}");
    // One server entry per endpoint, one export/mount pair per volume.
    assert_eq!(t.matches("#      server: anf-endpoint-").count(), 4, "{t}");
    assert_eq!(t.matches("#      path: <ip-of-volume-").count(), 4);
    assert_eq!(t.matches("#      nfs_version: nfsv3").count(), 4);
    for expect in [
        "#      export: /<volume-2> mount: /mnt/volplan2",
        "$ORACLE_HOME/dbs/oranfstab",
        "cd $ORACLE_HOME/rdbms/lib && make -f ins_rdbms.mk dnfs_on",
        "v$dnfs_servers",
        "SLOB2",
        "orion -run oltp",
        &DNFS_MOUNT_SOURCE.to_string(),
    ] {
        assert!(t.contains(expect), "{expect} missing: {t}");
    }
    // The job itself still keeps the scenario's IO.
    assert_eq!(line(&t, "bs="), Some("8k"));
    assert_eq!(line(&t, "rw="), Some("randrw"));

    // NFSv4.1 with Kerberos: the version and flavour in oranfstab and the mounts.
    let mut s = kerberos(Sec::Krb5p, 1);
    s.clients.nfs_client = NfsClient::Dnfs;
    let o = mount_options(&s);
    assert!(o.contains("vers=4.1") && o.contains("sec=krb5p"), "{o}");
    let tab = oranfstab(&s, |i| {
        (format!("10.0.0.{i}"), format!("/v{i}"), format!("/m{i}"))
    });
    assert!(tab.starts_with("server: anf-endpoint-1\npath: 10.0.0.1\nnfs_version: nfsv4.1\nsecurity_default: krb5p\nexport: /v1 mount: /m1\n"), "{tab}");
    assert!(fio_job(&s).contains("fully qualified names"));
}

#[test]
fn kerberos_shows_in_the_mount_line_and_smb_security_in_the_setup() {
    let mut s = kerberos(Sec::Krb5i, 1);
    let t = fio_job(&s);
    assert!(
        t.contains(
            "sudo mount -t nfs -o rw,hard,vers=4.1,proto=tcp,rsize=262144,wsize=262144,sec=krb5i "
        ),
        "{t}"
    );
    assert!(t.contains("Kerberos realm"));
    s.clients.nconnect = 4;
    assert!(fio_job(&s).contains("nconnect is not recommended with sec=krb5"));

    s.clients.protocol = Protocol::Smb3;
    s.clients.sec = Sec::Sys;
    s.clients.smb_security = SmbSecurity::Signing;
    let t = diskspd_script(&s);
    assert!(t.contains("RequireSecuritySignature $true"), "{t}");
    s.clients.smb_security = SmbSecurity::Encryption;
    let t = diskspd_script(&s);
    assert!(
        t.contains("SMB3 encryption") && t.contains("Encrypted True"),
        "{t}"
    );
    s.clients.smb_security = SmbSecurity::None;
    assert!(!diskspd_script(&s).contains("Encrypted"));
}

#[test]
fn fio_concurrency_is_the_scenarios() {
    let s = nfs();
    let t = fio_job(&s);
    let numjobs: u32 = line(&t, "numjobs=").unwrap().parse().unwrap();
    let iodepth: u32 = line(&t, "iodepth=").unwrap().parse().unwrap();
    assert_eq!(
        numjobs * iodepth,
        s.workload.threads * s.workload.queue_depth
    );
}

#[test]
fn the_neutral_voice_names_no_tool_and_keeps_every_command() {
    let mut dnfs = nfs();
    dnfs.clients.nfs_client = NfsClient::Dnfs;
    let mut smb = nfs();
    smb.clients.protocol = Protocol::Smb3;
    let mut avs = nfs();
    avs.clients.avs = Some(serde_json::from_value(serde_json::json!({"hosts": 3})).unwrap());
    for s in [nfs(), dnfs, smb, avs] {
        for tool in [PlanTool::Fio, PlanTool::Diskspd] {
            let tools = plan_in(&s, tool, Voice::Volplan);
            let neutral = plan_in(&s, tool, Voice::Neutral);
            assert!(!neutral.contains("volplan"), "{neutral}");
            assert!(tools.contains("volplan import") && !neutral.contains("Import"));
            assert!(neutral.starts_with("# Test plan for \"Four volumes\""));
            assert!(neutral.contains("the sizing predicts"), "{neutral}");
            // Every command and job line is the same but for the names.
            let commands = |t: &str, name: &str| -> Vec<String> {
                t.lines()
                    .filter(|l| !l.trim_start().starts_with('#'))
                    .map(|l| l.replace(name, "NAME"))
                    .collect()
            };
            assert_eq!(commands(&neutral, "bench"), commands(&tools, "volplan"));
        }
    }
}
