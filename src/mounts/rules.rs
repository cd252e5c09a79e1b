//! The rules: nconnect per endpoint, Kerberos, sizes, recovery, caching, slots.

use super::fstab::{Plan, recommended_rwsize, recommended_version};
use super::parse::{GroupKey, Opts, Parsed, Version, is_krb5, parse_line, read_opts};
use super::settings::kernel_settings;
use super::*;
use std::collections::HashMap;

/// The first successful mount to an endpoint and the nconnect it set.
struct Group {
    first_line: usize,
    first_requested: Option<u32>,
    value: u32,
}

/// Checks a mount plan and writes the recommended fstab.
pub fn advise(req: &MountRequest) -> MountAdvice {
    let mut findings = Vec::new();
    let distro = match req
        .distro
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        None => None,
        Some(d) => match Distro::parse(d) {
            Ok(d) => Some(d),
            Err(msg) => {
                findings.push(Finding::new(
                    "distro_invalid",
                    Severity::Error,
                    None,
                    msg,
                    SRC_DISTRO,
                ));
                None
            }
        },
    };
    let workload = req.workload;

    let mut parsed: Vec<(usize, Parsed, Opts)> = Vec::new();
    for (i, raw) in req.text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        match parse_line(t) {
            Ok(p) => {
                let o = read_opts(&p, line, &mut findings);
                parsed.push((line, p, o));
            }
            // Another file system's mount (the root's xfs) is not the advisor's to judge.
            Err(e) if e.not_nfs => findings.push(Finding::new(
                "not_nfs",
                Severity::Info,
                Some(line),
                format!("skipped: {}", e.message),
                SRC_PARSE,
            )),
            Err(e) => findings.push(Finding::new(
                "parse_error",
                Severity::Error,
                Some(line),
                format!(
                    "not a mount: {}; the other lines are still checked",
                    e.message
                ),
                SRC_PARSE,
            )),
        }
    }

    let mut groups: HashMap<GroupKey, Group> = HashMap::new();
    let mut mounts = Vec::with_capacity(parsed.len());
    let mut paths: HashMap<&str, usize> = HashMap::new();
    for (line, p, o) in &parsed {
        let line = *line;
        let effective = endpoint_nconnect(line, p, o, &mut groups, &mut findings);
        let effective = check_nconnect_use(line, o, effective, distro, &mut findings);
        check_sizes(line, o, workload, &mut findings);
        check_recovery(line, p, o, &mut findings);
        check_caching(line, o, workload, &mut findings);
        if let Some(first) = paths.get(p.path.as_str()) {
            findings.push(Finding::new(
                "path_duplicate",
                Severity::Warn,
                Some(line),
                format!(
                    "{} is already the mount point of line {first}; this mount hides it",
                    p.path
                ),
                SRC_PARSE,
            ));
        } else {
            paths.insert(&p.path, line);
        }

        mounts.push(mount_entry(line, p, o, effective));
    }

    let plan = Plan::new(&parsed, distro, workload);
    suggest_nconnect(&parsed, &plan, workload, &mut findings);
    global_findings(&parsed, distro, workload, &mut findings);

    findings.sort_by_key(|f| (f.line.is_none(), f.line, f.severity));
    let fstab = plan.fstab(&parsed, workload);
    let mut advice = MountAdvice {
        mounts,
        findings,
        fstab,
        kernel: Vec::new(),
    };
    advice.kernel = kernel_settings(&advice, workload);
    advice
}

