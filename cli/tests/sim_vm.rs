//! `gba sim create --per-port-windows --guest-ram SIZE`: a fabric for virtual machines, through
//! the real binary (the guests themselves are tests/vm/cluster.sh's).

use std::path::Path;
use std::process::{Command, Output};

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

#[test]
fn per_port_windows_and_guest_ram_files_are_created_opened_and_destroyed() {
    let dir = tempfile::tempdir_in("/dev/shm").unwrap_or_else(|_| tempfile::tempdir().unwrap());
    let fabric = dir.path().join("fabric");
    let path = fabric.to_str().unwrap();
    let args = ["sim", "create", "--ports", "2", "--per-port-windows"];
    let out = gba(&[&args[..], &["--guest-ram", "1M", "--path", path]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for p in 0..2 {
        let window = std::fs::metadata(fabric.join(format!("window-{p}"))).unwrap();
        assert_eq!(
            window.len(),
            512 * 1024,
            "a power of two, for an ivshmem BAR"
        );
        let ram = std::fs::metadata(fabric.join(format!("guest-{p}.ram"))).unwrap();
        assert_eq!(ram.len(), 1 << 20);
    }
    assert!(!fabric.join("windows").exists());
    // Every other command opens it as any fabric.
    let device = gba_hal::DeviceAddress::sim(path, 1).to_string();
    let out = gba(&["dump", "--device", &device]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("PORT=1"),
        "{}",
        text(&out.stdout)
    );
    let out = gba(&["sim", "destroy", "--path", path]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        !Path::new(path).exists(),
        "every file and the directory removed"
    );
}

#[test]
fn a_bad_guest_ram_size_is_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fabric");
    for (size, says) in [
        ("12X", "is not a size"),
        ("0", "is not a size"),
        ("99999999999G", "is not a size"),
        ("1000", "whole number of 4 KiB pages"),
    ] {
        let out = gba(&[
            "sim",
            "create",
            "--ports",
            "1",
            "--guest-ram",
            size,
            "--path",
            path.to_str().unwrap(),
        ]);
        let stderr = text(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{size}");
        assert!(stderr.contains(says), "{size}: {stderr}");
        assert!(!stderr.contains("panicked"), "{size}: {stderr}");
        assert!(!path.exists(), "{size}: nothing left behind");
    }
}
