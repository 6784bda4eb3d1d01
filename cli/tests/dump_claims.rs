//! `gba dump` shows a hardware port's claims: it asks the port's arbiter, whatever
//! the backend, instead of matching on the backend's type (which is how VFIO's claims went
//! missing). The port is a UIO device over a fake sysfs whose window is a simulator fabric's
//! (as `gba-barrier/tests/uio_host.rs` lays it out); VFIO's backend holds the same
//! `SegmentArbiter`, which needs a kernel's VFIO to open (the VM cluster's guests).

mod common;

use std::process::Command;

use gba_hal::backends::UioBackend;
use gba_hal::{Backend, Claim, MemberSet};
use gba_sim::{CreateOptions, Fabric};

#[test]
fn dump_shows_the_claims_of_a_uio_port() {
    let root = tempfile::tempdir().unwrap();
    let fabric = root.path().join("fabric");
    let options = CreateOptions {
        per_port_windows: true,
        guest_ram: Some(0x10000),
    };
    Fabric::create_with(&fabric, 1, options).unwrap();
    let (device, sysfs) = common::fake_uio(root.path(), &fabric, 0);
    let segments = root.path().join("segments");
    std::fs::create_dir(&segments).unwrap();

    // This process holds group 7 through the port's arbiter, as `Group::configure` would.
    let backend = UioBackend::open_in(&device, &sysfs, &segments).unwrap();
    let host = backend.host();
    assert_eq!(host.claim(7, None, &MemberSet::new()), Claim::Won);
    let flag = backend.alloc_flag(7, 64).unwrap();
    assert!(host.hold(7, &flag));

    let out = Command::new(env!("CARGO_BIN_EXE_gba"))
        .args(["dump", "--device", device.to_str().unwrap(), "--group", "7"])
        .env("NO_COLOR", "1")
        .env("GBA_UIO_SYSFS", &sysfs)
        .env(gba_hal::host::SEGMENT_DIR_ENV, &segments)
        .output()
        .unwrap();
    let dump = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dump.contains("host claims (1):"), "{dump}");
    let claim = format!(
        "g7={} uid {} held",
        std::process::id(),
        gba_hal::host::process::my_uid()
    );
    assert!(dump.contains(&claim), "{dump}");
    assert!(dump.contains("slot 0: pid"), "{dump}");

    assert!(host.leave(7));
    host.release(7);
    let out = Command::new(env!("CARGO_BIN_EXE_gba"))
        .args(["dump", "--device", device.to_str().unwrap(), "--group", "7"])
        .env("GBA_UIO_SYSFS", &sysfs)
        .env(gba_hal::host::SEGMENT_DIR_ENV, &segments)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("host claims (0):"));
}
