//! Unit and property tests of the mount advisor.

use super::*;

fn run(text: &str, distro: Option<&str>, workload: Option<Workload>) -> MountAdvice {
    advise(&MountRequest {
        text: text.into(),
        distro: distro.map(str::to_owned),
        workload,
    })
}

fn codes_at(a: &MountAdvice, line: usize) -> Vec<&'static str> {
    a.findings
        .iter()
        .filter(|f| f.line == Some(line))
        .map(|f| f.code)
        .collect()
}

fn has(a: &MountAdvice, code: &str) -> bool {
    a.findings.iter().any(|f| f.code == code)
}

fn effective(a: &MountAdvice) -> Vec<u32> {
    a.mounts.iter().map(|m| m.effective_nconnect).collect()
}

const OPTS: &str = "rw,hard,rsize=262144,wsize=262144,vers=3,tcp";

#[test]
fn first_mount_with_nconnect_is_inherited_by_later_mounts() {
    let text = format!(
        "mount -t nfs -o {OPTS},nconnect=8 10.10.10.10:/volume1 /mnt/volume1\n\
         mount -t nfs -o {OPTS} 10.10.10.10:/volume2 /mnt/volume2\n\
         mount -t nfs -o {OPTS} 10.10.10.10:/volume3 /mnt/volume3\n"
    );
    let a = run(&text, None, None);
    assert_eq!(effective(&a), [8, 8, 8]);
    assert_eq!(a.mounts[1].requested_nconnect, None);
    assert!(codes_at(&a, 2).contains(&"nconnect_inherited"));
    assert!(codes_at(&a, 3).contains(&"nconnect_inherited"));
    assert!(!has(&a, "nconnect_ignored"));
    let f = a
        .findings
        .iter()
        .find(|f| f.code == "nconnect_inherited")
        .unwrap();
    assert_eq!(f.severity, Severity::Info);
    assert!(
        f.message.contains("nconnect=8") && f.message.contains("line 1"),
        "{}",
        f.message
    );
    assert!(
        f.message.contains("ANF Linux mount options"),
        "{}",
        f.message
    );
}

#[test]
fn later_nconnect_is_ignored_when_the_first_mount_had_none() {
    let text = format!(
        "mount -t nfs -o {OPTS} 10.10.10.10:/volume1 /mnt/volume1\n\
         mount -t nfs -o {OPTS},nconnect=8 10.10.10.10:/volume2 /mnt/volume2\n"
    );
    let a = run(&text, None, None);
    assert_eq!(effective(&a), [1, 1]);
    assert_eq!(a.mounts[1].requested_nconnect, Some(8));
    let f = a
        .findings
        .iter()
        .find(|f| f.code == "nconnect_ignored")
        .unwrap();
    assert_eq!((f.line, f.severity), (Some(2), Severity::Warn));
    assert!(f.message.contains("line 1"), "{}", f.message);
    assert!(!has(&a, "nconnect_inherited"));
    // The fix: the intended value moves to the first mount.
    let lines: Vec<&str> = a.fstab.lines().collect();
    assert!(lines[0].contains("nconnect=8"), "{}", a.fstab);
    assert!(!lines[1].contains("nconnect"), "{}", a.fstab);
}

#[test]
fn a_different_endpoint_is_independent() {
    let text = format!(
        "mount -t nfs -o {OPTS},nconnect=8 10.10.10.10:/volume1 /mnt/volume1\n\
         mount -t nfs -o {OPTS} 10.12.12.12:/volume2 /mnt/volume2\n\
         mount -t nfs -o {OPTS},nconnect=4 10.14.14.14:/volume3 /mnt/volume3\n\
         mount -t nfs -o {OPTS} 10.10.10.10:/volume4 /mnt/volume4\n"
    );
    let a = run(&text, None, None);
    assert_eq!(effective(&a), [8, 1, 4, 8]);
    assert!(codes_at(&a, 2).is_empty() || !codes_at(&a, 2).contains(&"nconnect_inherited"));
    assert!(!codes_at(&a, 3).contains(&"nconnect_ignored"));
    assert!(codes_at(&a, 4).contains(&"nconnect_inherited"));
    assert_eq!(a.mounts[1].endpoint, "10.12.12.12");
}