/// The nconnect a mount really gets: its endpoint's first mount decides
/// (`nconnect_inherited`, `nconnect_ignored`); 0 when the kernel rejects it.
fn endpoint_nconnect(
    line: usize,
    p: &Parsed,
    o: &Opts,
    groups: &mut HashMap<GroupKey, Group>,
    findings: &mut Vec<Finding>,
) -> u32 {
    let key = (p.host.clone(), o.version.clone());
    let endpoint = &p.host;
    let rejected = o.nconnect.is_some_and(|n| n == 0 || n > NCONNECT_MAX);
    if let Some(n) = o.nconnect.filter(|_| rejected) {
        if n == 0 {
            findings.push(Finding::new(
                "option_invalid",
                Severity::Error,
                Some(line),
                "nconnect=0 is out of range (1 to 16); the kernel rejects this mount".into(),
                SRC_MAX,
            ));
        } else {
            findings.push(Finding::new(
                "nconnect_too_high",
                Severity::Error,
                Some(line),
                format!("nconnect={n} is above the maximum of {NCONNECT_MAX}; the kernel rejects this mount. Use nconnect=4, or 8 for throughput-heavy work"),
                SRC_MAX,
            ));
        }
    }
    if rejected {
        0
    } else if let Some(g) = groups.get(&key) {
        match o.nconnect {
            None if g.value > 1 => findings.push(Finding::new(
                "nconnect_inherited",
                Severity::Info,
                Some(line),
                format!(
                    "no nconnect here, but this mount uses nconnect={} set by the first mount to {endpoint} (line {})",
                    g.value, g.first_line
                ),
                SRC_INHERIT,
            )),
            Some(r) if r != g.value => {
                let why = match g.first_requested {
                    None => format!(
                        "the first mount to {endpoint} (line {}) had no nconnect, so every mount to {endpoint} shares 1 connection. Put nconnect={r} on the first mount to this endpoint",
                        g.first_line
                    ),
                    Some(v) => format!(
                        "the first mount to {endpoint} (line {}) set nconnect={v}, which every later mount to it uses",
                        g.first_line
                    ),
                };
                findings.push(Finding::new(
                    "nconnect_ignored",
                    Severity::Warn,
                    Some(line),
                    format!("nconnect={r} is ignored: {why}"),
                    SRC_INHERIT,
                ));
            }
            _ => {}
        }
        g.value
    } else {
        let value = o.nconnect.unwrap_or(1);
        groups.insert(
            key,
            Group {
                first_line: line,
                first_requested: o.nconnect,
                value,
            },
        );
        value
    }
}

/// Kerberos and distribution checks for a mount that uses (or asks for) nconnect;
/// answers the effective nconnect, 1 on a release without nconnect support.
fn check_nconnect_use(
    line: usize,
    o: &Opts,
    effective: u32,
    distro: Option<Distro>,
    findings: &mut Vec<Finding>,
) -> u32 {
    let uses_nconnect = effective > 1 || o.nconnect.is_some_and(|n| n > 1);

    if uses_nconnect && is_krb5(&o.sec) {
        findings.push(Finding::new(
            "nconnect_krb5",
            Severity::Warn,
            Some(line),
            format!(
                "nconnect={} with sec={}: all connections share one GSS context, and out-of-window packets force renegotiation and resends. Mount Kerberos volumes without nconnect, and mount them first to their endpoint",
                if effective > 1 { effective } else { o.nconnect.unwrap_or(1) },
                o.sec
            ),
            SRC_KRB5,
        ));
    }
    let Some(d) = distro.filter(|_| uses_nconnect) else {
        return effective;
    };
    let v41 = !matches!(o.version, Version::V3);
    let version = match o.version {
        Version::V3 => "NFSv3",
        Version::Negotiated => "NFSv4.1 (no version stated: a current client tries NFSv4 first)",
        _ => "NFSv4.1",
    };
    match d.nconnect_support(v41) {
        Support::Yes => effective,
        Support::No(min) => {
            findings.push(Finding::new(
                "nconnect_unsupported_distro",
                Severity::Warn,
                Some(line),
                format!(
                    "{d} does not support nconnect for {version}; the minimum release is {min}. The mount uses 1 connection until the client is upgraded"
                ),
                SRC_DISTRO,
            ));
            1
        }
        Support::Unstated => {
            findings.push(Finding::new(
                "nconnect_distro_unstated",
                Severity::Info,
                Some(line),
                format!(
                    "{d}: no minimum Ubuntu release is documented for nconnect with NFSv4.1 (the NFSv3 minimum is Ubuntu 18.04); check that the client really opens {effective} connections (`ss -tn` to port 2049)"
                ),
                SRC_DISTRO,
            ));
            effective
        }
    }
}

fn mount_entry(line: usize, p: &Parsed, o: &Opts, effective: u32) -> Mount {
    Mount {
        line,
        endpoint: p.host.clone(),
        export: p.export.clone(),
        path: p.path.clone(),
        protocol: o.version.protocol(),
        requested_nconnect: o.nconnect,
        effective_nconnect: effective,
        form: p.form,
        sec: o.sec.clone(),
        options: p
            .opts
            .iter()
            .map(|(k, v)| match v {
                Some(v) => format!("{k}={v}"),
                None => k.clone(),
            })
            .collect(),
    }
}

