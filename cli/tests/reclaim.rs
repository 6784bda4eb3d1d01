//! `gba reclaim --device ADDR` on a UIO port (a fake sysfs over a simulator fabric, as
//! `dump_claims.rs` lays it out): a group whose claimant was SIGKILLed is taken over, reset on
//! the port and its claim freed; a live claim is left alone and reported as live; a second run
//! finds nothing. Nobody else opens the port in between: this is the node whose killed job has
//! no successor, where the group stayed busy switch-wide for ever.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use gba_barrier::AnyDevice;
use gba_hal::backends::{UIO_SYSFS_ENV, UioBackend};
use gba_hal::{Backend, Claim, Device, DeviceAddress, GroupConfig, MemberSet};
use gba_pac::tock_registers::interfaces::Readable;
use gba_sim::{CreateOptions, Fabric};

const CHILD: &str = "GBA_RECLAIM_TEST_CHILD";
const DEAD_GROUP: usize = 2;
const LIVE_GROUP: usize = 7;

/// Run by the test below as a child process: claims group DEAD_GROUP of the UIO port named
/// by the variable (port 0 alone), prints `claimed`, and sleeps until it is killed. Does
/// nothing in an ordinary test run.
#[test]
#[ignore = "a child process of the test below, started with --ignored"]
fn child_claims_until_killed() {
    let Ok(device) = std::env::var(CHILD) else {
        return;
    };
    let device = AnyDevice::open(&DeviceAddress::Uio(device.into())).expect("child opens");
    let members: MemberSet = [0].into_iter().collect();
    let config = GroupConfig::new(DEAD_GROUP, members).timeout(Some(Duration::from_secs(60)));
    let _barrier = device.barrier(config).expect("child claims");
    println!("claimed");
    std::thread::sleep(Duration::from_secs(600));
}

fn gba(args: &[&str], sysfs: &Path, segments: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gba"))
        .args(args)
        .env(UIO_SYSFS_ENV, sysfs)
        .env(gba_hal::host::SEGMENT_DIR_ENV, segments)
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn reclaim_resets_a_killed_claimants_group_and_leaves_a_live_one() {
    let root = tempfile::tempdir().unwrap();
    let fabric_dir = root.path().join("fabric");
    let options = CreateOptions {
        per_port_windows: true,
        guest_ram: Some(0x10000),
    };
    let fabric = Fabric::create_with(&fabric_dir, 1, options).unwrap();
    let (uio, sysfs) = common::fake_uio(root.path(), &fabric_dir, 0);
    let segments = root.path().join("segments");
    std::fs::create_dir(&segments).unwrap();
    let address = uio.to_str().unwrap();

    // The switch, stepped here as `gba sim run` steps a VM fabric: the child's configuration
    // and the reclaim's RESET need it.
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                fabric.step();
                std::thread::sleep(Duration::from_micros(50));
            }
        });
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            scenario(&fabric, address, &uio, &sysfs, &segments)
        }));
        done.store(true, Ordering::Relaxed);
        if let Err(panic) = result {
            std::panic::resume_unwind(panic);
        }
    });
}