#[test]
fn a_different_value_on_a_later_mount_is_ignored() {
    let text = format!(
        "mount -t nfs -o {OPTS},nconnect=8 10.10.10.10:/volume1 /mnt/volume1\n\
         mount -t nfs -o {OPTS},nconnect=4 10.10.10.10:/volume2 /mnt/volume2\n"
    );
    let a = run(&text, None, None);
    assert_eq!(effective(&a), [8, 8]);
    let f = a
        .findings
        .iter()
        .find(|f| f.code == "nconnect_ignored")
        .unwrap();
    assert!(f.message.contains("set nconnect=8"), "{}", f.message);
}

#[test]
fn nfs_versions_to_one_address_do_not_share_connections() {
    let text = "mount -o vers=3,nconnect=8 10.0.0.4:/a /mnt/a\n\
                mount -o vers=4.1 10.0.0.4:/b /mnt/b\n";
    let a = run(text, None, None);
    assert_eq!(effective(&a), [8, 1]);
    assert_eq!(a.mounts[1].protocol, "nfsv4.1");
}

#[test]
fn kerberos_with_nconnect_is_flagged_and_dropped_from_the_fstab() {
    let text =
        "10.0.0.4:/secure /mnt/secure nfs rw,hard,vers=4.1,sec=krb5p,nconnect=4,_netdev 0 0\n";
    let a = run(text, Some("rhel 9.2"), None);
    let f = a
        .findings
        .iter()
        .find(|f| f.code == "nconnect_krb5")
        .unwrap();
    assert_eq!((f.line, f.severity), (Some(1), Severity::Warn));
    assert!(f.message.contains("GSS"), "{}", f.message);
    assert_eq!(a.mounts[0].sec, "krb5p");
    assert!(!a.fstab.contains("nconnect"), "{}", a.fstab);
    assert!(a.fstab.contains("sec=krb5p"), "{}", a.fstab);
    assert!(!has(&a, "nconnect_suggestion"));
}

#[test]
fn kerberos_mount_inheriting_nconnect_is_flagged() {
    let text = "mount -o vers=3,nconnect=8 10.0.0.4:/a /mnt/a\n\
                mount -o vers=3,sec=krb5 10.0.0.4:/b /mnt/b\n";
    let a = run(text, None, None);
    assert_eq!(effective(&a), [8, 8]);
    assert!(codes_at(&a, 2).contains(&"nconnect_krb5"));
    assert!(!a.fstab.contains("nconnect"), "{}", a.fstab);
    assert!(
        !run("mount -o vers=3,sec=krb5i 10.0.0.4:/a /mnt/a", None, None)
            .findings
            .iter()
            .any(|f| f.code == "nconnect_krb5")
    );
}

#[test]
fn rsize_and_wsize_over_256k_are_flagged() {
    let a = run(
        "mount -o vers=3,rsize=1048576,wsize=524288 10.0.0.4:/a /mnt/a",
        None,
        None,
    );
    let r = a
        .findings
        .iter()
        .find(|f| f.code == "rsize_over_256k")
        .unwrap();
    let w = a
        .findings
        .iter()
        .find(|f| f.code == "wsize_over_256k")
        .unwrap();
    assert_eq!(r.severity, Severity::Warn);
    assert!(
        r.message.contains("1024 KiB") && w.message.contains("512 KiB"),
        "{} / {}",
        r.message,
        w.message
    );
    assert!(a.fstab.contains("rsize=262144,wsize=262144"), "{}", a.fstab);

    let ok = run(
        "mount -o vers=3,rsize=262144,wsize=262144 10.0.0.4:/a /mnt/a",
        None,
        None,
    );
    assert!(
        !has(&ok, "rsize_over_256k") && !has(&ok, "wsize_over_256k") && !has(&ok, "rwsize_missing")
    );
    let only_w = run(
        "mount -o vers=3,rsize=65536,wsize=262145 10.0.0.4:/a /mnt/a",
        None,
        None,
    );
    assert!(!has(&only_w, "rsize_over_256k") && has(&only_w, "wsize_over_256k"));
}

