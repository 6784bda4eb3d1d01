//! `gba sim` and `gba dump` through the real binary, including fabrics for virtual machines
//! (`--per-port-windows --guest-ram SIZE`; the guests themselves are tests/vm/cluster.sh's).

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

fn shm_dir() -> tempfile::TempDir {
    if Path::new("/dev/shm").is_dir() {
        tempfile::tempdir_in("/dev/shm").unwrap()
    } else {
        tempfile::tempdir().unwrap()
    }
}

#[test]
fn create_status_dump_fault_destroy() {
    let dir = shm_dir();
    let fabric = dir.path().join("fabric");
    let path = fabric.to_str().unwrap();

    let out = gba(&["sim", "create", "--ports", "3", "--path", path]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), path);

    let out = gba(&["sim", "create", "--ports", "3", "--path", path]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("already exists"),
        "{}",
        text(&out.stderr)
    );

    let out = gba(&["sim", "status", "--path", path]);
    assert_eq!(out.status.code(), Some(0));
    let status = text(&out.stdout);
    assert!(status.contains("3 ports"), "{status}");
    assert!(status.contains("no group is enabled"), "{status}");

    // The dump decodes identity from the spec's fields.
    let device = gba_hal::DeviceAddress::sim(path, 2).to_string();
    let out = gba(&["dump", "--device", &device]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let dump = text(&out.stdout);
    assert!(dump.contains("PORT=2"), "{dump}");
    assert!(dump.contains("MAX_MEMBERS=708"), "{dump}");
    let out = gba(&["dump", "--device", &device, "--group", "5"]);
    let dump = text(&out.stdout);
    assert!(dump.contains("group[5]"), "{dump}");
    assert!(dump.contains("ID=5"), "{dump}");
    assert!(
        dump.contains("ARRIVAL") && dump.contains("write-only: not readable"),
        "{dump}"
    );
    assert!(dump.contains("ERROR_CODE=NONE"), "{dump}");
    assert!(dump.contains("host claims (0):"), "{dump}");

    // A claim record (held by this test process) shows in the dump and the status.
    let sim = gba_sim::Fabric::open(&fabric).unwrap();
    sim.set_group_owner(2, 5, Some(u64::from(std::process::id())));
    let out = gba(&["dump", "--device", &device, "--group", "5"]);
    let dump = text(&out.stdout);
    // This process's uid: the owner of the fabric it just made.
    let uid = std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(&fabric).unwrap());
    let claim = format!(
        "g5={} uid {uid} held team 0xffffffffffffffffffffffffffffffff joined 1/1",
        std::process::id()
    );
    assert!(dump.contains(&claim), "{dump}");
    // What the job holds: one group, by this process.
    let held = format!("uid {uid}: 1 group (pid {}: 1)", std::process::id());
    assert!(dump.contains(&format!("groups held: {held}")), "{dump}");
    let out = gba(&["sim", "status", "--path", path]);
    let status = text(&out.stdout);
    assert!(
        status.contains(&format!("groups held per claimant:\n  {held}")),
        "{status}"
    );
    let out = gba(&["sim", "status", "--json", "--path", path]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(status["ports"], 3, "{status}");
    assert_eq!(status["groups"], serde_json::json!([]), "{status}");
    let port2 = &status["port_reports"][2];
    assert_eq!(port2["port"], 2, "{status}");
    assert_eq!(port2["claims"][0]["group"], 5, "{status}");
    assert_eq!(
        port2["claims"][0]["pid"],
        u64::from(std::process::id()),
        "{status}"
    );
    assert_eq!(port2["claims"][0]["uid"], uid, "{status}");
    let holder = &status["holders"][0];
    assert_eq!(holder["uid"], uid, "{status}");
    assert_eq!(holder["groups"], 1, "{status}");
    assert_eq!(holder["group_ids"], serde_json::json!([5]), "{status}");
    assert_eq!(
        holder["pids"][0]["pid"],
        u64::from(std::process::id()),
        "{status}"
    );
    assert_eq!(holder["pids"][0]["groups"], 1, "{status}");
    let out = gba(&["dump", "--json", "--device", &device]);
    let dump: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(dump["holders"][0]["groups"], 1, "{dump}");
    sim.set_group_owner(2, 5, None);
    let out = gba(&["sim", "status", "--json", "--path", path]);
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(status["holders"], serde_json::json!([]), "{status}");

    let out = gba(&["sim", "fault", "--path", path, "drop", "--port", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // `--path` after the fault's name too, as in every other subcommand.
    let out = gba(&[
        "sim", "fault", "delay", "--port", "1", "--ms", "1", "--path", path,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = gba(&["sim", "status", "--path", ""]);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("the path is empty"),
        "{}",
        text(&out.stderr)
    );
    let out = gba(&["sim", "fault", "--path", path, "dead", "--port", "7"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("port 7 does not exist"),
        "{}",
        text(&out.stderr)
    );
    let out = gba(&["sim", "fault", "--path", path, "reclaim"]);
    assert!(text(&out.stdout).contains("nothing to reclaim"));

    let out = gba(&["sim", "destroy", "--path", path]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!fabric.exists());
    let out = gba(&["sim", "status", "--path", path]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no simulator fabric at"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn errors_are_one_line_and_never_a_panic() {
    for args in [
        vec![
            "sim",
            "create",
            "--ports",
            "0",
            "--path",
            "/dev/shm/never-made",
        ],
        vec![
            "sim",
            "create",
            "--ports",
            "709",
            "--path",
            "/dev/shm/never-made",
        ],
        vec!["dump", "--device", "sim:/nonexistent#0"],
        vec!["dump", "--device", "/dev/null"],
        vec!["dump", "--device", "sim:#0"],
        vec!["dump"],
        vec!["sim", "destroy", "--path", "/nonexistent"],
    ] {
        let out = gba(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
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

/// `gba` with `GBA_SHARED_GROUP` naming this process's own group (a new file's group).
fn gba_under_own_group(args: &[&str]) -> Output {
    let probe = tempfile::NamedTempFile::new().unwrap();
    let gid = std::os::unix::fs::MetadataExt::gid(&probe.as_file().metadata().unwrap());
    Command::new(env!("CARGO_BIN_EXE_gba"))
        .args(args)
        .env("NO_COLOR", "1")
        .env("GBA_SHARED_GROUP", gid.to_string())
        .env_remove("GBA_DEVICE")
        .env_remove("GBA_SIM_FABRIC")
        .output()
        .expect("the gba binary runs")
}

/// Under a configured group a virtual machine's files (mapped by QEMU by path, so files any
/// member could truncate) are refused before anything is made, each layout by name; and a
/// window file the group may write, found in a fabric made before, is refused at open.
#[test]
fn files_for_virtual_machines_are_refused_under_a_configured_group() {
    let dir = shm_dir();
    for (extra, what) in [
        (
            &["--per-port-windows"][..],
            "fabric: window files per port (",
        ),
        (&["--guest-ram", "1M"][..], "fabric: guest RAM files ("),
        (
            &["--per-port-windows", "--guest-ram", "1M"][..],
            "fabric: window files per port and guest RAM files (",
        ),
    ] {
        let fabric = dir.path().join("refused");
        let path = fabric.to_str().unwrap();
        let args = [
            &["sim", "create", "--ports", "2"][..],
            extra,
            &["--path", path],
        ]
        .concat();
        let out = gba_under_own_group(&args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{extra:?}: {err}");
        assert!(
            err.contains(what)
                && err.contains("under a configured group")
                && err.contains("unset GBA_SHARED_GROUP"),
            "{extra:?}: {err}"
        );
        assert!(!fabric.exists(), "{extra:?}: nothing is made");
    }
    // The plain layout is still made under the group (its memory is System V segments).
    let plain = dir.path().join("plain");
    let out = gba_under_own_group(&[
        "sim",
        "create",
        "--ports",
        "2",
        "--path",
        plain.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = gba(&["sim", "destroy", "--path", plain.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    // A single-user VM fabric whose window someone made group-writable: refused at open.
    let fabric = dir.path().join("vm");
    let path = fabric.to_str().unwrap();
    let out = gba(&[
        "sim",
        "create",
        "--ports",
        "2",
        "--per-port-windows",
        "--path",
        path,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let window = fabric.join("window-1");
    std::fs::set_permissions(&window, std::os::unix::fs::PermissionsExt::from_mode(0o660)).unwrap();
    let device = gba_hal::DeviceAddress::sim(path, 0).to_string();
    let out = gba_under_own_group(&["dump", "--device", &device]);
    let err = text(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains(window.to_str().unwrap()) && err.contains("may truncate"),
        "{err}"
    );
    // Made the owner's alone again, it is opened as before.
    std::fs::set_permissions(&window, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let out = gba(&["dump", "--device", &device]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = gba(&["sim", "destroy", "--path", path]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
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

/// `gba dump` on a live group shows the episodes completed so far: it steps the simulator
/// first (the fast path leaves RELEASE_SEQ to the next switch step).
#[test]
fn dump_of_a_live_group_is_current() {
    let dir = shm_dir();
    let fabric = dir.path().join("fabric");
    let path = fabric.to_str().unwrap();
    let out = gba(&["sim", "create", "--ports", "1", "--path", path]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    let address = gba_hal::DeviceAddress::sim(path, 0);
    let device = gba_barrier::AnyDevice::open(&address).unwrap();
    let members: gba_hal::MemberSet = [0].into_iter().collect();
    let mut barrier = device
        .barrier(gba_hal::GroupConfig::new(3, members))
        .unwrap();
    for _ in 0..5 {
        barrier.wait(None).unwrap();
    }
    let out = gba(&["dump", "--device", &address.to_string(), "--group", "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let dump = text(&out.stdout);
    let line = dump
        .lines()
        .find(|l| l.contains("RELEASE_SEQ"))
        .unwrap_or_else(|| panic!("no RELEASE_SEQ line in\n{dump}"));
    assert!(line.contains("SEQUENCE=5"), "{line}\n{dump}");
    let out = gba(&[
        "dump",
        "--json",
        "--device",
        &address.to_string(),
        "--group",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let dump: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let block = &dump["blocks"][0];
    assert_eq!(block["index"], 3, "{dump}");
    let register = |name: &str| {
        block["registers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {dump}"))
            .clone()
    };
    assert_eq!(register("RELEASE_SEQ")["value"], 5, "{dump}");
    assert!(register("ARRIVAL")["not_read"].is_string(), "{dump}");
    let out = gba(&["sim", "status", "--json", "--path", path]);
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(status["groups"][0]["group"], 3, "{status}");
    assert_eq!(status["groups"][0]["release_seq"], 5, "{status}");
    assert_eq!(
        status["groups"][0]["members"],
        serde_json::json!([0]),
        "{status}"
    );
    assert_eq!(
        status["port_reports"][0]["barriers_completed"], 5,
        "{status}"
    );
    drop(barrier);
    let out = gba(&["sim", "destroy", "--path", path]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// A fabric directory another user could have planted or can write is refused by
/// name (not "already exists: use it"), and so is a fabric whose switch file is a directory.
#[test]
fn a_planted_or_writable_fabric_is_refused_by_name() {
    use std::os::unix::fs::PermissionsExt;
    let root = shm_dir();
    let planted = root.path().join("planted");
    let path = planted.to_str().unwrap();
    assert!(
        gba(&["sim", "create", "--ports", "2", "--path", path])
            .status
            .success()
    );
    std::fs::set_permissions(&planted, std::fs::Permissions::from_mode(0o777)).unwrap();
    for args in [
        vec!["sim", "create", "--ports", "2", "--path", path],
        vec!["sim", "status", "--path", path],
    ] {
        let out = gba(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("refusing") && stderr.contains(path) && stderr.contains("0777"),
            "{args:?}: {stderr}"
        );
    }
    let odd = root.path().join("odd");
    std::fs::create_dir_all(odd.join("switch")).unwrap();
    let out = gba(&["sim", "status", "--path", odd.to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("switch") && stderr.contains("not a regular file"),
        "{stderr}"
    );
}
