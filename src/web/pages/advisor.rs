//! The mount advisor: paste fstab lines or `mount` commands, pick the distribution and
//! workload, and see each mount's effective nconnect, the findings, the recommended
//! fstab and the client kernel settings; the Windows SMB checklist while no Linux
//! mounts are checked.
//!
//! `GET /advisor?from=<base64url Scenario JSON>` pre-fills the mounts a scenario implies
//! (for AVS, whose ESXi hosts mount the volumes, the datastore steps instead);
//! the planner reaches it by posting its form to `/advisor/from-plan`. The form posts to
//! `/advisor` and works without JavaScript; `static/js/copy.js` only adds the copy
//! buttons.

use super::{PageError, form, render};
use crate::engine::scenario::{NfsClient, Protocol, Scenario, Sec};
use crate::measure::testplan;
use crate::mounts::{
    self, Finding, InputError, MountAdvice, MountRequest, Setting, Severity, Workload,
};
use crate::web::auth::Declare;
use crate::web::share;
use crate::web::state::AppState;
use askama::Template;
use axum::Router;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Deserialize;

type Pairs = axum::Form<Vec<(String, String)>>;

/// `/advisor` (GET form or pre-filled, POST check) and `/advisor/from-plan`.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/advisor", get(show).post(check).compute())
        .route("/advisor/from-plan", post(from_plan).compute())
}

/// Query of `GET /advisor`: a scenario to start from, or the form's fields.
#[derive(Debug, Default, Deserialize)]
pub struct AdvisorQuery {
    from: Option<String>,
    text: Option<String>,
    distro: Option<String>,
    workload: Option<String>,
}

/// One mount as the results table shows it.
struct MountRow {
    line: usize,
    endpoint: String,
    export: String,
    path: String,
    protocol: String,
    requested: String,
    effective: String,
    /// Why the effective value differs from the requested one, if it does.
    note: &'static str,
}

/// One finding (or several with the same text on different lines), with its
/// severity spelled out: colour never carries it alone.
struct FindingRow {
    severity: &'static str,
    label: &'static str,
    place: String,
    code: &'static str,
    message: String,
}

/// The results part of the page.
struct Results {
    summary: String,
    mounts: Vec<MountRow>,
    findings: Vec<FindingRow>,
    fstab: String,
    kernel: Vec<Setting>,
}

#[derive(Template)]
#[template(path = "pages/advisor.html")]
struct AdvisorPage {
    text: String,
    distro: String,
    workload: String,
    workloads: Vec<(&'static str, &'static str)>,
    text_error: Option<String>,
    distro_error: Option<String>,
    workload_error: Option<String>,
    /// Where the text came from (a scenario) or why there is none.
    note: Option<String>,
    /// The scenario's Oracle Direct NFS configuration, when it uses Direct NFS.
    dnfs: Option<DnfsSetup>,
    /// An AVS scenario's datastore steps on the ESXi hosts (they mount the volumes).
    esxi: Option<String>,
    results: Option<Results>,
}

impl AdvisorPage {
    fn new(text: String, distro: String, workload: String) -> Self {
        AdvisorPage {
            text,
            distro,
            workload,
            workloads: Workload::ALL.iter().map(|w| (w.key(), w.label())).collect(),
            text_error: None,
            distro_error: None,
            workload_error: None,
            note: None,
            dnfs: None,
            esxi: None,
            results: None,
        }
    }

    /// The Windows SMB checklist is for SMB clients: shown until Linux mounts are
    /// checked, never beside them or the ESXi steps.
    fn smb_checklist(&self) -> bool {
        self.esxi.is_none() && self.results.as_ref().is_none_or(|r| r.mounts.is_empty())
    }