/// Runs one NFSv3 or NFSv4.1 mount with nconnect on a distribution.
fn distro_codes(distro: &str, v41: bool) -> Vec<&'static str> {
    let vers = if v41 { "4.1" } else { "3" };
    let a = run(
        &format!("mount -o vers={vers},nconnect=4 10.0.0.4:/a /mnt/a"),
        Some(distro),
        None,
    );
    a.findings
        .iter()
        .map(|f| f.code)
        .filter(|c| c.starts_with("nconnect_"))
        .collect()
}

#[test]
fn distribution_minimums_for_nfsv3() {
    for (below, at) in [
        ("rhel 8.2", "rhel 8.3"),
        ("sles 12 sp3", "sles 12 sp4"),
        ("sles 15", "sles 15 sp1"),
        ("ubuntu 17.10", "ubuntu 18.04"),
    ] {
        assert_eq!(
            distro_codes(below, false),
            ["nconnect_unsupported_distro"],
            "{below}"
        );
        assert!(distro_codes(at, false).is_empty(), "{at}");
    }
    // Later releases stay supported.
    for later in ["rhel 9.0", "sles 12 sp5", "sles 15 sp6", "ubuntu 22.04"] {
        assert!(distro_codes(later, false).is_empty(), "{later}");
    }
}

#[test]
fn distribution_minimums_for_nfsv41() {
    for (below, at) in [("rhel 8.2", "rhel 8.3"), ("sles 15 sp1", "sles 15 sp2")] {
        assert_eq!(
            distro_codes(below, true),
            ["nconnect_unsupported_distro"],
            "{below}"
        );
        assert!(distro_codes(at, true).is_empty(), "{at}");
    }
    // SLES 12 SP5 supports nconnect for NFSv3 only.
    assert_eq!(
        distro_codes("sles 12 sp5", true),
        ["nconnect_unsupported_distro"]
    );
    // Ubuntu: no minimum is stated for NFSv4.1.
    assert_eq!(
        distro_codes("ubuntu 22.04", true),
        ["nconnect_distro_unstated"]
    );
}

#[test]
fn unsupported_distribution_drops_nconnect_from_the_fstab() {
    let a = run(
        "mount -o vers=3,nconnect=8 10.0.0.4:/a /mnt/a",
        Some("rhel 8.2"),
        None,
    );
    let f = a
        .findings
        .iter()
        .find(|f| f.code == "nconnect_unsupported_distro")
        .unwrap();
    assert!(
        f.message.contains("RHEL 8.2") && f.message.contains("RHEL 8.3"),
        "{}",
        f.message
    );
    assert!(!a.fstab.contains("nconnect"), "{}", a.fstab);
    assert_eq!(effective(&a), [1], "no nconnect below the minimum release");
    assert!(!has(&a, "nconnect_distro_unchecked"));
    assert!(has(
        &run("mount -o vers=3,nconnect=8 10.0.0.4:/a /mnt/a", None, None),
        "nconnect_distro_unchecked"
    ));
}

#[test]
fn distro_names_parse() {
    let d = |s| Distro::parse(s).unwrap();
    assert_eq!(
        d("RHEL8.3"),
        Distro {
            family: Family::Rhel,
            major: 8,
            minor: 3
        }
    );
    assert_eq!(
        d("Rocky Linux 9.4"),
        Distro {
            family: Family::Rhel,
            major: 9,
            minor: 4
        }
    );
    assert_eq!(
        d("SLES15SP2"),
        Distro {
            family: Family::Sles,
            major: 15,
            minor: 2
        }
    );
    assert_eq!(
        d("sles 12-sp4"),
        Distro {
            family: Family::Sles,
            major: 12,
            minor: 4
        }
    );
    assert_eq!(d("SLE 15 SP4").to_string(), "SLES 15 SP4");
    assert_eq!(
        d("opensuse leap 15.3"),
        Distro {
            family: Family::Sles,
            major: 15,
            minor: 3
        }
    );
    assert_eq!(
        d("Ubuntu 18.04"),
        Distro {
            family: Family::Ubuntu,
            major: 18,
            minor: 4
        }
    );
    assert_eq!(d("ubuntu 18.04").to_string(), "Ubuntu 18.04");
    assert_eq!(d("sles 15 sp1").to_string(), "SLES 15 SP1");
    assert!(
        Distro::parse("debian 12")
            .unwrap_err()
            .contains("rhel, sles or ubuntu")
    );
    assert!(
        Distro::parse("rhel")
            .unwrap_err()
            .contains("release number")
    );
    assert!(Distro::parse("rhel 99999999999").is_err());
}

