//! A process killed (SIGKILL) while it holds the step lock does not wedge the fabric.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use gba_sim::Fabric;

const CHILD_ENV: &str = "GBA_SIM_TEST_LOCK_HOLDER";

/// Run as a child process by the test below: takes the step lock, says so, and waits to be
/// killed. In an ordinary test run the variable is unset and this does nothing.
#[test]
#[ignore = "a child process of a_member_killed_while_stepping_does_not_wedge_the_others, started with --ignored"]
fn child_holds_the_step_lock_until_killed() {
    let Ok(path) = std::env::var(CHILD_ENV) else {
        return;
    };
    let fabric = Fabric::open(path.as_ref()).expect("child opens the fabric");
    fabric.leak_step_lock();
    println!("holding");
    std::thread::sleep(Duration::from_secs(120));
}

#[test]
fn a_member_killed_while_stepping_does_not_wedge_the_others() {
    let (dir, fabric) = common::fabric(2);
    let path = dir.path().join("fabric");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_holds_the_step_lock_until_killed",
            "--ignored",
            "--nocapture",
        ])
        .env(CHILD_ENV, &path)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn the lock holder");
    // Wait until the child holds the lock: stepping is then impossible.
    let deadline = Instant::now() + Duration::from_secs(60);
    while fabric.progress() {
        assert!(Instant::now() < deadline, "the child never took the lock");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(!fabric.progress(), "a live holder keeps the lock");
    child.kill().expect("SIGKILL the holder");
    child.wait().expect("reap the holder");

    // The survivors step again: the next stepper takes the lock over.
    let mut members = common::formed(&fabric, 0, 2);
    for m in &mut members {
        m.arrive();
    }
    for m in &members {
        m.wait(10_000).expect("released after the holder died");
    }
    let recoveries = fabric.counters().lock_recoveries;
    assert_eq!(
        recoveries, 1,
        "exactly one takeover of the dead holder's lock"
    );
}
