//! A claimant in another PID namespace keeps its group: a process started with
//! `unshare --user --pid --fork --map-root-user` (what any unprivileged user can do) holds a
//! simulator group; its pid is 1 in its namespace, which here names init, another process
//! started at another time. Before claims recorded the PID namespace, `gba sim fault reclaim`
//! (and any plain claim) took that for a dead claimant and reset the group from under the
//! running job. Now the claim is reported as held from another PID namespace, reclaim leaves
//! it alone, and a claim of this namespace is refused as busy; once the process leaves the
//! group, it is free.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use gba_hal::{Device, Error, GroupConfig, MemberSet};
use gba_sim::SimBackend;

/// Set in the child: the fabric it claims group [`GROUP`] of port 0 in.
const CHILD: &str = "GBA_PID_NAMESPACE_CHILD";
const GROUP: usize = 3;
const TEST: &str = "a_claimant_in_another_pid_namespace_keeps_its_group";

fn gba(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gba"))
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("GBA_DEVICE")
        .env_remove("GBA_SIM_FABRIC")
        .output()
        .expect("the gba binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn config() -> GroupConfig {
    GroupConfig::new(GROUP, [0].into_iter().collect::<MemberSet>())
}

/// The child, inside the namespaces: claims the group, says so, holds it until its stdin
/// closes, then leaves it.
fn child(fabric: &Path) {
    let device = Device::new(SimBackend::open(fabric, 0).expect("open port 0")).expect("device");
    let group = device.claim(config()).expect("claim inside the namespace");
    println!("held pid {}", std::process::id());
    std::io::stdout().flush().unwrap();
    let mut line = String::new();
    while std::io::stdin().read_line(&mut line).is_ok_and(|n| n > 0) {}
    drop(group);
    println!("left");
}

/// Whether unprivileged user and PID namespaces can be made here, and if not, why.
fn unshare_unavailable() -> Option<String> {
    match Command::new("unshare")
        .args(["--user", "--pid", "--fork", "--map-root-user", "true"])
        .output()
    {
        Ok(out) if out.status.success() => None,
        Ok(out) => Some(format!(
            "`unshare --user --pid --fork --map-root-user true` failed: {}",
            text(&out.stderr).trim()
        )),
        Err(e) => Some(format!("unshare (util-linux) cannot run: {e}")),
    }
}

#[test]
fn a_claimant_in_another_pid_namespace_keeps_its_group() {
    if let Some(fabric) = std::env::var_os(CHILD) {
        return child(Path::new(&fabric));
    }
    if let Some(reason) = unshare_unavailable() {
        // Visible, and a failure where everything must run.
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true and this test cannot run: {reason}"
        );
        eprintln!("SKIPPED {TEST}: {reason}");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fabric = dir.path().join("fabric");
    let path = fabric.to_str().unwrap();
    let out = gba(&["sim", "create", "--ports", "2", "--path", path]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    let mut holder = Command::new("unshare")
        .args(["--user", "--pid", "--fork", "--map-root-user"])
        .arg(std::env::current_exe().unwrap())
        .args(["--exact", TEST, "--nocapture", "--test-threads", "1"])
        .env(CHILD, &fabric)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("unshare runs");
    let mut lines = BufReader::new(holder.stdout.take().unwrap()).lines();
    // The test harness may print the test's name first on the same line.
    let held = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|l| l.split_once("held pid ")?.1.trim().parse::<u64>().ok());
    let Some(inner_pid) = held else {
        let out = holder.wait_with_output().unwrap();
        panic!("the child did not claim: {}", text(&out.stderr));
    };

    // The record: held, alive, from another PID namespace, under the pid of that namespace.
    let sim = gba_sim::Fabric::open(&fabric).unwrap();
    let claims = sim.claims(0);
    assert_eq!(claims.len(), 1, "{claims:?}");
    let claim = claims[0];
    assert_eq!((claim.group, claim.pid), (GROUP, inner_pid));
    assert!(claim.alive && claim.other_pid_namespace, "{claim:?}");

    let shown = format!("g{GROUP}={inner_pid} (other PID namespace)");
    let status = text(&gba(&["sim", "status", "--path", path]).stdout);
    assert!(status.contains(&shown), "{status}");
    let device = gba_hal::DeviceAddress::sim(&fabric, 0).to_string();
    let dump = text(&gba(&["dump", "--device", &device, "--group", "3"]).stdout);
    assert!(dump.contains(&shown), "{dump}");

    let out = gba(&["sim", "fault", "--path", path, "reclaim"]);
    assert!(
        text(&out.stdout).contains("nothing to reclaim"),
        "reclaim took the group: {}",
        text(&out.stdout)
    );
    let here = Device::new(SimBackend::open(&fabric, 0).unwrap()).unwrap();
    assert!(
        matches!(here.claim(config()), Err(Error::GroupBusy { group: GROUP })),
        "a claim of this namespace must not take the group"
    );
    assert!(!here.free_groups().contains(GROUP));

    // The holder leaves: the group is free again.
    drop(holder.stdin.take());
    assert!(
        lines
            .by_ref()
            .map_while(Result::ok)
            .any(|l| l.contains("left")),
        "the child leaves the group"
    );
    // Read the child's output to its end: closing the pipe early would fail its test harness's
    // last lines with EPIPE.
    lines.for_each(drop);
    let out = holder.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(sim.claims(0).is_empty());
    here.claim(config()).expect("free once its holder left");
}
