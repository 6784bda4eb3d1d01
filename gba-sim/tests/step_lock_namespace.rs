//! The step lock against a stepper in another PID namespace: this process holds the lock; a
//! process started with `unshare --user --pid --fork --map-root-user` (what any unprivileged
//! user can do) tries to take it. Our pid names no process in its namespace, so before the
//! lock recorded the PID namespace it took this live holder for dead and took the lock over
//! mid-step; now the holder counts as alive there and the lock stays ours.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// Set in the child: the fabric whose step lock it tries.
const CHILD: &str = "GBA_STEP_LOCK_CHILD";
const TEST: &str = "a_stepper_in_another_pid_namespace_does_not_take_a_live_holders_lock";

/// The child: tries the lock for longer than the lock's suspicion interval (10 ms) twice over,
/// so that it asks whether the holder lives, and says what it got.
fn child(fabric: &Path) {
    let fabric = gba_sim::Fabric::open(fabric).expect("the parent's fabric");
    let until = Instant::now() + Duration::from_millis(100);
    let took = loop {
        if fabric.try_lock_step().is_some() {
            break true;
        }
        if Instant::now() > until {
            break false;
        }
        std::thread::yield_now();
    };
    println!("lock: {}", if took { "taken" } else { "refused" });
}

fn unshare_unavailable() -> Option<String> {
    match Command::new("unshare")
        .args(["--user", "--pid", "--fork", "--map-root-user", "true"])
        .output()
    {
        Ok(out) if out.status.success() => None,
        Ok(out) => Some(format!(
            "`unshare --user --pid --fork --map-root-user true` failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(e) => Some(format!("unshare (util-linux) cannot run: {e}")),
    }
}

#[test]
fn a_stepper_in_another_pid_namespace_does_not_take_a_live_holders_lock() {
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
    let path = dir.path().join("fabric");
    let fabric = gba_sim::Fabric::create(&path, 1).unwrap();
    let run_child = || {
        let out = Command::new("unshare")
            .args(["--user", "--pid", "--fork", "--map-root-user"])
            .arg(std::env::current_exe().unwrap())
            .args(["--exact", TEST, "--nocapture", "--test-threads", "1"])
            .env(CHILD, &path)
            .output()
            .expect("unshare runs");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout
    };
    let guard = fabric.lock_step();
    let held = run_child();
    assert!(held.contains("lock: refused"), "{held}");
    drop(guard);
    let free = run_child();
    assert!(free.contains("lock: taken"), "a free lock is taken: {free}");
}