fn check_sizes(line: usize, o: &Opts, workload: Option<Workload>, findings: &mut Vec<Finding>) {
    for (code, name, value) in [
        ("rsize_over_256k", "rsize", o.rsize),
        ("wsize_over_256k", "wsize", o.wsize),
    ] {
        if let Some(v) = value.filter(|v| *v > RWSIZE_MAX) {
            findings.push(Finding::new(
                code,
                Severity::Warn,
                Some(line),
                format!(
                    "{name}={v} ({} KiB) is above 256 KiB: larger transfers raise latency and lower throughput. Use {name}={}",
                    v / 1024,
                    recommended_rwsize(workload)
                ),
                SRC_RWSIZE,
            ));
        }
    }
    if o.rsize.is_none() || o.wsize.is_none() {
        findings.push(Finding::new(
            "rwsize_missing",
            Severity::Info,
            Some(line),
            format!(
                "without rsize/wsize the client negotiates up to 1 MiB with the server; set rsize={0},wsize={0}",
                recommended_rwsize(workload)
            ),
            SRC_RWSIZE,
        ));
    }
}

fn check_recovery(line: usize, p: &Parsed, o: &Opts, findings: &mut Vec<Finding>) {
    match o.recovery.as_deref() {
        Some(s @ ("soft" | "softerr")) => findings.push(Finding::new(
            "soft_mount",
            Severity::Warn,
            Some(line),
            format!("`{s}` returns I/O errors to applications when the server is slow to answer, which can corrupt data; use hard"),
            SRC_HARD,
        )),
        Some(_) => {}
        None => findings.push(Finding::new(
            "hard_missing",
            Severity::Info,
            Some(line),
            "`hard` is not stated; it is the Linux default, but state it so the intent is explicit and survives copying".into(),
            SRC_HARD,
        )),
    }
    let udp = o.proto.as_deref() == Some("udp");
    if udp {
        findings.push(Finding::new(
            "proto_udp",
            Severity::Warn,
            Some(line),
            "NFS over UDP: use TCP (`tcp` or proto=tcp); nconnect and timeo=600 assume TCP".into(),
            SRC_TCP,
        ));
    }
    if let Some(t) = o.timeo.filter(|t| *t < TIMEO_TCP && !udp) {
        findings.push(Finding::new(
            "timeo_low",
            Severity::Warn,
            Some(line),
            format!(
                "timeo={t} ({:.1} s) is below timeo=600 (60 s), the TCP default; short timeouts retransmit under load and add to it",
                t as f64 / 10.0
            ),
            SRC_HARD,
        ));
    }
    match &o.version {
        Version::Negotiated => findings.push(Finding::new(
            "vers_missing",
            Severity::Info,
            Some(line),
            "no NFS version: the client negotiates the highest one the server offers; state vers=3 or vers=4.1 to match the volume's protocol; the recommended fstab pins 4.1, what the client tries first (make it vers=3 for an NFSv3 volume)".into(),
            SRC_VERS,
        )),
        Version::V4(None) => findings.push(Finding::new(
            "minorversion_missing",
            Severity::Info,
            Some(line),
            "NFSv4 without a minor version: state vers=4.1 (or vers=4,minorversion=1); the recommended fstab pins 4.1".into(),
            SRC_VERS,
        )),
        _ => {}
    }
    if p.form == "fstab" && !o.netdev {
        findings.push(Finding::new(
            "netdev_missing",
            Severity::Info,
            Some(line),
            "add _netdev so the mount waits for the network at boot".into(),
            SRC_NETDEV,
        ));
    }
}

