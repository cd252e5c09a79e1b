//! `volplan iac check` as a pipeline runs it: the exit code on a missed target, on a
//! cost over the ceiling, and on a cost grown past `--max-increase-pct` over the
//! `--baseline` code.

use super::template;
use serde_json::{Value, json};
use std::process::{Command, Output};

fn volplan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_volplan"))
        .args(args)
        .output()
        .expect("runs")
}

/// The sap-hana template with `count` volumes, exported by `volplan export terraform`
/// into `dir`.
fn code(dir: &std::path::Path, count: u32) -> String {
    let mut s = template("sap-hana");
    s["storage"]["volumes"][0]["count"] = json!(count);
    let scenario = dir.join(format!("sap-{count}.json"));
    std::fs::write(&scenario, s.to_string()).unwrap();
    let out = volplan(&["export", "terraform", scenario.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tf = dir.join(format!("sap-{count}.tf"));
    std::fs::write(&tf, &out.stdout).unwrap();
    tf.display().to_string()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_check_fails_when_the_cost_grows_past_the_allowed_increase() {
    let dir = tempfile::tempdir().unwrap();
    let (before, after) = (code(dir.path(), 2), code(dir.path(), 3));
    let json = |args: &[&str]| -> Value {
        let out = volplan(&[&["iac", "check", "--json"], args].concat());
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let (was, now) = (
        json(&[&before])["monthly"].as_f64().unwrap(),
        json(&[&after])["monthly"].as_f64().unwrap(),
    );
    let pct = (now - was) / was * 100.0;
    assert!(pct > 10.0, "a third volume costs more: {was} -> {now}");
    // Without a baseline, the code meets its targets: exit 0.
    assert_eq!(volplan(&["iac", "check", &after]).status.code(), Some(0));

    let out = volplan(&[
        "iac",
        "check",
        &after,
        "--baseline",
        &before,
        "--max-increase-pct",
        "10",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let last = stdout(&out).lines().last().unwrap_or_default().to_owned();
    let money = |v: f64| volplan::format::monthly(Some(v), "USD");
    assert_eq!(
        last,
        format!(
            "The code costs {} against {} before the change: {} ({}), over the allowed increase of 10%.",
            money(now),
            money(was),
            volplan::format::signed_money(now - was, "USD"),
            volplan::format::signed_pct(pct),
        )
    );

    let limit = format!("{}", pct.ceil() + 1.0);
    let out = volplan(&[
        "iac",
        "check",
        &after,
        "--baseline",
        &before,
        "--max-increase-pct",
        &limit,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("within the allowed increase"));

    // A smaller change never fails; without a threshold the increase is only stated.
    let out = volplan(&[
        "iac",
        "check",
        &before,
        "--baseline",
        &after,
        "--max-increase-pct",
        "0",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let out = volplan(&["iac", "check", &after, "--baseline", &before]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("before the change"));

    let growth = &json(&[&after, "--baseline", &before, "--max-increase-pct", "10"])["growth"];
    assert_eq!(growth["over"], true);
    assert_eq!(growth["baseline_monthly"].as_f64(), Some(was));
    assert!((growth["increase_pct"].as_f64().unwrap() - pct).abs() < 1e-9);

    // Wrong use: exit 2, saying what to fix.
    let out = volplan(&["iac", "check", &after, "--max-increase-pct", "10"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--baseline"));
    let out = volplan(&[
        "iac",
        "check",
        &after,
        "--baseline",
        &before,
        "--max-increase-pct",
        "-5",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let missing = dir.path().join("none.tf").display().to_string();
    let out = volplan(&["iac", "check", &after, "--baseline", &missing]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("none.tf"));
}

#[test]
fn the_check_fails_on_a_missed_target_and_a_cost_over_the_ceiling() {
    let dir = tempfile::tempdir().unwrap();
    let tf = code(dir.path(), 2);
    let out = volplan(&["iac", "check", &tf, "--max-monthly", "100"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("over the ceiling of $100.00/month"));

    // A target the code cannot reach, in its workload tag.
    let mut s = template("sap-hana");
    s["workload"]["target_mibps"] = json!(50_000);
    let scenario = dir.path().join("fast.json");
    std::fs::write(&scenario, s.to_string()).unwrap();
    let out = volplan(&["export", "terraform", scenario.to_str().unwrap()]);
    let fast = dir.path().join("fast.tf");
    std::fs::write(&fast, &out.stdout).unwrap();
    let out = volplan(&["iac", "check", fast.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
}