    /// Checks the fields and, when they are usable, runs the advisor.
    fn run(mut self) -> (StatusCode, Self) {
        let workload = match self.workload.trim() {
            "" => None,
            key => match Workload::from_key(key) {
                Some(w) => Some(w),
                None => {
                    self.workload_error = Some(format!("“{key}” is not a workload of the list"));
                    return (StatusCode::UNPROCESSABLE_ENTITY, self);
                }
            },
        };
        let distro = Some(self.distro.trim().to_owned()).filter(|d| !d.is_empty());
        let req = MountRequest {
            text: self.text.clone(),
            distro,
            workload,
        };
        if let Err(InputError { field, message }) = req.validate() {
            match field {
                "distro" => self.distro_error = Some(message),
                _ => self.text_error = Some(message),
            }
            return (StatusCode::UNPROCESSABLE_ENTITY, self);
        }
        self.results = Some(results(&mounts::advise(&req)));
        (StatusCode::OK, self)
    }
}

fn results(a: &MountAdvice) -> Results {
    let findings = finding_rows(&a.findings);
    // Counted as listed: a finding repeated on several lines is one row.
    let count = |s: &str| findings.iter().filter(|f| f.severity == s).count();
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let summary = format!(
        "{}; {}, {}, {}.",
        plural(a.mounts.len(), "mount", "mounts"),
        plural(count(Severity::Error.key()), "error", "errors"),
        plural(count(Severity::Warn.key()), "warning", "warnings"),
        plural(count(Severity::Info.key()), "suggestion", "suggestions"),
    );
    Results {
        summary,
        mounts: a
            .mounts
            .iter()
            .map(|m| MountRow {
                line: m.line,
                endpoint: m.endpoint.clone(),
                export: m.export.clone(),
                path: m.path.clone(),
                protocol: m.protocol.clone(),
                requested: m
                    .requested_nconnect
                    .map_or_else(|| "–".to_owned(), |n| n.to_string()),
                effective: if m.effective_nconnect == 0 {
                    "mount fails".to_owned()
                } else {
                    m.effective_nconnect.to_string()
                },
                note: match m.requested_nconnect {
                    _ if m.effective_nconnect == 0 => "rejected by the kernel",
                    None if m.effective_nconnect > 1 => "inherited",
                    Some(r) if r != m.effective_nconnect => "ignored",
                    _ => "",
                },
            })
            .collect(),
        findings,
        fstab: a.fstab.clone(),
        kernel: a.kernel.clone(),
    }
}

