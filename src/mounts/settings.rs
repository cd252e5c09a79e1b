//! Client kernel settings and the mount commands a scenario implies.

use super::*;

/// The client kernel settings for the plan: the NFSv3 slot table (sysctl), the
/// NFSv4.1 session slots (modprobe) and NFS read-ahead (udev). With no mounts,
/// all three.
pub fn kernel_settings(advice: &MountAdvice, workload: Option<Workload>) -> Vec<Setting> {
    let none = advice.mounts.is_empty();
    let v3 = none
        || advice
            .mounts
            .iter()
            .any(|m| m.protocol == "nfsv3" || m.protocol == "nfs");
    let v4 = none
        || advice
            .mounts
            .iter()
            .any(|m| m.protocol.starts_with("nfsv4") || m.protocol == "nfs");
    let mut out = Vec::new();
    if v3 {
        out.push(Setting {
            name: "NFSv3 slot table",
            path: "/etc/sysctl.d/90-nfs-slot-table.conf",
            content: "sunrpc.tcp_max_slot_table_entries = 128\n".into(),
            apply: "sudo sysctl --system, before the NFS mounts (or add `options sunrpc tcp_max_slot_table_entries=128` in /etc/modprobe.d/sunrpc.conf)",
            reason: format!(
                "The server serves 128 requests per TCP connection; keep 128 or fewer slots per connection (and 10,000 or fewer per storage endpoint across all clients) ({SRC_SLOTS})"
            ),
        });
    }
    if v4 {
        out.push(Setting {
            name: "NFSv4.1 session slots",
            path: "/etc/modprobe.d/nfs-session-slots.conf",
            content: "options nfs max_session_slots=180\n".into(),
            apply: "reboot (the value is read when the nfs module loads)",
            reason: format!(
                "ANF allows 180 outstanding requests per NFSv4.1 session; the Linux default is 64 and the lower value wins. One connection still carries at most 128, so 180 needs nconnect 2 or more ({SRC_SLOTS})"
            ),
        });
    }
    let (kib, why) = if workload == Some(Workload::SasGrid) {
        (15_360, "SAS GRID ran best with 15 MiB of read-ahead")
    } else {
        (
            3_840,
            "Newer kernels (RHEL 8.3, kernel 5.4 and later) default to 128 KiB; 15 x rsize (3,840 KiB at rsize 256 KiB) was the older default and helps sequential reads",
        )
    };
    out.push(Setting {
        name: "NFS read-ahead",
        path: "/etc/udev/rules.d/99-nfs-read-ahead.rules",
        content: format!(
            "SUBSYSTEM==\"bdi\", ACTION==\"add\", PROGRAM=\"/usr/bin/awk -v bdi=$kernel 'BEGIN{{ret=1}} {{if ($4 == bdi) {{ret=0}}}} END{{exit ret}}' /proc/fs/nfsfs/volumes\", ATTR{{read_ahead_kb}}=\"{kib}\"\n"
        ),
        apply: "sudo udevadm control --reload, then remount the NFS volumes",
        reason: format!("{why} ({SRC_READ_AHEAD})"),
    });
    out
}

/// Mount commands a scenario implies: one volume per endpoint (10.0.0.4, 10.0.0.5,
/// ...), `/volumeN` mounted on `/mnt/volumeN`, with the scenario's NFS version and
/// nconnect. `protocol` is `nfsv3` or `nfsv4.1`; at most [`MAX_LINES`] mounts.
pub fn plan_text(volumes: u32, protocol: &str, nconnect: u32) -> String {
    let vers = if protocol == "nfsv4.1" {
        "vers=4.1"
    } else {
        "vers=3"
    };
    let nconnect = if nconnect > 1 {
        format!(",nconnect={nconnect}")
    } else {
        String::new()
    };
    mount_lines(volumes, &format!("rw,hard,{vers}{nconnect}"))
}

/// Mount commands for `volumes` volumes, one per endpoint as [`plan_text`] numbers
/// them, all with the mount options `options`; at most [`MAX_LINES`] mounts.
pub fn mount_lines(volumes: u32, options: &str) -> String {
    let count = (volumes as usize).min(MAX_LINES);
    let mut out = String::new();
    for i in 0..count {
        let n = 4 + i;
        out.push_str(&format!(
            "mount -t nfs -o {options} 10.0.{}.{}:/volume{2} /mnt/volume{2}\n",
            n / 256,
            n % 256,
            i + 1
        ));
    }
    out
}