#[test]
fn actimeo_suggestions_per_workload() {
    let text = "mount -o vers=3 10.0.0.4:/a /mnt/a\n";
    for (w, secs, nocto) in [
        (Workload::Eda, 600, true),
        (Workload::WebSmall, 10, false),
        (Workload::WebLarge, 60, true),
    ] {
        let a = run(text, None, Some(w));
        let f = a
            .findings
            .iter()
            .find(|f| f.code == "actimeo_suggestion")
            .unwrap();
        assert!(
            f.message.contains(&format!("actimeo={secs} ")),
            "{}",
            f.message
        );
        assert!(a.fstab.contains(&format!("actimeo={secs}")), "{}", a.fstab);
        assert_eq!(a.fstab.contains("nocto"), nocto, "{}", a.fstab);
        assert_eq!(has(&a, "nocto_suggestion"), nocto);
        // Already set: no suggestion.
        let set = run(
            &format!("mount -o vers=3,nocto,actimeo={secs} 10.0.0.4:/a /mnt/a"),
            None,
            Some(w),
        );
        assert!(!has(&set, "actimeo_suggestion") && !has(&set, "nocto_suggestion"));
    }
    for w in [Workload::Database, Workload::SasGrid, Workload::SharedRw] {
        assert!(!has(&run(text, None, Some(w)), "actimeo_suggestion"));
    }
    assert!(!has(&run(text, None, None), "actimeo_suggestion"));
}

#[test]
fn shared_read_write_data_keeps_close_to_open() {
    let a = run(
        "mount -o vers=3,nocto,actimeo=600 10.0.0.4:/a /mnt/a",
        None,
        Some(Workload::SharedRw),
    );
    assert!(has(&a, "cache_shared_rw"));
    assert!(
        !a.fstab.contains("nocto") && !a.fstab.contains("actimeo"),
        "{}",
        a.fstab
    );
}

#[test]
fn a_line_that_is_not_a_mount_is_reported_and_the_rest_checked() {
    let text = "mount -o vers=3 10.0.0.4:/a /mnt/a\n\
                this is not a mount\n\
                mount -o vers=3,nconnect=8 10.0.0.4:/b /mnt/b\n";
    let a = run(text, None, None);
    let f = a.findings.iter().find(|f| f.code == "parse_error").unwrap();
    assert_eq!((f.line, f.severity), (Some(2), Severity::Error));
    assert_eq!(a.mounts.iter().map(|m| m.line).collect::<Vec<_>>(), [1, 3]);
    assert!(codes_at(&a, 3).contains(&"nconnect_ignored"));
    assert_eq!(a.fstab.lines().count(), 2);
}

#[test]
fn other_lines_that_are_not_nfs_mounts() {
    // Another file system's mount is skipped, not an error.
    for line in [
        "/dev/sda1 / ext4 defaults 0 1",
        "UUID=1234-abcd / xfs defaults 0 0",
        "mount -t cifs //srv/share /mnt/s",
    ] {
        let a = run(line, None, None);
        assert!(a.mounts.is_empty(), "{line}");
        assert!(!has(&a, "parse_error"), "{line}");
        assert!(
            a.findings.iter().all(|f| f.severity != Severity::Error),
            "{line}"
        );
        let f = a.findings.iter().find(|f| f.code == "not_nfs").unwrap();
        assert!(
            f.message.contains("not NFS") && !f.message.contains('`'),
            "{}",
            f.message
        );
    }
    for (line, needle) in [
        ("mount -a", "paste the fstab lines"),
        ("mount 10.0.0.4:/a", "mount point"),
        ("mount -o", "needs a value"),
        ("sudo systemctl restart nfs", "no mount command"),
        ("server /mnt nfs defaults 0 0", "server:/export"),
        ("this is not a mount", "not an fstab entry"),
        ("10.0.0.4:/a mnt/a nfs defaults 0 0", "not an fstab entry"),
    ] {
        let a = run(line, None, None);
        assert!(a.mounts.is_empty(), "{line}");
        let f = a.findings.iter().find(|f| f.code == "parse_error").unwrap();
        assert!(f.message.contains(needle), "{line}: {}", f.message);
    }
}