/// The findings for people: most severe first, and one row for a finding that
/// repeats word for word on several lines ("Lines 1, 2, 5").
fn finding_rows(findings: &[Finding]) -> Vec<FindingRow> {
    let mut groups: Vec<(&Finding, Vec<usize>)> = Vec::new();
    for f in findings {
        match groups
            .iter_mut()
            .find(|(g, _)| g.code == f.code && g.message == f.message && g.line.is_some())
        {
            Some((_, lines)) if f.line.is_some() => lines.extend(f.line),
            _ => groups.push((f, f.line.into_iter().collect())),
        }
    }
    groups.sort_by_key(|(f, lines)| (f.severity, f.line.is_none(), lines.first().copied()));
    groups
        .into_iter()
        .map(|(f, lines)| FindingRow {
            severity: f.severity.key(),
            label: match f.severity {
                Severity::Error => "Error",
                Severity::Warn => "Warning",
                Severity::Info => "Suggestion",
            },
            place: match lines.as_slice() {
                [] => "Whole plan".to_owned(),
                [one] => format!("Line {one}"),
                many => format!(
                    "Lines {}",
                    many.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            },
            code: f.code,
            message: f.message.clone(),
        })
        .collect()
}

/// How a scenario's Oracle Direct NFS is configured: the `oranfstab` for the advisor's
/// mounts and how to switch Direct NFS on.
struct DnfsSetup {
    oranfstab: String,
    enable: &'static str,
    source: String,
}

impl DnfsSetup {
    fn of(s: &Scenario) -> Option<Self> {
        (s.clients.nfs_client == NfsClient::Dnfs && s.clients.protocol.is_nfs()).then(|| {
            // The same endpoints, exports and mount points as mounts::plan_text.
            let names = |i: u32| {
                let n = 3 + i;
                (
                    format!("10.0.{}.{}", n / 256, n % 256),
                    format!("/volume{i}"),
                    format!("/mnt/volume{i}"),
                )
            };
            DnfsSetup {
                oranfstab: testplan::oranfstab(s, names),
                enable: testplan::DNFS_ENABLE,
                source: testplan::DNFS_MOUNT_SOURCE.to_string(),
            }
        })
    }
}

/// The mounts a scenario implies, with a note saying where they come from.
fn plan_from_scenario(s: &Scenario) -> (String, String) {
    let volumes: u32 = s
        .storage
        .volumes
        .iter()
        .map(|g| g.count)
        .fold(0, u32::saturating_add);
    let protocol = match s.clients.protocol {
        Protocol::Nfsv3 => "nfsv3",
        Protocol::Nfsv41 => "nfsv4.1",
        Protocol::Smb3 => {
            return (
                String::new(),
                format!(
                    "“{}” uses SMB: there are no NFS mounts to check. See the Windows SMB checklist below.",
                    s.name
                ),
            );
        }
    };
    if s.clients.avs.is_some() {
        return (
            String::new(),
            format!(
                "“{}” runs on AVS: the ESXi hosts mount its {volumes} volume(s) as NFS datastores (one connection per host and datastore unless set otherwise), so there are no Linux mounts to check. The steps for the hosts are below; paste the mounts of a Linux VM to check those.",
                s.name
            ),
        );
    }
    let dnfs = s.clients.nfs_client == NfsClient::Dnfs;
    let text = if dnfs {
        // Direct NFS keeps kernel mounts with the Oracle options, without nconnect.
        mounts::mount_lines(volumes, &testplan::mount_options(s))
    } else if s.clients.sec != Sec::Sys {
        let nconnect = match s.clients.nconnect {
            n if n > 1 => format!(",nconnect={n}"),
            _ => String::new(),
        };
        mounts::mount_lines(
            volumes,
            &format!("rw,hard,vers=4.1,sec={}{nconnect}", s.clients.sec.key()),
        )
    } else {
        mounts::plan_text(volumes, protocol, s.clients.nconnect)
    };
    let mut note = if volumes == 1 {
        format!(
            "Mount command for “{}”: 1 volume at storage endpoint 10.0.0.4 (put your volume's IP address in).",
            s.name
        )
    } else {
        format!(
            "Mount commands for “{}”: {volumes} volumes, one storage endpoint each (10.0.0.4 onwards: put your volumes' IP addresses in).",
            s.name
        )
    };
    if dnfs {
        note.push_str(" The database uses Oracle Direct NFS: it opens its own connections, so these kernel mounts carry no nconnect; the oranfstab below configures Direct NFS.");
    }
    (text, note)
}

/// `GET /advisor`: the empty form, or pre-filled from a scenario or query fields.
pub async fn show(Query(q): Query<AdvisorQuery>) -> Result<Response, PageError> {
    let mut page = AdvisorPage::new(
        q.text.unwrap_or_default(),
        q.distro.unwrap_or_default(),
        q.workload.unwrap_or_default(),
    );
    if let Some(from) = q.from.as_deref() {
        let scenario = share::decode(Some(from))
            .map_err(|e| PageError::BadRequest(e.to_string().replace("?s=", "?from=")))?;
        let (text, note) = plan_from_scenario(&scenario);
        page.text = text;
        page.note = Some(note);
        page.dnfs = DnfsSetup::of(&scenario);
        page.esxi = scenario
            .clients
            .avs
            .is_some()
            .then(|| testplan::esxi_datastore_setup(&scenario));
        if page.dnfs.is_some() && page.workload.is_empty() {
            page.workload = Workload::Database.key().to_owned();
        }
    }
    if page.text.trim().is_empty() {
        return render(StatusCode::OK, &page);
    }
    let (status, page) = page.run();
    render(status, &page)
}

/// `POST /advisor`: checks the pasted plan.
pub async fn check(axum::Form(pairs): Pairs) -> Result<Response, PageError> {
    let field = |name: &str| {
        pairs
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let page = AdvisorPage::new(field("text"), field("distro"), field("workload"));
    let (status, page) = page.run();
    render(status, &page)
}

/// `POST /advisor/from-plan`: the planner's form, turned into its mount commands.
pub async fn from_plan(
    State(st): State<AppState>,
    axum::Form(pairs): Pairs,
) -> Result<Response, PageError> {
    let (_, scenario) = form::parse(&pairs, &st.book());
    let Some(mut scenario) = scenario else {
        let mut page = AdvisorPage::new(String::new(), String::new(), String::new());
        page.note = Some(
            "The planner's inputs have errors, so there is no scenario to take the mounts from: fix the marked inputs in the planner first, or paste your mounts here.".into(),
        );
        return render(StatusCode::UNPROCESSABLE_ENTITY, &page);
    };
    scenario.id = None;
    let json = serde_json::to_vec(&scenario)
        .map_err(|e| PageError::Internal(format!("scenario JSON: {e}")))?;
    Ok(Redirect::to(&link_json(&json)).into_response())
}

fn link_json(json: &[u8]) -> String {
    format!("/advisor?from={}", URL_SAFE_NO_PAD.encode(json))
}

/// The advisor link of a scenario: the mount commands it implies.
pub fn link(scenario: &Scenario) -> String {
    let mut s = scenario.clone();
    s.id = None;
    match serde_json::to_vec(&s) {
        Ok(json) => link_json(&json),
        Err(_) => "/advisor".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::scenario_templates::TEMPLATES;

    #[test]
    fn scenario_links_fill_one_mount_per_volume() {
        for t in TEMPLATES {
            let s = t.scenario();
            let url = link(&s);
            let back = share::decode(url.strip_prefix("/advisor?from=")).unwrap();
            let (text, note) = plan_from_scenario(&back);
            assert!(note.contains(&s.name), "{note}");
            let volumes: u32 = s.storage.volumes.iter().map(|g| g.count).sum();
            if s.clients.avs.is_some() {
                assert!(text.is_empty() && note.contains("ESXi hosts"), "{note}");
            } else if s.clients.protocol == Protocol::Smb3 {
                assert!(text.is_empty());
            } else {
                assert_eq!(
                    text.lines().count(),
                    volumes.min(mounts::MAX_LINES as u32) as usize
                );
                let a = mounts::advise(&MountRequest {
                    text,
                    distro: None,
                    workload: None,
                });
                assert!(
                    a.mounts
                        .iter()
                        .all(|m| m.effective_nconnect == s.clients.nconnect)
                );
            }
        }
    }

    #[test]
    fn repeated_findings_share_a_row_and_the_severe_come_first() {
        let a = mounts::advise(&MountRequest {
            text: "mount -o vers=3 h:/a /a\nmount -o vers=3,nconnect=8 h:/b /b\nmount -o vers=3 h:/c /c".into(),
            distro: None,
            workload: Some(Workload::Eda),
        });
        let rows = finding_rows(&a.findings);
        assert_eq!(rows[0].code, "nconnect_ignored");
        let nocto: Vec<&FindingRow> = rows
            .iter()
            .filter(|r| r.code == "nocto_suggestion")
            .collect();
        assert_eq!(nocto.len(), 1);
        assert_eq!(nocto[0].place, "Lines 1, 2, 3");
        assert!(rows.iter().any(|r| r.place == "Whole plan"));
        assert_eq!(rows.last().map(|r| r.place.as_str()), Some("Whole plan"));
    }

    #[test]
    fn bad_fields_are_marked_not_run() {
        let (status, page) =
            AdvisorPage::new("mount h:/a /a".into(), "windows 11".into(), String::new()).run();
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(page.distro_error.is_some() && page.results.is_none());
        let (status, page) =
            AdvisorPage::new("mount h:/a /a".into(), String::new(), "hpc".into()).run();
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(page.workload_error.is_some());
        let (status, page) = AdvisorPage::new(
            "mount -o nconnect=8 h:/a /a\nmount h:/b /b".into(),
            "rhel 9.4".into(),
            "eda".into(),
        )
        .run();
        assert_eq!(status, StatusCode::OK);
        let r = page.results.unwrap();
        assert_eq!(r.mounts[1].note, "inherited");
        assert!(r.summary.starts_with("2 mounts;"), "{}", r.summary);
    }
}