fn scenario(fabric: &Fabric, address: &str, uio: &Path, sysfs: &Path, segments: &Path) {
    // The killed job: a child that claims and configures DEAD_GROUP, then SIGKILL.
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_claims_until_killed",
            "--ignored",
            "--nocapture",
        ])
        .env(CHILD, uio)
        .env(UIO_SYSFS_ENV, sysfs)
        .env(gba_hal::host::SEGMENT_DIR_ENV, segments)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let dead = u64::from(child.id());
    let claimed = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok)
        .any(|l| l == "claimed");
    child.kill().unwrap(); // SIGKILL: no clean-up runs
    child.wait().unwrap();
    assert!(claimed, "the child never claimed group {DEAD_GROUP}");

    // This process holds LIVE_GROUP through the port's arbiter, as `Group::configure` would.
    let device = Device::new(UioBackend::open_in(uio, sysfs, segments).unwrap()).unwrap();
    let host = device.backend().host();
    assert_eq!(host.claim(LIVE_GROUP, None, &MemberSet::new()), Claim::Won);
    let flag = device.backend().alloc_flag(LIVE_GROUP, 64).unwrap();
    assert!(host.hold(LIVE_GROUP, &flag));
    let before = device.snapshot(DEAD_GROUP).unwrap();
    assert!(
        before.enabled_here && before.busy_on_switch,
        "the killed job's group: {before:?}"
    );

    let out = gba(&["reclaim", "--device", address], sysfs, segments);
    let said = text(&out);
    println!("gba reclaim --device {address}:\n{said}");
    assert_eq!(out.status.code(), Some(0), "{said}");
    let uid = gba_hal::host::process::my_uid();
    assert!(
        said.contains(&format!(
            "reset g{DEAD_GROUP} on port 0: pid {dead} (dead) uid {uid}; its claim is freed"
        )),
        "{said}"
    );
    let me = std::process::id();
    assert!(
        said.contains(&format!("g{LIVE_GROUP}={me} uid {uid} held"))
            && said.contains("live: left alone"),
        "{said}"
    );
    assert!(!said.contains(&format!("g{DEAD_GROUP}={dead}")), "{said}");

    // The group is reset on the port (CONTROL 0) and, once the switch has stepped, not busy.
    let control = device
        .registers()
        .group(DEAD_GROUP)
        .unwrap()
        .control()
        .get();
    assert_eq!(
        control, 0,
        "CONTROL of group {DEAD_GROUP} after the reclaim"
    );
    for _ in 0..4 {
        fabric.step();
    }
    let after = device.snapshot(DEAD_GROUP).unwrap();
    assert!(
        !after.enabled_here && !after.busy_on_switch,
        "still busy: {after:?}"
    );
    assert!(device.free_groups().contains(DEAD_GROUP));

    // `gba dump` lists the live claim only.
    let dump = gba(&["dump", "--device", address], sysfs, segments);
    let dumped = text(&dump);
    assert!(dumped.contains("host claims (1):"), "{dumped}");
    assert!(dumped.contains(&format!("g{LIVE_GROUP}={me}")), "{dumped}");

    // Nothing left: a second run says so and still leaves the live claim.
    let again = gba(&["reclaim", "--device", address], sysfs, segments);
    let said = text(&again);
    assert_eq!(again.status.code(), Some(0), "{said}");
    assert!(said.contains(": nothing to reclaim"), "{said}");
    assert!(said.contains("host claims (1):"), "{said}");
    assert_eq!(device.backend().host().claim_list().len(), 1);

    assert!(host.leave(LIVE_GROUP));
    host.release(LIVE_GROUP);
}

/// A device that cannot be opened is an error naming it, exit 1; so is a bad address.
#[test]
fn reclaim_names_what_it_cannot_open() {
    let root = tempfile::tempdir().unwrap();
    let missing = root.path().join("dev/uio9");
    let out = gba(
        &["reclaim", "--device", missing.to_str().unwrap()],
        &root.path().join("sysfs"),
        root.path(),
    );
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.starts_with("error: cannot reclaim: ") && said.contains("uio9"),
        "{said}"
    );
    // The kernel path (no driver loaded here): named too.
    let kernel = gba(
        &["reclaim", "--device", "/dev/gba9"],
        root.path(),
        root.path(),
    );
    let said = text(&kernel);
    assert_eq!(kernel.status.code(), Some(1), "{said}");
    assert!(
        said.starts_with("error: cannot reclaim: ") && said.contains("/dev/gba9"),
        "{said}"
    );
    let bad = gba(
        &["reclaim", "--device", "nonsense"],
        root.path(),
        root.path(),
    );
    let said = text(&bad);
    assert_eq!(bad.status.code(), Some(1), "{said}");
    assert!(
        said.starts_with("error: ") && said.contains("nonsense"),
        "{said}"
    );
}

/// On the simulator any port reaches the whole fabric's host state: `gba reclaim` on port 0
/// resets a dead claim that a killed job left on port 1.
#[test]
fn reclaim_on_a_simulator_port_frees_the_other_ports_dead_claims() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("fabric");
    let fabric = std::sync::Arc::new(Fabric::create(&dir, 2).unwrap());
    let planter = Device::new(gba_sim::SimBackend::attach(fabric.clone(), 1).unwrap()).unwrap();
    let members: MemberSet = [1].into_iter().collect();
    let planted = planter
        .claim(GroupConfig::new(5, members).timeout(Some(Duration::from_secs(60))))
        .unwrap();
    // A killed job's claim: the record names a process that has exited.
    let mut gone = Command::new("true").spawn().unwrap();
    let dead = u64::from(gone.id());
    gone.wait().unwrap();
    fabric.set_group_owner(1, 5, Some(dead));

    let address = format!("sim:{}#0", dir.display());
    let out = gba(&["reclaim", "--device", &address], root.path(), root.path());
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(
        said.contains(&format!("reset g5 on port 1: pid {dead} (dead)")),
        "{said}"
    );
    assert_eq!(fabric.group_owner(1, 5), None, "{said}");
    assert!(!planted.snapshot().enabled_here, "{said}");
    // Its claim was taken over: the planter's drop finds nothing of it to leave.
    drop(planted);
}