#[test]
fn forms_of_mount_lines() {
    let text = "# a comment\n\
                \n\
                $ sudo mount -t nfs4 -o 'minorversion=1,nconnect=4' 10.0.0.4:/a /mnt/a\n\
                10.0.0.5:/b /mnt/b nfs vers=3,_netdev 0 0 # trailing comment\n\
                mount.nfs 10.0.0.6:/c /mnt/c -o vers=3\n\
                mount --types=nfs --options=vers=4.1 [FE80::1]:/d /mnt/d\n\
                /usr/bin/mount -o vers=3 -o nconnect=2 NAS.example.com:/e /mnt/e\n";
    let a = run(text, None, None);
    let got: Vec<(usize, &str, &str, &str, &str)> = a
        .mounts
        .iter()
        .map(|m| {
            (
                m.line,
                m.endpoint.as_str(),
                m.export.as_str(),
                m.path.as_str(),
                m.protocol.as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (3, "10.0.0.4", "/a", "/mnt/a", "nfsv4.1"),
            (4, "10.0.0.5", "/b", "/mnt/b", "nfsv3"),
            (5, "10.0.0.6", "/c", "/mnt/c", "nfsv3"),
            (6, "fe80::1", "/d", "/mnt/d", "nfsv4.1"),
            (7, "nas.example.com", "/e", "/mnt/e", "nfsv3"),
        ]
    );
    assert_eq!(a.mounts[0].form, "mount");
    assert_eq!(a.mounts[1].form, "fstab");
    assert_eq!(effective(&a), [4, 1, 1, 1, 2]);
    assert!(!has(&a, "parse_error"));
    assert!(a.fstab.contains("[FE80::1]:/d /mnt/d nfs "), "{}", a.fstab);
}

#[test]
fn protocol_names() {
    let p = |opts: &str, t: &str| {
        run(&format!("mount -t {t} -o {opts} h:/a /a"), None, None).mounts[0]
            .protocol
            .clone()
    };
    assert_eq!(p("vers=3", "nfs"), "nfsv3");
    assert_eq!(p("nfsvers=4.1", "nfs"), "nfsv4.1");
    assert_eq!(p("vers=4,minorversion=1", "nfs"), "nfsv4.1");
    assert_eq!(p("vers=4.2", "nfs"), "nfsv4.2");
    assert_eq!(p("hard", "nfs4"), "nfsv4");
    assert_eq!(p("hard", "nfs"), "nfs");
    // The last value wins, as with mount.
    assert_eq!(p("vers=4.1,vers=3", "nfs"), "nfsv3");
}

#[test]
fn too_high_nconnect_fails_the_mount() {
    let a = run(
        "mount -o vers=3,nconnect=32 10.0.0.4:/a /mnt/a\nmount -o vers=3 10.0.0.4:/b /mnt/b",
        None,
        None,
    );
    let f = a
        .findings
        .iter()
        .find(|f| f.code == "nconnect_too_high")
        .unwrap();
    assert_eq!((f.line, f.severity), (Some(1), Severity::Error));
    assert_eq!(effective(&a), [0, 1]);
    assert!(
        a.fstab.lines().next().unwrap().contains("nconnect=4"),
        "{}",
        a.fstab
    );
    assert!(!has(
        &run("mount -o vers=3,nconnect=16 10.0.0.4:/a /mnt/a", None, None),
        "nconnect_too_high"
    ));
    let zero = run("mount -o vers=3,nconnect=0 10.0.0.4:/a /mnt/a", None, None);
    assert!(has(&zero, "option_invalid") && zero.mounts[0].effective_nconnect == 0);
}

#[test]
fn recovery_timeout_and_transport_rules() {
    let a = run(
        "mount -o vers=3,soft,timeo=100 10.0.0.4:/a /mnt/a",
        None,
        None,
    );
    assert!(has(&a, "soft_mount") && has(&a, "timeo_low"));
    assert!(
        a.fstab.contains("hard") && !a.fstab.contains("soft") && a.fstab.contains("timeo=600"),
        "{}",
        a.fstab
    );
    let b = run(
        "mount -o vers=3,timeo=600,udp 10.0.0.4:/a /mnt/a",
        None,
        None,
    );
    assert!(has(&b, "hard_missing") && has(&b, "proto_udp") && !has(&b, "timeo_low"));
    assert!(
        b.fstab.contains(",tcp,") && !b.fstab.contains("udp"),
        "{}",
        b.fstab
    );
    let c = run(
        "mount -o hard,vers=3,timeo=600 10.0.0.4:/a /mnt/a",
        None,
        None,
    );
    assert!(!has(&c, "hard_missing") && !has(&c, "soft_mount") && !has(&c, "timeo_low"));
    assert!(has(
        &run("mount -o vers=3,rsize=big 10.0.0.4:/a /mnt/a", None, None),
        "option_invalid"
    ));
}

#[test]
fn fstab_lines_without_netdev_and_duplicate_paths() {
    let a = run(
        "10.0.0.4:/a /mnt/a nfs vers=3 0 0\n10.0.0.4:/b /mnt/a nfs vers=3,_netdev 0 0",
        None,
        None,
    );
    assert_eq!(
        codes_at(&a, 1)
            .iter()
            .filter(|c| **c == "netdev_missing")
            .count(),
        1
    );
    assert!(!codes_at(&a, 2).contains(&"netdev_missing"));
    assert!(codes_at(&a, 2).contains(&"path_duplicate"));
    assert!(!has(
        &run("mount -o vers=3 10.0.0.4:/a /mnt/a", None, None),
        "netdev_missing"
    ));
}

#[test]
fn nconnect_suggestion_on_the_first_mount_of_each_endpoint() {
    let text = "mount -o vers=3 10.0.0.4:/a /mnt/a\nmount -o vers=3 10.0.0.4:/b /mnt/b\nmount -o vers=3 10.0.0.5:/c /mnt/c";
    let a = run(text, None, None);
    let lines: Vec<Option<usize>> = a
        .findings
        .iter()
        .filter(|f| f.code == "nconnect_suggestion")
        .map(|f| f.line)
        .collect();
    assert_eq!(lines, [Some(1), Some(3)]);
    let fstab: Vec<&str> = a.fstab.lines().collect();
    assert!(
        fstab[0].contains("nconnect=4")
            && !fstab[1].contains("nconnect")
            && fstab[2].contains("nconnect=4"),
        "{}",
        a.fstab
    );
    let sas = run(text, None, Some(Workload::SasGrid));
    assert!(
        sas.fstab.lines().next().unwrap().contains("nconnect=8"),
        "{}",
        sas.fstab
    );
    assert!(
        sas.fstab.contains("rsize=65536") && has(&sas, "read_ahead"),
        "{}",
        sas.fstab
    );
}

#[test]
fn recommended_fstab_line() {
    let a = run(
        "mount -t nfs -o vers=4.1,sec=sys,bg,nolock 10.0.0.4:/vol /mnt/vol",
        None,
        Some(Workload::Eda),
    );
    assert_eq!(
        a.fstab,
        "10.0.0.4:/vol /mnt/vol nfs rw,hard,vers=4,minorversion=1,rsize=262144,wsize=262144,timeo=600,nconnect=4,noatime,_netdev,nocto,actimeo=600,bg,nolock 0 0\n"
    );
    let v3 = run(
        "10.0.0.4:/vol /mnt/vol nfs ro,vers=3,actimeo=30 0 0",
        None,
        None,
    );
    assert_eq!(
        v3.fstab,
        "10.0.0.4:/vol /mnt/vol nfs ro,hard,vers=3,rsize=262144,wsize=262144,tcp,timeo=600,nconnect=4,noatime,_netdev,actimeo=30 0 0\n"
    );
    // Advising the recommended fstab again finds nothing to fix.
    let again = run(&a.fstab, Some("rhel 9.4"), Some(Workload::Eda));
    let serious: Vec<&Finding> = again
        .findings
        .iter()
        .filter(|f| f.severity != Severity::Info)
        .collect();
    assert!(serious.is_empty(), "{serious:?}");
    assert!(!has(&again, "actimeo_suggestion") && !has(&again, "nconnect_suggestion"));
}

#[test]
fn slot_settings_follow_the_versions_in_use() {
    let v3 = run("mount -o vers=3 10.0.0.4:/a /mnt/a", None, None);
    assert!(has(&v3, "slot_table") && !has(&v3, "session_slots"));
    assert_eq!(
        v3.kernel.iter().map(|s| s.path).collect::<Vec<_>>(),
        [
            "/etc/sysctl.d/90-nfs-slot-table.conf",
            "/etc/udev/rules.d/99-nfs-read-ahead.rules"
        ]
    );
    assert!(
        v3.kernel[0]
            .content
            .contains("sunrpc.tcp_max_slot_table_entries = 128")
    );
    let v4 = run(
        "mount -o vers=4.1 10.0.0.4:/a /mnt/a",
        None,
        Some(Workload::SasGrid),
    );
    assert!(has(&v4, "session_slots") && !has(&v4, "slot_table"));
    assert!(
        v4.kernel[0]
            .content
            .contains("options nfs max_session_slots=180")
    );
    assert!(
        v4.kernel[1].content.contains("read_ahead_kb}=\"15360\""),
        "{}",
        v4.kernel[1].content
    );
    let g = v4
        .findings
        .iter()
        .find(|f| f.code == "session_slots")
        .unwrap();
    assert_eq!(g.line, None);
    assert_eq!(
        v4.findings.last().unwrap().line,
        None,
        "global findings come last"
    );
}

#[test]
fn validation_names_the_field() {
    let req = |text: &str, distro: Option<&str>| MountRequest {
        text: text.into(),
        distro: distro.map(Into::into),
        workload: None,
    };
    assert_eq!(req("  \n", None).validate().unwrap_err().field, "text");
    assert_eq!(
        req("mount h:/a /a", Some("windows 11"))
            .validate()
            .unwrap_err()
            .field,
        "distro"
    );
    assert_eq!(
        req(&"x\n".repeat(MAX_LINES + 1), None)
            .validate()
            .unwrap_err()
            .field,
        "text"
    );
    assert!(req("mount h:/a /a", Some("sles 15 sp2")).validate().is_ok());
    assert!(req("mount h:/a /a", Some("")).validate().is_ok());
    let bad = run("mount h:/a /a", Some("windows"), None);
    assert!(has(&bad, "distro_invalid"));
}

#[test]
fn request_json_rejects_unknown_fields_and_workloads() {
    let ok: MountRequest =
        serde_json::from_str(r#"{"text":"x","distro":"rhel 8.2","workload":"web_small"}"#).unwrap();
    assert_eq!(ok.workload, Some(Workload::WebSmall));
    assert!(serde_json::from_str::<MountRequest>(r#"{"text":"x","typo":1}"#).is_err());
    assert!(serde_json::from_str::<MountRequest>(r#"{"text":"x","workload":"hpc"}"#).is_err());
    for w in Workload::ALL {
        assert_eq!(Workload::from_key(w.key()), Some(w));
    }
}

#[test]
fn answer_json_has_the_contract_shape() {
    let a = run(
        "mount 10.10.10.10:/volume1 /mnt/volume1 -o nconnect=8\nmount 10.10.10.10:/volume2 /mnt/volume2 -o nconnect=4",
        Some("rhel 9.2"),
        Some(Workload::Eda),
    );
    let v = serde_json::to_value(&a).unwrap();
    let m = &v["mounts"][0];
    assert_eq!(m["line"], 1);
    assert_eq!(m["endpoint"], "10.10.10.10");
    assert_eq!(m["export"], "/volume1");
    assert_eq!(m["path"], "/mnt/volume1");
    assert_eq!(m["protocol"], "nfs");
    assert_eq!(m["requested_nconnect"], 8);
    assert_eq!(m["effective_nconnect"], 8);
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "nconnect_ignored")
        .unwrap();
    assert_eq!(f["severity"], "warn");
    assert_eq!(f["line"], 2);
    assert!(f["message"].as_str().unwrap().len() > 20);
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["line"].is_null())
    );
    assert!(
        v["fstab"]
            .as_str()
            .unwrap()
            .starts_with("10.10.10.10:/volume1 /mnt/volume1 nfs ")
    );
    let plain = run("mount -o vers=3 h:/a /a", None, None);
    assert!(serde_json::to_value(&plain).unwrap()["mounts"][0]["requested_nconnect"].is_null());
}

#[test]
fn scenario_plan_text_parses_back() {
    let text = plan_text(3, "nfsv4.1", 4);
    let a = run(&text, None, None);
    assert_eq!(a.mounts.len(), 3);
    assert_eq!(
        a.mounts
            .iter()
            .map(|m| m.endpoint.as_str())
            .collect::<Vec<_>>(),
        ["10.0.0.4", "10.0.0.5", "10.0.0.6"]
    );
    assert!(
        a.mounts
            .iter()
            .all(|m| m.protocol == "nfsv4.1" && m.effective_nconnect == 4)
    );
    assert!(!has(&a, "parse_error"));
    let v3 = plan_text(300, "nfsv3", 1);
    assert_eq!(v3.lines().count(), 300);
    assert!(
        v3.lines()
            .nth(299)
            .unwrap()
            .contains("10.0.1.47:/volume300")
            && !v3.contains("nconnect")
    );
    assert_eq!(plan_text(0, "nfsv3", 4), "");
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn expected_entries(text: &str) -> usize {
        text.lines()
            .filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#'))
            .count()
    }

    fn check(text: &str) -> Result<(), TestCaseError> {
        let a = run(text, Some("rhel 8.2"), Some(Workload::Eda));
        // A line that is not a mount is an error; another file system's is skipped.
        let unread = |f: &&Finding| f.code == "parse_error" || f.code == "not_nfs";
        let errors = a.findings.iter().filter(unread).count();
        prop_assert_eq!(a.mounts.len() + errors, expected_entries(text));
        let mut lines: Vec<usize> = a.mounts.iter().map(|m| m.line).collect();
        lines.extend(a.findings.iter().filter(unread).filter_map(|f| f.line));
        lines.sort_unstable();
        lines.dedup();
        prop_assert_eq!(lines.len(), expected_entries(text), "one entry per line");
        prop_assert_eq!(a.fstab.lines().count(), a.mounts.len());
        Ok(())
    }

    const WORDS: &[&str] = &[
        "mount",
        "sudo",
        "-t",
        "nfs",
        "nfs4",
        "-o",
        "$",
        "#",
        "0",
        "10.0.0.4:/a",
        "[::1]:/b",
        "h:",
        ":/x",
        "/mnt/a",
        "/mnt/b",
        "vers=3",
        "vers=4.1",
        "nconnect=8",
        "nconnect=99",
        "nconnect=",
        "sec=krb5",
        "rsize=1048576,wsize=4096",
        "soft",
        "timeo=1",
        "actimeo=600",
        "nocto",
        "'",
        "\"",
        "\\",
        "-a",
        "--types=nfs",
        "-overs=3",
        "mount.nfs4",
        ",,",
        "=",
        "_netdev",
        "ext4",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn never_panics_on_arbitrary_text(text in "\\PC*(\n\\PC*){0,8}") {
            check(&text)?;
        }

        #[test]
        fn never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            check(&String::from_utf8_lossy(&bytes))?;
        }

        #[test]
        fn one_entry_per_line_of_mount_like_text(
            lines in proptest::collection::vec(
                proptest::collection::vec(proptest::sample::select(WORDS), 0..9), 0..12)
        ) {
            let text: Vec<String> = lines.iter().map(|l| l.join(" ")).collect();
            check(&text.join("\n"))?;
        }
    }
}

#[test]
fn a_mount_without_a_version_gets_one_in_the_fstab() {
    let a = run(
        "mount 10.0.0.4:/v1 /mnt/v1\n10.0.0.4:/v2 /mnt/v2 nfs rw,hard 0 0",
        None,
        None,
    );
    assert!(has(&a, "vers_missing"));
    let lines: Vec<&str> = a.fstab.lines().collect();
    assert_eq!(lines.len(), 2, "{}", a.fstab);
    for l in &lines {
        assert!(l.contains("vers=4,minorversion=1"), "{l}");
    }
    // One endpoint, one version: nconnect on the first mount only.
    assert!(lines[0].contains("nconnect=") && !lines[1].contains("nconnect="));
}