fn check_caching(line: usize, o: &Opts, workload: Option<Workload>, findings: &mut Vec<Finding>) {
    let Some(w) = workload else { return };
    if let Some(s) = w.suggested_actimeo()
        && (o.actimeo != Some(s) || o.noac)
    {
        let now = match (o.noac, o.actimeo) {
            (true, _) => "noac turns the attribute cache off".to_owned(),
            (false, Some(a)) => format!("actimeo={a} is set"),
            (false, None) => "the default attribute cache (3 to 60 s) applies".to_owned(),
        };
        findings.push(Finding::new(
            "actimeo_suggestion",
            Severity::Info,
            Some(line),
            format!("for {}, actimeo={s} is suggested; {now}", w.label()),
            SRC_CACHE,
        ));
    }
    if w.suggests_nocto() && !o.nocto {
        findings.push(Finding::new(
            "nocto_suggestion",
            Severity::Info,
            Some(line),
            format!(
                "for {} (read-mostly, updated elsewhere), nocto removes about 65-70% of GETATTR/ACCESS calls",
                w.label()
            ),
            SRC_CACHE,
        ));
    }
    if w == Workload::SharedRw && (o.nocto || o.actimeo.is_some_and(|a| a > 60)) {
        findings.push(Finding::new(
            "cache_shared_rw",
            Severity::Warn,
            Some(line),
            "nocto or a long actimeo on data that several clients write: clients can read stale data; keep close-to-open consistency and the default attribute cache".into(),
            SRC_CACHE,
        ));
    }
}

/// Suggests nconnect on the first mount of endpoints that use 1 connection.
fn suggest_nconnect(
    parsed: &[(usize, Parsed, Opts)],
    plan: &Plan,
    workload: Option<Workload>,
    findings: &mut Vec<Finding>,
) {
    for (key, first_line) in &plan.first {
        let requested = parsed
            .iter()
            .filter(|(_, p, o)| p.host == key.0 && recommended_version(&o.version) == key.1)
            .any(|(_, _, o)| o.nconnect.is_some_and(|n| n > 1));
        if requested {
            continue;
        }
        if let Some(n) = plan.nconnect.get(key).copied().flatten() {
            let why = if workload == Some(Workload::SasGrid) {
                "8 for throughput-heavy work such as SAS GRID"
            } else {
                "4 is best in most environments; 8 for throughput-heavy work"
            };
            findings.push(Finding::new(
                "nconnect_suggestion",
                Severity::Info,
                Some(*first_line),
                format!(
                    "every mount to {} shares one TCP connection; add nconnect={n} to this first mount ({why})",
                    key.0
                ),
                SRC_NCONNECT,
            ));
        }
    }
}

fn global_findings(
    parsed: &[(usize, Parsed, Opts)],
    distro: Option<Distro>,
    workload: Option<Workload>,
    findings: &mut Vec<Finding>,
) {
    let any_nconnect = parsed
        .iter()
        .any(|(_, _, o)| o.nconnect.is_some_and(|n| n > 1));
    if any_nconnect && distro.is_none() {
        findings.push(Finding::new(
            "nconnect_distro_unchecked",
            Severity::Info,
            None,
            "give the client distribution to check nconnect support: NFSv3 needs RHEL 8.3, SLES 12 SP4 or 15 SP1, Ubuntu 18.04; NFSv4.1 needs RHEL 8.3 or SLES 15 SP2".into(),
            SRC_DISTRO,
        ));
    }
    if parsed
        .iter()
        .any(|(_, _, o)| matches!(o.version, Version::V3 | Version::Negotiated))
    {
        findings.push(Finding::new(
            "slot_table",
            Severity::Info,
            None,
            "NFSv3: set sunrpc.tcp_max_slot_table_entries=128 in /etc/sysctl.d; the server serves 128 requests per TCP connection and the client default (65,536) only queues more".into(),
            SRC_SLOTS,
        ));
    }
    if parsed
        .iter()
        .any(|(_, _, o)| o.version.is_v4() || o.version == Version::Negotiated)
    {
        findings.push(Finding::new(
            "session_slots",
            Severity::Info,
            None,
            "NFSv4.1: add `options nfs max_session_slots=180` in /etc/modprobe.d and reboot; the Linux default is 64 slots per session and ANF allows 180 (reaching 180 needs nconnect 2 or more)".into(),
            SRC_SLOTS,
        ));
    }
    if workload == Some(Workload::SasGrid) && !parsed.is_empty() {
        findings.push(Finding::new(
            "read_ahead",
            Severity::Info,
            None,
            "SAS GRID: raise NFS read-ahead to 15 MiB (read_ahead_kb=15360) with a udev rule; newer kernels default to 128 KiB. SAS GRID uses rsize/wsize 64 KiB with this read-ahead".into(),
            SRC_READ_AHEAD,
        ));
    }
}
